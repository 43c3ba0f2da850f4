package sql

import (
	"strings"

	"github.com/nordisk/thund/ir"
)

// GROUPING SETS, ROLLUP, CUBE (setgroup).

// groupingSets reads the GROUP BY list. Without GROUPING SETS, ROLLUP,
// CUBE or WITH ROLLUP/CUBE it returns the items for the plain loop
// (plain). Otherwise it converts them as Spark's GroupingAnalytics does:
// each item is a list of sets (an expression is one set of itself,
// ROLLUP(a, b) is (a, b), (a), (), CUBE(a, b) is (a, b), (a), (b), (),
// GROUPING SETS lists its own), the grouping sets are their cartesian
// product, and the keys are every item's expressions in order, each once.
// sets index into keys (which the caller appends after any GROUP BY ALL
// keys: there are none then).
func (c *conv) groupingSets(sel *selectAST, items []selItem) (plain []ir.Expr, keys []ir.Expr, sets [][]int, ok bool) {
	grouping := sel.GroupWith != ""
	exprs := make([]ir.Expr, len(sel.GroupBy))
	for i, g := range sel.GroupBy {
		if g.Sets != nil {
			grouping = true
			continue
		}
		if exprs[i] = c.expr(g.Expr); exprs[i] == nil {
			return nil, nil, nil, false
		}
		if groupFunc(exprs[i]) != "" {
			grouping = true
		}
	}
	if !grouping {
		return exprs, nil, nil, true
	}
	key := func(x ir.Expr) int {
		x = c.groupKey(x, items)
		if x == nil {
			return -1
		}
		if containsAgg(x) {
			c.errorf(x.Position(), ir.CodeBadAggregate, "aggregate functions are not allowed in GROUP BY")
			return -1
		}
		if i := matchExpr(x, keys); i >= 0 {
			return i
		}
		keys = append(keys, x)
		return len(keys) - 1
	}
	keyList := func(es []ir.Expr) ([]int, bool) {
		out := []int{}
		for _, e := range es {
			k := key(e)
			if k < 0 {
				return nil, false
			}
			out = append(out, k)
		}
		return out, true
	}
	product := [][]int{{}}
	var plainKeys []int // the plain items, for WITH ROLLUP / WITH CUBE
	for i, g := range sel.GroupBy {
		var itemSets [][]int
		switch f := groupFunc(exprs[i]); {
		case g.Sets != nil:
			for _, s := range g.Sets {
				list := s.List
				if s.Expr != nil {
					list = []*exprAST{s.Expr}
				}
				var xs []ir.Expr
				for _, e := range list {
					x := c.expr(e)
					if x == nil {
						return nil, nil, nil, false
					}
					xs = append(xs, x)
				}
				ks, ok := keyList(xs)
				if !ok {
					return nil, nil, nil, false
				}
				itemSets = append(itemSets, ks)
			}
		case f != "":
			if sel.GroupWith != "" {
				c.errorf(pos(g.Pos), ir.CodeSyntax, "GROUP BY %s(...) cannot be combined with WITH %s", strings.ToUpper(f), sel.GroupWith)
				return nil, nil, nil, false
			}
			ks, ok := keyList(exprs[i].(*ir.Call).Args)
			if !ok {
				return nil, nil, nil, false
			}
			if f == "rollup" {
				itemSets = rollupSets(ks)
			} else {
				itemSets = cubeSets(ks)
			}
		default:
			k := key(exprs[i])
			if k < 0 {
				return nil, nil, nil, false
			}
			plainKeys = append(plainKeys, k)
			if sel.GroupWith != "" {
				continue // the whole list is one ROLLUP or CUBE
			}
			itemSets = [][]int{{k}}
		}
		var next [][]int
		for _, acc := range product {
			for _, s := range itemSets {
				next = append(next, union(acc, s))
			}
		}
		product = next
	}
	switch strings.ToUpper(sel.GroupWith) {
	case "ROLLUP":
		product = rollupSets(plainKeys)
	case "CUBE":
		product = cubeSets(plainKeys)
	}
	if len(keys) == 0 {
		c.errorf(pos(sel.Pos), ir.CodeSyntax, "GROUPING SETS without a grouping column is not supported in pipeline SQL: use an aggregate without GROUP BY")
		return nil, nil, nil, false
	}
	return nil, keys, product, true
}

// groupFunc is "rollup" or "cube" when e is ROLLUP(...) or CUBE(...), else "".
func groupFunc(e ir.Expr) string {
	if call, ok := e.(*ir.Call); ok && !call.Star && !call.Distinct && call.Filter == nil {
		switch name := strings.ToLower(call.Name); name {
		case "rollup", "cube":
			return name
		}
	}
	return ""
}

// rollupSets are ROLLUP's sets: every prefix, longest first.
func rollupSets(ks []int) [][]int {
	out := make([][]int, 0, len(ks)+1)
	for n := len(ks); n >= 0; n-- {
		out = append(out, append([]int{}, ks[:n]...))
	}
	return out
}

// cubeSets are CUBE's sets in Spark's order (cubeExprs): the sets with
// the first key, then those without it.
func cubeSets(ks []int) [][]int {
	if len(ks) == 0 {
		return [][]int{{}}
	}
	rest := cubeSets(ks[1:])
	out := make([][]int, 0, 2*len(rest))
	for _, s := range rest {
		out = append(out, append([]int{ks[0]}, s...))
	}
	return append(out, rest...)
}

// union is a ++ b without repeats.
func union(a, b []int) []int {
	out := append([]int{}, a...)
	for _, k := range b {
		dup := false
		for _, x := range out {
			dup = dup || x == k
		}
		if !dup {
			out = append(out, k)
		}
	}
	return out
}
