package nested

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Key is v (an ARRAY or STRUCT value, not NULL) encoded as a string that
// is equal for two values exactly when Spark groups them together: part
// by part, a NULL part apart from every value, and floats normalized as
// Spark's NormalizeFloatingNumbers does (-0.0 is 0.0, every NaN one
// value). Generated code uses it as the hash key of a nested group key.
// A value's type fixes its shape, so the encoding needs no type tags:
// only lengths, and a byte marking each part NULL or not.
func Key(v any) string {
	return string(appendKey(nil, v))
}

// appendKey appends v's encoding to b.
func appendKey(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, 0)
	case Array:
		b = binary.AppendUvarint(append(b, 1), uint64(len(v)))
		for _, p := range v {
			b = appendKey(b, p)
		}
		return b
	case Struct:
		b = append(b, 1)
		for _, p := range v {
			b = appendKey(b, p)
		}
		return b
	case *Map:
		b = binary.AppendUvarint(append(b, 1), uint64(len(v.Keys)))
		for i := range v.Keys {
			b = appendKey(appendKey(b, v.Keys[i]), v.Values[i])
		}
		return b
	case string:
		return append(binary.AppendUvarint(append(b, 1), uint64(len(v))), v...)
	case []byte:
		return append(binary.AppendUvarint(append(b, 1), uint64(len(v))), v...)
	case bool:
		if v {
			return append(b, 1, 1)
		}
		return append(b, 1, 0)
	case float64:
		return binary.LittleEndian.AppendUint64(append(b, 1), math.Float64bits(normFloat(v)))
	case float32:
		return appendKey(b, float64(v))
	case decimal128.Num:
		return binary.LittleEndian.AppendUint64(binary.LittleEndian.AppendUint64(append(b, 1), v.LowBits()), uint64(v.HighBits()))
	case int8:
		return appendInt(b, int64(v))
	case int16:
		return appendInt(b, int64(v))
	case int32:
		return appendInt(b, int64(v))
	case int64:
		return appendInt(b, v)
	case uint8:
		return appendInt(b, int64(v))
	case uint16:
		return appendInt(b, int64(v))
	case uint32:
		return appendInt(b, int64(v))
	case uint64:
		return appendInt(b, int64(v))
	}
	panic(fmt.Sprintf("nested: no key for %T", v))
}

// Normalize is Clone of v with its floats normalized as Key compares them
// (-0.0 as 0.0, one NaN): the value a group of a nested key shows, as
// Spark's normalized grouping key.
func Normalize(v any) any {
	switch v := v.(type) {
	case float64:
		return normFloat(v)
	case float32:
		return float32(normFloat(float64(v)))
	case Array:
		return Array(normParts(v))
	case Struct:
		return Struct(normParts(v))
	case *Map:
		return &Map{Keys: normParts(v.Keys), Values: normParts(v.Values)}
	}
	return Clone(v)
}

// normParts normalizes each part of a nested value.
func normParts(parts []any) []any {
	if parts == nil {
		return nil
	}
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = Normalize(p)
	}
	return out
}

// normFloat is v with -0.0 as 0.0 and every NaN as one.
func normFloat(v float64) float64 {
	switch {
	case v == 0:
		return 0
	case math.IsNaN(v):
		return math.NaN()
	}
	return v
}

// appendInt appends a non-NULL integer part.
func appendInt(b []byte, v int64) []byte {
	return binary.LittleEndian.AppendUint64(append(b, 1), uint64(v))
}
