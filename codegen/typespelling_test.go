package codegen

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/sqlfn"
)

// TestRuntimeArrowTypes checks that the runtime's copy of the model's types
// (rt/format, which may not import the compiler) is the IR's: it spells
// every model type's Arrow type (ir.Type.Arrow) as ir.Type.String does,
// parses that spelling back, and accepts the type as the model's.
func TestRuntimeArrowTypes(t *testing.T) {
	types := []ir.Type{ir.Bool, ir.Int8, ir.Int16, ir.Int32, ir.Int64, ir.Uint8, ir.Uint16, ir.Uint32, ir.Uint64,
		ir.Float32, ir.Float64, ir.Decimal(38, 10), ir.Decimal(5, 0), ir.StringT, ir.BinaryT, ir.Date32,
		ir.Timestamp(ir.Micro, "UTC")}
	for u := ir.Second; u <= ir.Nano; u++ {
		types = append(types, ir.Timestamp(u, ""), ir.DurationType(u))
	}
	who := ir.StructOf(ir.StructField{Name: "name", Type: ir.StringT, NotNull: true},
		ir.StructField{Name: "home, `town`", Type: ir.Timestamp(ir.Micro, "UTC")}, ir.StructField{Name: "s", Type: ir.ArrayOf(ir.Float64, false)})
	types = append(types, ir.ArrayOf(ir.Int32, true), ir.ArrayOf(ir.StringT, false), ir.MapOf(ir.StringT, ir.Decimal(10, 2), false),
		ir.MapOf(ir.Int64, ir.ArrayOf(who, true), true), who, ir.StructOf())
	for _, it := range types {
		dt := it.Arrow()
		if got := format.TypeString(dt); got != it.String() {
			t.Errorf("rt/format spells %s as %s", it, got)
		}
		back, err := format.ParseType(it.String())
		if err != nil {
			t.Errorf("rt/format cannot read %q: %v", it, err)
		} else if !arrow.TypeEqual(back, dt) {
			t.Errorf("rt/format reads %q as %s, the IR's Arrow type is %s", it, back, dt)
		}
		if !format.Supported(dt) {
			t.Errorf("rt/format does not support %s (%s)", it, dt)
		}
	}
}

// TestRuntimeReadsInferredTypes checks that every Arrow type a file column
// may have and ir.FromArrow (compile-time schema inference) gives a model
// type, the runtime reads as that type, and that it refuses the others.
func TestRuntimeReadsInferredTypes(t *testing.T) {
	dict := func(v arrow.DataType) arrow.DataType {
		return &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: v}
	}
	for _, dt := range []arrow.DataType{
		arrow.FixedWidthTypes.Boolean, arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Uint64, arrow.PrimitiveTypes.Float32,
		&arrow.Decimal128Type{Precision: 12, Scale: 3}, arrow.FixedWidthTypes.Date32,
		&arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}, &arrow.DurationType{Unit: arrow.Millisecond},
		arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString, arrow.BinaryTypes.StringView, dict(arrow.BinaryTypes.String),
		arrow.BinaryTypes.Binary, arrow.BinaryTypes.LargeBinary, arrow.BinaryTypes.BinaryView,
		&arrow.FixedSizeBinaryType{ByteWidth: 4}, dict(arrow.BinaryTypes.Binary),
		dict(arrow.PrimitiveTypes.Int64), arrow.FixedWidthTypes.Float16, arrow.FixedWidthTypes.Date64,
	} {
		it, inferErr := ir.FromArrow(dt)
		want := it.Arrow()
		if inferErr != nil {
			want = dt // what a pipeline would have to declare
		}
		readErr := readIPCAs(dt, want)
		switch {
		case inferErr == nil && readErr != nil:
			t.Errorf("inference reads %s as %s, the runtime does not: %v", dt, it, readErr)
		case inferErr != nil && readErr == nil:
			t.Errorf("inference refuses %s (%v), the runtime reads it", dt, inferErr)
		}
	}
}

// readIPCAs reads one all-NULL row of Arrow type dt, from an IPC stream, as
// the declared type want.
func readIPCAs(dt, want arrow.DataType) error {
	mem := memory.NewGoAllocator()
	col := array.MakeArrayOfNull(mem, dt, 1)
	defer col.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "c", Type: dt, Nullable: true}}, nil), []arrow.Array{col}, 1)
	defer rec.Release()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(rec.Schema()), ipc.WithAllocator(mem))
	if err := w.Write(rec); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	r, err := format.OpenStream(&buf, "t.arrows", arrow.NewSchema([]arrow.Field{{Name: "c", Type: want, Nullable: true}}, nil), format.Options{Mem: mem})
	if err != nil {
		return err
	}
	defer r.Close()
	got, err := r.Next()
	if err != nil {
		return err
	}
	defer got.Release()
	return nil
}

// TestRuntimeSQLTypeSpelling checks that the SQL type names in the runtime's
// error messages (rt/sqlfn, which may not import the compiler) are the IR's
// spelling (ir.Type.SQL), which the compiler passes into generated code.
func TestRuntimeSQLTypeSpelling(t *testing.T) {
	for _, c := range []struct {
		rt string
		ir ir.Type
	}{
		{sqlfn.TypeTinyint, ir.Int8}, {sqlfn.TypeSmallint, ir.Int16}, {sqlfn.TypeInt, ir.Int32},
		{sqlfn.TypeBigint, ir.Int64}, {sqlfn.TypeFloat, ir.Float32}, {sqlfn.TypeDouble, ir.Float64},
		{sqlfn.TypeString, ir.StringT}, {sqlfn.TypeBoolean, ir.Bool}, {sqlfn.TypeDate, ir.Date32},
		{sqlfn.TypeTimestamp, ir.Timestamp(ir.Micro, "UTC")},
		{sqlfn.DecimalTypeName(10, 0), ir.Decimal(10, 0)}, {sqlfn.DecimalTypeName(38, 18), ir.Decimal(38, 18)},
	} {
		if c.rt != c.ir.SQL() {
			t.Errorf("rt/sqlfn spells %s as %s, the IR as %s", c.ir, c.rt, c.ir.SQL())
		}
	}
}
