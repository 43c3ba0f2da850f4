package format

import (
	"bufio"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
)

// Writer writes batches of one schema to a file in one format.
type Writer interface {
	// Write appends a batch. Its columns must have the writer's types (names
	// and nullability need not match).
	Write(rec arrow.RecordBatch) error
	// Close finishes the file (Parquet footer, IPC footer, buffered text). It
	// does not close the io.Writer the Writer was made with.
	Close() error
}

// WriteOptions configure writers.
type WriteOptions struct {
	CSV *CSVOptions      // CSV only; nil means DefaultCSV() (the `read` contract)
	Mem memory.Allocator // nil means memory.DefaultAllocator
}

// noClose hides the Close method of the destination: arrow's writers close
// their sink, and a sink may be stdout or a store.Writer that must be
// committed instead.
type noClose struct{ io.Writer }

// NewWriter returns a Writer of format f over w.
//
// Parquet files are Snappy-compressed, with row groups of up to
// ParquetRowGroupRows rows, dictionary-encode only string and binary
// columns whose first batch repeats values (parquetWriter), and store the
// Arrow schema so that types Parquet lacks (timestamp(s), duration, unsigned
// widths) read back exactly.
func NewWriter(w io.Writer, f Format, schema *arrow.Schema, opts WriteOptions) (Writer, error) {
	if err := CheckSchema(schema); err != nil {
		return nil, err
	}
	mem := opts.Mem
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	switch f {
	case Parquet:
		pw := &parquetWriter{out: w, schema: schema, mem: mem}
		return &arrowWriter{schema: schema, write: pw.write, close: pw.close}, nil
	case Arrow:
		fw, err := ipc.NewFileWriter(noClose{w}, ipc.WithSchema(schema), ipc.WithAllocator(mem))
		if err != nil {
			return nil, err
		}
		return &arrowWriter{schema: schema, write: fw.Write, close: fw.Close}, nil
	case ArrowStream:
		sw := ipc.NewWriter(noClose{w}, ipc.WithSchema(schema), ipc.WithAllocator(mem))
		return &arrowWriter{schema: schema, write: sw.Write, close: sw.Close}, nil
	case CSV:
		o := DefaultCSV()
		if opts.CSV != nil {
			o = *opts.CSV
		}
		if err := o.validate(); err != nil {
			return nil, err
		}
		return newCSVWriter(w, schema, o)
	case JSONL:
		return newJSONWriter(w, schema), nil
	}
	return nil, fmt.Errorf("cannot write format %s", f)
}

// conformBatch checks rec's column types against schema and relabels it with
// schema (arrow's writers compare schemas, names and nullability included).
func conformBatch(rec arrow.RecordBatch, schema *arrow.Schema) (arrow.RecordBatch, error) {
	if rec.Schema().Equal(schema) {
		rec.Retain()
		return rec, nil
	}
	if int(rec.NumCols()) != schema.NumFields() {
		return nil, fmt.Errorf("batch has %d columns, the writer's schema %d", rec.NumCols(), schema.NumFields())
	}
	for i, f := range schema.Fields() {
		if !arrow.TypeEqual(rec.Column(i).DataType(), f.Type) {
			return nil, fmt.Errorf("column %s: batch has %s, the writer's schema %s", f.Name, TypeString(rec.Column(i).DataType()), TypeString(f.Type))
		}
	}
	return array.NewRecordBatch(schema, rec.Columns(), rec.NumRows()), nil
}

// typeKey is the field metadata key that records a model type Parquet cannot
// store, so that our readers restore it exactly:
//
//   - duration(u) is written as int64 (arrow's Parquet writer has no duration)
//   - timestamp(s) is written as timestamp(ms) (Parquet has no seconds unit)
//
// Other engines see a plain int64 or a millisecond timestamp.
const typeKey = "thund.type"

// parquetSchema marks the fields Parquet cannot store as they are.
func parquetSchema(schema *arrow.Schema) *arrow.Schema {
	fields := schema.Fields()
	changed := false
	for i, f := range fields {
		md := arrow.NewMetadata([]string{typeKey}, []string{TypeString(f.Type)})
		switch t := f.Type.(type) {
		case *arrow.DurationType:
			fields[i] = arrow.Field{Name: f.Name, Type: arrow.PrimitiveTypes.Int64, Nullable: f.Nullable, Metadata: md}
			changed = true
		case *arrow.TimestampType:
			if t.Unit == arrow.Second {
				fields[i] = arrow.Field{Name: f.Name, Type: f.Type, Nullable: f.Nullable, Metadata: md}
				changed = true
			}
		}
	}
	if !changed {
		return schema
	}
	md := schema.Metadata()
	return arrow.NewSchema(fields, &md)
}

// relabelBatch gives rec's columns the types of schema without copying
// (same physical layout: duration and int64).
func relabelBatch(rec arrow.RecordBatch, schema *arrow.Schema) arrow.RecordBatch {
	cols := make([]arrow.Array, rec.NumCols())
	for i, c := range rec.Columns() {
		want := schema.Field(i).Type
		if arrow.TypeEqual(c.DataType(), want) {
			c.Retain()
			cols[i] = c
			continue
		}
		d := c.Data()
		nd := array.NewData(want, d.Len(), d.Buffers(), nil, d.NullN(), d.Offset())
		cols[i] = array.MakeFromData(nd)
		nd.Release()
	}
	out := array.NewRecordBatch(schema, cols, rec.NumRows())
	for _, c := range cols {
		c.Release()
	}
	return out
}

type arrowWriter struct {
	schema *arrow.Schema
	write  func(arrow.RecordBatch) error
	close  func() error
}

func (w *arrowWriter) Write(rec arrow.RecordBatch) error {
	r, err := conformBatch(rec, w.schema)
	if err != nil {
		return err
	}
	defer r.Release()
	return w.write(r)
}

func (w *arrowWriter) Close() error { return w.close() }

// textWriter is the shared frame of the CSV and JSON lines writers.
type textWriter struct {
	w      *bufio.Writer
	schema *arrow.Schema
	row    func(dst []byte, fmts []textFormatter, cols []arrow.Array, i int) []byte
	buf    []byte
}

func (w *textWriter) Write(rec arrow.RecordBatch) error {
	r, err := conformBatch(rec, w.schema)
	if err != nil {
		return err
	}
	defer r.Release()
	cols := r.Columns()
	fmts := make([]textFormatter, len(cols))
	for i, c := range cols {
		if fmts[i], err = newTextFormatter(c); err != nil {
			return err
		}
	}
	for i := 0; i < int(r.NumRows()); i++ {
		w.buf = w.row(w.buf[:0], fmts, cols, i)
		if _, err := w.w.Write(w.buf); err != nil {
			return err
		}
	}
	return nil
}

func (w *textWriter) Close() error { return w.w.Flush() }

func newCSVWriter(out io.Writer, schema *arrow.Schema, o CSVOptions) (Writer, error) {
	null := ""
	if len(o.Nulls) > 0 {
		null = o.Nulls[0]
	}
	tw := &textWriter{w: bufio.NewWriterSize(out, 1<<16), schema: schema}
	var field []byte
	quote := func(dst, v []byte) []byte {
		needs := len(v) == 0 || string(v) == null
		for _, c := range v {
			if c == o.Delimiter || c == o.Quote || c == '\n' || c == '\r' || (o.Escape != 0 && c == o.Escape) {
				needs = true
				break
			}
		}
		if !needs {
			return append(dst, v...)
		}
		dst = append(dst, o.Quote)
		for _, c := range v {
			if c == o.Quote || (o.Escape != 0 && c == o.Escape && o.Escape != o.Quote) {
				if c == o.Quote {
					dst = append(dst, o.Quote)
				} else {
					dst = append(dst, o.Escape)
				}
			}
			dst = append(dst, c)
		}
		return append(dst, o.Quote)
	}
	tw.row = func(dst []byte, fmts []textFormatter, cols []arrow.Array, i int) []byte {
		for c, col := range cols {
			if c > 0 {
				dst = append(dst, o.Delimiter)
			}
			if col.IsNull(i) {
				dst = append(dst, null...)
				continue
			}
			field = fmts[c](field[:0], i)
			dst = quote(dst, field)
		}
		return append(dst, '\n')
	}
	if o.Header {
		var b []byte
		for i, f := range schema.Fields() {
			if i > 0 {
				b = append(b, o.Delimiter)
			}
			b = quote(b, []byte(f.Name))
		}
		b = append(b, '\n')
		if _, err := tw.w.Write(b); err != nil {
			return nil, err
		}
	}
	return tw, nil
}

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes U+FFFD.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, `\ufffd`...)
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

// JSON lines output: one object per row, keys in schema order, NULL as
// null. Numbers (integers, decimals exactly, floats as in CSV) and bools are
// JSON literals; NaN and ±Infinity, which JSON lacks, are the strings "NaN",
// "Infinity", "-Infinity" (as Spark writes them); dates, timestamps and
// base64 binaries are strings in their CSV text form; arrays are JSON
// arrays, maps and structs JSON objects (nested.go).
func newJSONWriter(out io.Writer, schema *arrow.Schema) Writer {
	keys := make([][]byte, schema.NumFields())
	quoted := make([]bool, schema.NumFields())
	nested := make([]bool, schema.NumFields())
	for i, f := range schema.Fields() {
		keys[i] = append(appendJSONString(nil, f.Name), ':')
		switch f.Type.ID() {
		case arrow.STRING, arrow.BINARY, arrow.DATE32, arrow.TIMESTAMP:
			quoted[i] = true
		case arrow.LIST, arrow.MAP, arrow.STRUCT:
			nested[i] = true
		}
	}
	tw := &textWriter{w: bufio.NewWriterSize(out, 1<<16), schema: schema}
	var field []byte
	tw.row = func(dst []byte, fmts []textFormatter, cols []arrow.Array, i int) []byte {
		dst = append(dst, '{')
		for c, col := range cols {
			if c > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, keys[c]...)
			if col.IsNull(i) {
				dst = append(dst, "null"...)
				continue
			}
			if nested[c] { // nested.go: a JSON array or object
				if out, err := appendNestedJSON(dst, col, i); err == nil {
					dst = out
					continue
				}
			}
			field = fmts[c](field[:0], i)
			if quoted[c] || (len(field) > 0 && (field[0] == 'N' || field[0] == 'I' || (field[0] == '-' && len(field) > 1 && field[1] == 'I'))) {
				dst = appendJSONString(dst, string(field))
			} else {
				dst = append(dst, field...)
			}
		}
		return append(dst, '}', '\n')
	}
	return tw
}

// parquetWriter opens its file writer at the first batch (or at Close, for
// an empty file), when it can see the data (parquetProps). The file is
// written by the page encoder of pqwrite.go.
type parquetWriter struct {
	out      io.Writer
	schema   *arrow.Schema
	pqSchema *arrow.Schema
	mem      memory.Allocator
	fw       *pqFile
}

// parquetProps are the properties of a Parquet file of schema whose first
// batch is first (nil for an empty file), and which top-level columns are
// dictionary-encoded: a string or binary column whose first batch holds
// mostly distinct values is written plain, since dictionary-encoding it
// hashes every value of every row group into a dictionary that overflows
// and is then thrown away.
func parquetProps(schema *arrow.Schema, first arrow.RecordBatch, mem memory.Allocator) (*parquet.WriterProperties, []bool) {
	popts := []parquet.WriterProperty{
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(ParquetRowGroupRows),
		parquet.WithAllocator(mem),
		parquet.WithCreatedBy("thund"),
		// Dictionary pages only for strings and binary: for numbers and
		// times, hashing every value into a dictionary that overflows
		// for any high-cardinality column costs more than it saves.
		parquet.WithDictionaryDefault(false),
	}
	dict := make([]bool, schema.NumFields())
	for i, f := range schema.Fields() {
		switch f.Type.ID() {
		case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
			if first == nil || !mostlyDistinct(first.Column(i)) {
				popts = append(popts, parquet.WithDictionaryFor(f.Name, true))
				dict[i] = true
			}
		}
	}
	return parquet.NewWriterProperties(popts...), dict
}

func (p *parquetWriter) open(first arrow.RecordBatch) error {
	props, dict := parquetProps(p.schema, first, p.mem)
	p.pqSchema = parquetSchema(p.schema)
	fw, err := newPQFile(p.out, p.pqSchema, props, dict)
	if err != nil {
		return err
	}
	p.fw = fw
	return nil
}

func (p *parquetWriter) write(rec arrow.RecordBatch) error {
	if p.fw == nil {
		if err := p.open(rec); err != nil {
			return err
		}
	}
	if p.pqSchema != p.schema {
		r := relabelBatch(rec, p.pqSchema)
		defer r.Release()
		return p.fw.Write(r)
	}
	return p.fw.Write(rec)
}

func (p *parquetWriter) close() error {
	if p.fw == nil {
		if err := p.open(nil); err != nil {
			return err
		}
	}
	return p.fw.Close()
}

// distinctSample is how many values of a first batch mostlyDistinct looks
// at, and distinctMin the fewest it decides on.
const distinctSample, distinctMin = 4096, 256

// mostlyDistinct reports whether more than three quarters of the first
// (up to) distinctSample non-null values of a string or binary column are
// distinct. Fewer than distinctMin values decide nothing (false).
func mostlyDistinct(col arrow.Array) bool {
	var value func(i int) string
	switch a := col.(type) {
	case *array.String:
		value = a.Value
	case *array.LargeString:
		value = a.Value
	case *array.Binary:
		value = func(i int) string { return string(a.Value(i)) }
	case *array.LargeBinary:
		value = func(i int) string { return string(a.Value(i)) }
	default:
		return false
	}
	seen := make(map[string]struct{}, distinctSample)
	n := 0
	for i := 0; i < col.Len() && n < distinctSample; i++ {
		if col.IsNull(i) {
			continue
		}
		n++
		seen[value(i)] = struct{}{}
	}
	return n >= distinctMin && 4*len(seen) > 3*n
}
