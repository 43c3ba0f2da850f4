//go:build spark

package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/sparkemit"
)

// dedupPipeline is distinct [on (k)] within watermark over a stream of CSV
// files with a 10s watermark delay (dedup feature): firsts dedups by k,
// rows by every column.
const dedupPipeline = `source ev stream from csv "data/*.csv" options ("header" = "true") {
  k string, v int64, t timestamp(us, "UTC")
  watermark t delay 10s
}

streaming table firsts =
  from stream ev
  | distinct on (k) within watermark

streaming table rows =
  from stream ev
  | distinct within watermark
`

// dedupFiles are the four updates' files, one each: the batches of
// testdata/scripts/run_dedup_watermark.txtar, which works them by hand
// (times are seconds after 2026-01-01 00:00:00 UTC): duplicates in a batch
// and in later ones, keys emitted again once the watermark reached their
// first time plus 10s (the boundary itself), rows late at the watermark
// itself, a NULL time (never late, held as the epoch) and a NULL key.
var dedupFiles = []string{
	"k,v,t\na,1,2026-01-01 00:01:40\nb,2,2026-01-01 00:01:40\na,1,2026-01-01 00:01:40\n",
	"k,v,t\na,3,2026-01-01 00:01:45\nc,4,2026-01-01 00:02:00\ne,10,\n",
	"k,v,t\na,5,2026-01-01 00:01:51\nb,6,2026-01-01 00:01:50\nc,7,2026-01-01 00:02:01\ne,11,2026-01-01 00:01:55\n,12,2026-01-01 00:01:53\nc,4,2026-01-01 00:02:00\n",
	"k,v,t\nd,8,2026-01-01 00:01:51\nd,9,2026-01-01 00:01:52\n,13,2026-01-01 00:01:54\n",
}

// TestSparkDedupWithinWatermark runs dedupPipeline on both engines, one
// update (Spark) and one run (native, a process each, its state restored
// from the checkpoint) per file, and compares both tables row for row.
// firsts must also be the rows worked by hand.
func TestSparkDedupWithinWatermark(t *testing.T) {
	lane := testenv.Spark(t)
	thundc := laneThundc(t)
	remote, conn := laneConn(t, lane)
	work := t.TempDir()
	path := filepath.Join(work, "dedup.thund")
	if err := os.WriteFile(path, []byte(dedupPipeline), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(work, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	laneRun(t, work, nil, thundc, "check", "--target", lane.Target, path)
	etl, wh := filepath.Join(work, "etl"), filepath.Join(work, "lane-warehouse")
	laneRun(t, work, nil, thundc, "build", path, "-o", etl)
	db := "lane_dedup"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for _, q := range []string{"DROP DATABASE IF EXISTS " + db + " CASCADE", "CREATE DATABASE " + db} {
		if _, err := sparkemit.Query(ctx, conn, remote, q); err != nil {
			t.Fatal(err)
		}
	}
	for i, f := range dedupFiles {
		if err := os.WriteFile(filepath.Join(work, "data", "e"+string(rune('1'+i))+".csv"), []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
		laneRun(t, work, nil, etl, "run", "--warehouse", wh)
		laneRun(t, work, nil, thundc, "spark", "run", path, "--remote", lane.Remote, "--target", lane.Target,
			"--database", db, "--storage", "file://"+filepath.Join(work, "spark-storage"), "--data-root", "file://"+work)
	}
	spark := map[string]*laneTable{}
	for _, name := range []string{"firsts", "rows"} {
		streams, err := sparkemit.Query(ctx, conn, remote, "SELECT * FROM "+db+"."+name)
		if err != nil {
			t.Fatal(err)
		}
		spark[name] = arrowStreams(t, name, streams)
		native := parquetTable(t, name, laneRun(t, work, nil, etl, "read", name, "--format", "parquet", "--warehouse", wh))
		if diff := native.diff(spark[name]); diff != "" {
			t.Errorf("%s: native (-) and Spark (+) differ:\n%s", name, diff)
		}
	}
	firsts, _ := spark["firsts"].project([]string{"k", "v"})
	var rows []string
	for _, r := range firsts.rows {
		rows = append(rows, strings.Join(r.cells, "|"))
	}
	want := []string{`"a"|1`, `"a"|5`, `"b"|2`, `"c"|4`, `"d"|9`, `"e"|10`, `"e"|11`, `NULL|12`}
	slices.Sort(rows)
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("firsts on Spark:\n%s\nwant (by hand):\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	if n := len(spark["rows"].rows); n != 11 {
		t.Errorf("rows on Spark: %d rows, want 11 (by hand)", n)
	}
}
