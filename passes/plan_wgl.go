package passes

import (
	"fmt"

	"github.com/nordisk/thund/ir"
)

// The group limit of a row_number filter (Spark's WindowGroupLimit): a
// filter keeping rn <= K, rn < K or rn = 1 (K a small integer constant,
// either side of the comparison, among the filter's conjuncts) directly over
// a select whose only window function is rn = row_number() over (...), or
// over such a select in a subquery of FROM (as SQL writes it: SELECT ... FROM
// (SELECT ..., row_number() OVER (...) AS rn FROM t) WHERE rn = 1), needs
// only the first K rows of each partition. The window operator then keeps,
// in one pass over its rows, the best K of each partition (a hash table of
// partitions, rt/window's GroupLimit) and sorts only those; the filter above
// still runs, so it sees the same rows in the same order as with the full
// sort.

// maxGroupLimit is the largest K the limited path keeps per partition: a
// bounded heap each; above it the full sort is as good.
const maxGroupLimit = 1000

// groupLimit records the group limit of the window select under f, if f
// has one (FlowPlan.GroupLimits).
func (p *planner) groupLimit(f *ir.Filter) {
	in := f.Input
	sub, _ := in.(*ir.SubqueryRel)
	if sub != nil {
		in = sub.Input
	}
	n, ok := in.(*ir.Project)
	if !ok || !WindowProject(n) || Streaming(n) {
		return
	}
	// the select's only window function, a bare item
	var over *ir.Over
	count := 0
	for _, it := range n.Items {
		ir.WalkExpr(it.Expr, func(x ir.Expr) bool {
			if o, ok := x.(*ir.Over); ok {
				count++
				over = o
				return false
			}
			return true
		})
	}
	if count != 1 || over.Func == nil {
		return
	}
	name := over.Func.Name
	if fn := p.u.Calls[over.Func]; fn != nil {
		name = fn.Name
	}
	if name != "row_number" {
		return
	}
	// isRN: e is a column of the select that is the Over itself (through
	// the subquery, whose columns are the select's visible ones, in order)
	isRN := func(e ir.Expr) bool {
		ref, ok := e.(*ir.ColumnRef)
		if !ok {
			return false
		}
		b, ok := p.u.Refs[ref]
		if !ok || b.Depth != 0 || (b.Rel != n && (sub == nil || b.Rel != ir.Rel(sub))) {
			return false
		}
		pcs := p.u.Projections[n]
		if b.Index < 0 || b.Index >= len(pcs) || pcs[b.Index].InputIndex >= 0 {
			return false
		}
		return n.Items[pcs[b.Index].Item].Expr == ir.Expr(over)
	}
	best := int64(0)
	for _, c := range conjuncts(f.Cond) {
		b, ok := c.(*ir.Binary)
		if !ok {
			continue
		}
		op, k := b.Op, b.R
		switch {
		case isRN(b.L):
		case isRN(b.R):
			k = b.L
			switch op { // K op rn is rn op' K
			case ir.OpGe:
				op = ir.OpLe
			case ir.OpGt:
				op = ir.OpLt
			case ir.OpLe, ir.OpLt:
				continue
			}
		default:
			continue
		}
		v, ok := IntConstant(k)
		if !ok {
			continue
		}
		lim := int64(0)
		switch op {
		case ir.OpLe:
			lim = int64(v)
		case ir.OpLt:
			lim = int64(v) - 1
		case ir.OpEq:
			if v == 1 {
				lim = 1
			}
		}
		if lim >= 1 && lim <= maxGroupLimit && (best == 0 || lim < best) {
			best = lim
		}
	}
	if best == 0 {
		return
	}
	if p.fp.GroupLimits == nil {
		p.fp.GroupLimits = map[*ir.Project]int64{}
	}
	p.fp.GroupLimits[n] = best
}

// groupLimitExplain adds the group limit to the window operator's line of
// explain's physical plan.
func groupLimitExplain(line string, k int64) string {
	return line + fmt.Sprintf("; group limit %d: keeps the first %d rows of each partition in one pass, then sorts only those", k, k)
}
