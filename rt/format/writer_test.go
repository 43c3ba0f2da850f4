package format

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/snappy"
)

// stringBatch is n rows of (id int64, tag string, note string): tag takes 8
// values, note is distinct on every row.
func stringBatch(n int) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "tag", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "note", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("tag-%d", i%8))
		b.Field(2).(*array.StringBuilder).Append(fmt.Sprintf("note %d: %x", i, i*2654435761))
	}
	return b.NewRecordBatch()
}

// The writer dictionary-encodes a string column that repeats and writes a
// mostly distinct one plain, as its first batch shows; the rows read back.
func TestParquetDictionaryByCardinality(t *testing.T) {
	rec := stringBatch(5000)
	defer rec.Release()
	data := write(t, Parquet, rec.Schema(), rec)
	pf := openParquet(t, data)
	rg := pf.MetaData().RowGroup(0)
	for i, want := range map[int]bool{0: false, 1: true, 2: false} {
		cc, err := rg.ColumnChunk(i)
		if err != nil {
			t.Fatal(err)
		}
		if got := cc.HasDictionaryPage(); got != want {
			t.Errorf("column %s: dictionary page %v, want %v", cc.PathInSchema(), got, want)
		}
	}
	back := readAllParquet(t, data)
	if back != 5000 {
		t.Errorf("read back %d rows, want 5000", back)
	}
	// a small first batch decides nothing: dictionaries stay on
	small := stringBatch(100)
	defer small.Release()
	pf2 := openParquet(t, write(t, Parquet, small.Schema(), small, rec))
	if cc, _ := pf2.MetaData().RowGroup(0).ColumnChunk(2); !cc.HasDictionaryPage() {
		t.Error("a first batch of 100 rows turned the note's dictionary off")
	}
	// an empty file is still a Parquet file with the schema
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, Parquet, rec.Schema(), WriteOptions{})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if pf3, err := file.NewParquetReader(bytes.NewReader(buf.Bytes())); err != nil || pf3.NumRows() != 0 {
		t.Fatalf("empty file: %v", err)
	}
}

// openParquet opens a Parquet file's bytes with arrow-go's file reader,
// closed when the test ends.
func openParquet(t *testing.T, data []byte) *file.Reader {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pf.Close() })
	return pf
}

func readAllParquet(t *testing.T, data []byte) int {
	t.Helper()
	pf := openParquet(t, data)
	return int(pf.NumRows())
}

// BenchmarkParquetWriteDistinct writes 128K rows with a mostly distinct
// string column: "chosen" is the writer (plain for that column), "dict" the
// same file with the dictionary forced on, side by side.
func BenchmarkParquetWriteDistinct(b *testing.B) {
	rec := stringBatch(128 << 10)
	defer rec.Release()
	b.Run("chosen", func(b *testing.B) {
		for b.Loop() {
			write(b, Parquet, rec.Schema(), rec)
		}
	})
	b.Run("dict", func(b *testing.B) {
		small := stringBatch(1) // a first batch too small to decide: dictionaries on
		defer small.Release()
		for b.Loop() {
			write(b, Parquet, small.Schema(), small, rec)
		}
	})
}

// The writer's Snappy is fastSnappy; what it writes reads back.
func TestFastSnappyRoundTrip(t *testing.T) {
	c, err := compress.GetCodec(compress.Codecs.Snappy)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.(fastSnappy); !ok {
		t.Fatalf("the Snappy codec is %T, not fastSnappy", c)
	}
	rec := stringBatch(20000)
	defer rec.Release()
	data := write(t, Parquet, rec.Schema(), rec)
	pf := openParquet(t, data)
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	back := array.NewTableReader(tbl, 1<<20)
	defer back.Release()
	for back.Next() {
		got := back.RecordBatch()
		if !array.RecordEqual(got, rec) {
			t.Fatal("the rows read back differ from those written")
		}
	}
	src := []byte(strings.Repeat("the quick brown fox 12345 ", 4000))
	enc := c.Encode(nil, src)
	if dec, err := snappy.Decode(nil, enc); err != nil || !bytes.Equal(dec, src) {
		t.Fatalf("standard Snappy cannot decode fastSnappy's block: %v", err)
	}
}

// BenchmarkSnappyPage compresses a 1 MiB page of the writer's plain-encoded
// strings with fastSnappy's mode and arrow-go's default ("better") side by
// side.
func BenchmarkSnappyPage(b *testing.B) {
	var page []byte
	for i := 0; len(page) < 1<<20; i++ {
		page = fmt.Appendf(page, "note %d: %x|", i, i*2654435761)
	}
	dst := make([]byte, snappy.MaxEncodedLen(len(page)))
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		var out []byte
		for b.Loop() {
			out = s2.EncodeSnappy(dst, page)
		}
		b.ReportMetric(float64(len(out))/float64(len(page)), "size/raw")
	})
	b.Run("better", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		var out []byte
		for b.Loop() {
			out = snappy.Encode(dst, page)
		}
		b.ReportMetric(float64(len(out))/float64(len(page)), "size/raw")
	})
}
