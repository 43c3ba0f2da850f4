package sparkemit

import (
	"strings"

	"github.com/nordisk/thund/ir"
	pb "github.com/nordisk/thund/sparkemit/connectpb"
)

// Grouping sets (GROUPING SETS, ROLLUP, CUBE).

// groupingSetsAggregate lowers an aggregate with grouping sets to Spark's
// GROUPING_SETS aggregate. Spark matches each set's expressions to the
// grouping expressions, and grouping_id's arguments to them, by semantic
// equality, which an alias breaks (GROUPING_ID_COLUMN_MISMATCH, on 4.1.4):
// so a key that is not a plain column of its own name is computed under
// its output name by a projection below (with every input column), and
// the grouping expressions, the sets and grouping()'s arguments name that
// column. Spark's UnsupportedOperationChecker refuses grouping sets over a
// stream: so does the lowering, at the aggregate.
func (l *lowerer) groupingSetsAggregate(n *ir.Aggregate) *pb.Relation {
	u := l.e.u
	for _, s := range ir.Scans(n.Input) {
		if s.Stream {
			l.refuse(n.Pos, "grouping sets (rollup, cube) over a stream",
				"Spark refuses them on streaming DataFrames (UnsupportedOperationChecker)")
			return nil
		}
	}
	out := u.Schemas[n]
	inNames := map[string]bool{}
	for _, f := range u.Schemas[n.Input].Visible() {
		inNames[strings.ToLower(f.Name)] = true
	}
	in := l.rel(n.Input)
	keys := make([]*pb.Expression, len(n.Keys))
	var computed []*pb.Expression
	var computedKeys []ir.Expr
	for i, k := range n.Keys {
		name := fieldName(out, i)
		if c, ok := k.Expr.(*ir.ColumnRef); ok && k.Alias == "" && c.Name == name {
			keys[i] = l.expr(k.Expr)
			continue
		}
		if inNames[strings.ToLower(name)] {
			l.refuse(k.Pos, "a grouping-sets key named "+name+" like a column of its input",
				"the key is computed as a column of its name below Spark's aggregate, so that the sets match it: rename the key")
			return nil
		}
		computed = append(computed, alias(l.expr(k.Expr), name))
		computedKeys = append(computedKeys, k.Expr)
		keys[i] = attr(qualified("", name))
	}
	for _, a := range n.Aggs {
		if x := readsComputedKey(l, a.Expr, computedKeys); x != nil {
			l.refuse(x.Position(), "a computed grouping-sets key used outside an aggregate call",
				"Spark's aggregate groups by the key's column, not its expression: select the key itself")
			return nil
		}
	}
	if len(computed) > 0 {
		in = project(in, append([]*pb.Expression{star("")}, computed...))
	}
	agg := &pb.Aggregate{Input: in, GroupType: pb.Aggregate_GROUP_TYPE_GROUPING_SETS, GroupingExpressions: keys}
	for _, set := range n.Sets {
		gs := &pb.Aggregate_GroupingSets{}
		for _, k := range set {
			gs.GroupingSet = append(gs.GroupingSet, keys[k])
		}
		agg.GroupingSets = append(agg.GroupingSets, gs)
	}
	l.groupingKeys = func(x ir.Expr) *pb.Expression {
		if k := u.GroupingKey(n, x); k >= 0 {
			return keys[k]
		}
		return l.expr(x)
	}
	for i, a := range n.Aggs {
		agg.AggregateExpressions = append(agg.AggregateExpressions, l.named(a, fieldName(out, len(n.Keys)+i)))
	}
	l.groupingKeys = nil
	return &pb.Relation{RelType: &pb.Relation_Aggregate{Aggregate: agg}}
}

// readsComputedKey is the first sub-expression of an aggregate item, outside
// aggregate and grouping calls, that is one of the computed keys, or nil.
func readsComputedKey(l *lowerer, e ir.Expr, keys []ir.Expr) ir.Expr {
	var found ir.Expr
	ir.WalkExpr(e, func(x ir.Expr) bool {
		if found != nil {
			return false
		}
		if c, ok := x.(*ir.Call); ok {
			if f := l.e.u.Calls[c]; f != nil && (f.Agg || f.Name == "grouping" || f.Name == "grouping_id") {
				return false
			}
		}
		for _, k := range keys {
			if l.e.u.SameExpr(x, k) {
				found = x
				return false
			}
		}
		return true
	})
	return found
}
