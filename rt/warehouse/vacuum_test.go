package warehouse

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/store"
)

func TestVacuum(t *testing.T) {
	w, _ := newWH(t)
	vacuumCycle(t, w)
}

// vacuumCycle: five commits, vacuum keeps the last two; what they
// reference stays readable, the rest is gone, a second vacuum is a no-op.
func vacuumCycle(t *testing.T, w *Warehouse) {
	ctx := context.Background()
	vacuumFixture(t, w)
	tV2 := readRows(t, w, "t", 2)
	before, _ := w.FS.List(ctx, "")

	if _, err := w.Vacuum(ctx, 0); err == nil {
		t.Error("keep 0 accepted")
	}
	res, err := w.Vacuum(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Kept, []int64{5, 4}) {
		t.Errorf("kept %v", res.Kept)
	}
	if want := []string{CommitName(1), CommitName(2), CommitName(3)}; !slices.Equal(res.Commits, want) {
		t.Errorf("removed commits %v, want %v", res.Commits, want)
	}
	if want := []string{EventsDir + "/run-1.jsonl", EventsDir + "/run-2.jsonl", EventsDir + "/run-3.jsonl"}; !slices.Equal(res.EventLogs, want) {
		t.Errorf("removed event logs %v, want %v", res.EventLogs, want)
	}
	if len(res.Checkpoints) != 3 || !strings.Contains(res.Checkpoints[2], "/000000000003/") {
		t.Errorf("removed checkpoints %v", res.Checkpoints)
	}
	// t's version 1 (only commits 1 and 2 list it) is gone; version 2 (commit
	// 4 lists it) and 3 (the head) stay; a's versions append, so the head
	// lists every file of it.
	if len(res.DataFiles) != 1 || !strings.HasPrefix(res.DataFiles[0], "t/v000001/") {
		t.Errorf("removed data files %v", res.DataFiles)
	}
	if res.Bytes <= 0 || res.Removed() != 10 {
		t.Errorf("removed %d objects, %d bytes", res.Removed(), res.Bytes)
	}
	after, _ := w.FS.List(ctx, "")
	if len(after) != len(before)-res.Removed() {
		t.Errorf("%d objects before, %d after, %d reported removed", len(before), len(after), res.Removed())
	}
	if got := readRows(t, w, "t", 0); len(got) != 1 || !strings.HasPrefix(got[0], "4,c,") {
		t.Errorf("t head after vacuum: %v", got)
	}
	if got := readRows(t, w, "t", 2); !slices.Equal(got, tV2) {
		t.Errorf("t v2 after vacuum: %v, want %v", got, tV2)
	}
	if got := readRows(t, w, "a", 0); len(got) != 2 {
		t.Errorf("a head after vacuum: %v", got)
	}
	if _, _, err := w.Resolve(ctx, "t", 1); err == nil || !strings.Contains(err.Error(), "version 1 is no longer recorded") {
		t.Errorf("t v1 after vacuum: %v", err)
	}
	again, err := w.Vacuum(ctx, 2)
	if err != nil || again.Removed() != 0 {
		t.Errorf("second vacuum: %+v %v", again, err)
	}
	// The head is never removed, even with keep 1.
	if _, err := w.Vacuum(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if got := readRows(t, w, "a", 0); len(got) != 2 {
		t.Errorf("a head after vacuum --keep 1: %v", got)
	}
	if got := readRows(t, w, "t", 0); len(got) != 1 {
		t.Errorf("t head after vacuum --keep 1: %v", got)
	}
}

// vacuumFixture makes five commits, alternating between a replaced
// dataset t and an appended one a, each with an event log and a checkpoint
// object.
func vacuumFixture(t *testing.T, w *Warehouse) {
	t.Helper()
	ctx := context.Background()
	steps := []struct {
		ds     string
		rows   []row
		append bool
	}{
		{"t", []row{{1, str("a"), 1}}, false},
		{"a", []row{{10, nil, 1}}, true},
		{"t", []row{{2, str("b"), 2}, {3, nil, 3}}, false},
		{"a", []row{{11, nil, 2}}, true},
		{"t", []row{{4, str("c"), 4}}, false},
	}
	for i, s := range steps {
		id := "run-" + string(rune('1'+i))
		if _, err := runOnce(ctx, w, id, map[string][]row{s.ds: s.rows}, WriteOptions{Append: s.append}); err != nil {
			t.Fatal(err)
		}
		// An event log per run, and a checkpoint object per epoch.
		if err := w.FS.CreateIfAbsent(ctx, EventsDir+"/"+id+".jsonl", []byte("{}\n")); err != nil {
			t.Fatal(err)
		}
		if err := w.FS.WriteFile(ctx, CheckpointsDir+"/00000000000"+string(rune('1'+i))+"/state", []byte("s")); err != nil {
			t.Fatal(err)
		}
	}
}

// dyingFS stops removing after left removals, as a vacuum killed there
// would: every later Remove fails and changes nothing.
type dyingFS struct {
	store.FS
	left int
	died bool
}

func (d *dyingFS) Remove(ctx context.Context, name string) error {
	if d.left == 0 {
		d.died = true
		return fmt.Errorf("remove %s: killed", name)
	}
	d.left--
	return d.FS.Remove(ctx, name)
}

// TestVacuumInterrupted stops a vacuum after every number of removals in
// turn (what a kill -9 in `etl vacuum` leaves): every version that a
// remaining commit record lists must then read back in full, and the next
// vacuum must finish the job, leaving what an uninterrupted one leaves.
// Before vacuum retired the commit records first, it removed the data files
// first, and a kill there left records whose files were gone.
func TestVacuumInterrupted(t *testing.T) {
	ctx := context.Background()
	ref, _ := newWH(t)
	vacuumFixture(t, ref)
	if _, err := ref.Vacuum(ctx, 1); err != nil {
		t.Fatal(err)
	}
	want := names(t, ref)
	for n := 0; ; n++ {
		w, l := newWH(t)
		vacuumFixture(t, w)
		d := &dyingFS{FS: l, left: n}
		w.FS = d
		_, err := w.Vacuum(ctx, 1)
		w.FS = l
		if !d.died {
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("checked a kill after each of %d removals", n)
			break
		}
		checkListedVersions(t, w, fmt.Sprintf("after %d removals", n))
		if _, err := w.Vacuum(ctx, 1); err != nil {
			t.Fatalf("vacuum after a kill after %d removals: %v", n, err)
		}
		if got := names(t, w); !slices.Equal(got, want) {
			t.Errorf("after a kill after %d removals and a second vacuum:\n%v\nwant (one vacuum):\n%v", n, got, want)
		}
	}
}

// checkListedVersions reads back every dataset version that a commit
// record of w lists, as `etl read --version N` does.
func checkListedVersions(t *testing.T, w *Warehouse, when string) {
	t.Helper()
	ctx := context.Background()
	epochs, err := w.Epochs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range epochs {
		c, err := w.ReadCommit(ctx, e)
		if err != nil {
			t.Errorf("%s: commit %d: %v", when, e, err)
			continue
		}
		for name, ds := range c.Datasets {
			r, _, err := w.ReadDataset(ctx, name, ds.Version, format.Options{})
			if err == nil {
				var recs []arrow.RecordBatch
				if recs, err = format.ReadAll(r); err == nil {
					var rows int64
					for _, rec := range recs {
						rows += rec.NumRows()
						rec.Release()
					}
					if rows != ds.Rows {
						err = fmt.Errorf("%d rows, the record lists %d", rows, ds.Rows)
					}
				}
			}
			if err != nil {
				t.Errorf("%s: commit %d lists %s version %d, which does not read back: %v", when, e, name, ds.Version, err)
			}
		}
	}
}

// names lists the objects of w.
func names(t *testing.T, w *Warehouse) []string {
	t.Helper()
	all, err := w.FS.List(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, o := range all {
		out = append(out, o.Name)
	}
	return out
}
