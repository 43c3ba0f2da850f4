package warehouse

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/format"
)

// Open reads a committed dataset version: its files in recorded order, as
// batches of its recorded schema.
func (w *Warehouse) Open(ctx context.Context, d *Dataset, opts format.Options) (format.BatchReader, error) {
	schema, err := d.ArrowSchema()
	if err != nil {
		return nil, err
	}
	f, err := d.FileFormat()
	if err != nil {
		return nil, err
	}
	return &datasetReader{ctx: ctx, w: w, files: d.Files, format: f, schema: schema, opts: opts}, nil
}

// ReadDataset resolves a dataset's latest version (version 0) or version N
// and opens it.
func (w *Warehouse) ReadDataset(ctx context.Context, name string, version int64, opts format.Options) (format.BatchReader, *Dataset, error) {
	d, _, err := w.Resolve(ctx, name, version)
	if err != nil {
		return nil, nil, err
	}
	r, err := w.Open(ctx, d, opts)
	return r, d, err
}

type datasetReader struct {
	ctx    context.Context
	w      *Warehouse
	files  []File
	format format.Format
	schema *arrow.Schema
	opts   format.Options
	cur    format.BatchReader
	err    error
}

func (r *datasetReader) Schema() *arrow.Schema { return r.schema }

func (r *datasetReader) Next() (arrow.RecordBatch, error) {
	for r.err == nil {
		if r.cur == nil {
			if len(r.files) == 0 {
				r.err = io.EOF
				break
			}
			f := r.files[0]
			r.files = r.files[1:]
			obj, err := r.w.FS.Open(r.ctx, f.Path)
			if err != nil {
				r.err = fmt.Errorf("committed file %s: %w", r.w.FS.Location(f.Path), err)
				break
			}
			if r.cur, r.err = format.Open(obj, r.w.FS.Location(f.Path), r.format, r.schema, r.opts); r.err != nil {
				break
			}
			continue
		}
		rec, err := r.cur.Next()
		if err == io.EOF {
			r.cur.Close()
			r.cur = nil
			continue
		}
		if err != nil {
			r.err = err
			break
		}
		return rec, nil
	}
	return nil, r.err
}

func (r *datasetReader) Close() error {
	if r.cur != nil {
		r.cur.Close()
		r.cur = nil
	}
	r.files = nil
	return nil
}
