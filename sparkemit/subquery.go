package sparkemit

import (
	"github.com/nordisk/thund/ir"
)

// checkCorrelated refuses the correlated subqueries Spark's analyzer
// refuses, so that check gives spark run's verdict with a position: an
// aggregate call over both the subquery's own columns and the enclosing
// query's (UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.
// AGGREGATE_FUNCTION_MIXED_OUTER_LOCAL_REFERENCES, which Spark 4.1 and 4.2
// both raise). Correlated subqueries Spark accepts pass through as
// subquery expressions whose outer columns are references by name.
func (l *lowerer) checkCorrelated(q ir.Rel) {
	inner := map[ir.Rel]bool{}
	ir.WalkRel(q, func(r ir.Rel) bool { inner[r] = true; return true })
	ir.WalkRel(q, func(r ir.Rel) bool {
		a, ok := r.(*ir.Aggregate)
		if !ok {
			return true
		}
		for _, call := range l.e.u.AggCalls[a] {
			outer, local := false, false
			for _, arg := range call.Args {
				ir.WalkExpr(arg, func(x ir.Expr) bool {
					if c, ok := x.(*ir.ColumnRef); ok {
						if b, found := l.e.u.Refs[c]; found && b.Depth > 0 && !inner[b.Rel] {
							outer = true
						} else {
							local = true
						}
					}
					return true
				})
			}
			if outer && local {
				l.refuse(call.Pos, "an aggregate over both a correlated subquery's columns and the enclosing query's",
					"Spark refuses it (UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.AGGREGATE_FUNCTION_MIXED_OUTER_LOCAL_REFERENCES): aggregate the subquery's columns and combine them with the outer column in its select")
			}
		}
		return true
	})
}
