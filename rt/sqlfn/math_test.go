package sqlfn

import (
	"math"
	"testing"
)

func TestRoundFloat64(t *testing.T) {
	tests := []struct {
		x    float64
		d    int32
		want float64
	}{
		{2.5, 0, 3},
		{-2.5, 0, -3},
		{3.5, 0, 4},
		{0.5, 0, 1},
		{-0.5, 0, -1},
		{2.675, 2, 2.68}, // binary value is below 2.675; Spark rounds the printed digits
		{-2.675, 2, -2.68},
		{1.005, 2, 1.01},
		{1.0049, 2, 1.0},
		{123.456, -1, 120},
		{125, -1, 130},
		{-125, -1, -130},
		{0.004, 2, 0},
		{0.005, 2, 0.01},
		{0.0005, 2, 0},
		{1e20, -1, 1e20},
		{1.5e-10, 10, 2e-10},
		{123.456, 10, 123.456},
		{1.7976931348623157e308, -308, math.Inf(1)}, // 2E308 is beyond double
		{0.1 + 0.7, 1, 0.8},
		{-0.1, 0, 0},
		{12345678901234567, 0, 12345678901234568},
		{1234567.891234567, 8, 1234567.89123457},
	}
	for _, tt := range tests {
		got := RoundFloat64(tt.x, tt.d)
		if got != tt.want {
			t.Errorf("round(%v, %d) = %v, want %v", tt.x, tt.d, got, tt.want)
		}
	}
	if got := RoundFloat64(-0.1, 0); math.Signbit(got) {
		t.Error("round(-0.1) must be +0.0")
	}
	if got := RoundFloat64(math.NaN(), 2); got == got {
		t.Error("NaN passes through")
	}
	if got := RoundFloat64(math.Inf(-1), 2); !math.IsInf(got, -1) {
		t.Error("-Inf passes through")
	}
	if got := RoundFloat32(2.5, 0); got != 3 {
		t.Errorf("round float 2.5 = %v", got)
	}
	// 0.1f widens to 0.10000000149011612: HALF_UP at 8 digits gives 0.1.
	if got := RoundFloat32(0.1, 8); got != 0.1 {
		t.Errorf("round float 0.1 = %v", got)
	}
	if got := RoundFloat32(1.15, 1); got != 1.1 {
		t.Errorf("round(1.15f, 1) = %v, want 1.1 (widened digits 1.149999976158142)", got)
	}
}

func TestRoundInt(t *testing.T) {
	tests := []struct {
		x     int64
		d     int32
		want  int64
		class string
	}{
		{15, -1, 20, ""},
		{-15, -1, -20, ""},
		{14, -1, 10, ""},
		{-14, -1, -10, ""},
		{149, -2, 100, ""},
		{150, -2, 200, ""},
		{12345, 2, 12345, ""},
		{math.MaxInt64, -1, 0, ClassArithmeticOverflow},
		{math.MinInt64, -1, 0, ClassArithmeticOverflow},
		{math.MaxInt64, -19, 0, ClassArithmeticOverflow},
		{4999999999999999999, -19, 0, ""},
		{math.MaxInt64, -20, 0, ""},
		{-9223372036854775800, -1, -9223372036854775800, ""},
		{9223372036854775804, -1, 9223372036854775800, ""},
		{9223372036854775805, -1, 0, ClassArithmeticOverflow},
		{9223372036854775800, -2, 9223372036854775800, ""},
	}
	for _, tt := range tests {
		got, err := RoundInt64(tt.x, tt.d)
		wantErr(t, "round", err, tt.class)
		if err == nil && got != tt.want {
			t.Errorf("round(%d, %d) = %d, want %d", tt.x, tt.d, got, tt.want)
		}
	}
	if v, err := RoundInt[int32](2147483647, -1); err == nil {
		t.Errorf("int round overflow: %d", v)
	}
	if v, err := RoundInt[int8](-125, -1); err == nil || err.Class != ClassArithmeticOverflow {
		t.Errorf("tinyint round(-125, -1) = %d %v, want overflow (-130)", v, err)
	}
	if v, err := RoundInt[int8](-124, -1); err != nil || v != -120 {
		t.Errorf("tinyint round = %d %v", v, err)
	}
}

func TestMathFunctions(t *testing.T) {
	if FloorFloat64(-1.5) != -2 || CeilFloat64(-1.5) != -1 || FloorFloat64(2) != 2 {
		t.Error("floor/ceil")
	}
	if FloorFloat64(math.NaN()) != 0 || CeilFloat64(1e300) != math.MaxInt64 || FloorFloat64(-1e300) != math.MinInt64 {
		t.Error("floor/ceil saturate like Java's (long)")
	}
	if v := Sqrt(-1); v == v {
		t.Error("sqrt(-1) is NaN")
	}
	if Sqrt(16) != 4 || Exp(0) != 1 {
		t.Error("sqrt/exp")
	}
	for _, x := range []float64{0, -1, math.Inf(-1)} {
		if _, ok := Ln(x); ok {
			t.Errorf("ln(%v) must be NULL", x)
		}
		if _, ok := Log10(x); ok {
			t.Errorf("log10(%v) must be NULL", x)
		}
		if _, ok := Log2(x); ok {
			t.Errorf("log2(%v) must be NULL", x)
		}
	}
	if v, ok := Ln(math.E); !ok || v != 1 {
		t.Errorf("ln(e) = %v", v)
	}
	if v, ok := Ln(math.NaN()); !ok || v == v {
		t.Errorf("ln(NaN) = %v %v", v, ok)
	}
	if v, ok := Log10(1000); !ok || v != 3 {
		t.Errorf("log10 = %v", v)
	}
	if v, ok := Log2(8); !ok || v != 3 {
		t.Errorf("log2 = %v", v)
	}
	if v, ok := Log(2, 8); !ok || math.Abs(v-3) > 1e-15 {
		t.Errorf("log(2, 8) = %v", v)
	}
	if _, ok := Log(-2, 8); ok {
		t.Error("log(-2, 8) must be NULL")
	}
	if _, ok := Log1p(-1); ok {
		t.Error("log1p(-1) must be NULL")
	}
	if v, ok := Log1p(0); !ok || v != 0 {
		t.Error("log1p(0)")
	}
	powers := []struct{ x, y, want float64 }{
		{2, 10, 1024},
		{2, -1, 0.5},
		{1, math.NaN(), math.NaN()}, // Java: NaN; Go's math.Pow says 1
		{1, math.Inf(1), math.NaN()},
		{-1, math.Inf(-1), math.NaN()},
		{math.NaN(), 0, 1},
		{0, -1, math.Inf(1)},
		{-8, 1.0 / 3, math.NaN()},
	}
	for _, p := range powers {
		got := Power(p.x, p.y)
		if !(got == p.want || (got != got && p.want != p.want)) {
			t.Errorf("power(%v, %v) = %v, want %v", p.x, p.y, got, p.want)
		}
	}
	if Signum(-3) != -1 || Signum(0.1) != 1 || !math.Signbit(Signum(math.Copysign(0, -1))) || Signum(math.NaN()) == Signum(math.NaN()) {
		t.Error("signum")
	}
}

func TestGreatestLeast(t *testing.T) {
	if Greatest[int64](3, 5) != 5 || Least[int64](3, 5) != 3 || Greatest("a", "b") != "b" || Least[int8](-1, -2) != -2 {
		t.Error("greatest/least")
	}
	nan := math.NaN()
	if v := GreatestFloat64(1, nan); v == v {
		t.Error("greatest with NaN is NaN")
	}
	if v := LeastFloat64(nan, 1); v != 1 {
		t.Error("least with NaN")
	}
	negZero := math.Copysign(0, -1)
	if v := GreatestFloat64(negZero, 0); !math.Signbit(v) {
		t.Error("ties keep the first argument")
	}
	a, b := dec(t, "1.5", 2, 1), dec(t, "-2.5", 2, 1)
	if GreatestDecimal(a, b) != a || LeastDecimal(a, b) != b {
		t.Error("decimal greatest/least")
	}
}

func TestCompareFloat(t *testing.T) {
	nan := math.NaN()
	negZero := math.Copysign(0, -1)
	tests := []struct {
		a, b float64
		want int
	}{
		{1, 2, -1}, {2, 1, 1}, {1, 1, 0},
		{nan, nan, 0}, {nan, math.Inf(1), 1}, {math.Inf(1), nan, -1}, {nan, -1, 1},
		{negZero, 0, 0}, {0, negZero, 0},
		{math.Inf(-1), -math.MaxFloat64, -1},
	}
	for _, tt := range tests {
		if got := CompareFloat64(tt.a, tt.b); got != tt.want {
			t.Errorf("compare(%v, %v) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if math.Abs(tt.b) > math.MaxFloat32 && !math.IsInf(tt.b, 0) {
			continue // not a FLOAT
		}
		if got := CompareFloat32(float32(tt.a), float32(tt.b)); got != tt.want {
			t.Errorf("compare32(%v, %v) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	if !EqualFloat64(nan, nan) || !EqualFloat64(negZero, 0) || EqualFloat64(1, 2) || EqualFloat64(nan, 1) {
		t.Error("equal")
	}
	if !EqualFloat32(float32(nan), float32(nan)) || EqualFloat32(1, 2) {
		t.Error("equal32")
	}
	if math.Signbit(NormalizeFloat64(negZero)) || math.Float64bits(NormalizeFloat64(-nan)) != math.Float64bits(math.NaN()) {
		t.Error("normalize")
	}
	if math.Signbit(float64(NormalizeFloat32(float32(negZero)))) || NormalizeFloat32(2) != 2 {
		t.Error("normalize32")
	}
}
