package format

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/store"
)

// Parquet and Arrow IPC files carry their own schema. Declared columns are
// found in it by name (exact, else case-insensitive), extra file columns are
// not read, and each column is cast to its declared type when that is
// lossless (conform.go); anything else is a SchemaError naming the file, the
// column and both types, before any row is read.

// conformReader maps batches of a file's schema onto the declared schema.
type conformReader struct {
	name   string
	schema *arrow.Schema
	src    func() (arrow.RecordBatch, error) // borrowed batch, or io.EOF
	close  func() error
	pos    []int // declared column -> column in the source batch; -1: not read
	conv   []conformer
	nulls  []arrow.Array // per column not read: all-NULL filler of the longest batch's length
	rows   int64
	err    error
}

// plan matches the declared schema against the file's; it returns for each
// declared column the index of the file field it reads.
func plan(name string, fileSchema, schema *arrow.Schema, mem memory.Allocator) ([]int, []conformer, error) {
	fields := fileSchema.Fields()
	idx := make([]int, schema.NumFields())
	conv := make([]conformer, schema.NumFields())
	var have []string
	for _, f := range fields {
		have = append(have, f.Name)
	}
	for i, want := range schema.Fields() {
		fi := -1
		for j, f := range fields {
			if f.Name == want.Name {
				fi = j
				break
			}
		}
		if fi < 0 {
			for j, f := range fields {
				if strings.EqualFold(f.Name, want.Name) {
					fi = j
					break
				}
			}
		}
		if fi < 0 {
			return nil, nil, &SchemaError{File: name, Column: want.Name, Want: TypeString(want.Type),
				Msg: fmt.Sprintf("not in the file (file has: %s)", strings.Join(have, ", "))}
		}
		c, ok := conformFor(fields[fi].Type, want.Type, mem)
		if t, has := fields[fi].Metadata.GetValue(typeKey); has && t == TypeString(want.Type) {
			// A type our Parquet writer had to store differently (writer.go).
			switch ft := fields[fi].Type.(type) {
			case *arrow.Int64Type:
				ok, c = true, relabel(want.Type)
			case *arrow.TimestampType:
				ok, c = true, divideInts(want.Type, unitMult(ft.Unit)/unitMult(want.Type.(*arrow.TimestampType).Unit), mem)
			}
		}
		if !ok {
			ft := TypeString(fields[fi].Type)
			return nil, nil, &SchemaError{File: name, Column: want.Name, FileType: ft, Want: TypeString(want.Type),
				Msg: fmt.Sprintf("file has %s, schema declares %s (not a lossless cast)", ft, TypeString(want.Type))}
		}
		idx[i], conv[i] = fi, c
	}
	return idx, conv, nil
}

func (r *conformReader) Schema() *arrow.Schema { return r.schema }

func (r *conformReader) Next() (arrow.RecordBatch, error) {
	if r.err != nil {
		return nil, r.err
	}
	for {
		src, err := r.src()
		if err != nil {
			if err != io.EOF {
				err = fmt.Errorf("%s: %w", r.name, err)
			}
			r.err = err
			return nil, err
		}
		n := src.NumRows()
		if n == 0 {
			continue
		}
		cols := make([]arrow.Array, len(r.pos))
		release := func() {
			for _, c := range cols {
				if c != nil {
					c.Release()
				}
			}
		}
		for i, p := range r.pos {
			f := r.schema.Field(i)
			if p < 0 {
				cols[i] = r.filler(i, n)
				continue
			}
			out, row, err := r.conv[i](src.Column(p))
			if err != nil {
				release()
				r.err = &DataError{File: r.name, Row: r.rows + int64(row) + 1, Column: f.Name, Msg: err.Error()}
				return nil, r.err
			}
			cols[i] = out
			if !f.Nullable && out.NullN() > 0 {
				row := 0
				for !out.IsNull(row) {
					row++
				}
				release()
				r.err = &DataError{File: r.name, Row: r.rows + int64(row) + 1, Column: f.Name, Msg: "NULL in a NOT NULL column"}
				return nil, r.err
			}
		}
		r.rows += n
		rec := array.NewRecordBatch(r.schema, cols, n)
		release()
		return rec, nil
	}
}

// filler is an all-NULL column i of n rows (a column the caller does not
// read): a slice of one array shared by every batch, remade only when a
// batch is longer (batches' lengths vary with the sources' chunks, and
// making one zeroes its buffers); the caller releases it.
func (r *conformReader) filler(i int, n int64) arrow.Array {
	if r.nulls == nil {
		r.nulls = make([]arrow.Array, len(r.pos))
	}
	if a := r.nulls[i]; a == nil || int64(a.Len()) < n {
		if a != nil {
			a.Release()
		}
		r.nulls[i] = array.MakeArrayOfNull(memory.DefaultAllocator, r.schema.Field(i).Type, int(n))
	}
	if int64(r.nulls[i].Len()) == n {
		r.nulls[i].Retain()
		return r.nulls[i]
	}
	return array.NewSlice(r.nulls[i], 0, n)
}

func (r *conformReader) Close() error {
	for _, a := range r.nulls {
		if a != nil {
			a.Release()
		}
	}
	r.nulls = nil
	if r.err == nil {
		r.err = errors.New("reader closed")
	}
	if r.close != nil {
		err := r.close()
		r.close = nil
		return err
	}
	return nil
}

func newIPCReader(obj store.Object, name string, schema *arrow.Schema, mem memory.Allocator) (BatchReader, error) {
	// An IPC file is read as the stream it holds before its footer, through
	// the same checks as a stream (ipcmessages.go); the footer is not needed.
	var magic [6]byte
	var msgs *ipcMessages
	if n, _ := obj.ReadAt(magic[:], 0); n == 6 && string(magic[:]) == "ARROW1" {
		stream, size, err := ipcFileStream(obj, obj.Size())
		if err != nil {
			return nil, fmt.Errorf("%s: not a readable Arrow IPC file: %w", name, err)
		}
		msgs = newIPCMessages(stream, size, mem)
	} else {
		if _, err := obj.Seek(0, io.SeekStart); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		msgs = newIPCMessages(obj, obj.Size(), mem)
	}
	return newIPCStreamReader(msgs, obj, name, schema, mem)
}

// newIPCStreamReader reads the IPC messages msgs; closing the reader
// closes c.
func newIPCStreamReader(msgs *ipcMessages, c io.Closer, name string, schema *arrow.Schema, mem memory.Allocator) (BatchReader, error) {
	sr, err := ipc.NewReaderFromMessageReader(msgs, ipc.WithAllocator(mem))
	if err != nil {
		msgs.Release()
		return nil, fmt.Errorf("%s: not a readable Arrow IPC file or stream: %w", name, ipcErr(err))
	}
	fidx, conv, err := plan(name, sr.Schema(), schema, mem)
	if err != nil {
		sr.Release()
		return nil, err
	}
	batch := 0
	return &conformReader{name: name, schema: schema, pos: fidx, conv: conv,
		src: func() (arrow.RecordBatch, error) {
			if sr.Next() {
				batch++
				// arrow-go trusts the lengths and offsets of a batch's
				// arrays; nothing downstream may
				if err := validateBatch(sr.RecordBatch()); err != nil {
					return nil, fmt.Errorf("record batch %d is malformed: %w", batch, err)
				}
				return sr.RecordBatch(), nil
			}
			if err := sr.Err(); err != nil && err != io.EOF {
				return nil, fmt.Errorf("record batch %d: %w", batch+1, ipcErr(err))
			}
			return nil, io.EOF
		},
		close: func() error { sr.Release(); return c.Close() },
	}, nil
}

// validateBatch checks the arrays of rec against their buffers: offsets,
// lengths, dictionary indices. arrow-go's own check can panic on arrays
// inconsistent enough (a string offset past its data): that is an error
// too.
func validateBatch(rec arrow.RecordBatch) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = errors.New("its arrays' offsets or lengths lie outside their buffers")
		}
	}()
	return array.ValidateRecordFull(rec)
}

// ipcErr is err, an error of arrow-go's IPC reader, with a Go runtime error
// it recovered from replaced by a plain message.
func ipcErr(err error) error {
	var re runtime.Error
	if errors.As(err, &re) {
		return errors.New("a message is malformed (the Arrow IPC reader could not decode it)")
	}
	return err
}
