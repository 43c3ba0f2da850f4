package codegen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// flowGen generates one flow's function. The flow's query is compiled the
// HyPer way (produce/consume): every operator either produces rows (a scan,
// range, or a pipeline breaker replaying its state) or consumes its input's
// rows; a consumer generates its code inline, inside its producer's loop,
// and calls its own consumer there. A chain of stateless operators (the
// fused stages of passes) therefore becomes one loop over the Arrow batches
// of its input, with values in typed Go locals; pipeline breakers
// (aggregate, join build, sort) end one loop and start another.
type flowGen struct {
	*generator
	file   *jen.File
	flow   *ir.Flow
	fi     *passes.FlowInfo
	plan   *passes.FlowPlan
	target *ir.Dataset
	fname  string      // the flow function's name
	cdc    *cdcShape   // a change flow's layout (cdc.go); nil for other flows
	st     *streamFlow // a stateful streaming flow's state (stream.go); nil for other flows

	blk    *block
	n      int
	locals []*local

	stageTop map[ir.Rel]*passes.Stage
	details  map[*passes.Stage][]string

	subq    map[ir.Expr]*value // uncorrelated subqueries, computed up front
	inSets  map[ir.Expr]*inSet
	skips   []*skipTarget      // where "skip this row" goes: nil = continue
	recs    []string           // record batches open in the current pipeline
	prelude []jen.Code         // statements at the top of the flow function
	par     *parPipe           // a pipeline asked to run on the workers, for the scan that produces it
	memos   map[memoKey]string // an aggregate's memo of one build side's groups (memoGroup)
	rowEnd  *rowLoop           // the batch row loop being generated, if the current code is in one (genScan)
	// fromSpill: the rows being generated are read back from a spilled join's
	// files (joinspill.go), with no batch to reload a row from by its index
	// (deferAccum)
	fromSpill bool

	typeDecls []func() jen.Code // package-level types and functions of the flow, declared last
	declared  map[string]bool   // the package-level variables declareOnce declared

	corr map[ir.Expr]*corrBuild // correlated subqueries' build sides (decorrelate.go)

	lambdas []lambdaFrame // the lambdas whose bodies are being generated, innermost last (lambda.go)
}

// skipTarget is a label a consumer jumps to to drop the current row.
type skipTarget struct {
	label string
	used  bool
}

// consumer generates the code that handles one row of its input, inside the
// producer's loop.
type consumer func(r *row)

// genFlow generates the function that computes one flow into its target:
// it reads the flow's inputs through fc.Read, runs the query's pipelines and
// emits batches of the target's schema through fc.Emit, checking the
// target's expectations on the way.
func (g *generator) genFlow(file *jen.File, f *ir.Flow, target *ir.Dataset) {
	fi, fp := g.u.Flows[f], g.u.Plan.Flows[f]
	if fi == nil || fp == nil || f.Query == nil {
		panic(fmt.Sprintf("flow %s has no plan", f.Name))
	}
	fg := &flowGen{generator: g, file: file, flow: f, fi: fi, plan: fp, target: target, fname: g.flowFunc[f],
		blk: &block{}, stageTop: map[ir.Rel]*passes.Stage{}, details: map[*passes.Stage][]string{},
		subq: map[ir.Expr]*value{}, inSets: map[ir.Expr]*inSet{}, corr: map[ir.Expr]*corrBuild{}, declared: map[string]bool{}}
	fg.cdc = fg.cdcShape()
	fg.genStreamPrelude()
	fg.indexStages()
	body := fg.genFlowBody()
	fg.fixUnused()
	for _, line := range strings.Split(fg.doc(), "\n") {
		file.Comment(line)
	}
	file.Func().Id("Run").Params(jen.Id("fc").Op("*").Qual(etlPkg, "FlowContext")).Error().Block(body...)
	for _, d := range fg.typeDecls {
		file.Line()
		file.Add(d())
	}
}

// doc is the flow function's doc comment: what it computes and its stages.
func (g *flowGen) doc() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Run computes flow %s into %s %s.\n", g.flow.Name, g.target.Kind, g.target.Name)
	if len(g.fi.Stages) > 0 {
		b.WriteString("\nIts stages (passes' plan):\n")
		for _, st := range g.fi.Stages {
			kind := ""
			if st.Fused {
				kind = " fused"
			}
			fmt.Fprintf(&b, "  - s%d%s: %s\n", st.ID, kind, strings.Join(g.details[st], " | "))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// indexStages maps each stage's top operator to its stage, and takes the
// one-line descriptions of their operators from passes' explain output.
func (g *flowGen) indexStages() {
	var xf *passes.ExplainFlow
	if g.explain == nil {
		g.explain, _ = g.u.ExplainJSON().(*passes.Explain)
	}
	if x := g.explain; x != nil {
		for i := range x.Flows {
			if x.Flows[i].Name == g.flow.Name && strings.EqualFold(x.Flows[i].Target, g.target.Name) {
				xf = &x.Flows[i]
			}
		}
	}
	for i, st := range g.fi.Stages {
		for k := len(st.Rels) - 1; k >= 0; k-- {
			if st.Rels[k] != nil {
				g.stageTop[st.Rels[k]] = st
				break
			}
		}
		if xf != nil && i < len(xf.Stages) {
			g.details[st] = xf.Stages[i].Detail
		} else {
			g.details[st] = st.Ops
		}
	}
}

// genFlowBody generates the statements of the flow function.
func (g *flowGen) genFlowBody() []jen.Code {
	var out *output
	switch {
	case g.cdc != nil && g.flow.CDC == nil:
		out = g.genUpdateOutput()
	case g.cdc != nil:
		out = g.genCDCOutput()
	default:
		out = g.genOutput()
	}
	subs := g.sub(func() { g.genSubqueries() })
	main := g.sub(func() {
		c := out.consume
		if g.plan.ParallelOutput {
			c = g.parOutput(out)
		}
		g.produce(g.flow.Query, c)
		g.par = nil
	})
	var body []jen.Code
	body = append(body, out.setup...)
	body = append(body, g.prelude...)
	body = append(body, g.streamProlog()...)
	body = append(body, subs...)
	body = append(body, main...)
	if g.st != nil {
		body = append(body, g.st.lateFlush...)
	}
	body = append(body, g.streamEpilog()...)
	body = append(body, jen.Return(jen.Id(out.flush).Call()))
	return body
}

// output is the flow's emitter: typed builders of the target's columns,
// the expectation counters and the flush function.
type output struct {
	setup    []jen.Code
	flush    string
	consume  consumer
	builders []*local    // ob0, ob1, ...: one typed builder per column
	outCap   *local      // the row capacity the builders were grown to
	counters [][2]string // pass and fail counters per expectation of the target
}

// genOutputBuffers generates what every flow output has: a record builder
// of schema with one typed builder per column of types, the target's
// expectation counters, the row counters, and the flush function that emits
// the rows collected so far as one batch (flushDoc is its comment) and adds
// the expectation counters. The caller sets consume.
//
// Without release, the caller releases the builder (a worker's output,
// at the worker's end).
func (g *flowGen) genOutputBuffers(schema jen.Code, types []ir.Type, flushDoc string, release bool) *output {
	o := &output{flush: "flush"}
	ob := "ob"
	setup := []jen.Code{
		jen.Id(ob).Op(":=").Qual(arrayPkg, "NewRecordBuilder").Call(jen.Id("fc").Dot("Mem"), schema),
	}
	if release {
		setup = append(setup, jen.Defer().Id(ob).Dot("Release").Call())
	}
	o.builders = make([]*local, len(types))
	for j, t := range types {
		st := jen.Id(fmt.Sprintf("ob%d", j)).Op(":=").Id(ob).Dot("Field").Call(jen.Lit(j)).Assert(jen.Op("*").Qual(arrayPkg, mustPhys(t).builder))
		o.builders[j] = &local{name: fmt.Sprintf("ob%d", j), decl: st}
		g.locals = append(g.locals, o.builders[j])
		setup = append(setup, st)
	}
	exps := g.target.Expectations
	o.counters = make([][2]string, len(exps))
	for i := range exps {
		o.counters[i] = [2]string{fmt.Sprintf("exp%dPass", i), fmt.Sprintf("exp%dFail", i)}
		setup = append(setup, jen.List(jen.Id(o.counters[i][0]), jen.Id(o.counters[i][1])).Op(":=").List(jen.Int64().Call(jen.Lit(0)), jen.Int64().Call(jen.Lit(0))))
	}
	rowsDecl := jen.List(jen.Id("outRows"), jen.Id("outCap")).Op(":=").List(jen.Lit(0), jen.Lit(0))
	o.outCap = &local{name: "outCap", decl: rowsDecl} // read only when the flow has rows to append
	g.locals = append(g.locals, o.outCap)
	setup = append(setup, rowsDecl)
	var fl []jen.Code
	for i, c := range o.counters {
		fl = append(fl,
			jen.Id("fc").Dot("Expect").Call(jen.Lit(i)).Dot("Add").Call(jen.Id(c[0]), jen.Id(c[1])),
			jen.List(jen.Id(c[0]), jen.Id(c[1])).Op("=").List(jen.Lit(0), jen.Lit(0)))
	}
	fl = append(fl,
		jen.If(jen.Id("outRows").Op("==").Lit(0)).Block(jen.Return(jen.Nil())),
		jen.Id("rec").Op(":=").Id(ob).Dot("NewRecordBatch").Call(),
		jen.List(jen.Id("outRows"), jen.Id("outCap")).Op("=").List(jen.Lit(0), jen.Lit(0)),
		jen.Id("err").Op(":=").Id("fc").Dot("Emit").Call(jen.Id("rec")),
		jen.Id("rec").Dot("Release").Call(),
		jen.Return(jen.Id("err")),
	)
	o.setup = append(setup, jen.Comment(flushDoc),
		jen.Id(o.flush).Op(":=").Func().Params().Error().Block(fl...))
	return o
}

// genOutput generates the builders that collect the target's rows, the
// flush function that emits a batch (and adds the expectation counters),
// and the consumer at the root of the query: it casts the query's output
// to the target's schema (store assignment), checks the expectations
// (genExpect) and appends the row.
func (g *flowGen) genOutput() *output { return g.genOutputFor(true) }

// genOutputFor is genOutput; without release, the caller releases the
// builder (a worker's output).
func (g *flowGen) genOutputFor(release bool) *output {
	ts := g.u.Datasets[g.target].Visible()
	types := make([]ir.Type, len(ts))
	for j, f := range ts {
		types[j] = f.Type
	}
	o := g.genOutputBuffers(g.schemaRef(g.target), types, "flush emits the rows collected so far as one batch of the target's schema.", release)
	o.consume = func(r *row) {
		stored := g.storeRow(r, ts)
		g.genExpect(stored, o.counters)
		vals := make([]*value, len(stored.cols))
		for j, x := range stored.cols {
			vals[j] = g.col(x)
		}
		g.genAppendRow(o, vals)
	}
	return o
}

// V0 is V, or the zero value of a NULL's type.
func V0(x *value) jen.Code {
	if x.null {
		return zeroCode(x.t)
	}
	return V(x)
}

// appendConv converts a value to what its builder's Append takes.
func appendConv(t ir.Type, v jen.Code) jen.Code {
	if e := mustPhys(t).elem; e != "" {
		return jen.Qual(arrowPkg, e).Call(v)
	}
	return v
}

// storeRow maps the query's output row onto the target's columns (by
// position, or by name for a flow "by name"), casting each value to its
// column's type with Spark's store assignment (ANSI: out-of-range numbers
// are errors) and checking declared NOT NULL columns.
func (g *flowGen) storeRow(r *row, ts passes.Schema) *row {
	stored := &row{cols: make([]*column, len(ts))}
	for j, f := range ts {
		x, pos := g.storeValue(r, j)
		if !f.Nullable && x.nullable() {
			g.emit(jen.If(jen.Op("!").Add(OK(x))).Block(jen.Return(jen.Qual(etlPkg, "NotNullError").Call(
				jen.Lit(posText(pos)), jen.Lit(g.flow.Name), jen.Lit(g.target.Name), jen.Lit(f.Name)))))
			if !x.null {
				x = &value{t: x.t, v: x.v, vl: x.vl, k: x.k}
			}
		}
		stored.cols[j] = constColumn(x)
	}
	return stored
}

// storeValue is the value stored in target column j (the plan's store
// assignment): the query's output column it takes, cast to the column's
// type, or NULL; and the position its errors name.
func (g *flowGen) storeValue(r *row, j int) (*value, ir.Pos) {
	sc := g.plan.Store[j]
	if sc.Source < 0 || sc.Source >= len(r.cols) {
		return nullValue(sc.To), sc.Pos
	}
	x := g.col(r.cols[sc.Source])
	if sc.Cast {
		x = g.genCast(x, sc.To, false, sc.Pos)
	}
	return x, sc.Pos
}

// sameType reports types whose values need no conversion at all.
func sameType(a, b ir.Type) bool { return passes.SameType(a, b) }

// genExpect checks the target's expectations on a stored row, counting
// passes and violations per batch (fc.Expect(i).Add at each flush).
//
// A row passes an expectation only when the condition is TRUE; FALSE and
// NULL are violations. This is the behaviour of Databricks' expectations,
// whose drop action is a filter on the condition (expect_or_drop keeps what
// WHERE cond keeps), and so a NULL (col > 0 on a NULL col) counts as
// invalid; a constraint that should accept NULLs says so (col IS NULL OR
// col > 0). Warn counts, drop counts and drops the row after every
// expectation was counted, fail counts and stops the flow with an
// *run.ExpectationError (the run then commits nothing).
func (g *flowGen) genExpect(stored *row, counters [][2]string) {
	exps := g.target.Expectations
	if len(exps) == 0 {
		return
	}
	e := &env{rows: map[ir.Rel]*row{nil: stored}}
	drop := ""
	for _, x := range exps {
		if x.Action == ir.ActDrop && drop == "" {
			drop = g.name("drop")
			g.emit(jen.Id(drop).Op(":=").False())
		}
	}
	for i, x := range exps {
		cond := g.genExpr(x.Cond, e)
		pass, fail := jen.Id(counters[i][0]), jen.Id(counters[i][1])
		var onFail []jen.Code
		onFail = append(onFail, fail.Clone().Op("++"))
		switch x.Action {
		case ir.ActDrop:
			onFail = append(onFail, jen.Id(drop).Op("=").True())
		case ir.ActFail:
			onFail = append(onFail,
				jen.Id("fc").Dot("Expect").Call(jen.Lit(i)).Dot("Add").Call(pass.Clone(), fail.Clone()),
				jen.Return(jen.Op("&").Qual(runPkg, "ExpectationError").Values(jen.Dict{
					jen.Id("Name"):    jen.Lit(x.Name),
					jen.Id("Dataset"): jen.Lit(g.target.Name),
					jen.Id("Flow"):    jen.Lit(g.flow.Name),
					jen.Id("Failed"):  jen.Id("fc").Dot("Expect").Call(jen.Lit(i)).Dot("Failed").Call(),
				})))
		}
		g.emit(jen.If(truth(cond)).Block(pass.Clone().Op("++")).Else().Block(onFail...))
	}
	if drop != "" {
		g.emit(jen.If(jen.Id(drop)).Block(g.skipStmt()))
	}
}

// skipStmt drops the current row: "continue" in the innermost row loop, or
// a jump to the label of an operator that must see the row's end.
func (g *flowGen) skipStmt() jen.Code {
	if n := len(g.skips); n > 0 && g.skips[n-1] != nil {
		t := g.skips[n-1]
		t.used = true
		return jen.Goto().Id(t.label)
	}
	return jen.Continue()
}

// loop generates a row loop's body: skips inside it continue the loop.
func (g *flowGen) loop(fn func()) []jen.Code {
	g.skips = append(g.skips, nil)
	defer func() { g.skips = g.skips[:len(g.skips)-1] }()
	return g.sub(fn)
}

// fail returns from the flow with a Spark runtime error placed at pos.
func (g *flowGen) fail(pos ir.Pos, err jen.Code) jen.Code {
	return jen.Return(jen.Qual(etlPkg, "SQLError").Call(jen.Lit(posText(pos)), jen.Lit(g.flow.Name), err))
}

// posText is a position as messages print it: file:line:col.
func posText(p ir.Pos) string { return p.String() }

// genAppendRow appends one row of values to the output, one per builder:
// it grows the builders when they are full (kernel.GrowOutput), so that
// fixed-width builders append without capacity checks, and flushes a batch
// every kernel.BatchRows rows.
func (g *flowGen) genAppendRow(o *output, vals []*value) {
	g.emit(jen.If(jen.Id("outRows").Op("==").Add(use(o.outCap))).Block(
		jen.Id("outCap").Op("=").Qual(kernelPkg, "GrowOutput").Call(jen.Id("ob"), jen.Id("outCap"))))
	for j, v := range vals {
		b := use(o.builders[j])
		app, null := "Append", "AppendNull"
		if p := mustPhys(v.t); p.values || p.kind == ir.TBool {
			app, null = "UnsafeAppend", "UnsafeAppendBoolToBitmap"
		}
		appendNull := b.Clone().Dot(null).Call()
		if null == "UnsafeAppendBoolToBitmap" {
			appendNull = b.Clone().Dot(null).Call(jen.False())
		}
		appendValue := b.Clone().Dot(app).Call(appendConv(v.t, V0(v)))
		if mustPhys(v.t).nested { // nested.go
			appendValue = jen.Qual(nestedPkg, "Append").Call(b.Clone(), V0(v))
		}
		switch {
		case v.null:
			g.emit(appendNull)
		case v.ok == nil:
			g.emit(appendValue)
		default:
			g.emit(jen.If(OK(v)).Block(appendValue).Else().Block(appendNull))
		}
	}
	g.emit(jen.Id("outRows").Op("++"),
		jen.If(jen.Id("outRows").Op("==").Qual(kernelPkg, "BatchRows")).Block(
			jen.If(jen.Err().Op(":=").Id(o.flush).Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))))
}

// declareOnce declares the package-level variable name of the flow's
// package (each flow is a package of its own) the first time the flow asks
// for it, with decl's declaration, and returns a reference to it.
func (g *flowGen) declareOnce(name string, decl func() jen.Code) *jen.Statement {
	if !g.declared[name] {
		g.declared[name] = true
		g.typeDecls = append(g.typeDecls, decl)
	}
	return jen.Id(name)
}
