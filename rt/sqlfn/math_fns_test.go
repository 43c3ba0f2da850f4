package sqlfn

import (
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// The expected values below are Spark 4.1.4's and 4.2.1's answers to the
// same calls (SELECT bround(2.5d), ...), taken from the lane's servers.

func TestBroundFloat(t *testing.T) {
	for _, c := range []struct {
		x    float64
		d    int32
		want float64
	}{
		{2.5, 0, 2}, {3.5, 0, 4}, {-2.5, 0, -2}, {1.25, 1, 1.2}, {1.35, 1, 1.4},
		{2.675, 2, 2.68}, {1.5, -1, 0}, {15, -1, 20}, {1e300, -300, 1e300},
	} {
		if got := BroundFloat64(c.x, c.d); got != c.want {
			t.Errorf("bround(%v, %d) = %v, want %v", c.x, c.d, got, c.want)
		}
	}
	if got := BroundFloat64(math.NaN(), 0); got == got {
		t.Errorf("bround(NaN) = %v", got)
	}
	if got := BroundFloat32(0.125, 2); got != 0.12 {
		t.Errorf("bround(0.125f, 2) = %v", got)
	}
	if got := BroundFloat32(2.5, 0); got != 2 {
		t.Errorf("bround(2.5f) = %v", got)
	}
	if got := RoundFloat64(2.5, 0); got != 3 { // round stays HALF_UP
		t.Errorf("round(2.5) = %v", got)
	}
}

func TestBroundInt(t *testing.T) {
	for _, c := range []struct{ x, want int64 }{{25, 20}, {35, 40}, {-15, -20}, {125, 120}, {-25, -20}} {
		if got, err := BroundInt64(c.x, -1); err != nil || got != c.want {
			t.Errorf("bround(%d, -1) = %d, %v; want %d", c.x, got, err, c.want)
		}
	}
	if _, err := BroundInt64(math.MaxInt64, -1); err == nil || err.Class != "ARITHMETIC_OVERFLOW" {
		t.Errorf("bround(MaxInt64, -1): %v", err)
	}
	if _, err := BroundInt[int8](127, -1); err == nil {
		t.Errorf("bround(127Y, -1) did not overflow")
	}
	if _, err := BroundInt[int32](math.MaxInt32, -1); err == nil {
		t.Errorf("bround(2147483647, -1) did not overflow")
	}
	if got, err := BroundInt[int8](25, -1); err != nil || got != 20 {
		t.Errorf("bround(25Y, -1) = %d, %v", got, err)
	}
}

func TestDecimalBround(t *testing.T) {
	for _, c := range []struct {
		v          int64
		s, d       int32
		rp, rs     int32
		want       int64
		wantString string
	}{
		{123455, 3, 2, 6, 2, 12346, "123.46"},
		{123445, 3, 2, 6, 2, 12344, "123.44"},
		{125, 0, -1, 4, 0, 120, "120"},
		{999, 0, -1, 4, 0, 1000, "1000"},
		{25, 1, 0, 2, 0, 2, "2"},
		{-25, 1, 0, 2, 0, -2, "-2"},
	} {
		got, err := DecimalBround(decimal128.FromI64(c.v), c.s, c.d, c.rp, c.rs)
		if err != nil || got != decimal128.FromI64(c.want) {
			t.Errorf("bround(%d e-%d, %d) = %v, %v; want %s", c.v, c.s, c.d, got, err, c.wantString)
		}
	}
}

func TestWidthBucket(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		v, lo, hi float64
		n         int64
		want      int64
		ok        bool
	}{
		{5.3, 0.2, 10.6, 5, 3, true},
		{-2.1, 1.3, 3.4, 3, 0, true},
		{8.1, 0, 5.7, 4, 5, true},
		{-0.9, 5.2, 0.5, 2, 3, true},
		{10, 0, 10, 3, 4, true},
		{0, 0, 10, 3, 1, true},
		{10, 10, 0, 3, 1, true},
		{0, 10, 0, 3, 4, true},
		{inf, 0, 10, 3, 4, true},
		{1, 0, 10, 9223372036854775806, 922337203685477633, true},
		{1, 0, 10, 0, 0, false},
		{1, 0, 10, -1, 0, false},
		{1, 0, 0, 3, 0, false},
		{math.NaN(), 0, 10, 3, 0, false},
		{1, -inf, 10, 3, 0, false},
		{1, 0, 10, math.MaxInt64, 0, false},
	} {
		got, ok := WidthBucket(c.v, c.lo, c.hi, c.n)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("width_bucket(%v, %v, %v, %d) = %d, %v; want %d, %v", c.v, c.lo, c.hi, c.n, got, ok, c.want, c.ok)
		}
	}
}

func TestFactorialAndTrig(t *testing.T) {
	if f, ok := Factorial(20); !ok || f != 2432902008176640000 {
		t.Errorf("factorial(20) = %d, %v", f, ok)
	}
	for _, n := range []int32{21, -1} {
		if _, ok := Factorial(n); ok {
			t.Errorf("factorial(%d) is not NULL", n)
		}
	}
	if f, ok := Factorial(0); !ok || f != 1 {
		t.Errorf("factorial(0) = %d, %v", f, ok)
	}
	if got := Atan2(math.Copysign(0, -1), -1); got != math.Pi {
		t.Errorf("atan2(-0.0, -1) = %v, want π", got)
	}
	if got := Cot(0); !math.IsInf(got, 1) {
		t.Errorf("cot(0) = %v", got)
	}
	if got := Degrees(math.Pi); got != 180 {
		t.Errorf("degrees(π) = %v", got)
	}
	if got := Radians(180); got != math.Pi {
		t.Errorf("radians(180) = %v", got)
	}
}
