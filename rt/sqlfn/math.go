package sqlfn

import (
	"math"
	"math/bits"
	"strconv"
)

// RoundFloat64 is round(x, d) on DOUBLE: HALF_UP on the decimal Java prints
// for x (RoundBase: BigDecimal(d).setScale(_scale, HALF_UP).toDouble, and
// Scala's BigDecimal(d) starts from Double.toString), so round(2.675, 2) is
// 2.68 although the binary value is below 2.675. NaN and infinities pass
// through; a result of zero is +0.0 (BigDecimal has no negative zero).
func RoundFloat64(x float64, d int32) float64 { return roundFloat64(x, d, false) }

// roundFloat64 rounds HALF_UP, or HALF_EVEN when even is set.
func roundFloat64(x float64, d int32, even bool) float64 {
	if x != x || math.IsInf(x, 0) {
		return x
	}
	if x == 0 {
		return 0
	}
	var buf [32]byte
	digits, e := javaDigits(buf[:0], math.Abs(x), 64)
	m, keep := roundDigits(digits, e, d, even)
	if keep {
		return x
	}
	if m == 0 {
		return 0
	}
	r := scaleFloat64(m, -d)
	if x < 0 {
		r = -r
	}
	return r
}

// RoundFloat32 is round(x, d) on FLOAT: Spark rounds BigDecimal(x.toDouble),
// i.e. the Double.toString digits of the widened value, then converts back
// with BigDecimal.floatValue.
func RoundFloat32(f float32, d int32) float32 { return roundFloat32(f, d, false) }

// roundFloat32 rounds HALF_UP, or HALF_EVEN when even is set.
func roundFloat32(f float32, d int32, even bool) float32 {
	x := float64(f)
	if x != x || math.IsInf(x, 0) {
		return f
	}
	if x == 0 {
		return 0
	}
	var buf [32]byte
	digits, e := javaDigits(buf[:0], math.Abs(x), 64)
	m, keep := roundDigits(digits, e, d, even)
	if keep {
		return f
	}
	if m == 0 {
		return 0
	}
	var r float32
	if m < 1<<24 && d >= -10 && d <= 10 {
		p := float32(float64Pow10[abs32(d)])
		if d >= 0 {
			r = float32(m) / p
		} else {
			r = float32(m) * p
		}
	} else {
		v, _ := strconv.ParseFloat(strconv.FormatUint(m, 10)+"e"+strconv.Itoa(int(-d)), 32)
		r = float32(v)
	}
	if f < 0 {
		r = -r
	}
	return r
}

func abs32(d int32) int32 {
	if d < 0 {
		return -d
	}
	return d
}

// roundDigits rounds the decimal 0.d1d2...dn × 10^(e+1) HALF_UP (HALF_EVEN
// when even is set) to d fractional digits, returning the result as an
// integer count of 10^-d. keep is true when no digit is dropped (the value
// is unchanged).
func roundDigits(digits []byte, e int, d int32, even bool) (m uint64, keep bool) {
	k := e + 1 + int(d) // digits whose weight is >= 10^-d
	if k >= len(digits) {
		return 0, true
	}
	if k < 0 {
		return 0, false
	}
	for i := 0; i < k; i++ {
		m = m*10 + uint64(digits[i]-'0')
	}
	if digits[k] > '5' || digits[k] == '5' && !(even && m%2 == 0 && allZero(digits[k+1:])) {
		m++
	}
	return m, false
}

// scaleFloat64 is m × 10^exp correctly rounded.
func scaleFloat64(m uint64, exp int32) float64 {
	if m < 1<<53 && exp >= -22 && exp <= 22 {
		if exp >= 0 {
			return float64(m) * float64Pow10[exp]
		}
		return float64(m) / float64Pow10[-exp]
	}
	v, _ := strconv.ParseFloat(strconv.FormatUint(m, 10)+"e"+strconv.Itoa(int(exp)), 64)
	return v
}

// RoundInt64 is round(x, d) on BIGINT: unchanged for d >= 0, else HALF_UP to
// a multiple of 10^-d; ARITHMETIC_OVERFLOW ("Overflow", from
// BigDecimal.toLongExact) when the result leaves the type.
func RoundInt64(x int64, d int32) (int64, *Error) { return roundInt64(x, d, false) }

// allZero reports whether every digit is '0'.
func allZero(digits []byte) bool {
	for _, c := range digits {
		if c != '0' {
			return false
		}
	}
	return true
}

// roundInt64 rounds HALF_UP, or HALF_EVEN when even is set.
func roundInt64(x int64, d int32, even bool) (int64, *Error) {
	if d >= 0 || x == 0 {
		return x, nil
	}
	k := -d
	if k >= 20 {
		return 0, nil // |x| < 10^19 < 0.5 × 10^20
	}
	ax := uint64(x)
	if x < 0 {
		ax = -ax
	}
	var q uint64
	if k == 19 {
		if ax > 5e18 || ax == 5e18 && !even {
			return 0, errRoundOverflow()
		}
		return 0, nil
	}
	p := pow10u64[k]
	q = ax / p
	if r := ax % p; r > p/2 || r == p/2 && !(even && q%2 == 0) {
		q++
	}
	hi, lo := bits.Mul64(q, p)
	if hi != 0 || lo > 1<<63 || (lo == 1<<63 && x > 0) {
		return 0, errRoundOverflow()
	}
	if x < 0 {
		return -int64(lo), nil
	}
	return int64(lo), nil
}

// RoundInt is round(x, d) on INT, SMALLINT or TINYINT (see RoundInt64).
func RoundInt[T int8 | int16 | int32](x T, d int32) (T, *Error) { return roundInt(x, d, false) }

// roundInt rounds HALF_UP, or HALF_EVEN when even is set.
func roundInt[T int8 | int16 | int32](x T, d int32, even bool) (T, *Error) {
	r, err := roundInt64(int64(x), d, even)
	if err != nil || r != int64(T(r)) {
		return 0, errRoundOverflow()
	}
	return T(r), nil
}

//go:noinline
func errRoundOverflow() *Error { return ErrArithmeticOverflow("Overflow", "") }

// FloorFloat64 is floor(x) on DOUBLE, which Spark types as BIGINT:
// Math.floor(x).toLong, saturating, NaN -> 0 (Java's (long) conversion).
func FloorFloat64(x float64) int64 { return javaD2L(math.Floor(x)) }

// CeilFloat64 is ceil(x) on DOUBLE, typed BIGINT like FloorFloat64.
func CeilFloat64(x float64) int64 { return javaD2L(math.Ceil(x)) }

// Sqrt is sqrt(x); NaN for x < 0, as Java.
func Sqrt(x float64) float64 { return math.Sqrt(x) }

// Exp is exp(x).
func Exp(x float64) float64 { return math.Exp(x) }

// Ln is ln(x). valid is false (the result is NULL) for x <= 0: Spark's
// logarithms return NULL at or below their asymptote, in ANSI mode too
// (UnaryLogExpression).
func Ln(x float64) (float64, bool) {
	if x <= 0 {
		return 0, false
	}
	return logPos(x), true
}

// smallestNormal is the least positive normal float64.
const smallestNormal = 2.2250738585072014e-308

// logPos is ln(x) for x > 0. Go's amd64 math.Log is wrong for subnormal
// inputs (golang/go#56600), so those are scaled into the normal range
// first: ln(x) = ln(x * 2^64) - 64 ln 2.
func logPos(x float64) float64 {
	if x < smallestNormal {
		return math.Log(x*0x1p64) - 64*math.Ln2
	}
	return math.Log(x)
}

// Log10 is log10(x); NULL for x <= 0.
func Log10(x float64) (float64, bool) {
	if x <= 0 {
		return 0, false
	}
	if x < smallestNormal {
		return logPos(x) / math.Ln10, true
	}
	return math.Log10(x), true
}

// Log2 is log2(x) (Spark computes ln(x) / ln(2)); NULL for x <= 0.
func Log2(x float64) (float64, bool) {
	if x <= 0 {
		return 0, false
	}
	return logPos(x) / math.Ln2, true
}

// Log1p is log1p(x); NULL for x <= -1.
func Log1p(x float64) (float64, bool) {
	if x <= -1 {
		return 0, false
	}
	return math.Log1p(x), true
}

// Log is log(base, x) = ln(x) / ln(base); NULL when either is <= 0.
func Log(base, x float64) (float64, bool) {
	if base <= 0 || x <= 0 {
		return 0, false
	}
	return logPos(x) / logPos(base), true
}

// Power is power(x, y) with Java's Math.pow special cases, which differ from
// Go's math.Pow: a NaN exponent gives NaN even for x = 1, and x = ±1 with an
// infinite exponent gives NaN.
func Power(x, y float64) float64 {
	switch {
	case y != y:
		return math.NaN()
	case y == 0:
		return 1
	case math.IsInf(y, 0) && (x == 1 || x == -1):
		return math.NaN()
	}
	return math.Pow(x, y)
}

// Signum is sign(x)/signum(x) on DOUBLE: -1.0, 1.0, or x itself for ±0 and NaN.
func Signum(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return x
}

// Ordered is what Greatest and Least accept: integers and strings. Floats
// have their own functions because Spark orders NaN above everything.
type Ordered interface {
	Signed | Unsigned | ~string
}

// Greatest is greatest(a, b) for integers and strings (NULL skipping is the
// caller's). On ties the first argument wins, as in Spark.
func Greatest[T Ordered](a, b T) T {
	if b > a {
		return b
	}
	return a
}

// Least is least(a, b) for integers and strings.
func Least[T Ordered](a, b T) T {
	if b < a {
		return b
	}
	return a
}

// GreatestFloat64 is greatest(a, b) on DOUBLE with Spark's ordering (NaN
// greatest, -0.0 equal to 0.0, first argument wins ties).
func GreatestFloat64(a, b float64) float64 {
	if CompareFloat64(b, a) > 0 {
		return b
	}
	return a
}

// LeastFloat64 is least(a, b) on DOUBLE.
func LeastFloat64(a, b float64) float64 {
	if CompareFloat64(b, a) < 0 {
		return b
	}
	return a
}

// GreatestFloat32 is greatest(a, b) on FLOAT.
func GreatestFloat32(a, b float32) float32 {
	if CompareFloat32(b, a) > 0 {
		return b
	}
	return a
}

// LeastFloat32 is least(a, b) on FLOAT.
func LeastFloat32(a, b float32) float32 {
	if CompareFloat32(b, a) < 0 {
		return b
	}
	return a
}

// GreatestDecimal is greatest(a, b) on two decimals of the same type.
func GreatestDecimal[N interface{ Cmp(N) int }](a, b N) N {
	if b.Cmp(a) > 0 {
		return b
	}
	return a
}

// LeastDecimal is least(a, b) on two decimals of the same type.
func LeastDecimal[N interface{ Cmp(N) int }](a, b N) N {
	if b.Cmp(a) < 0 {
		return b
	}
	return a
}
