package pqfast

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/klauspost/compress/zstd"
	"github.com/nordisk/thund/internal/fuzzbudget"
	"github.com/nordisk/thund/rt/format/internal/pqgen"
	"github.com/nordisk/thund/rt/format/pqread"
)

// readDicts are the columns pqOpen reads as dictionaries when asked to
// (as string bounds do, rowfilter.go).
var readDicts = []string{"s", "few", "bin", "req_s", "large"}

// pqOpen opens data for both decoders: pqarrow's reader of every field
// (the byte array columns as dictionaries when readDict), and the fast
// reader of the same fields (nil when it decodes none), whose buffers come
// from mem.
func pqOpen(t testing.TB, data []byte, mem memory.Allocator, readDict bool) (*pqread.FileReader, *Reader, []int) {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	props := pqread.ArrowReadProperties{BatchSize: 1 << 20}
	if readDict {
		for _, name := range readDicts {
			props.SetReadDict(pf.MetaData().Schema.ColumnIndexByName(name), true)
		}
	}
	fr, err := pqread.NewFileReader(pf, props, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	var order, leaves []int
	for fi := range fr.Manifest.Fields {
		order = append(order, fi)
		leaves = FieldLeaves(&fr.Manifest.Fields[fi], leaves)
	}
	return fr, NewReader("x.parquet", bytes.NewReader(data), int64(len(data)), pf.MetaData(), fr, order, mem), leaves
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
		got, err := fast.ReadRowGroup(ctx, g)
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
			for _, pc := range pqgen.Columns {
				meant = meant || pc.Field.Name == c.field.Name && pc.Fast
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
	var cases []pqgen.Case
	for _, nulls := range []string{"none", "some", "all"} {
		for _, dict := range []bool{false, true} {
			for _, v2 := range []bool{false, true} {
				for _, codec := range []compress.Compression{compress.Codecs.Uncompressed, compress.Codecs.Snappy, compress.Codecs.Zstd} {
					cases = append(cases, pqgen.Case{Rows: 2500, Group: 1000, Nulls: nulls, Dict: dict, V2: v2, Codec: codec, Version: parquet.V2_LATEST})
				}
				cases = append(cases,
					pqgen.Case{Rows: 3000, Group: 1200, Nulls: nulls, Dict: dict, V2: v2, Codec: compress.Codecs.Snappy, PageSize: 512, Version: parquet.V2_LATEST},
					pqgen.Case{Rows: 3000, Group: 3000, Nulls: nulls, Dict: dict, V2: v2, Codec: compress.Codecs.Zstd, PageSize: 2048, DictLimit: 256, Version: parquet.V2_LATEST},
					pqgen.Case{Rows: 700, Group: 300, Nulls: nulls, Dict: dict, V2: v2, Codec: compress.Codecs.Snappy, Version: parquet.V1_0},
				)
			}
		}
	}
	dicts := 0
	for k, c := range cases {
		rec := pqgen.Record(c.Rows, c.Nulls, uint64(k))
		data := pqgen.Write(t, rec, c)
		rec.Release()
		checkFast(t, c.String(), data, false, false)
		n := checkFast(t, c.String(), data, false, true)
		if c.Dict && c.DictLimit == 0 && c.Nulls != "all" && n == 0 {
			t.Errorf("%s: no chunk read as a dictionary by the fast decoder", c)
		}
		dicts += n
	}
	t.Logf("%d chunks read as dictionaries by the fast decoder", dicts)
}

// Chunks the fast decoder does not decode (other codecs, DELTA encodings)
// are read by pqarrow, and the tables are still the same.
func TestParquetFastFallsBack(t *testing.T) {
	for _, c := range []pqgen.Case{
		{Rows: 2000, Group: 800, Nulls: "some", Codec: compress.Codecs.Gzip, Version: parquet.V2_LATEST},
		{Rows: 2000, Group: 800, Nulls: "some", Codec: compress.Codecs.Lz4Raw, V2: true, Version: parquet.V2_LATEST},
		{Rows: 2000, Group: 800, Nulls: "some", Codec: compress.Codecs.Brotli, Version: parquet.V2_LATEST},
		{Rows: 2000, Group: 800, Nulls: "some", Codec: compress.Codecs.Snappy, Version: parquet.V2_LATEST, Extra: []parquet.WriterProperty{
			parquet.WithEncodingFor("i64", parquet.Encodings.DeltaBinaryPacked),
			parquet.WithEncodingFor("i32", parquet.Encodings.DeltaBinaryPacked),
			parquet.WithEncodingFor("s", parquet.Encodings.DeltaLengthByteArray),
			parquet.WithEncodingFor("req_s", parquet.Encodings.DeltaByteArray),
			parquet.WithEncodingFor("f64", parquet.Encodings.ByteStreamSplit),
		}},
	} {
		rec := pqgen.Record(c.Rows, c.Nulls, 1)
		data := pqgen.Write(t, rec, c)
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
	rec := pqgen.Record(3000, "some", 3)
	data := pqgen.Write(t, rec, pqgen.Case{Rows: 3000, Group: 1000, Dict: true, Codec: compress.Codecs.Snappy, Version: parquet.V2_LATEST})
	rec.Release()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	props := pqread.ArrowReadProperties{BatchSize: 1 << 20}
	props.SetReadDict(5, true) // few
	fr, err := pqread.NewFileReader(pf, props, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	order := []int{1, 5, 22} // i64, few, flag
	var leaves []int
	for _, fi := range order {
		leaves = FieldLeaves(&fr.Manifest.Fields[fi], leaves)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	fast := NewReader("x.parquet", bytes.NewReader(data), int64(len(data)), pf.MetaData(), fr, order, mem)
	if k := []fastKind{fast.cols[0].kind, fast.cols[1].kind, fast.cols[2].kind}; k[0] != kindFixed || k[1] != kindDict || k[2] != kindNone {
		t.Fatalf("kinds %v, want fixed, dictionary, none", k)
	}
	for g := range 3 {
		want, err := fr.ReadRowGroups(context.Background(), leaves, []int{g})
		if err != nil {
			t.Fatal(err)
		}
		got, err := fast.ReadRowGroup(context.Background(), g)
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

// The thrift reader parses what pqarrow's writer writes: every kind of
// page header, statistics skipped.
func TestReadPageHeader(t *testing.T) {
	rec := pqgen.Record(3000, "some", 6)
	for _, v2 := range []bool{false, true} {
		data := pqgen.Write(t, rec, pqgen.Case{Rows: 3000, Group: 3000, Dict: true, V2: v2, Codec: compress.Codecs.Snappy, PageSize: 1024, Version: parquet.V2_LATEST})
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
	for k, c := range []pqgen.Case{
		{Rows: 300, Group: 300, Nulls: "some", Dict: true, Codec: compress.Codecs.Snappy, PageSize: 256, Version: parquet.V2_LATEST},
		{Rows: 300, Group: 300, Nulls: "some", V2: true, Codec: compress.Codecs.Zstd, PageSize: 256, Version: parquet.V2_LATEST},
		{Rows: 300, Group: 300, Nulls: "none", Codec: compress.Codecs.Uncompressed, Version: parquet.V2_LATEST},
	} {
		rec := pqgen.Record(c.Rows, c.Nulls, uint64(k))
		data := pqgen.Write(t, rec, c)
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
			out = append(out, fuzzSeed{data[start : start+cc.TotalCompressedSize()], col, codec, c.Rows})
			if col == 4 || col == 20 {
				out = append(out, fuzzSeed{data[start : start+cc.TotalCompressedSize()], col, codec | 4, c.Rows})
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
	rec := pqgen.Record(10, "some", 1)
	data := pqgen.Write(tb, rec, pqgen.Case{Rows: 10, Group: 10, Codec: compress.Codecs.Snappy, Version: parquet.V2_LATEST})
	rec.Release()
	var frs [2]*pqread.FileReader
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
		ck := &chunk{f: &Reader{name: "fuzz", mem: mem}, c: &c, s: s, n: int(rows%2048) + 1,
			codec: []compress.Compression{compress.Codecs.Uncompressed, compress.Codecs.Snappy, compress.Codecs.Zstd}[codec%4%3]}
		fuzzbudget.Check(t, len(b), func() int64 { // the memory cap (internal/fuzzbudget)
			a, err := ck.decode(b, 1<<20)
			if err != nil {
				ck.free()
				return 0
			}
			if a.Len() != ck.n {
				t.Fatalf("%d rows, want %d", a.Len(), ck.n)
			}
			a.Release()
			return 0
		})
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

// A zstd page whose frame does not state its size (a streaming writer's)
// decodes, however much it expands; one whose frame states another size
// than the page header is an error before anything is allocated for it.
func TestDecompressZstdFrames(t *testing.T) {
	plain := bytes.Repeat([]byte("thund "), 200_000) // expands far more than 64×
	var streamed bytes.Buffer
	w, err := zstd.NewWriter(&streamed)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(plain)
	w.Close()
	sized, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	oneShot := sized.EncodeAll(plain, nil)
	for _, c := range []struct {
		about string
		src   []byte
		size  int
		want  string
	}{
		{"a frame without its size", streamed.Bytes(), len(plain), ""},
		{"a frame with its size", oneShot, len(plain), ""},
		{"a frame without its size, decoding to less", streamed.Bytes(), len(plain) + 1, "decodes to"},
		{"a frame of another size", oneShot, 1 << 30, "zstd page decodes to 1200000 bytes, its header says 1073741824"},
	} {
		var buf []byte
		out, err := decompress(compress.Codecs.Zstd, c.src, &buf, c.size)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.about, err)
		case c.want == "" && !bytes.Equal(out, plain):
			t.Errorf("%s: decoded %d bytes, not the %d written", c.about, len(out), len(plain))
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one saying %q", c.about, err, c.want)
		case c.want != "" && cap(buf) > 2*len(plain):
			t.Errorf("%s: allocated %d bytes", c.about, cap(buf))
		}
	}
}
