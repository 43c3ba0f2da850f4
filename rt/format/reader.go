package format

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/store"
)

// BatchReader produces record batches of one declared schema.
type BatchReader interface {
	// Schema is the declared schema; every batch has exactly it.
	Schema() *arrow.Schema
	// Next returns the next batch, which the caller owns (Release it), or
	// io.EOF after the last one. After any other error the reader is done:
	// the error names the file, and for bad data the row and column.
	Next() (arrow.RecordBatch, error)
	// Close releases the reader and its file.
	Close() error
}

// Open reads one object of format f as batches of schema. The reader takes
// ownership of obj. name is the file's name in messages.
func Open(obj store.Object, name string, f Format, schema *arrow.Schema, opts Options) (BatchReader, error) {
	if err := CheckSchema(schema); err != nil {
		obj.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	mem := opts.Mem
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	var (
		r   BatchReader
		err error
	)
	switch f {
	case CSV:
		r, err = newCSVReader(obj, name, schema, opts.csv(), opts, mem)
	case JSONL:
		r, err = newJSONReader(obj, name, schema, opts, mem)
	case Parquet:
		r, err = newParquetReader(obj, name, schema, opts, mem)
	case Arrow, ArrowStream:
		r, err = newIPCReader(obj, name, schema, mem)
	default:
		err = fmt.Errorf("%s: cannot read format %s", name, f)
	}
	if err != nil {
		obj.Close()
		return nil, err
	}
	return r, nil
}

// OpenStream reads an Arrow IPC stream (stdin) as batches of schema. The
// caller keeps ownership of r.
func OpenStream(r io.Reader, name string, schema *arrow.Schema, opts Options) (BatchReader, error) {
	if err := CheckSchema(schema); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	mem := opts.Mem
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	return newIPCStreamReader(newIPCMessages(r, -1, mem), io.NopCloser(nil), name, schema, mem)
}

// OpenFiles reads files one after the other, in order, opening each only
// when the previous one is done.
func OpenFiles(files []File, f Format, schema *arrow.Schema, opts Options) BatchReader {
	return &multiReader{files: files, format: f, schema: schema, opts: opts}
}

// ReadGlobs is Glob followed by OpenFiles.
func ReadGlobs(root string, patterns []string, f Format, schema *arrow.Schema, opts Options) (BatchReader, error) {
	files, err := Glob(root, patterns)
	if err != nil {
		return nil, err
	}
	if err := CheckSchema(schema); err != nil {
		return nil, err
	}
	return OpenFiles(files, f, schema, opts), nil
}

type multiReader struct {
	files  []File
	format Format
	schema *arrow.Schema
	opts   Options
	cur    BatchReader
	err    error
}

func (m *multiReader) Schema() *arrow.Schema { return m.schema }

func (m *multiReader) Next() (arrow.RecordBatch, error) {
	for m.err == nil {
		if m.cur == nil {
			if len(m.files) == 0 {
				m.err = io.EOF
				break
			}
			f := m.files[0]
			m.files = m.files[1:]
			obj, err := store.OpenFile(f.Path)
			if err != nil {
				m.err = fmt.Errorf("%s: %w", f.Name, unwrapPath(err))
				break
			}
			m.cur, m.err = Open(obj, f.Name, m.format, m.schema, m.opts)
			continue
		}
		rec, err := m.cur.Next()
		if err == io.EOF {
			m.cur.Close()
			m.cur = nil
			continue
		}
		if err != nil {
			m.err = err
			break
		}
		return rec, nil
	}
	return nil, m.err
}

func (m *multiReader) Close() error {
	if m.cur != nil {
		m.cur.Close()
		m.cur = nil
	}
	m.files = nil
	return nil
}

// unwrapPath drops the OS path from an open error when the caller names the
// file itself.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ReadAll drains r into a slice of batches (tests, small inputs) and closes it.
func ReadAll(r BatchReader) ([]arrow.RecordBatch, error) {
	defer r.Close()
	var out []arrow.RecordBatch
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			for _, b := range out {
				b.Release()
			}
			return nil, err
		}
		out = append(out, rec)
	}
}
