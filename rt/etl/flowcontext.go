package etl

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/pqstate"
	"github.com/nordisk/thund/rt/run"
	"github.com/nordisk/thund/rt/spill"
	"github.com/nordisk/thund/rt/stream"
)

// This file is the contract between generated code and the runtime: the
// FlowContext a generated flow's Run function gets, and every method of it.
// A generated program describes itself as a Pipeline value (spec.go), each
// flow a Run function of a *FlowContext, and calls Main (cli.go); codegen
// reaches rt/etl through those and the methods below only. Changing a
// signature here changes what codegen must emit. The machinery behind the
// methods lives where their comments say.

// FlowContext is what a flow's Run function works with.
type FlowContext struct {
	Ctx     context.Context
	Mem     memory.Allocator
	Threads int
	// GrowStep is how many bytes generated code accounts before it calls
	// Grow: a MiB, or less under a small --memory-limit.
	GrowStep int64
	// Stats counts rows in and out, late rows and expectation results.
	Stats *run.Flow

	budget   *memBudget // nil: nothing is accounted
	read     func(name string) (format.BatchReader, error)
	readCols func(name string, cols []int, bounds []format.Bound) (format.BatchReader, error) // nil: read
	emit     func(rec arrow.RecordBatch) error
	expect   []*run.Expectation
	state    *flowState                        // LoadState, SaveState, Epoch (stream.go)
	clock    stream.Clock                      // nil: the wall clock
	emitLate func(rec arrow.RecordBatch) error // nil: no late table

	parsesMu sync.Mutex
	parses   []ParseCounter // CountParses

	spillArea  *spill.Area // nil: the system's default root, opened at the first spill
	spillMu    sync.Mutex
	spillFiles []*spill.Writer // SpillFile's, removed when the flow ends
	serial     int             // SerialBegin's, not yet ended: Parallel runs one worker
}

// NewFlowContext builds a FlowContext from its parts; Main uses it, and so
// can tests that run a generated flow against in-memory inputs.
func NewFlowContext(ctx context.Context, mem memory.Allocator, threads int, stats *run.Flow,
	read func(name string) (format.BatchReader, error), emit func(arrow.RecordBatch) error, expect []*run.Expectation) *FlowContext {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	return &FlowContext{Ctx: ctx, Mem: mem, Threads: threads, GrowStep: 1 << 20, Stats: stats, read: read, emit: emit, expect: expect}
}

// Reading inputs.

// Read opens an input: a source's files (for a stream read, only the files
// not consumed by an earlier commit), or a dataset as this run sees it (the
// version an earlier flow of this run staged, else the committed one; a
// temporary view's rows from memory). A materialized view's flows always
// read whole inputs (it is recomputed), whatever Input.Stream says. The flow
// closes the reader (the run closes any it forgot). Read is safe for
// concurrent use by the flow's goroutines.
func (fc *FlowContext) Read(name string) (format.BatchReader, error) { return fc.read(name) }

// EachBatch reads input to its end (Read), counts each batch's rows in, and
// hands each batch to f, which releases it; it stops at f's first error.
// Hand-written flows (tests, tools) use it; generated flows have loops of
// their own.
func (fc *FlowContext) EachBatch(input string, f func(rec arrow.RecordBatch) error) error {
	r, err := fc.Read(input)
	if err != nil {
		return err
	}
	defer r.Close()
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		fc.CountIn(rec.NumRows())
		if err := f(rec); err != nil {
			return err
		}
	}
}

// ReadColumns is Read for a flow that looks only at the columns cols of
// the input (indexes into its schema): a Parquet source then decodes only
// those, and the other columns of its batches are all NULL, whatever their
// declared nullability. Generated code passes the columns its loops load.
func (fc *FlowContext) ReadColumns(name string, cols ...int) (format.BatchReader, error) {
	if fc.readCols == nil {
		return fc.read(name)
	}
	if cols == nil {
		cols = []int{} // none: the batches still count the rows
	}
	return fc.readCols(name, cols, nil)
}

// ReadPruned is ReadColumns for a flow whose filter keeps only rows that
// meet bounds (comparisons of integer columns with constants, equalities of
// string columns with constants): a Parquet source skips the row groups
// whose statistics exclude them, and given a string bound it drops the rows
// that miss any bound before making their strings (format.Bound). The flow
// still filters every row it reads; its rows in are the rows it reads.
func (fc *FlowContext) ReadPruned(name string, bounds []format.Bound, cols ...int) (format.BatchReader, error) {
	if fc.readCols == nil {
		return fc.read(name)
	}
	if cols == nil {
		cols = []int{}
	}
	return fc.readCols(name, cols, bounds)
}

// Writing rows.

// Emit writes one batch of the target's schema. The flow keeps ownership of
// rec (Emit retains what it keeps). Emit counts the batch's rows as the
// flow's rows out (Stats.AddOut): generated code counts rows in (CountIn),
// never rows out. Emit checks the batch's column types (and NOT NULL) against
// the target's schema, and is safe for concurrent use by the flow's
// goroutines.
func (fc *FlowContext) Emit(rec arrow.RecordBatch) error { return fc.emit(rec) }

// EmitLate writes late rows (of Flow.LateSchema) to the flow's late table.
func (fc *FlowContext) EmitLate(rec arrow.RecordBatch) error {
	if fc.emitLate == nil {
		return fmt.Errorf("the flow has no late table")
	}
	if rec == nil || rec.NumRows() == 0 {
		return nil
	}
	return fc.emitLate(rec)
}

// Counting.

// CountIn counts rows read (a no-op without Stats).
func (fc *FlowContext) CountIn(n int64) {
	if fc.Stats != nil {
		fc.Stats.AddIn(n)
	}
}

// Late counts n late rows dropped by the flow.
func (fc *FlowContext) Late(n int64) {
	if fc.Stats != nil && n > 0 {
		fc.Stats.AddLate(n)
	}
}

// ParseCounter is a parse of text in a flow (rt/jsonfn.Parser: a from_json
// call) whose malformed values, rescued values and new keys the flow
// counts as it counts a source's malformed records, under where.
type ParseCounter interface {
	Counts() (where string, malformed, rescued int64, rescuedField string, newKeys []string, into string)
}

// CountParses registers a parse whose counts the flow adds to its own
// when it ends (the run summary, the malformed_records, rescued_records
// and new_columns events, and etl history).
func (fc *FlowContext) CountParses(p ParseCounter) {
	fc.parsesMu.Lock()
	defer fc.parsesMu.Unlock()
	fc.parses = append(fc.parses, p)
}

// countParses adds the registered parses' counts to the flow's.
func (fc *FlowContext) countParses() {
	if fc.Stats == nil {
		return
	}
	fc.parsesMu.Lock()
	defer fc.parsesMu.Unlock()
	for _, p := range fc.parses {
		where, malformed, rescued, field, keys, into := p.Counts()
		fc.Stats.AddMalformed(where, malformed, 0)
		fc.Stats.AddRescued(where, field, rescued)
		fc.Stats.AddNewColumns(where, keys, into)
	}
	fc.parses = nil
}

// Expect returns the counters of the target's i-th expectation.
func (fc *FlowContext) Expect(i int) *run.Expectation { return fc.expect[i] }

// Parallel loops and memory.

// Workers is the number of workers Parallel runs a pipeline on: Threads,
// at least 1 (1 between SerialBegin and SerialEnd). Generated code sizes its per-worker partial state by it.
func (fc *FlowContext) Workers() int {
	if fc.serial > 0 {
		return 1
	}
	return max(fc.Threads, 1)
}

// errStopped ends a worker's loop because another worker failed.
var errStopped = errors.New("stopped")

// Parallel runs one pipeline of a flow over the batches of rd on Workers()
// goroutines. For each worker w (0 ≤ w < Workers()), on that worker's
// goroutine, start(w) returns the function that handles one batch and the
// one that ends the worker after its last batch (nil: nothing to do).
// Batches go to whichever worker is free, numbered in rd's order from 0
// (seq: generated code uses it where the input's order matters); each is
// handed to one worker, and Parallel releases it when the handler returns.
// The first error (or panic, as an error) stops every worker after the
// batch at hand and is returned; the end functions run only when no worker
// failed. With one worker everything runs on the calling goroutine. Parallel
// does not close rd.
func (fc *FlowContext) Parallel(rd format.BatchReader, start func(w int) (each func(seq int64, rec arrow.RecordBatch) error, end func() error)) error {
	return fc.parallel(fc.Workers(), rd, start)
}

// ParallelSpilling is Parallel for a pipeline whose consumer spills past
// --memory-limit (a hash aggregate's partial tables): under a limit it runs
// on one worker, so that each key's rows are either in the one table or on
// disk, never in another worker's table too; without one, on Workers().
func (fc *FlowContext) ParallelSpilling(rd format.BatchReader, start func(w int) (each func(seq int64, rec arrow.RecordBatch) error, end func() error)) error {
	n := fc.Workers()
	if fc.MemoryLimit() > 0 {
		n = 1
	}
	return fc.parallel(n, rd, start)
}

// parallel is Parallel on n workers.
func (fc *FlowContext) parallel(n int, rd format.BatchReader, start func(w int) (each func(seq int64, rec arrow.RecordBatch) error, end func() error)) error {
	var (
		mu     sync.Mutex
		seq    int64
		done   bool // rd returned io.EOF, or a worker failed
		first  error
		failed bool
	)
	next := func() (int64, arrow.RecordBatch, error) {
		mu.Lock()
		defer mu.Unlock()
		if failed {
			return 0, nil, errStopped
		}
		if done {
			return 0, nil, io.EOF
		}
		rec, err := rd.Next()
		if err != nil {
			done = true
			return 0, nil, err
		}
		s := seq
		seq++
		return s, rec, nil
	}
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if !failed {
			failed, first = true, err
		}
	}
	work := func(w int) (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("internal error: %v\n%s", p, debug.Stack())
			}
			if err != nil && err != errStopped {
				fail(err)
			}
		}()
		each, end := start(w)
		for {
			s, rec, err := next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			err = each(s, rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
		mu.Lock()
		stop := failed
		mu.Unlock()
		if stop || end == nil {
			return nil
		}
		return end()
	}
	if n == 1 {
		work(0)
		return first
	}
	var wg sync.WaitGroup
	for w := range n {
		wg.Go(func() { work(w) })
	}
	wg.Wait()
	return first
}

// Grow accounts n more bytes kept by the flow's operator op (a description
// with its source position); it fails with a *MemoryLimitError when the
// flow's accounted memory passes --memory-limit. Generated code calls it
// every MiB or so. It is safe for concurrent use.
func (fc *FlowContext) Grow(op string, n int64) error { return fc.budget.grow(op, n) }

// TryGrow accounts n more bytes if the flow's accounted memory stays
// within --memory-limit, and reports whether it did; past the limit it
// accounts nothing, and the operator spills instead of growing. It is
// safe for concurrent use.
func (fc *FlowContext) TryGrow(n int64) bool { return fc.budget.tryGrow(n) }

// GrowSpilling accounts n more bytes that an operator keeping the rest
// of its rows under the limit by spilling them cannot spill (the values
// an aggregate's accumulators keep for groups still in memory): they may
// take the flow's accounted bytes to twice --memory-limit, and past that
// the flow fails with a MemoryLimitError naming op.
func (fc *FlowContext) GrowSpilling(op string, n int64) error { return fc.budget.growSpilling(op, n) }

// Shrink gives back n accounted bytes: an operator that freed what it kept
// (a spilling operator's table, once its rows are on disk or emitted).
func (fc *FlowContext) Shrink(n int64) {
	if fc.budget != nil {
		fc.budget.used.Add(-n)
	}
}

// MemoryLimit is --memory-limit in bytes (0: none).
func (fc *FlowContext) MemoryLimit() int64 {
	if fc.budget == nil {
		return 0
	}
	return fc.budget.limit
}

// SpillFile starts a spill file for op (an operator and its position) in
// the run's spill folder (--spill-dir; rt/spill). Its bytes count as the
// flow's spilled bytes in the event log. The file is removed when the flow
// ends, whatever the operator did with it; an operator removes a file it
// has read back (File.Remove) to free the disk early.
func (fc *FlowContext) SpillFile(op string) (*spill.Writer, error) {
	fc.spillMu.Lock()
	defer fc.spillMu.Unlock()
	if fc.spillArea == nil {
		fc.spillArea = spill.Open("")
	}
	var count func(int64)
	if fc.Stats != nil {
		count = fc.Stats.AddSpilled
	}
	w, err := fc.spillArea.Create(op, count)
	if err != nil {
		return nil, err
	}
	fc.spillFiles = append(fc.spillFiles, w)
	return w, nil
}

// SpillPartitions starts the Fanout spill files of one level of op's
// grace hash partitioning (rt/spill.Partitions; level 0 is the first
// split). Past spill.MaxLevel levels, the rows of one partition still
// pass --memory-limit while their keys' hashes agree in every bit used,
// in practice those of one key: the flow fails with a SpillDepthError.
func (fc *FlowContext) SpillPartitions(op string, level int) (*spill.Partitions, error) {
	if level >= spill.MaxLevel {
		return nil, &SpillDepthError{Operator: op, Limit: fc.MemoryLimit(), Levels: level}
	}
	return spill.NewPartitions(level, func() (*spill.Writer, error) { return fc.SpillFile(op) })
}

// SpillDepthError is an operator whose spilled partition still passes
// --memory-limit after being split Levels times by its keys' hash bits.
type SpillDepthError struct {
	Operator string // "join at FILE:LINE:COL (its build side)", ...
	Limit    int64
	Levels   int
}

func (e *SpillDepthError) Error() string {
	return fmt.Sprintf("%s needs more than --memory-limit %s for the rows of one key (its spilled rows still do not fit after %d splits by hash): raise --memory-limit",
		e.Operator, FormatBytes(e.Limit), e.Levels)
}

// SerialBegin makes Parallel run on one goroutine until the matching
// SerialEnd (calls nest): a join whose build side spilled writes its probe
// rows to spill files of its own and replays them through its consumer,
// which only one worker's state can receive.
func (fc *FlowContext) SerialBegin() { fc.serial++ }

// SerialEnd ends a SerialBegin.
func (fc *FlowContext) SerialEnd() { fc.serial-- }

// removeSpills removes the flow's spill files that are left (the flow
// ended, or failed).
func (fc *FlowContext) removeSpills() {
	fc.spillMu.Lock()
	defer fc.spillMu.Unlock()
	for _, w := range fc.spillFiles {
		w.Discard()
	}
	fc.spillFiles = nil
}

// Hold accounts the state op holds now, n bytes, in place of the *was it
// accounted at its last call (set to n): state that shrinks, a stream's
// windows or join rows evicted under the watermark, gives its bytes back.
// It calls Grow only once n has moved a GrowStep from *was, so generated
// code may call it for every row.
func (fc *FlowContext) Hold(op string, was *int64, n int64) error {
	if d := n - *was; d < fc.GrowStep && d > -fc.GrowStep {
		return nil
	}
	d := n - *was
	*was = n
	return fc.Grow(op, d)
}

// Streaming state and time (stream.go).

// LoadState decodes the flow's state of the last commit into v (a pointer
// to the generated state struct) and reports whether there was one. shape
// identifies the state's layout: state saved under another shape does not
// fit, and the flow refuses to resume rather than resume wrong.
func (fc *FlowContext) LoadState(shape string, v any) (bool, error) {
	s := fc.state
	if s == nil || s.full {
		return false, nil
	}
	head := s.ex.r.State.Head
	if head == nil {
		return false, nil
	}
	raw, ok := head.State[streamStateKey(s.ds.Name, s.f.Name)]
	if !ok {
		return false, nil
	}
	var ref streamStateRef
	if err := json.Unmarshal(raw, &ref); err != nil || ref.Object == "" {
		return false, fmt.Errorf("its streaming state record in epoch %d is malformed", head.Epoch)
	}
	if ref.Shape != shape {
		return false, fmt.Errorf("its streaming state no longer fits the flow's definition (its windows, keys, aggregates or inputs changed); run with --full-refresh %s to recompute %s from the start",
			s.ds.Name, s.ds.Name)
	}
	data, err := s.ex.r.WH.ReadState(fc.Ctx, head, streamStateKey(s.ds.Name, s.f.Name))
	if err != nil {
		return false, fmt.Errorf("its streaming state: %w", err)
	}
	if bytes.HasPrefix(data, []byte(pqstate.Magic)) {
		err = pqstate.Unmarshal(data, v)
	} else {
		// a snapshot an earlier runtime encoded with encoding/gob
		err = gob.NewDecoder(bytes.NewReader(data)).Decode(v)
	}
	if err != nil {
		return false, fmt.Errorf("its streaming state %s cannot be read: %v", ref.Object, err)
	}
	return true, nil
}

// SaveState stages the flow's new state (v, a generated struct of plain
// values) for the run's commit as a Parquet file of one row (rt/pqstate:
// every float's bits kept, NaN included; readable by any Parquet reader),
// under the shape LoadState will check.
func (fc *FlowContext) SaveState(shape string, v any) error {
	s := fc.state
	if s == nil {
		return nil
	}
	data, err := pqstate.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding its streaming state: %w", err)
	}
	key := streamStateKey(s.ds.Name, s.f.Name)
	txn := s.ex.r.Txn
	if err := txn.WriteState(fc.Ctx, key, data); err != nil {
		return fmt.Errorf("writing its streaming state: %w", err)
	}
	// WriteState recorded the object, its size and checksum; add the shape.
	if err := txn.AnnotateState(key, streamStateRef{Shape: shape}); err != nil {
		return err
	}
	s.staged = true
	return nil
}

// Epoch is the epoch the run commits (a run is one micro-batch); update-mode
// flows derive their change sequence from it.
func (fc *FlowContext) Epoch() int64 {
	if fc.state == nil {
		return 0
	}
	return fc.state.ex.r.Txn.Epoch()
}

// Clock is the processing-time clock of triggers and idle timeouts.
func (fc *FlowContext) Clock() stream.Clock {
	if fc.clock == nil {
		return stream.WallClock{}
	}
	return fc.clock
}
