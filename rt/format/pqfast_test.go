package format

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// pqCase is one way of writing a Parquet file with pqarrow's writer.
type pqCase struct {
	rows, group int
	nulls       string // "none", "some" or "all": NULLs of the nullable columns
	dict        bool
	v2          bool // data pages v2
	codec       compress.Compression
	pageSize    int64 // data page size; 0: the writer's default
	dictLimit   int64 // dictionary page size limit (past it, pages fall back to PLAIN); 0: default
	version     parquet.Version
	extra       []parquet.WriterProperty
}

func (c pqCase) String() string {
	return fmt.Sprintf("rows=%d group=%d nulls=%s dict=%v v2=%v codec=%s page=%d dictLimit=%d version=%s",
		c.rows, c.group, c.nulls, c.dict, c.v2, c.codec, c.pageSize, c.dictLimit, c.version)
}

// pqColumn is a column of the generated files: its field, and whether the
// fast decoder is meant to decode it.
type pqColumn struct {
	field arrow.Field
	fast  bool
}

var pqColumns = []pqColumn{
	{arrow.Field{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, true},
	{arrow.Field{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, true},
	{arrow.Field{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true}, true},
	{arrow.Field{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true}, true},
	{arrow.Field{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}, true},
	{arrow.Field{Name: "few", Type: arrow.BinaryTypes.String, Nullable: true}, true}, // four distinct strings
	{arrow.Field{Name: "bin", Type: arrow.BinaryTypes.Binary, Nullable: true}, true},
	{arrow.Field{Name: "ts_ms", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, Nullable: true}, true},
	{arrow.Field{Name: "ts_us", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true}, true},
	{arrow.Field{Name: "ts_ns", Type: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "Europe/Paris"}, Nullable: true}, true},
	{arrow.Field{Name: "d32", Type: arrow.FixedWidthTypes.Date32, Nullable: true}, true},
	{arrow.Field{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true}, true},
	{arrow.Field{Name: "i16", Type: arrow.PrimitiveTypes.Int16, Nullable: true}, true},
	{arrow.Field{Name: "u8", Type: arrow.PrimitiveTypes.Uint8, Nullable: true}, true},
	{arrow.Field{Name: "u16", Type: arrow.PrimitiveTypes.Uint16, Nullable: true}, true},
	{arrow.Field{Name: "u32", Type: arrow.PrimitiveTypes.Uint32, Nullable: true}, true},
	{arrow.Field{Name: "u64", Type: arrow.PrimitiveTypes.Uint64, Nullable: true}, true},
	{arrow.Field{Name: "t32", Type: arrow.FixedWidthTypes.Time32ms, Nullable: true}, true},
	{arrow.Field{Name: "t64", Type: arrow.FixedWidthTypes.Time64us, Nullable: true}, true},
	{arrow.Field{Name: "req_i64", Type: arrow.PrimitiveTypes.Int64}, true},
	{arrow.Field{Name: "req_s", Type: arrow.BinaryTypes.String}, true},
	{arrow.Field{Name: "req_f64", Type: arrow.PrimitiveTypes.Float64}, true},
	// read by pqarrow
	{arrow.Field{Name: "flag", Type: arrow.FixedWidthTypes.Boolean, Nullable: true}, false},
	{arrow.Field{Name: "list", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true}, false},
	{arrow.Field{Name: "dec", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true}, false},
	{arrow.Field{Name: "large", Type: arrow.BinaryTypes.LargeString, Nullable: true}, false},
}

var fewStrings = []string{"apple", "", "google", "a somewhat longer string than the others"}

// pqRecord is a batch of rows rows of pqColumns.
func pqRecord(rows int, nulls string, seed uint64) arrow.RecordBatch {
	var fields []arrow.Field
	for _, c := range pqColumns {
		fields = append(fields, c.field)
	}
	schema := arrow.NewSchema(fields, nil)
	rnd := rand.New(rand.NewPCG(seed, 7))
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	// NULLs: none, all, or random ones mixed with long runs (both RLE and
	// bit-packed level runs)
	isNull := func(i int) bool {
		switch nulls {
		case "all":
			return true
		case "some":
			if (i/500)%3 == 1 {
				return (i/100)%2 == 0 // long runs of NULLs and values
			}
			return rnd.IntN(5) == 0
		}
		return false
	}
	str := func() string {
		n := rnd.IntN(20)
		if rnd.IntN(10) == 0 {
			n = 0
		}
		var sb strings.Builder
		for range n {
			sb.WriteByte(byte('a' + rnd.IntN(26)))
		}
		return sb.String()
	}
	small := func() int64 { // low cardinality now and then, for dictionaries
		if rnd.IntN(2) == 0 {
			return int64(rnd.IntN(10))
		}
		return rnd.Int64() - rnd.Int64()
	}
	for i := range rows {
		for j, c := range pqColumns {
			fb := b.Field(j)
			if c.field.Nullable && isNull(i) {
				fb.AppendNull()
				continue
			}
			switch fb := fb.(type) {
			case *array.Int32Builder:
				fb.Append(int32(small()))
			case *array.Int64Builder:
				fb.Append(small())
			case *array.Float32Builder:
				fb.Append(float32(small()) / 3)
			case *array.Float64Builder:
				fb.Append(float64(small()) / 7)
			case *array.StringBuilder:
				if c.field.Name == "few" {
					fb.Append(fewStrings[rnd.IntN(len(fewStrings))])
				} else {
					fb.Append(str())
				}
			case *array.BinaryBuilder:
				fb.Append([]byte(str()))
			case *array.TimestampBuilder:
				fb.Append(arrow.Timestamp(1_700_000_000_000 + small()%1_000_000_000))
			case *array.Date32Builder:
				fb.Append(arrow.Date32(19000 + rnd.IntN(1000)))
			case *array.Int8Builder:
				fb.Append(int8(small()))
			case *array.Int16Builder:
				fb.Append(int16(small()))
			case *array.Uint8Builder:
				fb.Append(uint8(small()))
			case *array.Uint16Builder:
				fb.Append(uint16(small()))
			case *array.Uint32Builder:
				fb.Append(uint32(small()))
			case *array.Uint64Builder:
				fb.Append(uint64(small()))
			case *array.Time32Builder:
				fb.Append(arrow.Time32(rnd.IntN(86_400_000)))
			case *array.Time64Builder:
				fb.Append(arrow.Time64(rnd.Int64N(86_400_000_000)))
			case *array.BooleanBuilder:
				fb.Append(rnd.IntN(2) == 0)
			case *array.ListBuilder:
				fb.Append(true)
				for range rnd.IntN(3) {
					fb.ValueBuilder().(*array.Int64Builder).Append(small())
				}
			case *array.Decimal128Builder:
				fb.Append(decimal128.FromI64(small() % 1_000_000))
			case *array.LargeStringBuilder:
				fb.Append(str())
			default:
				panic(fmt.Sprintf("no generator for %T", fb))
			}
		}
	}
	return b.NewRecordBatch()
}

// pqWrite writes rec with c's settings.
func pqWrite(t testing.TB, rec arrow.RecordBatch, c pqCase) []byte {
	t.Helper()
	props := []parquet.WriterProperty{
		parquet.WithMaxRowGroupLength(int64(c.group)),
		parquet.WithDictionaryDefault(c.dict),
		parquet.WithCompression(c.codec),
		parquet.WithVersion(c.version),
	}
	if c.v2 {
		props = append(props, parquet.WithDataPageVersion(parquet.DataPageV2))
	}
	if c.pageSize > 0 {
		props = append(props, parquet.WithDataPageSize(c.pageSize), parquet.WithBatchSize(64))
	}
	if c.dictLimit > 0 {
		props = append(props, parquet.WithDictionaryPageSizeLimit(c.dictLimit))
	}
	props = append(props, c.extra...)
	return pqarrowFile(t, rec, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
}

// readDicts are the columns pqOpen reads as dictionaries when asked to
// (as string bounds do, rowfilter.go).
var readDicts = []string{"s", "few", "bin", "req_s", "large"}

// pqOpen opens data for both decoders: pqarrow's reader of every field
// (the byte array columns as dictionaries when readDict), and the fast
// reader of the same fields (nil when it decodes none), whose buffers come
// from mem.
func pqOpen(t testing.TB, data []byte, mem memory.Allocator, readDict bool) (*pqarrow.FileReader, *fastReader, []int) {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	props := pqarrow.ArrowReadProperties{BatchSize: 1 << 20}
	if readDict {
		for _, name := range readDicts {
			props.SetReadDict(pf.MetaData().Schema.ColumnIndexByName(name), true)
		}
	}
	fr, err := pqarrow.NewFileReader(pf, props, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	var order, leaves []int
	for fi := range fr.Manifest.Fields {
		order = append(order, fi)
		leaves = fieldLeaves(&fr.Manifest.Fields[fi], leaves)
	}
	return fr, newFastReader("x.parquet", bytes.NewReader(data), int64(len(data)), pf.MetaData(), fr, order, mem), leaves
}

// sameTables fails unless got has want's schema and equal columns.
func sameTables(t testing.TB, about string, want, got arrow.Table) {
	t.Helper()
	if !want.Schema().Equal(got.Schema()) {
		t.Fatalf("%s: schema\n%s\nwant\n%s", about, got.Schema(), want.Schema())
	}
	if want.NumRows() != got.NumRows() {
		t.Fatalf("%s: %d rows, want %d", about, got.NumRows(), want.NumRows())
	}
	for i := range int(want.NumCols()) {
		w, err := array.Concatenate(want.Column(i).Data().Chunks(), memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		g, err := array.Concatenate(got.Column(i).Data().Chunks(), memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		if !arrow.TypeEqual(w.DataType(), g.DataType()) || !array.Equal(w, g) || w.NullN() != g.NullN() {
			t.Errorf("%s: column %s differs:\n got %v\nwant %v", about, want.Schema().Field(i).Name, trim(g), trim(w))
		}
		w.Release()
		g.Release()
	}
}

func trim(a arrow.Array) string {
	if a.Len() > 20 {
		a = array.NewSlice(a, 0, 20)
		defer a.Release()
	}
	return fmt.Sprint(a)
}

// checkFast reads every row group of data through both decoders and
// requires the same tables; it fails when a column meant for the fast
// decoder was left to pqarrow (unless slowOK, or a column read as a
// dictionary whose chunk is not all dictionary-encoded), and checks that
// the fast decoder's buffers are all released. It returns how many chunks
// read as dictionaries the fast decoder decoded.
func checkFast(t *testing.T, about string, data []byte, slowOK, readDict bool) (dicts int) {
	t.Helper()
	if readDict {
		about += " read-dict"
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	fr, fast, leaves := pqOpen(t, data, mem, readDict)
	if fast == nil {
		t.Fatalf("%s: no column for the fast decoder", about)
	}
	ctx := context.Background()
	s := getScratch()
	defer putScratch(s)
	md := fr.ParquetReader().MetaData()
	for g := range md.NumRowGroups() {
		want, err := fr.ReadRowGroups(ctx, leaves, []int{g})
		if err != nil {
			t.Fatal(err)
		}
		got, err := fast.readGroup(ctx, g)
		if err != nil {
			t.Fatalf("%s: row group %d: %v", about, g, err)
		}
		sameTables(t, fmt.Sprintf("%s, row group %d", about, g), want, got)
		want.Release()
		got.Release()
		// every column meant for the fast decoder is decoded by it
		for i := range fast.cols {
			c := &fast.cols[i]
			meant := false
			for _, pc := range pqColumns {
				meant = meant || pc.field.Name == c.field.Name && pc.fast
			}
			if (c.kind != kindNone) != meant {
				t.Errorf("%s: column %s: fast decoder %v, want %v", about, c.field.Name, c.kind != kindNone, meant)
			}
			if c.kind == kindNone {
				continue
			}
			cc, err := md.RowGroup(g).ColumnChunk(c.leaf)
			if err != nil {
				t.Fatal(err)
			}
			a, err := fast.decodeChunk(s, c, cc, int(md.RowGroup(g).NumRows()))
			if err != nil {
				if !(slowOK || c.kind == kindDict) || !errors.Is(err, errUnsupported) {
					t.Errorf("%s: row group %d, column %s: %v", about, g, c.field.Name, err)
				}
				continue
			}
			if c.kind == kindDict {
				dicts++
			}
			a.Release()
		}
	}
	return dicts
}

// Every supported type, with and without NULLs, dictionaries, v1 and v2
// pages, each codec, small pages, several row groups: the fast decoder's
// tables are pqarrow's.
func TestParquetFastSameAsPqarrow(t *testing.T) {
	var cases []pqCase
	for _, nulls := range []string{"none", "some", "all"} {
		for _, dict := range []bool{false, true} {
			for _, v2 := range []bool{false, true} {
				for _, codec := range []compress.Compression{compress.Codecs.Uncompressed, compress.Codecs.Snappy, compress.Codecs.Zstd} {
					cases = append(cases, pqCase{rows: 2500, group: 1000, nulls: nulls, dict: dict, v2: v2, codec: codec, version: parquet.V2_LATEST})
				}
				cases = append(cases,
					pqCase{rows: 3000, group: 1200, nulls: nulls, dict: dict, v2: v2, codec: compress.Codecs.Snappy, pageSize: 512, version: parquet.V2_LATEST},
					pqCase{rows: 3000, group: 3000, nulls: nulls, dict: dict, v2: v2, codec: compress.Codecs.Zstd, pageSize: 2048, dictLimit: 256, version: parquet.V2_LATEST},
					pqCase{rows: 700, group: 300, nulls: nulls, dict: dict, v2: v2, codec: compress.Codecs.Snappy, version: parquet.V1_0},
				)
			}
		}
	}
	dicts := 0
	for k, c := range cases {
		rec := pqRecord(c.rows, c.nulls, uint64(k))
		data := pqWrite(t, rec, c)
		rec.Release()
		checkFast(t, c.String(), data, false, false)
		n := checkFast(t, c.String(), data, false, true)
		if c.dict && c.dictLimit == 0 && c.nulls != "all" && n == 0 {
			t.Errorf("%s: no chunk read as a dictionary by the fast decoder", c)
		}
		dicts += n
	}
	t.Logf("%d chunks read as dictionaries by the fast decoder", dicts)
}

// Chunks the fast decoder does not decode (other codecs, DELTA encodings)
// are read by pqarrow, and the tables are still the same.
func TestParquetFastFallsBack(t *testing.T) {
	for _, c := range []pqCase{
		{rows: 2000, group: 800, nulls: "some", codec: compress.Codecs.Gzip, version: parquet.V2_LATEST},
		{rows: 2000, group: 800, nulls: "some", codec: compress.Codecs.Lz4Raw, v2: true, version: parquet.V2_LATEST},
		{rows: 2000, group: 800, nulls: "some", codec: compress.Codecs.Brotli, version: parquet.V2_LATEST},
		{rows: 2000, group: 800, nulls: "some", codec: compress.Codecs.Snappy, version: parquet.V2_LATEST, extra: []parquet.WriterProperty{
			parquet.WithEncodingFor("i64", parquet.Encodings.DeltaBinaryPacked),
			parquet.WithEncodingFor("i32", parquet.Encodings.DeltaBinaryPacked),
			parquet.WithEncodingFor("s", parquet.Encodings.DeltaLengthByteArray),
			parquet.WithEncodingFor("req_s", parquet.Encodings.DeltaByteArray),
			parquet.WithEncodingFor("f64", parquet.Encodings.ByteStreamSplit),
		}},
	} {
		rec := pqRecord(c.rows, c.nulls, 1)
		data := pqWrite(t, rec, c)
		rec.Release()
		checkFast(t, c.String(), data, true, false)
		checkFast(t, c.String(), data, true, true)
	}
}

// A column read as a dictionary (a string bound, rowfilter.go) is decoded
// fast too, as pqarrow's dictionary array; a column the fast decoder does
// not decode is read by pqarrow in the same row group; the table is
// pqarrow's.
func TestParquetFastMixesWithReadDict(t *testing.T) {
	rec := pqRecord(3000, "some", 3)
	data := pqWrite(t, rec, pqCase{rows: 3000, group: 1000, dict: true, codec: compress.Codecs.Snappy, version: parquet.V2_LATEST})
	rec.Release()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	props := pqarrow.ArrowReadProperties{BatchSize: 1 << 20}
	props.SetReadDict(5, true) // few
	fr, err := pqarrow.NewFileReader(pf, props, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	order := []int{1, 5, 22} // i64, few, flag
	var leaves []int
	for _, fi := range order {
		leaves = fieldLeaves(&fr.Manifest.Fields[fi], leaves)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	fast := newFastReader("x.parquet", bytes.NewReader(data), int64(len(data)), pf.MetaData(), fr, order, mem)
	if k := []fastKind{fast.cols[0].kind, fast.cols[1].kind, fast.cols[2].kind}; k[0] != kindFixed || k[1] != kindDict || k[2] != kindNone {
		t.Fatalf("kinds %v, want fixed, dictionary, none", k)
	}
	for g := range 3 {
		want, err := fr.ReadRowGroups(context.Background(), leaves, []int{g})
		if err != nil {
			t.Fatal(err)
		}
		got, err := fast.readGroup(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		if got.Column(1).DataType().ID() != arrow.DICTIONARY || got.Column(2).DataType().ID() != arrow.BOOL {
			t.Errorf("columns few and flag are %s and %s, want a dictionary and bool", got.Column(1).DataType(), got.Column(2).DataType())
		}
		sameTables(t, fmt.Sprintf("row group %d", g), want, got)
		want.Release()
		got.Release()
	}
}

// Through the whole reader, with and without the fast decoder and the
// buffer pool, every batch is the same; the string bound's row filter
// still applies.
func TestParquetFastReaderSameBatches(t *testing.T) {
	// row groups big enough for pooled buffers (bufferPool.minPooled),
	// decoded one at a time so that each reuses its predecessor's
	rec := pqRecord(40_000, "some", 4)
	defer rec.Release()
	for _, dict := range []bool{true, false} {
		data := pqWrite(t, rec, pqCase{rows: 40_000, group: 9_000, dict: dict, codec: compress.Codecs.Snappy, pageSize: 16 << 10, version: parquet.V2_LATEST})
		readSameBatches(t, fmt.Sprintf("dict %v", dict), data)
	}
}

func readSameBatches(t *testing.T, about string, data []byte) {
	schema, sel := declared()
	for _, bounds := range [][]Bound{nil, {{Col: 5, Op: "=", Text: "google"}, {Col: 1, Op: ">", Value: 0}}} {
		read := func(opts Options) []string {
			opts.Columns, opts.Threads, opts.BatchRows, opts.Bounds = sel, 1, 7000, bounds
			r, err := Open(obj(data), "x.parquet", Parquet, schema, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var out []string
			for {
				rec, err := r.Next()
				if err == io.EOF {
					return out
				}
				if err != nil {
					t.Fatal(err)
				}
				for _, i := range sel {
					col := rec.Column(i)
					out = append(out, fmt.Sprint(col))
					// the fast decoder zeroes the values under NULLs, even
					// in reused buffers (pqarrow leaves some: its spaced
					// decoding moves values away from them)
					if fw, ok := col.DataType().(arrow.FixedWidthDataType); ok && col.NullN() > 0 && !opts.noFastParquet {
						w := fw.BitWidth() / 8
						vals := col.Data().Buffers()[1].Bytes()[col.Data().Offset()*w:]
						for r := range col.Len() {
							if col.IsNull(r) && !bytes.Equal(vals[r*w:(r+1)*w], make([]byte, w)) {
								t.Fatalf("%s: column %s: row %d is NULL over % x", about, schema.Field(i).Name, r, vals[r*w:(r+1)*w])
							}
						}
					}
				}
				rec.Release()
			}
		}
		want := read(Options{noFastParquet: true})
		for _, reuse := range []bool{false, true} {
			for pass := range 2 {
				got := read(Options{Reuse: reuse})
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%s, bounds %v, reuse %v, pass %d: batches differ from pqarrow's", about, bounds, reuse, pass)
				}
			}
		}
	}
}

// declared is the schema a pipeline may declare of the generated files:
// the columns of the types readers produce; sel are those the fast
// decoder reads.
func declared() (*arrow.Schema, []int) {
	var fields []arrow.Field
	var sel []int
	for _, c := range pqColumns {
		if Supported(c.field.Type) {
			if c.fast {
				sel = append(sel, len(fields))
			}
			fields = append(fields, c.field)
		}
	}
	return arrow.NewSchema(fields, nil), sel
}

// A corrupt chunk is an error naming the file and the column, never a
// panic.
func TestParquetFastCorruptChunk(t *testing.T) {
	rec := pqRecord(2000, "some", 5)
	schema, _ := declared()
	data := pqWrite(t, rec, pqCase{rows: 2000, group: 2000, codec: compress.Codecs.Snappy, version: parquet.V2_LATEST})
	rec.Release()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	cc, err := pf.MetaData().RowGroup(0).ColumnChunk(1) // i64
	if err != nil {
		t.Fatal(err)
	}
	start, size := cc.DataPageOffset(), cc.TotalCompressedSize()
	for _, c := range []struct {
		about string
		spoil func(b []byte)
		want  string
	}{
		{"a bad page header", func(b []byte) { copy(b[start:], bytes.Repeat([]byte{0xff}, 12)) }, "malformed page header"},
		{"a header cut short", func(b []byte) { clear(b[start+3 : start+size]) }, "column i64"},
		{"a cut page", func(b []byte) { clear(b[start+size/2 : start+size]) }, "column i64"},
		{"spoiled values", func(b []byte) {
			for i := start + 40; i < start+size; i += 7 {
				b[i] ^= 0x5a
			}
		}, "column i64"},
	} {
		bad := bytes.Clone(data)
		c.spoil(bad)
		_, err := readBytes(bad, "bad.parquet", Parquet, schema, Options{Columns: []int{1}})
		if err == nil {
			t.Errorf("%s: read without an error", c.about)
			continue
		}
		if !strings.HasPrefix(err.Error(), "bad.parquet: ") || !strings.Contains(err.Error(), "column i64") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q, want one naming bad.parquet, column i64 and %q", c.about, err, c.want)
		}
	}
}

// The thrift reader parses what pqarrow's writer writes: every kind of
// page header, statistics skipped.
func TestReadPageHeader(t *testing.T) {
	rec := pqRecord(3000, "some", 6)
	for _, v2 := range []bool{false, true} {
		data := pqWrite(t, rec, pqCase{rows: 3000, group: 3000, dict: true, v2: v2, codec: compress.Codecs.Snappy, pageSize: 1024, version: parquet.V2_LATEST})
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		rg := pf.MetaData().RowGroup(0)
		cc, _ := rg.ColumnChunk(4) // s
		start := cc.DictionaryPageOffset()
		end := start + cc.TotalCompressedSize()
		pr, err := pf.RowGroup(0).GetColumnPageReader(4)
		if err != nil {
			t.Fatal(err)
		}
		off := start
		for pr.Next() {
			p := pr.Page()
			h, n, err := readPageHeader(data[off:end])
			if err != nil {
				t.Fatalf("v2 %v: page at %d: %v", v2, off, err)
			}
			if int(h.typ) != int(p.Type()) || int(h.numValues) != int(p.NumValues()) || int(h.encoding) != int(p.Encoding()) {
				t.Errorf("v2 %v: page at %d: type %d, %d values, encoding %d; pqarrow says %v, %d, %v",
					v2, off, h.typ, h.numValues, h.encoding, p.Type(), p.NumValues(), p.Encoding())
			}
			off += int64(n) + int64(h.compressed)
		}
		if off != end {
			t.Errorf("v2 %v: pages end at %d, the chunk at %d", v2, off, end)
		}
	}
	rec.Release()
	for _, bad := range [][]byte{nil, {0x15}, {0x15, 0x00, 0x15}, {0xff, 0xff, 0xff}, {0x19, 0xfc}} {
		if _, _, err := readPageHeader(bad); err == nil {
			t.Errorf("header % x parsed", bad)
		}
	}
}

// fuzzSeed is a real column chunk of a generated file, with its column,
// codec and rows.
type fuzzSeed struct {
	b                []byte
	col, codec, rows int
}

// fuzzSeeds are the seeds of FuzzParquetPage.
func fuzzSeeds(t testing.TB) []fuzzSeed {
	var out []fuzzSeed
	for k, c := range []pqCase{
		{rows: 300, group: 300, nulls: "some", dict: true, codec: compress.Codecs.Snappy, pageSize: 256, version: parquet.V2_LATEST},
		{rows: 300, group: 300, nulls: "some", v2: true, codec: compress.Codecs.Zstd, pageSize: 256, version: parquet.V2_LATEST},
		{rows: 300, group: 300, nulls: "none", codec: compress.Codecs.Uncompressed, version: parquet.V2_LATEST},
	} {
		rec := pqRecord(c.rows, c.nulls, uint64(k))
		data := pqWrite(t, rec, c)
		rec.Release()
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		rg := pf.MetaData().RowGroup(0)
		for _, col := range []int{0, 1, 4, 11, 19, 20} {
			cc, _ := rg.ColumnChunk(col)
			start := cc.DataPageOffset()
			if cc.HasDictionaryPage() {
				start = min(start, cc.DictionaryPageOffset())
			}
			codec := map[compress.Compression]int{compress.Codecs.Uncompressed: 0, compress.Codecs.Snappy: 1, compress.Codecs.Zstd: 2}[cc.Compression()]
			out = append(out, fuzzSeed{data[start : start+cc.TotalCompressedSize()], col, codec, c.rows})
			if col == 4 || col == 20 {
				out = append(out, fuzzSeed{data[start : start+cc.TotalCompressedSize()], col, codec | 4, c.rows})
			}
		}
	}
	return out
}

// The page header reader and the page decoder never panic, whatever the
// bytes, and release what they allocated when they fail. The seeds are
// chunks of a few KB: run with -fuzzminimizetime 10x, else the fuzzer
// spends up to a minute minimizing each new input.
func FuzzParquetPage(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s.b, uint8(s.col), uint8(s.codec), uint16(s.rows-1))
	}
	f.Fuzz(fuzzBody(f))
}

// fuzzBody decodes b as the chunk of a column (col picks it) of rows%2048+1
// rows compressed with codec%3 (one of three), its byte arrays read as
// dictionaries when codec&4.
func fuzzBody(tb testing.TB) func(t *testing.T, b []byte, col, codec uint8, rows uint16) {
	rec := pqRecord(10, "some", 1)
	data := pqWrite(tb, rec, pqCase{rows: 10, group: 10, codec: compress.Codecs.Snappy, version: parquet.V2_LATEST})
	rec.Release()
	var frs [2]*pqarrow.FileReader
	frs[0], _, _ = pqOpen(tb, data, nil, false)
	frs[1], _, _ = pqOpen(tb, data, nil, true)
	md := frs[0].ParquetReader().MetaData()
	s := &scratch{}
	return func(t *testing.T, b []byte, col, codec uint8, rows uint16) {
		readPageHeader(b)
		leaf := int(col) % md.Schema.NumColumns()
		fr := frs[codec>>2&1]
		fi := -1
		for i := range fr.Manifest.Fields {
			if fr.Manifest.Fields[i].ColIndex == leaf {
				fi = i
			}
		}
		if fi < 0 {
			return
		}
		c := fastColumnOf(leaf, md.Schema.Column(leaf), &fr.Manifest.Fields[fi])
		if c.kind == kindNone {
			return
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		ck := &chunk{f: &fastReader{name: "fuzz", mem: mem}, c: &c, s: s, n: int(rows%2048) + 1,
			codec: []compress.Compression{compress.Codecs.Uncompressed, compress.Codecs.Snappy, compress.Codecs.Zstd}[codec%4%3]}
		a, err := ck.decode(b, 1<<20)
		if err != nil {
			ck.free()
		} else {
			if a.Len() != ck.n {
				t.Fatalf("%d rows, want %d", a.Len(), ck.n)
			}
			a.Release()
		}
		mem.AssertSize(t, 0)
	}
}

// A dictionary with a repeated value is left to pqarrow (whose dictionary
// builder would drop the repeat): distinct tells.
func TestScratchDistinct(t *testing.T) {
	s := &scratch{}
	for _, c := range []struct {
		vals []string
		want bool
	}{{nil, true}, {[]string{"a", "", "b"}, true}, {[]string{"a", "b", "a"}, false}, {[]string{"", ""}, false}} {
		s.dictOffs, s.dictData = []int32{0}, nil
		for _, v := range c.vals {
			s.dictData = append(s.dictData, v...)
			s.dictOffs = append(s.dictOffs, int32(len(s.dictData)))
		}
		if got := s.distinct(len(c.vals)); got != c.want || len(s.seen) != 0 {
			t.Errorf("distinct(%q) = %v (%d kept), want %v", c.vals, got, len(s.seen), c.want)
		}
	}
}
