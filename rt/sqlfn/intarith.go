package sqlfn

import (
	"math"
	"math/bits"
)

// Integer arithmetic with Spark's ANSI overflow checks.
//
// Spark facts (sql/api/.../types/numerics.scala, catalyst/util/MathUtils.scala):
//   - INT and BIGINT use Math.addExact & co.: ARITHMETIC_OVERFLOW with
//     "integer overflow" / "long overflow" and the try_ function as hint.
//   - TINYINT and SMALLINT compute in int and range-check:
//     BINARY_ARITHMETIC_OVERFLOW "<a>S + <b>S caused overflow".
//   - Unary minus and abs use MathUtils.negateExact: "byte overflow",
//     "short overflow", "integer overflow", "long overflow", no hint.
//   - % (Remainder), mod and pmod by zero: REMAINDER_BY_ZERO (4.1.4 and
//     4.2.1, for every numeric type). MinValue % -1 is 0.
//   - div (IntegralDivide) works on BIGINT: DIVIDE_BY_ZERO, and
//     Long.MinValue div -1 is ARITHMETIC_OVERFLOW "Overflow in integral divide".

// The functions below use named results so that, with the error built out
// of line, they stay within the inliner's budget; on error the value result
// is meaningless.

// AddInt64 is BIGINT a + b.
func AddInt64(a, b int64) (c int64, err *Error) {
	c = a + b
	if (c^a)&(c^b) < 0 {
		err = errLongAdd()
	}
	return
}

// SubInt64 is BIGINT a - b.
func SubInt64(a, b int64) (c int64, err *Error) {
	c = a - b
	if (a^b)&(c^a) < 0 {
		err = errLongSub()
	}
	return
}

// MulInt64 is BIGINT a * b. When both operands fit in 32 bits the product
// cannot overflow; otherwise the exact check runs out of line.
func MulInt64(a, b int64) (c int64, err *Error) {
	c = a * b
	if uint64((a+1<<31)|(b+1<<31)) > 1<<32-1 {
		err = mulInt64Check(a, b)
	}
	return
}

// mulInt64Check reports whether the signed 128-bit product a*b leaves int64.
//
//go:noinline
func mulInt64Check(a, b int64) *Error {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	// Correct the unsigned high word to the signed 128-bit product.
	if int64(hi)-(a>>63)&b-(b>>63)&a != int64(lo)>>63 {
		return errLongMul()
	}
	return nil
}

// NegInt64 is BIGINT -a.
func NegInt64(a int64) (c int64, err *Error) {
	c = -a
	if a == math.MinInt64 {
		err = errNegLong()
	}
	return
}

// AbsInt64 is BIGINT abs(a).
func AbsInt64(a int64) (c int64, err *Error) {
	c = a
	if a < 0 {
		if c = -a; c < 0 {
			err = errNegLong()
		}
	}
	return
}

// AddInt32 is INT a + b.
func AddInt32(a, b int32) (c int32, err *Error) {
	c = a + b
	if (c^a)&(c^b) < 0 {
		err = errIntAdd()
	}
	return
}

// SubInt32 is INT a - b.
func SubInt32(a, b int32) (c int32, err *Error) {
	c = a - b
	if (a^b)&(c^a) < 0 {
		err = errIntSub()
	}
	return
}

// MulInt32 is INT a * b.
func MulInt32(a, b int32) (c int32, err *Error) {
	w := int64(a) * int64(b)
	c = int32(w)
	if w != int64(c) {
		err = errIntMul()
	}
	return
}

// NegInt32 is INT -a.
func NegInt32(a int32) (c int32, err *Error) {
	c = -a
	if a == math.MinInt32 {
		err = errNegInteger()
	}
	return
}

// AbsInt32 is INT abs(a).
func AbsInt32(a int32) (c int32, err *Error) {
	c = a
	if a < 0 {
		if c = -a; c < 0 {
			err = errNegInteger()
		}
	}
	return
}

// AddInt16 is SMALLINT a + b.
func AddInt16(a, b int16) (c int16, err *Error) {
	c = a + b
	if (c^a)&(c^b) < 0 {
		err = errSmallAdd16(a, b)
	}
	return
}

// SubInt16 is SMALLINT a - b.
func SubInt16(a, b int16) (c int16, err *Error) {
	c = a - b
	if (a^b)&(c^a) < 0 {
		err = errSmallSub16(a, b)
	}
	return
}

// MulInt16 is SMALLINT a * b.
func MulInt16(a, b int16) (c int16, err *Error) {
	w := int32(a) * int32(b)
	c = int16(w)
	if uint32(w+1<<15) >= 1<<16 {
		err = errSmallMul16(a, b)
	}
	return
}

// NegInt16 is SMALLINT -a.
func NegInt16(a int16) (c int16, err *Error) {
	c = -a
	if a == math.MinInt16 {
		err = errNegShort()
	}
	return
}

// AbsInt16 is SMALLINT abs(a).
func AbsInt16(a int16) (c int16, err *Error) {
	c = a
	if a < 0 {
		if c = -a; c < 0 {
			err = errNegShort()
		}
	}
	return
}

// AddInt8 is TINYINT a + b.
func AddInt8(a, b int8) (c int8, err *Error) {
	c = a + b
	if (c^a)&(c^b) < 0 {
		err = errSmallAdd8(a, b)
	}
	return
}

// SubInt8 is TINYINT a - b.
func SubInt8(a, b int8) (c int8, err *Error) {
	c = a - b
	if (a^b)&(c^a) < 0 {
		err = errSmallSub8(a, b)
	}
	return
}

// MulInt8 is TINYINT a * b.
func MulInt8(a, b int8) (c int8, err *Error) {
	w := int32(a) * int32(b)
	c = int8(w)
	if uint32(w+1<<7) >= 1<<8 {
		err = errSmallMul8(a, b)
	}
	return
}

// NegInt8 is TINYINT -a.
func NegInt8(a int8) (c int8, err *Error) {
	c = -a
	if a == math.MinInt8 {
		err = errNegByte()
	}
	return
}

// AbsInt8 is TINYINT abs(a).
func AbsInt8(a int8) (c int8, err *Error) {
	c = a
	if a < 0 {
		if c = -a; c < 0 {
			err = errNegByte()
		}
	}
	return
}

// Signed is the set of integer types Spark has (TINYINT..BIGINT).
type Signed interface {
	~int8 | ~int16 | ~int32 | ~int64
}

// Unsigned is the set of unsigned Arrow integer types. Spark has none; these
// helpers exist for sources that carry them and use ARITHMETIC_OVERFLOW.
type Unsigned interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Integer is every integer width, signed or unsigned.
type Integer interface {
	Signed | Unsigned
}

// FloorDiv is a / b rounded toward negative infinity (Java's Math.floorDiv),
// as the conversions between time units and the window arithmetic need.
// b must not be 0, and MinInt64 / -1 wraps to MinInt64 as in Java.
func FloorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// FloorMod is the remainder of FloorDiv (Java's Math.floorMod): it has the
// sign of b. b must not be 0.
func FloorMod(a, b int64) int64 { return a - FloorDiv(a, b)*b }

// Rem is a % b (Spark's Remainder) for any integer width: the sign of the
// result follows the dividend; b == 0 is REMAINDER_BY_ZERO; MinValue % -1 is 0.
func Rem[T Signed](a, b T) (T, *Error) {
	if b == 0 {
		return 0, ErrRemainderByZero()
	}
	if b == -1 { // avoid the hardware trap on MinValue % -1
		return 0, nil
	}
	return a % b, nil
}

// Pmod is pmod(a, n): a % n, shifted into [0, |n|) when negative exactly as
// Spark computes it, ((a % n) + n) % n in the operand width for INT and BIGINT
// (so it wraps like Java for huge negative n) and in int for TINYINT/SMALLINT.
func Pmod[T Signed](a, n T) (T, *Error) {
	if n == 0 {
		return 0, ErrRemainderByZero()
	}
	if n == -1 {
		return 0, nil
	}
	r := a % n
	if r >= 0 {
		return r, nil
	}
	if probe := int64(1 << 16); int64(T(probe)) != probe { // TINYINT, SMALLINT: Java computes (r + n) % n in int
		return T((int32(r) + int32(n)) % int32(n)), nil
	}
	return (r + n) % n, nil // INT, BIGINT: r + n wraps like Java's int/long
}

// DivInt64 is the integral division a div b (IntegralDivide on BIGINT):
// truncated toward zero.
func DivInt64(a, b int64) (int64, *Error) {
	if b == 0 {
		return 0, ErrDivideByZero()
	}
	if b == -1 {
		if a == math.MinInt64 {
			return 0, errIntegralDivideOverflow()
		}
		return -a, nil
	}
	return a / b, nil
}

// AddUnsigned is a + b for an unsigned width, with ARITHMETIC_OVERFLOW.
func AddUnsigned[T Unsigned](a, b T) (T, *Error) {
	c := a + b
	if c < a {
		return 0, errUnsignedOverflow(opAdd)
	}
	return c, nil
}

// SubUnsigned is a - b for an unsigned width, with ARITHMETIC_OVERFLOW below 0.
func SubUnsigned[T Unsigned](a, b T) (T, *Error) {
	if b > a {
		return 0, errUnsignedOverflow(opSub)
	}
	return a - b, nil
}

// MulUnsigned is a * b for an unsigned width, with ARITHMETIC_OVERFLOW.
func MulUnsigned[T Unsigned](a, b T) (T, *Error) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo != uint64(T(lo)) {
		return 0, errUnsignedOverflow(opMul)
	}
	return T(lo), nil
}

// NegUnsigned is -a for an unsigned width: only 0 has a negation, any other
// value is ARITHMETIC_OVERFLOW.
func NegUnsigned[T Unsigned](a T) (T, *Error) {
	if a != 0 {
		return 0, errNegUnsigned()
	}
	return 0, nil
}

// RemUnsigned is a % b for an unsigned width; b == 0 is REMAINDER_BY_ZERO.
func RemUnsigned[T Unsigned](a, b T) (T, *Error) {
	if b == 0 {
		return 0, ErrRemainderByZero()
	}
	return a % b, nil
}

// DivideFloat64 is Spark's '/' (Divide), which always works on DOUBLE (or
// DECIMAL): integer operands are cast to DOUBLE first. In ANSI mode a zero
// divisor, including 0.0 and -0.0, is DIVIDE_BY_ZERO (DivModLike.isZero is
// `x == 0`); NULL divisors are the caller's business.
func DivideFloat64(a, b float64) (float64, *Error) {
	if b == 0 {
		return 0, ErrDivideByZero()
	}
	return a / b, nil
}

// RemFloat64 is DOUBLE a % b: Java's floating remainder (truncated, sign of
// the dividend, same as math.Mod), REMAINDER_BY_ZERO when b == 0.
func RemFloat64(a, b float64) (float64, *Error) {
	if b == 0 {
		return 0, ErrRemainderByZero()
	}
	return math.Mod(a, b), nil
}

// RemFloat32 is FLOAT a % b.
func RemFloat32(a, b float32) (float32, *Error) {
	if b == 0 {
		return 0, ErrRemainderByZero()
	}
	return float32(math.Mod(float64(a), float64(b))), nil
}

// PmodFloat64 is pmod on DOUBLE: r = a % n; if r < 0 then (r + n) % n.
func PmodFloat64(a, n float64) (float64, *Error) {
	if n == 0 {
		return 0, ErrRemainderByZero()
	}
	r := math.Mod(a, n)
	if r < 0 {
		r = math.Mod(r+n, n)
	}
	return r, nil
}
