package sql_test

import (
	"strings"
	"testing"

	"github.com/nordisk/thund/frontend/sql"
	"github.com/nordisk/thund/ir"
)

// TestWindowSparkNames: ir.SparkName spells a window function as Spark
// names the unaliased column. Each want is the column name Spark 4.1.4 and
// 4.2.1 gave the same expression (the same on both).
func TestWindowSparkNames(t *testing.T) {
	for _, c := range []struct{ expr, want string }{
		{"rank() OVER (ORDER BY sum(v) DESC)", "RANK() OVER (ORDER BY sum(v) DESC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"},
		{"lag(v) OVER (ORDER BY v)", "lag(v, 1, NULL) OVER (ORDER BY v ASC NULLS FIRST ROWS BETWEEN -1 FOLLOWING AND -1 FOLLOWING)"},
		{"lag(v) IGNORE NULLS OVER (PARTITION BY k ORDER BY s)", "lag(v, 1, NULL) OVER (PARTITION BY k ORDER BY s ASC NULLS FIRST ROWS BETWEEN -1 FOLLOWING AND -1 FOLLOWING)"},
		{"lead(v, 2) OVER (PARTITION BY k ORDER BY s)", "lead(v, 2, NULL) OVER (PARTITION BY k ORDER BY s ASC NULLS FIRST ROWS BETWEEN 2 FOLLOWING AND 2 FOLLOWING)"},
		{"first_value(v, true) OVER (ORDER BY v)", "first_value(v) OVER (ORDER BY v ASC NULLS FIRST RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"},
		{"sum(v) OVER (ORDER BY v ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)", "sum(v) OVER (ORDER BY v ASC NULLS FIRST ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)"},
		{"nth_value(v, 2) OVER (ORDER BY v)", "nth_value(v, 2) OVER (ORDER BY v ASC NULLS FIRST RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"},
		{"nth_value(v, 2) IGNORE NULLS OVER (PARTITION BY k ORDER BY s)", "nth_value(v, 2) ignore nulls OVER (PARTITION BY k ORDER BY s ASC NULLS FIRST RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"},
		{"percent_rank() OVER (ORDER BY v)", "PERCENT_RANK() OVER (ORDER BY v ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"},
		{"ntile(2) OVER (ORDER BY v)", "ntile(2) OVER (ORDER BY v ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"},
		{"count(*) OVER ()", "count(1) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)"},
		{"row_number() OVER (PARTITION BY k ORDER BY s)", "row_number() OVER (PARTITION BY k ORDER BY s ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"},
		{"dense_rank() OVER (PARTITION BY k ORDER BY s)", "DENSE_RANK() OVER (PARTITION BY k ORDER BY s ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"},
		{"cume_dist() OVER (PARTITION BY k ORDER BY s)", "cume_dist() OVER (PARTITION BY k ORDER BY s ASC NULLS FIRST RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"},
		{"last_value(v) OVER (PARTITION BY k)", "last_value(v) OVER (PARTITION BY k ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)"},
	} {
		p, diags := sql.Parse([]sql.File{{Name: "w.sql", Src: []byte("CREATE MATERIALIZED VIEW w AS SELECT " + c.expr + " FROM t")}})
		if diags.HasErrors() {
			t.Fatalf("%s: %v", c.expr, diags.Err())
		}
		item := p.Flows[0].Query.(*ir.Project).Items[0].Expr
		if got := ir.FormatExpr(item, ir.SparkName); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.expr, got, c.want)
		}
	}
}

// TestWindowColumnNames: an unaliased window item is named as Spark names
// it (as an aggregate is), on every target.
func TestWindowColumnNames(t *testing.T) {
	p, diags := sql.Parse([]sql.File{{Name: "w.sql", Src: []byte("CREATE MATERIALIZED VIEW w AS SELECT k, rank() OVER (ORDER BY v), lag(v) OVER (ORDER BY v) + 1 AS l FROM t")}})
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	items := p.Flows[0].Query.(*ir.Project).Items
	var got []string
	for _, it := range items {
		got = append(got, it.Alias)
	}
	want := []string{"", "RANK() OVER (ORDER BY v ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)", "l"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("aliases %q, want %q", got, want)
	}
}
