package iceberg

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/warehouse"
)

// Expire is vacuum's first Iceberg step, after the old commit records are
// retired and before any data file is removed: every published table
// drops the snapshots of versions that no kept commit holds, in a new
// metadata file. A reader of the current metadata then never reaches a
// file that vacuum removes. It returns the tables it changed.
func Expire(ctx context.Context, wh *warehouse.Warehouse, kept []*warehouse.Commit) ([]string, error) {
	if len(kept) == 0 {
		return nil, nil
	}
	held := map[string]map[int64]bool{} // dataset -> versions the kept commits hold
	for _, c := range kept {
		for name, d := range c.Datasets {
			if held[name] == nil {
				held[name] = map[int64]bool{}
			}
			if !d.Dropped {
				held[name][d.Version] = true
			}
		}
	}
	names := make([]string, 0, len(held))
	for n := range held {
		names = append(names, n)
	}
	sort.Strings(names)
	var changed []string
	var errs []error
	for _, name := range names {
		t, err := loadTable(ctx, wh.FS, name)
		if err != nil {
			errs = append(errs, fmt.Errorf("Iceberg table %s: %w", name, err))
			continue
		}
		if t.meta == nil {
			continue
		}
		m := t.meta
		cur := m.Current()
		if cur != nil && !held[name][cur.SnapshotID] {
			// The table is behind the warehouse (a run killed before it
			// published): its current snapshot's files may be among those
			// vacuum removes. Publish first (rt/etl's vacuum does).
			errs = append(errs, fmt.Errorf("Iceberg table %s: its current snapshot %d is a version no kept commit holds; publish the tables before vacuum removes files", name, cur.SnapshotID))
			continue
		}
		keep := func(id int64) bool { return held[name][id] }
		n := len(m.Snapshots)
		m.Snapshots = slices.DeleteFunc(m.Snapshots, func(s Snapshot) bool { return !keep(s.SnapshotID) })
		if len(m.Snapshots) == n {
			continue
		}
		m.SnapshotLog = slices.DeleteFunc(m.SnapshotLog, func(e SnapshotLogEntry) bool { return !keep(e.SnapshotID) })
		for i := range m.Snapshots {
			if p := m.Snapshots[i].ParentSnapshotID; p != nil && !keep(*p) {
				m.Snapshots[i].ParentSnapshotID = nil // its parent expired
			}
		}
		m.LastUpdatedMs = max(m.LastUpdatedMs, time.Now().UnixMilli())
		if _, err := t.commit(ctx, wh.FS); err != nil {
			errs = append(errs, fmt.Errorf("Iceberg table %s: %w", name, err))
			continue
		}
		changed = append(changed, name)
	}
	return changed, errors.Join(errs...)
}

// CleanMetadata is vacuum's last Iceberg step, after the data files are
// removed: in each table's metadata folder it removes the manifest lists
// and manifests that no snapshot of the current metadata reaches, and the
// metadata files older than those the metadata log keeps. It returns the
// removed objects' names.
func CleanMetadata(ctx context.Context, fs store.FS, datasets []string) ([]string, error) {
	var removed []string
	var errs []error
	for _, name := range datasets {
		t, err := loadTable(ctx, fs, name)
		if err != nil || t.meta == nil {
			errs = append(errs, err)
			continue
		}
		reach := map[string]bool{t.metaName: true, name + "/" + VersionHint: true}
		for _, e := range t.meta.MetadataLog {
			if n, err := nameOf(fs, e.MetadataFile); err == nil {
				reach[n] = true
			}
		}
		for i := range t.meta.Snapshots {
			s := &t.meta.Snapshots[i]
			ln, err := nameOf(fs, s.ManifestList)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			reach[ln] = true
			mfs, err := readManifestList(ctx, fs, s.ManifestList)
			if err != nil {
				errs = append(errs, fmt.Errorf("Iceberg table %s: %w", name, err))
				reach = nil // not sure what is reached: remove nothing
				break
			}
			for _, mf := range mfs {
				if n, err := nameOf(fs, mf.FilePath()); err == nil {
					reach[n] = true
				}
			}
		}
		if reach == nil {
			continue
		}
		prefix := name + "/" + MetadataDir + "/"
		objs, err := fs.List(ctx, prefix)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, o := range objs {
			base := strings.TrimPrefix(o.Name, prefix)
			_, isMeta := metadataVersion(base)
			ours := isMeta || strings.HasSuffix(base, ".avro")
			if reach[o.Name] || !ours || strings.Contains(base, "/") {
				continue
			}
			if err := fs.Remove(ctx, o.Name); err != nil && !errors.Is(err, store.ErrNotExist) {
				errs = append(errs, err)
				continue
			}
			removed = append(removed, o.Name)
		}
	}
	return removed, errors.Join(errs...)
}
