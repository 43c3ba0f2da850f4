package icebergcheck

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/extensions"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/uuid"
)

// build is one column of one Arrow type and its rows' canonical texts.
type build struct {
	dt   arrow.DataType
	fill func(b array.Builder)
	want []string
}

// TestCell: every type's canonical text, and two Arrow types of one value
// giving the same text.
func TestCell(t *testing.T) {
	ts := time.Date(2024, 1, 31, 13, 4, 5, 1000, time.UTC)
	cases := map[string]build{
		"float32": {arrow.PrimitiveTypes.Float32, func(b array.Builder) {
			b.(*array.Float32Builder).AppendValues([]float32{1.1, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1)), 0}, nil)
			b.AppendNull()
		}, []string{"1.1", "NaN", "+Inf", "-Inf", "-0", "0", "NULL"}},
		"float64": {arrow.PrimitiveTypes.Float64, func(b array.Builder) {
			b.(*array.Float64Builder).AppendValues([]float64{0.1, 1e300, float64(float32(1.1)), -math.NaN()}, nil)
		}, []string{"0.1", "1e+300", "1.100000023841858", "NaN"}},
		"int64": {arrow.PrimitiveTypes.Int64, func(b array.Builder) {
			b.(*array.Int64Builder).AppendValues([]int64{math.MinInt64, 0, 7}, nil)
		}, []string{"-9223372036854775808", "0", "7"}},
		"uint64": {arrow.PrimitiveTypes.Uint64, func(b array.Builder) {
			b.(*array.Uint64Builder).Append(math.MaxUint64)
		}, []string{"18446744073709551615"}},
		"decimal": {&arrow.Decimal128Type{Precision: 10, Scale: 2}, func(b array.Builder) {
			b.(*array.Decimal128Builder).AppendValues([]decimal128.Num{decimal128.FromI64(1230), decimal128.FromI64(-5), decimal128.FromI64(0)}, nil)
		}, []string{"12.30", "-0.05", "0.00"}},
		"string": {arrow.BinaryTypes.String, func(b array.Builder) {
			b.(*array.StringBuilder).AppendValues([]string{"a\"b\n", ""}, nil)
		}, []string{`"a\"b\n"`, `""`}},
		"large_string": {arrow.BinaryTypes.LargeString, func(b array.Builder) {
			b.(*array.LargeStringBuilder).Append("a\"b\n")
		}, []string{`"a\"b\n"`}},
		"binary": {arrow.BinaryTypes.Binary, func(b array.Builder) {
			b.(*array.BinaryBuilder).AppendValues([][]byte{{0, 0xff}, {}}, nil)
		}, []string{"x'00ff'", "x''"}},
		"fixed": {&arrow.FixedSizeBinaryType{ByteWidth: 2}, func(b array.Builder) {
			b.(*array.FixedSizeBinaryBuilder).Append([]byte{0, 0xff})
		}, []string{"x'00ff'"}},
		"uuid": {extensions.NewUUIDType(), func(b array.Builder) {
			b.(*extensions.UUIDBuilder).Append(uuid.MustParse("12345678-1234-5678-1234-567812345678"))
		}, []string{`"12345678-1234-5678-1234-567812345678"`}},
		"date": {arrow.FixedWidthTypes.Date32, func(b array.Builder) {
			b.(*array.Date32Builder).Append(arrow.Date32FromTime(time.Date(1969, 7, 20, 0, 0, 0, 0, time.UTC)))
		}, []string{"1969-07-20"}},
		"timestamp_us_utc": {&arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, func(b array.Builder) {
			b.(*array.TimestampBuilder).Append(arrow.Timestamp(ts.UnixMicro()))
		}, []string{"2024-01-31T13:04:05.000001Z"}},
		"timestamp_ms_offset": {&arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "+02:00"}, func(b array.Builder) {
			b.(*array.TimestampBuilder).Append(arrow.Timestamp(ts.UnixMilli()))
		}, []string{"2024-01-31T13:04:05.000000Z"}},
		"timestamp_ntz": {&arrow.TimestampType{Unit: arrow.Microsecond}, func(b array.Builder) {
			b.(*array.TimestampBuilder).Append(arrow.Timestamp(ts.UnixMicro()))
		}, []string{"2024-01-31T13:04:05.000001"}},
		"timestamp_ns": {&arrow.TimestampType{Unit: arrow.Nanosecond}, func(b array.Builder) {
			b.(*array.TimestampBuilder).Append(arrow.Timestamp(ts.UnixNano() + 1))
		}, []string{"2024-01-31T13:04:05.000001001"}},
		"list": {arrow.ListOf(arrow.PrimitiveTypes.Int32), func(b array.Builder) {
			lb := b.(*array.ListBuilder)
			vb := lb.ValueBuilder().(*array.Int32Builder)
			lb.Append(true)
			vb.Append(1)
			vb.AppendNull()
			lb.Append(true)
			lb.AppendNull()
		}, []string{"[1, NULL]", "[]", "NULL"}},
		"large_list": {arrow.LargeListOf(arrow.PrimitiveTypes.Int32), func(b array.Builder) {
			lb := b.(*array.LargeListBuilder)
			vb := lb.ValueBuilder().(*array.Int32Builder)
			lb.Append(true)
			vb.Append(1)
			vb.AppendNull()
		}, []string{"[1, NULL]"}},
		"map": {arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64), func(b array.Builder) {
			mb := b.(*array.MapBuilder)
			kb, ib := mb.KeyBuilder().(*array.StringBuilder), mb.ItemBuilder().(*array.Int64Builder)
			mb.Append(true)
			kb.Append("z")
			ib.Append(1)
			kb.Append("a")
			ib.AppendNull()
		}, []string{`{"a" -> NULL, "z" -> 1}`}},
		"struct": {arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
			arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}), func(b array.Builder) {
			sb := b.(*array.StructBuilder)
			sb.Append(true)
			sb.FieldBuilder(0).(*array.Float64Builder).Append(0.5)
			sb.FieldBuilder(1).AppendNull()
			sb.AppendNull()
		}, []string{`{x: 0.5, s: NULL}`, "NULL"}},
	}
	for name, c := range cases {
		b := array.NewBuilder(memory.DefaultAllocator, c.dt)
		c.fill(b)
		arr := b.NewArray()
		var got []string
		for i := 0; i < arr.Len(); i++ {
			got = append(got, Cell(arr, i))
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: got %q, want %q", name, got, c.want)
		}
		arr.Release()
	}
}

// TestDiff: rows compare as multisets over columns in any order; a diff
// shows only the differing rows; floats compare within a tolerance when
// asked.
func TestDiff(t *testing.T) {
	want := &Table{Columns: []string{"a", "x"}, ArrowTypes: []string{"int64", "float64"},
		Rows: []Row{{"1", "0.1"}, {"2", "NaN"}, {"2", "NaN"}, {"3", "1"}}}
	got := &Table{Columns: []string{"x", "a"}, ArrowTypes: []string{"float64", "int64"},
		Rows: []Row{{"NaN", "2"}, {"1", "3"}, {"0.1", "1"}, {"NaN", "2"}}}
	if d := Diff(want, got, Options{}); d != "" {
		t.Errorf("equal tables differ:\n%s", d)
	}
	got.Rows[2] = Row{"0.10000000000000002", "1"}
	if d := Diff(want, got, Options{}); !strings.Contains(d, "- 1, 0.1\n+ 1, 0.10000000000000002\n") || strings.Contains(d, "3, 1") {
		t.Errorf("diff of one row:\n%s", d)
	}
	if d := Diff(want, got, Options{FloatTolerance: 1e-9}); d != "" {
		t.Errorf("within the tolerance:\n%s", d)
	}
	got.Rows = got.Rows[:3]
	if d := Diff(want, got, Options{FloatTolerance: 1e-9}); !strings.Contains(d, "- 2, NaN\n") || !strings.Contains(d, "(4 rows want, 3 rows got") {
		t.Errorf("a missing duplicate:\n%s", d)
	}
	if d := Diff(want, &Table{Columns: []string{"a", "y"}}, Options{}); !strings.Contains(d, "columns:") {
		t.Errorf("other columns:\n%s", d)
	}
	if d := Diff(want, &Table{Columns: []string{"A", "X"}, ArrowTypes: []string{"int64", "float32"}, Rows: want.Rows}, Options{FoldCase: true, Types: true}); d != "column x: want type float64, got type float32\n" {
		t.Errorf("folded names, another type:\n%s", d)
	}
}

// TestExpect: the canonical text of Go values agrees with the Arrow one
// (TestCell) for the types the fixture writers take.
func TestExpect(t *testing.T) {
	cols := []Column{{Name: "f", Type: "float"}, {Name: "p", Type: "decimal(10, 2)"}, {Name: "tz", Type: "timestamptz"},
		{Name: "l", Type: "list<map<string, int>>"}, {Name: "s", Type: "struct<x: double, b: binary>"}}
	got := Expect(t, cols, [][]any{
		{float32(1.1), "12.3", "2024-01-31T15:04:05.000001+02:00", []any{[][2]any{{"z", int32(1)}, {"a", nil}}, nil},
			map[string]any{"x": 0.5, "b": []byte{0, 0xff}}},
		{math.NaN(), "-1", nil, []any{}, map[string]any{}},
	})
	want := []string{`1.1, 12.30, 2024-01-31T13:04:05.000001Z, [{"a" -> NULL, "z" -> 1}, NULL], {x: 0.5, b: x'00ff'}`,
		`NaN, -1.00, NULL, [], {x: NULL, b: NULL}`}
	for i := range want {
		if got[i].String() != want[i] {
			t.Errorf("row %d: %s, want %s", i, got[i], want[i])
		}
	}
}

// TestMetadataFile: version-hint.text wins; else the highest version of
// either naming; two of one version, or none, are errors.
func TestMetadataFile(t *testing.T) {
	dir := t.TempDir()
	md := filepath.Join(dir, "metadata")
	os.MkdirAll(md, 0o755)
	touch := func(name string) {
		if err := os.WriteFile(filepath.Join(md, name), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := MetadataFile(dir); err == nil || !strings.Contains(err.Error(), "no metadata file") {
		t.Errorf("empty: %v", err)
	}
	touch("00000-6c1f0b52-58a3-4a2e-9d4b-0a5a4a1d2a10.metadata.json")
	touch("00009-1b2e6a47-7f1c-4a83-9f3e-3d6cbb0a9e21.metadata.json")
	touch("00010-8a1d5c2e-2b6f-4e3d-8c1a-5f0e7b9d4c33.metadata.json")
	touch("snap-1-0-x.avro")
	if got, err := MetadataFile(dir); err != nil || filepath.Base(got) != "00010-8a1d5c2e-2b6f-4e3d-8c1a-5f0e7b9d4c33.metadata.json" {
		t.Errorf("newest of pyiceberg's: %s, %v", got, err)
	}
	touch("00010-0a1d5c2e-2b6f-4e3d-8c1a-5f0e7b9d4c33.metadata.json")
	if _, err := MetadataFile(dir); err == nil || !strings.Contains(err.Error(), "2 metadata files of version 10") {
		t.Errorf("two of version 10: %v", err)
	}
	touch("v3.metadata.json")
	touch("v12.metadata.json")
	touch("version-hint.text")
	os.WriteFile(filepath.Join(md, "version-hint.text"), []byte("3\n"), 0o644)
	if got, err := MetadataFile(dir); err != nil || filepath.Base(got) != "v3.metadata.json" {
		t.Errorf("version-hint.text 3: %s, %v", got, err)
	}
	os.WriteFile(filepath.Join(md, "version-hint.text"), []byte("4"), 0o644)
	if _, err := MetadataFile(dir); err == nil || !strings.Contains(err.Error(), "names version 4") {
		t.Errorf("version-hint.text names a missing version: %v", err)
	}
}

// TestUnorderedLists: the elements of an unordered column's lists are
// sorted (the column named in any case); other columns keep their order.
func TestUnorderedLists(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "set", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true},
		{Name: "seq", Type: arrow.ListOf(arrow.PrimitiveTypes.Int32), Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, f := range b.Fields() {
		lb := f.(*array.ListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{3, 1, 2}, nil)
		lb.AppendNull()
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	tb := &Table{UnorderedLists: []string{"SET"}}
	tb.Add(rec)
	if got := tb.Rows[0].String() + " | " + tb.Rows[1].String(); got != "[1, 2, 3], [3, 1, 2] | NULL, NULL" {
		t.Errorf("rows %s", got)
	}
}
