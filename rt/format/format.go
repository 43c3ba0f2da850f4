package format

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Format is a file format.
type Format int

const (
	Parquet Format = iota
	CSV
	JSONL
	// Arrow is the Arrow IPC file format. Readers also accept the IPC stream
	// format under this name (they look at the magic bytes).
	Arrow
	// ArrowStream is the Arrow IPC stream format (writers only: stdout sinks).
	ArrowStream
)

var formatNames = [...]string{"parquet", "csv", "jsonl", "arrow", "arrow-stream"}

func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// Ext is the file-name extension the warehouse uses for f.
func (f Format) Ext() string {
	switch f {
	case Parquet:
		return ".parquet"
	case CSV:
		return ".csv"
	case JSONL:
		return ".jsonl"
	}
	return ".arrow"
}

// ParseFormat accepts the names the DSL accepts: parquet, csv, jsonl (json),
// arrow (ipc), and arrow-stream.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(s) {
	case "parquet":
		return Parquet, nil
	case "csv":
		return CSV, nil
	case "jsonl", "json":
		return JSONL, nil
	case "arrow", "ipc":
		return Arrow, nil
	case "arrow-stream", "ipc-stream":
		return ArrowStream, nil
	}
	return 0, fmt.Errorf("unknown format %q (want parquet, csv, jsonl or arrow)", s)
}

// DefaultBatchRows is the number of rows per record batch the CSV, JSON lines
// and Parquet readers produce (the last batch of a file may be shorter;
// batches never span files). Arrow IPC readers keep the batches as written.
const DefaultBatchRows = 64 * 1024

// ParquetRowGroupRows is the maximum number of rows per Parquet row group the
// writers produce. Batches are buffered into the open row group until it
// holds this many rows, so a file of fewer rows has one row group. 128Ki rows
// (DuckDB writes 122,880) bounds the writer's memory to one such row group per
// open file, a few MiB for typical schemas, and gives readers row groups
// enough to decode in parallel and to skip by their statistics.
const ParquetRowGroupRows = 128 << 10

// CSVOptions are the CSV dialect. The zero value is not useful; start from
// DefaultCSV.
type CSVOptions struct {
	// Header: the first record names the columns. Readers then match columns
	// by name (exact, else case-insensitive), ignore extra columns and refuse
	// a file that lacks a declared column. Without a header, fields are matched
	// by position and every record must have exactly one field per column.
	// Writers write a header row when it is set.
	Header bool
	// Delimiter separates fields (one ASCII byte; default ',').
	Delimiter byte
	// Quote encloses fields (one ASCII byte; default '"'). Inside a quoted
	// field the quote is written twice.
	Quote byte
	// Escape, when non-zero, also escapes the next byte inside a quoted field
	// (Spark's escape option, e.g. '\\'). Writers always double the quote.
	Escape byte
	// Nulls are the unquoted field texts read as NULL (default: only the empty
	// field). A quoted field is never NULL, so `""` is the empty string.
	// Writers write NULL as Nulls[0].
	Nulls []string
}

// DefaultCSV is the dialect of `read --format csv` and the readers' default:
// header, comma, double quote, NULL as the empty unquoted field.
func DefaultCSV() CSVOptions {
	return CSVOptions{Header: true, Delimiter: ',', Quote: '"', Nulls: []string{""}}
}

// ParseCSVOptions reads the DSL's source options (header, delimiter or sep,
// quote, escape, null or nullValue — repeatable, or a comma list in nulls)
// on top of DefaultCSV. Unknown keys are an error naming them.
func ParseCSVOptions(kv [][2]string) (CSVOptions, error) {
	o := DefaultCSV()
	nullsSet := false
	for _, p := range kv {
		k, v := strings.ToLower(p[0]), p[1]
		switch k {
		case "header":
			switch strings.ToLower(v) {
			case "true", "yes", "1":
				o.Header = true
			case "false", "no", "0":
				o.Header = false
			default:
				return o, fmt.Errorf("csv option header: want true or false, got %q", v)
			}
		case "delimiter", "sep", "separator":
			if v == `\t` || v == "tab" {
				v = "\t"
			}
			if len(v) != 1 || v[0] >= 0x80 || v[0] == '\n' || v[0] == '\r' {
				return o, fmt.Errorf("csv option %s: want one ASCII character, got %q", k, v)
			}
			o.Delimiter = v[0]
		case "quote":
			if len(v) != 1 || v[0] >= 0x80 || v[0] == '\n' || v[0] == '\r' {
				return o, fmt.Errorf("csv option quote: want one ASCII character, got %q", v)
			}
			o.Quote = v[0]
		case "escape":
			if len(v) > 1 || (len(v) == 1 && v[0] >= 0x80) {
				return o, fmt.Errorf("csv option escape: want one ASCII character or nothing, got %q", v)
			}
			o.Escape = 0
			if v != "" {
				o.Escape = v[0]
			}
		case "null", "nullvalue":
			if !nullsSet {
				o.Nulls, nullsSet = nil, true
			}
			o.Nulls = append(o.Nulls, v)
		case "nulls":
			if !nullsSet {
				o.Nulls, nullsSet = nil, true
			}
			o.Nulls = append(o.Nulls, strings.Split(v, ",")...)
		case "mode", "columnnameofcorruptrecord":
			return o, fmt.Errorf("csv option %s is read by ParseSourceOptions, not ParseCSVOptions", p[0])
		default:
			return o, fmt.Errorf("unknown csv option %q (want %s)", p[0], strings.Join(acceptedOptions(CSV), ", "))
		}
	}
	return o, o.validate()
}

func (o CSVOptions) validate() error {
	if o.Delimiter == 0 || o.Quote == 0 {
		return fmt.Errorf("csv: delimiter and quote must be set (start from DefaultCSV)")
	}
	if o.Delimiter == o.Quote {
		return fmt.Errorf("csv: delimiter and quote are both %q", o.Delimiter)
	}
	return nil
}

// Options configure readers.
type Options struct {
	CSV       *CSVOptions      // CSV only; nil means DefaultCSV()
	BatchRows int              // rows per batch; 0 means DefaultBatchRows
	Mem       memory.Allocator // nil means memory.DefaultAllocator
	// Columns, when not nil, are the declared columns (indexes into the
	// schema) the caller reads. A Parquet reader then decodes only those and
	// fills every other column of its batches with NULLs (whatever its
	// nullability: the caller promised not to look). The file's schema is
	// still checked against every declared column. Other formats read every
	// column.
	Columns []int
	// Threads is how many row groups a Parquet reader decodes at once, ahead
	// of the caller; 0 means GOMAXPROCS.
	Threads int
	// Bounds are conditions the caller's filter requires of every row it
	// keeps. A Parquet reader skips a row group whose statistics show that
	// no row of it meets one of its integer bounds; given a bound on a
	// string column, it reads that column's dictionary and drops the rows
	// that miss any bound (rowfilter.go). It may still return rows that do
	// not meet them: the caller filters. Other formats ignore them.
	Bounds []Bound
	// Mode is what a CSV or JSON lines reader does with a malformed record
	// (badrecords.go); the zero value fails.
	Mode Mode
	// CorruptColumn, when the schema has a column of that name, is the
	// column a CSV or JSON lines reader fills with a malformed record's
	// text (NULL for a good one) instead of reading it from the file.
	CorruptColumn string
	// RescuedColumn, when set, is the column a CSV or JSON lines reader
	// fills with the fields it rescues (rescue.go): values that do not
	// parse as their column's type, and new columns as Evolution says.
	// The schema must declare it, as a nullable string.
	RescuedColumn string
	// Evolution is what a new column in a CSV header or a JSON line does
	// (rescue.go); the zero value ignores it and counts it.
	Evolution Evolution
	// Malformed, when set, counts the malformed records a CSV or JSON
	// lines reader kept or dropped, the records it rescued and the new
	// columns it met.
	Malformed *Malformed
	// Reuse lets a Parquet reader decode into buffers that earlier batches
	// held, once the caller released them: the caller must not keep any
	// part of a batch (a string's bytes) past its Release without copying
	// it (generated flows copy what they keep). Other formats ignore it.
	Reuse bool

	noFastParquet bool // tests: read Parquet through pqarrow alone, without rt/format/pqfast
}

// Bound is a comparison of a declared column (an index into the schema)
// with a constant: for an int32 or int64 column, Col Op Value, where Op is
// one of = < <= > >=; for a string column, Col = Text.
type Bound struct {
	Col   int
	Op    string
	Value int64
	Text  string
}

// excludes reports whether no value in [min, max] meets the bound.
func (b Bound) excludes(min, max int64) bool {
	switch b.Op {
	case "=":
		return b.Value < min || b.Value > max
	case "<":
		return min >= b.Value
	case "<=":
		return min > b.Value
	case ">":
		return max <= b.Value
	case ">=":
		return max < b.Value
	}
	return false
}

// reads reports whether declared column i is read (Columns).
func (o Options) reads(i int) bool {
	if o.Columns == nil {
		return true
	}
	for _, c := range o.Columns {
		if c == i {
			return true
		}
	}
	return false
}

func (o Options) batchRows() int {
	if o.BatchRows <= 0 {
		return DefaultBatchRows
	}
	return o.BatchRows
}

func (o Options) csv() CSVOptions {
	if o.CSV == nil {
		return DefaultCSV()
	}
	return *o.CSV
}
