package format

import (
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A conformer turns a column read from a Parquet or IPC file into the declared
// type. It returns a new reference (the caller releases it) or an error for a
// value that cannot be converted (an overflow when refining a time unit);
// row is the index of the bad value.
type conformer func(col arrow.Array) (out arrow.Array, row int, err error)

// Lossless casts accepted from a file's type to the declared one:
//
//   - the same type; any string or binary layout (large, view, dictionary) to
//     string or binary
//   - a narrower integer to a wider one of the same signedness, an unsigned
//     one to a wider signed one
//   - float32 to float64; integers of up to 16 bits to float32 and of up to
//     32 bits to float64
//   - integers to decimal(p,s) with p-s at least the integer's digits
//   - decimal(p1,s1) to decimal(p2,s2) with s2 >= s1 and p2-s2 >= p1-s1
//   - timestamp and duration to a finer unit (overflow is a per-value error);
//     a timestamp to a coarser unit when each value is whole in it (Spark's
//     INT96 Parquet timestamps read as nanoseconds), else a per-value error
//   - a timestamp to a different zone label when both have zones, or between
//     no zone and UTC (the stored numbers mean the same instant)
//   - Arrow's null type (an all-NULL column) to anything
//   - an array, map or struct whose parts are in another layout (large
//     lists, large or view strings and binaries: relayout.go)
//
// Anything else is a SchemaError naming the file, column and both types.
func conformFor(from, to arrow.DataType, mem memory.Allocator) (conformer, bool) {
	if arrow.TypeEqual(from, to) {
		return func(col arrow.Array) (arrow.Array, int, error) { col.Retain(); return col, 0, nil }, true
	}
	if nestedConformable(from, to) { // nested.go
		return nestedConformer(to), true
	}
	if relayoutable(from, to) { // relayout.go: large lists and strings inside
		return relayoutConformer(to, mem), true
	}
	if from.ID() == arrow.NULL {
		return func(col arrow.Array) (arrow.Array, int, error) {
			return array.MakeArrayOfNull(mem, to, col.Len()), 0, nil
		}, true
	}
	if d, ok := from.(*arrow.DictionaryType); ok {
		switch d.ValueType.ID() {
		case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
		default:
			return nil, false
		}
		inner, ok := conformFor(d.ValueType, to, mem)
		if !ok {
			return nil, false
		}
		return func(col arrow.Array) (arrow.Array, int, error) {
			dense, err := unpackDictionary(col.(*array.Dictionary), mem)
			if err != nil {
				return nil, 0, err
			}
			defer dense.Release()
			return inner(dense)
		}, true
	}
	switch t := to.(type) {
	case *arrow.StringType:
		switch from.ID() {
		case arrow.LARGE_STRING, arrow.STRING_VIEW:
			return bytesCast(to, mem), true
		}
	case *arrow.BinaryType:
		switch from.ID() {
		case arrow.LARGE_BINARY, arrow.BINARY_VIEW, arrow.FIXED_SIZE_BINARY:
			return bytesCast(to, mem), true
		}
	case *arrow.TimestampType:
		f, ok := from.(*arrow.TimestampType)
		if !ok || !zonesCompatible(f.TimeZone, t.TimeZone) {
			return nil, false
		}
		switch {
		case f.Unit == t.Unit:
			return relabel(to), true
		case unitMult(f.Unit) > unitMult(t.Unit):
			// Spark writes INT96 timestamps, which read as nanoseconds:
			// accept a finer unit when every value is whole in the coarser.
			return divideInts(to, unitMult(f.Unit)/unitMult(t.Unit), mem), true
		}
		return scaleInts(to, unitMult(t.Unit)/unitMult(f.Unit), mem), true
	case *arrow.DurationType:
		f, ok := from.(*arrow.DurationType)
		if !ok || unitMult(f.Unit) > unitMult(t.Unit) {
			return nil, false
		}
		return scaleInts(to, unitMult(t.Unit)/unitMult(f.Unit), mem), true
	case *arrow.Decimal128Type:
		switch f := from.(type) {
		case *arrow.Decimal128Type:
			if f.Precision < 1 || f.Precision > 38 || f.Scale < 0 || f.Scale > f.Precision {
				return nil, false // not a decimal a file can hold (a hostile schema)
			}
			if t.Scale < f.Scale || t.Precision-t.Scale < f.Precision-f.Scale {
				return nil, false
			}
			return decimalRescale(t, f.Scale, mem), true
		}
		if digits, ok := intDigits(from); ok && t.Precision-t.Scale >= digits {
			return intToDecimal(t, mem), true
		}
		return nil, false
	case *arrow.Float64Type:
		if from.ID() == arrow.FLOAT32 || intBits(from) <= 32 {
			return numericCast(to, mem), true
		}
	case *arrow.Float32Type:
		if intBits(from) <= 16 {
			return numericCast(to, mem), true
		}
	default:
		fb, tb := intBits(from), intBits(to)
		if fb == 0 || tb == 0 || tb == 99 || fb == 99 {
			return nil, false
		}
		fs, ts := signedInt(from), signedInt(to)
		if (fs == ts && tb > fb) || (!fs && ts && tb > fb) {
			return numericCast(to, mem), true
		}
	}
	return nil, false
}

func zonesCompatible(a, b string) bool {
	if a == b || (a != "" && b != "") {
		return true
	}
	return strings.EqualFold(a+b, "UTC")
}

// intBits is the width of an integer type, 99 for floats, 0 otherwise.
func intBits(dt arrow.DataType) int {
	switch dt.ID() {
	case arrow.INT8, arrow.UINT8:
		return 8
	case arrow.INT16, arrow.UINT16:
		return 16
	case arrow.INT32, arrow.UINT32:
		return 32
	case arrow.INT64, arrow.UINT64:
		return 64
	case arrow.FLOAT32, arrow.FLOAT64:
		return 99
	}
	return 0
}

func signedInt(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		return true
	}
	return false
}

// intDigits is the number of decimal digits an integer type may need.
func intDigits(dt arrow.DataType) (int32, bool) {
	switch dt.ID() {
	case arrow.INT8, arrow.UINT8:
		return 3, true
	case arrow.INT16, arrow.UINT16:
		return 5, true
	case arrow.INT32, arrow.UINT32:
		return 10, true
	case arrow.INT64:
		return 19, true
	case arrow.UINT64:
		return 20, true
	}
	return 0, false
}

// relabel gives the same buffers a different (equivalent) type.
func relabel(to arrow.DataType) conformer {
	return func(col arrow.Array) (arrow.Array, int, error) {
		d := col.Data()
		nd := array.NewData(to, d.Len(), d.Buffers(), nil, d.NullN(), d.Offset())
		defer nd.Release()
		return array.MakeFromData(nd), 0, nil
	}
}

// int64Values reads a timestamp or duration column's raw values.
func int64Value(col arrow.Array) func(i int) int64 {
	switch a := col.(type) {
	case *array.Timestamp:
		return func(i int) int64 { return int64(a.Value(i)) }
	case *array.Duration:
		return func(i int) int64 { return int64(a.Value(i)) }
	}
	return nil
}

func scaleInts(to arrow.DataType, mult int64, mem memory.Allocator) conformer {
	return func(col arrow.Array) (arrow.Array, int, error) {
		get := int64Value(col)
		if get == nil {
			// a hostile stream's batch whose column is not of its schema's type
			return nil, 0, fmt.Errorf("cannot read %s as %s", col.DataType(), TypeString(to))
		}
		b := array.NewBuilder(mem, to)
		defer b.Release()
		b.Reserve(col.Len())
		for i := 0; i < col.Len(); i++ {
			if col.IsNull(i) {
				b.AppendNull()
				continue
			}
			v := get(i)
			if v > math.MaxInt64/mult || v < math.MinInt64/mult {
				return nil, i, fmt.Errorf("value %d does not fit %s", v, TypeString(to))
			}
			switch bb := b.(type) {
			case *array.TimestampBuilder:
				bb.Append(arrow.Timestamp(v * mult))
			case *array.DurationBuilder:
				bb.Append(arrow.Duration(v * mult))
			}
		}
		return b.NewArray(), 0, nil
	}
}

// divideInts converts to a coarser unit, refusing any value that is not a
// whole number of the coarser unit.
func divideInts(to arrow.DataType, div int64, mem memory.Allocator) conformer {
	return func(col arrow.Array) (arrow.Array, int, error) {
		get := int64Value(col)
		if get == nil {
			// a hostile stream's batch whose column is not of its schema's type
			return nil, 0, fmt.Errorf("cannot read %s as %s", col.DataType(), TypeString(to))
		}
		b := array.NewBuilder(mem, to)
		defer b.Release()
		b.Reserve(col.Len())
		for i := 0; i < col.Len(); i++ {
			if col.IsNull(i) {
				b.AppendNull()
				continue
			}
			v := get(i)
			if v%div != 0 {
				return nil, i, fmt.Errorf("value %d is not a whole number of %s", v, TypeString(to))
			}
			switch bb := b.(type) {
			case *array.TimestampBuilder:
				bb.Append(arrow.Timestamp(v / div))
			case *array.DurationBuilder:
				bb.Append(arrow.Duration(v / div))
			}
		}
		return b.NewArray(), 0, nil
	}
}

// numberAt returns row i of an integer or float column as int64, uint64 or
// float64 (only one is meaningful, by kind).
type number struct {
	i    int64
	u    uint64
	f    float64
	kind byte // 'i', 'u', 'f'
}

func numberGetter(col arrow.Array) func(i int) number {
	switch a := col.(type) {
	case *array.Int8:
		return func(i int) number { return number{i: int64(a.Value(i)), kind: 'i'} }
	case *array.Int16:
		return func(i int) number { return number{i: int64(a.Value(i)), kind: 'i'} }
	case *array.Int32:
		return func(i int) number { return number{i: int64(a.Value(i)), kind: 'i'} }
	case *array.Int64:
		return func(i int) number { return number{i: a.Value(i), kind: 'i'} }
	case *array.Uint8:
		return func(i int) number { return number{u: uint64(a.Value(i)), kind: 'u'} }
	case *array.Uint16:
		return func(i int) number { return number{u: uint64(a.Value(i)), kind: 'u'} }
	case *array.Uint32:
		return func(i int) number { return number{u: uint64(a.Value(i)), kind: 'u'} }
	case *array.Uint64:
		return func(i int) number { return number{u: a.Value(i), kind: 'u'} }
	case *array.Float32:
		return func(i int) number { return number{f: float64(a.Value(i)), kind: 'f'} }
	case *array.Float64:
		return func(i int) number { return number{f: a.Value(i), kind: 'f'} }
	}
	return nil
}

func (n number) int64() int64 {
	if n.kind == 'u' {
		return int64(n.u)
	}
	return n.i
}

func (n number) float64() float64 {
	switch n.kind {
	case 'u':
		return float64(n.u)
	case 'i':
		return float64(n.i)
	}
	return n.f
}

// numericCast widens integers and floats; conformFor admits only lossless
// pairs, so no value check is needed.
func numericCast(to arrow.DataType, mem memory.Allocator) conformer {
	return func(col arrow.Array) (arrow.Array, int, error) {
		get := numberGetter(col)
		if get == nil {
			// a hostile stream's batch whose column is not of its schema's type
			return nil, 0, fmt.Errorf("cannot read %s as %s", col.DataType(), TypeString(to))
		}
		b := array.NewBuilder(mem, to)
		defer b.Release()
		b.Reserve(col.Len())
		for i := 0; i < col.Len(); i++ {
			if col.IsNull(i) {
				b.AppendNull()
				continue
			}
			n := get(i)
			switch bb := b.(type) {
			case *array.Int16Builder:
				bb.Append(int16(n.int64()))
			case *array.Int32Builder:
				bb.Append(int32(n.int64()))
			case *array.Int64Builder:
				bb.Append(n.int64())
			case *array.Uint16Builder:
				bb.Append(uint16(n.u))
			case *array.Uint32Builder:
				bb.Append(uint32(n.u))
			case *array.Uint64Builder:
				bb.Append(n.u)
			case *array.Float32Builder:
				bb.Append(float32(n.float64()))
			case *array.Float64Builder:
				bb.Append(n.float64())
			}
		}
		return b.NewArray(), 0, nil
	}
}

func intToDecimal(to *arrow.Decimal128Type, mem memory.Allocator) conformer {
	mult := decimal128.GetScaleMultiplier(int(to.Scale))
	return func(col arrow.Array) (arrow.Array, int, error) {
		get := numberGetter(col)
		if get == nil {
			// a hostile stream's batch whose column is not of its schema's type
			return nil, 0, fmt.Errorf("cannot read %s as %s", col.DataType(), TypeString(to))
		}
		b := array.NewDecimal128Builder(mem, to)
		defer b.Release()
		b.Reserve(col.Len())
		for i := 0; i < col.Len(); i++ {
			if col.IsNull(i) {
				b.AppendNull()
				continue
			}
			n := get(i)
			var v decimal128.Num
			if n.kind == 'u' {
				v = decimal128.FromU64(n.u)
			} else {
				v = decimal128.FromI64(n.i)
			}
			b.Append(v.Mul(mult))
		}
		return b.NewArray(), 0, nil
	}
}

func decimalRescale(to *arrow.Decimal128Type, fromScale int32, mem memory.Allocator) conformer {
	if to.Scale == fromScale {
		return relabel(to)
	}
	mult := decimal128.GetScaleMultiplier(int(to.Scale - fromScale))
	return func(col arrow.Array) (arrow.Array, int, error) {
		a, ok := col.(*array.Decimal128)
		if !ok {
			// a hostile stream's batch whose column is not of its schema's type
			return nil, 0, fmt.Errorf("cannot read %s as %s", col.DataType(), TypeString(to))
		}
		b := array.NewDecimal128Builder(mem, to)
		defer b.Release()
		b.Reserve(col.Len())
		for i := 0; i < a.Len(); i++ {
			if a.IsNull(i) {
				b.AppendNull()
				continue
			}
			b.Append(a.Value(i).Mul(mult))
		}
		return b.NewArray(), 0, nil
	}
}

// bytesCast copies any string/binary layout into string or binary.
func bytesCast(to arrow.DataType, mem memory.Allocator) conformer {
	return func(col arrow.Array) (arrow.Array, int, error) {
		var get func(i int) []byte
		switch a := col.(type) {
		case *array.LargeString:
			get = func(i int) []byte { return []byte(a.Value(i)) }
		case *array.StringView:
			get = func(i int) []byte { return []byte(a.Value(i)) }
		case *array.LargeBinary:
			get = a.Value
		case *array.BinaryView:
			get = a.Value
		case *array.FixedSizeBinary:
			get = a.Value
		default:
			return nil, 0, fmt.Errorf("cannot read %s as %s", col.DataType(), TypeString(to))
		}
		b := array.NewBuilder(mem, to)
		defer b.Release()
		b.Reserve(col.Len())
		for i := 0; i < col.Len(); i++ {
			if col.IsNull(i) {
				b.AppendNull()
				continue
			}
			v := get(i)
			if len(v) > math.MaxInt32 {
				return nil, i, fmt.Errorf("value of %d bytes is too long for %s", len(v), TypeString(to))
			}
			switch bb := b.(type) {
			case *array.StringBuilder:
				bb.Append(string(v))
			case *array.BinaryBuilder:
				bb.Append(v)
			}
		}
		return b.NewArray(), 0, nil
	}
}

// unpackDictionary materializes a dictionary of strings or binaries.
func unpackDictionary(d *array.Dictionary, mem memory.Allocator) (arrow.Array, error) {
	dict := d.Dictionary()
	var get func(j int) []byte
	switch a := dict.(type) {
	case *array.String:
		get = func(j int) []byte { return []byte(a.Value(j)) }
	case *array.LargeString:
		get = func(j int) []byte { return []byte(a.Value(j)) }
	case *array.Binary:
		get = a.Value
	case *array.LargeBinary:
		get = a.Value
	default:
		return nil, fmt.Errorf("cannot read a dictionary of %s", dict.DataType())
	}
	b := array.NewBuilder(mem, dict.DataType())
	defer b.Release()
	b.Reserve(d.Len())
	for i := 0; i < d.Len(); i++ {
		if d.IsNull(i) || dict.IsNull(d.GetValueIndex(i)) {
			b.AppendNull()
			continue
		}
		v := get(d.GetValueIndex(i))
		switch bb := b.(type) {
		case *array.StringBuilder:
			bb.Append(string(v))
		case *array.LargeStringBuilder:
			bb.Append(string(v))
		case *array.BinaryBuilder:
			bb.Append(v)
		}
	}
	return b.NewArray(), nil
}
