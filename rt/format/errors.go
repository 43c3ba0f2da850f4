package format

import (
	"fmt"
	"strings"
)

// DataError is bad input data at a known place: a malformed CSV record, a
// value that does not parse as its column's type, a NULL in a NOT NULL
// column. It prints as FILE:ROW:COL: column NAME: MSG, omitting what is
// unknown.
type DataError struct {
	File   string // as the user named it (relative to --root when they did)
	Row    int64  // 1-based line in the file (CSV, JSON lines) or row (Parquet, IPC); 0 if unknown
	Col    int    // 1-based field (CSV) or byte column (JSON lines); 0 if unknown
	Column string // the declared column, if one is concerned
	Msg    string // what was expected and what was found
}

func (e *DataError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Row > 0 {
		fmt.Fprintf(&b, ":%d", e.Row)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	if e.Column != "" {
		fmt.Fprintf(&b, "column %s: ", e.Column)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Reason is the error without its place: what follows FILE:ROW:COL: in
// Error (column NAME: MSG).
func (e *DataError) Reason() string {
	if e.Column != "" {
		return "column " + e.Column + ": " + e.Msg
	}
	return e.Msg
}

// SchemaError is a file whose schema does not fit the declared one: a missing
// column, or a column whose type cannot be cast losslessly.
type SchemaError struct {
	File     string
	Column   string
	FileType string // the column's type in the file ("" when missing)
	Want     string // the declared type
	Msg      string // e.g. "file has float64, schema declares int64"
}

func (e *SchemaError) Error() string {
	if e.Column == "" {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s: column %s: %s", e.File, e.Column, e.Msg)
}

// quoteGot renders a bad input value for a message, shortened when long.
func quoteGot(s string) string {
	const max = 64
	if len(s) > max {
		return fmt.Sprintf("%q...", s[:max])
	}
	return fmt.Sprintf("%q", s)
}
