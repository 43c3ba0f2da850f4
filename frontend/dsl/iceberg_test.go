package dsl

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/nordisk/thund/ir"
)

// The table frontend/icetable's tests describe: snapshots 10 (schema id,
// name) and 20 (the current schema, six columns).
var icebergTable = filepath.Join("..", "icetable", "testdata")

func TestIcebergSource(t *testing.T) {
	src := `pipeline p

source cur from iceberg "evolved"

source old from iceberg "evolved" options ("SNAPSHOT-ID" = "10")

source feed stream from iceberg "evolved" options ("streaming-skip-overwrite-snapshots" = "true", "thund.non-append" = "Recompute") {
  watermark at delay 1m
} comment "changes"

materialized view m = from cur | select id, amount
`
	p, diags := Parse(filepath.Join(icebergTable, "p.thund"), []byte(src))
	if diags.HasErrors() {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	byName := map[string]*ir.Dataset{}
	for _, d := range p.Datasets {
		byName[d.Name] = d
	}
	check := func(name string, stream bool, opts string, ncols int) {
		t.Helper()
		d := byName[name]
		s := d.Source
		if s.Format != ir.FormatIceberg || len(s.Paths) != 1 || s.Paths[0] != "evolved" || s.Unbounded != stream {
			t.Errorf("%s: source %+v", name, s)
		}
		var kvs []string
		for _, kv := range s.Options {
			kvs = append(kvs, kv.Key+"="+kv.Value)
		}
		if got := strings.Join(kvs, ","); got != opts {
			t.Errorf("%s: options %s, want %s", name, got, opts)
		}
		if len(d.Columns) != ncols {
			t.Errorf("%s: %d columns, want %d (the snapshot's schema)", name, len(d.Columns), ncols)
		}
	}
	check("cur", false, "", 6)
	check("old", false, "snapshot-id=10", 2)
	check("feed", true, "streaming-skip-overwrite-snapshots=true,thund.non-append=recompute", 6)
	if w := byName["feed"].Watermark; w == nil || w.Column != "at" {
		t.Errorf("feed's watermark: %+v", w)
	}
	if byName["feed"].Comment != "changes" {
		t.Errorf("feed's comment: %q", byName["feed"].Comment)
	}

	// the canonical form leaves the columns out (they are the table's), and
	// parses back to the same pipeline
	text := string(ir.Print(p))
	for _, want := range []string{
		"source cur from iceberg \"evolved\"\n",
		"source old from iceberg \"evolved\" options (\"snapshot-id\" = \"10\")\n",
		"source feed stream from iceberg \"evolved\" options (\"streaming-skip-overwrite-snapshots\" = \"true\", \"thund.non-append\" = \"recompute\") {\n  watermark at delay 1m\n}\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("canonical form lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "amount decimal") {
		t.Errorf("canonical form declares the table's columns:\n%s", text)
	}
	p2, diags := Parse(filepath.Join(icebergTable, "p.thund"), []byte(text))
	if diags.HasErrors() {
		t.Fatalf("canonical form does not parse:\n%s\n%s", diags, text)
	}
	if again := string(ir.Print(p2)); again != text {
		t.Errorf("canonical form is not a fixed point:\n%s\n---\n%s", text, again)
	}
}

func TestIcebergSourceErrors(t *testing.T) {
	for _, tc := range []struct {
		src, want string
	}{
		{`source s from iceberg "evolved" { id int64 }`, `p.thund:1:35: Iceberg source s takes no column list`},
		{`source s from parquet "x.parquet"`, `p.thund:1:8: source s needs its columns in braces`},
		{`source s from iceberg "nowhere"`, `p.thund:1:10: Iceberg source s: no Iceberg table at "nowhere": no such folder`},
		{`source s stream from iceberg "evolved" options ("snapshot-id" = "10")`, `p.thund:1:49: Iceberg source s: option snapshot-id: is a time travel, which a stream read cannot take`},
		{`source s from iceberg "evolved" options ("snapshot-id" = "11")`, `has no snapshot 11 (its snapshots: 10, 20)`},
	} {
		_, diags := Parse(filepath.Join(icebergTable, "p.thund"), []byte("pipeline p\n"+tc.src+"\n"))
		got := strings.ReplaceAll(diags.Error(), filepath.Join(icebergTable, "p.thund")+":2:", "p.thund:1:")
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s:\n%s\nwant an error containing %q", tc.src, got, tc.want)
		}
	}
}
