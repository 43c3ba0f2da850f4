package format

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/nordisk/thund/internal/fuzzbudget"
	"github.com/nordisk/thund/rt/format/internal/pqgen"
)

// Issue 17, item 3: a malformed Parquet file made the reader allocate
// gigabytes and fail with a recovered panic's text. Every length, offset
// and count a file states is now checked against the bytes that hold it
// before anything is allocated by it: each corruption below is an error
// naming the file, the column, the row group and the page, read through
// pqfast and through pqarrow alone, twice in the same process, and the
// reading allocates a few MiB at most.

// hostileFile is a small file of a dictionary-encoded int64 column k and
// a string column s: 300 rows in one row group, Snappy, pages of v1.
func hostileFile(t *testing.T) ([]byte, *arrow.Schema) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range 300 {
		b.Field(0).(*array.Int64Builder).Append(int64(i % 7))
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("value %d", i%13))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	return pqarrowFile(t, rec, []parquet.WriterProperty{parquet.WithDictionaryDefault(true),
		parquet.WithCompression(compress.Codecs.Snappy), parquet.WithDataPageSize(512), parquet.WithBatchSize(100)},
		pqarrow.DefaultWriterProps()), schema
}

func TestParquetHostileLengths(t *testing.T) {
	data, schema := hostileFile(t)
	page := func(group, col, page int, set func(h *pqgen.Thrift)) func() []byte {
		return func() []byte { return pqgen.SetPageHeader(t, data, group, col, page, set) }
	}
	footer := func(set func(md *metadata.FileMetaData)) func() []byte {
		return func() []byte {
			md := pqgen.Footer(t, data)
			set(md)
			return pqgen.WithFooter(t, data, md)
		}
	}
	for _, c := range []struct {
		about string
		make  func() []byte
		want  string // the error, after "x.parquet: "; {left}, {chunk}, {data} are filled in
	}{
		{"a data page's compressed size", page(0, 0, 2, func(h *pqgen.Thrift) { h.Set(3, 1059062727) }),
			"column k, row group 0, page 2: compressed size 1059062727 exceeds the column chunk ({left} bytes left of {chunk})"},
		{"a dictionary page's compressed size", page(0, 0, 1, func(h *pqgen.Thrift) { h.Set(3, 1<<30) }),
			"column k, row group 0, page 1: compressed size 1073741824 exceeds the column chunk ({left} bytes left of {chunk})"},
		{"a dictionary page's uncompressed size", page(0, 0, 1, func(h *pqgen.Thrift) { h.Set(2, 1059062727) }),
			"column k, row group 0, page 1: uncompressed size 1059062727 exceeds the column chunk's ({unc} bytes)"},
		{"a dictionary page's value count", page(0, 0, 1, func(h *pqgen.Thrift) { h.Struct(7).Set(1, 1<<30) }),
			"column k, row group 0, page 1: dictionary of 1073741824 values in 56 bytes"},
		{"a string dictionary's value count", page(0, 1, 1, func(h *pqgen.Thrift) { h.Struct(7).Set(1, 1<<30) }),
			"column s, row group 0, page 1: dictionary of 1073741824 values in 146 bytes"},
		{"a data page's value count", page(0, 0, 2, func(h *pqgen.Thrift) { h.Struct(5).Set(1, 1<<30) }),
			"column k, row group 0, page 2: page of 1073741824 values past the column chunk's 300"},
		{"a row group's row count", footer(func(md *metadata.FileMetaData) {
			md.RowGroups[0].NumRows = 1<<31 - 1
			for _, c := range md.RowGroups[0].Columns {
				c.MetaData.NumValues = 1<<31 - 1
			}
		}), "column k, row group 0: column chunk ends after 300 of its 2147483647 values (4 pages)"},
		{"a row group's row count alone", footer(func(md *metadata.FileMetaData) { md.RowGroups[0].NumRows = 1 << 40 }),
			"column k, row group 0: 300 values in a row group of 1099511627776 rows"},
		{"a column chunk's offset", footer(func(md *metadata.FileMetaData) {
			k := md.RowGroups[0].Columns[0].MetaData
			k.DataPageOffset, k.DictionaryPageOffset = 1<<40, nil
		}),
			"column k, row group 0: a column chunk of {chunk} bytes at offset 1099511627776 is outside the file's data (bytes 4 to {data})"},
		{"a column chunk's length", footer(func(md *metadata.FileMetaData) { md.RowGroups[0].Columns[0].MetaData.TotalCompressedSize = 1 << 40 }),
			"column k, row group 0: a column chunk of 1099511627776 bytes at offset 4 is outside the file's data (bytes 4 to {data})"},
	} {
		file := c.make()
		// the numbers the message quotes, as the corrupt file has them
		k := pqgen.Footer(t, data).RowGroups[0].Columns[0].MetaData
		chunk := k.TotalCompressedSize
		var left int64
		if strings.Contains(c.want, "{left}") {
			p, _ := strconv.Atoi(c.want[strings.Index(c.want, "page ")+5 : strings.Index(c.want, "page ")+6])
			off, _, n := pqgen.PageAt(t, file, 0, 0, p)
			fk := pqgen.Footer(t, file).RowGroups[0].Columns[0].MetaData
			chunk = fk.TotalCompressedSize
			left = *fk.DictionaryPageOffset + chunk - off - int64(n)
		}
		want := strings.NewReplacer("{left}", fmt.Sprint(left), "{chunk}", fmt.Sprint(chunk),
			"{unc}", fmt.Sprint(pqgen.Footer(t, file).RowGroups[0].Columns[0].MetaData.TotalUncompressedSize),
			"{data}", fmt.Sprint(len(file)-8-int(binary.LittleEndian.Uint32(file[len(file)-8:])))).Replace("x.parquet: " + c.want)
		for _, fast := range []bool{true, false} {
			for pass := range 2 { // the file failed the second time it was read
				var err error
				before := fuzzbudget.Allocated()
				recs, err := readBytes(file, "x.parquet", Parquet, schema, Options{noFastParquet: !fast, Threads: 1})
				release(recs)
				if got := fuzzbudget.Allocated() - before; got > 4<<20 {
					t.Errorf("%s (fast %v, pass %d): reading %d bytes allocated %d", c.about, fast, pass, len(file), got)
				}
				if err == nil || err.Error() != want {
					t.Errorf("%s (fast %v, pass %d):\n got %v\nwant %s", c.about, fast, pass, err, want)
				}
			}
		}
	}
}

// A column of long runs of one value states far more values than its
// bytes, legitimately: the reader proves its rows from its page headers
// (pageGuard.prove) and reads it whole, through both decoders.
func TestParquetLongRunsRead(t *testing.T) {
	const rows = 1 << 20
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range rows {
		b.Field(0).(*array.Int64Builder).Append(42)
		if i%2 == 0 {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append("same")
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	data := pqarrowFile(t, rec, []parquet.WriterProperty{parquet.WithDictionaryDefault(true),
		parquet.WithCompression(compress.Codecs.Zstd), parquet.WithMaxRowGroupLength(rows)}, pqarrow.DefaultWriterProps())
	k := pqgen.Footer(t, data).RowGroups[0].Columns[0].MetaData
	if k.TotalCompressedSize*64+1<<20 > rows*16 {
		t.Fatalf("column k has %d bytes for %d rows: not a long run", k.TotalCompressedSize, rows)
	}
	for _, fast := range []bool{true, false} {
		recs, err := readBytes(data, "x.parquet", Parquet, schema, Options{noFastParquet: !fast})
		if err != nil {
			t.Fatalf("fast %v: %v", fast, err)
		}
		n := 0
		for _, r := range recs {
			n += int(r.NumRows())
		}
		release(recs)
		if n != rows {
			t.Errorf("fast %v: %d rows, want %d", fast, n, rows)
		}
	}
}
