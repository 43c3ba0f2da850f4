package etl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/run"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/stream"
	"github.com/nordisk/thund/rt/warehouse"
)

// errInterrupted fails a run that was interrupted (SIGINT, SIGTERM).
var errInterrupted = errors.New("interrupted: the run stopped before its commit")

// selectionFromFlags parses the selection flags of run and plan.
func (c *cli) selectionFromFlags(inv *invocation) (*selection, error) {
	return parseSelection(newGraph(c.p), inv.lists["select"], inv.lists["refresh"], inv.lists["full-refresh"], inv.bool("full-refresh-all"))
}

// runCmd implements `etl run`.
func (c *cli) runCmd(ctx context.Context, inv *invocation) int {
	pl, err := c.resolvePlace(inv)
	if err != nil {
		return c.usage(inv.cmd, err)
	}
	follow := inv.bool("follow")
	if follow && inv.bool("once") {
		return c.usage(inv.cmd, usagef("--once and --follow exclude each other"))
	}
	threads := runtime.GOMAXPROCS(0)
	if inv.isSet("threads") {
		n, err := strconv.Atoi(inv.str("threads"))
		if err != nil || n < 1 {
			return c.usage(inv.cmd, usagef("--threads %q: want a positive number", inv.str("threads")))
		}
		threads = n
	}
	budget := &memBudget{}
	if inv.isSet("memory-limit") {
		n, err := ParseBytes(inv.str("memory-limit"))
		if err != nil {
			return c.usage(inv.cmd, usagef("--memory-limit %v", err))
		}
		budget.limit = n
		debug.SetMemoryLimit(n + n/2 + 64<<20) // the unaccounted rest: batches, writers, the runtime
	}
	edges, err := edgeFlags(inv)
	if err != nil {
		return c.usage(inv.cmd, err)
	}
	poll := defaultPollInterval
	if inv.isSet("poll-interval") {
		if !follow {
			return c.usage(inv.cmd, usagef("--poll-interval applies to --follow only"))
		}
		d, err := time.ParseDuration(inv.str("poll-interval"))
		if err != nil || d <= 0 {
			return c.usage(inv.cmd, usagef("--poll-interval %q: want a positive duration such as 500ms or 2s", inv.str("poll-interval")))
		}
		poll = d
	}
	maxFiles, keep, err := epochFlags(inv)
	if err != nil {
		return c.usage(inv.cmd, err)
	}
	sel, err := c.selectionFromFlags(inv)
	if err != nil {
		return c.usage(inv.cmd, err)
	}
	jsonOut := inv.bool("json")
	if jsonOut {
		for _, d := range c.p.Datasets {
			if d.Kind == Sink && sinkFormat(d) == "stdout" && sel.has(d.Name) {
				return c.usage(inv.cmd, usagef("--json and sink %s both write to stdout; leave %s out of the selection, or drop --json", d.Name, d.Name))
			}
		}
	}
	fs, err := pl.writeFS()
	if err != nil {
		return c.fail("run", fmt.Errorf("opening the warehouse: %w", err))
	}
	mem := c.mem
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	rc := &runConfig{place: pl, fs: fs, threads: threads, budget: budget, sel: sel, mem: mem, edges: edges,
		jsonOut: jsonOut, allowOlder: inv.bool(flagAllowOlder.name), args: append([]string{"etl", "run"}, inv.rawArgs()...),
		maxFiles: maxFiles, keep: keep}
	if follow {
		c.following.Store(true)
		return c.follow(ctx, rc, poll)
	}
	if maxFiles > 0 {
		c.following.Store(true) // the first signal stops at a commit point
		return c.catchUp(ctx, rc)
	}
	r, ex, err := c.epoch(ctx, rc, nil)
	if r == nil {
		return c.fail("run", err)
	}
	r.Summary.Print(c.stderr)
	ex.printFooter(r)
	c.epochErrors(r, err)
	if r.Summary.Status == "completed" {
		c.keepCheckpoints(ctx, rc)
	}
	return run.ExitCode(err)
}

// runConfig is what every epoch of one `etl run` shares.
type runConfig struct {
	place   place
	fs      store.FS
	threads int
	budget  *memBudget
	sel     *selection
	mem     memory.Allocator
	edges   edgeConfig
	jsonOut bool
	args    []string
	// allowOlder: --allow-older-checkpoint (resume from the newest commit
	// that verifies when the latest does not).
	allowOlder bool
	outMu      sync.Mutex // --json lines from several epochs' events
	// maxFiles: --max-files-per-epoch (0: no limit); keep:
	// --keep-checkpoints (0: keep every commit). See epochs.go.
	maxFiles, keep int
}

// epochErrors says what the summary does not: a failure to write the event
// log, or a sink file that could not be published after the commit.
func (c *cli) epochErrors(r *run.Run, err error) {
	if err == nil && r.Summary.Err != nil {
		fmt.Fprintf(c.stderr, "warning: %v\n", r.Summary.Err)
	}
	if err != nil && r.Summary.Status == "completed" {
		// Committed, but a sink file could not be published: the next run
		// publishes it.
		fmt.Fprintf(c.stderr, "error: %v\n", err)
	}
}

// epoch runs one epoch, one commit (or none, on failure): a whole `run
// --once`, or one micro-batch of `run --follow` (fl says which flows are
// due and feeds standard input). ctx interrupts the epoch. r is nil when the
// run could not begin (err says why).
func (c *cli) epoch(ctx context.Context, rc *runConfig, fl *follower) (*run.Run, *executor, error) {
	ex := &executor{c: c, ctx: ctx, p: c.p, place: rc.place, threads: rc.threads, budget: rc.budget, sel: rc.sel, mem: rc.mem,
		edges: rc.edges, maxFiles: rc.maxFiles, prog: c.newProgress(), views: map[string]*viewTarget{}, stdin: map[string]*stdinData{}, srcRead: map[string]bool{}}
	if fl != nil {
		ex.due, ex.force, ex.feed = fl.dueNow, fl.forced, fl.feed
		ex.prog = quietProgress{ex.prog, ex}
	}
	prog := ex.prog
	defer ex.release()
	cfg := run.Config{Pipeline: c.p.Name, Warehouse: rc.fs, Root: rc.place.root, Lease: warehouse.DefaultLease,
		Args: rc.args, Threads: rc.threads, Runtime: RuntimeVersion,
		RunID: c.runID, Now: c.now, AllowOlderCheckpoint: rc.allowOlder,
		OnEvent: func(e events.Event) {
			switch e.EventType {
			case events.TypeWarning:
				var w events.Warning
				if e.Payload(&w) == nil {
					prog.note("warning: " + w.Message)
				}
			case events.TypeLockTakenOver:
				var t events.LockTakenOver
				if e.Payload(&t) == nil {
					prog.note("warning: " + t.Reason)
				}
			}
			if rc.jsonOut {
				b, _ := json.Marshal(e)
				rc.outMu.Lock()
				c.stdout.Write(append(b, '\n'))
				rc.outMu.Unlock()
			}
		}}
	if fl != nil && c.runID != "" {
		cfg.RunID = fmt.Sprintf("%s-%d", c.runID, fl.epochs+1) // one event file per epoch
	}
	// The run's own bookkeeping (event log, lock, commit) must finish even
	// after an interrupt: only the flows see the cancellation.
	r, err := run.Execute(context.WithoutCancel(ctx), cfg, ex.body)
	prog.close()
	if r == nil {
		return nil, ex, err
	}
	if err == nil {
		for _, s := range ex.sinks {
			if perr := s.publish(c.stdout); perr != nil && err == nil {
				err = perr
			}
		}
	} else {
		for _, s := range ex.sinks {
			s.discard()
		}
	}
	return r, ex, err
}

// printFooter adds what run.Summary does not say: threads, what was rebuilt,
// late rows in total.
func (ex *executor) printFooter(r *run.Run) {
	var late int64
	for _, f := range r.Summary.Flows() {
		late += f.Late()
	}
	rebuilt := "nothing"
	if len(ex.built) > 0 {
		rebuilt = strings.Join(ex.built, ", ")
	}
	fmt.Fprintf(ex.c.stderr, "  threads %d; rebuilt: %s; late rows dropped: %d\n", ex.threads, rebuilt, late)
}

// rawArgs are the invocation's arguments as given (for the event log).
func (inv *invocation) rawArgs() []string {
	var out []string
	for _, f := range inv.cmd.flags {
		if f.list {
			for _, v := range inv.lists[f.name] {
				out = append(out, "--"+f.name+"="+v)
			}
			continue
		}
		if v, ok := inv.vals[f.name]; ok {
			out = append(out, "--"+f.name+"="+v)
		}
	}
	return append(out, inv.args...)
}

// executor is one run's work.
type executor struct {
	c       *cli
	ctx     context.Context
	p       *Pipeline
	place   place
	threads int
	budget  *memBudget
	sel     *selection
	mem     memory.Allocator
	prog    progress
	edges   edgeConfig
	// maxFiles bounds a stream read of a source to that many new files
	// (0: no bound); backlog is the most files a read of this epoch left
	// for the next (epochs.go).
	maxFiles int
	backlog  int

	// --follow (nil or empty otherwise): which flows are due, the datasets
	// an epoch runs although nothing is new (their idle timeout passed),
	// and standard input's batches as they arrive.
	due   func(ds *Dataset, f *Flow) bool
	force map[string]string
	feed  *stdinFeed
	ran   []string // target/flow of every flow this epoch ran

	r       *run.Run
	pl      *planner
	views   map[string]*viewTarget
	sinks   []*sinkTarget // written, published after the commit
	stdin   map[string]*stdinData
	srcRead map[string]bool
	built   []string
	clock   stream.Clock // nil: the wall clock
}

// body is the run between Begin and Commit: decide, then build in order.
func (ex *executor) body(_ context.Context, r *run.Run) error {
	ex.r = r
	ex.pl = newPlanner(ex.p, ex.place.root, r.State.Head, ex.sel)
	ex.pl.lookup = r.Txn.Dataset
	ex.pl.epoch = r.Txn.Epoch()
	ex.pl.nonce = r.ID
	ex.pl.force = ex.force
	ex.pl.maxFiles = ex.maxFiles
	if ex.feed != nil {
		ex.pl.stdinNew = ex.feed.pending
	}
	ex.completeSinks(r.State.Head)
	for _, ds := range ex.p.Datasets {
		if err := ex.ctx.Err(); err != nil {
			return errInterrupted
		}
		d := ex.pl.evaluate(ds)
		r.Staleness(ds.Name, d.Decision, d.Reason())
		ex.prog.decision(d)
		if d.Err != nil && d.Selected && buildable(ds.Kind) {
			return fmt.Errorf("cannot build %s: %w", ds.Name, d.Err)
		}
		if !d.Build {
			if buildable(ds.Kind) {
				for _, f := range ds.Flows {
					ex.skipped(ds, f)
				}
			}
			continue
		}
		if err := ex.build(ds, d); err != nil {
			return err
		}
	}
	for _, ds := range ex.p.Datasets {
		if ex.srcRead[ds.Name] {
			r.Txn.SetFingerprint(ds.Name, ex.pl.sourceFingerprint(ds))
		}
	}
	if ex.ctx.Err() != nil {
		return errInterrupted
	}
	return nil
}

// skipped records that a flow did no work.
func (ex *executor) skipped(ds *Dataset, f *Flow) {
	ex.r.Log.Emit(events.Info, events.TypeFlowProgress, ds.Name, f.Name, events.FlowProgress{Status: "skipped"})
}

// build runs the flows of one stale dataset into a new version (or a sink
// file) and records its fingerprint.
func (ex *executor) build(ds *Dataset, d *decision) error {
	if ex.due != nil && !ex.anyDue(ds) {
		// --follow: no flow of ds is due (its trigger); its input waits,
		// its offsets and fingerprint stay as they are.
		for _, f := range ds.Flows {
			ex.skipped(ds, f)
		}
		return nil
	}
	full := d.Full || recomputed(ds)
	cur, exists := ex.r.Txn.Dataset(ds.Name)
	if ds.Kind == StreamingTable && exists && !full {
		if !slices.Equal(cur.Schema, format.EncodeSchema(ds.Schema)) ||
			!slices.Equal(cur.PartitionBy, append([]string{}, ds.PartitionBy...)) && len(cur.PartitionBy)+len(ds.PartitionBy) > 0 {
			return fmt.Errorf("streaming table %s: its schema or partitioning changed since version %d, so its flows cannot append to it; run with --full-refresh %s to recompute it from the start",
				ds.Name, cur.Version, ds.Name)
		}
	}
	var out target
	switch {
	case changeFlows(ds) > 0:
		t, err := ex.newCDCTarget(ds, full)
		if err != nil {
			return err
		}
		out = t
	case stored(ds.Kind):
		replace := recomputed(ds) || full || completeFlows(ds)
		out = &storedTarget{ex: ex, ds: ds, create: replace || !exists,
			opts: warehouse.WriteOptions{PartitionBy: ds.PartitionBy, Append: !replace, Mem: ex.mem}}
	case ds.Kind == Sink:
		out = &sinkTarget{ex: ex, ds: ds}
	default:
		return fmt.Errorf("%s %s is not built by a run", ds.Kind, ds.Name)
	}
	var once []string
	if rec := ex.pl.recorded(ds.Name); rec != nil && !full {
		once = append(once, rec.Once...)
	}
	for _, f := range ds.Flows {
		if f.Once && slices.Contains(once, f.Name) || ex.due != nil && !ex.due(ds, f) {
			ex.skipped(ds, f)
			continue
		}
		if err := ex.runFlow(ds, f, out, full); err != nil {
			out.abort()
			return err
		}
		ex.ran = append(ex.ran, flowKey(ds, f))
		if f.Once {
			once = append(once, f.Name)
		}
	}
	if err := out.close(); err != nil {
		return err
	}
	ex.r.Txn.SetFingerprint(ds.Name, ex.pl.fingerprint(ds, once))
	ex.pl.rebuilt[ds.Name] = true
	ex.built = append(ex.built, ds.Name)
	return nil
}

// runFlow runs one flow into out.
func (ex *executor) runFlow(ds *Dataset, f *Flow, out target, full bool) (err error) {
	late, lateDS, err := ex.lateTable(f, full)
	if err != nil {
		return err
	}
	stats := ex.r.Flow(f.Name, ds.Name)
	stats.Start()
	ex.prog.flowStart(stats)
	exps := make([]*run.Expectation, len(ds.Expectations))
	for i, e := range ds.Expectations {
		exps[i] = stats.Expect(e.Name, e.Action)
	}
	fr := &flowReads{ex: ex, ds: ds, f: f, full: full, streams: map[string]*streamRead{}}
	// A flow may emit from several goroutines (FlowContext.Threads): the
	// target's writer is not safe for concurrent use, so emits take turns.
	var emitMu sync.Mutex
	if ex.c.beforeWrite != nil {
		out = hookedTarget{out, ex.c.beforeWrite}
	}
	aout := newAsyncOut(ex.ctx, out, ex.threads > 1, ex.edges.bounds(nil))
	if aout.edge != nil {
		fr.addEdge(f.Name+" -> writer "+ds.Name, aout.edge.Stats)
	}
	stats.SetEdges(fr.edgeEvents)
	emit := func(rec arrow.RecordBatch) error {
		if err := ex.ctx.Err(); err != nil {
			return err
		}
		if rec == nil || rec.NumRows() == 0 {
			return nil
		}
		want := ds.Schema
		if f.CDC != nil {
			want = f.CDC.ChangeSchema()
		}
		if err := checkBatch(ds.Name, want, rec); err != nil {
			return err
		}
		emitMu.Lock()
		defer emitMu.Unlock()
		if err := aout.emit(rec); err != nil {
			return err
		}
		stats.AddOut(rec.NumRows())
		return nil
	}
	fc := NewFlowContext(ex.ctx, ex.mem, ex.threads, stats, fr.read, emit, exps)
	fc.readCols = fr.readColumns
	fc.state = &flowState{ex: ex, ds: ds, f: f, full: full}
	fc.clock = ex.clock
	if late != nil {
		fc.emitLate = func(rec arrow.RecordBatch) error {
			if err := checkBatch(lateDS.Name, lateDS.Schema, rec); err != nil {
				return err
			}
			emitMu.Lock()
			defer emitMu.Unlock()
			return late.emit(rec)
		}
	}
	fc.budget = ex.budget
	if l := ex.budget.limit; l > 0 {
		fc.GrowStep = min(fc.GrowStep, max(l/16, 1))
	}
	defer ex.budget.used.Store(0) // flows run one after the other
	stopTicks := tickProgress(stats)
	err = callFlow(f, fc)
	if werr := aout.finish(); err == nil {
		err = werr
	}
	stopTicks()
	fr.closeReaders()
	if late != nil {
		if err == nil {
			err = late.close()
		} else {
			late.abort()
		}
	}
	switch {
	case err == nil:
	case ex.ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
		err = errInterrupted
	default:
		var ee *run.ExpectationError
		if !errors.As(err, &ee) {
			err = fmt.Errorf("flow %s: %w", f.Name, err)
		}
	}
	failed := stats.End(err)
	ex.prog.flowEnd(stats, err != nil || failed != nil)
	if err != nil {
		return err
	}
	if failed != nil {
		return failed
	}
	fr.saveOffsets()
	return nil
}

// asyncOut writes a flow's batches to its target on a goroutine of its
// own (with more than one thread), so that encoding and compressing the
// output overlaps the flow's loops. The batches waiting are held by a
// bounded edge (rows and bytes): a slow writer blocks the flow's emits,
// which stop its reads, instead of growing memory.
type asyncOut struct {
	out    target
	edge   *stream.Edge[arrow.RecordBatch] // nil: write in the caller
	ctx    context.Context                 // ends when the run is interrupted or a write failed
	cancel context.CancelFunc
	err    error // the first write error, set before cancel
	wg     sync.WaitGroup
}

func newAsyncOut(ctx context.Context, out target, async bool, b EdgeBounds) *asyncOut {
	a := &asyncOut{out: out}
	if !async {
		return a
	}
	a.edge, _ = stream.NewEdge[arrow.RecordBatch](b) // bounds are >= 0 by construction
	a.ctx, a.cancel = context.WithCancel(ctx)
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		for {
			rec, ok, _ := a.edge.Recv(context.Background())
			if !ok {
				return
			}
			if a.err == nil {
				if err := a.out.emit(rec); err != nil {
					a.err = err
					a.cancel()
				}
			}
			rec.Release()
		}
	}()
	return a
}

// emit queues rec (retained until written), waiting while the edge is
// full, or reports an earlier write's error.
func (a *asyncOut) emit(rec arrow.RecordBatch) error {
	if a.edge == nil {
		return a.out.emit(rec)
	}
	rec.Retain()
	if err := stream.SendRecord(a.ctx, a.edge, rec); err != nil {
		rec.Release()
		if a.err != nil {
			return a.err
		}
		return err
	}
	return nil
}

// finish waits for the queued batches to be written and returns the first
// write error.
func (a *asyncOut) finish() error {
	if a.edge == nil {
		return nil
	}
	a.edge.Close()
	a.wg.Wait()
	a.cancel()
	return a.err
}

// progressEvery is how often a running flow reports its counts in the event
// log (flow_progress, status running).
const progressEvery = 10 * time.Second

// tickProgress emits flow_progress events while a flow runs; call the
// returned function when it ends.
func tickProgress(f *run.Flow) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				f.Progress()
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// callFlow runs a flow's Run function, turning a panic into an error.
func callFlow(f *Flow, fc *FlowContext) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: %v\n%s", p, debug.Stack())
		}
	}()
	return f.Run(fc)
}

// checkBatch checks that a flow emits its target's column types (want: the
// target's schema, or a change flow's change schema).
func checkBatch(name string, want *arrow.Schema, rec arrow.RecordBatch) error {
	if int(rec.NumCols()) != want.NumFields() {
		return fmt.Errorf("emitted a batch of %d columns; %s has %d", rec.NumCols(), name, want.NumFields())
	}
	for i := 0; i < want.NumFields(); i++ {
		col, f := rec.Column(i), want.Field(i)
		if got := col.DataType(); !arrow.TypeEqual(got, f.Type) {
			return fmt.Errorf("emitted column %d (%s) as %s; %s declares %s", i+1, f.Name,
				format.TypeString(got), name, format.TypeString(f.Type))
		}
		if !f.Nullable && col.NullN() > 0 {
			return fmt.Errorf("emitted %s NULL in column %s, which %s declares NOT NULL", plural(int64(col.NullN()), "row with", "rows with"), f.Name, name)
		}
	}
	return nil
}

// target is where a flow's rows go.
type target interface {
	emit(rec arrow.RecordBatch) error
	close() error
	abort()
}

// storedTarget writes a new version of a materialized view (replacing the
// old one) or of a streaming table (appending to it). The flows of one
// dataset share it.
type storedTarget struct {
	ex     *executor
	ds     *Dataset
	opts   warehouse.WriteOptions
	create bool // write a version even when no rows come
	w      *warehouse.DatasetWriter
}

func (t *storedTarget) open() error {
	if t.w != nil {
		return nil
	}
	w, err := t.ex.r.Write(t.ex.ctx, t.ds.Name, t.ds.Schema, t.opts)
	if err != nil {
		return err
	}
	t.w = w
	return nil
}

func (t *storedTarget) emit(rec arrow.RecordBatch) error {
	if err := t.open(); err != nil {
		return err
	}
	return t.w.Write(rec)
}

func (t *storedTarget) close() error {
	if t.w == nil {
		if !t.create {
			return nil // a streaming table that got nothing new keeps its version
		}
		if err := t.open(); err != nil {
			return err
		}
	}
	return t.w.Close()
}

func (t *storedTarget) abort() {
	if t.w != nil {
		t.w.Abort()
	}
}

// hookedTarget runs a hook before each write (tests: a slow sink).
type hookedTarget struct {
	target
	before func()
}

func (h hookedTarget) emit(rec arrow.RecordBatch) error {
	h.before()
	return h.target.emit(rec)
}

// viewTarget keeps a temporary view's rows in memory for its readers.
type viewTarget struct {
	schema  *arrow.Schema
	batches []arrow.RecordBatch
}

func (v *viewTarget) emit(rec arrow.RecordBatch) error {
	rec.Retain()
	v.batches = append(v.batches, rec)
	return nil
}

func (v *viewTarget) close() error { return nil }
func (v *viewTarget) abort()       { v.release() }

func (v *viewTarget) release() {
	for _, b := range v.batches {
		b.Release()
	}
	v.batches = nil
}

// memReader reads batches held in memory (views, stdin).
type memReader struct {
	schema  *arrow.Schema
	batches []arrow.RecordBatch
}

func (m *memReader) Schema() *arrow.Schema { return m.schema }

func (m *memReader) Next() (arrow.RecordBatch, error) {
	if len(m.batches) == 0 {
		return nil, io.EOF
	}
	b := m.batches[0]
	m.batches = m.batches[1:]
	b.Retain()
	return b, nil
}

func (m *memReader) Close() error {
	m.batches = nil
	return nil
}

// view computes a temporary view (once per run) and returns it.
func (ex *executor) view(v *Dataset, full bool) (*viewTarget, error) {
	if t := ex.views[v.Name]; t != nil {
		return t, nil
	}
	t := &viewTarget{schema: v.Schema}
	for _, f := range v.Flows {
		if err := ex.runFlow(v, f, t, full); err != nil {
			t.release()
			return nil, err
		}
	}
	ex.views[v.Name] = t
	ex.r.Txn.SetFingerprint(v.Name, ex.pl.fingerprint(v, nil))
	return t, nil
}

// release frees what the run kept in memory.
func (ex *executor) release() {
	for _, v := range ex.views {
		v.release()
	}
	for _, s := range ex.stdin {
		for _, b := range s.batches {
			b.Release()
		}
		s.batches = nil
	}
}

// stdinData is an Arrow IPC stream on stdin, read once and kept for every
// flow that reads it (it cannot be read twice).
type stdinData struct {
	batches []arrow.RecordBatch
	err     error
}

func (ex *executor) stdinReader(src *Dataset) (format.BatchReader, error) {
	s := ex.stdin[src.Name]
	if s == nil {
		s = &stdinData{}
		ex.stdin[src.Name] = s
		if ex.feed != nil {
			// --follow: the batches that arrived since the last epoch.
			s.batches, s.err = ex.feed.take(src.Name)
		} else if ex.c.stdin == nil {
			s.err = fmt.Errorf("source %s reads standard input, and there is none", src.Name)
		} else if r, err := format.OpenStream(ex.c.stdin, "stdin", src.Schema, format.Options{Mem: ex.mem}); err != nil {
			s.err = err
		} else {
			s.batches, s.err = format.ReadAll(r)
		}
	}
	if s.err != nil {
		return nil, s.err
	}
	return &memReader{schema: src.Schema, batches: s.batches}, nil
}

// sourceOptions are a source's reader options.
func sourceOptions(src *Dataset, mem memory.Allocator) (format.Format, format.Options, error) {
	opts := format.Options{Mem: mem}
	f, err := format.ParseFormat(src.Source.Format)
	if err != nil {
		return 0, opts, fmt.Errorf("source %s: %w", src.Name, err)
	}
	if f == format.CSV {
		o, err := format.ParseCSVOptions(src.Source.Options)
		if err != nil {
			return 0, opts, fmt.Errorf("source %s: %w", src.Name, err)
		}
		opts.CSV = &o
	} else if len(src.Source.Options) > 0 {
		return 0, opts, fmt.Errorf("source %s: option %q is not read for %s files", src.Name, src.Source.Options[0][0], f)
	}
	return f, opts, nil
}

// flowReads serves one flow's reads.
type flowReads struct {
	mu      sync.Mutex // Read is safe for concurrent use by a flow's goroutines
	ex      *executor
	ds      *Dataset
	f       *Flow
	full    bool
	streams map[string]*streamRead
	readers []*ctxReader

	edgeMu sync.Mutex
	edges  []flowEdge
}

// addEdge records one of the flow's edges for its events.
func (fr *flowReads) addEdge(name string, stats func() stream.EdgeStats) {
	fr.edgeMu.Lock()
	fr.edges = append(fr.edges, flowEdge{name: name, stats: stats})
	fr.edgeMu.Unlock()
}

// edgeEvents is the occupancy of the flow's edges (run.Flow.SetEdges).
func (fr *flowReads) edgeEvents() []events.Edge {
	fr.edgeMu.Lock()
	defer fr.edgeMu.Unlock()
	if len(fr.edges) == 0 {
		return nil
	}
	return edgeEvents(fr.edges)
}

// streamRead is a stream read's input for this run and the offset to
// record once the flow succeeded.
type streamRead struct {
	key      string
	srcFiles []format.File
	whFiles  []warehouse.File
	next     offset
}

func (fr *flowReads) read(name string) (format.BatchReader, error) {
	return fr.readColumns(name, nil, nil)
}

// readColumns is read, decoding only the columns cols of a Parquet source
// (nil: all of them) and skipping its row groups that bounds exclude.
func (fr *flowReads) readColumns(name string, cols []int, bounds []format.Bound) (format.BatchReader, error) {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	var in *Input
	for i := range fr.f.Inputs {
		if fr.f.Inputs[i].Name == name {
			in = &fr.f.Inputs[i]
			break
		}
	}
	if in == nil {
		var names []string
		for _, i := range fr.f.Inputs {
			names = append(names, i.Name)
		}
		return nil, fmt.Errorf("reads %s, which is not one of its inputs (%s)", name, strings.Join(names, ", "))
	}
	ex := fr.ex
	x := ex.pl.byName[name]
	stream := streamInput(fr.ds, *in)
	var (
		br  format.BatchReader
		err error
	)
	switch {
	case x.Kind == Source && x.Source.Stdin:
		br, err = ex.stdinReader(x)
	case x.Kind == Source:
		f, opts, oerr := sourceOptions(x, ex.mem)
		if oerr != nil {
			return nil, oerr
		}
		l := ex.pl.listing(x)
		if l.err != nil {
			return nil, l.err
		}
		files := l.files
		if stream {
			files = fr.streamSource(x, l).srcFiles
		}
		ex.srcRead[x.Name] = true
		opts.Columns, opts.Threads, opts.Bounds, opts.Reuse = cols, ex.threads, bounds, true
		br = format.OpenFiles(files, f, x.Schema, opts)
	case stored(x.Kind):
		cur, ok := ex.r.Txn.Dataset(name)
		if !ok {
			return nil, fmt.Errorf("dataset %s has no committed version yet; run it first", name)
		}
		if stream {
			sub := *cur
			sub.Files = fr.streamStored(x, cur).whFiles
			cur = &sub
		}
		br, err = ex.r.WH.Open(ex.ctx, cur, format.Options{Mem: ex.mem, Threads: ex.threads})
	case isView(x.Kind):
		var v *viewTarget
		if v, err = ex.view(x, fr.full); err == nil {
			br = &memReader{schema: v.schema, batches: v.batches}
		}
	default:
		err = fmt.Errorf("cannot read %s %s", x.Kind, name)
	}
	if err != nil {
		return nil, err
	}
	if ex.threads > 1 && (x.Kind == Source && !x.Source.Stdin || stored(x.Kind)) {
		// Decode on a goroutine of its own, ahead of the flow, into a
		// bounded edge.
		er := newEdgeReader(ex.ctx, br, ex.edges.bounds(in.Bounds))
		fr.addEdge(name+" -> "+fr.f.Name, er.edge.Stats)
		br = er
	}
	cr := &ctxReader{ctx: ex.ctx, r: br}
	fr.readers = append(fr.readers, cr)
	return cr, nil
}

// streamSource is a stream read of a source: the files the flow has not
// consumed (all of them on a full refresh).
func (fr *flowReads) streamSource(src *Dataset, l *sourceListing) *streamRead {
	if sr := fr.streams[src.Name]; sr != nil {
		return sr
	}
	key := offsetKey(fr.ds.Name, fr.f.Name, src.Name)
	var consumed []fileStamp
	if !fr.full {
		consumed = fr.ex.pl.offset(fr.ds.Name, fr.f.Name, src.Name).Files
	}
	files, stamps, changed := unconsumed(l, consumed)
	files, stamps = fr.capFiles(files, stamps)
	if len(changed) > 0 {
		fr.ex.r.Warn(fmt.Sprintf("source %s: %s changed after flow %s read it; a stream read does not read a file twice (--full-refresh %s reads everything again)",
			src.Name, someNames(changed), fr.f.Name, fr.ds.Name))
	}
	now := map[string]fileStamp{}
	for _, s := range l.stamps {
		now[s.Path] = s
	}
	var next []fileStamp
	for _, s := range consumed {
		if cur, ok := now[s.Path]; ok {
			s = cur // warn once about a changed file
		}
		next = append(next, s)
	}
	next = append(next, stamps...)
	sort.Slice(next, func(i, j int) bool { return next[i].Path < next[j].Path })
	sr := &streamRead{key: key, srcFiles: files, next: offset{Files: next}}
	fr.streams[src.Name] = sr
	return sr
}

// streamStored is a stream read of a stored dataset: the files appended
// since the flow's offset (all of them after a rewrite or on a full refresh).
func (fr *flowReads) streamStored(x *Dataset, cur *warehouse.Dataset) *streamRead {
	if sr := fr.streams[x.Name]; sr != nil {
		return sr
	}
	var off offset
	if !fr.full {
		off = fr.ex.pl.offset(fr.ds.Name, fr.f.Name, x.Name)
	}
	files, rewritten := streamFiles(cur, off)
	if rewritten {
		fr.ex.r.Warn(fmt.Sprintf("flow %s: %s was rewritten, not appended to, since the flow last read it; reading all of it", fr.f.Name, x.Name))
	}
	next := offset{Version: cur.Version, Count: len(cur.Files)}
	if n := len(cur.Files); n > 0 {
		next.Last = cur.Files[n-1].Path
	}
	sr := &streamRead{key: offsetKey(fr.ds.Name, fr.f.Name, x.Name), whFiles: files, next: next}
	fr.streams[x.Name] = sr
	return sr
}

// saveOffsets records the flow's new stream offsets in the transaction.
func (fr *flowReads) saveOffsets() {
	for _, sr := range fr.streams {
		raw, _ := json.Marshal(sr.next)
		fr.ex.r.Txn.SetSourceOffset(sr.key, raw)
		fr.ex.pl.offsets[sr.key] = raw
	}
}

func (fr *flowReads) closeReaders() {
	for _, r := range fr.readers {
		r.Close()
	}
}

// ctxReader stops reading once the run is interrupted.
type ctxReader struct {
	ctx    context.Context
	r      format.BatchReader
	closed bool
}

func (c *ctxReader) Schema() *arrow.Schema { return c.r.Schema() }

func (c *ctxReader) Next() (arrow.RecordBatch, error) {
	if c.closed {
		return nil, io.EOF
	}
	if err := c.ctx.Err(); err != nil {
		return nil, err
	}
	return c.r.Next()
}

func (c *ctxReader) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	return c.r.Close()
}

// Sinks.

// sinkFormat is a sink's format: parquet (the default), csv, jsonl or
// stdout (JSON lines on standard output).
func sinkFormat(d *Dataset) string {
	f := strings.ToLower(d.Format)
	switch f {
	case "":
		return "parquet"
	case "json":
		return "jsonl"
	case "console":
		return "stdout"
	}
	return f
}

// sinkOption is a sink option's value ("" when absent); keys ignore case.
func sinkOption(d *Dataset, key string) string {
	for _, kv := range d.SinkOptions {
		if strings.EqualFold(kv[0], key) {
			return kv[1]
		}
	}
	return ""
}

// sinkPending is what a commit records of a sink file it has not published
// yet: a run that dies between its commit and the rename leaves the file
// for the next run to publish.
type sinkPending struct {
	Epoch int64  `json:"epoch"`
	Temp  string `json:"temp"`
	Final string `json:"final"`
}

func sinkStateKey(name string) string { return "sink/" + name }

// sinkTarget writes a sink's rows of this run to a temporary file, renamed
// into place (or copied to stdout) once the run has committed.
type sinkTarget struct {
	ex          *executor
	ds          *Dataset
	stdout      bool
	temp, final string
	file        *os.File
	w           format.Writer
}

func (s *sinkTarget) open() error {
	if s.w != nil {
		return nil
	}
	fname := sinkFormat(s.ds)
	s.stdout = fname == "stdout"
	if s.stdout {
		fname = "jsonl"
	}
	f, err := format.ParseFormat(fname)
	if err != nil {
		return fmt.Errorf("sink %s: %w", s.ds.Name, err)
	}
	if s.stdout {
		if s.file, err = os.CreateTemp("", "etl-sink-*.jsonl"); err != nil {
			return fmt.Errorf("sink %s: %w", s.ds.Name, err)
		}
		s.temp = s.file.Name()
	} else {
		dir := sinkOption(s.ds, "path")
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(s.ex.place.root, dir)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("sink %s: %w", s.ds.Name, err)
		}
		tag := s.ex.r.ID
		if len(tag) > 8 {
			tag = tag[len(tag)-8:]
		}
		name := fmt.Sprintf("part-%06d-%s%s", s.ex.r.Txn.Epoch(), tag, f.Ext())
		s.final = filepath.Join(dir, name)
		s.temp = filepath.Join(dir, "."+name+".tmp")
		if s.file, err = os.OpenFile(s.temp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); err != nil {
			return fmt.Errorf("sink %s: %w", s.ds.Name, err)
		}
	}
	if s.w, err = format.NewWriter(s.file, f, s.ds.Schema, format.WriteOptions{Mem: s.ex.mem}); err != nil {
		s.abort()
		return fmt.Errorf("sink %s: %w", s.ds.Name, err)
	}
	return nil
}

func (s *sinkTarget) emit(rec arrow.RecordBatch) error {
	if err := s.open(); err != nil {
		return err
	}
	return s.w.Write(rec)
}

func (s *sinkTarget) close() error {
	if s.w == nil {
		return nil // nothing new: no file
	}
	err := s.w.Close()
	if err == nil && !s.stdout {
		err = s.file.Sync()
	}
	if cerr := s.file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(s.temp)
		return fmt.Errorf("sink %s: %w", s.ds.Name, err)
	}
	s.ex.sinks = append(s.ex.sinks, s)
	if !s.stdout {
		raw, _ := json.Marshal(sinkPending{Epoch: s.ex.r.Txn.Epoch(), Temp: s.temp, Final: s.final})
		s.ex.r.Txn.SetState(sinkStateKey(s.ds.Name), raw)
	}
	return nil
}

func (s *sinkTarget) abort() {
	if s.file != nil {
		s.file.Close()
		os.Remove(s.temp)
	}
}

// publish makes a committed sink file visible (or writes it to stdout).
func (s *sinkTarget) publish(stdout io.Writer) error {
	if s.stdout {
		f, err := os.Open(s.temp)
		if err != nil {
			return fmt.Errorf("sink %s: %w", s.ds.Name, err)
		}
		defer os.Remove(s.temp)
		defer f.Close()
		if _, err := io.Copy(stdout, f); err != nil {
			return fmt.Errorf("sink %s: %w", s.ds.Name, err)
		}
		return nil
	}
	if err := os.Rename(s.temp, s.final); err != nil {
		return fmt.Errorf("sink %s: publishing %s: %w (the next run publishes it)", s.ds.Name, s.final, err)
	}
	return nil
}

// discard removes the file of a run that failed.
func (s *sinkTarget) discard() { os.Remove(s.temp) }

// completeSinks publishes sink files that a committed run left unpublished
// (it died between its commit and the rename).
func (ex *executor) completeSinks(head *warehouse.Commit) {
	if head == nil {
		return
	}
	for _, ds := range ex.p.Datasets {
		raw, ok := head.State[sinkStateKey(ds.Name)]
		if ds.Kind != Sink || !ok {
			continue
		}
		var pend sinkPending
		if json.Unmarshal(raw, &pend) != nil || pend.Temp == "" {
			continue
		}
		if _, err := os.Stat(pend.Temp); err != nil {
			continue // published
		}
		if _, err := os.Stat(pend.Final); err == nil {
			continue
		}
		if err := os.Rename(pend.Temp, pend.Final); err != nil {
			ex.r.Warn(fmt.Sprintf("sink %s: could not publish %s of epoch %d: %v", ds.Name, pend.Final, pend.Epoch, err))
			continue
		}
		ex.r.Warn(fmt.Sprintf("sink %s: published %s, committed at epoch %d by a run that stopped before publishing it", ds.Name, pend.Final, pend.Epoch))
	}
}
