package codegen

import (
	"path"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// genMain writes main.go: the program is the runtime's command line over
// the generated pipeline, with the S3 store when the build asks for it.
func (g *generator) genMain(f *jen.File) {
	f.Comment("main runs the pipeline's command line (run, plan, history, read, version).")
	if !g.opts.S3 {
		f.Func().Id("main").Params().Block(jen.Qual(etlPkg, "Main").Call(jen.Id("newPipeline").Call()))
		return
	}
	f.Func().Id("main").Params().Block(
		jen.Id("p").Op(":=").Id("newPipeline").Call(),
		jen.Id("p").Dot("OpenS3").Op("=").Qual(s3storePkg, "Open").Comment("S3 support: --warehouse s3://BUCKET/PREFIX"),
		jen.Qual(etlPkg, "Main").Call(jen.Id("p")),
	)
}

// genPipeline writes pipeline.go: newPipeline, the etl.Pipeline the runtime runs (datasets in dependency
// order, each with its schema, source, flows and expectations).
func (g *generator) genPipeline(f *jen.File) {
	p := g.u.Pipeline
	for _, fp := range g.flowPkg {
		f.ImportName(fp, path.Base(fp))
	}
	var ds []jen.Code
	for _, d := range g.order {
		ds = append(ds, g.genDataset(d))
		for _, f := range g.u.Pipeline.FlowsInto(d.Name) {
			if x := g.extras[f]; x != nil && x.late != nil {
				lf := []field{
					{"Name", jen.Lit(x.late.Name)},
					{"Kind", jen.Qual(etlPkg, "StreamingTable")},
					{"Schema", jen.Qual(g.flowPkg[f], lateSchemaVar)},
				}
				if g.u.IcebergTable(x.late.Name) {
					lf = append(lf, field{"Iceberg", jen.True()})
				}
				lf = append(lf, field{"Definition", jen.Lit("late table of flow " + f.Name + " of " + d.Name + "\n" + g.definition(d))})
				ds = append(ds, fields(true, lf...))
			}
		}
	}
	file := g.opts.SourceFile
	if file == "" {
		file = p.Pos.File
	}
	pf := []field{
		{"Name", jen.Lit(p.Name)},
		{"File", jen.Lit(file)},
		{"Compiler", jen.Lit(g.opts.Compiler)},
		{"Datasets", jen.Index().Op("*").Qual(etlPkg, "Dataset").ValuesFunc(func(gr *jen.Group) {
			for _, d := range ds {
				gr.Line().Add(d)
			}
			gr.Line()
		})},
	}
	if usesKafka(p) {
		// only a pipeline that reads or writes Kafka links a Kafka client
		pf = append(pf, field{"Kafka", jen.Qual(kafkaPkg, "New").Call()})
	}
	f.Comment("newPipeline describes the pipeline to the runtime.")
	f.Func().Id("newPipeline").Params().Op("*").Qual(etlPkg, "Pipeline").Block(
		jen.Return(jen.Op("&").Qual(etlPkg, "Pipeline").Add(fields(true, pf...))))
}

// usesKafka reports whether the pipeline has a Kafka source or sink.
func usesKafka(p *ir.Pipeline) bool {
	for _, d := range p.Datasets {
		if d.Source != nil && d.Source.Format == ir.FormatKafka || d.Kind == ir.KindSink && strings.EqualFold(d.Format, "kafka") {
			return true
		}
	}
	return false
}

// genSchema declares the Arrow schema of a dataset's resolved columns.
func (g *generator) genSchema(f *jen.File, d *ir.Dataset) {
	s := g.u.Datasets[d].Visible()
	f.Commentf("%s is the schema of %s %s.", g.schemaVar[d], d.Kind, d.Name)
	f.Var().Id(g.schemaVar[d]).Op("=").Qual(arrowPkg, "NewSchema").Call(
		jen.Index().Qual(arrowPkg, "Field").ValuesFunc(func(gr *jen.Group) {
			for _, c := range s {
				gr.Line().Add(fields(false, field{"Name", jen.Lit(c.Name)}, field{"Type", arrowType(c.Type)}, field{"Nullable", jen.Lit(c.Nullable)}))
			}
			gr.Line()
		}), jen.Nil())
}

var etlKinds = map[ir.DatasetKind]string{
	ir.KindSource: "Source", ir.KindMaterializedView: "MaterializedView", ir.KindStreamingTable: "StreamingTable",
	ir.KindTemporaryView: "TemporaryView", ir.KindView: "View", ir.KindSink: "Sink",
}

var runActions = map[ir.ExpectAction]string{ir.ActWarn: "Warn", ir.ActDrop: "Drop", ir.ActFail: "Fail"}

// genDataset is one dataset's etl.Dataset literal.
func (g *generator) genDataset(d *ir.Dataset) jen.Code {
	fs := []field{
		{"Name", jen.Lit(d.Name)},
		{"Kind", jen.Qual(etlPkg, etlKinds[d.Kind])},
		{"Schema", g.schemaRef(d)},
	}
	if len(d.PartitionBy) > 0 {
		fs = append(fs, field{"PartitionBy", jen.Index().String().ValuesFunc(func(gr *jen.Group) {
			for _, c := range d.PartitionBy {
				gr.Lit(c)
			}
		})})
	}
	if d.Format != "" && d.Kind == ir.KindSink {
		// a table format (parquet, delta) of other kinds is Spark's
		// business; the native warehouse has one
		format := d.Format
		if strings.EqualFold(format, "kafka") {
			format = "kafka" // the runtime's name (etl.kafkaFormat), in any case as written
		}
		fs = append(fs, field{"Format", jen.Lit(format)})
	}
	if g.u.IcebergTable(d.Name) {
		fs = append(fs, field{"Iceberg", jen.True()})
	}
	if len(d.SinkOptions) > 0 {
		fs = append(fs, field{"SinkOptions", kvs(d.SinkOptions)})
	}
	if src := d.Source; src != nil {
		sf := []field{{"Format", jen.Lit(src.Format.String())}}
		if len(src.Paths) > 0 {
			sf = append(sf, field{"Patterns", jen.Index().String().ValuesFunc(func(gr *jen.Group) {
				for _, p := range src.Paths {
					gr.Lit(p)
				}
			})})
		}
		if len(src.Options) > 0 {
			sf = append(sf, field{"Options", kvs(src.Options)})
		}
		if src.Stdin {
			sf = append(sf, field{"Stdin", jen.True()})
		}
		if src.Unbounded {
			sf = append(sf, field{"Unbounded", jen.True()})
		}
		if q := g.quarantineTable(src); q != nil {
			sf = append(sf, field{"QuarantineTable", jen.Lit(q.Name)})
		}
		fs = append(fs, field{"Source", jen.Op("&").Qual(etlPkg, "FileSource").Add(fields(false, sf...))})
	}
	if flows := g.u.Pipeline.FlowsInto(d.Name); len(flows) > 0 {
		fs = append(fs, field{"Flows", jen.Index().Op("*").Qual(etlPkg, "Flow").ValuesFunc(func(gr *jen.Group) {
			for _, fl := range flows {
				gr.Line().Add(g.genFlowSpec(fl))
			}
			gr.Line()
		})})
	}
	if len(d.Expectations) > 0 {
		fs = append(fs, field{"Expectations", jen.Index().Qual(etlPkg, "Expectation").ValuesFunc(func(gr *jen.Group) {
			for _, e := range d.Expectations {
				gr.Add(fields(false, field{"Name", jen.Lit(e.Name)}, field{"Action", jen.Qual(runPkg, runActions[e.Action])}))
			}
		})})
	}
	fs = append(fs, g.incrementalFields(d)...)
	fs = append(fs, field{"Definition", jen.Lit(g.definition(d))})
	return fields(true, fs...)
}

// genFlowSpec is one flow's etl.Flow literal: its inputs (deduplicated,
// with the stream flag of the read) and its generated function.
func (g *generator) genFlowSpec(f *ir.Flow) jen.Code {
	fs := []field{{"Name", jen.Lit(f.Name)}}
	var inputs []jen.Code
	seen := map[string]bool{}
	for _, in := range g.inputsOf(f) {
		key := strings.ToLower(in.Name)
		if seen[key] {
			continue
		}
		seen[key] = true
		inf := []field{{"Name", jen.Lit(in.Name)}}
		if in.Stream {
			inf = append(inf, field{"Stream", jen.True()})
		}
		if b := readBounds(g.inputsOf(f), key); b != nil {
			inf = append(inf, field{"Bounds", jen.Op("&").Qual(etlPkg, "EdgeBounds").Add(fields(false,
				field{"Rows", jen.Lit(b.Rows)}, field{"Bytes", jen.Lit(b.Bytes)}))})
		}
		inputs = append(inputs, fields(false, inf...))
	}
	if len(inputs) > 0 {
		fs = append(fs, field{"Inputs", jen.Index().Qual(etlPkg, "Input").Values(inputs...)})
	}
	if f.Once {
		fs = append(fs, field{"Once", jen.True()})
	}
	if cf, ok := g.cdcSpecField(f); ok {
		fs = append(fs, cf)
	}
	if x := g.extras[f]; x != nil {
		if x.complete {
			fs = append(fs, field{"Complete", jen.True()})
		}
		if x.late != nil {
			fs = append(fs, field{"LateTable", jen.Lit(x.late.Name)}, field{"LateSchema", jen.Qual(g.flowPkg[f], lateSchemaVar)})
		}
	}
	if t := f.Trigger; t != nil {
		tf := field{"Every", jen.Qual("time", "Duration").Call(jen.Lit(int64(t.Interval)))}
		if t.Kind == ir.TriggerAvailableNow {
			tf = field{"AvailableNow", jen.True()}
		}
		fs = append(fs, field{"Trigger", jen.Op("&").Qual(etlPkg, "Trigger").Add(fields(false, tf))})
	}
	if fi := g.u.Flows[f]; fi != nil && fi.Stateful {
		var idle ir.Duration
		for _, in := range fi.Watermarks() {
			if t := in.Watermark.IdleTimeout; t > 0 && (idle == 0 || t < idle) {
				idle = t
			}
		}
		if idle > 0 {
			fs = append(fs, field{"IdleTimeout", jen.Qual("time", "Duration").Call(jen.Lit(int64(idle)))})
		}
	}
	fs = append(fs, field{"Run", jen.Qual(g.flowPkg[f], "Run")})
	return fields(false, fs...)
}

// readBounds is the back-pressure bounds of the first read of input key
// (lower-cased) that declares them (`bound N rows bound M bytes`), or nil.
func readBounds(reads []passes.Input, key string) *ir.EdgeBounds {
	for _, in := range reads {
		if strings.ToLower(in.Name) == key && in.Scan != nil && in.Scan.Bounds != nil {
			return in.Scan.Bounds
		}
	}
	return nil
}

// field is one keyed field of a composite literal.
type field struct {
	name string
	val  jen.Code
}

// fields renders {A: a, B: b} in the given order, one field per line when
// multi is set.
func fields(multi bool, fs ...field) *jen.Statement {
	return jen.ValuesFunc(func(gr *jen.Group) {
		for _, f := range fs {
			if multi {
				gr.Line().Id(f.name).Op(":").Add(f.val)
			} else {
				gr.Id(f.name).Op(":").Add(f.val)
			}
		}
		if multi {
			gr.Line()
		}
	})
}

// inputsOf lists a flow's reads with the datasets' declared names.
func (g *generator) inputsOf(f *ir.Flow) []passes.Input {
	var out []passes.Input
	if fi := g.u.Flows[f]; fi != nil && len(fi.Inputs) > 0 {
		out = append(out, fi.Inputs...)
	} else if f.Query != nil {
		for _, s := range ir.Scans(f.Query) {
			out = append(out, passes.Input{Scan: s, Name: s.Name, Stream: s.Stream})
		}
	}
	for i := range out {
		if d := g.u.Pipeline.LookupDataset(out[i].Name); d != nil {
			out[i].Name = d.Name
		}
	}
	return out
}

// kvs renders ordered key/value pairs as [][2]string.
func kvs(list []ir.KV) jen.Code {
	return jen.Index().Index(jen.Lit(2)).String().ValuesFunc(func(gr *jen.Group) {
		for _, kv := range list {
			gr.Values(jen.Lit(kv.Key), jen.Lit(kv.Value))
		}
	})
}

// definition is the canonical text of a dataset and the flows into it (the
// .thund printer on a pipeline holding only them); a change of it makes the
// dataset stale. Comments are left out: they change no result.
func (g *generator) definition(d *ir.Dataset) string {
	dc := *d
	dc.Doc = nil
	var flows []*ir.Flow
	for _, f := range g.u.Pipeline.FlowsInto(d.Name) {
		fc := *f
		flows = append(flows, &fc)
	}
	return string(ir.Print(&ir.Pipeline{Datasets: []*ir.Dataset{&dc}, Flows: flows}))
}

// quarantineTable is the dataset that receives the malformed records of
// source src (nil for none; check made sure it is a streaming table of the
// right shape).
func (g *generator) quarantineTable(src *ir.SourceSpec) *ir.Dataset {
	if src.Quarantine == nil {
		return nil
	}
	for _, d := range g.u.Pipeline.Datasets {
		if strings.EqualFold(d.Name, src.Quarantine.Table) {
			return d
		}
	}
	return nil
}
