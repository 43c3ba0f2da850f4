package stream

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/nordisk/thund/rt/store"
)

// FolderOptions configure a watched folder.
type FolderOptions struct {
	// Dir is the folder, a slash-separated name in the FS ("" is its root).
	// Files in subfolders are included (their names keep the subfolder).
	Dir string
	// Pattern, when set, is a path.Match pattern that a file's name relative
	// to Dir must match ("*.parquet", "*/*.csv"). Empty matches every file.
	Pattern string
	// PollInterval is how long Next waits between two listings that found
	// nothing. Zero means one second.
	PollInterval time.Duration
	// Settle defers a file until two consecutive listings show it with the
	// same size and modification time, for writers that cannot rename. A
	// fresh Folder therefore yields nothing on its first listing.
	Settle bool
	// Clock is processing time for polling; nil means the wall clock.
	Clock Clock
}

// FolderOffset is how far a watched folder has been consumed: the names of
// every file already yielded. It is the value a checkpoint stores with the
// epoch that read those files; a Folder made from it never yields them again.
// It is a set, not only a high-water mark, because a file may land with a
// name below one already consumed; such a file is still read, once.
type FolderOffset struct {
	Consumed []string `json:"consumed"` // sorted, no duplicates
}

// HighWater is the greatest consumed name, "" when nothing was consumed.
func (o FolderOffset) HighWater() string {
	if len(o.Consumed) == 0 {
		return ""
	}
	return o.Consumed[len(o.Consumed)-1]
}

// Folder is a watched folder: an unbounded file source over a store.FS. Each
// Poll lists the folder and yields the files that are new, ready and not
// ignored, in name order, each exactly once (see the package comment for the
// rule against half-written files). It is not safe for concurrent use.
type Folder struct {
	fs       store.FS
	opts     FolderOptions
	prefix   string
	consumed map[string]bool
	prev     map[string]store.Info // previous listing, for Settle
	deferred int
}

// NewFolder watches opts.Dir in fsys, resuming after from.
func NewFolder(fsys store.FS, opts FolderOptions, from FolderOffset) (*Folder, error) {
	if opts.Pattern != "" {
		if _, err := path.Match(opts.Pattern, ""); err != nil {
			return nil, fmt.Errorf("watched folder %q: bad pattern %q: %w", opts.Dir, opts.Pattern, err)
		}
	}
	dir := strings.Trim(opts.Dir, "/")
	if dir != "" {
		if err := store.ValidName(dir); err != nil {
			return nil, fmt.Errorf("watched folder: %w", err)
		}
	}
	opts.Dir = dir
	if opts.PollInterval <= 0 {
		opts.PollInterval = time.Second
	}
	if opts.Clock == nil {
		opts.Clock = WallClock{}
	}
	f := &Folder{fs: fsys, opts: opts, consumed: map[string]bool{}}
	if dir != "" {
		f.prefix = dir + "/"
	}
	for _, n := range from.Consumed {
		f.consumed[n] = true
	}
	return f, nil
}

// Ignored reports whether the watched-folder rule skips a file whose name
// relative to the folder is rel: any path segment starting with "." or "_"
// (temporary files, _SUCCESS markers, _temporary folders), or a name ending
// in ".tmp" or ".crc".
func Ignored(rel string) bool {
	for _, seg := range strings.Split(rel, "/") {
		if seg == "" || seg[0] == '.' || seg[0] == '_' {
			return true
		}
	}
	return strings.HasSuffix(rel, ".tmp") || strings.HasSuffix(rel, ".crc")
}

// Poll lists the folder once and returns the new ready files in name order.
// They count as consumed from then on: Offset includes them. On an error
// nothing is consumed.
func (f *Folder) Poll(ctx context.Context) ([]store.Info, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	list, err := f.fs.List(ctx, f.prefix)
	if err != nil {
		return nil, fmt.Errorf("watched folder %s: %w", f.fs.Location(f.opts.Dir), err)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	var out []store.Info
	cur := map[string]store.Info{}
	f.deferred = 0
	for _, info := range list {
		if f.consumed[info.Name] || !strings.HasPrefix(info.Name, f.prefix) {
			continue
		}
		rel := info.Name[len(f.prefix):]
		if Ignored(rel) {
			continue
		}
		if f.opts.Pattern != "" {
			if ok, _ := path.Match(f.opts.Pattern, rel); !ok {
				continue
			}
		}
		if f.opts.Settle {
			cur[info.Name] = info
			p, seen := f.prev[info.Name]
			if !seen || p.Size != info.Size || !p.ModTime.Equal(info.ModTime) {
				f.deferred++
				continue
			}
		}
		out = append(out, info)
	}
	if f.opts.Settle {
		f.prev = cur
	}
	for _, info := range out {
		f.consumed[info.Name] = true
	}
	return out, nil
}

// Deferred is how many files the last Poll held back as still changing.
func (f *Folder) Deferred() int { return f.deferred }

// Next polls until at least one file is ready, waiting PollInterval between
// listings. It returns ctx's error when ctx is done first.
func (f *Folder) Next(ctx context.Context) ([]store.Info, error) {
	for {
		files, err := f.Poll(ctx)
		if err != nil || len(files) > 0 {
			return files, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-f.opts.Clock.After(f.opts.PollInterval):
		}
	}
}

// Offset is the set of files consumed so far, for a checkpoint.
func (f *Folder) Offset() FolderOffset {
	names := make([]string, 0, len(f.consumed))
	for n := range f.consumed {
		names = append(names, n)
	}
	sort.Strings(names)
	return FolderOffset{Consumed: names}
}
