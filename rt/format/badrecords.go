package format

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
)

// Bad records: what the CSV and JSON lines readers do with a malformed
// record, Spark's `mode` and `columnNameOfCorruptRecord` reader options
// (docs/dsl.md, "Bad records"). As Spark 4.1.4 and 4.2.1 read the same
// files (rt/format/badrecords_test.go):
//
//   - a record is malformed when a value does not parse as its column's
//     type, it has too few or too many fields (CSV), it is not valid JSON
//     or not a JSON object (JSON lines), or — native only, since Spark's
//     file sources do not enforce NOT NULL — a NOT NULL column would be
//     NULL in it. A NULL or missing value in a nullable column, and an
//     empty line, are not malformed.
//   - PERMISSIVE keeps the record: each value that parses is kept, the rest
//     (and every value, when the record could not be split into fields) is
//     NULL, and the corrupt-record column, if the schema declares one,
//     holds the record's text. A record that would need NULL in a NOT NULL
//     column cannot be kept: it is dropped, and counted as dropped.
//   - DROPMALFORMED drops the record.
//   - FAILFAST fails the read at the first one, with its file:line:col.
//
// Each malformed record is counted once in Options.Malformed, as kept or
// dropped.

// Mode is what a reader does with a malformed record. The zero value is
// FailFast, so that a reader opened without a mode (`etl read`, tests)
// keeps failing on bad data; sources default to Permissive
// (ParseSourceOptions), as Spark's readers do.
type Mode int

const (
	FailFast      Mode = iota // fail at the first malformed record
	Permissive                // keep it, with NULLs where it does not parse
	DropMalformed             // drop it
)

var modeNames = [...]string{"FAILFAST", "PERMISSIVE", "DROPMALFORMED"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// ModeNames lists the values of the mode option, the default first.
func ModeNames() []string { return []string{"PERMISSIVE", "DROPMALFORMED", "FAILFAST"} }

// ParseMode parses a mode option value, in any case (as Spark does).
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if strings.EqualFold(s, n) {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("option mode: want %s, got %q", strings.Join(ModeNames(), ", "), s)
}

// DefaultCorruptColumn is the corrupt-record column's name unless the
// columnNameOfCorruptRecord option names another (Spark's default,
// spark.sql.columnNameOfCorruptRecord).
const DefaultCorruptColumn = "_corrupt_record"

// Malformed counts one read's malformed records: Kept (PERMISSIVE, with
// NULLs) and Dropped (DROPMALFORMED, or PERMISSIVE when a NOT NULL column
// cannot hold the NULL). A reader adds to it as it goes; it is safe to
// read from another goroutine.
type Malformed struct {
	Kept, Dropped atomic.Int64
	// Rescued counts records kept with a rescued-data value (rescue.go):
	// they are not malformed.
	Rescued atomic.Int64
	newCols newColumns
	// Quarantine, when set, receives each malformed record counted, for a
	// quarantine table. The readers of one read call it from their
	// goroutines, so it must be safe for concurrent use.
	Quarantine func(BadRecord)
}

// BadRecord is one malformed record, as a source's quarantine table stores
// it.
type BadRecord struct {
	File   string // as the user named it (relative to --root when they did)
	Line   int64  // the line the record starts on, from 1
	Reason string // what FAILFAST says after file:line:col (DataError.Reason)
	Record string // the record's text as written (CSV: its lines joined by '\n'; JSON lines: the line)
	// Text is false when the record's text is not valid UTF-8: Record is
	// then empty, and stored as NULL.
	Text bool
	Kept bool // kept with NULLs (PERMISSIVE), or dropped
}

// add counts one malformed record.
func (m *Malformed) add(kept bool) {
	if m == nil {
		return
	}
	if kept {
		m.Kept.Add(1)
	} else {
		m.Dropped.Add(1)
	}
}

// quarantining reports whether the read hands its malformed records to a
// quarantine table (the readers then keep each record's text).
func (m *Malformed) quarantining() bool { return m != nil && m.Quarantine != nil }

// bad counts one malformed record of file, starting on line, and hands it
// to Quarantine: why is its first malformation, raw its text.
func (m *Malformed) bad(kept bool, file string, line int64, why error, raw []byte) {
	m.add(kept)
	if !m.quarantining() {
		return
	}
	b := BadRecord{File: file, Line: line, Kept: kept, Text: utf8.Valid(raw)}
	if b.Text {
		b.Record = string(raw)
	}
	var de *DataError
	switch {
	case errors.As(why, &de):
		b.Reason = de.Reason()
	case why != nil:
		b.Reason = why.Error()
	default:
		b.Reason = "malformed record"
	}
	m.Quarantine(b)
}

// SourceOptions are a CSV or JSON lines source's reader options, parsed.
type SourceOptions struct {
	CSV           *CSVOptions // CSV only
	Mode          Mode
	CorruptColumn string // the corrupt-record column's name (read only if the schema declares it)
	// RescuedColumn is the rescued-data column ("" for none; rescue.go),
	// and Evolution the schemaEvolutionMode.
	RescuedColumn string
	Evolution     Evolution
}

// Apply sets the reader options o parsed.
func (o SourceOptions) Apply(opts *Options) {
	opts.CSV, opts.Mode, opts.CorruptColumn = o.CSV, o.Mode, o.CorruptColumn
	opts.RescuedColumn, opts.Evolution = o.RescuedColumn, o.Evolution
}

// CommonSourceOptions are the options of every CSV and JSON lines source,
// lower-cased; CSVDialectOptions are CSV's own.
var (
	CommonSourceOptions = []string{"mode", "columnnameofcorruptrecord", "rescueddatacolumn", "schemaevolutionmode"}
	CSVDialectOptions   = []string{"header", "delimiter", "sep", "separator", "quote", "escape", "null", "nullvalue", "nulls"}
)

// ParseSourceOptions reads a source's options: for CSV and JSON lines,
// mode (default PERMISSIVE), columnNameOfCorruptRecord (default
// _corrupt_record), rescuedDataColumn (default none; _rescued_data under
// schemaEvolutionMode rescue) and schemaEvolutionMode (default none); for
// CSV, its dialect too (ParseCSVOptions). Other
// formats take no options. Keys are case-insensitive; an unknown one is an
// error listing those accepted.
func ParseSourceOptions(f Format, kv [][2]string) (SourceOptions, error) {
	o := SourceOptions{Mode: Permissive, CorruptColumn: DefaultCorruptColumn}
	if f != CSV && f != JSONL {
		if len(kv) > 0 {
			return o, fmt.Errorf("option %q is not read for %s files (they take no options)", kv[0][0], f)
		}
		return o, nil
	}
	var dialect [][2]string
	for _, p := range kv {
		switch strings.ToLower(p[0]) {
		case "mode":
			m, err := ParseMode(p[1])
			if err != nil {
				return o, err
			}
			o.Mode = m
		case "columnnameofcorruptrecord":
			if p[1] == "" {
				return o, fmt.Errorf("option columnNameOfCorruptRecord: want a column name, got \"\"")
			}
			o.CorruptColumn = p[1]
		case "rescueddatacolumn":
			if p[1] == "" {
				return o, fmt.Errorf("option rescuedDataColumn: want a column name, got \"\"")
			}
			o.RescuedColumn = p[1]
		case "schemaevolutionmode":
			e, err := ParseEvolution(p[1])
			if err != nil {
				return o, err
			}
			o.Evolution = e
		default:
			if f != CSV {
				return o, fmt.Errorf("unknown %s option %q (want %s)", f, p[0], strings.Join(acceptedOptions(f), ", "))
			}
			dialect = append(dialect, p)
		}
	}
	if f == CSV {
		c, err := ParseCSVOptions(dialect)
		if err != nil {
			return o, err
		}
		o.CSV = &c
	}
	if o.Evolution == EvolveRescue && o.RescuedColumn == "" {
		o.RescuedColumn = DefaultRescuedColumn
	}
	return o, nil
}

// acceptedOptions names the options a format's sources take, as a message
// spells them.
func acceptedOptions(f Format) []string {
	out := []string{"mode", "columnNameOfCorruptRecord", "rescuedDataColumn", "schemaEvolutionMode"}
	if f == CSV {
		out = append(out, "header", "delimiter", "quote", "escape", "null")
	}
	return out
}

// corruptIndex is the index of the corrupt-record column in schema (-1 for
// none), or an error when the column is there but not a nullable string,
// which Spark refuses too (INVALID_CORRUPT_RECORD_TYPE).
func corruptIndex(schema *arrow.Schema, name string) (int, error) {
	if name == "" {
		return -1, nil
	}
	return textColumn(schema, name, "malformed records' text")
}

// textColumn is the index of column name in schema (-1 when there is none),
// or an error when it is not a nullable string: a column the reader fills
// with text (holds says what), NULL for most records.
func textColumn(schema *arrow.Schema, name, holds string) (int, error) {
	for i, f := range schema.Fields() {
		if f.Name != name {
			continue
		}
		if f.Type.ID() != arrow.STRING || !f.Nullable {
			nn := ""
			if !f.Nullable {
				nn = " not null"
			}
			return -1, fmt.Errorf("column %s holds %s: want a nullable string, got %s%s", name, holds, TypeString(f.Type), nn)
		}
		return i, nil
	}
	return -1, nil
}
