package iceberg

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	ice "github.com/apache/iceberg-go"
	"github.com/google/uuid"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/warehouse"
)

// URI is the absolute location of a warehouse object as Iceberg metadata
// names it: file:///abs/path on a local disk, s3://bucket/key on S3.
func URI(fs store.FS, name string) string {
	loc := fs.Location(name)
	if strings.Contains(loc, "://") {
		return loc
	}
	loc = filepath.ToSlash(loc)
	if !strings.HasPrefix(loc, "/") {
		loc = "/" + loc
	}
	return "file://" + loc
}

// Published says what Publish did to one table.
type Published struct {
	Dataset   string  `json:"dataset"`
	Snapshots []int64 `json:"snapshots,omitempty"` // the snapshots added (= dataset versions)
	Metadata  string  `json:"metadata,omitempty"`  // the new metadata file's location
	Removed   bool    `json:"removed,omitempty"`   // the table's metadata was removed (dropped, or USING parquet)
}

// Publish brings the Iceberg table of every dataset in tables (those the
// pipeline publishes) up to head, the latest commit: for each version the
// warehouse committed that the table does not have yet, one snapshot (its
// id is the version), then one new metadata file per table. It also
// removes the metadata of a dataset that head drops or that is no longer
// published. Call it after the commit and while holding the lock: the
// commit record is the commit point, so an Iceberg reader never sees a
// version the warehouse did not commit, and a run killed before or during
// Publish leaves tables one or more versions behind, which the next call
// brings up to date (backfill is the same walk from nothing).
func Publish(ctx context.Context, wh *warehouse.Warehouse, head *warehouse.Commit, tables map[string]bool) ([]Published, error) {
	if head == nil {
		return nil, nil
	}
	p := &publisher{ctx: ctx, wh: wh, fs: wh.FS, records: map[int64]*warehouse.Commit{head.Epoch: head}}
	names := make([]string, 0, len(head.Datasets))
	for n := range head.Datasets {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []Published
	var errs []error
	for _, name := range names {
		d := head.Datasets[name]
		var (
			res *Published
			err error
		)
		if d.Dropped || !tables[name] {
			res, err = p.remove(name)
		} else {
			res, err = p.publish(name, head)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("Iceberg table %s: %w", name, err))
		}
		if res != nil {
			out = append(out, *res)
		}
	}
	return out, errors.Join(errs...)
}

type publisher struct {
	ctx     context.Context
	wh      *warehouse.Warehouse
	fs      store.FS
	records map[int64]*warehouse.Commit
}

func (p *publisher) record(epoch int64) (*warehouse.Commit, error) {
	if c, ok := p.records[epoch]; ok {
		return c, nil
	}
	c, err := p.wh.ReadCommit(p.ctx, epoch)
	if err != nil {
		return nil, err
	}
	p.records[epoch] = c
	return c, nil
}

// version is one dataset version to publish, with the record it is taken
// from (for its commit time).
type version struct {
	ds  *warehouse.Dataset
	rec *warehouse.Commit
}

// pending walks the commit records back from head and returns the
// versions of name newer than published, oldest first, as far as records
// are kept (vacuum removes old ones: their versions are not published).
func (p *publisher) pending(name string, head *warehouse.Commit, published int64) []version {
	var chain []version
	holder := head // a record that holds the version being looked at
	d := head.Datasets[name]
	for d != nil && !d.Dropped && d.Version > published {
		// Records older than the one that produced a version hold it too
		// when that record is retired: take each version once.
		if len(chain) == 0 || chain[len(chain)-1].ds.Version != d.Version {
			if c, err := p.record(d.Epoch); err == nil && c.Datasets[name] != nil && c.Datasets[name].Version == d.Version {
				holder = c // the record that produced the version: its commit time
			}
			chain = append(chain, version{d, holder})
		}
		if holder.Previous == 0 {
			break
		}
		prev, err := p.record(holder.Previous)
		if err != nil {
			break
		}
		holder, d = prev, prev.Datasets[name]
	}
	slices.Reverse(chain)
	return chain
}

func (p *publisher) publish(name string, head *warehouse.Commit) (*Published, error) {
	t, err := loadTable(p.ctx, p.fs, name)
	if err != nil {
		return nil, err
	}
	var published int64
	if t.meta != nil {
		if cur := t.meta.Current(); cur != nil {
			published = cur.SnapshotID
		}
		if t.meta.Location != URI(p.fs, name) {
			// The warehouse moved: every path in the old metadata is
			// stale. Start the table again from the kept versions.
			t = &table{name: name, metaN: t.metaN}
			published = 0
		}
	}
	versions := p.pending(name, head, published)
	if len(versions) == 0 {
		return t.fixHint(p.ctx, p.fs)
	}
	res := &Published{Dataset: name}
	for _, v := range versions {
		if err := t.addVersion(p.ctx, p.fs, v); err != nil {
			return nil, fmt.Errorf("version %d: %w", v.ds.Version, err)
		}
		res.Snapshots = append(res.Snapshots, v.ds.Version)
	}
	loc, err := t.commit(p.ctx, p.fs)
	if err != nil {
		return nil, err
	}
	res.Metadata = loc
	return res, nil
}

// remove deletes a table's metadata: the hint first (so that no reader
// starts on it), then the metadata files newest first, then the rest.
func (p *publisher) remove(name string) (*Published, error) {
	prefix := name + "/" + MetadataDir + "/"
	objs, err := p.fs.List(p.ctx, prefix)
	if err != nil || len(objs) == 0 {
		return nil, err
	}
	names := make([]string, 0, len(objs))
	for _, o := range objs {
		names = append(names, o.Name)
	}
	rank := func(n string) int {
		base := strings.TrimPrefix(n, prefix)
		if n == name+"/"+VersionHint {
			return 1 << 30
		}
		if v, ok := metadataVersion(base); ok {
			return 1<<29 + v
		}
		return 0
	}
	sort.SliceStable(names, func(i, j int) bool { return rank(names[i]) > rank(names[j]) })
	for _, n := range names {
		if err := p.fs.Remove(p.ctx, n); err != nil && !errors.Is(err, store.ErrNotExist) {
			return nil, err
		}
	}
	return &Published{Dataset: name, Removed: true}, nil
}

// table is a table being brought up to date.
type table struct {
	name     string
	meta     *Metadata // nil: no table yet
	metaName string    // the current metadata file (relative to the warehouse)
	metaN    int       // its number
	// prevUpdated is the current metadata file's last-updated-ms, for its
	// entry in the next file's metadata log.
	prevUpdated int64
	changed     bool
}

func loadTable(ctx context.Context, fs store.FS, name string) (*table, error) {
	metaName, m, n, err := Current(ctx, fs, name)
	if errors.Is(err, ErrNoTable) {
		return &table{name: name}, nil
	}
	if err != nil {
		return nil, err
	}
	return &table{name: name, meta: m, metaName: metaName, metaN: n, prevUpdated: m.LastUpdatedMs}, nil
}

// fixHint rewrites version-hint.text when it does not name the newest
// metadata file (a publisher killed between the two writes).
func (t *table) fixHint(ctx context.Context, fs store.FS) (*Published, error) {
	if t.meta == nil {
		return nil, nil
	}
	hint := t.name + "/" + VersionHint
	data, _, err := fs.ReadFile(ctx, hint)
	if err == nil && strings.TrimSpace(string(data)) == strconv.Itoa(t.metaN) {
		return nil, nil
	}
	if err := fs.WriteFile(ctx, hint, []byte(strconv.Itoa(t.metaN))); err != nil {
		return nil, err
	}
	return &Published{Dataset: t.name, Metadata: fs.Location(t.metaName)}, nil
}

// tableUUID is the table's id: derived from its location and first
// snapshot, so that publishing the same versions again gives the same
// bytes.
func tableUUID(location string, first int64) string {
	return uuid.NewHash(sha1.New(), uuid.NameSpaceURL, []byte(location+"#"+strconv.FormatInt(first, 10)), 5).String()
}

// millis is a commit record's commit time in Unix milliseconds.
func millis(rec *warehouse.Commit) (int64, error) {
	t, err := time.Parse(time.RFC3339Nano, rec.CommittedAt)
	if err != nil {
		return 0, fmt.Errorf("commit record %d: committed_at %q: %w", rec.Epoch, rec.CommittedAt, err)
	}
	return t.UnixMilli(), nil
}

// addVersion adds version v's snapshot to the metadata in memory, writing
// its manifests and manifest list.
func (t *table) addVersion(ctx context.Context, fs store.FS, v version) error {
	loc := URI(fs, t.name)
	ts, err := millis(v.rec)
	if err != nil {
		return err
	}
	if t.meta == nil {
		t.meta = &Metadata{FormatVersion: 2, TableUUID: tableUUID(loc, v.ds.Version), Location: loc,
			CurrentSchemaID: -1, DefaultSpecID: -1, LastPartitionID: 999,
			SortOrders: nil, Properties: map[string]string{}}
	}
	m := t.meta
	if m.Properties == nil {
		m.Properties = map[string]string{}
	}
	if ts < m.LastUpdatedMs {
		ts = m.LastUpdatedMs // snapshot times never go back
	}
	as, err := v.ds.ArrowSchema()
	if err != nil {
		return err
	}
	schema, err := t.schemaFor(as)
	if err != nil {
		return err
	}
	spec, err := t.specFor(schema, as, v.ds.PartitionBy)
	if err != nil {
		return err
	}
	// The files the table shows now, from the current snapshot's manifests.
	var prevManifests []ice.ManifestFile
	live := map[string]liveFile{}
	cur := m.Current()
	if cur != nil {
		if prevManifests, err = readManifestList(ctx, fs, cur.ManifestList); err != nil {
			return err
		}
		for i, mf := range prevManifests {
			entries, err := readManifest(ctx, fs, mf)
			if err != nil {
				return err
			}
			for _, e := range entries {
				live[e.DataFile().FilePath()] = liveFile{entry: e, manifest: i}
			}
		}
	}
	want := map[string]warehouse.File{}
	var added []warehouse.File
	for _, f := range v.ds.Files {
		uri := URI(fs, f.Path)
		want[uri] = f
		if _, ok := live[uri]; !ok {
			added = append(added, f)
		}
	}
	deletedIn := map[int][]ice.ManifestEntry{} // by manifest index
	keptIn := map[int][]ice.ManifestEntry{}
	var deletedRows, deletedBytes int64
	deletedFiles := 0
	for _, lf := range live {
		if _, ok := want[lf.entry.DataFile().FilePath()]; ok {
			keptIn[lf.manifest] = append(keptIn[lf.manifest], lf.entry)
			continue
		}
		deletedIn[lf.manifest] = append(deletedIn[lf.manifest], lf.entry)
		deletedRows += lf.entry.DataFile().Count()
		deletedBytes += lf.entry.DataFile().FileSizeBytes()
		deletedFiles++
	}
	snap := v.ds.Version
	seq := v.ds.Version
	if seq <= m.LastSequenceNumber {
		seq = m.LastSequenceNumber + 1
	}
	if m.Snapshot(snap) != nil {
		return fmt.Errorf("snapshot %d is already in the table", snap)
	}
	mw := &manifestWriter{ctx: ctx, fs: fs, table: t.name, loc: loc, snap: snap}
	var manifests []ice.ManifestFile
	// Earlier manifests: kept as they are when none of their files went;
	// else rewritten with their kept files as EXISTING and the gone ones as
	// DELETED. Many small manifests (an append-only table) are merged.
	carrySpec := map[int32][]ice.ManifestEntry{}
	merge := len(prevManifests) > maxManifests
	for i, mf := range prevManifests {
		dels := deletedIn[i]
		if len(dels) == 0 && !merge {
			if len(keptIn[i]) > 0 {
				manifests = append(manifests, mf)
			}
			continue
		}
		for _, e := range keptIn[i] {
			sn, sq := e.SnapshotID(), e.SequenceNum()
			carrySpec[mf.PartitionSpecID()] = append(carrySpec[mf.PartitionSpecID()],
				ice.NewManifestEntry(ice.EntryStatusEXISTING, &sn, &sq, e.FileSequenceNum(), e.DataFile()))
		}
		for _, e := range dels {
			sq := e.SequenceNum()
			carrySpec[mf.PartitionSpecID()] = append(carrySpec[mf.PartitionSpecID()],
				ice.NewManifestEntry(ice.EntryStatusDELETED, &snap, &sq, e.FileSequenceNum(), e.DataFile()))
		}
	}
	specIDs := make([]int32, 0, len(carrySpec))
	for id := range carrySpec {
		specIDs = append(specIDs, id)
	}
	slices.Sort(specIDs)
	for _, id := range specIDs {
		s := m.Spec(int(id))
		if s == nil {
			return fmt.Errorf("a manifest names partition spec %d, which the metadata does not hold", id)
		}
		mf, err := mw.write(*s, t.schemaForSpec(*s, schema), carrySpec[id])
		if err != nil {
			return err
		}
		manifests = append(manifests, mf)
	}
	var addedRows, addedBytes int64
	if len(added) > 0 {
		entries := make([]ice.ManifestEntry, 0, len(added))
		for _, f := range added {
			part, err := partitionData(spec, schema, f)
			if err != nil {
				return fmt.Errorf("file %s: %w", f.Path, err)
			}
			b, err := ice.NewDataFileBuilder(spec, ice.EntryContentData, URI(fs, f.Path), ice.ParquetFile, part, nil, nil, f.Rows, f.Bytes)
			if err != nil {
				return err
			}
			entries = append(entries, ice.NewManifestEntry(ice.EntryStatusADDED, &snap, nil, nil, b.Build()))
			addedRows += f.Rows
			addedBytes += f.Bytes
		}
		mf, err := mw.write(spec, schema, entries)
		if err != nil {
			return err
		}
		manifests = append(manifests, mf)
	}
	// The manifest list.
	var parent *int64
	if cur != nil {
		id := cur.SnapshotID
		parent = &id
	}
	var buf bytes.Buffer
	if err := ice.WriteManifestList(2, &buf, snap, parent, &seq, 0, manifests); err != nil {
		return err
	}
	listName := fmt.Sprintf("%s/%s/snap-%d-thund.avro", t.name, MetadataDir, snap)
	if err := fs.WriteFile(ctx, listName, buf.Bytes()); err != nil {
		return err
	}
	op := "append"
	switch {
	case len(added) > 0 && deletedFiles > 0:
		op = "overwrite"
	case deletedFiles > 0:
		op = "delete"
	}
	totalRows, totalBytes := int64(0), int64(0)
	for _, f := range v.ds.Files {
		totalRows += f.Rows
		totalBytes += f.Bytes
	}
	sid := schema.ID
	m.Snapshots = append(m.Snapshots, Snapshot{SnapshotID: snap, ParentSnapshotID: parent, SequenceNumber: seq,
		TimestampMs: ts, ManifestList: URI(fs, listName), SchemaID: &sid,
		Summary: map[string]string{
			"operation":              op,
			"added-data-files":       strconv.Itoa(len(added)),
			"added-records":          strconv.FormatInt(addedRows, 10),
			"added-files-size":       strconv.FormatInt(addedBytes, 10),
			"deleted-data-files":     strconv.Itoa(deletedFiles),
			"deleted-records":        strconv.FormatInt(deletedRows, 10),
			"removed-files-size":     strconv.FormatInt(deletedBytes, 10),
			"total-data-files":       strconv.Itoa(len(v.ds.Files)),
			"total-records":          strconv.FormatInt(totalRows, 10),
			"total-files-size":       strconv.FormatInt(totalBytes, 10),
			"total-delete-files":     "0",
			"total-position-deletes": "0",
			"total-equality-deletes": "0",
			"thund.version":          strconv.FormatInt(v.ds.Version, 10),
			"thund.epoch":            strconv.FormatInt(v.rec.Epoch, 10),
			"thund.run-id":           v.rec.RunID,
		}})
	m.SnapshotLog = append(m.SnapshotLog, SnapshotLogEntry{TimestampMs: ts, SnapshotID: snap})
	m.CurrentSnapshotID = &snap
	m.Refs = map[string]Ref{"main": {SnapshotID: snap, Type: "branch"}}
	m.LastSequenceNumber = seq
	m.LastUpdatedMs = ts
	t.changed = true
	return nil
}

// maxManifests is how many manifests a snapshot keeps before the next
// one merges them into one per partition spec.
const maxManifests = 16

type liveFile struct {
	entry    ice.ManifestEntry
	manifest int
}

// schemaFor returns the table's schema for an Arrow schema: an existing
// one with the same fields, or a new one (ids kept where the column is the
// same, assigner.id), made current.
func (t *table) schemaFor(as *arrow.Schema) (*ice.Schema, error) {
	m := t.meta
	prev := m.CurrentSchema()
	next := 0
	for _, s := range m.Schemas {
		next = max(next, s.ID+1)
	}
	s, last, err := Schema(next, as, prev, m.LastColumnID)
	if err != nil {
		return nil, err
	}
	if prev != nil && prev.Equals(s) {
		return prev, nil
	}
	for _, old := range m.Schemas {
		if old.Equals(s) {
			m.CurrentSchemaID = old.ID
			t.setMapping(old)
			return old, nil
		}
	}
	m.Schemas = append(m.Schemas, s)
	m.CurrentSchemaID = s.ID
	m.LastColumnID = last
	t.setMapping(s)
	return s, nil
}

func (t *table) setMapping(*ice.Schema) {
	data, err := json.Marshal(nameMapping(t.meta.Schemas, t.meta.CurrentSchemaID))
	if err == nil {
		t.meta.Properties["schema.name-mapping.default"] = string(data)
	}
}

// specFor returns the partition spec for partition columns by: identity
// fields (ids kept for a column partitioned before), an existing spec when
// one has the same fields, made the default. A column whose values cannot
// be typed from the warehouse's text (partitionValue) leaves the table
// unpartitioned: readers then read every file, which still hold the
// column.
func (t *table) specFor(s *ice.Schema, as *arrow.Schema, by []string) (ice.PartitionSpec, error) {
	m := t.meta
	var fields []ice.PartitionField
	for _, col := range by {
		f, ok := s.FindFieldByName(col)
		idx := as.FieldIndices(col)
		if !ok || len(idx) != 1 || !partitionable(as.Field(idx[0]).Type) {
			fields = nil
			break
		}
		id := 0
		for _, sp := range m.PartitionSpecs {
			for _, pf := range sp.Fields() {
				if pf.SourceIDs[0] == f.ID && pf.Transform.Equals(ice.IdentityTransform{}) {
					id = pf.FieldID
				}
			}
		}
		if id == 0 {
			m.LastPartitionID++
			id = m.LastPartitionID
		}
		fields = append(fields, ice.PartitionField{SourceIDs: []int{f.ID}, FieldID: id, Name: col, Transform: ice.IdentityTransform{}})
	}
	next := 0
	for _, sp := range m.PartitionSpecs {
		cand := ice.NewPartitionSpecID(sp.ID(), fields...)
		if sp.Equals(cand) {
			m.DefaultSpecID = sp.ID()
			return sp, nil
		}
		next = max(next, sp.ID()+1)
	}
	sp := ice.NewPartitionSpecID(next, fields...)
	m.PartitionSpecs = append(m.PartitionSpecs, sp)
	m.DefaultSpecID = next
	return sp, nil
}

// schemaForSpec is a schema that holds every source column of spec: the
// current one, else the newest that does (a spec of columns since dropped).
func (t *table) schemaForSpec(spec ice.PartitionSpec, cur *ice.Schema) *ice.Schema {
	holds := func(s *ice.Schema) bool {
		for _, pf := range spec.Fields() {
			if _, ok := s.FindFieldByID(pf.SourceIDs[0]); !ok {
				return false
			}
		}
		return true
	}
	if holds(cur) {
		return cur
	}
	for i := len(t.meta.Schemas) - 1; i >= 0; i-- {
		if holds(t.meta.Schemas[i]) {
			return t.meta.Schemas[i]
		}
	}
	return cur
}

// commit writes the new metadata file (create-if-absent: two publishers
// cannot both write one version) and then the hint.
func (t *table) commit(ctx context.Context, fs store.FS) (string, error) {
	m := t.meta
	if t.metaName != "" {
		m.MetadataLog = append(m.MetadataLog, MetadataLogEntry{TimestampMs: t.prevUpdated, MetadataFile: URI(fs, t.metaName)})
		if len(m.MetadataLog) > keepMetadata {
			m.MetadataLog = m.MetadataLog[len(m.MetadataLog)-keepMetadata:]
		}
	}
	if m.SortOrders == nil {
		m.SortOrders = unsorted
	}
	data, err := m.Marshal()
	if err != nil {
		return "", err
	}
	n := t.metaN + 1
	name := t.name + "/" + MetadataName(n)
	if err := fs.CreateIfAbsent(ctx, name, data); err != nil {
		return "", fmt.Errorf("writing %s: %w", fs.Location(name), err)
	}
	if err := fs.WriteFile(ctx, t.name+"/"+VersionHint, []byte(strconv.Itoa(n))); err != nil {
		return "", err
	}
	t.metaName, t.metaN = name, n
	return fs.Location(name), nil
}

// keepMetadata is how many earlier metadata files the metadata log lists
// (and vacuum keeps).
const keepMetadata = 10

var unsorted = []json.RawMessage{json.RawMessage(`{"order-id":0,"fields":[]}`)}

// partitionable reports whether a partition column's values can be typed
// from their text in the commit record.
func partitionable(dt arrow.DataType) bool {
	switch dt.(type) {
	case *arrow.BooleanType, *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type,
		*arrow.Uint8Type, *arrow.Uint16Type, *arrow.StringType, *arrow.Date32Type, *arrow.Decimal128Type:
		return true
	}
	return false
}

// partitionData types a file's partition values (text in the commit
// record; nil is NULL) by the spec's fields.
func partitionData(spec ice.PartitionSpec, s *ice.Schema, f warehouse.File) (map[int]any, error) {
	out := map[int]any{}
	for _, pf := range spec.Fields() {
		text, ok := f.Partition[pf.Name]
		if !ok {
			return nil, fmt.Errorf("no value of partition column %s", pf.Name)
		}
		if text == nil {
			out[pf.FieldID] = nil
			continue
		}
		col, _ := s.FindFieldByID(pf.SourceIDs[0])
		v, err := partitionValue(col.Type, *text)
		if err != nil {
			return nil, fmt.Errorf("partition column %s: %w", pf.Name, err)
		}
		out[pf.FieldID] = v
	}
	return out, nil
}

func partitionValue(t ice.Type, text string) (any, error) {
	switch t := t.(type) {
	case ice.BooleanType:
		return strconv.ParseBool(text)
	case ice.Int32Type:
		n, err := strconv.ParseInt(text, 10, 32)
		return int32(n), err
	case ice.Int64Type:
		return strconv.ParseInt(text, 10, 64)
	case ice.StringType:
		return text, nil
	case ice.DateType:
		d, err := time.Parse("2006-01-02", text)
		if err != nil {
			return nil, err
		}
		return ice.Date(d.Unix() / 86400), nil
	case ice.DecimalType:
		n, err := decimal128.FromString(text, int32(t.Precision()), int32(t.Scale()))
		if err != nil {
			return nil, err
		}
		return ice.Decimal{Val: n, Scale: t.Scale()}, nil
	}
	return nil, fmt.Errorf("type %s cannot be a partition value here", t)
}
