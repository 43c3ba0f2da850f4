package codegen

import (
	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// Change flows (apply changes / AUTO CDC). The apply itself is generic and
// lives in rt/cdc; a change flow's generated function only computes its
// query and projects each row into a change row: the target's data columns
// (taken by name from the query's output and cast to the target's types),
// the sequence value and the delete flag. The target's expectations are
// checked on every change row that is not a delete. The flow's cdc.Spec (a
// package-level variable next to the flow function) tells the runtime the
// keys, SCD type, ignore null updates and the tracked columns.

const cdcPkg = "github.com/nordisk/thund/rt/cdc"

// cdcShape is a change flow's layout against its target's columns.
type cdcShape struct {
	ts      passes.Schema // the target's columns
	data    int           // the data columns: all but __START_AT, __END_AT of SCD 2
	keys    []int
	tracked []int // nil: every non-key column
	seqT    ir.Type
	specVar string
	scd     int
}

// cdcShape is the layout of the flow's change flow, or of its update-mode
// windowed aggregate (applied as SCD type 1 by its group keys), from the
// plan; nil for other flows.
func (g *flowGen) cdcShape() *cdcShape {
	cp := g.plan.CDC
	if cp == nil {
		return nil
	}
	if cp.Update {
		g.extra(g.flow).update = true
	}
	return &cdcShape{ts: g.u.Datasets[g.target].Visible(), data: cp.Data, keys: cp.Keys, tracked: cp.Tracked,
		seqT: cp.Seq, specVar: "CDC", scd: cp.SCD}
}

// genCDCSpec declares the flow's cdc.Spec, the apply's parameters.
func (g *flowGen) genCDCSpec() {
	sh := g.cdc
	ints := func(list []int) jen.Code {
		return jen.Index().Int().ValuesFunc(func(gr *jen.Group) {
			for _, i := range list {
				gr.Lit(i)
			}
		})
	}
	fs := []field{
		{"Target", g.schemaRef(g.target)},
		{"Keys", ints(sh.keys)},
		{"Sequence", arrowType(sh.seqT)},
		{"SCD", jen.Lit(sh.scd)},
	}
	if c := g.flow.CDC; c != nil && c.IgnoreNullUpdates {
		fs = append(fs, field{"IgnoreNullUpdates", jen.True()})
	}
	if sh.tracked != nil {
		fs = append(fs, field{"Tracked", ints(sh.tracked)})
	}
	g.typeDecls = append(g.typeDecls, func() jen.Code {
		return jen.Commentf("%s applies the changes of flow %s to %s (rt/cdc).", sh.specVar, g.flow.Name, g.target.Name).Line().
			Var().Id(sh.specVar).Op("=").Op("&").Qual(cdcPkg, "Spec").Add(fields(true, fs...))
	})
}

// cdcSpecField is the CDC field of a change flow's etl.Flow literal.
func (g *generator) cdcSpecField(f *ir.Flow) (field, bool) {
	if f.CDC == nil && (g.extras[f] == nil || !g.extras[f].update) {
		return field{}, false
	}
	return field{"CDC", jen.Qual(g.flowPkg[f], "CDC")}, true
}

// genCDCOutput is genOutput for a change flow: builders of the change
// schema, and a consumer that projects each query row into a change row.
func (g *flowGen) genCDCOutput() *output {
	g.genCDCSpec()
	sh, c := g.cdc, g.flow.CDC
	types := make([]ir.Type, 0, sh.data+2)
	for j := 0; j < sh.data; j++ {
		types = append(types, sh.ts[j].Type)
	}
	types = append(types, sh.seqT, ir.Type{Kind: ir.TBool})
	o := g.genOutputBuffers(jen.Id(sh.specVar).Dot("ChangeSchema").Call(), types, "flush emits the change rows collected so far as one batch of the change schema.", true)
	exps := g.target.Expectations
	o.consume = func(r *row) {
		vals := g.cdcRow(r)
		env := &env{rows: map[ir.Rel]*row{g.flow.Query: r}}
		seq := g.genExpr(c.SequenceBy, env)
		if !sameType(seq.t, sh.seqT) {
			seq = g.genCast(seq, sh.seqT, false, c.SequenceBy.Position())
		}
		if seq.nullable() {
			g.emit(jen.If(jen.Op("!").Add(OK(seq))).Block(jen.Return(jen.Qual(fmtPkg, "Errorf").Call(
				jen.Lit("%s: sequence by is NULL in a change row: every change needs a sequence value"),
				jen.Lit(posText(c.SequenceBy.Position()))))))
			if !seq.null {
				seq = &value{t: seq.t, v: seq.v, vl: seq.vl, k: seq.k}
			}
		}
		delCond := jen.Code(jen.False())
		if c.DeleteWhen != nil {
			delCond = truth(g.genExpr(c.DeleteWhen, env))
		}
		del := g.declare([]string{g.name("del")}, delCond)[0]
		if len(exps) > 0 {
			stored := &row{cols: make([]*column, len(sh.ts))}
			for j := range sh.ts {
				switch {
				case j < sh.data:
					stored.cols[j] = constColumn(vals[j])
				case j == sh.data:
					stored.cols[j] = constColumn(seq)
				default:
					stored.cols[j] = constColumn(nullValue(sh.ts[j].Type))
				}
			}
			check := g.sub(func() { g.genExpect(stored, o.counters) })
			g.emit(jen.If(jen.Op("!").Add(use(del))).Block(check...))
		}
		all := append(append([]*value{}, vals...), seq, &value{t: ir.Type{Kind: ir.TBool}, v: use(del)})
		g.genAppendRow(o, all)
	}
	return o
}

// cdcRow takes the target's data columns from a query row by name, cast to
// the target's types (store assignment), NOT NULL checked.
func (g *flowGen) cdcRow(r *row) []*value {
	sh := g.cdc
	vals := make([]*value, sh.data)
	for j := 0; j < sh.data; j++ {
		f := sh.ts[j]
		x, pos := g.storeValue(r, j)
		if !f.Nullable && x.nullable() {
			g.emit(jen.If(jen.Op("!").Add(OK(x))).Block(jen.Return(jen.Qual(etlPkg, "NotNullError").Call(
				jen.Lit(posText(pos)), jen.Lit(g.flow.Name), jen.Lit(g.target.Name), jen.Lit(f.Name)))))
			if !x.null {
				x = &value{t: x.t, v: x.v, vl: x.vl, k: x.k}
			}
		}
		vals[j] = x
	}
	return vals
}

// genUpdateOutput is genCDCOutput for an update-mode windowed aggregate:
// the change row's sequence and delete flag come from the state's changes
// (streamFlow.chSeq, chDel), and only upserts are checked against the
// target's expectations.
func (g *flowGen) genUpdateOutput() *output {
	g.genCDCSpec()
	sh := g.cdc
	types := make([]ir.Type, 0, sh.data+2)
	for j := 0; j < sh.data; j++ {
		types = append(types, sh.ts[j].Type)
	}
	types = append(types, sh.seqT, ir.Type{Kind: ir.TBool})
	o := g.genOutputBuffers(jen.Id(sh.specVar).Dot("ChangeSchema").Call(), types, "flush emits the change rows collected so far as one batch of the change schema.", true)
	o.consume = func(r *row) {
		vals := g.cdcRow(r)
		del := g.declare([]string{g.name("del")}, g.st.chDel)[0]
		if len(g.target.Expectations) > 0 {
			stored := &row{cols: make([]*column, len(sh.ts))}
			for j := range sh.ts {
				stored.cols[j] = constColumn(vals[j])
			}
			check := g.sub(func() { g.genExpect(stored, o.counters) })
			g.emit(jen.If(jen.Op("!").Add(use(del))).Block(check...))
		}
		all := append(append([]*value{}, vals...), plainValue(ir.Int64, g.st.chSeq), &value{t: ir.Type{Kind: ir.TBool}, v: use(del)})
		g.genAppendRow(o, all)
	}
	return o
}
