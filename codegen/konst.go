package codegen

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
)

// konst is a value known at generation time (a literal, or a literal
// coerced to an operation's type). Integers, dates (days), timestamps and
// durations (ticks of their unit) and decimals (the unscaled value) are held
// in i; floats in f; strings in s; booleans in b.
type konst struct {
	i *big.Int
	f float64
	s string
	b bool
}

var (
	bigOne  = big.NewInt(1)
	bigTen  = big.NewInt(10)
	maxI128 = new(big.Int).Sub(new(big.Int).Lsh(bigOne, 127), bigOne)
	minI128 = new(big.Int).Neg(new(big.Int).Lsh(bigOne, 127))
)

// pow10 is 10^n.
func pow10(n int) *big.Int { return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil) }

// literalKonst parses a literal's canonical text as a value of type t (the
// literal's resolved type); neg negates it (a unary minus applied to it).
func literalKonst(l *ir.Literal, t ir.Type, neg bool) (*konst, error) {
	k := &konst{}
	switch l.Kind {
	case ir.LitBool:
		k.b = strings.EqualFold(l.Text, "true")
	case ir.LitInt:
		v, ok := new(big.Int).SetString(l.Text, 10)
		if !ok {
			return nil, fmt.Errorf("integer literal %q", l.Text)
		}
		if t.Kind == ir.TDecimal && t.Scale > 0 {
			v.Mul(v, pow10(t.Scale))
		}
		if t.IsFloat() {
			f, _ := new(big.Float).SetInt(v).Float64()
			k.f = f
		}
		k.i = v
	case ir.LitDecimal:
		intPart, frac, _ := strings.Cut(l.Text, ".")
		digits := strings.TrimPrefix(intPart+frac, "+")
		v, ok := new(big.Int).SetString(digits, 10)
		if !ok {
			return nil, fmt.Errorf("decimal literal %q", l.Text)
		}
		if t.Kind == ir.TDecimal {
			// the literal's own scale is len(frac); its type may carry more
			if d := t.Scale - len(frac); d > 0 {
				v.Mul(v, pow10(d))
			}
		}
		if t.IsFloat() {
			f, err := strconv.ParseFloat(l.Text, 64)
			if err != nil {
				return nil, err
			}
			k.f = f
		}
		k.i = v
	case ir.LitFloat:
		f, err := strconv.ParseFloat(l.Text, 64)
		if err != nil {
			return nil, err
		}
		k.f = f
	case ir.LitString:
		k.s = l.Text
	case ir.LitInterval:
		d, err := ir.ParseDuration(l.Text)
		if err != nil {
			return nil, err
		}
		per := int64(time.Second) / unitsPerSecond[t.Unit]
		k.i = big.NewInt(int64(d) / per)
	case ir.LitDate:
		tm, err := time.Parse("2006-01-02", l.Text)
		if err != nil {
			return nil, err
		}
		k.i = big.NewInt(tm.Unix() / 86400)
	case ir.LitTimestamp:
		tm, err := parseTimestampText(l.Text)
		if err != nil {
			return nil, err
		}
		ns := new(big.Int).Mul(big.NewInt(tm.Unix()), big.NewInt(1e9))
		ns.Add(ns, big.NewInt(int64(tm.Nanosecond())))
		k.i = ns.Div(ns, big.NewInt(1e9/unitsPerSecond[t.Unit]))
	default:
		return nil, fmt.Errorf("literal of kind %s", l.Kind)
	}
	if neg {
		if k.i != nil {
			k.i.Neg(k.i)
		}
		k.f = -k.f
	}
	return k, nil
}

// parseTimestampText parses the canonical timestamp literal text (UTC).
func parseTimestampText(s string) (time.Time, error) {
	for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("timestamp literal %q", s)
}

// fitsInt reports whether v fits integer type t.
func fitsInt(v *big.Int, t ir.Type) bool {
	bits := bitsOf(t)
	if t.IsUnsigned() {
		return v.Sign() >= 0 && v.BitLen() <= bits
	}
	lo := new(big.Int).Neg(new(big.Int).Lsh(bigOne, uint(bits-1)))
	hi := new(big.Int).Sub(new(big.Int).Lsh(bigOne, uint(bits-1)), bigOne)
	return v.Cmp(lo) >= 0 && v.Cmp(hi) <= 0
}

// convertKonst converts a constant of type from to type to at generation
// time, when that is exact and cannot fail; false leaves the conversion to
// run time (which raises the error Spark raises).
func convertKonst(k *konst, from, to ir.Type) (*konst, bool) {
	switch {
	case from == to:
		return k, true
	case from.IsInteger() && to.IsInteger():
		if fitsInt(k.i, to) {
			return k, true
		}
	case from.IsInteger() && to.IsFloat():
		f, _ := new(big.Float).SetInt(k.i).Float64()
		if to.Kind == ir.TFloat32 {
			f = float64(float32(f))
		}
		return &konst{f: f}, true
	case from.Kind == ir.TFloat32 && to.Kind == ir.TFloat64:
		return k, true
	case from.IsInteger() && to.Kind == ir.TDecimal:
		v := new(big.Int).Mul(k.i, pow10(to.Scale))
		if decimalFits(v, to.Precision) {
			return &konst{i: v}, true
		}
	case from.Kind == ir.TDecimal && to.Kind == ir.TDecimal:
		if to.Scale >= from.Scale {
			v := new(big.Int).Mul(k.i, pow10(to.Scale-from.Scale))
			if decimalFits(v, to.Precision) {
				return &konst{i: v}, true
			}
		}
	case from.Kind == ir.TDecimal && to.IsFloat():
		f, _ := new(big.Rat).SetFrac(k.i, pow10(from.Scale)).Float64()
		if to.Kind == ir.TFloat32 {
			f = float64(float32(f))
		}
		return &konst{f: f}, true
	case from.Kind == ir.TDate32 && to.Kind == ir.TTimestamp:
		v := new(big.Int).Mul(k.i, big.NewInt(86400*unitsPerSecond[to.Unit]))
		if v.IsInt64() {
			return &konst{i: v}, true
		}
	case (from.Kind == ir.TTimestamp && to.Kind == ir.TTimestamp) || (from.Kind == ir.TDuration && to.Kind == ir.TDuration):
		if to.Unit >= from.Unit {
			v := new(big.Int).Mul(k.i, big.NewInt(unitsPerSecond[to.Unit]/unitsPerSecond[from.Unit]))
			if v.IsInt64() {
				return &konst{i: v}, true
			}
		}
	}
	return nil, false
}

// decimalFits reports whether an unscaled value has at most p digits.
func decimalFits(v *big.Int, p int) bool {
	return new(big.Int).Abs(v).Cmp(pow10(p)) < 0
}

// typedNum renders a numeric constant converted to a Go type: int64(5).
func typedNum(goType, text string) *jen.Statement {
	return jen.Id(goType).Call(jen.Id(text))
}

// konstCode renders a constant of type t as a Go expression of t's Go type.
func konstCode(k *konst, t ir.Type) jen.Code {
	switch t.Kind {
	case ir.TBool:
		return jen.Lit(k.b)
	case ir.TInt8, ir.TInt16, ir.TInt32, ir.TInt64, ir.TUint8, ir.TUint16, ir.TUint32, ir.TUint64:
		return typedNum(strings.ToLower(mustPhys(t).array), k.i.String())
	case ir.TDate32:
		return typedNum("int32", k.i.String())
	case ir.TTimestamp, ir.TDuration:
		return typedNum("int64", k.i.String())
	case ir.TFloat64:
		return floatCode(k.f, "float64")
	case ir.TFloat32:
		return floatCode(float64(float32(k.f)), "float32")
	case ir.TDecimal:
		return decimalCode(k.i)
	case ir.TString:
		return jen.Lit(k.s)
	case ir.TBinary:
		return jen.Index().Byte().Parens(jen.Lit(k.s))
	}
	panic(fmt.Sprintf("konstCode: no constant of type %s", t))
}

// floatCode renders a float constant of the given Go type (NaN and the
// infinities through math).
func floatCode(f float64, goType string) jen.Code {
	switch {
	case math.IsInf(f, 1):
		return jen.Id(goType).Call(jen.Qual(mathPkg, "Inf").Call(jen.Lit(1)))
	case math.IsInf(f, -1):
		return jen.Id(goType).Call(jen.Qual(mathPkg, "Inf").Call(jen.Lit(-1)))
	case math.IsNaN(f):
		return jen.Id(goType).Call(jen.Qual(mathPkg, "NaN").Call())
	}
	return typedNum(goType, strconv.FormatFloat(f, 'g', -1, 64))
}

// decimalCode renders an unscaled 128-bit value as decimal128.New(hi, lo).
func decimalCode(v *big.Int) jen.Code {
	if v.Cmp(maxI128) > 0 || v.Cmp(minI128) < 0 {
		panic(fmt.Sprintf("decimal constant %s does not fit 128 bits", v))
	}
	u := new(big.Int).Set(v)
	if u.Sign() < 0 {
		u.Add(u, new(big.Int).Lsh(bigOne, 128))
	}
	lo := new(big.Int).And(u, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
	hiU := new(big.Int).Rsh(u, 64).Uint64()
	return jen.Qual(decimalPkg, "New").Call(jen.Id(strconv.FormatInt(int64(hiU), 10)), jen.Id(strconv.FormatUint(lo, 10)))
}
