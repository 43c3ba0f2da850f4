package iceberg

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/warehouse"
)

// fixture builds a warehouse through the warehouse API, one commit per
// step, publishing after each.
type fixture struct {
	t     *testing.T
	ctx   context.Context
	fs    store.FS
	local *store.Local // fs on a local disk, else nil
	wh    *warehouse.Warehouse
	clock time.Time
	head  *warehouse.Commit
}

func newFixture(t *testing.T) *fixture {
	l, err := store.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := newFixtureFS(t, l)
	f.local = l
	return f
}

func newFixtureFS(t *testing.T, fs store.FS) *fixture {
	f := &fixture{t: t, ctx: context.Background(), fs: fs, wh: warehouse.New(fs), clock: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	f.wh.Now = func() time.Time { f.clock = f.clock.Add(time.Minute); return f.clock }
	return f
}

// write is one dataset write of a step.
type write struct {
	name   string
	schema *arrow.Schema
	rows   [][]any // values by column: int64, string, int32 (date), nil
	opts   warehouse.WriteOptions
	drop   bool
}

func (f *fixture) step(ws ...write) *warehouse.Commit {
	f.t.Helper()
	st, err := f.wh.Load(f.ctx)
	if err != nil {
		f.t.Fatal(err)
	}
	txn := f.wh.Begin(st, "run-"+strconv.FormatInt(st.NextEpoch, 10), "p")
	for _, w := range ws {
		if w.drop {
			txn.Drop(w.name)
			continue
		}
		dw, err := txn.Write(f.ctx, w.name, w.schema, w.opts)
		if err != nil {
			f.t.Fatal(err)
		}
		rec := build(f.t, w.schema, w.rows)
		if err := dw.Write(rec); err != nil {
			f.t.Fatal(err)
		}
		rec.Release()
		if err := dw.Close(); err != nil {
			f.t.Fatal(err)
		}
	}
	c, err := txn.Commit(f.ctx)
	if err != nil {
		f.t.Fatal(err)
	}
	f.head = c
	return c
}

func (f *fixture) publish(tables ...string) []Published {
	f.t.Helper()
	m := map[string]bool{}
	for _, n := range tables {
		m[n] = true
	}
	out, err := Publish(f.ctx, f.wh, f.head, m)
	if err != nil {
		f.t.Fatal(err)
	}
	return out
}

func build(t *testing.T, s *arrow.Schema, rows [][]any) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, s)
	defer b.Release()
	for _, r := range rows {
		for i, v := range r {
			fb := b.Field(i)
			if v == nil {
				fb.AppendNull()
				continue
			}
			switch fb := fb.(type) {
			case *array.Int64Builder:
				fb.Append(int64(v.(int)))
			case *array.Int32Builder:
				fb.Append(int32(v.(int)))
			case *array.StringBuilder:
				fb.Append(v.(string))
			case *array.Date32Builder:
				fb.Append(arrow.Date32(v.(int)))
			case *array.Float64Builder:
				fb.Append(v.(float64))
			default:
				t.Fatalf("build: %T", fb)
			}
		}
	}
	return b.NewRecordBatch()
}

var (
	s1 = arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "name", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	s2 = arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "score", Type: arrow.PrimitiveTypes.Float64, Nullable: true}}, nil)
	sp = arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "region", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true}}, nil)
)

// history is the sequence the tests publish: a replace, an append, a
// replace with a new column, and a partitioned dataset.
func history(f *fixture) {
	f.step(write{name: "t", schema: s1, rows: [][]any{{1, "a"}, {2, nil}, {3, "c"}}},
		write{name: "p", schema: sp, rows: [][]any{{1, "eu", 20000}, {2, "us", 20000}, {3, nil, 20001}, {4, "eu", nil}}, opts: warehouse.WriteOptions{PartitionBy: []string{"region", "day"}}})
	f.publish("t", "p")
	f.step(write{name: "t", schema: s1, rows: [][]any{{4, "d"}, {5, "e"}}, opts: warehouse.WriteOptions{Append: true}})
	f.publish("t", "p")
	f.step(write{name: "t", schema: s2, rows: [][]any{{1, "a", 1.5}, {6, "f", nil}}})
	f.publish("t", "p")
}

// tableFiles reads a snapshot's files back through the metadata.
func tableFiles(t *testing.T, f *fixture, name string, snap int64) []string {
	t.Helper()
	_, m, _, err := Current(f.ctx, f.fs, name)
	if err != nil {
		t.Fatal(err)
	}
	s := m.Snapshot(snap)
	if s == nil {
		t.Fatalf("%s: no snapshot %d", name, snap)
	}
	files, err := liveFiles(f.ctx, f.fs, s)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, df := range files {
		n, err := nameOf(f.fs, df.FilePath())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func versionFiles(t *testing.T, f *fixture, name string, v int64) []string {
	t.Helper()
	d, _, err := f.wh.Resolve(f.ctx, name, v)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, x := range d.Files {
		out = append(out, x.Path)
	}
	slices.Sort(out)
	return out
}

func TestPublishSnapshotPerVersion(t *testing.T) {
	f := newFixture(t)
	history(f)
	_, m, n, err := Current(f.ctx, f.fs, "t")
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("t: metadata v%d, want v3 (one per publish that changed it)", n)
	}
	hint, err := os.ReadFile(filepath.Join(f.local.Root, "t", VersionHint))
	if err != nil || string(hint) != "3" {
		t.Errorf("version hint %q, %v; want 3", hint, err)
	}
	var ops []string
	for _, s := range m.Snapshots {
		ops = append(ops, strconv.FormatInt(s.SnapshotID, 10)+":"+s.Operation())
	}
	if got := strings.Join(ops, " "); got != "1:append 2:append 3:overwrite" {
		t.Errorf("t snapshots %s", got)
	}
	for v := int64(1); v <= 3; v++ {
		if got, want := tableFiles(t, f, "t", v), versionFiles(t, f, "t", v); !slices.Equal(got, want) {
			t.Errorf("t snapshot %d files %v, want the version's %v", v, got, want)
		}
	}
	if len(m.Schemas) != 2 || m.CurrentSchemaID != 1 {
		t.Errorf("t schemas %d, current %d; want 2 and 1", len(m.Schemas), m.CurrentSchemaID)
	}
	// Columns keep their ids across the schema change.
	for _, name := range []string{"id", "name"} {
		a, _ := m.Schemas[0].FindFieldByName(name)
		b, _ := m.Schemas[1].FindFieldByName(name)
		if a.ID != b.ID {
			t.Errorf("column %s: id %d then %d", name, a.ID, b.ID)
		}
	}
	var mapping []mappedField
	if err := json.Unmarshal([]byte(m.Properties["schema.name-mapping.default"]), &mapping); err != nil || len(mapping) != 3 {
		t.Errorf("name mapping %q (%v)", m.Properties["schema.name-mapping.default"], err)
	}
	_, pm, _, err := Current(f.ctx, f.fs, "p")
	if err != nil {
		t.Fatal(err)
	}
	if spec := pm.Spec(pm.DefaultSpecID); spec == nil || spec.NumFields() != 2 {
		t.Errorf("p: spec %v, want identity on region and day", spec)
	}
}

func TestPublishIdempotentAndHeals(t *testing.T) {
	f := newFixture(t)
	history(f)
	if got := f.publish("t", "p"); len(got) != 0 {
		t.Errorf("a second publish of the same head did %+v", got)
	}
	// A publisher killed after the metadata file but before the hint.
	os.WriteFile(filepath.Join(f.local.Root, "t", VersionHint), []byte("2"), 0o644)
	got := f.publish("t", "p")
	if len(got) != 1 || got[0].Dataset != "t" || len(got[0].Snapshots) != 0 {
		t.Errorf("hint repair did %+v", got)
	}
	hint, _ := os.ReadFile(filepath.Join(f.local.Root, "t", VersionHint))
	if string(hint) != "3" {
		t.Errorf("hint %q after repair", hint)
	}
	// A run that committed and was killed before publishing: the next
	// publish adds the version.
	f.step(write{name: "t", schema: s2, rows: [][]any{{7, "g", 2.0}}, opts: warehouse.WriteOptions{Append: true}})
	f.step(write{name: "t", schema: s2, rows: [][]any{{8, "h", 3.0}}, opts: warehouse.WriteOptions{Append: true}})
	got = f.publish("t", "p")
	if len(got) != 1 || !slices.Equal(got[0].Snapshots, []int64{4, 5}) {
		t.Errorf("catch-up published %+v, want snapshots 4 and 5 of t", got)
	}
	for v := int64(1); v <= 5; v++ {
		if got, want := tableFiles(t, f, "t", v), versionFiles(t, f, "t", v); !slices.Equal(got, want) {
			t.Errorf("t snapshot %d files %v, want %v", v, got, want)
		}
	}
}

func TestPublishBackfill(t *testing.T) {
	f := newFixture(t)
	f.step(write{name: "t", schema: s1, rows: [][]any{{1, "a"}}})
	f.step(write{name: "t", schema: s1, rows: [][]any{{2, "b"}}, opts: warehouse.WriteOptions{Append: true}})
	f.step(write{name: "t", schema: s1, rows: [][]any{{3, "c"}}})
	got := f.publish("t")
	if len(got) != 1 || !slices.Equal(got[0].Snapshots, []int64{1, 2, 3}) {
		t.Fatalf("backfill published %+v", got)
	}
	for v := int64(1); v <= 3; v++ {
		if got, want := tableFiles(t, f, "t", v), versionFiles(t, f, "t", v); !slices.Equal(got, want) {
			t.Errorf("t snapshot %d files %v, want %v", v, got, want)
		}
	}
}

func TestPublishRemoves(t *testing.T) {
	f := newFixture(t)
	history(f)
	got := f.publish("p") // t is no longer published
	if len(got) != 1 || got[0].Dataset != "t" || !got[0].Removed {
		t.Fatalf("publish without t did %+v", got)
	}
	if _, err := os.Stat(filepath.Join(f.local.Root, "t", "metadata")); !os.IsNotExist(err) {
		entries, _ := os.ReadDir(filepath.Join(f.local.Root, "t", "metadata"))
		t.Errorf("t/metadata still holds %d objects", len(entries))
	}
	f.step(write{name: "p", drop: true})
	got = f.publish("p")
	if len(got) != 1 || got[0].Dataset != "p" || !got[0].Removed {
		t.Fatalf("publish after dropping p did %+v", got)
	}
}

// pyicebergCases are the rows pyiceberg must read from history's tables.
var pyicebergCases = []struct {
	table string
	snap  int64
	want  string
}{
	{"t", 1, `[{"id": 1, "name": "a"}, {"id": 2, "name": null}, {"id": 3, "name": "c"}]`},
	{"t", 2, `[{"id": 1, "name": "a"}, {"id": 2, "name": null}, {"id": 3, "name": "c"}, {"id": 4, "name": "d"}, {"id": 5, "name": "e"}]`},
	{"t", 3, `[{"id": 1, "name": "a", "score": 1.5}, {"id": 6, "name": "f", "score": null}]`},
	{"p", 1, `[{"day": "2024-10-04", "id": 1, "region": "eu"}, {"day": "2024-10-04", "id": 2, "region": "us"}, {"day": "2024-10-05", "id": 3, "region": null}, {"day": null, "id": 4, "region": "eu"}]`},
}

// pyicebergRead reads a table's snapshot with pyiceberg's StaticTable
// through the hint, as rows in JSON sorted; props are pyiceberg's FileIO
// properties (S3 endpoint and keys).
func pyicebergRead(t *testing.T, py, loc string, snap int64, props map[string]string) string {
	t.Helper()
	script := `
import sys, json
from pyiceberg.table import StaticTable
from pyiceberg.io import load_file_io
loc, snap, props = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]) or {}
io = load_file_io(props, loc)
hint = io.new_input(loc + "/metadata/version-hint.text").open().read().decode().strip()
t = StaticTable.from_metadata(loc + "/metadata/v" + hint + ".metadata.json", properties=props)
rows = t.scan(snapshot_id=snap).to_arrow().to_pylist()
print(json.dumps(sorted(rows, key=lambda r: json.dumps(r, sort_keys=True, default=str)), sort_keys=True, default=str))
`
	pj, _ := json.Marshal(props)
	out, err := exec.Command(py, "-c", script, loc, strconv.FormatInt(snap, 10), string(pj)).CombinedOutput()
	if err != nil {
		t.Fatalf("pyiceberg %s@%d: %v\n%s", loc, snap, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestIcebergPyIcebergReadsPublished reads every snapshot with pyiceberg.
func TestIcebergPyIcebergReadsPublished(t *testing.T) {
	py := os.Getenv("THUND_TEST_PYICEBERG")
	if py == "" {
		t.Skip("THUND_TEST_PYICEBERG not set")
	}
	f := newFixture(t)
	history(f)
	for _, c := range pyicebergCases {
		if got := pyicebergRead(t, py, filepath.Join(f.local.Root, c.table), c.snap, nil); got != c.want {
			t.Errorf("pyiceberg %s@%d:\n got %s\nwant %s", c.table, c.snap, got, c.want)
		}
	}
}

func TestVerifyAndExpire(t *testing.T) {
	f := newFixture(t)
	history(f)
	if err := Verify(f.ctx, f.wh, f.head, true); err != nil {
		t.Fatalf("after publishing: %v", err)
	}
	// Two more commits, published once: then vacuum keeps two.
	f.step(write{name: "t", schema: s2, rows: [][]any{{7, "g", 2.0}}, opts: warehouse.WriteOptions{Append: true}})
	f.publish("t", "p")
	f.step(write{name: "t", schema: s2, rows: [][]any{{8, "h", 3.0}}})
	if err := Verify(f.ctx, f.wh, f.head, true); err == nil {
		t.Errorf("Verify(upToDate) passed with a version not published")
	}
	f.publish("t", "p")
	res, err := f.wh.VacuumWith(f.ctx, 2, func(ctx context.Context, kept []*warehouse.Commit) error {
		_, err := Expire(ctx, f.wh, kept)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.DataFiles) == 0 {
		t.Fatalf("vacuum removed no data file: %+v", res)
	}
	if err := Verify(f.ctx, f.wh, f.head, true); err != nil {
		t.Fatalf("after vacuum: %v", err)
	}
	_, m, _, err := Current(f.ctx, f.fs, "t")
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, s := range m.Snapshots {
		ids = append(ids, s.SnapshotID)
	}
	if !slices.Equal(ids, []int64{4, 5}) {
		t.Errorf("snapshots after vacuum --keep 2: %v, want [4 5]", ids)
	}
	removed, err := CleanMetadata(f.ctx, f.fs, []string{"t", "p"})
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) == 0 {
		t.Errorf("CleanMetadata removed nothing")
	}
	if err := Verify(f.ctx, f.wh, f.head, true); err != nil {
		t.Fatalf("after cleaning the metadata: %v", err)
	}
	// Without expiring first, vacuum leaves snapshots reaching removed files.
	g := newFixture(t)
	history(g)
	if _, err := g.wh.Vacuum(g.ctx, 1); err != nil {
		t.Fatal(err)
	}
	if err := Verify(g.ctx, g.wh, g.head, true); err == nil {
		t.Errorf("Verify passed on a vacuum that did not expire snapshots")
	}
}

// TestPublishBackfillAfterVacuum: a version whose producing record was
// retired is published once, from the oldest kept record that holds it.
func TestPublishBackfillAfterVacuum(t *testing.T) {
	f := newFixture(t)
	f.step(write{name: "t", schema: s1, rows: [][]any{{1, "a"}}})
	f.step(write{name: "u", schema: s1, rows: [][]any{{2, "b"}}})
	f.step(write{name: "u", schema: s1, rows: [][]any{{3, "c"}}})
	if _, err := f.wh.Vacuum(f.ctx, 2); err != nil {
		t.Fatal(err)
	}
	got := f.publish("t", "u")
	if len(got) != 2 || !slices.Equal(got[0].Snapshots, []int64{1}) || !slices.Equal(got[1].Snapshots, []int64{1, 2}) {
		t.Fatalf("backfill after vacuum published %+v, want t@1 and u@1,2", got)
	}
	if err := Verify(f.ctx, f.wh, f.head, true); err != nil {
		t.Fatal(err)
	}
}

// TestPublishMovedWarehouse: a copied warehouse's tables start again at
// its own location, after the old metadata files' numbers.
func TestPublishMovedWarehouse(t *testing.T) {
	f := newFixture(t)
	history(f)
	moved := filepath.Join(t.TempDir(), "moved")
	if out, err := exec.Command("cp", "-r", f.local.Root, moved).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	l, err := store.NewLocal(moved)
	if err != nil {
		t.Fatal(err)
	}
	g := newFixtureFS(t, l)
	g.local = l
	g.step(write{name: "t", schema: s2, rows: [][]any{{9, "z", 0.5}}, opts: warehouse.WriteOptions{Append: true}})
	g.publish("t", "p")
	if err := Verify(g.ctx, g.wh, g.head, true); err != nil {
		t.Fatal(err)
	}
	_, m, n, err := Current(g.ctx, l, "t")
	if err != nil {
		t.Fatal(err)
	}
	if m.Location != URI(l, "t") || n != 4 || len(m.Snapshots) != 4 {
		t.Errorf("moved table: location %s, metadata v%d, %d snapshots; want %s, v4, 4", m.Location, n, len(m.Snapshots), URI(l, "t"))
	}
}

// TestExpireRefusesATableBehind: vacuum must not expire around a table
// whose current snapshot no kept commit holds (a run killed before it
// published): no file is removed.
func TestExpireRefusesATableBehind(t *testing.T) {
	f := newFixture(t)
	history(f)
	f.step(write{name: "t", schema: s2, rows: [][]any{{7, "g", 2.0}}}) // not published
	res, err := f.wh.VacuumWith(f.ctx, 1, func(ctx context.Context, kept []*warehouse.Commit) error {
		_, err := Expire(ctx, f.wh, kept)
		return err
	})
	if err == nil || len(res.DataFiles) != 0 {
		t.Fatalf("vacuum with a table behind: err %v, removed %v", err, res.DataFiles)
	}
	if err := Verify(f.ctx, f.wh, f.head, false); err != nil {
		t.Fatal(err)
	}
}

// TestNameMappingKeepsDroppedColumns: the name mapping covers every
// schema, so a dropped column still maps for a reader of an old snapshot.
func TestNameMappingKeepsDroppedColumns(t *testing.T) {
	f := newFixture(t)
	history(f)
	f.step(write{name: "t", schema: s1, rows: [][]any{{1, "a"}}}) // drops score
	f.publish("t", "p")
	_, m, _, err := Current(f.ctx, f.fs, "t")
	if err != nil {
		t.Fatal(err)
	}
	var mapping []mappedField
	if err := json.Unmarshal([]byte(m.Properties["schema.name-mapping.default"]), &mapping); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, mf := range mapping {
		names = append(names, mf.Names[0])
	}
	if !slices.Equal(names, []string{"id", "name", "score"}) {
		t.Errorf("name mapping names %v, want id, name and the dropped score", names)
	}
	if py := os.Getenv("THUND_TEST_PYICEBERG"); py != "" {
		want := `[{"id": 1, "name": "a", "score": 1.5}, {"id": 6, "name": "f", "score": null}]`
		if got := pyicebergRead(t, py, filepath.Join(f.local.Root, "t"), 3, nil); got != want {
			t.Errorf("pyiceberg at snapshot 3, after score was dropped:\n got %s\nwant %s", got, want)
		}
	}
}
