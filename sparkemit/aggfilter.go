package sparkemit

import (
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
	pb "github.com/nordisk/thund/sparkemit/connectpb"
)

// Aggregate FILTER (WHERE ...).

// aggFilter lowers an aggregate's FILTER (WHERE cond), which Spark
// Connect's UnresolvedFunction cannot carry (it has no filter field on
// 4.1 or 4.2): each argument x becomes IF(cond, x, NULL), so that a row
// the filter drops (cond false or NULL) gives the aggregate a NULL, which
// count, sum, avg, min, max and the aggregate family (passes.IsFamilyAgg)
// skip as they skip a filtered-out row (count(*) is count(1), so its row
// counts only where cond holds; a percentile's constants and
// approx_count_distinct's relative standard deviation stay as they are,
// literals Spark requires). An
// aggregate that does not skip NULLs (first, last, any_value) would see
// the filtered rows: it is refused. args are the lowered arguments.
func (l *lowerer) aggFilter(n *ir.Call, args []*pb.Expression) []*pb.Expression {
	name := n.Name
	if f := l.e.u.Calls[n]; f != nil {
		name = f.Name
	}
	wrap := len(args) // the arguments that become IF(cond, x, NULL)
	switch name {
	case "count", "sum", "avg", "min", "max":
	case "percentile", "median", "percentile_approx", "approx_count_distinct":
		// the percentage and accuracy are constants Spark must fold, and
		// the relative standard deviation a literal ("The second argument
		// should be a double literal."); a NULL value skips the row
		wrap = 1
	default:
		if !passes.IsFamilyAgg(name) {
			l.refuse(n.Filter.Position(), "filter (where ...) on "+name,
				"Spark Connect's UnresolvedFunction has no filter, and "+name+" over IF(cond, x, NULL) would see the rows the filter drops")
			return nil
		}
	}
	cond := l.expr(n.Filter)
	if cond == nil {
		return nil
	}
	out := make([]*pb.Expression, len(args))
	for i, a := range args {
		out[i] = a
		if i < wrap {
			out[i] = call("if", cond, a, nullLit())
		}
	}
	return out
}
