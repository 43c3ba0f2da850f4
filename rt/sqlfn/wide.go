package sqlfn

import (
	"math"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// wide is an unsigned integer of up to 512 bits, little-endian 64-bit words,
// kept on the stack. Decimal operations need it: a product of two 38-digit
// values has 76 digits, and Spark's division computes the quotient to 38
// fractional digits, up to 114 digits before the range check. arrow-go's
// decimal128 helpers go through math/big and allocate; these do not.
type wide struct {
	w [wideWords]uint64
}

const wideWords = 8

func wideFromU128(hi, lo uint64) wide {
	var x wide
	x.w[0], x.w[1] = lo, hi
	return x
}

func (x *wide) isZero() bool {
	for _, v := range x.w {
		if v != 0 {
			return false
		}
	}
	return true
}

// length is the number of significant words.
func (x *wide) length() int {
	for i := wideWords - 1; i >= 0; i-- {
		if x.w[i] != 0 {
			return i + 1
		}
	}
	return 0
}

func (x *wide) cmp(y *wide) int {
	for i := wideWords - 1; i >= 0; i-- {
		if x.w[i] != y.w[i] {
			if x.w[i] < y.w[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// mulWord sets x = x*m and reports overflow past 512 bits.
func (x *wide) mulWord(m uint64) bool {
	var carry uint64
	n := x.length()
	if n < wideWords {
		n++ // room for the carry
	}
	for i := 0; i < n; i++ {
		hi, lo := bits.Mul64(x.w[i], m)
		var c uint64
		x.w[i], c = bits.Add64(lo, carry, 0)
		carry = hi + c
	}
	return carry != 0
}

// mulPow10 sets x = x*10^k and reports overflow.
func (x *wide) mulPow10(k int) bool {
	over := false
	for k >= 19 {
		over = x.mulWord(1e19) || over
		k -= 19
	}
	if k > 0 {
		over = x.mulWord(pow10u64[k]) || over
	}
	return over
}

// add sets x = x+y and reports overflow.
func (x *wide) add(y *wide) bool {
	var c uint64
	for i := range x.w {
		x.w[i], c = bits.Add64(x.w[i], y.w[i], c)
	}
	return c != 0
}

// sub sets x = x-y; x must be >= y.
func (x *wide) sub(y *wide) {
	var b uint64
	for i := range x.w {
		x.w[i], b = bits.Sub64(x.w[i], y.w[i], b)
	}
}

func (x *wide) inc() {
	for i := range x.w {
		x.w[i]++
		if x.w[i] != 0 {
			return
		}
	}
}

// divWord sets x = x/d and returns the remainder.
func (x *wide) divWord(d uint64) uint64 {
	var r uint64
	for i := x.length() - 1; i >= 0; i-- {
		x.w[i], r = bits.Div64(r, x.w[i], d)
	}
	return r
}

// divmod returns u/v and u%v (Knuth's algorithm D, as in math/big's
// divBasic). v must be nonzero.
func divmod(u, v *wide) (q, r wide) {
	n := v.length()
	m := u.length()
	if m < n {
		return q, *u
	}
	if n == 1 {
		q = *u
		r.w[0] = q.divWord(v.w[0])
		return q, r
	}
	s := uint(bits.LeadingZeros64(v.w[n-1]))
	var vn [wideWords]uint64
	for i := n - 1; i > 0; i-- {
		vn[i] = v.w[i]<<s | v.w[i-1]>>(64-s)
	}
	vn[0] = v.w[0] << s
	var un [wideWords + 1]uint64
	un[m] = u.w[m-1] >> (64 - s)
	for i := m - 1; i > 0; i-- {
		un[i] = u.w[i]<<s | u.w[i-1]>>(64-s)
	}
	un[0] = u.w[0] << s

	vn1, vn2 := vn[n-1], vn[n-2]
	for j := m - n; j >= 0; j-- {
		qhat := uint64(math.MaxUint64)
		if ujn := un[j+n]; ujn != vn1 {
			var rhat uint64
			qhat, rhat = bits.Div64(ujn, un[j+n-1], vn1)
			x1, x2 := bits.Mul64(qhat, vn2)
			ujn2 := un[j+n-2]
			for x1 > rhat || (x1 == rhat && x2 > ujn2) {
				qhat--
				prev := rhat
				rhat += vn1
				if rhat < prev {
					break
				}
				x1, x2 = bits.Mul64(qhat, vn2)
			}
		}
		// un[j:j+n+1] -= qhat * vn
		var carry, borrow uint64
		for i := 0; i < n; i++ {
			hi, lo := bits.Mul64(qhat, vn[i])
			var c uint64
			lo, c = bits.Add64(lo, carry, 0)
			carry = hi + c
			un[j+i], borrow = bits.Sub64(un[j+i], lo, borrow)
		}
		un[j+n], borrow = bits.Sub64(un[j+n], carry, borrow)
		if borrow != 0 { // qhat was one too large: add v back
			qhat--
			var c uint64
			for i := 0; i < n; i++ {
				un[j+i], c = bits.Add64(un[j+i], vn[i], c)
			}
			un[j+n] += c
		}
		q.w[j] = qhat
	}
	for i := 0; i < n-1; i++ {
		r.w[i] = un[i]>>s | un[i+1]<<(64-s)
	}
	r.w[n-1] = un[n-1] >> s
	return q, r
}

// divPow10HalfUp sets x to x/10^k rounded half up (ties away from zero,
// since x is a magnitude), as BigDecimal.setScale(_, HALF_UP) does.
func (x *wide) divPow10HalfUp(k int) { x.divPow10Round(k, false) }

// divPow10HalfEven sets x to x/10^k rounded half to even, as
// BigDecimal.setScale(_, HALF_EVEN) does.
func (x *wide) divPow10HalfEven(k int) { x.divPow10Round(k, true) }

// divPow10Round sets x to x/10^k rounded half up, or half to even.
func (x *wide) divPow10Round(k int, even bool) {
	if k <= 0 {
		return
	}
	if k <= 19 {
		d := pow10u64[k]
		if r := x.divWord(d); r > d/2 || r == d/2 && !(even && x.w[0]%2 == 0) { // d = 10^k is even
			x.inc()
		}
		return
	}
	if k >= len(pow10W) {
		*x = wide{}
		return
	}
	q, r := divmod(x, &pow10W[k])
	if c := r.cmp(&halfPow10W[k]); c > 0 || c == 0 && !(even && q.w[0]%2 == 0) {
		q.inc()
	}
	*x = q
}

// numDigits is the number of decimal digits of x (0 for 0).
func (x *wide) numDigits() int {
	lo, hi := 0, len(pow10W)
	for lo < hi { // smallest k with x < 10^k
		mid := (lo + hi) / 2
		if x.cmp(&pow10W[mid]) < 0 {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// lessPow10 reports whether x < 10^p.
func (x *wide) lessPow10(p int32) bool { return x.cmp(&pow10W[p]) < 0 }

var pow10u64 = [20]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// pow10W[k] = 10^k and halfPow10W[k] = 10^k / 2 for k up to 154 (10^154 < 2^512).
var pow10W, halfPow10W = makePow10W()

func makePow10W() (p, h [155]wide) {
	x := wideFromU128(0, 1)
	for k := range p {
		p[k] = x
		h[k] = x
		h[k].divWord(2)
		x.mulWord(10)
	}
	return p, h
}

// pow10U128 [k] = 10^k for k <= 38, as (hi, lo).
var pow10U128 = func() (t [39][2]uint64) {
	for k := range t {
		t[k] = [2]uint64{pow10W[k].w[1], pow10W[k].w[0]}
	}
	return t
}()

// absNum splits a decimal128 into sign and 128-bit magnitude.
func absNum(n decimal128.Num) (hi, lo uint64, neg bool) {
	hi, lo = uint64(n.HighBits()), n.LowBits()
	if int64(hi) < 0 {
		var b uint64
		lo, b = bits.Sub64(0, lo, 0)
		hi, _ = bits.Sub64(0, hi, b)
		neg = true
	}
	return hi, lo, neg
}

// numFromAbs joins sign and magnitude (which must be < 2^127).
func numFromAbs(hi, lo uint64, neg bool) decimal128.Num {
	if neg {
		var b uint64
		lo, b = bits.Sub64(0, lo, 0)
		hi, _ = bits.Sub64(0, hi, b)
	}
	return decimal128.New(int64(hi), lo)
}

// mulPow10U128 returns (hi, lo) * 10^k for k <= 38, and false when the
// product does not fit in 128 bits.
func mulPow10U128(hi, lo uint64, k int32) (uint64, uint64, bool) {
	if k == 0 {
		return hi, lo, true
	}
	t := pow10U128[k]
	if hi != 0 && t[0] != 0 {
		return 0, 0, false
	}
	p1h, p1l := bits.Mul64(lo, t[1])
	p2h, p2l := bits.Mul64(hi, t[1])
	p3h, p3l := bits.Mul64(lo, t[0])
	h, c1 := bits.Add64(p1h, p2l, 0)
	h, c2 := bits.Add64(h, p3l, 0)
	if p2h|p3h|c1|c2 != 0 {
		return 0, 0, false
	}
	return h, p1l, true
}

// magLessPow10 reports whether the magnitude (hi, lo) < 10^p, p <= 38.
func magLessPow10(hi, lo uint64, p int32) bool {
	t := pow10U128[p]
	return hi < t[0] || (hi == t[0] && lo < t[1])
}

// divHalfUp is u / v rounded HALF_UP (a remainder of half v or more rounds
// the magnitude up), as Java's BigDecimal divides.
func divHalfUp(u, v *wide) wide {
	q, r := divmod(u, v)
	r.add(&r)
	if r.cmp(v) >= 0 {
		q.inc()
	}
	return q
}
