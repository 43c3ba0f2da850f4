package codegen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// Stateful streaming flows: a windowed aggregate over stream reads. The
// flow keeps state between epochs (rt/stream's Tracker and State, restored
// from the last commit with fc.LoadState and handed back with fc.SaveState);
// each run is one micro-batch (DESIGN.md, "Watermark and lateness"):
//
//   - every row of a stream read with a watermark updates that input's
//     watermark (tr.Observe), before any filter;
//   - the window operator evaluates the row's event time, and the aggregate
//     above it assigns the row to its open windows (sw.Assign) and updates
//     their accumulators, a generated struct with one field group per
//     aggregate call; a row none of whose windows is open is late: it is
//     counted (fc.Late) and written to the flow's late table, if any;
//   - after the input, the watermark advances (tr.Advance) and the windows
//     it closes are emitted: their final rows (append), the micro-batch's
//     upserts and deletes as change rows applied by key (update, through
//     rt/cdc as an SCD type 1 change flow), or the whole result (complete).
//     A flow whose stream inputs are all bounded sources (files replayed as
//     a stream) ends its input every run: every window closes.
//
// The state's shape (window, keys, accumulators, inputs) is recorded with
// it; a changed flow whose state no longer fits refuses to resume.

const (
	streamPkg = "github.com/nordisk/thund/rt/stream"
	timePkg   = "time"
)

// streamFlow is a stateful streaming flow's generation state.
type streamFlow struct {
	unit     ir.TimeUnit
	per      int64 // nanoseconds per unit of the event-time columns
	lateness int64 // allowed lateness, in units
	idle     ir.Duration
	bounded  bool                // every stream input is a bounded source
	inputs   map[*ir.Scan]wmRead // the reads that carry a watermark
	tracker  string
	nlate    string // the local counting late rows

	stateType string
	fields    []jen.Code // the state struct's fields (after Tracker)
	restore   []jen.Code // statements restoring the operators from "st"
	save      jen.Dict   // the state literal's operator fields
	shape     []string
	ops       int

	// while a stream aggregate's input is generated
	win   *ir.Window
	winT  *value // the row's event time
	winIn *row   // the window's input row (what a late table stores)

	// update mode: the change row's sequence and delete flag
	chSeq, chDel jen.Code
	lateFlush    []jen.Code // emits the late rows collected
}

// addState registers a stateful operator's state with the flow's
// checkpoint: field (of type typ) in the state struct, saved from
// op.snapshot() and restored by op.restore(st.field), whose error names
// what is restored.
func (sf *streamFlow) addState(field string, typ jen.Code, op, restore, snapshot, what string) {
	sf.fields = append(sf.fields, jen.Id(field).Add(typ))
	sf.restore = append(sf.restore, jen.If(jen.Err().Op(":=").Id(op).Dot(restore).Call(jen.Id("st").Dot(field)), jen.Err().Op("!=").Nil()).Block(
		jen.Return(jen.Qual(fmtPkg, "Errorf").Call(jen.Lit("restoring its "+what+": %w"), jen.Err()))))
	if sf.save == nil {
		sf.save = jen.Dict{}
	}
	sf.save[jen.Id(field)] = jen.Id(op).Dot(snapshot).Call()
}

// wmRead is one stream read with a watermark: its input number in the
// tracker and its event-time column.
type wmRead struct {
	idx int
	col int
}

// flowExtra is what a flow's generation tells its etl.Flow literal.
type flowExtra struct {
	update   bool // a change flow of update-mode rows (spec var CDC, in the flow's package)
	complete bool // output mode complete
	late     *ir.Dataset
}

// genStreamPrelude starts a stateful streaming flow from its stream plan:
// the tracker of its watermarked inputs, its time unit and lateness.
func (g *flowGen) genStreamPrelude() {
	sp := g.plan.Stream
	if sp == nil {
		return
	}
	sf := &streamFlow{unit: sp.Unit, per: sp.Per, lateness: sp.Lateness, idle: sp.Idle, bounded: sp.Bounded, inputs: map[*ir.Scan]wmRead{}}
	var delays []jen.Code
	var names []string
	for i, in := range sp.Inputs {
		sf.inputs[in.Scan] = wmRead{idx: i, col: in.Col}
		delays = append(delays, typedNum("int64", fmt.Sprint(in.Delay)))
		names = append(names, in.Name)
	}
	sf.tracker = "tr"
	sf.nlate = "nlate"
	sf.stateType = g.global("streamState_", g.flow.Name)
	sf.shape = append(sf.shape, fmt.Sprintf("unit %s; lateness %d; watermarked inputs %s", sf.unit, sf.lateness, strings.Join(names, " ")))
	g.st = sf
	g.prelude = append(g.prelude,
		jen.Comment("the flow's watermark: the minimum over its stream inputs (rt/stream.Tracker)"),
		jen.Id(sf.tracker).Op(":=").Qual(streamPkg, "NewTracker").Call(append([]jen.Code{jen.Id("fc").Dot("Clock").Call(),
			jen.Qual(timePkg, "Duration").Call(jen.Lit(int64(sf.idle)))}, delays...)...),
		jen.Var().Id(sf.nlate).Int64())
}

// streamProlog restores the flow's state from the last commit.
func (g *flowGen) streamProlog() []jen.Code {
	sf := g.st
	if sf == nil {
		return nil
	}
	g.typeDecls = append(g.typeDecls, func() jen.Code {
		fs := append([]jen.Code{jen.Id("Tracker").Qual(streamPkg, "TrackerState")}, sf.fields...)
		return jen.Commentf("%s is the streaming state of flow %s, committed with every epoch.", sf.stateType, g.flow.Name).Line().
			Type().Id(sf.stateType).Struct(fs...)
	})
	restore := append([]jen.Code{
		jen.If(jen.Err().Op(":=").Id(sf.tracker).Dot("Restore").Call(jen.Id("st").Dot("Tracker")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Qual(fmtPkg, "Errorf").Call(jen.Lit("restoring its watermarks: %w"), jen.Err()))),
	}, sf.restore...)
	return []jen.Code{
		jen.Comment("restore the state of the last commit"),
		jen.Var().Id("st").Id(sf.stateType),
		jen.If(jen.List(jen.Id("ok"), jen.Err()).Op(":=").Id("fc").Dot("LoadState").Call(jen.Lit(strings.Join(sf.shape, "\n")), jen.Op("&").Id("st")),
			jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())).Else().If(jen.Id("ok")).Block(restore...),
	}
}

// streamEpilog hands the flow's new state to the run's commit.
func (g *flowGen) streamEpilog() []jen.Code {
	sf := g.st
	if sf == nil {
		return nil
	}
	d := jen.Dict{jen.Id("Tracker"): jen.Id(sf.tracker).Dot("State").Call()}
	for k, v := range sf.save {
		d[k] = v
	}
	return []jen.Code{
		jen.If(jen.Err().Op(":=").Id("fc").Dot("SaveState").Call(jen.Lit(strings.Join(sf.shape, "\n")), jen.Op("&").Id(sf.stateType).Values(d)),
			jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	}
}

// observeWatermark wraps the consumer of a stream read with a watermark:
// every row's event time goes to the tracker first.
func (g *flowGen) observeWatermark(n *ir.Scan, c consumer) consumer {
	if g.st == nil {
		return c
	}
	in, ok := g.st.inputs[n]
	if !ok {
		return c
	}
	return func(r *row) {
		x := g.col(r.cols[in.col])
		obs := jen.Id(g.st.tracker).Dot("Observe").Call(jen.Lit(in.idx), jen.Int64().Call(V0(x)))
		switch {
		case x.null:
		case x.nullable():
			g.emit(jen.If(OK(x)).Block(obs))
		default:
			g.emit(obs)
		}
		c(r)
	}
}

// genStreamWindow is the window operator under a stream aggregate: it
// evaluates each row's event time (a NULL time belongs to no window: the row
// is dropped, as in Spark) and leaves the assignment to windows to the
// aggregate's state. window_start and window_end exist only as the
// aggregate's group keys.
func (g *flowGen) genStreamWindow(n *ir.Window, c consumer) {
	sf := g.st
	if sf == nil || sf.win != n {
		g.unplanned(n.Pos, "a %s window over a stream must feed an aggregate (window ... | group by window_start ... aggregate ...)", n.Kind)
		return
	}
	schema := g.u.Schemas[n]
	vis := len(g.u.Schemas[n.Input].Visible())
	wt := schema[vis].Type
	if wt.Kind != ir.TTimestamp || wt.Unit != sf.unit {
		g.unplanned(n.Time.Position(), "the window's time column must be a timestamp in the unit of the flow's watermarks (%s), not %s", sf.unit, wt)
		return
	}
	g.produce(n.Input, func(r *row) {
		e := g.envOf(n.Input, r)
		t := g.eventTime(n, e, wt)
		if t == nil {
			return
		}
		sf.winT = g.bind(nonNull(t), "et")
		sf.winIn = r
		o := &row{cols: make([]*column, len(schema))}
		copy(o.cols, r.cols[:vis])
		copy(o.cols[vis+2:], r.cols[vis:])
		for i := 0; i < 2; i++ {
			name := schema[vis+i].Name
			o.cols[vis+i] = &column{t: wt, load: func() *value {
				g.unplanned(n.Pos, "%s of a window over a stream can only be a group key of the aggregate over it", name)
				return nullValue(wt)
			}}
		}
		c(o)
	})
}

// accShape appends the aggregates and the accumulator fields of a stream
// aggregate's state to its shape line (recorded with the state).
func accShape(shape *strings.Builder, accs []*accum, acc *structDecl) {
	shape.WriteString("; aggregates")
	for _, a := range accs {
		fmt.Fprintf(shape, " %s(%s)", a.name, a.argT)
	}
	shape.WriteString("; acc")
	for _, f := range acc.fields {
		fmt.Fprintf(shape, " %s %#v", f.name, f.typ)
	}
}

// streamAccums plans the accumulators of a stream aggregate's calls in one
// state struct (doc is its comment); false when one cannot be kept in state
// (an internal error: the plan pass refuses those).
func (g *flowGen) streamAccums(n *ir.Aggregate, session bool, doc string) (*structDecl, []*accum, bool) {
	acc := g.newStruct("streamAcc", doc)
	var accs []*accum
	for i, call := range g.u.AggCalls[n] {
		a := &accum{call: call, name: g.fn(call).Name, field: fmt.Sprintf("A%d", i), resT: g.typeOf(call), stream: true}
		if len(call.Args) > 0 {
			a.argT = g.typeOf(call.Args[0])
		}
		if why := streamAccum(a, session); why != "" {
			g.unplanned(call.Pos, "%s over a stream is not supported yet", why)
			return nil, nil, false
		}
		if !g.planAccum(acc, a) {
			return nil, nil, false
		}
		accs = append(accs, a)
	}
	if len(acc.fields) == 0 {
		acc.add("None", jen.Bool()) // a snapshot stores no empty struct
	}
	return acc, accs, true
}

// streamAccum reports why an aggregate call cannot be kept in window state
// ("" when it can).
func streamAccum(a *accum, session bool) string {
	switch {
	case a.call.Distinct && a.name != "count":
		return a.name + "(distinct ...)"
	case a.call.Distinct && len(a.call.Args) != 1:
		return "count(distinct ...) of several columns"
	case a.resT.Kind == ir.TDecimal || a.argT.Kind == ir.TDecimal:
		return a.name + " of a decimal"
	case session && (a.name == "first" || a.name == "last" || a.name == "any_value"):
		return a.name + " in a session window (sessions merge, and which row came first is not kept)"
	case session && a.name == "sum" && a.resT.Kind != ir.TInt64 && a.resT.Kind != ir.TFloat64:
		return "sum of " + a.resT.String() + " in a session window"
	}
	return ""
}

// genStreamAggregate generates a windowed aggregate over stream reads.
func (g *flowGen) genStreamAggregate(n *ir.Aggregate, c consumer) {
	sf := g.st
	if sf == nil || g.plan.Stream.Aggregate != n {
		g.unplanned(n.Pos, "a stream aggregate the stream plan does not hold")
	}
	w := g.plan.Stream.Window
	if w == nil {
		g.genStreamGroups(n, c) // streamgroups.go
		return
	}
	sf.ops++
	sf.win = w
	session := w.Kind == ir.WindowSession

	// the window's spec, in units of the event-time column (the plan
	// checked that they divide)
	size, slide, gap := int64(w.Size), int64(w.Slide), int64(w.Gap)
	if w.Kind == ir.WindowTumble {
		slide = size
	}
	size, slide, gap = size/sf.per, slide/sf.per, gap/sf.per
	kind := map[ir.WindowKind]string{ir.WindowTumble: "Tumbling", ir.WindowHop: "Hopping", ir.WindowSession: "Session"}[w.Kind]
	spec := jen.Qual(streamPkg, "Spec").Values(jen.Dict{
		jen.Id("Kind"): jen.Qual(streamPkg, kind), jen.Id("Size"): jen.Lit(size), jen.Id("Slide"): jen.Lit(slide),
		jen.Id("Gap"): jen.Lit(gap), jen.Id("AllowedLateness"): jen.Lit(sf.lateness),
		jen.Id("Grain"): jen.Lit(msGrain(sf.unit))})
	mode := "Append"
	switch g.fi.Emission {
	case passes.EmissionUpdate:
		mode = "Update"
	case passes.EmissionComplete:
		mode = "Complete"
		g.extra(g.flow).complete = true
	}

	// the accumulators and the group key (keys other than the window's)
	acc, accs, ok := g.streamAccums(n, session, "holds the accumulators of one group in one window.")
	if !ok {
		return
	}
	key := g.newStruct("streamKey", "is the group key of a windowed aggregate (the window aside).")
	keyTypes := make([]ir.Type, len(n.Keys))
	winKey := make([]int, len(n.Keys))
	keyField := make([]string, len(n.Keys))
	for i, k := range n.Keys {
		keyTypes[i] = g.typeOf(k.Expr)
		if ref, ok := k.Expr.(*ir.ColumnRef); ok {
			if b, ok := g.u.Refs[ref]; ok && b.Depth == 0 {
				winKey[i] = passes.WindowColumn(g.u, b.Rel, b.Index, w)
			}
		}
		if winKey[i] != 0 {
			continue
		}
		switch keyTypes[i].Kind {
		case ir.TDecimal, ir.TBinary:
			g.unplanned(k.Pos, "a group key of type %s over a stream is not supported yet", keyTypes[i])
			return
		}
		keyField[i] = fmt.Sprintf("K%d", i)
		key.add(keyField[i], goType(keyTypes[i]))
		key.add(keyField[i]+"ok", jen.Bool())
	}
	if !slicesContains(winKey, 1) {
		g.unplanned(n.Pos, "a windowed aggregate over a stream must group by window_start")
		return
	}
	if len(key.fields) == 0 {
		key.add("None", jen.Bool())
	}
	merge := jen.Nil()
	if session {
		merge = jen.Id(g.genStreamMerge(acc.name, accs))
	}

	sw := g.name("sw")
	g.prelude = append(g.prelude,
		jen.Commentf("the %s windows of the aggregate at %s (rt/stream.State)", w.Kind, posText(n.Pos)),
		jen.List(jen.Id(sw), jen.Id(sw+"Err")).Op(":=").Qual(streamPkg, "NewState").Types(jen.Id(key.name), jen.Id(acc.name)).Call(spec, jen.Qual(streamPkg, mode), merge),
		jen.If(jen.Id(sw+"Err").Op("!=").Nil()).Block(jen.Return(jen.Id(sw+"Err"))))
	field := fmt.Sprintf("W%d", sf.ops-1)
	sf.addState(field, jen.Qual(streamPkg, "Snapshot").Types(jen.Id(key.name), jen.Id(acc.name)), sw, "Restore", "Snapshot", "window state")
	var shape strings.Builder
	fmt.Fprintf(&shape, "%s: %s size %d slide %d gap %d mode %s; key", field, w.Kind, size, slide, gap, mode)
	for i, t := range keyTypes {
		if winKey[i] == 0 {
			fmt.Fprintf(&shape, " %s", t)
		}
	}
	accShape(&shape, accs, acc)
	sf.shape = append(sf.shape, shape.String())

	late := g.genLateTable(w.Input, w.Pos)
	keyNullable := make([]bool, len(n.Keys))
	mem := g.newMemHold(fmt.Sprintf("group by at %s (its open windows)", posText(n.Pos)))
	g.produce(n.Input, func(r *row) {
		e := g.envOf(n.Input, r)
		kd := jen.Dict{}
		for i, k := range n.Keys {
			if winKey[i] != 0 {
				continue
			}
			x := normalized(g.bind(g.genExpr(k.Expr, e), "key"))
			if x.nullable() {
				keyNullable[i] = true
			}
			if !x.null {
				kd[jen.Id(keyField[i])] = cloneValue(x.t, V(x))
			}
			kd[jen.Id(keyField[i]+"ok")] = OK(x)
		}
		accsN, errN := g.name("accs"), g.name("err")
		g.emit(jen.List(jen.Id(accsN), jen.Id("_"), jen.Id(errN)).Op(":=").Id(sw).Dot("Assign").Call(jen.Id(key.name).Values(kd), V(sf.winT)),
			jen.If(jen.Id(errN).Op("!=").Nil()).Block(g.fail(n.Pos, jen.Id(errN))))
		lateRow := g.sub(func() {
			g.emit(jen.Id(sf.nlate).Op("++"))
			if late != nil {
				late(sf.winIn)
			}
			g.emit(g.skipStmt())
		})
		g.emit(jen.If(jen.Len(jen.Id(accsN)).Op("==").Lit(0)).Block(lateRow...))
		mem.hold(g, jen.Id(sw).Dot("Stats").Call().Dot("Open"),
			jen.Qual(unsafePkg, "Sizeof").Call(jen.Id(key.name).Values()).Op("+").Qual(unsafePkg, "Sizeof").Call(jen.Id(acc.name).Values()))
		sa := g.name("sa")
		upd := g.loop(func() {
			for _, a := range accs {
				g.genAccumulate(a, jen.Id(sa), e)
			}
		})
		g.emit(jen.For(jen.List(jen.Id("_"), jen.Id(sa)).Op(":=").Range().Id(accsN)).Block(upd...))
	})

	// the micro-batch ends: count late rows, advance the watermark, emit
	g.emit(jen.Id("fc").Dot("Late").Call(jen.Id(sf.nlate)))
	adv := jen.Id(sw).Dot("Advance").Call(jen.Id(sf.tracker).Dot("Advance").Call())
	if sf.bounded {
		// every stream input is a bounded source: its end closes every window
		g.emit(jen.Id(sf.tracker).Dot("Advance").Call())
		adv = jen.Id(sw).Dot("Advance").Call(jen.Qual(mathPkg, "MaxInt64"), jen.True())
	}
	em := g.name("em")
	g.emit(jen.Id(em).Op(":=").Add(adv))
	schema := g.u.Schemas[n]
	wt := g.u.Schemas[w][len(g.u.Schemas[w.Input].Visible())].Type
	out := func(rw jen.Code) {
		ae := &aggEnv{calls: map[*ir.Call]*column{}}
		o := &row{cols: make([]*column, len(schema))}
		for i, k := range n.Keys {
			var x *value
			switch winKey[i] {
			case 1:
				x = plainValue(wt, goType(wt).Call(jen.Add(rw).Dot("Window").Dot("Start")))
			case 2:
				x = plainValue(wt, goType(wt).Call(jen.Add(rw).Dot("Window").Dot("End")))
			default:
				x = &value{t: keyTypes[i], v: jen.Add(rw).Dot("Key").Dot(keyField[i])}
				if keyNullable[i] {
					x.ok = jen.Add(rw).Dot("Key").Dot(keyField[i] + "ok")
				}
			}
			col := constColumn(x)
			ae.keys = append(ae.keys, k.Expr)
			ae.keyVals = append(ae.keyVals, col)
			o.cols[i] = col
		}
		g.aggResults(n, o, ae, accs, func() *jen.Statement { return jen.Add(rw).Dot("Acc") })
		c(o)
	}
	ri := g.name("r")
	var body []jen.Code
	var list jen.Code
	switch mode {
	case "Append":
		list = jen.Id(em).Dot("Final")
		body = g.loop(func() { out(jen.Id(ri)) })
	case "Complete":
		list = jen.Id(em).Dot("Complete")
		body = g.loop(func() { out(jen.Id(ri)) })
	case "Update":
		list = jen.Id(em).Dot("Changes")
		if g.target.Kind == ir.KindSink {
			// a sink gets the changelog's upserts as rows; a session's
			// delete has no row form
			if session {
				g.unplanned(g.flow.Pos, "output mode update of session windows into sink %s is not supported yet (sessions that merge delete rows a sink cannot take back): write a streaming table, or emit on window close", g.target.Name)
				return
			}
			body = g.loop(func() { out(jen.Id(ri).Dot("Row")) })
			break
		}
		ci := g.name("ci")
		body = g.loop(func() {
			sf.chSeq = jen.Id("fc").Dot("Epoch").Call().Op("<<").Lit(32).Op("|").Int64().Call(jen.Id(ci))
			sf.chDel = jen.Id(ri).Dot("Kind").Op("==").Qual(streamPkg, "Delete")
			out(jen.Id(ri).Dot("Row"))
		})
		g.emit(jen.Commentf("the windows of the aggregate at %s: %s", posText(n.Pos), strings.ToLower(mode)),
			jen.For(jen.List(jen.Id(ci), jen.Id(ri)).Op(":=").Range().Add(list)).Block(body...))
		return
	}
	g.emit(jen.Commentf("the windows of the aggregate at %s: %s", posText(n.Pos), strings.ToLower(mode)),
		jen.For(jen.List(jen.Id("_"), jen.Id(ri)).Op(":=").Range().Add(list)).Block(body...))
}

// slicesContains reports whether v is in s.
func slicesContains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// genStreamMerge declares the function that folds one session's
// accumulators into another's (sessions merge when a row bridges them).
func (g *flowGen) genStreamMerge(accType string, accs []*accum) string {
	name := g.global("streamMerge_", g.flow.Name)
	var body []jen.Code
	for _, a := range accs {
		f := a.field
		d, s := jen.Id("dst").Dot(f), jen.Id("src").Dot(f)
		dok, sok := jen.Id("dst").Dot(f+"ok"), jen.Id("src").Dot(f+"ok")
		switch {
		case a.name == "count" && a.distinct != nil:
			body = append(body, d.Clone().Dot("Merge").Call(jen.Op("&").Add(s)))
			continue
		}
		switch a.name {
		case "count":
			body = append(body, d.Clone().Op("+=").Add(s))
		case "avg":
			body = append(body, d.Clone().Op("+=").Add(s), jen.Id("dst").Dot(f+"n").Op("+=").Id("src").Dot(f+"n"))
		case "sum":
			add := []jen.Code{d.Clone().Op("+=").Add(s)}
			if a.resT.Kind == ir.TInt64 {
				add = []jen.Code{
					jen.Var().Id("e").Op("*").Qual(sqlfnPkg, "Error"),
					jen.List(d.Clone(), jen.Id("e")).Op("=").Qual(sqlfnPkg, "AddInt64").Call(d.Clone(), s.Clone()),
					jen.If(jen.Id("e").Op("!=").Nil()).Block(jen.Return(jen.Id("e")))}
			}
			body = append(body, jen.If(sok.Clone()).Block(
				jen.If(dok.Clone()).Block(add...).Else().Block(d.Clone().Op("=").Add(s.Clone())),
				dok.Clone().Op("=").True()))
		case "min", "max":
			op := ir.OpLt
			if a.name == "max" {
				op = ir.OpGt
			}
			better := cmpExpr(op, &value{t: a.resT, v: s.Clone()}, &value{t: a.resT, v: d.Clone()})
			body = append(body, jen.If(sok.Clone().Op("&&").Parens(jen.Op("!").Add(dok.Clone()).Op("||").Add(better))).Block(
				d.Clone().Op("=").Add(s.Clone()), dok.Clone().Op("=").True()))
		}
	}
	body = append(body, jen.Return(jen.Nil()))
	g.typeDecls = append(g.typeDecls, func() jen.Code {
		return jen.Commentf("%s folds the accumulators of src into dst (merging sessions).", name).Line().
			Func().Id(name).Params(jen.List(jen.Id("dst"), jen.Id("src")).Op("*").Id(accType)).Error().Block(body...)
	})
	return name
}

// lateSchemaVar is the schema variable of a flow's late table, in the
// flow's package.
const lateSchemaVar = "LateSchema"

// genLateTable prepares the flow's late table: builders of the columns of
// in (the input of the operator that finds rows late, at pos: a window, a
// dedup within the watermark), flushed through fc.EmitLate. It returns the
// function that appends the current late row, or nil when the flow has no
// late table.
func (g *flowGen) genLateTable(in ir.Rel, pos ir.Pos) func(r *row) {
	name := g.flow.LateTable
	if name == "" {
		return nil
	}
	cols := g.u.Schemas[in].Visible()
	sv := lateSchemaVar
	ex := g.extra(g.flow)
	ex.late = &ir.Dataset{Name: name, Kind: ir.KindStreamingTable}
	g.typeDecls = append(g.typeDecls, func() jen.Code {
		return jen.Commentf("%s is the schema of %s, the late rows of flow %s.", sv, name, g.flow.Name).Line().
			Var().Id(sv).Op("=").Qual(arrowPkg, "NewSchema").Call(
			jen.Index().Qual(arrowPkg, "Field").ValuesFunc(func(gr *jen.Group) {
				for _, c := range cols {
					gr.Line().Add(fields(false, field{"Name", jen.Lit(c.Name)}, field{"Type", arrowType(c.Type)}, field{"Nullable", jen.Lit(true)}))
				}
				gr.Line()
			}), jen.Nil())
	})
	lb := "lateB"
	setup := []jen.Code{
		jen.Id(lb).Op(":=").Qual(arrayPkg, "NewRecordBuilder").Call(jen.Id("fc").Dot("Mem"), jen.Id(sv)),
		jen.Defer().Id(lb).Dot("Release").Call(),
	}
	for j, c := range cols {
		setup = append(setup, jen.Id(fmt.Sprintf("lateB%d", j)).Op(":=").Id(lb).Dot("Field").Call(jen.Lit(j)).Assert(jen.Op("*").Qual(arrayPkg, mustPhys(c.Type).builder)),
			jen.Id("_").Op("=").Id(fmt.Sprintf("lateB%d", j)))
	}
	g.prelude = append(g.prelude, setup...)
	g.st.lateFlush = []jen.Code{
		jen.If(jen.Id(lb).Dot("Field").Call(jen.Lit(0)).Dot("Len").Call().Op(">").Lit(0)).Block(
			jen.Id("lrec").Op(":=").Id(lb).Dot("NewRecordBatch").Call(),
			jen.Id("lerr").Op(":=").Id("fc").Dot("EmitLate").Call(jen.Id("lrec")),
			jen.Id("lrec").Dot("Release").Call(),
			jen.If(jen.Id("lerr").Op("!=").Nil()).Block(jen.Return(jen.Id("lerr")))),
	}
	return func(r *row) {
		for j, c := range cols {
			x := g.col(r.cols[j])
			if !sameRep(x.t, c.Type) {
				x = g.coerce(x, c.Type, pos)
			}
			b := jen.Id(fmt.Sprintf("lateB%d", j))
			app := b.Clone().Dot("Append").Call(appendConv(c.Type, V0(x)))
			switch {
			case x.null:
				g.emit(b.Clone().Dot("AppendNull").Call())
			case x.nullable():
				g.emit(jen.If(OK(x)).Block(app).Else().Block(b.Clone().Dot("AppendNull").Call()))
			default:
				g.emit(app)
			}
		}
	}
}

// extra is the flow's flowExtra (created on first use).
func (g *generator) extra(f *ir.Flow) *flowExtra {
	if g.extras == nil {
		g.extras = map[*ir.Flow]*flowExtra{}
	}
	x := g.extras[f]
	if x == nil {
		x = &flowExtra{}
		g.extras[f] = x
	}
	return x
}
