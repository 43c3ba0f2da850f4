package jsonfn

import (
	"encoding/base64"
	"math"
	"math/big"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/nordisk/thund/rt/nested"
	"github.com/nordisk/thund/rt/sqlfn"
)

// Type describes the type of a value to_json writes, or from_json reads;
// generated code builds it from the value's type.
type Type struct {
	Kind   TypeKind
	Scale  int32   // a decimal's scale
	Bits   int     // a signed integer's width (from_json): 8, 16, 32 or 64
	Elem   *Type   // an array's element, a map's value
	Key    *Type   // a map's key
	Fields []Field // a struct's fields
}

// Field is a struct field of a Type.
type Field struct {
	Name string
	Type *Type
}

// TypeKind is the kind of a Type. Integers are any of Go's integer types.
type TypeKind uint8

const (
	Bool TypeKind = iota
	Int
	Float32
	Float64
	Decimal
	String
	Binary
	Date
	Array
	Map
	Struct
)

// ToJSON is to_json(v): v as JSON text, as Spark's JacksonGenerator writes
// it with the default options: a struct's NULL fields left out (a NULL
// element or map value is null), doubles and floats as Java prints them
// (NaN and the infinities as strings), decimals as BigDecimal.toString,
// dates as yyyy-MM-dd, binaries in base64, and map keys as strings.
func ToJSON(v any, t *Type) string { return string(appendJSON(nil, v, t)) }

// appendJSON appends v (not NULL), of type t.
func appendJSON(b []byte, v any, t *Type) []byte {
	switch t.Kind {
	case Bool:
		return strconv.AppendBool(b, v.(bool))
	case Int:
		return append(b, scalarText(v, t)...)
	case Float32, Float64:
		f := scalarText(v, t)
		if x, _ := strconv.ParseFloat(f, 64); math.IsNaN(x) || math.IsInf(x, 0) {
			return appendString(b, f)
		}
		return append(b, f...)
	case Decimal:
		return appendJavaDecimal(b, v.(decimal128.Num), t.Scale)
	case String, Binary, Date:
		return appendString(b, scalarText(v, t))
	case Array:
		b = append(b, '[')
		for i, e := range v.(nested.Array) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendPart(b, e, t.Elem)
		}
		return append(b, ']')
	case Map:
		m := v.(*nested.Map)
		b = append(b, '{')
		for i, k := range m.Keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, scalarText(k, t.Key))
			b = append(b, ':')
			b = appendPart(b, m.Values[i], t.Elem)
		}
		return append(b, '}')
	}
	b = append(b, '{')
	first := true
	for i, f := range v.(nested.Struct) {
		if f == nil {
			continue // ignoreNullFields
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendString(b, t.Fields[i].Name)
		b = append(b, ':')
		b = appendJSON(b, f, t.Fields[i].Type)
	}
	return append(b, '}')
}

// appendPart appends an element or a map value: null when it is NULL.
func appendPart(b []byte, v any, t *Type) []byte {
	if v == nil {
		return append(b, "null"...)
	}
	return appendJSON(b, v, t)
}

// scalarText is a scalar's text: what CAST(v AS STRING) gives (a binary's
// base64, as JSON writes it).
func scalarText(v any, t *Type) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return string(sqlfn.AppendFloat64(nil, x))
	case float32:
		return string(sqlfn.AppendFloat32(nil, x))
	case decimal128.Num:
		return string(appendJavaDecimal(nil, x, t.Scale))
	case int32:
		if t.Kind == Date {
			return string(sqlfn.AppendDate(nil, x))
		}
		return strconv.FormatInt(int64(x), 10)
	case int8:
		return strconv.FormatInt(int64(x), 10)
	case int16:
		return strconv.FormatInt(int64(x), 10)
	case int64:
		return strconv.FormatInt(x, 10)
	case uint8:
		return strconv.FormatUint(uint64(x), 10)
	case uint16:
		return strconv.FormatUint(uint64(x), 10)
	case uint32:
		return strconv.FormatUint(uint64(x), 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	}
	return string(appendJSON(nil, v, t)) // a nested map key
}

// appendJavaDecimal appends v at scale s as Java's BigDecimal.toString:
// plain ("1.50") unless the scale is negative or the exponent is below -6,
// then scientific ("1.0E-7").
func appendJavaDecimal(b []byte, v decimal128.Num, s int32) []byte {
	u := v.BigInt()
	digits := new(big.Int).Abs(u).String()
	adjusted := len(digits) - 1 - int(s)
	if s >= 0 && adjusted >= -6 {
		return sqlfn.AppendDecimal(b, v, s)
	}
	if u.Sign() < 0 {
		b = append(b, '-')
	}
	b = append(b, digits[0])
	if len(digits) > 1 {
		b = append(append(b, '.'), digits[1:]...)
	}
	b = append(b, 'E')
	if adjusted >= 0 {
		b = append(b, '+')
	}
	return strconv.AppendInt(b, int64(adjusted), 10)
}
