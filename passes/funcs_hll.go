package passes

import (
	"math"
	"strconv"

	"github.com/nordisk/thund/ir"
)

// hllFunctions are this slice's functions whose answers the Spark lane
// checks (testdata/spark/fn_bits): make_dt_interval, and the approximate
// distinct count (famAggregate; equal to Spark's where the algorithms
// agree, within the stated error elsewhere): approx_count_distinct is
// HyperLogLog++ over Spark's xxhash64 of each value (rt/sqlfn/hll.go).
// The native backend computes it in batch aggregates (group by, global,
// grouping sets, FILTER); the plan refuses it over streams and windows
// (plan_agg.go), as the other family aggregates.
var hllFunctions = []funcSig{
	{name: "approx_count_distinct", agg: true, minArgs: 1, maxArgs: 2, args: []argRule{argAny, argNumeric}, result: resCustom, nulls: nullNever, family: famAggregate,
		typeFn: approxCountType, resultDoc: "BIGINT", native: approxCountNative,
		doc: "approx_count_distinct(x [, relativeSD]): HyperLogLog++ over xxhash64(x) with 2^p registers, p = ceil(2 log2(1.106 / relativeSD)) (default 0.05: p 9); " +
			"Spark's answer while linear counting gives it (up to the HLL++ paper's threshold, 400 distinct values at p 9) and from 5 * 2^p up; " +
			"in between Spark corrects the raw estimate by the paper's empirical bias table, and the native backend counts linearly instead: " +
			"relative standard error at most 2.4 / sqrt(2^p) there, 1.04 / sqrt(2^p) elsewhere"},
	{name: "make_dt_interval", minArgs: 0, maxArgs: 4, args: []argRule{argInt32, argInt32, argInt32, argNumeric}, ret: ir.DurationType(ir.Micro), result: resFixed, family: famTime,
		doc: "make_dt_interval([days [, hours [, mins [, secs]]]]): the INTERVAL DAY TO SECOND of days, hours, minutes (INT, SMALLINT or TINYINT; default 0) and seconds (cast to DECIMAL(18,6), rounding half up; default 0); beyond a long's microseconds it is INTERVAL_ARITHMETIC_OVERFLOW"},
}

// uuidReason is why the native backend does not run uuid (a sparkOnly
// function): Spark draws each row's UUID from a generator seeded per
// partition, so no other engine reproduces its values.
const uuidReason = "draws a random UUID per row from a generator Spark seeds per partition, which the native runtime cannot reproduce: target spark-4.1 or spark-4.2, or derive an identifier from columns (sha2, xxhash64)"

// defaultRelativeSD is approx_count_distinct's default relative standard
// deviation.
const defaultRelativeSD = 0.05

// hllMaxPrecision is the largest precision the native registers support
// (rt/sqlfn.HLLMaxPrecision: the HLL++ paper's thresholds end at 18).
const hllMaxPrecision = 18

// RelativeSD is approx_count_distinct's relative standard deviation: its
// second argument, a decimal or double literal, or the default; false
// when that argument is not one.
func RelativeSD(e *ir.Call) (float64, bool) {
	if len(e.Args) < 2 {
		return defaultRelativeSD, true
	}
	x, neg := e.Args[1], false
	if u, ok := x.(*ir.Unary); ok && u.Op == ir.OpNeg {
		x, neg = u.X, true
	}
	l, ok := x.(*ir.Literal)
	if !ok || l.Kind != ir.LitDecimal && l.Kind != ir.LitFloat {
		return 0, false
	}
	v, err := strconv.ParseFloat(l.Text, 64)
	if neg {
		v = -v
	}
	return v, err == nil
}

// HLLPrecision is Spark's precision p of approx_count_distinct for a
// relative standard deviation: ceil(2 * log2(1.106 / relativeSD)); the
// registers are 2^p.
func HLLPrecision(relativeSD float64) int {
	p := math.Ceil(2 * math.Log2(1.106/relativeSD))
	if math.IsNaN(p) { // a negative relativeSD: Java's (int) NaN
		return 0
	}
	return int(p)
}

// approxCountType: the relative standard deviation is a decimal or double
// literal (Spark: "The second argument should be a double literal.")
// giving a precision of at least 4 (a relativeSD up to 0.39); the result
// is a BIGINT.
func approxCountType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	sd, ok := RelativeSD(e)
	if !ok {
		r.errorf(e.Args[1].Position(), ir.CodeTypeMismatch, "the relative standard deviation of %s must be a double literal, got %s", e.Name, exprString(e.Args[1]))
		return ir.Type{}, false
	}
	if HLLPrecision(sd) < 4 {
		r.errorf(e.Args[1].Position(), ir.CodeTypeMismatch, "the relative standard deviation of %s must be positive and at most 0.39 (HLL++ needs at least 4 bits of addressing), got %s", e.Name, exprString(e.Args[1]))
		return ir.Type{}, false
	}
	return ir.Int64, true
}

// approxCountNative refuses what the native registers do not take: a
// precision above 18, and a value xxhash64 does not hash natively (a
// nested one).
func approxCountNative(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	if sd, _ := RelativeSD(e); HLLPrecision(sd) > hllMaxPrecision {
		return e.Args[1].Position(), e.Name + " with a relative standard deviation below 0.0022 (a precision above 18) is not supported yet"
	}
	switch t := args[0]; {
	case t.IsNumeric(), t.Kind == ir.TBool, t.Kind == ir.TString, t.Kind == ir.TBinary, isTime(t), t.Kind == ir.TDuration:
		return ir.Pos{}, ""
	}
	return e.Args[0].Position(), e.Name + " of " + args[0].String() + " is not supported yet"
}
