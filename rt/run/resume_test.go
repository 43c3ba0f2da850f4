package run

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/warehouse"
)

// commitEpoch runs one run that stages a state object and a source offset.
func (e *env) commitEpoch(t *testing.T, state string) *warehouse.Commit {
	t.Helper()
	ctx := context.Background()
	r, err := Begin(ctx, e.config())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Txn.WriteState(ctx, "agg", []byte(state)); err != nil {
		t.Fatal(err)
	}
	r.SetSourceOffset("bids", map[string]int{"files": len(state)})
	if err := r.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	c, err := r.WH.ReadCommit(ctx, r.Summary.Epoch)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func resumeEvents(t *testing.T, e *env, runID string) []events.ResumeFromEpoch {
	t.Helper()
	evs, err := events.LoadRun(context.Background(), e.fs, runID)
	if err != nil {
		t.Fatal(err)
	}
	var out []events.ResumeFromEpoch
	for _, ev := range evs {
		if ev.EventType == events.TypeResumeFromEpoch {
			var p events.ResumeFromEpoch
			if err := ev.Payload(&p); err != nil {
				t.Fatal(err)
			}
			out = append(out, p)
		}
	}
	return out
}

// TestResumeFromEpoch: a run that starts from a commit with state or offsets
// records the epoch it resumes from; when the latest commit's state object is
// corrupt or missing, or its record is corrupt, the run stops naming the
// object and the flag, unless AllowOlderCheckpoint, which resumes from the
// newest older commit that verifies and says which it skipped.
func TestResumeFromEpoch(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.commitEpoch(t, "one")
	c2 := e.commitEpoch(t, "two")
	c3 := e.commitEpoch(t, "three")
	// every run after the first resumed from the previous commit
	r, err := Begin(ctx, e.config())
	if err != nil {
		t.Fatal(err)
	}
	if r.State.Head.Epoch != 3 {
		t.Fatalf("head %d, want 3", r.State.Head.Epoch)
	}
	r.Fail(ctx, errors.New("stop"))
	if got := resumeEvents(t, e, r.ID); len(got) != 1 || got[0].Epoch != 3 || len(got[0].Skipped) != 0 {
		t.Errorf("resume events of a normal run: %+v", got)
	}

	// corrupt the state of epoch 3
	ref, err := warehouse.ParseStateRef(c3.State["agg"])
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(e.fs.Root, filepath.FromSlash(ref.Object))
	if err := os.WriteFile(path, []byte("thref"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := e.config()
	_, err = Begin(ctx, cfg)
	var ck *CheckpointError
	if !errors.As(err, &ck) || !strings.Contains(err.Error(), ref.Object) || !strings.Contains(err.Error(), "checksum mismatch") ||
		!strings.Contains(err.Error(), "--allow-older-checkpoint") {
		t.Fatalf("Begin over a corrupt state object: %v", err)
	}
	if got := resumeEvents(t, e, cfg.RunID); len(got) != 0 {
		t.Errorf("a refused run logged resume events: %+v", got)
	}

	// with the flag: resume from epoch 2, its state and offsets
	cfg = e.config()
	cfg.AllowOlderCheckpoint = true
	r, err = Begin(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.State.Head.Epoch != 2 || string(r.State.Head.SourceOffsets["bids"]) != string(c2.SourceOffsets["bids"]) {
		t.Fatalf("resumed from %d (offsets %s), want epoch 2", r.State.Head.Epoch, r.State.Head.SourceOffsets["bids"])
	}
	if data, err := r.WH.ReadState(ctx, r.State.Head, "agg"); err != nil || string(data) != "two" {
		t.Errorf("state of the resumed commit: %q, %v", data, err)
	}
	if err := r.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if r.Summary.Epoch != 4 {
		t.Errorf("the fallback run committed epoch %d, want 4", r.Summary.Epoch)
	}
	got := resumeEvents(t, e, cfg.RunID)
	if len(got) != 1 || got[0].Epoch != 2 || len(got[0].Skipped) != 1 || !strings.Contains(got[0].Skipped[0], ref.Object) {
		t.Errorf("resume events of the fallback run: %+v", got)
	}
	// epoch 4 carries epoch 2's state forward: the next run needs no flag
	r, err = Begin(ctx, e.config())
	if err != nil {
		t.Fatalf("the run after the fallback: %v", err)
	}
	if data, err := r.WH.ReadState(ctx, r.State.Head, "agg"); err != nil || string(data) != "two" {
		t.Errorf("state after the fallback: %q, %v", data, err)
	}
	r.Txn.SetFingerprint("m", []byte(`"changed"`)) // a run that changed nothing would commit nothing
	if err := r.Commit(ctx); err != nil || r.Summary.Epoch != 5 {
		t.Fatalf("commit epoch 5: %d, %v", r.Summary.Epoch, err)
	}

	// a corrupt (unparseable) latest commit record
	rec := filepath.Join(e.fs.Root, filepath.FromSlash(warehouse.CommitName(5)))
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(rec, data[:len(data)/2], 0o644)
	_, err = Begin(ctx, e.config())
	if !errors.As(err, &ck) || !strings.Contains(err.Error(), "corrupt commit record") || !strings.Contains(err.Error(), "000000000005.json") {
		t.Fatalf("Begin over a corrupt commit record: %v", err)
	}
	cfg = e.config()
	cfg.AllowOlderCheckpoint = true
	r, err = Begin(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.State.Head.Epoch != 4 || r.Txn.Epoch() != 6 {
		t.Errorf("after a corrupt record 5: head %d, next epoch %d; want 4 and 6", r.State.Head.Epoch, r.Txn.Epoch())
	}
	r.Commit(ctx)
}
