package sqlfn

import (
	"math/bits"
	"strconv"
	"strings"
)

// Bit functions with Spark's answers (Java's int and long semantics), and
// conv.

// BitCount is bit_count(n) of an integer, sign-extended to 64 bits as Spark
// widens every integer to a long: bit_count(-1) is 64 for every width.
func BitCount(n int64) int32 { return int32(bits.OnesCount64(uint64(n))) }

// BitGet is bit_get(n, pos) / getbit: bit pos of n, whose type has width
// bits; a pos outside [0, width) is INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE,
// naming the function as the call wrote it (fn).
func BitGet(n int64, pos int32, width int32, fn string) (int8, *Error) {
	if pos < 0 || pos >= width {
		return 0, errBitPosition(fn, pos, width)
	}
	return int8(n >> pos & 1), nil
}

// ShiftLeftInt32 is shiftleft(a, n) of an INT: Java's <<, which shifts by n
// modulo 32.
func ShiftLeftInt32(a, n int32) int32 { return a << (n & 31) }

// ShiftLeftInt64 is shiftleft(a, n) of a BIGINT: Java's <<, modulo 64.
func ShiftLeftInt64(a int64, n int32) int64 { return a << (n & 63) }

// ShiftRightInt32 is shiftright(a, n) of an INT: Java's >>.
func ShiftRightInt32(a, n int32) int32 { return a >> (n & 31) }

// ShiftRightInt64 is shiftright(a, n) of a BIGINT: Java's >>.
func ShiftRightInt64(a int64, n int32) int64 { return a >> (n & 63) }

// ShiftRightUnsignedInt32 is shiftrightunsigned(a, n) of an INT: Java's >>>.
func ShiftRightUnsignedInt32(a, n int32) int32 { return int32(uint32(a) >> (n & 31)) }

// ShiftRightUnsignedInt64 is shiftrightunsigned(a, n) of a BIGINT: Java's >>>.
func ShiftRightUnsignedInt64(a int64, n int32) int64 { return int64(uint64(a) >> (n & 63)) }

// digitValue is the value of a digit in bases up to 36, -1 for any other
// byte.
func digitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return -1
}

// Conv is conv(s, from, to): the number s (spaces trimmed, an optional
// leading '-', digits of base from up to the first byte that is not one)
// written in base |to|, through a 64-bit unsigned value. A negative to
// writes the value as signed; a positive one writes a negative number as
// its two's complement. NULL for an empty s or a base outside 2..36; a
// value beyond 64 bits is ARITHMETIC_OVERFLOW (ANSI).
func Conv(s string, from, to int32) (string, bool, *Error) {
	if from < 2 || from > 36 || to < -36 || to > 36 || to > -2 && to < 2 {
		return "", false, nil
	}
	s = strings.Trim(s, " ")
	if s == "" {
		return "", false, nil
	}
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		d := digitValue(s[i])
		if d < 0 || d >= int(from) {
			break
		}
		hi, lo := bits.Mul64(v, uint64(from))
		sum, carry := bits.Add64(lo, uint64(d), 0)
		if hi != 0 || carry != 0 {
			return "", false, errConvOverflow()
		}
		v = sum
	}
	sv := int64(v)
	if neg && to > 0 {
		if sv < 0 {
			sv = -1
		} else {
			sv = -sv
		}
	}
	if to < 0 && sv < 0 {
		sv = -sv
		neg = true
	}
	base := int(to)
	if base < 0 {
		base = -base
	}
	out := strings.ToUpper(strconv.FormatUint(uint64(sv), base))
	if neg && to < 0 {
		out = "-" + out
	}
	return out, true, nil
}

//go:noinline
func errBitPosition(fn string, pos, width int32) *Error {
	return &Error{Class: ClassInvalidParameterValue + ".BIT_POSITION_RANGE",
		Msg: "The value of parameter(s) `pos` in `" + fn + "` is invalid: expects an integer value in [0, " +
			strconv.Itoa(int(width)) + "), but got " + strconv.Itoa(int(pos)) + "."}
}

//go:noinline
func errConvOverflow() *Error { return ErrArithmeticOverflow("Overflow in function conv()", "") }

// bitmapChunk is the number of bits of one of Spark's bitmaps.
const bitmapChunk = 32768

// BitmapBucketNumber is bitmap_bucket_number(v): the 1-based bitmap of a
// positive v, and v / 32768 (Java's division) for the others.
func BitmapBucketNumber(v int64) int64 {
	if v > 0 {
		return (v-1)/bitmapChunk + 1
	}
	return v / bitmapChunk
}

// BitmapBitPosition is bitmap_bit_position(v): v's bit in its bitmap,
// (v - 1) % 32768 for a positive v and -v % 32768 (Java's negation and
// remainder) for the others.
func BitmapBitPosition(v int64) int64 {
	if v > 0 {
		return (v - 1) % bitmapChunk
	}
	return (-v) % bitmapChunk
}

// BitmapCount is bitmap_count(b): the number of bits set in the bytes.
func BitmapCount(b []byte) int64 {
	n := 0
	for _, c := range b {
		n += bits.OnesCount8(c)
	}
	return int64(n)
}
