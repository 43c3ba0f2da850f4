package warehouse

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nordisk/thund/rt/store"
)

// VacuumResult says what Vacuum kept and removed.
type VacuumResult struct {
	Kept        []int64  `json:"kept_epochs"` // the epochs whose commit records were kept, newest first
	Commits     []string `json:"removed_commits"`
	DataFiles   []string `json:"removed_data_files"`
	EventLogs   []string `json:"removed_event_logs"`
	Checkpoints []string `json:"removed_checkpoints"`
	// Staged and TempFiles are the garbage of failed or killed runs that
	// `etl vacuum` removes too (Collect, CleanTemp): files they staged that
	// no commit lists, and how many temporary files of interrupted writes.
	Staged    []string `json:"removed_staged_files"`
	TempFiles int      `json:"removed_temp_files"`
	// SinkFiles are the file sinks' files that `etl vacuum` removed
	// (rt/etl): temporary files of dead runs, a replace sink's earlier
	// output. Not counted in Removed.
	SinkFiles []string `json:"removed_sink_files,omitempty"`
	// TableFiles are Iceberg manifests, manifest lists and metadata files
	// that no kept snapshot needs (rt/iceberg.CleanMetadata, from rt/etl).
	// Not counted in Removed.
	TableFiles []string `json:"removed_table_metadata,omitempty"`
	Bytes      int64    `json:"removed_bytes"`
}

// Removed counts the removed objects that commits needed (Bytes is their
// size); Staged and TempFiles are counted apart.
func (r *VacuumResult) Removed() int {
	return len(r.Commits) + len(r.DataFiles) + len(r.EventLogs) + len(r.Checkpoints)
}

// Vacuum keeps the last keep valid commits (keep >= 1) and removes what
// only older ones need: their commit records, dataset files that no kept
// commit lists, event logs of runs that started before the oldest kept
// commit's run, and checkpoint objects of earlier epochs that no kept commit
// references. The latest commit is always kept, so nothing it references is
// ever removed; older versions that remain readable are those of the kept
// commits (read --version). Objects outside the layout, and files of
// versions newer than a dataset's current one (a run in flight), are never
// touched. Call it while holding the lock.
//
// It is crash-safe: the commit records go first, oldest first, and only
// then the files, so a vacuum stopped at any point (kill -9, a failed
// removal) leaves records that each read back in full, and running it
// again finishes the job.
func (w *Warehouse) Vacuum(ctx context.Context, keep int) (*VacuumResult, error) {
	return w.VacuumWith(ctx, keep, nil)
}

// VacuumWith is Vacuum with a step between retiring the old records and
// removing any file: expire sees the kept commits, newest first, and
// must leave nothing that a reader follows pointing at a file that only
// the retired records list (rt/iceberg.Expire drops their Iceberg
// snapshots). When it fails, no file is removed.
func (w *Warehouse) VacuumWith(ctx context.Context, keep int, expire func(ctx context.Context, kept []*Commit) error) (*VacuumResult, error) {
	if keep < 1 {
		return nil, fmt.Errorf("vacuum: keep %d commits: want at least 1", keep)
	}
	epochs, err := w.Epochs(ctx)
	if err != nil {
		return nil, err
	}
	res := &VacuumResult{Kept: []int64{}, Commits: []string{}, DataFiles: []string{}, EventLogs: []string{}, Checkpoints: []string{}, Staged: []string{}}
	var kept []*Commit
	oldest := int64(-1) // the oldest kept epoch
	for i := len(epochs) - 1; i >= 0 && len(kept) < keep; i-- {
		c, err := w.ReadCommit(ctx, epochs[i])
		if err != nil {
			var ie *InvalidRecordError
			if errors.As(err, &ie) || errors.Is(err, store.ErrNotExist) {
				continue // an invalid record inside the window stays
			}
			return nil, err
		}
		kept = append(kept, c)
		oldest = c.Epoch
		res.Kept = append(res.Kept, c.Epoch)
	}
	if len(kept) == 0 {
		return res, nil // nothing committed: nothing is old
	}
	head := kept[0]
	listed := map[string]bool{}
	refs := map[string]bool{} // checkpoint objects the kept commits reference
	for _, c := range kept {
		for _, d := range c.Datasets {
			for _, f := range d.Files {
				listed[f.Path] = true
			}
		}
		for _, v := range c.State {
			var ref struct {
				Object string `json:"object"`
			}
			if json.Unmarshal(v, &ref) == nil && ref.Object != "" {
				refs[ref.Object] = true
			}
		}
	}
	all, err := w.FS.List(ctx, "")
	if err != nil {
		return nil, err
	}
	type victim struct {
		name string
		size int64
		list *[]string
	}
	var victims []victim
	for _, o := range all {
		switch {
		case strings.HasPrefix(o.Name, CommitsDir+"/"):
			if e, ok := parseCommitName(o.Name); ok && e < oldest {
				victims = append(victims, victim{o.Name, o.Size, &res.Commits})
			}
		case strings.HasPrefix(o.Name, EventsDir+"/"):
			id, ok := strings.CutSuffix(strings.TrimPrefix(o.Name, EventsDir+"/"), ".jsonl")
			// Run ids sort by start time: a run that started before the
			// oldest kept commit's run is older than every kept commit.
			if ok && !strings.Contains(id, "/") && id < kept[len(kept)-1].RunID {
				victims = append(victims, victim{o.Name, o.Size, &res.EventLogs})
			}
		case strings.HasPrefix(o.Name, CheckpointsDir+"/"):
			ep, _, _ := strings.Cut(strings.TrimPrefix(o.Name, CheckpointsDir+"/"), "/")
			if n, ok := parseEpochDir(ep); ok && n < oldest && !refs[o.Name] {
				victims = append(victims, victim{o.Name, o.Size, &res.Checkpoints})
			}
		case strings.HasPrefix(o.Name, EngineDir+"/"):
		default:
			ds, v, ok := parseVersionDir(o.Name)
			if !ok || listed[o.Name] {
				continue
			}
			if d := head.Datasets[ds]; d == nil || v > d.Version {
				continue // not this layout's, or a run in flight: Collect's business
			}
			victims = append(victims, victim{o.Name, o.Size, &res.DataFiles})
		}
	}
	// Commit records go first, oldest first, and each removal is atomic in
	// the store (unlink; DELETE): at every moment the records left are the
	// newest ones, and every file they list is still there, since nothing
	// else is removed until every old record is gone. A vacuum killed at any
	// point leaves a warehouse in which every version a record lists reads
	// back; the next vacuum finds the same victims, less what is gone.
	var errs []error
	for _, v := range victims {
		if v.list != &res.Commits {
			continue
		}
		if err := w.FS.Remove(ctx, v.name); err != nil && !errors.Is(err, store.ErrNotExist) {
			// A record that stays may list any of the files below.
			return res, fmt.Errorf("vacuum: retiring %s (nothing else removed): %w", w.FS.Location(v.name), err)
		}
		res.Commits = append(res.Commits, v.name)
		res.Bytes += v.size
	}
	if expire != nil {
		if err := expire(ctx, kept); err != nil {
			return res, fmt.Errorf("vacuum: %w (the old commit records are retired; no file was removed)", err)
		}
	}
	for _, v := range victims {
		if v.list == &res.Commits {
			continue
		}
		if err := w.FS.Remove(ctx, v.name); err != nil && !errors.Is(err, store.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		*v.list = append(*v.list, v.name)
		res.Bytes += v.size
	}
	return res, errors.Join(errs...)
}
