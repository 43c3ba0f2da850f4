package format

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/jsonfn"
)

// The rescued-data column and schema drift: Lakeflow's rescuedDataColumn
// and schemaEvolutionMode reader options, for CSV (with a header) and JSON
// lines (docs/dsl.md, "Rescued data and schema drift").
//
//   - With a rescued-data column (rescuedDataColumn, or _rescued_data under
//     schemaEvolutionMode rescue), a value that does not parse as its
//     column's type is not malformed: the column is NULL and the rescued
//     column holds a JSON object of the rescued fields, each under its name
//     in the file, plus "_file_path", the file's name. A CSV field is
//     rescued as its text; a JSON value as written (a JSON value). A field
//     whose name differs from a declared column's only in case is rescued
//     too (Lakeflow's readerCaseSensitive default): the declared column is
//     NULL. The rescued column is NULL for a record with nothing rescued.
//     Rescued records are counted (Malformed.Rescued).
//   - A new column is a CSV header field or a JSON key that matches no
//     declared column, in any case. What it does is the evolution mode:
//     addNewColumns and failOnNewColumns fail the read at the file and line
//     that first has one, naming them (Þund compiles the schema into the
//     program: the user declares them and rebuilds); rescue puts their
//     values into the rescued column; none ignores them, or rescues them
//     when a rescued column is declared (as Lakeflow does), and counts them
//     (Malformed.NewColumns) so that the run warns. NULL values of new
//     columns are not rescued: nothing is lost.
//   - Under a mode other than none, a nullable column that a CSV file's
//     header lacks is NULL (a file from before the column was added), as a
//     JSON key that is missing is; under none, as before these options, a
//     header must name every column.

// Evolution is a source's schemaEvolutionMode, from_json's too (rt/jsonfn).
// The zero value is none.
type Evolution = jsonfn.Evolution

const (
	EvolveNone             = jsonfn.EvolveNone             // new columns ignored (or rescued), counted and warned of
	EvolveAddNewColumns    = jsonfn.EvolveAddNewColumns    // fail, naming the columns to add to the declaration
	EvolveRescue           = jsonfn.EvolveRescue           // new columns rescued; the schema never changes
	EvolveFailOnNewColumns = jsonfn.EvolveFailOnNewColumns // fail, naming the new columns
)

// EvolutionNames lists the values of schemaEvolutionMode, the default
// first.
func EvolutionNames() []string { return jsonfn.EvolutionNames() }

// ParseEvolution parses a schemaEvolutionMode value, in any case.
func ParseEvolution(s string) (Evolution, error) {
	for i, n := range EvolutionNames() {
		if strings.EqualFold(s, n) {
			return Evolution(i), nil
		}
	}
	return 0, fmt.Errorf("option schemaEvolutionMode: want %s, got %q", strings.Join(EvolutionNames(), ", "), s)
}

// DefaultRescuedColumn is the rescued-data column under schemaEvolutionMode
// rescue when rescuedDataColumn names none (Lakeflow's).
const DefaultRescuedColumn = "_rescued_data"

// FilePathKey is the key of the file's name in a rescued-data value.
const FilePathKey = "_file_path"

// newColumns are the new columns one read met, in the order first met.
type newColumns struct {
	mu    sync.Mutex
	names []string
	into  string // the rescued-data column they went to ("" when ignored)
	// column is the rescued-data column of the read ("" for none)
	column string
}

// RescuedColumn is the rescued-data column of the read, "" for none.
func (m *Malformed) RescuedColumn() string {
	if m == nil {
		return ""
	}
	m.newCols.mu.Lock()
	defer m.newCols.mu.Unlock()
	return m.newCols.column
}

// setRescued records the read's rescued-data column.
func (m *Malformed) setRescued(column string) {
	if m == nil || column == "" {
		return
	}
	m.newCols.mu.Lock()
	defer m.newCols.mu.Unlock()
	m.newCols.column = column
}

// NewColumns returns the new columns the read met (none: ignored, or
// rescued into the column into names), in the order first met.
func (m *Malformed) NewColumns() (names []string, into string) {
	if m == nil {
		return nil, ""
	}
	m.newCols.mu.Lock()
	defer m.newCols.mu.Unlock()
	return slices.Clone(m.newCols.names), m.newCols.into
}

// addNew records new columns.
func (m *Malformed) addNew(names []string, into string) {
	if m == nil || len(names) == 0 {
		return
	}
	m.newCols.mu.Lock()
	defer m.newCols.mu.Unlock()
	m.newCols.into = into
	for _, n := range names {
		if !slices.Contains(m.newCols.names, n) {
			m.newCols.names = append(m.newCols.names, n)
		}
	}
}

// rescued counts one rescued record.
func (m *Malformed) rescued() {
	if m != nil {
		m.Rescued.Add(1)
	}
}

// rescuedIndex is the index of the rescued-data column in schema (-1 for
// none), or an error when it is not there, not a nullable string, or the
// corrupt-record column too.
func rescuedIndex(schema *arrow.Schema, name, corrupt string) (int, error) {
	if name == "" {
		return -1, nil
	}
	if name == corrupt {
		return -1, fmt.Errorf("column %s cannot be both the rescued-data column and the corrupt-record column", name)
	}
	i, err := textColumn(schema, name, "rescued data")
	if err == nil && i < 0 {
		err = fmt.Errorf("rescuedDataColumn %s: the schema does not declare it (declare %s string)", name, name)
	}
	return i, err
}

// rescueField is one field of a record to rescue: its name in the file, its
// value (JSON text when json, else text), and its position, which orders
// the object's keys.
type rescueField struct {
	pos  int
	name string
	val  []byte
	json bool
}

// rescuedValue is the rescued-data value of a record's fields: a JSON
// object of them, in the order they stand in the record, then _file_path.
// ok is false when there is nothing to rescue.
func rescuedValue(buf []byte, fields []rescueField, file string) (out []byte, ok bool) {
	if len(fields) == 0 {
		return buf, false
	}
	slices.SortStableFunc(fields, func(a, b rescueField) int { return a.pos - b.pos })
	buf = append(buf[:0], '{')
	for _, f := range fields {
		buf = appendJSONString(buf, f.name)
		buf = append(buf, ':')
		if f.json {
			buf = append(buf, f.val...)
		} else {
			buf = appendJSONString(buf, string(f.val))
		}
		buf = append(buf, ',')
	}
	buf = appendJSONString(buf, FilePathKey)
	buf = append(buf, ':')
	buf = appendJSONString(buf, file)
	return append(buf, '}'), true
}

// newColumnsError is the error of a new column under addNewColumns or
// failOnNewColumns: at file:line:col, naming them, and under addNewColumns
// what to declare (Lakeflow reads a CSV or JSON column it infers as a
// string unless told otherwise).
func newColumnsError(e Evolution, file string, line int64, col int, names []string) error {
	msg := fmt.Sprintf("new columns not in the declared schema: %s (schemaEvolutionMode %s)", strings.Join(names, ", "), e)
	if e == EvolveAddNewColumns {
		decl := make([]string, len(names))
		for i, n := range names {
			decl[i] = jsonfn.DDLName(n) + " string"
		}
		msg = fmt.Sprintf("new columns %s (schemaEvolutionMode addNewColumns): add them to the source's declared schema, as `%s` (or with the types they hold), rebuild and run again; nothing of this run was committed, so nothing is lost",
			strings.Join(names, ", "), strings.Join(decl, ", "))
	}
	return &DataError{File: file, Row: line, Col: col, Msg: msg}
}
