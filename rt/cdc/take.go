package cdc

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// take gathers src's rows at idx (-1: NULL) into a new array of src's type.
// The types of the project's type table have a typed loop; any other type
// goes through one-row slices (slow, but exact).
func take(mem memory.Allocator, src arrow.Array, idx []int64) arrow.Array {
	b := array.NewBuilder(mem, src.DataType())
	defer b.Release()
	b.Reserve(len(idx))
	switch s := src.(type) {
	case *array.Boolean:
		takeInto(s, b.(*array.BooleanBuilder), idx)
	case *array.Int8:
		takeInto(s, b.(*array.Int8Builder), idx)
	case *array.Int16:
		takeInto(s, b.(*array.Int16Builder), idx)
	case *array.Int32:
		takeInto(s, b.(*array.Int32Builder), idx)
	case *array.Int64:
		takeInto(s, b.(*array.Int64Builder), idx)
	case *array.Uint8:
		takeInto(s, b.(*array.Uint8Builder), idx)
	case *array.Uint16:
		takeInto(s, b.(*array.Uint16Builder), idx)
	case *array.Uint32:
		takeInto(s, b.(*array.Uint32Builder), idx)
	case *array.Uint64:
		takeInto(s, b.(*array.Uint64Builder), idx)
	case *array.Float32:
		takeInto(s, b.(*array.Float32Builder), idx)
	case *array.Float64:
		takeInto(s, b.(*array.Float64Builder), idx)
	case *array.Decimal128:
		takeInto[decimal128.Num](s, b.(*array.Decimal128Builder), idx)
	case *array.String:
		takeInto(s, b.(*array.StringBuilder), idx)
	case *array.LargeString:
		takeInto(s, b.(*array.LargeStringBuilder), idx)
	case *array.Binary:
		takeInto(s, b.(*array.BinaryBuilder), idx)
	case *array.Date32:
		takeInto(s, b.(*array.Date32Builder), idx)
	case *array.Date64:
		takeInto(s, b.(*array.Date64Builder), idx)
	case *array.Timestamp:
		takeInto(s, b.(*array.TimestampBuilder), idx)
	case *array.Duration:
		takeInto(s, b.(*array.DurationBuilder), idx)
	default:
		return takeSlices(mem, src, idx)
	}
	return b.NewArray()
}

type valuer[T any] interface {
	arrow.Array
	Value(int) T
}

type appender[T any] interface {
	Append(T)
	AppendNull()
}

func takeInto[T any](src valuer[T], b appender[T], idx []int64) {
	for _, i := range idx {
		if i < 0 || src.IsNull(int(i)) {
			b.AppendNull()
		} else {
			b.Append(src.Value(int(i)))
		}
	}
}

// takeSlices is take for any type: one-row slices concatenated.
func takeSlices(mem memory.Allocator, src arrow.Array, idx []int64) arrow.Array {
	null := array.MakeArrayOfNull(mem, src.DataType(), 1)
	defer null.Release()
	parts := make([]arrow.Array, 0, len(idx))
	for _, i := range idx {
		if i < 0 {
			parts = append(parts, null)
		} else {
			parts = append(parts, array.NewSlice(src, i, i+1))
		}
	}
	if len(parts) == 0 {
		return array.MakeArrayOfNull(mem, src.DataType(), 0)
	}
	out, err := array.Concatenate(parts, mem)
	for _, p := range parts {
		if p != null {
			p.Release()
		}
	}
	if err != nil {
		panic(err) // slices of one array always concatenate
	}
	return out
}
