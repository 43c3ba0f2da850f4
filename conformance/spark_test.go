//go:build spark

package conformance

// TestSparkConformance runs the corpus on the Spark lane's server (build
// tag spark; internal/testenv's THUND_TEST_SPARK_REMOTE and
// THUND_TEST_SPARK_TARGET) and compares every view with the native result
// that TestMain computed: one pipeline, two engines, one answer, with Spark
// 4 (ANSI on) as the reference.
//
//  1. The Spark copy. `thundc check --target T --expectations filter
//     --json` runs the passes for the target and lowers the corpus as
//     spark emit does; a construct the target cannot run is a positioned
//     [capability] diagnostic that refuses the whole pipeline, so the copy
//     leaves out exactly the views those diagnostics point into (err_*
//     views too), and each is logged with thundc's reason (a documented
//     refusal, not a finding). Any other diagnostic fails the test. The
//     copy also sets spark.sql.pipelines.maxFlowRetryAttempts to 0: the
//     err_* flows fail once instead of three times with a back-off, a
//     knob of the run, not of the results.
//  2. Two runs: `thundc spark run --json` of the copy into a fresh
//     database, reading the sources from TestMain's data, first without
//     the err_* views, then with only them, one flow at a time
//     (spark.sql.pipelines.execution.maxConcurrentFlows = 1): when a flow
//     fails, Spark may cancel the jobs of the flows running beside it
//     (SPARK_JOB_CANCELLED). The events give each flow's final state, and
//     a FAILED event carries the error class.
//  3. Every view that ran is read back as Arrow (SELECT * FROM db.view).
//     The columns must have the resolved types (the passes compute Spark's
//     types, so a difference is a finding), and the values compare with the
//     native result by the module's rules (values_test.go,
//     conformance_test.go): multisets for unordered views, the sort-key
//     sequence for ordered ones, floats within 1e-9 relative, decimals
//     exact, timestamps as UTC micros. A table has no order, so an ordered
//     view is read with its own ORDER BY (null order spelled out): where
//     the order decides the rows (a limit) the rows are Spark's; ties cut
//     by a limit must be legal rows of the unlimited query (DuckDB's, which
//     TestConformance checks against native). A view native does not build
//     (knownFailures) is compared with DuckDB instead, and says so.
//  4. Every err_* view must be FAILED on Spark with the error class the
//     native run reports (TestErrors checks native's); every other view
//     must be COMPLETED.
//
// A divergence fails its subtest unless knownFailures lists
// "TestSparkConformance/VIEW" (sparkKnownFailures below), which logs it as
// KNOWN FAILURE with both answers. THUND_CONFORMANCE_KEEP=1 keeps the
// Spark copy, its events and the database.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/google/uuid"

	"github.com/nordisk/thund/frontend/dsl"
	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/sparkemit"
)

// sparkKnownFailures are the divergences between Spark and native that are
// open: view → why. Each is logged as KNOWN FAILURE with both answers.
var sparkKnownFailures = map[string]string{
	// Both engines fail; only the error class differs, and not in a way
	// native can follow: Spark's SecondsToTimestamp multiplies with
	// Math.multiplyExact and lets java.lang.ArithmeticException ("long
	// overflow") escape, with no error class (a gap in Spark's own error
	// classes); native names ARITHMETIC_OVERFLOW, as Spark does for every
	// other long overflow.
	"err_timestamp_seconds_overflow": "Spark fails with a bare java.lang.ArithmeticException: long overflow (no error class), native with [ARITHMETIC_OVERFLOW] long overflow",
}

func init() {
	for view, why := range sparkKnownFailures {
		knownFailures["TestSparkConformance/"+view] = why
	}
}

// sparkRunConf is set on the Spark copy (see the file comment).
var sparkRunConf = []ir.KV{{Key: "spark.sql.pipelines.maxFlowRetryAttempts", Value: "0"}}

// sparkSide is what the Spark run left: each view's final state and, for a
// failed one, its error class and message.
type sparkSide struct {
	refused map[string]string // view → thundc's diagnostics
	state   map[string]string // view → its flow's final state
	class   map[string]string // view → the error class of its failure
	message map[string]string // view → the failure's message
}

func TestSparkConformance(t *testing.T) {
	needSetup(t)
	lane := testenv.Spark(t)
	start := time.Now()
	dir := filepath.Join(suite.work, "spark")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src, refused := sparkCopy(t, dir, lane.Target)
	copied := time.Now()

	remote, err := sparkemit.ParseRemote(lane.Remote)
	if err != nil {
		t.Fatal(err)
	}
	remote.SessionID = uuid.NewString() // one session for every query
	conn, err := sparkemit.Dial(remote)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Minute)
	defer cancel()
	// the process id keeps two runs against one server (two checkouts'
	// lanes) from dropping each other's database
	db := "conformance_" + strings.NewReplacer("-", "_", ".", "_").Replace(lane.Target) + "_" + strconv.Itoa(os.Getpid())
	query := func(sql string) [][]byte {
		t.Helper()
		out, err := sparkemit.Query(ctx, conn, remote, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return out
	}
	query("DROP DATABASE IF EXISTS " + db + " CASCADE")
	query("CREATE DATABASE " + db)
	if os.Getenv("THUND_CONFORMANCE_KEEP") == "" {
		t.Cleanup(func() {
			if _, err := sparkemit.Query(context.Background(), conn, remote, "DROP DATABASE IF EXISTS "+db+" CASCADE"); err != nil {
				t.Logf("drop %s: %v", db, err)
			}
		})
	}

	// The err_* views run apart from the others, one flow at a time: when
	// a flow fails, Spark may cancel the jobs of the flows running beside
	// it (SPARK_JOB_CANCELLED), which would fail a good view, or give an
	// err_* view the wrong class.
	views, errs := splitErrViews(t, src)
	sp := runSparkCopy(t, filepath.Join(dir, "views"), views, lane, db)
	if len(suite.errViews) > 0 {
		sp.add(runSparkCopy(t, filepath.Join(dir, "errors"), errs, lane, db))
	}
	sp.refused = refused
	ran := time.Now()

	for _, d := range suite.views {
		t.Run(d.Name, func(t *testing.T) {
			c := &check{t: t, name: d.Name}
			defer c.finish()
			compareSpark(c, d, sp, func(sql string) ([][]byte, error) { return sparkemit.Query(ctx, conn, remote, sql) }, db)
		})
	}
	for _, d := range suite.errViews {
		t.Run(d.Name, func(t *testing.T) {
			c := &check{t: t, name: d.Name}
			defer c.finish()
			if why := sp.refused[d.Name]; why != "" {
				t.Logf("refused by thundc check --target %s (documented refusal): %s", lane.Target, why)
				return
			}
			want := suite.expect[d.Name]
			switch st := sp.state[d.Name]; {
			case st != "FAILED":
				c.fail("Spark: flow %s, want FAILED with %s (native fails with it)", orNone(st), want)
			case sp.class[d.Name] != want:
				c.fail("Spark fails with %s, native with %s: %s", orNone(sp.class[d.Name]), want, errorLine(sp.message[d.Name]))
			}
		})
	}
	t.Logf("spark %s: %d views and %d err_* views in the corpus, %d refused by the lowering; copy %v, run %v, read and compare %v",
		lane.Target, len(suite.views), len(suite.errViews), len(refused),
		copied.Sub(start).Round(time.Millisecond), ran.Sub(copied).Round(time.Millisecond), time.Since(ran).Round(time.Millisecond))
}

// errorLine is the line of a failed flow's event that says why.
func errorLine(msg string) string {
	for _, l := range strings.Split(msg, "\n") {
		if e, ok := strings.CutPrefix(strings.TrimSpace(l), "Error: "); ok {
			return e
		}
	}
	return firstLine(msg)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return "exit: " + err.Error()
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// sparkCopy derives the Spark copy of the corpus: the views the lowering
// refuses left out, each with thundc's reasons.
func sparkCopy(t *testing.T, dir, target string) ([]byte, map[string]string) {
	t.Helper()
	src, err := pipelineSource()
	if err != nil {
		t.Fatal(err)
	}
	refused := map[string]string{}
	for attempt := 0; ; attempt++ {
		p, diags := dsl.Parse("pipeline.thund", src)
		if diags.HasErrors() {
			t.Fatalf("the Spark copy does not parse: %v", diags.Err())
		}
		file := filepath.Join(dir, "pipeline.thund")
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := thundcIn(dir, "check", "pipeline.thund", "--target", target, "--expectations", "filter", "--json")
		var res struct {
			OK          bool
			Diagnostics []struct {
				Line     int
				Severity string
				Code     string
				Message  string
			}
		}
		if jerr := json.Unmarshal(out, &res); jerr != nil {
			t.Fatalf("thundc check: %v, and its output is not JSON (%v):\n%s", err, jerr, out)
		}
		if res.OK {
			p.Conf = append(p.Conf, sparkRunConf...)
			return ir.Print(p), refused
		}
		if attempt > 3 {
			t.Fatalf("thundc check still refuses the copy:\n%s", out)
		}
		drop := map[string][]string{}
		for _, dg := range res.Diagnostics {
			if dg.Severity != "error" {
				continue
			}
			name := datasetAt(p, dg.Line)
			if dg.Code != "capability" || name == "" {
				t.Fatalf("thundc check --target %s: not a capability refusal of a view: line %d: %s [%s]", target, dg.Line, dg.Message, dg.Code)
			}
			drop[name] = append(drop[name], dg.Message)
		}
		for name, why := range drop {
			refused[name] = strings.Join(dedup(why), "; ")
		}
		src = ir.Print(without(p, drop))
	}
}

// splitErrViews splits the Spark copy in two: without the err_* views,
// and with only them (each reads only sources, as TestErrors runs each
// alone), one flow at a time.
func splitErrViews(t *testing.T, src []byte) (views, errs []byte) {
	t.Helper()
	p, diags := dsl.Parse("pipeline.thund", src)
	if diags.HasErrors() {
		t.Fatalf("the Spark copy does not parse: %v", diags.Err())
	}
	errNames, others := map[string][]string{}, map[string][]string{}
	for _, d := range suite.errViews {
		errNames[d.Name] = nil
	}
	for _, d := range p.Datasets {
		if _, isErr := errNames[d.Name]; !isErr && d.Kind == ir.KindMaterializedView {
			others[d.Name] = nil
		}
	}
	e := without(p, others)
	e.Conf = append(e.Conf, ir.KV{Key: "spark.sql.pipelines.execution.maxConcurrentFlows", Value: "1"})
	return ir.Print(without(p, errNames)), ir.Print(e)
}

// add merges another run's flows into sp.
func (sp *sparkSide) add(o *sparkSide) {
	for _, m := range [][2]map[string]string{{sp.state, o.state}, {sp.class, o.class}, {sp.message, o.message}} {
		for k, v := range m[1] {
			m[0][k] = v
		}
	}
}

// thundcIn runs the suite's thundc in dir; err is its exit.
func thundcIn(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(suite.work, "thundc"), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil && stderr.Len() > 0 {
		err = fmt.Errorf("%v: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, err
}

// runSparkCopy runs the copy once and reads each flow's final state from
// the --json events.
func runSparkCopy(t *testing.T, dir string, src []byte, lane testenv.SparkLane, db string) *sparkSide {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pipeline.thund"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := thundcIn(dir, "spark", "run", "pipeline.thund", "--remote", lane.Remote, "--target", lane.Target,
		"--database", db, "--storage", "file://"+filepath.Join(dir, "storage"),
		"--data-root", "file://"+suite.root, "--expectations", "filter", "--json")
	if err := os.WriteFile(filepath.Join(dir, "events.jsonl"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	sp := &sparkSide{state: map[string]string{}, class: map[string]string{}, message: map[string]string{}}
	var summary struct {
		Summary    bool
		OK         bool
		Flows      map[string]string
		ErrorClass string `json:"error_class"`
		Error      string
	}
	for _, l := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var ev struct {
			Summary    bool
			Flow       string
			State      string
			Message    string
			ErrorClass string `json:"error_class"`
		}
		if err := json.Unmarshal(l, &ev); err != nil {
			t.Fatalf("thundc spark run --json: %v in %q", err, l)
		}
		if ev.Summary {
			json.Unmarshal(l, &summary)
			continue
		}
		if v := flowView(ev.Flow); v != "" && ev.State == "FAILED" && sp.class[v] == "" {
			sp.class[v], sp.message[v] = ev.ErrorClass, ev.Message
		}
	}
	if !summary.Summary {
		t.Fatalf("thundc spark run: no summary line (%v):\n%s", err, tail(out))
	}
	for flow, st := range summary.Flows {
		sp.state[flowView(flow)] = st
	}
	// err_* views fail, so the run does; say so once, and fail only when
	// the run failed in another way
	failed := 0
	for _, st := range sp.state {
		if st == "FAILED" {
			failed++
		}
	}
	t.Logf("thundc spark run: %d flows, %d FAILED (the run's error class: %s), %v", len(sp.state), failed, orNone(summary.ErrorClass), orNone(errText(err)))
	if failed == 0 && (err != nil || !summary.OK) {
		t.Fatalf("thundc spark run failed with no failed flow: %v (%s)\n%s", err, summary.Error, tail(out))
	}
	return sp
}

// flowView is the view a flow's qualified name (catalog.db.flow) writes.
func flowView(flow string) string {
	if i := strings.LastIndexByte(flow, '.'); i >= 0 {
		flow = flow[i+1:]
	}
	return strings.ToLower(strings.Trim(flow, "`"))
}

func tail(b []byte) string {
	if len(b) > 3000 {
		b = b[len(b)-3000:]
	}
	return string(b)
}

// compareSpark reads one view from Spark and compares it with native (or,
// when native has no result, with DuckDB).
func compareSpark(c *check, d *ir.Dataset, sp *sparkSide, query func(string) ([][]byte, error), db string) {
	if why := sp.refused[d.Name]; why != "" {
		c.t.Logf("refused by thundc check (documented refusal): %s", why)
		return
	}
	if st := sp.state[d.Name]; st != "COMPLETED" {
		c.fail("Spark: flow %s, want COMPLETED: %s", orNone(st), errorLine(sp.message[d.Name]))
		return
	}
	names, types := outputSchema(d)
	ord, err := orderOf(suite.unit, flowOf(d).Query)
	if err != nil {
		c.fail("conformance query shape: %v", err)
		return
	}
	sql := "SELECT * FROM " + db + "." + sparkIdent(d.Name)
	if ord != nil && ord.sort != nil {
		var keys []string
		for _, k := range ord.keys {
			keys = append(keys, sparkIdent(names[k.col])+orderSuffix(k.desc, k.nullsFirst))
		}
		sql += " ORDER BY " + strings.Join(keys, ", ")
	}
	streams, err := query(sql)
	if err != nil {
		c.fail("read from Spark: %v", err)
		return
	}
	got, err := arrowRows(c, streams, names, types)
	if err != nil {
		c.fail("Spark's result: %v", err)
		return
	}
	s := sides{got: "Spark", want: "native"}
	var want []row
	switch {
	case suite.refused[d.Name] != "" || suite.runErr[0][d.Name] != "":
		// native has no result (a known failure of TestConformance): the
		// reference is DuckDB's
		s.want = "DuckDB"
		c.note("native has no result (%s%s): compared with DuckDB", suite.refused[d.Name], suite.runErr[0][d.Name])
		var keys []orderKey
		if ord != nil {
			keys = ord.keys
		}
		q, _, err := flowSQL(suite.unit, d, nil, keys)
		if err == nil {
			want, err = suite.duck.query(q, types)
		}
		if err != nil {
			c.fail("duckdb: %v", err)
			return
		}
	default:
		if want, err = parseJSONL(suite.out[0][d.Name], names, types); err != nil {
			c.fail("read native output: %v", err)
			return
		}
	}
	unlimited, err := duckUnlimited(d, ord, types)
	if err != nil {
		c.fail("%v", err)
		return
	}
	compareRows(c, ord, got, want, unlimited, types, s)
	if len(c.problems) > 0 {
		c.note("Spark SQL: %s", sql)
	}
}

// sparkIdent back-quotes a Spark identifier.
func sparkIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// arrowRows parses Spark's Arrow result: the columns must be the view's,
// with Spark types equal to the resolved ones (a difference is a problem of
// the check, and the values are still compared).
func arrowRows(c *check, streams [][]byte, names []string, types []ir.Type) ([]row, error) {
	var out []row
	var idx []int
	for _, s := range streams {
		r, err := ipc.NewReader(bytes.NewReader(s))
		if err != nil {
			return nil, err
		}
		if idx == nil {
			fields := r.Schema().Fields()
			if len(fields) != len(names) {
				return nil, fmt.Errorf("%d columns %v, want %d %v", len(fields), fieldNames(fields), len(names), names)
			}
			for i, n := range names {
				j := -1
				for k, f := range fields {
					if strings.EqualFold(f.Name, n) {
						j = k
					}
				}
				if j < 0 {
					return nil, fmt.Errorf("no column %s in %v", n, fieldNames(fields))
				}
				idx = append(idx, j)
				if !arrowTypeIs(fields[j].Type, types[i]) {
					c.fail("column %s: Spark's type %s, the resolved type %s", n, fields[j].Type, types[i])
				}
			}
		}
		for r.Next() {
			rec := r.RecordBatch()
			for i := 0; i < int(rec.NumRows()); i++ {
				rw := make(row, len(names))
				for k, j := range idx {
					v, err := fromArrow(rec.Column(j), i, types[k])
					if err != nil {
						return nil, fmt.Errorf("column %s: %v", names[k], err)
					}
					rw[k] = v
				}
				out = append(out, rw)
			}
		}
		if err := r.Err(); err != nil {
			return nil, err
		}
		r.Release()
	}
	return out, nil
}

func fieldNames(fs []arrow.Field) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return out
}

// arrowTypeIs reports whether an Arrow type from Spark is the Spark type
// the passes resolved.
func arrowTypeIs(dt arrow.DataType, t ir.Type) bool {
	if t.Kind == ir.TUnknown {
		return dt.ID() == arrow.NULL
	}
	got, err := ir.FromArrow(dt)
	if err != nil {
		return false
	}
	if t.Kind == ir.TTimestamp && got.Kind == ir.TTimestamp {
		// Spark's timestamps are microseconds whatever the resolved unit
		// (the lowering maps every unit to them): the zone decides between
		// TIMESTAMP and TIMESTAMP_NTZ
		return (got.Zone == "") == (t.Zone == "")
	}
	return got == t
}

// fromArrow converts one Arrow value to the canonical value of type t.
func fromArrow(col arrow.Array, i int, t ir.Type) (val, error) {
	if col.IsNull(i) {
		return val{k: kNull}, nil
	}
	if t.IsNested() {
		return nestedFromArrow(col, i, t) // values_nested_test.go
	}
	switch a := col.(type) {
	case *array.Boolean:
		return boolVal(a.Value(i)), nil
	case *array.Int8:
		return val{k: kInt, i: int64(a.Value(i))}, nil
	case *array.Int16:
		return val{k: kInt, i: int64(a.Value(i))}, nil
	case *array.Int32:
		return val{k: kInt, i: int64(a.Value(i))}, nil
	case *array.Int64:
		return val{k: kInt, i: a.Value(i)}, nil
	case *array.Float32:
		return val{k: kFloat, f: float64(a.Value(i))}, nil
	case *array.Float64:
		return val{k: kFloat, f: a.Value(i)}, nil
	case *array.Decimal128:
		scale := int(a.DataType().(*arrow.Decimal128Type).Scale)
		n := a.Value(i).BigInt()
		if t.Kind != ir.TDecimal || scale == t.Scale {
			return val{k: kDec, s: n.String()}, nil
		}
		// another scale than the resolved type's (a failed type check):
		// at the resolved scale when exact, else as text so it differs
		r := new(big.Rat).SetFrac(n, bigPow10(scale))
		r.Mul(r, new(big.Rat).SetInt(bigPow10(t.Scale)))
		if r.IsInt() {
			return val{k: kDec, s: r.Num().String()}, nil
		}
		return val{k: kStr, s: decString(n, scale)}, nil
	case *array.String:
		return val{k: kStr, s: a.Value(i)}, nil
	case *array.LargeString:
		return val{k: kStr, s: a.Value(i)}, nil
	case *array.Date32:
		return val{k: kInt, i: int64(a.Value(i))}, nil
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		return val{k: kInt, i: a.Value(i).ToTime(unit).UnixMicro()}, nil
	case *array.List: // an ARRAY (aggregate family: collect_list, collect_set)
		start, end := a.ValueOffsets(i)
		out := val{k: kList}
		for j := start; j < end; j++ {
			e, err := fromArrow(a.ListValues(), int(j), t.Elem())
			if err != nil {
				return val{}, err
			}
			out.l = append(out.l, e)
		}
		return out, nil
	}
	return val{}, fmt.Errorf("unexpected Arrow %s for %s", col.DataType(), t)
}

func bigPow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }
