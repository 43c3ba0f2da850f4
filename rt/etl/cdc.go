package etl

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/cdc"
	"github.com/nordisk/thund/rt/warehouse"
)

// Change flows (apply changes): a streaming table whose flows are change
// flows is not appended to. Each run its flows emit change rows (for a
// stream read, only those of input not consumed before), which rt/cdc
// applies to the table's change state of the last commit; the result is a
// new version that replaces the old one, and the new change state (a state
// snapshot under _thund/checkpoints/, its name under cdcStateKey in the
// commit record) joins the same commit. Delete tombstones live only in that
// state, never as rows of the table.
//
// With --once (the only mode so far), each run is one micro-batch: CDC over
// a stream read applies the run's new changes as one batch.

// cdcStateKey names a table's change state in the commit record.
func cdcStateKey(name string) string { return "cdc-" + name }

// changeFlows counts a dataset's change flows.
func changeFlows(ds *Dataset) int {
	n := 0
	for _, f := range ds.Flows {
		if f.CDC != nil {
			n++
		}
	}
	return n
}

// cdcTarget collects the change rows of a table's change flows and applies
// them when it is closed.
type cdcTarget struct {
	ex   *executor
	ds   *Dataset
	spec *cdc.Spec
	full bool
	a    *cdc.Applier
}

// newCDCTarget starts the apply of ds's changes: unless full, from the
// change state of the last commit.
func (ex *executor) newCDCTarget(ds *Dataset, full bool) (*cdcTarget, error) {
	if ds.Kind != StreamingTable {
		return nil, fmt.Errorf("%s %s: change flows apply to streaming tables", ds.Kind, ds.Name)
	}
	var spec *cdc.Spec
	for _, f := range ds.Flows {
		switch {
		case f.CDC == nil:
			return nil, fmt.Errorf("streaming table %s: flow %s appends rows while another flow applies changes; a table takes one or the other", ds.Name, f.Name)
		case spec == nil:
			spec = f.CDC
		case spec.Fingerprint() != f.CDC.Fingerprint():
			return nil, fmt.Errorf("streaming table %s: its change flows disagree on keys, columns, sequence or SCD type", ds.Name)
		}
	}
	if !arrow.TypeEqual(arrow.StructOf(spec.Target.Fields()...), arrow.StructOf(ds.Schema.Fields()...)) {
		return nil, fmt.Errorf("streaming table %s: the change flow's target schema %s is not the table's %s", ds.Name, spec.Target, ds.Schema)
	}
	a, err := cdc.New(spec, ex.mem)
	if err != nil {
		return nil, fmt.Errorf("streaming table %s: %w", ds.Name, err)
	}
	t := &cdcTarget{ex: ex, ds: ds, spec: spec, full: full, a: a}
	if full {
		return t, nil
	}
	if err := t.loadState(); err != nil {
		a.Release()
		return nil, err
	}
	return t, nil
}

// loadState reads the change state the head commit records for the table.
func (t *cdcTarget) loadState() error {
	head := t.ex.r.State.Head
	if head == nil {
		return nil
	}
	raw, ok := head.State[cdcStateKey(t.ds.Name)]
	if !ok {
		if _, exists := head.Datasets[t.ds.Name]; exists && !head.Datasets[t.ds.Name].Dropped {
			return fmt.Errorf("streaming table %s has a version but no change state (it was not built by a change flow); run with --full-refresh %s to rebuild it from its change feed",
				t.ds.Name, t.ds.Name)
		}
		return nil
	}
	ref, err := cdc.ParseStateRef(raw)
	if err != nil {
		return fmt.Errorf("streaming table %s: its change state record: %w", t.ds.Name, err)
	}
	if ref.Fingerprint != t.spec.Fingerprint() {
		return fmt.Errorf("streaming table %s: its change flow's keys, columns, sequence or SCD type changed since its change state was written, so the state no longer fits; run with --full-refresh %s to rebuild it from its change feed",
			t.ds.Name, t.ds.Name)
	}
	data, err := t.ex.r.WH.ReadState(t.ex.ctx, head, cdcStateKey(t.ds.Name))
	if err != nil {
		return fmt.Errorf("streaming table %s: its change state: %w", t.ds.Name, err)
	}
	if err := t.a.LoadState(data); err != nil {
		return fmt.Errorf("streaming table %s: %w", t.ds.Name, err)
	}
	return nil
}

// emit keeps a batch of changes for the apply: the flow's --memory-limit
// account counts its buffers (the change log loaded from the last commit
// is not counted: it is read before the flows run).
func (t *cdcTarget) emit(rec arrow.RecordBatch) error {
	if err := t.ex.budget.grow(fmt.Sprintf("apply changes into streaming table %s (its new changes)", t.ds.Name), recordBytes(rec)); err != nil {
		return err
	}
	return t.a.Add(rec)
}

// close applies the changes: a new version and a new change state, unless
// nothing new came (then the table keeps its version).
func (t *cdcTarget) close() error {
	defer t.a.Release()
	_, exists := t.ex.r.Txn.Dataset(t.ds.Name)
	if t.a.Added() == 0 && exists && !t.full {
		return nil
	}
	res, err := t.a.Apply(t.ex.ctx)
	if err != nil {
		return fmt.Errorf("streaming table %s: applying changes: %w", t.ds.Name, err)
	}
	defer res.Target.Release()
	w, err := t.ex.r.Write(t.ex.ctx, t.ds.Name, t.ds.Schema, warehouse.WriteOptions{PartitionBy: t.ds.PartitionBy, Mem: t.ex.mem})
	if err != nil {
		return err
	}
	if res.Target.NumRows() > 0 {
		if err := w.Write(res.Target); err != nil {
			w.Abort()
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	key := cdcStateKey(t.ds.Name)
	txn := t.ex.r.Txn
	if err := txn.WriteState(t.ex.ctx, key, res.State); err != nil {
		return fmt.Errorf("streaming table %s: writing its change state: %w", t.ds.Name, err)
	}
	// WriteState recorded the object, its size and checksum; add what the
	// next run checks.
	if err := txn.AnnotateState(key, cdc.StateRef{Fingerprint: t.spec.Fingerprint(), LogRows: res.LogRows, Tombstones: res.Tombstones}); err != nil {
		return fmt.Errorf("streaming table %s: %w", t.ds.Name, err)
	}
	return nil
}

func (t *cdcTarget) abort() { t.a.Release() }

// recordBytes is the size of a batch's buffers (arrow/util's
// TotalRecordSize, without the protobuf dependencies that package brings).
func recordBytes(rec arrow.RecordBatch) int64 {
	var n int64
	var data func(d arrow.ArrayData)
	data = func(d arrow.ArrayData) {
		for _, b := range d.Buffers() {
			if b != nil {
				n += int64(b.Len())
			}
		}
		for _, c := range d.Children() {
			data(c)
		}
		if d.DataType().ID() == arrow.DICTIONARY {
			data(d.Dictionary())
		}
	}
	for _, col := range rec.Columns() {
		data(col.Data())
	}
	return n
}
