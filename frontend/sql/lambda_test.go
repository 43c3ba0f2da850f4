package sql_test

import (
	"strings"
	"testing"

	"github.com/nordisk/thund/frontend/sql"
	"github.com/nordisk/thund/ir"
)

// lambdaCases are SQL texts with lambdas and what each parses to: the
// first select item spelled in the DSL style (lambda variables bare,
// columns qualified where written), or the error's text. They seed
// FuzzParseSQL too.
var lambdaCases = []struct {
	sql, want string
}{
	{"CREATE MATERIALIZED VIEW v AS SELECT transform(xs, x -> x + 1) AS y FROM t", "transform(xs, x -> x + 1)"},
	{"CREATE MATERIALIZED VIEW v AS SELECT transform(xs, (x, i) -> x * i) AS y FROM t", "transform(xs, (x, i) -> x * i)"},
	{"CREATE MATERIALIZED VIEW v AS SELECT aggregate(xs, 0L, (a, x) -> a + x, a -> a * 2) AS y FROM t", "aggregate(xs, cast(0 as int64), (a, x) -> a + x, a -> a * 2)"},
	{"CREATE MATERIALIZED VIEW v AS SELECT filter(xs, x -> x > t.x) AS y FROM t", "filter(xs, x -> x > t.x)"},
	{"CREATE MATERIALIZED VIEW v AS SELECT exists(xs, x -> exists(ys, y -> x = y)) AS y FROM t", "exists(xs, x -> exists(ys, y -> x = y))"},
	{"CREATE MATERIALIZED VIEW v AS SELECT transform(xs, (x, X) -> x) AS y FROM t", "error: the lambda's parameter X is declared twice"},
	{"CREATE MATERIALIZED VIEW v AS SELECT transform(xs, () -> 1) AS y FROM t", "error: unexpected"},
}

// TestLambdas checks that a lambda parses to ir.Lambda, that a bare name a
// lambda declares is its variable (shadowing a column, the innermost lambda
// first) and that a qualified one stays a column.
func TestLambdas(t *testing.T) {
	for _, c := range lambdaCases {
		t.Run(c.sql, func(t *testing.T) {
			p, diags := sql.Parse([]sql.File{{Name: "l.sql", Src: []byte(c.sql)}})
			if strings.HasPrefix(c.want, "error: ") {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), strings.TrimPrefix(c.want, "error: ")) {
					t.Fatalf("got %v, want an error with %q", diags, c.want)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			e := p.Flows[0].Query.(*ir.Project).Items[0].Expr
			if got := ir.FormatExpr(e, ir.DSL); got != c.want {
				t.Fatalf("got %s, want %s", got, c.want)
			}
			vars, cols := 0, 0
			ir.WalkExpr(e, func(x ir.Expr) bool {
				switch x := x.(type) {
				case *ir.LambdaVar:
					vars++
				case *ir.ColumnRef:
					if x.Name == "x" && x.Qualifier == "" {
						t.Errorf("the lambda variable x at %s is a column", x.Pos)
					}
					cols++
				}
				return true
			})
			if vars == 0 || cols == 0 {
				t.Fatalf("%d lambda variables and %d columns in %s", vars, cols, c.want)
			}
		})
	}
}
