package iceberg

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	ice "github.com/apache/iceberg-go"
	"github.com/nordisk/thund/rt/store"
)

// Reading Iceberg tables that any engine wrote (Thund's Publish, pyiceberg,
// Spark, ...): a snapshot read plans the live data files of one snapshot
// (the current one, or one chosen by id or by time), an incremental append
// scan the data files added by the append snapshots between two snapshots
// of the current snapshot's ancestry, as Spark's Iceberg streaming source
// does. Delete files (merge-on-read) are refused, naming the file; tables
// written copy-on-write read fine. read.go reads the planned files.

// Table is an Iceberg table opened for reading: its newest metadata.
type Table struct {
	FS       store.FS
	Dir      string // the table's folder, relative to FS
	Name     string // the table's location as the user wrote it, for messages
	Meta     *Metadata
	MetaFile string // the metadata file read, relative to FS
}

// OpenS3 opens the store of an s3://bucket/prefix URL (etl.Pipeline.OpenS3).
type OpenS3 func(ctx context.Context, url string) (store.FS, error)

// OpenLocation opens the table at loc: a local folder (absolute, or
// relative to root) or s3://bucket/prefix, read through openS3 (nil: S3 is
// refused). The table's FS is rooted at the file system's root or at the
// bucket, so that data files anywhere on it can be read: manifests name
// them by absolute URI (file:/x, file:///x, /x, s3://bucket/key).
func OpenLocation(ctx context.Context, root, loc string, openS3 OpenS3) (*Table, error) {
	var (
		fs  store.FS
		dir string
	)
	switch {
	case strings.HasPrefix(loc, "s3://"):
		if openS3 == nil {
			return nil, fmt.Errorf("Iceberg table %s is on S3, and this program was built without S3 support (thundc build --s3)", loc)
		}
		bucket, prefix, _ := strings.Cut(strings.TrimPrefix(loc, "s3://"), "/")
		var err error
		if fs, err = openS3(ctx, "s3://"+bucket); err != nil {
			return nil, fmt.Errorf("Iceberg table %s: %w", loc, err)
		}
		dir = strings.Trim(prefix, "/")
	default:
		p := strings.TrimPrefix(strings.TrimPrefix(loc, "file://"), "file:")
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		fs = &store.Local{Root: string(filepath.Separator)}
		dir = strings.Trim(filepath.ToSlash(abs), "/")
	}
	t, err := OpenTable(ctx, fs, dir)
	if err != nil {
		return nil, err
	}
	t.Name = loc
	return t, nil
}

// OpenTable reads the newest metadata of the table whose folder is dir.
func OpenTable(ctx context.Context, fs store.FS, dir string) (*Table, error) {
	name, m, _, err := Current(ctx, fs, dir)
	if err != nil {
		return nil, err // names the folder
	}
	return &Table{FS: fs, Dir: dir, Name: fs.Location(dir), Meta: m, MetaFile: name}, nil
}

// DataFile is one data file a read plans.
type DataFile struct {
	URI       string // as the manifest names it
	Name      string // its object name in the table's FS
	Rows      int64
	Size      int64
	Snapshot  int64 // the snapshot that added it
	SpecID    int
	Partition map[int]any // by partition field id
}

// Rel is the file's name relative to the table's folder when it is below
// it (data/x.parquet), else its URI: short names for messages and offsets.
func (t *Table) Rel(f DataFile) string {
	if rest, ok := strings.CutPrefix(f.Name, t.Dir+"/"); ok {
		return rest
	}
	return f.URI
}

// objectName maps a location in the table's metadata to an object name of
// its FS.
func (t *Table) objectName(uri string) (string, error) {
	if rest, ok := strings.CutPrefix(uri, "s3://"); ok {
		if _, isLocal := t.FS.(*store.Local); isLocal {
			return "", fmt.Errorf("%s is on S3, but table %s is on a local disk", uri, t.Name)
		}
		root := strings.TrimPrefix(URI(t.FS, ""), "s3://")
		root = strings.TrimSuffix(root, "/") + "/"
		name, ok := strings.CutPrefix(rest, root)
		if !ok {
			return "", fmt.Errorf("%s is not in the bucket of table %s", uri, t.Name)
		}
		return name, nil
	}
	p := uri
	switch {
	case strings.HasPrefix(p, "file://"):
		p = strings.TrimPrefix(p, "file://")
	case strings.HasPrefix(p, "file:"):
		p = strings.TrimPrefix(p, "file:")
	}
	if strings.Contains(p, "://") || !strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("%s: want an absolute file:, / or s3:// location", uri)
	}
	if _, isLocal := t.FS.(*store.Local); !isLocal {
		return "", fmt.Errorf("%s is on a local disk, but table %s is on S3", uri, t.Name)
	}
	return strings.TrimLeft(p, "/"), nil
}

// SnapshotByID is the snapshot of the given id (a time travel).
func (t *Table) SnapshotByID(id int64) (*Snapshot, error) {
	if s := t.Meta.Snapshot(id); s != nil {
		return s, nil
	}
	return nil, fmt.Errorf("Iceberg table %s has no snapshot %d (snapshots: %s)", t.Name, id, t.snapshotList())
}

func (t *Table) snapshotList() string {
	var ids []string
	for _, s := range t.Meta.Snapshots {
		ids = append(ids, fmt.Sprint(s.SnapshotID))
	}
	if len(ids) == 0 {
		return "none"
	}
	if len(ids) > 6 {
		ids = append(ids[:3], "...", ids[len(ids)-2], ids[len(ids)-1])
	}
	return strings.Join(ids, ", ")
}

// SnapshotAsOf is the snapshot that was current at ms (milliseconds since
// the epoch): the last entry of the snapshot log at or before it, as
// Spark's as-of-timestamp reads it.
func (t *Table) SnapshotAsOf(ms int64) (*Snapshot, error) {
	var best *Snapshot
	log := t.Meta.SnapshotLog
	if len(log) == 0 {
		// A table whose log is empty: the current snapshot's ancestry.
		if cur := t.Meta.Current(); cur != nil {
			for _, s := range t.Meta.Ancestors(cur.SnapshotID) {
				log = append([]SnapshotLogEntry{{TimestampMs: s.TimestampMs, SnapshotID: s.SnapshotID}}, log...)
			}
		}
	}
	for _, e := range log {
		if e.TimestampMs <= ms {
			if s := t.Meta.Snapshot(e.SnapshotID); s != nil {
				best = s
			}
		}
	}
	if best == nil {
		at := time.UnixMilli(ms).UTC().Format(time.RFC3339Nano)
		if len(log) == 0 {
			return nil, fmt.Errorf("Iceberg table %s has no snapshot to time travel to (as of %s)", t.Name, at)
		}
		first := time.UnixMilli(log[0].TimestampMs).UTC().Format(time.RFC3339Nano)
		return nil, fmt.Errorf("Iceberg table %s has no snapshot as of %s: its oldest snapshot in the log is from %s", t.Name, at, first)
	}
	return best, nil
}

// manifests reads a snapshot's manifest list.
func (t *Table) manifests(ctx context.Context, s *Snapshot) ([]ice.ManifestFile, error) {
	if s.ManifestList == "" {
		return nil, fmt.Errorf("Iceberg table %s: snapshot %d has no manifest list (format v1 inline manifests are not read)", t.Name, s.SnapshotID)
	}
	name, err := t.objectName(s.ManifestList)
	if err != nil {
		return nil, fmt.Errorf("Iceberg table %s: snapshot %d: manifest list: %w", t.Name, s.SnapshotID, err)
	}
	mfs, err := readManifestList(ctx, t.FS, URI(t.FS, name))
	if err != nil {
		return nil, fmt.Errorf("Iceberg table %s: snapshot %d: %w", t.Name, s.SnapshotID, err)
	}
	return mfs, nil
}

// entries reads a manifest's live entries (ADDED and EXISTING).
func (t *Table) entries(ctx context.Context, mf ice.ManifestFile) ([]ice.ManifestEntry, error) {
	name, err := t.objectName(mf.FilePath())
	if err != nil {
		return nil, fmt.Errorf("Iceberg table %s: manifest: %w", t.Name, err)
	}
	es, err := readManifest(ctx, t.FS, uriManifest{mf, URI(t.FS, name)})
	if err != nil {
		return nil, fmt.Errorf("Iceberg table %s: %s: %w", t.Name, mf.FilePath(), err)
	}
	return es, nil
}

// uriManifest is a manifest file named by its URI in the table's FS (the
// list may name it file:/x where the FS says file:///x).
type uriManifest struct {
	ice.ManifestFile
	uri string
}

func (m uriManifest) FilePath() string { return m.uri }

// DeleteFileError refuses a read that meets a delete file (merge-on-read).
type DeleteFileError struct {
	Table    string
	Snapshot int64
	File     string
}

func (e *DeleteFileError) Error() string {
	return fmt.Sprintf("Iceberg table %s: snapshot %d has delete file %s: merge-on-read tables are not read (rewrite the table copy-on-write, e.g. Spark's rewrite_data_files or write.delete.mode=copy-on-write)",
		e.Table, e.Snapshot, e.File)
}

// dataFile describes a manifest entry's data file, refusing a delete file.
func (t *Table) dataFile(s *Snapshot, e ice.ManifestEntry) (DataFile, error) {
	df := e.DataFile()
	if df.ContentType() != ice.EntryContentData {
		return DataFile{}, &DeleteFileError{Table: t.Name, Snapshot: s.SnapshotID, File: df.FilePath()}
	}
	if f := df.FileFormat(); !strings.EqualFold(string(f), "parquet") {
		return DataFile{}, fmt.Errorf("Iceberg table %s: data file %s is %s: only Parquet data files are read", t.Name, df.FilePath(), f)
	}
	name, err := t.objectName(df.FilePath())
	if err != nil {
		return DataFile{}, fmt.Errorf("Iceberg table %s: %w", t.Name, err)
	}
	return DataFile{URI: df.FilePath(), Name: name, Rows: df.Count(), Size: df.FileSizeBytes(),
		Snapshot: e.SnapshotID(), SpecID: int(df.SpecID()), Partition: df.Partition()}, nil
}

// Files plans a snapshot read: the live data files of s (nil: none, a
// table without snapshots). A delete file is an error naming it.
func (t *Table) Files(ctx context.Context, s *Snapshot) ([]DataFile, error) {
	if s == nil {
		return nil, nil
	}
	mfs, err := t.manifests(ctx, s)
	if err != nil {
		return nil, err
	}
	var out []DataFile
	for _, mf := range mfs {
		es, err := t.entries(ctx, mf)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			f, err := t.dataFile(s, e)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		}
	}
	sortFiles(out)
	return out, nil
}

// sortFiles orders files by the snapshot that added them, then by name:
// the order rows were appended in.
func sortFiles(fs []DataFile) {
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Snapshot != fs[j].Snapshot {
			return fs[i].Snapshot < fs[j].Snapshot
		}
		return fs[i].URI < fs[j].URI
	})
}

// added is the data files snapshot s added (its manifests' ADDED entries
// of s), refusing delete files.
func (t *Table) added(ctx context.Context, s *Snapshot) ([]DataFile, error) {
	mfs, err := t.manifests(ctx, s)
	if err != nil {
		return nil, err
	}
	var out []DataFile
	for _, mf := range mfs {
		if mf.SnapshotID() != s.SnapshotID {
			continue // a manifest an older snapshot wrote holds no file s added
		}
		es, err := t.entries(ctx, mf)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			if e.Status() != ice.EntryStatusADDED || e.SnapshotID() != s.SnapshotID {
				continue
			}
			f, err := t.dataFile(s, e)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		}
	}
	sortFiles(out)
	return out, nil
}

// ScanOptions are a stream read's options, by Spark's names.
type ScanOptions struct {
	SkipOverwrite bool // streaming-skip-overwrite-snapshots
	SkipDelete    bool // streaming-skip-delete-snapshots
}

// NonAppendError is an incremental scan that met a snapshot which is not
// an append and that no option skips.
type NonAppendError struct {
	Table     string
	Snapshot  int64
	Operation string
}

func (e *NonAppendError) Error() string {
	opt := "streaming-skip-overwrite-snapshots"
	if e.Operation == "delete" {
		opt = "streaming-skip-delete-snapshots"
	}
	return fmt.Sprintf("Iceberg table %s: snapshot %d is a%s %s, not an append, so a stream read cannot take only its new rows; option %s = \"true\" skips such snapshots (thund.non-append = \"skip\" skips overwrites and deletes), thund.non-append = \"recompute\" rebuilds the reader from the current snapshot",
		e.Table, e.Snapshot, article(e.Operation), e.Operation, opt)
}

func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "n"
	}
	return ""
}

// LostError is an incremental scan from a snapshot that is no longer in
// the current snapshot's history.
type LostError struct {
	Table    string
	Snapshot int64
}

func (e *LostError) Error() string {
	return fmt.Sprintf("Iceberg table %s: snapshot %d, the last one the stream read, is no longer in the history of its current snapshot (expired, rolled back, or the table was replaced)", e.Table, e.Snapshot)
}

// Scan is what an incremental append scan takes.
type Scan struct {
	Files []DataFile
	// Base is the snapshot read whole (its live files) by a first read:
	// the oldest snapshot of the current snapshot's ancestry; 0 for none.
	Base int64
	// Snapshots are the append snapshots whose added files are read,
	// oldest first; Skipped the others passed over, with why.
	Snapshots []int64
	Skipped   []string
	// To is the snapshot the scan reads up to: the next scan's from.
	To int64
}

// Rows is the rows of the scan's files.
func (s *Scan) Rows() (n int64) {
	for _, f := range s.Files {
		n += f.Rows
	}
	return n
}

// AppendScan plans an incremental append scan of the snapshots after from
// up to to (a snapshot of the table; nil: the table has none yet), as
// Spark's Iceberg micro-batch stream: the data files each append snapshot
// added, in snapshot order. from = 0 is a first read: it reads the oldest
// snapshot of to's ancestry whole (all of its live files), then the
// appends after it. A replace snapshot (compaction) is skipped; an
// overwrite or a delete is a *NonAppendError unless o skips it. A from
// that is not in to's ancestry is a *LostError.
func (t *Table) AppendScan(ctx context.Context, from int64, to *Snapshot, o ScanOptions) (*Scan, error) {
	sc := &Scan{To: from}
	if to == nil {
		if from != 0 {
			return nil, &LostError{Table: t.Name, Snapshot: from}
		}
		return sc, nil
	}
	sc.To = to.SnapshotID
	chain := t.Meta.Ancestors(to.SnapshotID) // newest first
	var todo []*Snapshot
	found := from == 0
	for _, s := range chain {
		if s.SnapshotID == from {
			found = true
			break
		}
		todo = append(todo, s)
	}
	if !found {
		return nil, &LostError{Table: t.Name, Snapshot: from}
	}
	if from == 0 && len(todo) > 0 {
		base := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		files, err := t.Files(ctx, base)
		if err != nil {
			return nil, err
		}
		sc.Base, sc.Files = base.SnapshotID, files
	}
	for i := len(todo) - 1; i >= 0; i-- {
		s := todo[i]
		switch op := s.Operation(); op {
		case "append", "":
			files, err := t.added(ctx, s)
			if err != nil {
				return nil, err
			}
			sc.Files = append(sc.Files, files...)
			sc.Snapshots = append(sc.Snapshots, s.SnapshotID)
		case "replace":
			sc.Skipped = append(sc.Skipped, fmt.Sprintf("snapshot %d (replace: its rows are already read)", s.SnapshotID))
		case "overwrite":
			if !o.SkipOverwrite {
				return nil, &NonAppendError{Table: t.Name, Snapshot: s.SnapshotID, Operation: op}
			}
			sc.Skipped = append(sc.Skipped, fmt.Sprintf("snapshot %d (overwrite, skipped by streaming-skip-overwrite-snapshots)", s.SnapshotID))
		case "delete":
			if !o.SkipDelete {
				return nil, &NonAppendError{Table: t.Name, Snapshot: s.SnapshotID, Operation: op}
			}
			sc.Skipped = append(sc.Skipped, fmt.Sprintf("snapshot %d (delete, skipped by streaming-skip-delete-snapshots)", s.SnapshotID))
		default:
			return nil, fmt.Errorf("Iceberg table %s: snapshot %d has operation %q: want append, replace, overwrite or delete", t.Name, s.SnapshotID, op)
		}
	}
	return sc, nil
}
