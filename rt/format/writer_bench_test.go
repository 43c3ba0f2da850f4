package format

import (
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// bidBatches are 2M rows shaped like Nexmark q0's output (the bids), in
// batches of DefaultBatchRows: nullable int64s, a timestamp, a low-cardinality
// string, and two mostly distinct strings.
var bidBatches = sync.OnceValue(func() []arrow.RecordBatch {
	const rows = 2_000_000
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "auction", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "bidder", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "price", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "channel", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "url", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "date_time", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "extra", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	rnd := rand.New(rand.NewPCG(1, 2))
	var out []arrow.RecordBatch
	for done := 0; done < rows; done += DefaultBatchRows {
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for range min(DefaultBatchRows, rows-done) {
			b.Field(0).(*array.Int64Builder).Append(1000 + rnd.Int64N(100_000))
			b.Field(1).(*array.Int64Builder).Append(rnd.Int64N(1_000_000))
			b.Field(2).(*array.Int64Builder).Append(rnd.Int64N(10_000_000))
			ch := []string{"apple", "google", "facebook", "baidu"}[rnd.IntN(4)]
			b.Field(3).(*array.StringBuilder).Append(ch)
			b.Field(4).(*array.StringBuilder).Append(fmt.Sprintf("https://www.nexmark.com/%s/item.htm?query=1&channel_id=%d", ch, rnd.IntN(1<<20)))
			b.Field(5).(*array.TimestampBuilder).Append(arrow.Timestamp(1_700_000_000_000_000 + rnd.Int64N(1e9)))
			b.Field(6).(*array.StringBuilder).Append(fmt.Sprintf("%x", rnd.Uint64()))
		}
		out = append(out, b.NewRecordBatch())
		b.Release()
	}
	return out
})

// BenchmarkParquetWriteBids writes bidBatches as one Parquet file, through
// pqarrow's writer (old) and the page encoder (new).
func BenchmarkParquetWriteBids(b *testing.B) {
	batches := bidBatches()
	for _, c := range []struct {
		name string
		old  bool
	}{{"old", true}, {"new", false}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				writeBatches(b, io.Discard, batches, c.old)
			}
		})
	}
}

// writeBatches writes batches as one Parquet file to out, through the
// writer or (old) through pqarrow's writer with the same properties.
func writeBatches(tb testing.TB, out io.Writer, batches []arrow.RecordBatch, old bool) {
	tb.Helper()
	schema := batches[0].Schema()
	var w Writer
	var err error
	if old {
		w, err = newPQArrowWriter(out, schema, batches[0])
	} else {
		w, err = NewWriter(out, Parquet, schema, WriteOptions{})
	}
	if err != nil {
		tb.Fatal(err)
	}
	for _, rec := range batches {
		if err := w.Write(rec); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
}

// newPQArrowWriter is the Parquet writer as it was before the page encoder
// (pqarrow's, buffering each row group), with the properties the writer
// takes for a file whose first batch is first: what the page encoder's
// files are compared with.
func newPQArrowWriter(out io.Writer, schema *arrow.Schema, first arrow.RecordBatch) (Writer, error) {
	props, _ := parquetProps(schema, first, memory.DefaultAllocator)
	pqSchema := parquetSchema(schema)
	fw, err := pqarrow.NewFileWriter(pqSchema, out, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return nil, err
	}
	write := func(rec arrow.RecordBatch) error {
		r := relabelBatch(rec, pqSchema)
		defer r.Release()
		return fw.WriteBuffered(r)
	}
	return &arrowWriter{schema: schema, write: write, close: fw.Close}, nil
}
