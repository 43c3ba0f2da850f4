package format

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/nordisk/thund/rt/format/pqread"
	"github.com/nordisk/thund/rt/store"
)

// CheckFile checks, without reading its rows, that the file at path (name
// in messages) can be read as format f with the declared schema: the checks
// a reader makes when it opens the file, and no other. A Parquet file's
// footer schema and an Arrow IPC file's schema must have every declared
// column, with a type that converts losslessly (the readers' plan); a CSV
// file with a header must name every declared column in its first line.
// JSON lines have nothing to check before their rows. It returns the
// reader's error (a *SchemaError or *DataError where it has one).
func CheckFile(path, name string, f Format, schema *arrow.Schema, opts Options) error {
	obj, err := store.OpenFile(path)
	if err != nil {
		return fmt.Errorf("%s: %w", name, unwrapPath(err))
	}
	if f != Parquet {
		// Opening reads the schema message (Arrow) or the header line (CSV)
		// and checks it; the rows wait for Next, which is never called.
		r, err := Open(obj, name, f, schema, opts)
		if err != nil {
			return err
		}
		return r.Close()
	}
	defer obj.Close()
	return checkParquet(obj, name, schema)
}

// checkParquet is the opening half of newParquetReader: the footer, and the
// file's schema against the declared one. It starts no decoding.
func checkParquet(obj store.Object, name string, schema *arrow.Schema) (err error) {
	if err := CheckSchema(schema); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	defer func() {
		if p := recover(); p != nil { // arrow-go, on a malformed footer (parquetcheck.go)
			err = fmt.Errorf("%s: %w", name, parquetPanic("the footer", p))
		}
	}()
	mem := memory.DefaultAllocator
	pf, err := file.NewParquetReader(&pageGuard{Object: obj}, file.WithReadProps(parquet.NewReaderProperties(mem)))
	if err != nil {
		return fmt.Errorf("%s: not a readable Parquet file: %w", name, err)
	}
	defer pf.Close()
	if v := pf.MetaData().KeyValueMetadata().FindValue("ARROW:schema"); v != nil {
		if err := checkArrowSchemaValue(*v); err != nil {
			return fmt.Errorf("%s: the Arrow schema in the footer (ARROW:schema) is malformed: %w", name, err)
		}
	}
	fr, err := pqread.NewFileReader(pf, pqread.ArrowReadProperties{}, mem)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	fileSchema, err := fr.Schema()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	_, _, err = plan(name, fileSchema, schema, mem)
	return err
}
