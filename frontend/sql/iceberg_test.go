package sql

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nordisk/thund/ir"
)

// The table frontend/icetable's tests describe: snapshots 10 (at 1000 ms;
// schema id, name) and 20 (at 2000 ms; the current schema, six columns).
var icebergDir = filepath.Join("..", "icetable", "testdata")

// icebergSources parses files (in icebergDir) with cat.db.t bound to the
// table by bind, and returns its sources as "name stream opts ncols".
func icebergSources(t *testing.T, bind, src string) ([]string, *ir.Pipeline) {
	t.Helper()
	var binds []SourceBinding
	if bind != "" {
		binds = []SourceBinding{{Pos: ir.Pos{File: "spec.yml", Line: 3, Col: 3}, Name: "cat.db.t", Spec: bind, Dir: icebergDir}}
	}
	p, diags := ParseWith([]File{{Name: filepath.Join(icebergDir, "t.sql"), Src: []byte(src)}}, Options{Sources: binds})
	if diags.HasErrors() {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	var out []string
	for _, d := range p.Datasets {
		if d.Kind != ir.KindSource {
			continue
		}
		s := d.Source
		if s.Format != ir.FormatIceberg || len(s.Paths) != 1 || s.Paths[0] != "evolved" {
			t.Errorf("%s: source %+v", d.Name, s)
		}
		var kvs []string
		for _, kv := range s.Options {
			kvs = append(kvs, kv.Key+"="+kv.Value)
		}
		mode := "snapshot"
		if s.Unbounded {
			mode = "stream"
		}
		out = append(out, strings.Join([]string{d.Name, mode, strings.Join(kvs, ","), strings.Repeat("c", len(d.Columns))}, " "))
	}
	return out, p
}

func TestIcebergBinding(t *testing.T) {
	got, p := icebergSources(t, "iceberg.`evolved`", `
CREATE MATERIALIZED VIEW a AS SELECT id, amount FROM cat.db.t;
CREATE MATERIALIZED VIEW b AS SELECT id FROM cat.db.t VERSION AS OF 10;
CREATE MATERIALIZED VIEW c AS SELECT x.id FROM cat.db.t FOR SYSTEM_VERSION AS OF '10' AS x;
CREATE MATERIALIZED VIEW d AS SELECT id FROM cat.db.t TIMESTAMP AS OF '1970-01-01 00:00:01.5';
CREATE MATERIALIZED VIEW e AS SELECT id FROM cat.db.t FOR SYSTEM_TIME AS OF '1970-01-01T01:00:01.999+01:00';
CREATE STREAMING TABLE f AS SELECT id FROM STREAM cat.db.t;
CREATE STREAMING TABLE g AS SELECT id FROM STREAM(cat.db.t) WITH ('streaming-skip-delete-snapshots' = 'true');
`)
	want := []string{
		"t snapshot  cccccc",                     // the binding: a snapshot read of the current snapshot
		"b_iceberg_1 snapshot snapshot-id=10 cc", // VERSION AS OF, in both spellings: one source
		"d_iceberg_1 snapshot as-of-timestamp=1500 cc",
		"e_iceberg_1 snapshot as-of-timestamp=1999 cc", // the offset is honoured
		"f_iceberg_1 stream  cccccc",                   // a stream read of a snapshot binding reads its own source
		"g_iceberg_1 stream streaming-skip-delete-snapshots=true cccccc",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sources:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	reads := map[string]string{}
	for _, f := range p.Flows {
		for _, s := range ir.Scans(f.Query) {
			reads[f.Name] = s.Name
		}
	}
	if reads["b"] != "b_iceberg_1" || reads["c"] != "b_iceberg_1" || reads["a"] != "t" || reads["f"] != "f_iceberg_1" {
		t.Errorf("reads: %v", reads)
	}
}

func TestIcebergStreamBinding(t *testing.T) {
	got, _ := icebergSources(t, "STREAM iceberg.`evolved` WITH ('streaming-skip-overwrite-snapshots' = 'true') WATERMARK at DELAY OF INTERVAL 1 MINUTE", `
CREATE STREAMING TABLE s AS SELECT id FROM STREAM cat.db.t;
CREATE MATERIALIZED VIEW m AS SELECT id FROM cat.db.t VERSION AS OF 10;
`)
	want := []string{
		"t stream streaming-skip-overwrite-snapshots=true cccccc",
		"m_iceberg_1 snapshot snapshot-id=10 cc", // the binding's stream options do not apply to a snapshot read
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sources:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestIcebergReads(t *testing.T) {
	got, _ := icebergSources(t, "", "SET TIME ZONE 'Europe/Oslo';\n"+`
CREATE TEMPORARY VIEW v AS SELECT * FROM iceberg.`+"`evolved`"+` VERSION AS OF 10;
CREATE MATERIALIZED VIEW m AS SELECT id FROM iceberg.`+"`evolved`"+` TIMESTAMP AS OF '1970-01-01 01:00:02';
CREATE STREAMING TABLE s AS SELECT id FROM STREAM iceberg.`+"`evolved`"+`;
CREATE MATERIALIZED VIEW n AS SELECT id FROM iceberg.`+"`evolved`"+` TIMESTAMP AS OF TIMESTAMP '1970-01-01 01:00:01.5';
CREATE MATERIALIZED VIEW o AS SELECT id FROM iceberg.`+"`evolved`"+` TIMESTAMP AS OF TIMESTAMP '1970-01-01 00:00:01.75Z';
CREATE MATERIALIZED VIEW p AS SELECT id FROM iceberg.`+"`evolved`"+` TIMESTAMP AS OF DATE '1970-01-02';
`)
	want := []string{
		"v snapshot snapshot-id=10 cc",
		"m_iceberg_1 snapshot as-of-timestamp=2000 cccccc", // in the session time zone (Oslo: UTC+1 in 1970)
		"s_iceberg_1 stream  cccccc",
		"n_iceberg_1 snapshot as-of-timestamp=1500 cc", // a TIMESTAMP literal: the session zone's wall clock
		"o_iceberg_1 snapshot as-of-timestamp=1750 cc", // with a zone suffix: that instant
		"p_iceberg_1 snapshot as-of-timestamp=82800000 cccccc",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("sources:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestIcebergReadErrors(t *testing.T) {
	for _, tc := range []struct{ bind, src, want string }{
		{"", "CREATE MATERIALIZED VIEW m AS SELECT * FROM STREAM iceberg.`evolved` VERSION AS OF 10", "t.sql:1:70: time travel on a stream read"},
		{"", "CREATE MATERIALIZED VIEW m AS SELECT * FROM other VERSION AS OF 10", "t.sql:1:51: time travel and WITH options apply to an Iceberg table, and other is not one"},
		{"", "CREATE MATERIALIZED VIEW m AS SELECT * FROM range(3) VERSION AS OF 10", "t.sql:1:54: VERSION AS OF applies to a table read"},
		{"", "CREATE MATERIALIZED VIEW m AS SELECT * FROM iceberg.`evolved` TIMESTAMP AS OF 'noon'", "TIMESTAMP AS OF 'noon': want a time"},
		{"", "CREATE MATERIALIZED VIEW m AS SELECT * FROM iceberg.`evolved` TIMESTAMP AS OF current_timestamp() - INTERVAL 1 DAY", "t.sql:1:79: TIMESTAMP AS OF takes a constant time"},
		{"", "CREATE MATERIALIZED VIEW m AS SELECT * FROM iceberg.`evolved` WITH ('snapshot-id' = '1', 'Snapshot-Id' = '2')", "duplicate option \"Snapshot-Id\""},
		{"", "CREATE MATERIALIZED VIEW m AS SELECT * FROM read_files('evolved', format => 'iceberg')", "read_files does not read Iceberg tables"},
		{"", "CREATE TEMPORARY VIEW v (id BIGINT) AS SELECT * FROM iceberg.`evolved`", "Iceberg source v takes no column list"},
		{"iceberg.`evolved`", "CREATE MATERIALIZED VIEW m AS SELECT * FROM cat.db.t VERSION AS OF 30", "has no snapshot 30 (its snapshots: 10, 20)"},
		{"STREAM iceberg.`evolved` VERSION AS OF 10", "CREATE STREAMING TABLE s AS SELECT * FROM STREAM cat.db.t", "spec.yml:1:26: thund.source.cat.db.t: time travel on a stream read"},
		{"iceberg.`evolved` x", "CREATE MATERIALIZED VIEW m AS SELECT * FROM cat.db.t", "thund.source.cat.db.t: want"},
	} {
		var binds []SourceBinding
		if tc.bind != "" {
			binds = []SourceBinding{{Pos: ir.Pos{File: "spec.yml", Line: 1, Col: 1}, Name: "cat.db.t", Spec: tc.bind, Dir: icebergDir}}
		}
		_, diags := ParseWith([]File{{Name: filepath.Join(icebergDir, "t.sql"), Src: []byte(tc.src)}}, Options{Sources: binds})
		got := strings.ReplaceAll(diags.Error(), filepath.Join(icebergDir, "t.sql"), "t.sql")
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s:\n%s\nwant an error containing %q", tc.src, got, tc.want)
		}
	}
}

func TestAsOfMillis(t *testing.T) {
	for _, tc := range []struct {
		text, zone string
		want       time.Time
	}{
		{"2026-01-02 03:04:05", "UTC", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
		{"2026-01-02T03:04:05.25", "UTC", time.Date(2026, 1, 2, 3, 4, 5, 250e6, time.UTC)},
		{"2026-01-02", "UTC", time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)},
		{"2026-07-02 12:00:00", "Europe/Oslo", time.Date(2026, 7, 2, 10, 0, 0, 0, time.UTC)},
		{"2026-07-02 12:00:00-05:00", "Europe/Oslo", time.Date(2026, 7, 2, 17, 0, 0, 0, time.UTC)},
	} {
		got, err := asOfMillis(tc.text, tc.zone)
		if err != nil || got != tc.want.UnixMilli() {
			t.Errorf("asOfMillis(%q, %s) = %d, %v; want %d", tc.text, tc.zone, got, err, tc.want.UnixMilli())
		}
	}
}
