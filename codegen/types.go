package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
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
	etlPkg     = "github.com/nordisk/thund/rt/etl"
	s3storePkg = "github.com/nordisk/thund/rt/store/s3store"
	kafkaPkg   = "github.com/nordisk/thund/rt/kafka"
	formatPkg  = "github.com/nordisk/thund/rt/format"
	runPkg     = "github.com/nordisk/thund/rt/run"
	hashtabPkg = "github.com/nordisk/thund/rt/hashtab"
	kernelPkg  = "github.com/nordisk/thund/rt/kernel"
	spillPkg   = "github.com/nordisk/thund/rt/spill"

	// standard library
	bytesPkg   = "bytes"
	cmpPkg     = "cmp"
	errorsPkg  = "errors"
	fmtPkg     = "fmt"
	ioPkg      = "io"
	mathPkg    = "math"
	slicesPkg  = "slices"
	strconvPkg = "strconv"
	stringsPkg = "strings"
	unsafePkg  = "unsafe"
	atomicPkg  = "sync/atomic"
)

// physType says how one IR type is held in generated code: the Arrow array
// and builder types, the Go type of one value, and how to read a column's
// values. This table is the one list of types that drives specialization.
type physType struct {
	kind    ir.TypeKind
	array   string // array.X
	builder string // array.XBuilder
	// goType is the Go type of one value in generated code (a local, a
	// struct field, a map key). Dates are int32 days and timestamps and
	// durations int64 in the column's unit, so that sqlfn's functions take
	// them as they are.
	goType func() *jen.Statement
	// values: the array has a typed Values() slice (fixed width); otherwise
	// values are read with Value(i).
	values bool
	// elem is the Arrow element type of Values() and of the builder's
	// Append when it differs from goType (arrow.Date32, arrow.Timestamp,
	// arrow.Duration); loads and appends convert.
	elem string
	// bits is the width of an integer kind.
	bits int
	// ordered: Go's < and == compare two values as SQL does.
	ordered bool
	// table is the rt/hashtab table of a group by or hash join on one key
	// of this type: "Int" (instantiated with the key's Go type: floats by
	// their bits, keyField) or "Strings"; "" keeps a Go map.
	table string
	// nested: values are rt/nested values (nested.go), read with
	// nested.Get and appended with nested.Append.
	nested bool
}

var physTypes = []physType{
	{kind: ir.TBool, array: "Boolean", builder: "BooleanBuilder", goType: func() *jen.Statement { return jen.Bool() }},
	{kind: ir.TInt8, array: "Int8", builder: "Int8Builder", goType: func() *jen.Statement { return jen.Int8() }, values: true, bits: 8, ordered: true, table: "Int"},
	{kind: ir.TInt16, array: "Int16", builder: "Int16Builder", goType: func() *jen.Statement { return jen.Int16() }, values: true, bits: 16, ordered: true, table: "Int"},
	{kind: ir.TInt32, array: "Int32", builder: "Int32Builder", goType: func() *jen.Statement { return jen.Int32() }, values: true, bits: 32, ordered: true, table: "Int"},
	{kind: ir.TInt64, array: "Int64", builder: "Int64Builder", goType: func() *jen.Statement { return jen.Int64() }, values: true, bits: 64, ordered: true, table: "Int"},
	{kind: ir.TUint8, array: "Uint8", builder: "Uint8Builder", goType: func() *jen.Statement { return jen.Uint8() }, values: true, bits: 8, ordered: true, table: "Int"},
	{kind: ir.TUint16, array: "Uint16", builder: "Uint16Builder", goType: func() *jen.Statement { return jen.Uint16() }, values: true, bits: 16, ordered: true, table: "Int"},
	{kind: ir.TUint32, array: "Uint32", builder: "Uint32Builder", goType: func() *jen.Statement { return jen.Uint32() }, values: true, bits: 32, ordered: true, table: "Int"},
	{kind: ir.TUint64, array: "Uint64", builder: "Uint64Builder", goType: func() *jen.Statement { return jen.Uint64() }, values: true, bits: 64, ordered: true, table: "Int"},
	{kind: ir.TFloat32, array: "Float32", builder: "Float32Builder", goType: func() *jen.Statement { return jen.Float32() }, values: true, table: "Int"},
	{kind: ir.TFloat64, array: "Float64", builder: "Float64Builder", goType: func() *jen.Statement { return jen.Float64() }, values: true, table: "Int"},
	{kind: ir.TDecimal, array: "Decimal128", builder: "Decimal128Builder", goType: func() *jen.Statement { return jen.Qual(decimalPkg, "Num") }, values: true},
	{kind: ir.TString, array: "String", builder: "StringBuilder", goType: func() *jen.Statement { return jen.String() }, ordered: true, table: "Strings"},
	{kind: ir.TBinary, array: "Binary", builder: "BinaryBuilder", goType: func() *jen.Statement { return jen.Index().Byte() }},
	{kind: ir.TDate32, array: "Date32", builder: "Date32Builder", goType: func() *jen.Statement { return jen.Int32() }, values: true, elem: "Date32", ordered: true, table: "Int"},
	{kind: ir.TTimestamp, array: "Timestamp", builder: "TimestampBuilder", goType: func() *jen.Statement { return jen.Int64() }, values: true, elem: "Timestamp", ordered: true, table: "Int"},
	{kind: ir.TDuration, array: "Duration", builder: "DurationBuilder", goType: func() *jen.Statement { return jen.Int64() }, values: true, elem: "Duration", ordered: true, table: "Int"},
	{kind: ir.TArray, array: "List", builder: "ListBuilder", goType: func() *jen.Statement { return jen.Any() }, nested: true},
	{kind: ir.TMap, array: "Map", builder: "MapBuilder", goType: func() *jen.Statement { return jen.Any() }, nested: true},
	{kind: ir.TStruct, array: "Struct", builder: "StructBuilder", goType: func() *jen.Statement { return jen.Any() }, nested: true},
}

// phys looks t up in the physical type table.
func phys(t ir.Type) (physType, error) {
	for _, p := range physTypes {
		if p.kind == t.Kind {
			return p, nil
		}
	}
	return physType{}, fmt.Errorf("codegen: no physical representation for type %s", t)
}

// mustPhys is phys for types the passes have already checked; a miss is an
// internal error.
func mustPhys(t ir.Type) physType {
	p, err := phys(t)
	if err != nil {
		panic(err)
	}
	return p
}

// goType is the Go type of a value of t in generated code.
func goType(t ir.Type) *jen.Statement { return mustPhys(t).goType() }

var arrowUnits = [...]string{ir.Second: "Second", ir.Milli: "Millisecond", ir.Micro: "Microsecond", ir.Nano: "Nanosecond"}

// sqlfnUnits names sqlfn's TimeUnit constants (equal to arrow.TimeUnit's).
var sqlfnUnits = [...]string{ir.Second: "UnitSecond", ir.Milli: "UnitMillisecond", ir.Micro: "UnitMicrosecond", ir.Nano: "UnitNanosecond"}

// unitsPerSecond is the number of ticks of u in one second.
var unitsPerSecond = passes.UnitsPerSecond

// msGrain is the ticks of u in a millisecond (at least 1):
// Spark's watermark is whole milliseconds.
func msGrain(u ir.TimeUnit) int64 { return max(1, unitsPerSecond[u]/1000) }

// arrowType returns an expression that builds the arrow.DataType of t.
func arrowType(t ir.Type) *jen.Statement {
	switch t.Kind {
	case ir.TBool:
		return jen.Qual(arrowPkg, "FixedWidthTypes").Dot("Boolean")
	case ir.TInt8, ir.TInt16, ir.TInt32, ir.TInt64, ir.TUint8, ir.TUint16, ir.TUint32, ir.TUint64, ir.TFloat32, ir.TFloat64:
		p, _ := phys(t)
		return jen.Qual(arrowPkg, "PrimitiveTypes").Dot(p.array)
	case ir.TDecimal:
		return jen.Op("&").Qual(arrowPkg, "Decimal128Type").Add(fields(false, field{"Precision", jen.Lit(t.Precision)}, field{"Scale", jen.Lit(t.Scale)}))
	case ir.TString:
		return jen.Qual(arrowPkg, "BinaryTypes").Dot("String")
	case ir.TBinary:
		return jen.Qual(arrowPkg, "BinaryTypes").Dot("Binary")
	case ir.TDate32:
		return jen.Qual(arrowPkg, "FixedWidthTypes").Dot("Date32")
	case ir.TTimestamp:
		fs := []field{{"Unit", jen.Qual(arrowPkg, arrowUnits[t.Unit])}}
		if t.Zone != "" {
			fs = append(fs, field{"TimeZone", jen.Lit(t.Zone)})
		}
		return jen.Op("&").Qual(arrowPkg, "TimestampType").Add(fields(false, fs...))
	case ir.TDuration:
		return jen.Op("&").Qual(arrowPkg, "DurationType").Add(fields(false, field{"Unit", jen.Qual(arrowPkg, arrowUnits[t.Unit])}))
	case ir.TArray, ir.TMap, ir.TStruct:
		return nestedArrowType(t) // nested.go
	}
	return jen.Qual(arrowPkg, "Null")
}

// Operands are coerced to the type an operation is computed in with the
// resolve pass's own widening rules (passes.CommonType), so that codegen and
// typing cannot disagree.

// intDecimalPrecision is the decimal precision an integer kind widens to
// (sqlfn.DecimalTypeOfInt; unsigned kinds by their range).
var intDecimalPrecision = map[ir.TypeKind]int{
	ir.TInt8: 3, ir.TInt16: 5, ir.TInt32: 10, ir.TInt64: 20,
	ir.TUint8: 3, ir.TUint16: 5, ir.TUint32: 10, ir.TUint64: 20,
}

// bitsOf is the width of an integer type.
func bitsOf(t ir.Type) int { return mustPhys(t).bits }

// asDecimal is the decimal an integer or decimal type widens to.
func asDecimal(t ir.Type) ir.Type {
	if t.Kind == ir.TDecimal {
		return t
	}
	return ir.Decimal(intDecimalPrecision[t.Kind], 0)
}

// commonType is passes.CommonType: the type two values meet at.
func commonType(a, b ir.Type) (ir.Type, bool) { return passes.CommonType(a, b) }

// intCommon is passes.IntegerCommon.
func intCommon(a, b ir.Type) ir.Type { return passes.IntegerCommon(a, b) }

// sameRep reports whether two types hold values the same way in generated
// code, so that a value of one is a value of the other (decimals need the
// same scale; timestamps the same unit; the zone is only a label).
func sameRep(a, b ir.Type) bool { return passes.SameRep(a, b) }
