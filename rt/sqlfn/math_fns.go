package sqlfn

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// The math functions of Spark's catalogue beyond round and the logarithms
// (math.go): the trigonometric and hyperbolic ones on DOUBLE, with Java's
// special cases where they differ from Go's.

// Cot is cot(x) = 1 / tan(x) (+Inf at 0, as Java's division).
func Cot(x float64) float64 { return 1 / math.Tan(x) }

// Sec is sec(x) = 1 / cos(x).
func Sec(x float64) float64 { return 1 / math.Cos(x) }

// Csc is csc(x) = 1 / sin(x).
func Csc(x float64) float64 { return 1 / math.Sin(x) }

// Atan2 is atan2(y, x). Spark adds 0.0 to both arguments first, which turns
// -0.0 into 0.0: atan2(-0.0, -1) is π, not -π.
func Atan2(y, x float64) float64 { return math.Atan2(y+0.0, x+0.0) }

// Degrees is degrees(x): Java's Math.toDegrees, x × (180 / π).
func Degrees(x float64) float64 { return x * radiansToDegrees }

// Radians is radians(x): Java's Math.toRadians, x × (π / 180).
func Radians(x float64) float64 { return x * degreesToRadians }

const (
	radiansToDegrees = 57.29577951308232
	degreesToRadians = 0.017453292519943295
)

// Factorial is factorial(n): n! for 0 <= n <= 20, else NULL (valid false).
func Factorial(n int32) (int64, bool) {
	if n < 0 || n > 20 {
		return 0, false
	}
	f := int64(1)
	for i := int64(2); i <= int64(n); i++ {
		f *= i
	}
	return f, true
}

// WidthBucket is width_bucket(v, lo, hi, n): the bucket of v among n equal
// buckets from lo to hi (which may be reversed), 0 before the first and
// n + 1 after the last, computed in DOUBLE as Spark does. NULL (valid
// false) for n <= 0 or n = MaxInt64, a NaN v, lo = hi, or a NaN or
// infinite bound.
func WidthBucket(v, lo, hi float64, n int64) (int64, bool) {
	bad := func(x float64) bool { return x != x || math.IsInf(x, 0) }
	if n <= 0 || n == math.MaxInt64 || v != v || lo == hi || bad(lo) || bad(hi) {
		return 0, false
	}
	nf := float64(n)
	if lo < hi {
		switch {
		case v < lo:
			return 0, true
		case v >= hi:
			return n + 1, true
		}
		return javaD2L(nf*(v-lo)/(hi-lo)) + 1, true
	}
	switch {
	case v > lo:
		return 0, true
	case v <= hi:
		return n + 1, true
	}
	return javaD2L(nf*(lo-v)/(lo-hi)) + 1, true
}

// BroundFloat64 is bround(x, d) on DOUBLE: like RoundFloat64, on the
// decimal Java prints for x, but HALF_EVEN.
func BroundFloat64(x float64, d int32) float64 { return roundFloat64(x, d, true) }

// BroundFloat32 is bround(x, d) on FLOAT: like RoundFloat32, HALF_EVEN.
func BroundFloat32(f float32, d int32) float32 { return roundFloat32(f, d, true) }

// BroundInt64 is bround(x, d) on BIGINT: like RoundInt64, HALF_EVEN.
func BroundInt64(x int64, d int32) (int64, *Error) { return roundInt64(x, d, true) }

// BroundInt is bround(x, d) on INT, SMALLINT or TINYINT.
func BroundInt[T int8 | int16 | int32](x T, d int32) (T, *Error) { return roundInt(x, d, true) }

// DecimalBround is bround on decimal(p, s) to scale d, giving decimal(rp,
// rs) (DecimalRoundType): HALF_EVEN.
func DecimalBround(v decimal128.Num, s int32, d int32, rp, rs int32) (decimal128.Num, *Error) {
	x := toWdec(v, s)
	if d < 0 {
		x.mag.divPow10HalfEven(int(s - d))
		x.mag.mulPow10(int(-d))
		x.scale = 0
	} else if rs < s {
		x.mag.divPow10HalfEven(int(s - rs))
		x.scale = rs
	}
	return finish(&x, rp, rs)
}

// RaiseError is raise_error(msg) and a failed assert_true: always the
// error USER_RAISED_EXCEPTION with the message (Spark's "null" for a NULL
// one, valid false).
func RaiseError(msg string, valid bool) *Error {
	if !valid {
		msg = "null"
	}
	return &Error{Class: ClassUserRaisedException, Msg: msg}
}
