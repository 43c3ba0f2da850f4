package codegen

import (
	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// goMath1 are the math functions that are Go's math function of one DOUBLE
// (the same IEEE special cases as Java's StrictMath).
var goMath1 = map[string]string{
	"sin": "Sin", "cos": "Cos", "tan": "Tan", "asin": "Asin", "acos": "Acos", "atan": "Atan",
	"sinh": "Sinh", "cosh": "Cosh", "tanh": "Tanh", "asinh": "Asinh", "acosh": "Acosh", "atanh": "Atanh",
	"cbrt": "Cbrt", "expm1": "Expm1", "rint": "RoundToEven",
}

// sqlfnMath1 are the math functions that are sqlfn's function of one DOUBLE.
var sqlfnMath1 = map[string]string{
	"cot": "Cot", "sec": "Sec", "csc": "Csc", "degrees": "Degrees", "radians": "Radians", "signum": "Signum",
}

// tryOps are the try_ functions' operators.
var tryOps = map[string]ir.BinaryOp{
	"try_add": ir.OpAdd, "try_subtract": ir.OpSub, "try_multiply": ir.OpMul, "try_divide": ir.OpDiv, "try_mod": ir.OpMod,
}

// genMathCall generates the math functions (passes/funcs_math.go); nil for a call it does not generate.
func (g *flowGen) genMathCall(name string, e *ir.Call, args []*value, t ir.Type) *value {
	sq := func(mode callMode, fn string, vals ...*value) *value { return g.sqlfnCall(t, e.Pos, mode, fn, vals...) }
	f64 := func(i int) *value { return g.coerce(args[i], ir.Float64, e.Pos) }
	if fn, ok := goMath1[name]; ok {
		a := f64(0)
		return g.strict(t, e.Pos, pure, false, []*value{a}, func() jen.Code { return jen.Qual(mathPkg, fn).Call(V(a)) })
	}
	if fn, ok := sqlfnMath1[name]; ok {
		return sq(pure, fn, f64(0))
	}
	if op, ok := tryOps[name]; ok {
		return g.arithTry(op, t, args[0], args[1], e.Pos, true)
	}
	switch name {
	case "pi":
		return plainValue(t, jen.Qual(mathPkg, "Pi"))
	case "e":
		return plainValue(t, jen.Qual(mathPkg, "E"))
	case "atan2":
		return sq(pure, "Atan2", f64(0), f64(1))
	case "hypot":
		a, b := f64(0), f64(1)
		return g.strict(t, e.Pos, pure, false, []*value{a, b}, func() jen.Code { return jen.Qual(mathPkg, "Hypot").Call(V(a), V(b)) })
	case "log":
		if len(args) == 1 {
			return sq(maybe, "Ln", f64(0))
		}
		return sq(maybe, "Log", f64(0), f64(1))
	case "log2":
		return sq(maybe, "Log2", f64(0))
	case "log1p":
		return sq(maybe, "Log1p", f64(0))
	case "bround":
		return g.genRound(e, args[0], t, true)
	case "factorial":
		return sq(maybe, "Factorial", g.asInt32(args[0], e.Pos))
	case "width_bucket":
		return sq(maybe, "WidthBucket", f64(0), f64(1), f64(2), g.coerce(args[3], ir.Int64, e.Pos))
	case "div":
		return sq(checked, "DivInt64", g.coerce(args[0], ir.Int64, e.Pos), g.coerce(args[1], ir.Int64, e.Pos))
	case "positive":
		return args[0]
	case "negative":
		return g.negate(args[0], t, e.Pos)
	case "pmod":
		return g.genPmod(e, args[0], args[1], t)
	}
	return nil
}

// genPmod is pmod(a, n) in its result type t (that of a % n).
func (g *flowGen) genPmod(e *ir.Call, l, r *value, t ir.Type) *value {
	switch {
	case t.IsSigned():
		return g.sqlfnCall(t, e.Pos, checked, "Pmod", g.coerce(l, t, e.Pos), g.coerce(r, t, e.Pos))
	case t.Kind == ir.TFloat64:
		return g.sqlfnCall(t, e.Pos, checked, "PmodFloat64", g.coerce(l, t, e.Pos), g.coerce(r, t, e.Pos))
	case t.Kind == ir.TDecimal:
		a, b := g.toDecimal(l), g.toDecimal(r)
		return g.strict(t, e.Pos, checked, false, []*value{a, b}, func() jen.Code {
			return jen.Qual(sqlfnPkg, "DecimalPmod").Call(V(a), jen.Lit(int32(a.t.Scale)), V(b), jen.Lit(int32(b.t.Scale)), jen.Lit(int32(t.Precision)), jen.Lit(int32(t.Scale)))
		})
	}
	return nil
}

// genRound is round(a, d) (HALF_UP) or, with even, bround(a, d)
// (HALF_EVEN), for a constant scale d (default 0); nil for a call the plan
// does not let through.
func (g *flowGen) genRound(e *ir.Call, a *value, t ir.Type, even bool) *value {
	d := 0
	if len(e.Args) == 2 {
		var ok bool
		if d, ok = passes.IntConstant(e.Args[1]); !ok {
			return nil
		}
	}
	prefix, dec := "Round", "DecimalRound"
	if even {
		prefix, dec = "Bround", "DecimalBround"
	}
	d32 := jen.Lit(int32(d))
	call := func(mode callMode, fn string, extra ...jen.Code) *value {
		return g.strict(t, e.Pos, mode, false, []*value{a}, func() jen.Code {
			return jen.Qual(sqlfnPkg, fn).Call(append([]jen.Code{V(a)}, extra...)...)
		})
	}
	switch {
	case a.t.Kind == ir.TFloat64:
		return call(pure, prefix+"Float64", d32)
	case a.t.Kind == ir.TFloat32:
		return call(pure, prefix+"Float32", d32)
	case a.t.Kind == ir.TInt64:
		return call(checked, prefix+"Int64", d32)
	case a.t.IsSigned():
		return call(checked, prefix+"Int", d32)
	case a.t.Kind == ir.TDecimal:
		return call(checked, dec, jen.Lit(int32(a.t.Scale)), d32, jen.Lit(int32(t.Precision)), jen.Lit(int32(t.Scale)))
	}
	return nil
}
