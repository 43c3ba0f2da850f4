package sqlfn

import (
	"math"
	"strconv"
	"strings"
)

// Casts with Spark's ANSI rules (Cast.scala, UTF8String.java, numerics.scala).

// isSparkSpace is UTF8String.isWhitespaceOrISOControl applied to a byte,
// as Spark's trimAll and toLong do: Java sign-extends the byte, so only
// ASCII counts: 0x00-0x20 and 0x7F.
func isSparkSpace(c byte) bool { return c <= ' ' || c == 0x7f }

// trimAll is UTF8String.trimAll.
func trimAll(s string) string {
	i, j := 0, len(s)
	for i < j && isSparkSpace(s[i]) {
		i++
	}
	for j > i && isSparkSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// parseLongExact is UTF8String.toLong(_, allowDecimal = false): trimmed,
// optional sign, ASCII digits only, no decimal point, no overflow.
func parseLongExact(s string) (int64, bool) {
	t := trimAll(s)
	if len(t) == 0 {
		return 0, false
	}
	neg := t[0] == '-'
	if neg || t[0] == '+' {
		t = t[1:]
		if len(t) == 0 {
			return 0, false
		}
	}
	// Accumulate negatively, as Spark does, so MinInt64 parses.
	var r int64
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if r < math.MinInt64/10 {
			return 0, false
		}
		r = r*10 - int64(c-'0')
		if r > 0 {
			return 0, false
		}
	}
	if !neg {
		r = -r
		if r < 0 {
			return 0, false
		}
	}
	return r, true
}

// CastStringToInt64 is CAST(string AS BIGINT) under ANSI. Surrounding
// whitespace and ASCII control characters are ignored; anything but
// [+-]digits, including a decimal point or a value out of range, is
// CAST_INVALID_INPUT (Spark's toLongExact fails either way, so out-of-range
// strings are not CAST_OVERFLOW).
func CastStringToInt64(s string) (int64, *Error) {
	v, ok := parseLongExact(s)
	if !ok {
		return 0, ErrCastInvalidInput(s, TypeBigint)
	}
	return v, nil
}

// CastStringToInt32 is CAST(string AS INT) under ANSI (see CastStringToInt64).
func CastStringToInt32(s string) (int32, *Error) {
	v, ok := parseLongExact(s)
	if !ok || v != int64(int32(v)) {
		return 0, ErrCastInvalidInput(s, TypeInt)
	}
	return int32(v), nil
}

// CastStringToInt16 is CAST(string AS SMALLINT) under ANSI.
func CastStringToInt16(s string) (int16, *Error) {
	v, ok := parseLongExact(s)
	if !ok || v != int64(int16(v)) {
		return 0, ErrCastInvalidInput(s, TypeSmallint)
	}
	return int16(v), nil
}

// CastStringToInt8 is CAST(string AS TINYINT) under ANSI.
func CastStringToInt8(s string) (int8, *Error) {
	v, ok := parseLongExact(s)
	if !ok || v != int64(int8(v)) {
		return 0, ErrCastInvalidInput(s, TypeTinyint)
	}
	return int8(v), nil
}

// CastStringToBool is CAST(string AS BOOLEAN) under ANSI: after trimAll,
// case-insensitively t, true, y, yes, 1 are true and f, false, n, no, 0 are
// false (StringUtils.isTrueString / isFalseString); anything else is
// CAST_INVALID_INPUT.
func CastStringToBool(s string) (bool, *Error) {
	t := trimAll(s)
	if len(t) <= 5 {
		var b [5]byte
		for i := 0; i < len(t); i++ {
			c := t[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b[i] = c
		}
		switch string(b[:len(t)]) {
		case "t", "true", "y", "yes", "1":
			return true, nil
		case "f", "false", "n", "no", "0":
			return false, nil
		}
	}
	return false, ErrCastInvalidInput(s, TypeBoolean)
}

// validJavaFloat reports whether t is a literal Java's Double.parseDouble
// accepts (after its String.trim): [+-] then NaN, Infinity, a decimal with
// optional exponent, or a hexadecimal float with a binary exponent, then an
// optional f/F/d/D suffix (not after NaN/Infinity). It returns the part Go's
// strconv.ParseFloat should read.
func validJavaFloat(t string) (string, bool) {
	i, n := 0, len(t)
	if i < n && (t[i] == '+' || t[i] == '-') {
		i++
	}
	rest := t[i:]
	if rest == "NaN" || rest == "Infinity" {
		return t, true
	}
	if n > i && (t[n-1] == 'f' || t[n-1] == 'F' || t[n-1] == 'd' || t[n-1] == 'D') {
		n--
		t = t[:n]
	}
	if n-i > 2 && t[i] == '0' && (t[i+1] == 'x' || t[i+1] == 'X') {
		j := i + 2
		digits := 0
		for j < n && isHex(t[j]) {
			j++
			digits++
		}
		if j < n && t[j] == '.' {
			j++
			for j < n && isHex(t[j]) {
				j++
				digits++
			}
		}
		if digits == 0 || j >= n || (t[j] != 'p' && t[j] != 'P') {
			return "", false
		}
		j++
		if j < n && (t[j] == '+' || t[j] == '-') {
			j++
		}
		if j == n {
			return "", false
		}
		for j < n && isDigit(t[j]) {
			j++
		}
		return t, j == n
	}
	j, digits := i, 0
	for j < n && isDigit(t[j]) {
		j++
		digits++
	}
	if j < n && t[j] == '.' {
		j++
		for j < n && isDigit(t[j]) {
			j++
			digits++
		}
	}
	if digits == 0 {
		return "", false
	}
	if j < n && (t[j] == 'e' || t[j] == 'E') {
		j++
		if j < n && (t[j] == '+' || t[j] == '-') {
			j++
		}
		if j == n {
			return "", false
		}
		for j < n && isDigit(t[j]) {
			j++
		}
	}
	return t, j == n
}

func isHex(c byte) bool { return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F') }

// specialFloat is Cast.processFloatingPointSpecialLiterals: after trim,
// case-insensitive inf, +inf, infinity, +infinity, -inf, -infinity, nan.
func specialFloat(t string) (float64, bool) {
	if len(t) > 9 {
		return 0, false
	}
	var b [9]byte
	for i := 0; i < len(t); i++ {
		c := t[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	switch string(b[:len(t)]) {
	case "inf", "+inf", "infinity", "+infinity":
		return math.Inf(1), true
	case "-inf", "-infinity":
		return math.Inf(-1), true
	case "nan":
		return math.NaN(), true
	}
	return 0, false
}

func parseJavaFloat(s string, bitSize int) (float64, bool) {
	t := javaTrim(s)
	if g, ok := validJavaFloat(t); ok {
		switch strings.TrimLeft(g, "+-") {
		case "NaN":
			return math.NaN(), true
		case "Infinity":
			if g[0] == '-' {
				return math.Inf(-1), true
			}
			return math.Inf(1), true
		}
		// Out-of-range literals give ±Inf or 0 with ErrRange, like Java.
		f, _ := strconv.ParseFloat(g, bitSize)
		return f, true
	}
	return specialFloat(t)
}

// CastStringToFloat64 is CAST(string AS DOUBLE) under ANSI: Java's
// Double.parseDouble (decimal or hex literal, NaN, Infinity, optional d/f
// suffix, surrounding chars <= ' ' ignored), then Spark's special literals
// (inf, infinity, nan, any case); otherwise CAST_INVALID_INPUT.
func CastStringToFloat64(s string) (float64, *Error) {
	f, ok := parseJavaFloat(s, 64)
	if !ok {
		return 0, ErrCastInvalidInput(s, TypeDouble)
	}
	return f, nil
}

// CastStringToFloat32 is CAST(string AS FLOAT) under ANSI (Float.parseFloat,
// rounded once to float32).
func CastStringToFloat32(s string) (float32, *Error) {
	f, ok := parseJavaFloat(s, 32)
	if !ok {
		return 0, ErrCastInvalidInput(s, TypeFloat)
	}
	return float32(f), nil
}

// CastInt64ToInt32 is CAST(bigint AS INT) under ANSI: CAST_OVERFLOW when out
// of range.
func CastInt64ToInt32(v int64) (int32, *Error) {
	if v != int64(int32(v)) {
		return 0, errCastIntOverflow(v, "L", TypeBigint, TypeInt)
	}
	return int32(v), nil
}

// CastInt64ToInt16 is CAST(bigint AS SMALLINT) under ANSI.
func CastInt64ToInt16(v int64) (int16, *Error) {
	if v != int64(int16(v)) {
		return 0, errCastIntOverflow(v, "L", TypeBigint, TypeSmallint)
	}
	return int16(v), nil
}

// CastInt64ToInt8 is CAST(bigint AS TINYINT) under ANSI.
func CastInt64ToInt8(v int64) (int8, *Error) {
	if v != int64(int8(v)) {
		return 0, errCastIntOverflow(v, "L", TypeBigint, TypeTinyint)
	}
	return int8(v), nil
}

// CastInt32ToInt16 is CAST(int AS SMALLINT) under ANSI.
func CastInt32ToInt16(v int32) (int16, *Error) {
	if v != int32(int16(v)) {
		return 0, errCastIntOverflow(int64(v), "", TypeInt, TypeSmallint)
	}
	return int16(v), nil
}

// CastInt32ToInt8 is CAST(int AS TINYINT) under ANSI.
func CastInt32ToInt8(v int32) (int8, *Error) {
	if v != int32(int8(v)) {
		return 0, errCastIntOverflow(int64(v), "", TypeInt, TypeTinyint)
	}
	return int8(v), nil
}

// CastInt16ToInt8 is CAST(smallint AS TINYINT) under ANSI.
func CastInt16ToInt8(v int16) (int8, *Error) {
	if v != int16(int8(v)) {
		return 0, errCastIntOverflow(int64(v), "S", TypeSmallint, TypeTinyint)
	}
	return int8(v), nil
}

// Float to integer casts truncate toward zero. Spark checks
// floor(x) <= Max && ceil(x) >= Min with the bounds converted to double, so
// NaN and infinities are CAST_OVERFLOW, and for BIGINT the bound is 2^63:
// 9.223372036854775807E18 itself passes and saturates to Long.MaxValue
// (Java's (long) cast), a quirk kept here (numerics.scala DoubleExactNumeric).

// CastFloat64ToInt64 is CAST(double AS BIGINT) under ANSI.
func CastFloat64ToInt64(x float64) (int64, *Error) {
	if math.Floor(x) <= 0x1p63 && math.Ceil(x) >= -0x1p63 {
		return javaD2L(x), nil
	}
	return 0, errCastFloatOverflow(x, false, TypeBigint)
}

// CastFloat64ToInt32 is CAST(double AS INT) under ANSI.
func CastFloat64ToInt32(x float64) (int32, *Error) {
	if math.Floor(x) <= math.MaxInt32 && math.Ceil(x) >= math.MinInt32 {
		return int32(x), nil
	}
	return 0, errCastFloatOverflow(x, false, TypeInt)
}

// CastFloat64ToInt16 is CAST(double AS SMALLINT) under ANSI (via INT, then
// range-checked, as Spark does).
func CastFloat64ToInt16(x float64) (int16, *Error) {
	if math.Floor(x) <= math.MaxInt32 && math.Ceil(x) >= math.MinInt32 {
		if i := int32(x); i == int32(int16(i)) {
			return int16(i), nil
		}
	}
	return 0, errCastFloatOverflow(x, false, TypeSmallint)
}

// CastFloat64ToInt8 is CAST(double AS TINYINT) under ANSI.
func CastFloat64ToInt8(x float64) (int8, *Error) {
	if math.Floor(x) <= math.MaxInt32 && math.Ceil(x) >= math.MinInt32 {
		if i := int32(x); i == int32(int8(i)) {
			return int8(i), nil
		}
	}
	return 0, errCastFloatOverflow(x, false, TypeTinyint)
}

// CastFloat32ToInt64 is CAST(float AS BIGINT) under ANSI.
func CastFloat32ToInt64(f float32) (int64, *Error) {
	x := float64(f)
	if math.Floor(x) <= 0x1p63 && math.Ceil(x) >= -0x1p63 {
		return javaD2L(x), nil
	}
	return 0, errCastFloatOverflow(x, true, TypeBigint)
}

// CastFloat32ToInt32 is CAST(float AS INT) under ANSI.
func CastFloat32ToInt32(f float32) (int32, *Error) {
	x := float64(f)
	if math.Floor(x) <= math.MaxInt32 && math.Ceil(x) >= math.MinInt32 {
		return int32(x), nil
	}
	return 0, errCastFloatOverflow(x, true, TypeInt)
}

// CastFloat32ToInt16 is CAST(float AS SMALLINT) under ANSI.
func CastFloat32ToInt16(f float32) (int16, *Error) {
	x := float64(f)
	if math.Floor(x) <= math.MaxInt32 && math.Ceil(x) >= math.MinInt32 {
		if i := int32(x); i == int32(int16(i)) {
			return int16(i), nil
		}
	}
	return 0, errCastFloatOverflow(x, true, TypeSmallint)
}

// CastFloat32ToInt8 is CAST(float AS TINYINT) under ANSI.
func CastFloat32ToInt8(f float32) (int8, *Error) {
	x := float64(f)
	if math.Floor(x) <= math.MaxInt32 && math.Ceil(x) >= math.MinInt32 {
		if i := int32(x); i == int32(int8(i)) {
			return int8(i), nil
		}
	}
	return 0, errCastFloatOverflow(x, true, TypeTinyint)
}

// javaD2L is Java's (long) conversion: truncation, NaN to 0, saturating.
func javaD2L(x float64) int64 {
	switch {
	case x != x:
		return 0
	case x >= 0x1p63:
		return math.MaxInt64
	case x <= -0x1p63:
		return math.MinInt64
	}
	return int64(x)
}

// AppendInt64 appends the decimal form of v (CAST(integer AS STRING)).
func AppendInt64(dst []byte, v int64) []byte { return strconv.AppendInt(dst, v, 10) }

// AppendBool appends "true" or "false" (CAST(boolean AS STRING)).
func AppendBool(dst []byte, v bool) []byte {
	if v {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}

// Number is every Arrow numeric width: the integers and both floats.
type Number interface {
	Integer | ~float32 | ~float64
}

// BoolTo is CAST(boolean AS number): 1 for true, 0 for false.
func BoolTo[T Number](b bool) T {
	if b {
		return 1
	}
	return 0
}

// CastInt is CAST(v AS T) between integer widths, signed or unsigned, that
// must keep the value: CAST_OVERFLOW (naming the SQL types from and to)
// when T cannot hold v. It serves the unsigned widths, which have no
// CastInt64ToInt32-style cast of their own.
func CastInt[T, F Integer](v F, from, to string) (T, *Error) {
	r := T(v)
	if F(r) != v || (r < 0) != (v < 0) {
		return 0, errCastIntegerOverflow(v, from, to)
	}
	return r, nil
}

//go:noinline
func errCastIntegerOverflow[F Integer](v F, from, to string) *Error {
	s := strconv.FormatUint(uint64(v), 10)
	if v < 0 {
		s = strconv.FormatInt(int64(v), 10)
	}
	return ErrCastOverflow(s, from, to)
}
