// Package nested holds the values of Spark's nested types (ARRAY, MAP,
// STRUCT) in generated row loops, and the operations generated code calls
// on them.
//
// Representation: a nested value is a Go any. NULL is nil; an array is an
// Array, a map a *Map (keys and values in insertion order, as Spark keeps
// them), a struct a Struct (one entry per field). Their parts are nested
// values or scalars of the Go types generated code gives each model type
// (bool, int8 .. uint64, float32, float64, string, []byte, decimal128.Num,
// int32 for a date, int64 for a timestamp or a duration in its unit), with
// nil for a NULL part. So a NULL element, a NULL field and a NULL map are
// each nil where they stand, distinct from an empty Array, an empty *Map
// and a Struct of NULL fields.
//
// Get reads row i of an Arrow list, map or struct column into this form
// and Append writes it back into the column's builder; the scalar leaves go
// through the Arrow array and builder of their own type. Values read from a
// batch may alias its buffers (strings and binaries), so they are used
// within the row that read them, as generated code does.
//
// It must not import anything of the compiler.
package nested

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/nordisk/thund/rt/sqlfn"
)

// Array is an ARRAY value.
type Array []any

// Map is a MAP value: Keys[i] maps to Values[i]. Keys are never NULL.
type Map struct{ Keys, Values []any }

// Struct is a STRUCT value: one entry per field, in the type's order.
type Struct []any

// Get reads row i of column a: nil for NULL, else the value in this
// package's form.
func Get(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.Map:
		start, end := a.ValueOffsets(i)
		keys, items := a.Keys(), a.Items()
		m := &Map{Keys: make([]any, 0, end-start), Values: make([]any, 0, end-start)}
		for j := start; j < end; j++ {
			m.Keys = append(m.Keys, Get(keys, int(j)))
			m.Values = append(m.Values, Get(items, int(j)))
		}
		return m
	case *array.List:
		start, end := a.ValueOffsets(i)
		vals := a.ListValues()
		out := make(Array, 0, end-start)
		for j := start; j < end; j++ {
			out = append(out, Get(vals, int(j)))
		}
		return out
	case *array.Struct:
		out := make(Struct, a.NumField())
		for f := range out {
			out[f] = Get(a.Field(f), i)
		}
		return out
	case *array.Boolean:
		return a.Value(i)
	case *array.Int8:
		return a.Value(i)
	case *array.Int16:
		return a.Value(i)
	case *array.Int32:
		return a.Value(i)
	case *array.Int64:
		return a.Value(i)
	case *array.Uint8:
		return a.Value(i)
	case *array.Uint16:
		return a.Value(i)
	case *array.Uint32:
		return a.Value(i)
	case *array.Uint64:
		return a.Value(i)
	case *array.Float32:
		return a.Value(i)
	case *array.Float64:
		return a.Value(i)
	case *array.Decimal128:
		return a.Value(i)
	case *array.String:
		return a.Value(i)
	case *array.Binary:
		return a.Value(i)
	case *array.Date32:
		return int32(a.Value(i))
	case *array.Timestamp:
		return int64(a.Value(i))
	case *array.Duration:
		return int64(a.Value(i))
	}
	panic(fmt.Sprintf("nested: no value form for %s", a.DataType()))
}

// Append appends v (this package's form, nil for NULL) to b.
func Append(b array.Builder, v any) {
	if v == nil {
		b.AppendNull()
		return
	}
	switch b := b.(type) {
	case *array.MapBuilder:
		m := v.(*Map)
		b.Append(true)
		for j := range m.Keys {
			Append(b.KeyBuilder(), m.Keys[j])
			Append(b.ItemBuilder(), m.Values[j])
		}
	case *array.ListBuilder:
		b.Append(true)
		for _, e := range v.(Array) {
			Append(b.ValueBuilder(), e)
		}
	case *array.StructBuilder:
		b.Append(true)
		for f, x := range v.(Struct) {
			Append(b.FieldBuilder(f), x)
		}
	case *array.BooleanBuilder:
		b.Append(v.(bool))
	case *array.Int8Builder:
		b.Append(v.(int8))
	case *array.Int16Builder:
		b.Append(v.(int16))
	case *array.Int32Builder:
		b.Append(v.(int32))
	case *array.Int64Builder:
		b.Append(v.(int64))
	case *array.Uint8Builder:
		b.Append(v.(uint8))
	case *array.Uint16Builder:
		b.Append(v.(uint16))
	case *array.Uint32Builder:
		b.Append(v.(uint32))
	case *array.Uint64Builder:
		b.Append(v.(uint64))
	case *array.Float32Builder:
		b.Append(v.(float32))
	case *array.Float64Builder:
		b.Append(v.(float64))
	case *array.Decimal128Builder:
		b.Append(v.(decimal128.Num))
	case *array.StringBuilder:
		b.Append(v.(string))
	case *array.BinaryBuilder:
		b.Append(v.([]byte))
	case *array.Date32Builder:
		b.Append(arrow.Date32(v.(int32)))
	case *array.TimestampBuilder:
		b.Append(arrow.Timestamp(v.(int64)))
	case *array.DurationBuilder:
		b.Append(arrow.Duration(v.(int64)))
	default:
		panic(fmt.Sprintf("nested: cannot append to %T", b))
	}
}

// as returns v as a T, false for NULL.
func as[T any](v any) (T, bool) {
	if v == nil {
		var zero T
		return zero, false
	}
	return v.(T), true
}

// Field is field f of struct s (s not NULL), false when the field is NULL.
func Field[T any](s any, f int) (T, bool) { return as[T](s.(Struct)[f]) }

// Index is arr[i], Spark's 0-based subscript under ANSI: false for a NULL
// element, INVALID_ARRAY_INDEX when i is out of range.
func Index[T any](arr any, i int64) (T, bool, *sqlfn.Error) {
	a := arr.(Array)
	if i < 0 || i >= int64(len(a)) {
		var zero T
		return zero, false, &sqlfn.Error{Class: "INVALID_ARRAY_INDEX", Msg: "The index " + strconv.FormatInt(i, 10) +
			" is out of bounds. The array has " + strconv.Itoa(len(a)) + " elements. Use the SQL function `get()` to tolerate accessing element at invalid index and return NULL instead."}
	}
	v, ok := as[T](a[i])
	return v, ok, nil
}

// ElementAt is element_at(arr, i): 1-based, counting from the end when i
// is negative; INVALID_INDEX_OF_ZERO for 0 and
// INVALID_ARRAY_INDEX_IN_ELEMENT_AT out of range (ANSI).
func ElementAt[T any](arr any, i int64) (T, bool, *sqlfn.Error) {
	a := arr.(Array)
	var zero T
	switch {
	case i == 0:
		return zero, false, &sqlfn.Error{Class: "INVALID_INDEX_OF_ZERO", Msg: "The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1)."}
	case i > int64(len(a)) || -i > int64(len(a)):
		return zero, false, &sqlfn.Error{Class: "INVALID_ARRAY_INDEX_IN_ELEMENT_AT", Msg: "The index " + strconv.FormatInt(i, 10) +
			" is out of bounds. The array has " + strconv.Itoa(len(a)) + " elements. Use `try_element_at` to tolerate accessing element at invalid index and return NULL instead."}
	case i < 0:
		i += int64(len(a))
	default:
		i--
	}
	v, ok := as[T](a[i])
	return v, ok, nil
}

// Lookup is m[key] and element_at(m, key): false when the key is missing
// or its value is NULL.
func Lookup[T any](m any, key any) (T, bool) {
	mm := m.(*Map)
	for j, k := range mm.Keys {
		if equal(k, key) {
			return as[T](mm.Values[j])
		}
	}
	var zero T
	return zero, false
}

// equal compares two non-NULL values of one type as Spark's ordering
// does (Compare): NaN equals NaN, -0.0 equals 0.0, arrays and structs part
// by part.
func equal(a, b any) bool { return Compare(a, b) == 0 }

// Size is size(x) of an array or a map (x not NULL).
func Size(x any) int32 {
	if m, ok := x.(*Map); ok {
		return int32(len(m.Keys))
	}
	return int32(len(x.(Array)))
}

// Keys is map_keys(m) (m not NULL).
func Keys(m any) any { return Array(m.(*Map).Keys) }

// Values is map_values(m) (m not NULL).
func Values(m any) any { return Array(m.(*Map).Values) }

// Contains is array_contains(arr, x) (neither NULL): true when an element
// equals x, else NULL (false) when an element is NULL, else false.
func Contains(arr any, x any) (bool, bool) {
	sawNull := false
	for _, e := range arr.(Array) {
		switch {
		case e == nil:
			sawNull = true
		case equal(e, x):
			return true, true
		}
	}
	return false, !sawNull
}

// Opt is v as a nested part: nil when ok is false (NULL).
func Opt[T any](v T, ok bool) any {
	if !ok {
		return nil
	}
	return v
}

// MakeMap is map(k1, v1, k2, v2, ...): NULL_MAP_KEY for a NULL key and
// DUPLICATED_MAP_KEY for a key given twice (Spark's default
// spark.sql.mapKeyDedupPolicy, EXCEPTION).
func MakeMap(kv ...any) (any, *sqlfn.Error) {
	m := &Map{}
	for i := 0; i < len(kv); i += 2 {
		k := kv[i]
		if k == nil {
			return nil, &sqlfn.Error{Class: "NULL_MAP_KEY", Msg: "Cannot use null as map key."}
		}
		for _, seen := range m.Keys {
			if equal(seen, k) {
				return nil, &sqlfn.Error{Class: "DUPLICATED_MAP_KEY", Msg: fmt.Sprintf("Duplicate map key %v was found, please check the input data.", k)}
			}
		}
		m.Keys, m.Values = append(m.Keys, k), append(m.Values, kv[i+1])
	}
	return m, nil
}

// MapType is the Arrow map type of keys key and values value (nullable or
// not), as the compiler's ir.Type.Arrow builds it.
func MapType(key, value arrow.DataType, nullable bool) *arrow.MapType {
	m := arrow.MapOf(key, value)
	m.SetItemNullable(nullable)
	return m
}

// splitRegexps caches the compiled patterns of split and str_to_map.
var splitRegexps sync.Map

// compiled is pattern compiled (once).
func compiled(pattern string) *regexp.Regexp {
	re, ok := splitRegexps.Load(pattern)
	if !ok {
		re, _ = splitRegexps.LoadOrStore(pattern, regexp.MustCompile(pattern))
	}
	return re.(*regexp.Regexp)
}

// Split is split(s, pattern, limit): s cut at each match of the regular
// expression pattern, as Java's String.split, which Spark calls, cuts it:
// every piece when limit <= 0 (trailing empty ones kept), at most limit
// pieces otherwise (the last holds the rest); a zero-width match at the
// start makes no empty first piece. The plan admits only patterns that RE2
// reads as Java does.
func Split(s, pattern string, limit int64) any {
	if s == "" {
		return Array{""}
	}
	n := -1
	if limit > 0 {
		n = int(min(limit, int64(len(s))+1))
	}
	parts := compiled(pattern).Split(s, n)
	out := make(Array, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out
}

// RegexpExtractAll is regexp_extract_all(s, pattern, idx) as an ARRAY of
// strings (sqlfn.Regex.ExtractAll).
func RegexpExtractAll(x *sqlfn.Regex, s string, idx int32) (any, *sqlfn.Error) {
	parts, err := x.ExtractAll(s, idx)
	if err != nil {
		return nil, err
	}
	out := make(Array, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out, nil
}
