package sqlfn

import (
	"slices"
	"testing"
)

func TestCompareBool(t *testing.T) {
	tests := []struct {
		a, b bool
		want int
	}{{false, false, 0}, {true, true, 0}, {false, true, -1}, {true, false, 1}}
	for _, tt := range tests {
		if got := CompareBool(tt.a, tt.b); got != tt.want {
			t.Errorf("CompareBool(%v, %v) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	s := []bool{true, false, true, false}
	slices.SortFunc(s, CompareBool)
	if !slices.Equal(s, []bool{false, false, true, true}) {
		t.Errorf("sorted with CompareBool: %v, want false first", s)
	}
}
