//go:build spark

package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/sparkemit"
)

// windowPipeline is a SQL pipeline of window functions over six rows whose
// answers are worked out by hand below (Spark's documented semantics:
// default frames, IGNORE NULLS, RANGE offsets over values, peers sharing a
// rank). base:
//
//	i: 0  1  2   3    4  5
//	k: 0  1  0   1    0  1
//	v: 0 10 20 NULL  40 50
const windowPipeline = `
CREATE MATERIALIZED VIEW base AS
  SELECT id AS i, id % 2 AS k, CASE WHEN id = 3 THEN NULL ELSE id * 10 END AS v FROM range(6);

CREATE MATERIALIZED VIEW w AS
SELECT i,
  row_number() OVER (PARTITION BY k ORDER BY i) AS rn,
  rank() OVER (ORDER BY k) AS rk,
  dense_rank() OVER (ORDER BY k) AS dr,
  lag(v) OVER pk AS lg,
  lag(v) IGNORE NULLS OVER pk AS lgn,
  lead(v, 1, -1) OVER pk AS ld,
  sum(v) OVER (PARTITION BY k ORDER BY i ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s2,
  sum(v) OVER (PARTITION BY k) AS tot,
  count(v) OVER (ORDER BY i RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) AS c3,
  last_value(v) OVER pk AS lv,
  last_value(v) IGNORE NULLS OVER pk AS lvn,
  ntile(2) OVER (ORDER BY i) AS nt,
  percent_rank() OVER (ORDER BY i) AS pr,
  cume_dist() OVER (ORDER BY k) AS cd,
  nth_value(v, 2) OVER pk AS nv
FROM base
WINDOW pk AS (PARTITION BY k ORDER BY i);

CREATE MATERIALIZED VIEW ranked AS
SELECT k, max(v) AS top, rank() OVER (ORDER BY max(v) DESC) AS r, dense_rank() OVER (ORDER BY k DESC) FROM base GROUP BY k;

CREATE MATERIALIZED VIEW latest AS
SELECT i, k FROM base QUALIFY row_number() OVER (PARTITION BY k ORDER BY i DESC) = 1;
`

// TestSparkWindows runs windowPipeline on the lane's server and checks
// every table against its hand-worked answer, and each column's type
// against Spark's (which passes.TestWindowTypes holds resolve to).
func TestSparkWindows(t *testing.T) {
	lane := testenv.Spark(t)
	thundc := laneThundc(t)
	remote, conn := laneConn(t, lane)
	work := t.TempDir()
	path := filepath.Join(work, "w.sql")
	if err := os.WriteFile(path, []byte(windowPipeline), 0o644); err != nil {
		t.Fatal(err)
	}
	laneRun(t, work, nil, thundc, "check", "--target", lane.Target, path)
	db := "lane_windows"
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for _, q := range []string{"DROP DATABASE IF EXISTS " + db + " CASCADE", "CREATE DATABASE " + db} {
		if _, err := sparkemit.Query(ctx, conn, remote, q); err != nil {
			t.Fatal(err)
		}
	}
	laneRun(t, work, nil, thundc, "spark", "run", path, "--remote", lane.Remote, "--target", lane.Target,
		"--database", db, "--storage", "file://"+filepath.Join(work, "spark-storage"))

	for _, c := range []struct {
		table, cols, order string
		types              []string
		want               []string
	}{
		{"w", "i, rn, rk, dr, lg, lgn, ld, s2, tot, c3, lv, lvn, nt, pr, cd, nv", "i",
			[]string{"int64", "int32", "int32", "int32", "int64", "int64", "int64", "int64", "int64", "int64", "int64", "int64", "int32", "float64", "float64", "int64"},
			[]string{
				"0|1|1|1|NULL|NULL|20|0|60|1|0|0|1|0|0.5|NULL",
				"1|1|4|2|NULL|NULL|NULL|10|60|2|10|10|1|0.2|1|NULL",
				"2|2|1|1|0|0|40|20|60|3|20|20|1|0.4|0.5|20",
				"3|2|4|2|10|10|50|10|60|2|NULL|10|2|0.6|1|NULL",
				"4|3|1|1|20|20|-1|60|60|2|40|40|2|0.8|0.5|20",
				"5|3|4|2|NULL|10|-1|50|60|2|50|50|2|1|1|NULL",
			}},
		// the unaliased window is named as Spark names it
		{"ranked", "k, top, r, `DENSE_RANK() OVER (ORDER BY k DESC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`", "k",
			[]string{"int64", "int64", "int32", "int32"},
			[]string{"0|40|2|2", "1|50|1|1"}},
		{"latest", "i, k", "i", []string{"int64", "int64"},
			[]string{"4|0", "5|1"}},
	} {
		t.Run(c.table, func(t *testing.T) {
			streams, err := sparkemit.Query(ctx, conn, remote, "SELECT "+c.cols+" FROM "+db+"."+c.table+" ORDER BY "+c.order)
			if err != nil {
				t.Fatal(err)
			}
			got := arrowStreams(t, c.table, streams)
			if strings.Join(got.ArrowTypes, " ") != strings.Join(c.types, " ") {
				t.Errorf("types %v, want %v", got.ArrowTypes, c.types)
			}
			var rows []string
			for _, r := range got.Rows {
				cells := make([]string, len(r))
				for i, cell := range r {
					if c.types[i] == "float64" {
						if f, err := strconv.ParseFloat(cell, 64); err == nil {
							cell = strconv.FormatFloat(f, 'g', 9, 64)
						}
					}
					cells[i] = cell
				}
				rows = append(rows, strings.Join(cells, "|"))
			}
			if strings.Join(rows, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}
