package codegen

import (
	"testing"

	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/sqlfn"
)

// TestRuntimeTypeSpelling checks that the runtime's copy of the type
// spelling (rt/format, which may not import the compiler) agrees with the
// IR's for every kind, unit and zone form.
func TestRuntimeTypeSpelling(t *testing.T) {
	for _, s := range []string{"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
		"float32", "float64", "decimal(38,10)", "decimal(5,0)", "string", "binary", "date32",
		"timestamp(s)", "timestamp(ms)", "timestamp(us)", "timestamp(ns)", `timestamp(us, "UTC")`,
		"duration(s)", "duration(ms)", "duration(us)", "duration(ns)"} {
		it, err := ir.ParseType(s)
		if err != nil {
			t.Fatalf("ir.ParseType(%q): %v", s, err)
		}
		dt, err := format.ParseType(it.String())
		if err != nil {
			t.Errorf("rt/format cannot read %q: %v", it, err)
			continue
		}
		if got := format.TypeString(dt); got != it.String() {
			t.Errorf("rt/format spells %s as %s", it, got)
		}
	}
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
