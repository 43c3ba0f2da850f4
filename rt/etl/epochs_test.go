package etl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/run"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/warehouse"
)

// watched makes the test pipeline's source bids a watched folder (a
// `stream` source): --max-files-per-epoch splits its stream reads. It adds
//
//	temporary view new_bids = from stream bids
//	streaming table via_view = from new_bids
//
// (a view's stream read: its offsets are the view's).
func watched(p *Pipeline) *Pipeline {
	for _, ds := range p.Datasets {
		if ds.Name == "bids" {
			ds.Source.Unbounded = true
		}
	}
	all := int64(math.MinInt64)
	p.Datasets = append(p.Datasets,
		&Dataset{Name: "new_bids", Kind: TemporaryView, Schema: bidsSchema,
			Flows:      []*Flow{{Name: "new_bids", Inputs: []Input{{Name: "bids", Stream: true}}, Run: filterRun("bids", all, false)}},
			Definition: "temporary view new_bids = from stream bids"},
		&Dataset{Name: "via_view", Kind: StreamingTable, Schema: bidsSchema,
			Flows:      []*Flow{{Name: "via_view", Inputs: []Input{{Name: "new_bids"}}, Run: filterRun("new_bids", all, false)}},
			Definition: "streaming table via_view = from new_bids"})
	return p
}

// backlog writes n files data/bids/f0.csv ... with two rows each; the
// auctions of file i are 10i+1 and 10i+2.
func (e *env) backlog(n int) {
	for i := range n {
		e.write(fmt.Sprintf("data/bids/f%d.csv", i), fmt.Sprintf("auction,price\n%d,%d\n%d,%d\n", 10*i+1, 100*i+5, 10*i+2, 100*i+50))
	}
}

// consumed is how many files of bids the offset of flow target/flow
// records in commit epoch.
func (e *env) consumed(epoch int64, target, flow string) int {
	e.t.Helper()
	c, err := warehouse.New(&store.Local{Root: e.wh}).ReadCommit(context.Background(), epoch)
	if err != nil {
		e.t.Fatal(err)
	}
	var off offset
	if raw, ok := c.SourceOffsets[offsetKey(target, flow, "bids")]; ok {
		if err := json.Unmarshal(raw, &off); err != nil {
			e.t.Fatal(err)
		}
	}
	return len(off.Files)
}

// commits lists the epochs of the commit records in the warehouse.
func (e *env) commits() []int64 {
	e.t.Helper()
	epochs, err := warehouse.New(&store.Local{Root: e.wh}).Epochs(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return epochs
}

var outputs = []string{"bids_log", "log_copy", "high_bids", "top", "via_view"}

// reference runs the pipeline once, in one epoch, over the same n files,
// and returns its outputs and its sink's rows.
func reference(t *testing.T, o pipeOpts, n int) (map[string]string, []string) {
	ref := newEnv(t)
	ref.backlog(n)
	p := watched(testPipeline(o))
	ref.mustRun(p)
	out := map[string]string{}
	for _, name := range outputs {
		out[name] = ref.read(p, name)
	}
	return out, sinkRows(t, ref)
}

// sinkRows are the data rows of every file of the CSV sink, sorted.
func sinkRows(t *testing.T, e *env) []string {
	t.Helper()
	dir := filepath.Join(e.root, "out", "export")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var rows []string
	for _, de := range ents {
		data, err := os.ReadFile(filepath.Join(dir, de.Name()))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		rows = append(rows, lines[1:]...)
	}
	slices.Sort(rows)
	return rows
}

// A backlog of 7 files with --max-files-per-epoch 3 is read in three
// epochs of 3, 3 and 1 files, each its own commit, event file and line;
// the outputs equal one epoch's over the same files.
func TestMaxFilesPerEpochCatchesUp(t *testing.T) {
	o := pipeOpts{action: run.Drop, sink: "csv"}
	want, wantSink := reference(t, o, 7)

	e := newEnv(t)
	e.backlog(7)
	p := watched(testPipeline(o))
	code, _, stderr := e.etl(p, "run", "--max-files-per-epoch", "3")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, line := range []string{
		`flow bids_log: 6 rows in, 6 rows out\n(.*\n)*epoch 1 committed in \S+: \d+ rows in, \d+ rows out, 0 late; rebuilt: high_bids, top, bids_log, log_copy, export, via_view; 4 files wait for the next epoch\n`,
		`flow bids_log: 6 rows in, 6 rows out\n(.*\n)*epoch 2 committed in \S+: \d+ rows in, \d+ rows out, 0 late; rebuilt: bids_log, log_copy, export, via_view; 1 file wait for the next epoch\n`,
		`flow bids_log: 2 rows in, 2 rows out\n(.*\n)*epoch 3 committed in \S+: \d+ rows in, \d+ rows out, 0 late; rebuilt: bids_log, log_copy, export, via_view\n`,
		`caught up after 3 epochs\n$`,
	} {
		if !regexp.MustCompile(line).MatchString(stderr) {
			t.Errorf("stderr lacks %q:\n%s", line, stderr)
		}
	}
	if got := e.commits(); !slices.Equal(got, []int64{1, 2, 3}) {
		t.Fatalf("commits %v, want epochs 1, 2, 3", got)
	}
	if n := len(e.eventFiles()); n != 3 {
		t.Errorf("%d event files, want one per epoch", n)
	}
	// the reasons say how much of the backlog an epoch reads
	for i, want := range []string{
		"bids_log stale: never built\n",
		"bids_log stale: new files in bids (4: data/bids/f3.csv, data/bids/f4.csv, data/bids/f5.csv and 1 more; this epoch reads 3)\n",
		"bids_log stale: new files in bids (1: data/bids/f6.csv)\n",
	} {
		if d := e.decisions(fmt.Sprintf("%s-%d", e.last, i+1)); !strings.Contains(d, want) {
			t.Errorf("epoch %d's decisions lack %q:\n%s", i+1, want, d)
		}
	}
	// each commit's offsets: 3, then 6, then all 7 files
	for i, n := range []int{3, 6, 7} {
		if got := e.consumed(int64(i+1), "bids_log", "bids_log"); got != n {
			t.Errorf("commit %d: bids_log consumed %d files, want %d", i+1, got, n)
		}
	}
	// the epochs' flows read 3, 3 and 1 files (2 rows each)
	for i, rows := range []int64{6, 6, 2} {
		if in, _ := e.flowRows(fmt.Sprintf("%s-%d", e.last, i+1), "bids_log"); in != rows {
			t.Errorf("epoch %d: bids_log read %d rows, want %d", i+1, in, rows)
		}
	}
	for _, name := range outputs {
		diffText(t, name, e.read(p, name), want[name])
	}
	if got := sinkRows(t, e); !slices.Equal(got, wantSink) {
		t.Errorf("sink rows:\n%v\nwant:\n%v", got, wantSink)
	}
	// caught up: the next run finds everything fresh, in one epoch that
	// commits nothing
	code, _, stderr = e.etl(p, "run", "--max-files-per-epoch", "3")
	if code != 0 || !strings.Contains(stderr, "nothing to do in ") || !strings.Contains(stderr, "nothing committed (epoch 3 stands)") || !strings.Contains(stderr, "caught up after 1 epoch\n") {
		t.Errorf("a run with nothing new: exit %d\n%s", code, stderr)
	}
	e.nothingToDo(e.last+"-1", 3)
}

// A bounded source read as a stream (files replayed) is not split: a
// stateful flow over it ends its input with every run.
func TestMaxFilesPerEpochKeepsBoundedReplaysWhole(t *testing.T) {
	e := newEnv(t)
	e.backlog(7)
	p := testPipeline(pipeOpts{action: run.Drop})
	code, _, stderr := e.etl(p, "run", "--max-files-per-epoch", "3")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "caught up after 1 epoch\n") || strings.Contains(stderr, "wait for the next epoch") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if got := e.consumed(1, "bids_log", "bids_log"); got != 7 {
		t.Errorf("bids_log consumed %d files, want 7", got)
	}
}

// failOnce wraps a flow: it records the auctions each call reads, and the
// call numbered fail (from 1) fails after reading its input, as a crash
// in the middle of an epoch would (nothing of the epoch is committed).
type failOnce struct {
	mu    sync.Mutex
	calls [][]int64
	fail  int
}

func (f *failOnce) wrap(input string) func(fc *FlowContext) error {
	inner := filterRun(input, math.MinInt64, false)
	return func(fc *FlowContext) error {
		f.mu.Lock()
		f.calls = append(f.calls, nil)
		n := len(f.calls)
		f.mu.Unlock()
		rd := fc.read
		fc.read = func(name string) (format.BatchReader, error) {
			r, err := rd(name)
			if err != nil {
				return nil, err
			}
			return &recordingReader{BatchReader: r, f: f, call: n - 1}, nil
		}
		if err := inner(fc); err != nil {
			return err
		}
		if n == f.fail {
			return errors.New("simulated crash")
		}
		return nil
	}
}

// A run that fails in its second epoch keeps its first: the next run
// reads again only the files of the failed epoch (at most N), never those
// committed, and the outputs equal one epoch's.
func TestMaxFilesPerEpochCrashRereadsOneEpoch(t *testing.T) {
	o := pipeOpts{action: run.Drop}
	want, _ := reference(t, o, 7)

	e := newEnv(t)
	e.backlog(7)
	p := watched(testPipeline(o))
	rec := &failOnce{fail: 2}
	for _, ds := range p.Datasets {
		if ds.Name == "bids_log" {
			ds.Flows[0].Run = rec.wrap("bids")
		}
	}
	// --all-or-nothing: the simulated crash loses the whole epoch, as a
	// kill would (otherwise the datasets independent of bids_log commit)
	code, _, stderr := e.etl(p, "run", "--max-files-per-epoch", "3", "--all-or-nothing")
	if code != 1 || !strings.Contains(stderr, "simulated crash") {
		t.Fatalf("the failing run: exit %d\n%s", code, stderr)
	}
	if got := e.headEpoch(); got != 1 {
		t.Fatalf("after a failure in the second epoch: head epoch %d, want 1", got)
	}
	// the restart
	rec.fail = 0
	code, _, stderr = e.etl(p, "run", "--max-files-per-epoch", "3")
	if code != 0 || !strings.Contains(stderr, "caught up after 2 epochs") {
		t.Fatalf("the restart: exit %d\n%s", code, stderr)
	}
	if len(rec.calls) != 4 {
		t.Fatalf("bids_log ran %d times, want 4 (epoch 1, the failed epoch, two epochs of the restart)", len(rec.calls))
	}
	// read before the crash, committed or not; read again by the restart
	before := map[int64]bool{}
	for _, call := range rec.calls[:2] {
		for _, a := range call {
			before[a] = true
		}
	}
	var again []int64
	for _, call := range rec.calls[2:] {
		for _, a := range call {
			if before[a] {
				again = append(again, a)
			}
		}
	}
	slices.Sort(again)
	// the failed epoch's files, f3 to f5: 3 files, 6 rows; nothing of
	// epoch 1
	if wantAgain := []int64{31, 32, 41, 42, 51, 52}; !slices.Equal(again, wantAgain) {
		t.Errorf("the restart read again auctions %v, want %v (the 3 files of the failed epoch)", again, wantAgain)
	}
	for _, name := range outputs {
		diffText(t, name, e.read(p, name), want[name])
	}
}

// --keep-checkpoints N keeps the last N commits and what they reference,
// after every epoch.
func TestKeepCheckpoints(t *testing.T) {
	o := pipeOpts{action: run.Drop}
	want, _ := reference(t, o, 7)

	e := newEnv(t)
	e.backlog(7)
	p := watched(testPipeline(o))
	code, _, stderr := e.etl(p, "run", "--max-files-per-epoch", "2", "--keep-checkpoints", "2")
	if code != 0 || !strings.Contains(stderr, "caught up after 4 epochs") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "checkpoints: kept 2 commits (epochs 2 to 3); removed") ||
		!strings.Contains(stderr, "checkpoints: kept 2 commits (epochs 3 to 4); removed") {
		t.Errorf("stderr does not say what each epoch's vacuum kept:\n%s", stderr)
	}
	if got := e.commits(); !slices.Equal(got, []int64{3, 4}) {
		t.Errorf("commit records of epochs %v, want 3 and 4", got)
	}
	if n := len(e.eventFiles()); n != 2 {
		t.Errorf("%d event files, want those of the 2 kept epochs", n)
	}
	for _, name := range outputs {
		diffText(t, name, e.read(p, name), want[name])
	}
	// the kept commits' versions stay readable, the older ones are gone
	if code, _, stderr := e.etl(p, "read", "bids_log", "--version", "1"); code != 1 || !strings.Contains(stderr, "version 1 is no longer recorded") {
		t.Errorf("read --version 1: exit %d %s", code, stderr)
	}
	ctx := context.Background()
	wh := warehouse.New(&store.Local{Root: e.wh})
	c3, err := wh.ReadCommit(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := e.etl(p, "read", "bids_log", "--version", fmt.Sprint(c3.Datasets["bids_log"].Version)); code != 0 || strings.Count(out, "\n") != 1+12 {
		t.Errorf("bids_log of the kept epoch 3: exit %d\n%s%s", code, out, stderr)
	}
	// no data file but those the kept commits list
	listed := map[string]bool{}
	for _, ep := range []int64{3, 4} {
		c, err := wh.ReadCommit(ctx, ep)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range c.Datasets {
			for _, f := range d.Files {
				listed[f.Path] = true
			}
		}
	}
	all, err := wh.FS.List(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, obj := range all {
		if !strings.HasPrefix(obj.Name, "_thund/") && !listed[obj.Name] {
			t.Errorf("%s is left, though no kept commit lists it", obj.Name)
		}
	}

	// without --max-files-per-epoch: the same after a --once run
	e.write("data/bids/g.csv", "auction,price\n99,990\n")
	code, _, stderr = e.etl(p, "run", "--keep-checkpoints", "1")
	if code != 0 || !strings.Contains(stderr, "checkpoints: kept 1 commits (epochs 5 to 5); removed") {
		t.Fatalf("run --keep-checkpoints 1: exit %d\n%s", code, stderr)
	}
	if got := e.commits(); !slices.Equal(got, []int64{5}) {
		t.Errorf("commit records of epochs %v, want 5", got)
	}
	if got := e.read(p, "bids_log"); strings.Count(got, "\n") != 1+15 {
		t.Errorf("bids_log after the vacuum:\n%s", got)
	}
}

// --keep-checkpoints keeps the checkpoint objects the kept commits
// reference (here a change flow's state) and removes the older ones.
func TestKeepCheckpointsState(t *testing.T) {
	e := newEnv(t)
	p := cdcPipeline()
	for i := range 4 {
		e.write(fmt.Sprintf("data/bids/f%d.csv", i), fmt.Sprintf("auction,price\n1,%d\n%d,5\n", 10+i, 2+i))
		e.mustRun(p, "--keep-checkpoints", "2")
	}
	ctx := context.Background()
	wh := warehouse.New(&store.Local{Root: e.wh})
	st, err := wh.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.VerifyState(ctx, st.Head); err != nil {
		t.Errorf("the head's state after --keep-checkpoints: %v", err)
	}
	ents, err := os.ReadDir(filepath.Join(e.wh, "_thund", "checkpoints"))
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, d := range ents {
		dirs = append(dirs, d.Name())
	}
	if len(dirs) != 2 {
		t.Errorf("checkpoint folders %v, want those of the 2 kept epochs", dirs)
	}
	if got := e.read(p, "best"); got != "auction,price\n1,13\n2,5\n3,5\n4,5\n5,5\n" {
		t.Errorf("best:\n%s", got)
	}
}

// --follow --max-files-per-epoch: a backlog is taken N files per epoch,
// the epochs back to back without waiting for the poll interval; later
// files land in later epochs; --keep-checkpoints applies to every epoch.
func TestFollowMaxFilesPerEpoch(t *testing.T) {
	o := pipeOpts{action: run.Drop}
	want, _ := reference(t, o, 6)

	e := newEnv(t)
	e.backlog(5)
	p := watched(testPipeline(o))
	f := e.follow(p, nil, "--max-files-per-epoch", "2", "--keep-checkpoints", "2")
	// the first poll: three epochs, the clock never moved
	if got := e.headEpoch(); got != 3 {
		t.Fatalf("after the first poll: head epoch %d, want 3\n%s", got, f.stderr)
	}
	e.backlog(6) // f5.csv lands
	f.tick(time.Second)
	if got := e.headEpoch(); got != 4 {
		t.Fatalf("after a new file: head epoch %d, want 4\n%s", got, f.stderr)
	}
	if code := f.end(); code != 0 {
		t.Fatalf("exit %d\n%s", code, f.stderr)
	}
	for i, n := range []int{2, 4, 5, 6} {
		if i < 2 {
			continue // vacuumed
		}
		if got := e.consumed(int64(i+1), "bids_log", "bids_log"); got != n {
			t.Errorf("commit %d: bids_log consumed %d files, want %d", i+1, got, n)
		}
	}
	if got := e.commits(); !slices.Equal(got, []int64{3, 4}) {
		t.Errorf("commit records of epochs %v, want 3 and 4", got)
	}
	for _, s := range []string{"3 files wait for the next epoch", "1 file wait for the next epoch", "stopped after 4 epochs"} {
		if !strings.Contains(f.stderr.String(), s) {
			t.Errorf("stderr lacks %q:\n%s", s, f.stderr)
		}
	}
	for _, name := range outputs {
		diffText(t, name, e.readNow(p, name), want[name])
	}
}

// --refresh and --full-refresh apply to the first epoch only; standard
// input is read whole by the first epoch.
func TestMaxFilesPerEpochRefreshAndStdin(t *testing.T) {
	o := pipeOpts{action: run.Drop, stdin: true}
	want, _ := reference(t, pipeOpts{action: run.Drop}, 5)

	e := newEnv(t)
	e.backlog(5)
	p := watched(testPipeline(o))
	var buf bytes.Buffer
	ipcStream(t, &buf, [][2]int64{{1, 10}}, [][2]int64{{2, 20}, {3, 30}})
	e.stdin = &buf
	code, _, stderr := e.etl(p, "run", "--max-files-per-epoch", "2")
	if code != 0 || !strings.Contains(stderr, "caught up after 3 epochs") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if got := e.read(p, "feed_copy"); got != "auction,price\n1,10\n2,20\n3,30\n" {
		t.Errorf("feed_copy:\n%s", got)
	}
	e.stdin = nil
	code, _, stderr = e.etl(p, "run", "--max-files-per-epoch", "2", "--full-refresh", "bids_log")
	if code != 0 || !strings.Contains(stderr, "caught up after 3 epochs") {
		t.Fatalf("--full-refresh: exit %d\n%s", code, stderr)
	}
	diffText(t, "bids_log after --full-refresh", e.read(p, "bids_log"), want["bids_log"])
}

func TestEpochFlagsUsage(t *testing.T) {
	e := newEnv(t)
	p := testPipeline(pipeOpts{action: run.Drop})
	for _, args := range [][]string{{"--max-files-per-epoch", "0"}, {"--max-files-per-epoch", "x"}, {"--keep-checkpoints", "-1"}} {
		code, _, stderr := e.etl(p, append([]string{"run"}, args...)...)
		if code != 2 || !strings.Contains(stderr, args[0]+` "`+args[1]+`": want a positive number`) {
			t.Errorf("run %v: exit %d %s", args, code, stderr)
		}
	}
	code, out, _ := e.exec(context.Background(), p, "help", "run")
	if code != 0 || !strings.Contains(out, "--max-files-per-epoch N") || !strings.Contains(out, "(default keep all)") {
		t.Errorf("help run:\n%s", out)
	}
}

// recordingReader records the auctions a call of a failOnce flow reads.
type recordingReader struct {
	format.BatchReader
	f    *failOnce
	call int
}

func (r *recordingReader) Next() (arrow.RecordBatch, error) {
	rec, err := r.BatchReader.Next()
	if err != nil {
		return rec, err
	}
	a := rec.Column(0).(*array.Int64)
	r.f.mu.Lock()
	for i := 0; i < a.Len(); i++ {
		r.f.calls[r.call] = append(r.f.calls[r.call], a.Value(i))
	}
	r.f.mu.Unlock()
	return rec, nil
}

// The first signal stops a --once run split into epochs at a commit point:
// the epoch in flight commits, the run ends with status 1, and the next
// run reads the rest.
func TestMaxFilesPerEpochStopsAtACommitPoint(t *testing.T) {
	want, _ := reference(t, pipeOpts{action: run.Drop}, 7)
	e := newEnv(t)
	e.backlog(7)
	p, arm, entered, release := blockingPipeline()
	watched(p)
	arm(true)
	stopCtx, stop := context.WithCancel(context.Background())
	defer stop()
	var stderr syncBuffer
	c := &cli{p: p, stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, live: -1, mem: e.mem, abort: context.Background()}
	done := make(chan int, 1)
	go func() {
		done <- c.main(stopCtx, []string{"run", "--max-files-per-epoch", "3", "--warehouse", e.wh, "--root", e.root})
	}()
	<-entered // epoch 1 runs high_bids
	stop()    // SIGTERM
	close(release)
	select {
	case code := <-done:
		if code != 1 {
			t.Fatalf("exit %d, want 1\n%s", code, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the run did not stop\n%s", stderr.String())
	}
	if got := e.headEpoch(); got != 1 {
		t.Fatalf("head epoch %d, want 1: the epoch in flight commits, no other starts\n%s", got, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted after 1 epoch, committed; input is left for the next run, which goes on from epoch 1\n") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	arm(false)
	code, _, out := e.etl(p, "run", "--max-files-per-epoch", "3")
	if code != 0 || !strings.Contains(out, "caught up after 2 epochs") {
		t.Fatalf("the next run: exit %d\n%s", code, out)
	}
	for _, name := range outputs {
		diffText(t, name, e.read(p, name), want[name])
	}
}

// A change flow over a watched folder, split into epochs, applies each
// epoch's changes to the committed change state: a change older (by its
// sequence) than one an earlier epoch applied loses, as in one epoch.
func TestMaxFilesPerEpochChangeFlow(t *testing.T) {
	files := []string{"auction,price\n1,50\n2,7\n", "auction,price\n1,30\n3,9\n", "auction,price\n1,40\n2,8\n", "auction,price\n2,6\n"}
	result := func(args ...string) string {
		e := newEnv(t)
		for i, f := range files {
			e.write(fmt.Sprintf("data/bids/f%d.csv", i), f)
		}
		p := cdcPipeline()
		p.Datasets[0].Source.Unbounded = true
		code, _, stderr := e.etl(p, append([]string{"run"}, args...)...)
		if code != 0 {
			t.Fatalf("run %v: exit %d\n%s", args, code, stderr)
		}
		if len(args) > 0 && !strings.Contains(stderr, "caught up after 4 epochs") {
			t.Errorf("run %v:\n%s", args, stderr)
		}
		return e.read(p, "best")
	}
	one := result()
	diffText(t, "best, one epoch per file", result("--max-files-per-epoch", "1"), one)
	if one != "auction,price\n1,50\n2,8\n3,9\n" {
		t.Errorf("best in one epoch:\n%s", one)
	}
}
