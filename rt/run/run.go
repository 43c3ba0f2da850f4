package run

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/iceberg"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/warehouse"
)

// Config is what a generated main knows when it starts a run.
type Config struct {
	Pipeline  string
	Warehouse store.FS // the warehouse's storage (--warehouse)
	Root      string   // where relative source paths resolve (--root)
	Lease     time.Duration
	Args      []string // the command line, for the event log
	Threads   int
	Runtime   string // the runtime's version, for the event log
	// RunID overrides the generated id (tests).
	RunID string
	// Now is the clock (tests); nil means time.Now.
	Now func() time.Time
	// OnEvent sees every event as it is emitted (--json, progress).
	OnEvent func(events.Event)
	// AllowOlderCheckpoint lets a run whose latest commit cannot be loaded
	// (a corrupt commit record, a state object missing or failing its
	// checksum) resume from the newest older commit that verifies
	// (--allow-older-checkpoint). Without it such a run stops.
	AllowOlderCheckpoint bool
	// Iceberg names the datasets published as Apache Iceberg tables
	// (rt/iceberg): after the commit, and after a run with nothing to do
	// (to heal a run killed in between), each is brought up to the latest
	// commit. A dataset in the warehouse but not here loses its Iceberg
	// metadata.
	Iceberg map[string]bool
}

// Run is one run of a pipeline: the warehouse transaction, the lock, the
// event log and the summary, with Begin / Commit / Fail semantics. Generated
// code calls Flow, Source, ReadDataset and Write between Begin and Commit.
type Run struct {
	ID      string
	Config  Config
	WH      *warehouse.Warehouse
	Lock    *warehouse.Lock
	State   *warehouse.State
	Txn     *warehouse.Txn
	Log     *events.Log
	Summary *Summary

	mu        sync.Mutex
	finished  bool
	errLogged bool // the run's failure is in the log already, per dataset
}

func (c *Config) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Begin starts a run: it takes the warehouse lock (refusing, with the
// holder's name, when another run has it; taking over a stale one, and saying
// so in the event log), loads the latest commit, removes the garbage of failed
// runs (their staged files, and the temporary files of writes they were
// killed in), and opens the transaction. On error nothing was changed, and the
// refusal is recorded in this run's event log.
func Begin(ctx context.Context, cfg Config) (*Run, error) {
	start := cfg.now()
	id := cfg.RunID
	if id == "" {
		id = events.NewRunID(start)
	}
	wh := warehouse.New(cfg.Warehouse)
	wh.Now = cfg.Now
	log := events.NewLog(cfg.Pipeline, id)
	log.Now = cfg.Now
	if cfg.OnEvent != nil {
		log.Subscribe(cfg.OnEvent)
	}
	r := &Run{ID: id, Config: cfg, WH: wh, Log: log,
		Summary: &Summary{RunID: id, Pipeline: cfg.Pipeline, Start: start, Status: "running"}}
	startDetails := events.RunStart{Warehouse: cfg.Warehouse.Location(""), Args: cfg.Args, Threads: cfg.Threads, Runtime: cfg.Runtime}

	lock, err := wh.Acquire(ctx, id, cfg.Pipeline, cfg.Lease)
	if err != nil {
		log.Emit(events.Info, events.TypeRunStart, "", "", startDetails)
		return nil, r.end(ctx, err)
	}
	r.Lock = lock
	lock.Keep(ctx)
	st, err := wh.Load(ctx)
	if err != nil {
		log.Emit(events.Info, events.TypeRunStart, "", "", startDetails)
		return nil, r.end(ctx, fmt.Errorf("reading the warehouse: %w", err))
	}
	r.State = st
	// Garbage is judged against the newest valid record, even when the run
	// then resumes from an older one: what that record lists stays.
	removed, cerr := wh.Collect(ctx, st)
	temps, terr := wh.CleanTemp(ctx, lock)
	cerr = errors.Join(cerr, terr)
	startDetails.Epoch, startDetails.Collected = st.NextEpoch, len(removed)+temps
	skipped, herr := chooseHead(ctx, wh, st, cfg.AllowOlderCheckpoint)
	if st.Head != nil {
		startDetails.HeadEpoch = st.Head.Epoch
	}
	log.Emit(events.Info, events.TypeRunStart, "", "", startDetails)
	if herr != nil {
		return nil, r.end(ctx, herr)
	}
	if h := st.Head; h != nil && (len(h.State) > 0 || len(h.SourceOffsets) > 0 || len(skipped) > 0) {
		log.Emit(events.Info, events.TypeResumeFromEpoch, "", "", events.ResumeFromEpoch{Epoch: h.Epoch, Skipped: skipped})
	}
	for _, s := range skipped {
		r.Warn("--allow-older-checkpoint: skipped " + s)
	}
	if t := lock.Takeover; t != nil {
		log.Emit(events.Warn, events.TypeLockTakenOver, "", "", events.LockTakenOver{
			PreviousRun: t.Previous.RunID, Host: t.Previous.Host, PID: t.Previous.PID, Reason: t.String()})
	}
	for _, inv := range st.Invalid {
		if len(skipped) == 0 {
			r.Warn("ignored an invalid commit record: " + inv)
		}
	}
	if cerr != nil {
		r.Warn("removing garbage of failed runs: " + cerr.Error())
	}
	r.Txn = wh.Begin(st, id, cfg.Pipeline)
	return r, nil
}

// Warn records a warning in the event log.
func (r *Run) Warn(msg string) {
	r.Log.Emit(events.Warn, events.TypeWarning, "", "", events.Warning{Message: msg})
}

// Flow registers a flow; call Start and End around its work.
func (r *Run) Flow(name, target string) *Flow {
	f := &Flow{Name: name, Target: target, run: r}
	r.Summary.mu.Lock()
	r.Summary.flows = append(r.Summary.flows, f)
	r.Summary.mu.Unlock()
	return f
}

// Start records the flow's start.
func (f *Flow) Start() {
	f.mu.Lock()
	f.start, f.status = f.run.Config.now(), "running"
	f.mu.Unlock()
	f.run.Log.Emit(events.Info, events.TypeFlowStart, f.Target, f.Name, events.FlowStart{Target: f.Target})
}

// SetEdges gives the flow its edges' occupancy, which Progress and End
// record (back-pressure counters).
func (f *Flow) SetEdges(edges func() []events.Edge) {
	f.mu.Lock()
	f.edges = edges
	f.mu.Unlock()
}

func (f *Flow) edgeStats() []events.Edge {
	f.mu.Lock()
	fn := f.edges
	f.mu.Unlock()
	if fn == nil {
		return nil
	}
	return fn()
}

// Progress records an intermediate count (streaming, long batches).
func (f *Flow) Progress() {
	f.run.Log.Emit(events.Metrics, events.TypeFlowProgress, f.Target, f.Name,
		events.FlowProgress{Status: "running", RowsIn: f.RowsIn(), RowsOut: f.RowsOut(), Edges: f.edgeStats()})
}

// End records the flow's end: its rows, expectation counts and late drops.
// err is the flow's failure, if any. End returns the first failed Fail
// expectation, so generated code can stop early.
func (f *Flow) End(err error) error {
	f.mu.Lock()
	f.end = f.run.Config.now()
	f.status = "completed"
	if err != nil {
		f.status = "failed"
	}
	status, dur := f.status, f.end.Sub(f.start)
	f.mu.Unlock()
	log := f.run.Log
	log.Emit(events.Metrics, events.TypeRows, f.Target, f.Name, events.Rows{In: f.RowsIn(), Out: f.RowsOut()})
	var failed error
	for _, e := range f.Expectations() {
		level := events.Metrics
		if e.Failed() > 0 && e.Action == Fail {
			level = events.Error
		} else if e.Failed() > 0 && e.Action == Warn {
			level = events.Warn
		}
		log.Emit(level, events.TypeExpectation, f.Target, f.Name, events.Expectation{Name: e.Name, Action: e.Action.String(),
			Passed: e.Passed(), Failed: e.Failed(), Dropped: e.Dropped()})
		if failed == nil {
			failed = e.Err()
		}
	}
	if n := f.Late(); n > 0 {
		log.Emit(events.Warn, events.TypeLateRowsDropped, f.Target, f.Name, events.LateRowsDropped{Count: n})
	}
	for _, m := range f.Malformed() {
		log.Emit(events.Warn, events.TypeMalformedRecords, f.Target, f.Name, events.MalformedRecords{Source: m.Source, Kept: m.Kept, Dropped: m.Dropped,
			Quarantined: m.Quarantined, QuarantineTable: m.QuarantineTable})
	}
	for _, r := range f.Rescued() {
		log.Emit(events.Warn, events.TypeRescuedRecords, f.Target, f.Name, events.RescuedRecords{Source: r.Source, Column: r.Column, Count: r.Rows})
	}
	for _, n := range f.NewColumns() {
		log.Emit(events.Warn, events.TypeNewColumns, f.Target, f.Name, events.NewColumns{Source: n.Source, Columns: n.Columns, Action: n.Action(), RescuedColumn: n.Into})
	}
	log.Emit(events.Info, events.TypeFlowEnd, f.Target, f.Name, events.FlowEnd{Status: status,
		RowsIn: f.RowsIn(), RowsOut: f.RowsOut(), DurationMS: dur.Milliseconds(), Edges: f.edgeStats(), SpilledBytes: f.Spilled()})
	return failed
}

// Source reads a source's files (globs against Config.Root).
func (r *Run) Source(patterns []string, f format.Format, schema *arrow.Schema, opts format.Options) (format.BatchReader, error) {
	return format.ReadGlobs(r.Config.Root, patterns, f, schema, opts)
}

// ReadDataset reads a dataset as this run sees it: the version staged by
// this run if an earlier flow wrote it, else the committed one.
func (r *Run) ReadDataset(ctx context.Context, name string, opts format.Options) (format.BatchReader, error) {
	d, ok := r.Txn.Dataset(name)
	if !ok {
		return nil, fmt.Errorf("dataset %s has no committed version yet", name)
	}
	return r.WH.Open(ctx, d, opts)
}

// Write starts the new version of a dataset (see warehouse.Txn.Write).
func (r *Run) Write(ctx context.Context, dataset string, schema *arrow.Schema, opts warehouse.WriteOptions) (*warehouse.DatasetWriter, error) {
	return r.Txn.Write(ctx, dataset, schema, opts)
}

// Staleness records a staleness decision for a dataset.
func (r *Run) Staleness(dataset, decision, reason string) {
	r.Log.Emit(events.Info, events.TypeStaleness, dataset, "", events.Staleness{Decision: decision, Reason: reason})
}

// Commit ends the run successfully if it can: a Fail expectation that saw a
// violation (of a flow not isolated with its dataset), a lost lock, or a
// failed commit write fails it instead, and then nothing of it is
// committed. When datasets failed alone (DatasetFailed, outcome.go), the
// others are committed and the run ends partial, with a *PartialError. A run that changed nothing (Txn.Changed)
// commits nothing and succeeds (Summary.NothingToDo). The event log is
// written either way, but for a run with nothing to do that did not warn,
// and the lock released. It returns nil, or the reason the run failed.
func (r *Run) Commit(ctx context.Context) error {
	for _, f := range r.Summary.Flows() {
		if f.isIsolated() {
			continue // its dataset failed alone (DatasetFailed)
		}
		for _, e := range f.Expectations() {
			if err := e.Err(); err != nil {
				return r.Fail(ctx, err)
			}
		}
	}
	fails := r.Summary.failures()
	if len(fails) > 0 {
		r.markOutcomes(fails)
		if !r.Txn.Changed() {
			// Nothing succeeded that would change the warehouse.
			r.Txn.Abort(ctx)
			r.emitOutcomes(0)
			r.errLogged = true
			return r.end(ctx, failuresErr(fails))
		}
	}
	if !r.Txn.Changed() {
		// Nothing to do: a record would repeat the last one, and a poll
		// every minute would leave a record and an event log a minute
		// forever. The run commits nothing, and writes its event log only
		// if it has something to say (a warning); --json still streams
		// its events.
		r.Txn.Abort(ctx)
		r.Summary.NothingToDo = true
		if h := r.State.Head; h != nil {
			r.Summary.Head = h.Epoch
		}
		r.emitOutcomes(0)
		r.publish(ctx, r.State.Head)
		return r.end(ctx, nil)
	}
	if err := r.Lock.Renew(ctx); err != nil {
		return r.Fail(ctx, err)
	}
	c, err := r.Txn.Commit(ctx)
	if err != nil {
		return r.Fail(ctx, err)
	}
	r.Summary.Epoch = c.Epoch
	r.Log.Emit(events.Info, events.TypeCheckpointCommitted, "", "", events.CheckpointCommitted{Epoch: c.Epoch, Objects: c.Names()})
	r.emitOutcomes(c.Epoch)
	r.publish(ctx, c)
	if len(fails) > 0 {
		r.errLogged = true // each failed dataset's error is in the log
		return r.end(ctx, &PartialError{Epoch: c.Epoch, Failed: fails})
	}
	return r.end(ctx, nil)
}

// publish brings the Iceberg tables up to head (rt/iceberg.Publish). The
// commit is done: a failure here is a warning, and the next run publishes
// what this one could not.
func (r *Run) publish(ctx context.Context, head *warehouse.Commit) {
	if r.Config.Iceberg == nil || head == nil {
		return
	}
	done, err := iceberg.Publish(ctx, r.WH, head, r.Config.Iceberg)
	for _, p := range done {
		r.Log.Emit(events.Info, events.TypeTablePublished, p.Dataset, "", events.TablePublished{
			Snapshots: p.Snapshots, Metadata: p.Metadata, Removed: p.Removed})
	}
	if err != nil {
		r.Warn("the Iceberg metadata was not brought up to date (the warehouse commit stands; the next run publishes it): " + err.Error())
	}
}

// Fail ends the run as failed: nothing is committed, the staged files are
// removed (or left for the next run's garbage collection), the error goes to
// the event log, which is written, and the lock is released. It returns err.
// Calling it after the run ended does nothing.
func (r *Run) Fail(ctx context.Context, err error) error {
	if err == nil {
		err = errors.New("run failed")
	}
	if r.Txn != nil {
		r.Txn.Abort(ctx)
	}
	r.mu.Lock()
	done := r.finished
	r.mu.Unlock()
	if !done {
		r.emitOutcomes(0)
	}
	return r.end(ctx, err)
}

// Execute runs body between Begin and Commit, turning a panic in body into
// a failed run (the lock is released, the event log written) whose error
// carries the stack.
func Execute(ctx context.Context, cfg Config, body func(ctx context.Context, r *Run) error) (r *Run, err error) {
	r, err = Begin(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil {
			err = r.Fail(ctx, fmt.Errorf("internal error: %v\n%s", p, debug.Stack()))
		}
	}()
	if err := body(ctx, r); err != nil {
		return r, r.Fail(ctx, err)
	}
	return r, r.Commit(ctx)
}

// end finishes the run once: the last events, the event log, the lock.
func (r *Run) end(ctx context.Context, runErr error) error {
	r.mu.Lock()
	if r.finished {
		r.mu.Unlock()
		return runErr
	}
	r.finished = true
	r.mu.Unlock()
	s := r.Summary
	s.End = r.Config.now()
	in, out := s.Rows()
	end := events.RunEnd{DurationMS: s.End.Sub(s.Start).Milliseconds(), RowsIn: in, RowsOut: out}
	for _, f := range s.Flows() {
		end.SpilledBytes += f.Spilled()
	}
	var partial *PartialError
	switch {
	case errors.As(runErr, &partial):
		s.Status, s.Err = "partial", runErr
		end.Status, end.Epoch, end.Error = "partial", s.Epoch, runErr.Error()
		r.Log.Emit(events.Error, events.TypeRunEnd, "", "", end)
	case runErr != nil:
		s.Status, s.Err, s.Epoch = "failed", runErr, 0
		if !r.errLogged && !r.Summary.logged(runErr) {
			r.Log.Emit(events.Error, events.TypeError, errDataset(runErr), "", errorDetails(runErr))
		}
		end.Status, end.Error = "failed", runErr.Error()
		r.Log.Emit(events.Error, events.TypeRunEnd, "", "", end)
	default:
		s.Status = "completed"
		end.Status, end.Epoch, end.NothingToDo = "completed", s.Epoch, s.NothingToDo
		r.Log.Emit(events.Info, events.TypeRunEnd, "", "", end)
	}
	var werr error
	if runErr != nil || !s.NothingToDo || warned(r.Log) {
		werr = r.Log.Write(ctx, r.Config.Warehouse)
	}
	if r.Lock != nil {
		r.Lock.Release(ctx)
	}
	if runErr == nil && werr != nil {
		// The data is committed; only the log is missing. Say so, but do not
		// fail a committed run.
		r.Summary.Err = werr
	}
	return runErr
}

// warned reports whether the log holds a warning or an error.
func warned(l *events.Log) bool {
	for _, e := range l.Events() {
		if e.Level == events.Warn || e.Level == events.Error {
			return true
		}
	}
	return false
}

func errDataset(err error) string {
	var ee *ExpectationError
	if errors.As(err, &ee) {
		return ee.Dataset
	}
	return ""
}

// errorDetails classifies an error for the event log.
func errorDetails(err error) events.ErrorDetails {
	d := events.ErrorDetails{Message: err.Error(), Kind: "internal"}
	var (
		de *format.DataError
		se *format.SchemaError
		ee *ExpectationError
		le *warehouse.LockedError
		ll *warehouse.LockLostError
		ce *warehouse.ConflictError
		ck *CheckpointError
	)
	switch {
	case errors.As(err, &de):
		d.Kind, d.File, d.Row, d.Col, d.Column = "data", de.File, de.Row, de.Col, de.Column
	case errors.As(err, &se):
		d.Kind, d.File, d.Column = "schema", se.File, se.Column
	case errors.As(err, &ee):
		d.Kind = "expectation"
	case errors.As(err, &le), errors.As(err, &ll):
		d.Kind = "lock"
	case errors.As(err, &ce):
		d.Kind = "conflict"
	case errors.As(err, &ck):
		d.Kind = "checkpoint"
	}
	return d
}

// ExitCode maps a run's result to the executable's exit status: 0 for
// success, 1 for a failed pipeline (the CLI uses 2 for usage errors).
func ExitCode(err error) int {
	if err == nil {
		return 0
	}
	return 1
}

// SetSourceOffset records a source's consumed offsets in the commit.
func (r *Run) SetSourceOffset(source string, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	r.Txn.SetSourceOffset(source, raw)
	return nil
}
