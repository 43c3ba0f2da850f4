package etl

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/pqstate"
	"github.com/nordisk/thund/rt/stream"
	"github.com/nordisk/thund/rt/warehouse"
)

// Stateful streaming flows (windowed aggregates, interval joins over stream
// reads) keep operator state between epochs. With --once, each run is one
// micro-batch (DESIGN.md): the generated flow restores its state from the
// head commit (FlowContext.LoadState), processes the input not consumed
// before, advances the watermark, emits what that closes, and hands its new
// state back (SaveState); the runtime stages it under _thund/checkpoints/
// and records it, with the shape the generated code declared, in the same
// commit as the outputs and the source offsets. A full refresh of the
// target starts from empty state.

// streamStateKey names a flow's operator state in the commit record.
func streamStateKey(target, flow string) string { return "stream-" + target + "-" + flow }

// streamStateRef is what the commit records for a flow's state: the object
// and the state's shape (operators, windows, key and accumulator types, as
// the generated code declares them).
type streamStateRef struct {
	Object string `json:"object,omitempty"`
	Shape  string `json:"shape"`
}

// flowState serves one flow's LoadState and SaveState.
type flowState struct {
	ex     *executor
	ds     *Dataset
	f      *Flow
	full   bool
	staged bool
}

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

// Clock is the processing-time clock of triggers and idle timeouts.
func (fc *FlowContext) Clock() stream.Clock {
	if fc.clock == nil {
		return stream.WallClock{}
	}
	return fc.clock
}

// Epoch is the epoch the run commits (a run is one micro-batch); update-mode
// flows derive their change sequence from it.
func (fc *FlowContext) Epoch() int64 {
	if fc.state == nil {
		return 0
	}
	return fc.state.ex.r.Txn.Epoch()
}

// Late counts n late rows dropped by the flow.
func (fc *FlowContext) Late(n int64) {
	if fc.Stats != nil && n > 0 {
		fc.Stats.AddLate(n)
	}
}

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

// lateTable opens the late table of flow f (nil when it has none): an append
// of this run's late rows, or a new version on a full refresh of the owner.
func (ex *executor) lateTable(f *Flow, full bool) (*storedTarget, *Dataset, error) {
	if f.LateTable == "" {
		return nil, nil, nil
	}
	var lt *Dataset
	for _, d := range ex.p.Datasets {
		if d.Name == f.LateTable {
			lt = d
		}
	}
	if lt == nil {
		return nil, nil, fmt.Errorf("flow %s: its late table %s is not a dataset of the pipeline", f.Name, f.LateTable)
	}
	_, exists := ex.r.Txn.Dataset(lt.Name)
	return &storedTarget{ex: ex, ds: lt, create: full || !exists,
		opts: warehouse.WriteOptions{Append: !full, Mem: ex.mem}}, lt, nil
}

// lateOwner is the dataset whose flow writes late table ds ("" when ds is
// not a late table).
func lateOwner(p *Pipeline, ds *Dataset) string {
	for _, d := range p.Datasets {
		for _, f := range d.Flows {
			if f.LateTable == ds.Name {
				return d.Name
			}
		}
	}
	return ""
}

// completeFlows reports a dataset whose flows rewrite it whole every run
// (output mode complete).
func completeFlows(ds *Dataset) bool {
	for _, f := range ds.Flows {
		if f.Complete {
			return true
		}
	}
	return false
}
