// Package pqgen generates the Parquet files that the tests of rt/format and
// rt/format/pqfast read: a batch of every column type the fast decoder
// decodes (and a few it leaves to pqarrow), with or without NULLs, written
// by arrow-go's own writer with dictionaries or not, data pages v1 or v2,
// each codec and small pages.
//
// It is imported by tests only; nothing a generated program links may
// import it.
package pqgen

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// Case is one way of writing a Parquet file with pqarrow's writer.
type Case struct {
	Rows, Group int    // rows, and rows per row group
	Nulls       string // "none", "some" or "all": NULLs of the nullable columns
	Dict        bool
	V2          bool // data pages v2
	Codec       compress.Compression
	PageSize    int64 // data page size; 0: the writer's default
	DictLimit   int64 // dictionary page size limit (past it, pages fall back to PLAIN); 0: default
	Version     parquet.Version
	Extra       []parquet.WriterProperty
}

func (c Case) String() string {
	return fmt.Sprintf("rows=%d group=%d nulls=%s dict=%v v2=%v codec=%s page=%d dictLimit=%d version=%s",
		c.Rows, c.Group, c.Nulls, c.Dict, c.V2, c.Codec, c.PageSize, c.DictLimit, c.Version)
}

// Column is a column of the generated files: its field, and whether the
// fast decoder is meant to decode it.
type Column struct {
	Field arrow.Field
	Fast  bool
}

// Columns are the columns of the generated files: every type the fast
// decoder decodes, nullable and required, then a few it leaves to pqarrow.
var Columns = []Column{
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

// FewStrings are the values of column "few".
var FewStrings = []string{"apple", "", "google", "a somewhat longer string than the others"}

// Record is a batch of rows rows of Columns.
func Record(rows int, nulls string, seed uint64) arrow.RecordBatch {
	var fields []arrow.Field
	for _, c := range Columns {
		fields = append(fields, c.Field)
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
		for j, c := range Columns {
			fb := b.Field(j)
			if c.Field.Nullable && isNull(i) {
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
				if c.Field.Name == "few" {
					fb.Append(FewStrings[rnd.IntN(len(FewStrings))])
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

// Write writes rec with c's settings through arrow-go's own writer (not
// rt/format's).
func Write(t testing.TB, rec arrow.RecordBatch, c Case) []byte {
	t.Helper()
	props := []parquet.WriterProperty{
		parquet.WithMaxRowGroupLength(int64(c.Group)),
		parquet.WithDictionaryDefault(c.Dict),
		parquet.WithCompression(c.Codec),
		parquet.WithVersion(c.Version),
	}
	if c.V2 {
		props = append(props, parquet.WithDataPageVersion(parquet.DataPageV2))
	}
	if c.PageSize > 0 {
		props = append(props, parquet.WithDataPageSize(c.PageSize), parquet.WithBatchSize(64))
	}
	if c.DictLimit > 0 {
		props = append(props, parquet.WithDictionaryPageSizeLimit(c.DictLimit))
	}
	props = append(props, c.Extra...)
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(rec.Schema(), &buf, parquet.NewWriterProperties(props...),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
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
