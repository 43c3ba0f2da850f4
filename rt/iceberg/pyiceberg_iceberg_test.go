//go:build iceberg

package iceberg

import (
	"encoding/json"
	"errors"
	"github.com/nordisk/thund/internal/icebergcheck"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/format"
)

// pyFixture runs testdata/pyiceberg_fixture.py (pyiceberg, the
// THUND_TEST_PYICEBERG python) over the warehouse wh: steps is a JSON
// array of steps; it returns what the scan steps printed, one row
// multiset each.
func pyFixture(t *testing.T, wh, steps string) [][]string {
	t.Helper()
	out := icebergcheck.RunFixture(t, "testdata/pyiceberg_fixture.py", wh, steps)
	var scans [][]string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var rows []string
		if err := json.Unmarshal([]byte(line), &rows); err != nil {
			t.Fatalf("pyiceberg fixture printed %q: %v", line, err)
		}
		scans = append(scans, rows)
	}
	return scans
}

var pyStepsT = `[
 {"op":"create","table":"t","columns":[{"name":"id","type":"long"},{"name":"name","type":"string"},{"name":"n","type":"int"}]},
 {"op":"append","table":"t","rows":[{"id":1,"name":"a","n":1},{"id":2,"name":"b","n":2}]},
 {"op":"append","table":"t","rows":[{"id":3,"name":"c","n":3}]},
 {"op":"add_column","table":"t","column":"score","type":"double"},
 {"op":"append","table":"t","rows":[{"id":4,"name":"d","n":4,"score":1.5}]},
 {"op":"rename","table":"t","column":"name","to":"label"},
 {"op":"promote","table":"t","column":"n","type":"long"},
 {"op":"append","table":"t","rows":[{"id":5,"label":"e","n":5000000000,"score":2.5}]},
 {"op":"scan","table":"t"}
]`

var pySchemaT = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "label", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

// TestIcebergPyicebergScan reads a table pyiceberg wrote, with a column
// added, one renamed and one promoted (int to long) between appends: the
// snapshot read and the incremental scan from the start both equal
// pyiceberg's scan; time travel by id and by time; scans between
// snapshots take only what was appended; a copy-on-write delete (an
// overwrite) and a whole-file delete (a delete) stop a stream read unless
// skipped.
func TestIcebergPyicebergScan(t *testing.T) {
	wh := t.TempDir()
	scans := pyFixture(t, wh, pyStepsT)
	ctx := t.Context()
	tb, err := OpenLocation(ctx, "/", filepath.Join(wh, "t"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if as, err := ArrowSchema(tb.Meta.CurrentSchema()); err != nil || !as.Equal(pySchemaT) {
		t.Errorf("ArrowSchema: %v, %v", as, err)
	}
	cur := tb.Meta.Current()
	files, err := tb.Files(ctx, cur)
	if err != nil {
		t.Fatal(err)
	}
	want := scans[0]
	if got := readFiles(t, tb, files, pySchemaT); !slices.Equal(got, want) || len(got) != 5 {
		t.Errorf("snapshot read:\n got %v\nwant %v", got, want)
	}
	sc, err := tb.AppendScan(ctx, 0, cur, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := readFiles(t, tb, sc.Files, pySchemaT); !slices.Equal(got, want) {
		t.Errorf("incremental scan from the start:\n got %v\nwant %v", got, want)
	}
	// The appends, oldest first (schema changes make no snapshot).
	var snaps []*Snapshot
	for i := range tb.Meta.Snapshots {
		snaps = append(snaps, &tb.Meta.Snapshots[i])
	}
	if len(snaps) != 4 {
		t.Fatalf("%d snapshots, want 4", len(snaps))
	}
	sc, err = tb.AppendScan(ctx, snaps[1].SnapshotID, cur, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := readFiles(t, tb, sc.Files, pySchemaT); strings.Join(got, " ") !=
		`{"id":4,"label":"d","n":4,"score":1.5} {"id":5,"label":"e","n":5000000000,"score":2.5}` {
		t.Errorf("scan after the second append: %v", got)
	}
	// Time travel to the second append: its files, read into today's
	// schema (label was name, score did not exist, n was an int).
	wantOld := `{"id":1,"label":"a","n":1,"score":null} {"id":2,"label":"b","n":2,"score":null} {"id":3,"label":"c","n":3,"score":null}`
	s, err := tb.SnapshotByID(snaps[1].SnapshotID)
	if err != nil {
		t.Fatal(err)
	}
	old, _ := tb.Files(ctx, s)
	if got := readFiles(t, tb, old, pySchemaT); strings.Join(got, " ") != wantOld {
		t.Errorf("snapshot-id %d: %v", s.SnapshotID, got)
	}
	for _, c := range []struct {
		ms   int64
		want int64
	}{{snaps[1].TimestampMs, snaps[1].SnapshotID}, {snaps[2].TimestampMs - 1, snaps[1].SnapshotID}, {snaps[3].TimestampMs + 60000, snaps[3].SnapshotID}} {
		if s, err := tb.SnapshotAsOf(c.ms); err != nil || s.SnapshotID != c.want {
			t.Errorf("as-of-timestamp %d: %v, %v; want snapshot %d", c.ms, s, err, c.want)
		}
	}
	if _, err := tb.SnapshotAsOf(snaps[0].TimestampMs - 1); err == nil || !strings.Contains(err.Error(), "has no snapshot as of") {
		t.Errorf("as-of-timestamp before the first snapshot: %v", err)
	}

	// id 1 shares a file with id 2: deleting it rewrites the file (an
	// overwrite); id 5 has a file of its own (a delete).
	scans = pyFixture(t, wh, `[{"op":"delete","table":"t","column":"id","value":1},{"op":"delete","table":"t","column":"id","value":5},{"op":"scan","table":"t"}]`)
	if tb, err = OpenLocation(ctx, "/", filepath.Join(wh, "t"), nil); err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, s := range tb.Meta.Snapshots[4:] {
		ops = append(ops, s.Operation())
	}
	if strings.Join(ops, " ") != "overwrite delete" {
		t.Fatalf("pyiceberg's deletes made %v snapshots, want an overwrite and a delete", ops)
	}
	files, err = tb.Files(ctx, tb.Meta.Current())
	if err != nil {
		t.Fatal(err)
	}
	if got := readFiles(t, tb, files, pySchemaT); !slices.Equal(got, scans[0]) || len(got) != 3 {
		t.Errorf("snapshot read after the deletes:\n got %v\nwant %v", got, scans[0])
	}
	_, err = tb.AppendScan(ctx, cur.SnapshotID, tb.Meta.Current(), ScanOptions{})
	var na *NonAppendError
	if !errors.As(err, &na) || na.Operation != "overwrite" || na.Snapshot != tb.Meta.Snapshots[4].SnapshotID {
		t.Errorf("scan over the overwrite: %v", err)
	}
	_, err = tb.AppendScan(ctx, cur.SnapshotID, tb.Meta.Current(), ScanOptions{SkipOverwrite: true})
	if !errors.As(err, &na) || na.Operation != "delete" {
		t.Errorf("scan over the delete: %v", err)
	}
	sc, err = tb.AppendScan(ctx, cur.SnapshotID, tb.Meta.Current(), ScanOptions{SkipOverwrite: true, SkipDelete: true})
	if err != nil || len(sc.Files) != 0 || len(sc.Skipped) != 2 {
		t.Errorf("scan skipping both: %+v, %v", sc, err)
	}
}

// TestIcebergPyicebergPartitioned reads a table pyiceberg partitioned by
// identity(region).
func TestIcebergPyicebergPartitioned(t *testing.T) {
	wh := t.TempDir()
	scans := pyFixture(t, wh, `[
 {"op":"create","table":"p","columns":[{"name":"id","type":"long"},{"name":"region","type":"string"},{"name":"day","type":"date"}],"partition":"region"},
 {"op":"append","table":"p","rows":[{"id":1,"region":"eu","day":"2024-10-04"},{"id":2,"region":"us","day":null},{"id":3,"region":null,"day":"2024-10-05"}]},
 {"op":"append","table":"p","rows":[{"id":4,"region":"eu","day":"2024-10-06"}]},
 {"op":"scan","table":"p"}]`)
	ctx := t.Context()
	tb, err := OpenLocation(ctx, "/", "file://"+filepath.Join(wh, "p"), nil)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := ArrowSchema(tb.Meta.CurrentSchema())
	if err != nil {
		t.Fatal(err)
	}
	files, err := tb.Files(ctx, tb.Meta.Current())
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 {
		t.Errorf("%d files, want 4 (one per partition and append)", len(files))
	}
	if got := readFiles(t, tb, files, schema); !slices.Equal(got, scans[0]) || len(got) != 4 {
		t.Errorf("snapshot read:\n got %v\nwant %v", got, scans[0])
	}
	sc, err := tb.AppendScan(ctx, 0, tb.Meta.Current(), ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := readFiles(t, tb, sc.Files, schema); !slices.Equal(got, scans[0]) {
		t.Errorf("incremental scan:\n got %v\nwant %v", got, scans[0])
	}
}

// TestIcebergPyicebergTypes reads every type Thund reads from a table
// pyiceberg wrote (pyarrow writes large lists and strings inside nested
// columns: they read as the model's types), twice appended: the snapshot
// read and the incremental scan equal pyiceberg's scan.
func TestIcebergPyicebergTypes(t *testing.T) {
	wh := t.TempDir()
	scans := pyFixture(t, wh, `[{"op":"create_all_types","table":"x"},{"op":"append_all_types","table":"x"},{"op":"append_all_types","table":"x"},{"op":"scan","table":"x"}]`)
	ctx := t.Context()
	tb, err := OpenLocation(ctx, "/", filepath.Join(wh, "x"), nil)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := ArrowSchema(tb.Meta.CurrentSchema())
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, f := range schema.Fields() {
		types = append(types, f.Name+" "+format.TypeString(f.Type))
	}
	if got := strings.Join(types, ", "); got != `b bool, f float32, dec decimal(10,2), ts timestamp(us), tz timestamp(us, "UTC"), bin binary, tags array<string>, m map<string, int64>, st struct<a: int32, c: string>` {
		t.Errorf("schema: %s", got)
	}
	files, err := tb.Files(ctx, tb.Meta.Current())
	if err != nil {
		t.Fatal(err)
	}
	if got := readFiles(t, tb, files, schema); !slices.Equal(got, scans[0]) || len(got) != 6 {
		t.Errorf("snapshot read:\n got %v\nwant %v", got, scans[0])
	}
	sc, err := tb.AppendScan(ctx, 0, tb.Meta.Current(), ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := readFiles(t, tb, sc.Files, schema); !slices.Equal(got, scans[0]) {
		t.Errorf("incremental scan:\n got %v\nwant %v", got, scans[0])
	}
}

// TestIcebergPyicebergNestedEvolution: a field added to a struct and one
// renamed inside it between appends; files written before read the added
// field as NULL and the renamed one under its new name (by field id).
func TestIcebergPyicebergNestedEvolution(t *testing.T) {
	wh := t.TempDir()
	scans := pyFixture(t, wh, `[{"op":"create_all_types","table":"x"},{"op":"append_all_types","table":"x"},
 {"op":"add_column","table":"x","column":"st.d","type":"long"},
 {"op":"rename","table":"x","column":"st.c","to":"cc"},
 {"op":"append_all_types","table":"x"},{"op":"scan","table":"x"}]`)
	ctx := t.Context()
	tb, err := OpenLocation(ctx, "/", filepath.Join(wh, "x"), nil)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := ArrowSchema(tb.Meta.CurrentSchema())
	if err != nil {
		t.Fatal(err)
	}
	if got := format.TypeString(schema.Field(schema.FieldIndices("st")[0]).Type); got != "struct<a: int32, cc: string, d: int64>" {
		t.Errorf("st: %s", got)
	}
	files, err := tb.Files(ctx, tb.Meta.Current())
	if err != nil {
		t.Fatal(err)
	}
	if got := readFiles(t, tb, files, schema); !slices.Equal(got, scans[0]) || len(got) != 6 {
		t.Errorf("snapshot read:\n got %v\nwant %v", got, scans[0])
	}
}
