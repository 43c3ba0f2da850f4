package passes

import (
	"fmt"
	"math"
	"strings"

	"github.com/nordisk/thund/ir"
)

// The stream plan: how a flow keeps streaming state (its watermarked
// inputs, time unit and lateness, and its one stateful operator: a windowed
// aggregate or a join of two streams), and the refusals of what the native
// streaming runtime does not run.
// stream plans a stateful streaming flow: its watermark inputs, time unit,
// lateness and stateful operator.
func (p *planner) stream() bool {
	f := p.fp.Flow
	if !statefulStream(f.Query) {
		return true
	}
	sp := &StreamPlan{Bounded: true}
	unitSet := false
	for _, in := range p.fi.Inputs {
		if !in.Stream || in.Subquery {
			continue
		}
		d := p.u.lookup(in.Name)
		if d == nil || d.Kind != ir.KindSource || d.Source == nil || d.Source.Unbounded || d.Source.Stdin {
			sp.Bounded = false
		}
		w := in.Watermark
		if w == nil {
			continue
		}
		schema := p.u.Schemas[in.Scan]
		col := -1
		for i, fl := range schema {
			if !fl.Open && strings.EqualFold(fl.Name, w.Column) {
				col = i
			}
		}
		if col < 0 || schema[col].Type.Kind != ir.TTimestamp {
			p.refuse(w.Pos, "the watermark column %q of %s is not a timestamp column of it", w.Column, in.Name)
			return false
		}
		u := schema[col].Type.Unit
		if unitSet && u != sp.Unit {
			p.refuse(in.Scan.Pos, "the event-time columns of this flow's stream inputs have different units (%s and %s): cast them to one timestamp unit upstream", sp.Unit, u)
			return false
		}
		sp.Unit, unitSet = u, true
		sp.Per = int64(1e9) / UnitsPerSecond[u]
		sp.Inputs = append(sp.Inputs, WatermarkRead{Scan: in.Scan, Col: col, Delay: int64(w.Delay) / sp.Per,
			Name: fmt.Sprintf("%s(%s)", strings.ToLower(in.Name), strings.ToLower(w.Column))})
		sp.Lateness = max(sp.Lateness, int64(w.AllowedLateness)/sp.Per)
		sp.Idle = max(sp.Idle, w.IdleTimeout)
	}
	if len(sp.Inputs) == 0 && !unwindowedAggregateOnly(f.Query) {
		p.refuse(f.Pos, "flow %q keeps streaming state but none of its stream reads has a watermark: declare one on the source or the read", f.Name)
		return false
	}
	p.fp.Stream = sp
	return true
}

// update plans an update-mode windowed aggregate into a table as a change
// flow of SCD type 1: the target stores the current row per group key and
// window, and each micro-batch's upserts and deletes are applied to it by
// key. The aggregate must be the query's top operator: the target's key
// columns are its group keys. (A sink takes the changelog as rows.)
func (p *planner) update() bool {
	f, target := p.fp.Flow, p.fp.Target
	if p.fp.Stream == nil || p.fi.Emission != EmissionUpdate || target.Kind == ir.KindSink {
		return true
	}
	agg, ok := f.Query.(*ir.Aggregate)
	if !ok || len(p.u.flowsInto(target)) > 1 {
		p.refuse(f.Pos, "output mode update needs the windowed aggregate at the top of the flow's query, and the flow alone in its target (its rows are upserted by the group keys): move the select or filter downstream")
		return false
	}
	ts := p.u.Datasets[target].Visible()
	cp := &CDCPlan{Data: len(ts), Seq: ir.Int64, SCD: 1, Update: true}
	out := p.u.Schemas[agg]
	for i := range agg.Keys {
		j := ts.Lookup(out[i].Name)
		if j < 0 {
			p.refuse(agg.Keys[i].Pos, "output mode update: group key %s is not a column of %s", out[i].Name, target.Name)
			return false
		}
		cp.Keys = append(cp.Keys, j)
	}
	p.fp.CDC = cp
	return true
}

// window checks a window operator: over a stream it must feed the flow's
// stream aggregate; over bounded input it is tumbling or hopping.
func (p *planner) window(n *ir.Window) {
	schema := p.u.Schemas[n]
	wt := schema[len(p.u.Schemas[n.Input].Visible())].Type
	if Streaming(n) {
		sp := p.fp.Stream
		if sp == nil || !p.feedsStreamAggregate(n) {
			p.refuse(n.Pos, "a %s window over a stream must feed an aggregate (window ... | group by window_start ... aggregate ...)", n.Kind)
			return
		}
		if wt.Kind != ir.TTimestamp || wt.Unit != sp.Unit {
			p.refuse(n.Time.Position(), "the window's time column must be a timestamp in the unit of the flow's watermarks (%s), not %s", sp.Unit, wt)
		}
		return
	}
	if n.Kind == ir.WindowSession {
		p.refuse(n.Pos, "session windows over bounded input are not supported yet (over a stream they are)")
		return
	}
	per := int64(1e9) / UnitsPerSecond[wt.Unit]
	size, slide := int64(n.Size), int64(n.Slide)
	if n.Kind == ir.WindowTumble {
		slide = size
	}
	if size%per != 0 || slide%per != 0 {
		p.refuse(n.Pos, "window %s(%s) is finer than its time column's unit (%s): cast the column to a finer timestamp", n.Kind, ir.Duration(size), wt)
	}
}

// feedsStreamAggregate reports a stream window that some stream aggregate
// of the flow groups (through filters and subquery aliases).
func (p *planner) feedsStreamAggregate(w *ir.Window) bool {
	found := false
	ir.WalkRel(p.fp.Flow.Query, func(r ir.Rel) bool {
		if a, ok := r.(*ir.Aggregate); ok && WindowUnder(a.Input) == w {
			found = true
		}
		return !found
	})
	return found
}

// WindowUnder is the window an aggregate groups, through filters and
// subquery aliases; nil when there is none.
func WindowUnder(r ir.Rel) *ir.Window {
	switch n := r.(type) {
	case *ir.Window:
		return n
	case *ir.Filter:
		return WindowUnder(n.Input)
	case *ir.SubqueryRel:
		return WindowUnder(n.Input)
	}
	return nil
}

// WindowColumn reports whether field idx of r (down to window w) is w's
// window_start (1) or window_end (2), else 0.
func WindowColumn(u *Unit, r ir.Rel, idx int, w *ir.Window) int {
	switch n := r.(type) {
	case *ir.Window:
		if n != w {
			return 0
		}
		nv := len(u.Schemas[n.Input].Visible())
		switch idx {
		case nv:
			return 1
		case nv + 1:
			return 2
		}
	case *ir.Filter:
		return WindowColumn(u, n.Input, idx, w)
	case *ir.SubqueryRel:
		return WindowColumn(u, n.Input, idx, w)
	}
	return 0
}

// streamAggregate checks a windowed aggregate over stream reads.
func (p *planner) streamAggregate(n *ir.Aggregate, ops *int) {
	sp := p.fp.Stream
	w := WindowUnder(n.Input)
	switch {
	case sp == nil:
		p.refuseStreaming(n.Pos, "an aggregate")
		return
	case w == nil || !Streaming(w):
		p.unwindowedAggregate(n, ops) // plan_stream_groups.go
		return
	case *ops > 0:
		p.refuse(n.Pos, "a flow with more than one stateful streaming operator is not supported yet: split it through a streaming table")
		return
	}
	*ops++
	sp.Aggregate, sp.Window = n, w
	session := w.Kind == ir.WindowSession
	size, slide, gap := int64(w.Size), int64(w.Slide), int64(w.Gap)
	if w.Kind == ir.WindowTumble {
		slide = size
	}
	for _, d := range []int64{size, slide, gap} {
		if d%sp.Per != 0 {
			p.refuse(w.Pos, "window %s(%s) is finer than its time column's unit (%s): cast the column to a finer timestamp", w.Kind, ir.Duration(d), sp.Unit)
			return
		}
	}
	for _, call := range p.u.AggCalls[n] {
		if !p.accum(call, true, session) {
			return
		}
	}
	hasStart := false
	for _, k := range n.Keys {
		wk := 0
		if ref, ok := k.Expr.(*ir.ColumnRef); ok {
			if b, ok := p.u.Refs[ref]; ok && b.Depth == 0 {
				wk = WindowColumn(p.u, b.Rel, b.Index, w)
			}
		}
		if wk == 1 {
			hasStart = true
		}
		if wk != 0 {
			continue
		}
		switch t := p.u.Types[k.Expr]; t.Kind {
		case ir.TDecimal, ir.TBinary:
			p.refuse(k.Pos, "a group key of type %s over a stream is not supported yet", t)
			return
		}
	}
	if !hasStart {
		p.refuse(n.Pos, "a windowed aggregate over a stream must group by window_start")
		return
	}
	// window_start and window_end exist only as the aggregate's group keys
	var exprs []ir.Expr
	for _, k := range n.Keys {
		if _, ok := k.Expr.(*ir.ColumnRef); !ok {
			exprs = append(exprs, k.Expr)
		}
	}
	for _, a := range n.Aggs {
		exprs = append(exprs, a.Expr)
	}
	for r := n.Input; r != w; {
		exprs = append(exprs, ir.RelExprs(r)...)
		ins := ir.RelInputs(r)
		if len(ins) != 1 {
			break
		}
		r = ins[0]
	}
	for _, e := range exprs {
		ir.WalkExpr(e, func(x ir.Expr) bool {
			if ref, ok := x.(*ir.ColumnRef); ok {
				if b, ok := p.u.Refs[ref]; ok && b.Depth == 0 && WindowColumn(p.u, b.Rel, b.Index, w) != 0 {
					name := p.u.Schemas[w][b.Index].Name
					if wc := WindowColumn(p.u, b.Rel, b.Index, w); wc == 1 {
						name = p.u.Schemas[w][len(p.u.Schemas[w.Input].Visible())].Name
					} else {
						name = p.u.Schemas[w][len(p.u.Schemas[w.Input].Visible())+1].Name
					}
					p.refuse(w.Pos, "%s of a window over a stream can only be a group key of the aggregate over it", name)
				}
			}
			return true
		})
	}
	if session && p.fi.Emission == EmissionUpdate && p.fp.Target.Kind == ir.KindSink {
		p.refuse(p.fp.Flow.Pos, "output mode update of session windows into sink %s is not supported yet (sessions that merge delete rows a sink cannot take back): write a streaming table, or emit on window close", p.fp.Target.Name)
	}
}

// accum checks one aggregate call: what the native accumulators compute,
// and in window state (stream), what they keep.
func (p *planner) accum(call *ir.Call, stream, session bool) bool {
	fn := p.u.Calls[call]
	name := strings.ToLower(call.Name)
	if fn != nil {
		name = fn.Name
	}
	resT := p.u.Types[call]
	var argT ir.Type
	if len(call.Args) > 0 {
		argT = p.u.Types[call.Args[0]]
	}
	if stream {
		why := ""
		switch {
		case call.Distinct && name != "count":
			why = name + "(distinct ...)"
		case call.Distinct && len(call.Args) != 1:
			why = "count(distinct ...) of several columns"
		case resT.Kind == ir.TDecimal || argT.Kind == ir.TDecimal:
			why = name + " of a decimal"
		case session && (name == "first" || name == "last" || name == "any_value"):
			why = name + " in a session window (sessions merge, and which row came first is not kept)"
		case session && name == "sum" && resT.Kind != ir.TInt64 && resT.Kind != ir.TFloat64:
			why = "sum of " + resT.String() + " in a session window"
		}
		if why != "" {
			p.refuse(call.Pos, "%s over a stream is not supported yet", why)
			return false
		}
	}
	switch name {
	case "count", "min", "max":
	case "sum", "avg":
		if name == "avg" && argT.Kind == ir.TDuration {
			p.refuse(call.Pos, "avg of a duration is not supported yet")
			return false
		}
	case "first", "last", "any_value":
		if len(call.Args) == 2 {
			if l, ok := call.Args[1].(*ir.Literal); !ok || l.Kind != ir.LitBool {
				p.refuse(call.Args[1].Position(), "%s with an ignore-nulls argument that is not true or false is not supported yet", name)
				return false
			}
		}
	default:
		if IsFamilyAgg(name) { // plan_agg.go
			return p.familyAccum(call, name, stream)
		}
		p.refuse(call.Pos, "aggregate %s is not supported yet", call.Name)
		return false
	}
	return true
}

// streamJoin checks a join of two streams and plans its time bound.
func (p *planner) streamJoin(n *ir.Join, ops *int) {
	sp := p.fp.Stream
	switch {
	case sp == nil:
		p.refuseStreaming(n.Pos, "a join of two streams")
		return
	case n.Kind != ir.JoinInner && n.Kind != ir.JoinLeft && n.Kind != ir.JoinRight && n.Kind != ir.JoinFull:
		p.refuse(n.Pos, "a %s join of two streams is not supported yet (inner, left, right and full outer joins are)", n.Kind)
		return
	case len(n.Using) > 0:
		p.refuse(n.Pos, "a join of two streams with USING is not supported yet: write the condition with ON")
		return
	case *ops > 0:
		p.refuse(n.Pos, "a flow with more than one stateful streaming operator is not supported yet: split it through a streaming table")
		return
	case p.fp.Flow.LateTable != "":
		p.refuse(p.fp.Flow.Pos, "a late table of a join of two streams is not supported yet (late rows are counted)")
		return
	}
	*ops++
	sp.Join = n
	jp := p.fp.Joins[n]
	tb, ok := p.joinTimeBound(n)
	if !ok {
		p.refuse(n.Pos, "the time bound of this join of two streams must compare the two sides' event-time columns (in the watermarks' unit) plus constant intervals, e.g. b.t between a.t and a.t + 10s")
		return
	}
	jp.Time = tb
	if len(jp.Keys) == 0 {
		p.refuse(n.Pos, "a join of two streams needs an equality of the two sides (a key) besides its time bound")
		return
	}
	for _, k := range jp.Keys {
		if k.NullSafe || k.Type.Kind == ir.TDecimal || k.Type.Kind == ir.TBinary {
			p.refuse(n.Pos, "a join of two streams on a key of type %s (or with <=>) is not supported yet", k.Type)
			return
		}
	}
	// the columns each side keeps: what the join's consumers and its ON read
	for _, side := range []ir.Rel{n.Left, n.Right} {
		used := map[int]bool{}
		ir.WalkExpr(n.On, func(x ir.Expr) bool {
			if ref, ok := x.(*ir.ColumnRef); ok {
				if b, ok := p.u.Refs[ref]; ok && b.Depth == 0 && b.Rel == side {
					used[b.Index] = true
				}
			}
			return true
		})
		need := p.fp.Need[side]
		for j, f := range p.u.Schemas[side] {
			if f.Open || !(used[j] || j < len(need) && need[j]) {
				continue
			}
			if f.Type.Kind == ir.TDecimal {
				p.refuse(n.Pos, "a join of two streams that keeps a %s column (%s) is not supported yet", f.Type, f.Name)
				return
			}
		}
	}
}

// timeTerm splits e into a column of one join side plus a constant (in
// units): col, col + c, col - c, c + col. ok is false for anything else.
func (p *planner) timeTerm(e ir.Expr, n *ir.Join) (col ir.Expr, side int, c int64, ok bool) {
	if b, isBin := e.(*ir.Binary); isBin && (b.Op == ir.OpAdd || b.Op == ir.OpSub) {
		lit, litOK := p.intervalUnits(b.R)
		x := b.L
		if !litOK && b.Op == ir.OpAdd {
			lit, litOK = p.intervalUnits(b.L)
			x = b.R
		}
		if !litOK {
			return nil, 0, 0, false
		}
		if b.Op == ir.OpSub {
			lit = -lit
		}
		col, side, c, ok = p.timeTerm(x, n)
		return col, side, c + lit, ok
	}
	ref, isRef := e.(*ir.ColumnRef)
	if !isRef {
		return nil, 0, 0, false
	}
	t := p.u.Types[ref]
	if t.Kind != ir.TTimestamp || t.Unit != p.fp.Stream.Unit {
		return nil, 0, 0, false
	}
	switch p.u.SideOf(ref, n) {
	case 1:
		return ref, 1, 0, true
	case 2:
		return ref, 2, 0, true
	}
	return nil, 0, 0, false
}

// intervalUnits is an interval literal (possibly negated) in units of the
// flow's event time.
func (p *planner) intervalUnits(e ir.Expr) (int64, bool) {
	neg := false
	if u, ok := e.(*ir.Unary); ok && u.Op == ir.OpNeg {
		e, neg = u.X, true
	}
	l, ok := e.(*ir.Literal)
	if !ok || l.Kind != ir.LitInterval {
		return 0, false
	}
	d, err := ir.ParseDuration(l.Text)
	per := p.fp.Stream.Per
	if err != nil || int64(d)%per != 0 {
		return 0, false
	}
	v := int64(d) / per
	if neg {
		v = -v
	}
	return v, true
}

// joinTimeBound reads the event-time bound of a join of two streams from
// its ON conjuncts (between, <, <=, >, >=, = of one side's time column plus
// a constant against the other's). Every conjunct stays in the residual
// condition as well: the bound only decides what the state keeps.
func (p *planner) joinTimeBound(n *ir.Join) (*TimeBound, bool) {
	tb := &TimeBound{Lower: math.MinInt64, Upper: math.MaxInt64}
	var hasLo, hasHi bool
	add := func(a ir.Expr, op ir.BinaryOp, b ir.Expr) {
		ca, sa, ka, okA := p.timeTerm(a, n)
		cb, sb, kb, okB := p.timeTerm(b, n)
		if !okA || !okB || sa == sb {
			return
		}
		// a op b, with a = side sa's time + ka: make it tr - tl op k
		var k int64
		if sa == 1 { // tl + ka op tr + kb  <=>  tr - tl op' ka - kb
			k = ka - kb
			op = map[ir.BinaryOp]ir.BinaryOp{ir.OpLt: ir.OpGt, ir.OpLe: ir.OpGe, ir.OpGt: ir.OpLt, ir.OpGe: ir.OpLe, ir.OpEq: ir.OpEq}[op]
			tb.L, tb.R = ca, cb
		} else { // tr + ka op tl + kb  <=>  tr - tl op kb - ka
			k = kb - ka
			tb.L, tb.R = cb, ca
		}
		switch op {
		case ir.OpGt, ir.OpGe:
			tb.Lower, hasLo = max(tb.Lower, k), true
		case ir.OpLt, ir.OpLe:
			tb.Upper, hasHi = min(tb.Upper, k), true
		case ir.OpEq:
			tb.Lower, tb.Upper, hasLo, hasHi = max(tb.Lower, k), min(tb.Upper, k), true, true
		}
	}
	for _, c := range conjuncts(n.On) {
		switch c := c.(type) {
		case *ir.Between:
			if !c.Not {
				add(c.X, ir.OpGe, c.Lo)
				add(c.X, ir.OpLe, c.Hi)
			}
		case *ir.Binary:
			switch c.Op {
			case ir.OpEq, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
				add(c.L, c.Op, c.R)
			}
		}
	}
	return tb, hasLo && hasHi && tb.Lower <= tb.Upper
}
