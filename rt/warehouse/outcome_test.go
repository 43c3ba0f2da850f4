package warehouse

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeVersion writes one row into a new version of name in txn.
func writeVersion(t *testing.T, txn *Txn, name string, id int64) {
	t.Helper()
	w, err := txn.Write(context.Background(), name, schema, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rec := batch(row{id: id, region: str("x"), day: 1})
	defer rec.Release()
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// A rollback to a savepoint drops what was recorded since (versions,
// offsets, state, fingerprints) and removes the objects staged since; the
// outcome marks reach the record, a record with them parses and verifies
// as before, and the next transaction neither carries them forward nor
// counts them as a change.
func TestSavepointRollbackAndOutcomes(t *testing.T) {
	ctx := context.Background()
	w, l := newWH(t)
	st, _ := w.Load(ctx)
	txn := w.Begin(st, "run-1", "p")
	writeVersion(t, txn, "good", 1)
	txn.SetSourceOffset("good/f/src", json.RawMessage(`{"files":1}`))
	sp := txn.Savepoint()
	writeVersion(t, txn, "bad", 2)
	txn.SetSourceOffset("bad/f/src", json.RawMessage(`{"files":1}`))
	txn.SetFingerprint("bad", json.RawMessage(`{"epoch":1}`))
	if err := txn.WriteState(ctx, "stream-bad-f", []byte("state")); err != nil {
		t.Fatal(err)
	}
	staged, _ := filepath.Glob(filepath.Join(l.Root, "bad", "*", "*"))
	if len(staged) == 0 {
		t.Fatal("nothing staged for bad")
	}
	txn.RollbackTo(ctx, sp)
	for _, f := range staged {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("staged file %s left after the rollback", f)
		}
	}
	if _, ok := txn.Dataset("bad"); ok {
		t.Error("bad still has a version")
	}
	txn.SetOutcome("bad", Outcome{Status: "failed", Error: "boom"})
	txn.SetOutcome("below", Outcome{Status: "skipped", Upstream: "bad"})
	c, err := txn.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.SourceOffsets["bad/f/src"]; ok || len(c.Fingerprints) != 0 || len(c.State) != 2 {
		t.Errorf("record after the rollback: offsets %v, fingerprints %v, state %v", c.SourceOffsets, c.Fingerprints, c.State)
	}
	got, err := w.ReadCommit(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	o := got.Outcomes()
	if len(o) != 2 || o["bad"] != (Outcome{Status: "failed", Error: "boom"}) || o["below"] != (Outcome{Status: "skipped", Upstream: "bad"}) {
		t.Errorf("outcomes %+v", o)
	}
	if names := strings.Join(got.Names(), ","); names != "good" {
		t.Errorf("datasets %s", names)
	}
	// state entries that are not objects: verified as before
	if err := w.VerifyState(ctx, got); err != nil {
		t.Errorf("VerifyState: %v", err)
	}
	st, _ = w.Load(ctx)
	next := w.Begin(st, "run-2", "p")
	if next.Changed() {
		t.Error("a transaction that only dropped the marks counts as changed")
	}
	if _, ok := next.State(OutcomeKey("bad")); ok {
		t.Error("the marks were carried forward")
	}
	next.SetOutcome("bad", Outcome{Status: "failed", Error: "again"})
	if next.Changed() {
		t.Error("a transaction with only marks counts as changed")
	}
}
