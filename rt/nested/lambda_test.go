package nested

import (
	"reflect"
	"testing"
)

// TestZipMaps checks map_zip_with's entries as Spark 4.2.1 gives them for
// map_zip_with(map(1,'a',2,'b'), map(2,'x',3,'y'), ...): the first map's
// keys in its order, then the second's new ones, a missing value NULL.
func TestZipMaps(t *testing.T) {
	a := &Map{Keys: []any{int32(1), int32(2)}, Values: []any{"a", "b"}}
	b := &Map{Keys: []any{int32(2), int32(3)}, Values: []any{"x", "y"}}
	keys, va, vb := ZipMaps(a, b)
	if want := []any{int32(1), int32(2), int32(3)}; !reflect.DeepEqual(keys, want) {
		t.Errorf("keys %v, want %v", keys, want)
	}
	if want := []any{"a", "b", nil}; !reflect.DeepEqual(va, want) {
		t.Errorf("first values %v, want %v", va, want)
	}
	if want := []any{nil, "x", "y"}; !reflect.DeepEqual(vb, want) {
		t.Errorf("second values %v, want %v", vb, want)
	}
	if len(a.Keys) != 2 || len(a.Values) != 2 {
		t.Errorf("ZipMaps changed its first map: %v", a)
	}
}

// TestAt checks zip_with's padding: past its end an array's element is NULL.
func TestAt(t *testing.T) {
	arr := Array{int32(7), nil}
	if At(arr, 0) != int32(7) || At(arr, 1) != nil || At(arr, 2) != nil {
		t.Errorf("At(%v, 0..2) = %v, %v, %v", arr, At(arr, 0), At(arr, 1), At(arr, 2))
	}
}
