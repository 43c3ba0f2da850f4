package pqread_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/decimal256"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/format/pqread"
)

// The oracle of these tests is arrow-go's pqarrow reader (a test-only
// import): pqread must give the same schema, manifest and arrays for every
// file, written by pqarrow's writer with its options drawn at random, or by
// rt/format's writer, and fail where it fails.

// randType is a random Arrow type, nested up to depth more levels; model
// keeps to the types rt/format writes (format.Supported).
func randType(r *rand.Rand, depth int, model bool) arrow.DataType {
	flat := []arrow.DataType{
		arrow.FixedWidthTypes.Boolean, arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16,
		arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint8,
		arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64,
		arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64, arrow.BinaryTypes.String,
		arrow.BinaryTypes.Binary, arrow.FixedWidthTypes.Date32,
		&arrow.Decimal128Type{Precision: 1 + int32(r.IntN(38)), Scale: 0},
		&arrow.TimestampType{Unit: arrow.TimeUnit(r.IntN(4))},
		&arrow.TimestampType{Unit: arrow.TimeUnit(r.IntN(4)), TimeZone: "UTC"},
	}
	if !model {
		flat = append(flat, arrow.BinaryTypes.LargeString, arrow.BinaryTypes.LargeBinary,
			arrow.FixedWidthTypes.Float16, arrow.FixedWidthTypes.Date64,
			arrow.FixedWidthTypes.Time32ms, arrow.FixedWidthTypes.Time64us, arrow.FixedWidthTypes.Time64ns,
			&arrow.FixedSizeBinaryType{ByteWidth: 1 + r.IntN(20)},
			&arrow.Decimal256Type{Precision: 1 + int32(r.IntN(76)), Scale: 0},
			&arrow.TimestampType{Unit: arrow.TimeUnit(r.IntN(4)), TimeZone: "Europe/Oslo"})
	}
	if d, ok := flat[len(flat)-1].(*arrow.Decimal128Type); ok {
		d.Scale = int32(r.IntN(int(d.Precision) + 1))
	}
	if depth == 0 || r.IntN(3) > 0 {
		t := flat[r.IntN(len(flat))]
		if d, ok := t.(*arrow.Decimal128Type); ok {
			t = &arrow.Decimal128Type{Precision: d.Precision, Scale: int32(r.IntN(int(d.Precision) + 1))}
		}
		return t
	}
	kinds := 3
	if !model {
		kinds = 5
	}
	switch r.IntN(kinds) {
	case 0:
		return arrow.ListOfField(arrow.Field{Name: "element", Type: randType(r, depth-1, model), Nullable: r.IntN(3) > 0})
	case 1:
		keys := []arrow.DataType{arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64}
		return arrow.MapOf(keys[r.IntN(len(keys))], randType(r, depth-1, model))
	case 2:
		fs := make([]arrow.Field, 1+r.IntN(3))
		for i := range fs {
			fs[i] = arrow.Field{Name: fmt.Sprintf("f%d", i), Type: randType(r, depth-1, model), Nullable: r.IntN(3) > 0}
		}
		return arrow.StructOf(fs...)
	case 3:
		return arrow.LargeListOfField(arrow.Field{Name: "element", Type: randType(r, depth-1, model), Nullable: r.IntN(3) > 0})
	}
	return arrow.FixedSizeListOfField(int32(1+r.IntN(3)), arrow.Field{Name: "element", Type: randType(r, depth-1, model), Nullable: r.IntN(3) > 0})
}

// randSchema is a random schema of up to 6 columns; outside the model, a
// top-level column may be a dictionary of strings.
func randSchema(r *rand.Rand, model bool) *arrow.Schema {
	fs := make([]arrow.Field, 1+r.IntN(6))
	for i := range fs {
		fs[i] = arrow.Field{Name: fmt.Sprintf("c%d", i), Type: randType(r, 3, model), Nullable: r.IntN(4) > 0}
		if !model && r.IntN(8) == 0 {
			fs[i].Type = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
		}
	}
	return arrow.NewSchema(fs, nil)
}

// randRecord is rows random rows of schema: NULLs where a field is
// nullable (nulls in 0..3 of 4 rows, drawn per column), empty and NULL
// lists and maps, values of every magnitude their type holds.
func randRecord(r *rand.Rand, schema *arrow.Schema, rows int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i, f := range schema.Fields() {
		nulls := r.IntN(4)
		for range rows {
			appendRand(r, b.Field(i), f.Type, f.Nullable, nulls)
		}
	}
	return b.NewRecordBatch()
}

// appendRand appends one random value of type t to b (NULL with a
// probability of nulls in 4 when nullable).
func appendRand(r *rand.Rand, b array.Builder, t arrow.DataType, nullable bool, nulls int) {
	if nullable && r.IntN(4) < nulls {
		b.AppendNull()
		return
	}
	n := r.Int64()
	if r.IntN(4) == 0 {
		n = int64(r.IntN(9)) - 4 // a few values repeat: dictionaries
	}
	switch b := b.(type) {
	case *array.BooleanBuilder:
		b.Append(n&1 == 1)
	case *array.Int8Builder:
		b.Append(int8(n))
	case *array.Int16Builder:
		b.Append(int16(n))
	case *array.Int32Builder:
		b.Append(int32(n))
	case *array.Int64Builder:
		b.Append(n)
	case *array.Uint8Builder:
		b.Append(uint8(n))
	case *array.Uint16Builder:
		b.Append(uint16(n))
	case *array.Uint32Builder:
		b.Append(uint32(n))
	case *array.Uint64Builder:
		b.Append(uint64(n))
	case *array.Float16Builder:
		b.Append(float16.New(float32(n % 1000)))
	case *array.Float32Builder:
		b.Append(float32(n) / 7)
	case *array.Float64Builder:
		b.Append(float64(n) / 7)
	case *array.StringBuilder:
		b.Append(strings.Repeat("ab", int(uint64(n)%5)) + fmt.Sprint(n%50))
	case *array.LargeStringBuilder:
		b.Append(fmt.Sprint(n % 50))
	case *array.BinaryBuilder:
		v := []byte(fmt.Sprint(n % 1000))
		b.Append(v[:uint64(n)%uint64(len(v)+1)])
	case *array.FixedSizeBinaryBuilder:
		v := make([]byte, t.(*arrow.FixedSizeBinaryType).ByteWidth)
		for i := range v {
			v[i] = byte(n >> (i % 8))
		}
		b.Append(v)
	case *array.Date32Builder:
		b.Append(arrow.Date32(n % 100000))
	case *array.Date64Builder:
		b.Append(arrow.Date64(n % 100000 * 86400000))
	case *array.Time32Builder:
		b.Append(arrow.Time32(uint64(n) % 86400000))
	case *array.Time64Builder:
		b.Append(arrow.Time64(uint64(n) % 86400000000))
	case *array.TimestampBuilder:
		b.Append(arrow.Timestamp(n % (1 << 50)))
	case *array.Decimal128Builder:
		p := t.(*arrow.Decimal128Type).Precision
		b.Append(decimal128.FromI64(n % pow10(min(p, 18))))
	case *array.Decimal256Builder:
		p := t.(*arrow.Decimal256Type).Precision
		b.Append(decimal256.FromI64(n % pow10(min(p, 18))))
	case *array.BinaryDictionaryBuilder:
		if err := b.AppendString(fmt.Sprint(n % 20)); err != nil {
			panic(err)
		}
	case *array.ListBuilder:
		appendElems(r, b, b.ValueBuilder(), t.(*arrow.ListType).ElemField(), r.IntN(4))
	case *array.LargeListBuilder:
		appendElems(r, b, b.ValueBuilder(), t.(*arrow.LargeListType).ElemField(), r.IntN(4))
	case *array.FixedSizeListBuilder:
		lt := t.(*arrow.FixedSizeListType)
		b.Append(true)
		for range lt.Len() {
			appendRand(r, b.ValueBuilder(), lt.Elem(), lt.ElemField().Nullable, 1)
		}
	case *array.MapBuilder:
		mt := t.(*arrow.MapType)
		b.Append(true)
		for range r.IntN(4) {
			appendRand(r, b.KeyBuilder(), mt.KeyType(), false, 0)
			appendRand(r, b.ItemBuilder(), mt.ItemType(), true, 1)
		}
	case *array.StructBuilder:
		b.Append(true)
		for i, f := range t.(*arrow.StructType).Fields() {
			appendRand(r, b.FieldBuilder(i), f.Type, f.Nullable, 1)
		}
	default:
		panic(fmt.Sprintf("no random values of %s", t))
	}
}

// appendElems appends a list of n random elements of field f.
func appendElems(r *rand.Rand, b interface{ Append(bool) }, vb array.Builder, f arrow.Field, n int) {
	b.Append(true)
	for range n {
		appendRand(r, vb, f.Type, f.Nullable, 1)
	}
}

func pow10(p int32) int64 {
	v := int64(1)
	for range p {
		v *= 10
	}
	return v
}

// pqarrowFile writes rec with pqarrow's writer, its options drawn from r:
// dictionary on or off, data page v1 or v2, a codec, format version, pages
// of a few hundred bytes to many KiB, row groups of a few rows or all,
// the Arrow schema stored or not, INT96 timestamps or not, decimals as
// integers or fixed-length bytes. It returns the options, to say what failed.
func pqarrowFile(t *testing.T, r *rand.Rand, rec arrow.RecordBatch) ([]byte, string) {
	t.Helper()
	codecs := []compress.Compression{compress.Codecs.Uncompressed, compress.Codecs.Snappy, compress.Codecs.Zstd, compress.Codecs.Gzip}
	dict, v2, codec := r.IntN(2) == 0, r.IntN(2) == 0, codecs[r.IntN(len(codecs))]
	version := []parquet.Version{parquet.V1_0, parquet.V2_4, parquet.V2_6}[r.IntN(3)]
	page, group := int64(64+r.IntN(8192)), int64(1+r.IntN(int(rec.NumRows())+1))
	store, int96, decInt := r.IntN(3) > 0, r.IntN(4) == 0, r.IntN(3) == 0
	props := []parquet.WriterProperty{parquet.WithDictionaryDefault(dict), parquet.WithCompression(codec),
		parquet.WithVersion(version), parquet.WithDataPageSize(page), parquet.WithMaxRowGroupLength(group),
		parquet.WithBatchSize(int64(1 + r.IntN(64)))}
	if v2 {
		props = append(props, parquet.WithDataPageVersion(parquet.DataPageV2))
	}
	if decInt {
		props = append(props, parquet.WithStoreDecimalAsInteger(true))
	}
	var aprops []pqarrow.WriterOption
	if store {
		aprops = append(aprops, pqarrow.WithStoreSchema())
	}
	if int96 {
		aprops = append(aprops, pqarrow.WithDeprecatedInt96Timestamps(true))
	}
	about := fmt.Sprintf("pqarrow writer: dict %v, v2 %v, %s, version %s, page %d, group %d, stored schema %v, int96 %v, decimal as int %v",
		dict, v2, codec, version, page, group, store, int96, decInt)
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(rec.Schema(), &buf, parquet.NewWriterProperties(props...), pqarrow.NewArrowWriterProperties(aprops...))
	if err != nil {
		return nil, about + ": " + err.Error()
	}
	if err := w.Write(rec); err != nil {
		w.Close()
		return nil, about + ": " + err.Error()
	}
	if err := w.Close(); err != nil {
		return nil, about + ": " + err.Error()
	}
	return buf.Bytes(), about
}

// formatFile writes rec with rt/format's writer, in batches of up to 300
// rows.
func formatFile(t *testing.T, rec arrow.RecordBatch) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := format.NewWriter(&buf, format.Parquet, rec.Schema(), format.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for off := int64(0); off < rec.NumRows(); off += 300 {
		part := rec.NewSlice(off, min(off+300, rec.NumRows()))
		err := w.Write(part)
		part.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readPlan is how a file is read, alike by both readers: the batch size,
// leaves read as dictionaries or as large types, parallel or not, and a
// subset of the fields and row groups.
type readPlan struct {
	batch           int64
	readDict, large []int
	parallel        bool
	fields, groups  []int
	recordReaderToo bool
}

func randPlan(r *rand.Rand, pf *file.Reader) readPlan {
	p := readPlan{batch: int64(1 + r.IntN(2000)), parallel: r.IntN(2) == 0, recordReaderToo: r.IntN(2) == 0}
	sc := pf.MetaData().Schema
	for i := range sc.NumColumns() {
		if sc.Column(i).PhysicalType() == parquet.Types.ByteArray {
			switch r.IntN(4) {
			case 0:
				p.readDict = append(p.readDict, i)
			case 1:
				p.large = append(p.large, i)
			}
		}
	}
	for i := range sc.Root().NumFields() {
		if r.IntN(3) > 0 {
			p.fields = append(p.fields, i)
		}
	}
	for g := range pf.NumRowGroups() {
		if r.IntN(3) > 0 {
			p.groups = append(p.groups, g)
		}
	}
	return p
}

// readers opens data with pqarrow's reader and pqread's under plan p.
func readers(t *testing.T, data []byte, p readPlan, mem memory.Allocator) (*pqarrow.FileReader, *pqread.FileReader, error, error) {
	t.Helper()
	open := func() *file.Reader {
		pf, err := file.NewParquetReader(bytes.NewReader(data), file.WithReadProps(parquet.NewReaderProperties(mem)))
		if err != nil {
			t.Fatal(err)
		}
		return pf
	}
	want := pqarrow.ArrowReadProperties{BatchSize: p.batch, Parallel: p.parallel}
	got := pqread.ArrowReadProperties{BatchSize: p.batch, Parallel: p.parallel}
	for _, i := range p.readDict {
		want.SetReadDict(i, true)
		got.SetReadDict(i, true)
	}
	for _, i := range p.large {
		want.SetForceLarge(i, true)
		got.SetForceLarge(i, true)
	}
	wfr, werr := pqarrow.NewFileReader(open(), want, mem)
	gfr, gerr := pqread.NewFileReader(open(), got, mem)
	return wfr, gfr, werr, gerr
}

// sameRead fails unless pqread reads data as pqarrow does: the same
// schema (from the footer, FromParquet and the reader's), the same
// manifest, and the same table read whole, by row groups and fields, and
// batch by batch; or both fail.
func sameRead(t *testing.T, about string, data []byte, p readPlan) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	wfr, gfr, werr, gerr := readers(t, data, p, mem)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%s: opening: pqarrow %v, pqread %v", about, werr, gerr)
	}
	if werr != nil {
		return
	}
	defer wfr.ParquetReader().Close()
	defer gfr.ParquetReader().Close()
	md := wfr.ParquetReader().MetaData()
	ws, werr := pqarrow.FromParquet(md.Schema, &pqarrow.ArrowReadProperties{}, md.KeyValueMetadata())
	gs, gerr := pqread.FromParquet(md.Schema, &pqread.ArrowReadProperties{}, md.KeyValueMetadata())
	if (werr == nil) != (gerr == nil) || (werr == nil && !ws.Equal(gs)) || (werr == nil && !sameMetadata(ws, gs)) {
		t.Fatalf("%s: FromParquet: pqread\n%v %v\npqarrow\n%v %v", about, gs, gerr, ws, werr)
	}
	sameManifest(t, about, wfr.Manifest.Fields, gfr.Manifest.Fields)
	ctx := context.Background()
	wt, werr := wfr.ReadTable(ctx)
	gt, gerr := gfr.ReadTable(ctx)
	sameTable(t, about+": ReadTable", wt, gt, werr, gerr)
	wt, werr = wfr.ReadRowGroups(ctx, p.fields, p.groups)
	gt, gerr = gfr.ReadRowGroups(ctx, p.fields, p.groups)
	sameTable(t, fmt.Sprintf("%s: ReadRowGroups(%v, %v)", about, p.fields, p.groups), wt, gt, werr, gerr)
	if p.recordReaderToo {
		sameBatches(t, about, wfr, gfr, p)
	}
}

// sameMetadata reports whether a and b's fields carry the same metadata
// (arrow.Schema.Equal does not compare it), nested fields too.
func sameMetadata(a, b *arrow.Schema) bool {
	return a.Metadata().Equal(b.Metadata()) && sameFieldMetadata(a.Fields(), b.Fields())
}

func sameFieldMetadata(a, b []arrow.Field) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Metadata.Equal(b[i].Metadata) {
			return false
		}
		an, aok := a[i].Type.(arrow.NestedType)
		bn, bok := b[i].Type.(arrow.NestedType)
		if aok != bok || aok && !sameFieldMetadata(an.Fields(), bn.Fields()) {
			return false
		}
	}
	return true
}

// sameManifest fails unless the two manifests map the same fields to the
// same leaves, levels and Arrow fields.
func sameManifest(t *testing.T, about string, want []pqarrow.SchemaField, got []pqread.SchemaField) {
	t.Helper()
	if len(want) != len(got) {
		t.Fatalf("%s: manifest has %d fields, want %d", about, len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if w.ColIndex != g.ColIndex || w.LevelInfo != g.LevelInfo || !w.Field.Equal(*g.Field) ||
			!sameFieldMetadata([]arrow.Field{*w.Field}, []arrow.Field{*g.Field}) || len(w.Children) != len(g.Children) {
			t.Fatalf("%s: manifest field %d: %v %+v %d, want %v %+v %d", about, i, g.Field, g.LevelInfo, g.ColIndex, w.Field, w.LevelInfo, w.ColIndex)
		}
		sameManifest(t, about, w.Children, g.Children)
	}
}

// sameTable fails unless got is want (schema, metadata, every column's
// values and validity), or both reads failed; it releases both.
func sameTable(t *testing.T, about string, want, got arrow.Table, werr, gerr error) {
	t.Helper()
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%s: pqarrow %v, pqread %v", about, werr, gerr)
	}
	if werr != nil {
		return
	}
	defer want.Release()
	defer got.Release()
	if !want.Schema().Equal(got.Schema()) || !sameMetadata(want.Schema(), got.Schema()) || want.NumRows() != got.NumRows() {
		t.Fatalf("%s: schema\n%s (%d rows)\nwant\n%s (%d rows)", about, got.Schema(), got.NumRows(), want.Schema(), want.NumRows())
	}
	for i := range int(want.NumCols()) {
		if !array.ChunkedEqual(want.Column(i).Data(), got.Column(i).Data()) {
			t.Fatalf("%s: column %s differs:\n%v\nwant\n%v", about, want.Schema().Field(i).Name, got.Column(i).Data().Chunks(), want.Column(i).Data().Chunks())
		}
	}
}

// sameBatches fails unless the readers' record readers give the same
// batches, one for one.
func sameBatches(t *testing.T, about string, wfr *pqarrow.FileReader, gfr *pqread.FileReader, p readPlan) {
	t.Helper()
	ctx := context.Background()
	wr, werr := wfr.GetRecordReader(ctx, p.fields, p.groups)
	gr, gerr := gfr.GetRecordReader(ctx, p.fields, p.groups)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%s: GetRecordReader: pqarrow %v, pqread %v", about, werr, gerr)
	}
	if werr != nil {
		return
	}
	defer wr.Release()
	defer gr.Release()
	for n := 0; ; n++ {
		wok, gok := wr.Next(), gr.Next()
		if wok != gok {
			t.Fatalf("%s: batch %d: pqarrow has one %v, pqread %v (errors %v, %v)", about, n, wok, gok, wr.Err(), gr.Err())
		}
		if !wok {
			if (wr.Err() == nil) != (gr.Err() == nil) {
				t.Fatalf("%s: after batch %d: pqarrow %v, pqread %v", about, n, wr.Err(), gr.Err())
			}
			return
		}
		if !array.RecordEqual(wr.RecordBatch(), gr.RecordBatch()) {
			t.Fatalf("%s: batch %d differs:\n%v\nwant\n%v", about, n, gr.RecordBatch(), wr.RecordBatch())
		}
	}
}

// TestPQReadAsPQArrow: over random schemas of every type and nesting, with
// NULLs at every level, written by pqarrow's writer with random options,
// pqread reads what pqarrow reads.
func TestPQReadAsPQArrow(t *testing.T) {
	seeds := 300
	if testing.Short() {
		seeds = 60
	}
	for seed := range uint64(seeds) {
		checkSeed(t, seed, false)
	}
}

// TestPQReadFormatWriter: the same over files of rt/format's writer, of
// the model's types.
func TestPQReadFormatWriter(t *testing.T) {
	seeds := 200
	if testing.Short() {
		seeds = 40
	}
	for seed := range uint64(seeds) {
		checkSeed(t, seed, true)
	}
}

// checkSeed writes a random record (seed picks it) with pqarrow's writer
// or, for model, rt/format's, and reads it with both readers.
func checkSeed(t *testing.T, seed uint64, model bool) {
	r := rand.New(rand.NewPCG(seed, 22))
	schema := randSchema(r, model)
	rows := r.IntN(1500)
	rec := randRecord(r, schema, rows)
	defer rec.Release()
	var data []byte
	about := fmt.Sprintf("seed %d, %d rows of %s", seed, rows, schema)
	if model {
		data = formatFile(t, rec)
		about += ", rt/format writer"
	} else {
		var how string
		data, how = pqarrowFile(t, r, rec)
		about += ", " + how
		if data == nil {
			return // the writer refuses the combination
		}
	}
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", about, err)
	}
	p := randPlan(r, pf)
	pf.Close()
	sameRead(t, about, data, p)
}

// FuzzPQRead holds pqread to pqarrow over any seed of the random files
// above (pqarrow's writer when model is false, rt/format's when true).
func FuzzPQRead(f *testing.F) {
	f.Add(uint64(1), false)
	f.Add(uint64(2), true)
	f.Fuzz(func(t *testing.T, seed uint64, model bool) {
		checkSeed(t, seed, model)
	})
}
