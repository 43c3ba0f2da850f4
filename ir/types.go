package ir

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// TypeKind enumerates the Arrow types of the model.
type TypeKind int

const (
	TUnknown TypeKind = iota // not yet resolved, or the type of NULL
	TBool
	TInt8
	TInt16
	TInt32
	TInt64
	TUint8
	TUint16
	TUint32
	TUint64
	TFloat32
	TFloat64
	TDecimal
	TString
	TBinary
	TDate32
	TTimestamp
	TDuration
	TArray  // ARRAY<T>: Type.Elem, Type.ElemNullable (nested.go)
	TMap    // MAP<K, V>: Type.Key, Type.Elem, Type.ElemNullable
	TStruct // STRUCT<name: T, ...>: Type.Fields
)

// TimeUnit is the unit of a timestamp or duration.
type TimeUnit int

const (
	Second TimeUnit = iota
	Milli
	Micro
	Nano
)

var unitNames = [...]string{"s", "ms", "us", "ns"}

func (u TimeUnit) String() string { return unitNames[u] }

// ParseTimeUnit parses s, ms, us or ns.
func ParseTimeUnit(s string) (TimeUnit, bool) {
	for i, n := range unitNames {
		if n == s {
			return TimeUnit(i), true
		}
	}
	return 0, false
}

// Type is an Arrow data type. Precision and Scale apply to decimals; Unit to
// timestamps and durations; Zone to timestamps ("" means no zone, Spark's
// TIMESTAMP_NTZ; "UTC" is Spark's TIMESTAMP).
//
// A nested type (TArray, TMap, TStruct) keeps its parts in nest, built only
// by ArrayOf, MapOf and StructOf, which intern them: two equal nested types
// share one pointer, so Type stays comparable with == (nested.go).
type Type struct {
	Kind      TypeKind
	Precision int
	Scale     int
	Unit      TimeUnit
	Zone      string
	nest      *nested
}

// typeNames is the one table of simple type names, canonical name first.
var typeNames = []struct {
	name string
	kind TypeKind
}{
	{"bool", TBool}, {"boolean", TBool},
	{"int8", TInt8}, {"tinyint", TInt8}, {"byte", TInt8},
	{"int16", TInt16}, {"smallint", TInt16}, {"short", TInt16},
	{"int32", TInt32}, {"int", TInt32}, {"integer", TInt32},
	{"int64", TInt64}, {"bigint", TInt64}, {"long", TInt64},
	{"uint8", TUint8}, {"uint16", TUint16}, {"uint32", TUint32}, {"uint64", TUint64},
	{"float32", TFloat32}, {"float", TFloat32}, {"real", TFloat32},
	{"float64", TFloat64}, {"double", TFloat64},
	{"string", TString}, {"varchar", TString},
	{"binary", TBinary},
	{"date32", TDate32}, {"date", TDate32},
	{"decimal", TDecimal}, {"numeric", TDecimal},
	{"timestamp", TTimestamp}, {"timestamp_ntz", TTimestamp},
	{"duration", TDuration}, {"null", TUnknown},
}

// Simple constructors.
var (
	Bool    = Type{Kind: TBool}
	Int8    = Type{Kind: TInt8}
	Int16   = Type{Kind: TInt16}
	Int32   = Type{Kind: TInt32}
	Int64   = Type{Kind: TInt64}
	Uint8   = Type{Kind: TUint8}
	Uint16  = Type{Kind: TUint16}
	Uint32  = Type{Kind: TUint32}
	Uint64  = Type{Kind: TUint64}
	Float32 = Type{Kind: TFloat32}
	Float64 = Type{Kind: TFloat64}
	StringT = Type{Kind: TString}
	BinaryT = Type{Kind: TBinary}
	Date32  = Type{Kind: TDate32}
)

// Decimal returns decimal(p, s).
func Decimal(p, s int) Type { return Type{Kind: TDecimal, Precision: p, Scale: s} }

// Timestamp returns timestamp(unit[, zone]).
func Timestamp(u TimeUnit, zone string) Type { return Type{Kind: TTimestamp, Unit: u, Zone: zone} }

// DurationType returns duration(unit).
func DurationType(u TimeUnit) Type { return Type{Kind: TDuration, Unit: u} }

// TypeKindName returns the canonical spelling of a kind.
func (k TypeKind) String() string {
	if n, ok := nestedKindNames[k]; ok {
		return n
	}
	for _, t := range typeNames {
		if t.kind == k {
			return t.name
		}
	}
	return "unknown"
}

// String renders the canonical DSL spelling: int64, decimal(10,2),
// timestamp(ms), timestamp(us, "UTC"), duration(ns).
func (t Type) String() string {
	switch t.Kind {
	case TUnknown:
		return "null"
	case TDecimal:
		return fmt.Sprintf("decimal(%d,%d)", t.Precision, t.Scale)
	case TTimestamp:
		if t.Zone != "" {
			return fmt.Sprintf("timestamp(%s, %s)", t.Unit, strconv.Quote(t.Zone))
		}
		return fmt.Sprintf("timestamp(%s)", t.Unit)
	case TDuration:
		return fmt.Sprintf("duration(%s)", t.Unit)
	case TArray, TMap, TStruct:
		return t.nestedString(Type.String, " not null")
	}
	return t.Kind.String()
}

// sqlNames are Spark SQL's names of the kinds that take no arguments, as
// its DataType.sql prints them. Spark has no unsigned integers: they are
// spelled as MySQL does, for messages about them.
var sqlNames = [...]string{
	TUnknown: "VOID", TBool: "BOOLEAN",
	TInt8: "TINYINT", TInt16: "SMALLINT", TInt32: "INT", TInt64: "BIGINT",
	TUint8: "TINYINT UNSIGNED", TUint16: "SMALLINT UNSIGNED", TUint32: "INT UNSIGNED", TUint64: "BIGINT UNSIGNED",
	TFloat32: "FLOAT", TFloat64: "DOUBLE", TString: "STRING", TBinary: "BINARY", TDate32: "DATE",
	TDuration: "INTERVAL DAY TO SECOND",
}

// SQL renders the Spark SQL spelling, the one every SQL-facing text uses
// (Spark's messages, DDL, column names such as CAST(x AS INT)): BOOLEAN,
// TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(10,2), STRING,
// BINARY, DATE, TIMESTAMP (a zoned timestamp), TIMESTAMP_NTZ (a zoneless
// one), INTERVAL DAY TO SECOND (a duration), VOID (the type of NULL).
// Units do not show: Spark's timestamps are microseconds. Unsigned integers,
// which Spark lacks, are TINYINT UNSIGNED .. BIGINT UNSIGNED; a backend that
// stores them in Spark widens them to a Spark type first. A kind outside
// the model is "".
func (t Type) SQL() string {
	switch t.Kind {
	case TDecimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", t.Precision, t.Scale)
	case TTimestamp:
		if t.Zone == "" {
			return "TIMESTAMP_NTZ"
		}
		return "TIMESTAMP"
	case TArray, TMap, TStruct:
		return t.nestedString(Type.SQL, " NOT NULL")
	}
	if t.Kind >= 0 && int(t.Kind) < len(sqlNames) {
		return sqlNames[t.Kind]
	}
	return ""
}

// LookupTypeName returns the kind of a simple type name (case-insensitive).
func LookupTypeName(name string) (TypeKind, bool) {
	n := strings.ToLower(name)
	for _, t := range typeNames {
		if t.name == n {
			return t.kind, true
		}
	}
	return 0, false
}

// TypeNames lists every accepted type name, canonical and alias.
func TypeNames() []string {
	out := make([]string, len(typeNames))
	for i, t := range typeNames {
		out[i] = t.name
	}
	return out
}

// IsInteger reports signed or unsigned integer kinds.
func (t Type) IsInteger() bool { return t.Kind >= TInt8 && t.Kind <= TUint64 }

// IsSigned reports signed integer kinds.
func (t Type) IsSigned() bool { return t.Kind >= TInt8 && t.Kind <= TInt64 }

// IsUnsigned reports unsigned integer kinds.
func (t Type) IsUnsigned() bool { return t.Kind >= TUint8 && t.Kind <= TUint64 }

// IsFloat reports float32 and float64.
func (t Type) IsFloat() bool { return t.Kind == TFloat32 || t.Kind == TFloat64 }

// IsNumeric reports integers, floats and decimals.
func (t Type) IsNumeric() bool { return t.IsInteger() || t.IsFloat() || t.Kind == TDecimal }

// IsTemporal reports date, timestamp and duration.
func (t Type) IsTemporal() bool {
	return t.Kind == TDate32 || t.Kind == TTimestamp || t.Kind == TDuration
}

// Duration is a span of time used by streaming knobs and interval literals.
// Its canonical text form is a sequence of unit terms, largest first:
// 1d2h30m, 10s, 250ms.
type Duration int64

// Duration units, in the order they print.
var durationUnits = []struct {
	name string
	d    time.Duration
}{
	{"d", 24 * time.Hour}, {"h", time.Hour}, {"m", time.Minute}, {"s", time.Second},
	{"ms", time.Millisecond}, {"us", time.Microsecond}, {"ns", time.Nanosecond},
}

// String renders the canonical form; zero is "0s".
func (d Duration) String() string {
	if d == 0 {
		return "0s"
	}
	var b strings.Builder
	v := int64(d)
	if v < 0 {
		b.WriteByte('-')
		v = -v
	}
	for _, u := range durationUnits {
		n := int64(u.d)
		if v >= n {
			fmt.Fprintf(&b, "%d%s", v/n, u.name)
			v %= n
		}
	}
	return b.String()
}

// ParseDuration parses the canonical form: terms from the largest unit to the
// smallest, each unit at most once (1h30m, not 30m1h or 5s5s).
func ParseDuration(s string) (Duration, error) {
	if s == "" {
		return 0, fmt.Errorf("empty duration")
	}
	rest := s
	neg := false
	if strings.HasPrefix(rest, "-") {
		neg = true
		rest = rest[1:]
	}
	var total int64
	lastUnit := -1
	for rest != "" {
		i := 0
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, fmt.Errorf("duration %q: expected a number at %q", s, rest)
		}
		n, err := strconv.ParseInt(rest[:i], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("duration %q: %v", s, err)
		}
		rest = rest[i:]
		j := 0
		for j < len(rest) && rest[j] >= 'a' && rest[j] <= 'z' {
			j++
		}
		unit := rest[:j]
		rest = rest[j:]
		found := false
		for ui, u := range durationUnits {
			if u.name == unit {
				if ui <= lastUnit {
					return 0, fmt.Errorf("duration %q: units must go from largest to smallest, each once (d h m s ms us ns)", s)
				}
				lastUnit = ui
				if n > (1<<63-1)/int64(u.d) || total > (1<<63-1)-n*int64(u.d) {
					return 0, fmt.Errorf("duration %q overflows", s)
				}
				total += n * int64(u.d)
				found = true
				break
			}
		}
		if !found {
			return 0, fmt.Errorf("duration %q: unknown unit %q (want d, h, m, s, ms, us or ns)", s, unit)
		}
	}
	if neg {
		total = -total
	}
	return Duration(total), nil
}

// MarshalText implements encoding.TextMarshaler.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := ParseDuration(string(b))
	*d = v
	return err
}
