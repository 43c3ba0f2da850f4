package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
)

// Import paths of the packages generated code uses. Imports are never
// written by hand: every reference goes through jen.Qual with one of these.
const (
	arrowPkg   = "github.com/apache/arrow-go/v18/arrow"
	arrayPkg   = "github.com/apache/arrow-go/v18/arrow/array"
	memoryPkg  = "github.com/apache/arrow-go/v18/arrow/memory"
	decimalPkg = "github.com/apache/arrow-go/v18/arrow/decimal128"
	rtPkg      = "github.com/nordisk/thund/rt"
	sqlfnPkg   = "github.com/nordisk/thund/rt/sqlfn"
)

// physType says how one IR type is held in generated code: the Arrow array
// and builder types, the Go type of one value, and how to read a column's
// values. This table is the one list of types that drives specialization.
type physType struct {
	kind    ir.TypeKind
	array   string // array.X
	builder string // array.XBuilder
	goType  func() *jen.Statement
	// values: the array has a typed Values() slice (fixed width); otherwise
	// values are read with Value(i).
	values bool
}

var physTypes = []physType{
	{ir.TBool, "Boolean", "BooleanBuilder", func() *jen.Statement { return jen.Bool() }, false},
	{ir.TInt8, "Int8", "Int8Builder", func() *jen.Statement { return jen.Int8() }, true},
	{ir.TInt16, "Int16", "Int16Builder", func() *jen.Statement { return jen.Int16() }, true},
	{ir.TInt32, "Int32", "Int32Builder", func() *jen.Statement { return jen.Int32() }, true},
	{ir.TInt64, "Int64", "Int64Builder", func() *jen.Statement { return jen.Int64() }, true},
	{ir.TUint8, "Uint8", "Uint8Builder", func() *jen.Statement { return jen.Uint8() }, true},
	{ir.TUint16, "Uint16", "Uint16Builder", func() *jen.Statement { return jen.Uint16() }, true},
	{ir.TUint32, "Uint32", "Uint32Builder", func() *jen.Statement { return jen.Uint32() }, true},
	{ir.TUint64, "Uint64", "Uint64Builder", func() *jen.Statement { return jen.Uint64() }, true},
	{ir.TFloat32, "Float32", "Float32Builder", func() *jen.Statement { return jen.Float32() }, true},
	{ir.TFloat64, "Float64", "Float64Builder", func() *jen.Statement { return jen.Float64() }, true},
	{ir.TDecimal, "Decimal128", "Decimal128Builder", func() *jen.Statement { return jen.Qual(decimalPkg, "Num") }, true},
	{ir.TString, "String", "StringBuilder", func() *jen.Statement { return jen.String() }, false},
	{ir.TBinary, "Binary", "BinaryBuilder", func() *jen.Statement { return jen.Index().Byte() }, false},
	{ir.TDate32, "Date32", "Date32Builder", func() *jen.Statement { return jen.Qual(arrowPkg, "Date32") }, true},
	{ir.TTimestamp, "Timestamp", "TimestampBuilder", func() *jen.Statement { return jen.Qual(arrowPkg, "Timestamp") }, true},
	{ir.TDuration, "Duration", "DurationBuilder", func() *jen.Statement { return jen.Qual(arrowPkg, "Duration") }, true},
}

func phys(t ir.Type) (physType, error) {
	for _, p := range physTypes {
		if p.kind == t.Kind {
			return p, nil
		}
	}
	return physType{}, fmt.Errorf("codegen: no physical representation for type %s", t)
}

var arrowUnits = [...]string{ir.Second: "Second", ir.Milli: "Millisecond", ir.Micro: "Microsecond", ir.Nano: "Nanosecond"}

// arrowType returns an expression that builds the arrow.DataType of t.
func arrowType(t ir.Type) *jen.Statement {
	switch t.Kind {
	case ir.TBool:
		return jen.Qual(arrowPkg, "FixedWidthTypes").Dot("Boolean")
	case ir.TInt8, ir.TInt16, ir.TInt32, ir.TInt64, ir.TUint8, ir.TUint16, ir.TUint32, ir.TUint64, ir.TFloat32, ir.TFloat64:
		p, _ := phys(t)
		return jen.Qual(arrowPkg, "PrimitiveTypes").Dot(p.array)
	case ir.TDecimal:
		return jen.Op("&").Qual(arrowPkg, "Decimal128Type").Values(jen.Dict{
			jen.Id("Precision"): jen.Lit(int32(t.Precision)),
			jen.Id("Scale"):     jen.Lit(int32(t.Scale)),
		})
	case ir.TString:
		return jen.Qual(arrowPkg, "BinaryTypes").Dot("String")
	case ir.TBinary:
		return jen.Qual(arrowPkg, "BinaryTypes").Dot("Binary")
	case ir.TDate32:
		return jen.Qual(arrowPkg, "FixedWidthTypes").Dot("Date32")
	case ir.TTimestamp:
		d := jen.Dict{jen.Id("Unit"): jen.Qual(arrowPkg, arrowUnits[t.Unit])}
		if t.Zone != "" {
			d[jen.Id("TimeZone")] = jen.Lit(t.Zone)
		}
		return jen.Op("&").Qual(arrowPkg, "TimestampType").Values(d)
	case ir.TDuration:
		return jen.Op("&").Qual(arrowPkg, "DurationType").Values(jen.Dict{jen.Id("Unit"): jen.Qual(arrowPkg, arrowUnits[t.Unit])})
	}
	return jen.Qual(arrowPkg, "Null")
}
