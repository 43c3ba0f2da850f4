package nested

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/nordisk/thund/rt/sqlfn"
)

// ints is an Array of int32 elements, nil for NULL.
func ints(xs ...any) Array {
	out := make(Array, len(xs))
	for i, x := range xs {
		if x != nil {
			out[i] = int32(x.(int))
		}
	}
	return out
}

// TestArrayFunctions: each function's answer as Spark 4.1 and 4.2 gave it
// for the same input (sort order and NULLs, the set functions' NULL and
// -0.0/NaN equality, padding and negative positions).
func TestArrayFunctions(t *testing.T) {
	nan := math.NaN()
	negZero := math.Copysign(0, -1)
	overlap := func(a, b Array) any {
		v, ok := Overlap(a, b)
		return Opt(v, ok)
	}
	insert := func(a Array, pos int32, v any) any {
		out, err := Insert(a, pos, v)
		if err != nil {
			return err.Class
		}
		return out
	}
	slice := func(a Array, start, n int32) any {
		out, err := Slice(a, start, n)
		if err != nil {
			return err.Class
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		got, want any
	}{
		{"sort_array asc: NULLs first", SortArray(ints(3, nil, 1), true), ints(nil, 1, 3)},
		{"sort_array desc: NULLs last", SortArray(ints(3, nil, 1), false), ints(3, 1, nil)},
		{"array_sort: NULLs last", ArraySort(ints(3, nil, 1)), ints(1, 3, nil)},
		{"sort by bytes", SortArray(Array{"b", "a", "é", "A"}, true), Array{"A", "a", "b", "é"}},
		{"NaN sorts last", ArraySort(Array{nan, 1.0, nil}), Array{1.0, nan, nil}},
		{"array_distinct: one NULL", Distinct(ints(1, 1, nil, nil, 2)), ints(1, nil, 2)},
		{"array_distinct: -0.0 is 0.0, NaN is NaN", Distinct(Array{0.0, negZero, nan, nan}), Array{0.0, nan}},
		{"array_union", Union(ints(1, nil, 2, 2), ints(3, nil, 1)), ints(1, nil, 2, 3)},
		{"array_union: -0.0 returned as 0.0", Union(Array{1.0}, Array{negZero}), Array{1.0, 0.0}},
		{"array_intersect", Intersect(ints(1, nil, 2, 2), ints(nil, 2, 1, 4)), ints(1, nil, 2)},
		{"array_except", Except(ints(1, nil, 2, 2, 3), ints(3)), ints(1, nil, 2)},
		{"array_except of NULL", Except(ints(1, nil), ints(nil)), ints(1)},
		{"arrays_overlap: NULL when a NULL could match", overlap(ints(1, 2), ints(3, nil)), nil},
		{"arrays_overlap: a match", overlap(ints(1, 2), ints(2, nil)), true},
		{"arrays_overlap: an empty array", overlap(ints(nil), ints()), false},
		{"arrays_overlap: NaN matches", overlap(Array{nan}, Array{nan}), true},
		{"array_join skips NULLs", Join(Array{"a", nil, "b"}, ",", "", false), "a,b"},
		{"array_join replaces NULLs", Join(Array{"a", nil, "b"}, ",", "X", true), "a,X,b"},
		{"array_position", Position(ints(3, 1, nil, 1), int32(1)), int64(2)},
		{"array_position of -0.0", Position(Array{negZero}, 0.0), int64(1)},
		{"array_position: none", Position(ints(3), int32(5)), int64(0)},
		{"array_remove keeps NULLs", Remove(ints(1, nil, 2, 1), int32(1)), ints(nil, 2)},
		{"array_remove NaN", Remove(Array{nan, 1.0}, nan), Array{1.0}},
		{"array_compact", Compact(ints(1, nil, 2)), ints(1, 2)},
		{"array_append NULL", AppendElem(ints(1, 2), nil), ints(1, 2, nil)},
		{"array_prepend", Prepend(ints(1, 2), int32(0)), ints(0, 1, 2)},
		{"array_insert", insert(ints(1, 2, 3), 2, int32(9)), ints(1, 9, 2, 3)},
		{"array_insert -1 appends", insert(ints(1, 2, 3), -1, int32(9)), ints(1, 2, 3, 9)},
		{"array_insert past the end pads", insert(ints(1, 2, 3), 6, int32(9)), ints(1, 2, 3, nil, nil, 9)},
		{"array_insert before the start pads", insert(ints(1, 2, 3), -6, int32(9)), ints(9, nil, nil, 1, 2, 3)},
		{"array_insert -3 of two", insert(ints(1, 2), -3, int32(9)), ints(9, 1, 2)},
		{"array_insert -4 of two", insert(ints(1, 2), -4, int32(9)), ints(9, nil, 1, 2)},
		{"array_insert 0", insert(ints(1), 0, int32(9)), "INVALID_INDEX_OF_ZERO"},
		{"slice", slice(ints(1, 2, 3, 4), 2, 2), ints(2, 3)},
		{"slice from the end", slice(ints(1, 2, 3, 4), -2, 5), ints(3, 4)},
		{"slice past the end", slice(ints(1, 2, 3, 4), 5, 1), ints()},
		{"slice before the start", slice(ints(1, 2, 3, 4), -5, 2), ints()},
		{"slice start 0", slice(ints(1), 0, 1), "INVALID_PARAMETER_VALUE.START"},
		{"slice negative length", slice(ints(1), 1, -1), "INVALID_PARAMETER_VALUE.LENGTH"},
		{"arrays_zip pads with NULL", Zip(ints(1, 2), Array{"a"}), Array{Struct{int32(1), "a"}, Struct{int32(2), nil}}},
		{"map_entries", MapEntries(&Map{Keys: []any{"a"}, Values: []any{nil}}), Array{Struct{"a", nil}}},
		{"map_contains_key", ContainsKey(&Map{Keys: []any{int32(1)}, Values: []any{"a"}}, int32(1)), true},
	} {
		// printed, so that NaN equals NaN and -0 differs from 0
		if got, want := fmt.Sprintf("%#v", tc.got), fmt.Sprintf("%#v", tc.want); got != want {
			t.Errorf("%s: got %s, want %s", tc.name, got, want)
		}
	}
}

// TestArrayExtremes: array_max and array_min skip NULLs, NaN is the
// greatest, an array of NULLs has none.
func TestArrayExtremes(t *testing.T) {
	if v, ok := ArrayMax[float64](Array{math.NaN(), 1.0}); !ok || !math.IsNaN(v) {
		t.Errorf("array_max(NaN, 1): got %v, %v", v, ok)
	}
	if v, ok := ArrayMin[float64](Array{math.NaN(), 1.0, nil}); !ok || v != 1 {
		t.Errorf("array_min(NaN, 1, NULL): got %v, %v", v, ok)
	}
	if _, ok := ArrayMax[int32](ints(nil, nil)); ok {
		t.Error("array_max of NULLs is not NULL")
	}
	if v, ok := ArrayMin[string](Array{"b", "B"}); !ok || v != "B" {
		t.Errorf("array_min(b, B): got %q", v)
	}
}

// TestSequence: both directions, a step, the default step's sign, and the
// wrong sign's error.
func TestSequence(t *testing.T) {
	check := func(name string, got any, err *sqlfn.Error, want any) {
		t.Helper()
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %#v (%v), want %#v", name, got, err, want)
		}
	}
	got, err := SequenceBy1(int32(1), int32(5))
	check("1 to 5", got, err, ints(1, 2, 3, 4, 5))
	got, err = SequenceBy1(int32(5), int32(1))
	check("5 to 1", got, err, ints(5, 4, 3, 2, 1))
	got, err = Sequence(int32(10), int32(1), int32(-4))
	check("10 to 1 by -4", got, err, ints(10, 6, 2))
	got, err = Sequence(int64(2147483646), int64(2147483647), int64(1))
	check("to the INT boundary", got, err, Array{int64(2147483646), int64(2147483647)})
	if _, err := Sequence(int32(1), int32(5), int32(0)); err == nil || err.Error() != "java.lang.IllegalArgumentException: requirement failed: Illegal sequence boundaries: 1 to 5 by 0" {
		t.Errorf("step 0: got %v", err)
	}
}

// TestMapBuilders: Spark's errors for NULL and repeated keys and uneven
// arrays, a NULL entry's NULL map, and str_to_map's missing values.
func TestMapBuilders(t *testing.T) {
	if _, err := MapFromArrays(Array{"a", "a"}, ints(1, 2)); err == nil || err.Class != "DUPLICATED_MAP_KEY" {
		t.Errorf("repeated key: got %v", err)
	}
	if _, err := MapFromArrays(Array{"a", nil}, ints(1, 2)); err == nil || err.Class != "NULL_MAP_KEY" {
		t.Errorf("NULL key: got %v", err)
	}
	if _, err := MapFromArrays(Array{"a"}, ints(1, 2)); err == nil || err.Class != "" {
		t.Errorf("uneven arrays: got %v", err)
	}
	if _, ok, err := MapFromEntries(Array{Struct{"a", int32(1)}, nil}); ok || err != nil {
		t.Errorf("a NULL entry: got %v, %v", ok, err)
	}
	if _, err := MapConcat(&Map{Keys: []any{"a"}, Values: []any{1}}, &Map{Keys: []any{"a"}, Values: []any{2}}); err == nil || err.Class != "DUPLICATED_MAP_KEY" {
		t.Errorf("map_concat's repeated key: got %v", err)
	}
	m, err := StrToMap("a=1;b", ";", "=")
	if want := (&Map{Keys: []any{"a", "b"}, Values: []any{"1", nil}}); err != nil || !reflect.DeepEqual(m, want) {
		t.Errorf("str_to_map: got %#v (%v), want %#v", m, err, want)
	}
	m, err = StrToMap("", ",", ":")
	if want := (&Map{Keys: []any{""}, Values: []any{nil}}); err != nil || !reflect.DeepEqual(m, want) {
		t.Errorf("str_to_map of '': got %#v (%v), want %#v", m, err, want)
	}
}

// TestEqualAsSpark: array_contains, element_at of a map and map() compare
// as Spark 4.2.1 answered: NaN equals NaN, -0.0 equals 0.0.
func TestEqualAsSpark(t *testing.T) {
	nan := math.NaN()
	if v, ok := Contains(Array{nan}, nan); !v || !ok {
		t.Errorf("array_contains(array(NaN), NaN) = %v, %v; Spark: true", v, ok)
	}
	if v, ok := Contains(Array{-0.0}, 0.0); !v || !ok {
		t.Errorf("array_contains(array(-0.0), 0.0) = %v, %v; Spark: true", v, ok)
	}
	m, err := MakeMap(nan, int32(1))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := Lookup[int32](m, nan); !ok || v != 1 {
		t.Errorf("element_at(map(NaN, 1), NaN) = %v, %v; Spark: 1", v, ok)
	}
	if _, err := MakeMap(nan, int32(1), nan, int32(2)); err == nil || err.Class != "DUPLICATED_MAP_KEY" {
		t.Errorf("map(NaN, 1, NaN, 2): %v; Spark: DUPLICATED_MAP_KEY", err)
	}
}
