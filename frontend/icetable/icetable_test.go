package icetable

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nordisk/thund/ir"
)

// evolved is the metadata of a table whose schema grew (testdata/evolved,
// which the DSL and SQL frontends' tests read too): snapshot 10
// (at 1000 ms) was written with schema 0 (id, name), snapshot 20 (at 2000
// ms) with schema 1, which added a decimal, a timestamp, a list and a map.
// It is written by hand, as a fixture for the frontend's reading; the
// runtime's tests read tables pyiceberg and Thund write.
var evolved = func() string {
	b, err := os.ReadFile(filepath.Join("testdata", "evolved", "metadata", "v1.metadata.json"))
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// table writes metadata as the table at dir/name (Hadoop layout).
func table(t *testing.T, dir, name, metadata string) {
	t.Helper()
	md := filepath.Join(dir, name, "metadata")
	if err := os.MkdirAll(md, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(md, "v1.metadata.json"), []byte(metadata), 0o644); err != nil {
		t.Fatal(err)
	}
}

func spec(stream bool, opts ...string) *ir.SourceSpec {
	s := &ir.SourceSpec{Pos: ir.Pos{File: "p.thund", Line: 3, Col: 8}, Format: ir.FormatIceberg, Paths: []string{"t"}, Unbounded: stream}
	for i := 0; i+1 < len(opts); i += 2 {
		s.Options = append(s.Options, ir.KV{Pos: ir.Pos{File: "p.thund", Line: 3, Col: 20 + i}, Key: opts[i], Value: opts[i+1]})
	}
	return s
}

func columnText(cols []*ir.Column) string {
	var parts []string
	for _, c := range cols {
		s := c.Name + " " + c.Type.String()
		if c.NotNull {
			s += " not null"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

func TestColumns(t *testing.T) {
	dir := t.TempDir()
	table(t, dir, "t", evolved)
	const current = "id int64 not null, name string, amount decimal(9,2), at timestamp(us, \"UTC\"), tags array<string>, counts map<string, int32 not null>"
	const first = "id int64 not null, name string"
	for _, tc := range []struct {
		name string
		spec *ir.SourceSpec
		want string
	}{
		{"current schema", spec(false), current},
		{"stream read", spec(true, "streaming-skip-delete-snapshots", "true"), current},
		{"time travel to the first snapshot takes its schema", spec(false, "snapshot-id", "10"), first},
		{"time travel to the current snapshot", spec(false, "snapshot-id", "20"), current},
		{"as of a time between the snapshots", spec(false, "as-of-timestamp", "1999"), first},
		{"as of the second snapshot's time", spec(false, "as-of-timestamp", "2000"), current},
		{"options in any case", spec(false, "Snapshot-ID", "10"), first},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cols, diags := Columns(dir, "src", tc.spec)
			if diags.HasErrors() {
				t.Fatalf("diagnostics:\n%s", diags)
			}
			if got := columnText(cols); got != tc.want {
				t.Errorf("columns:\n got %s\nwant %s", got, tc.want)
			}
			for _, kv := range tc.spec.Options {
				if kv.Key != strings.ToLower(kv.Key) {
					t.Errorf("option %s is not written as Spark spells it", kv.Key)
				}
			}
		})
	}
	abs := spec(false, "snapshot-id", "10")
	abs.Paths = []string{"file://" + filepath.ToSlash(filepath.Join(dir, "t"))}
	if cols, diags := Columns("elsewhere", "src", abs); diags.HasErrors() || columnText(cols) != first {
		t.Errorf("a file:// location: %s %s", columnText(cols), diags)
	}
	cols, _ := Columns(dir, "src", spec(false))
	if cols[1].Comment != "who" {
		t.Errorf("the column's doc is not its comment: %q", cols[1].Comment)
	}
}

func TestColumnsErrors(t *testing.T) {
	dir := t.TempDir()
	table(t, dir, "t", evolved)
	table(t, dir, "empty", strings.Replace(evolved, `"snapshots": [`, `"snapshots-x": [`, 1))
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	at := func(s *ir.SourceSpec, loc string) *ir.SourceSpec { s.Paths = []string{loc}; return s }
	for _, tc := range []struct {
		name string
		spec *ir.SourceSpec
		want string
	}{
		{"no folder", at(spec(false), "nothing"), `p.thund:3:8: Iceberg source src: no Iceberg table at "nothing": no such folder`},
		{"a file", at(spec(false), "file"), `p.thund:3:8: Iceberg source src: no Iceberg table at "file": want the table's folder`},
		{"no metadata", at(spec(false), "."), `p.thund:3:8: Iceberg source src: no Iceberg table at ".": no metadata/*.metadata.json there`},
		{"another scheme", at(spec(false), "gs://b/t"), `location "gs://b/t": want a folder path or s3://bucket/prefix`},
		{"misspelt option", spec(false, "snapshotid", "10"), `p.thund:3:20: Iceberg source src: unknown option snapshotid (did you mean snapshot-id?)`},
		{"unknown option", spec(false, "colour", "red"), `unknown option colour (want snapshot-id, as-of-timestamp,`},
		{"Spark's option", spec(false, "branch", "b"), `option branch is Spark's, which Þund does not take`},
		{"bad number", spec(false, "snapshot-id", "ten"), `option snapshot-id: want an integer, got "ten"`},
		{"negative time", spec(false, "as-of-timestamp", "-5"), `option as-of-timestamp: want milliseconds since 1970-01-01 00:00:00 UTC, got "-5"`},
		{"bad boolean", spec(true, "streaming-skip-delete-snapshots", "yes"), `want false or true, got "yes"`},
		{"time travel on a stream", spec(true, "as-of-timestamp", "1000"), `option as-of-timestamp: is a time travel, which a stream read cannot take`},
		{"stream option on a snapshot read", spec(false, "thund.non-append", "skip"), `option thund.non-append: applies to stream reads only`},
		{"two time travels", spec(false, "snapshot-id", "10", "as-of-timestamp", "1000"), `p.thund:3:22: Iceberg source src: options snapshot-id and as-of-timestamp are two time travels: give one`},
		{"no such snapshot", spec(false, "snapshot-id", "15"), `p.thund:3:20: Iceberg source src: the table at "t" has no snapshot 15 (its snapshots: 10, 20)`},
		{"too early", spec(false, "as-of-timestamp", "999"), `has no snapshot as old as 1970-01-01 00:00:00.999 UTC (its snapshots: 10 at 1970-01-01 00:00:01.000 UTC, 20 at 1970-01-01 00:00:02.000 UTC)`},
		{"an empty table has no snapshot", at(spec(false, "snapshot-id", "10"), "empty"), `has no snapshot 10 (it has none)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cols, diags := Columns(dir, "src", tc.spec)
			if !diags.HasErrors() {
				t.Fatalf("no error; columns %s", columnText(cols))
			}
			if cols != nil {
				t.Errorf("columns despite the error: %s", columnText(cols))
			}
			if got := diags.Error(); !strings.Contains(got, tc.want) {
				t.Errorf("diagnostics:\n%s\nwant one containing %q", got, tc.want)
			}
		})
	}
}

func TestColumnsRefusedTypes(t *testing.T) {
	dir := t.TempDir()
	md := strings.Replace(evolved, `{"id": 3, "name": "amount", "required": false, "type": "decimal(9, 2)"}`,
		`{"id": 3, "name": "amount", "required": false, "type": "uuid"}`, 1)
	md = strings.Replace(md, `"type": "timestamptz"}`, `"type": "timestamp_ns"}`, 1)
	table(t, dir, "t", md)
	_, diags := Columns(dir, "src", spec(false))
	got := diags.Error()
	for _, want := range []string{"Iceberg source src: column amount: Iceberg type uuid is not read", "Iceberg source src: column at: Iceberg type timestamp_ns is not read"} {
		if !strings.Contains(got, want) {
			t.Errorf("diagnostics:\n%s\nwant one containing %q", got, want)
		}
	}
	// the first snapshot's schema has neither column
	if _, diags := Columns(dir, "src", spec(false, "snapshot-id", "10")); diags.HasErrors() {
		t.Errorf("time travel to a schema without the refused columns: %s", diags)
	}
}
