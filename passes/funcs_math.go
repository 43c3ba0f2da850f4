package passes

import "github.com/nordisk/thund/ir"

// mathFunctions are the math functions (famMath) whose answers the Spark lane checks
// (testdata/spark/fn_*). Spark computes the transcendental ones on DOUBLE (any
// numeric argument is cast to it); a string argument, which Spark would cast, is
// refused here as a type error (cast it explicitly).
var mathFunctions = []funcSig{
	double1("sin", "the sine of x (radians)"),
	double1("cos", "the cosine of x (radians)"),
	double1("tan", "the tangent of x (radians)"),
	double1("cot", "the cotangent 1 / tan(x) (infinite at 0)"),
	double1("sec", "the secant 1 / cos(x)"),
	double1("csc", "the cosecant 1 / sin(x) (infinite at 0)"),
	double1("asin", "the arc sine, in radians (NaN outside [-1, 1])"),
	double1("acos", "the arc cosine, in radians (NaN outside [-1, 1])"),
	double1("atan", "the arc tangent, in radians"),
	double1("sinh", "the hyperbolic sine"),
	double1("cosh", "the hyperbolic cosine"),
	double1("tanh", "the hyperbolic tangent"),
	double1("asinh", "the inverse hyperbolic sine, ln(x + sqrt(x² + 1)) as Spark computes it"),
	double1("acosh", "the inverse hyperbolic cosine, ln(x + sqrt(x² - 1)) (NaN below 1)"),
	double1("atanh", "the inverse hyperbolic tangent (NaN outside [-1, 1], infinite at ±1)"),
	double1("cbrt", "the cube root"),
	double1("expm1", "e^x - 1, exact near 0"),
	double1("degrees", "radians converted to degrees"),
	double1("radians", "degrees converted to radians"),
	double1("rint", "the double closest to x that is an integer, ties to even"),
	{name: "signum", aliases: []string{"sign"}, minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, family: famMath, doc: "-1.0, 0.0 or 1.0 by the sign of x, as a double (NaN and -0.0 pass through)"},
	{name: "atan2", minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, family: famMath, doc: "the angle of the point (x, y) = (arg 2, arg 1), in radians"},
	{name: "hypot", minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, family: famMath, doc: "sqrt(a² + b²) without intermediate overflow"},
	{name: "log", minArgs: 1, maxArgs: 2, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famMath, doc: "log(x) is ln(x); log(b, x) is ln(x) / ln(b); NULL when an argument is at or below 0"},
	{name: "log2", minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famMath, doc: "the base-2 logarithm (NULL at or below 0)"},
	{name: "log1p", minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famMath, doc: "ln(1 + x), exact near 0 (NULL at or below -1)"},
	{name: "pi", minArgs: 0, maxArgs: 0, args: []argRule{argAny}, ret: ir.Float64, result: resFixed, nulls: nullNever, family: famMath, doc: "π as a double"},
	{name: "e", minArgs: 0, maxArgs: 0, args: []argRule{argAny}, ret: ir.Float64, result: resFixed, nulls: nullNever, family: famMath, doc: "Euler's number e as a double"},
	{name: "bround", minArgs: 1, maxArgs: 2, args: []argRule{argNumeric, argInteger}, result: resRound, native: nativeRound, family: famMath, doc: "rounds half to even (banker's rounding) to the given scale (default 0); types as round"},
	{name: "factorial", minArgs: 1, maxArgs: 1, args: []argRule{argInteger}, ret: ir.Int64, result: resFixed, nulls: nullAlways, native: nativeSigned, family: famMath, doc: "n! as a BIGINT for n in [0, 20], else NULL (a BIGINT beyond INT is a cast overflow error)"},
	{name: "pmod", minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, result: resMod, native: nativePmod, family: famMath, doc: "the positive remainder of x / y (ANSI: y = 0 is REMAINDER_BY_ZERO); types as %"},
	{name: "div", minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, result: resCustom, typeFn: divType, resultDoc: "BIGINT", native: nativeDiv, family: famMath, doc: "the integral quotient of x / y, truncated (ANSI: y = 0 is DIVIDE_BY_ZERO, overflow an error)"},
	{name: "positive", minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, result: resArg0, family: famMath, doc: "x unchanged"},
	{name: "negative", minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, result: resArg0, native: nativeNegative, family: famMath, doc: "-x (ANSI: the smallest integer of its type is an overflow error)"},
	tryArith("try_add", ir.OpAdd, "a + b, or NULL where + would fail (overflow)"),
	tryArith("try_subtract", ir.OpSub, "a - b, or NULL where - would fail (overflow)"),
	tryArith("try_multiply", ir.OpMul, "a * b, or NULL where * would fail (overflow)"),
	tryArith("try_divide", ir.OpDiv, "a / b, or NULL where / would fail (division by zero, overflow)"),
	tryArith("try_mod", ir.OpMod, "a % b, or NULL where % would fail (division by zero)"),
	{name: "width_bucket", minArgs: 4, maxArgs: 4, args: []argRule{argNumeric, argNumeric, argNumeric, argInteger}, ret: ir.Int64, result: resFixed, nulls: nullAlways, native: nativeWidthBucket, family: famMath, doc: "the bucket, 1 to n, of v among n equal buckets from min to max (0 below, n + 1 above; NULL for n <= 0, min = max, NaN or infinite bounds)"},
}

// randomReason is why the native backend does not run the random functions.
const randomReason = "draws random numbers per Spark partition (its seed plus the partition index), which the native runtime cannot reproduce: target spark-4.1 or spark-4.2, or derive a pseudo-random value from a column (hash)"

// uniformType is uniform's type: the common type of its bounds.
func uniformType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	t, ok := commonType(types[0], types[1])
	if !ok {
		r.errorf(e.Args[1].Position(), ir.CodeTypeMismatch, "uniform's bounds have no common type: %s and %s", types[0], types[1])
	}
	return t, ok
}

// double1 is a math function of one number computed on DOUBLE.
func double1(name, doc string) funcSig {
	return funcSig{name: name, minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, family: famMath, doc: doc}
}

// tryArith is a try_ form of an arithmetic operator: the operator's result
// type, NULL where the operator raises an error.
func tryArith(name string, op ir.BinaryOp, doc string) funcSig {
	return funcSig{name: name, minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resCustom, nulls: nullAlways,
		typeFn: func(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
			t, ok := arithType(op, types[0], types[1], e.Args[0], e.Args[1])
			if !ok {
				r.errorf(e.Pos, ir.CodeTypeMismatch, "%s cannot apply %s to %s and %s: cast an argument", e.Name, op, types[0], types[1])
			}
			return t, ok
		},
		resultDoc: "the type of the operator " + op.String(), native: nativeNumericArith(op), family: famMath, doc: doc}
}

// divType types div(x, y): BIGINT over integers and decimals (Spark's
// IntegralDivide takes BIGINT or DECIMAL, and a float is a type error).
func divType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	for i, t := range types {
		if t.IsFloat() {
			r.errorf(e.Args[i].Position(), ir.CodeTypeMismatch, "div needs integers or decimals, got %s: cast(%s as bigint) or use /", t, exprString(e.Args[i]))
			return invalid, false
		}
	}
	return ir.Int64, true
}

// nativeRound is bround's native check: the types round's generator takes
// (resolve has made the scale an integer constant).
func nativeRound(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	if a := args[0]; !(a.IsFloat() || a.IsSigned() || a.Kind == ir.TDecimal) {
		return e.Args[0].Position(), e.Name + " of " + a.String() + " is not supported yet"
	}
	return ir.Pos{}, ""
}

// nativeSigned accepts signed integer arguments only (the native backend
// has no unsigned form of the call).
func nativeSigned(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	for i, a := range args {
		if !a.IsSigned() {
			return e.Args[i].Position(), e.Name + " of " + a.String() + " is not supported yet"
		}
	}
	return ir.Pos{}, ""
}

// nativePmod: pmod over signed integers, floats and decimals.
func nativePmod(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	t := u.Types[e]
	if t.IsUnsigned() || t.Kind == ir.TFloat32 {
		return e.Pos, "pmod in " + t.String() + " is not supported yet"
	}
	return ir.Pos{}, ""
}

// nativeDiv: div over signed integers (Spark's div of decimals converts a
// quotient beyond BIGINT without an error, which the runtime does not copy).
func nativeDiv(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	for i, a := range args {
		if !a.IsSigned() {
			return e.Args[i].Position(), "div of " + a.String() + " is not supported yet: cast it to bigint"
		}
	}
	return ir.Pos{}, ""
}

// nativeNegative: negative over signed integers, floats and decimals.
func nativeNegative(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	if args[0].IsUnsigned() {
		return e.Args[0].Position(), "negative of " + args[0].String() + " is not supported yet"
	}
	return ir.Pos{}, ""
}

// nativeNumericArith is the native check of a try_ operator: the
// operator's, on numbers (the native runtime's date and interval
// arithmetic raises its errors rather than giving NULL).
func nativeNumericArith(op ir.BinaryOp) func(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	return func(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
		if t := u.Types[e]; !NativeArith(op, t, args[0], args[1]) || !t.IsNumeric() || t.IsUnsigned() || !args[0].IsNumeric() || !args[1].IsNumeric() {
			return e.Pos, e.Name + "(" + args[0].String() + ", " + args[1].String() + ") is not supported yet"
		}
		return ir.Pos{}, ""
	}
}

// nativeWidthBucket: the bucket count must be a signed integer (BIGINT in
// Spark).
func nativeWidthBucket(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	if !args[3].IsSigned() {
		return e.Args[3].Position(), "width_bucket with a bucket count of " + args[3].String() + " is not supported yet"
	}
	return ir.Pos{}, ""
}
