package etl

import (
	"fmt"

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
