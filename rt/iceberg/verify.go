package iceberg

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/nordisk/thund/rt/warehouse"
)

// Verify checks the Iceberg tables of a warehouse against its latest
// commit, as the crash suite does after every kill: no table is ahead of
// the warehouse (its current snapshot is a version head holds or an
// older one); every snapshot of a table's current metadata reaches only
// files that exist with their recorded size, and, for a version a kept
// record still lists, exactly that version's files. With upToDate, each
// dataset of head that has a table is at head's version (a completed run
// published it).
func Verify(ctx context.Context, wh *warehouse.Warehouse, head *warehouse.Commit, upToDate bool) error {
	if head == nil {
		return nil
	}
	versions := map[string]map[int64][]string{} // dataset -> version -> files, from the kept records
	epochs, err := wh.Epochs(ctx)
	if err != nil {
		return err
	}
	for _, e := range epochs {
		c, err := wh.ReadCommit(ctx, e)
		if err != nil {
			continue // a retired or invalid record
		}
		for name, d := range c.Datasets {
			if d.Dropped {
				continue
			}
			if versions[name] == nil {
				versions[name] = map[int64][]string{}
			}
			var files []string
			for _, f := range d.Files {
				files = append(files, URI(wh.FS, f.Path))
			}
			slices.Sort(files)
			versions[name][d.Version] = files
		}
	}
	names := make([]string, 0, len(head.Datasets))
	for n := range head.Datasets {
		names = append(names, n)
	}
	sort.Strings(names)
	var errs []error
	for _, name := range names {
		d := head.Datasets[name]
		t, err := loadTable(ctx, wh.FS, name)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		if t.meta == nil {
			continue
		}
		cur := t.meta.Current()
		switch {
		case cur == nil:
			errs = append(errs, fmt.Errorf("%s: the table has no current snapshot", name))
			continue
		case !d.Dropped && cur.SnapshotID > d.Version:
			errs = append(errs, fmt.Errorf("%s: the table's current snapshot %d is ahead of the warehouse's version %d", name, cur.SnapshotID, d.Version))
		case upToDate && !d.Dropped && cur.SnapshotID != d.Version:
			errs = append(errs, fmt.Errorf("%s: the table's current snapshot is %d after a completed run; the warehouse is at version %d", name, cur.SnapshotID, d.Version))
		}
		for i := range t.meta.Snapshots {
			s := &t.meta.Snapshots[i]
			files, err := liveFiles(ctx, wh.FS, s)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s snapshot %d: %w", name, s.SnapshotID, err))
				continue
			}
			var got []string
			for _, df := range files {
				got = append(got, df.FilePath())
				n, err := nameOf(wh.FS, df.FilePath())
				if err != nil {
					errs = append(errs, fmt.Errorf("%s snapshot %d: %w", name, s.SnapshotID, err))
					continue
				}
				info, err := wh.FS.Stat(ctx, n)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s snapshot %d reaches %s: %w", name, s.SnapshotID, n, err))
				} else if info.Size != df.FileSizeBytes() {
					errs = append(errs, fmt.Errorf("%s snapshot %d reaches %s of %d bytes; it has %d", name, s.SnapshotID, n, df.FileSizeBytes(), info.Size))
				}
			}
			slices.Sort(got)
			if want, ok := versions[name][s.SnapshotID]; ok && !slices.Equal(got, want) {
				errs = append(errs, fmt.Errorf("%s snapshot %d holds %d files %v; the warehouse's version %d lists %d %v", name, s.SnapshotID, len(got), got, s.SnapshotID, len(want), want))
			}
		}
	}
	return errors.Join(errs...)
}
