package format

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
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
//
// Its memory is bounded by the longest record plus a constant, whatever the
// size of a field: a field that needs no unescaping is a slice of the line
// it is on (no copy), a line longer than the read buffer is assembled in
// one buffer reused from line to line, and a buffer that one huge record
// grew is dropped before the next record, not kept for the rest of the
// file. Only fields that need unescaping (doubled quotes, escapes, line
// breaks inside quotes) are copied, once, into buf.
type csvScanner struct {
	r    *bufio.Reader
	in   countingReader // what r reads: the input
	ra   io.ReaderAt    // the input, when it is a file (else nil)
	scan []byte         // ahead's buffer
	o    CSVOptions
	line int64  // physical lines read so far
	cur  []byte // the last line read (valid until the next readLine)
	// curLong: cur is in long, not in the read buffer.
	curLong bool
	long    []byte // where a line longer than the read buffer is assembled
	buf     []byte // fields that were unescaped, or spilled
	spans   []csvSpan
	quoted  []bool
	first   bool
	// keepRaw: raw holds the text of the record being read, its physical
	// lines joined by '\n' (the corrupt-record column's value).
	keepRaw bool
	raw     []byte
}

// csvSpan is where one field of the record is: in buf, or (inLine) in cur.
type csvSpan struct {
	start, end int
	inLine     bool
}

// csvKeepBuffer is the largest scanner buffer kept from one record to the
// next; a larger one (a huge field) is dropped once its record is done.
const csvKeepBuffer = 4 << 20

func newCSVScanner(r io.Reader, o CSVOptions) *csvScanner {
	s := &csvScanner{o: o, first: true}
	s.in.r = r
	s.ra, _ = r.(io.ReaderAt) // a file: huge values are measured before they are read
	s.r = bufio.NewReaderSize(&s.in, 1<<16)
	return s
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// csvScanAhead is the size from which a line, or a quoted field that spans
// lines, is measured before it is read any further (when the input is a
// file, an io.ReaderAt), so that its buffer is allocated once at its size,
// not doubled as it grows: a huge value then costs its size plus a
// constant, and is read twice.
const csvScanAhead = 1 << 20

// ahead measures the input from the scanner's position, without consuming
// it: the bytes up to and including the one at which end (fed the input in
// chunks, returning an index or -1) stops, or to the end of the input. ok
// is false when the input is not a file.
func (s *csvScanner) ahead(end func(chunk []byte) int) (n int64, ok bool) {
	if s.ra == nil {
		return 0, false
	}
	if s.scan == nil {
		s.scan = make([]byte, 1<<20)
	}
	buffered, _ := s.r.Peek(s.r.Buffered())
	if i := end(buffered); i >= 0 {
		return int64(i + 1), true
	}
	n, off := int64(len(buffered)), s.in.n
	for {
		m, err := s.ra.ReadAt(s.scan, off)
		if i := end(s.scan[:m]); i >= 0 {
			return n + int64(i+1), true
		}
		n, off = n+int64(m), off+int64(m)
		if err != nil || m == 0 {
			return n, true
		}
	}
}

// reserve makes room in b for n more bytes, at once.
func reserve(b []byte, n int64) []byte {
	if want := int64(len(b)) + n; want > int64(cap(b)) && want <= math.MaxInt32*2 {
		nb := make([]byte, len(b), want)
		copy(nb, b)
		b = nb
	}
	return b
}

// lineEnd finds a line feed.
func lineEnd(chunk []byte) int { return bytes.IndexByte(chunk, '\n') }

// quotedEnd returns a finder of the closing quote of a quoted field whose
// opening quote is behind: a quote that is neither doubled nor escaped.
func (s *csvScanner) quotedEnd() func(chunk []byte) int {
	q, esc := s.o.Quote, s.o.Escape
	skip, sawQ := false, false
	return func(chunk []byte) int {
		for i, c := range chunk {
			switch {
			case skip:
				skip = false
			case sawQ:
				if c != q {
					return i // the quote before it closes the field
				}
				sawQ = false // a doubled quote
			case esc != 0 && esc != q && c == esc:
				skip = true
			case c == q:
				sawQ = true
			}
		}
		return -1
	}
}

// readLine returns the next physical line without its line ending, or io.EOF.
// The slice is valid until the next call.
func (s *csvScanner) readLine() ([]byte, error) {
	line, err := s.r.ReadSlice('\n')
	s.curLong = err == bufio.ErrBufferFull
	if err == bufio.ErrBufferFull {
		s.long = grow(s.long[:0], line)
		measured := false
		for err == bufio.ErrBufferFull {
			if !measured && len(s.long) >= csvScanAhead {
				measured = true
				if n, ok := s.ahead(lineEnd); ok {
					s.long = reserve(s.long, n)
				}
			}
			line, err = s.r.ReadSlice('\n')
			s.long = grow(s.long, line)
		}
		line = s.long
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

var newline = []byte{'\n'}

// grow appends p to b, doubling b's capacity when it is full (append grows
// a large slice by a quarter at a time, and each step leaves the old
// array to the collector: a 100 MB field would make 400 MB of garbage).
func grow(b, p []byte) []byte {
	if len(b)+len(p) > cap(b) {
		nb := make([]byte, len(b), max(2*cap(b), len(b)+len(p), 4096))
		copy(nb, b)
		b = nb
	}
	return append(b, p...)
}

func (s *csvScanner) field(i int) []byte {
	sp := s.spans[i]
	if sp.inLine {
		return s.cur[sp.start:sp.end]
	}
	return s.buf[sp.start:sp.end]
}

// fields is the number of fields of the record.
func (s *csvScanner) fields() int { return len(s.spans) }

// add records a field: line[start:end] of the current line, without a
// copy.
func (s *csvScanner) add(line []byte, start, end int, quoted bool) {
	s.cur = line
	s.spans = append(s.spans, csvSpan{start: start, end: end, inLine: true})
	s.quoted = append(s.quoted, quoted)
}

// addBuf records a field that ends at the end of buf and starts at start.
func (s *csvScanner) addBuf(start int, quoted bool) {
	s.spans = append(s.spans, csvSpan{start: start, end: len(s.buf)})
	s.quoted = append(s.quoted, quoted)
}

// size is the record's size: the bytes of its fields.
func (s *csvScanner) size() int {
	n := 0
	for _, sp := range s.spans {
		n += sp.end - sp.start
	}
	return n
}

// own makes every field of the record a slice of a buffer of the scanner's
// own (buf, or long), not of the read buffer.
func (s *csvScanner) own() {
	if !s.curLong {
		s.spill()
	}
}

// detach gives the record's buffers away (a batch keeps slices of them):
// the next record starts new ones.
func (s *csvScanner) detach() {
	s.buf, s.long, s.cur, s.spans = nil, nil, nil, s.spans[:0]
}

// spill copies the fields that are slices of the current line into buf,
// before the next line replaces it.
func (s *csvScanner) spill() {
	for i, sp := range s.spans {
		if sp.inLine {
			start := len(s.buf)
			s.buf = grow(s.buf, s.cur[sp.start:sp.end])
			s.spans[i] = csvSpan{start: start, end: len(s.buf)}
		}
	}
}

// next reads one record and returns the line it starts on. Blank lines are
// skipped when skipBlank is set; otherwise a blank line is a record of one
// empty field.
func (s *csvScanner) next(skipBlank bool) (int64, error) {
	if cap(s.buf) > csvKeepBuffer {
		s.buf = nil
	}
	if cap(s.long) > csvKeepBuffer {
		s.long = nil
	}
	s.buf, s.spans, s.quoted, s.cur = s.buf[:0], s.spans[:0], s.quoted[:0], nil
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
	if s.keepRaw {
		if cap(s.raw) > csvKeepBuffer {
			s.raw = nil
		}
		s.raw = append(s.raw[:0], line...)
	}
	start := s.line
	d, q, esc := s.o.Delimiter, s.o.Quote, s.o.Escape
	special := func(c byte) bool { return c == q || esc != 0 && esc != q && c == esc }
	pos := 0
	for {
		col := len(s.spans) + 1
		if pos < len(line) && line[pos] == q {
			// Quoted field. Most are one slice of the line: no doubled
			// quote, no escape, no line break inside.
			openLine := s.line
			pos++
			i := pos
			for i < len(line) && !special(line[i]) {
				i++
			}
			if i < len(line) && line[i] == q && (i+1 == len(line) || line[i+1] != q) {
				s.add(line, pos, i, true)
				pos = i + 1
			} else {
				// The field is built in buf; the record's earlier fields go
				// there first, since a line break inside the quotes
				// replaces the line they are slices of.
				s.spill()
				fstart, measured := len(s.buf), false
				for {
					i := pos
					for i < len(line) && !special(line[i]) {
						i++
					}
					s.buf = grow(s.buf, line[pos:i])
					if i == len(line) {
						// The field goes on past the line end.
						if !measured && len(s.buf)-fstart >= csvScanAhead {
							measured = true
							if n, ok := s.ahead(s.quotedEnd()); ok {
								s.buf = reserve(s.buf, n+1)
							}
						}
						s.buf = grow(s.buf, newline)
						line, err = s.readLine()
						if err == io.EOF {
							return 0, &DataError{Row: openLine, Col: col, Msg: "quoted field not terminated before the end of the file"}
						}
						if err != nil {
							return 0, err
						}
						if s.keepRaw {
							s.raw = append(append(s.raw, '\n'), line...)
						}
						s.cur = line
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
					// The escape character: the next byte is literal. At the
					// end of a line it escapes the line break, which the next
					// round appends.
					if i+1 < len(line) {
						s.buf = append(s.buf, line[i+1])
						pos = i + 2
					} else {
						pos = i + 1
					}
				}
				s.addBuf(fstart, true)
			}
			s.cur = line
			if pos == len(line) {
				return start, nil
			}
			if line[pos] != d {
				return 0, &DataError{Row: s.line, Col: col, Msg: fmt.Sprintf("unexpected %q after closing quote (want %q or end of line)", line[pos], d)}
			}
			pos++
			if pos == len(line) { // trailing delimiter: one more empty field
				s.add(line, pos, pos, false)
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
		s.add(line, pos, i, false)
		if i == len(line) {
			return start, nil
		}
		pos = i + 1
		if pos == len(line) {
			s.add(line, pos, pos, false)
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
	sb       *array.StringBuilder // b, when isString
}

// csvBatchBytes ends a batch early once its fields hold this many bytes: a
// batch of huge fields takes about this much (or one field's size), not
// batch rows times the field size.
const csvBatchBytes = 32 << 20

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
	big     int64 // a huge record read and not yet returned: the line it starts on
	skip    bool  // skip blank lines
	err     error
	// bad records (badrecords.go)
	mode    Mode
	corrupt int // the corrupt-record column (-1: none)
	count   *Malformed
	// the rescued-data column (rescue.go)
	rescued int           // its index (-1: none)
	header  []string      // the header's names (nil without a header)
	rescue  []int         // the header fields rescued whole: new columns, case variants
	rfields []rescueField // the record's fields to rescue
	rbuf    []byte        // the rescued value
}

func newCSVReader(r io.ReadCloser, name string, schema *arrow.Schema, o CSVOptions, opts Options, mem memory.Allocator) (BatchReader, error) {
	if err := o.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	corrupt, err := corruptIndex(schema, opts.CorruptColumn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	rescued, err := rescuedIndex(schema, opts.RescuedColumn, opts.CorruptColumn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	cr := &csvReader{name: name, c: r, sc: newCSVScanner(r, o), schema: schema, nulls: o.Nulls, batch: opts.batchRows(),
		mode: opts.Mode, corrupt: corrupt, count: opts.Malformed, rescued: rescued}
	cr.sc.keepRaw = corrupt >= 0 && opts.Mode == Permissive || opts.Malformed.quarantining()
	if rescued >= 0 {
		opts.Malformed.setRescued(schema.Field(rescued).Name)
	}
	data := schema.NumFields() // the columns read from the file
	if corrupt >= 0 {
		data--
	}
	if rescued >= 0 {
		data--
	}
	cr.skip = data != 1
	for _, f := range schema.Fields() {
		b := array.NewBuilder(mem, f.Type)
		app, err := newTextAppender(f.Type, b)
		if err != nil {
			return nil, fmt.Errorf("%s: column %s: %w", name, f.Name, err)
		}
		col := csvCol{field: f, b: b, app: app, nullable: f.Nullable, isString: f.Type.ID() == arrow.STRING}
		if col.isString {
			col.sb = b.(*array.StringBuilder)
		}
		cr.cols = append(cr.cols, col)
	}
	cr.fieldOf = make([]int, len(cr.cols))
	if !o.Header {
		n := 0
		for i := range cr.fieldOf {
			if i == corrupt || i == rescued {
				cr.fieldOf[i] = -1
				continue
			}
			cr.fieldOf[i] = n
			n++
		}
		cr.nfields = n
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
	header := make([]string, cr.sc.fields())
	for i := range header {
		header[i] = string(cr.sc.field(i))
	}
	cr.nfields = len(header)
	cr.header = header
	used := make([]bool, len(header)) // the header fields a column takes, in any case
	for ci, c := range cr.cols {
		if ci == corrupt || ci == rescued {
			cr.fieldOf[ci] = -1
			continue
		}
		idx := -1
		for i, h := range header {
			if h == c.field.Name {
				idx = i
				break
			}
		}
		if idx < 0 && rescued >= 0 {
			// Names are matched exactly: a field named so in another case
			// is rescued, and the column is NULL (Lakeflow's default).
			for i, h := range header {
				if strings.EqualFold(h, c.field.Name) {
					idx = i
					used[i] = true
					if !slices.Contains(cr.rescue, i) {
						cr.rescue = append(cr.rescue, i)
					}
				}
			}
			if idx >= 0 {
				cr.fieldOf[ci] = -1
				continue
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
		if idx < 0 && opts.Evolution != EvolveNone && c.nullable {
			// A file from before the column was added (rescue.go): NULL.
			cr.fieldOf[ci] = -1
			continue
		}
		if idx < 0 {
			return nil, &DataError{File: name, Row: line, Column: c.field.Name, Msg: fmt.Sprintf("not in the header (header has: %s)", strings.Join(header, ", "))}
		}
		cr.fieldOf[ci] = idx
		used[idx] = true
	}
	if err := cr.newColumns(opts.Evolution, line, used); err != nil {
		return nil, err
	}
	return cr, nil
}

// newColumns handles the header fields no column takes, as the evolution
// mode says (rescue.go). A field without a name is named as Spark names it,
// _cN (N from 0).
func (r *csvReader) newColumns(e Evolution, line int64, used []bool) error {
	var names []string
	first := 0
	for i, u := range used {
		if u {
			continue
		}
		if r.header[i] == "" {
			r.header[i] = fmt.Sprintf("_c%d", i)
		}
		if r.notFromFile(r.header[i]) {
			continue // the corrupt-record or rescued-data column, named in the header: not new
		}
		if r.rescued >= 0 && r.schema.FieldIndices(r.header[i]) == nil && r.caseVariant(r.header[i]) {
			r.rescue = append(r.rescue, i) // a second spelling of a column: rescued, not new
			continue
		}
		if names == nil {
			first = i
		}
		names = append(names, r.header[i])
		if !e.Fails() && r.rescued >= 0 {
			r.rescue = append(r.rescue, i)
		}
	}
	if len(names) == 0 {
		return nil
	}
	if e.Fails() {
		return newColumnsError(e, r.name, line, first+1, names)
	}
	into := ""
	if r.rescued >= 0 {
		into = r.schema.Field(r.rescued).Name
	}
	r.count.addNew(names, into)
	return nil
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
	if r.big > 0 {
		return r.bigRecord()
	}
	rows, size := 0, 0
	for rows < r.batch && size < csvBatchBytes {
		line, err := r.sc.next(r.skip)
		if err == io.EOF {
			r.err = io.EOF
			break
		}
		var de *DataError
		if err != nil && !errors.As(err, &de) {
			return nil, r.fail(r.placed(err))
		}
		if err == nil && r.sc.fields() == r.nfields && r.sc.size() >= csvBigRecord && r.rescued < 0 {
			// A huge record is a batch of its own, next (see bigRecord).
			r.big = line
			if rows > 0 {
				break
			}
			return r.bigRecord()
		}
		if de != nil {
			de.File = r.name
			line = de.Row
		}
		n, kept, torn, err := r.record(line, de)
		if err != nil {
			return nil, r.fail(err)
		}
		if torn {
			// The builders hold part of a dropped record: the batch
			// ends before it.
			if rows > 0 {
				return r.cut(rows), nil
			}
			r.reset()
		}
		if kept {
			rows++
			size += n
		}
	}
	if rows == 0 {
		return nil, r.err
	}
	return r.flush(rows), nil
}

// record appends the scanner's record (or, when scanErr is set, the record
// the scanner could not split into fields) as the next row, as the mode
// says (badrecords.go). kept is false when the record was dropped; torn
// is then true when some columns' builders hold a value of it, and the
// caller must end the batch before it. A malformed record is an error in
// FAILFAST only.
func (r *csvReader) record(line int64, scanErr *DataError) (size int, kept, torn bool, err error) {
	var bad error // the record's first malformation
	if scanErr != nil {
		bad = scanErr
	} else if got := r.sc.fields(); got != r.nfields {
		col := r.nfields + 1
		if got < r.nfields {
			col = got
		}
		bad = &DataError{File: r.name, Row: line, Col: col, Msg: fmt.Sprintf("want %d fields, got %d", r.nfields, got)}
	}
	if bad != nil && r.mode != Permissive {
		if r.mode == FailFast {
			return 0, false, false, bad
		}
		r.bad(false, line, bad)
		return 0, false, false, nil
	}
	appended := false
	r.rfields = r.rfields[:0]
	for ci := range r.cols {
		c := &r.cols[ci]
		if ci == r.corrupt || ci == r.rescued {
			continue
		}
		if fi := r.fieldOf[ci]; scanErr == nil && fi >= 0 && fi < r.sc.fields() {
			n, err := r.appendField(ci, line)
			if err == nil {
				size += n
				appended = true
				continue
			}
			if r.rescued >= 0 && c.nullable {
				// Rescued, not malformed: the column is NULL.
				r.rfields = append(r.rfields, rescueField{pos: fi, name: r.fieldName(ci), val: r.sc.field(fi)})
				c.b.AppendNull()
				appended = true
				continue
			}
			if r.mode != Permissive {
				if r.mode == FailFast {
					return 0, false, false, err
				}
				r.bad(false, line, err)
				return 0, false, appended, nil
			}
			if bad == nil {
				bad = err
			}
		}
		// Permissive: the value is NULL (missing, or it did not parse).
		if !c.nullable {
			r.bad(false, line, bad)
			return 0, false, appended, nil
		}
		c.b.AppendNull()
		appended = true
	}
	if r.corrupt >= 0 {
		c := &r.cols[r.corrupt]
		if bad != nil && r.sc.keepRaw && utf8.Valid(r.sc.raw) {
			c.sb.BinaryBuilder.Append(r.sc.raw)
			size += len(r.sc.raw)
		} else {
			c.b.AppendNull()
		}
	}
	if r.rescued >= 0 {
		size += r.appendRescued(scanErr == nil)
	}
	if bad != nil {
		r.bad(true, line, bad)
	}
	return size, true, false, nil
}

// notFromFile reports whether name is the corrupt-record or the rescued-data
// column's (in any case): declared, but not read from the file.
func (r *csvReader) notFromFile(name string) bool {
	for _, ci := range []int{r.corrupt, r.rescued} {
		if ci >= 0 && strings.EqualFold(r.schema.Field(ci).Name, name) {
			return true
		}
	}
	return false
}

// caseVariant reports whether name is a declared column's in another case.
func (r *csvReader) caseVariant(name string) bool {
	for _, f := range r.schema.Fields() {
		if strings.EqualFold(f.Name, name) {
			return true
		}
	}
	return false
}

// fieldName is the name in the file of column ci's field: the header's, or
// the column's without a header.
func (r *csvReader) fieldName(ci int) string {
	if r.header != nil {
		return r.header[r.fieldOf[ci]]
	}
	return r.cols[ci].field.Name
}

// appendRescued appends the record's rescued-data value (NULL when nothing
// is rescued): the fields in rfields, and (split: the record was split
// into fields) the header fields rescued whole that are not NULL.
func (r *csvReader) appendRescued(split bool) int {
	if split {
		for _, fi := range r.rescue {
			if fi >= r.sc.fields() {
				continue
			}
			raw := r.sc.field(fi)
			if !r.sc.quoted[fi] && r.isNull(raw) {
				continue
			}
			r.rfields = append(r.rfields, rescueField{pos: fi, name: r.header[fi], val: raw})
		}
	}
	c := &r.cols[r.rescued]
	var ok bool
	r.rbuf, ok = rescuedValue(r.rbuf, r.rfields, r.name)
	if !ok {
		c.b.AppendNull()
		return 0
	}
	c.sb.BinaryBuilder.Append(r.rbuf)
	r.count.rescued()
	return len(r.rbuf)
}

// bad counts the malformed record starting on line (why: its first
// malformation), kept or dropped, and hands it to a quarantine table.
func (r *csvReader) bad(kept bool, line int64, why error) {
	var raw []byte
	if r.sc.keepRaw {
		raw = r.sc.raw
	}
	r.count.bad(kept, r.name, line, why, raw)
}

// cut returns the first rows rows of the batch the builders hold (they
// hold part of the next record too), and starts the next batch empty.
func (r *csvReader) cut(rows int) arrow.RecordBatch {
	return cutBatch(r.schema, len(r.cols), func(i int) array.Builder { return r.cols[i].b }, rows)
}

// reset drops what the builders hold.
func (r *csvReader) reset() {
	for i := range r.cols {
		r.cols[i].b.NewArray().Release()
	}
}

// cutBatch makes a batch of the first rows rows of n builders, which may
// hold more (part of a record that was then dropped), and empties them.
func cutBatch(schema *arrow.Schema, n int, b func(int) array.Builder, rows int) arrow.RecordBatch {
	cols := make([]arrow.Array, n)
	for i := range cols {
		a := b(i).NewArray()
		if a.Len() > rows {
			cols[i] = array.NewSlice(a, 0, int64(rows))
			a.Release()
		} else {
			cols[i] = a
		}
	}
	rec := array.NewRecordBatch(schema, cols, int64(rows))
	for _, c := range cols {
		c.Release()
	}
	return rec
}

// appendField appends the record's field of column ci to its builder and
// returns its size.
func (r *csvReader) appendField(ci int, line int64) (int, error) {
	c := &r.cols[ci]
	fi := r.fieldOf[ci]
	raw := r.sc.field(fi)
	if !r.sc.quoted[fi] && r.isNull(raw) {
		if !c.nullable {
			return 0, &DataError{File: r.name, Row: line, Col: fi + 1, Column: c.field.Name, Msg: "NULL in a NOT NULL column"}
		}
		c.b.AppendNull()
		return 0, nil
	}
	if c.isString && utf8.Valid(raw) {
		// The bytes go straight into the builder's buffer: no string of
		// them is made (StringBuilder.Append would copy the string into a
		// []byte first).
		c.sb.BinaryBuilder.Append(raw)
		return len(raw), nil
	}
	// The appender does not keep s (builders copy), so the bytes need not
	// be copied into a string first.
	s := unsafe.String(unsafe.SliceData(raw), len(raw))
	if err := c.app(s); err != nil {
		return 0, &DataError{File: r.name, Row: line, Col: fi + 1, Column: c.field.Name, Msg: err.Error()}
	}
	return len(raw), nil
}

// csvBigRecord is the size from which a record is a batch of its own.
const csvBigRecord = 1 << 20

// bigRecord returns the huge record the scanner holds (it starts on line
// r.big) as a batch of one row. Its string values are not copied: each
// column's data buffer is the value's bytes in the scanner's buffer, which
// the batch then owns (the scanner starts new ones). So a field of any
// size is held once, in the batch, and memory is bounded by the field
// plus a constant, not by the field times the copies a builder makes.
func (r *csvReader) bigRecord() (arrow.RecordBatch, error) {
	line := r.big
	r.big = 0
	r.sc.own()
	cols := make([]arrow.Array, len(r.cols))
	release := func() {
		for _, a := range cols {
			if a != nil {
				a.Release()
			}
		}
	}
	for ci := range r.cols {
		c := &r.cols[ci]
		if ci == r.corrupt {
			c.b.AppendNull()
			cols[ci] = c.b.NewArray()
			continue
		}
		fi := r.fieldOf[ci]
		raw := r.sc.field(fi)
		if c.isString && (r.sc.quoted[fi] || !r.isNull(raw)) && utf8.Valid(raw) {
			if len(raw) > math.MaxInt32 {
				release()
				return nil, r.fail(&DataError{File: r.name, Row: line, Col: fi + 1, Column: c.field.Name,
					Msg: fmt.Sprintf("a field of %d bytes: a string value holds at most 2 GiB", len(raw))})
			}
			cols[ci] = oneString(raw)
			continue
		}
		if _, err := r.appendField(ci, line); err != nil {
			release()
			if r.mode == FailFast {
				return nil, r.fail(err)
			}
			// A malformed huge record: the ordinary path, into builders
			// emptied first.
			r.reset()
			_, kept, _, err := r.record(line, nil)
			if err != nil {
				return nil, r.fail(err)
			}
			r.sc.detach()
			if !kept {
				r.reset()
				return r.Next()
			}
			return r.flush(1), nil
		}
		cols[ci] = c.b.NewArray()
	}
	r.sc.detach()
	rec := array.NewRecordBatch(r.schema, cols, 1)
	release()
	return rec, nil
}

// oneString is a string array of one value, v itself (not a copy).
func oneString(v []byte) arrow.Array {
	offsets := memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, int32(len(v))}))
	d := array.NewData(arrow.BinaryTypes.String, 1, []*memory.Buffer{nil, offsets, memory.NewBufferBytes(v)}, nil, 0, 0)
	defer d.Release()
	return array.NewStringData(d)
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
