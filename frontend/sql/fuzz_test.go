package sql_test

import (
	"strings"
	"testing"
	"time"

	"github.com/nordisk/thund/frontend/sql"
	"github.com/nordisk/thund/ir"
)

// FuzzParseSQL checks that no input makes the SQL frontend panic (a
// recovered panic shows up as an "internal error" diagnostic), that a
// pipeline comes back exactly when there is no error, and that what comes
// back is well-formed enough to validate and encode. Seeds: every SQL text
// of this package's tests.
//
//	go test -run '^$' -fuzz FuzzParseSQL -fuzztime 2m ./frontend/sql/
func FuzzParseSQL(f *testing.F) {
	for _, c := range equivCases {
		f.Add(c.sql)
	}
	for _, c := range errorCases {
		f.Add(c.sql)
	}
	for _, c := range irCases {
		f.Add(c.sql)
	}
	for _, c := range lambdaCases {
		f.Add(c.sql)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, diags := sql.Parse([]sql.File{{Name: "fuzz.sql", Src: []byte(src)}})
		for _, d := range diags {
			if strings.Contains(d.Msg, "internal error") {
				t.Fatalf("%v\ninput:\n%s", d, src)
			}
			if d.Severity == ir.Error && !d.Pos.IsValid() && d.Pos.File == "" {
				t.Fatalf("an error without a position: %v\ninput:\n%s", d, src)
			}
		}
		if diags.HasErrors() != (p == nil) {
			t.Fatalf("errors %v but pipeline %v\ninput:\n%s", diags.HasErrors(), p != nil, src)
		}
		if p == nil {
			return
		}
		ir.Validate(p)
		if _, err := ir.MarshalJSON(p); err != nil {
			t.Fatalf("MarshalJSON: %v\ninput:\n%s", err, src)
		}
		for _, fl := range p.Flows {
			if fl.Query == nil {
				t.Fatalf("flow %s has no query\ninput:\n%s", fl.Name, src)
			}
			ir.WalkRel(fl.Query, func(r ir.Rel) bool {
				if r == nil {
					t.Fatalf("nil operator in flow %s\ninput:\n%s", fl.Name, src)
				}
				for _, e := range ir.RelExprs(r) {
					if e == nil {
						t.Fatalf("nil expression in %s of flow %s\ninput:\n%s", ir.NodeKindName(r), fl.Name, src)
					}
					ir.WalkExpr(e, func(x ir.Expr) bool {
						for _, ch := range ir.ExprChildren(x) {
							if ch == nil {
								t.Fatalf("nil operand in %s\ninput:\n%s", ir.NodeKindName(x), src)
							}
						}
						return true
					})
				}
				for _, in := range ir.RelInputs(r) {
					if in == nil {
						t.Fatalf("nil input of %s\ninput:\n%s", ir.NodeKindName(r), src)
					}
				}
				return true
			})
		}
	})
}

// TestDeepNesting: deeply nested input stays fast (the grammar backtracks,
// but never exponentially).
func TestDeepNesting(t *testing.T) {
	const n = 200
	shapes := []string{
		"CREATE MATERIALIZED VIEW m AS SELECT " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + " AS x",
		"CREATE MATERIALIZED VIEW m AS SELECT " + strings.Repeat("(", n) + "1",
		"CREATE MATERIALIZED VIEW m AS SELECT " + strings.Repeat("f(", n) + "1",
		"CREATE MATERIALIZED VIEW m AS SELECT * FROM " + strings.Repeat("(SELECT * FROM ", n) + "t",
		"CREATE MATERIALIZED VIEW m AS SELECT * FROM t WHERE " + strings.Repeat("a IN (", n) + "1",
		"CREATE MATERIALIZED VIEW m AS SELECT " + strings.Repeat("CASE WHEN ", n) + "1",
		"CREATE MATERIALIZED VIEW m AS SELECT " + strings.Repeat("CAST(", n) + "1",
		"CREATE MATERIALIZED VIEW m AS " + strings.Repeat("(", n) + "SELECT 1",
		"CREATE MATERIALIZED VIEW m AS " + strings.Repeat("WITH a AS (", n) + "SELECT 1",
	}
	for _, src := range shapes {
		start := time.Now()
		sql.Parse([]sql.File{{Name: "deep.sql", Src: []byte(src)}})
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%.60s...: %v", src, d)
		}
	}
}
