package ir

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// The model's types are Arrow types (TypeKind). Type.Arrow and FromArrow are
// the compiler's one mapping between the two; the runtime, which cannot
// import ir, keeps its own copy in rt/format, and codegen's
// TestRuntimeArrowTypes holds that copy to this one.

// arrowUnits maps the model's time units to Arrow's.
var arrowUnits = [...]arrow.TimeUnit{Second: arrow.Second, Milli: arrow.Millisecond, Micro: arrow.Microsecond, Nano: arrow.Nanosecond}

// Arrow returns the Arrow type that holds values of t: arrow.Null for
// TUnknown (the type of NULL) and for a kind outside the model.
func (t Type) Arrow() arrow.DataType {
	switch t.Kind {
	case TBool:
		return arrow.FixedWidthTypes.Boolean
	case TInt8:
		return arrow.PrimitiveTypes.Int8
	case TInt16:
		return arrow.PrimitiveTypes.Int16
	case TInt32:
		return arrow.PrimitiveTypes.Int32
	case TInt64:
		return arrow.PrimitiveTypes.Int64
	case TUint8:
		return arrow.PrimitiveTypes.Uint8
	case TUint16:
		return arrow.PrimitiveTypes.Uint16
	case TUint32:
		return arrow.PrimitiveTypes.Uint32
	case TUint64:
		return arrow.PrimitiveTypes.Uint64
	case TFloat32:
		return arrow.PrimitiveTypes.Float32
	case TFloat64:
		return arrow.PrimitiveTypes.Float64
	case TDecimal:
		return &arrow.Decimal128Type{Precision: int32(t.Precision), Scale: int32(t.Scale)}
	case TString:
		return arrow.BinaryTypes.String
	case TBinary:
		return arrow.BinaryTypes.Binary
	case TDate32:
		return arrow.FixedWidthTypes.Date32
	case TTimestamp:
		return &arrow.TimestampType{Unit: arrowUnits[t.Unit], TimeZone: t.Zone}
	case TDuration:
		return &arrow.DurationType{Unit: arrowUnits[t.Unit]}
	case TArray, TMap, TStruct:
		return t.nestedArrow()
	}
	return arrow.Null
}

// FromArrow returns the model type that a column of Arrow type dt, in a
// file, reads as: dt's own type, or string or binary for another layout of
// them (large, view, fixed-size binary, a dictionary of strings or
// binaries), which the runtime converts when it reads the column. Any other
// type, the null type included, is outside the model and an error.
func FromArrow(dt arrow.DataType) (Type, error) {
	switch t := dt.(type) {
	case *arrow.BooleanType:
		return Bool, nil
	case *arrow.Int8Type:
		return Int8, nil
	case *arrow.Int16Type:
		return Int16, nil
	case *arrow.Int32Type:
		return Int32, nil
	case *arrow.Int64Type:
		return Int64, nil
	case *arrow.Uint8Type:
		return Uint8, nil
	case *arrow.Uint16Type:
		return Uint16, nil
	case *arrow.Uint32Type:
		return Uint32, nil
	case *arrow.Uint64Type:
		return Uint64, nil
	case *arrow.Float32Type:
		return Float32, nil
	case *arrow.Float64Type:
		return Float64, nil
	case *arrow.StringType, *arrow.LargeStringType, *arrow.StringViewType:
		return StringT, nil
	case *arrow.BinaryType, *arrow.LargeBinaryType, *arrow.BinaryViewType, *arrow.FixedSizeBinaryType:
		return BinaryT, nil
	case *arrow.Date32Type:
		return Date32, nil
	case *arrow.Decimal128Type:
		return Decimal(int(t.Precision), int(t.Scale)), nil
	case *arrow.TimestampType:
		return Timestamp(fromArrowUnit(t.Unit), t.TimeZone), nil
	case *arrow.DurationType:
		return DurationType(fromArrowUnit(t.Unit)), nil
	case *arrow.ListType, *arrow.MapType, *arrow.StructType:
		return fromArrowNested(dt)
	case *arrow.DictionaryType:
		switch t.ValueType.ID() {
		case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
			return FromArrow(t.ValueType)
		}
	}
	return Type{}, fmt.Errorf("type %s is not one of the model's types", dt)
}

func fromArrowUnit(u arrow.TimeUnit) TimeUnit {
	for i, a := range arrowUnits {
		if a == u {
			return TimeUnit(i)
		}
	}
	return Micro
}
