package etl

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/run"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/warehouse"
)

// commitAt reads the commit record of epoch.
func (e *env) commitAt(epoch int64) *warehouse.Commit {
	e.t.Helper()
	c, err := warehouse.New(&store.Local{Root: e.wh}).ReadCommit(context.Background(), epoch)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// outcomesOf renders a run's dataset_outcome events, one per line.
func outcomesOf(evs []events.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		if ev.EventType == events.TypeDatasetOutcome {
			var o events.DatasetOutcome
			ev.Payload(&o)
			b.WriteString(ev.Origin.Dataset + " " + o.Status)
			if o.Upstream != "" {
				b.WriteString(" upstream " + o.Upstream)
			}
			if o.Epoch != 0 {
				fmt.Fprintf(&b, " epoch %d", o.Epoch)
			}
			if o.Error != "" {
				b.WriteString(": " + o.Error)
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// An expectation "on violation fail" fails its dataset alone: the datasets
// downstream of it are skipped, the independent branch is committed, and
// the one commit record marks the failed and skipped ones; the run exits 1.
func TestIsolationExpectation(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", "auction,price\n1,50\n")
	p := testPipeline(pipeOpts{action: run.Fail})
	e.mustRun(p)
	e.write("data/bids/b.csv", "auction,price\n2,-5\n3,700\n")
	code, _, stderr := e.etl(p, "run")
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		"PARTIALLY FAILED after", "committed epoch 2 with the datasets that succeeded",
		"  updated: bids_log, log_copy\n",
		"  failed: high_bids: expectation positive on dataset high_bids failed: 1 row violated it (on violation fail)\n",
		"  skipped: top (upstream high_bids failed)\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	id := e.last
	// the failed and skipped datasets keep their versions; the others have
	// their new ones
	diffText(t, "high_bids", e.read(p, "high_bids"), "auction,price\n1,50\n")
	diffText(t, "top", e.read(p, "top"), "auction,price\n")
	diffText(t, "bids_log", e.read(p, "bids_log"), "auction,price\n1,50\n2,-5\n3,700\n")
	diffText(t, "log_copy", e.read(p, "log_copy"), "auction,price\n1,50\n2,-5\n3,700\n")
	if code, out, _ := e.etl(p, "read", "high_bids", "--version", "2"); code != 1 {
		t.Errorf("high_bids has a version 2: %q", out)
	}
	// the commit record
	c := e.commitAt(2)
	if c.Datasets["high_bids"].Version != 1 || c.Datasets["top"].Version != 1 || c.Datasets["bids_log"].Version != 2 {
		t.Errorf("versions in the record: high_bids %d, top %d, bids_log %d", c.Datasets["high_bids"].Version,
			c.Datasets["top"].Version, c.Datasets["bids_log"].Version)
	}
	got := c.Outcomes()
	if len(got) != 2 || got["high_bids"].Status != "failed" || !strings.Contains(got["high_bids"].Error, "expectation positive") ||
		got["top"] != (warehouse.Outcome{Status: "skipped", Upstream: "high_bids"}) {
		t.Errorf("outcome marks %+v", got)
	}
	// the event log
	evs := e.events(id)
	diffText(t, "outcomes", outcomesOf(evs), `high_bids failed: expectation positive on dataset high_bids failed: 1 row violated it (on violation fail)
top skipped upstream high_bids
bids_log updated epoch 2
log_copy updated epoch 2
`)
	var end events.RunEnd
	for _, ev := range evs {
		if ev.EventType == events.TypeRunEnd {
			ev.Payload(&end)
		}
	}
	if end.Status != "partial" || end.Epoch != 2 {
		t.Errorf("run_end %+v", end)
	}
	if b := builtOf(evs); b != "high_bids bids_log log_copy recent" {
		t.Errorf("flows started for %q", b)
	}
	// history
	_, hist, _ := e.etl(p, "history", "--limit", "1")
	for _, want := range []string{"  partial  epoch 2  ", "  failed to rebuild high_bids: new files in bids (1: data/bids/b.csv)\n",
		"    error: expectation positive on dataset high_bids failed", "  skipped top: upstream high_bids failed\n",
		"  rebuilt bids_log: new files in bids"} {
		if !strings.Contains(hist, want) {
			t.Errorf("history lacks %q:\n%s", want, hist)
		}
	}
	// the failed dataset is still stale; the next run tries it again, and
	// with nothing else to do it commits nothing (its marks stay in the
	// head, which they describe)
	_, plan, _ := e.etl(p, "plan")
	if !strings.Contains(plan, "high_bids  stale  new files in bids (1: data/bids/b.csv)") || !strings.Contains(plan, "bids_log   fresh") {
		t.Errorf("plan:\n%s", plan)
	}
	code, _, stderr = e.etl(p, "run")
	if code != 1 || !strings.Contains(stderr, "FAILED after") || !strings.Contains(stderr, "nothing was committed") ||
		!strings.Contains(stderr, "error: expectation positive on dataset high_bids failed") || !strings.Contains(stderr, "skipped: top (upstream high_bids failed)") {
		t.Errorf("rerun: exit %d\n%s", code, stderr)
	}
	if h := e.headEpoch(); h != 2 {
		t.Errorf("rerun committed epoch %d", h)
	}
	// fixed: the next run builds high_bids and top, and its record has no
	// marks
	e.write("data/bids/b.csv", "auction,price\n2,5\n3,700\n")
	e.mustRun(p)
	diffText(t, "top", e.read(p, "top"), "auction,price\n3,700\n")
	if m := e.commitAt(3).Outcomes(); len(m) != 0 {
		t.Errorf("marks carried forward: %+v", m)
	}
}

// --all-or-nothing, and --json: the events name each dataset's outcome.
func TestIsolationAllOrNothingJSON(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", "auction,price\n1,50\n")
	p := testPipeline(pipeOpts{action: run.Fail})
	e.mustRun(p)
	e.write("data/bids/b.csv", "auction,price\n2,-5\n")
	code, out, stderr := e.etl(p, "run", "--all-or-nothing", "--json")
	if code != 1 || !strings.Contains(stderr, "FAILED after") || e.headEpoch() != 1 {
		t.Fatalf("exit %d, head %d\n%s", code, e.headEpoch(), stderr)
	}
	// the run fails with its first failed dataset: nothing after it runs
	diffText(t, "all-or-nothing outcomes", outcomesOf(e.jsonEvents(out)),
		"high_bids failed: expectation positive on dataset high_bids failed: 1 row violated it (on violation fail)\n")
	if b := builtOf(e.jsonEvents(out)); b != "high_bids" {
		t.Errorf("flows started: %s", b)
	}
	code, out, stderr = e.etl(p, "run", "--json")
	if code != 1 || e.headEpoch() != 2 {
		t.Fatalf("exit %d, head %d\n%s", code, e.headEpoch(), stderr)
	}
	diffText(t, "outcomes", outcomesOf(e.jsonEvents(out)), `high_bids failed: expectation positive on dataset high_bids failed: 1 row violated it (on violation fail)
top skipped upstream high_bids
bids_log updated epoch 2
log_copy updated epoch 2
`)
}

// failing wraps a flow so that it fails after reading its input while
// *on is true.
func failing(inner func(fc *FlowContext) error, on *bool) func(fc *FlowContext) error {
	return func(fc *FlowContext) error {
		if err := inner(fc); err != nil {
			return err
		}
		if *on {
			return errors.New("simulated failure")
		}
		return nil
	}
}

// A streaming table whose flow fails keeps its offsets: the next run reads
// the same files, exactly once into the table. A dataset with two flows
// commits both or neither (its once flow is not recorded as run), and a
// sink fed by the failed table publishes nothing.
func TestIsolationOffsetsAndFlows(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", "auction,price\n1,50\n")
	e.write("data/old/o.csv", "auction,price\n100,1\n")
	p := testPipeline(pipeOpts{action: run.Drop, once: true, sink: "csv"})
	fail := true
	var log *Dataset
	for _, ds := range p.Datasets {
		if ds.Name == "bids_log" {
			log = ds
		}
	}
	if len(log.Flows) != 2 || log.Flows[0].Name != "backfill" {
		t.Fatalf("bids_log's flows: %v", log.Flows)
	}
	log.Flows[1].Run = failing(log.Flows[1].Run, &fail)
	exported := func() []string {
		names, _ := filepath.Glob(filepath.Join(e.root, "out/export/*.csv"))
		return names
	}
	// the once flow backfill succeeds, then bids_log's stream flow fails
	code, _, stderr := e.etl(p, "run")
	if code != 1 || !strings.Contains(stderr, "failed: bids_log: flow bids_log: simulated failure") ||
		!strings.Contains(stderr, "skipped: log_copy (upstream bids_log failed)") ||
		!strings.Contains(stderr, "skipped: export (upstream bids_log failed)") ||
		!strings.Contains(stderr, "updated: high_bids, top") || !strings.Contains(stderr, "committed epoch 1") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	c := e.commitAt(1)
	if _, ok := c.Datasets["bids_log"]; ok {
		t.Errorf("bids_log has a version: %+v", c.Datasets["bids_log"])
	}
	if got := e.consumed(1, "bids_log", "bids_log"); got != 0 {
		t.Errorf("bids_log's offsets advanced to %d files", got)
	}
	if _, ok := c.Fingerprints["bids_log"]; ok {
		t.Errorf("bids_log has a fingerprint (its once flow would count as run): %s", c.Fingerprints["bids_log"])
	}
	if n := len(exported()); n != 0 {
		t.Errorf("%d sink files after the partial run, want 0", n)
	}
	var staged []string
	filepath.Walk(filepath.Join(e.wh, "bids_log"), func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			staged = append(staged, path)
		}
		return nil
	})
	if len(staged) > 0 {
		t.Errorf("the failed version's files are left: %v", staged)
	}
	diffText(t, "high_bids", e.read(p, "high_bids"), "auction,price\n1,50\n")
	// the failure is gone: both flows run, each input row lands once
	fail = false
	e.mustRun(p)
	diffText(t, "bids_log", e.read(p, "bids_log"), "auction,price\n100,1\n1,50\n")
	diffText(t, "log_copy", e.read(p, "log_copy"), "auction,price\n100,1\n1,50\n")
	if n := len(exported()); n != 1 {
		t.Errorf("%d sink files, want 1", n)
	}
	e.write("data/bids/b.csv", "auction,price\n2,60\n")
	e.mustRun(p)
	diffText(t, "bids_log", e.read(p, "bids_log"), "auction,price\n100,1\n1,50\n2,60\n")
}

// A write that fails (a full disk) fails its dataset alone.
func TestIsolationStorageFault(t *testing.T) {
	e := newEnv(t)
	p := testPipeline(pipeOpts{action: run.Drop})
	e.write("data/bids/a.csv", bidsA)
	e.mustRun(p)
	e.write("data/bids/b.csv", "auction,price\n6,9000\n")
	defer func() { testWrapFS = nil }()
	testWrapFS = func(fs store.FS) store.FS {
		return store.NewFaulty(fs, store.Fault{Op: store.OpCommit, Match: "high_bids/", Err: syscall.ENOSPC})
	}
	code, _, stderr := e.etl(p, "run")
	testWrapFS = nil
	if code != 1 || !strings.Contains(stderr, "failed: high_bids: dataset high_bids: commit high_bids/v000002/part-") ||
		!strings.Contains(stderr, "the disk holding the warehouse is full") || !strings.Contains(stderr, "committed epoch 2") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if got := e.read(p, "bids_log"); !strings.Contains(got, "6,9000") {
		t.Errorf("bids_log:\n%s", got)
	}
	if got := e.read(p, "high_bids"); strings.Contains(got, "6,9000") {
		t.Errorf("high_bids:\n%s", got)
	}
	// a failure of the commit write itself commits nothing
	e.write("data/bids/c.csv", "auction,price\n7,7000\n")
	testWrapFS = func(fs store.FS) store.FS {
		return store.NewFaulty(fs, store.Fault{Op: store.OpCreateIfAbsent, Match: "_thund/commits/", Err: syscall.ENOSPC})
	}
	code, _, stderr = e.etl(p, "run")
	testWrapFS = nil
	if code != 1 || !strings.Contains(stderr, "nothing was committed") || e.headEpoch() != 2 {
		t.Fatalf("a failed commit write: exit %d, head %d\n%s", code, e.headEpoch(), stderr)
	}
	e.mustRun(p)
	if got := e.read(p, "top"); !strings.Contains(got, "6,9000") || !strings.Contains(got, "7,7000") {
		t.Errorf("top after the rerun:\n%s", got)
	}
	if got := e.read(p, "bids_log"); strings.Count(got, "7,7000") != 1 {
		t.Errorf("bids_log after the rerun:\n%s", got)
	}
}

// Under --follow an epoch in which a dataset fails commits the others, then
// the loop stops, exit status 1.
func TestIsolationFollowStops(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", "auction,price\n1,50\n")
	p := watched(testPipeline(pipeOpts{action: run.Fail}))
	f := e.follow(p, nil)
	e.write("data/bids/b.csv", "auction,price\n2,-5\n")
	f.clock.Advance(time.Second)
	var code int
	select {
	case code = <-f.done:
	case <-time.After(20 * time.Second):
		t.Fatalf("the loop did not stop\n%s", f.stderr)
	}
	if code != 1 || !strings.Contains(f.stderr.String(), "PARTIALLY FAILED") {
		t.Errorf("exit %d\n%s", code, f.stderr)
	}
	if got := e.read(p, "bids_log"); !strings.Contains(got, "2,-5") {
		t.Errorf("bids_log:\n%s", got)
	}
	if got := e.read(p, "high_bids"); strings.Contains(got, "2,-5") {
		t.Errorf("high_bids:\n%s", got)
	}
}

// writeParquet writes rows of (auction int64) to a Parquet file: a file
// that lacks the declared column price.
func (e *env) writeParquet(name string, schema *arrow.Schema) {
	e.t.Helper()
	p := filepath.Join(e.root, filepath.FromSlash(name))
	os.MkdirAll(filepath.Dir(p), 0o755)
	f, err := os.Create(p)
	if err != nil {
		e.t.Fatal(err)
	}
	defer f.Close()
	w, err := format.NewWriter(f, format.Parquet, schema, format.WriteOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).Append(1)
	rec := b.NewRecordBatch()
	defer rec.Release()
	if err := w.Write(rec); err != nil {
		e.t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		e.t.Fatal(err)
	}
}

// Fail fast: before any flow runs, every source the selection reads is
// checked and every problem listed, each naming the source, the file and
// what was expected; nothing runs, nothing is committed.
func TestPreflightListsEveryProblem(t *testing.T) {
	e := newEnv(t)
	p := testPipeline(pipeOpts{action: run.Drop})
	all := int64(-1 << 63)
	p.Datasets = append(p.Datasets,
		&Dataset{Name: "pq", Kind: Source, Schema: bidsSchema,
			Source: &FileSource{Format: "parquet", Patterns: []string{"data/pq/*.parquet"}}, Definition: "source pq"},
		&Dataset{Name: "pq_copy", Kind: MaterializedView, Schema: bidsSchema,
			Flows:      []*Flow{{Name: "pq_copy", Inputs: []Input{{Name: "pq"}}, Run: filterRun("pq", all, false)}},
			Definition: "materialized view pq_copy = from pq"},
		&Dataset{Name: "gone", Kind: Source, Schema: bidsSchema,
			Source: &FileSource{Format: "csv", Patterns: []string{"data/gone/*.csv", "data/also_gone.csv"}}, Definition: "source gone"},
		&Dataset{Name: "gone_copy", Kind: MaterializedView, Schema: bidsSchema,
			Flows:      []*Flow{{Name: "gone_copy", Inputs: []Input{{Name: "gone"}}, Run: filterRun("gone", all, false)}},
			Definition: "materialized view gone_copy = from gone"},
		&Dataset{Name: "feed", Kind: Source, Schema: bidsSchema, Source: &FileSource{Format: "arrow", Stdin: true}, Definition: "source feed"},
		&Dataset{Name: "feed_copy", Kind: MaterializedView, Schema: bidsSchema,
			Flows:      []*Flow{{Name: "feed_copy", Inputs: []Input{{Name: "feed"}}, Run: filterRun("feed", all, false)}},
			Definition: "materialized view feed_copy = from feed"})
	e.write("data/bids/a.csv", "auction,cost\n1,50\n")
	e.writeParquet("data/pq/p.parquet", arrow.NewSchema([]arrow.Field{{Name: "auction", Type: arrow.PrimitiveTypes.Int64}}, nil))
	// no standard input at all
	c := &cli{p: p, stdin: nil, stdout: &strings.Builder{}, stderr: &strings.Builder{}, runID: "20260102T030405Z-nostdin", live: -1, mem: e.mem}
	code := c.main(context.Background(), []string{"run", "--warehouse", e.wh, "--root", e.root})
	stderr := c.stderr.(*strings.Builder).String()
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		"5 problems in the sources, found before any flow ran:",
		"\n    source bids: data/bids/a.csv:1: column price: not in the header (header has: auction, cost)\n",
		"\n    source pq: data/pq/p.parquet: column price: not in the file (file has: auction)\n",
		"\n    source gone: source pattern \"data/gone/*.csv\" matched no files",
		"\n    source gone: source pattern \"data/also_gone.csv\" matched no files",
		"\n    source feed reads standard input, and there is none\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if b := builtOf(e.events("20260102T030405Z-nostdin")); b != "" {
		t.Errorf("flows ran: %s", b)
	}
	if e.headEpoch() != 0 {
		t.Errorf("committed epoch %d", e.headEpoch())
	}
	// only the selection's sources are checked
	e.write("data/bids/a.csv", "auction,price\n1,50\n")
	code, _, stderr = e.etl(p, "run", "--select", "high_bids,bids_log")
	if code != 0 {
		t.Errorf("a selection whose sources are fine: exit %d\n%s", code, stderr)
	}
}

// A watched folder may be empty; a stream read checks only the files it
// has not consumed.
func TestPreflightWatchedAndConsumed(t *testing.T) {
	e := newEnv(t)
	p := watched(testPipeline(pipeOpts{action: run.Drop}))
	if err := os.MkdirAll(filepath.Join(e.root, "data/bids"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.mustRun(p, "--select", "bids_log")
	e.write("data/bids/a.csv", "auction,price\n1,50\n")
	e.mustRun(p, "--select", "bids_log")
	// a consumed file whose header changed is not read again by the
	// stream read: no problem
	e.write("data/bids/a.csv", "auction,cost\n1,50\n")
	e.write("data/bids/b.csv", "auction,price\n2,60\n")
	e.mustRun(p, "--select", "bids_log")
	// a new one is read: refused before any flow
	e.write("data/bids/c.csv", "auction,cost\n3,70\n")
	code, _, stderr := e.etl(p, "run", "--select", "bids_log")
	if code != 1 || !strings.Contains(stderr, "a source failed its check before any flow ran: source bids: data/bids/c.csv:1: column price: not in the header") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
}

// A change flow (CDC) that fails after its table's new version was written
// (its change state cannot be) keeps its table, its change state and its
// offsets; the files of the new version are removed; an independent
// dataset commits; the rerun equals an uninterrupted run.
func TestIsolationCDC(t *testing.T) {
	p := cdcPipeline()
	all := int64(-1 << 63)
	p.Datasets = append(p.Datasets, &Dataset{Name: "copy", Kind: MaterializedView, Schema: bidsSchema,
		Flows:      []*Flow{{Name: "copy", Inputs: []Input{{Name: "bids"}}, Run: filterRun("bids", all, false)}},
		Definition: "materialized view copy = from bids"})
	e := newEnv(t)
	e.write("data/bids/a.csv", "auction,price\n1,5\n2,50\n1,7\n")
	e.mustRun(p)
	e.write("data/bids/b.csv", "auction,price\n2,60\n")
	defer func() { testWrapFS = nil }()
	testWrapFS = func(fs store.FS) store.FS {
		return store.NewFaulty(fs, store.Fault{Op: store.OpWriteFile, Match: "_thund/checkpoints/", Err: syscall.ENOSPC})
	}
	code, _, stderr := e.etl(p, "run")
	testWrapFS = nil
	if code != 1 || !strings.Contains(stderr, "failed: best: streaming table best: writing its change state") || !strings.Contains(stderr, "updated: copy") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	c := e.commitAt(2)
	if c.Datasets["best"].Version != 1 || string(c.State[cdcStateKey("best")]) != string(e.commitAt(1).State[cdcStateKey("best")]) {
		t.Errorf("best in the record: version %d, state %s", c.Datasets["best"].Version, c.State[cdcStateKey("best")])
	}
	if got := e.consumed(2, "best", "best"); got != 1 {
		t.Errorf("best's offsets: %d files", got)
	}
	if left, _ := filepath.Glob(filepath.Join(e.wh, "best", "v000002", "*")); len(left) > 0 {
		t.Errorf("the failed version's files are left: %v", left)
	}
	diffText(t, "best", e.read(p, "best"), "auction,price\n1,7\n2,50\n")
	if got := e.read(p, "copy"); !strings.Contains(got, "2,60") {
		t.Errorf("copy:\n%s", got)
	}
	e.mustRun(p)
	diffText(t, "best", e.read(p, "best"), "auction,price\n1,7\n2,60\n")
}

// Isolation does not depend on the threads: with one thread (emits in the
// flow's goroutine) and with four (a writer goroutine behind an edge), the
// same datasets commit.
func TestIsolationThreads(t *testing.T) {
	for _, threads := range []string{"1", "4"} {
		e := newEnv(t)
		e.write("data/bids/a.csv", "auction,price\n1,50\n")
		p := testPipeline(pipeOpts{action: run.Fail})
		e.mustRun(p, "--threads", threads)
		e.write("data/bids/b.csv", "auction,price\n2,-5\n3,700\n")
		code, _, stderr := e.etl(p, "run", "--threads", threads)
		if code != 1 || !strings.Contains(stderr, "updated: bids_log, log_copy") {
			t.Fatalf("--threads %s: exit %d\n%s", threads, code, stderr)
		}
		diffText(t, "high_bids --threads "+threads, e.read(p, "high_bids"), "auction,price\n1,50\n")
		diffText(t, "log_copy --threads "+threads, e.read(p, "log_copy"), "auction,price\n1,50\n2,-5\n3,700\n")
	}
}
