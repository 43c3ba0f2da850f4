package passes

import (
	"strings"

	"github.com/nordisk/thund/ir"
)

// exprString renders an expression in the DSL's expression syntax. It names
// unaliased output columns (sum(price)) and quotes expressions in
// diagnostics.
func exprString(e ir.Expr) string {
	var b strings.Builder
	writeExpr(&b, e, false)
	return b.String()
}

func writeExpr(b *strings.Builder, e ir.Expr, nested bool) {
	switch e := e.(type) {
	case nil:
		b.WriteString("?")
	case *ir.Literal:
		switch e.Kind {
		case ir.LitNull:
			b.WriteString("null")
		case ir.LitString:
			b.WriteString("'" + strings.ReplaceAll(e.Text, "'", "''") + "'")
		case ir.LitTimestamp:
			b.WriteString("timestamp '" + e.Text + "'")
		case ir.LitDate:
			b.WriteString("date '" + e.Text + "'")
		default:
			b.WriteString(e.Text)
		}
	case *ir.ColumnRef:
		if e.Qualifier != "" {
			b.WriteString(e.Qualifier + ".")
		}
		b.WriteString(e.Name)
	case *ir.Star:
		if e.Qualifier != "" {
			b.WriteString(e.Qualifier + ".")
		}
		b.WriteString("*")
		if len(e.Except) > 0 {
			b.WriteString(" except (" + strings.Join(e.Except, ", ") + ")")
		}
	case *ir.Unary:
		if e.Op == ir.OpNot {
			b.WriteString("not ")
		} else {
			b.WriteString("-")
		}
		writeExpr(b, e.X, true)
	case *ir.Binary:
		if nested {
			b.WriteString("(")
		}
		writeExpr(b, e.L, true)
		b.WriteString(" " + e.Op.String() + " ")
		writeExpr(b, e.R, true)
		if nested {
			b.WriteString(")")
		}
	case *ir.IsNull:
		writeExpr(b, e.X, true)
		if e.Not {
			b.WriteString(" is not null")
		} else {
			b.WriteString(" is null")
		}
	case *ir.In:
		writeExpr(b, e.X, true)
		if e.Not {
			b.WriteString(" not")
		}
		b.WriteString(" in (")
		for i, x := range e.List {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, x, false)
		}
		b.WriteString(")")
	case *ir.Between:
		writeExpr(b, e.X, true)
		if e.Not {
			b.WriteString(" not")
		}
		b.WriteString(" between ")
		writeExpr(b, e.Lo, true)
		b.WriteString(" and ")
		writeExpr(b, e.Hi, true)
	case *ir.Like:
		writeExpr(b, e.X, true)
		if e.Not {
			b.WriteString(" not")
		}
		b.WriteString(" like ")
		writeExpr(b, e.Pattern, true)
	case *ir.Case:
		b.WriteString("case")
		if e.Operand != nil {
			b.WriteString(" ")
			writeExpr(b, e.Operand, true)
		}
		for _, w := range e.Whens {
			b.WriteString(" when ")
			writeExpr(b, w.Cond, false)
			b.WriteString(" then ")
			writeExpr(b, w.Then, false)
		}
		if e.Else != nil {
			b.WriteString(" else ")
			writeExpr(b, e.Else, false)
		}
		b.WriteString(" end")
	case *ir.Cast:
		if e.Try {
			b.WriteString("try_")
		}
		b.WriteString("cast(")
		writeExpr(b, e.X, false)
		b.WriteString(" as " + e.To.String() + ")")
	case *ir.Call:
		b.WriteString(e.Name + "(")
		if e.Star {
			b.WriteString("*")
		}
		if e.Distinct {
			b.WriteString("distinct ")
		}
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a, false)
		}
		b.WriteString(")")
	case *ir.ScalarSubquery:
		b.WriteString("(subquery)")
	case *ir.InSubquery:
		writeExpr(b, e.X, true)
		if e.Not {
			b.WriteString(" not")
		}
		b.WriteString(" in (subquery)")
	default:
		b.WriteString("?")
	}
}

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
