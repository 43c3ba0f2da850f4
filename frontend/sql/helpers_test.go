package sql_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// fixtureSchema is the schema of the Parquet and Arrow fixtures.
var fixtureSchema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
	{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

func fixtureRecord() arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, fixtureSchema)
	defer b.Release()
	b.Field(0).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{1, 2}, nil)
	b.Field(1).(*array.Int64Builder).AppendValues([]int64{10, 20}, nil)
	return b.NewRecordBatch()
}

func writeParquet(t *testing.T, name string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := pqarrow.NewFileWriter(fixtureSchema, f, nil, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	rec := fixtureRecord()
	defer rec.Release()
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func writeArrowFile(t *testing.T, name string, stream bool) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec := fixtureRecord()
	defer rec.Release()
	if stream {
		w := ipc.NewWriter(f, ipc.WithSchema(fixtureSchema))
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return
	}
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(fixtureSchema))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func writeText(t *testing.T, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// withFixtures runs the test in a temporary folder that holds the data
// files the SQL of the tests reads: in/ (Parquet, with a _SUCCESS marker
// and a hidden file that inference skips).
func withFixtures(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "in", "_SUCCESS"), "")
	writeText(t, filepath.Join(dir, "in", ".hidden"), "x")
	writeParquet(t, filepath.Join(dir, "in", "part-0.parquet"))
	t.Chdir(dir)
	return dir
}
