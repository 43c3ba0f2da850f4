package passes

import "github.com/nordisk/thund/ir"

// condFunctions are the conditional and NULL-handling functions (famConditional) whose answers the Spark lane checks
// (testdata/spark/fn_*). The ones that choose between arguments evaluate only
// the argument they return, as Spark does: nvl2(a, b, 1/0) does not fail
// where a is not NULL.
var condFunctions = []funcSig{
	{name: "nvl", aliases: []string{"ifnull"}, minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resCommon, nulls: nullAllArgs, family: famConditional, doc: "a when it is not NULL, else b (b is not evaluated otherwise)"},
	{name: "nvl2", minArgs: 3, maxArgs: 3, args: []argRule{argAny}, result: resCommonTail, nulls: nullTail, family: famConditional, doc: "b when a is not NULL, else c (the other is not evaluated)"},
	{name: "isnull", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, ret: ir.Bool, result: resFixed, nulls: nullNever, family: famConditional, doc: "whether x is NULL"},
	{name: "isnotnull", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, ret: ir.Bool, result: resFixed, nulls: nullNever, family: famConditional, doc: "whether x is not NULL"},
	{name: "equal_null", minArgs: 2, maxArgs: 2, args: []argRule{argAny}, ret: ir.Bool, result: resCustom, typeFn: equalNullType, resultDoc: "BOOLEAN", nulls: nullNever, family: famConditional, doc: "a <=> b: true when both are NULL or equal, false otherwise (never NULL)"},
	{name: "zeroifnull", minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, result: resCustom, typeFn: zeroIfNullType, resultDoc: "the common type of x and INT", nulls: nullNever, family: famConditional, doc: "x, or 0 when x is NULL (nvl(x, 0))"},
	{name: "nullifzero", minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, result: resArg0, nulls: nullAlways, family: famConditional, doc: "NULL when x = 0 (-0.0 included), else x (nullif(x, 0))"},
	{name: "isnan", minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, ret: ir.Bool, result: resFixed, nulls: nullNever, family: famConditional, doc: "whether x is NaN (false for NULL)"},
	{name: "raise_error", minArgs: 1, maxArgs: 1, args: []argRule{argString}, ret: ir.Type{}, result: resFixed, nulls: nullAlways, family: famConditional, doc: "fails the query with USER_RAISED_EXCEPTION and the message (its type is NULL's: use it in a branch, CASE WHEN bad THEN raise_error('why') ELSE x END)"},
	{name: "assert_true", minArgs: 1, maxArgs: 2, args: []argRule{argBool, argString}, ret: ir.Type{}, result: resFixed, nulls: nullAlways, native: nativeAssertTrue, family: famConditional, doc: "NULL when the condition is true, else fails the query with USER_RAISED_EXCEPTION and the message (the message is evaluated only then)"},
	{name: "nanvl", minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, result: resCustom, typeFn: nanvlType, resultDoc: "FLOAT when both are FLOAT, else DOUBLE", family: famConditional, doc: "a unless it is NaN, else b (b is not evaluated otherwise; NULL a is NULL)"},
}

// equalNullType types equal_null(a, b): the operands must compare.
func equalNullType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	return ir.Bool, r.compare(e.Pos, "<=>", types[0], types[1], e.Args[0], e.Args[1])
}

// zeroIfNullType is zeroifnull's type: Spark's nvl(x, 0), the common type
// of x and the INT literal 0 (a TINYINT becomes an INT, a DECIMAL(1,0) a
// DECIMAL(10,0)).
func zeroIfNullType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	t, _ := commonType(types[0], ir.Int32)
	return t, true
}

// nanvlType is nanvl's type: Spark casts both arguments to DOUBLE unless
// both are FLOAT.
func nanvlType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	if types[0].Kind == ir.TFloat32 && types[1].Kind == ir.TFloat32 {
		return ir.Float32, true
	}
	return ir.Float64, true
}

// nativeAssertTrue: assert_true needs its message natively; without one,
// Spark's message is the condition's SQL text ('(x > 0)' is not true!),
// which the native backend does not render as Spark does.
func nativeAssertTrue(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	if len(e.Args) == 1 {
		return e.Pos, "assert_true without a message is not supported yet: give one, assert_true(cond, 'message')"
	}
	return ir.Pos{}, ""
}
