package warehouse

import (
	"context"
	"encoding/json"
	"maps"
	"strings"
)

// Per-dataset failure isolation: a run whose flows failed for some datasets
// still commits the others. The executor takes a Savepoint before it builds
// a dataset and rolls back to it when the build fails, so that nothing of
// the failed dataset (its version, late table, stream offsets, state,
// fingerprints) reaches the commit record; SetOutcome then marks the
// dataset in the record.
//
// The marks live in the record's free-form state map, under OutcomeKey
// (they are not object references, like a sink's bookkeeping), so that a
// runtime that predates them still reads the record and its checksum: a
// new field of Commit or Dataset would change the checksum it computes.
// They describe the epoch of the record that holds them: Begin does not
// carry them forward, and Changed ignores them (a run with nothing else to
// commit commits nothing).

// OutcomePrefix starts the state keys of outcome marks.
const OutcomePrefix = "outcome/"

// OutcomeKey is the state key of dataset name's outcome mark.
func OutcomeKey(name string) string { return OutcomePrefix + name }

// Outcome marks a dataset that a partially failed run did not update: its
// version in the record is the previous one.
type Outcome struct {
	Status   string `json:"status"`             // failed | skipped
	Error    string `json:"error,omitempty"`    // failed: why
	Upstream string `json:"upstream,omitempty"` // skipped: the failed dataset upstream
}

// Outcomes lists the outcome marks of a commit record by dataset.
func (c *Commit) Outcomes() map[string]Outcome {
	out := map[string]Outcome{}
	for k, v := range c.State {
		name, ok := strings.CutPrefix(k, OutcomePrefix)
		if !ok {
			continue
		}
		var o Outcome
		if json.Unmarshal(v, &o) == nil {
			out[name] = o
		}
	}
	return out
}

// SetOutcome marks dataset name in the commit record (see Outcome).
func (t *Txn) SetOutcome(name string, o Outcome) {
	raw, _ := json.Marshal(o)
	t.SetState(OutcomeKey(name), raw)
}

// Savepoint is what a Txn held at one moment; RollbackTo returns to it.
type Savepoint struct {
	datasets map[string]*Dataset
	changed  map[string]bool
	offsets  map[string]json.RawMessage
	state    map[string]json.RawMessage
	fps      map[string]json.RawMessage
	staged   int
}

// Savepoint records the transaction's entries (call it when no dataset
// writer is open).
func (t *Txn) Savepoint() *Savepoint {
	t.mu.Lock()
	defer t.mu.Unlock()
	return &Savepoint{datasets: maps.Clone(t.datasets), changed: maps.Clone(t.changed), offsets: maps.Clone(t.offsets),
		state: maps.Clone(t.state), fps: maps.Clone(t.fps), staged: len(t.staged)}
}

// RollbackTo drops everything recorded since sp: dataset versions, source
// offsets, state entries and fingerprints return to what they were, and the
// objects staged since (data files, state snapshots) are removed, best
// effort (Collect removes what is left). Writers still open are forgotten;
// abort them first.
func (t *Txn) RollbackTo(ctx context.Context, sp *Savepoint) {
	t.mu.Lock()
	if t.done {
		t.mu.Unlock()
		return
	}
	t.datasets, t.changed = maps.Clone(sp.datasets), maps.Clone(sp.changed)
	t.offsets, t.state, t.fps = maps.Clone(sp.offsets), maps.Clone(sp.state), maps.Clone(sp.fps)
	t.writing = map[string]bool{}
	var drop []string
	if len(t.staged) > sp.staged {
		drop = append(drop, t.staged[sp.staged:]...)
		t.staged = t.staged[:sp.staged]
	}
	t.mu.Unlock()
	for _, name := range drop {
		t.w.FS.Remove(ctx, name)
	}
}

// withoutOutcomes is m without its outcome marks.
func withoutOutcomes(m map[string]json.RawMessage) map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		if !strings.HasPrefix(k, OutcomePrefix) {
			out[k] = v
		}
	}
	return out
}
