//go:build spark

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/icebergcheck"
	"github.com/nordisk/thund/internal/testenv"
)

// TestSparkIcebergSourceSparkWritten: a table that Spark SQL writes (the
// lane server's Hadoop catalog, iceberg-spark-runtime) is read by a built
// pipeline's Iceberg sources after each of Spark's commits: the snapshot
// read equals Spark's own scan of the current snapshot (a full recompute),
// the stream read accumulates exactly the appended rows (equal to the same
// scan), a time travel stays at the first snapshot, and after a DELETE (an
// overwrite or delete snapshot) a strict stream read fails while
// thund.non-append = recompute rebuilds from the current snapshot.
func TestSparkIcebergSourceSparkWritten(t *testing.T) {
	remote, python, iceWH := testenv.SparkIceberg(t)
	if testing.Short() {
		t.Skip("builds pipelines and writes a table with Spark")
	}
	thundc := laneThundc(t)
	db := fmt.Sprintf("src%d", time.Now().UnixNano())
	table := "ice." + db + ".orders"
	loc := filepath.Join(iceWH, db, "orders")
	sql := func(stmts ...string) { icebergcheck.SparkSQL(t, remote, python, stmts...) }
	sql("CREATE NAMESPACE IF NOT EXISTS ice."+db,
		"CREATE TABLE "+table+" (id BIGINT, customer STRING, amount DECIMAL(10,2), ts TIMESTAMP) USING iceberg PARTITIONED BY (customer)"+
			" TBLPROPERTIES ('write.delete.mode'='copy-on-write', 'write.update.mode'='copy-on-write', 'write.merge.mode'='copy-on-write')",
		"INSERT INTO "+table+" VALUES (1, 'ann', 10.50, TIMESTAMP '2026-01-01 10:00:00'), (2, 'bob', 3.25, TIMESTAMP '2026-01-01 11:00:00'), (3, NULL, 1.00, NULL)")
	first := icebergcheck.Spark(t, remote, python, loc, icebergcheck.Current)

	work := t.TempDir()
	pipeline := func(name, options string) string {
		opts := ""
		if options != "" {
			opts = " options (" + options + ")"
		}
		src := fmt.Sprintf(`pipeline %s

source snap from iceberg %q

source v1 from iceberg %q options ("snapshot-id" = "%d")

source feed stream from iceberg %q%s

materialized view everything = from snap | select id, customer, amount, ts

materialized view first = from v1 | select id, customer, amount, ts

streaming table copy = from stream feed | select id, customer, amount, ts
`, name, loc, loc, first.SnapshotID, loc, opts)
		dir := filepath.Join(work, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "p.thund"), src)
		laneRun(t, dir, nil, thundc, "build", "p.thund", "-o", "etl")
		return dir
	}
	strict, recompute := pipeline("strict", ""), pipeline("recompute", `"thund.non-append" = "recompute"`)
	skipOverwrites := pipeline("skip_overwrites", `"streaming-skip-overwrite-snapshots" = "true"`)
	etlRead := func(dir, name string) *icebergcheck.Result {
		return icebergcheck.Thund(t, filepath.Join(dir, "etl"), filepath.Join(dir, "wh"), name, 0)
	}
	check := func(when string, dirs ...string) {
		t.Helper()
		spark := icebergcheck.Spark(t, remote, python, loc, icebergcheck.Current)
		for _, dir := range dirs {
			laneRun(t, dir, nil, "./etl", "run", "--warehouse", "wh")
			what := filepath.Base(dir) + " " + when
			icebergcheck.Equal(t, what+": the snapshot read against Spark's scan", spark, etlRead(dir, "everything"))
			icebergcheck.Equal(t, what+": the stream read against Spark's scan", spark, etlRead(dir, "copy"))
			icebergcheck.Equal(t, what+": the time travel to the first snapshot", first, etlRead(dir, "first"))
		}
	}
	check("after Spark's first insert", strict, recompute)
	sql("INSERT INTO "+table+" VALUES (4, 'ann', 2.00, TIMESTAMP '2026-01-02 09:00:00')",
		"INSERT INTO "+table+" VALUES (5, 'cid', 7.75, TIMESTAMP '2026-01-02 10:00:00'), (6, 'bob', 0.10, TIMESTAMP '2026-01-02 11:00:00')")
	check("after two more appends", strict, recompute)
	// A run with nothing new reads nothing again.
	check("after a rerun", strict, recompute)

	// Copy-on-write changes: an UPDATE rewrites a file (an overwrite
	// snapshot), a DELETE of a partition drops its files (a delete).
	// (A stream read that skips overwrites meets the delete.)
	for _, c := range []struct{ stmt, dir, op, option string }{
		{"UPDATE " + table + " SET amount = 11.00 WHERE id = 4", strict, "an overwrite", "streaming-skip-overwrite-snapshots"},
		{"DELETE FROM " + table + " WHERE customer = 'bob'", skipOverwrites, "a delete", "streaming-skip-delete-snapshots"},
	} {
		sql(c.stmt)
		out, err := laneRunErr(c.dir, "./etl", "run", "--warehouse", "wh")
		if err == nil || !strings.Contains(out, "is "+c.op+", not an append") || !strings.Contains(out, c.option) {
			t.Errorf("a strict stream read after %s: err %v, want %s snapshot named with %s; output:\n%s", c.stmt, err, c.op, c.option, out)
		}
	}
	sql("INSERT INTO " + table + " VALUES (7, 'dan', 5.00, TIMESTAMP '2026-01-03 09:00:00')")
	check("after an UPDATE, a DELETE and an append", recompute)
}

// laneRunErr runs a command in dir and returns its combined output and
// error, for a command expected to fail.
func laneRunErr(dir, prog string, args ...string) (string, error) {
	cmd := exec.Command(prog, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "THUND_CACHE="+testenv.ThundCache())
	out, err := cmd.CombinedOutput()
	return string(out), err
}
