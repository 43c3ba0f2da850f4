package ir

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// modelTypes is every kind, with each unit and zone form, for the tests.
func modelTypes() []Type {
	out := []Type{Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64, Float32, Float64,
		Decimal(5, 0), Decimal(38, 10), StringT, BinaryT, Date32}
	for u := Second; u <= Nano; u++ {
		out = append(out, Timestamp(u, ""), Timestamp(u, "UTC"), DurationType(u))
	}
	out = append(out, Timestamp(Micro, "Europe/Oslo"))
	return append(out, nestedTypes()...)
}

// nestedTypes is a sample of nested types: each kind, nesting, and each
// nullability.
func nestedTypes() []Type {
	s := StructOf(StructField{Name: "a", Type: Int32, NotNull: true}, StructField{Name: "b c", Type: ArrayOf(StringT, true)})
	return []Type{
		ArrayOf(Int32, true), ArrayOf(Int32, false), ArrayOf(ArrayOf(Timestamp(Micro, "UTC"), true), false),
		MapOf(StringT, Int64, true), MapOf(Int32, Decimal(10, 2), false), MapOf(StringT, s, true),
		s, StructOf(), StructOf(StructField{Name: "x", Type: MapOf(StringT, ArrayOf(Float64, true), true)}),
	}
}

// TestArrowRoundTrip: every model type's Arrow type reads back as it.
func TestArrowRoundTrip(t *testing.T) {
	kinds := map[TypeKind]bool{}
	for _, ty := range modelTypes() {
		kinds[ty.Kind] = true
		got, err := FromArrow(ty.Arrow())
		if err != nil || got != ty {
			t.Errorf("FromArrow(%s.Arrow() = %s) = %s, %v", ty, ty.Arrow(), got, err)
		}
	}
	for k := TBool; k <= TStruct; k++ {
		if !kinds[k] {
			t.Errorf("modelTypes lacks %s", k)
		}
	}
}

// TestFromArrowLayouts: other layouts of strings and binaries read as the
// model's; other types are refused.
func TestFromArrowLayouts(t *testing.T) {
	for _, c := range []struct {
		dt   arrow.DataType
		want Type
	}{
		{arrow.BinaryTypes.LargeString, StringT}, {arrow.BinaryTypes.StringView, StringT},
		{&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}, StringT},
		{arrow.BinaryTypes.LargeBinary, BinaryT}, {arrow.BinaryTypes.BinaryView, BinaryT},
		{&arrow.FixedSizeBinaryType{ByteWidth: 16}, BinaryT},
		{arrow.ListOf(arrow.PrimitiveTypes.Int64), ArrayOf(Int64, true)},
		{arrow.ListOfNonNullable(arrow.BinaryTypes.LargeString), ArrayOf(StringT, false)},
	} {
		if got, err := FromArrow(c.dt); err != nil || got != c.want {
			t.Errorf("FromArrow(%s) = %s, %v; want %s", c.dt, got, err, c.want)
		}
	}
	for _, dt := range []arrow.DataType{arrow.Null, arrow.FixedWidthTypes.Float16, arrow.FixedWidthTypes.Date64,
		arrow.FixedWidthTypes.Time32ms, arrow.ListOf(arrow.FixedWidthTypes.Float16),
		arrow.LargeListOf(arrow.PrimitiveTypes.Int64), arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int64),
		arrow.StructOf(arrow.Field{Name: "d", Type: arrow.FixedWidthTypes.Date64}),
		&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.PrimitiveTypes.Int64}} {
		if got, err := FromArrow(dt); err == nil {
			t.Errorf("FromArrow(%s) = %s, want an error", dt, got)
		}
	}
}
