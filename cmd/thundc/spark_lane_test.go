//go:build spark

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/nordisk/thund/internal/icebergcheck"
	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/sparkemit"
)

// The Spark lane's differential tests: one pipeline, the same data, both
// engines. Each case runs natively (thundc build, etl run, etl read) and on
// the lane's real Spark Connect server (thundc spark run), then reads every
// table back from Spark as Arrow and compares it with the native dataset as
// a multiset of rows (laneDiff): the same columns (by name, in any order),
// the same Arrow types, and the same values, floats within 1e-9 relative.
//
// What is left out of a comparison is stated per case (skip): a column
// whose value Spark does not define (a timestamp of the run), never a
// column that merely differs.

// laneCase is one pipeline of the lane.
type laneCase struct {
	name string // also the Spark database the case's tables go to
	dir  string // the example's folder, relative to the repository root
	path string // PATH for thundc, relative to dir
	// prepare, when set, writes the case's input into its copy of dir.
	prepare func(t *testing.T, dir string)
	// skip are tables left out of the comparison, each with its reason.
	skip map[string]string
	// unordered are, per table, the ARRAY columns whose order Spark does
	// not define (collect_set's): each engine's arrays there are compared
	// as multisets of their elements (icebergcheck.Table.UnorderedLists).
	unordered map[string][]string
	// targetSkip are, per Spark target, tables left out of the comparison
	// because that Spark version's answer is known to differ from the
	// other's, and native follows the other (each with its reason).
	targetSkip map[string]map[string]string
	// iceberg: Spark reads Iceberg tables in this case, which only a
	// release with Iceberg's runtime does (testenv.SparkIceberg).
	iceberg bool
}

var laneCases = []laneCase{
	{name: "quickstart_thund", dir: "examples/quickstart", path: "pipeline.thund"},
	{name: "quickstart_sql", dir: "examples/quickstart", path: "."},
	{name: "batch_etl_thund", dir: "examples/batch_etl", path: "pipeline.thund"},
	{name: "batch_etl_sql", dir: "examples/batch_etl", path: "."},
	{name: "nexmark_thund", dir: "examples/nexmark", path: "pipeline.thund", prepare: nexmarkData, skip: nexmarkSkip},
	{name: "nexmark_sql", dir: "examples/nexmark", path: ".", prepare: nexmarkData, skip: nexmarkSkip},
	// Kafka: one topic of the lane's broker, read by both engines
	{name: "kafka_sql", dir: "testdata/spark/kafka", path: ".", prepare: kafkaData},
	{name: "kafka_thund", dir: "testdata/spark/kafka", path: "pipeline.thund", prepare: kafkaData},
	{name: "subqueries_sql", dir: "testdata/spark/subqueries", path: "."},
	{name: "subqueries_thund", dir: "testdata/spark/subqueries", path: "pipeline.thund"},
	// session confs: the session time zone
	{name: "session_zone_sql", dir: "testdata/spark/session_zone", path: "."},
	{name: "session_zone_thund", dir: "testdata/spark/session_zone", path: "pipeline.thund"},
	// streaming: outer joins of two streams
	{name: "streamjoin_thund", dir: "testdata/spark/streamjoin", path: "pipeline.thund"},
	{name: "streamjoin_sql", dir: "testdata/spark/streamjoin", path: "."},
	// the function catalogue's families (passes/funcs_*.go)
	{name: "fn_math_sql", dir: "testdata/spark/fn_math", path: "."},
	// functions: the aggregate family (passes/funcs_agg.go)
	{name: "fn_agg_sql", dir: "testdata/spark/fn_agg", path: "."},
	// nested types: ARRAY, MAP and STRUCT from JSON lines and Parquet
	{name: "nested_sql", dir: "testdata/spark/nested", path: "."},
	{name: "nested_thund", dir: "testdata/spark/nested", path: "pipeline.thund"},
	// the array and map library without lambdas (passes/funcs_arrays.go)
	{name: "fn_arrays_sql", dir: "testdata/spark/arrays", path: "."},
	{name: "fn_arrays_thund", dir: "testdata/spark/arrays", path: "pipeline.thund"},
	{name: "sequence_sql", dir: "testdata/spark/sequence", path: "."},
	{name: "sequence_thund", dir: "testdata/spark/sequence", path: "pipeline.thund"},
	// generators: explode and friends, LATERAL VIEW, over a stream read too
	{name: "generators_sql", dir: "testdata/spark/generators", path: "."},
	{name: "generators_thund", dir: "testdata/spark/generators", path: "pipeline.thund"},
	// lambdas and higher-order functions (transform, filter, exists, forall, aggregate)
	{name: "lambdas_sql", dir: "testdata/spark/lambdas", path: "."},
	// the string functions (passes/funcs_strings.go)
	{name: "fn_strings_sql", dir: "testdata/spark/fn_strings", path: "."},
	// functions: hashing, encoding and bits (passes/funcs_hash.go)
	{name: "fn_hash_sql", dir: "testdata/spark/fn_hash", path: "."},
	// the date and time functions (passes/funcs_time.go)
	{name: "fn_time_sql", dir: "testdata/spark/fn_time", path: "."},
	// the JSON functions (passes/funcs_json.go)
	{name: "json_sql", dir: "testdata/spark/json", path: "."},
	{name: "json_thund", dir: "testdata/spark/json", path: "pipeline.thund"},
	// streaming: windowed aggregates at the watermark's boundary
	{name: "streamwindow_thund", dir: "testdata/spark/streamwindow", path: "pipeline.thund"},
	{name: "streamwindow_sql", dir: "testdata/spark/streamwindow", path: "."},
	// functions: approx_count_distinct (passes/funcs_hll.go)
	{name: "fn_bits_sql", dir: "testdata/spark/fn_bits", path: "."},
	// the bitwise operators & | ^ ~ << >> >>> over every integer type
	{name: "bitwise_sql", dir: "testdata/spark/bitwise", path: "."},
	{name: "bitwise_thund", dir: "testdata/spark/bitwise", path: "pipeline.thund"},
	// collect_list and collect_set (passes/funcs_collect.go)
	{name: "collect_sql", dir: "testdata/spark/collect", path: ".", unordered: collectUnordered, targetSkip: collectTargetSkip},
	{name: "collect_thund", dir: "testdata/spark/collect", path: "pipeline.thund", unordered: collectUnordered, targetSkip: collectTargetSkip},
	// bad records in CSV and JSON lines: PERMISSIVE and DROPMALFORMED
	{name: "badrecords_sql", dir: "testdata/spark/badrecords", path: "."},
	{name: "badrecords_thund", dir: "testdata/spark/badrecords", path: "pipeline.thund"},
	// Iceberg sources: snapshot, time travel and stream reads of a table a
	// Thund warehouse published
	{name: "iceberg_source_thund", dir: "testdata/spark/iceberg_source", path: "pipeline.thund", prepare: icebergUpstream, iceberg: true},
	{name: "iceberg_source_sql", dir: "testdata/spark/iceberg_source", path: ".", prepare: icebergUpstream, iceberg: true},
}

// icebergUpstream builds and runs the iceberg_source case's upstream
// pipeline twice, a file more the second time: its warehouse's orders_st
// table gets two append snapshots, totals_mv an overwrite.
func icebergUpstream(t *testing.T, dir string) {
	t.Helper()
	thundc := laneThundc(t)
	up := filepath.Join(dir, "up")
	laneRun(t, up, nil, thundc, "build", "up.thund", "-o", "etl")
	laneRun(t, up, nil, filepath.Join(up, "etl"), "run", "--warehouse", "wh")
	if err := os.Rename(filepath.Join(up, "orders2.csv"), filepath.Join(up, "data", "orders2.csv")); err != nil {
		t.Fatal(err)
	}
	laneRun(t, up, nil, filepath.Join(up, "etl"), "run", "--warehouse", "wh")
}

// collectTargetSkip: Spark 4.1.4's collect_set keeps -0.0 and 0.0, and
// each NaN, as distinct values; 4.2.1 keeps one of each, as native does (as
// native's group by and dedup keys follow 4.2.1).
var collectTargetSkip = map[string]map[string]string{
	"spark-4.1": {"float_sets": "Spark 4.1 keeps -0.0 and 0.0, and each NaN, apart in collect_set; native follows Spark 4.2"},
}

// collectUnordered are the collect case's collect_set columns, whose
// order is Spark's hash order, and its DISTINCT collect_list's, whose
// order Spark's distinct aggregation (an Expand and a second aggregate)
// does not keep.
var collectUnordered = map[string][]string{
	"lists":      {"set_x", "set_s", "set_empty"},
	"float_sets": {"set_d"},
	"filtered":   {"dx", "set_true", "set_ds", "dd"},
	"global":     {"set_g"},
	"empty":      {"set_s"},
}

// nexmarkSkip: Spark refuses q7 as written (its stream read of q7_max
// declares a watermark: GraphReadWatermarks, spark_emit_nexmark.txtar),
// so the lane runs it as a join of a snapshot of q7_max, which the two
// engines read at different points of a run.
var nexmarkSkip = map[string]string{"q7": "run as a join of a snapshot of q7_max"}

// TestSparkLane runs every case on both engines and compares their tables.
func TestSparkLane(t *testing.T) {
	lane := testenv.Spark(t)
	thundc := laneThundc(t)
	remote, conn := laneConn(t, lane)
	for _, c := range laneCases {
		t.Run(c.name, func(t *testing.T) {
			// two at a time (GOMAXPROCS on CI): one case builds its
			// executable while the other runs on the server; each case
			// has a database of its own
			t.Parallel()
			if c.iceberg {
				testenv.SparkIceberg(t)
			}
			runLaneCase(t, lane, thundc, conn, remote, c)
		})
	}
}

// laneConn is a connection to the lane's server, closed when the test ends.
func laneConn(t *testing.T, lane testenv.SparkLane) (*sparkemit.Remote, *grpc.ClientConn) {
	t.Helper()
	remote, err := sparkemit.ParseRemote(lane.Remote)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := sparkemit.Dial(remote)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return remote, conn
}

// runLaneCase runs one case natively and on Spark and compares the tables.
func runLaneCase(t *testing.T, lane testenv.SparkLane, thundc string, conn *grpc.ClientConn, remote *sparkemit.Remote, c laneCase) {
	work := t.TempDir()
	copyExample(t, filepath.Join("..", "..", c.dir), work)
	if c.prepare != nil {
		c.prepare(t, work)
	}
	tables := laneTables(t, thundc, work, c.path)

	// native
	etl := filepath.Join(work, "etl")
	wh := filepath.Join(work, "lane-warehouse")
	laneRun(t, work, nil, thundc, "build", c.path, "-o", etl)
	laneRun(t, work, nil, etl, "run", "--warehouse", wh)
	native := map[string]*icebergcheck.Table{}
	for _, name := range tables {
		out := laneRun(t, work, nil, etl, "read", name, "--format", "parquet", "--warehouse", wh)
		native[name] = parquetTable(t, name, out, c.unordered[name]...)
	}

	// Spark
	db := "lane_" + c.name
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := sparkemit.Query(ctx, conn, remote, "DROP DATABASE IF EXISTS "+db+" CASCADE"); err != nil {
		t.Fatal(err)
	}
	if _, err := sparkemit.Query(ctx, conn, remote, "CREATE DATABASE "+db); err != nil {
		t.Fatal(err)
	}
	laneRun(t, work, nil, thundc, "spark", "run", c.path, "--remote", lane.Remote, "--target", lane.Target,
		"--database", db, "--storage", "file://"+filepath.Join(work, "spark-storage"),
		"--data-root", "file://"+work, "--expectations", "filter")
	for _, name := range tables {
		if why, ok := c.skip[name]; ok {
			t.Logf("%s: not compared: %s", name, why)
			continue
		}
		if why, ok := c.targetSkip[lane.Target][name]; ok {
			t.Logf("%s: not compared on %s: %s", name, lane.Target, why)
			continue
		}
		streams, err := sparkemit.Query(ctx, conn, remote, "SELECT * FROM "+db+"."+name)
		if err != nil {
			t.Fatalf("read %s from Spark: %v", name, err)
		}
		got := arrowStreams(t, name, streams, c.unordered[name]...)
		if diff := laneDiff(native[name], got); diff != "" {
			t.Errorf("%s: native (-) and Spark (+) differ:\n%s", name, diff)
		} else {
			t.Logf("%s: %d rows, the same on both engines", name, len(got.Rows))
		}
	}
}

// parquetTable is a native dataset (etl read --format parquet) as
// canonical rows (internal/icebergcheck's, the form every reader
// comparison shares); unordered are its columns of lists whose element
// order is not defined.
func parquetTable(t *testing.T, name string, data []byte, unordered ...string) *icebergcheck.Table {
	t.Helper()
	tb, err := icebergcheck.TableFromParquet(data, unordered)
	if err != nil {
		t.Fatalf("native %s: %v", name, err)
	}
	checkUnordered(t, name, tb)
	return tb
}

// arrowStreams is a table Spark returned (Arrow IPC streams) as canonical
// rows.
func arrowStreams(t *testing.T, name string, streams [][]byte, unordered ...string) *icebergcheck.Table {
	t.Helper()
	tb, err := icebergcheck.TableFromIPCStreams(streams, unordered)
	if err != nil {
		t.Fatalf("spark %s: %v", name, err)
	}
	checkUnordered(t, name, tb)
	return tb
}

// checkUnordered fails the test when an unordered column is not in tb.
func checkUnordered(t *testing.T, name string, tb *icebergcheck.Table) {
	t.Helper()
	for _, col := range tb.UnorderedLists {
		if !slices.ContainsFunc(tb.Columns, func(c string) bool { return strings.EqualFold(c, col) }) {
			t.Fatalf("%s: unordered column %s is not in the table (%v)", name, col, tb.Columns)
		}
	}
}

// laneDiff compares a native table with Spark's as multisets of rows: the
// same columns (by name, in any order, in any case), the same Arrow types,
// and the same values, floats within 1e-9 relative; "" when equal.
func laneDiff(native, spark *icebergcheck.Table) string {
	return icebergcheck.Diff(native, spark, icebergcheck.Options{
		FloatTolerance: 1e-9, Types: true, FoldCase: true, Want: "native", Got: "Spark"})
}

// TestSparkLaneFailure: a pipeline that ANSI mode fails fails on both
// engines with the same error class, and spark run exits 1 naming it.
func TestSparkLaneFailure(t *testing.T) {
	lane := testenv.Spark(t)
	thundc := laneThundc(t)
	work := t.TempDir()
	os.MkdirAll(filepath.Join(work, "data"), 0o755)
	os.WriteFile(filepath.Join(work, "data", "t.csv"), []byte("a,b\n1,0\n2,1\n"), 0o644)
	os.WriteFile(filepath.Join(work, "p.thund"), []byte(`pipeline lane_fails

source t from csv "data/t.csv" { a int64, b int64 }

materialized view q =
  from t
  | select a, a / b as r
`), 0o644)
	const class = "DIVIDE_BY_ZERO"
	laneRun(t, work, nil, thundc, "build", "p.thund", "-o", "etl")
	run := func(prog string, args ...string) string {
		cmd := exec.Command(prog, args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "THUND_CACHE="+testenv.ThundCache())
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("%s %v: %v, want exit status 1\n%s", filepath.Base(prog), args, err, out)
		}
		return string(out)
	}
	if out := run(filepath.Join(work, "etl"), "run", "--warehouse", filepath.Join(work, "wh")); !strings.Contains(out, "["+class+"]") {
		t.Errorf("native run: no [%s] in\n%s", class, out)
	}
	out := run(thundc, "spark", "run", "p.thund", "--remote", lane.Remote, "--target", lane.Target,
		"--storage", "file://"+filepath.Join(work, "spark-storage"), "--data-root", "file://"+work)
	if !strings.Contains(out, "thundc spark run: the update failed ("+class+")") || !strings.Contains(out, " FAILED\n") {
		t.Errorf("spark run: want the failed flow and the error class %s in\n%s", class, out)
	}
}
