package dsl

import (
	"strings"

	"github.com/nordisk/thund/ir"
)

// groupingSets lowers group by ... grouping sets (...): each item of a set
// names one of the keys, by its expression (as the printer spells it) or
// by its alias.
func (l *lowerer) groupingSets(keys []*ir.NamedExpr, sets []*groupingSet) [][]int {
	out := make([][]int, 0, len(sets))
	for _, s := range sets {
		set := []int{}
		for _, it := range s.Items {
			x := l.expr(it)
			k := matchKey(keys, x)
			if k < 0 {
				var names []string
				for _, key := range keys {
					names = append(names, ir.FormatExpr(key.Expr, ir.DSL))
				}
				l.errorf(it.Pos, ir.CodeBadAggregate, "grouping set item %s is not a group by key (%s)", ir.FormatExpr(x, ir.DSL), strings.Join(names, ", "))
				continue
			}
			set = append(set, k)
		}
		out = append(out, set)
	}
	return out
}

// matchKey is the index of the key x names, or -1.
func matchKey(keys []*ir.NamedExpr, x ir.Expr) int {
	text := ir.FormatExpr(x, ir.DSL)
	for i, k := range keys {
		if ir.FormatExpr(k.Expr, ir.DSL) == text {
			return i
		}
	}
	if ref, ok := x.(*ir.ColumnRef); ok && ref.Qualifier == "" {
		for i, k := range keys {
			if k.Alias != "" && strings.EqualFold(k.Alias, ref.Name) {
				return i
			}
		}
	}
	return -1
}
