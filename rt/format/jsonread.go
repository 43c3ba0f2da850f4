package format

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// JSON lines: one object per line; blank lines are skipped. Keys match
// columns by name (exact, else case-insensitive); a missing key is NULL,
// unknown keys are ignored, a key given twice is an error. Values:
//
//   - null is NULL
//   - a JSON string goes through the column's text parser (text.go), so
//     "12" fits an int64 column and "2024-01-02 03:04:05" a timestamp
//   - a JSON number fits numeric, decimal and duration columns exactly, and a
//     timestamp column as a count of its unit since the epoch
//   - true/false fit bool columns
//
// Anything else is an error naming file:line:byte-column and the column.

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
}

func newJSONReader(r io.ReadCloser, name string, schema *arrow.Schema, batch int, mem memory.Allocator) (BatchReader, error) {
	jr := &jsonReader{name: name, c: r, r: bufio.NewReaderSize(r, 1<<16), schema: schema, batch: batch,
		exact: map[string]int{}, folded: map[string]int{}}
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
		jr.exact[f.Name] = i
		jr.folded[strings.ToLower(f.Name)] = i
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
		line, err := r.readLine()
		if err == io.EOF {
			r.err = io.EOF
			break
		}
		if err != nil {
			return nil, r.fail(fmt.Errorf("%s: line %d: %w", r.name, r.line+1, err))
		}
		if err := r.row(line); err != nil {
			return nil, r.fail(err)
		}
		rows++
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

// row decodes one line into one row.
func (r *jsonReader) row(line []byte) error {
	for i := range r.cols {
		r.cols[i].seen = false
	}
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
		}
		if !ok {
			continue
		}
		c := &r.cols[ci]
		col := int(vstart) + 1
		if c.seen {
			return &DataError{File: r.name, Row: r.line, Col: col, Column: c.field.Name, Msg: fmt.Sprintf("key %q given twice", key)}
		}
		c.seen = true
		read := r.value
		if c.node != nil {
			read = func(_ *jsonCol, raw json.RawMessage) error { return c.node.read(r, raw) }
		}
		if err := read(c, raw); err != nil {
			return &DataError{File: r.name, Row: r.line, Col: col, Column: c.field.Name, Msg: err.Error()}
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return r.syntaxErr(line, err, dec.InputOffset())
	}
	if rest := skipSpace(line, dec.InputOffset()); int(rest) < len(line) {
		return &DataError{File: r.name, Row: r.line, Col: int(rest) + 1, Msg: "text after the JSON object (want one object per line)"}
	}
	for i := range r.cols {
		c := &r.cols[i]
		if !c.seen {
			if !c.field.Nullable {
				return &DataError{File: r.name, Row: r.line, Column: c.field.Name, Msg: "missing in a NOT NULL column"}
			}
			c.b.AppendNull()
		}
	}
	return nil
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
		if dt.ID() == arrow.BOOL {
			return c.app(string(raw))
		}
		return jsonWantGot(dt, raw)
	case '{', '[':
		return jsonWantGot(dt, raw)
	}
	// A number.
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128, arrow.DURATION:
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
