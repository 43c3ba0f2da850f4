package passes

import (
	"strings"

	"github.com/nordisk/thund/ir"
)

// exprString renders an expression in the DSL's expression syntax
// (ir.Label). It names unaliased output columns (sum(price)) and quotes
// expressions in diagnostics.
func exprString(e ir.Expr) string { return ir.FormatExpr(e, ir.Label) }

// outputName is the column name of a select or aggregate item: its alias,
// the referenced column's name, or the rendered expression.
func outputName(n *ir.NamedExpr) string {
	if n.Alias != "" {
		return n.Alias
	}
	if c, ok := n.Expr.(*ir.ColumnRef); ok {
		return c.Name
	}
	return exprString(n.Expr)
}

// quoteList renders names as "a", "b", "c", cut after max.
func quoteList(names []string, limit int) string {
	var parts []string
	for i, n := range names {
		if i == limit {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, `"`+n+`"`)
	}
	return strings.Join(parts, ", ")
}
