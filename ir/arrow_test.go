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
	return append(out, Timestamp(Micro, "Europe/Oslo"))
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
	for k := TBool; k <= TDuration; k++ {
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
	} {
		if got, err := FromArrow(c.dt); err != nil || got != c.want {
			t.Errorf("FromArrow(%s) = %s, %v; want %s", c.dt, got, err, c.want)
		}
	}
	for _, dt := range []arrow.DataType{arrow.Null, arrow.FixedWidthTypes.Float16, arrow.FixedWidthTypes.Date64,
		arrow.FixedWidthTypes.Time32ms, arrow.ListOf(arrow.PrimitiveTypes.Int64),
		&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.PrimitiveTypes.Int64}} {
		if got, err := FromArrow(dt); err == nil {
			t.Errorf("FromArrow(%s) = %s, want an error", dt, got)
		}
	}
}
