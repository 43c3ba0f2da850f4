package etl

import (
	"context"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/stream"
	"github.com/nordisk/thund/rt/warehouse"
)

// Where a flow's rows go: a new version of a stored dataset, a temporary
// view in memory, or (sinks.go) a sink file; with more than one thread the
// writes run on a goroutine of their own behind a bounded edge (asyncOut).

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
