package codegen

import (
	"strings"

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

// checkCDC refuses change flows the native backend cannot run and returns
// the flow's layout.
func (g *generator) checkCDC(f *ir.Flow, target *ir.Dataset) *cdcShape {
	c := f.CDC
	if n := len(g.u.Pipeline.FlowsInto(target.Name)); n > 1 {
		g.refuse(c.Pos, "a streaming table with a change flow and other flows (%s has %d) is not supported yet", target.Name, n)
		return nil
	}
	ts := g.u.Datasets[target].Visible()
	sh := &cdcShape{ts: ts, data: len(ts), specVar: g.flowFunc[f] + "CDC", scd: c.SCDType}
	if c.SequenceBy != nil {
		sh.seqT = g.u.Types[c.SequenceBy]
	}
	if c.SCDType == 2 {
		n := len(ts)
		if n < 2 || !strings.EqualFold(ts[n-2].Name, "__START_AT") || !strings.EqualFold(ts[n-1].Name, "__END_AT") {
			g.refuse(c.Pos, "a SCD type 2 table whose __START_AT and __END_AT are not its last two columns is not supported yet")
			return nil
		}
		sh.data = n - 2
		sh.seqT = ts[n-2].Type
	}
	if sh.seqT.Kind == ir.TUnknown {
		g.refuse(c.Pos, "change flow %q: the type of its sequence is unknown", f.Name)
		return nil
	}
	index := func(name string) int {
		for i := 0; i < sh.data; i++ {
			if strings.EqualFold(ts[i].Name, name) {
				return i
			}
		}
		g.refuse(c.Pos, "change flow %q: column %q is not a column of %s", f.Name, name, target.Name)
		return -1
	}
	isKey := map[int]bool{}
	for _, k := range c.Keys {
		i := index(k)
		sh.keys = append(sh.keys, i)
		isKey[i] = true
	}
	switch {
	case len(c.TrackHistory) > 0:
		sh.tracked = []int{}
		for _, n := range c.TrackHistory {
			sh.tracked = append(sh.tracked, index(n))
		}
	case len(c.TrackHistoryExcept) > 0:
		sh.tracked = []int{}
		except := map[int]bool{}
		for _, n := range c.TrackHistoryExcept {
			except[index(n)] = true
		}
		for i := 0; i < sh.data; i++ {
			if !isKey[i] && !except[i] {
				sh.tracked = append(sh.tracked, i)
			}
		}
	}
	for _, i := range append(append([]int{}, sh.keys...), sh.tracked...) {
		if i < 0 {
			return nil
		}
	}
	return sh
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
		{"Target", jen.Id(g.schemaVar[g.target])},
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
	return field{"CDC", jen.Id(g.flowFunc[f] + "CDC")}, true
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
	out := g.u.Schemas[g.flow.Query].Visible()
	vals := make([]*value, sh.data)
	for j := 0; j < sh.data; j++ {
		f := sh.ts[j]
		src := out.Lookup(f.Name)
		var x *value
		if src < 0 || src >= len(r.cols) {
			x = nullValue(f.Type)
		} else {
			x = g.col(r.cols[src])
		}
		pos := g.outputPos(src)
		if !sameType(x.t, f.Type) {
			x = g.genCast(x, f.Type, false, pos)
		}
		if !f.Nullable && x.nullable() {
			g.emit(jen.If(jen.Op("!").Add(OK(x))).Block(jen.Return(jen.Id("notNullError").Call(
				jen.Lit(posText(pos)), jen.Lit(g.flow.Name), jen.Lit(g.target.Name), jen.Lit(f.Name)))))
			if !x.null {
				x = &value{t: x.t, v: x.v, vl: x.vl, k: x.k}
			}
		}
		vals[j] = x
	}
	return vals
}

// planUpdate makes an update-mode windowed aggregate a change flow of SCD
// type 1: the target stores the current row per group key and window, and
// each micro-batch's upserts and deletes are applied to it by key (rt/cdc),
// in the order the state emits them (the sequence is the epoch, then the
// change's index). The aggregate must be the query's top operator: the
// target's key columns are its group keys. False when the flow is refused.
func (g *flowGen) planUpdate() bool {
	if g.st == nil || g.fi.Emission != passes.EmissionUpdate || g.target.Kind == ir.KindSink {
		// a sink takes the changelog as rows (genStreamAggregate)
		return true
	}
	agg, ok := g.flow.Query.(*ir.Aggregate)
	if !ok || len(g.u.Pipeline.FlowsInto(g.target.Name)) > 1 {
		g.refuse(g.flow.Pos, "output mode update needs the windowed aggregate at the top of the flow's query, and the flow alone in its target (its rows are upserted by the group keys): move the select or filter downstream")
		return false
	}
	ts := g.u.Datasets[g.target].Visible()
	sh := &cdcShape{ts: ts, data: len(ts), specVar: g.flowFunc[g.flow] + "CDC", seqT: ir.Int64, scd: 1}
	out := g.u.Schemas[agg]
	for i := range agg.Keys {
		j := ts.Lookup(out[i].Name)
		if j < 0 {
			g.refuse(agg.Keys[i].Pos, "output mode update: group key %s is not a column of %s", out[i].Name, g.target.Name)
			return false
		}
		sh.keys = append(sh.keys, j)
	}
	g.cdc = sh
	g.extra(g.flow).update = true
	return true
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
