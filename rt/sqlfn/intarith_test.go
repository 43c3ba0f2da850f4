package sqlfn

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// wantErr checks err's class ("" means no error).
func wantErr(t *testing.T, name string, err *Error, class string) {
	t.Helper()
	switch {
	case class == "" && err != nil:
		t.Errorf("%s: unexpected error %v", name, err)
	case class != "" && err == nil:
		t.Errorf("%s: no error, want %s", name, class)
	case class != "" && err.Class != class:
		t.Errorf("%s: error %v, want class %s", name, err, class)
	}
}

func TestInt64Arithmetic(t *testing.T) {
	const (
		max = math.MaxInt64
		min = math.MinInt64
		ovf = ClassArithmeticOverflow
	)
	tests := []struct {
		name  string
		f     func(a, b int64) (int64, *Error)
		a, b  int64
		want  int64
		class string
	}{
		{"add", AddInt64, 1, 2, 3, ""},
		{"add max", AddInt64, max, 0, max, ""},
		{"add max+1", AddInt64, max, 1, 0, ovf},
		{"add min-1", AddInt64, min, -1, 0, ovf},
		{"add min+max", AddInt64, min, max, -1, ""},
		{"sub", SubInt64, 5, 7, -2, ""},
		{"sub min-1", SubInt64, min, 1, 0, ovf},
		{"sub 0-min", SubInt64, 0, min, 0, ovf},
		{"sub -1-min", SubInt64, -1, min, max, ""},
		{"mul", MulInt64, -3, 7, -21, ""},
		{"mul max*1", MulInt64, max, 1, max, ""},
		{"mul min*1", MulInt64, min, 1, min, ""},
		{"mul min*-1", MulInt64, min, -1, 0, ovf},
		{"mul -1*min", MulInt64, -1, min, 0, ovf},
		{"mul 2^32*2^31", MulInt64, 1 << 32, 1 << 31, 0, ovf},
		{"mul 2^32*-2^31", MulInt64, 1 << 32, -(1 << 31), min, ""},
		{"mul big", MulInt64, 3037000500, 3037000500, 0, ovf},
		{"mul 0*min", MulInt64, 0, min, 0, ""},
		{"rem", Rem[int64], -7, 3, -1, ""},
		{"rem neg divisor", Rem[int64], 7, -3, 1, ""},
		{"rem min%-1", Rem[int64], min, -1, 0, ""},
		{"rem by 0", Rem[int64], 1, 0, 0, ClassRemainderByZero},
		{"pmod", Pmod[int64], -7, 3, 2, ""},
		{"pmod pos", Pmod[int64], 7, 3, 1, ""},
		{"pmod neg n", Pmod[int64], -7, -3, -1, ""},
		{"pmod by 0", Pmod[int64], 7, 0, 0, ClassRemainderByZero},
		{"pmod wraps like java", Pmod[int64], -1, min, max, ""},
		{"div", DivInt64, -7, 2, -3, ""},
		{"div min/-1", DivInt64, min, -1, 0, ovf},
		{"div by 0", DivInt64, 1, 0, 0, ClassDivideByZero},
	}
	for _, tt := range tests {
		got, err := tt.f(tt.a, tt.b)
		wantErr(t, tt.name, err, tt.class)
		if err == nil && got != tt.want {
			t.Errorf("%s(%d, %d) = %d, want %d", tt.name, tt.a, tt.b, got, tt.want)
		}
	}
}

func TestOverflowMessages(t *testing.T) {
	_, err := AddInt64(math.MaxInt64, 1)
	want := `[ARITHMETIC_OVERFLOW] long overflow. Use 'try_add' to tolerate overflow and return NULL instead. ` +
		`If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`
	if err.Error() != want {
		t.Errorf("got  %s\nwant %s", err, want)
	}
	if err.SQLState() != "22003" {
		t.Errorf("SQLState %q", err.SQLState())
	}
	_, err = MulInt32(1<<16, 1<<16)
	if want := "integer overflow. Use 'try_multiply' to tolerate overflow and return NULL instead. " +
		`If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`; err.Msg != want {
		t.Errorf("got %s", err.Msg)
	}
	_, err = AddInt8(127, 1)
	if want := "127S + 1S caused overflow. Use `try_add` to ignore overflow problem and return NULL."; err.Msg != want ||
		err.Class != ClassBinaryArithmeticOverflow {
		t.Errorf("got %v", err)
	}
	_, err = NegInt16(math.MinInt16)
	if want := `short overflow. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`; err.Msg != want {
		t.Errorf("got %v", err)
	}
	_, err = DivInt64(math.MinInt64, -1)
	if want := "Overflow in integral divide. Use 'try_divide' to tolerate overflow and return NULL instead. " +
		`If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`; err.Msg != want {
		t.Errorf("got %v", err)
	}
	_, err = DivideFloat64(1, 0)
	if want := "[DIVIDE_BY_ZERO] Division by zero. Use `try_divide` to tolerate divisor being 0 and return NULL instead. " +
		`If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`; err.Error() != want {
		t.Errorf("got %v", err)
	}
	if err.SQLState() != "22012" {
		t.Errorf("SQLState %q", err.SQLState())
	}
}

func TestNarrowArithmetic(t *testing.T) {
	check := func(name string, got int64, err *Error, want int64, class string) {
		t.Helper()
		wantErr(t, name, err, class)
		if err == nil && got != want {
			t.Errorf("%s = %d, want %d", name, got, want)
		}
	}
	const ovf, bovf = ClassArithmeticOverflow, ClassBinaryArithmeticOverflow
	r32, e := AddInt32(math.MaxInt32, 1)
	check("int add", int64(r32), e, 0, ovf)
	r32, e = AddInt32(math.MaxInt32, math.MinInt32)
	check("int add ok", int64(r32), e, -1, "")
	r32, e = SubInt32(math.MinInt32, 1)
	check("int sub", int64(r32), e, 0, ovf)
	r32, e = MulInt32(46341, 46341)
	check("int mul", int64(r32), e, 0, ovf)
	r32, e = MulInt32(46340, -46340)
	check("int mul ok", int64(r32), e, -2147395600, "")
	r32, e = NegInt32(math.MinInt32)
	check("int neg", int64(r32), e, 0, ovf)
	r32, e = AbsInt32(math.MinInt32)
	check("int abs min", int64(r32), e, 0, ovf)
	r32, e = AbsInt32(-5)
	check("int abs", int64(r32), e, 5, "")
	r64, e := AbsInt64(math.MinInt64)
	check("long abs min", r64, e, 0, ovf)
	r64, e = NegInt64(math.MinInt64 + 1)
	check("long neg", r64, e, math.MaxInt64, "")

	r16, e := AddInt16(math.MaxInt16, 1)
	check("short add", int64(r16), e, 0, bovf)
	r16, e = SubInt16(math.MinInt16, 1)
	check("short sub", int64(r16), e, 0, bovf)
	r16, e = MulInt16(-182, 181)
	check("short mul overflow", int64(r16), e, 0, bovf)
	r16, e = MulInt16(-181, 181)
	check("short mul", int64(r16), e, -32761, "")
	r16, e = NegInt16(math.MinInt16)
	check("short neg", int64(r16), e, 0, ovf)
	r16, e = AbsInt16(math.MinInt16)
	check("short abs", int64(r16), e, 0, ovf)
	r8, e := AddInt8(-128, -1)
	check("byte add", int64(r8), e, 0, bovf)
	r8, e = SubInt8(-100, 28)
	check("byte sub ok", int64(r8), e, -128, "")
	r8, e = MulInt8(-64, 2)
	check("byte mul ok", int64(r8), e, -128, "")
	r8, e = MulInt8(64, 2)
	check("byte mul", int64(r8), e, 0, bovf)
	r8, e = NegInt8(-128)
	check("byte neg", int64(r8), e, 0, ovf)
	r8, e = AbsInt8(-128)
	check("byte abs", int64(r8), e, 0, ovf)

	// % and pmod in narrow widths: Java computes in int.
	p8, e := Pmod[int8](-1, -128)
	check("byte pmod", int64(p8), e, -1, "")
	p8, e = Pmod[int8](-7, 3)
	check("byte pmod neg", int64(p8), e, 2, "")
	p32, e := Pmod[int32](-1, math.MinInt32)
	check("int pmod wraps", int64(p32), e, math.MaxInt32, "")
	q8, e := Rem[int8](-128, -1)
	check("byte rem", int64(q8), e, 0, "")

	u, e := AddUnsigned[uint8](200, 56)
	check("uint8 add", int64(u), e, 0, ovf)
	u, e = AddUnsigned[uint8](200, 55)
	check("uint8 add ok", int64(u), e, 255, "")
	u64, e := SubUnsigned[uint64](1, 2)
	check("uint64 sub", int64(u64), e, 0, ovf)
	u64, e = MulUnsigned[uint64](1<<32, 1<<32)
	check("uint64 mul", int64(u64), e, 0, ovf)
	u16, e := MulUnsigned[uint16](255, 257)
	check("uint16 mul ok", int64(u16), e, 65535, "")
}

func TestMulInt64Random(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	lim := new(big.Int).Lsh(big.NewInt(1), 63)
	neglim := new(big.Int).Neg(lim)
	for i := 0; i < 200000; i++ {
		a := int64(r.Uint64()) >> (r.IntN(64))
		b := int64(r.Uint64()) >> (r.IntN(64))
		p := new(big.Int).Mul(big.NewInt(a), big.NewInt(b))
		fits := p.Cmp(lim) < 0 && p.Cmp(neglim) >= 0
		got, err := MulInt64(a, b)
		if fits != (err == nil) || (fits && got != p.Int64()) {
			t.Fatalf("MulInt64(%d, %d) = %d, %v; exact %s", a, b, got, err, p)
		}
		s := new(big.Int).Add(big.NewInt(a), big.NewInt(b))
		fits = s.Cmp(lim) < 0 && s.Cmp(neglim) >= 0
		if got, err := AddInt64(a, b); fits != (err == nil) || (fits && got != s.Int64()) {
			t.Fatalf("AddInt64(%d, %d) = %d, %v", a, b, got, err)
		}
		d := new(big.Int).Sub(big.NewInt(a), big.NewInt(b))
		fits = d.Cmp(lim) < 0 && d.Cmp(neglim) >= 0
		if got, err := SubInt64(a, b); fits != (err == nil) || (fits && got != d.Int64()) {
			t.Fatalf("SubInt64(%d, %d) = %d, %v", a, b, got, err)
		}
	}
}

func TestFloatDivision(t *testing.T) {
	if _, err := DivideFloat64(1, math.Copysign(0, -1)); err == nil {
		t.Error("1.0 / -0.0 must be DIVIDE_BY_ZERO")
	}
	if v, err := DivideFloat64(1, 4); err != nil || v != 0.25 {
		t.Errorf("1/4 = %v %v", v, err)
	}
	if v, err := DivideFloat64(math.NaN(), 2); err != nil || v == v {
		t.Errorf("NaN/2 = %v %v", v, err)
	}
	if _, err := RemFloat64(1, 0); err == nil {
		t.Error("1.0 % 0 must fail")
	}
	if v, _ := RemFloat64(-5.5, 2); v != -1.5 {
		t.Errorf("-5.5 %% 2 = %v", v)
	}
	if v, _ := RemFloat64(5.5, math.Inf(1)); v != 5.5 {
		t.Errorf("5.5 %% Inf = %v", v)
	}
	if v, _ := RemFloat32(7, -2); v != 1 {
		t.Errorf("7 %% -2 = %v", v)
	}
	if v, _ := PmodFloat64(-5.5, 2); v != 0.5 {
		t.Errorf("pmod(-5.5, 2) = %v", v)
	}
	if _, err := PmodFloat64(1, 0); err == nil {
		t.Error("pmod(1.0, 0) must fail")
	}
}

func TestFloorDivMod(t *testing.T) {
	const (
		max = math.MaxInt64
		min = math.MinInt64
	)
	tests := []struct{ a, b, div, mod int64 }{
		{7, 2, 3, 1},
		{-7, 2, -4, 1},
		{7, -2, -4, -1},
		{-7, -2, 3, -1},
		{-6, 2, -3, 0},
		{6, -3, -2, 0},
		{0, 5, 0, 0},
		{0, -5, 0, 0},
		{-1, 1000, -1, 999},
		{1, -1000, -1, -999},
		{-1, max, -1, max - 1},
		{min, 1, min, 0},
		{min, -1, min, 0}, // wraps, as Java's Math.floorDiv
		{min, max, -2, max - 1},
		{max, min, -1, -1},
	}
	for _, tt := range tests {
		if got := FloorDiv(tt.a, tt.b); got != tt.div {
			t.Errorf("FloorDiv(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.div)
		}
		if got := FloorMod(tt.a, tt.b); got != tt.mod {
			t.Errorf("FloorMod(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.mod)
		}
	}
	// Against math/big: floor(a/b) and a - floor(a/b)*b for random operands.
	r := rand.New(rand.NewPCG(16, 4))
	for range 10000 {
		a, b := int64(r.Uint64())>>r.IntN(63), int64(r.Uint64())>>r.IntN(63)
		if b == 0 || (a == min && b == -1) {
			continue
		}
		q := new(big.Rat).SetFrac(big.NewInt(a), big.NewInt(b))
		want := new(big.Int).Div(q.Num(), q.Denom()) // Euclidean over a positive denominator: the floor
		if got := FloorDiv(a, b); !want.IsInt64() || got != want.Int64() {
			t.Fatalf("FloorDiv(%d, %d) = %d, want %v", a, b, got, want)
		}
		m := new(big.Int).Sub(big.NewInt(a), new(big.Int).Mul(want, big.NewInt(b)))
		if got := FloorMod(a, b); got != m.Int64() {
			t.Fatalf("FloorMod(%d, %d) = %d, want %v", a, b, got, m)
		}
	}
}

func TestNegRemUnsigned(t *testing.T) {
	for _, tt := range []struct {
		a     uint64
		want  uint64
		class string
	}{{0, 0, ""}, {1, 0, ClassArithmeticOverflow}, {math.MaxUint64, 0, ClassArithmeticOverflow}} {
		got, err := NegUnsigned(tt.a)
		wantErr(t, "NegUnsigned", err, tt.class)
		if got != tt.want {
			t.Errorf("NegUnsigned(%d) = %d, want %d", tt.a, got, tt.want)
		}
	}
	if _, err := NegUnsigned[uint8](200); err == nil || !strings.HasPrefix(err.Msg, "unsigned overflow. If necessary") {
		t.Errorf("NegUnsigned(uint8 200): %v, want unsigned overflow without a try_ hint", err)
	}
	for _, tt := range []struct {
		a, b, want uint64
		class      string
	}{
		{7, 3, 1, ""},
		{3, 7, 3, ""},
		{0, 7, 0, ""},
		{math.MaxUint64, 10, 5, ""},
		{math.MaxUint64, math.MaxUint64, 0, ""},
		{7, 0, 0, ClassRemainderByZero},
		{0, 0, 0, ClassRemainderByZero},
	} {
		got, err := RemUnsigned(tt.a, tt.b)
		wantErr(t, "RemUnsigned", err, tt.class)
		if got != tt.want {
			t.Errorf("RemUnsigned(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	if got, err := RemUnsigned[uint8](255, 16); got != 15 || err != nil {
		t.Errorf("RemUnsigned(uint8 255, 16) = %d, %v", got, err)
	}
}
