package format

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// The types of the model, spelled as the DSL spells them canonically (the
// compiler's ir.Type.String); rt cannot import ir, so this is the runtime's copy
// of that table, and a compiler test keeps the two in step.
var simpleTypes = []struct {
	name string
	typ  arrow.DataType
}{
	{"bool", arrow.FixedWidthTypes.Boolean},
	{"int8", arrow.PrimitiveTypes.Int8},
	{"int16", arrow.PrimitiveTypes.Int16},
	{"int32", arrow.PrimitiveTypes.Int32},
	{"int64", arrow.PrimitiveTypes.Int64},
	{"uint8", arrow.PrimitiveTypes.Uint8},
	{"uint16", arrow.PrimitiveTypes.Uint16},
	{"uint32", arrow.PrimitiveTypes.Uint32},
	{"uint64", arrow.PrimitiveTypes.Uint64},
	{"float32", arrow.PrimitiveTypes.Float32},
	{"float64", arrow.PrimitiveTypes.Float64},
	{"string", arrow.BinaryTypes.String},
	{"binary", arrow.BinaryTypes.Binary},
	{"date32", arrow.FixedWidthTypes.Date32},
}

var unitNames = map[arrow.TimeUnit]string{arrow.Second: "s", arrow.Millisecond: "ms", arrow.Microsecond: "us", arrow.Nanosecond: "ns"}

func parseUnit(s string) (arrow.TimeUnit, bool) {
	for u, n := range unitNames {
		if n == s {
			return u, true
		}
	}
	return 0, false
}

// Supported reports whether dt is one of the model's types.
func Supported(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
		arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.FLOAT32, arrow.FLOAT64, arrow.STRING, arrow.BINARY, arrow.DATE32,
		arrow.DECIMAL128, arrow.TIMESTAMP, arrow.DURATION:
		return true
	}
	return supportedNested(dt) // nested.go
}

// TypeString spells dt as the DSL does: int64, decimal(10,2), timestamp(ms),
// timestamp(us, "UTC"), duration(ns), array<int32>, map<string, int64>,
// struct<a: int32 not null>. Types outside the model print as Arrow
// prints them.
func TypeString(dt arrow.DataType) string {
	if s := nestedTypeString(dt); s != "" { // nested.go
		return s
	}
	switch t := dt.(type) {
	case *arrow.Decimal128Type:
		return fmt.Sprintf("decimal(%d,%d)", t.Precision, t.Scale)
	case *arrow.TimestampType:
		if t.TimeZone != "" {
			return fmt.Sprintf("timestamp(%s, %s)", unitNames[t.Unit], strconv.Quote(t.TimeZone))
		}
		return fmt.Sprintf("timestamp(%s)", unitNames[t.Unit])
	case *arrow.DurationType:
		return fmt.Sprintf("duration(%s)", unitNames[t.Unit])
	}
	for _, s := range simpleTypes {
		if arrow.TypeEqual(s.typ, dt) {
			return s.name
		}
	}
	return dt.String()
}

// ParseType parses TypeString's spelling back.
func ParseType(s string) (arrow.DataType, error) {
	s = strings.TrimSpace(s)
	if t, ok, err := parseNestedType(s); ok { // nested.go
		return t, err
	}
	name, args, hasArgs := strings.Cut(s, "(")
	if !hasArgs {
		for _, st := range simpleTypes {
			if st.name == s {
				return st.typ, nil
			}
		}
		return nil, fmt.Errorf("unknown type %q", s)
	}
	if !strings.HasSuffix(args, ")") {
		return nil, fmt.Errorf("type %q: missing )", s)
	}
	args = strings.TrimSuffix(args, ")")
	parts := strings.SplitN(args, ",", 2)
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	switch name {
	case "decimal":
		if len(parts) != 2 {
			return nil, fmt.Errorf("type %q: want decimal(p,s)", s)
		}
		p, err1 := strconv.Atoi(parts[0])
		sc, err2 := strconv.Atoi(parts[1])
		if err1 != nil || err2 != nil || p < 1 || p > 38 || sc < 0 || sc > p {
			return nil, fmt.Errorf("type %q: want decimal(p,s) with 1 <= p <= 38 and 0 <= s <= p", s)
		}
		return &arrow.Decimal128Type{Precision: int32(p), Scale: int32(sc)}, nil
	case "timestamp", "duration":
		u, ok := parseUnit(parts[0])
		if !ok {
			return nil, fmt.Errorf("type %q: unknown time unit %q (want s, ms, us or ns)", s, parts[0])
		}
		if name == "duration" {
			if len(parts) != 1 {
				return nil, fmt.Errorf("type %q: want duration(unit)", s)
			}
			return &arrow.DurationType{Unit: u}, nil
		}
		zone := ""
		if len(parts) == 2 {
			z, err := strconv.Unquote(parts[1])
			if err != nil {
				return nil, fmt.Errorf("type %q: zone must be a quoted string", s)
			}
			zone = z
		}
		return &arrow.TimestampType{Unit: u, TimeZone: zone}, nil
	}
	return nil, fmt.Errorf("unknown type %q", s)
}

// Field is one column as the warehouse's commit records store it.
type Field struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Nullable bool   `json:"nullable"`
}

// EncodeSchema turns a schema into Fields.
func EncodeSchema(s *arrow.Schema) []Field {
	out := make([]Field, s.NumFields())
	for i, f := range s.Fields() {
		out[i] = Field{Name: f.Name, Type: TypeString(f.Type), Nullable: f.Nullable}
	}
	return out
}

// DecodeSchema turns Fields back into a schema.
func DecodeSchema(fields []Field) (*arrow.Schema, error) {
	out := make([]arrow.Field, len(fields))
	for i, f := range fields {
		t, err := ParseType(f.Type)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", f.Name, err)
		}
		out[i] = arrow.Field{Name: f.Name, Type: t, Nullable: f.Nullable}
	}
	return arrow.NewSchema(out, nil), nil
}

// CheckSchema reports the first column whose type is outside the model.
func CheckSchema(s *arrow.Schema) error {
	for _, f := range s.Fields() {
		if !Supported(f.Type) {
			return fmt.Errorf("column %s: type %s is not supported", f.Name, f.Type)
		}
	}
	return nil
}
