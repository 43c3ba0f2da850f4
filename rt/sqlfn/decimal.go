package sqlfn

import (
	"math"
	"math/bits"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// DECIMAL values are decimal128.Num unscaled integers; precision and scale
// are static (the column type) and passed as arguments. Scales are 0..38
// (Spark forbids negative scales by default), precisions 1..38.
//
// Result types follow Spark's DecimalPrecision rules with
// spark.sql.decimalOperations.allowPrecisionLoss=true (the default); see the
// Decimal*Type functions, which the compiler's typing pass must agree with.
//
// Values follow Spark's Decimal arithmetic (sql/api/.../types/Decimal.scala):
//   - + and -: exact, then rounded HALF_UP to the result scale;
//   - *: BigDecimal.multiply with MathContext(38, HALF_UP), so a product of
//     more than 38 significant digits is first rounded to 38, then rounded
//     HALF_UP again to the result scale (the double rounding is Spark's);
//   - /: BigDecimal.divide(_, scale 38, HALF_UP), then HALF_UP to the
//     result scale (again two roundings);
//   - %: BigDecimal.remainder, exact (sign of the dividend);
//   - a result that does not fit decimal(p,s) is
//     NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION (ANSI), naming the
//     unrounded intermediate as Spark does.

// MaxDecimalPrecision is Spark's (and Arrow decimal128's) maximum precision.
const MaxDecimalPrecision = 38

// minAdjustedScale is DecimalType.MINIMUM_ADJUSTED_SCALE.
const minAdjustedScale = 6

// DecimalAdjust is DecimalType.adjustPrecisionScale: a type wider than 38
// digits is capped at 38, giving up fractional digits but keeping at least
// min(s, 6) of them.
func DecimalAdjust(p, s int32) (int32, int32) {
	if p <= MaxDecimalPrecision {
		return p, s
	}
	if s < 0 {
		return MaxDecimalPrecision, s
	}
	intDigits := p - s
	minScale := min(s, minAdjustedScale)
	return MaxDecimalPrecision, max(MaxDecimalPrecision-intDigits, minScale)
}

// DecimalBounded is DecimalType.bounded: both capped at 38.
func DecimalBounded(p, s int32) (int32, int32) {
	return min(p, MaxDecimalPrecision), min(s, MaxDecimalPrecision)
}

// DecimalAddType is the result type of decimal(p1,s1) + decimal(p2,s2):
// scale max(s1,s2), precision max(p1-s1,p2-s2)+scale+1, adjusted.
func DecimalAddType(p1, s1, p2, s2 int32) (int32, int32) {
	s := max(s1, s2)
	return DecimalAdjust(max(p1-s1, p2-s2)+s+1, s)
}

// DecimalSubType is the result type of a - b (same rule as +).
func DecimalSubType(p1, s1, p2, s2 int32) (int32, int32) { return DecimalAddType(p1, s1, p2, s2) }

// DecimalMulType is the result type of a * b: decimal(p1+p2+1, s1+s2), adjusted.
func DecimalMulType(p1, s1, p2, s2 int32) (int32, int32) {
	return DecimalAdjust(p1+p2+1, s1+s2)
}

// DecimalDivType is the result type of a / b: scale max(6, s1+p2+1),
// precision p1-s1+s2+scale, adjusted.
func DecimalDivType(p1, s1, p2, s2 int32) (int32, int32) {
	s := max(minAdjustedScale, s1+p2+1)
	return DecimalAdjust(p1-s1+s2+s, s)
}

// DecimalModType is the result type of a % b and pmod(a, b): scale
// max(s1,s2), precision min(p1-s1,p2-s2)+scale, adjusted.
func DecimalModType(p1, s1, p2, s2 int32) (int32, int32) {
	s := max(s1, s2)
	return DecimalAdjust(min(p1-s1, p2-s2)+s, s)
}

// DecimalRoundType is the result type of round(decimal(p,s), d) (RoundBase):
// one more integral digit for the carry; scale min(s, d), or 0 when d < 0.
func DecimalRoundType(p, s, d int32) (int32, int32) {
	integral := p - s + 1
	if d < 0 {
		return min(max(integral, -d+1), MaxDecimalPrecision), 0
	}
	ns := min(s, d)
	return min(integral+ns, MaxDecimalPrecision), ns
}

// DecimalFloorType is the result type of floor/ceil(decimal(p,s)):
// unchanged for s == 0, else decimal(min(p-s+1, 38), 0).
func DecimalFloorType(p, s int32) (int32, int32) {
	if s == 0 {
		return p, 0
	}
	return DecimalBounded(p-s+1, 0)
}

// DecimalTypeOfInt is the decimal type Spark widens an integer of the given
// bit size to in decimal arithmetic: TINYINT (3,0), SMALLINT (5,0), INT
// (10,0), BIGINT (20,0).
func DecimalTypeOfInt(bitSize int) (int32, int32) {
	switch bitSize {
	case 8:
		return 3, 0
	case 16:
		return 5, 0
	case 32:
		return 10, 0
	}
	return 20, 0
}

// wdec is an exact intermediate decimal: sign, magnitude and scale.
type wdec struct {
	mag   wide
	neg   bool
	scale int32
}

func toWdec(v decimal128.Num, s int32) wdec {
	hi, lo, neg := absNum(v)
	return wdec{mag: wideFromU128(hi, lo), neg: neg, scale: s}
}

// finish is Decimal.toPrecision(p, s, HALF_UP, nullOnOverflow = false).
func finish(x *wdec, p, s int32) (decimal128.Num, *Error) {
	m := x.mag
	switch {
	case s < x.scale:
		m.divPow10HalfUp(int(x.scale - s))
	case s > x.scale:
		if m.mulPow10(int(s - x.scale)) {
			return decimal128.Num{}, errDecimalRange(x, p, s)
		}
	}
	if !m.lessPow10(p) {
		return decimal128.Num{}, errDecimalRange(x, p, s)
	}
	return numFromAbs(m.w[1], m.w[0], x.neg && !m.isZero()), nil
}

//go:noinline
func errDecimalRange(x *wdec, p, s int32) *Error {
	return ErrNumericValueOutOfRange(string(appendWdec(nil, x)), p, s)
}

// appendWdec appends x as BigDecimal.toPlainString would.
func appendWdec(dst []byte, x *wdec) []byte {
	var digits []byte
	m := x.mag
	for !m.isZero() {
		r := m.divWord(1e19)
		var chunk [19]byte
		for i := 18; i >= 0; i-- {
			chunk[i] = byte('0' + r%10)
			r /= 10
		}
		digits = append(chunk[:], digits...)
	}
	for len(digits) > 1 && digits[0] == '0' {
		digits = digits[1:]
	}
	if len(digits) == 0 {
		digits = []byte{'0'}
	}
	if x.neg && !x.mag.isZero() {
		dst = append(dst, '-')
	}
	return appendPlain(dst, digits, int(x.scale))
}

// appendPlain writes unscaled digits (no sign, no leading zeros) at scale.
func appendPlain(dst, digits []byte, scale int) []byte {
	switch {
	case scale <= 0:
		dst = append(dst, digits...)
		for i := 0; i < -scale; i++ {
			dst = append(dst, '0')
		}
	case len(digits) > scale:
		dst = append(dst, digits[:len(digits)-scale]...)
		dst = append(dst, '.')
		dst = append(dst, digits[len(digits)-scale:]...)
	default:
		dst = append(dst, '0', '.')
		for i := len(digits); i < scale; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, digits...)
	}
	return dst
}

// DecimalAdd is a + b for a decimal(_, sa) and b decimal(_, sb), giving
// decimal(p, s) (normally DecimalAddType).
func DecimalAdd(a decimal128.Num, sa int32, b decimal128.Num, sb int32, p, s int32) (decimal128.Num, *Error) {
	if sa == s && sb == s { // fast path: both unscaled values fit in int64
		x, y := int64(a.LowBits()), int64(b.LowBits())
		if a.HighBits() == x>>63 && b.HighBits() == y>>63 {
			c := x + y
			if (c^x)&(c^y) >= 0 && (p > 18 || (c < pow10i64[p] && c > -pow10i64[p])) {
				return decimal128.New(c>>63, uint64(c)), nil
			}
		}
	}
	return decimalAddSlow(a, sa, b, sb, false, p, s)
}

// DecimalSub is a - b (see DecimalAdd).
func DecimalSub(a decimal128.Num, sa int32, b decimal128.Num, sb int32, p, s int32) (decimal128.Num, *Error) {
	if sa == s && sb == s {
		x, y := int64(a.LowBits()), int64(b.LowBits())
		if a.HighBits() == x>>63 && b.HighBits() == y>>63 {
			c := x - y
			if (x^y)&(c^x) >= 0 && (p > 18 || (c < pow10i64[p] && c > -pow10i64[p])) {
				return decimal128.New(c>>63, uint64(c)), nil
			}
		}
	}
	return decimalAddSlow(a, sa, b, sb, true, p, s)
}

var pow10i64 = [19]int64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

func decimalAddSlow(a decimal128.Num, sa int32, b decimal128.Num, sb int32, sub bool, p, s int32) (decimal128.Num, *Error) {
	if r, ok := addU128(a, sa, b, sb, sub, p, s); ok {
		return r, nil
	}
	x, y := toWdec(a, sa), toWdec(b, sb)
	if sub {
		y.neg = !y.neg
	}
	m := max(sa, sb)
	x.mag.mulPow10(int(m - sa))
	y.mag.mulPow10(int(m - sb))
	x.scale, y.scale = m, m
	r := addWdec(&x, &y)
	return finish(&r, p, s)
}

// addU128 is the common case of decimalAddSlow in 128-bit arithmetic: the
// aligned operands and their sum fit in 128 bits and at most 19 digits are
// rounded off (for operands already at the result scale the sum cannot
// leave 128 bits, since both are below 10^38). ok is false when the wide
// path must decide (or report).
func addU128(a decimal128.Num, sa int32, b decimal128.Num, sb int32, sub bool, p, s int32) (decimal128.Num, bool) {
	m := max(sa, sb)
	if m-s > 19 {
		return decimal128.Num{}, false
	}
	ah, al, an := absNum(a)
	bh, bl, bn := absNum(b)
	bn = bn != sub
	ah, al, ok1 := mulPow10U128(ah, al, m-sa)
	bh, bl, ok2 := mulPow10U128(bh, bl, m-sb)
	if !ok1 || !ok2 {
		return decimal128.Num{}, false
	}
	var rh, rl uint64
	neg := an
	if an == bn {
		var c uint64
		rl, c = bits.Add64(al, bl, 0)
		rh, c = bits.Add64(ah, bh, c)
		if c != 0 {
			return decimal128.Num{}, false
		}
	} else if ah > bh || (ah == bh && al >= bl) {
		var c uint64
		rl, c = bits.Sub64(al, bl, 0)
		rh, _ = bits.Sub64(ah, bh, c)
	} else {
		var c uint64
		rl, c = bits.Sub64(bl, al, 0)
		rh, _ = bits.Sub64(bh, ah, c)
		neg = bn
	}
	if s > m {
		var ok bool
		if rh, rl, ok = mulPow10U128(rh, rl, s-m); !ok {
			return decimal128.Num{}, false
		}
	} else if k := m - s; k > 0 { // HALF_UP to scale s
		d := pow10u64[k]
		var r uint64
		rh, r = bits.Div64(0, rh, d)
		rl, r = bits.Div64(r, rl, d)
		if r >= d/2 {
			var c uint64
			rl, c = bits.Add64(rl, 1, 0)
			rh += c
		}
	}
	if !magLessPow10(rh, rl, p) {
		return decimal128.Num{}, false
	}
	return numFromAbs(rh, rl, neg && rh|rl != 0), true
}

// addWdec adds two intermediates of equal scale.
func addWdec(x, y *wdec) wdec {
	r := wdec{scale: x.scale}
	switch {
	case x.neg == y.neg:
		r.mag = x.mag
		r.mag.add(&y.mag)
		r.neg = x.neg
	case x.mag.cmp(&y.mag) >= 0:
		r.mag = x.mag
		r.mag.sub(&y.mag)
		r.neg = x.neg
	default:
		r.mag = y.mag
		r.mag.sub(&x.mag)
		r.neg = y.neg
	}
	return r
}

// mul128 is the full 256-bit product of two 128-bit magnitudes.
func mul128(ah, al, bh, bl uint64) wide {
	var x wide
	h0, l0 := bits.Mul64(al, bl)
	h1, l1 := bits.Mul64(al, bh)
	h2, l2 := bits.Mul64(ah, bl)
	h3, l3 := bits.Mul64(ah, bh)
	x.w[0] = l0
	w1, c1 := bits.Add64(h0, l1, 0)
	w1, c2 := bits.Add64(w1, l2, 0)
	x.w[1] = w1
	w2, c3 := bits.Add64(h1, h2, c1)
	w2, c4 := bits.Add64(w2, l3, c2)
	x.w[2] = w2
	x.w[3] = h3 + c3 + c4
	return x
}

// DecimalMul is a * b giving decimal(p, s) (normally DecimalMulType).
func DecimalMul(a decimal128.Num, sa int32, b decimal128.Num, sb int32, p, s int32) (decimal128.Num, *Error) {
	ah, al, an := absNum(a)
	bh, bl, bn := absNum(b)
	if ah == 0 && bh == 0 && s == sa+sb {
		ph, pl := bits.Mul64(al, bl)
		if magLessPow10(ph, pl, p) { // < 10^38: MathContext(38) does not round
			return numFromAbs(ph, pl, an != bn && ph|pl != 0), nil
		}
	}
	x := wdec{mag: mul128(ah, al, bh, bl), neg: an != bn, scale: sa + sb}
	if n := x.mag.numDigits(); n > MaxDecimalPrecision {
		k := n - MaxDecimalPrecision
		x.mag.divPow10HalfUp(k)
		x.scale -= int32(k)
	}
	return finish(&x, p, s)
}

// DecimalDiv is a / b giving decimal(p, s) (normally DecimalDivType);
// DIVIDE_BY_ZERO when b is 0.
func DecimalDiv(a decimal128.Num, sa int32, b decimal128.Num, sb int32, p, s int32) (decimal128.Num, *Error) {
	bh, bl, bn := absNum(b)
	if bh|bl == 0 {
		return decimal128.Num{}, ErrDivideByZero()
	}
	ah, al, an := absNum(a)
	// quotient at scale 38: |a|·10^(38+sb-sa) / |b|, rounded HALF_UP.
	n := wideFromU128(ah, al)
	n.mulPow10(int(MaxDecimalPrecision + sb - sa))
	d := wideFromU128(bh, bl)
	x := wdec{mag: divHalfUp(&n, &d), neg: an != bn, scale: MaxDecimalPrecision}
	return finish(&x, p, s)
}

// DecimalDivScale is a / b rounded HALF_UP once, at scale s (Java's
// BigDecimal.divide(b, s, HALF_UP)), as decimal(p, s): Spark's
// DecimalDivideWithOverflowCheck, which avg uses to divide a decimal sum by
// its count (Spark 4.1.4 and 4.2.1), unlike / (DecimalDiv), which rounds at
// scale 38 first. DIVIDE_BY_ZERO when b is 0.
func DecimalDivScale(a decimal128.Num, sa int32, b decimal128.Num, sb int32, p, s int32) (decimal128.Num, *Error) {
	bh, bl, bn := absNum(b)
	if bh|bl == 0 {
		return decimal128.Num{}, ErrDivideByZero()
	}
	ah, al, an := absNum(a)
	n, d := wideFromU128(ah, al), wideFromU128(bh, bl)
	if k := s + sb - sa; k >= 0 {
		n.mulPow10(int(k))
	} else {
		d.mulPow10(int(-k))
	}
	x := wdec{mag: divHalfUp(&n, &d), neg: an != bn, scale: s}
	return finish(&x, p, s)
}

// decimalRem is the exact remainder a % b (sign of a) at scale max(sa, sb).
func decimalRem(a decimal128.Num, sa int32, b decimal128.Num, sb int32) wdec {
	x, y := toWdec(a, sa), toWdec(b, sb)
	m := max(sa, sb)
	x.mag.mulPow10(int(m - sa))
	y.mag.mulPow10(int(m - sb))
	_, r := divmod(&x.mag, &y.mag)
	return wdec{mag: r, neg: x.neg && !r.isZero(), scale: m}
}

// DecimalMod is a % b giving decimal(p, s) (normally DecimalModType);
// REMAINDER_BY_ZERO when b is 0.
func DecimalMod(a decimal128.Num, sa int32, b decimal128.Num, sb int32, p, s int32) (decimal128.Num, *Error) {
	if b == (decimal128.Num{}) {
		return decimal128.Num{}, ErrRemainderByZero()
	}
	if sa == sb && sa == s {
		ah, al, an := absNum(a)
		bh, bl, _ := absNum(b)
		if ah == 0 && bh == 0 {
			r := al % bl
			if magLessPow10(0, r, p) {
				return numFromAbs(0, r, an && r != 0), nil
			}
		}
	}
	r := decimalRem(a, sa, b, sb)
	return finish(&r, p, s)
}

// DecimalPmod is pmod(a, n): r = a % n; if r < 0 then (r + n) % n.
func DecimalPmod(a decimal128.Num, sa int32, n decimal128.Num, sn int32, p, s int32) (decimal128.Num, *Error) {
	if n == (decimal128.Num{}) {
		return decimal128.Num{}, ErrRemainderByZero()
	}
	r := decimalRem(a, sa, n, sn)
	if r.neg {
		y := toWdec(n, sn)
		y.mag.mulPow10(int(r.scale - sn))
		y.scale = r.scale
		t := addWdec(&r, &y)
		_, m := divmod(&t.mag, &y.mag)
		r = wdec{mag: m, neg: t.neg && !m.isZero(), scale: r.scale}
	}
	return finish(&r, p, s)
}

// DecimalNeg is -a (never overflows: the range is symmetric).
func DecimalNeg(a decimal128.Num) decimal128.Num { return a.Negate() }

// DecimalAbs is abs(a).
func DecimalAbs(a decimal128.Num) decimal128.Num {
	if a.Sign() < 0 {
		return a.Negate()
	}
	return a
}

// DecimalCmp compares a decimal(_, sa) with b decimal(_, sb) by value:
// -1, 0 or +1.
func DecimalCmp(a decimal128.Num, sa int32, b decimal128.Num, sb int32) int {
	if sa == sb {
		return a.Cmp(b)
	}
	x, y := toWdec(a, sa), toWdec(b, sb)
	switch {
	case x.neg && !y.neg:
		return -1
	case !x.neg && y.neg:
		return 1
	}
	m := max(sa, sb)
	x.mag.mulPow10(int(m - sa))
	y.mag.mulPow10(int(m - sb))
	c := x.mag.cmp(&y.mag)
	if x.neg {
		return -c
	}
	return c
}

// DecimalRescale is CAST(decimal(_, s1) AS decimal(p2, s2)): HALF_UP, and
// NUMERIC_VALUE_OUT_OF_RANGE when it does not fit.
func DecimalRescale(v decimal128.Num, s1 int32, p2, s2 int32) (decimal128.Num, *Error) {
	if s1 == s2 {
		if hi, lo, _ := absNum(v); magLessPow10(hi, lo, p2) {
			return v, nil
		}
	}
	x := toWdec(v, s1)
	return finish(&x, p2, s2)
}

// DecimalRound is round(decimal(p,s), d) HALF_UP, giving the type
// DecimalRoundType(p, s, d) = (rp, rs).
func DecimalRound(v decimal128.Num, s int32, d int32, rp, rs int32) (decimal128.Num, *Error) {
	x := toWdec(v, s)
	if d < 0 {
		// Round to a multiple of 10^-d, then express at scale 0.
		x.mag.divPow10HalfUp(int(s - d))
		x.mag.mulPow10(int(-d))
		x.scale = 0
	}
	return finish(&x, rp, rs)
}

// DecimalFloor is floor(decimal(p,s)), giving DecimalFloorType(p, s).
func DecimalFloor(v decimal128.Num, p, s int32) (decimal128.Num, *Error) {
	return decimalToIntegral(v, p, s, false)
}

// DecimalCeil is ceil(decimal(p,s)), giving DecimalFloorType(p, s).
func DecimalCeil(v decimal128.Num, p, s int32) (decimal128.Num, *Error) {
	return decimalToIntegral(v, p, s, true)
}

func decimalToIntegral(v decimal128.Num, p, s int32, ceil bool) (decimal128.Num, *Error) {
	if s == 0 {
		return v, nil
	}
	rp, _ := DecimalFloorType(p, s)
	x := toWdec(v, s)
	m := x.mag
	var rem uint64
	if s <= 19 {
		rem = m.divWord(pow10u64[s])
	} else {
		q, r := divmod(&m, &pow10W[s])
		m = q
		if !r.isZero() {
			rem = 1
		}
	}
	// Truncation moved toward zero; floor of a negative / ceil of a positive
	// needs one more step away from zero.
	if rem != 0 && x.neg != ceil {
		m.inc()
	}
	r := wdec{mag: m, neg: x.neg, scale: 0}
	return finish(&r, rp, 0)
}

// DecimalFromInt64 is CAST(bigint AS decimal(p, s)) (and narrower ints).
func DecimalFromInt64(v int64, p, s int32) (decimal128.Num, *Error) {
	x := toWdec(decimal128.FromI64(v), 0)
	return finish(&x, p, s)
}

// decimalTrunc returns the integral part of v (truncated toward zero) as a
// magnitude, and whether it fits in 64 bits.
func decimalTrunc(v decimal128.Num, s int32) (mag uint64, neg, ok bool) {
	x := toWdec(v, s)
	m := x.mag
	if s <= 19 {
		m.divWord(pow10u64[s])
	} else {
		m, _ = divmod(&m, &pow10W[s])
	}
	return m.w[0], x.neg, m.length() <= 1
}

// DecimalToInt64 is CAST(decimal(p,s) AS BIGINT): truncates toward zero,
// CAST_OVERFLOW when out of range.
func DecimalToInt64(v decimal128.Num, p, s int32) (int64, *Error) {
	m, neg, ok := decimalTrunc(v, s)
	if ok {
		if !neg && m <= math.MaxInt64 {
			return int64(m), nil
		}
		if neg && m <= 1<<63 {
			return -int64(m), nil
		}
	}
	return 0, errCastDecimalOverflow(v, p, s, TypeBigint)
}

func decimalToSmall(v decimal128.Num, p, s int32, lim uint64, target string) (int64, *Error) {
	m, neg, ok := decimalTrunc(v, s)
	if ok && (m < lim || (neg && m == lim)) {
		if neg {
			return -int64(m), nil
		}
		return int64(m), nil
	}
	return 0, errCastDecimalOverflow(v, p, s, target)
}

// DecimalToInt32 is CAST(decimal(p,s) AS INT).
func DecimalToInt32(v decimal128.Num, p, s int32) (int32, *Error) {
	r, err := decimalToSmall(v, p, s, 1<<31, TypeInt)
	return int32(r), err
}

// DecimalToInt16 is CAST(decimal(p,s) AS SMALLINT).
func DecimalToInt16(v decimal128.Num, p, s int32) (int16, *Error) {
	r, err := decimalToSmall(v, p, s, 1<<15, TypeSmallint)
	return int16(r), err
}

// DecimalToInt8 is CAST(decimal(p,s) AS TINYINT).
func DecimalToInt8(v decimal128.Num, p, s int32) (int8, *Error) {
	r, err := decimalToSmall(v, p, s, 1<<7, TypeTinyint)
	return int8(r), err
}

var float64Pow10 = [23]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// DecimalToFloat64 is CAST(decimal(_, s) AS DOUBLE), correctly rounded as
// BigDecimal.doubleValue is.
func DecimalToFloat64(v decimal128.Num, s int32) float64 {
	hi, lo, neg := absNum(v)
	var f float64
	if hi == 0 && lo < 1<<53 && s <= 22 {
		f = float64(lo) / float64Pow10[s] // both exact: one rounding
	} else {
		var buf [48]byte
		f, _ = strconv.ParseFloat(string(AppendDecimal(buf[:0], numFromAbs(hi, lo, false), s)), 64)
	}
	if neg {
		f = -f
	}
	return f
}

// DecimalFromFloat64 is CAST(double AS decimal(p, s)): the value's Java
// Double.toString digits, rounded HALF_UP to s. NaN and infinities give
// valid == false: Spark's castToDecimal catches the NumberFormatException
// and returns NULL even under ANSI (Cast.scala, FractionalType case).
func DecimalFromFloat64(v float64, p, s int32) (d decimal128.Num, valid bool, err *Error) {
	if v != v || math.IsInf(v, 0) {
		return decimal128.Num{}, false, nil
	}
	if v == 0 {
		return decimal128.Num{}, true, nil
	}
	neg := v < 0
	var buf [32]byte
	digits, e := javaDigits(buf[:0], math.Abs(v), 64)
	var mant uint64
	for _, c := range digits {
		mant = mant*10 + uint64(c-'0')
	}
	x := wdec{mag: wideFromU128(0, mant), neg: neg, scale: int32(len(digits) - 1 - e)}
	if intDigits := e + 1; intDigits > int(p-s) {
		if x.scale < 0 { // would not fit; render like Spark without building 10^e
			return decimal128.Num{}, true, errDecimalRange(&x, p, s)
		}
	}
	d, err = finish(&x, p, s)
	return d, true, err
}

// AppendDecimal appends v at scale s as a plain decimal string (what
// CAST(decimal AS STRING) gives under ANSI: BigDecimal.toPlainString), e.g.
// "12.30" for 1230 at scale 2, "0.05", "-1".
func AppendDecimal(dst []byte, v decimal128.Num, s int32) []byte {
	hi, lo, neg := absNum(v)
	var digits [40]byte
	i := len(digits)
	for hi != 0 {
		var r uint64
		hi, r = bits.Div64(0, hi, 1e19)
		lo, r = bits.Div64(r, lo, 1e19)
		for k := 0; k < 19; k++ {
			i--
			digits[i] = byte('0' + r%10)
			r /= 10
		}
	}
	for lo != 0 || i == len(digits) {
		i--
		digits[i] = byte('0' + lo%10)
		lo /= 10
	}
	for i < len(digits)-1 && digits[i] == '0' {
		i++
	}
	if neg {
		dst = append(dst, '-')
	}
	return appendPlain(dst, digits[i:], int(s))
}

// CastStringToDecimal is CAST(string AS decimal(p, s)) under ANSI
// (Decimal.fromStringANSI then changePrecision): the string, trimmed of
// characters <= ' ' (Java String.trim), must be a java.math.BigDecimal
// literal ([+-] digits [. digits] [e[+-]digits], no NaN or Infinity), else
// CAST_INVALID_INPUT; more than 38 integral digits is
// NUMERIC_OUT_OF_SUPPORTED_RANGE; the value is rounded HALF_UP to s and
// NUMERIC_VALUE_OUT_OF_RANGE when it does not fit p.
func CastStringToDecimal(str string, p, s int32) (decimal128.Num, *Error) {
	t := javaTrim(str)
	i, n := 0, len(t)
	neg := false
	if i < n && (t[i] == '+' || t[i] == '-') {
		neg = t[i] == '-'
		i++
	}
	intStart := i
	for i < n && isDigit(t[i]) {
		i++
	}
	intEnd := i
	fracStart, fracEnd := i, i
	if i < n && t[i] == '.' {
		i++
		fracStart = i
		for i < n && isDigit(t[i]) {
			i++
		}
		fracEnd = i
	}
	if intEnd == intStart && fracEnd == fracStart {
		return decimal128.Num{}, ErrCastInvalidInput(str, DecimalTypeName(p, s))
	}
	exp := int64(0)
	if i < n && (t[i] == 'e' || t[i] == 'E') {
		i++
		eneg := false
		if i < n && (t[i] == '+' || t[i] == '-') {
			eneg = t[i] == '-'
			i++
		}
		if i == n {
			return decimal128.Num{}, ErrCastInvalidInput(str, DecimalTypeName(p, s))
		}
		for i < n && isDigit(t[i]) {
			exp = exp*10 + int64(t[i]-'0')
			if exp > math.MaxInt32 {
				return decimal128.Num{}, ErrCastInvalidInput(str, DecimalTypeName(p, s))
			}
			i++
		}
		if eneg {
			exp = -exp
		}
	}
	if i != n {
		return decimal128.Num{}, ErrCastInvalidInput(str, DecimalTypeName(p, s))
	}
	// The unscaled digits are t[intStart:intEnd] + t[fracStart:fracEnd]; the
	// BigDecimal scale is len(frac) - exp.
	dg := digitSeq{a: t[intStart:intEnd], b: t[fracStart:fracEnd]}
	lead := dg.leadingZeros()
	sig := dg.len() - lead // significant digits (0 for zero)
	scale0 := int64(fracEnd-fracStart) - exp
	if sig == 0 {
		return decimal128.Num{}, nil
	}
	if int64(sig)-scale0 > MaxDecimalPrecision {
		return decimal128.Num{}, errNumericOutOfSupportedRange(str)
	}
	// Keep the digits whose weight is >= 10^-s.
	keep := int64(sig) - (scale0 - int64(s))
	if keep > int64(p) {
		return decimal128.Num{}, errStringDecimalRange(dg, lead, neg, scale0, p, s)
	}
	var hi, lo uint64
	for k := int64(0); k < keep && k < int64(sig); k++ {
		hi, lo = mulAdd128(hi, lo, 10, uint64(dg.at(lead+int(k))-'0'))
	}
	for k := int64(sig); k < keep; k++ { // s beyond the given digits
		hi, lo = mulAdd128(hi, lo, 10, 0)
	}
	if keep >= 0 && keep < int64(sig) && dg.at(lead+int(keep)) >= '5' {
		hi, lo = mulAdd128(hi, lo, 1, 1)
	}
	if !magLessPow10(hi, lo, p) {
		return decimal128.Num{}, errStringDecimalRange(dg, lead, neg, scale0, p, s)
	}
	return numFromAbs(hi, lo, neg && hi|lo != 0), nil
}

// mulAdd128 returns (hi,lo)*m + a; the callers keep it below 10^39.
func mulAdd128(hi, lo, m, a uint64) (uint64, uint64) {
	h, l := bits.Mul64(lo, m)
	hi = hi*m + h
	var c uint64
	lo, c = bits.Add64(l, a, 0)
	return hi + c, lo
}

//go:noinline
func errStringDecimalRange(dg digitSeq, lead int, neg bool, scale0 int64, p, s int32) *Error {
	var out []byte
	if neg {
		out = append(out, '-')
	}
	var digits []byte
	for k := lead; k < dg.len(); k++ {
		digits = append(digits, dg.at(k))
	}
	// BigDecimal.toPlainString; a negative scale prints trailing zeros, as
	// Decimal.set's setScale(0) would.
	return ErrNumericValueOutOfRange(string(appendPlain(out, digits, int(scale0))), p, s)
}

// digitSeq is the concatenation of two digit strings without copying.
type digitSeq struct{ a, b string }

func (d digitSeq) len() int { return len(d.a) + len(d.b) }

func (d digitSeq) at(i int) byte {
	if i < len(d.a) {
		return d.a[i]
	}
	return d.b[i-len(d.a)]
}

func (d digitSeq) leadingZeros() int {
	i := 0
	for i < d.len() && d.at(i) == '0' {
		i++
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// javaTrim is Java's String.trim: strips chars <= ' ' at both ends.
func javaTrim(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	return s[i:j]
}
