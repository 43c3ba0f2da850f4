package format

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/nordisk/thund/rt/store"
)

// allTypes is one nullable column of every type of the model.
var allTypes = arrow.NewSchema([]arrow.Field{
	{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
	{Name: "i16", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
	{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "u8", Type: arrow.PrimitiveTypes.Uint8, Nullable: true},
	{Name: "u16", Type: arrow.PrimitiveTypes.Uint16, Nullable: true},
	{Name: "u32", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
	{Name: "u64", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
	{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
	{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "dec", Type: &arrow.Decimal128Type{Precision: 38, Scale: 4}, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true},
	{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	{Name: "ts_s", Type: &arrow.TimestampType{Unit: arrow.Second}, Nullable: true},
	{Name: "ts_ms", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, Nullable: true},
	{Name: "ts_us", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
	{Name: "ts_ns", Type: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "Europe/Oslo"}, Nullable: true},
	{Name: "dur", Type: &arrow.DurationType{Unit: arrow.Millisecond}, Nullable: true},
	{Name: "allnull", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

func dec(s string, p, sc int32) decimal128.Num {
	n, err := ParseDecimal(s, p, sc)
	if err != nil {
		panic(err)
	}
	return n
}

// sampleBatch has edge values in every column and a NULL row.
func sampleBatch(mem memory.Allocator) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, allTypes)
	defer b.Release()
	f := func(i int) array.Builder { return b.Field(i) }
	f(0).(*array.BooleanBuilder).AppendValues([]bool{true, false, true}, nil)
	f(1).(*array.Int8Builder).AppendValues([]int8{math.MinInt8, 0, math.MaxInt8}, nil)
	f(2).(*array.Int16Builder).AppendValues([]int16{math.MinInt16, -1, math.MaxInt16}, nil)
	f(3).(*array.Int32Builder).AppendValues([]int32{math.MinInt32, 7, math.MaxInt32}, nil)
	f(4).(*array.Int64Builder).AppendValues([]int64{math.MinInt64, 0, math.MaxInt64}, nil)
	f(5).(*array.Uint8Builder).AppendValues([]uint8{0, 1, math.MaxUint8}, nil)
	f(6).(*array.Uint16Builder).AppendValues([]uint16{0, 1, math.MaxUint16}, nil)
	f(7).(*array.Uint32Builder).AppendValues([]uint32{0, 1, math.MaxUint32}, nil)
	f(8).(*array.Uint64Builder).AppendValues([]uint64{0, 1, math.MaxUint64}, nil)
	f(9).(*array.Float32Builder).AppendValues([]float32{0.1, float32(math.Inf(-1)), math.MaxFloat32}, nil)
	f(10).(*array.Float64Builder).AppendValues([]float64{0.1, math.NaN(), -1e-300}, nil)
	f(11).(*array.Decimal128Builder).AppendValues([]decimal128.Num{
		dec("-1234567890123456789012345678901234.5678", 38, 4), dec("0", 38, 4), dec("1.5", 38, 4)}, nil)
	f(12).(*array.StringBuilder).AppendValues([]string{"plain", "", "a,b \"q\"\nnew line, ünïcode"}, nil)
	f(13).(*array.BinaryBuilder).AppendValues([][]byte{{0, 1, 2, 255}, {}, []byte("x")}, nil)
	f(14).(*array.Date32Builder).AppendValues([]arrow.Date32{-719162, 0, 2932896}, nil) // 0001-01-01, 1970-01-01, 9999-12-31
	f(15).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{-1, 0, 1700000000}, nil)
	f(16).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{-1, 1, 1700000000123}, nil)
	f(17).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{-62135596800000000, 1, 1700000000123456}, nil)
	f(18).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{math.MinInt64 + 1, 1, math.MaxInt64}, nil)
	f(19).(*array.DurationBuilder).AppendValues([]arrow.Duration{-5, 0, 86400000}, nil)
	f(20).(*array.Int64Builder).AppendNulls(3)
	for i := 0; i < 20; i++ {
		f(i).AppendNull()
	}
	f(20).AppendNull()
	return b.NewRecordBatch()
}

// render turns batches into text cells, which are exact for every type
// (floats in shortest round-trip form), so equal text means equal data.
func render(t *testing.T, recs []arrow.RecordBatch) []string {
	t.Helper()
	var out []string
	for _, r := range recs {
		for i := 0; i < int(r.NumRows()); i++ {
			var row []string
			for c := 0; c < int(r.NumCols()); c++ {
				v, ok := ValueText(r.Column(c), i)
				if !ok {
					v = "NULL"
				}
				row = append(row, v)
			}
			out = append(out, strings.Join(row, " | "))
		}
	}
	return out
}

type memObject struct{ *bytes.Reader }

func (memObject) Close() error { return nil }

func obj(b []byte) store.Object { return memObject{bytes.NewReader(b)} }

func write(t testing.TB, f Format, schema *arrow.Schema, recs ...arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, f, schema, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pqarrowFile is a Parquet file of rec written by arrow-go's own writer
// (not this package's), with its writer properties.
func pqarrowFile(t testing.TB, rec arrow.RecordBatch, props []parquet.WriterProperty, aprops pqarrow.ArrowWriterProperties) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(rec.Schema(), &buf, parquet.NewWriterProperties(props...), aprops)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readBytes(data []byte, name string, f Format, schema *arrow.Schema, opts Options) ([]arrow.RecordBatch, error) {
	r, err := Open(obj(data), name, f, schema, opts)
	if err != nil {
		return nil, err
	}
	return ReadAll(r)
}

func release(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}

func TestRoundTripAllFormats(t *testing.T) {
	for _, f := range []Format{Parquet, CSV, JSONL, Arrow, ArrowStream} {
		t.Run(f.String(), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rec := sampleBatch(mem)
			defer rec.Release()
			data := write(t, f, allTypes, rec)
			got, err := readBytes(data, "x", f, allTypes, Options{Mem: mem, BatchRows: 2})
			if err != nil {
				t.Fatal(err)
			}
			defer release(got)
			want := render(t, []arrow.RecordBatch{rec})
			have := render(t, got)
			if strings.Join(want, "\n") != strings.Join(have, "\n") {
				t.Errorf("round trip differs:\nwant:\n%s\nhave:\n%s", strings.Join(want, "\n"), strings.Join(have, "\n"))
			}
			for _, g := range got {
				if !g.Schema().Equal(allTypes) {
					t.Errorf("schema %s", g.Schema())
				}
			}
			if len(got) != 2 && f != Arrow && f != ArrowStream { // IPC keeps the file's batches
				t.Errorf("BatchRows 2 gave %d batches for 4 rows", len(got))
			}
		})
	}
}

func TestEmptyInputs(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	cases := map[string]struct {
		f    Format
		data []byte
	}{
		"csv empty file":    {CSV, nil},
		"csv header only":   {CSV, []byte("b,i8\n")},
		"jsonl empty file":  {JSONL, nil},
		"jsonl blank lines": {JSONL, []byte("\n  \n")},
		"parquet no rows":   {Parquet, write(t, Parquet, allTypes)},
		"ipc no batches":    {Arrow, write(t, Arrow, allTypes)},
		"stream no batches": {Arrow, write(t, ArrowStream, allTypes)},
	}
	for name, c := range cases {
		schema := allTypes
		if c.f == CSV {
			schema = arrow.NewSchema(allTypes.Fields()[:2], nil)
		}
		got, err := readBytes(c.data, "x", c.f, schema, Options{Mem: mem})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(got) != 0 {
			t.Errorf("%s: %d batches", name, len(got))
		}
	}
}

func TestCSVOutputGolden(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "dec", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Float64Builder).AppendValues([]float64{1, 0.1, 1e7, 1234567.5, 0.001, 1e-4, math.Copysign(0, -1), math.NaN(), math.Inf(1), 123456789, 1.0 / 3}, nil)
	b.Field(1).(*array.Float32Builder).AppendValues([]float32{1, 0.1, 1e7, 1234567.5, 0.001, 1e-4, float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(-1)), 16777216, 1.0 / 3}, nil)
	b.Field(2).(*array.Decimal128Builder).AppendValues([]decimal128.Num{
		dec("1.5", 10, 2), dec("0", 10, 2), dec("-0.05", 10, 2), dec("12345678.9", 10, 2), dec("-1", 10, 2),
		dec("0.01", 10, 2), dec("100", 10, 2), dec("1e2", 10, 2), dec("99999999.99", 10, 2), dec("-99999999.99", 10, 2), dec("7", 10, 2)}, nil)
	b.Field(3).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{0, 1, 1500000, -1, 1700000000123456, 1700000000120000,
		1700000000000000, -62135596800000000, 253402300799999999, 86400000000, 500}, nil)
	b.Field(4).(*array.Date32Builder).AppendValues([]arrow.Date32{0, 1, -1, 19000, 2932896, -719162, 59, 60, 11016, 10957, 365}, nil)
	b.Field(5).(*array.StringBuilder).AppendValues([]string{"plain", "", "a,b", `say "hi"`, "two\nlines", " lead", "ünï", "x", "y", "z", "w"}, nil)
	for i := 0; i < 6; i++ {
		b.Field(i).AppendNull()
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	got := string(write(t, CSV, schema, rec))
	want := `f64,f32,dec,ts,d,s
1.0,1.0,1.50,1970-01-01 00:00:00,1970-01-01,plain
0.1,0.1,0.00,1970-01-01 00:00:00.000001,1970-01-02,""
1.0E7,1.0E7,-0.05,1970-01-01 00:00:01.5,1969-12-31,"a,b"
1234567.5,1234567.5,12345678.90,1969-12-31 23:59:59.999999,2022-01-08,"say ""hi"""
0.001,0.001,-1.00,2023-11-14 22:13:20.123456,9999-12-31,"two
lines"
1.0E-4,1.0E-4,0.01,2023-11-14 22:13:20.12,0001-01-01, lead
-0.0,-0.0,100.00,2023-11-14 22:13:20,1970-03-01,ünï
NaN,NaN,100.00,0001-01-01 00:00:00,1970-03-02,x
Infinity,-Infinity,99999999.99,9999-12-31 23:59:59.999999,2000-02-29,y
1.23456789E8,1.6777216E7,-99999999.99,1970-01-02 00:00:00,2000-01-01,z
0.3333333333333333,0.33333334,7.00,1970-01-01 00:00:00.0005,1971-01-01,w
,,,,,
`
	if got != want {
		t.Errorf("CSV output:\n%s\nwant:\n%s", got, want)
	}
	// And it reads back to the same values.
	back, err := readBytes([]byte(got), "golden.csv", CSV, schema, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer release(back)
	if a, b := render(t, []arrow.RecordBatch{rec}), render(t, back); strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("golden CSV reads back differently:\n%s\n---\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}

func TestJSONLOutputGolden(t *testing.T) {
	rec := sampleBatch(memory.DefaultAllocator)
	defer rec.Release()
	small := arrow.NewSchema(allTypes.Fields()[9:14], nil)
	cols := rec.Columns()[9:14]
	r := array.NewRecordBatch(small, cols, rec.NumRows())
	defer r.Release()
	got := string(write(t, JSONL, small, r))
	want := `{"f32":0.1,"f64":0.1,"dec":-1234567890123456789012345678901234.5678,"s":"plain","bin":"AAEC/w=="}
{"f32":"-Infinity","f64":"NaN","dec":0.0000,"s":"","bin":""}
{"f32":3.4028235E38,"f64":-1.0E-300,"dec":1.5000,"s":"a,b \"q\"\nnew line, ünïcode","bin":"eA=="}
{"f32":null,"f64":null,"dec":null,"s":null,"bin":null}
`
	if got != want {
		t.Errorf("JSONL output:\n%s\nwant:\n%s", got, want)
	}
}

func TestAppendFloat(t *testing.T) {
	cases := []struct {
		v    float64
		bits int
		want string
	}{
		{1, 64, "1.0"}, {100, 64, "100.0"}, {0.5, 64, "0.5"}, {9999999, 64, "9999999.0"}, {1e7, 64, "1.0E7"},
		{0.001, 64, "0.001"}, {0.00099, 64, "9.9E-4"}, {1.5e300, 64, "1.5E300"}, {-2.5e-10, 64, "-2.5E-10"},
		{math.MaxFloat64, 64, "1.7976931348623157E308"}, {5e-324, 64, "5.0E-324"}, {12.345, 64, "12.345"},
		{float64(float32(0.1)), 32, "0.1"}, {float64(float32(3.14159)), 32, "3.14159"},
	}
	for _, c := range cases {
		if got := string(AppendFloat(nil, c.v, c.bits)); got != c.want {
			t.Errorf("AppendFloat(%v, %d) = %s, want %s", c.v, c.bits, got, c.want)
		}
	}
}

func TestCSVReadDialect(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	o := CSVOptions{Header: false, Delimiter: ';', Quote: '\'', Escape: '\\', Nulls: []string{"NA", ""}}
	data := "\xef\xbb\xbf1;'it''s'\r\n2;NA\r\nNA;'NA'\n\n3;'a\\'b;c'\n4;\n"
	got, err := readBytes([]byte(data), "d.csv", CSV, schema, Options{CSV: &o})
	if err != nil {
		t.Fatal(err)
	}
	defer release(got)
	want := "1 | it's\n2 | NULL\nNULL | NA\n3 | a'b;c\n4 | NULL"
	if have := strings.Join(render(t, got), "\n"); have != want {
		t.Errorf("got\n%s\nwant\n%s", have, want)
	}

	// Header: matched by name and case, extra columns ignored, any order.
	data = "Extra,NAME,ID\nx,bob,1\ny,\"\",2\n"
	got, err = readBytes([]byte(data), "h.csv", CSV, schema, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer release(got)
	if have := strings.Join(render(t, got), "\n"); have != "1 | bob\n2 | " {
		t.Errorf("header mapping: %q", have)
	}

	// One column: a blank line is a NULL row, not skipped.
	one := arrow.NewSchema(schema.Fields()[1:], nil)
	got, err = readBytes([]byte("name\na\n\n\"\"\n"), "one.csv", CSV, one, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer release(got)
	if have := strings.Join(render(t, got), "\n"); have != "a\nNULL\n" {
		t.Errorf("single column: %q", have)
	}
}

func TestParseCSVOptions(t *testing.T) {
	o, err := ParseCSVOptions([][2]string{{"header", "false"}, {"delimiter", `\t`}, {"null", "NA"}, {"null", "-"}})
	if err != nil || o.Header || o.Delimiter != '\t' || strings.Join(o.Nulls, ",") != "NA,-" {
		t.Errorf("got %+v %v", o, err)
	}
	if _, err := ParseCSVOptions([][2]string{{"delimiter", ";;"}}); err == nil {
		t.Error("two-character delimiter accepted")
	}
	if _, err := ParseCSVOptions([][2]string{{"bogus", "1"}}); err == nil || !strings.Contains(err.Error(), `unknown csv option "bogus"`) {
		t.Errorf("unknown option: %v", err)
	}
}

func TestCSVErrors(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "price", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	typed := func(name string, dt arrow.DataType) *arrow.Schema {
		return arrow.NewSchema([]arrow.Field{{Name: name, Type: dt, Nullable: true}}, nil)
	}
	cases := []struct {
		schema *arrow.Schema
		data   string
		want   string
	}{
		{schema, "id,price,note\n1,10,a\n2,12x,b\n", `in.csv:3:2: column price: want int64, got "12x"`},
		{schema, "id,price,note\n1,10,a\n2,12,b,extra\n", `in.csv:3:4: want 3 fields, got 4`},
		{schema, "id,price,note\n1,10\n", `in.csv:2:2: want 3 fields, got 2`},
		{schema, "id,price,note\n1,10,\"multi\nline\"\n,3,x\n", `in.csv:4:1: column id: NULL in a NOT NULL column`},
		{schema, "id,price,note\n1,10,\"open\n2,3,x\n", `in.csv:2:3: quoted field not terminated before the end of the file`},
		{schema, "id,price,note\n1,10,ab\"c\n", `in.csv:2:3: quote character '"' inside an unquoted field (quote the whole field and double the quote)`},
		{schema, "id,price,note\n1,10,\"ab\"c\n", `in.csv:2:3: unexpected 'c' after closing quote (want ',' or end of line)`},
		{schema, "id,note\n1,x\n", `in.csv:1: column price: not in the header (header has: id, note)`},
		{schema, "id,price,note\n1,9223372036854775808,x\n", `in.csv:2:2: column price: want int64, got "9223372036854775808" (out of range)`},
		{typed("v", arrow.PrimitiveTypes.Int8), "v\n127\n128\n", `in.csv:3:1: column v: want int8, got "128" (out of range)`},
		{typed("v", arrow.PrimitiveTypes.Uint16), "v\n-1\n", `in.csv:2:1: column v: want uint16, got "-1" (negative)`},
		{typed("v", &arrow.Decimal128Type{Precision: 5, Scale: 2}), "v\n1.5\n1.234\n", `in.csv:3:1: column v: want decimal(5,2), got "1.234" (more than 2 fractional digits)`},
		{typed("v", &arrow.Decimal128Type{Precision: 5, Scale: 2}), "v\n1000.5\n", `in.csv:2:1: column v: want decimal(5,2), got "1000.5" (more than 5 digits)`},
		{typed("v", &arrow.TimestampType{Unit: arrow.Millisecond}), "v\n2024-01-01 00:00:00.0001\n", `in.csv:2:1: column v: want timestamp(ms), got "2024-01-01 00:00:00.0001" (finer than ms)`},
		{typed("v", arrow.FixedWidthTypes.Date32), "v\n2024-02-30\n", `in.csv:2:1: column v: want date32, got "2024-02-30" (want YYYY-MM-DD)`},
		{typed("v", arrow.FixedWidthTypes.Boolean), "v\nyes\n", `in.csv:2:1: column v: want bool, got "yes"`},
		{typed("v", arrow.BinaryTypes.String), "v\n\xff\n", `in.csv:2:1: column v: want string, got "\xff" (invalid UTF-8)`},
		{typed("v", arrow.PrimitiveTypes.Float64), "v\n1.5.2\n", `in.csv:2:1: column v: want float64, got "1.5.2"`},
	}
	for _, c := range cases {
		recs, err := readBytes([]byte(c.data), "in.csv", CSV, c.schema, Options{})
		release(recs)
		if err == nil {
			t.Errorf("%q: no error, want %s", c.data, c.want)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("%q:\n got: %s\nwant: %s", c.data, err, c.want)
		}
		var de *DataError
		if !errors.As(err, &de) {
			t.Errorf("%q: error is %T, want *DataError", c.data, err)
		}
	}
}

func TestJSONLErrors(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "price", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
	}, nil)
	good := "{\"id\": 1, \"price\": \"12\", \"ts\": 1000, \"other\": [1,2]}\n\n{\"ID\":2,\"ts\":\"2024-01-01 00:00:00.5\"}\n"
	got, err := readBytes([]byte(good), "in.jsonl", JSONL, schema, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if have := strings.Join(render(t, got), "\n"); have != "1 | 12 | 1970-01-01 00:00:01\n2 | NULL | 2024-01-01 00:00:00.5" {
		t.Errorf("got %q", have)
	}
	release(got)
	cases := []struct{ data, want string }{
		{"{\"id\":1}\n{\"id\":2, \"price\": \"12x\"}\n", `in.jsonl:2:19: column price: want int64, got "12x"`},
		{"{\"id\":1, \"price\": 1.5}\n", `in.jsonl:1:19: column price: want int64, got "1.5"`},
		{"{\"id\":1, \"price\": true}\n", `in.jsonl:1:19: column price: want int64, got true`},
		{"{\"price\": 1}\n", `in.jsonl:1: column id: missing in a NOT NULL column`},
		{"{\"id\": null}\n", `in.jsonl:1:8: column id: NULL in a NOT NULL column`},
		{"{\"id\": 1,}\n", `in.jsonl:1:10: invalid JSON: invalid character '}' looking for beginning of object key string`},
		{"[1]\n", `in.jsonl:1:1: want a JSON object per line`},
		{"{\"id\": 1\n", `in.jsonl:1:9: invalid JSON: unexpected end of line`},
	}
	for _, c := range cases {
		recs, err := readBytes([]byte(c.data), "in.jsonl", JSONL, schema, Options{})
		release(recs)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got: %v\nwant: %s", c.data, err, c.want)
		}
	}
}

func oneColumn(t *testing.T, f Format, name string, arr arrow.Array) []byte {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: name, Type: arr.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
	defer rec.Release()
	return write(t, f, schema, rec)
}

func TestSchemaMismatchAndCasts(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	fb := array.NewFloat64Builder(mem)
	fb.AppendValues([]float64{1.5}, nil)
	floats := fb.NewArray()
	defer floats.Release()
	ib := array.NewInt32Builder(mem)
	ib.AppendValues([]int32{-3, 7}, []bool{true, false})
	ints := ib.NewArray()
	defer ints.Release()
	tb := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Millisecond})
	tb.Append(1500)
	tss := tb.NewArray()
	defer tss.Release()
	db := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 5, Scale: 2})
	db.Append(dec("123.45", 5, 2))
	decs := db.NewArray()
	defer decs.Release()

	want := func(name string, dt arrow.DataType, nullable bool) *arrow.Schema {
		return arrow.NewSchema([]arrow.Field{{Name: name, Type: dt, Nullable: nullable}}, nil)
	}
	for _, f := range []Format{Parquet, Arrow} {
		// Not lossless: an error naming file, column and both types.
		data := oneColumn(t, f, "price", floats)
		_, err := readBytes(data, "data/p.file", f, want("price", arrow.PrimitiveTypes.Int64, true), Options{Mem: mem})
		if err == nil || err.Error() != "data/p.file: column price: file has float64, schema declares int64 (not a lossless cast)" {
			t.Errorf("%s: %v", f, err)
		}
		var se *SchemaError
		if !errors.As(err, &se) || se.FileType != "float64" || se.Want != "int64" {
			t.Errorf("%s: %#v", f, err)
		}
		_, err = readBytes(data, "data/p.file", f, want("qty", arrow.PrimitiveTypes.Int64, true), Options{Mem: mem})
		if err == nil || err.Error() != "data/p.file: column qty: not in the file (file has: price)" {
			t.Errorf("%s: %v", f, err)
		}
		// Lossless casts.
		check := func(arr arrow.Array, to arrow.DataType, wantText string) {
			t.Helper()
			got, err := readBytes(oneColumn(t, f, "C", arr), "x", f, want("c", to, true), Options{Mem: mem})
			if err != nil {
				t.Errorf("%s %s -> %s: %v", f, arr.DataType(), to, err)
				return
			}
			defer release(got)
			if have := strings.Join(render(t, got), ","); have != wantText {
				t.Errorf("%s %s -> %s: %s, want %s", f, arr.DataType(), to, have, wantText)
			}
		}
		check(ints, arrow.PrimitiveTypes.Int64, "-3,NULL")
		check(ints, arrow.PrimitiveTypes.Float64, "-3.0,NULL")
		check(ints, &arrow.Decimal128Type{Precision: 12, Scale: 2}, "-3.00,NULL")
		check(tss, &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, "1970-01-01 00:00:01.5")
		check(decs, &arrow.Decimal128Type{Precision: 10, Scale: 4}, "123.4500")
		// A coarser unit: only whole values.
		_, err = readBytes(oneColumn(t, f, "c", tss), "t", f, want("c", &arrow.TimestampType{Unit: arrow.Second}, true), Options{Mem: mem})
		if err == nil || err.Error() != "t:1: column c: value 1500 is not a whole number of timestamp(s)" {
			t.Errorf("%s: %v", f, err)
		}
		// Lossy types: refused before reading.
		_, err = readBytes(oneColumn(t, f, "c", decs), "d", f, want("c", &arrow.Decimal128Type{Precision: 4, Scale: 2}, true), Options{Mem: mem})
		if err == nil || err.Error() != "d: column c: file has decimal(5,2), schema declares decimal(4,2) (not a lossless cast)" {
			t.Errorf("%s: %v", f, err)
		}
		// NOT NULL declared, NULL found: the row is named.
		_, err = readBytes(oneColumn(t, f, "c", ints), "n", f, want("c", arrow.PrimitiveTypes.Int32, false), Options{Mem: mem})
		if err == nil || err.Error() != "n:2: column c: NULL in a NOT NULL column" {
			t.Errorf("%s: %v", f, err)
		}
	}
	// Corrupt files are errors, not panics.
	for _, f := range []Format{Parquet, Arrow} {
		_, err := readBytes([]byte("not a file at all"), "junk", f, want("c", arrow.PrimitiveTypes.Int32, true), Options{Mem: mem})
		if err == nil || !strings.HasPrefix(err.Error(), "junk: not a readable") {
			t.Errorf("%s junk: %v", f, err)
		}
	}
}

func TestTypeStrings(t *testing.T) {
	for _, f := range allTypes.Fields() {
		s := TypeString(f.Type)
		back, err := ParseType(s)
		if err != nil || !arrow.TypeEqual(back, f.Type) {
			t.Errorf("%s: ParseType(%q) = %v, %v", f.Name, s, back, err)
		}
	}
	if s := TypeString(&arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "Europe/Oslo"}); s != `timestamp(ns, "Europe/Oslo")` {
		t.Errorf("got %s", s)
	}
	enc := EncodeSchema(allTypes)
	back, err := DecodeSchema(enc)
	if err != nil || !back.Equal(allTypes) {
		t.Errorf("schema round trip: %v %v", back, err)
	}
}

func TestGlob(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"data/b.csv", "data/a.csv", "data/_SUCCESS", "data/.tmp.csv", "data/sub/c.csv", "data/sub/deeper/d.csv", "other/e.json"} {
		full := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte("x"), 0o644)
	}
	names := func(files []File) string {
		var out []string
		for _, f := range files {
			out = append(out, f.Name)
		}
		return strings.Join(out, " ")
	}
	cases := []struct {
		pats []string
		want string
	}{
		{[]string{"data/*.csv"}, "data/a.csv data/b.csv"},
		{[]string{"data/b.csv", "data/*.csv"}, "data/a.csv data/b.csv"},
		{[]string{"data/**/*.csv"}, "data/a.csv data/b.csv data/sub/c.csv data/sub/deeper/d.csv"},
		{[]string{"data/sub"}, "data/sub/c.csv data/sub/deeper/d.csv"},
		{[]string{"data/_*"}, "data/_SUCCESS"},
		{[]string{"./other/*.json", "data/sub/*/d.csv"}, "data/sub/deeper/d.csv other/e.json"},
	}
	for _, c := range cases {
		files, err := Glob(root, c.pats)
		if err != nil {
			t.Errorf("%v: %v", c.pats, err)
			continue
		}
		if got := names(files); got != c.want {
			t.Errorf("%v = %s, want %s", c.pats, got, c.want)
		}
	}
	if _, err := Glob(root, []string{"data/*.csv", "nope/*.csv"}); err == nil || !strings.Contains(err.Error(), `source pattern "nope/*.csv" matched no files`) {
		t.Errorf("no match: %v", err)
	}
	if _, err := Glob(root, []string{"data/[.csv"}); err == nil {
		t.Error("bad pattern accepted")
	}
	abs, err := Glob(root, []string{filepath.Join(root, "data", "a.csv")})
	if err != nil || len(abs) != 1 || abs[0].Name != filepath.Join(root, "data", "a.csv") {
		t.Errorf("absolute: %v %v", abs, err)
	}
}

func TestReadGlobsNamesFile(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "in"), 0o755)
	os.WriteFile(filepath.Join(root, "in", "1.csv"), []byte("v\n1\n2\n"), 0o644)
	os.WriteFile(filepath.Join(root, "in", "2.csv"), []byte("v\n3\nfour\n"), 0o644)
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)
	r, err := ReadGlobs(root, []string{"in/*.csv"}, CSV, schema, Options{})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ReadAll(r)
	release(recs)
	if err == nil || err.Error() != `in/2.csv:3:1: column v: want int32, got "four"` {
		t.Errorf("got %v", err)
	}
}

func TestParseTimestampForms(t *testing.T) {
	cases := map[string]string{
		"2024-01-02":                       "2024-01-02 00:00:00",
		"2024-01-02T03:04":                 "2024-01-02 03:04:00",
		"2024-01-02 03:04:05.123456789":    "2024-01-02 03:04:05.123456789",
		"2024-01-02T03:04:05Z":             "2024-01-02 03:04:05",
		"2024-01-02T03:04:05+02:00":        "2024-01-02 01:04:05",
		"2024-01-02 03:04:05 -0130":        "2024-01-02 04:34:05",
		"2024-01-02 03:04:05 UTC":          "2024-01-02 03:04:05",
		"1969-12-31 23:59:59.999999999999": "",
		"2024-13-01":                       "",
		"2024-01-02 24:00:00":              "",
		"2024-01-02 ":                      "",
	}
	for in, want := range cases {
		v, err := ParseTimestamp(in, arrow.Nanosecond)
		got := ""
		if err == nil {
			got = string(AppendTimestamp(nil, v, arrow.Nanosecond))
		}
		if got != want {
			t.Errorf("ParseTimestamp(%q) = %q (%v), want %q", in, got, err, want)
		}
	}
}

func ExampleDataError() {
	err := &DataError{File: "data/bids.csv", Row: 3, Col: 2, Column: "price", Msg: `want int64, got "12x"`}
	fmt.Println(err)
	// Output: data/bids.csv:3:2: column price: want int64, got "12x"
}

var _ io.Reader = memObject{}

// Spark writes timestamps as INT96 by default; they read as nanoseconds and
// fit a microsecond column when whole.
func TestParquetInt96Timestamps(t *testing.T) {
	us := &arrow.TimestampType{Unit: arrow.Microsecond}
	schema := arrow.NewSchema([]arrow.Field{{Name: "ts", Type: us, Nullable: true}}, nil)
	b := array.NewTimestampBuilder(memory.DefaultAllocator, us)
	b.AppendValues([]arrow.Timestamp{1700000000123456, -1}, nil)
	b.AppendNull()
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, 3)
	defer rec.Release()
	data := pqarrowFile(t, rec, nil, pqarrow.NewArrowWriterProperties(pqarrow.WithDeprecatedInt96Timestamps(true)))
	got, err := readBytes(data, "spark.parquet", Parquet, schema, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer release(got)
	if have := strings.Join(render(t, got), ","); have != "2023-11-14 22:13:20.123456,1969-12-31 23:59:59.999999,NULL" {
		t.Errorf("got %s", have)
	}
}
