package nested

import (
	"math"
	"testing"
)

// TestKey checks which nested values Key groups together: equal parts,
// -0.0 with 0.0 and NaN with NaN (Spark's normalization, which the Spark
// lane confirmed for GROUP BY of arrays), and nothing else: a NULL part
// apart from a zero one, and lengths apart from contents.
func TestKey(t *testing.T) {
	same := [][2]any{
		{Array{int64(1), nil}, Array{int64(1), nil}},
		{Array{math.Copysign(0, -1)}, Array{0.0}},
		{Array{math.NaN()}, Array{math.Float64frombits(0x7ff8000000000001)}},
		{Struct{"a", Array{}}, Struct{"a", Array{}}},
	}
	for _, c := range same {
		if Key(c[0]) != Key(c[1]) {
			t.Errorf("Key(%#v) != Key(%#v)", c[0], c[1])
		}
	}
	differ := [][2]any{
		{Array{int64(0)}, Array{nil}},
		{Array{}, Array{nil}},
		{Array{"ab", "c"}, Array{"a", "bc"}},
		{Struct{"a", nil}, Struct{nil, "a"}},
		{Array{Array{int64(1)}, Array{}}, Array{Array{}, Array{int64(1)}}},
		{Array{1.0}, Array{math.NaN()}},
	}
	for _, c := range differ {
		if Key(c[0]) == Key(c[1]) {
			t.Errorf("Key(%#v) == Key(%#v)", c[0], c[1])
		}
	}
}

// TestNormalize checks that a group's shown key has its floats normalized
// at every depth, and the rest as it was.
func TestNormalize(t *testing.T) {
	v := Struct{Array{math.Copysign(0, -1), float32(math.Copysign(0, -1)), nil}, "s", 1.5}
	n := Normalize(v).(Struct)
	a := n[0].(Array)
	if math.Signbit(a[0].(float64)) || math.Signbit(float64(a[1].(float32))) || a[2] != nil {
		t.Errorf("Normalize(%#v) = %#v, want -0.0 as 0.0", v, n)
	}
	if n[1] != "s" || n[2] != 1.5 {
		t.Errorf("Normalize changed other parts: %#v", n)
	}
}
