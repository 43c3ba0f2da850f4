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

// editDistance is the Levenshtein distance of two lower-cased strings.
func editDistance(a, b string) int {
	a, b = strings.ToLower(a), strings.ToLower(b)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// closest returns the candidate nearest to name, if it is near enough to be
// a likely typo.
func closest(name string, candidates []string) (string, bool) {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		if d := editDistance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	limit := max(1, len(name)/3)
	return best, best != "" && bestD <= limit
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
