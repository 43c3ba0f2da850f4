package passes

import (
	"fmt"
	"strings"

	"github.com/nordisk/thund/ir"
)

// Emission is how a flow writes its target.
type Emission string

const (
	EmissionBatch    Emission = "batch"    // bounded input: the flow computes its whole result once per run
	EmissionAppend   Emission = "append"   // rows are final once written
	EmissionUpdate   Emission = "update"   // rows are upserted by key at every micro-batch (and a change flow's changes applied)
	EmissionComplete Emission = "complete" // the whole result is rewritten at every micro-batch
)

// FlowInfo is what the passes learned about one flow.
type FlowInfo struct {
	Flow   *ir.Flow
	Target *ir.Dataset
	Output Schema // resolve: the query's output columns

	// sanity
	Inputs        []Input // every read, in query order
	Bounded       bool    // no stream read outside subqueries
	Emission      Emission
	OnWindowClose bool // append of final window rows, once the watermark passes window end (+ allowed lateness)
	Stateful      bool // an aggregate, distinct or stream-stream join over unbounded input
	Aggregating   bool // an aggregate over unbounded input (what update and complete modes upsert)

	Stages []*Stage // fuse
}

// Input is one read of a flow.
type Input struct {
	Scan      *ir.Scan
	Name      string
	Kind      string // the dataset's kind, or "external table"
	Stream    bool
	Watermark *ir.Watermark // a stream read's effective watermark: the read's own, else the dataset's (Unit.Watermarks)
	WMOrigin  string        // where Watermark comes from: "read", "source" or "upstream" (carried through a streaming table)
	Subquery  bool          // the read is inside a scalar or IN subquery
}

// Watermarks returns the inputs that carry a watermark. The flow's
// watermark is the minimum of theirs.
func (fi *FlowInfo) Watermarks() []Input {
	var out []Input
	for _, in := range fi.Inputs {
		if in.Watermark != nil {
			out = append(out, in)
		}
	}
	return out
}

// sanity checks boundedness × emission for every flow (in the manner of
// DataFusion's SanityCheckPlan): what a flow over unbounded input cannot
// compute or emit is refused up front, each with the fix named.
func sanity(u *Unit) {
	s := &sanitizer{u: u, unbounded: map[ir.Rel]bool{}}
	for _, d := range u.Pipeline.Datasets {
		s.datasetWatermark(d)
	}
	for _, f := range u.Pipeline.Flows {
		s.flow(f)
	}
}

type sanitizer struct {
	u         *Unit
	unbounded map[ir.Rel]bool
}

func (s *sanitizer) errorf(pos ir.Pos, code ir.Code, format string, args ...any) {
	s.u.Diags.Add(pos, code, format, args...)
}

// effectiveWatermark is a stream read's watermark: the read's own, else the
// one the dataset it reads defaults to (see datasetWatermark).
func (s *sanitizer) effectiveWatermark(sc *ir.Scan) *ir.Watermark {
	if !sc.Stream {
		return nil
	}
	if sc.Watermark != nil {
		return sc.Watermark
	}
	if d := s.u.lookup(sc.Name); d != nil {
		return s.datasetWatermark(d)
	}
	return nil
}

// watermarkOrigin says where a stream read's watermark comes from.
func (s *sanitizer) watermarkOrigin(sc *ir.Scan) string {
	switch {
	case s.effectiveWatermark(sc) == nil:
		return ""
	case sc.Watermark != nil:
		return "read"
	}
	if d := s.u.lookup(sc.Name); d != nil && d.Kind == ir.KindSource {
		return "source"
	}
	return "upstream"
}

// datasetWatermark is the watermark every stream read of a dataset defaults
// to: a source's declared one; for a streaming table (or view), the one its
// flows carry through, when every streaming flow into it appends rows whose
// event-time column passes through unchanged (it has the largest of their
// delays, so it is the minimum of their watermarks). Results are memoized in
// Unit.Watermarks.
func (s *sanitizer) datasetWatermark(d *ir.Dataset) *ir.Watermark {
	if w, ok := s.u.Watermarks[d]; ok {
		return w
	}
	s.u.Watermarks[d] = nil // no dataset derives from itself (validate refused cycles)
	var w *ir.Watermark
	if d.Kind == ir.KindSource {
		w = d.Watermark
	} else {
		w = s.derivedWatermark(d)
	}
	s.u.Watermarks[d] = w
	return w
}

func (s *sanitizer) derivedWatermark(d *ir.Dataset) *ir.Watermark {
	var out *ir.Watermark
	for _, f := range s.u.flowsInto(d) {
		if f.Once {
			continue // a backfill; its rows are not on the stream's clock
		}
		if f.Query == nil || f.CDC != nil || f.OutputMode == ir.OutputUpdate || f.OutputMode == ir.OutputComplete || f.Emit == ir.EmitOnUpdate || !s.isUnbounded(f.Query) {
			return nil
		}
		col := ""
		for i, fl := range s.u.Schemas[f.Query].Visible() {
			if o, ok := s.trace(f.Query, i); ok && o.scan != nil && s.isEventTime(o) {
				col = fl.Name
				break
			}
		}
		if col == "" || out != nil && !strings.EqualFold(out.Column, col) {
			return nil
		}
		// The flow's watermark is the minimum of its reads': the largest delay.
		for _, sc := range ir.Scans(f.Query) {
			wm := s.effectiveWatermark(sc)
			switch {
			case wm == nil:
			case out == nil:
				out = &ir.Watermark{Pos: wm.Pos, Column: col, Delay: wm.Delay, AllowedLateness: wm.AllowedLateness, IdleTimeout: wm.IdleTimeout}
			default:
				out.Delay = max(out.Delay, wm.Delay)
				out.AllowedLateness = max(out.AllowedLateness, wm.AllowedLateness)
				out.IdleTimeout = max(out.IdleTimeout, wm.IdleTimeout)
			}
		}
	}
	return out
}

// isUnbounded reports whether an operator's input includes a stream read
// (subqueries aside).
func (s *sanitizer) isUnbounded(r ir.Rel) bool {
	if v, ok := s.unbounded[r]; ok {
		return v
	}
	v := false
	if sc, ok := r.(*ir.Scan); ok {
		v = sc.Stream
	}
	for _, in := range ir.RelInputs(r) {
		v = s.isUnbounded(in) || v
	}
	s.unbounded[r] = v
	return v
}

// streamsUnder names the stream reads under an operator: `stream "a"`.
func (s *sanitizer) streamsUnder(r ir.Rel) string {
	var names []string
	var walk func(ir.Rel)
	walk = func(r ir.Rel) {
		if sc, ok := r.(*ir.Scan); ok && sc.Stream && !containsFold(names, sc.Name) {
			names = append(names, sc.Name)
		}
		for _, in := range ir.RelInputs(r) {
			walk(in)
		}
	}
	walk(r)
	if len(names) == 1 {
		return fmt.Sprintf("stream %q", names[0])
	}
	return "streams " + quoteList(names, 8)
}

// inputs lists a flow's reads, leaves first (subqueries after the
// operator's inputs), marking those in subqueries.
func (s *sanitizer) inputs(f *ir.Flow) []Input {
	var out []Input
	var walk func(r ir.Rel, sub bool)
	walk = func(r ir.Rel, sub bool) {
		if sc, ok := r.(*ir.Scan); ok {
			in := Input{Scan: sc, Name: sc.Name, Stream: sc.Stream, Watermark: s.effectiveWatermark(sc), WMOrigin: s.watermarkOrigin(sc), Subquery: sub, Kind: "external table"}
			if d := s.u.lookup(sc.Name); d != nil {
				in.Kind = d.Kind.String()
			}
			out = append(out, in)
		}
		for _, in := range ir.RelInputs(r) {
			walk(in, sub)
		}
		for _, e := range ir.RelExprs(r) {
			ir.WalkExpr(e, func(e ir.Expr) bool {
				switch e := e.(type) {
				case *ir.ScalarSubquery:
					walk(e.Query, true)
				case *ir.InSubquery:
					walk(e.Query, true)
				case *ir.Exists: // correlated subqueries
					walk(e.Query, true)
				}
				return true
			})
		}
	}
	walk(f.Query, false)
	return out
}

// flow computes a flow's inputs, boundedness and emission, and refuses
// what it cannot run.
func (s *sanitizer) flow(f *ir.Flow) {
	fi := s.u.Flows[f]
	if fi == nil {
		fi = &FlowInfo{Flow: f, Target: s.u.lookup(f.Target)}
		s.u.Flows[f] = fi
	}
	if f.Query == nil || fi.Target == nil {
		return
	}
	fi.Inputs = s.inputs(f)
	fi.Bounded = !s.isUnbounded(f.Query)
	t := fi.Target

	if t.Kind == ir.KindMaterializedView || t.Kind == ir.KindView {
		misread := false
		for _, in := range fi.Inputs {
			if in.Stream {
				fix, class := "make it a streaming table", "STREAMING_RELATION_FOR_MATERIALIZED_VIEW"
				if t.Kind == ir.KindView {
					fix, class = "make it a temporary view or a streaming table", "STREAMING_RELATION_FOR_PERSISTED_VIEW"
				}
				s.errorf(in.Scan.Pos, ir.CodeMVReadsStream, "%s %q reads stream %q: a %s is recomputed from snapshots; %s, or read a snapshot (from %s) (Spark: INVALID_FLOW_QUERY_TYPE.%s)", t.Kind, t.Name, in.Name, t.Kind, fix, in.Name, class)
				misread = true
			}
		}
		if misread {
			fi.Emission = EmissionBatch // as declared; what a stream would emit is moot
			return
		}
	}

	if fi.Bounded {
		fi.Emission = EmissionBatch
		s.batchKnobs(f, fi)
	} else {
		s.streamEmission(f, fi)
	}
	mode := fi.Emission
	ir.WalkRel(f.Query, func(r ir.Rel) bool {
		s.operator(f, fi, r, mode)
		return true
	})
	if !fi.Bounded && fi.Emission == EmissionComplete && !s.streamingAggregate(f.Query) {
		s.errorf(f.Pos, ir.CodeBadEmit, "flow %q: output mode complete rewrites the whole result at every micro-batch, which over unbounded unaggregated input (%s) grows forever: aggregate first, or use output mode append", f.Name, s.streamsUnder(f.Query))
	}
	if f.Emit == ir.EmitOnWindowClose && !fi.Bounded && !s.windowedAggregate(f.Query) {
		s.errorf(f.Pos, ir.CodeBadEmit, "flow %q: emit on window close needs a windowed aggregate (window tumble(t, 1m) | group by window_start ... aggregate ...); without one, drop the emit clause", f.Name)
	}
	if f.LateTable != "" && !fi.Bounded && len(fi.Watermarks()) == 0 {
		s.errorf(f.Pos, ir.CodeBadEmit, "flow %q has late table %q but no watermark: a row is late only against a watermark; declare one on the source or the read", f.Name, f.LateTable)
	}
}

// batchKnobs refuses streaming knobs on a flow that reads only snapshots.
func (s *sanitizer) batchKnobs(f *ir.Flow, fi *FlowInfo) {
	knob := func(what string) {
		s.errorf(f.Pos, ir.CodeBadEmit, "flow %q reads only snapshots (bounded input), so %s does not apply: read a stream (from stream x), or drop it", f.Name, what)
	}
	if f.OutputMode != ir.OutputDefault {
		knob("output mode " + f.OutputMode.String())
	}
	if f.Emit != ir.EmitDefault {
		knob("emit " + f.Emit.String())
	}
	if f.Trigger != nil {
		knob("a trigger")
	}
	if f.LateTable != "" {
		knob("a late table")
	}
	if fi.Target.Kind == ir.KindStreamingTable && !f.Once {
		s.errorf(f.Pos, ir.CodeBadEmit, "flow %q into streaming table %q reads only snapshots, so every run would append its whole input again: read a stream (from stream x), mark the flow once (a one-time backfill), or make %q a materialized view (Spark: INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE)", f.Name, fi.Target.Name, fi.Target.Name)
	}
}

// streamEmission settles a streaming flow's emission from its output mode
// and emit clause.
func (s *sanitizer) streamEmission(f *ir.Flow, fi *FlowInfo) {
	if f.Once {
		s.errorf(f.Pos, ir.CodeBadEmit, "once flow %q reads %s: a once flow is a one-time batch backfill; read snapshots (from x), or drop once", f.Name, s.streamsUnder(f.Query))
	}
	if f.CDC != nil && f.OutputMode != ir.OutputDefault {
		s.errorf(f.Pos, ir.CodeBadEmit, "change flow %q applies changes by key: it takes no output mode (drop output mode %s)", f.Name, f.OutputMode)
	}
	mode := EmissionAppend
	switch f.OutputMode {
	case ir.OutputUpdate:
		mode = EmissionUpdate
	case ir.OutputComplete:
		mode = EmissionComplete
	}
	switch f.Emit {
	case ir.EmitOnWindowClose:
		if mode != EmissionAppend {
			s.errorf(f.Pos, ir.CodeBadEmit, "flow %q: emit on window close writes each window's final row once, which is output mode append, not %s: drop one of the two", f.Name, mode)
		}
		fi.OnWindowClose = true
	case ir.EmitOnUpdate:
		if f.OutputMode == ir.OutputAppend || f.OutputMode == ir.OutputComplete {
			s.errorf(f.Pos, ir.CodeBadEmit, "flow %q: emit on update writes a changelog of upserts, which is output mode update, not %s: drop one of the two", f.Name, f.OutputMode)
		} else {
			mode = EmissionUpdate
		}
	}
	if f.CDC != nil {
		mode = EmissionUpdate // changes are applied (upserted) by key
	}
	fi.Emission = mode
	if mode == EmissionAppend && s.windowedAggregate(f.Query) {
		fi.OnWindowClose = true
	}
}

// operator checks one operator of a flow against its input's boundedness.
func (s *sanitizer) operator(f *ir.Flow, fi *FlowInfo, r ir.Rel, mode Emission) {
	switch n := r.(type) {
	case *ir.Aggregate:
		if !s.isUnbounded(n.Input) {
			return
		}
		fi.Stateful = true
		fi.Aggregating = true
		if mode == EmissionAppend && !s.timeKeyed(n) {
			s.errorf(n.Pos, ir.CodeUnboundedAgg, "aggregate over unbounded input (%s) in append mode never emits a final row: add %s with a watermark and group by window_start, or use output mode update or output mode complete", s.streamsUnder(n.Input), s.windowSuggestion(n.Input))
		}
	case *ir.Distinct:
		// dedup within the watermark: state per key until the watermark
		// passes the key's first event time plus the delay
		if n.WithinWatermark {
			if !s.isUnbounded(n.Input) || !s.hasEventTime(n.Input) {
				s.errorf(n.Pos, ir.CodeNoWatermark, "distinct within watermark needs a stream read with a watermark under it (from stream x, with a watermark declared on x or on the read), keeping its event-time column")
				return
			}
			fi.Stateful = true
			return
		}
		if s.isUnbounded(n.Input) {
			fi.Stateful = true
			if !s.hasEventTime(n.Input) {
				s.errorf(n.Pos, ir.CodeUnboundedDist, "distinct over unbounded input (%s) keeps every row it has seen, forever: add %s with a watermark (or keep the watermarked event-time column) so that old state can be dropped", s.streamsUnder(n.Input), s.windowSuggestion(n.Input))
			}
		}
	case *ir.Union:
		if !n.All && s.isUnbounded(n) {
			fi.Stateful = true
			if !s.hasEventTime(n) {
				s.errorf(n.Pos, ir.CodeUnboundedDist, "union (distinct) over unbounded input (%s) keeps every row it has seen, forever: use union all, or keep a watermarked event-time column in the inputs", s.streamsUnder(n))
			}
		}
	case *ir.SetOp: // EXCEPT, INTERSECT
		if s.isUnbounded(n) {
			fi.Stateful = true
			s.errorf(n.Pos, ir.CodeUnboundedDist, "%s over unbounded input (%s) must see all of its inputs before it can answer (Spark refuses it on streams too): read snapshots (from x)", n.Kind, s.streamsUnder(n))
		}
	case *ir.Sort:
		if s.isUnbounded(n.Input) && !(mode == EmissionComplete && s.hasAggregate(n.Input)) {
			s.errorf(n.Pos, ir.CodeUnboundedSort, "order by over unbounded input (%s) can never finish: read a snapshot (from x), or sort an aggregate in output mode complete", s.streamsUnder(n.Input))
		}
	case *ir.Limit:
		if s.isUnbounded(n.Input) && !(mode == EmissionComplete && s.hasAggregate(n.Input)) {
			s.errorf(n.Pos, ir.CodeUnboundedSort, "limit over unbounded input (%s): which rows come first is not defined on a stream; read a snapshot (from x), or limit an aggregate in output mode complete", s.streamsUnder(n.Input))
		}
	case *ir.Window:
		if s.isUnbounded(n.Input) {
			s.checkWindow(n)
		}
	case *ir.Join:
		if s.isUnbounded(n.Left) && s.isUnbounded(n.Right) {
			fi.Stateful = true
			if !s.joinBounded(n) {
				s.errorf(n.Pos, ir.CodeUnboundedJoin, "stream-stream join of %s and %s has no time bound, so both sides' state grows forever: %s", s.streamsUnder(n.Left), s.streamsUnder(n.Right), s.joinHint(n))
			}
		}
	}
}

// origin is where a column comes from: a column of a read, or the start or
// end of a window.
type origin struct {
	scan   *ir.Scan
	column string
	window *ir.Window
}

// trace follows field idx of an operator's output down to its origin,
// through pass-through operators and bare column references.
func (s *sanitizer) trace(r ir.Rel, idx int) (origin, bool) {
	sch := s.u.Schemas[r]
	if idx < 0 || idx >= len(sch) {
		return origin{}, false
	}
	switch n := r.(type) {
	case *ir.Scan:
		if sch[idx].Open {
			return origin{}, false
		}
		return origin{scan: n, column: sch[idx].Name}, true
	case *ir.Filter:
		return s.trace(n.Input, idx)
	case *ir.Sort:
		return s.trace(n.Input, idx)
	case *ir.Limit:
		return s.trace(n.Input, idx)
	case *ir.Distinct:
		return s.trace(n.Input, idx)
	case *ir.SubqueryRel:
		return s.trace(n.Input, idx)
	case *ir.Project:
		cols := s.u.Projections[n]
		if idx >= len(cols) {
			return origin{}, false
		}
		if cols[idx].InputIndex >= 0 {
			return s.trace(n.Input, cols[idx].InputIndex)
		}
		return s.traceExpr(n.Items[cols[idx].Item].Expr)
	case *ir.Aggregate:
		if idx < len(n.Keys) {
			return s.traceExpr(n.Keys[idx].Expr)
		}
	case *ir.Join:
		info := s.u.Joins[n]
		if info == nil || idx >= len(info.Output) {
			return origin{}, false
		}
		if c := info.Output[idx]; c.Left >= 0 {
			return s.trace(n.Left, c.Left)
		} else {
			return s.trace(n.Right, c.Right)
		}
	case *ir.Window:
		nv := len(s.u.Schemas[n.Input].Visible())
		switch {
		case idx < nv:
			return s.trace(n.Input, idx)
		case idx < nv+2:
			return origin{window: n}, true
		}
		return s.trace(n.Input, idx-2)
	case *ir.Generate: // generators, LATERAL VIEW: the input's columns pass through
		nv := len(s.u.Schemas[n.Input].Visible())
		ng := len(sch) - len(s.u.Schemas[n.Input])
		switch {
		case idx < nv:
			return s.trace(n.Input, idx)
		case idx >= nv+ng:
			return s.trace(n.Input, idx-ng)
		}
		return origin{}, false
	case *ir.Union:
		var first origin
		for i, in := range n.Inputs {
			o, ok := s.trace(in, idx)
			if !ok || !s.isEventTime(o) {
				return origin{}, false
			}
			if i == 0 {
				first = o
			}
		}
		return first, len(n.Inputs) > 0
	}
	return origin{}, false
}

// traceExpr traces a bare column reference.
func (s *sanitizer) traceExpr(e ir.Expr) (origin, bool) {
	c, ok := e.(*ir.ColumnRef)
	if !ok {
		return origin{}, false
	}
	b, ok := s.u.Refs[c]
	if !ok || b.Depth != 0 || b.Open || b.Rel == nil {
		return origin{}, false
	}
	return s.trace(b.Rel, b.Index)
}

// isEventTime reports whether an origin is event time: the watermarked
// column of a stream read, or a window over event time.
func (s *sanitizer) isEventTime(o origin) bool {
	if o.window != nil {
		t, ok := s.traceExpr(o.window.Time)
		return ok && s.isEventTime(t)
	}
	if o.scan == nil {
		return false
	}
	wm := s.effectiveWatermark(o.scan)
	return wm != nil && strings.EqualFold(wm.Column, o.column)
}

// timeKeyed reports whether an aggregate groups by event time (a window,
// or the watermarked column), so that the watermark closes its groups. A
// window over a stream without a watermark counts: checkWindow reports it.
func (s *sanitizer) timeKeyed(n *ir.Aggregate) bool {
	for _, k := range n.Keys {
		if o, ok := s.traceExpr(k.Expr); ok && (o.window != nil || s.isEventTime(o)) {
			return true
		}
	}
	return false
}

// hasEventTime reports whether an operator's output keeps an event-time column.
func (s *sanitizer) hasEventTime(r ir.Rel) bool {
	for i, f := range s.u.Schemas[r] {
		if f.Hidden {
			break
		}
		if o, ok := s.trace(r, i); ok && s.isEventTime(o) {
			return true
		}
	}
	return false
}

// hasAggregate reports an Aggregate in an operator tree.
func (s *sanitizer) hasAggregate(r ir.Rel) bool {
	if _, ok := r.(*ir.Aggregate); ok {
		return true
	}
	for _, in := range ir.RelInputs(r) {
		if s.hasAggregate(in) {
			return true
		}
	}
	return false
}

// streamingAggregate reports an aggregate over unbounded input.
func (s *sanitizer) streamingAggregate(q ir.Rel) bool {
	found := false
	ir.WalkRel(q, func(r ir.Rel) bool {
		if a, ok := r.(*ir.Aggregate); ok && s.isUnbounded(a.Input) {
			found = true
		}
		return !found
	})
	return found
}

// windowedAggregate reports an aggregate over unbounded input keyed by event time.
func (s *sanitizer) windowedAggregate(q ir.Rel) bool {
	found := false
	ir.WalkRel(q, func(r ir.Rel) bool {
		if a, ok := r.(*ir.Aggregate); ok && s.isUnbounded(a.Input) && s.timeKeyed(a) {
			found = true
		}
		return !found
	})
	return found
}

// windowSuggestion writes a window stage over the input's watermarked
// column when there is one.
func (s *sanitizer) windowSuggestion(r ir.Rel) string {
	col := "TIME"
	for _, sc := range ir.Scans(r) {
		if wm := s.effectiveWatermark(sc); wm != nil {
			col = wm.Column
			break
		}
	}
	return "window tumble(" + col + ", 1m)"
}

// checkWindow requires a window over a stream to be on the watermarked
// event-time column.
func (s *sanitizer) checkWindow(n *ir.Window) {
	o, ok := s.traceExpr(n.Time)
	switch {
	case ok && s.isEventTime(o):
		return
	case ok && o.scan != nil && o.scan.Stream:
		wm := s.effectiveWatermark(o.scan)
		if wm != nil {
			s.errorf(n.Pos, ir.CodeNoWatermark, "window on %s, but the watermark of stream %q is on %s: window on the watermarked column, or declare the watermark on %s", o.column, o.scan.Name, wm.Column, o.column)
			return
		}
		where := fmt.Sprintf("on the read (from stream %s watermark %s delay 10s)", o.scan.Name, o.column)
		why := ""
		if d := s.u.lookup(o.scan.Name); d != nil && d.Kind == ir.KindSource {
			where = fmt.Sprintf("on source %q or %s", d.Name, where)
		} else if d != nil {
			why = fmt.Sprintf(" (%s %q carries none: its flows do not pass a watermarked column through unchanged)", d.Kind, d.Name)
		}
		s.errorf(n.Pos, ir.CodeNoWatermark, "window over stream %q needs a watermark to close windows%s: declare watermark %s delay DUR %s", o.scan.Name, why, o.column, where)
	default:
		s.errorf(n.Pos, ir.CodeNoWatermark, "window over %s needs a watermarked event-time column, and %s is not one: window on the column named in the stream's watermark (declare watermark COL delay DUR on the source or the read)", s.streamsUnder(n.Input), exprString(n.Time))
	}
}

// joinBounded reports whether a stream-stream join's ON condition bounds
// one side's event time by the other's from both sides: l.t between r.t - a
// and r.t + b, a pair of >= / <= conjuncts, or an equality.
func (s *sanitizer) joinBounded(j *ir.Join) bool {
	var lower, upper bool
	for _, c := range conjuncts(j.On) {
		switch c := c.(type) {
		case *ir.Between:
			if !c.Not {
				s.bound(j, c.X, ir.OpGe, c.Lo, &lower, &upper)
				s.bound(j, c.X, ir.OpLe, c.Hi, &lower, &upper)
			}
		case *ir.Binary:
			switch c.Op {
			case ir.OpEq, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
				s.bound(j, c.L, c.Op, c.R, &lower, &upper)
			}
		}
	}
	return lower && upper
}

// conjuncts splits an AND tree.
func conjuncts(e ir.Expr) []ir.Expr {
	if b, ok := e.(*ir.Binary); ok && b.Op == ir.OpAnd {
		return append(conjuncts(b.L), conjuncts(b.R)...)
	}
	if e == nil {
		return nil
	}
	return []ir.Expr{e}
}

// bound records a op b as a bound on left event time - right event time.
func (s *sanitizer) bound(j *ir.Join, a ir.Expr, op ir.BinaryOp, b ir.Expr, lower, upper *bool) {
	sa, oka := s.timeSide(j, a)
	sb, okb := s.timeSide(j, b)
	if !oka || !okb || sa == sb {
		return
	}
	if sa == 1 { // right op left: flip to left op' right
		switch op {
		case ir.OpLt:
			op = ir.OpGt
		case ir.OpLe:
			op = ir.OpGe
		case ir.OpGt:
			op = ir.OpLt
		case ir.OpGe:
			op = ir.OpLe
		}
	}
	switch op {
	case ir.OpEq:
		*lower, *upper = true, true
	case ir.OpGt, ir.OpGe:
		*lower = true
	case ir.OpLt, ir.OpLe:
		*upper = true
	}
}

// timeSide returns the join side (0 left, 1 right) of an event-time column,
// possibly plus or minus a constant.
func (s *sanitizer) timeSide(j *ir.Join, e ir.Expr) (int, bool) {
	if b, ok := e.(*ir.Binary); ok && (b.Op == ir.OpAdd || b.Op == ir.OpSub) {
		switch {
		case isConstant(b.R):
			e = b.L
		case b.Op == ir.OpAdd && isConstant(b.L):
			e = b.R
		default:
			return 0, false
		}
	}
	c, ok := e.(*ir.ColumnRef)
	if !ok {
		return 0, false
	}
	bd, ok := s.u.Refs[c]
	if !ok || bd.Depth != 0 || bd.Open {
		return 0, false
	}
	side := 0
	switch bd.Rel {
	case j.Left:
	case j.Right:
		side = 1
	default:
		return 0, false
	}
	o, ok := s.trace(bd.Rel, bd.Index)
	return side, ok && s.isEventTime(o)
}

// isConstant reports an expression without column references or subqueries.
func isConstant(e ir.Expr) bool {
	ok := true
	ir.WalkExpr(e, func(e ir.Expr) bool {
		switch e.(type) {
		case *ir.ColumnRef, *ir.ScalarSubquery, *ir.InSubquery, *ir.Exists, *ir.Star:
			ok = false
		}
		return ok
	})
	return ok
}

// joinHint writes an example bound on the two sides' event-time columns.
func (s *sanitizer) joinHint(j *ir.Join) string {
	col := func(r ir.Rel) string {
		for i, f := range s.u.Schemas[r] {
			if o, ok := s.trace(r, i); ok && s.isEventTime(o) {
				if f.Qualifier != "" {
					return f.Qualifier + "." + f.Name
				}
				return f.Name
			}
		}
		return ""
	}
	l, r := col(j.Left), col(j.Right)
	if l == "" || r == "" {
		return "declare a watermark on both streams, then bound one side's event time by the other's, e.g. l.t between r.t - 10s and r.t + 10s"
	}
	return fmt.Sprintf("bound one side's event time by the other's, e.g. on ... and %s between %s - 10s and %s + 10s", l, r, r)
}
