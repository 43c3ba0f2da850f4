//go:build spark || iceberg

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nordisk/thund/internal/icebergcheck"
	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/warehouse"
)

// icebergReader reads a table folder at a snapshot with another engine.
type icebergReader func(t *testing.T, location string, at icebergcheck.At) *icebergcheck.Result

// TestIcebergExamples: pyiceberg reads every example's datasets, through
// the Iceberg metadata each run publishes, with the rows `etl read` gives:
// after the first build, after a change (a rebuild, an incremental append,
// a CDC merge), at every snapshot (= every version), and after vacuum.
func TestIcebergExamples(t *testing.T) {
	py := testenv.PyIceberg(t)
	icebergExamples(t, true, func(t *testing.T, loc string, at icebergcheck.At) *icebergcheck.Result {
		return icebergcheck.PyIceberg(t, py, loc, at)
	})
}

// TestSparkIcebergExamples: the same with Spark's Iceberg runtime
// (spark.read.format("iceberg").load(folder)), on the lane's server.
func TestSparkIcebergExamples(t *testing.T) {
	remote, python, _ := testenv.SparkIceberg(t)
	// Every read is a pyspark client of its own (seconds each): the
	// older snapshots are read for the first table of each example.
	icebergExamples(t, false, func(t *testing.T, loc string, at icebergcheck.At) *icebergcheck.Result {
		return icebergcheck.Spark(t, remote, python, loc, at)
	})
}

// icebergExample is an example and the change its second run sees.
type icebergExample struct {
	dir     string
	prepare func(t *testing.T, dir string) // before the first run
	change  func(t *testing.T, dir string) // before the second run
	what    string                         // what the second run does to the tables
}

var icebergExamplesList = []icebergExample{
	{dir: "quickstart", what: "a rebuild (overwrite snapshots)", change: func(t *testing.T, dir string) {
		appendFile(t, filepath.Join(dir, "data", "sales.csv"), "901,espresso,3,2.50,2026-12-01 09:00:00\n902,bagel,1,3.10,2026-12-01 09:05:00\n")
	}},
	{dir: "batch_etl", what: "a rebuild of a partitioned view", change: func(t *testing.T, dir string) {
		writeFile(t, filepath.Join(dir, "data", "orders", "2027-01.csv"),
			"order_id,customer_id,amount,status,ordered_at\n901,1,12.00,paid,2027-01-02 10:00:00\n902,99,5.50,shipped,2027-01-03 11:00:00\n")
	}},
	{dir: "cdc", what: "a CDC merge", change: func(t *testing.T, dir string) {
		writeFile(t, filepath.Join(dir, "data", "changes", "2026-01-03.csv"),
			"id,name,email,city,op,seq,changed_at\n2,Bo,bo@example.se,Lund,UPDATE,90,2026-01-03 08:00:00\n3,,,,DELETE,91,2026-01-03 08:01:00\n7,Di,di@example.dk,Aarhus,INSERT,92,2026-01-03 08:02:00\n")
	}},
	{dir: "nexmark", what: "incremental appends (append snapshots)", prepare: func(t *testing.T, dir string) {
		nexmarkData(t, dir)
		// The second part file of each source waits for the second run.
		for _, src := range []string{"person", "auction", "bid"} {
			parts, _ := filepath.Glob(filepath.Join(dir, "data", src, "*.parquet"))
			slices.Sort(parts)
			if len(parts) < 2 {
				t.Fatalf("nexmark data: %d part files of %s, want 2", len(parts), src)
			}
			if err := os.Rename(parts[len(parts)-1], filepath.Join(dir, src+".later")); err != nil {
				t.Fatal(err)
			}
		}
	}, change: func(t *testing.T, dir string) {
		for _, src := range []string{"person", "auction", "bid"} {
			if err := os.Rename(filepath.Join(dir, src+".later"), filepath.Join(dir, "data", src, "part-later.parquet")); err != nil {
				t.Fatal(err)
			}
		}
	}},
	{dir: "nexmark_windows", what: "windowed appends and a late table", prepare: func(t *testing.T, dir string) {
		// nexmarkgen's bids and auctions, under the folder names the example reads
		gen := filepath.Join(dir, "gen")
		cmd := exec.Command("go", "run", "./internal/nexmark/cmd/nexmarkgen", "-events", "20000", "-out", gen)
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("nexmarkgen: %v\n%s", err, out)
		}
		if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
			t.Fatal(err)
		}
		for from, to := range map[string]string{"bid": "bids", "auction": "auctions"} {
			if err := os.Rename(filepath.Join(gen, from), filepath.Join(dir, "data", to)); err != nil {
				t.Fatal(err)
			}
		}
		parts, _ := filepath.Glob(filepath.Join(dir, "data", "bids", "*.parquet"))
		slices.Sort(parts)
		if len(parts) < 2 {
			t.Fatalf("nexmark bids: %d part files, want 2 or more", len(parts))
		}
		if err := os.Rename(parts[len(parts)-1], filepath.Join(dir, "bids.later")); err != nil {
			t.Fatal(err)
		}
	}, change: func(t *testing.T, dir string) {
		if err := os.Rename(filepath.Join(dir, "bids.later"), filepath.Join(dir, "data", "bids", "part-later.parquet")); err != nil {
			t.Fatal(err)
		}
	}},
}

// icebergExamples runs each example twice and vacuums it, comparing its
// tables as read by read with etl read: the current snapshots always, the
// older ones of every table (every) or of the first table only.
func icebergExamples(t *testing.T, every bool, read icebergReader) {
	if testing.Short() {
		t.Skip("builds and runs every example")
	}
	thundc := laneThundc(t)
	for _, ex := range icebergExamplesList {
		t.Run(ex.dir, func(t *testing.T) {
			work := t.TempDir()
			copyExample(t, filepath.Join("..", "..", "examples", ex.dir), work)
			if ex.prepare != nil {
				ex.prepare(t, work)
			}
			tables := laneTables(t, thundc, work, "pipeline.thund")
			etl, wh := filepath.Join(work, "etl"), filepath.Join(work, "iceberg-wh")
			laneRun(t, work, nil, thundc, "build", "pipeline.thund", "-o", etl)
			laneRun(t, work, nil, etl, "run", "--warehouse", wh)
			compareTables(t, read, etl, wh, tables, "after the first run", false)

			ex.change(t, work)
			laneRun(t, work, nil, etl, "run", "--warehouse", wh)
			var ops []string
			for i, name := range tables {
				ops = append(ops, compareTables(t, read, etl, wh, []string{name}, "after "+ex.what, every || i == 0)...)
			}
			t.Logf("snapshots after %s: %s", ex.what, strings.Join(ops, ", "))

			laneRun(t, work, nil, etl, "vacuum", "--keep", "1", "--warehouse", wh)
			compareTables(t, read, etl, wh, tables, "after vacuum --keep 1", true)
		})
	}
}

// compareTables compares each table's current snapshot, and with all
// every snapshot, with `etl read` of the same version, and returns the
// snapshots' operations.
func compareTables(t *testing.T, read icebergReader, etl, wh string, tables []string, when string, all bool) []string {
	t.Helper()
	var ops []string
	for _, name := range tables {
		loc := filepath.Join(wh, name)
		cur := read(t, loc, icebergcheck.Current)
		icebergcheck.Equal(t, fmt.Sprintf("%s %s, current snapshot", name, when), icebergcheck.Thund(t, etl, wh, name, 0), cur)
		if len(cur.Snapshots) == 0 {
			t.Errorf("%s %s: the table has no snapshot", name, when)
			continue
		}
		last := cur.Snapshots[len(cur.Snapshots)-1]
		if head := versionOf(t, wh, name); last.ID != head {
			t.Errorf("%s %s: the newest snapshot is %d, the dataset's version %d", name, when, last.ID, head)
		}
		for _, s := range cur.Snapshots {
			ops = append(ops, fmt.Sprintf("%s@%d:%s", name, s.ID, s.Operation))
			if all && s.ID != last.ID {
				icebergcheck.Equal(t, fmt.Sprintf("%s %s, snapshot %d", name, when, s.ID),
					icebergcheck.Thund(t, etl, wh, name, s.ID), read(t, loc, icebergcheck.Snapshot(s.ID)))
			}
		}
	}
	return ops
}

// versionOf is a dataset's current version in the warehouse's latest
// commit record.
func versionOf(t *testing.T, wh, name string) int64 {
	t.Helper()
	fs, err := store.NewLocal(wh)
	if err != nil {
		t.Fatal(err)
	}
	st, err := warehouse.New(fs).Load(context.Background())
	if err != nil || st.Head == nil {
		t.Fatalf("the warehouse %s: %v", wh, err)
	}
	d, ok := st.Head.Datasets[name]
	if !ok {
		t.Fatalf("the warehouse has no dataset %s", name)
	}
	return d.Version
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
