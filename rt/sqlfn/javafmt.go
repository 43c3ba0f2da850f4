package sqlfn

import (
	"math"
	"math/big"
	"strconv"
)

// Java's Double.toString and Float.toString, which Spark uses for
// CAST(double AS STRING), and whose digits Spark's round() and
// CAST(double AS DECIMAL) start from (Scala's BigDecimal(d) is
// new java.math.BigDecimal(Double.toString(d))).
//
// The digits follow the JDK 19+ specification (JDK-4511638, the version Spark
// 4 gets on Java 21): the shortest decimal that rounds back to the value,
// closest to it when several are shortest, except that when the shortest has
// a single digit, a two-digit decimal that is closer wins. For normal numbers
// that exception can never apply (the unit in the last place is far below a
// tenth of the leading digit), so only subnormals take the slow path. Java 17
// used an older algorithm that occasionally printed one digit too many; we do
// not reproduce that.
//
// Layout: values in [1e-3, 1e7) print as plain decimals with at least one
// fractional digit ("100.0", "0.001"); others in computerized scientific
// notation, "1.0E20", "1.234E-5". NaN, Infinity, -Infinity, 0.0 and -0.0 are
// spelled as Java spells them.

// AppendFloat64 appends Java's Double.toString(v).
func AppendFloat64(dst []byte, v float64) []byte { return appendJavaFloat(dst, v, 64) }

// AppendFloat32 appends Java's Float.toString(v).
func AppendFloat32(dst []byte, v float32) []byte { return appendJavaFloat(dst, float64(v), 32) }

func appendJavaFloat(dst []byte, v float64, bitSize int) []byte {
	switch {
	case v != v:
		return append(dst, "NaN"...)
	case math.IsInf(v, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(v, -1):
		return append(dst, "-Infinity"...)
	case v == 0:
		if math.Signbit(v) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	if v < 0 {
		dst = append(dst, '-')
		v = -v
	}
	var buf [32]byte
	digits, e := javaDigits(buf[:0], v, bitSize)
	if e >= -3 && e < 7 {
		if e >= 0 {
			if len(digits) <= e+1 {
				dst = append(dst, digits...)
				for i := len(digits); i <= e; i++ {
					dst = append(dst, '0')
				}
				return append(dst, '.', '0')
			}
			dst = append(dst, digits[:e+1]...)
			dst = append(dst, '.')
			return append(dst, digits[e+1:]...)
		}
		dst = append(dst, '0', '.')
		for i := -1; i > e; i-- {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	}
	dst = append(dst, digits[0], '.')
	if len(digits) == 1 {
		dst = append(dst, '0')
	} else {
		dst = append(dst, digits[1:]...)
	}
	dst = append(dst, 'E')
	return strconv.AppendInt(dst, int64(e), 10)
}

// javaDigits returns the significant digits Java prints for v > 0 (finite)
// and the decimal exponent e such that v ≈ d1.d2d3... × 10^e. digits is
// built in buf.
func javaDigits(buf []byte, v float64, bitSize int) (digits []byte, e int) {
	b := strconv.AppendFloat(buf, v, 'e', -1, bitSize) // "d.ddde±XX" or "de±XX"
	digits, e = splitExp(b)
	if len(digits) == 1 && isSubnormal(v, bitSize) {
		return twoDigitRule(buf, v, bitSize, digits, e)
	}
	return digits, e
}

// splitExp turns strconv's 'e' output into digits (compacted in place) and
// the exponent.
func splitExp(b []byte) ([]byte, int) {
	i := 0
	for i < len(b) && b[i] != 'e' {
		i++
	}
	e, neg := 0, false
	for _, c := range b[i+1:] {
		switch {
		case c == '-':
			neg = true
		case c >= '0' && c <= '9':
			e = e*10 + int(c-'0')
		}
	}
	if neg {
		e = -e
	}
	n := 0
	for j := 0; j < i; j++ {
		if b[j] != '.' {
			b[n] = b[j]
			n++
		}
	}
	return b[:n], e
}

func isSubnormal(v float64, bitSize int) bool {
	if bitSize == 32 {
		return float32(v) < 0x1p-126
	}
	return v < 0x1p-1022
}

// twoDigitRule picks, among the one- and two-digit decimals that round to v,
// the one closest to v (ties to an even last digit). Subnormals only; slow.
func twoDigitRule(buf []byte, v float64, bitSize int, one []byte, e int) ([]byte, int) {
	exact := new(big.Rat).SetFloat64(v)
	best := new(big.Rat)
	bestDist := new(big.Rat)
	bestD, bestE, found := 0, 0, false
	try := func(d, exp int) { // candidate d × 10^exp
		s := strconv.Itoa(d) + "e" + strconv.Itoa(exp)
		f, err := strconv.ParseFloat(s, bitSize)
		if err != nil || f != v {
			return
		}
		c, _ := new(big.Rat).SetString(s)
		dist := new(big.Rat).Sub(c, exact)
		dist.Abs(dist)
		cmp := 1
		if found {
			cmp = bestDist.Cmp(dist)
		}
		if !found || cmp > 0 || (cmp == 0 && d%2 == 0) {
			best.Set(c)
			bestDist.Set(dist)
			bestD, bestE, found = d, exp, true
		}
	}
	try(int(one[0]-'0'), e)
	for ee := e - 2; ee <= e; ee++ {
		for d := 10; d <= 99; d++ {
			try(d, ee)
		}
	}
	if !found {
		return one, e
	}
	for bestD%10 == 0 && bestD >= 10 {
		bestD /= 10
		bestE++
	}
	digits := strconv.AppendInt(buf[:0], int64(bestD), 10)
	return digits, bestE + len(digits) - 1
}
