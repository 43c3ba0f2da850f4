package warehouse

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/nordisk/thund/rt/store"
)

// Collect removes garbage: files a failed or interrupted run staged and no
// commit references. Call it only while holding the lock. For each object
// under <dataset>/v<N>/ it compares N with the dataset's version H in st.Head:
//
//   - no entry for the dataset, or N > H: never committed, removed;
//   - N == H for a live dataset: removed unless the head lists it (stray
//     files of a run that lost its lease);
//   - N < H: an older committed version, kept (read --version N).
//
// Checkpoint objects of epochs after the head are removed likewise (the
// temporary objects of interrupted writes are CleanTemp's). Objects outside
// this layout are never touched. It returns the removed names.
func (w *Warehouse) Collect(ctx context.Context, st *State) ([]string, error) {
	listed := map[string]bool{}
	if st.Head != nil {
		for _, d := range st.Head.Datasets {
			for _, f := range d.Files {
				listed[f.Path] = true
			}
		}
	}
	all, err := w.FS.List(ctx, "")
	if err != nil {
		return nil, err
	}
	var garbage []string
	for _, o := range all {
		if strings.HasPrefix(o.Name, EngineDir+"/") {
			if rest, ok := strings.CutPrefix(o.Name, CheckpointsDir+"/"); ok {
				ep, _, _ := strings.Cut(rest, "/")
				if n, ok := parseEpochDir(ep); ok && (st.Head == nil || n > st.Head.Epoch) {
					garbage = append(garbage, o.Name)
				}
			}
			continue
		}
		ds, v, ok := parseVersionDir(o.Name)
		if !ok {
			continue
		}
		var head *Dataset
		if st.Head != nil {
			head = st.Head.Datasets[ds]
		}
		switch {
		case head == nil || v > head.Version:
			garbage = append(garbage, o.Name)
		case v == head.Version && !head.Dropped && !listed[o.Name]:
			garbage = append(garbage, o.Name)
		}
	}
	var removed []string
	var errs []error
	for _, name := range garbage {
		if err := w.FS.Remove(ctx, name); err != nil && !errors.Is(err, store.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, name)
	}
	return removed, errors.Join(errs...)
}

// CleanTemp removes the temporary objects that interrupted writes left
// behind (a killed run's half-written part file, a torn commit record; on
// S3, incomplete multipart uploads), which no listing shows and no commit
// names, and returns how many. Call it holding l, before this holder writes
// anything but the lock:
//
//   - in the layout's run-owned places (dataset version folders, commit
//     records, checkpoints), which only the lock's holder writes, every one
//     last written before l was acquired, by the store's clock (the lock
//     object's time): each belongs to an earlier holder, gone (or, having
//     lost its lease, unable to commit);
//   - elsewhere (the lock's own temporary files, which runs waiting for the
//     lock write too; event logs, which a refused run writes without the
//     lock; anything outside the layout) only those older than TempMaxAge.
//
// The current holder's own temporary files are never older than its lock.
func (w *Warehouse) CleanTemp(ctx context.Context, l *Lock) (int, error) {
	c, ok := w.FS.(store.TempCleaner)
	if !ok {
		return 0, nil
	}
	aged := time.Now().Add(-TempMaxAge)
	var acquired time.Time
	if l != nil {
		acquired = l.Acquired
	}
	return c.CleanTemp(ctx, "", func(name string) time.Time {
		if acquired.After(aged) && runOwned(name) {
			return acquired
		}
		return aged
	})
}

// runOwned reports whether only the lock's holder writes the object name:
// a dataset version's file, a commit record, a checkpoint object, or a
// dataset's Iceberg metadata (<dataset>/metadata/..., which runs and
// vacuum write holding the lock: rt/iceberg).
func runOwned(name string) bool {
	if _, ok := parseCommitName(name); ok {
		return true
	}
	if ds, rest, ok := strings.Cut(name, "/"); ok && nameRE.MatchString(ds) && strings.HasPrefix(rest, "metadata/") {
		return true
	}
	if strings.HasPrefix(name, CheckpointsDir+"/") {
		return true
	}
	_, _, ok := parseVersionDir(name)
	return ok
}

// TempMaxAge is how old a temporary object outside the run-owned places
// must be before CleanTemp removes it: older than any write in flight (the
// lock's own renewals among them).
const TempMaxAge = 15 * time.Minute

func parseEpochDir(s string) (int64, bool) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	var n int64
	for _, c := range s {
		n = n*10 + int64(c-'0')
		if n > 1<<53 {
			return 0, false
		}
	}
	return n, true
}
