package nested

import (
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestRoundTrip: values appended to list, map and struct builders read back
// equal, NULL parts and empty values kept apart.
func TestRoundTrip(t *testing.T) {
	m := arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64)
	st := arrow.StructOf(arrow.Field{Name: "a", Type: arrow.ListOf(arrow.FixedWidthTypes.Date32), Nullable: true},
		arrow.Field{Name: "m", Type: m, Nullable: true}, arrow.Field{Name: "ts", Type: arrow.FixedWidthTypes.Timestamp_us, Nullable: true})
	vals := []any{
		Struct{Array{int32(1), nil, int32(3)}, &Map{Keys: []any{"k", "z"}, Values: []any{int64(1), nil}}, int64(5)},
		Struct{Array{}, &Map{Keys: []any{}, Values: []any{}}, nil},
		Struct{nil, nil, nil},
		nil,
	}
	b := array.NewBuilder(memory.DefaultAllocator, st)
	defer b.Release()
	for _, v := range vals {
		Append(b, v)
	}
	arr := b.NewArray()
	defer arr.Release()
	for i, want := range vals {
		if got := Get(arr, i); !reflect.DeepEqual(got, want) {
			t.Errorf("row %d: got %#v, want %#v", i, got, want)
		}
	}
}

// TestAccess: subscripts, element_at, lookups, size and contains, with
// Spark's errors and NULLs.
func TestAccess(t *testing.T) {
	a := Array{"a", nil, "c"}
	if v, ok, err := Index[string](a, 2); v != "c" || !ok || err != nil {
		t.Errorf("a[2] = %q, %v, %v", v, ok, err)
	}
	if _, ok, err := Index[string](a, 1); ok || err != nil {
		t.Errorf("a[1] is NULL: %v, %v", ok, err)
	}
	for _, i := range []int64{3, -1} {
		if _, _, err := Index[string](a, i); err == nil || err.Class != "INVALID_ARRAY_INDEX" {
			t.Errorf("a[%d]: %v", i, err)
		}
	}
	if v, ok, err := ElementAt[string](a, -1); v != "c" || !ok || err != nil {
		t.Errorf("element_at(a, -1) = %q, %v, %v", v, ok, err)
	}
	if _, _, err := ElementAt[string](a, 0); err == nil || err.Class != "INVALID_INDEX_OF_ZERO" {
		t.Errorf("element_at(a, 0): %v", err)
	}
	if _, _, err := ElementAt[string](a, 4); err == nil || err.Class != "INVALID_ARRAY_INDEX_IN_ELEMENT_AT" {
		t.Errorf("element_at(a, 4): %v", err)
	}
	m := &Map{Keys: []any{[]byte("k"), []byte("n")}, Values: []any{int32(1), nil}}
	if v, ok := Lookup[int32](m, []byte("k")); v != 1 || !ok {
		t.Errorf("m['k'] = %d, %v", v, ok)
	}
	for _, k := range []string{"n", "missing"} {
		if _, ok := Lookup[int32](m, []byte(k)); ok {
			t.Errorf("m[%q] is NULL", k)
		}
	}
	if Size(a) != 3 || Size(m) != 2 || Size(Array{}) != 0 {
		t.Errorf("sizes %d %d", Size(a), Size(m))
	}
	for _, c := range []struct {
		x      any
		v, ok  bool
		inside Array
	}{{"c", true, true, a}, {"z", false, false, a}, {"z", false, true, Array{"a"}}} {
		if v, ok := Contains(c.inside, c.x); v != c.v || ok != c.ok {
			t.Errorf("array_contains(%v, %v) = %v, %v", c.inside, c.x, v, ok)
		}
	}
}

// TestMakeMap: map() refuses a NULL key and a key given twice.
func TestMakeMap(t *testing.T) {
	if m, err := MakeMap("a", int64(1), "b", nil); err != nil || !reflect.DeepEqual(m, &Map{Keys: []any{"a", "b"}, Values: []any{int64(1), nil}}) {
		t.Errorf("map(a, 1, b, null) = %#v, %v", m, err)
	}
	if _, err := MakeMap(nil, int64(1)); err == nil || err.Class != "NULL_MAP_KEY" {
		t.Errorf("NULL key: %v", err)
	}
	if _, err := MakeMap("a", int64(1), "a", int64(2)); err == nil || err.Class != "DUPLICATED_MAP_KEY" {
		t.Errorf("duplicate key: %v", err)
	}
}
