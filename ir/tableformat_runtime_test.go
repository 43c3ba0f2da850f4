package ir_test

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/rt/iceberg"
)

// TestIcebergTypeMatchesRuntime: the compiler's table of Iceberg types
// (ir.IcebergType, which decides at check which tables are published) and
// the runtime's (rt/iceberg.TypeOf, which writes the metadata) agree on
// every type of the model: both hold it, with the same Iceberg type, or
// neither does.
func TestIcebergTypeMatchesRuntime(t *testing.T) {
	var types []arrow.DataType
	for _, dt := range []arrow.DataType{
		arrow.FixedWidthTypes.Boolean, arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32,
		arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32,
		arrow.PrimitiveTypes.Uint64, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
		arrow.BinaryTypes.String, arrow.BinaryTypes.Binary, arrow.FixedWidthTypes.Date32,
		&arrow.Decimal128Type{Precision: 10, Scale: 2}, &arrow.Decimal128Type{Precision: 38, Scale: 0},
	} {
		types = append(types, dt)
	}
	for _, u := range []arrow.TimeUnit{arrow.Second, arrow.Millisecond, arrow.Microsecond, arrow.Nanosecond} {
		types = append(types, &arrow.TimestampType{Unit: u}, &arrow.TimestampType{Unit: u, TimeZone: "UTC"},
			&arrow.TimestampType{Unit: u, TimeZone: "Europe/Oslo"}, &arrow.DurationType{Unit: u})
	}
	n := len(types)
	for _, elem := range types[:n] {
		types = append(types, arrow.ListOf(elem), arrow.MapOf(arrow.BinaryTypes.String, elem),
			arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64}, arrow.Field{Name: "b", Type: elem, Nullable: true}))
	}
	held := 0
	for _, dt := range types {
		it, err := ir.FromArrow(dt)
		if err != nil {
			t.Errorf("%s: not a type of the model: %v", dt, err)
			continue
		}
		cs, cerr := ir.IcebergType(it)
		rt, rerr := iceberg.TypeOf(dt)
		switch {
		case (cerr == nil) != (rerr == nil):
			t.Errorf("%s: the compiler says %q (%v), the runtime %v (%v)", dt, cs, cerr, rt, rerr)
		case cerr == nil:
			held++
			if _, nested := dt.(arrow.NestedType); !nested && norm(cs) != norm(rt.String()) {
				t.Errorf("%s: the compiler maps it to %s, the runtime to %s", dt, cs, rt)
			}
		}
	}
	if held < 20 {
		t.Errorf("only %d of %d types held", held, len(types))
	}
}

func norm(s string) string { return strings.ReplaceAll(strings.ToLower(s), " ", "") }
