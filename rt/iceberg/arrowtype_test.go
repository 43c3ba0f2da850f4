package iceberg

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	ice "github.com/apache/iceberg-go"
	"github.com/nordisk/thund/rt/format"
)

func TestArrowType(t *testing.T) {
	st := &ice.StructType{FieldList: []ice.NestedField{
		{ID: 5, Name: "a", Type: ice.PrimitiveTypes.Int32, Required: true},
		{ID: 6, Name: "b", Type: &ice.ListType{ElementID: 7, Element: ice.PrimitiveTypes.String}},
	}}
	for _, c := range []struct {
		in   ice.Type
		want string
	}{
		{ice.PrimitiveTypes.Bool, "bool"},
		{ice.PrimitiveTypes.Int32, "int32"},
		{ice.PrimitiveTypes.Int64, "int64"},
		{ice.PrimitiveTypes.Float32, "float32"},
		{ice.PrimitiveTypes.Float64, "float64"},
		{ice.DecimalTypeOf(12, 3), "decimal(12,3)"},
		{ice.PrimitiveTypes.String, "string"},
		{ice.PrimitiveTypes.Binary, "binary"},
		{ice.PrimitiveTypes.Date, "date32"},
		{ice.PrimitiveTypes.Timestamp, "timestamp(us)"},
		{ice.PrimitiveTypes.TimestampTz, `timestamp(us, "UTC")`},
		{&ice.ListType{ElementID: 2, Element: ice.PrimitiveTypes.Int64, ElementRequired: true}, "array<int64 not null>"},
		{&ice.MapType{KeyID: 2, KeyType: ice.PrimitiveTypes.String, ValueID: 3, ValueType: ice.PrimitiveTypes.Float64}, "map<string, float64>"},
		{st, "struct<a: int32 not null, b: array<string>>"},
	} {
		got, err := ArrowType(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if s := format.TypeString(got); s != c.want {
			t.Errorf("%s: got %s, want %s", c.in, s, c.want)
		}
		// The model's spelling parses back to the same type, and TypeOf
		// maps it back to the Iceberg type (ids aside).
		back, err := format.ParseType(c.want)
		if err != nil || !arrow.TypeEqual(back, got) {
			t.Errorf("%s: ParseType(%s) = %v, %v; want %s", c.in, c.want, back, err, got)
		}
		it, err := TypeOf(got)
		if err != nil || !sameShape(it, c.in) {
			t.Errorf("%s: TypeOf back = %v, %v", c.in, it, err)
		}
	}
	for _, c := range []struct {
		in   ice.Type
		want string
	}{
		{ice.PrimitiveTypes.UUID, "uuid"},
		{ice.FixedTypeOf(16), "fixed[16]"},
		{ice.PrimitiveTypes.Time, "time"},
		{ice.PrimitiveTypes.TimestampNs, "timestamp_ns"},
		{ice.PrimitiveTypes.TimestampTzNs, "timestamptz_ns"},
		{ice.UnknownType{}, "unknown"},
		{ice.VariantType{}, "variant"},
		{&ice.ListType{ElementID: 2, Element: ice.PrimitiveTypes.UUID}, "uuid"},
		{&ice.StructType{FieldList: []ice.NestedField{{ID: 3, Name: "when", Type: ice.PrimitiveTypes.Time}}}, "field when: Iceberg type time"},
	} {
		_, err := ArrowType(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error naming %q", c.in, err, c.want)
		}
	}
	s := ice.NewSchema(0, ice.NestedField{ID: 1, Name: "id", Type: ice.PrimitiveTypes.Int64, Required: true},
		ice.NestedField{ID: 2, Name: "u", Type: ice.PrimitiveTypes.UUID})
	if _, err := ArrowSchema(s); err == nil || !strings.Contains(err.Error(), "column u: Iceberg type uuid") {
		t.Errorf("ArrowSchema: got %v, want an error naming column u", err)
	}
}

// sameShape compares two Iceberg types ignoring field ids.
func sameShape(a, b ice.Type) bool {
	switch a := a.(type) {
	case *ice.ListType:
		b, ok := b.(*ice.ListType)
		return ok && a.ElementRequired == b.ElementRequired && sameShape(a.Element, b.Element)
	case *ice.MapType:
		b, ok := b.(*ice.MapType)
		return ok && a.ValueRequired == b.ValueRequired && sameShape(a.KeyType, b.KeyType) && sameShape(a.ValueType, b.ValueType)
	case *ice.StructType:
		b, ok := b.(*ice.StructType)
		if !ok || len(a.FieldList) != len(b.FieldList) {
			return false
		}
		for i := range a.FieldList {
			x, y := a.FieldList[i], b.FieldList[i]
			if x.Name != y.Name || x.Required != y.Required || !sameShape(x.Type, y.Type) {
				return false
			}
		}
		return true
	}
	return a.Equals(b)
}
