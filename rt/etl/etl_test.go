package etl

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/run"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/warehouse"
)

var bidsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "auction", Type: arrow.PrimitiveTypes.Int64},
	{Name: "price", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

// filterRun is what generated code would do for
//
//	from INPUT | where price > min    (min == MinInt64: every row)
//	expect positive: price IS NULL OR price >= 0   (when expect is set)
//
// It reads its input, counts rows in, and emits one batch per input batch.
func filterRun(input string, min int64, expect bool) func(fc *FlowContext) error {
	return func(fc *FlowContext) error {
		return fc.EachBatch(input, func(rec arrow.RecordBatch) error {
			auction, price := rec.Column(0).(*array.Int64), rec.Column(1).(*array.Int64)
			b := array.NewRecordBuilder(fc.Mem, bidsSchema)
			var passed, failed int64
			for i := 0; i < int(rec.NumRows()); i++ {
				if expect {
					ok := price.IsNull(i) || price.Value(i) >= 0
					if ok {
						passed++
					} else {
						failed++
						if fc.Expect(0).Action == run.Drop {
							continue
						}
					}
				}
				if min != math.MinInt64 && (price.IsNull(i) || price.Value(i) <= min) {
					continue
				}
				b.Field(0).(*array.Int64Builder).Append(auction.Value(i))
				if price.IsNull(i) {
					b.Field(1).AppendNull()
				} else {
					b.Field(1).(*array.Int64Builder).Append(price.Value(i))
				}
			}
			if expect {
				fc.Expect(0).Add(passed, failed)
			}
			out := b.NewRecordBatch()
			b.Release()
			rec.Release()
			err := fc.Emit(out)
			out.Release()
			return err
		})
	}
}

type pipeOpts struct {
	action run.Action         // of high_bids' expectation
	defs   map[string]string  // Definition overrides
	sink   string             // "", or the format of sink export (csv, stdout)
	hook   func(*FlowContext) // called at the start of high_bids' flow
	stdin  bool               // add source feed (Arrow IPC on stdin) and feed_copy
	once   bool               // add source old_bids and a once flow from it into bids_log
	mode   string             // bids' mode option (malformed records), "" for the default
}

// testPipeline is, in the DSL's words:
//
//	source bids from csv "data/bids/*.csv" { auction int64, price int64 }
//	materialized view high_bids = from bids | where price > 10
//	  expect positive: price >= 0 on violation <action>
//	materialized view top = from high_bids | where price > 100
//	streaming table bids_log = from stream bids
//	temporary view recent = from bids_log
//	materialized view log_copy = from recent
//	sink export (csv, path "out/export") = from stream bids_log      (optional)
func testPipeline(o pipeOpts) *Pipeline {
	def := func(name, text string) string {
		if d, ok := o.defs[name]; ok {
			return d
		}
		return text
	}
	hi := filterRun("bids", 10, true)
	highRun := hi
	if o.hook != nil {
		highRun = func(fc *FlowContext) error {
			o.hook(fc)
			return hi(fc)
		}
	}
	all := int64(math.MinInt64)
	var bidsOpts [][2]string
	if o.mode != "" {
		bidsOpts = [][2]string{{"mode", o.mode}}
	}
	p := &Pipeline{Name: "auctions", File: "auctions.thund", Compiler: "v0.0.0-test", Datasets: []*Dataset{
		{Name: "bids", Kind: Source, Schema: bidsSchema,
			Source:     &FileSource{Format: "csv", Patterns: []string{"data/bids/*.csv"}, Options: bidsOpts},
			Definition: def("bids", `source bids from csv "data/bids/*.csv" { auction int64, price int64 }`)},
		{Name: "high_bids", Kind: MaterializedView, Schema: bidsSchema,
			Expectations: []Expectation{{Name: "positive", Action: o.action}},
			Flows:        []*Flow{{Name: "high_bids", Inputs: []Input{{Name: "bids"}}, Run: highRun}},
			Definition:   def("high_bids", "materialized view high_bids = from bids | where price > 10")},
		{Name: "top", Kind: MaterializedView, Schema: bidsSchema,
			Flows:      []*Flow{{Name: "top", Inputs: []Input{{Name: "high_bids"}}, Run: filterRun("high_bids", 100, false)}},
			Definition: def("top", "materialized view top = from high_bids | where price > 100")},
		{Name: "bids_log", Kind: StreamingTable, Schema: bidsSchema,
			Flows:      []*Flow{{Name: "bids_log", Inputs: []Input{{Name: "bids", Stream: true}}, Run: filterRun("bids", all, false)}},
			Definition: def("bids_log", "streaming table bids_log = from stream bids")},
		{Name: "recent", Kind: TemporaryView, Schema: bidsSchema,
			Flows:      []*Flow{{Name: "recent", Inputs: []Input{{Name: "bids_log"}}, Run: filterRun("bids_log", all, false)}},
			Definition: def("recent", "temporary view recent = from bids_log")},
		{Name: "log_copy", Kind: MaterializedView, Schema: bidsSchema,
			Flows:      []*Flow{{Name: "log_copy", Inputs: []Input{{Name: "recent"}}, Run: filterRun("recent", all, false)}},
			Definition: def("log_copy", "materialized view log_copy = from recent")},
	}}
	if o.once {
		old := &Dataset{Name: "old_bids", Kind: Source, Schema: bidsSchema,
			Source:     &FileSource{Format: "csv", Patterns: []string{"data/old/*.csv"}},
			Definition: `source old_bids from csv "data/old/*.csv" { auction int64, price int64 }`}
		p.Datasets = append([]*Dataset{old}, p.Datasets...)
		log := p.Datasets[4]
		log.Flows = append([]*Flow{{Name: "backfill", Once: true, Inputs: []Input{{Name: "old_bids"}}, Run: filterRun("old_bids", all, false)}}, log.Flows...)
	}
	if o.sink != "" {
		p.Datasets = append(p.Datasets, &Dataset{Name: "export", Kind: Sink, Schema: bidsSchema, Format: o.sink,
			SinkOptions: [][2]string{{"path", "out/export"}},
			Flows:       []*Flow{{Name: "export", Inputs: []Input{{Name: "bids_log", Stream: true}}, Run: filterRun("bids_log", all, false)}},
			Definition:  def("export", "sink export = from stream bids_log")})
	}
	if o.stdin {
		p.Datasets = append(p.Datasets,
			&Dataset{Name: "feed", Kind: Source, Schema: bidsSchema, Source: &FileSource{Format: "arrow", Stdin: true},
				Definition: "source feed from stdin arrow"},
			&Dataset{Name: "feed_copy", Kind: MaterializedView, Schema: bidsSchema,
				Flows:      []*Flow{{Name: "feed_copy", Inputs: []Input{{Name: "feed"}}, Run: filterRun("feed", all, false)}},
				Definition: "materialized view feed_copy = from feed"})
	}
	return p
}

// env is a root folder with data/ and a warehouse, and a deterministic clock
// and run ids.
type env struct {
	t     *testing.T
	mem   *memory.CheckedAllocator
	root  string
	wh    string
	now   time.Time
	seq   int
	stdin io.Reader
	last  string // the last run id handed out
	// openS3, when set, is every pipeline's OpenS3 (a warehouse on S3).
	openS3 func(context.Context, string) (store.FS, error)
}

func newEnv(t *testing.T) *env {
	t.Helper()
	root := t.TempDir()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	return &env{t: t, mem: mem, root: root, wh: filepath.Join(root, "warehouse"), now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (e *env) write(name, text string) {
	e.t.Helper()
	p := filepath.Join(e.root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// exec runs the command line as given (no flags added).
func (e *env) exec(ctx context.Context, p *Pipeline, args ...string) (int, string, string) {
	e.t.Helper()
	e.seq++
	e.last = fmt.Sprintf("20260102T030405Z-run%05d", e.seq)
	var out, errb bytes.Buffer
	stdin := e.stdin
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	if e.openS3 != nil {
		p.OpenS3 = e.openS3
	}
	c := &cli{p: p, stdin: stdin, stdout: &out, stderr: &errb, runID: e.last, live: -1, mem: e.mem,
		now: func() time.Time { e.now = e.now.Add(250 * time.Millisecond); return e.now }}
	code := c.main(ctx, args)
	return code, out.String(), errb.String()
}

// etl runs a command with --warehouse and --root added.
func (e *env) etl(p *Pipeline, args ...string) (int, string, string) {
	e.t.Helper()
	return e.exec(context.Background(), p, append(args, "--warehouse", e.wh, "--root", e.root)...)
}

// mustRun runs `run ARGS` and wants exit 0; it returns the run id.
func (e *env) mustRun(p *Pipeline, args ...string) string {
	e.t.Helper()
	code, _, stderr := e.etl(p, append([]string{"run"}, args...)...)
	if code != 0 {
		e.t.Fatalf("run %v: exit %d\n%s", args, code, stderr)
	}
	return e.last
}

func (e *env) read(p *Pipeline, name string, args ...string) string {
	e.t.Helper()
	code, out, stderr := e.etl(p, append([]string{"read", name}, args...)...)
	if code != 0 {
		e.t.Fatalf("read %s: exit %d\n%s", name, code, stderr)
	}
	return out
}

func (e *env) events(runID string) []events.Event {
	e.t.Helper()
	evs, err := events.LoadRun(context.Background(), &store.Local{Root: e.wh}, runID)
	if err != nil {
		e.t.Fatal(err)
	}
	return evs
}

// nothingToDo checks that run runID had nothing to do: it wrote no event
// log, and the head is still epoch head.
func (e *env) nothingToDo(runID string, head int64) {
	e.t.Helper()
	if _, err := os.Stat(filepath.Join(e.wh, "_thund", "events", runID+".jsonl")); err == nil {
		e.t.Errorf("run %s had nothing to do, yet wrote an event log", runID)
	}
	if now := e.head(); now != head {
		e.t.Errorf("run %s had nothing to do, yet committed epoch %d", runID, now)
	}
}

// head is the warehouse's latest epoch (0: none).
func (e *env) head() int64 {
	e.t.Helper()
	st, err := warehouse.New(&store.Local{Root: e.wh}).Load(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return st.NextEpoch - 1
}

// mustNoOp runs `run ARGS`, which must have nothing to do: exit 0, no
// commit, no event log. It returns the run id.
func (e *env) mustNoOp(p *Pipeline, args ...string) string {
	e.t.Helper()
	head := e.head()
	id := e.mustRun(p, args...)
	e.nothingToDo(id, head)
	return id
}

// jsonEvents parses the events `run --json` wrote to stdout.
func (e *env) jsonEvents(stdout string) []events.Event {
	e.t.Helper()
	var out []events.Event
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var ev events.Event
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			e.t.Fatalf("run --json: %v: %s", err, line)
		}
		out = append(out, ev)
	}
	return out
}

// built lists the datasets whose flows started in a run, in order.
func (e *env) built(runID string) string { return builtOf(e.events(runID)) }

// builtOf lists the datasets whose flows started, in order.
func builtOf(evs []events.Event) string {
	var out []string
	seen := map[string]bool{}
	for _, ev := range evs {
		if ev.EventType == events.TypeFlowStart && !seen[ev.Origin.Dataset] {
			seen[ev.Origin.Dataset] = true
			out = append(out, ev.Origin.Dataset)
		}
	}
	return strings.Join(out, " ")
}

// decisions renders a run's staleness events, one per line.
func (e *env) decisions(runID string) string { return decisionsOf(e.events(runID)) }

// decisionsOf renders staleness events, one per line.
func decisionsOf(evs []events.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		if ev.EventType == events.TypeStaleness {
			var s events.Staleness
			ev.Payload(&s)
			fmt.Fprintf(&b, "%s %s: %s\n", ev.Origin.Dataset, s.Decision, s.Reason)
		}
	}
	return b.String()
}

func (e *env) flowRows(runID, flow string) (in, out int64) {
	for _, ev := range e.events(runID) {
		if ev.EventType == events.TypeFlowEnd && ev.Origin.Flow == flow {
			var fe events.FlowEnd
			ev.Payload(&fe)
			return fe.RowsIn, fe.RowsOut
		}
	}
	return -1, -1
}

func diffText(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\n--- got\n%s--- want\n%s", what, got, want)
	}
}

const bidsA = "auction,price\n1,5\n2,50\n3,-1\n4,\n5,500\n"

func TestRunReadAndNoOpRerun(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", bidsA)
	p := testPipeline(pipeOpts{action: run.Drop})

	// run
	code, stdout, stderr := e.etl(p, "run", "--threads", "3")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout without --json: %q", stdout)
	}
	first := e.last
	wantStderr := `bids: stale, never read
high_bids: stale, never built
flow high_bids: 5 rows in, 2 rows out
top: stale, never built
flow top: 2 rows in, 1 rows out
bids_log: stale, never built
flow bids_log: 5 rows in, 5 rows out
recent: stale, never built
log_copy: stale, never built
flow recent: 5 rows in, 5 rows out
flow log_copy: 5 rows in, 5 rows out
run 20260102T030405Z-run00001 of auctions: completed in D, committed epoch 1
  flow high_bids: 5 rows in, 2 rows out
    expect positive (drop): 4 passed, 1 dropped
  flow top: 2 rows in, 1 rows out
  flow bids_log: 5 rows in, 5 rows out
  flow log_copy: 5 rows in, 5 rows out
  flow recent: 5 rows in, 5 rows out
  threads 3; rebuilt: high_bids, top, bids_log, log_copy; late rows dropped: 0
`
	diffText(t, "stderr", regexp.MustCompile(`in [0-9.]+m?s,`).ReplaceAllString(stderr, "in D,"), wantStderr)

	// read: golden CSV, stored order
	diffText(t, "read high_bids", e.read(p, "high_bids"), "auction,price\n2,50\n5,500\n")
	diffText(t, "read top", e.read(p, "top"), "auction,price\n5,500\n")
	diffText(t, "read bids_log", e.read(p, "bids_log"), bidsA)
	diffText(t, "read log_copy --format jsonl", e.read(p, "log_copy", "--format", "jsonl"),
		`{"auction":1,"price":5}
{"auction":2,"price":50}
{"auction":3,"price":-1}
{"auction":4,"price":null}
{"auction":5,"price":500}
`)

	// rerun is a no-op: every dataset fresh, no flow started (its events,
	// with --json); it commits nothing and writes no event log
	code, stdout, stderr = e.etl(p, "run", "--json")
	second := e.last
	if code != 0 || !strings.Contains(stderr, "completed in ") || !strings.Contains(stderr, "nothing to do; nothing committed (epoch 1 stands)") {
		t.Errorf("rerun: exit %d\n%s", code, stderr)
	}
	e.nothingToDo(second, 1)
	rerun := e.jsonEvents(stdout)
	if got := builtOf(rerun); got != "" {
		t.Errorf("rerun built %q", got)
	}
	diffText(t, "rerun decisions", decisionsOf(rerun), `bids fresh: no new files since epoch 1
high_bids fresh: unchanged since epoch 1
top fresh: unchanged since epoch 1
bids_log fresh: unchanged since epoch 1
recent fresh: unchanged since epoch 1
log_copy fresh: unchanged since epoch 1
`)
	skipped := 0
	for _, ev := range rerun {
		var fp events.FlowProgress
		if ev.EventType == events.TypeFlowProgress && ev.Payload(&fp) == nil && fp.Status == "skipped" {
			skipped++
		}
	}
	if skipped != 4 {
		t.Errorf("rerun: %d skipped flows, want 4", skipped)
	}
	if got := e.built(first); got != "high_bids top bids_log log_copy recent" {
		t.Errorf("first run built %q", got)
	}
	diffText(t, "read high_bids after rerun", e.read(p, "high_bids"), "auction,price\n2,50\n5,500\n")
	// and the plan agrees
	_, plan, _ := e.etl(p, "plan")
	if strings.Contains(plan, "stale") {
		t.Errorf("plan after rerun:\n%s", plan)
	}
}

func TestDefinitionChangeRebuildsDownstreamOnly(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", bidsA)
	e.mustRun(testPipeline(pipeOpts{action: run.Drop}))

	p := testPipeline(pipeOpts{action: run.Drop, defs: map[string]string{"high_bids": "materialized view high_bids = from bids | where price > 11"}})
	code, plan, _ := e.etl(p, "plan")
	if code != 0 {
		t.Fatalf("plan exit %d", code)
	}
	diffText(t, "plan", plan, `bids       fresh  no new files since epoch 1
high_bids  stale  definition changed
top        stale  input high_bids will change (the run rebuilds it first)
bids_log   fresh  unchanged since epoch 1
recent     fresh  unchanged since epoch 1
log_copy   fresh  unchanged since epoch 1
source files compared by size and modification time, and by content up to 1 MiB outside watched folders (--fingerprint auto)
`)
	id := e.mustRun(p)
	if got := e.built(id); got != "high_bids top" {
		t.Errorf("built %q, want high_bids top", got)
	}
	diffText(t, "decisions", e.decisions(id), `bids fresh: no new files since epoch 1
high_bids stale: definition changed
top stale: input high_bids changed (rebuilt by this run)
bids_log fresh: unchanged since epoch 1
recent fresh: unchanged since epoch 1
log_copy fresh: unchanged since epoch 1
`)
	// a definition change of a temporary view makes its readers stale
	p = testPipeline(pipeOpts{action: run.Drop, defs: map[string]string{
		"high_bids": "materialized view high_bids = from bids | where price > 11",
		"recent":    "temporary view recent = from bids_log | select *"}})
	id = e.mustRun(p)
	if got := e.built(id); got != "log_copy recent" {
		t.Errorf("after the view changed, built %q, want recent log_copy", got)
	}
	e.mustNoOp(p)
	// a dataset left stale by a selection says which version it read
	p = testPipeline(pipeOpts{action: run.Drop, defs: map[string]string{"high_bids": "v3"}})
	e.mustRun(p, "--select", "high_bids")
	_, plan, _ = e.etl(p, "plan")
	if !strings.Contains(plan, "top        stale  input high_bids changed (built from version 2, now version 3)\n") {
		t.Errorf("plan:\n%s", plan)
	}
}

func TestNewFilesAndStreamReads(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", bidsA)
	p := testPipeline(pipeOpts{action: run.Drop, sink: "csv"})
	e.mustRun(p)
	diffText(t, "sink after run 1", readSink(t, e), "part-000001-run00001.csv\nauction,price\n1,5\n2,50\n3,-1\n4,\n5,500\n")

	e.write("data/bids/b.csv", "auction,price\n6,60\n7,7\n")
	_, plan, _ := e.etl(p, "plan")
	diffText(t, "plan", plan, `bids       stale  new files (1: data/bids/b.csv)
high_bids  stale  new files in bids (1: data/bids/b.csv)
top        stale  input high_bids will change (the run rebuilds it first)
bids_log   stale  new files in bids (1: data/bids/b.csv)
recent     stale  input bids_log will change (the run rebuilds it first)
log_copy   stale  input recent changed
export     stale  input bids_log will change (the run rebuilds it first)
source files compared by size and modification time, and by content up to 1 MiB outside watched folders (--fingerprint auto)
`)
	id := e.mustRun(p)
	// the stream read of bids read only the new file
	if in, out := e.flowRows(id, "bids_log"); in != 2 || out != 2 {
		t.Errorf("bids_log read %d rows, wrote %d; want 2 and 2", in, out)
	}
	// the snapshot read of bids read everything
	if in, _ := e.flowRows(id, "high_bids"); in != 7 {
		t.Errorf("high_bids read %d rows, want 7", in)
	}
	// the sink's stream read of bids_log got only the appended rows
	if in, _ := e.flowRows(id, "export"); in != 2 {
		t.Errorf("export read %d rows, want 2", in)
	}
	diffText(t, "bids_log", e.read(p, "bids_log"), bidsA+"6,60\n7,7\n")
	diffText(t, "log_copy", e.read(p, "log_copy"), bidsA+"6,60\n7,7\n")
	diffText(t, "high_bids", e.read(p, "high_bids"), "auction,price\n2,50\n5,500\n6,60\n")
	diffText(t, "sink after run 2", readSink(t, e),
		"part-000001-run00001.csv\nauction,price\n1,5\n2,50\n3,-1\n4,\n5,500\n"+
			"part-000002-run00003.csv\nauction,price\n6,60\n7,7\n")
	decisions := e.decisions(id)
	for _, want := range []string{"bids stale: new files (1: data/bids/b.csv)\n", "bids_log stale: new files in bids (1: data/bids/b.csv)\n",
		"export stale: input bids_log changed (2 new rows)\n", "log_copy stale: input recent changed\n"} {
		if !strings.Contains(decisions, want) {
			t.Errorf("decisions lack %q:\n%s", want, decisions)
		}
	}
	// nothing new: a no-op, and the sink writes no file
	e.mustNoOp(p)
	if got := readSink(t, e); strings.Count(got, "part-") != 2 {
		t.Errorf("sink files after a no-op run:\n%s", got)
	}

	// a modified file: a snapshot reader recomputes, a stream reader does not read it again
	e.write("data/bids/a.csv", bidsA+"8,80\n")
	os.Chtimes(filepath.Join(e.root, "data/bids/a.csv"), time.Now(), time.Now().Add(time.Hour))
	_, plan, _ = e.etl(p, "plan")
	if !strings.Contains(plan, "high_bids  stale  input bids changed (data/bids/a.csv modified)") ||
		!strings.Contains(plan, "bids_log   fresh") {
		t.Errorf("plan after a modification:\n%s", plan)
	}
	id = e.mustRun(p)
	found := false
	for _, ev := range e.events(id) {
		var w events.Warning
		if ev.EventType == events.TypeWarning && ev.Payload(&w) == nil && strings.Contains(w.Message, "data/bids/a.csv changed after flow bids_log read it") {
			found = true
		}
	}
	if found {
		t.Errorf("bids_log did not run, yet warned")
	}
	diffText(t, "high_bids after modification", e.read(p, "high_bids"), "auction,price\n2,50\n5,500\n8,80\n6,60\n")

	// a full refresh of bids_log rewrites it: its stream reader (the sink)
	// starts over, and says why
	e.mustRun(p, "--full-refresh", "bids_log")
	_, plan, _ = e.etl(p, "plan")
	if !strings.Contains(plan, "export     stale  input bids_log changed (rewritten, not appended: recomputing from the start)") ||
		!strings.Contains(plan, "log_copy   stale  input recent changed (not selected)") && !strings.Contains(plan, "log_copy   stale  input recent changed\n") {
		t.Errorf("plan after a full refresh:\n%s", plan)
	}
	id = e.mustRun(p)
	if in, _ := e.flowRows(id, "export"); in != 8 {
		t.Errorf("export read %d rows after the rewrite, want 8", in)
	}
}

// readSink lists the sink folder: each file's name, then its content.
func readSink(t *testing.T, e *env) string {
	t.Helper()
	dir := filepath.Join(e.root, "out", "export")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "error: " + err.Error()
	}
	var names []string
	for _, de := range ents {
		names = append(names, de.Name())
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		data, _ := os.ReadFile(filepath.Join(dir, n))
		b.WriteString(n + "\n")
		b.Write(data)
	}
	return b.String()
}

func TestFullRefreshAndRefresh(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", bidsA)
	p := testPipeline(pipeOpts{action: run.Drop})
	e.mustRun(p)
	e.write("data/bids/b.csv", "auction,price\n6,60\n")
	e.mustRun(p)

	// --full-refresh bids_log: a new version with every file read once; only it is selected
	_, plan, _ := e.etl(p, "plan", "--full-refresh", "bids_log")
	diffText(t, "plan --full-refresh", plan, `bids       fresh  no new files since epoch 2
high_bids  fresh  unchanged since epoch 2
top        fresh  unchanged since epoch 2
bids_log   stale  full refresh requested
recent     stale  input bids_log will change (the run rebuilds it first)
log_copy   stale  input recent changed (not selected)
source files compared by size and modification time, and by content up to 1 MiB outside watched folders (--fingerprint auto)
`)
	id := e.mustRun(p, "--full-refresh", "bids_log")
	if got := e.built(id); got != "bids_log" {
		t.Errorf("built %q", got)
	}
	if in, _ := e.flowRows(id, "bids_log"); in != 6 {
		t.Errorf("full refresh read %d rows, want 6", in)
	}
	diffText(t, "bids_log", e.read(p, "bids_log"), bidsA+"6,60\n")
	// versions: 1 (a), 2 (a+b), 3 (rewritten)
	diffText(t, "bids_log v1", e.read(p, "bids_log", "--version", "1"), bidsA)
	// log_copy was left stale; a plain run catches up
	id = e.mustRun(p)
	if got := e.built(id); got != "log_copy recent" {
		t.Errorf("catch-up built %q", got)
	}

	// --refresh top: forced even though fresh, and nothing else
	id = e.mustRun(p, "--refresh", "top")
	if got := e.built(id); got != "top" {
		t.Errorf("--refresh top built %q", got)
	}
	if !strings.Contains(e.decisions(id), "top stale: refresh requested\n") {
		t.Errorf("decisions:\n%s", e.decisions(id))
	}

	// --full-refresh-all with a selection: every selected dataset from the start
	id = e.mustRun(p, "--full-refresh-all", "--select", "bids_log+")
	if got := e.built(id); got != "bids_log log_copy recent" {
		t.Errorf("--full-refresh-all --select bids_log+ built %q", got)
	}
	diffText(t, "bids_log after full refresh all", e.read(p, "bids_log"), bidsA+"6,60\n")
}

func TestSelection(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", bidsA)
	p := testPipeline(pipeOpts{action: run.Drop})

	// a selected dataset whose input was never built is refused
	code, _, stderr := e.etl(p, "run", "--select", "top")
	if code != 1 || !strings.Contains(stderr, "cannot build top: its input high_bids has never been built and is not selected (select it too, e.g. --select +top)") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	// +top: with its ancestors
	id := e.mustRun(p, "--select", "+top")
	if got := e.built(id); got != "high_bids top" {
		t.Errorf("+top built %q", got)
	}
	// name+: with descendants; several specs
	id = e.mustRun(p, "--select", "bids_log+", "--select", "high_bids")
	if got := e.built(id); got != "bids_log log_copy recent" {
		t.Errorf("bids_log+ built %q", got)
	}
	// plan with a selection
	p2 := testPipeline(pipeOpts{action: run.Drop, defs: map[string]string{"bids_log": "streaming table bids_log = from stream bids -- v2", "high_bids": "v2"}})
	_, plan, _ := e.etl(p2, "plan", "--select=high_bids,bids_log")
	diffText(t, "plan --select", plan, `bids       fresh  no new files since epoch 2
high_bids  stale  definition changed
top        stale  input high_bids will change (the run rebuilds it first) (not selected)
bids_log   stale  definition changed
recent     stale  input bids_log will change (the run rebuilds it first)
log_copy   stale  input recent changed (not selected)
source files compared by size and modification time, and by content up to 1 MiB outside watched folders (--fingerprint auto)
`)
	// unknown names are usage errors naming the valid ones
	for _, args := range [][]string{{"run", "--select", "nope+"}, {"plan", "--refresh", "nope"}, {"run", "--full-refresh", "recent"}} {
		code, _, stderr := e.etl(p, args...)
		if code != 2 || !strings.Contains(stderr, "nope") && !strings.Contains(stderr, "recent is a temporary view") {
			t.Errorf("%v: exit %d\n%s", args, code, stderr)
		}
		if !strings.Contains(stderr, "high_bids") {
			t.Errorf("%v: the message does not name the valid datasets:\n%s", args, stderr)
		}
	}
}

// TestFailingExpectationKeepsPreviousVersion: with --all-or-nothing a
// failing expectation commits nothing of the run (without it, only the
// failed dataset and those downstream keep their versions:
// TestIsolationExpectation).
func TestFailingExpectationKeepsPreviousVersion(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", "auction,price\n1,50\n")
	p := testPipeline(pipeOpts{action: run.Fail})
	e.mustRun(p)
	e.write("data/bids/b.csv", "auction,price\n2,-5\n3,70\n")
	code, _, stderr := e.etl(p, "run", "--all-or-nothing")
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "error: expectation positive on dataset high_bids failed: 1 row violated it (on violation fail)") ||
		!strings.Contains(stderr, "FAILED after") {
		t.Errorf("stderr:\n%s", stderr)
	}
	// nothing of the run was committed: both datasets as before, offsets too
	diffText(t, "high_bids", e.read(p, "high_bids"), "auction,price\n1,50\n")
	diffText(t, "bids_log", e.read(p, "bids_log"), "auction,price\n1,50\n")
	_, plan, _ := e.etl(p, "plan")
	if !strings.Contains(plan, "bids_log   stale  new files in bids (1: data/bids/b.csv)") {
		t.Errorf("plan after the failed run:\n%s", plan)
	}
	code, out, _ := e.etl(p, "read", "high_bids", "--version", "2")
	if code != 1 {
		t.Errorf("read --version 2 after a failed run: exit %d %q", code, out)
	}
}

// TestBadInputNamesFileRowColumn: in FAILFAST mode a malformed value
// fails the run, naming file, row and column (the default, PERMISSIVE, is
// TestMalformedRowsCounted).
func TestBadInputNamesFileRowColumn(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", "auction,price\n1,50\n")
	p := testPipeline(pipeOpts{action: run.Drop, mode: "FAILFAST"})
	e.mustRun(p)
	e.write("data/bids/c.csv", "auction,price\n6,12x\n")
	code, _, stderr := e.etl(p, "run")
	if code != 1 || !strings.Contains(stderr, `flow high_bids: data/bids/c.csv:2:2: column price: want int64, got "12x"`) {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var ed events.ErrorDetails
	for _, ev := range e.events(e.last) {
		if ev.EventType == events.TypeError {
			ev.Payload(&ed)
		}
	}
	if ed.Kind != "data" || ed.File != "data/bids/c.csv" || ed.Row != 2 || ed.Col != 2 || ed.Column != "price" {
		t.Errorf("error event %+v", ed)
	}
	diffText(t, "high_bids", e.read(p, "high_bids"), "auction,price\n1,50\n")
}

func TestLockHeldRefusesRun(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", bidsA)
	p := testPipeline(pipeOpts{action: run.Drop})
	fs, err := store.NewLocal(e.wh)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	holder, err := run.Begin(ctx, run.Config{Pipeline: "auctions", Warehouse: fs, Root: e.root, Lease: time.Minute, RunID: "20260102T000000Z-holder"})
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := e.etl(p, "run")
	if code != 1 || !strings.Contains(stderr, "the warehouse is in use by run 20260102T000000Z-holder") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	holder.Fail(ctx, fmt.Errorf("test over"))
	e.mustRun(p)
}

func TestInterruptCommitsNothing(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", bidsA)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := testPipeline(pipeOpts{action: run.Drop, hook: func(*FlowContext) { cancel() }})
	code, _, stderr := e.exec(ctx, p, "run", "--warehouse", e.wh, "--root", e.root)
	if code != 1 || !strings.Contains(stderr, "interrupted") || !strings.Contains(stderr, "nothing was committed") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	code, _, stderr = e.etl(p, "read", "bids_log")
	if code != 1 || !strings.Contains(stderr, "dataset bids_log has no committed version; run first") {
		t.Errorf("read after interrupt: exit %d\n%s", code, stderr)
	}
	// the lock was released
	e.mustRun(testPipeline(pipeOpts{action: run.Drop}))
}

func TestPlanJSONAndRunJSON(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", bidsA)
	p := testPipeline(pipeOpts{action: run.Drop})
	code, out, _ := e.etl(p, "plan", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var pj planJSON
	if err := json.Unmarshal([]byte(out), &pj); err != nil {
		t.Fatal(err)
	}
	if pj.HeadEpoch != 0 || len(pj.Datasets) != 6 || pj.Datasets[1].Name != "high_bids" || !pj.Datasets[1].Build ||
		pj.Datasets[1].Reason != "never built" || pj.Datasets[4].Kind != "temporary view" || pj.Datasets[4].Build {
		t.Errorf("plan --json: %s", out)
	}

	code, out, _ = e.etl(p, "run", "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var ev events.Event
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if ev.Origin.RunID != e.last || ev.Origin.Pipeline != "auctions" {
			t.Errorf("origin %+v", ev.Origin)
		}
		types = append(types, ev.EventType)
	}
	// the stream is the event log
	if len(types) != len(e.events(e.last)) || types[0] != "run_start" || types[len(types)-1] != "run_end" {
		t.Errorf("events on stdout: %v", types)
	}
}

// TestMalformedRowsCounted: in the default mode (PERMISSIVE) a malformed
// value is NULL and the run goes on; each flow that read the row counts it
// once, whatever --threads, in the summary, the event log and the history.
// DROPMALFORMED drops it and counts it as dropped. An auction that does not
// parse cannot be kept (auction is NOT NULL): dropped, and counted so.
func TestMalformedRowsCounted(t *testing.T) {
	for _, threads := range []string{"1", "4"} {
		e := newEnv(t)
		e.write("data/bids/a.csv", "auction,price\n1,50\n6,12x\nx,20\n")
		p := testPipeline(pipeOpts{action: run.Drop})
		code, _, stderr := e.etl(p, "run", "--threads", threads)
		runID := e.last
		if code != 0 {
			t.Fatalf("threads %s: exit %d\n%s", threads, code, stderr)
		}
		// high_bids and bids_log read bids: one kept, one dropped each
		if n := strings.Count(stderr, "malformed rows from bids: 1 kept with NULLs, 1 dropped"); n != 2 {
			t.Errorf("threads %s: %d flows count the malformed rows, want 2:\n%s", threads, n, stderr)
		}
		if !strings.Contains(stderr, "late rows dropped: 0; malformed rows: 2 kept with NULLs, 2 dropped") {
			t.Errorf("threads %s: footer:\n%s", threads, stderr)
		}
		diffText(t, "bids_log", e.read(p, "bids_log"), "auction,price\n1,50\n6,\n")
		var kept, dropped int64
		for _, ev := range e.events(runID) {
			if ev.EventType == events.TypeMalformedRecords {
				var m events.MalformedRecords
				if err := ev.Payload(&m); err != nil || m.Source != "bids" || ev.Level != events.Warn {
					t.Errorf("event %+v: %v", ev, err)
				}
				kept += m.Kept
				dropped += m.Dropped
			}
		}
		if kept != 2 || dropped != 2 {
			t.Errorf("threads %s: events count %d kept, %d dropped", threads, kept, dropped)
		}
		_, out, _ := e.etl(p, "history")
		if !strings.Contains(out, "late rows dropped: 0; malformed rows: 2 kept with NULLs, 2 dropped\n") ||
			!strings.Contains(out, "rebuilt bids_log: never built\n    rows 2 in, 2 out; malformed rows: 1 kept with NULLs, 1 dropped\n") {
			t.Errorf("history:\n%s", out)
		}
	}
	e := newEnv(t)
	e.write("data/bids/a.csv", "auction,price\n1,50\n6,12x\n")
	p := testPipeline(pipeOpts{action: run.Drop, mode: "dropmalformed"})
	if code, _, stderr := e.etl(p, "run"); code != 0 || !strings.Contains(stderr, "malformed rows from bids: 0 kept with NULLs, 1 dropped") {
		t.Fatalf("DROPMALFORMED: exit %d\n%s", code, stderr)
	}
	diffText(t, "bids_log", e.read(p, "bids_log"), "auction,price\n1,50\n")
}

func TestHistory(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", bidsA)
	p := testPipeline(pipeOpts{action: run.Drop, mode: "FAILFAST"})
	e.mustRun(p)
	e.mustNoOp(p) // nothing to do: not in the history
	e.write("data/bids/c.csv", "auction,price\n6,12x\n")
	e.etl(p, "run")
	code, out, _ := e.etl(p, "history")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	// both readers of bids fail on c.csv: nothing succeeded, nothing is
	// committed, and each dataset says what became of it
	diffText(t, "history", out, `20260102T030405Z-run00003  2026-01-02 03:04:20 UTC  failed  nothing committed  7.25s
  rows 5 in, 2 out; expectations: 1 violated (1 dropped); late rows dropped: 0
  failed to rebuild high_bids: new files in bids (1: data/bids/c.csv)
    rows 5 in, 2 out; expectations: 1 violated (1 dropped)
    error: flow high_bids: data/bids/c.csv:2:2: column price: want int64, got "12x"
  skipped top: upstream high_bids failed
  failed to rebuild bids_log: new files in bids (1: data/bids/c.csv)
    rows 0 in, 0 out
    error: flow bids_log: data/bids/c.csv:2:2: column price: want int64, got "12x"
  skipped log_copy: upstream bids_log failed

20260102T030405Z-run00001  2026-01-02 03:04:05 UTC  completed  epoch 1  10.5s
  rows 22 in, 18 out; expectations: 1 violated (1 dropped); late rows dropped: 0
  rebuilt high_bids: never built
    rows 5 in, 2 out; expectations: 1 violated (1 dropped)
  rebuilt top: never built
    rows 2 in, 1 out
  rebuilt bids_log: never built
    rows 5 in, 5 out
  rebuilt recent: never built
    rows 5 in, 5 out
  rebuilt log_copy: never built
    rows 5 in, 5 out
`)
	code, out, _ = e.etl(p, "history", "--json", "--limit", "1")
	var h historyEntry
	if code != 0 || json.Unmarshal([]byte(out), &h) != nil || h.Status != "failed" || h.RunID != "20260102T030405Z-run00003" {
		t.Errorf("history --json: exit %d %s", code, out)
	}
}

func TestUsageErrors(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", bidsA)
	p := testPipeline(pipeOpts{action: run.Drop})
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "Usage:"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"run", "--bogus"}, 2, "unknown flag --bogus"},
		{[]string{"run", "--format", "csv"}, 2, "flag --format does not apply to run"},
		{[]string{"run", "--follow", "--once"}, 2, "--once and --follow exclude each other"},
		{[]string{"run", "--poll-interval", "1s"}, 2, "--poll-interval applies to --follow only"},
		{[]string{"run", "--follow", "--poll-interval", "0s"}, 2, `--poll-interval "0s": want a positive duration`},
		{[]string{"run", "--edge-rows", "many"}, 2, `--edge-rows "many": want a number of rows`},
		{[]string{"run", "--edge-bytes", "lots"}, 2, "--edge-bytes"},
		{[]string{"run", "--threads", "0"}, 2, `--threads "0": want a positive number`},
		{[]string{"plan", "--warehouse", "gs://bucket/wh"}, 2, `unsupported URL scheme "gs"`},
		{[]string{"run", "--warehouse", "wh\x00/x"}, 2, `--warehouse "wh\x00/x": contains a NUL byte, which no path can hold`},
		{[]string{"read", "top", "--root", "data\x00"}, 2, `--root "data\x00": contains a NUL byte`},
		{[]string{"read"}, 2, "missing NAME"},
		{[]string{"read", "nope", "--warehouse", "W"}, 2, `no dataset "nope" in this pipeline (datasets you can read: bids_log, high_bids, log_copy, top)`},
		{[]string{"read", "recent", "--warehouse", "W"}, 2, "recent is a temporary view: it is computed in memory"},
		{[]string{"read", "bids", "--warehouse", "W"}, 2, "bids is a source"},
		{[]string{"read", "top", "--warehouse", "W"}, 1, "dataset top has no committed version; run first"},
		{[]string{"read", "top", "--format", "xml"}, 2, `bad --format "xml"`},
		{[]string{"read", "top", "--version", "x"}, 2, `--version "x"`},
		{[]string{"plan", "--select", "a,,b"}, 2, "--select: empty name"},
		{[]string{"history", "extra"}, 2, `unexpected argument "extra"`},
	} {
		args := make([]string, len(tc.args))
		for i, a := range tc.args {
			args[i] = strings.ReplaceAll(a, "W", e.wh)
		}
		code, _, stderr := e.exec(context.Background(), p, args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, want %d with %q\n%s", tc.args, code, tc.code, tc.want, stderr)
		}
	}
	// help goes to stdout, exit 0
	for _, args := range [][]string{{"help"}, {"help", "run"}, {"run", "--help"}, {"-h"}} {
		code, out, _ := e.exec(context.Background(), p, args...)
		if code != 0 || !strings.Contains(out, "etl") {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
	}
	// flags before the command, and after the positional argument
	e.mustRun(p)
	code, out, _ := e.exec(context.Background(), p, "--warehouse", e.wh, "--root", e.root, "--format", "jsonl", "read", "top")
	if code != 0 || out != `{"auction":5,"price":500}`+"\n" {
		t.Errorf("flags first: exit %d %q", code, out)
	}
	code, out, _ = e.exec(context.Background(), p, "read", "--json", "top", "--warehouse="+e.wh)
	if code != 0 || out != `{"auction":5,"price":500}`+"\n" {
		t.Errorf("--json read: exit %d %q", code, out)
	}
}

func TestVersion(t *testing.T) {
	e := newEnv(t)
	code, out, _ := e.exec(context.Background(), testPipeline(pipeOpts{}), "version")
	if code != 0 || !regexp.MustCompile(`^etl \(pipeline auctions\) compiled by thundc v0\.0\.0-test; runtime 0\.1\.0; go go[0-9.]+.*\n$`).MatchString(out) {
		t.Errorf("exit %d %q", code, out)
	}
}

func TestStdoutSinkAndParquetRead(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", "auction,price\n1,50\n")
	p := testPipeline(pipeOpts{action: run.Drop, sink: "stdout"})
	code, out, stderr := e.etl(p, "run")
	if code != 0 || out != `{"auction":1,"price":50}`+"\n" {
		t.Errorf("exit %d %q\n%s", code, out, stderr)
	}
	if code, _, stderr := e.etl(p, "run", "--json"); code != 2 || !strings.Contains(stderr, "--json and sink export both write to stdout") {
		t.Errorf("--json with a stdout sink: exit %d\n%s", code, stderr)
	}
	e.write("data/bids/b.csv", "auction,price\n2,60\n")
	code, out, _ = e.etl(p, "run")
	if code != 0 || out != `{"auction":2,"price":60}`+"\n" {
		t.Errorf("second run: exit %d %q", code, out)
	}
	code, out, _ = e.etl(p, "read", "high_bids", "--format", "parquet")
	if code != 0 || !strings.HasPrefix(out, "PAR1") || !strings.HasSuffix(out, "PAR1") {
		t.Errorf("parquet: exit %d, %d bytes", code, len(out))
	}
}

func TestStdinSource(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", bidsA)
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(bidsSchema))
	b := array.NewRecordBuilder(memory.DefaultAllocator, bidsSchema)
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{9, 10}, nil)
	b.Field(1).(*array.Int64Builder).AppendValues([]int64{90, 100}, nil)
	rec := b.NewRecordBatch()
	w.Write(rec)
	w.Close()
	rec.Release()
	b.Release()
	e.stdin = &buf
	p := testPipeline(pipeOpts{action: run.Drop, stdin: true})
	e.mustRun(p)
	diffText(t, "feed_copy", e.read(p, "feed_copy"), "auction,price\n9,90\n10,100\n")
	_, plan, _ := e.etl(p, "plan")
	if !strings.Contains(plan, "feed_copy  stale  new input in feed (standard input)") {
		t.Errorf("plan:\n%s", plan)
	}
}

func TestLiveProgressDoesNotBlock(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", bidsA)
	var out, errb bytes.Buffer
	c := &cli{p: testPipeline(pipeOpts{action: run.Drop}), stdin: strings.NewReader(""), stdout: &out, stderr: &errb, live: 1}
	done := make(chan int)
	go func() { done <- c.main(context.Background(), []string{"run", "--warehouse", e.wh, "--root", e.root}) }()
	select {
	case code := <-done:
		if code != 0 || !strings.Contains(errb.String(), "completed in") {
			t.Errorf("exit %d\n%s", code, errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the live display blocked the run")
	}
}

func TestCrashBetweenCommitAndSinkPublishIsRepaired(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", "auction,price\n1,50\n")
	p := testPipeline(pipeOpts{action: run.Drop, sink: "csv"})
	e.mustRun(p)
	// Simulate a run that committed and died before the rename.
	final := filepath.Join(e.root, "out", "export", "part-000001-run00001.csv")
	temp := filepath.Join(e.root, "out", "export", ".part-000001-run00001.csv.tmp")
	if err := os.Rename(final, temp); err != nil {
		t.Fatal(err)
	}
	id := e.mustRun(p)
	if _, err := os.Stat(final); err != nil {
		t.Errorf("not published: %v", err)
	}
	found := false
	for _, ev := range e.events(id) {
		var w events.Warning
		if ev.EventType == events.TypeWarning && ev.Payload(&w) == nil && strings.Contains(w.Message, "sink export: published") {
			found = true
		}
	}
	if !found {
		t.Error("no warning about the repaired sink file")
	}
}

func TestValidatePipeline(t *testing.T) {
	p := testPipeline(pipeOpts{})
	p.Datasets[2].Flows[0].Inputs = []Input{{Name: "log_copy"}}
	var out, errb bytes.Buffer
	c := &cli{p: p, stdout: &out, stderr: &errb}
	if code := c.main(context.Background(), []string{"version"}); code != 1 || !strings.Contains(errb.String(), "flow top of top reads log_copy, which is not declared before it") {
		t.Errorf("exit %d\n%s", code, errb.String())
	}
	_ = warehouse.DefaultLease
}

func TestOnceFlowRunsOncePerFullRefresh(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", "auction,price\n1,50\n")
	e.write("data/old/x.csv", "auction,price\n0,1\n")
	p := testPipeline(pipeOpts{action: run.Drop, once: true})
	id := e.mustRun(p)
	if in, _ := e.flowRows(id, "backfill"); in != 1 {
		t.Errorf("backfill read %d rows", in)
	}
	diffText(t, "bids_log", e.read(p, "bids_log"), "auction,price\n0,1\n1,50\n")
	// new bids: only the stream flow runs; a new old file does not wake the once flow
	e.write("data/bids/b.csv", "auction,price\n2,60\n")
	e.write("data/old/y.csv", "auction,price\n9,9\n")
	id = e.mustRun(p)
	if in, _ := e.flowRows(id, "backfill"); in != -1 {
		t.Errorf("the once flow ran again")
	}
	diffText(t, "bids_log", e.read(p, "bids_log"), "auction,price\n0,1\n1,50\n2,60\n")
	// a full refresh runs it again, over everything
	e.mustRun(p, "--full-refresh", "bids_log")
	diffText(t, "bids_log", e.read(p, "bids_log"), "auction,price\n0,1\n9,9\n1,50\n2,60\n")
}

func TestMissingSourceFiles(t *testing.T) {
	e := newEnv(t)
	p := testPipeline(pipeOpts{action: run.Drop})
	code, out, _ := e.etl(p, "plan")
	if code != 1 || !strings.Contains(out, `bids       error  cannot read: source bids: source pattern "data/bids/*.csv" matched no files`) ||
		!strings.Contains(out, `high_bids  stale  never built; cannot build: source bids: source pattern`) {
		t.Errorf("plan: exit %d\n%s", code, out)
	}
	code, _, stderr := e.etl(p, "run")
	if code != 1 || !strings.Contains(stderr, `error: a source failed its check before any flow ran: source bids: source pattern "data/bids/*.csv" matched no files`) {
		t.Errorf("run: exit %d\n%s", code, stderr)
	}
}

func TestEmitChecksTheSchema(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", bidsA)
	p := testPipeline(pipeOpts{action: run.Drop})
	p.Datasets[1].Flows[0].Run = func(fc *FlowContext) error {
		b := array.NewRecordBuilder(fc.Mem, bidsSchema)
		defer b.Release()
		b.Field(0).AppendNull()
		b.Field(1).AppendNull()
		rec := b.NewRecordBatch()
		defer rec.Release()
		return fc.Emit(rec)
	}
	code, _, stderr := e.etl(p, "run")
	if code != 1 || !strings.Contains(stderr, "flow high_bids: emitted 1 row with NULL in column auction, which high_bids declares NOT NULL") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}
