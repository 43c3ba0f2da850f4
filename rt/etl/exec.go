package etl

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/run"
	"github.com/nordisk/thund/rt/spill"
	"github.com/nordisk/thund/rt/stream"
	"github.com/nordisk/thund/rt/warehouse"
)

// The executor: one run's work between Begin and Commit. It decides per
// dataset (plan.go), builds the stale ones in Pipeline.Datasets order and
// runs each flow's generated Run function with a FlowContext
// (flowcontext.go); reads are in reads.go, the targets flows write to in
// targets.go and sinks.go.

// executor is one run's work.
type executor struct {
	c       *cli
	ctx     context.Context
	p       *Pipeline
	place   place
	threads int
	budget  *memBudget
	spill   *spill.Area // the run's spill folder (--spill-dir)
	sel     *selection
	mem     memory.Allocator
	prog    progress
	edges   edgeConfig
	// maxFiles bounds a stream read of a source to that many new files
	// (0: no bound); backlog is the most files a read of this epoch left
	// for the next (epochs.go).
	maxFiles int
	backlog  int
	// kafkaLeft is the offsets of Kafka stream reads that
	// maxOffsetsPerTrigger left for the next epoch.
	kafkaLeft int64
	// warnedMissing: the Kafka sources whose missing topics were warned of.
	warnedMissing map[string]bool
	fp            fingerprintMode // --fingerprint
	// allOrNothing (--all-or-nothing): a failed dataset fails the run;
	// otherwise it fails alone (isolate.go), and failed maps each dataset
	// that failed or was skipped to the failed dataset upstream of it.
	allOrNothing bool
	failed       map[string]string

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
	sinks   []publisher          // written, published after the commit
	kafka   map[string]*kafkaRef // the selected Kafka sinks (kafka_sink.go)
	stdin   map[string]*stdinData
	srcRead map[string]bool
	built   []string
	clock   stream.Clock // nil: the wall clock

	// the run's quarantine tables, by name (quarantine.go)
	quarMu sync.Mutex
	quar   map[string]*quarTable
}

// body is the run between Begin and Commit: decide, then build in order.
func (ex *executor) body(_ context.Context, r *run.Run) error {
	ex.r = r
	ex.pl = newPlanner(ex.p, ex.place.root, r.State.Head, ex.sel)
	ex.pl.ctx = ex.ctx
	ex.pl.lookup = r.Txn.Dataset
	ex.pl.epoch = r.Txn.Epoch()
	ex.pl.nonce = r.ID
	ex.pl.force = ex.force
	ex.pl.maxFiles = ex.maxFiles
	ex.pl.fp = ex.fp
	if ex.feed != nil {
		ex.pl.stdinNew = ex.feed.pending
	}
	ex.completeSinks(r.State.Head)
	ex.quar = nil
	if err := ex.preflight(); err != nil {
		return err
	}
	if err := ex.openKafka(r.State.Head); err != nil {
		return err
	}
	for _, ds := range ex.p.Datasets {
		if err := ex.ctx.Err(); err != nil {
			return errInterrupted
		}
		d := ex.pl.evaluate(ds)
		if up := ex.failedUpstream(ds, map[string]bool{}); up != "" {
			// a dataset upstream failed (isolate.go): skip ds when it is
			// selected, even if fresh (it is not brought up to date with
			// what this run meant to build upstream); a view or late table
			// carries the failure to its readers
			if !buildable(ds.Kind) || lateOwner(ex.p, ds) != "" {
				ex.markFailed(ds.Name, up)
			} else if d.Selected {
				ex.skipDownstream(ds, up)
				continue
			}
		}
		r.Staleness(ds.Name, d.Decision, d.Reason())
		ex.prog.decision(d)
		if d.Err != nil && d.Selected && buildable(ds.Kind) {
			if err := ex.isolate(ds, nil, fmt.Errorf("cannot build %s: %w", ds.Name, d.Err)); err != nil {
				return err
			}
			continue
		}
		if !d.Build {
			if buildable(ds.Kind) {
				for _, f := range ds.Flows {
					ex.skipped(ds, f)
				}
			}
			continue
		}
		sp := ex.savepoint()
		built := len(ex.built)
		if err := ex.build(ds, d); err != nil {
			if err := ex.isolate(ds, sp, err); err != nil {
				return err
			}
			continue
		}
		if len(ex.built) > built {
			r.DatasetUpdated(ds.Name)
		}
	}
	if err := ex.writeQuarantines(); err != nil {
		return err
	}
	for _, ds := range ex.p.Datasets {
		if ex.srcRead[ds.Name] {
			r.Txn.SetFingerprint(ds.Name, ex.pl.sourceFingerprint(ds))
		}
	}
	if ex.ctx.Err() != nil {
		return errInterrupted
	}
	ex.finishKafka()
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
	case isKafkaSink(ds):
		ref := ex.kafka[ds.Name]
		if ref == nil {
			return fmt.Errorf("sink %s: not opened (internal error)", ds.Name)
		}
		out = &kafkaTarget{ex: ex, ref: ref}
	case ds.Kind == Sink:
		if sinkFormat(ds) != "stdout" {
			if _, err := sinkMode(ds); err != nil {
				return err
			}
		}
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
	fc.spillArea = ex.spill
	err = callFlow(f, fc)
	fc.removeSpills()
	if werr := aout.finish(); err == nil {
		err = werr
	}
	stopTicks()
	fr.closeReaders()
	fr.countMalformed(stats)
	fr.countIcebergReads(stats)
	fc.countParses()
	if err == nil {
		err = fr.quarantine(stats)
	}
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

// release frees what the run kept in memory.
func (ex *executor) release() {
	ex.closeKafka()
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
