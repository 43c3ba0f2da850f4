package passes

import (
	"strconv"
	"strings"

	"github.com/nordisk/thund/ir"
)

// aggFunctions are the aggregate functions beyond count, sum, avg, min, max, first, last and any_value (famAggregate) whose answers the Spark lane checks
// (testdata/spark/fn_*). Each skips the rows whose arguments are NULL
// (count_if and bool_and/bool_or a NULL condition; the two-argument ones a
// row where either is NULL, max_by and min_by one whose ordering is). The
// native backend computes them in batch aggregates (group by, global,
// grouping sets, FILTER, DISTINCT of one column), and the moments,
// percentiles and pair statistics over windows too; the plan pass refuses
// them over streams and the others over windows (plan_agg.go).
var aggFunctions = []funcSig{
	// the moments: Spark's CentralMomentAgg, DOUBLE of a numeric argument
	{name: "stddev_samp", aliases: []string{"stddev", "std"}, agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "the sample standard deviation, a DOUBLE (NULL below two rows)"},
	{name: "stddev_pop", agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "the population standard deviation, a DOUBLE"},
	{name: "var_samp", aliases: []string{"variance"}, agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "the sample variance, a DOUBLE (NULL below two rows)"},
	{name: "var_pop", agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "the population variance, a DOUBLE"},
	{name: "skewness", agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "the skewness, sqrt(n) * m3 / m2^1.5 (NULL when every value is equal)"},
	{name: "kurtosis", agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "the excess kurtosis, n * m4 / m2^2 - 3 (NULL when every value is equal)"},

	// the co-moments of pairs: Spark's Covariance, Corr and the regr_
	// functions (regr_*(y, x): y the dependent variable)
	{name: "corr", agg: true, minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "Pearson's correlation coefficient of the pairs (NULL below two rows; ANSI: DIVIDE_BY_ZERO when either is constant)"},
	{name: "covar_samp", agg: true, minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "the sample covariance of the pairs (NULL below two rows)"},
	{name: "covar_pop", agg: true, minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "the population covariance of the pairs"},
	{name: "regr_count", agg: true, minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, ret: ir.Int64, result: resFixed, nulls: nullNever, family: famAggregate,
		doc: "regr_count(y, x): the number of rows where neither is NULL"},
	{name: "regr_avgx", agg: true, minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, result: resCustom, nulls: nullAlways, family: famAggregate,
		typeFn: regrAvgType(1), resultDoc: "avg's type of x", native: regrAvgNative(1),
		doc: "regr_avgx(y, x): the mean of x over the rows where neither is NULL"},
	{name: "regr_avgy", agg: true, minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, result: resCustom, nulls: nullAlways, family: famAggregate,
		typeFn: regrAvgType(0), resultDoc: "avg's type of y", native: regrAvgNative(0),
		doc: "regr_avgy(y, x): the mean of y over the rows where neither is NULL"},
	{name: "regr_sxx", agg: true, minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "regr_sxx(y, x): the sum of squares of x's deviations from its mean"},
	{name: "regr_syy", agg: true, minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "regr_syy(y, x): the sum of squares of y's deviations from its mean"},
	{name: "regr_sxy", agg: true, minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "regr_sxy(y, x): the sum of the products of x's and y's deviations"},
	{name: "regr_slope", agg: true, minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "regr_slope(y, x): the least-squares slope, covar_pop(y, x) / var_pop(x) (NULL when x is constant)"},
	{name: "regr_intercept", agg: true, minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "regr_intercept(y, x): the least-squares intercept, avg(y) - slope * avg(x) (NULL when x is constant)"},
	{name: "regr_r2", agg: true, minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "regr_r2(y, x): the coefficient of determination (NULL when x is constant, 1 when y is)"},

	// conditions and bits
	{name: "count_if", agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argBool}, ret: ir.Int64, result: resFixed, nulls: nullNever, family: famAggregate,
		doc: "the number of rows where the condition is true"},
	{name: "bool_and", aliases: []string{"every"}, agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argBool}, ret: ir.Bool, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "true when every non-NULL value is true"},
	{name: "bool_or", aliases: []string{"some", "any"}, agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argBool}, ret: ir.Bool, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "true when some non-NULL value is true"},
	{name: "bit_and", agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argInteger}, result: resArg0, nulls: nullAlways, family: famAggregate,
		doc: "the bitwise AND of the non-NULL values, in their type"},
	{name: "bit_or", agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argInteger}, result: resArg0, nulls: nullAlways, family: famAggregate,
		doc: "the bitwise OR of the non-NULL values, in their type"},
	{name: "bit_xor", agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argInteger}, result: resArg0, nulls: nullAlways, family: famAggregate,
		doc: "the bitwise XOR of the non-NULL values, in their type"},

	// the value at an extreme of another column
	{name: "max_by", agg: true, minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resArg0, nulls: nullAlways, family: famAggregate,
		native: byNative,
		doc:    "max_by(x, y): the x of the row with the largest non-NULL y (of tied rows, the last in input order, as Spark's single partition gives it)"},
	{name: "min_by", agg: true, minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resArg0, nulls: nullAlways, family: famAggregate,
		native: byNative,
		doc:    "min_by(x, y): the x of the row with the smallest non-NULL y (of tied rows, the last in input order, as Spark's single partition gives it)"},

	// percentiles
	{name: "median", agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, nulls: nullAlways, family: famAggregate,
		doc: "percentile(x, 0.5): the exact median, interpolated between the two middle values, a DOUBLE"},
	{name: "percentile", agg: true, minArgs: 2, maxArgs: 3, args: []argRule{argNumeric, argNumeric, argInteger}, result: resCustom, nulls: nullAlways, family: famAggregate,
		typeFn: percentileType, resultDoc: "DOUBLE",
		doc: "percentile(x, p [, frequency]): the exact p-th percentile (p a constant from 0 to 1), interpolated linearly, each row counted frequency times (ANSI: a negative frequency is an error)"},
	{name: "percentile_approx", aliases: []string{"approx_percentile"}, agg: true, minArgs: 2, maxArgs: 3, args: []argRule{argAny, argNumeric, argInteger}, result: resCustom, nulls: nullAlways, family: famAggregate,
		typeFn: percentileType, resultDoc: "the type of x", native: percentileApproxNative,
		doc: "percentile_approx(x, p [, accuracy]): the value of rank ceil(p * n) (p a constant from 0 to 1); Spark's sketch is within n / accuracy ranks of it (default accuracy 10000), and equal below accuracy / 2 rows, which the native backend computes exactly"},

	// sum and avg that give NULL for an overflow
	{name: "try_sum", agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, result: resSum, nulls: nullAlways, family: famAggregate,
		doc: "sum, NULL instead of an overflow error"},
	{name: "try_avg", agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, result: resAvg, nulls: nullAlways, family: famAggregate,
		doc: "avg, NULL instead of an overflow error"},
}

// regrAvgType types regr_avgx (arg 1) and regr_avgy (arg 0): avg's type of
// that argument (Spark's Average of it).
func regrAvgType(arg int) func(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	return func(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) { return avgType(types[arg]), true }
}

// regrAvgNative refuses regr_avgx and regr_avgy of a decimal, whose
// decimal mean the native accumulator (doubles) does not keep.
func regrAvgNative(arg int) func(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	return func(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
		if args[arg].Kind == ir.TDecimal {
			return e.Args[arg].Position(), e.Name + " of a decimal is not supported yet: cast it to double"
		}
		return ir.Pos{}, ""
	}
}

// byNative refuses max_by and min_by whose ordering the native comparison
// does not cover.
func byNative(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	t := args[1]
	if t.IsNumeric() || isTime(t) || t.Kind == ir.TString || t.Kind == ir.TBool {
		return ir.Pos{}, ""
	}
	return e.Args[1].Position(), e.Name + " ordered by " + t.String() + " is not supported yet"
}

// percentileType types percentile and percentile_approx: the percentage
// is a constant from 0 to 1 (Spark's NON_FOLDABLE_INPUT and
// VALUE_OUT_OF_RANGE), percentile_approx's accuracy a positive integer
// constant; percentile gives a DOUBLE, percentile_approx x's type (a
// number, date or timestamp).
func percentileType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	if _, ok := Percentage(e.Args[1]); !ok {
		r.errorf(e.Args[1].Position(), ir.CodeTypeMismatch, "the percentage of %s must be a numeric constant between 0.0 and 1.0, got %s", e.Name, exprString(e.Args[1]))
		return ir.Type{}, false
	}
	if strings.EqualFold(e.Name, "percentile") {
		return ir.Float64, true
	}
	if t := types[0]; !t.IsNumeric() && !isTime(t) && !isUnknown(t) {
		r.errorf(e.Args[0].Position(), ir.CodeTypeMismatch, "%s needs a numeric, date or timestamp argument, got %s", e.Name, t)
		return ir.Type{}, false
	}
	if len(e.Args) == 3 {
		if v, ok := IntConstant(e.Args[2]); !ok || v <= 0 {
			r.errorf(e.Args[2].Position(), ir.CodeTypeMismatch, "the accuracy of %s must be a positive integer constant, got %s", e.Name, exprString(e.Args[2]))
			return ir.Type{}, false
		}
	}
	return types[0], true
}

// percentileApproxNative refuses percentile_approx of a decimal, which
// the native sort does not order yet.
func percentileApproxNative(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	if args[0].Kind == ir.TDecimal {
		return e.Args[0].Position(), e.Name + " of a decimal is not supported yet: cast it to double"
	}
	return ir.Pos{}, ""
}

// Percentage is the constant percentage of percentile and
// percentile_approx: a numeric literal from 0 to 1.
func Percentage(e ir.Expr) (float64, bool) {
	l, ok := e.(*ir.Literal)
	if !ok || l.Kind != ir.LitInt && l.Kind != ir.LitDecimal && l.Kind != ir.LitFloat {
		return 0, false
	}
	v, err := strconv.ParseFloat(l.Text, 64)
	return v, err == nil && v >= 0 && v <= 1
}
