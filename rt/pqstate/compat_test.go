package pqstate

import (
	"bytes"
	"context"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// pqarrowSnapshot is v's snapshot as runtimes before rt/format's writer
// wrote it: pqarrow's writer, Snappy, the Arrow schema stored.
func pqarrowSnapshot(t *testing.T, v reflect.Value) []byte {
	t.Helper()
	fs, err := structFields(v.Type(), v.Type().Name())
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema(fs, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i, fi := range stored(v.Type()) {
		appendValue(b.Field(i), v.Field(fi))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(schema, &buf, parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy)),
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

// pqarrowTable is data read whole by pqarrow's reader.
func pqarrowTable(t *testing.T, data []byte) arrow.Table {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// compat holds snapshots to pqarrow, both ways: a snapshot that pqarrow's
// writer wrote (a checkpoint of an older runtime) unmarshals to the state
// it holds, and Marshal's snapshot reads in pqarrow's reader as the table
// pqarrow's writer would have stored.
func compat[T any](t *testing.T, seed uint64, n int) {
	r := rand.New(rand.NewPCG(seed, 9))
	for i := range n {
		var in, out T
		fill(r, reflect.ValueOf(&in).Elem(), 0)
		old := pqarrowSnapshot(t, reflect.ValueOf(in))
		if err := Unmarshal(old, &out); err != nil {
			t.Fatalf("case %d: Unmarshal of pqarrow's snapshot: %v", i, err)
		}
		if !same(t, in, out) {
			t.Fatalf("case %d (seed %d): pqarrow's snapshot unmarshals otherwise\n in: %+v\nout: %+v", i, seed, in, out)
		}
		data, err := Marshal(&in)
		if err != nil {
			t.Fatalf("case %d: Marshal: %v", i, err)
		}
		want, got := pqarrowTable(t, old), pqarrowTable(t, data)
		if !want.Schema().Equal(got.Schema()) {
			t.Fatalf("case %d: pqarrow reads the snapshot as\n%s\nwant\n%s", i, got.Schema(), want.Schema())
		}
		for c := range int(want.NumCols()) {
			if !array.ChunkedApproxEqual(want.Column(c).Data(), got.Column(c).Data(), array.WithNaNsEqual(true)) {
				t.Fatalf("case %d (seed %d): pqarrow reads column %s of the snapshot as\n%v\nwant\n%v", i, seed,
					want.Schema().Field(c).Name, got.Column(c).Data().Chunks(), want.Column(c).Data().Chunks())
			}
		}
		want.Release()
		got.Release()
	}
}

func TestCompatWindowState(t *testing.T) { compat[winState](t, 3, 100) }
func TestCompatJoinState(t *testing.T)   { compat[joinState](t, 4, 100) }
