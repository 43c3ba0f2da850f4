package etl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/run"
	"github.com/nordisk/thund/rt/stream"
	"github.com/nordisk/thund/rt/warehouse"
)

// `etl run --follow`: epochs until a stop is requested.
//
// The loop polls: at each poll it plans, as `etl plan` does, over the flows
// that are due (their triggers), and runs an epoch only when a selected
// dataset is stale: new files in a source or a watched folder, new
// batches on standard input, an input rebuilt. An epoch is one `run`: one
// lock, one commit, one event file; a poll that finds nothing new commits
// nothing and writes nothing. Materialized views downstream of a stream are
// rebuilt in the epoch in which their inputs changed (reconciliation decides,
// as in a --once run).
//
// With --max-files-per-epoch (epochs.go) an epoch reads at most N new
// files per stream read of a source; one that left files is followed at
// once by the next, without waiting for the poll. The same loop (newFollower,
// pending, runEpoch) runs the epochs of a --once run so split (catchUp).
// --refresh and --full-refresh apply to the first epoch only.
//
// Triggers (Flow.Trigger) are checked at each poll: a flow with `every D`
// is due when D has passed since the start of the last epoch that ran it
// (the first poll always runs it); `available now` is due at the first
// epoch only; no trigger: due at every poll. A flow that is not due keeps
// its input for a later epoch (its offsets do not move).
//
// Time alone changes results only through watermarks' idle timeouts
// (Flow.IdleTimeout): when that long has passed after the last epoch that
// ran the flow on new input, one epoch runs it without new input, with the
// reason "idle timeout ... passed"; then none until new input arrives. So
// an idle pipeline commits at most one extra epoch per burst of input.
//
// Stopping: the first SIGINT or SIGTERM (cancelling the context given to
// follow) lets the running epoch finish and commit, then the loop ends,
// exit status 0. A second signal (cli.abort) interrupts the running epoch,
// which then commits nothing, exit status 1. A failed epoch ends the loop,
// exit status 1, and so does an epoch in which some datasets failed, once it
// has committed the others (isolate.go); a warehouse lock held by another run only delays the next
// epoch.

// defaultPollInterval is how often --follow looks for new input.
const defaultPollInterval = time.Second

// follower is the state of one `run --follow` between its epochs.
type follower struct {
	c     *cli
	rc    *runConfig
	clock stream.Clock
	poll  time.Duration
	feed  *stdinFeed // standard input's batches, when a selected dataset reads it

	epochs    int                  // committed
	lastRun   map[string]time.Time // flow key: start of the last epoch that ran it
	idleFired map[string]bool      // flow key: a time-only epoch ran since its last input
	// once: `run --once --max-files-per-epoch` (epochs.go): every flow is
	// due, no idle timeouts; a lock held by another run fails the run.
	once bool
	// Of the last epoch: it left files of a stream read for the next epoch
	// (--max-files-per-epoch), and it built something.
	backlog    bool
	progressed bool
	lastEpoch  int64 // the last epoch committed

	// Per epoch.
	now    time.Time
	forced map[string]string // dataset: the reason it runs without new input
	dueNow func(ds *Dataset, f *Flow) bool
}

// flowKey names a flow in the follower's maps.
func flowKey(ds *Dataset, f *Flow) string { return ds.Name + "/" + f.Name }

// due reports whether flow f of ds may run in an epoch starting at now.
func (fl *follower) due(ds *Dataset, f *Flow) bool {
	last, ran := fl.lastRun[flowKey(ds, f)]
	switch t := f.Trigger; {
	case t == nil:
		return true
	case t.AvailableNow:
		return !ran
	case t.Every > 0:
		return !ran || !fl.now.Before(last.Add(t.Every))
	}
	return true
}

// anyDue reports whether a flow of ds is due (with --follow; always true
// otherwise). A materialized view recomputed in full runs all its flows or
// none: it is due only when every flow is.
func (ex *executor) anyDue(ds *Dataset) bool {
	if ex.due == nil {
		return true
	}
	n := 0
	for _, f := range ds.Flows {
		if ex.due(ds, f) {
			n++
		}
	}
	if recomputed(ds) {
		return n == len(ds.Flows)
	}
	return n > 0 || len(ds.Flows) == 0
}

// idleForced lists the datasets to run without new input at now: a flow
// of theirs has an idle timeout that has passed since the last epoch that
// ran it on new input.
func (fl *follower) idleForced() map[string]string {
	out := map[string]string{}
	for _, ds := range fl.c.p.Datasets {
		if !fl.rc.sel.has(ds.Name) {
			continue
		}
		for _, f := range ds.Flows {
			k := flowKey(ds, f)
			last, ran := fl.lastRun[k]
			if f.IdleTimeout <= 0 || !ran || fl.idleFired[k] || fl.now.Before(last.Add(f.IdleTimeout)) {
				continue
			}
			out[ds.Name] = fmt.Sprintf("idle timeout %v of flow %s passed with no new input (its watermark may advance)", f.IdleTimeout, f.Name)
		}
	}
	return out
}

// pending plans the next epoch without running it: whether a selected
// dataset would be built by the flows that are due.
func (fl *follower) pending(ctx context.Context) (bool, error) {
	wh := warehouse.New(fl.rc.place.readFS())
	st, err := wh.Load(ctx)
	if err != nil {
		return false, fmt.Errorf("reading the warehouse: %w", err)
	}
	// Plan over the due flows only: a stream input that only a flow not due
	// reads does not make its reader stale now.
	p := &Pipeline{Name: fl.c.p.Name, File: fl.c.p.File, Kafka: fl.c.p.Kafka}
	ex := &executor{due: fl.dueNow}
	for _, ds := range fl.c.p.Datasets {
		if !buildable(ds.Kind) || fl.dueNow == nil {
			p.Datasets = append(p.Datasets, ds)
			continue
		}
		cp := *ds
		if !ex.anyDue(ds) {
			cp.Flows = nil
		} else if !recomputed(ds) {
			cp.Flows = nil
			for _, f := range ds.Flows {
				if fl.dueNow(ds, f) {
					cp.Flows = append(cp.Flows, f)
				}
			}
		}
		p.Datasets = append(p.Datasets, &cp)
	}
	pl := newPlanner(p, fl.rc.place.root, st.Head, fl.rc.sel)
	pl.ctx = ctx
	pl.predict, pl.epoch, pl.force, pl.fp = true, st.NextEpoch, fl.forced, fl.rc.fp
	if fl.feed != nil {
		pl.stdinNew = fl.feed.pending
	}
	for _, ds := range p.Datasets {
		d := pl.evaluate(ds)
		if !d.Selected || !buildable(ds.Kind) {
			continue
		}
		if len(ds.Flows) == 0 && d.Err == nil {
			continue // nothing due: not now
		}
		if d.Build || d.Err != nil {
			return true, nil // an error: the epoch fails and says why
		}
	}
	return false, nil
}

// newFollower prepares the epochs of one `run --follow` (or of a --once
// run split by --max-files-per-epoch): the clock, and standard input's
// feed when a selected dataset reads it (the caller closes it).
func newFollower(c *cli, rc *runConfig, poll time.Duration) *follower {
	fl := &follower{c: c, rc: rc, clock: c.clock, poll: poll, lastRun: map[string]time.Time{}, idleFired: map[string]bool{}}
	if fl.clock == nil {
		fl.clock = stream.WallClock{}
	}
	for _, ds := range c.p.Datasets {
		if ds.Kind == Source && ds.Source != nil && ds.Source.Stdin && c.readBySelection(ds, rc.sel) {
			fl.feed = newStdinFeed(c.stdin, ds, rc.mem)
			break
		}
	}
	return fl
}

// follow runs epochs until stop is cancelled (see above).
func (c *cli) follow(stop context.Context, rc *runConfig, poll time.Duration) int {
	fl := newFollower(c, rc, poll)
	if fl.feed != nil {
		defer fl.feed.close()
	}
	abort := c.abort
	if abort == nil {
		abort = context.Background()
	}
	fmt.Fprintf(c.stderr, "following: polling for new input every %v; stop with Ctrl-C or SIGTERM\n", poll)
	for stop.Err() == nil {
		var arrived <-chan struct{}
		if fl.feed != nil {
			arrived = fl.feed.arrived() // before looking: what arrives after wakes the wait
		}
		fl.now = fl.clock.Now()
		fl.dueNow = fl.due
		fl.forced = fl.idleForced()
		work, err := fl.pending(stop)
		if err != nil {
			return c.fail("run", err)
		}
		if !work && fl.feed != nil && fl.feed.ended() {
			if err := fl.feed.err(); err != nil {
				return c.fail("run", fmt.Errorf("standard input: %w", err))
			}
			fmt.Fprintf(c.stderr, "standard input ended after %d epochs; stopping\n", fl.epochs)
			return ExitOK
		}
		fl.backlog = false
		if work {
			if code, done := fl.runEpoch(abort); done {
				return code
			}
		}
		if fl.backlog && stop.Err() == nil {
			continue // --max-files-per-epoch left files: the next epoch now
		}
		select {
		case <-stop.Done():
		case <-fl.clock.After(fl.poll):
		case <-arrived:
		}
	}
	fmt.Fprintf(c.stderr, "stopped after %d epochs (interrupted between epochs: nothing was lost)\n", fl.epochs)
	return ExitOK
}

// runEpoch runs one epoch of --follow and prints its line; done reports
// that the loop must end with status code.
func (fl *follower) runEpoch(abort context.Context) (code int, done bool) {
	c := fl.c
	start := time.Now()
	fl.backlog, fl.progressed = false, false
	r, ex, err := c.epoch(abort, fl.rc, fl)
	if r == nil {
		var le *warehouse.LockedError
		if errors.As(err, &le) && !fl.once {
			fmt.Fprintf(c.stderr, "waiting: %v\n", err)
			return 0, false
		}
		return c.fail("run", err), true
	}
	c.epochErrors(r, err)
	if err != nil {
		// A failed epoch ends the loop; so does a partial one (isolate.go),
		// after committing what succeeded.
		if r.Summary.Epoch > 0 {
			fl.lastEpoch = r.Summary.Epoch
		}
		r.Summary.Print(c.stderr)
		if errors.Is(err, errInterrupted) {
			fmt.Fprintf(c.stderr, "interrupted: the epoch in flight was abandoned; nothing of it is committed\n")
		}
		return run.ExitCode(err), true
	}
	fl.epochs++
	if fl.epochs == 1 {
		// --refresh and --full-refresh ask for one refresh, which the first
		// epoch did; later epochs only go on from it.
		fl.rc.sel = fl.rc.sel.settled()
	}
	fl.backlog, fl.progressed = ex.backlog > 0 || ex.kafkaLeft > 0, len(ex.built) > 0
	if !r.Summary.NothingToDo {
		fl.lastEpoch = r.Summary.Epoch
	}
	for _, k := range ex.ran {
		target, _, _ := strings.Cut(k, "/")
		if _, forced := fl.forced[target]; forced && ex.pl.decided[target] != nil &&
			len(ex.pl.decided[target].Reasons) == 1 && ex.pl.decided[target].Reasons[0] == fl.forced[target] {
			fl.idleFired[k] = true
			continue
		}
		fl.lastRun[k] = fl.now
		fl.idleFired[k] = false
	}
	in, out := r.Summary.Rows()
	var late, kept, dropped, quarantined int64
	for _, f := range r.Summary.Flows() {
		late += f.Late()
		for _, m := range f.Malformed() {
			kept += m.Kept
			dropped += m.Dropped
			quarantined += m.Quarantined
		}
	}
	rebuilt := "nothing"
	if len(ex.built) > 0 {
		rebuilt = strings.Join(ex.built, ", ")
	}
	waiting := ""
	if ex.backlog > 0 {
		waiting = fmt.Sprintf("; %s wait for the next epoch", plural(int64(ex.backlog), "file", "files"))
	}
	if ex.kafkaLeft > 0 {
		waiting += fmt.Sprintf("; %s of Kafka wait for the next epoch (maxOffsetsPerTrigger)", plural(ex.kafkaLeft, "offset", "offsets"))
	}
	if r.Summary.NothingToDo {
		fmt.Fprintf(c.stderr, "nothing to do in %v: %d rows in, %d rows out, %d late; nothing committed (epoch %d stands)\n",
			time.Since(start).Round(time.Millisecond), in, out, late, r.Summary.Head)
	} else {
		fmt.Fprintf(c.stderr, "epoch %d committed in %v: %d rows in, %d rows out, %d late%s; rebuilt: %s%s\n",
			r.Summary.Epoch, time.Since(start).Round(time.Millisecond), in, out, late, malformedText(kept, dropped, quarantined)+driftText(r.Summary.Flows()), rebuilt, waiting)
	}
	c.keepCheckpoints(abort, fl.rc)
	return 0, false
}

// readBySelection reports whether a selected dataset reads src.
func (c *cli) readBySelection(src *Dataset, sel *selection) bool {
	for _, ds := range c.p.Datasets {
		if !sel.has(ds.Name) {
			continue
		}
		for _, f := range ds.Flows {
			for _, in := range f.Inputs {
				if in.Name == src.Name {
					return true
				}
			}
		}
	}
	return false
}

// quietProgress is the progress of one --follow epoch: the decisions to
// build (or that cannot build), the flows and the warnings, without a line
// per dataset left as it is.
type quietProgress struct {
	progress
	ex *executor
}

func (q quietProgress) decision(d *decision) {
	switch {
	case d.Build && !q.ex.anyDue(d.Dataset):
		q.progress.note(fmt.Sprintf("%s: waits for its trigger (%s)", d.Dataset.Name, d.Reason()))
	case d.Build || d.Err != nil && d.Selected:
		q.progress.decision(d)
	}
}

// stdinFeed reads an Arrow IPC stream on standard input as it arrives,
// for --follow: each epoch takes the batches that arrived before it read
// them. Standard input cannot be replayed, so batches taken by an epoch that
// then fails, or that arrived before a crash, are gone: at-most-once.
type stdinFeed struct {
	src string

	mu      sync.Mutex
	batches []arrow.RecordBatch
	done    bool  // the stream ended (EOF or an error)
	fail    error // why it ended, if not EOF
	signal  chan struct{}
}

func newStdinFeed(r io.Reader, src *Dataset, mem memory.Allocator) *stdinFeed {
	f := &stdinFeed{src: src.Name, signal: make(chan struct{})}
	if r == nil {
		f.done, f.fail = true, fmt.Errorf("source %s reads standard input, and there is none", src.Name)
		return f
	}
	go func() {
		br, err := format.OpenStream(r, "stdin", src.Schema, format.Options{Mem: mem})
		for err == nil {
			var rec arrow.RecordBatch
			if rec, err = br.Next(); err == nil {
				f.mu.Lock()
				f.batches = append(f.batches, rec)
				f.wake()
				f.mu.Unlock()
			}
		}
		if br != nil {
			br.Close()
		}
		f.mu.Lock()
		f.done = true
		if err != io.EOF {
			f.fail = err
		}
		f.wake()
		f.mu.Unlock()
	}()
	return f
}

// wake tells the loop that something arrived; f.mu is held.
func (f *stdinFeed) wake() {
	close(f.signal)
	f.signal = make(chan struct{})
}

// arrived is closed when a batch arrives or the stream ends.
func (f *stdinFeed) arrived() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.signal
}

// pending reports whether batches wait to be read (the planner's stdinNew).
func (f *stdinFeed) pending(string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.batches) > 0 || f.done && f.fail != nil
}

// ended reports that the stream ended and every batch was taken.
func (f *stdinFeed) ended() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.done && len(f.batches) == 0
}

func (f *stdinFeed) err() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fail
}

// wait waits until the stream has ended (a --once run reads all of it in
// its first epoch).
func (f *stdinFeed) wait() {
	for {
		f.mu.Lock()
		done, ch := f.done, f.signal
		f.mu.Unlock()
		if done {
			return
		}
		<-ch
	}
}

// take hands the batches that arrived to an epoch (which releases them).
func (f *stdinFeed) take(src string) ([]arrow.RecordBatch, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if src != f.src {
		return nil, fmt.Errorf("source %s reads standard input, which source %s reads already", src, f.src)
	}
	if f.fail != nil {
		return nil, f.fail
	}
	b := f.batches
	f.batches = nil
	return b, nil
}

// close releases batches no epoch took (the loop stopped first).
func (f *stdinFeed) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, b := range f.batches {
		b.Release()
	}
	f.batches = nil
}

// Back-pressure.

// DefaultEdgeBounds bound an edge when neither the read (`bound N rows
// bound M bytes`) nor --edge-rows / --edge-bytes say otherwise: four
// default batches, 64 MiB.
var DefaultEdgeBounds = EdgeBounds{Rows: 4 * format.DefaultBatchRows, Bytes: 64 << 20}

// edgeConfig is the run's edge flags.
type edgeConfig struct {
	rows, bytes       int64
	setRows, setBytes bool
}

// edgeFlags reads --edge-rows and --edge-bytes.
func edgeFlags(inv *invocation) (edgeConfig, error) {
	var e edgeConfig
	if inv.isSet("edge-rows") {
		n, err := parseCount(inv.str("edge-rows"))
		if err != nil {
			return e, usagef("--edge-rows %q: want a number of rows, 0 for unbounded", inv.str("edge-rows"))
		}
		e.rows, e.setRows = n, true
	}
	if v := inv.str("edge-bytes"); inv.isSet("edge-bytes") {
		var n int64
		if strings.TrimSpace(v) != "0" {
			var err error
			if n, err = ParseBytes(v); err != nil {
				return e, usagef("--edge-bytes %v; or 0 for unbounded", err)
			}
		}
		e.bytes, e.setBytes = n, true
	}
	return e, nil
}

func parseCount(s string) (int64, error) {
	var n int64
	if _, err := fmt.Sscan(s, &n); err != nil || n < 0 || fmt.Sprint(n) != strings.TrimSpace(s) {
		return 0, fmt.Errorf("bad count %q", s)
	}
	return n, nil
}

// bounds is an edge's bounds: declared (nil: DefaultEdgeBounds), then the
// flags.
func (e edgeConfig) bounds(declared *EdgeBounds) EdgeBounds {
	b := DefaultEdgeBounds
	if declared != nil {
		b = *declared
	}
	if e.setRows {
		b.Rows = e.rows
	}
	if e.setBytes {
		b.Bytes = e.bytes
	}
	return b
}

// edgeReader decodes an input on a goroutine of its own into a bounded
// edge, from which the flow reads: decoding overlaps the flow's loop, and a
// flow that stops reading (a slow sink downstream) stops the decoding once
// the edge is full.
type edgeReader struct {
	src    format.BatchReader
	edge   *stream.Edge[arrow.RecordBatch]
	cancel context.CancelFunc
	done   chan struct{}
	err    error // the producer's, read after done
	closed bool
}

func newEdgeReader(ctx context.Context, src format.BatchReader, b EdgeBounds) *edgeReader {
	e, _ := stream.NewEdge[arrow.RecordBatch](b) // bounds are >= 0 by construction
	ctx, cancel := context.WithCancel(ctx)
	r := &edgeReader{src: src, edge: e, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		defer e.Close()
		for {
			rec, err := src.Next()
			if err != nil {
				if err != io.EOF {
					r.err = err
				}
				return
			}
			if err := stream.SendRecord(ctx, e, rec); err != nil {
				rec.Release()
				r.err = err // the run was interrupted, or the reader closed
				return
			}
		}
	}()
	return r
}

func (r *edgeReader) Schema() *arrow.Schema { return r.src.Schema() }

func (r *edgeReader) Next() (arrow.RecordBatch, error) {
	rec, ok, err := r.edge.Recv(context.Background())
	if err != nil {
		return nil, err
	}
	if !ok {
		<-r.done
		if r.err != nil {
			return nil, r.err
		}
		return nil, io.EOF
	}
	return rec, nil
}

func (r *edgeReader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	r.cancel()
	r.edge.Close()
	<-r.done
	for {
		rec, ok, _ := r.edge.Recv(context.Background())
		if !ok {
			break
		}
		rec.Release()
	}
	return r.src.Close()
}

// flowEdge is one edge of a flow, named for the event log.
type flowEdge struct {
	name  string
	stats func() stream.EdgeStats
}

// edgeEvents renders a flow's edges for the event log, in name order.
func edgeEvents(edges []flowEdge) []events.Edge {
	out := make([]events.Edge, 0, len(edges))
	for _, e := range edges {
		s := e.stats()
		out = append(out, events.Edge{Edge: e.name, BoundRows: s.Bounds.Rows, BoundBytes: s.Bounds.Bytes,
			PeakRows: s.PeakRows, PeakBytes: s.PeakBytes, Batches: s.Sent, BlockedSends: s.BlockedSends, OversizeBatches: s.OversizeItems})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Edge < out[j].Edge })
	return out
}
