//go:build spark

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/sparkemit"
)

// dedupPipeline is distinct on (k) within watermark over a stream of CSV
// files with a 10s watermark delay (dedup feature).
const dedupPipeline = `source ev stream from csv "data/*.csv" options ("header" = "true") {
  k string, v int64, t timestamp(us, "UTC")
  watermark t delay 10s
}

streaming table firsts =
  from stream ev
  | distinct on (k) within watermark
`

// TestSparkDedupWithinWatermark runs dedupPipeline on the lane's server in
// three updates, a file each, and checks the rows against the definition
// worked by hand (times are seconds after 2026-01-01 00:00:00 UTC; WM is
// the watermark, max event time seen minus 10s; a key's state expires when
// WM passes its first event time plus 10s):
//
//	run 1: a@1 v1, a@5 v2 (same key in the batch), b@2 v3: a@1 and b@2 are
//	       emitted, a@5 is a duplicate. WM becomes 0s-ish (max 5 - 10).
//	run 2: a@8 v4 (a's state lives until WM > 11: duplicate), c@30 v5
//	       (new). WM becomes 20: a (11) and b (12) expire.
//	run 3: a@25 v6 (a expired: emitted again), b@15 v7 (late: 15 < WM 20,
//	       dropped), c@35 v8 (c's state lives until WM > 40: duplicate).
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
	db := "lane_dedup"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for _, q := range []string{"DROP DATABASE IF EXISTS " + db + " CASCADE", "CREATE DATABASE " + db} {
		if _, err := sparkemit.Query(ctx, conn, remote, q); err != nil {
			t.Fatal(err)
		}
	}
	files := []string{
		"k,v,t\na,1,2026-01-01 00:00:01\na,2,2026-01-01 00:00:05\nb,3,2026-01-01 00:00:02\n",
		"k,v,t\na,4,2026-01-01 00:00:08\nc,5,2026-01-01 00:00:30\n",
		"k,v,t\na,6,2026-01-01 00:00:25\nb,7,2026-01-01 00:00:15\nc,8,2026-01-01 00:00:35\n",
	}
	for i, f := range files {
		if err := os.WriteFile(filepath.Join(work, "data", "e"+string(rune('1'+i))+".csv"), []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
		laneRun(t, work, nil, thundc, "spark", "run", path, "--remote", lane.Remote, "--target", lane.Target,
			"--database", db, "--storage", "file://"+filepath.Join(work, "spark-storage"), "--data-root", "file://"+work)
	}
	streams, err := sparkemit.Query(ctx, conn, remote, "SELECT k, v FROM "+db+".firsts ORDER BY v")
	if err != nil {
		t.Fatal(err)
	}
	got := arrowStreams(t, "firsts", streams)
	var rows []string
	for _, r := range got.rows {
		rows = append(rows, strings.Join(r.cells, "|"))
	}
	want := []string{`"a"|1`, `"b"|3`, `"c"|5`, `"a"|6`}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}
