package iceberg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	ice "github.com/apache/iceberg-go"
	"github.com/nordisk/thund/rt/format"
)

// rowsOf reads every batch of r into one JSON object per row, sorted (a
// multiset).
func rowsOf(t *testing.T, r format.BatchReader) []string {
	t.Helper()
	defer r.Close()
	var out []string
	for {
		b, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < int(b.NumRows()); i++ {
			row := map[string]any{}
			for c, f := range b.Schema().Fields() {
				row[f.Name] = b.Column(c).GetOneForMarshal(i)
			}
			data, err := json.Marshal(row)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(data))
		}
		b.Release()
	}
	slices.Sort(out)
	return out
}

// readFiles reads files of tb into schema.
func readFiles(t *testing.T, tb *Table, files []DataFile, schema *arrow.Schema) []string {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r, err := tb.Reader(t.Context(), files, schema, nil, format.Options{Mem: mem})
	if err != nil {
		t.Fatal(err)
	}
	return rowsOf(t, r)
}

// versionRows reads a dataset version through the warehouse (etl read).
func versionRows(t *testing.T, f *fixture, name string, v int64, schema *arrow.Schema) []string {
	t.Helper()
	d, _, err := f.wh.Resolve(f.ctx, name, v)
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.wh.Open(f.ctx, d, format.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rowsOf(t, r)
}

// TestScanPublished reads the tables Thund publishes: every snapshot's
// rows equal the warehouse's version, and a partitioned table's partition
// columns (which its files do not hold) come from the manifests.
func TestScanPublished(t *testing.T) {
	f := newFixture(t)
	history(f)
	tb, err := OpenLocation(f.ctx, f.local.Root, "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	for v, s := range map[int64]*arrow.Schema{1: s1, 2: s1, 3: s2} {
		snap, err := tb.SnapshotByID(v)
		if err != nil {
			t.Fatal(err)
		}
		files, err := tb.Files(f.ctx, snap)
		if err != nil {
			t.Fatal(err)
		}
		got, want := readFiles(t, tb, files, s), versionRows(t, f, "t", v, s)
		if !slices.Equal(got, want) || len(got) == 0 {
			t.Errorf("t@%d:\n got %v\nwant %v", v, got, want)
		}
	}
	// The current schema has score: an old snapshot reads it as NULL.
	old, _ := tb.SnapshotByID(1)
	files, _ := tb.Files(f.ctx, old)
	if got := readFiles(t, tb, files, s2); len(got) != 3 || !strings.Contains(got[0], `"score":null`) {
		t.Errorf("t@1 with score: %v", got)
	}
	if _, err := tb.SnapshotByID(9); err == nil || !strings.Contains(err.Error(), "has no snapshot 9 (snapshots: 1, 2, 3)") {
		t.Errorf("snapshot 9: %v", err)
	}

	p, err := OpenLocation(f.ctx, f.local.Root, f.local.Root+"/p", nil)
	if err != nil {
		t.Fatal(err)
	}
	pfiles, err := p.Files(f.ctx, p.Meta.Current())
	if err != nil {
		t.Fatal(err)
	}
	got, want := readFiles(t, p, pfiles, sp), versionRows(t, f, "p", 1, sp)
	if !slices.Equal(got, want) || len(got) != 4 {
		t.Errorf("p:\n got %v\nwant %v", got, want)
	}
	// A file that lacks a partition column (files added Hive-style, by
	// add_files) reads the identity partition's value from the manifest:
	// a name mapping without region makes the files lack it.
	var mapping []mappedField
	if err := json.Unmarshal([]byte(p.Meta.Properties["schema.name-mapping.default"]), &mapping); err != nil {
		t.Fatal(err)
	}
	mapping = slices.DeleteFunc(mapping, func(m mappedField) bool { return m.Names[0] == "region" })
	raw, _ := json.Marshal(mapping)
	p.Meta.Properties["schema.name-mapping.default"] = string(raw)
	if got := readFiles(t, p, pfiles, sp); !slices.Equal(got, want) {
		t.Errorf("p, region from the partition values:\n got %v\nwant %v", got, want)
	}
	only := arrow.NewSchema([]arrow.Field{{Name: "region", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	if got := readFiles(t, p, pfiles, only); fmt.Sprint(got) != `[{"region":"eu"} {"region":"eu"} {"region":"us"} {"region":null}]` {
		t.Errorf("p region: %v", got)
	}
}

// TestAppendScanPublished: an incremental scan over Thund's snapshots
// (version 2 appends, version 3 replaces: an overwrite).
func TestAppendScanPublished(t *testing.T) {
	f := newFixture(t)
	history(f)
	tb, err := OpenLocation(f.ctx, f.local.Root, "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	s2snap, _ := tb.SnapshotByID(2)
	sc, err := tb.AppendScan(f.ctx, 0, s2snap, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Base != 1 || !slices.Equal(sc.Snapshots, []int64{2}) || sc.To != 2 || sc.Rows() != 5 {
		t.Errorf("first scan: %+v", sc)
	}
	if got, want := readFiles(t, tb, sc.Files, s1), versionRows(t, f, "t", 2, s1); !slices.Equal(got, want) {
		t.Errorf("first scan rows:\n got %v\nwant %v", got, want)
	}
	sc, err = tb.AppendScan(f.ctx, 1, s2snap, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := readFiles(t, tb, sc.Files, s1); fmt.Sprint(got) != `[{"id":4,"name":"d"} {"id":5,"name":"e"}]` {
		t.Errorf("scan 1..2: %v", got)
	}
	cur := tb.Meta.Current()
	_, err = tb.AppendScan(f.ctx, 2, cur, ScanOptions{})
	var na *NonAppendError
	if !errors.As(err, &na) || na.Snapshot != 3 || na.Operation != "overwrite" ||
		!strings.Contains(err.Error(), "snapshot 3 is an overwrite, not an append") || !strings.Contains(err.Error(), "streaming-skip-overwrite-snapshots") {
		t.Errorf("scan over an overwrite: %v", err)
	}
	sc, err = tb.AppendScan(f.ctx, 2, cur, ScanOptions{SkipOverwrite: true})
	if err != nil || len(sc.Files) != 0 || sc.To != 3 || len(sc.Skipped) != 1 {
		t.Errorf("scan skipping the overwrite: %+v, %v", sc, err)
	}
	sc, err = tb.AppendScan(f.ctx, 3, cur, ScanOptions{})
	if err != nil || len(sc.Files) != 0 || sc.To != 3 {
		t.Errorf("scan from the current snapshot: %+v, %v", sc, err)
	}
	_, err = tb.AppendScan(f.ctx, 77, cur, ScanOptions{})
	var lost *LostError
	if !errors.As(err, &lost) || !strings.Contains(err.Error(), "snapshot 77, the last one the stream read, is no longer in the history") {
		t.Errorf("scan from a lost snapshot: %v", err)
	}
}

// TestDeleteFileRefused: a snapshot with a position delete file (what a
// merge-on-read DELETE writes) is refused by a snapshot read, naming the
// file; a stream read refuses it too unless it skips the snapshot.
func TestDeleteFileRefused(t *testing.T) {
	f := newFixture(t)
	history(f)
	tb, err := OpenLocation(f.ctx, f.local.Root, "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	cur := tb.Meta.Current()
	spec := *tb.Meta.Spec(tb.Meta.DefaultSpecID)
	schema := tb.Meta.CurrentSchema()
	const snap = int64(4)
	delPath := URI(f.fs, "t/data/pos-deletes-1.parquet")
	b, err := ice.NewDataFileBuilder(spec, ice.EntryContentPosDeletes, delPath, ice.ParquetFile, nil, nil, nil, 1, 100)
	if err != nil {
		t.Fatal(err)
	}
	var mbuf bytes.Buffer
	mw, err := ice.NewManifestWriter(2, &mbuf, spec, schema, snap, ice.WithManifestWriterContent(ice.ManifestContentDeletes))
	if err != nil {
		t.Fatal(err)
	}
	id := snap
	if err := mw.Add(ice.NewManifestEntry(ice.EntryStatusADDED, &id, nil, nil, b.Build())); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	mname := "t/metadata/deletes-m0.avro"
	mf, err := mw.ToManifestFile(URI(f.fs, mname), int64(mbuf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.fs.WriteFile(f.ctx, mname, mbuf.Bytes()); err != nil {
		t.Fatal(err)
	}
	prev, err := tb.manifests(f.ctx, cur)
	if err != nil {
		t.Fatal(err)
	}
	var lbuf bytes.Buffer
	seq := cur.SequenceNumber + 1
	parent := cur.SnapshotID
	if err := ice.WriteManifestList(2, &lbuf, snap, &parent, &seq, 0, append(prev, mf)); err != nil {
		t.Fatal(err)
	}
	lname := "t/metadata/snap-4-deletes.avro"
	if err := f.fs.WriteFile(f.ctx, lname, lbuf.Bytes()); err != nil {
		t.Fatal(err)
	}
	tb.Meta.Snapshots = append(tb.Meta.Snapshots, Snapshot{SnapshotID: snap, ParentSnapshotID: &parent, SequenceNumber: seq,
		TimestampMs: cur.TimestampMs + 1, ManifestList: URI(f.fs, lname), Summary: map[string]string{"operation": "delete"}})
	tb.Meta.CurrentSnapshotID = &id
	tb.Meta.Refs = map[string]Ref{"main": {SnapshotID: snap, Type: "branch"}}

	_, err = tb.Files(f.ctx, tb.Meta.Current())
	var de *DeleteFileError
	if !errors.As(err, &de) || de.File != delPath || !strings.Contains(err.Error(), "snapshot 4 has delete file "+delPath+": merge-on-read tables are not read") {
		t.Errorf("snapshot read with a delete file: %v", err)
	}
	_, err = tb.AppendScan(f.ctx, 3, tb.Meta.Current(), ScanOptions{})
	if !strings.Contains(fmt.Sprint(err), "snapshot 4 is a delete, not an append") || !strings.Contains(fmt.Sprint(err), "streaming-skip-delete-snapshots") {
		t.Errorf("stream read over the delete: %v", err)
	}
	if sc, err := tb.AppendScan(f.ctx, 3, tb.Meta.Current(), ScanOptions{SkipDelete: true}); err != nil || len(sc.Files) != 0 || sc.To != 4 {
		t.Errorf("stream read skipping the delete: %+v, %v", sc, err)
	}
}
