package conformance

// The CDC oracle: random change feeds (inserts, updates, deletes, NULL
// updates, sequences out of order) are shuffled, split into files that land
// one run at a time, and applied by a thundc-built executable as SCD type 1
// and type 2 tables; DuckDB computes the same tables from the whole feed
// with window functions over the sequence. The SQL below is written from
// the semantics (rt/cdc's doc), not from the Go engine:
//
//   - SCD 1: a key's row is its latest change when that is not a delete;
//     with ignore null updates, each column is the latest non-NULL value
//     among the upserts after the key's latest delete.
//   - SCD 2: deletes cut a key's changes into segments; within a segment
//     (with ignore null updates) values carry forward over NULLs; a version
//     starts at the segment's first upsert and at every upsert whose tracked
//     columns differ (NULL-safe) from the previous upsert's; a version holds
//     its last upsert's values, starts at its first upsert's sequence and
//     ends at the next version's start or the next delete, whichever comes
//     first (NULL: none).

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

const cdcPipeline = `pipeline cdc_oracle

source changes stream from csv "feed/*.csv" options ("header" = "true") {
  k int64 not null, g string not null, a string, b int64, c string, op string, seq int64
}

streaming table scd1_plain =
  from stream changes
  apply changes keys (k) sequence by seq
    delete when op = 'D'
    columns (k, a, b, c, seq)
    scd type 1

streaming table scd1_nulls =
  from stream changes
  apply changes keys (k) sequence by seq
    delete when op = 'D'
    ignore null updates
    columns * except (op, g)
    scd type 1

streaming table scd2_subset =
  from stream changes
  apply changes keys (k) sequence by seq
    delete when op = 'D'
    ignore null updates
    columns * except (op, g)
    scd type 2
    track history on (a, b)

streaming table scd2_all =
  from stream changes
  apply changes keys (k, g) sequence by seq
    delete when op = 'D'
    columns * except (op, seq)
    scd type 2
`

// cdcTable is one table of cdcPipeline and how the oracle computes it.
type cdcTable struct {
	name       string
	keys       []string
	cols       []string // the stored data columns, in order
	scd        int
	ignoreNull bool
	tracked    []string // SCD 2
}

var cdcTables = []cdcTable{
	{name: "scd1_plain", keys: []string{"k"}, cols: []string{"k", "a", "b", "c", "seq"}, scd: 1},
	{name: "scd1_nulls", keys: []string{"k"}, cols: []string{"k", "a", "b", "c", "seq"}, scd: 1, ignoreNull: true},
	{name: "scd2_subset", keys: []string{"k"}, cols: []string{"k", "a", "b", "c", "seq"}, scd: 2, ignoreNull: true, tracked: []string{"a", "b"}},
	{name: "scd2_all", keys: []string{"k", "g"}, cols: []string{"k", "g", "a", "b", "c"}, scd: 2, tracked: []string{"a", "b", "c"}},
}

// cdcSQL is the oracle's query: one text line per row, as `read --format
// csv` writes it (NULL as an empty field).
func cdcSQL(t cdcTable) string {
	part := strings.Join(t.keys, ", ")
	line := func(cols []string) string {
		var parts []string
		for _, c := range cols {
			parts = append(parts, fmt.Sprintf("coalesce(CAST(%s AS VARCHAR), '')", c))
		}
		return strings.Join(parts, " || ',' || ")
	}
	var keyJoin []string
	for _, k := range t.keys {
		keyJoin = append(keyJoin, fmt.Sprintf("f.%s = l.%s", k, k))
	}
	if t.scd == 1 && !t.ignoreNull {
		return fmt.Sprintf(`SELECT %s FROM (SELECT *, row_number() OVER (PARTITION BY %s ORDER BY seq DESC) AS rn FROM feed)
			WHERE rn = 1 AND op <> 'D'`, line(t.cols), part)
	}
	if t.scd == 1 {
		var aggs []string
		for _, c := range t.cols {
			if slices.Contains(t.keys, c) {
				aggs = append(aggs, c)
			} else {
				aggs = append(aggs, fmt.Sprintf("arg_max(%s, seq) FILTER (WHERE %s IS NOT NULL) AS %s", c, c, c))
			}
		}
		return fmt.Sprintf(`WITH l AS (SELECT %s, max(seq) FILTER (WHERE op = 'D') AS d, max(seq) AS m FROM feed GROUP BY %s),
			alive AS (SELECT l.* FROM l JOIN feed f ON %s AND f.seq = l.m WHERE f.op <> 'D'),
			ups AS (SELECT f.* FROM feed f JOIN alive l ON %s WHERE f.op <> 'D' AND (l.d IS NULL OR f.seq > l.d))
			SELECT %s FROM (SELECT %s FROM ups GROUP BY %s)`,
			part, part, strings.Join(keyJoin, " AND "), strings.Join(keyJoin, " AND "), line(t.cols), strings.Join(aggs, ", "), part)
	}
	// SCD 2
	var merged, changed []string
	for _, c := range t.cols {
		switch {
		case slices.Contains(t.keys, c):
			merged = append(merged, c)
		case t.ignoreNull:
			merged = append(merged, fmt.Sprintf("last_value(%s IGNORE NULLS) OVER w AS %s", c, c))
		default:
			merged = append(merged, c)
		}
	}
	for _, c := range t.tracked {
		changed = append(changed, fmt.Sprintf("lag(%s) OVER p IS DISTINCT FROM %s", c, c))
	}
	out := append(append([]string{}, t.cols...), "start_at", "end_at")
	var bk []string
	for _, k := range t.keys {
		bk = append(bk, fmt.Sprintf("x.%s = v.%s", k, k))
	}
	return fmt.Sprintf(`WITH ev AS (
			SELECT *, sum(CASE WHEN op = 'D' THEN 1 ELSE 0 END) OVER (PARTITION BY %[1]s ORDER BY seq ROWS UNBOUNDED PRECEDING) AS seg FROM feed),
		up AS (
			SELECT seg, seq AS s, %[2]s FROM ev WHERE op <> 'D'
			WINDOW w AS (PARTITION BY %[1]s, seg ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)),
		flagged AS (
			SELECT *, CASE WHEN lag(s) OVER p IS NULL OR %[3]s THEN 1 ELSE 0 END AS newver FROM up
			WINDOW p AS (PARTITION BY %[1]s, seg ORDER BY s)),
		versioned AS (
			SELECT *, sum(newver) OVER (PARTITION BY %[1]s, seg ORDER BY s ROWS UNBOUNDED PRECEDING) AS vid FROM flagged),
		v AS (
			SELECT * FROM (
				SELECT *, min(s) OVER (PARTITION BY %[1]s, seg, vid) AS start_at,
					row_number() OVER (PARTITION BY %[1]s, seg, vid ORDER BY s DESC) AS rn FROM versioned)
			WHERE rn = 1),
		bounds AS (
			SELECT %[1]s, start_at AS b FROM v UNION ALL SELECT %[1]s, seq AS b FROM feed WHERE op = 'D')
		SELECT %[4]s FROM (
			SELECT v.*, (SELECT min(x.b) FROM bounds x WHERE %[5]s AND x.b > v.start_at) AS end_at FROM v)`,
		part, strings.Join(merged, ", "), strings.Join(changed, " OR "), line(out), strings.Join(bk, " AND "))
}

// cdcChange is one generated change row.
type cdcChange struct {
	k       int64
	g, a, c string // "" is NULL (g never is)
	b       *int64
	op      string
	seq     int64
}

func genFeed(rng *rand.Rand, n int) []cdcChange {
	seqs := rng.Perm(n) // unique sequence values, unrelated to arrival order
	var feed []cdcChange
	pick := func(p float64, vals ...string) string {
		if rng.Float64() < p {
			return ""
		}
		return vals[rng.IntN(len(vals))]
	}
	for i := 0; i < n; i++ {
		ch := cdcChange{k: rng.Int64N(30), g: pick(0, "g1", "g2"), seq: int64(seqs[i]) + 1}
		switch r := rng.IntN(10); {
		case r < 2:
			ch.op = "D"
		case r < 4:
			ch.op = "I"
		default:
			ch.op = "U"
		}
		nullP := 0.0
		if ch.op == "U" {
			nullP = 0.3 // NULL updates
		}
		if ch.op != "D" || rng.IntN(2) == 0 {
			ch.a = pick(nullP, "x", "y", "z")
			ch.c = pick(nullP, "p", "q")
			if rng.Float64() >= nullP {
				b := rng.Int64N(3)
				ch.b = &b
			}
		}
		feed = append(feed, ch)
	}
	return feed
}

func writeFeed(path string, cs []cdcChange) error {
	var b strings.Builder
	b.WriteString("k,g,a,b,c,op,seq\n")
	for _, c := range cs {
		bv := ""
		if c.b != nil {
			bv = fmt.Sprint(*c.b)
		}
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s,%s,%d\n", c.k, c.g, c.a, bv, c.c, c.op, c.seq)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// TestCDCOracle applies shuffled, split change feeds run by run and
// compares every table with DuckDB over the whole feed.
func TestCDCOracle(t *testing.T) {
	needSetup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	dir := filepath.Join(suite.work, "cdc")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pipeline.thund"), []byte(cdcPipeline), 0o644); err != nil {
		t.Fatal(err)
	}
	etl := filepath.Join(dir, "etl")
	build := exec.CommandContext(ctx, filepath.Join(suite.work, "thundc"), "build", "pipeline.thund", "-o", etl)
	build.Dir = dir
	build.Env = append(os.Environ(), "THUND_CACHE="+filepath.Join(os.TempDir(), "thund-conformance-cache"), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("thundc build: %v\n%s", err, out)
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	for _, seed := range []uint64{1, 7, 20261202} {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Logf("seed %d", seed)
			rng := rand.New(rand.NewPCG(seed, 0x5eed))
			feed := genFeed(rng, 500)
			shuffled := append([]cdcChange{}, feed...)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			root := filepath.Join(dir, fmt.Sprint("seed-", seed))
			wh := filepath.Join(root, "warehouse")
			if err := os.MkdirAll(filepath.Join(root, "feed"), 0o755); err != nil {
				t.Fatal(err)
			}
			// five files of uneven size; runs after files 1, 3 (two land
			// together), 4 and 5
			cuts := []int{0, 60, 170, 260, 400, len(shuffled)}
			runAfter := map[int]bool{0: true, 2: true, 3: true, 4: true}
			runs := 0
			for i := 0; i+1 < len(cuts); i++ {
				if err := writeFeed(filepath.Join(root, "feed", fmt.Sprintf("part-%02d.csv", i)), shuffled[cuts[i]:cuts[i+1]]); err != nil {
					t.Fatal(err)
				}
				if !runAfter[i] {
					continue
				}
				runs++
				cmd := exec.CommandContext(ctx, etl, "run", "--warehouse", wh, "--root", root)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("seed %d: etl run %d: %v\n%s", seed, runs, err, out)
				}
			}
			if _, err := db.ExecContext(ctx, "CREATE OR REPLACE TABLE feed AS SELECT * FROM read_csv("+
				quoteString(filepath.Join(root, "feed", "*.csv"))+", header = true, nullstr = '', auto_detect = false, "+
				"columns = {'k': 'BIGINT', 'g': 'VARCHAR', 'a': 'VARCHAR', 'b': 'BIGINT', 'c': 'VARCHAR', 'op': 'VARCHAR', 'seq': 'BIGINT'})"); err != nil {
				t.Fatal(err)
			}
			if n, err := scalarInt(ctx, db, "SELECT count(*) FROM feed"); err != nil || n != int64(len(feed)) {
				t.Fatalf("duckdb read %d changes (%v), want %d", n, err, len(feed))
			}
			for _, tb := range cdcTables {
				out, err := exec.CommandContext(ctx, etl, "read", tb.name, "--warehouse", wh).Output()
				if err != nil {
					t.Fatalf("seed %d: etl read %s: %v", seed, tb.name, err)
				}
				got := strings.Split(strings.TrimSpace(string(out)), "\n")[1:]
				want, err := queryLines(ctx, db, cdcSQL(tb))
				if err != nil {
					t.Fatalf("seed %d: duckdb %s: %v\n%s", seed, tb.name, err, cdcSQL(tb))
				}
				sort.Strings(got)
				sort.Strings(want)
				if len(want) == 0 {
					t.Errorf("seed %d: %s: the oracle's result is empty; the feed tests nothing", seed, tb.name)
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("seed %d: %s after %d runs differs from DuckDB over the whole feed:\n%s", seed, tb.name, runs, lineDiff(got, want))
				} else {
					t.Logf("seed %d: %s: %d rows agree", seed, tb.name, len(got))
				}
			}
		})
	}
}

func scalarInt(ctx context.Context, db *sql.DB, q string) (int64, error) {
	var n int64
	err := db.QueryRowContext(ctx, q).Scan(&n)
	return n, err
}

func queryLines(ctx context.Context, db *sql.DB, q string) ([]string, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// lineDiff lists the lines only one side has.
func lineDiff(got, want []string) string {
	count := map[string]int{}
	for _, l := range got {
		count[l]++
	}
	for _, l := range want {
		count[l]--
	}
	var b strings.Builder
	n := 0
	for _, l := range append(append([]string{}, got...), want...) {
		if c := count[l]; c != 0 && n < 20 {
			if c > 0 {
				fmt.Fprintf(&b, "  only Þund:   %s\n", l)
			} else {
				fmt.Fprintf(&b, "  only DuckDB: %s\n", l)
			}
			count[l] = 0
			n++
		}
	}
	return b.String()
}
