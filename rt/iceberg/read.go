package iceberg

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	ice "github.com/apache/iceberg-go"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/format/pqread"
)

// Reading a table's data files into the declared schema (the columns the
// compiler read from the table's metadata). A column is found in a file by
// its Iceberg field id, so that a renamed column reads: the Parquet field
// ids other engines write, else the table's name mapping
// (schema.name-mapping.default, which Thund's own tables carry), else the
// column's name. A column a file lacks is NULL, or the file's value of an
// identity partition on it. rt/format's Parquet reader decodes and casts
// (Iceberg's promotions int to long, float to double and a decimal's
// widening are lossless casts there).

// Reader reads files of t into batches of schema, one file after the
// other. opts are rt/format's (Columns are indexes into schema). base is
// the schema the declared columns are looked up in first: a time-travelled
// snapshot's (SnapshotSchema), or nil for the current one.
func (t *Table) Reader(ctx context.Context, files []DataFile, schema *arrow.Schema, base *ice.Schema, opts format.Options) (format.BatchReader, error) {
	ids, err := t.columnIDs(schema, base)
	if err != nil {
		return nil, err
	}
	return &tableReader{ctx: ctx, t: t, files: files, schema: schema, ids: ids, opts: opts, mapping: t.nameMapping()}, nil
}

// CheckColumns reports the declared columns that the table does not
// have (a preflight check: Reader fails on them too); base as Reader's.
func (t *Table) CheckColumns(schema *arrow.Schema, base *ice.Schema) error {
	_, err := t.columnIDs(schema, base)
	return err
}

// columnIDs finds each declared column's field id in base (the current
// schema when nil; a time travel's snapshot schema: the columns the
// compiler declared from it) by name, exact, else case-insensitive, else
// in the older schemas, newest first: a column renamed since the pipeline
// was compiled is still read, under its declared name.
func (t *Table) columnIDs(schema *arrow.Schema, base *ice.Schema) ([]int, error) {
	cur := t.Meta.CurrentSchema()
	if base != nil {
		cur = base
	}
	older := slices.Clone(t.Meta.Schemas)
	slices.SortFunc(older, func(a, b *ice.Schema) int { return b.ID - a.ID })
	ids := make([]int, schema.NumFields())
	var errs []error
	for i, f := range schema.Fields() {
		nf, ok := cur.FindFieldByName(f.Name)
		if !ok {
			nf, ok = cur.FindFieldByNameCaseInsensitive(f.Name)
		}
		for _, s := range older {
			if ok {
				break
			}
			if nf, ok = s.FindFieldByName(f.Name); ok {
				_, ok = cur.FindFieldByID(nf.ID) // not dropped since
			}
		}
		if !ok {
			var have []string
			for _, c := range cur.Fields() {
				have = append(have, c.Name)
			}
			errs = append(errs, fmt.Errorf("Iceberg table %s: column %s is not in its current schema (%s); recompile the pipeline against the table", t.Name, f.Name, strings.Join(have, ", ")))
			continue
		}
		ids[i] = nf.ID
	}
	return ids, errors.Join(errs...)
}

// nameMapping is the table's default name mapping, top-level names to
// field ids (nil when it has none, or one that does not parse).
func (t *Table) nameMapping() map[string]int {
	raw := t.Meta.Properties["schema.name-mapping.default"]
	if raw == "" {
		return nil
	}
	var fs []mappedField
	if json.Unmarshal([]byte(raw), &fs) != nil {
		return nil
	}
	m := map[string]int{}
	for _, f := range fs {
		for _, n := range f.Names {
			m[n] = f.FieldID
		}
	}
	return m
}

// fileColumns reads a Parquet file's footer: its top-level columns' names
// by field id (ids < 0: the file has none), and their Arrow fields as
// rt/format's reader reads them.
func fileColumns(obj interface {
	io.ReaderAt
	io.Seeker
}) (names []string, ids []int, fields []arrow.Field, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("not a readable Parquet file: %v", p)
		}
	}()
	pf, err := file.NewParquetReader(obj)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("not a readable Parquet file: %w", err)
	}
	root := pf.MetaData().Schema.Root()
	for i := 0; i < root.NumFields(); i++ {
		n := root.Field(i)
		names = append(names, n.Name())
		ids = append(ids, int(n.FieldID()))
	}
	as, err := pqread.FromParquet(pf.MetaData().Schema, &pqread.ArrowReadProperties{}, pf.MetaData().KeyValueMetadata())
	if err != nil {
		return nil, nil, nil, err
	}
	if as.NumFields() != len(names) {
		return nil, nil, nil, fmt.Errorf("%d columns in the Parquet schema, %d in its Arrow schema", len(names), as.NumFields())
	}
	return names, ids, as.Fields(), nil
}

// tableReader reads files one after the other.
type tableReader struct {
	ctx     context.Context
	t       *Table
	files   []DataFile
	schema  *arrow.Schema
	ids     []int
	opts    format.Options
	mapping map[string]int
	cur     *fileReader
	err     error
}

func (r *tableReader) Schema() *arrow.Schema { return r.schema }

func (r *tableReader) Next() (arrow.RecordBatch, error) {
	if r.err != nil {
		return nil, r.err
	}
	for {
		if r.cur == nil {
			if len(r.files) == 0 {
				r.err = io.EOF
				return nil, io.EOF
			}
			f := r.files[0]
			r.files = r.files[1:]
			fr, err := r.open(f)
			if err != nil {
				r.err = err
				return nil, err
			}
			r.cur = fr
		}
		b, err := r.cur.Next()
		if err == io.EOF {
			r.cur.Close()
			r.cur = nil
			continue
		}
		if err != nil {
			r.err = err
			return nil, err
		}
		return b, nil
	}
}

func (r *tableReader) Close() error {
	if r.err == nil {
		r.err = errors.New("reader closed")
	}
	if r.cur != nil {
		err := r.cur.Close()
		r.cur = nil
		return err
	}
	return nil
}

// open plans one file: which of its columns holds each declared column.
func (r *tableReader) open(f DataFile) (*fileReader, error) {
	t := r.t
	label := f.URI
	mem := r.opts.Mem
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	obj, err := t.FS.Open(r.ctx, f.Name)
	if err != nil {
		return nil, fmt.Errorf("Iceberg table %s: data file %s: %w", t.Name, label, err)
	}
	names, ids, fields, err := fileColumns(obj)
	obj.Close()
	if err != nil {
		return nil, fmt.Errorf("Iceberg table %s: data file %s: %w", t.Name, label, err)
	}
	byID := map[int]string{}
	fieldOf := map[string]arrow.Field{}
	for i, n := range names {
		fieldOf[n] = fields[i]
	}
	hasIDs := false
	for i, id := range ids {
		if id >= 0 {
			hasIDs = true
			byID[id] = names[i]
		}
	}
	if !hasIDs {
		if r.mapping != nil {
			for _, n := range names {
				if id, ok := r.mapping[n]; ok {
					byID[id] = n
				}
			}
		} else {
			// by name: the current schema's names, else an older
			// schema's (a file written before a rename)
			for _, n := range names {
				if nf, ok := t.Meta.CurrentSchema().FindFieldByName(n); ok {
					byID[nf.ID] = n
					continue
				}
				for _, s := range t.Meta.Schemas {
					if nf, ok := s.FindFieldByName(n); ok {
						if _, taken := byID[nf.ID]; !taken {
							byID[nf.ID] = n
						}
						break
					}
				}
			}
		}
	}
	var spec *ice.PartitionSpec
	if s := t.Meta.Spec(f.SpecID); s != nil {
		spec = s
	}
	fr := &fileReader{label: label, schema: r.schema, pos: make([]int, len(r.ids)), consts: map[int]any{}, proj: make([]projector, len(r.ids)), unread: make([]bool, len(r.ids))}
	var read []arrow.Field
	reads := map[int]bool{}
	if r.opts.Columns != nil {
		for _, c := range r.opts.Columns {
			reads[c] = true
		}
	}
	var cols []int
	for i, id := range r.ids {
		fr.pos[i] = -1
		fr.unread[i] = r.opts.Columns != nil && !reads[i]
		want := r.schema.Field(i)
		if n, ok := byID[id]; ok {
			fr.pos[i] = len(read)
			if r.opts.Columns == nil || reads[i] {
				cols = append(cols, len(read))
			}
			typ := want.Type
			if nested(typ) {
				// a struct evolved since the file was written reads in
				// the file's type, then is projected (nested.go)
				ff := fieldOf[n]
				if rt, ok := readable(ff.Type); ok {
					if _, ok := format.Conformer(rt, typ, mem); !ok {
						nf, _ := t.Meta.CurrentSchema().FindFieldByID(id)
						ff.Type = rt
						p, err := project(ff, typ, nf.Type, want.Name, mem)
						if err != nil {
							return nil, fmt.Errorf("Iceberg table %s: data file %s: %w", t.Name, label, err)
						}
						fr.proj[i], typ = p, rt
					}
				}
			}
			read = append(read, arrow.Field{Name: n, Type: typ, Nullable: true})
			continue
		}
		if spec == nil || (r.opts.Columns != nil && !reads[i]) {
			continue
		}
		for _, pf := range spec.Fields() {
			if pf.SourceID() == id && pf.Transform.Equals(ice.IdentityTransform{}) {
				if v, ok := f.Partition[pf.FieldID]; ok {
					c, err := constant(memory.DefaultAllocator, want.Type, v, 1)
					if err != nil {
						return nil, fmt.Errorf("Iceberg table %s: data file %s: partition value of %s: %w", t.Name, label, want.Name, err)
					}
					c.Release()
					fr.consts[i] = v
				}
				break
			}
		}
	}
	fr.mem = mem
	if len(read) == 0 {
		// The file holds none of the columns: its rows are its record
		// count of partition values and NULLs.
		fr.left = f.Rows
		return fr, nil
	}
	obj, err = t.FS.Open(r.ctx, f.Name)
	if err != nil {
		return nil, fmt.Errorf("Iceberg table %s: data file %s: %w", t.Name, label, err)
	}
	opts := r.opts
	opts.Columns = cols
	if opts.Columns == nil {
		opts.Columns = []int{}
	}
	if r.opts.Columns == nil {
		opts.Columns = nil
	}
	opts.Bounds = nil // by declared column; the file's columns differ
	in, err := format.Open(obj, label, format.Parquet, arrow.NewSchema(read, nil), opts)
	if err != nil {
		return nil, fmt.Errorf("Iceberg table %s: %w", t.Name, err)
	}
	fr.in, fr.label = in, label
	return fr, nil
}

// fileReader maps one file's batches onto the declared schema.
type fileReader struct {
	in     format.BatchReader
	label  string
	schema *arrow.Schema
	pos    []int       // declared column -> column read; -1: none
	consts map[int]any // a partition value, for columns not in the file
	proj   []projector // per column read in the file's type: to the declared one
	unread []bool      // declared columns the reader does not read (opts.Columns): NULL, even when NOT NULL
	mem    memory.Allocator
	rows   int64
	left   int64 // in == nil: the rows left to make
}

// rowsBatch is an empty batch of n rows (a file none of whose columns is
// read).
func rowsBatch(n int64) arrow.RecordBatch {
	return array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, n)
}

func (r *fileReader) Next() (arrow.RecordBatch, error) {
	var b arrow.RecordBatch
	if r.in == nil {
		if r.left == 0 {
			return nil, io.EOF
		}
		n := min(r.left, 64<<10)
		r.left -= n
		b = rowsBatch(n)
	} else {
		var err error
		if b, err = r.in.Next(); err != nil {
			return nil, err
		}
	}
	defer b.Release()
	n := b.NumRows()
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
		switch {
		case p >= 0 && r.proj[i] != nil:
			c, err := r.proj[i](b.Column(p))
			if err != nil {
				release()
				return nil, &format.DataError{File: r.label, Row: r.rows + 1, Column: f.Name, Msg: err.Error()}
			}
			cols[i] = c
		case p >= 0:
			cols[i] = b.Column(p)
			cols[i].Retain()
		case r.consts[i] != nil:
			c, err := constant(r.mem, f.Type, r.consts[i], int(n))
			if err != nil {
				release()
				return nil, err
			}
			cols[i] = c
		default:
			cols[i] = array.MakeArrayOfNull(r.mem, f.Type, int(n))
		}
		if !f.Nullable && !r.unread[i] && cols[i].NullN() > 0 {
			row := 0
			for !cols[i].IsNull(row) {
				row++
			}
			release()
			return nil, &format.DataError{File: r.label, Row: r.rows + int64(row) + 1, Column: f.Name, Msg: "NULL in a NOT NULL column"}
		}
	}
	r.rows += n
	out := array.NewRecordBatch(r.schema, cols, n)
	release()
	return out, nil
}

func (r *fileReader) Close() error {
	if r.in == nil {
		return nil
	}
	return r.in.Close()
}

// constant is an array of n copies of a partition value v (as iceberg-go
// decodes it from a manifest) of type dt.
func constant(mem memory.Allocator, dt arrow.DataType, v any, n int) (arrow.Array, error) {
	if v == nil {
		return array.MakeArrayOfNull(mem, dt, n), nil
	}
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	for i := 0; i < n; i++ {
		if err := appendValue(b, v); err != nil {
			return nil, err
		}
	}
	return b.NewArray(), nil
}

func appendValue(b array.Builder, v any) error {
	switch b := b.(type) {
	case *array.BooleanBuilder:
		if x, ok := v.(bool); ok {
			b.Append(x)
			return nil
		}
	case *array.Int32Builder:
		if x, ok := asInt(v); ok {
			b.Append(int32(x))
			return nil
		}
	case *array.Int64Builder:
		if x, ok := asInt(v); ok {
			b.Append(x)
			return nil
		}
	case *array.Float32Builder:
		switch x := v.(type) {
		case float32:
			b.Append(x)
			return nil
		case float64:
			b.Append(float32(x))
			return nil
		}
	case *array.Float64Builder:
		switch x := v.(type) {
		case float32:
			b.Append(float64(x))
			return nil
		case float64:
			b.Append(x)
			return nil
		}
	case *array.StringBuilder:
		if x, ok := v.(string); ok {
			b.Append(x)
			return nil
		}
	case *array.BinaryBuilder:
		switch x := v.(type) {
		case []byte:
			b.Append(x)
			return nil
		case string:
			b.AppendString(x)
			return nil
		}
	case *array.Date32Builder:
		if x, ok := asInt(v); ok {
			b.Append(arrow.Date32(x))
			return nil
		}
	case *array.TimestampBuilder:
		if x, ok := asInt(v); ok {
			b.Append(arrow.Timestamp(x))
			return nil
		}
	case *array.Decimal128Builder:
		switch x := v.(type) {
		case ice.Decimal:
			b.Append(x.Val)
			return nil
		case decimal128.Num:
			b.Append(x)
			return nil
		}
	}
	return fmt.Errorf("value %v (%T) does not fit its column", v, v)
}

func asInt(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case ice.Date:
		return int64(x), true
	case ice.Timestamp:
		return int64(x), true
	case ice.Time:
		return int64(x), true
	}
	return 0, false
}

// nested reports whether dt is an array, a map or a struct.
func nested(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.LIST, arrow.MAP, arrow.STRUCT:
		return true
	}
	return false
}
