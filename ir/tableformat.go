package ir

import (
	"fmt"
	"strings"

	"github.com/nordisk/thund/internal/suggest"
)

// Table formats: what a materialized view or streaming table is stored as
// (SQL USING fmt, the DSL's format clause). The native warehouse keeps every
// version of a dataset as Parquet files; an Iceberg table (the default) also
// gets Apache Iceberg metadata over the same files (rt/iceberg), so that
// other engines read it. Sinks have formats of their own (csv, jsonl,
// parquet, stdout, kafka), and temporary views and sources none.
const (
	TableIceberg = "iceberg" // Parquet files plus Iceberg metadata: the default
	TableParquet = "parquet" // plain Parquet files, no Iceberg metadata
)

// TableFormats lists the table formats a materialized view or streaming
// table takes, the default first.
var TableFormats = []string{TableIceberg, TableParquet}

// IsTable reports whether the dataset is a table of the warehouse that a
// format clause applies to: a materialized view or a streaming table.
func (d *Dataset) IsTable() bool {
	return d.Kind == KindMaterializedView || d.Kind == KindStreamingTable
}

// TableFormat is a table's format, lower-cased: the one its clause names, or
// TableIceberg when it has none. It is "" for datasets that are not tables
// (IsTable).
func (d *Dataset) TableFormat() string {
	if !d.IsTable() {
		return ""
	}
	if d.Format == "" {
		return TableIceberg
	}
	return strings.ToLower(d.Format)
}

// FormatClausePos is where the dataset's format clause is, or the dataset's
// own position when the clause has none recorded (an IR built in Go).
func (d *Dataset) FormatClausePos() Pos {
	if d.FormatPos.IsValid() {
		return d.FormatPos
	}
	return d.Pos
}

// whyNoDelta says why USING delta is refused: no Go writer of Delta Lake's
// transaction log is one a user could trust with their tables
// (docs/warehouse.md, "Table formats", says what was looked at).
const whyNoDelta = "no Delta Lake writer for Go keeps Delta's transaction log as Delta does (docs/warehouse.md, Table formats)"

// FormatClause spells a format clause as the file at pos writes it: USING
// fmt in SQL, format fmt in .thund.
func FormatClause(pos Pos, format string) string {
	if strings.HasSuffix(pos.File, ".sql") {
		return "USING " + format
	}
	return "format " + format
}

// validateFormat refuses a table format other than iceberg and parquet, at
// its clause, on every target: a pipeline means the same on each backend,
// and the native one writes these two.
func validateFormat(d *Dataset, diags *Diagnostics) {
	if !d.IsTable() || d.Format == "" {
		return
	}
	f := strings.ToLower(d.Format)
	if f == TableIceberg || f == TableParquet {
		return
	}
	pos := d.FormatClausePos()
	const want = "want iceberg (the default: an Iceberg table over Parquet files, which Spark, Trino, DuckDB and pyiceberg read) or parquet (plain Parquet files)"
	if f == "delta" {
		diags.Add(pos, CodeBadDataset, "%s %s: table format delta is not supported, as %s: %s", d.Kind, d.Name, whyNoDelta, want)
		return
	}
	hint := ""
	if near, ok := suggest.Closest(f, TableFormats); ok {
		hint = fmt.Sprintf(" (did you mean %s?)", near)
	}
	diags.Add(pos, CodeBadDataset, "%s %s: unknown table format %q%s: %s", d.Kind, d.Name, d.Format, hint, want)
}

// UnheldTypeError is a type that an Iceberg table cannot hold, found by
// IcebergType at Path inside the type it was given: "" for the type itself,
// ".f" for a struct field, "[]" for an array's element, "[key]" and
// "[value]" for a map's key and value, nested as far as it goes (".a[].b").
type UnheldTypeError struct {
	Path string
	Type Type
	// Cast is what to cast the value to instead (the zero Type when no cast
	// makes it one: a duration).
	Cast Type
	Why  string // why Iceberg cannot hold it
	Fix  string // what to do, when no cast does it
}

func (e *UnheldTypeError) Error() string {
	what := e.Type.String()
	if e.Path != "" {
		what = e.Path + " " + what
	}
	return fmt.Sprintf("%s has no Iceberg type: %s: %s", what, e.Why, e.Remedy(Type.String))
}

// Remedy says what to do about the type, spelling types with spell
// (Type.String for .thund, Type.SQL for SQL).
func (e *UnheldTypeError) Remedy(spell func(Type) string) string {
	if e.Cast.Kind == TUnknown {
		return e.Fix
	}
	return "cast it to " + spell(e.Cast)
}

// The reasons Iceberg cannot hold a type, and the casts that fix it. The
// runtime (rt/iceberg) writes the metadata of the same mapping.
const (
	whyUnsigned = "Iceberg has no unsigned integers, and a Java reader of a Parquet UINT_32 or UINT_64 column sign-extends it"
	whyNanos    = "nanosecond timestamps need Iceberg format v3, which pyiceberg and Spark 4.1's Iceberg runtime do not fully read"
	whyDuration = "Iceberg has no interval type"
	whyNull     = "a column of NULLs has no type Iceberg has (format v2)"
	fixDuration = "store a number instead, such as unix_micros(a) - unix_micros(b) in place of a - b"
	fixNull     = "cast it to the type it would hold"
)

// IcebergType is the one mapping of the model's types to Apache Iceberg's
// (format v2), as Iceberg spells them: bool is boolean; int8, int16, int32,
// uint8 and uint16 are int; int64 is long; float32 is float; float64 is
// double; decimal(p,s), string, binary and date keep their names; a
// timestamp of unit s, ms or us is timestamp without a zone and timestamptz
// with one; array<T> is list<T>, map<K, V> is map<K, V> and struct<a: T>
// is struct<a: T>, part by part. A type Iceberg cannot hold (uint32,
// uint64, a nanosecond timestamp, a duration, the type of NULL) is an
// *UnheldTypeError that says why and what to cast it to.
func IcebergType(t Type) (string, error) {
	s, err := icebergType(t, "")
	if err != nil {
		return "", err
	}
	return s, nil
}

func icebergType(t Type, path string) (string, *UnheldTypeError) {
	unheld := func(cast Type, why, fix string) (string, *UnheldTypeError) {
		return "", &UnheldTypeError{Path: path, Type: t, Cast: cast, Why: why, Fix: fix}
	}
	switch t.Kind {
	case TBool:
		return "boolean", nil
	case TInt8, TInt16, TInt32, TUint8, TUint16:
		return "int", nil
	case TInt64:
		return "long", nil
	case TUint32:
		return unheld(Int64, whyUnsigned, "")
	case TUint64:
		return unheld(Decimal(20, 0), whyUnsigned, "")
	case TFloat32:
		return "float", nil
	case TFloat64:
		return "double", nil
	case TDecimal: // the model's decimals have at most 38 digits, as Iceberg's
		return fmt.Sprintf("decimal(%d,%d)", t.Precision, t.Scale), nil
	case TString:
		return "string", nil
	case TBinary:
		return "binary", nil
	case TDate32:
		return "date", nil
	case TTimestamp:
		if t.Unit == Nano {
			return unheld(Timestamp(Micro, t.Zone), whyNanos, "")
		}
		if t.Zone != "" {
			return "timestamptz", nil
		}
		return "timestamp", nil
	case TDuration:
		return unheld(Type{}, whyDuration, fixDuration)
	case TArray:
		elem, err := icebergType(t.Elem(), path+"[]")
		if err != nil {
			return "", err
		}
		return "list<" + elem + ">", nil
	case TMap:
		key, err := icebergType(t.Key(), path+"[key]")
		if err != nil {
			return "", err
		}
		val, err := icebergType(t.Elem(), path+"[value]")
		if err != nil {
			return "", err
		}
		return "map<" + key + ", " + val + ">", nil
	case TStruct:
		parts := make([]string, len(t.Fields()))
		for i, f := range t.Fields() {
			ft, err := icebergType(f.Type, path+"."+f.Name)
			if err != nil {
				return "", err
			}
			parts[i] = f.Name + ": " + ft
		}
		return "struct<" + strings.Join(parts, ", ") + ">", nil
	}
	return unheld(Type{}, whyNull, fixNull)
}

// IcebergCast returns t with each part that Iceberg cannot hold replaced by
// the type to cast it to (UnheldTypeError.Cast), the type a whole column
// casts to; ok is false when some part has no such cast (a duration).
func IcebergCast(t Type) (Type, bool) {
	_, err := icebergType(t, "")
	if err == nil {
		return t, true
	}
	switch t.Kind {
	case TArray:
		elem, ok := IcebergCast(t.Elem())
		return ArrayOf(elem, t.ElemNullable()), ok
	case TMap:
		key, ok1 := IcebergCast(t.Key())
		val, ok2 := IcebergCast(t.Elem())
		return MapOf(key, val, t.ElemNullable()), ok1 && ok2
	case TStruct:
		fields := append([]StructField(nil), t.Fields()...)
		ok := true
		for i := range fields {
			var fok bool
			fields[i].Type, fok = IcebergCast(fields[i].Type)
			ok = ok && fok
		}
		return StructOf(fields...), ok
	}
	return err.Cast, err.Cast.Kind != TUnknown
}
