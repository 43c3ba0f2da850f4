package sql

import (
	"fmt"
	"strings"

	"github.com/nordisk/thund/ir"
)

// aggNames are Spark's aggregate functions: a select list holding one is an
// aggregation.
var aggNames = wordSet(`any any_value approx_count_distinct approx_percentile array_agg avg bit_and bit_or bit_xor
	bitmap_construct_agg bitmap_or_agg bool_and bool_or collect_list collect_set corr count count_if count_min_sketch
	covar_pop covar_samp every first first_value grouping grouping_id histogram_numeric hll_sketch_agg hll_union_agg
	kurtosis last last_value listagg max max_by mean median min min_by mode percentile percentile_approx
	percentile_cont percentile_disc regr_avgx regr_avgy regr_count regr_intercept regr_r2 regr_slope regr_sxx
	regr_sxy regr_syy skewness some std stddev stddev_pop stddev_samp string_agg sum try_avg try_sum var_pop
	var_samp variance`)

func isAggName(name string) bool { return aggNames[strings.ToLower(name)] }

// containsAgg reports whether e calls an aggregate function (outside
// subqueries). The function of a window (sum(x) OVER ...) is the window's,
// not an aggregate of the query; its arguments and keys may hold some.
func containsAgg(e ir.Expr) bool {
	found := false
	ir.WalkExpr(e, func(x ir.Expr) bool {
		if ov, ok := x.(*ir.Over); ok && ov.Func != nil {
			for _, a := range ov.Func.Args {
				found = found || containsAgg(a)
			}
			for _, p := range ov.Partition {
				found = found || containsAgg(p)
			}
			for _, k := range ov.Order {
				found = found || containsAgg(k.Expr)
			}
			return false
		}
		if call, ok := x.(*ir.Call); ok && isAggName(call.Name) {
			found = true
		}
		return !found
	})
	return found
}

// mapExpr rebuilds e top-down: where f returns (x, true) the subtree is
// replaced by x; elsewhere nodes are copied with mapped children. Subquery
// bodies are left alone.
func mapExpr(e ir.Expr, f func(ir.Expr) (ir.Expr, bool)) ir.Expr {
	if e == nil {
		return nil
	}
	if x, ok := f(e); ok {
		return x
	}
	m := func(x ir.Expr) ir.Expr { return mapExpr(x, f) }
	switch e := e.(type) {
	case *ir.Unary:
		c := *e
		c.X = m(e.X)
		return &c
	case *ir.Binary:
		c := *e
		c.L, c.R = m(e.L), m(e.R)
		return &c
	case *ir.IsNull:
		c := *e
		c.X = m(e.X)
		return &c
	case *ir.In:
		c := *e
		c.X = m(e.X)
		c.List = make([]ir.Expr, len(e.List))
		for i, x := range e.List {
			c.List[i] = m(x)
		}
		return &c
	case *ir.Between:
		c := *e
		c.X, c.Lo, c.Hi = m(e.X), m(e.Lo), m(e.Hi)
		return &c
	case *ir.Like:
		c := *e
		c.X, c.Pattern = m(e.X), m(e.Pattern)
		return &c
	case *ir.Case:
		c := *e
		c.Operand, c.Else = m(e.Operand), m(e.Else)
		c.Whens = make([]*ir.When, len(e.Whens))
		for i, w := range e.Whens {
			c.Whens[i] = &ir.When{Pos: w.Pos, Cond: m(w.Cond), Then: m(w.Then)}
		}
		return &c
	case *ir.Cast:
		c := *e
		c.X = m(e.X)
		return &c
	case *ir.Call:
		c := *e
		if e.Args != nil {
			c.Args = make([]ir.Expr, len(e.Args))
			for i, x := range e.Args {
				c.Args[i] = m(x)
			}
		}
		return &c
	case *ir.InSubquery:
		c := *e
		c.X = m(e.X)
		return &c
	case *ir.Over: // window functions (window.go)
		return mapOver(e, m)
	}
	return e
}

// exprKey is a structural key of e, positions aside: two expressions with
// the same key are the same expression. Names compare case-insensitively
// (Spark's resolution); with noQual, column qualifiers are ignored.
func exprKey(e ir.Expr, noQual bool) string {
	var b strings.Builder
	writeKey(&b, e, noQual)
	return b.String()
}

func writeKey(b *strings.Builder, e ir.Expr, noQual bool) {
	k := func(x ir.Expr) { writeKey(b, x, noQual) }
	switch e := e.(type) {
	case nil:
		b.WriteString("nil")
	case *ir.Literal:
		fmt.Fprintf(b, "lit(%s:%q)", e.Kind, e.Text)
	case *ir.ColumnRef:
		if noQual {
			fmt.Fprintf(b, "col(%q)", strings.ToLower(e.Name))
		} else {
			fmt.Fprintf(b, "col(%q.%q)", strings.ToLower(e.Qualifier), strings.ToLower(e.Name))
		}
	case *ir.Star:
		fmt.Fprintf(b, "star(%q,%q)", e.Qualifier, e.Except)
	case *ir.Unary:
		fmt.Fprintf(b, "u%d(", e.Op)
		k(e.X)
		b.WriteString(")")
	case *ir.Binary:
		fmt.Fprintf(b, "b%d(", e.Op)
		k(e.L)
		b.WriteString(",")
		k(e.R)
		b.WriteString(")")
	case *ir.IsNull:
		fmt.Fprintf(b, "isnull%v(", e.Not)
		k(e.X)
		b.WriteString(")")
	case *ir.In:
		fmt.Fprintf(b, "in%v(", e.Not)
		k(e.X)
		for _, x := range e.List {
			b.WriteString(",")
			k(x)
		}
		b.WriteString(")")
	case *ir.Between:
		fmt.Fprintf(b, "between%v(", e.Not)
		k(e.X)
		b.WriteString(",")
		k(e.Lo)
		b.WriteString(",")
		k(e.Hi)
		b.WriteString(")")
	case *ir.Like:
		fmt.Fprintf(b, "like%v(", e.Not)
		k(e.X)
		b.WriteString(",")
		k(e.Pattern)
		b.WriteString(")")
	case *ir.Case:
		b.WriteString("case(")
		k(e.Operand)
		for _, w := range e.Whens {
			b.WriteString(",when(")
			k(w.Cond)
			b.WriteString(",")
			k(w.Then)
			b.WriteString(")")
		}
		b.WriteString(",")
		k(e.Else)
		b.WriteString(")")
	case *ir.Cast:
		fmt.Fprintf(b, "cast%v(%s,", e.Try, e.To)
		k(e.X)
		b.WriteString(")")
	case *ir.Call:
		fmt.Fprintf(b, "call(%q,%v,%v", strings.ToLower(e.Name), e.Distinct, e.Star)
		for _, x := range e.Args {
			b.WriteString(",")
			k(x)
		}
		b.WriteString(")")
	case *ir.Over: // window functions (window.go)
		writeOverKey(b, e, k)
	default:
		// Subqueries are only ever equal to themselves.
		fmt.Fprintf(b, "node(%p)", e)
	}
}

// autoName is the column name Spark gives an unaliased expression
// (toPrettySQL, ir.SparkName): sum(x), count(1), (a + b), CAST(x AS INT). It
// names the aggregate and grouping columns a Project above an Aggregate must
// refer to when the query did not alias them.
func autoName(e ir.Expr) string { return ir.FormatExpr(e, ir.SparkName) }
