package format

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// JSON lines: one object per line; blank lines are skipped; what follows
// the object on its line is ignored (as Spark ignores it). Keys match
// columns by name (exact, else case-insensitive; exact only with a
// rescued-data column); a missing key is NULL, unknown keys are what
// Options.Evolution says (rescue.go), and of a key given twice the last
// value counts (as in Spark). Values:
//
//   - null is NULL
//   - a JSON string goes through the column's text parser (text.go), so
//     "12" fits an int64 column and "2024-01-02 03:04:05" a timestamp
//   - a JSON number fits numeric, decimal and duration columns exactly, and a
//     timestamp column as a count of its unit since the epoch
//   - true/false fit bool columns
//   - a string column takes any value: a number, true, false, an object or
//     an array as its JSON text, as written (Spark's reader does the same)
//
// Anything else makes the record malformed (badrecords.go), and in FAILFAST
// an error naming file:line:byte-column and the column.

type jsonCol struct {
	field arrow.Field
	b     array.Builder
	app   textAppender
	node  *jsonNode // a nested column's reader (nested.go); nil for a scalar one
	seen  bool
}

type jsonReader struct {
	name   string
	c      io.Closer
	r      *bufio.Reader
	schema *arrow.Schema
	cols   []jsonCol
	exact  map[string]int
	folded map[string]int
	batch  int
	line   int64
	err    error
	// a record's values, by column (row)
	vals  []json.RawMessage
	where []int // the byte column each value starts at
	// bad records (badrecords.go)
	mode    Mode
	corrupt int // the corrupt-record column (-1: none)
	count   *Malformed
	// pending: a record to decode again, into emptied builders, with the
	// columns of force NULL (a nested value of it failed part way)
	pending []byte
	force   []int
	// the rescued-data column and new keys (rescue.go)
	rescued  int           // its index (-1: none)
	evolve   Evolution     // what a new key does
	rfields  []rescueField // the line's fields to rescue
	rbuf     []byte        // the rescued value
	newKeys  []string      // the line's new keys
	newAt    int           // the byte column of its first one
	seenKeys map[string]bool
}

func newJSONReader(r io.ReadCloser, name string, schema *arrow.Schema, opts Options, mem memory.Allocator) (BatchReader, error) {
	corrupt, err := corruptIndex(schema, opts.CorruptColumn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	rescued, err := rescuedIndex(schema, opts.RescuedColumn, opts.CorruptColumn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	jr := &jsonReader{name: name, c: r, r: bufio.NewReaderSize(r, 1<<16), schema: schema, batch: opts.batchRows(),
		exact: map[string]int{}, folded: map[string]int{}, mode: opts.Mode, corrupt: corrupt, count: opts.Malformed,
		vals: make([]json.RawMessage, schema.NumFields()), where: make([]int, schema.NumFields()),
		rescued: rescued, evolve: opts.Evolution, seenKeys: map[string]bool{}}
	if rescued >= 0 {
		opts.Malformed.setRescued(schema.Field(rescued).Name)
	}
	for i, f := range schema.Fields() {
		b := array.NewBuilder(mem, f.Type)
		node, err := newJSONNode(f, b)
		if err != nil {
			return nil, fmt.Errorf("%s: column %s: %w", name, f.Name, err)
		}
		col := node.col
		if node.children != nil {
			col.node = node
		}
		jr.cols = append(jr.cols, col)
		if i == corrupt || i == rescued {
			continue // not read from the file
		}
		jr.exact[f.Name] = i
		if _, ok := jr.folded[strings.ToLower(f.Name)]; !ok {
			jr.folded[strings.ToLower(f.Name)] = i
		}
	}
	return jr, nil
}

func (r *jsonReader) Schema() *arrow.Schema { return r.schema }

func (r *jsonReader) readLine() ([]byte, error) {
	for {
		line, err := r.r.ReadBytes('\n')
		if err == io.EOF && len(line) > 0 {
			err = nil
		}
		if err != nil {
			return nil, err
		}
		r.line++
		if r.line == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if len(bytes.TrimSpace(line)) > 0 {
			return line, nil
		}
	}
}

func (r *jsonReader) Next() (arrow.RecordBatch, error) {
	if r.err != nil {
		return nil, r.err
	}
	rows := 0
	for rows < r.batch {
		line, force := r.pending, r.force
		r.pending, r.force = nil, nil
		if line == nil {
			var err error
			line, err = r.readLine()
			if err == io.EOF {
				r.err = io.EOF
				break
			}
			if err != nil {
				return nil, r.fail(fmt.Errorf("%s: line %d: %w", r.name, r.line+1, err))
			}
		}
		for {
			kept, torn, redo, err := r.row(line, force)
			if err != nil {
				return nil, r.fail(err)
			}
			if torn {
				// The builders hold part of the record: the batch ends
				// before it, and the record is decoded again (redo >= 0)
				// into the emptied builders, that column NULL.
				if rows > 0 {
					if redo >= 0 {
						r.pending, r.force = line, append(force, redo)
					}
					return cutBatch(r.schema, len(r.cols), func(i int) array.Builder { return r.cols[i].b }, rows), nil
				}
				for i := range r.cols {
					r.cols[i].b.NewArray().Release()
				}
				if redo >= 0 {
					force = append(force, redo)
					continue
				}
			}
			if kept {
				rows++
			}
			break
		}
	}
	if rows == 0 {
		return nil, r.err
	}
	cols := make([]arrow.Array, len(r.cols))
	for i := range r.cols {
		cols[i] = r.cols[i].b.NewArray()
	}
	rec := array.NewRecordBatch(r.schema, cols, int64(rows))
	for _, c := range cols {
		c.Release()
	}
	return rec, nil
}

// syntaxErr places a JSON syntax error; off is the decoder's offset, and
// a SyntaxError's own offset is that of the offending byte.
func (r *jsonReader) syntaxErr(line []byte, err error, off int64) error {
	off++
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset + 1
	}
	msg := err.Error()
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		msg = "unexpected end of line"
		off = int64(len(bytes.TrimRight(line, "\r\n"))) + 1
	}
	return &DataError{File: r.name, Row: r.line, Col: int(max(off, 1)), Msg: "invalid JSON: " + msg}
}

// row decodes one line into one row, as the mode says (badrecords.go):
// kept is false when the record was dropped. torn reports that some
// builders hold part of the record and the caller must end the batch
// before it; redo, when not -1, is a column to make NULL as the record is
// decoded again (a nested value that failed part way). Columns in force
// are NULL. A malformed record is an error in FAILFAST only.
func (r *jsonReader) row(line []byte, force []int) (kept, torn bool, redo int, err error) {
	redo = -1
	bad := r.split(line) // whether the line is an object, and its values
	if bad == nil && len(r.newKeys) > 0 {
		if err := r.newColumns(); err != nil {
			return false, false, -1, err
		}
	}
	if bad != nil && r.mode != Permissive {
		if r.mode == FailFast {
			return false, false, -1, bad
		}
		r.bad(false, line, bad)
		return false, false, -1, nil
	}
	appended, whole := false, bad != nil
	if whole {
		r.rfields = r.rfields[:0] // nothing is rescued of a line that is not an object
	}
	for ci := range r.cols {
		c := &r.cols[ci]
		if ci == r.corrupt || ci == r.rescued {
			continue
		}
		raw := r.vals[ci]
		rescue := r.rescued >= 0 && c.field.Nullable // a value that does not parse is rescued
		switch {
		case whole:
			// Not an object: every value is NULL.
		case slices.Contains(force, ci) && rescue:
			r.rfields = append(r.rfields, rescueField{pos: r.where[ci], name: c.field.Name, val: raw, json: true})
		case slices.Contains(force, ci):
			bad = cmp.Or(bad, error(&DataError{File: r.name, Row: r.line, Col: r.where[ci], Column: c.field.Name, Msg: "a nested value that does not parse"}))
		case raw == nil || raw[0] == 'n':
			if !c.field.Nullable {
				msg := "missing in a NOT NULL column"
				if raw != nil {
					msg = "NULL in a NOT NULL column"
				}
				err := &DataError{File: r.name, Row: r.line, Col: r.where[ci], Column: c.field.Name, Msg: msg}
				if raw == nil {
					err.Col = 0
				}
				if r.mode == FailFast {
					return false, false, -1, err
				}
				r.bad(false, line, err)
				return false, appended, -1, nil
			}
		default:
			read := r.value
			if c.node != nil {
				read = func(_ *jsonCol, raw json.RawMessage) error { return c.node.read(r, raw) }
			}
			before := c.b.Len()
			err := read(c, raw)
			if err == nil {
				appended = true
				continue
			}
			err = &DataError{File: r.name, Row: r.line, Col: r.where[ci], Column: c.field.Name, Msg: err.Error()}
			if rescue && c.b.Len() == before {
				// Rescued, not malformed: the column is NULL.
				r.rfields = append(r.rfields, rescueField{pos: r.where[ci], name: c.field.Name, val: raw, json: true})
				c.b.AppendNull()
				appended = true
				continue
			}
			if r.mode == FailFast && !rescue {
				return false, false, -1, err
			}
			if c.b.Len() != before {
				// A nested value failed part way: what it appended
				// cannot be taken back.
				if r.mode == Permissive || rescue {
					return false, true, ci, nil
				}
				r.bad(false, line, err)
				return false, true, -1, nil
			}
			if r.mode == DropMalformed {
				r.bad(false, line, err)
				return false, appended, -1, nil
			}
			bad = cmp.Or(bad, error(err))
		}
		// The value is NULL: missing, null, or (PERMISSIVE) it did not
		// parse. A NOT NULL column cannot hold it: the record is dropped.
		if !c.field.Nullable {
			r.bad(false, line, bad)
			return false, appended, -1, nil
		}
		c.b.AppendNull()
		appended = true
	}
	if r.corrupt >= 0 {
		c := &r.cols[r.corrupt]
		text := bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		if bad != nil && utf8.Valid(text) {
			c.b.(*array.StringBuilder).BinaryBuilder.Append(text)
		} else {
			c.b.AppendNull()
		}
	}
	if r.rescued >= 0 {
		c := &r.cols[r.rescued]
		var ok bool
		if r.rbuf, ok = rescuedValue(r.rbuf, r.rfields, r.name); ok {
			c.b.(*array.StringBuilder).BinaryBuilder.Append(r.rbuf)
			r.count.rescued()
		} else {
			c.b.AppendNull()
		}
	}
	if bad != nil {
		r.bad(true, line, bad)
	}
	return true, false, -1, nil
}

// newColumns handles the line's new keys as the evolution mode says
// (rescue.go): under addNewColumns and failOnNewColumns an error at the
// line, naming them (under addNewColumns, with the new keys of the rest of
// the file too, so that one rebuild takes them all); else they are
// counted, once per read.
func (r *jsonReader) newColumns() error {
	if r.evolve.Fails() {
		line, at, names := r.line, r.newAt, slices.Clone(r.newKeys)
		if r.evolve == EvolveAddNewColumns {
			for {
				l, err := r.readLine()
				if err != nil {
					break
				}
				if r.split(l) != nil {
					continue
				}
				for _, k := range r.newKeys {
					if !slices.Contains(names, k) {
						names = append(names, k)
					}
				}
			}
		}
		return newColumnsError(r.evolve, r.name, line, at, names)
	}
	var fresh []string
	for _, k := range r.newKeys {
		if !r.seenKeys[k] {
			r.seenKeys[k] = true
			fresh = append(fresh, k)
		}
	}
	if len(fresh) > 0 {
		into := ""
		if r.rescued >= 0 {
			into = r.schema.Field(r.rescued).Name
		}
		r.count.addNew(fresh, into)
	}
	return nil
}

// bad counts the malformed record on the current line (why: its first
// malformation), kept or dropped, and hands it to a quarantine table.
func (r *jsonReader) bad(kept bool, line []byte, why error) {
	if !r.count.quarantining() {
		r.count.add(kept)
		return
	}
	text := bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
	r.count.bad(kept, r.name, r.line, why, text)
}

// split reads a line's object into r.vals (nil for a key not given; of a
// key given twice, the last value), or returns why the line is not one
// JSON object.
func (r *jsonReader) split(line []byte) error {
	clear(r.vals)
	r.rfields, r.newKeys = r.rfields[:0], r.newKeys[:0]
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return r.syntaxErr(line, err, dec.InputOffset())
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return &DataError{File: r.name, Row: r.line, Col: 1 + int(skipSpace(line, 0)), Msg: "want a JSON object per line"}
	}
	for dec.More() {
		keyTok, err := dec.Token()
		if err != nil {
			return r.syntaxErr(line, err, dec.InputOffset())
		}
		key, _ := keyTok.(string)
		// Where the value starts: past the colon and blanks after the key.
		vstart := skipSpace(line, dec.InputOffset())
		if int(vstart) < len(line) && line[vstart] == ':' {
			vstart = skipSpace(line, vstart+1)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return r.syntaxErr(line, err, dec.InputOffset())
		}
		ci, ok := r.exact[key]
		if !ok {
			ci, ok = r.folded[strings.ToLower(key)]
			if ok && r.rescued >= 0 {
				// Names are matched exactly when data is rescued: a key
				// in another case is rescued (Lakeflow's default).
				r.rescueKey(key, raw, int(vstart)+1)
				continue
			}
		}
		if !ok {
			if !slices.Contains(r.newKeys, key) {
				if len(r.newKeys) == 0 {
					r.newAt = int(vstart) + 1
				}
				r.newKeys = append(r.newKeys, key)
			}
			if r.rescued >= 0 && !r.evolve.Fails() {
				r.rescueKey(key, raw, int(vstart)+1)
			}
			continue
		}
		r.vals[ci], r.where[ci] = raw, int(vstart)+1
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return r.syntaxErr(line, err, dec.InputOffset())
	}
	return nil
}

// rescueKey rescues a key's value, unless it is null. Of a key given twice,
// the last value counts.
func (r *jsonReader) rescueKey(key string, raw json.RawMessage, at int) {
	if raw[0] == 'n' {
		return
	}
	for i := range r.rfields {
		if r.rfields[i].name == key {
			r.rfields[i].val, r.rfields[i].pos = raw, at
			return
		}
	}
	r.rfields = append(r.rfields, rescueField{pos: at, name: key, val: raw, json: true})
}

func skipSpace(b []byte, i int64) int64 {
	for int(i) < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

func jsonWantGot(dt arrow.DataType, raw []byte) error {
	got := string(raw)
	if len(got) > 64 {
		got = got[:64] + "..."
	}
	return fmt.Errorf("want %s, got %s", TypeString(dt), got)
}

func (r *jsonReader) value(c *jsonCol, raw json.RawMessage) error {
	dt := c.field.Type
	switch raw[0] {
	case 'n':
		if !c.field.Nullable {
			return errors.New("NULL in a NOT NULL column")
		}
		c.b.AppendNull()
		return nil
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return err
		}
		return c.app(s)
	case 't', 'f':
		if dt.ID() == arrow.BOOL || dt.ID() == arrow.STRING {
			return c.app(string(raw))
		}
		return jsonWantGot(dt, raw)
	case '{', '[':
		if dt.ID() == arrow.STRING {
			return c.app(string(raw))
		}
		return jsonWantGot(dt, raw)
	}
	// A number.
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128, arrow.DURATION, arrow.STRING:
		return c.app(string(raw))
	case arrow.TIMESTAMP:
		v, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil {
			return jsonWantGot(dt, raw)
		}
		c.b.(*array.TimestampBuilder).Append(arrow.Timestamp(v))
		return nil
	}
	return jsonWantGot(dt, raw)
}

func (r *jsonReader) fail(err error) error {
	r.err = err
	for i := range r.cols {
		r.cols[i].b.NewArray().Release()
	}
	return err
}

func (r *jsonReader) Close() error {
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
