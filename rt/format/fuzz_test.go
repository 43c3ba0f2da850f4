package format

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/nordisk/thund/internal/fuzzbudget"
	"github.com/nordisk/thund/rt/format/internal/pqgen"
)

// Whole-file fuzz targets: each reads its input as one file of its format
// through Open, the reader the runtime uses, with a declared schema, and
// must return rows or an error naming the file, never panic. The memory
// cap is internal/fuzzbudget's allocation budget: an input that makes the
// reader allocate more than 16 MiB + 64× its size + 8× the data it returned
// fails. .ci/fuzz runs every target for a stated -fuzztime, under ulimit -v.
//
// A mode byte picks the reader's options (which the fuzzer mutates too):
// bit 0 and 1 the declared schema and columns, bit 2 Options.Reuse, bit 3
// two threads, bit 4 bounds (a string and an integer one).

// fuzzName is the file name the fuzz targets give their input.
const fuzzName = "fuzz/in.file"

// fuzzRead reads data as one file of format f through Open and returns the
// bytes of the batches it produced; it fails t on a panic (the fuzzer's
// own report), an error that does not name the file or holds a Go runtime
// message, a batch that is not of the declared schema or whose arrays are
// inconsistent, or, after a read without an error, memory not released
// (after an error, arrow-go's readers may leave some to the collector).
func fuzzRead(t *testing.T, data []byte, f Format, schema *arrow.Schema, opts Options) int64 {
	var out int64
	fuzzbudget.Check(t, len(data), func() int64 {
		var mem *memory.CheckedAllocator
		if !opts.Reuse {
			mem = memory.NewCheckedAllocator(memory.NewGoAllocator())
			opts.Mem = mem
		}
		r, err := Open(obj(data), fuzzName, f, schema, opts)
		if err != nil {
			checkFuzzError(t, err)
			return 0
		}
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				r.Close()
				checkFuzzError(t, err)
				return out
			}
			bad := checkFuzzBatch(rec, schema)
			for _, c := range rec.Columns() {
				out += arrayBytes(c.Data())
			}
			rec.Release()
			if bad != nil {
				r.Close()
				t.Fatal(bad)
			}
		}
		r.Close()
		if mem != nil {
			mem.AssertSize(t, 0)
		}
		return out
	})
	return out
}

// checkFuzzBatch is an error when rec is not of the declared schema or
// holds an inconsistent array (offsets or lengths past its buffers). Bytes
// that are not UTF-8 in a string column are not an error: no reader checks
// them.
func checkFuzzBatch(rec arrow.RecordBatch, schema *arrow.Schema) error {
	if !rec.Schema().Equal(schema) {
		return fmt.Errorf("a batch of schema %s, declared %s", rec.Schema(), schema)
	}
	for i, c := range rec.Columns() {
		if err := array.ValidateFull(c); err != nil && !strings.Contains(err.Error(), "not valid utf8") {
			return fmt.Errorf("column %s: an invalid array: %v", schema.Field(i).Name, err)
		}
	}
	return nil
}

// checkFuzzError fails t unless err names the input file and is no Go
// runtime message.
func checkFuzzError(t *testing.T, err error) {
	t.Helper()
	msg := err.Error()
	if !strings.HasPrefix(msg, fuzzName+":") {
		t.Fatalf("the error does not start with the file's name: %v", err)
	}
	for _, rt := range []string{"runtime error", "panic", "goroutine ", "index out of range [", "slice bounds out of range [", "nil pointer"} {
		if strings.Contains(msg, rt) {
			t.Fatalf("the error holds a Go runtime message (%q): %v", rt, err)
		}
	}
	var re interface{ RuntimeError() }
	if errors.As(err, &re) {
		t.Fatalf("the error wraps a Go runtime error: %v", err)
	}
}

// arrayBytes is the memory of an array's buffers, children and dictionary.
func arrayBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children() {
		n += arrayBytes(c)
	}
	if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
		n += arrayBytes(dict)
	}
	return n
}

// fuzzOptions are the reader options of a mode byte for a schema whose
// string column text and int64 column num are the bounds' columns (-1:
// none).
func fuzzOptions(mode uint8, cols []int, text, num int) Options {
	opts := Options{Threads: 1, BatchRows: 100}
	if mode&2 != 0 {
		opts.Columns = cols
	}
	opts.Reuse = mode&4 != 0
	if mode&8 != 0 {
		opts.Threads = 2
	}
	if mode&16 != 0 {
		if text >= 0 {
			opts.Bounds = append(opts.Bounds, Bound{Col: text, Op: "=", Text: pqgen.FewStrings[2]})
		}
		if num >= 0 {
			opts.Bounds = append(opts.Bounds, Bound{Col: num, Op: ">", Value: 0})
		}
	}
	return opts
}

// parquetSeeds are small Parquet files for the Parquet targets: pqgen's
// columns written each way pqarrow writes them (mode 0), and a file of
// rt/format's own writer, of allTypes (mode 1).
func parquetSeeds(t testing.TB) (seeds [][]byte, modes []uint8) {
	for k, c := range []pqgen.Case{
		{Rows: 40, Group: 40, Nulls: "some", Dict: true, Codec: compress.Codecs.Snappy, Version: parquet.V2_LATEST},
		{Rows: 40, Group: 15, Nulls: "some", V2: true, Codec: compress.Codecs.Zstd, PageSize: 64, Version: parquet.V2_LATEST},
		{Rows: 30, Group: 30, Nulls: "none", Codec: compress.Codecs.Uncompressed, Version: parquet.V2_LATEST},
		{Rows: 30, Group: 30, Nulls: "some", Dict: true, V2: true, Codec: compress.Codecs.Uncompressed, PageSize: 64, Version: parquet.V1_0},
		{Rows: 20, Group: 20, Nulls: "all", Codec: compress.Codecs.Gzip, Version: parquet.V2_LATEST},
	} {
		rec := pqgen.Record(c.Rows, c.Nulls, uint64(k))
		seeds = append(seeds, pqgen.Write(t, rec, c))
		rec.Release()
		modes = append(modes, []uint8{0, 2, 4, 8 | 16, 2 | 4 | 16}[k])
	}
	rec := sampleBatch(memory.DefaultAllocator)
	defer rec.Release()
	seeds = append(seeds, write(t, Parquet, allTypes, rec))
	modes = append(modes, 1)
	return seeds, modes
}

// parquetFuzzSchema is the declared schema of a Parquet fuzz input by its
// mode: pqgen's columns or allTypes; cols are the columns read with mode
// bit 1, text and num the bounds' columns.
func parquetFuzzSchema(mode uint8) (schema *arrow.Schema, cols []int, text, num int) {
	if mode&1 == 0 {
		schema, cols = declared()
		return schema, cols[:len(cols)/2], 5, 1 // few, i64
	}
	return allTypes, []int{4, 12}, 12, 4 // i64, s
}

// FuzzReadParquet reads a Parquet file through the runtime's reader: the
// columns it covers decoded by rt/format/pqfast, the others by pqarrow.
func FuzzReadParquet(f *testing.F) {
	seeds, modes := parquetSeeds(f)
	for i, s := range seeds {
		f.Add(s, modes[i])
	}
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		schema, cols, text, num := parquetFuzzSchema(mode)
		fuzzRead(t, data, Parquet, schema, fuzzOptions(mode, cols, text, num))
	})
}

// FuzzReadParquetArrow reads a Parquet file through the runtime's reader
// without the fast decoder: every column by arrow-go's pqarrow.
func FuzzReadParquetArrow(f *testing.F) {
	seeds, modes := parquetSeeds(f)
	for i, s := range seeds {
		f.Add(s, modes[i])
	}
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		schema, cols, text, num := parquetFuzzSchema(mode)
		opts := fuzzOptions(mode, cols, text, num)
		opts.noFastParquet = true
		fuzzRead(t, data, Parquet, schema, opts)
	})
}

// textSeeds are files of allTypes' sample batch in format f, and a few
// hand-written ones.
func textSeeds(t testing.TB, f Format) [][]byte {
	rec := sampleBatch(memory.DefaultAllocator)
	defer rec.Release()
	seeds := [][]byte{write(t, f, allTypes, rec)}
	// the columns one at a time
	for i := range allTypes.NumFields() {
		sub := arrow.NewSchema(allTypes.Fields()[i:i+1], nil)
		col := array.NewRecordBatch(sub, []arrow.Array{rec.Column(i)}, rec.NumRows())
		seeds = append(seeds, write(t, f, sub, col))
		col.Release()
	}
	return seeds
}

// fuzzTextSchema is a declared schema of the CSV and JSON lines targets:
// allTypes, or its first column alone (files of one column mutate faster).
func fuzzTextSchema(mode uint8, seedCol int) *arrow.Schema {
	if mode&1 == 0 {
		return allTypes
	}
	return arrow.NewSchema(allTypes.Fields()[seedCol:seedCol+1], nil)
}

// FuzzReadCSV reads a CSV file: mode bit 0 declares one column (col picks
// it) rather than all of allTypes, bits 1 and 2 pick the dialect, bits 3
// and 4 the bad-record mode (fuzzBadRecords).
func FuzzReadCSV(f *testing.F) {
	for i, s := range textSeeds(f, CSV) {
		mode, col := uint8(0), uint8(0)
		if i > 0 {
			mode, col = 1, uint8(i-1)
		}
		f.Add(s, mode, col)
	}
	f.Add([]byte("i8,s\n1,\"a\"\"b\"\n,\n\"2\",x\n"), uint8(0), uint8(0))
	f.Add([]byte("1;'a\\'b'\n2;''\n"), uint8(7), uint8(12))
	f.Fuzz(func(t *testing.T, data []byte, mode, col uint8) {
		c := int(col) % allTypes.NumFields()
		csv := DefaultCSV()
		if mode&2 != 0 {
			csv.Header = false
		}
		if mode&4 != 0 {
			csv.Delimiter, csv.Quote, csv.Escape, csv.Nulls = ';', '\'', '\\', []string{"", "NULL"}
		}
		fuzzRead(t, data, CSV, fuzzTextSchema(mode, c), fuzzBadRecords(mode, Options{CSV: &csv, BatchRows: 100}))
	})
}

// FuzzReadJSONL reads a JSON lines file: mode bit 0 declares one column
// (col picks it) rather than all of allTypes, bits 3 and 4 pick the
// bad-record mode (fuzzBadRecords).
func FuzzReadJSONL(f *testing.F) {
	for i, s := range textSeeds(f, JSONL) {
		mode, col := uint8(0), uint8(0)
		if i > 0 {
			mode, col = 1, uint8(i-1)
		}
		f.Add(s, mode, col)
	}
	f.Add([]byte(`{"s": "a\u00e9\"", "i8": -1}`+"\n"+`{"s": null, "extra": [1, {"x": 2}]}`), uint8(0), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, mode, col uint8) {
		c := int(col) % allTypes.NumFields()
		fuzzRead(t, data, JSONL, fuzzTextSchema(mode, c), fuzzBadRecords(mode, Options{BatchRows: 100}))
	})
}

// fuzzBadRecords sets the bad-record mode that bits 3 and 4 of mode pick
// (FAILFAST, PERMISSIVE, DROPMALFORMED; the fourth value PERMISSIVE with
// small batches, so that dropped records cut them), with column s as the
// corrupt-record column.
func fuzzBadRecords(mode uint8, o Options) Options {
	switch (mode >> 3) & 3 {
	case 1:
		o.Mode = Permissive
	case 2:
		o.Mode = DropMalformed
	case 3:
		o.Mode, o.BatchRows = Permissive, 2
	}
	o.CorruptColumn = "s"
	o.Malformed = &Malformed{}
	return o
}

// FuzzReadArrowIPC reads an Arrow IPC file or stream (Open takes both as
// Arrow), its body uncompressed or compressed.
func FuzzReadArrowIPC(f *testing.F) {
	rec := sampleBatch(memory.DefaultAllocator)
	defer rec.Release()
	for _, ff := range []Format{Arrow, ArrowStream} {
		f.Add(write(f, ff, allTypes, rec))
		f.Add(write(f, ff, allTypes))
	}
	f.Add(ipcFile(f, rec, ipc.WithLZ4()))
	var stream bytes.Buffer
	w := ipc.NewWriter(&stream, ipc.WithSchema(allTypes), ipc.WithZstd())
	if err := w.Write(rec); err != nil {
		f.Fatal(err)
	}
	w.Close()
	f.Add(stream.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRead(t, data, Arrow, allTypes, Options{})
	})
}
