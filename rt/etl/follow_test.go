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
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/run"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/stream"
	"github.com/nordisk/thund/rt/warehouse"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader on different
// goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// following is a `run --follow` running on a goroutine over a manual clock.
type following struct {
	t       *testing.T
	e       *env
	clock   *stream.ManualClock
	stop    context.CancelFunc // the first signal
	abort   context.CancelFunc // the second
	done    chan int
	stderr  *syncBuffer
	stdin   io.Reader
	started time.Time
}

// follow starts `run --follow --poll-interval 1s ARGS` and waits for its
// first poll to finish.
func (e *env) follow(p *Pipeline, stdin io.Reader, args ...string) *following {
	e.t.Helper()
	start := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	f := &following{t: e.t, e: e, clock: stream.NewManualClock(start), done: make(chan int, 1), stderr: &syncBuffer{}, started: start}
	stopCtx, stop := context.WithCancel(context.Background())
	abortCtx, abort := context.WithCancel(context.Background())
	f.stop, f.abort = stop, abort
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	c := &cli{p: p, stdin: stdin, stdout: io.Discard, stderr: f.stderr, live: -1, mem: e.mem, clock: f.clock, abort: abortCtx}
	args = append([]string{"run", "--follow", "--poll-interval", "1s", "--warehouse", e.wh, "--root", e.root}, args...)
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		f.done <- c.main(stopCtx, args)
	}()
	e.t.Cleanup(func() {
		stop()
		abort()
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
		}
	})
	f.settle()
	return f
}

// settle waits until the loop waits for its next poll (or has ended).
func (f *following) settle() {
	f.t.Helper()
	ok := make(chan struct{})
	go func() {
		f.clock.WaitForWaiters(1)
		close(ok)
	}()
	select {
	case <-ok:
	case code := <-f.done:
		f.done <- code
	case <-time.After(20 * time.Second):
		f.t.Fatalf("the follow loop did not come back to its poll wait\n%s", f.stderr)
	}
}

// tick moves the clock by d and waits for the poll it fires to finish.
func (f *following) tick(d time.Duration) {
	f.t.Helper()
	f.clock.Advance(d)
	f.settle()
}

// end requests a clean stop and returns the exit status.
func (f *following) end() int {
	f.t.Helper()
	f.stop()
	select {
	case code := <-f.done:
		return code
	case <-time.After(20 * time.Second):
		f.t.Fatalf("the follow loop did not stop\n%s", f.stderr)
	}
	return -1
}

// headEpoch is the warehouse's last committed epoch (0: none).
func (e *env) headEpoch() int64 {
	e.t.Helper()
	st, err := warehouse.New(&store.Local{Root: e.wh}).Load(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	if st.Head == nil {
		return 0
	}
	return st.Head.Epoch
}

// eventFiles lists the event log's run ids, oldest first.
func (e *env) eventFiles() []string {
	e.t.Helper()
	ents, err := os.ReadDir(filepath.Join(e.wh, filepath.FromSlash(events.Dir)))
	if err != nil && !os.IsNotExist(err) {
		e.t.Fatal(err)
	}
	var ids []string
	for _, d := range ents {
		ids = append(ids, strings.TrimSuffix(d.Name(), ".jsonl"))
	}
	return ids
}

// readNow reads a dataset's committed rows (CSV).
func (e *env) readNow(p *Pipeline, name string) string {
	e.t.Helper()
	code, out, stderr := e.exec(context.Background(), p, "read", name, "--warehouse", e.wh, "--root", e.root)
	if code != 0 {
		e.t.Fatalf("read %s: exit %d\n%s", name, code, stderr)
	}
	return out
}

func TestFollowRunsEpochsAsFilesLand(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", "auction,price\n1,50\n")
	p := testPipeline(pipeOpts{action: run.Drop})
	f := e.follow(p, nil)

	// the first poll builds everything: one epoch, one event file
	if got := e.headEpoch(); got != 1 {
		t.Fatalf("after the first poll: head epoch %d, want 1\n%s", got, f.stderr)
	}
	if n := len(e.eventFiles()); n != 1 {
		t.Fatalf("after the first poll: %d event files, want 1", n)
	}

	// polls that find nothing new commit nothing and write no event file
	f.tick(time.Second)
	f.tick(time.Second)
	if got, n := e.headEpoch(), len(e.eventFiles()); got != 1 || n != 1 {
		t.Fatalf("idle polls: head epoch %d, %d event files; want 1 and 1\n%s", got, n, f.stderr)
	}

	// a new file: one epoch appends it to the streaming table, and the
	// materialized views downstream of the stream (log_copy, through a
	// temporary view) and of the source (high_bids, top) are refreshed in it
	e.write("data/bids/b.csv", "auction,price\n2,500\n")
	f.tick(time.Second)
	if got := e.headEpoch(); got != 2 {
		t.Fatalf("after a new file: head epoch %d, want 2\n%s", got, f.stderr)
	}
	want := "auction,price\n1,50\n2,500\n"
	for _, name := range []string{"bids_log", "log_copy", "high_bids"} {
		if got := e.readNow(p, name); got != want {
			t.Errorf("%s after epoch 2:\n%s\nwant:\n%s", name, got, want)
		}
	}
	if got := e.readNow(p, "top"); got != "auction,price\n2,500\n" {
		t.Errorf("top after epoch 2:\n%s", got)
	}
	ids := e.eventFiles()
	if len(ids) != 2 {
		t.Fatalf("%d event files, want 2", len(ids))
	}
	if got := e.built(ids[1]); got != "high_bids top bids_log log_copy recent" {
		t.Errorf("epoch 2 built %q", got)
	}

	// a clean stop between epochs: exit 0, nothing more committed
	if code := f.end(); code != 0 {
		t.Fatalf("exit %d after a clean stop\n%s", code, f.stderr)
	}
	if got := e.headEpoch(); got != 2 {
		t.Errorf("head epoch %d after the stop, want 2", got)
	}
	for _, want := range []string{"following: polling for new input every 1s", "epoch 1 committed", "epoch 2 committed in",
		"2 rows in, 2 rows out", "stopped after 2 epochs"} {
		if !strings.Contains(f.stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, f.stderr)
		}
	}
	if strings.Contains(f.stderr.String(), ": fresh,") {
		t.Errorf("--follow prints fresh decisions:\n%s", f.stderr)
	}
}

func TestFollowTriggers(t *testing.T) {
	t.Run("every", func(t *testing.T) {
		e := newEnv(t)
		e.write("data/bids/a.csv", "auction,price\n1,50\n")
		p := testPipeline(pipeOpts{action: run.Drop})
		p.Datasets[3].Flows[0].Trigger = &Trigger{Every: 10 * time.Second} // bids_log
		f := e.follow(p, nil)
		e.write("data/bids/b.csv", "auction,price\n2,500\n")
		// 1s later: high_bids (no trigger) takes the new file at once;
		// bids_log ran 1s ago, so it waits, and keeps b.csv for later
		f.tick(time.Second)
		if got := e.headEpoch(); got != 2 {
			t.Fatalf("head epoch %d, want 2\n%s", got, f.stderr)
		}
		if got := e.readNow(p, "bids_log"); got != "auction,price\n1,50\n" {
			t.Errorf("bids_log ran before its trigger:\n%s", got)
		}
		if got := e.readNow(p, "high_bids"); got != "auction,price\n1,50\n2,500\n" {
			t.Errorf("high_bids:\n%s", got)
		}
		for i := 0; i < 8; i++ { // up to 9s after its last run: nothing
			f.tick(time.Second)
		}
		if got := e.headEpoch(); got != 2 {
			t.Fatalf("head epoch %d before bids_log's trigger, want 2\n%s", got, f.stderr)
		}
		f.tick(time.Second) // 10s: due
		if got := e.headEpoch(); got != 3 {
			t.Fatalf("head epoch %d at bids_log's trigger, want 3\n%s", got, f.stderr)
		}
		if got := e.readNow(p, "bids_log"); got != "auction,price\n1,50\n2,500\n" {
			t.Errorf("bids_log at its trigger:\n%s", got)
		}
		if code := f.end(); code != 0 {
			t.Fatalf("exit %d\n%s", code, f.stderr)
		}
	})
	t.Run("available now", func(t *testing.T) {
		e := newEnv(t)
		e.write("data/bids/a.csv", "auction,price\n1,50\n")
		p := testPipeline(pipeOpts{action: run.Drop})
		p.Datasets[3].Flows[0].Trigger = &Trigger{AvailableNow: true}
		f := e.follow(p, nil)
		e.write("data/bids/b.csv", "auction,price\n2,500\n")
		f.tick(time.Second)
		f.tick(time.Minute)
		if got := e.readNow(p, "bids_log"); got != "auction,price\n1,50\n" {
			t.Errorf("an available-now flow read input that landed after its run:\n%s", got)
		}
		if got := e.headEpoch(); got != 2 {
			t.Errorf("head epoch %d, want 2 (the first, then high_bids for b.csv)", got)
		}
		f.end()
		// the next run reads what it left
		e.mustRun(p)
		if got := e.readNow(p, "bids_log"); got != "auction,price\n1,50\n2,500\n" {
			t.Errorf("bids_log after a later --once run:\n%s", got)
		}
	})
}

func TestFollowIdleTimeout(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", "auction,price\n1,50\n")
	p := testPipeline(pipeOpts{action: run.Drop})
	p.Datasets[3].Flows[0].IdleTimeout = 5 * time.Second
	f := e.follow(p, nil)
	for i := 0; i < 4; i++ {
		f.tick(time.Second)
	}
	if got := e.headEpoch(); got != 1 {
		t.Fatalf("head epoch %d before the idle timeout, want 1", got)
	}
	f.tick(time.Second) // 5s without input: one epoch, for bids_log alone
	if got := e.headEpoch(); got != 2 {
		t.Fatalf("head epoch %d at the idle timeout, want 2\n%s", got, f.stderr)
	}
	ids := e.eventFiles()
	if got := e.built(ids[len(ids)-1]); got != "bids_log" {
		t.Errorf("the idle epoch built %q, want bids_log", got)
	}
	if d := e.decisions(ids[len(ids)-1]); !strings.Contains(d, "bids_log stale: idle timeout 5s of flow bids_log passed with no new input") {
		t.Errorf("the idle epoch's reason:\n%s", d)
	}
	for i := 0; i < 20; i++ { // once per burst of input, not every 5s
		f.tick(time.Second)
	}
	if got := e.headEpoch(); got != 2 {
		t.Fatalf("head epoch %d long after the idle epoch, want 2", got)
	}
	e.write("data/bids/b.csv", "auction,price\n2,500\n")
	f.tick(time.Second)
	for i := 0; i < 5; i++ {
		f.tick(time.Second)
	}
	if got := e.headEpoch(); got != 4 {
		t.Fatalf("head epoch %d after new input and its idle timeout, want 4\n%s", got, f.stderr)
	}
	f.end()
}

// blockingPipeline is testPipeline whose high_bids flow, once armed, tells
// entered and waits for release or for its context to end.
func blockingPipeline() (p *Pipeline, arm func(bool), entered chan struct{}, release chan struct{}) {
	var mu sync.Mutex
	armed := false
	entered, release = make(chan struct{}, 1), make(chan struct{})
	p = testPipeline(pipeOpts{action: run.Drop, hook: func(fc *FlowContext) {
		mu.Lock()
		a := armed
		mu.Unlock()
		if !a {
			return
		}
		entered <- struct{}{}
		select {
		case <-release:
		case <-fc.Ctx.Done():
		}
	}})
	return p, func(on bool) { mu.Lock(); armed = on; mu.Unlock() }, entered, release
}

func TestFollowStopsAtACommitPoint(t *testing.T) {
	t.Run("first signal: the epoch in flight commits", func(t *testing.T) {
		e := newEnv(t)
		e.write("data/bids/a.csv", "auction,price\n1,50\n")
		p, arm, entered, release := blockingPipeline()
		f := e.follow(p, nil)
		arm(true)
		e.write("data/bids/b.csv", "auction,price\n2,500\n")
		f.clock.Advance(time.Second)
		<-entered
		f.stop() // SIGTERM while epoch 2 runs
		close(release)
		if code := <-f.done; code != 0 {
			t.Fatalf("exit %d, want 0\n%s", code, f.stderr)
		}
		if got := e.headEpoch(); got != 2 {
			t.Fatalf("head epoch %d, want 2: the epoch in flight commits whole\n%s", got, f.stderr)
		}
		if got := e.readNow(p, "bids_log"); got != "auction,price\n1,50\n2,500\n" {
			t.Errorf("bids_log:\n%s", got)
		}
	})
	t.Run("second signal: the epoch in flight commits nothing", func(t *testing.T) {
		e := newEnv(t)
		e.write("data/bids/a.csv", "auction,price\n1,50\n")
		p, arm, entered, _ := blockingPipeline()
		f := e.follow(p, nil)
		arm(true)
		e.write("data/bids/b.csv", "auction,price\n2,500\n")
		f.clock.Advance(time.Second)
		<-entered
		f.stop()
		f.abort()
		if code := <-f.done; code != 1 {
			t.Fatalf("exit %d, want 1\n%s", code, f.stderr)
		}
		if got := e.headEpoch(); got != 1 {
			t.Fatalf("head epoch %d, want 1: an interrupted epoch commits nothing", got)
		}
		if !strings.Contains(f.stderr.String(), "nothing of it is committed") {
			t.Errorf("stderr:\n%s", f.stderr)
		}
		// the next run takes b.csv: nothing was lost
		arm(false)
		e.mustRun(p)
		if got := e.readNow(p, "bids_log"); got != "auction,price\n1,50\n2,500\n" {
			t.Errorf("bids_log after the next run:\n%s", got)
		}
	})
}

// ipcStream is an Arrow IPC stream of batches of bids.
func ipcStream(t *testing.T, w io.Writer, batches ...[][2]int64) {
	t.Helper()
	iw := ipc.NewWriter(w, ipc.WithSchema(bidsSchema))
	for _, rows := range batches {
		b := array.NewRecordBuilder(memory.NewGoAllocator(), bidsSchema)
		for _, r := range rows {
			b.Field(0).(*array.Int64Builder).Append(r[0])
			b.Field(1).(*array.Int64Builder).Append(r[1])
		}
		rec := b.NewRecordBatch()
		if err := iw.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		b.Release()
	}
	if err := iw.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestFollowStdin(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", "auction,price\n1,50\n")
	p := testPipeline(pipeOpts{action: run.Drop})
	// feed_log: a streaming table reading the Arrow IPC stream on stdin
	p.Datasets = append(p.Datasets,
		&Dataset{Name: "feed", Kind: Source, Schema: bidsSchema, Source: &FileSource{Format: "arrow", Stdin: true},
			Definition: "source feed from stdin arrow"},
		&Dataset{Name: "feed_log", Kind: StreamingTable, Schema: bidsSchema,
			Flows:      []*Flow{{Name: "feed_log", Inputs: []Input{{Name: "feed", Stream: true}}, Run: filterRun("feed", math.MinInt64, false)}},
			Definition: "streaming table feed_log = from stream feed"})
	pr, pw := io.Pipe()
	// the schema, then batches one at a time, each flushed to the pipe
	iw := ipc.NewWriter(pw, ipc.WithSchema(bidsSchema))
	send := func(rows ...[2]int64) {
		b := array.NewRecordBuilder(memory.NewGoAllocator(), bidsSchema)
		defer b.Release()
		for _, r := range rows {
			b.Field(0).(*array.Int64Builder).Append(r[0])
			b.Field(1).(*array.Int64Builder).Append(r[1])
		}
		rec := b.NewRecordBatch()
		defer rec.Release()
		if err := iw.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	f := e.follow(p, pr, "--select", "feed_log")
	waitEpoch := func(want int64) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); e.headEpoch() < want; {
			if time.Now().After(deadline) {
				t.Fatalf("head epoch %d, want %d\n%s", e.headEpoch(), want, f.stderr)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	// epoch 1 built feed_log (never built) before anything arrived
	if got := e.readNow(p, "feed_log"); got != "auction,price\n" {
		t.Errorf("feed_log before any batch:\n%s", got)
	}
	send([2]int64{7, 70})
	waitEpoch(2) // a batch that arrives wakes the loop: an epoch
	if got := e.readNow(p, "feed_log"); got != "auction,price\n7,70\n" {
		t.Errorf("feed_log after one batch:\n%s", got)
	}
	send([2]int64{8, 80}, [2]int64{9, 90})
	waitEpoch(3)
	if got := e.readNow(p, "feed_log"); got != "auction,price\n7,70\n8,80\n9,90\n" {
		t.Errorf("feed_log after two batches:\n%s", got)
	}
	// the end of the stream ends --follow, status 0
	iw.Close()
	pw.Close()
	select {
	case code := <-f.done:
		if code != 0 {
			t.Fatalf("exit %d at the end of stdin\n%s", code, f.stderr)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("--follow did not end with its standard input\n%s", f.stderr)
	}
	if !strings.Contains(f.stderr.String(), "standard input ended after 3 epochs") {
		t.Errorf("stderr:\n%s", f.stderr)
	}
}

func TestOnceStdinStream(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", bidsA)
	p := testPipeline(pipeOpts{action: run.Drop, stdin: true})
	var buf bytes.Buffer
	ipcStream(t, &buf, [][2]int64{{1, 10}}, [][2]int64{{2, 20}, {3, 30}})
	e.stdin = &buf
	e.mustRun(p, "--select", "feed_copy")
	if got := e.read(p, "feed_copy"); got != "auction,price\n1,10\n2,20\n3,30\n" {
		t.Errorf("feed_copy:\n%s", got)
	}
}

// manyFiles writes n CSV files of rows rows each under data/bids.
func (e *env) manyFiles(n, rows int) {
	for i := 0; i < n; i++ {
		var b strings.Builder
		b.WriteString("auction,price\n")
		for j := 0; j < rows; j++ {
			fmt.Fprintf(&b, "%d,%d\n", i*rows+j, j)
		}
		e.write(fmt.Sprintf("data/bids/f%04d.csv", i), b.String())
	}
}

// flowEdges reads the edges of a run's flow_end event for dataset.
func (e *env) flowEdges(runID, dataset string) []events.Edge {
	e.t.Helper()
	for _, ev := range e.events(runID) {
		if ev.EventType == events.TypeFlowEnd && ev.Origin.Dataset == dataset {
			var fe events.FlowEnd
			if err := ev.Payload(&fe); err != nil {
				e.t.Fatal(err)
			}
			return fe.Edges
		}
	}
	e.t.Fatalf("run %s has no flow_end for %s", runID, dataset)
	return nil
}

// smallBatches is filterRun for every row, emitting batches of at most n
// rows (a flow whose output batches are smaller than the edges' bounds).
func smallBatches(input string, n int64) func(fc *FlowContext) error {
	return func(fc *FlowContext) error {
		return fc.EachBatch(input, func(rec arrow.RecordBatch) error {
			for i := int64(0); i < rec.NumRows(); i += n {
				part := rec.NewSlice(i, min(i+n, rec.NumRows()))
				err := fc.Emit(part)
				part.Release()
				if err != nil {
					rec.Release()
					return err
				}
			}
			rec.Release()
			return nil
		})
	}
}

func TestBackPressureSlowSink(t *testing.T) {
	const files, rows, bound = 40, 1000, 3000
	newPipe := func() *Pipeline {
		return &Pipeline{Name: "bp", Datasets: []*Dataset{
			{Name: "bids", Kind: Source, Schema: bidsSchema, Source: &FileSource{Format: "csv", Patterns: []string{"data/bids/*.csv"}},
				Definition: "source bids"},
			{Name: "copy", Kind: StreamingTable, Schema: bidsSchema, Definition: "streaming table copy = from stream bids bound 3000 rows",
				Flows: []*Flow{{Name: "copy", Inputs: []Input{{Name: "bids", Stream: true, Bounds: &EdgeBounds{Rows: bound}}},
					Run: smallBatches("bids", 250)}}},
		}}
	}
	// slow runs a --once run whose target writes a batch every 2ms.
	slow := func(args ...string) (string, []events.Edge) {
		e := newEnv(t)
		e.manyFiles(files, rows)
		e.seq++
		e.last = fmt.Sprintf("20260102T030405Z-run%05d", e.seq)
		var errb bytes.Buffer
		c := &cli{p: newPipe(), stdin: strings.NewReader(""), stdout: io.Discard, stderr: &errb, runID: e.last, live: -1, mem: e.mem,
			beforeWrite: func() { time.Sleep(2 * time.Millisecond) }}
		code := c.main(context.Background(), append([]string{"run", "--threads", "2", "--warehouse", e.wh, "--root", e.root}, args...))
		if code != 0 {
			t.Fatalf("run %v: exit %d\n%s", args, code, errb.String())
		}
		id := e.last
		if got := strings.Count(e.read(newPipe(), "copy"), "\n"); got != files*rows+1 {
			t.Fatalf("copy has %d lines, want %d", got, files*rows+1)
		}
		return id, e.flowEdges(id, "copy")
	}

	// bounded: the read edge by its declared bound, the writer's by the flag
	_, edges := slow("--edge-rows", fmt.Sprint(bound))
	if len(edges) != 2 {
		t.Fatalf("edges %+v, want the read edge and the writer's", edges)
	}
	for _, ed := range edges {
		if ed.BoundRows != bound {
			t.Errorf("edge %s: bound %d rows, want %d", ed.Edge, ed.BoundRows, bound)
		}
		if ed.PeakRows > ed.BoundRows || ed.OversizeBatches != 0 {
			t.Errorf("edge %s held %d rows, over its bound of %d (%d oversize batches)", ed.Edge, ed.PeakRows, ed.BoundRows, ed.OversizeBatches)
		}
		if ed.PeakRows == 0 || ed.Batches == 0 {
			t.Errorf("edge %s carried nothing: %+v", ed.Edge, ed)
		}
	}
	w := edgeNamed(t, edges, "copy -> writer copy")
	r := edgeNamed(t, edges, "bids -> copy")
	if w.BlockedSends == 0 || r.BlockedSends == 0 {
		t.Errorf("under a slow sink, sends should wait on both edges: writer %+v, reader %+v", w, r)
	}

	// the control: unbounded edges hold what the slow sink has not written
	_, edges = slow("--edge-rows", "0", "--edge-bytes", "0")
	w = edgeNamed(t, edges, "copy -> writer copy")
	if w.BoundRows != 0 || w.BoundBytes != 0 {
		t.Errorf("control edge bounds %+v, want none", w)
	}
	if w.PeakRows <= bound*3 {
		t.Errorf("without bounds the writer's edge held at most %d rows; a slow sink should let it grow well past %d", w.PeakRows, bound)
	}
}

func edgeNamed(t *testing.T, edges []events.Edge, name string) events.Edge {
	t.Helper()
	for _, e := range edges {
		if e.Edge == name {
			return e
		}
	}
	t.Fatalf("no edge %q in %+v", name, edges)
	return events.Edge{}
}

func TestHistoryJSONShowsEdges(t *testing.T) {
	e := newEnv(t)
	e.manyFiles(3, 10)
	p := testPipeline(pipeOpts{action: run.Drop})
	e.mustRun(p, "--threads", "2")
	code, out, stderr := e.etl(p, "history", "--json")
	if code != 0 {
		t.Fatalf("history: exit %d\n%s", code, stderr)
	}
	var runs []struct {
		Rebuilt []struct {
			Dataset string        `json:"dataset"`
			Edges   []events.Edge `json:"edges"`
		} `json:"rebuilt"`
	}
	if err := json.Unmarshal([]byte("["+strings.ReplaceAll(strings.TrimSpace(out), "\n", ",")+"]"), &runs); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	found := false
	for _, r := range runs[0].Rebuilt {
		if r.Dataset == "bids_log" {
			for _, ed := range r.Edges {
				if ed.Edge == "bids -> bids_log" && ed.BoundRows == DefaultEdgeBounds.Rows && ed.PeakRows > 0 {
					found = true
				}
			}
		}
	}
	if !found {
		t.Errorf("history --json lacks bids_log's read edge:\n%s", out)
	}
}
