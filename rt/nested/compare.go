package nested

import (
	"bytes"
	"cmp"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/nordisk/thund/rt/sqlfn"
)

// Compare orders two nested values of one type (-1, 0, +1) as Spark's
// ascending order does, NULLs aside (the caller places a NULL value by the
// sort's null ordering): arrays element by element, then the shorter
// first; structs field by field; a NULL part before any value; floats with
// -0.0 equal to 0.0 and NaN after every number. A MAP is not orderable
// (the compiler refuses it).
func Compare(a, b any) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	switch a := a.(type) {
	case Array:
		return compareParts(a, b.(Array))
	case Struct:
		return compareParts(a, b.(Struct))
	case string:
		return strings.Compare(a, b.(string))
	case []byte:
		return bytes.Compare(a, b.([]byte))
	case bool:
		switch y := b.(bool); {
		case a == y:
			return 0
		case y:
			return -1
		}
		return 1
	case float64:
		return sqlfn.CompareFloat64(a, b.(float64))
	case float32:
		return sqlfn.CompareFloat64(float64(a), float64(b.(float32)))
	case decimal128.Num:
		return a.Cmp(b.(decimal128.Num))
	case int8:
		return cmp.Compare(a, b.(int8))
	case int16:
		return cmp.Compare(a, b.(int16))
	case int32:
		return cmp.Compare(a, b.(int32))
	case int64:
		return cmp.Compare(a, b.(int64))
	case uint8:
		return cmp.Compare(a, b.(uint8))
	case uint16:
		return cmp.Compare(a, b.(uint16))
	case uint32:
		return cmp.Compare(a, b.(uint32))
	case uint64:
		return cmp.Compare(a, b.(uint64))
	}
	panic(fmt.Sprintf("nested: cannot order %T", a))
}

// compareParts orders two arrays' elements or two structs' fields: the
// first part that differs decides, else the shorter comes first.
func compareParts(a, b []any) int {
	for i := range min(len(a), len(b)) {
		if c := Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}
