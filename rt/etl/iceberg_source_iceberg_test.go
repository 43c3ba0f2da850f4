//go:build iceberg

package etl

import (
	"github.com/nordisk/thund/internal/icebergcheck"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/iceberg"
	"github.com/nordisk/thund/rt/store"
)

// pyiceberg runs rt/iceberg's pyiceberg fixture script over the warehouse
// wh (see rt/iceberg/testdata/pyiceberg_fixture.py); it returns what it
// printed.
func pyiceberg(t *testing.T, wh, steps string) string {
	t.Helper()
	out := icebergcheck.RunFixture(t, "../iceberg/testdata/pyiceberg_fixture.py", wh, steps)
	return out
}

var pyRowsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// copyRun emits its input's batches unchanged.
func copyRun(input string) func(fc *FlowContext) error {
	return func(fc *FlowContext) error {
		return fc.EachBatch(input, func(rec arrow.RecordBatch) error {
			err := fc.Emit(rec)
			rec.Release()
			return err
		})
	}
}

// pyReader reads the table at loc: copy by a stream read, snap by a
// snapshot read, old by a snapshot read of a time-travelled source.
func pyReader(loc string, travel [2]string) *Pipeline {
	return &Pipeline{Name: "reader", File: "reader.thund", Compiler: "v0.0.0-test", Datasets: []*Dataset{
		{Name: "ev", Kind: Source, Schema: pyRowsSchema, Source: &FileSource{Format: "iceberg", Patterns: []string{loc}, Unbounded: true},
			Definition: "source ev from iceberg " + loc},
		{Name: "ev_then", Kind: Source, Schema: pyRowsSchema, Source: &FileSource{Format: "iceberg", Patterns: []string{loc}, Options: [][2]string{travel}},
			Definition: "source ev_then from iceberg " + loc + " " + travel[0] + " " + travel[1]},
		{Name: "copy", Kind: StreamingTable, Schema: pyRowsSchema,
			Flows:      []*Flow{{Name: "copy", Inputs: []Input{{Name: "ev", Stream: true}}, Run: copyRun("ev")}},
			Definition: "streaming table copy = from stream ev"},
		{Name: "snap", Kind: MaterializedView, Schema: pyRowsSchema,
			Flows:      []*Flow{{Name: "snap", Inputs: []Input{{Name: "ev"}}, Run: copyRun("ev")}},
			Definition: "materialized view snap = from ev"},
		{Name: "old", Kind: MaterializedView, Schema: pyRowsSchema,
			Flows:      []*Flow{{Name: "old", Inputs: []Input{{Name: "ev_then"}}, Run: copyRun("ev_then")}},
			Definition: "materialized view old = from ev_then"},
	}}
}

// TestIcebergSourcePyiceberg: a table pyiceberg writes, read over three
// runs with appends in between, a column added and one renamed: each row
// is read once, and the stream read equals the snapshot read; time travel
// by snapshot id and by time.
func TestIcebergSourcePyiceberg(t *testing.T) {
	e := newEnv(t)
	wh := filepath.Join(e.root, "lake")
	pyiceberg(t, wh, `[
 {"op":"create","table":"t","columns":[{"name":"id","type":"long"},{"name":"name","type":"string"}]},
 {"op":"append","table":"t","rows":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}]`)
	tb, err := iceberg.OpenTable(t.Context(), &store.Local{Root: wh}, "t")
	if err != nil {
		t.Fatal(err)
	}
	first := tb.Meta.Current()
	check := func(p *Pipeline, runID string, in int64, want string) {
		t.Helper()
		if got, _ := e.flowRows(runID, "copy"); got != in {
			t.Errorf("copy read %d rows, want %d", got, in)
		}
		for _, ds := range []string{"copy", "snap"} {
			if got := sortedRows(e.read(p, ds)); got != want {
				t.Errorf("%s:\n%s\nwant\n%s", ds, got, want)
			}
		}
	}

	// the location relative to --root, as a user writes it
	p := pyReader("lake/t", [2]string{"snapshot-id", strconv.FormatInt(first.SnapshotID, 10)})
	id := e.mustRun(p)
	check(p, id, 2, "1,a\n2,b")

	pyiceberg(t, wh, `[{"op":"add_column","table":"t","column":"score","type":"double"},
 {"op":"append","table":"t","rows":[{"id":3,"name":"c","score":1.5}]}]`)
	id = e.mustRun(p)
	check(p, id, 1, "1,a\n2,b\n3,c")
	if got := sortedRows(e.read(p, "old")); got != "1,a\n2,b" {
		t.Errorf("old (snapshot-id %d):\n%s", first.SnapshotID, got)
	}

	pyiceberg(t, wh, `[{"op":"rename","table":"t","column":"name","to":"label"},
 {"op":"append","table":"t","rows":[{"id":4,"label":"d"}]}]`)
	id = e.mustRun(p)
	check(p, id, 1, "1,a\n2,b\n3,c\n4,d")
	e.mustNoOp(p)

	// pyiceberg deletes id 1 copy-on-write: an overwrite snapshot. The
	// stream read fails, saying so; thund.non-append = recompute rebuilds
	// copy from the current snapshot.
	pyiceberg(t, wh, `[{"op":"delete","table":"t","column":"id","value":1}]`)
	code, _, stderr := e.etl(p, "run")
	if code == 0 || !strings.Contains(stderr, "is an overwrite, not an append") {
		t.Errorf("stream read over pyiceberg's delete: exit %d\n%s", code, stderr)
	}
	rec := pyReader("lake/t", [2]string{"snapshot-id", strconv.FormatInt(first.SnapshotID, 10)})
	rec.Datasets[0].Source.Options = [][2]string{{"thund.non-append", "recompute"}}
	id = e.mustRun(rec)
	check(rec, id, 3, "2,b\n3,c\n4,d")

	// as-of-timestamp: the snapshot current at the first append's time.
	asOf := pyReader("lake/t", [2]string{"as-of-timestamp", strconv.FormatInt(first.TimestampMs+1, 10)})
	e.mustRun(asOf, "--select", "old", "--refresh", "old")
	if got := sortedRows(e.read(asOf, "old")); got != "1,a\n2,b" {
		t.Errorf("old (as-of-timestamp):\n%s", got)
	}
	bad := pyReader("lake/t", [2]string{"snapshot-id", "12345"})
	code, _, stderr = e.etl(bad, "run", "--select", "old", "--refresh", "old")
	if code == 0 || !strings.Contains(stderr, "has no snapshot 12345") {
		t.Errorf("a snapshot-id the table lacks: exit %d\n%s", code, stderr)
	}
}
