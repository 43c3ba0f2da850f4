package sparkemit

import (
	"github.com/nordisk/thund/ir"
	pb "github.com/nordisk/thund/sparkemit/connectpb"
)

// Grouping sets (GROUPING SETS, ROLLUP, CUBE).

// groupingSets makes agg Spark's GROUPING SETS aggregate: group_type
// GROUPING_SETS, and each set as the expressions of its keys (Spark's
// planner matches them to grouping_expressions, which list every key, and
// orders the grouping id by those). Spark's UnsupportedOperationChecker
// refuses grouping sets over a stream: so does the lowering, at the
// aggregate.
func (l *lowerer) groupingSets(n *ir.Aggregate, agg *pb.Aggregate) bool {
	for _, s := range ir.Scans(n.Input) {
		if s.Stream {
			l.refuse(n.Pos, "grouping sets (rollup, cube) over a stream",
				"Spark refuses them on streaming DataFrames (UnsupportedOperationChecker: grouping sets is not supported on streaming DataFrames/Datasets)")
			return false
		}
	}
	agg.GroupType = pb.Aggregate_GROUP_TYPE_GROUPING_SETS
	for _, set := range n.Sets {
		gs := &pb.Aggregate_GroupingSets{}
		for _, k := range set {
			gs.GroupingSet = append(gs.GroupingSet, l.expr(n.Keys[k].Expr))
		}
		agg.GroupingSets = append(agg.GroupingSets, gs)
	}
	return true
}
