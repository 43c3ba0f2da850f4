package format

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// CSV is decoded by this package's own scanner and typed appenders, not by
// arrow's csv reader: arrow's reader (over encoding/csv) reports neither the
// line a bad value is on nor a typed want/got message, it cannot take a quote
// character other than '"', and it cannot tell a quoted empty string from
// NULL. The scanner follows RFC 4180 strictly (a quote inside an unquoted
// field, text after a closing quote, or an unterminated quote is an error
// naming the line and field), tracks the physical line each record starts on,
// and hands each field to its column's typed parser.

// csvScanner splits a stream into records.
type csvScanner struct {
	r      *bufio.Reader
	o      CSVOptions
	line   int64 // physical lines read so far
	buf    []byte
	ends   []int
	quoted []bool
	first  bool
}

func newCSVScanner(r io.Reader, o CSVOptions) *csvScanner {
	return &csvScanner{r: bufio.NewReaderSize(r, 1<<16), o: o, first: true}
}

// readLine returns the next physical line without its line ending, or io.EOF.
// The slice is valid until the next call.
func (s *csvScanner) readLine() ([]byte, error) {
	line, err := s.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		long := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull {
			line, err = s.r.ReadSlice('\n')
			long = append(long, line...)
		}
		line = long
	}
	if err == io.EOF && len(line) > 0 {
		err = nil
	}
	if err != nil {
		return nil, err
	}
	s.line++
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	if s.first {
		s.first = false
		line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
	}
	return line, nil
}

func (s *csvScanner) field(i int) []byte {
	start := 0
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.buf[start:s.ends[i]]
}

// next reads one record and returns the line it starts on. Blank lines are
// skipped when skipBlank is set; otherwise a blank line is a record of one
// empty field.
func (s *csvScanner) next(skipBlank bool) (int64, error) {
	s.buf, s.ends, s.quoted = s.buf[:0], s.ends[:0], s.quoted[:0]
	var line []byte
	var err error
	for {
		line, err = s.readLine()
		if err != nil {
			return 0, err
		}
		if len(line) > 0 || !skipBlank {
			break
		}
	}
	start := s.line
	d, q, esc := s.o.Delimiter, s.o.Quote, s.o.Escape
	pos := 0
	for {
		col := len(s.ends) + 1
		if pos < len(line) && line[pos] == q {
			// Quoted field.
			openLine := s.line
			pos++
			for {
				i := pos
				for i < len(line) && line[i] != q && (esc == 0 || esc == q || line[i] != esc) {
					i++
				}
				s.buf = append(s.buf, line[pos:i]...)
				if i == len(line) {
					// The field goes on past the line end.
					s.buf = append(s.buf, '\n')
					line, err = s.readLine()
					if err == io.EOF {
						return 0, &DataError{Row: openLine, Col: col, Msg: "quoted field not terminated before the end of the file"}
					}
					if err != nil {
						return 0, err
					}
					pos = 0
					continue
				}
				if line[i] == q {
					if i+1 < len(line) && line[i+1] == q {
						s.buf = append(s.buf, q) // doubled quote
						pos = i + 2
						continue
					}
					pos = i + 1 // closing quote
					break
				}
				// The escape character: the next byte is literal. At the end
				// of a line it escapes the line break, which the next round
				// appends.
				if i+1 < len(line) {
					s.buf = append(s.buf, line[i+1])
					pos = i + 2
				} else {
					pos = i + 1
				}
			}
			s.ends = append(s.ends, len(s.buf))
			s.quoted = append(s.quoted, true)
			if pos == len(line) {
				return start, nil
			}
			if line[pos] != d {
				return 0, &DataError{Row: s.line, Col: col, Msg: fmt.Sprintf("unexpected %q after closing quote (want %q or end of line)", line[pos], d)}
			}
			pos++
			if pos == len(line) { // trailing delimiter: one more empty field
				s.ends = append(s.ends, len(s.buf))
				s.quoted = append(s.quoted, false)
				return start, nil
			}
			continue
		}
		// Unquoted field.
		i := pos
		for i < len(line) && line[i] != d {
			if line[i] == q {
				return 0, &DataError{Row: s.line, Col: col, Msg: fmt.Sprintf("quote character %q inside an unquoted field (quote the whole field and double the quote)", q)}
			}
			i++
		}
		s.buf = append(s.buf, line[pos:i]...)
		s.ends = append(s.ends, len(s.buf))
		s.quoted = append(s.quoted, false)
		if i == len(line) {
			return start, nil
		}
		pos = i + 1
		if pos == len(line) {
			s.ends = append(s.ends, len(s.buf))
			s.quoted = append(s.quoted, false)
			return start, nil
		}
	}
}

type csvCol struct {
	field    arrow.Field
	b        array.Builder
	app      textAppender
	nullable bool
	isString bool
}

type csvReader struct {
	name    string
	c       io.Closer
	sc      *csvScanner
	schema  *arrow.Schema
	cols    []csvCol
	fieldOf []int // declared column -> field index in a record
	nfields int   // fields per record
	nulls   []string
	batch   int
	skip    bool // skip blank lines
	err     error
}

func newCSVReader(r io.ReadCloser, name string, schema *arrow.Schema, o CSVOptions, batch int, mem memory.Allocator) (BatchReader, error) {
	if err := o.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	cr := &csvReader{name: name, c: r, sc: newCSVScanner(r, o), schema: schema, nulls: o.Nulls, batch: batch}
	cr.skip = schema.NumFields() != 1
	for _, f := range schema.Fields() {
		b := array.NewBuilder(mem, f.Type)
		app, err := newTextAppender(f.Type, b)
		if err != nil {
			return nil, fmt.Errorf("%s: column %s: %w", name, f.Name, err)
		}
		cr.cols = append(cr.cols, csvCol{field: f, b: b, app: app, nullable: f.Nullable, isString: f.Type.ID() == arrow.STRING})
	}
	cr.fieldOf = make([]int, len(cr.cols))
	if !o.Header {
		for i := range cr.fieldOf {
			cr.fieldOf[i] = i
		}
		cr.nfields = len(cr.cols)
		return cr, nil
	}
	line, err := cr.sc.next(true)
	if err == io.EOF {
		// An empty file: no header, no rows.
		cr.err = io.EOF
		return cr, nil
	}
	if err != nil {
		return nil, cr.placed(err)
	}
	header := make([]string, len(cr.sc.ends))
	for i := range header {
		header[i] = string(cr.sc.field(i))
	}
	cr.nfields = len(header)
	for ci, c := range cr.cols {
		idx := -1
		for i, h := range header {
			if h == c.field.Name {
				idx = i
				break
			}
		}
		if idx < 0 {
			for i, h := range header {
				if strings.EqualFold(h, c.field.Name) {
					if idx >= 0 {
						return nil, &DataError{File: name, Row: line, Column: c.field.Name, Msg: fmt.Sprintf("header names it twice, in different case (%q and %q)", header[idx], h)}
					}
					idx = i
				}
			}
		}
		if idx < 0 {
			return nil, &DataError{File: name, Row: line, Column: c.field.Name, Msg: fmt.Sprintf("not in the header (header has: %s)", strings.Join(header, ", "))}
		}
		cr.fieldOf[ci] = idx
	}
	return cr, nil
}

func (r *csvReader) Schema() *arrow.Schema { return r.schema }

// placed fills in the file name of a scanner error.
func (r *csvReader) placed(err error) error {
	var de *DataError
	if errors.As(err, &de) {
		de.File = r.name
		return de
	}
	return fmt.Errorf("%s: line %d: %w", r.name, r.sc.line+1, err)
}

func (r *csvReader) isNull(s []byte) bool {
	for _, n := range r.nulls {
		if string(s) == n {
			return true
		}
	}
	return false
}

func (r *csvReader) Next() (arrow.RecordBatch, error) {
	if r.err != nil {
		return nil, r.err
	}
	rows := 0
	for rows < r.batch {
		line, err := r.sc.next(r.skip)
		if err == io.EOF {
			r.err = io.EOF
			break
		}
		if err != nil {
			return nil, r.fail(r.placed(err))
		}
		if got := len(r.sc.ends); got != r.nfields {
			col := r.nfields + 1
			if got < r.nfields {
				col = got
			}
			return nil, r.fail(&DataError{File: r.name, Row: line, Col: col, Msg: fmt.Sprintf("want %d fields, got %d", r.nfields, got)})
		}
		for ci := range r.cols {
			c := &r.cols[ci]
			fi := r.fieldOf[ci]
			raw := r.sc.field(fi)
			if !r.sc.quoted[fi] && r.isNull(raw) {
				if !c.nullable {
					return nil, r.fail(&DataError{File: r.name, Row: line, Col: fi + 1, Column: c.field.Name, Msg: "NULL in a NOT NULL column"})
				}
				c.b.AppendNull()
				continue
			}
			// The appender does not keep s (builders copy), so the bytes
			// need not be copied into a string first.
			s := unsafe.String(unsafe.SliceData(raw), len(raw))
			if err := c.app(s); err != nil {
				return nil, r.fail(&DataError{File: r.name, Row: line, Col: fi + 1, Column: c.field.Name, Msg: err.Error()})
			}
		}
		rows++
	}
	if rows == 0 {
		return nil, r.err
	}
	return r.flush(rows), nil
}

func (r *csvReader) flush(rows int) arrow.RecordBatch {
	cols := make([]arrow.Array, len(r.cols))
	for i := range r.cols {
		cols[i] = r.cols[i].b.NewArray()
	}
	rec := array.NewRecordBatch(r.schema, cols, int64(rows))
	for _, c := range cols {
		c.Release()
	}
	return rec
}

func (r *csvReader) fail(err error) error {
	r.err = err
	for i := range r.cols {
		r.cols[i].b.NewArray().Release() // drop the partial batch
	}
	return err
}

func (r *csvReader) Close() error {
	for i := range r.cols {
		if r.cols[i].b != nil {
			r.cols[i].b.Release()
			r.cols[i].b = nil
		}
	}
	if r.err == nil {
		r.err = errors.New("reader closed")
	}
	return r.c.Close()
}
