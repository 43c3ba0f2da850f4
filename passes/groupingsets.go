package passes

import (
	"fmt"
	"strings"

	"github.com/nordisk/thund/ir"
)

// Grouping sets (GROUPING SETS, ROLLUP, CUBE): resolve.

// isGroupingCall names grouping and grouping_id.
func isGroupingCall(name string) bool { return name == "grouping" || name == "grouping_id" }

// inEverySet reports whether key i of n is in every grouping set (then it
// is never NULLed by one).
func inEverySet(n *ir.Aggregate, i int) bool {
	for _, s := range n.Sets {
		found := false
		for _, k := range s {
			found = found || k == i
		}
		if !found {
			return false
		}
	}
	return true
}

// readsKey reports whether an aggregate item reads a column outside an
// aggregate call (a group key, which a grouping set can NULL).
func readsKey(e ir.Expr) bool {
	found := false
	ir.WalkExpr(e, func(x ir.Expr) bool {
		switch x := x.(type) {
		case *ir.Call:
			if f := lookupFunc(x.Name); f != nil && (f.agg || isGroupingCall(f.name)) {
				return false
			}
		case *ir.ColumnRef:
			found = true
		}
		return !found
	})
	return found
}

// GroupingSetID is Spark's grouping id of set s of n: one bit per key,
// the first key the most significant, set where the key is not in s.
func GroupingSetID(n *ir.Aggregate, s []int) int64 {
	var id int64
	for i := range n.Keys {
		in := false
		for _, k := range s {
			in = in || k == i
		}
		id <<= 1
		if !in {
			id |= 1
		}
	}
	return id
}

// GroupingKey is the key index grouping(x) of n reads, or -1.
func (u *Unit) GroupingKey(n *ir.Aggregate, x ir.Expr) int {
	for i, k := range n.Keys {
		if u.SameExpr(x, k.Expr) {
			return i
		}
	}
	return -1
}

// groupingSets checks an aggregate's grouping sets and its grouping and
// grouping_id calls: sets index keys (a set may repeat: its groups then
// come twice, as in Spark), grouping(x) names
// a key, and grouping_id(...) has no arguments or every key in order, as
// Spark requires. Spark allows 64 keys at most in the grouping id.
func (r *resolver) groupingSets(n *ir.Aggregate) {
	if n.Sets != nil {
		if len(n.Keys) > 63 {
			r.errorf(n.Pos, ir.CodeBadAggregate, "grouping sets over %d keys: at most 63 fit the grouping id", len(n.Keys))
		}
		for i, s := range n.Sets {
			for _, k := range s {
				if k < 0 || k >= len(n.Keys) {
					r.errorf(n.Pos, ir.CodeBadAggregate, "grouping set %d names key %d; the aggregate has %d", i+1, k+1, len(n.Keys))
					return
				}
			}
		}
	}
	for _, a := range n.Aggs {
		ir.WalkExpr(a.Expr, func(x ir.Expr) bool {
			call, ok := x.(*ir.Call)
			if !ok {
				return true
			}
			f := lookupFunc(call.Name)
			if f == nil || !isGroupingCall(f.name) {
				return f == nil || !f.agg
			}
			switch {
			case n.Sets == nil:
				r.errorf(call.Pos, ir.CodeBadAggregate, "%s needs group by ... grouping sets (rollup, cube)", f.name)
			case f.name == "grouping" && len(call.Args) == 1 && r.u.GroupingKey(n, call.Args[0]) < 0:
				r.errorf(call.Args[0].Position(), ir.CodeBadAggregate, "grouping(%s): the argument must be a group by key (%s)", exprString(call.Args[0]), keysText(n))
			case f.name == "grouping_id" && len(call.Args) > 0:
				same := len(call.Args) == len(n.Keys)
				for i := 0; same && i < len(call.Args); i++ {
					same = r.u.SameExpr(call.Args[i], n.Keys[i].Expr)
				}
				if !same {
					r.errorf(call.Pos, ir.CodeBadAggregate, "grouping_id's arguments must be the group by keys in order (%s), or none", keysText(n))
				}
			}
			return false
		})
	}
}

func keysText(n *ir.Aggregate) string {
	parts := make([]string, len(n.Keys))
	for i, k := range n.Keys {
		parts[i] = exprString(k.Expr)
	}
	return strings.Join(parts, ", ")
}

func setText(n *ir.Aggregate, s []int) string {
	parts := make([]string, len(s))
	for i, k := range s {
		parts[i] = exprString(n.Keys[k].Expr)
	}
	return fmt.Sprintf("(%s)", strings.Join(parts, ", "))
}
