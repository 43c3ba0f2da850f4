package sqlfn

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

func bigOf(w *wide) *big.Int {
	b := new(big.Int)
	for i := wideWords - 1; i >= 0; i-- {
		b.Lsh(b, 64)
		b.Or(b, new(big.Int).SetUint64(w.w[i]))
	}
	return b
}

func wideOf(b *big.Int) wide {
	var w wide
	x := new(big.Int).Set(b)
	mask := new(big.Int).SetUint64(math.MaxUint64)
	for i := 0; i < wideWords; i++ {
		w.w[i] = new(big.Int).And(x, mask).Uint64()
		x.Rsh(x, 64)
	}
	return w
}

func randWide(r *rand.Rand, words int) wide {
	var w wide
	for i := 0; i < words; i++ {
		w.w[i] = r.Uint64()
		switch r.IntN(4) { // sparse and extreme words exercise the corner cases
		case 0:
			w.w[i] = 0
		case 1:
			w.w[i] = math.MaxUint64
		}
	}
	return w
}

func TestWideDivmod(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 100000; i++ {
		u := randWide(r, 1+r.IntN(wideWords))
		v := randWide(r, 1+r.IntN(wideWords))
		if v.isZero() {
			continue
		}
		q, rem := divmod(&u, &v)
		bq, br := new(big.Int).QuoRem(bigOf(&u), bigOf(&v), new(big.Int))
		if bigOf(&q).Cmp(bq) != 0 || bigOf(&rem).Cmp(br) != 0 {
			t.Fatalf("divmod(%s, %s) = %s, %s; want %s, %s", bigOf(&u), bigOf(&v), bigOf(&q), bigOf(&rem), bq, br)
		}
	}
}

func TestWidePow10(t *testing.T) {
	for k := 0; k < len(pow10W); k++ {
		want := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
		if bigOf(&pow10W[k]).Cmp(want) != 0 {
			t.Fatalf("10^%d wrong", k)
		}
		x := wideFromU128(0, 1)
		if x.mulPow10(k) || bigOf(&x).Cmp(want) != 0 {
			t.Fatalf("mulPow10(%d) wrong", k)
		}
		if x.numDigits() != k+1 {
			t.Fatalf("numDigits(10^%d) = %d", k, x.numDigits())
		}
	}
	x := pow10W[154]
	if !x.mulPow10(1) {
		t.Error("10^155 must overflow 512 bits")
	}
}

// ---- A reference implementation of Spark's decimal semantics on math/big.

var bigTen = big.NewInt(10)

func pow10Big(k int) *big.Int { return new(big.Int).Exp(bigTen, big.NewInt(int64(k)), nil) }

// refRescale is BigDecimal.setScale(to, HALF_UP) of v at scale from.
func refRescale(v *big.Int, from, to int) *big.Int {
	if to >= from {
		return new(big.Int).Mul(v, pow10Big(to-from))
	}
	d := pow10Big(from - to)
	q, r := new(big.Int).QuoRem(v, d, new(big.Int))
	if new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2)).Cmp(d) >= 0 {
		q.Add(q, big.NewInt(int64(v.Sign())))
	}
	return q
}

func refDigits(v *big.Int) int { return len(new(big.Int).Abs(v).String()) }

// refFinish is toPrecision(p, s): nil when it does not fit.
func refFinish(v *big.Int, scale, p, s int) *big.Int {
	r := refRescale(v, scale, s)
	if new(big.Int).Abs(r).Cmp(pow10Big(p)) >= 0 {
		return nil
	}
	return r
}

func numOfBig(b *big.Int) decimal128.Num { return decimal128.FromBigInt(b) }

func randDecimal(r *rand.Rand) (*big.Int, int32, int32) {
	p := int32(1 + r.IntN(38))
	s := int32(r.IntN(int(p) + 1))
	digits := 1 + r.IntN(int(p))
	v := new(big.Int)
	for i := 0; i < digits; i++ {
		v.Mul(v, bigTen)
		v.Add(v, big.NewInt(int64(r.IntN(10))))
	}
	if r.IntN(2) == 0 {
		v.Neg(v)
	}
	return v, p, s
}

func TestDecimalRandomAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	type op struct {
		name string
		typ  func(p1, s1, p2, s2 int32) (int32, int32)
		f    func(a decimal128.Num, sa int32, b decimal128.Num, sb int32, p, s int32) (decimal128.Num, *Error)
		ref  func(a *big.Int, sa int, b *big.Int, sb int, p, s int) *big.Int
	}
	ops := []op{
		{"add", DecimalAddType, DecimalAdd, func(a *big.Int, sa int, b *big.Int, sb int, p, s int) *big.Int {
			m := max(sa, sb)
			return refFinish(new(big.Int).Add(refRescale(a, sa, m), refRescale(b, sb, m)), m, p, s)
		}},
		{"sub", DecimalSubType, DecimalSub, func(a *big.Int, sa int, b *big.Int, sb int, p, s int) *big.Int {
			m := max(sa, sb)
			return refFinish(new(big.Int).Sub(refRescale(a, sa, m), refRescale(b, sb, m)), m, p, s)
		}},
		{"mul", DecimalMulType, DecimalMul, func(a *big.Int, sa int, b *big.Int, sb int, p, s int) *big.Int {
			prod, sc := new(big.Int).Mul(a, b), sa+sb
			if n := refDigits(prod); n > 38 { // MathContext(38, HALF_UP)
				prod = refRescale(prod, sc, sc-(n-38))
				sc -= n - 38
			}
			return refFinish(prod, sc, p, s)
		}},
		{"div", DecimalDivType, DecimalDiv, func(a *big.Int, sa int, b *big.Int, sb int, p, s int) *big.Int {
			if b.Sign() == 0 {
				return nil
			}
			// divide(_, 38, HALF_UP): round |a|·10^(38+sb-sa) / |b| half up.
			n := new(big.Int).Mul(new(big.Int).Abs(a), pow10Big(38+sb-sa))
			q, rem := new(big.Int).QuoRem(n, new(big.Int).Abs(b), new(big.Int))
			if new(big.Int).Mul(rem, big.NewInt(2)).Cmp(new(big.Int).Abs(b)) >= 0 {
				q.Add(q, big.NewInt(1))
			}
			if a.Sign()*b.Sign() < 0 {
				q.Neg(q)
			}
			return refFinish(q, 38, p, s)
		}},
		{"mod", DecimalModType, DecimalMod, func(a *big.Int, sa int, b *big.Int, sb int, p, s int) *big.Int {
			if b.Sign() == 0 {
				return nil
			}
			m := max(sa, sb)
			_, rem := new(big.Int).QuoRem(refRescale(a, sa, m), refRescale(b, sb, m), new(big.Int))
			return refFinish(rem, m, p, s)
		}},
		{"pmod", DecimalModType, DecimalPmod, func(a *big.Int, sa int, b *big.Int, sb int, p, s int) *big.Int {
			if b.Sign() == 0 {
				return nil
			}
			m := max(sa, sb)
			bb := refRescale(b, sb, m)
			_, rem := new(big.Int).QuoRem(refRescale(a, sa, m), bb, new(big.Int))
			if rem.Sign() < 0 {
				_, rem = new(big.Int).QuoRem(new(big.Int).Add(rem, bb), bb, new(big.Int))
			}
			return refFinish(rem, m, p, s)
		}},
	}
	for i := 0; i < 30000; i++ {
		a, p1, s1 := randDecimal(r)
		b, p2, s2 := randDecimal(r)
		for _, o := range ops {
			p, s := o.typ(p1, s1, p2, s2)
			if i%3 == 0 { // also try arbitrary target types
				p = int32(1 + r.IntN(38))
				s = int32(r.IntN(int(p) + 1))
			}
			want := o.ref(a, int(s1), b, int(s2), int(p), int(s))
			got, err := o.f(numOfBig(a), s1, numOfBig(b), s2, p, s)
			if want == nil {
				if err == nil {
					t.Fatalf("%s(%s@%d, %s@%d) -> dec(%d,%d) = %s, want error", o.name, a, s1, b, s2, p, s, got.BigInt())
				}
				continue
			}
			if err != nil || got.BigInt().Cmp(want) != 0 {
				t.Fatalf("%s(%s@%d, %s@%d) -> dec(%d,%d) = %s %v, want %s", o.name, a, s1, b, s2, p, s, got.BigInt(), err, want)
			}
		}
		// compare and rescale
		m := max(int(s1), int(s2))
		wantCmp := refRescale(a, int(s1), m).Cmp(refRescale(b, int(s2), m))
		if got := DecimalCmp(numOfBig(a), s1, numOfBig(b), s2); got != wantCmp {
			t.Fatalf("DecimalCmp(%s@%d, %s@%d) = %d", a, s1, b, s2, got)
		}
		p, s := int32(1+r.IntN(38)), int32(0)
		s = int32(r.IntN(int(p) + 1))
		want := refFinish(a, int(s1), int(p), int(s))
		got, err := DecimalRescale(numOfBig(a), s1, p, s)
		if (want == nil) != (err != nil) || (want != nil && got.BigInt().Cmp(want) != 0) {
			t.Fatalf("DecimalRescale(%s@%d, %d, %d) = %s %v, want %v", a, s1, p, s, got.BigInt(), err, want)
		}
	}
}

func dec(t *testing.T, s string, p, sc int32) decimal128.Num {
	t.Helper()
	v, err := CastStringToDecimal(s, p, sc)
	if err != nil {
		t.Fatalf("CastStringToDecimal(%q): %v", s, err)
	}
	return v
}

func decString(v decimal128.Num, s int32) string { return string(AppendDecimal(nil, v, s)) }

func TestDecimalTypes(t *testing.T) {
	type pair struct{ p, s int32 }
	tests := []struct {
		name string
		got  pair
		want pair
	}{
		{"add (10,2)+(10,2)", pair(tuple(DecimalAddType(10, 2, 10, 2))), pair{11, 2}},
		{"add (5,2)+(10,4)", pair(tuple(DecimalAddType(5, 2, 10, 4))), pair{11, 4}},
		{"add (38,10)+(38,10) capped", pair(tuple(DecimalAddType(38, 10, 38, 10))), pair{38, 9}},
		{"add (38,0)+(38,0)", pair(tuple(DecimalAddType(38, 0, 38, 0))), pair{38, 0}},
		{"mul (10,2)*(10,2)", pair(tuple(DecimalMulType(10, 2, 10, 2))), pair{21, 4}},
		{"mul (38,10)*(38,10)", pair(tuple(DecimalMulType(38, 10, 38, 10))), pair{38, 6}},
		{"mul (20,2)*(20,2)", pair(tuple(DecimalMulType(20, 2, 20, 2))), pair{38, 4}},
		{"mul (38,2)*(38,2) keeps s<6", pair(tuple(DecimalMulType(38, 2, 38, 2))), pair{38, 4}},
		{"div (10,2)/(10,2)", pair(tuple(DecimalDivType(10, 2, 10, 2))), pair{23, 13}},
		{"div (38,18)/(38,18)", pair(tuple(DecimalDivType(38, 18, 38, 18))), pair{38, 6}},
		{"div (10,0)/(10,0)", pair(tuple(DecimalDivType(10, 0, 10, 0))), pair{21, 11}},
		{"div (3,0)/(20,0)", pair(tuple(DecimalDivType(3, 0, 20, 0))), pair{24, 21}},
		{"mod (10,2)%(5,0)", pair(tuple(DecimalModType(10, 2, 5, 0))), pair{7, 2}},
		{"round (10,3) 1", pair(tuple(DecimalRoundType(10, 3, 1))), pair{9, 1}},
		{"round (10,3) 5", pair(tuple(DecimalRoundType(10, 3, 5))), pair{11, 3}},
		{"round (10,3) -2", pair(tuple(DecimalRoundType(10, 3, -2))), pair{8, 0}},
		{"round (3,3) -5", pair(tuple(DecimalRoundType(3, 3, -5))), pair{6, 0}},
		{"floor (10,3)", pair(tuple(DecimalFloorType(10, 3))), pair{8, 0}},
		{"floor (38,1)", pair(tuple(DecimalFloorType(38, 1))), pair{38, 0}},
		{"floor (7,0)", pair(tuple(DecimalFloorType(7, 0))), pair{7, 0}},
		{"adjust (40,10)", pair(tuple(DecimalAdjust(40, 10))), pair{38, 8}},
		{"adjust (60,20)", pair(tuple(DecimalAdjust(60, 20))), pair{38, 6}},
		{"adjust (60,3)", pair(tuple(DecimalAdjust(60, 3))), pair{38, 3}},
		{"int", pair(tuple(DecimalTypeOfInt(32))), pair{10, 0}},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func tuple(p, s int32) struct{ p, s int32 } { return struct{ p, s int32 }{p, s} }

func TestDecimalExamples(t *testing.T) {
	// decimal(3,2) / decimal(3,2) is decimal(9,6)
	p, s := DecimalDivType(3, 2, 3, 2)
	q, err := DecimalDiv(dec(t, "1.00", 3, 2), 2, dec(t, "3.00", 3, 2), 2, p, s)
	if err != nil || decString(q, s) != "0.333333" || p != 9 || s != 6 {
		t.Errorf("1.00/3.00 = %s (%d,%d) %v", decString(q, s), p, s, err)
	}
	// 2.00 / 3 -> HALF_UP last digit
	q, _ = DecimalDiv(dec(t, "2.00", 3, 2), 2, dec(t, "3", 1, 0), 0, 10, 6)
	if decString(q, 6) != "0.666667" {
		t.Errorf("2/3 = %s", decString(q, 6))
	}
	q, _ = DecimalDiv(dec(t, "-2.00", 3, 2), 2, dec(t, "3", 1, 0), 0, 10, 6)
	if decString(q, 6) != "-0.666667" {
		t.Errorf("-2/3 = %s", decString(q, 6))
	}
	if _, err := DecimalDiv(dec(t, "1", 1, 0), 0, decimal128.Num{}, 0, 10, 6); err == nil || err.Class != ClassDivideByZero {
		t.Errorf("1/0: %v", err)
	}
	if _, err := DecimalMod(dec(t, "1", 1, 0), 0, decimal128.Num{}, 0, 10, 6); err == nil || err.Class != ClassRemainderByZero {
		t.Errorf("1%%0: %v", err)
	}
	// HALF_UP on both signs.
	for _, c := range []struct {
		in   string
		want string
	}{{"1.25", "1.3"}, {"-1.25", "-1.3"}, {"1.24", "1.2"}, {"-1.35", "-1.4"}, {"0.05", "0.1"}, {"-0.04", "0.0"}} {
		v, err := DecimalRescale(dec(t, c.in, 3, 2), 2, 3, 1)
		if err != nil || decString(v, 1) != c.want {
			t.Errorf("rescale %s = %s %v, want %s", c.in, decString(v, 1), err, c.want)
		}
	}
	// Overflow names the exact intermediate.
	nines := strings.Repeat("9", 38)
	_, err = DecimalAdd(dec(t, nines, 38, 0), 0, dec(t, "1", 1, 0), 0, 38, 0)
	want := "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] 1" + strings.Repeat("0", 38) +
		` cannot be represented as Decimal(38, 0). If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error, and return NULL instead.`
	if err == nil || err.Error() != want {
		t.Errorf("overflow: %v", err)
	}
	if err.SQLState() != "22003" {
		t.Errorf("SQLState %q", err.SQLState())
	}
	// Mul: Spark rounds a product above 38 significant digits to 38 first
	// (MathContext(38, HALF_UP)), then to the result scale.
	a := dec(t, "0.44999999999999999999999999999999999999", 38, 38)
	b := dec(t, "0.1", 1, 1)
	m, err := DecimalMul(a, 38, b, 1, 38, 2)
	if err != nil || decString(m, 2) != "0.04" {
		// 0.449..9 × 0.1 has 38 significant digits: no double rounding here.
		t.Errorf("mul = %s %v", decString(m, 2), err)
	}
	a = dec(t, "0.44999999999999999999999999999999999999", 38, 38)
	b = dec(t, "0.15", 2, 2)
	m, err = DecimalMul(a, 38, b, 2, 38, 2)
	// exact 0.0674999999999999999999999999999999999985 (39 digits) -> 38
	// digits 0.067500000000000000000000000000000000000 -> 0.07
	if err != nil || decString(m, 2) != "0.07" {
		t.Errorf("double-rounded mul = %s %v, want 0.07", decString(m, 2), err)
	}
	// Negation and abs.
	if v := DecimalNeg(dec(t, "-1.5", 2, 1)); decString(v, 1) != "1.5" {
		t.Errorf("neg = %s", decString(v, 1))
	}
	if v := DecimalAbs(dec(t, "-1.5", 2, 1)); decString(v, 1) != "1.5" {
		t.Errorf("abs = %s", decString(v, 1))
	}
}

func TestDecimalRoundFloorCeil(t *testing.T) {
	tests := []struct {
		in      string
		p, s, d int32
		want    string
	}{
		{"2.5", 2, 1, 0, "3"},
		{"-2.5", 2, 1, 0, "-3"},
		{"1.245", 4, 3, 2, "1.25"},
		{"-1.245", 4, 3, 2, "-1.25"},
		{"1.244", 4, 3, 2, "1.24"},
		{"125.5", 4, 1, -1, "130"},
		{"-125.5", 4, 1, -1, "-130"},
		{"999.9", 4, 1, 0, "1000"},
		{"0.856", 3, 3, -1, "0"},
		{"5.5", 2, 1, -1, "10"},
		{"1.2", 2, 1, 5, "1.2"},
	}
	for _, tt := range tests {
		rp, rs := DecimalRoundType(tt.p, tt.s, tt.d)
		v, err := DecimalRound(dec(t, tt.in, tt.p, tt.s), tt.s, tt.d, rp, rs)
		if err != nil || decString(v, rs) != tt.want {
			t.Errorf("round(%s, %d) = %s %v, want %s", tt.in, tt.d, decString(v, rs), err, tt.want)
		}
	}
	for _, c := range []struct{ in, floor, ceil string }{
		{"1.5", "1", "2"}, {"-1.5", "-2", "-1"}, {"2.0", "2", "2"}, {"-0.1", "-1", "0"}, {"0.1", "0", "1"},
		{"-99.9", "-100", "-99"},
	} {
		v := dec(t, c.in, 3, 1)
		f, err1 := DecimalFloor(v, 3, 1)
		g, err2 := DecimalCeil(v, 3, 1)
		if err1 != nil || err2 != nil || decString(f, 0) != c.floor || decString(g, 0) != c.ceil {
			t.Errorf("floor/ceil(%s) = %s/%s %v %v", c.in, decString(f, 0), decString(g, 0), err1, err2)
		}
	}
	v := dec(t, "-0.00000000000000000000000000000000000001", 38, 38)
	if f, err := DecimalFloor(v, 38, 38); err != nil || decString(f, 0) != "-1" {
		t.Errorf("floor tiny = %s %v", decString(f, 0), err)
	}
}

func TestDecimalConversions(t *testing.T) {
	for _, c := range []struct {
		unscaled int64
		s        int32
		want     string
	}{{1230, 2, "12.30"}, {5, 2, "0.05"}, {-5, 2, "-0.05"}, {0, 3, "0.000"}, {0, 0, "0"}, {-1, 0, "-1"},
		{123, 5, "0.00123"}, {math.MinInt64, 0, "-9223372036854775808"}} {
		if got := decString(decimal128.FromI64(c.unscaled), c.s); got != c.want {
			t.Errorf("AppendDecimal(%d, %d) = %q, want %q", c.unscaled, c.s, got, c.want)
		}
	}
	max38 := dec(t, strings.Repeat("9", 38), 38, 0)
	if got := decString(max38.Negate(), 0); got != "-"+strings.Repeat("9", 38) {
		t.Errorf("min38 = %s", got)
	}
	if got := decString(max38, 38); got != "0."+strings.Repeat("9", 38) {
		t.Errorf("max38 at scale 38 = %s", got)
	}

	if v, err := DecimalFromInt64(math.MaxInt64, 20, 0); err != nil || decString(v, 0) != "9223372036854775807" {
		t.Errorf("from int64: %s %v", decString(v, 0), err)
	}
	if v, err := DecimalFromInt64(-42, 10, 2); err != nil || decString(v, 2) != "-42.00" {
		t.Errorf("from int64 scaled: %s %v", decString(v, 2), err)
	}
	if _, err := DecimalFromInt64(1000, 5, 2); err == nil || err.Class != ClassNumericValueOutOfRange+".WITH_SUGGESTION" {
		t.Errorf("1000 as decimal(5,2): %v", err)
	}

	i64, err := DecimalToInt64(dec(t, "-12.99", 4, 2), 4, 2)
	if err != nil || i64 != -12 {
		t.Errorf("to int64 = %d %v", i64, err)
	}
	big20 := dec(t, "9223372036854775808", 20, 0)
	if _, err := DecimalToInt64(big20, 20, 0); err == nil || err.Class != ClassCastOverflow ||
		!strings.Contains(err.Msg, `The value 9223372036854775808BD of the type "DECIMAL(20,0)" cannot be cast to "BIGINT"`) {
		t.Errorf("to int64 overflow: %v", err)
	}
	if v, err := DecimalToInt64(big20.Negate(), 20, 0); err != nil || v != math.MinInt64 {
		t.Errorf("min int64: %d %v", v, err)
	}
	if v, err := DecimalToInt32(dec(t, "2147483647.9", 11, 1), 11, 1); err != nil || v != math.MaxInt32 {
		t.Errorf("to int32 = %d %v", v, err)
	}
	if _, err := DecimalToInt32(dec(t, "2147483648", 11, 0), 11, 0); err == nil {
		t.Error("to int32 must overflow")
	}
	if v, err := DecimalToInt8(dec(t, "-128.5", 4, 1), 4, 1); err != nil || v != -128 {
		t.Errorf("to int8 = %d %v", v, err)
	}
	if _, err := DecimalToInt16(dec(t, "32768", 5, 0), 5, 0); err == nil {
		t.Error("to int16 must overflow")
	}

	for _, c := range []struct {
		in   string
		p, s int32
		want float64
	}{
		{"0.1", 1, 1, 0.1}, {"-12.345", 5, 3, -12.345}, {"123456789012345678901234567890.12345678", 38, 8,
			123456789012345678901234567890.12345678}, {"0." + strings.Repeat("3", 38), 38, 38, 1.0 / 3},
	} {
		if got := DecimalToFloat64(dec(t, c.in, c.p, c.s), c.s); got != c.want {
			t.Errorf("to float64(%s) = %v, want %v", c.in, got, c.want)
		}
	}

	for _, c := range []struct {
		in    float64
		p, s  int32
		want  string
		class string
	}{
		{0.1, 10, 2, "0.10", ""},
		{2.675, 10, 2, "2.68", ""}, // Double.toString digits, then HALF_UP
		{-2.675, 10, 2, "-2.68", ""},
		{1e20, 38, 0, "100000000000000000000", ""},
		{1e20, 10, 0, "", ClassNumericValueOutOfRange + ".WITH_SUGGESTION"},
		{1e-20, 10, 2, "0.00", ""},
		{123.456, 5, 2, "123.46", ""},
		{1e300, 38, 0, "", ClassNumericValueOutOfRange + ".WITH_SUGGESTION"},
	} {
		v, valid, err := DecimalFromFloat64(c.in, c.p, c.s)
		wantErr(t, "from float", err, c.class)
		if !valid || (err == nil && decString(v, c.s) != c.want) {
			t.Errorf("from float64(%v) = %s %v", c.in, decString(v, c.s), valid)
		}
	}
	if _, valid, err := DecimalFromFloat64(math.NaN(), 10, 2); valid || err != nil {
		t.Error("NaN -> decimal must be NULL")
	}
}

func TestCastStringToDecimal(t *testing.T) {
	const (
		inv  = ClassCastInvalidInput
		oor  = ClassNumericValueOutOfRange + ".WITH_SUGGESTION"
		nsup = ClassNumericOutOfSupportedRange
	)
	tests := []struct {
		in    string
		p, s  int32
		want  string
		class string
	}{
		{" 12.345 ", 5, 2, "12.35", ""},
		{"-12.345", 5, 2, "-12.35", ""},
		{"+12.344", 5, 2, "12.34", ""},
		{"1e2", 5, 2, "100.00", ""},
		{"1.5E-1", 5, 2, "0.15", ""},
		{".5", 1, 0, "1", ""},
		{"5.", 1, 0, "5", ""},
		{"0.4999", 1, 0, "0", ""},
		{"-0.4999", 1, 0, "0", ""},
		{"000000000000000000000000000000000000000000000012.5", 3, 1, "12.5", ""},
		{"0.000000000000000000000000000000000000000000000001", 5, 2, "0.00", ""},
		{"1e-1000000", 5, 2, "0.00", ""},
		{"\t\n7\x00", 1, 0, "7", ""},
		{"9.5", 1, 0, "", oor},
		{"123456", 5, 2, "", oor},
		{"1" + strings.Repeat("0", 38), 38, 0, "", nsup},
		{"1e38", 38, 0, "", nsup},
		{"1e37", 38, 0, "1" + strings.Repeat("0", 37), ""},
		{"abc", 5, 2, "", inv},
		{"", 5, 2, "", inv},
		{"   ", 5, 2, "", inv},
		{"1e", 5, 2, "", inv},
		{"+.e1", 5, 2, "", inv},
		{"1.2.3", 5, 2, "", inv},
		{"NaN", 5, 2, "", inv},
		{"Infinity", 5, 2, "", inv},
		{"1 2", 5, 2, "", inv},
		{"0x10", 5, 2, "", inv},
	}
	for _, tt := range tests {
		v, err := CastStringToDecimal(tt.in, tt.p, tt.s)
		wantErr(t, tt.in, err, tt.class)
		if err == nil && decString(v, tt.s) != tt.want {
			t.Errorf("CAST(%q AS DECIMAL(%d,%d)) = %s, want %s", tt.in, tt.p, tt.s, decString(v, tt.s), tt.want)
		}
	}
	_, err := CastStringToDecimal("123.456", 4, 2)
	if want := "123.456 cannot be represented as Decimal(4, 2)."; err == nil || !strings.HasPrefix(err.Msg, want) {
		t.Errorf("message: %v", err)
	}
	_, err = CastStringToDecimal("1.5e3", 3, 0)
	if want := "1500 cannot be represented as Decimal(3, 0)."; err == nil || !strings.HasPrefix(err.Msg, want) {
		t.Errorf("message: %v", err)
	}
	_, err = CastStringToDecimal("x1", 3, 0)
	if want := `The value 'x1' of the type "STRING" cannot be cast to "DECIMAL(3,0)" because it is malformed.`; err == nil ||
		!strings.HasPrefix(err.Msg, want) {
		t.Errorf("message: %v", err)
	}
}

// TestDecimalDivScale: avg's division (DecimalDivideWithOverflowCheck)
// rounds once at the result scale, where / rounds at scale 38 first.
func TestDecimalDivScale(t *testing.T) {
	for _, c := range []struct {
		a      string
		pa, sa int32
		b      string
		p, s   int32
		want   string
	}{
		{"2.00", 3, 2, "3", 10, 6, "0.666667"},
		{"-2.00", 3, 2, "3", 10, 6, "-0.666667"},
		{"0.5", 1, 1, "1", 5, 0, "1"},
		{"-0.5", 1, 1, "1", 5, 0, "-1"},
		{"0.0001", 4, 4, "3", 10, 2, "0.00"},
		// the exact quotient 0.0499…9666… rounds down at scale 1; at
		// scale 38 it would round up to 0.05 first, then to 0.1
		{"0.14999999999999999999999999999999999999", 38, 38, "3", 38, 1, "0.0"},
		// a decimal(38,10) sum over 3 rows, at avg's scale 14
		{"123458.6234567891", 38, 10, "3", 38, 14, "41152.87448559636667"},
	} {
		got, err := DecimalDivScale(dec(t, c.a, c.pa, c.sa), c.sa, dec(t, c.b, 20, 0), 0, c.p, c.s)
		if err != nil || decString(got, c.s) != c.want {
			t.Errorf("%s / %s at scale %d = %s, %v; want %s", c.a, c.b, c.s, decString(got, c.s), err, c.want)
		}
	}
	q, _ := DecimalDiv(dec(t, "0.14999999999999999999999999999999999999", 38, 38), 38, dec(t, "3", 20, 0), 0, 38, 1)
	if decString(q, 1) != "0.1" {
		t.Errorf("DecimalDiv rounds twice: got %s, want 0.1", decString(q, 1))
	}
	if _, err := DecimalDivScale(dec(t, "1", 1, 0), 0, decimal128.Num{}, 0, 10, 4); err == nil || err.Class != ClassDivideByZero {
		t.Errorf("1/0: %v", err)
	}
}
