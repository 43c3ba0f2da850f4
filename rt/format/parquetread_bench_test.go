package format

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// bidsFile is a Parquet file shaped like DuckDB's Nexmark bids: 2M rows
// in row groups of 122,880, optional int64 columns without NULLs in PLAIN
// Snappy data pages v1, and a PLAIN string column.
var bidsFile = sync.OnceValues(func() ([]byte, *arrow.Schema) {
	const rows = 2_000_000
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "auction", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "bidder", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "price", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "url", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	rnd := rand.New(rand.NewPCG(1, 2))
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for range rows {
		b.Field(0).(*array.Int64Builder).Append(1000 + rnd.Int64N(100_000))
		b.Field(1).(*array.Int64Builder).Append(rnd.Int64N(1_000_000))
		b.Field(2).(*array.Int64Builder).Append(rnd.Int64N(10_000_000))
		b.Field(3).(*array.StringBuilder).Append(fmt.Sprintf("https://www.nexmark.com/%s/item.htm?query=1&channel_id=%d",
			[]string{"apple", "google", "facebook", "baidu"}[rnd.IntN(4)], rnd.IntN(1<<20)))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(schema, &buf, parquet.NewWriterProperties(
		parquet.WithMaxRowGroupLength(122_880), parquet.WithDictionaryDefault(false),
		parquet.WithCompression(compress.Codecs.Snappy), parquet.WithDataPageSize(1<<20)),
		pqarrow.DefaultWriterProps())
	if err != nil {
		panic(err)
	}
	if err := w.Write(rec); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes(), schema
})

// BenchmarkParquetBids reads bidsFile whole through the reader, as the
// generated flows do (reused buffers, every batch released), with pqarrow
// alone (old) and with the fast decoder (new).
func BenchmarkParquetBids(b *testing.B) {
	data, schema := bidsFile()
	for _, c := range []struct {
		name string
		slow bool
	}{{"old", true}, {"new", false}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				r, err := Open(obj(data), "bids.parquet", Parquet, schema, Options{Threads: 1, Reuse: true, noFastParquet: c.slow})
				if err != nil {
					b.Fatal(err)
				}
				rows := 0
				for {
					rec, err := r.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					rows += int(rec.NumRows())
					rec.Release()
				}
				r.Close()
				if rows != 2_000_000 {
					b.Fatalf("%d rows", rows)
				}
			}
		})
	}
}
