package warehouse

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// commitState commits one epoch holding state objects (key -> data) and
// returns the commit.
func commitState(t *testing.T, w *Warehouse, runID string, objs map[string]string) *Commit {
	t.Helper()
	ctx := context.Background()
	st, err := w.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	txn := w.Begin(st, runID, "p")
	for k, v := range objs {
		if err := txn.WriteState(ctx, k, []byte(v)); err != nil {
			t.Fatal(err)
		}
	}
	c, err := txn.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestReadStateVerifies: a state object is returned only when it matches the
// size and sha256 its commit records; a flipped byte, a truncation or a
// missing object is an error naming the object, and AnnotateState keeps the
// checksum while adding a caller's fields.
func TestReadStateVerifies(t *testing.T) {
	ctx := context.Background()
	w, fs := newWH(t)
	c := commitState(t, w, "run-00000001", map[string]string{"agg-a": "state of a", "agg-b": "state of b"})
	got, err := w.ReadState(ctx, c, "agg-a")
	if err != nil || string(got) != "state of a" {
		t.Fatalf("ReadState: %q, %v", got, err)
	}
	if err := w.VerifyState(ctx, c); err != nil {
		t.Fatalf("VerifyState of an intact commit: %v", err)
	}
	if _, err := w.ReadState(ctx, c, "agg-z"); !errors.Is(err, ErrNoState) {
		t.Errorf("ReadState of an unknown key: %v, want ErrNoState", err)
	}
	// The record read back from the store carries the checksum.
	reread, err := w.ReadCommit(ctx, c.Epoch)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := ParseStateRef(reread.State["agg-b"])
	if err != nil || len(ref.SHA256) != 64 || ref.Bytes == nil || *ref.Bytes != int64(len("state of b")) {
		t.Fatalf("state ref in the record: %s (%v)", reread.State["agg-b"], err)
	}
	path := filepath.Join(fs.Root, filepath.FromSlash(ref.Object))

	// one byte changed, same size
	if err := os.WriteFile(path, []byte("state of B"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{"ReadState": func() error { _, err := w.ReadState(ctx, reread, "agg-b"); return err }(),
		"VerifyState": w.VerifyState(ctx, reread)} {
		var se *StateError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "checksum mismatch") || !strings.Contains(err.Error(), ref.Object) {
			t.Errorf("%s of a corrupted object: %v", name, err)
		}
	}
	// truncated
	os.WriteFile(path, []byte("state"), 0o644)
	if _, err := w.ReadState(ctx, reread, "agg-b"); err == nil || !strings.Contains(err.Error(), "size mismatch") {
		t.Errorf("ReadState of a truncated object: %v", err)
	}
	// missing
	os.Remove(path)
	for name, err := range map[string]error{"ReadState": func() error { _, err := w.ReadState(ctx, reread, "agg-b"); return err }(),
		"VerifyState": w.VerifyState(ctx, reread)} {
		if err == nil || !strings.Contains(err.Error(), "missing") || !strings.Contains(err.Error(), ref.Object) {
			t.Errorf("%s of a missing object: %v", name, err)
		}
	}
	// the intact one still reads
	if got, err := w.ReadState(ctx, reread, "agg-a"); err != nil || string(got) != "state of a" {
		t.Errorf("ReadState of the intact object: %q, %v", got, err)
	}

	// AnnotateState adds fields and cannot overwrite the reference.
	st, _ := w.Load(ctx)
	txn := w.Begin(st, "run-00000002", "p")
	if err := txn.WriteState(ctx, "cdc-x", []byte("xyz")); err != nil {
		t.Fatal(err)
	}
	if err := txn.AnnotateState("cdc-x", map[string]any{"fingerprint": "f1", "object": "elsewhere", "sha256": ""}); err != nil {
		t.Fatal(err)
	}
	c2, err := txn.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(c2.State["cdc-x"]), `"fingerprint":"f1"`) {
		t.Errorf("annotation lost: %s", c2.State["cdc-x"])
	}
	if got, err := w.ReadState(ctx, c2, "cdc-x"); err != nil || string(got) != "xyz" {
		t.Errorf("ReadState after AnnotateState: %q, %v (entry %s)", got, err, c2.State["cdc-x"])
	}
}

// TestStateWriterAndNotes: a streamed state object reads back verified
// through ReadState, an aborted transaction removes it, and a note beside
// it is there once written.
func TestStateWriterAndNotes(t *testing.T) {
	ctx := context.Background()
	w, _ := newWH(t)
	st, err := w.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// An aborted transaction leaves no object behind.
	txn := w.Begin(st, "run-00000001", "p")
	sw, err := txn.CreateState(ctx, "sink/out", ".arrows")
	if err != nil {
		t.Fatal(err)
	}
	sw.Write([]byte("rows"))
	if err := sw.Close(); err != nil {
		t.Fatal(err)
	}
	txn.Abort(ctx)
	if _, err := w.FS.Stat(ctx, sw.Name()); err == nil {
		t.Errorf("%s is left after the transaction aborted", sw.Name())
	}
	txn = w.Begin(st, "run-00000002", "p")
	sw, err = txn.CreateState(ctx, "sink/out", ".arrows")
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{"staged ", "rows"} {
		if _, err := sw.Write([]byte(part)); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := txn.AnnotateState("sink/out", map[string]any{"epoch": 1}); err != nil {
		t.Fatal(err)
	}
	c, err := txn.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got, err := w.ReadState(ctx, c, "sink/out")
	if err != nil || string(got) != "staged rows" || !strings.HasSuffix(sw.Name(), ".arrows") {
		t.Fatalf("ReadState: %q, %v (%s)", got, err, sw.Name())
	}
	if !strings.Contains(string(c.State["sink/out"]), `"epoch":1`) {
		t.Errorf("entry: %s", c.State["sink/out"])
	}
	if ok, err := w.HasNote(ctx, sw.Name(), "published"); ok || err != nil {
		t.Fatalf("HasNote before WriteNote: %v, %v", ok, err)
	}
	if err := w.WriteNote(ctx, sw.Name(), "published", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if ok, err := w.HasNote(ctx, sw.Name(), "published"); !ok || err != nil {
		t.Fatalf("HasNote after WriteNote: %v, %v", ok, err)
	}
}
