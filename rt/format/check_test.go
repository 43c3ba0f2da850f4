package format

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// CheckFile makes the checks a reader makes when it opens a file, and
// only those: a schema (Parquet, Arrow) or a header (CSV) that lacks a
// declared column, or has a type that does not convert losslessly, is
// refused with the reader's error; bad rows are not looked at.
func TestCheckFile(t *testing.T) {
	dir := t.TempDir()
	declared := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	write := func(name string, f Format, schema *arrow.Schema) string {
		path := filepath.Join(dir, name)
		out, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w, err := NewWriter(out, f, schema, WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i, fl := range schema.Fields() {
			switch fl.Type.ID() {
			case arrow.STRING:
				b.Field(i).(*array.StringBuilder).Append("x")
			case arrow.FLOAT64:
				b.Field(i).(*array.Float64Builder).Append(1.5)
			default:
				b.Field(i).(*array.Int64Builder).Append(1)
			}
		}
		rec := b.NewRecordBatch()
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		b.Release()
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		out.Close()
		return path
	}
	floatID := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Float64}, {Name: "name", Type: arrow.BinaryTypes.String}}, nil)
	onlyID := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	csvPath := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	for _, tc := range []struct {
		path string
		f    Format
		want string // "" for no error
	}{
		{write("ok.parquet", Parquet, declared), Parquet, ""},
		{write("float.parquet", Parquet, floatID), Parquet, "float.parquet: column id: file has float64, schema declares int64 (not a lossless cast)"},
		{write("short.parquet", Parquet, onlyID), Parquet, "short.parquet: column name: not in the file (file has: id)"},
		{write("ok.arrow", Arrow, declared), Arrow, ""},
		{write("short.arrow", Arrow, onlyID), Arrow, "short.arrow: column name: not in the file (file has: id)"},
		{csvPath("ok.csv", "id,name\n1,a\nnot-a-number,b\n"), CSV, ""},
		{csvPath("short.csv", "id,nom\n1,a\n"), CSV, "short.csv:1: column name: not in the header (header has: id, nom)"},
		{csvPath("garbage.parquet", "not parquet"), Parquet, "garbage.parquet: not a readable Parquet file"},
		{filepath.Join(dir, "missing.csv"), CSV, "missing.csv: no such file or directory"},
	} {
		name := filepath.Base(tc.path)
		err := CheckFile(tc.path, name, tc.f, declared, Options{})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want %q", name, err, tc.want)
		}
		var se *SchemaError
		if strings.Contains(tc.want, "not in the file") && !errors.As(err, &se) {
			t.Errorf("%s: %T is not a *SchemaError", name, err)
		}
	}
}
