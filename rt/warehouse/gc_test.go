package warehouse

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCleanTempByLock: with the lock held, CleanTemp removes the temporary
// files of earlier holders in the run-owned places (written before the lock
// was acquired), however young, and keeps the current holder's own, young
// ones elsewhere (event logs, the lock's), and anything outside the layout.
func TestCleanTempByLock(t *testing.T) {
	ctx := context.Background()
	w, l := newWH(t)
	put := func(name string, age time.Duration) string {
		t.Helper()
		p := filepath.Join(l.Root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if age > 0 {
			at := time.Now().Add(-age)
			if err := os.Chtimes(p, at, at); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	gone := map[string]string{
		"killed run's part file":  put("t/v000002/.part-00000-abcdefgh.parquet.tmp-1", time.Second),
		"partition's part file":   put("t/v000002/day=1/.part-00000-abcdefgh.parquet.tmp-2", time.Second),
		"torn commit record":      put("_thund/commits/.000000000002.json.tmp-3", time.Second),
		"checkpoint object":       put("_thund/checkpoints/000000000002/.agg-abcdefgh.tmp-4", time.Second),
		"old event log":           put("_thund/events/.run-1.jsonl.tmp-5", TempMaxAge+time.Minute),
		"old file outside layout": put("notes/.x.txt.tmp-6", TempMaxAge+time.Minute),
	}
	kept := map[string]string{
		"young event log":           put("_thund/events/.run-2.jsonl.tmp-7", time.Second),
		"young lock temp":           put("_thund/.lock.tmp-8", time.Second),
		"young file outside layout": put("notes/.y.txt.tmp-9", time.Second),
		"not a temporary file":      put("t/v000002/.hidden", time.Second),
	}
	lock, err := w.Acquire(ctx, "run-2", "p", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release(ctx)
	if lock.Acquired.IsZero() {
		t.Fatal("the lock does not know when it was acquired")
	}
	kept["the holder's own part file"] = put("t/v000003/.part-00000-12345678.parquet.tmp-10", 0)
	n, err := w.CleanTemp(ctx, lock)
	if err != nil {
		t.Fatal(err)
	}
	for what, p := range gone {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s kept: %s", what, p)
		}
	}
	for what, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed: %s", what, p)
		}
	}
	if n != len(gone) {
		t.Errorf("removed %d, want %d", n, len(gone))
	}
	if _, err := os.Stat(filepath.Join(l.Root, "t", "v000002", "day=1")); err == nil {
		t.Errorf("an emptied folder stays")
	}
	// Without a lock only the old ones go.
	young := put("t/v000004/.part-00000-abcdefgh.parquet.tmp-11", time.Second)
	if _, err := w.CleanTemp(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(young); err != nil {
		t.Errorf("without a lock, a young part file was removed")
	}
}
