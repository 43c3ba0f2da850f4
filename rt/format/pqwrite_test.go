package format

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/nordisk/thund/internal/testenv"
)

// everyFlatType is rows of every flat type of the model, nullable (NULL on
// every 7th row) and not, with extreme values, empty strings, a string
// column dictionary-encoded until its dictionary outgrows its page, a
// mostly distinct one (plain), long strings that fill many pages, and a
// dictionary-encoded column of NULLs alone. It
// is cut into batches of uneven sizes, some of them slices at an offset.
func everyFlatType(rows int) []arrow.RecordBatch {
	ts := func(u arrow.TimeUnit, tz string) arrow.DataType { return &arrow.TimestampType{Unit: u, TimeZone: tz} }
	types := []arrow.DataType{
		arrow.FixedWidthTypes.Boolean, arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16,
		arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint8,
		arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64,
		arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, arrow.BinaryTypes.String,
		arrow.BinaryTypes.Binary, arrow.FixedWidthTypes.Date32,
		&arrow.Decimal128Type{Precision: 9, Scale: 2}, &arrow.Decimal128Type{Precision: 38, Scale: 10},
		ts(arrow.Second, ""), ts(arrow.Millisecond, "UTC"), ts(arrow.Microsecond, ""), ts(arrow.Nanosecond, "Europe/Oslo"),
		arrow.FixedWidthTypes.Duration_ns, arrow.FixedWidthTypes.Duration_us,
	}
	var fields []arrow.Field
	for i, t := range types {
		fields = append(fields, arrow.Field{Name: fmt.Sprintf("c%d", i), Type: t, Nullable: true},
			arrow.Field{Name: fmt.Sprintf("r%d", i), Type: t})
	}
	fields = append(fields,
		arrow.Field{Name: "fallback", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "distinct", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "long", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "nulls", Type: arrow.BinaryTypes.String, Nullable: true})
	schema := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	ext := func(i int) int { return i % 5 } // 0: min, 1: max, 2: zero, else ordinary
	pick := func(i int, lo, hi, mid int64) int64 {
		return [...]int64{lo, hi, 0, mid + int64(i), mid - int64(i)}[ext(i)]
	}
	for i := range rows {
		for f := range fields[:2*len(types)] {
			fb := b.Field(f)
			if f%2 == 0 && i%7 == 3 {
				fb.AppendNull()
				continue
			}
			switch fb := fb.(type) {
			case *array.BooleanBuilder:
				fb.Append(i%3 == 0)
			case *array.Int8Builder:
				fb.Append(int8(pick(i, math.MinInt8, math.MaxInt8, 3) % 128))
			case *array.Int16Builder:
				fb.Append(int16(pick(i, math.MinInt16, math.MaxInt16, 300) % 32768))
			case *array.Int32Builder:
				fb.Append(int32(pick(i, math.MinInt32, math.MaxInt32, 1e6)))
			case *array.Int64Builder:
				fb.Append(pick(i, math.MinInt64, math.MaxInt64, 1e12))
			case *array.Uint8Builder:
				fb.Append(uint8(pick(i, 0, math.MaxUint8, 100) & 0xff))
			case *array.Uint16Builder:
				fb.Append(uint16(pick(i, 0, math.MaxUint16, 1000) & 0xffff))
			case *array.Uint32Builder:
				fb.Append(uint32(pick(i, 0, math.MaxUint32, 1e9)))
			case *array.Uint64Builder:
				fb.Append([...]uint64{0, math.MaxUint64, 1 << 63, uint64(i), uint64(i) << 40}[ext(i)])
			case *array.Float32Builder:
				fb.Append([...]float32{-math.MaxFloat32, float32(math.Inf(1)), float32(math.Copysign(0, -1)), float32(i) / 3, -float32(i)}[ext(i)])
			case *array.Float64Builder:
				fb.Append([...]float64{math.Inf(-1), math.MaxFloat64, math.SmallestNonzeroFloat64, float64(i) / 7, -float64(i) * 1e300}[ext(i)])
			case *array.StringBuilder:
				fb.Append([...]string{"", "ÞUND ✓", "a", fmt.Sprintf("s%d", i%50), "zzz"}[ext(i)])
			case *array.BinaryBuilder:
				fb.Append([][]byte{{}, {0, 0xff}, {0xff}, []byte(fmt.Sprint(i % 40)), {0}}[ext(i)])
			case *array.Date32Builder:
				fb.Append(arrow.Date32(pick(i, -719162, 2932896, 19000)))
			case *array.Decimal128Builder:
				p := fb.Type().(*arrow.Decimal128Type).Precision
				top := decimal128.GetMaxValue(p)
				fb.Append([...]decimal128.Num{top.Negate(), top, decimal128.New(0, 0), decimal128.FromI64(int64(i) * 12345 % 1e8), decimal128.FromI64(-int64(i))}[ext(i)])
			case *array.TimestampBuilder:
				lo := int64(-1e15)
				if fb.Type().(*arrow.TimestampType).Unit == arrow.Second {
					lo = -1e12 // times 1000 must fit
				}
				fb.Append(arrow.Timestamp(pick(i, lo, -lo, 1.7e12)))
			case *array.DurationBuilder:
				fb.Append(arrow.Duration(pick(i, math.MinInt64, math.MaxInt64, 5e9)))
			}
		}
		n := 2 * len(types)
		fallback := b.Field(n).(*array.StringBuilder)
		switch {
		case i%11 == 5:
			fallback.AppendNull()
		case i < 70_000: // the first batch repeats: dictionary-encoded
			fallback.Append(fmt.Sprintf("repeated %d", i%13))
		default: // then distinct values overflow the dictionary's page
			fallback.Append(fmt.Sprintf("distinct value number %d", i))
		}
		if i%5 == 0 {
			b.Field(n + 1).AppendNull()
		} else {
			b.Field(n + 1).(*array.StringBuilder).Append(fmt.Sprintf("%x", uint64(i)*0x9e3779b97f4a7c15))
		}
		b.Field(n + 2).(*array.StringBuilder).Append(fmt.Sprintf("%0*d", 20+i%200, i))
		b.Field(n + 3).AppendNull()
	}
	all := b.NewRecordBatch()
	defer all.Release()
	return cutBatches(all)
}

// everyNestedType is rows of nested columns: lists (of numbers, strings,
// structs and lists), maps (to numbers and to lists), structs (with a list,
// and in a struct), each with NULLs, empty lists, NULL elements and NULL
// map values, cut into batches as everyFlatType's are.
func everyNestedType(rows int) []arrow.RecordBatch {
	i64, str := arrow.PrimitiveTypes.Int64, arrow.BinaryTypes.String
	inner := arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "s", Type: str})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: i64},
		{Name: "ints", Type: arrow.ListOf(i64), Nullable: true},
		{Name: "strs", Type: arrow.ListOfNonNullable(str)},
		{Name: "structs", Type: arrow.ListOf(inner), Nullable: true},
		{Name: "lists", Type: arrow.ListOf(arrow.ListOf(arrow.PrimitiveTypes.Int32)), Nullable: true},
		{Name: "m", Type: arrow.MapOf(str, i64), Nullable: true},
		{Name: "ml", Type: arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.ListOf(arrow.FixedWidthTypes.Date32))},
		{Name: "st", Type: arrow.StructOf(
			arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
			arrow.Field{Name: "l", Type: arrow.ListOf(str), Nullable: true},
			arrow.Field{Name: "in", Type: inner, Nullable: true}), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	appendInner := func(sb *array.StructBuilder, i int) {
		if i%9 == 4 {
			sb.AppendNull()
			return
		}
		sb.Append(true)
		if i%4 == 1 {
			sb.FieldBuilder(0).AppendNull()
		} else {
			sb.FieldBuilder(0).(*array.Int32Builder).Append(int32(i))
		}
		sb.FieldBuilder(1).(*array.StringBuilder).Append(fmt.Sprintf("in%d", i%17))
	}
	for i := range rows {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		n := i % 4 // elements per list: 0 (an empty list) to 3
		ints := b.Field(1).(*array.ListBuilder)
		if i%6 == 1 {
			ints.AppendNull()
		} else {
			ints.Append(true)
			for j := range n {
				if j == 1 && i%5 == 0 {
					ints.ValueBuilder().AppendNull()
				} else {
					ints.ValueBuilder().(*array.Int64Builder).Append(int64(i*10 + j))
				}
			}
		}
		strs := b.Field(2).(*array.ListBuilder)
		strs.Append(true)
		for j := range (i + 1) % 3 {
			strs.ValueBuilder().(*array.StringBuilder).Append([]string{"", "ÞUND", fmt.Sprint(i + j)}[j])
		}
		structs := b.Field(3).(*array.ListBuilder)
		if i%8 == 2 {
			structs.AppendNull()
		} else {
			structs.Append(true)
			for j := range n {
				appendInner(structs.ValueBuilder().(*array.StructBuilder), i+j)
			}
		}
		lists := b.Field(4).(*array.ListBuilder)
		if i%7 == 3 {
			lists.AppendNull()
		} else {
			lists.Append(true)
			lb := lists.ValueBuilder().(*array.ListBuilder)
			for j := range n {
				if j == 2 {
					lb.AppendNull()
					continue
				}
				lb.Append(true)
				for k := range j + i%2 {
					lb.ValueBuilder().(*array.Int32Builder).Append(int32(i + k))
				}
			}
		}
		m := b.Field(5).(*array.MapBuilder)
		if i%10 == 9 {
			m.AppendNull()
		} else {
			m.Append(true)
			for j := range n {
				m.KeyBuilder().(*array.StringBuilder).Append(fmt.Sprintf("k%d", j))
				if (i+j)%3 == 0 {
					m.ItemBuilder().AppendNull()
				} else {
					m.ItemBuilder().(*array.Int64Builder).Append(int64(-i * j))
				}
			}
		}
		ml := b.Field(6).(*array.MapBuilder)
		ml.Append(true)
		for j := range (i + 2) % 3 {
			ml.KeyBuilder().(*array.Int32Builder).Append(int32(j))
			vb := ml.ItemBuilder().(*array.ListBuilder)
			if j == 1 && i%2 == 0 {
				vb.AppendNull()
				continue
			}
			vb.Append(true)
			for k := range j {
				vb.ValueBuilder().(*array.Date32Builder).Append(arrow.Date32(i - k))
			}
		}
		st := b.Field(7).(*array.StructBuilder)
		if i%11 == 6 {
			st.AppendNull()
			continue
		}
		st.Append(true)
		if i%3 == 0 {
			st.FieldBuilder(0).AppendNull()
		} else {
			st.FieldBuilder(0).(*array.Float64Builder).Append(float64(i) / 4)
		}
		l := st.FieldBuilder(1).(*array.ListBuilder)
		if i%5 == 2 {
			l.AppendNull()
		} else {
			l.Append(true)
			for j := range n {
				l.ValueBuilder().(*array.StringBuilder).Append(fmt.Sprintf("%0*d", 30+j*40, i))
			}
		}
		appendInner(st.FieldBuilder(2).(*array.StructBuilder), i)
	}
	all := b.NewRecordBatch()
	defer all.Release()
	return cutBatches(all)
}

// cutBatches cuts rec into batches of uneven sizes, all but the first
// slices at an offset.
func cutBatches(rec arrow.RecordBatch) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	rows := int(rec.NumRows())
	for off, k := 0, 0; off < rows; k++ {
		n := min(rows-off, []int{70_000, 1, 50_000, 131_072, 999}[k%5])
		out = append(out, rec.NewSlice(int64(off), int64(off+n)))
		off += n
	}
	return out
}

// writeParquetFile writes batches through the writer (or through pqarrow's
// writer, old) and returns the file.
func writeParquetFile(t *testing.T, batches []arrow.RecordBatch, old bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	writeBatches(t, &buf, batches, old)
	return buf.Bytes()
}

// readBack reads a file whole with rt/format's reader, as schema.
func readBack(t *testing.T, data []byte, schema *arrow.Schema) arrow.Table {
	t.Helper()
	r, err := Open(obj(data), "t.parquet", Parquet, schema, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var recs []arrow.RecordBatch
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		rec.Retain()
		recs = append(recs, rec)
	}
	return array.NewTableFromRecords(schema, recs)
}

// sameTables fails t where a and b differ (NaN equal to NaN).
func sameTables(t *testing.T, what string, a, b arrow.Table) {
	t.Helper()
	if !a.Schema().Equal(b.Schema()) {
		t.Fatalf("%s: schemas differ:\n%s\n%s", what, a.Schema(), b.Schema())
	}
	if a.NumRows() != b.NumRows() {
		t.Fatalf("%s: %d rows, want %d", what, a.NumRows(), b.NumRows())
	}
	for i := range int(a.NumCols()) {
		ca, err := array.Concatenate(a.Column(i).Data().Chunks(), memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		cb, err := array.Concatenate(b.Column(i).Data().Chunks(), memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		if !array.ApproxEqual(ca, cb, array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
			t.Errorf("%s: column %s differs", what, a.Schema().Field(i).Name)
		}
	}
}

// The page encoder's files read back, by rt/format's reader and by
// pqarrow's, as the input and as pqarrow's writer's files of the same rows:
// every flat type, NULLs, extremes, many pages and row groups, a dictionary
// that falls back to plain.
func TestParquetPagesRoundTrip(t *testing.T) {
	forEachData(t, func(t *testing.T, batches []arrow.RecordBatch) {
		schema := batches[0].Schema()
		in := array.NewTableFromRecords(schema, batches)
		defer in.Release()
		data := writeParquetFile(t, batches, false)
		old := writeParquetFile(t, batches, true)

		got := readBack(t, data, schema)
		defer got.Release()
		sameTables(t, "rt/format's reader", got, in)

		read := func(data []byte) arrow.Table {
			tbl, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(data), nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			return tbl
		}
		gotPQ, wantPQ := read(data), read(old)
		defer gotPQ.Release()
		defer wantPQ.Release()
		sameTables(t, "pqarrow's reader", gotPQ, wantPQ)

		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		defer pf.Close()
		if pf.NumRowGroups() != 3 {
			t.Errorf("%d row groups, want 3", pf.NumRowGroups())
		}
		// Each string column's data pages are encoded as its first batch says,
		// and the dictionary of "fallback" outgrows its page in row group 0.
		for name, want := range map[string][]parquet.Encoding{
			"c11":      {parquet.Encodings.RLEDict},
			"distinct": {parquet.Encodings.Plain},
			"fallback": {parquet.Encodings.Plain, parquet.Encodings.RLEDict},
		} {
			col := pf.MetaData().Schema.ColumnIndexByName(name)
			if col < 0 {
				continue // not in the nested data
			}
			cc, err := pf.MetaData().RowGroup(0).ColumnChunk(col)
			if err != nil {
				t.Fatal(err)
			}
			var got []parquet.Encoding
			for _, e := range cc.EncodingStats() {
				if e.PageType == pqPageData && !slices.Contains(got, e.Encoding) {
					got = append(got, e.Encoding)
				}
			}
			if slices.Sort(got); !slices.Equal(got, want) {
				t.Errorf("column %s: data pages encoded %v, want %v", name, got, want)
			}
		}
		for _, name := range []string{"long", "st.l.list.element"} {
			col := pf.MetaData().Schema.ColumnIndexByName(name)
			if col < 0 {
				continue
			}
			pages, err := pf.RowGroup(0).GetColumnPageReader(col)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for pages.Next() {
				n++
			}
			if n < 5 {
				t.Errorf("column %s: %d pages in row group 0, want many", name, n)
			}
		}
	})
}

// forEachData runs test over everyFlatType's and everyNestedType's
// batches (300,000 rows: three row groups).
func forEachData(t *testing.T, test func(*testing.T, []arrow.RecordBatch)) {
	for _, d := range []struct {
		name string
		gen  func(int) []arrow.RecordBatch
	}{{"flat", everyFlatType}, {"nested", everyNestedType}} {
		t.Run(d.name, func(t *testing.T) {
			batches := d.gen(300_000)
			defer func() {
				for _, b := range batches {
					b.Release()
				}
			}()
			test(t, batches)
		})
	}
}

// The footer of the page encoder's file is the one pqarrow's writer writes
// for the same rows: schema and logical types, key-value metadata (the
// Arrow schema), row groups, and each column chunk's codec, encodings and
// statistics.
func TestParquetFooterAsPQArrow(t *testing.T) {
	forEachData(t, testFooterAsPQArrow)
}

func testFooterAsPQArrow(t *testing.T, batches []arrow.RecordBatch) {
	open := func(data []byte) *metadata.FileMetaData {
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		defer pf.Close()
		return pf.MetaData()
	}
	got, want := open(writeParquetFile(t, batches, false)), open(writeParquetFile(t, batches, true))
	if g, w := got.Schema.String(), want.Schema.String(); g != w {
		t.Errorf("schema:\n%s\nwant\n%s", g, w)
	}
	for i := range want.Schema.NumColumns() {
		g, w := got.Schema.Column(i), want.Schema.Column(i)
		if !g.LogicalType().Equals(w.LogicalType()) || g.ConvertedType() != w.ConvertedType() || g.PhysicalType() != w.PhysicalType() || g.TypeLength() != w.TypeLength() {
			t.Errorf("column %s: %s %s %s, want %s %s %s", w.Name(), g.PhysicalType(), g.LogicalType(), g.ConvertedType(), w.PhysicalType(), w.LogicalType(), w.ConvertedType())
		}
	}
	if !slices.Equal(got.KeyValueMetadata().Keys(), want.KeyValueMetadata().Keys()) || !slices.Equal(got.KeyValueMetadata().Values(), want.KeyValueMetadata().Values()) {
		t.Errorf("key-value metadata differs: %v", got.KeyValueMetadata().Keys())
	}
	if got.GetCreatedBy() != want.GetCreatedBy() || got.Version() != want.Version() || got.NumRows != want.NumRows {
		t.Errorf("created by %q, version %s, %d rows; want %q, %s, %d", got.GetCreatedBy(), got.Version(), got.NumRows, want.GetCreatedBy(), want.Version(), want.NumRows)
	}
	if got.NumRowGroups() != want.NumRowGroups() {
		t.Fatalf("%d row groups, want %d", got.NumRowGroups(), want.NumRowGroups())
	}
	for r := range want.NumRowGroups() {
		grg, wrg := got.RowGroup(r), want.RowGroup(r)
		if grg.NumRows() != wrg.NumRows() {
			t.Errorf("row group %d: %d rows, want %d", r, grg.NumRows(), wrg.NumRows())
		}
		for c := range wrg.NumColumns() {
			gc, err := grg.ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			wc, err := wrg.ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			name := want.Schema.Column(c).Name()
			if gc.Compression() != wc.Compression() || gc.NumValues() != wc.NumValues() {
				t.Errorf("row group %d, column %s: %s, %d values; want %s, %d", r, name, gc.Compression(), gc.NumValues(), wc.Compression(), wc.NumValues())
			}
			if g, w := slices.Sorted(slices.Values(gc.Encodings())), slices.Sorted(slices.Values(wc.Encodings())); !slices.Equal(g, w) {
				t.Errorf("row group %d, column %s: encodings %v, want %v", r, name, g, w)
			}
			gs, err := gc.StatsSet()
			if err != nil {
				t.Fatal(err)
			}
			ws, _ := wc.StatsSet()
			if gs != ws {
				t.Fatalf("row group %d, column %s: statistics set %v, want %v", r, name, gs, ws)
			}
			if !ws {
				continue
			}
			g, _ := gc.Statistics()
			w, _ := wc.Statistics()
			ge, _ := g.Encode()
			we, _ := w.Encode()
			if ge.HasMin != we.HasMin || ge.HasMax != we.HasMax || !bytes.Equal(ge.Min, we.Min) || !bytes.Equal(ge.Max, we.Max) ||
				ge.HasNullCount != we.HasNullCount || ge.NullCount != we.NullCount {
				t.Errorf("row group %d, column %s: statistics %+v, want %+v", r, name, ge, we)
			}
		}
	}
}

// pyarrowCompare reads two Parquet files with pyarrow (Arrow C++'s reader)
// and prints what differs between them: the tables, the Arrow schemas with
// their metadata, the Parquet schemas, the key-value metadata, and each
// column chunk's type, codec, value count and statistics; "same" when
// nothing does.
const pyarrowCompare = `
import sys, pyarrow.parquet as pq
a, b = pq.ParquetFile(sys.argv[1]), pq.ParquetFile(sys.argv[2])
ta, tb = a.read(), b.read()
out = []
if not ta.schema.equals(tb.schema, check_metadata=True): out.append("arrow schema")
out += ["column " + c for c in ta.column_names if not ta[c].equals(tb[c])]
if str(a.schema).split("\n", 1)[1] != str(b.schema).split("\n", 1)[1]: out.append("parquet schema")
ma, mb = a.metadata, b.metadata
if ma.metadata != mb.metadata: out.append("key-value metadata")
if ma.num_row_groups != mb.num_row_groups: out.append("row groups")
def chunk(c):
    s = c.statistics
    mm = (s.min_raw, s.max_raw) if s.has_min_max else None
    return (c.path_in_schema, c.physical_type, c.compression, c.num_values, mm, s.null_count, str(s.logical_type), s.converted_type)
for r in range(min(ma.num_row_groups, mb.num_row_groups)):
    if ma.row_group(r).num_rows != mb.row_group(r).num_rows: out.append("rows of row group %d" % r)
    for c in range(ma.num_columns):
        if chunk(ma.row_group(r).column(c)) != chunk(mb.row_group(r).column(c)):
            out.append("row group %d, column %s" % (r, ma.row_group(r).column(c).path_in_schema))
print("\n".join(out) or "same")
`

// Arrow C++'s Parquet reader (pyarrow, from the Iceberg lane's venv) reads
// the page encoder's file as it reads pqarrow's writer's file of the same
// rows: equal tables, schemas, metadata and column chunk statistics.
func TestParquetPagesPyArrow(t *testing.T) {
	py := testenv.PyIceberg(t)
	forEachData(t, func(t *testing.T, batches []arrow.RecordBatch) {
		dir := t.TempDir()
		newPath, oldPath := filepath.Join(dir, "new.parquet"), filepath.Join(dir, "old.parquet")
		for path, old := range map[string]bool{newPath: false, oldPath: true} {
			if err := os.WriteFile(path, writeParquetFile(t, batches, old), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out, err := exec.Command(py, "-c", pyarrowCompare, newPath, oldPath).CombinedOutput()
		if err != nil {
			t.Fatalf("pyarrow: %v\n%s", err, out)
		}
		if got := strings.TrimSpace(string(out)); got != "same" {
			t.Errorf("pyarrow reads the files differently:\n%s", got)
		}
	})
}
