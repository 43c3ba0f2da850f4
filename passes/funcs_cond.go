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
