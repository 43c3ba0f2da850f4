package format

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/nordisk/thund/rt/format/internal/pqgen"
)

// The Parquet reader with the fast decoder (rt/format/pqfast), held to the
// reader without it; the decoder itself is tested in its package.

// Through the whole reader, with and without the fast decoder and the
// buffer pool, every batch is the same; the string bound's row filter
// still applies.
func TestParquetFastReaderSameBatches(t *testing.T) {
	// row groups big enough for pooled buffers (bufferPool.minPooled),
	// decoded one at a time so that each reuses its predecessor's
	rec := pqgen.Record(40_000, "some", 4)
	defer rec.Release()
	for _, dict := range []bool{true, false} {
		data := pqgen.Write(t, rec, pqgen.Case{Rows: 40_000, Group: 9_000, Dict: dict, Codec: compress.Codecs.Snappy, PageSize: 16 << 10, Version: parquet.V2_LATEST})
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
	for _, c := range pqgen.Columns {
		if Supported(c.Field.Type) {
			if c.Fast {
				sel = append(sel, len(fields))
			}
			fields = append(fields, c.Field)
		}
	}
	return arrow.NewSchema(fields, nil), sel
}

// A corrupt chunk is an error naming the file and the column, never a
// panic.
func TestParquetFastCorruptChunk(t *testing.T) {
	rec := pqgen.Record(2000, "some", 5)
	schema, _ := declared()
	data := pqgen.Write(t, rec, pqgen.Case{Rows: 2000, Group: 2000, Codec: compress.Codecs.Snappy, Version: parquet.V2_LATEST})
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
