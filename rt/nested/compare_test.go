package nested

import (
	"math"
	"slices"
	"strconv"
	"testing"
)

// TestCompare checks the ascending order Spark 4.2 gave to ORDER BY of
// array<double> over these values: [NULL] < [] < [NULL] < [1] < [1, NULL]
// < [1, 5] < [2] < [NaN] (the NULL array placed by the caller), and of
// structs field by field, a NULL field first.
func TestCompare(t *testing.T) {
	arrays := []any{Array{math.NaN()}, Array{2.0}, Array{1.0, 5.0}, Array{1.0, nil}, Array{1.0}, Array{nil}, Array{}}
	slices.SortStableFunc(arrays, Compare)
	want := []string{"[]", "[<nil>]", "[1]", "[1 <nil>]", "[1 5]", "[2]", "[NaN]"}
	for i, a := range arrays {
		if got := fmtArray(a.(Array)); got != want[i] {
			t.Errorf("position %d: %s, want %s", i, got, want[i])
		}
	}
	structs := []any{Struct{int64(1), "b"}, Struct{nil, "a"}, Struct{int64(1), nil}, Struct{int64(0), "z"}}
	slices.SortStableFunc(structs, Compare)
	wantS := []any{Struct{nil, "a"}, Struct{int64(0), "z"}, Struct{int64(1), nil}, Struct{int64(1), "b"}}
	for i := range structs {
		if Compare(structs[i], wantS[i]) != 0 {
			t.Errorf("struct position %d: %v, want %v", i, structs[i], wantS[i])
		}
	}
	if Compare(Array{math.Copysign(0, -1)}, Array{0.0}) != 0 {
		t.Error("-0.0 does not equal 0.0")
	}
}

// fmtArray prints an array of doubles and NULLs.
func fmtArray(a Array) string {
	s := "["
	for i, v := range a {
		if i > 0 {
			s += " "
		}
		switch v := v.(type) {
		case nil:
			s += "<nil>"
		case float64:
			s += strconv.FormatFloat(v, 'g', -1, 64)
		}
	}
	return s + "]"
}
