package ir

import (
	"errors"
	"strings"
	"testing"
)

// TestIcebergType holds the mapping to the table docs/warehouse.md shows
// (Table formats), which rt/iceberg writes into each table's metadata.
func TestIcebergType(t *testing.T) {
	for _, tc := range []struct{ typ, want string }{
		{"bool", "boolean"},
		{"int8", "int"}, {"int16", "int"}, {"int32", "int"}, {"uint8", "int"}, {"uint16", "int"},
		{"int64", "long"},
		{"float32", "float"}, {"float64", "double"},
		{"decimal(10,2)", "decimal(10,2)"}, {"decimal(38,0)", "decimal(38,0)"},
		{"string", "string"}, {"binary", "binary"}, {"date", "date"},
		{"timestamp(s)", "timestamp"}, {"timestamp(ms)", "timestamp"}, {"timestamp(us)", "timestamp"},
		{`timestamp(us, "UTC")`, "timestamptz"}, {`timestamp(ms, "Europe/Oslo")`, "timestamptz"},
		{"array<int64>", "list<long>"},
		{"map<string, array<float64>>", "map<string, list<double>>"},
		{"struct<a: int32, b: struct<c: timestamp(ms), d: array<uint16>>>", "struct<a: int, b: struct<c: timestamp, d: list<int>>>"},
	} {
		typ, err := ParseType(tc.typ)
		if err != nil {
			t.Fatalf("%s: %v", tc.typ, err)
		}
		got, err := IcebergType(typ)
		if err != nil || got != tc.want {
			t.Errorf("IcebergType(%s) = %q, %v; want %q", tc.typ, got, err, tc.want)
		}
	}
}

// TestIcebergTypeUnheld: the types Iceberg (format v2) cannot hold, where
// they are in a nested type, and the cast that fixes each.
func TestIcebergTypeUnheld(t *testing.T) {
	for _, tc := range []struct {
		typ, path, found, cast, why string
		whole                       string // IcebergCast of the whole type ("" = none)
	}{
		{"uint32", "", "uint32", "int64", "no unsigned integers", "int64"},
		{"uint64", "", "uint64", "decimal(20,0)", "no unsigned integers", "decimal(20,0)"},
		{"timestamp(ns)", "", "timestamp(ns)", "timestamp(us)", "format v3", "timestamp(us)"},
		{`timestamp(ns, "UTC")`, "", `timestamp(ns, "UTC")`, `timestamp(us, "UTC")`, "format v3", `timestamp(us, "UTC")`},
		{"duration(ms)", "", "duration(ms)", "", "no interval type", ""},
		{"null", "", "null", "", "NULLs", ""},
		{"array<uint32>", "[]", "uint32", "int64", "no unsigned integers", "array<int64>"},
		{"map<uint64, string>", "[key]", "uint64", "decimal(20,0)", "no unsigned integers", "map<decimal(20,0), string>"},
		{"map<string, duration(us)>", "[value]", "duration(us)", "", "no interval type", ""},
		{"struct<a: int32, b: array<struct<c: timestamp(ns)>>>", ".b[].c", "timestamp(ns)", "timestamp(us)", "format v3",
			"struct<a: int32, b: array<struct<c: timestamp(us)>>>"},
	} {
		typ, err := ParseType(tc.typ)
		if err != nil {
			t.Fatalf("%s: %v", tc.typ, err)
		}
		got, err := IcebergType(typ)
		var ue *UnheldTypeError
		if !errors.As(err, &ue) {
			t.Errorf("IcebergType(%s) = %q, %v; want an UnheldTypeError", tc.typ, got, err)
			continue
		}
		if ue.Path != tc.path || ue.Type.String() != tc.found || !strings.Contains(ue.Why, tc.why) {
			t.Errorf("IcebergType(%s): path %q type %s why %q; want path %q type %s why ...%s...", tc.typ, ue.Path, ue.Type, ue.Why, tc.path, tc.found, tc.why)
		}
		if tc.cast == "" {
			if ue.Cast.Kind != TUnknown || ue.Fix == "" || ue.Remedy(Type.String) != ue.Fix {
				t.Errorf("IcebergType(%s): cast %s, fix %q; want no cast and a fix", tc.typ, ue.Cast, ue.Fix)
			}
		} else if ue.Cast.String() != tc.cast || ue.Remedy(Type.String) != "cast it to "+tc.cast {
			t.Errorf("IcebergType(%s): cast %s (%q); want %s", tc.typ, ue.Cast, ue.Remedy(Type.String), tc.cast)
		}
		whole, ok := IcebergCast(typ)
		switch {
		case tc.whole == "" && ok:
			t.Errorf("IcebergCast(%s) = %s; want none", tc.typ, whole)
		case tc.whole != "" && (!ok || whole.String() != tc.whole):
			t.Errorf("IcebergCast(%s) = %s, %v; want %s", tc.typ, whole, ok, tc.whole)
		case ok:
			if _, err := IcebergType(whole); err != nil {
				t.Errorf("IcebergCast(%s) = %s, which Iceberg cannot hold: %v", tc.typ, whole, err)
			}
		}
	}
}

// TestTableFormats: which datasets are tables, their format, and what
// Validate says of a format clause.
func TestTableFormats(t *testing.T) {
	pos := Pos{File: "p.sql", Line: 3, Col: 30}
	for _, tc := range []struct {
		kind   DatasetKind
		format string
		want   string // TableFormat
		diag   string // "" = none
	}{
		{KindMaterializedView, "", "iceberg", ""},
		{KindStreamingTable, "Iceberg", "iceberg", ""},
		{KindMaterializedView, "PARQUET", "parquet", ""},
		{KindMaterializedView, "delta", "delta", "p.sql:3:30: materialized view m: table format delta is not supported, as no Delta Lake writer for Go"},
		{KindStreamingTable, "parqet", "parqet", `p.sql:3:30: streaming table m: unknown table format "parqet" (did you mean parquet?): want iceberg (the default`},
		{KindMaterializedView, "orc", "orc", `unknown table format "orc": want iceberg (the default`},
		{KindSink, "csv", "", ""},
		{KindTemporaryView, "", "", ""},
	} {
		d := &Dataset{Pos: Pos{File: "p.sql", Line: 3, Col: 1}, Kind: tc.kind, Name: "m", Format: tc.format, FormatPos: pos}
		if got := d.TableFormat(); got != tc.want {
			t.Errorf("%s %q: TableFormat %q, want %q", tc.kind, tc.format, got, tc.want)
		}
		var diags Diagnostics
		validateFormat(d, &diags)
		switch {
		case tc.diag == "" && len(diags) > 0:
			t.Errorf("%s %q: %v", tc.kind, tc.format, diags)
		case tc.diag != "" && (len(diags) != 1 || !strings.Contains(diags[0].Error(), tc.diag) || diags[0].Code != CodeBadDataset):
			t.Errorf("%s %q: got %v, want %s", tc.kind, tc.format, diags, tc.diag)
		}
	}
}
