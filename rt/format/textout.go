package format

import (
	"encoding/base64"
	"fmt"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// TextFormatter appends the text form (text.go) of row i of a column, which
// must not be NULL, to dst.
type TextFormatter func(dst []byte, i int) []byte

type textFormatter = TextFormatter

// NewTextFormatter returns the text form of a column's values.
func NewTextFormatter(col arrow.Array) (TextFormatter, error) { return newTextFormatter(col) }

func newTextFormatter(col arrow.Array) (textFormatter, error) {
	if f, err := nestedTextFormatter(col); f != nil || err != nil { // nested.go
		return f, err
	}
	switch a := col.(type) {
	case *array.Boolean:
		return func(dst []byte, i int) []byte { return strconv.AppendBool(dst, a.Value(i)) }, nil
	case *array.Int8:
		return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(a.Value(i)), 10) }, nil
	case *array.Int16:
		return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(a.Value(i)), 10) }, nil
	case *array.Int32:
		return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(a.Value(i)), 10) }, nil
	case *array.Int64:
		return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, a.Value(i), 10) }, nil
	case *array.Uint8:
		return func(dst []byte, i int) []byte { return strconv.AppendUint(dst, uint64(a.Value(i)), 10) }, nil
	case *array.Uint16:
		return func(dst []byte, i int) []byte { return strconv.AppendUint(dst, uint64(a.Value(i)), 10) }, nil
	case *array.Uint32:
		return func(dst []byte, i int) []byte { return strconv.AppendUint(dst, uint64(a.Value(i)), 10) }, nil
	case *array.Uint64:
		return func(dst []byte, i int) []byte { return strconv.AppendUint(dst, a.Value(i), 10) }, nil
	case *array.Float32:
		return func(dst []byte, i int) []byte { return AppendFloat(dst, float64(a.Value(i)), 32) }, nil
	case *array.Float64:
		return func(dst []byte, i int) []byte { return AppendFloat(dst, a.Value(i), 64) }, nil
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		return func(dst []byte, i int) []byte { return AppendDecimal(dst, a.Value(i), scale) }, nil
	case *array.String:
		return func(dst []byte, i int) []byte { return append(dst, a.Value(i)...) }, nil
	case *array.Binary:
		return func(dst []byte, i int) []byte { return base64.StdEncoding.AppendEncode(dst, a.Value(i)) }, nil
	case *array.Date32:
		return func(dst []byte, i int) []byte { return AppendDate(dst, int64(a.Value(i))) }, nil
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		return func(dst []byte, i int) []byte { return AppendTimestamp(dst, int64(a.Value(i)), unit) }, nil
	case *array.Duration:
		return func(dst []byte, i int) []byte { return strconv.AppendInt(dst, int64(a.Value(i)), 10) }, nil
	}
	return nil, fmt.Errorf("type %s is not supported", col.DataType())
}

// ValueText returns the text form of row i of col (text.go), and false for
// NULL. It is the slow, general path: for partition values and messages.
func ValueText(col arrow.Array, i int) (string, bool) {
	if col.IsNull(i) {
		return "", false
	}
	f, err := newTextFormatter(col)
	if err != nil {
		return col.ValueStr(i), true
	}
	return string(f(nil, i)), true
}
