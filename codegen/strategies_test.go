package codegen

import (
	"strings"
	"testing"

	"github.com/nordisk/thund/frontend/sql"
	"github.com/nordisk/thund/passes"
)

// generateSQL compiles and generates the program of one SQL file.
func generateSQL(t testing.TB, src string) map[string][]byte {
	t.Helper()
	p, diags := sql.Parse([]sql.File{{Name: "p.sql", Src: []byte(src)}})
	if diags.HasErrors() {
		t.Fatalf("parse p.sql:\n%v", diags)
	}
	u, err := passes.Run(p, passes.Options{})
	if err != nil {
		t.Fatalf("passes p.sql:\n%v", err)
	}
	files, err := Generate(u, Options{SourceFile: "p.sql", Compiler: "thundc test"})
	if err != nil {
		t.Fatalf("generate p.sql:\n%v", err)
	}
	return files
}

// strategyShapes are the bench's workload shapes and their variants
// (bench/workloads), in both forms: a fact f joined on its key to a
// dimension d, grouped by a string, an integer or a date column of the
// dimension, over NOT NULL or nullable columns, directly or through a
// projection (a view of the join); the group by of the fact by keys of
// each type; the top-N; the latest row per key (a row_number filter: in SQL
// over a subquery or a CTE). Each view names the strategies its generated
// code must use.
var strategyShapes = []struct {
	view, thund, sql string
	memo, deferred   bool
	dense            bool   // the join's probe reads a Dense table of its integer keys when there is one
	bar              string // the top-N's first-key test; "": none
	groupLimit       bool   // the window keeps the first rows of each partition (rt/window's GroupLimit)
}{
	{view: "w4", dense: true, memo: true,
		thund: `from f | join d on f.k = d.dk | group by d.ds aggregate count(*) as n, sum(f.v) as total, max(f.v) as hi`,
		sql:   `SELECT d.ds, count(*) AS n, sum(f.v) AS total, max(f.v) AS hi FROM f JOIN d ON f.k = d.dk GROUP BY d.ds`},
	{view: "w4i", dense: true, memo: true,
		thund: `from f | join d on f.k = d.dk | group by d.di aggregate count(*) as n, sum(f.v) as total, max(f.v) as hi`,
		sql:   `SELECT d.di, count(*) AS n, sum(f.v) AS total, max(f.v) AS hi FROM f JOIN d ON f.k = d.dk GROUP BY d.di`},
	{view: "w4d", dense: true, memo: true,
		thund: `from f | join d on f.k = d.dk | group by d.dd aggregate count(*) as n, sum(f.v) as total`,
		sql:   `SELECT d.dd, count(*) AS n, sum(f.v) AS total FROM f JOIN d ON f.k = d.dk GROUP BY d.dd`},
	{view: "w4n", dense: true, memo: true,
		thund: `from fn | join dn on fn.k = dn.dk | group by dn.di aggregate count(*) as n, sum(fn.v) as total`,
		sql:   `SELECT dn.di, count(*) AS n, sum(fn.v) AS total FROM fn JOIN dn ON fn.k = dn.dk GROUP BY dn.di`},
	{view: "w4v", dense: true, memo: true,
		thund: `from f | join d on f.k = d.dk | select d.di as sid, f.v as v | group by sid aggregate count(*) as n, sum(v) as total`,
		sql: `SELECT sid, count(*) AS n, sum(v) AS total
			FROM (SELECT d.di AS sid, f.v FROM f JOIN d ON f.k = d.dk) GROUP BY sid`},
	{view: "w4fact", dense: true, memo: false, // a key of the fact: nothing to memoize
		thund: `from f | join d on f.k = d.dk | select f.s as s, d.di as di | group by s aggregate count(*) as n`,
		sql:   `SELECT s, count(*) AS n FROM (SELECT f.s, d.di FROM f JOIN d ON f.k = d.dk) GROUP BY s`},
	{view: "w4str", memo: true, // a join on a string key: no Dense form
		thund: `from f | join d on f.s = d.ds | group by d.di aggregate count(*) as n`,
		sql:   `SELECT d.di, count(*) AS n FROM f JOIN d ON f.s = d.ds GROUP BY d.di`},
	{view: "w2", deferred: true,
		thund: `from f | group by k aggregate count(*) as n, sum(v) as total, min(v) as lo, avg(v) as mean`,
		sql:   `SELECT k, count(*) AS n, sum(v) AS total, min(v) AS lo, avg(v) AS mean FROM f GROUP BY k`},
	{view: "w2s", deferred: true,
		thund: `from f | group by s aggregate count(*) as n, sum(v) as total`,
		sql:   `SELECT s, count(*) AS n, sum(v) AS total FROM f GROUP BY s`},
	{view: "w2d", deferred: true,
		thund: `from f | group by fd aggregate count(*) as n, sum(v) as total`,
		sql:   `SELECT fd, count(*) AS n, sum(v) AS total FROM f GROUP BY fd`},
	{view: "w2n", deferred: true,
		thund: `from fn | group by k aggregate count(*) as n, sum(v) as total, max(v) as hi`,
		sql:   `SELECT k, count(*) AS n, sum(v) AS total, max(v) AS hi FROM fn GROUP BY k`},
	{view: "w3", bar: " < bar",
		thund: `from f | select k, s, v | order by v desc, k, s | limit 100`,
		sql:   `SELECT k, s, v FROM f ORDER BY v DESC, k, s LIMIT 100`},
	{view: "w7", groupLimit: true,
		thund: `from f | select k, s, v, row_number() over (partition by k order by fd desc) as rn | where rn = 1`,
		sql: `SELECT k, s, v, rn FROM (
			SELECT k, s, v, row_number() OVER (PARTITION BY k ORDER BY fd DESC) AS rn FROM f) WHERE rn = 1`},
	{view: "w7cte", groupLimit: true,
		thund: `from f | select k, v, row_number() over (partition by s order by v) as rn | where rn <= 3`,
		sql: `WITH r AS (SELECT k, v, row_number() OVER (PARTITION BY s ORDER BY v) AS rn FROM f)
			SELECT * FROM r WHERE rn <= 3`},
	{view: "w7not", // rn > 1 needs every row: no limit
		thund: `from f | select k, v, row_number() over (partition by k order by v) as rn | where rn > 1`,
		sql:   `SELECT * FROM (SELECT k, v, row_number() OVER (PARTITION BY k ORDER BY v) AS rn FROM f) WHERE rn > 1`},
}

// TestStrategiesBothForms checks that the plan's strategies (memoGroup,
// deferAccum, the top-N bar, a join's Dense table of integer keys, the
// group limit of a row_number filter) are chosen for the bench's shapes and their
// variants wherever their preconditions hold, in the .thund form and in
// the SQL form alike, and not where they do not. The results are checked
// against DuckDB by the bench (bench -variants) and by conformance.
func TestStrategiesBothForms(t *testing.T) {
	var thund, sqlSrc strings.Builder
	thund.WriteString(`pipeline p
source f from parquet "f/*.parquet" { k int64 not null, s string not null, v int64 not null, fd date32 not null }
source d from parquet "d/*.parquet" { dk int64 not null, ds string not null, di int32 not null, dd date32 not null }
source fn from parquet "f/*.parquet" { k int64, v int64 }
source dn from parquet "d/*.parquet" { dk int64, di int32 }
`)
	sqlSrc.WriteString(`
CREATE TEMPORARY VIEW f (k BIGINT NOT NULL, s STRING NOT NULL, v BIGINT NOT NULL, fd DATE NOT NULL)
AS SELECT * FROM read_files('f/*.parquet', format => 'parquet');
CREATE TEMPORARY VIEW d (dk BIGINT NOT NULL, ds STRING NOT NULL, di INT NOT NULL, dd DATE NOT NULL)
AS SELECT * FROM read_files('d/*.parquet', format => 'parquet');
CREATE TEMPORARY VIEW fn (k BIGINT, v BIGINT) AS SELECT * FROM read_files('f/*.parquet', format => 'parquet');
CREATE TEMPORARY VIEW dn (dk BIGINT, di INT) AS SELECT * FROM read_files('d/*.parquet', format => 'parquet');
`)
	for _, s := range strategyShapes {
		thund.WriteString("materialized view " + s.view + " = " + s.thund + "\n")
		sqlSrc.WriteString("CREATE MATERIALIZED VIEW " + s.view + " AS " + s.sql + ";\n")
	}
	forms := map[string]map[string][]byte{
		"thund": generate(t, "p.thund", []byte(thund.String())),
		"sql":   generateSQL(t, sqlSrc.String()),
	}
	for form, files := range forms {
		for _, s := range strategyShapes {
			flow := string(files["flow_"+s.view+"/flow.go"])
			if flow == "" {
				t.Fatalf("%s: no flow_%s/flow.go", form, s.view)
			}
			if got := strings.Contains(flow, "var memo"); got != s.memo {
				t.Errorf("%s %s: memoized groups %v, want %v:\n%s", form, s.view, got, s.memo, flow)
			}
			if got := strings.Contains(flow, "rowsOf"); got != s.deferred {
				t.Errorf("%s %s: deferred accumulators %v, want %v:\n%s", form, s.view, got, s.deferred, flow)
			}
			if got := strings.Contains(flow, ".Dense()"); got != s.dense {
				t.Errorf("%s %s: dense join table %v, want %v:\n%s", form, s.view, got, s.dense, flow)
			}
			bar := ""
			for _, op := range []string{" < bar", " > bar"} {
				if strings.Contains(flow, op) {
					bar = op
				}
			}
			if got := strings.Contains(flow, "GroupLimit"); got != s.groupLimit {
				t.Errorf("%s %s: group limit %v, want %v:\n%s", form, s.view, got, s.groupLimit, flow)
			}
			if bar != s.bar {
				t.Errorf("%s %s: first-key test %q, want %q:\n%s", form, s.view, bar, s.bar, flow)
			}
		}
	}
}
