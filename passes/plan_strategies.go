package passes

import (
	"strings"

	"github.com/nordisk/thund/ir"
)

// The strategies of the plan: which pipelines run on the workers, top-N
// sorts and their bars, the aggregates whose group is memoized per join
// build row, and those whose accumulators are deferred to a second loop.
// strategies plans the aggregates' memoized groups and deferred
// accumulators, and the top-N sorts' bars.
func (p *planner) strategies() {
	fp := p.fp
	walkAll(fp.Flow.Query, func(r ir.Rel) {
		switch n := r.(type) {
		case *ir.Aggregate:
			if Streaming(n) || len(n.Keys) == 0 || n.Sets != nil { // grouping sets: several groups per row
				return
			}
			fp.Memo[n] = p.memoJoins(n)
			if scanRows(n.Input) && p.argsFromScan(n) {
				fp.Defer[n] = true
			}
		case *ir.Sort:
			if fp.TopN[n] > 0 && len(n.Keys) > 0 {
				k := n.Keys[0].Expr
				t := p.u.Types[k]
				ordered := t.Kind == ir.TDate32 || t.Kind == ir.TTimestamp || t.Kind == ir.TDuration || t.Kind == ir.TString || t.IsInteger()
				fp.TopNBar[n] = ordered && !p.u.Nullable[k]
			}
		}
	})
}

// loadOrigin is where a column of an operator's output comes from, on each
// path of the generated code that produces it: a column of a scan's batch,
// or of a join's build row.
type loadOrigin struct {
	scan  bool
	build *ir.Join
}

// origins traces column idx of r down to where its values are loaded.
func (p *planner) origins(r ir.Rel, idx int) []loadOrigin {
	switch n := r.(type) {
	case *ir.Scan:
		return []loadOrigin{{scan: true}}
	case *ir.Filter:
		return p.origins(n.Input, idx)
	case *ir.SubqueryRel:
		return p.origins(n.Input, idx)
	case *ir.Project:
		cols := p.u.Projections[n]
		if idx >= len(cols) {
			return nil
		}
		if pc := cols[idx]; pc.InputIndex >= 0 {
			return p.origins(n.Input, pc.InputIndex)
		}
		// an item that names a column of a scan's batch or of a join's
		// build row stays one (codegen's genProject passes it on as such);
		// a window select's rows are its own
		it := n.Items[cols[idx].Item]
		if ref, ok := it.Expr.(*ir.ColumnRef); ok {
			if b, ok := p.u.Refs[ref]; ok && b.Depth == 0 && b.Rel == n.Input {
				var out []loadOrigin
				for _, o := range p.origins(n.Input, b.Index) {
					if o.scan || !WindowProject(n) {
						out = append(out, o)
					}
				}
				return out
			}
		}
	case *ir.Join:
		if Streaming(n.Left) && Streaming(n.Right) {
			return nil
		}
		info := p.u.Joins[n]
		if idx >= len(info.Output) {
			return nil
		}
		switch jc := info.Output[idx]; {
		case jc.Left >= 0:
			return p.origins(n.Left, jc.Left)
		case jc.Right >= 0:
			return []loadOrigin{{build: n}}
		}
	case *ir.Union:
		var out []loadOrigin
		for _, in := range n.Inputs {
			if p.u.Schemas[in][idx].Type == p.u.Schemas[n][idx].Type {
				out = append(out, p.origins(in, idx)...)
			}
		}
		return out
	}
	return nil
}

// keyOrigins are the origins of an aggregate's input column that expression
// e reads when it is a plain column reference; nil otherwise.
func (p *planner) keyOrigins(n *ir.Aggregate, e ir.Expr) []loadOrigin {
	ref, ok := e.(*ir.ColumnRef)
	if !ok {
		return nil
	}
	b, ok := p.u.Refs[ref]
	if !ok || b.Depth != 0 || b.Rel != n.Input {
		return nil
	}
	return p.origins(n.Input, b.Index)
}

// memoJoins are the joins whose build row holds every group key of n.
func (p *planner) memoJoins(n *ir.Aggregate) []*ir.Join {
	var out []*ir.Join
	count := map[*ir.Join]int{}
	for _, k := range n.Keys {
		seen := map[*ir.Join]bool{}
		for _, o := range p.keyOrigins(n, k.Expr) {
			if o.build != nil && !seen[o.build] {
				seen[o.build] = true
				count[o.build]++
			}
		}
	}
	for _, j := range joinsOf(n.Input) {
		if count[j] == len(n.Keys) {
			out = append(out, j)
		}
	}
	return out
}

// scanRows reports whether each row r produces is one row of a scan's
// batch, reached through operators that compute per row (filters,
// projections, aliases): its columns can then be loaded again from the
// batch by the row's index.
func scanRows(r ir.Rel) bool {
	switch n := r.(type) {
	case *ir.Scan:
		return !n.Stream
	case *ir.Filter:
		return scanRows(n.Input)
	case *ir.Project:
		return scanRows(n.Input)
	case *ir.SubqueryRel:
		return scanRows(n.Input)
	}
	return false
}

// argsFromScan reports whether every accumulator of n reads only columns
// of the scan's batch (or nothing, count(*)): deferAccum's second loop
// loads them again by the row's index, where a computed argument would be
// computed twice, and raise its errors after every key's of the batch.
func (p *planner) argsFromScan(n *ir.Aggregate) bool {
	for _, call := range p.u.AggCalls[n] {
		if call.Filter != nil { // an aggregate FILTER: evaluated once, in the row loop
			return false
		}
		if call.Star {
			continue
		}
		for _, x := range call.Args {
			os := p.keyOrigins(n, x)
			if len(os) != 1 || !os[0].scan {
				return false
			}
		}
	}
	return true
}

// parallel plans which pipelines run on the workers, and the top-N sorts.
func (p *planner) parallel() {
	fp := p.fp
	fp.ParallelOutput = fp.CDC == nil && parSource(fp.Flow.Query)
	walkAll(fp.Flow.Query, func(r ir.Rel) {
		switch n := r.(type) {
		case *ir.Limit:
			if s, ok := n.Input.(*ir.Sort); ok {
				fp.TopN[s] = n.N + n.Offset
			}
		case *ir.Aggregate:
			if !Streaming(n) && parSource(n.Input) && p.mergeable(n) {
				fp.Parallel[n] = true
			}
		}
	})
	for s, k := range fp.TopN {
		if k > 0 && parSource(s.Input) {
			fp.Parallel[s] = true
		}
	}
}

// parSource reports a pipeline that can run on the workers: a scan of a
// snapshot reached through operators that keep no state across rows (a
// hash join's probe side, whose build side is built once first).
func parSource(r ir.Rel) bool {
	switch n := r.(type) {
	case *ir.Scan:
		return !n.Stream
	case *ir.Filter:
		return parSource(n.Input)
	case *ir.Project:
		return !WindowProject(n) && parSource(n.Input) // window functions (wnative): a pipeline breaker
	case *ir.SubqueryRel:
		return parSource(n.Input)
	case *ir.Window:
		return n.Kind != ir.WindowSession && !Streaming(n) && parSource(n.Input)
	case *ir.Join:
		if n.Kind == ir.JoinRight || n.Kind == ir.JoinFull || Streaming(n.Right) || Streaming(n.Left) {
			return false
		}
		return parSource(n.Left)
	}
	return false
}

// mergeable reports whether an aggregate's partial states can be merged
// with a result equal to one goroutine's: its accumulators are counts, and
// sums, averages, minimums and maximums of anything but floats.
func (p *planner) mergeable(n *ir.Aggregate) bool {
	for _, call := range p.u.AggCalls[n] {
		name := strings.ToLower(call.Name)
		if f := p.u.Calls[call]; f != nil {
			name = f.Name
		}
		var argT ir.Type
		if len(call.Args) > 0 {
			argT = p.u.Types[call.Args[0]]
		}
		resT := p.u.Types[call]
		switch name {
		case "count":
			if call.Distinct && !call.Star {
				return false
			}
		case "sum", "avg", "min", "max":
			if call.Distinct { // the distinct values of the partial states overlap
				return false
			}
			if argT.IsFloat() || name != "avg" && resT.IsFloat() {
				return false
			}
		default:
			return false
		}
	}
	return true
}
