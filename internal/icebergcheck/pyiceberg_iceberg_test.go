//go:build iceberg

package icebergcheck

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
)

// TestIcebergPyIcebergRoundTrip: a table that pyiceberg wrote, with every
// type, two appends, an overwrite and a delete, read back by pyiceberg at
// each snapshot (by id and as of its time) holds what was written then;
// its schema, field ids, partition spec and snapshot chain are those
// written.
func TestIcebergPyIcebergRoundTrip(t *testing.T) {
	py := testenv.PyIceberg(t)
	fx := EveryType()
	ops := fx.Ops
	w := PyIcebergWrite(t, py, t.TempDir(), ops)
	if len(w.Snapshots) != len(ops) || w.Snapshots[0] != 0 {
		t.Fatalf("snapshots after each operation: %v, want none after create and one after each of the %d others", w.Snapshots, len(ops)-1)
	}
	if md, err := MetadataFile(w.Location); err != nil || md != w.Metadata {
		t.Fatalf("MetadataFile(%s) = %s, %v; pyiceberg's current one is %s", w.Location, md, err, w.Metadata)
	}

	cur := PyIceberg(t, py, w.Location, Current)
	t.Logf("current snapshot %d: %d rows, %d snapshots, e.g.\n%s", cur.SnapshotID, len(cur.Rows), len(cur.Snapshots), cur.Rows[0])
	Equal(t, "current snapshot", fx.Want(t, len(ops)-1), cur)
	if cur.SnapshotID != w.Snapshots[len(w.Snapshots)-1] {
		t.Errorf("current snapshot %d, want the last written, %d", cur.SnapshotID, w.Snapshots[len(w.Snapshots)-1])
	}
	var types []string
	for _, c := range fx.Columns {
		types = append(types, c.Type)
	}
	if !slices.Equal(cur.Types, types) {
		t.Errorf("types:\n got %v\nwant %v", cur.Types, types)
	}
	if cur.FormatVersion != 2 {
		t.Errorf("format version %d, want 2", cur.FormatVersion)
	}
	ids := map[int]bool{}
	for i, id := range cur.FieldIDs {
		if id <= 0 || ids[id] {
			t.Errorf("column %s: field id %d (ids %v)", cur.Columns[i], id, cur.FieldIDs)
		}
		ids[id] = true
	}
	if !cur.Required[0] || cur.Required[1] {
		t.Errorf("required: %v, want id only", cur.Required)
	}
	if len(cur.Spec) != 1 || cur.Spec[0].Source != "region" || cur.Spec[0].Transform != "identity" || cur.Spec[0].SourceID != cur.FieldIDs[1] {
		t.Errorf("partition spec %+v, want identity(region), region's id %d", cur.Spec, cur.FieldIDs[1])
	}

	// the snapshots: one chain, sequence numbers rising; the appends are
	// appends
	byID := map[int64]SnapshotInfo{}
	for _, s := range cur.Snapshots {
		byID[s.ID] = s
	}
	chain := []SnapshotInfo{}
	for id := cur.SnapshotID; id != 0; {
		s, ok := byID[id]
		if !ok {
			t.Fatalf("snapshot %d is not in the table's list %+v", id, cur.Snapshots)
		}
		chain = append([]SnapshotInfo{s}, chain...)
		if s.Parent == nil {
			break
		}
		id = *s.Parent
	}
	if len(chain) != len(cur.Snapshots) {
		t.Errorf("%d snapshots, %d of them in the current one's chain", len(cur.Snapshots), len(chain))
	}
	for i := 1; i < len(chain); i++ {
		if chain[i].Sequence <= chain[i-1].Sequence || chain[i].TimestampMS < chain[i-1].TimestampMS {
			t.Errorf("snapshot %d (sequence %d, at %d) after %d (sequence %d, at %d)", chain[i].ID, chain[i].Sequence, chain[i].TimestampMS,
				chain[i-1].ID, chain[i-1].Sequence, chain[i-1].TimestampMS)
		}
	}
	for i, op := range []string{"", "append", "append"} {
		if op != "" && byID[w.Snapshots[i]].Operation != op {
			t.Errorf("snapshot after operation %d: %q, want %q", i, byID[w.Snapshots[i]].Operation, op)
		}
	}
	if got := byID[w.Snapshots[1]].Summary["added-records"]; got != "4" {
		t.Errorf("first append's added-records %q, want 4", got)
	}

	// each snapshot, by id and as of its commit time
	for i := 1; i < len(ops); i++ {
		id := w.Snapshots[i]
		want := fx.Want(t, i)
		got := PyIceberg(t, py, w.Location, Snapshot(id))
		Equal(t, "snapshot after "+string(ops[i].Kind), want, got)
		asOf := PyIceberg(t, py, w.Location, AsOf(time.UnixMilli(byID[id].TimestampMS)))
		if asOf.SnapshotID != id {
			t.Errorf("as of snapshot %d's time: read snapshot %d", id, asOf.SnapshotID)
		}
		Equal(t, "as of the time of the snapshot after "+string(ops[i].Kind), want, asOf)
	}
}

// TestIcebergPyIcebergTimeUUID: the types Spark cannot read (time) or
// reads as another (uuid, a string) round-trip through pyiceberg; a table
// with no snapshot reads as its columns and no rows.
func TestIcebergPyIcebergTimeUUID(t *testing.T) {
	py := testenv.PyIceberg(t)
	cols := []Column{{Name: "id", Type: "long"}, {Name: "t", Type: "time"}, {Name: "u", Type: "uuid"}}
	rows := [][]any{
		{int64(1), "13:04:05.000001", "12345678-1234-5678-1234-567812345678"},
		{int64(2), "00:00:00", "00000000-0000-0000-0000-000000000000"},
		{int64(3), nil, nil},
	}
	w := PyIcebergWrite(t, py, t.TempDir(), []Op{{Kind: Create, Columns: cols}, {Kind: Append, Rows: rows}})
	got := PyIceberg(t, py, w.Location, Current)
	want := &Result{Reader: "written", Table: Table{Columns: []string{"id", "t", "u"}, Rows: Expect(t, cols, rows)}}
	Equal(t, "time and uuid", want, got)
	if strings.Join(got.Types, " ") != "long time uuid" {
		t.Errorf("types %v, want long time uuid", got.Types)
	}

	// a table with no snapshot yet has its columns and no rows
	w = PyIcebergWrite(t, py, t.TempDir(), []Op{{Kind: Create, Columns: cols}})
	empty := PyIceberg(t, py, w.Location, Current)
	want.Rows = nil
	Equal(t, "no snapshot", want, empty)
	if empty.SnapshotID != 0 || len(empty.Snapshots) != 0 {
		t.Errorf("a new table: snapshot %d of %v", empty.SnapshotID, empty.Snapshots)
	}
}
