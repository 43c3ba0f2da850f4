package conformance

// The aggregate family (passes/funcs_agg.go, funcs_hll.go,
// funcs_collect.go, and first, last and any_value of funcs.go) printed as
// DuckDB SQL with Spark 4's meaning. Each printer keeps the call's
// DISTINCT and FILTER (WHERE ...) (aggFilter). Where DuckDB's aggregate
// means something else than Spark's, the difference is spelled out:
//
//   - The moments (stddev, variance, skewness, kurtosis): Spark's
//     CentralMomentAgg turns its second moment into NaN at the first NaN
//     or infinity, so any non-finite input gives NaN (where the count
//     does not give NULL first); DuckDB raises "out of range" instead, so
//     its aggregate reads only the finite values and the NaN is spelled.
//     Spark's skewness and kurtosis are the population g1 and g2, NULL
//     when every value is equal (m2 = 0); DuckDB's skewness is the
//     bias-corrected G1 (NULL below three values), rescaled here, and its
//     kurtosis_pop is g2.
//   - corr of a constant column is DIVIDE_BY_ZERO in Spark (ANSI '/' in
//     its final expression), NaN in DuckDB; regr_slope of a constant x is
//     NULL in Spark, NaN in DuckDB; regr_r2 of a constant y is 1.
//   - max_by/min_by: Spark returns the x of the extreme row even when x
//     is NULL (DuckDB's arg_max_null; arg_max would skip it).
//   - percentile with a frequency counts each row that many times: the
//     values are expanded into one list (list_resize) and interpolated by
//     DuckDB's quantile_cont.
//   - percentile_approx: Spark's sketch keeps every value while 2n is below
//     the accuracy (its compression merges nothing then), and answers the
//     value of rank ceil(p * n) (at least 1); the printer spells that rank
//     over the sorted list and refuses, at run time, a group of 2n >=
//     accuracy rows (error('...')), where the sketch is approximate. The
//     sketch holds doubles: a long's answer is its double narrowed back
//     as Java narrows it (saturating), a timestamp's microseconds too.
//   - approx_count_distinct is HLL++ over xxhash64 (seed 42) with 2^p
//     registers, which DuckDB cannot hash; below sqrt(2^p) distinct values
//     its linear counting rounds to the exact count unless two values share
//     a register. The printer spells count(DISTINCT x) and refuses, at run
//     time, a group with more distinct values than the bound (see
//     hllExactBound); the views use p = 14 (relativeSD 0.01) and few
//     values a group, where a register collision is unlikely (and would
//     show as a count one lower, a false alarm, never a false pass).
//   - try_sum/try_avg: NULL where Spark's sum overflows its type (BIGINT,
//     or decimal(min(p+10, 38), s)); DuckDB's sum is HUGEINT and raises
//     past it, so decimals are summed as two HUGEINT halves of the
//     unscaled value and the total is checked before it is formed.
//   - first, last and any_value (with or without ignoring NULLs) depend on
//     the input's order, which neither engine defines across partitions:
//     the views call them only on a column constant within each group
//     (NULLs aside when they are ignored), so every order gives the answer.
//   - collect_list and collect_set give an empty ARRAY, not NULL, for a
//     group with no value (DuckDB's list gives NULL), and skip NULLs.
//   - make_dt_interval: Spark casts the seconds to DECIMAL(18,6) (HALF_UP)
//     and fails with INTERVAL_ARITHMETIC_OVERFLOW past a long's
//     microseconds; DuckDB's interval is spelled from the microseconds.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

func init() {
	moment := func(p *printer, e *ir.Call) string { return p.agMoment(e) }
	pair := func(p *printer, e *ir.Call) string { return p.agPair(e) }
	simple := func(fn string) func(p *printer, e *ir.Call) string {
		return func(p *printer, e *ir.Call) string {
			p.agArity(e, 1)
			return p.cast(e, fn+"("+p.agDistinct(e)+p.expr(e.Args[0])+")"+p.aggFilter(e))
		}
	}
	registerCalls(map[string]func(p *printer, e *ir.Call) string{
		"stddev_samp": moment, "stddev": moment, "std": moment, "stddev_pop": moment,
		"var_samp": moment, "variance": moment, "var_pop": moment, "skewness": moment, "kurtosis": moment,
		"corr": pair, "covar_samp": pair, "covar_pop": pair, "regr_count": pair, "regr_avgx": pair, "regr_avgy": pair,
		"regr_sxx": pair, "regr_syy": pair, "regr_sxy": pair, "regr_slope": pair, "regr_intercept": pair, "regr_r2": pair,
		"count_if": func(p *printer, e *ir.Call) string {
			// Spark's CountIf is count(if(c, true, NULL)): with DISTINCT,
			// the distinct true values (0 or 1)
			p.agArity(e, 1)
			return fmt.Sprintf("CAST(count(%sCASE WHEN %s THEN true END)%s AS BIGINT)", p.agDistinct(e), p.expr(e.Args[0]), p.aggFilter(e))
		},
		"bool_and": simple("bool_and"), "every": simple("bool_and"),
		"bool_or": simple("bool_or"), "some": simple("bool_or"), "any": simple("bool_or"),
		"bit_and": simple("bit_and"), "bit_or": simple("bit_or"), "bit_xor": simple("bit_xor"),
		"max_by": func(p *printer, e *ir.Call) string { return p.agBy(e, "arg_max_null") },
		"min_by": func(p *printer, e *ir.Call) string { return p.agBy(e, "arg_min_null") },
		"median": func(p *printer, e *ir.Call) string {
			p.agArity(e, 1)
			return fmt.Sprintf("CAST(quantile_cont(%sCAST(%s AS DOUBLE), 0.5)%s AS DOUBLE)", p.agDistinct(e), p.expr(e.Args[0]), p.aggFilter(e))
		},
		"percentile":            func(p *printer, e *ir.Call) string { return p.agPercentile(e) },
		"percentile_approx":     func(p *printer, e *ir.Call) string { return p.agPercentileApprox(e) },
		"approx_percentile":     func(p *printer, e *ir.Call) string { return p.agPercentileApprox(e) },
		"try_sum":               func(p *printer, e *ir.Call) string { return p.agTrySum(e) },
		"try_avg":               func(p *printer, e *ir.Call) string { return p.agTryAvg(e) },
		"first":                 func(p *printer, e *ir.Call) string { return p.agFirstLast(e, "first") },
		"first_value":           func(p *printer, e *ir.Call) string { return p.agFirstLast(e, "first") },
		"any_value":             func(p *printer, e *ir.Call) string { return p.agFirstLast(e, "first") },
		"last":                  func(p *printer, e *ir.Call) string { return p.agFirstLast(e, "last") },
		"last_value":            func(p *printer, e *ir.Call) string { return p.agFirstLast(e, "last") },
		"approx_count_distinct": func(p *printer, e *ir.Call) string { return p.agApproxCount(e) },
		"collect_list":          func(p *printer, e *ir.Call) string { return p.agCollect(e, false) },
		"array_agg":             func(p *printer, e *ir.Call) string { return p.agCollect(e, false) },
		"collect_set":           func(p *printer, e *ir.Call) string { return p.agCollect(e, true) },
		"make_dt_interval":      func(p *printer, e *ir.Call) string { return p.agMakeDTInterval(e) },
	})
	extraTables = append(extraTables, genAgx)
}

// aggFilter is the call's FILTER (WHERE ...), with more conditions ANDed
// to it ("" when there are none).
func (p *printer) aggFilter(e *ir.Call, more ...string) string {
	var conds []string
	if e.Filter != nil {
		conds = append(conds, "("+p.expr(e.Filter)+")")
	}
	conds = append(conds, more...)
	if len(conds) == 0 {
		return ""
	}
	return " FILTER (WHERE " + strings.Join(conds, " AND ") + ")"
}

func (p *printer) agDistinct(e *ir.Call) string {
	if e.Star {
		p.fail(e.Pos, "%s(*)", e.Name)
	}
	if e.Distinct {
		return "DISTINCT "
	}
	return ""
}

func (p *printer) agArity(e *ir.Call, ns ...int) {
	for _, n := range ns {
		if len(e.Args) == n {
			return
		}
	}
	p.fail(e.Pos, "%s with %d arguments", e.Name, len(e.Args))
}

// agMoment prints the moments of one DOUBLE (Spark casts its numeric
// argument to DOUBLE).
func (p *printer) agMoment(e *ir.Call) string {
	p.agArity(e, 1)
	name := strings.ToLower(e.Name)
	x := "CAST(" + p.expr(e.Args[0]) + " AS DOUBLE)"
	d := p.agDistinct(e)
	fin := "isfinite(" + x + ")"
	on := func(fn string) string { return fn + "(" + d + x + ")" + p.aggFilter(e, fin) }
	n := "count(" + d + x + ")" + p.aggFilter(e)
	nonFinite := "count(" + d + x + ")" + p.aggFilter(e, "NOT "+fin) + " > 0"
	minN := 1 // below it, NULL
	var finite string
	switch name {
	case "stddev_samp", "stddev", "std":
		finite, minN = on("stddev_samp"), 2
	case "var_samp", "variance":
		finite, minN = on("var_samp"), 2
	case "stddev_pop":
		finite = on("stddev_pop")
	case "var_pop":
		finite = on("var_pop")
	case "skewness":
		// g1 = G1 * (n - 2) / sqrt(n (n - 1)); two values have m3 = 0
		nf := on("count")
		finite = fmt.Sprintf("CASE WHEN %[1]s = 0 OR %[2]s = %[3]s THEN NULL WHEN %[1]s = 2 THEN CAST(0 AS DOUBLE) "+
			"ELSE %[4]s * (%[1]s - 2) / sqrt(CAST(%[1]s AS DOUBLE) * (%[1]s - 1)) END", nf, on("min"), on("max"), on("skewness"))
	case "kurtosis":
		nf := on("count")
		finite = fmt.Sprintf("CASE WHEN %[1]s = 0 OR %[2]s = %[3]s THEN NULL ELSE %[4]s END", nf, on("min"), on("max"), on("kurtosis_pop"))
	default:
		p.fail(e.Pos, "moment %s", name)
	}
	return fmt.Sprintf("CAST(CASE WHEN %[1]s THEN (CASE WHEN %[2]s < %[3]d THEN NULL ELSE CAST('NaN' AS DOUBLE) END) ELSE %[4]s END AS DOUBLE)",
		nonFinite, n, minN, finite)
}

// agPair prints the pair statistics of (y, x), both cast to DOUBLE; a row
// where either is NULL is skipped (DuckDB's do the same).
func (p *printer) agPair(e *ir.Call) string {
	p.agArity(e, 2)
	if e.Distinct {
		p.fail(e.Pos, "%s(distinct)", e.Name)
	}
	name := strings.ToLower(e.Name)
	yx := "CAST(" + p.expr(e.Args[0]) + " AS DOUBLE), CAST(" + p.expr(e.Args[1]) + " AS DOUBLE)"
	pairs := fmt.Sprintf("(%s) IS NOT NULL AND (%s) IS NOT NULL", p.expr(e.Args[0]), p.expr(e.Args[1]))
	f := p.aggFilter(e)
	call := func(fn string) string { return fn + "(" + yx + ")" + f }
	col := func(i int, fn string) string {
		return fn + "(CAST(" + p.expr(e.Args[i]) + " AS DOUBLE))" + p.aggFilter(e, pairs)
	}
	// constant: every pair has the same value in argument i (a single
	// pair included); NULL (no pair) is not constant
	constant := func(i int) string { return "coalesce(" + col(i, "min") + " = " + col(i, "max") + ", false)" }
	n := "regr_count(" + yx + ")" + f
	switch name {
	case "corr":
		return fmt.Sprintf("CAST(CASE WHEN %s < 2 THEN NULL WHEN %s OR %s THEN error('DIVIDE_BY_ZERO') ELSE %s END AS DOUBLE)",
			n, constant(0), constant(1), call("corr"))
	case "covar_samp", "covar_pop", "regr_sxx", "regr_syy", "regr_sxy":
		return "CAST(" + call(name) + " AS DOUBLE)"
	case "regr_count":
		return "CAST(" + call("regr_count") + " AS BIGINT)"
	case "regr_avgx", "regr_avgy":
		i := map[string]int{"regr_avgx": 1, "regr_avgy": 0}[name]
		if t := p.typeOf(e.Args[i]); t.Kind == ir.TDecimal {
			p.fail(e.Pos, "%s of a decimal", name)
		}
		return p.cast(e, call(name))
	case "regr_slope", "regr_intercept":
		return fmt.Sprintf("CAST(CASE WHEN %s THEN NULL ELSE %s END AS DOUBLE)", constant(1), call(name))
	case "regr_r2":
		return fmt.Sprintf("CAST(CASE WHEN %s < 1 OR %s THEN NULL WHEN %s THEN 1 ELSE %s END AS DOUBLE)",
			n, constant(1), constant(0), call(name))
	}
	p.fail(e.Pos, "pair statistic %s", name)
	return ""
}

// agBy prints max_by/min_by: the x of the row with the extreme non-NULL
// ordering, x possibly NULL. Of tied rows Spark keeps the last in input
// order: the views order by a column unique within each group.
func (p *printer) agBy(e *ir.Call, fn string) string {
	p.agArity(e, 2)
	if e.Distinct {
		p.fail(e.Pos, "%s(distinct)", e.Name)
	}
	return p.cast(e, fmt.Sprintf("%s(%s, %s)%s", fn, p.expr(e.Args[0]), p.expr(e.Args[1]), p.aggFilter(e)))
}

// agPercentile prints Spark's exact percentile: linear interpolation at
// position p * (n - 1) over the DOUBLE values, each row counted frequency
// times (NULL or 0: not at all).
func (p *printer) agPercentile(e *ir.Call) string {
	p.agArity(e, 2, 3)
	pct, ok := passes.Percentage(e.Args[1])
	if !ok {
		p.fail(e.Pos, "percentile with a percentage that is not a constant")
	}
	x := "CAST(" + p.expr(e.Args[0]) + " AS DOUBLE)"
	ps := strconv.FormatFloat(pct, 'g', -1, 64)
	if len(e.Args) == 2 {
		return fmt.Sprintf("CAST(quantile_cont(%s%s, %s)%s AS DOUBLE)", p.agDistinct(e), x, ps, p.aggFilter(e))
	}
	if e.Distinct {
		p.fail(e.Pos, "percentile(distinct) with a frequency")
	}
	fq := p.expr(e.Args[2])
	// a negative frequency is an error in Spark; the printer does not
	// spell its class, so the views keep frequencies >= 0
	return fmt.Sprintf("CAST(CASE WHEN min(%[2]s)%[4]s < 0 THEN error('percentile: negative frequency') "+
		"ELSE list_aggregate(flatten(list(list_resize([%[1]s], CAST(%[2]s AS BIGINT), %[1]s))%[3]s), 'quantile_cont', %[5]s) END AS DOUBLE)",
		x, fq, p.aggFilter(e, x+" IS NOT NULL", fq+" > 0"), p.aggFilter(e, x+" IS NOT NULL"), ps)
}

// agPercentileApprox prints percentile_approx where Spark's sketch is
// exact (see the file comment).
func (p *printer) agPercentileApprox(e *ir.Call) string {
	p.agArity(e, 2, 3)
	pct, ok := passes.Percentage(e.Args[1])
	if !ok {
		p.fail(e.Pos, "percentile_approx with a percentage that is not a constant")
	}
	acc := 10000
	if len(e.Args) == 3 {
		if acc, ok = passes.IntConstant(e.Args[2]); !ok {
			p.fail(e.Pos, "percentile_approx with an accuracy that is not a constant")
		}
	}
	if p.typeOf(e.Args[0]).Kind == ir.TDecimal {
		p.fail(e.Pos, "percentile_approx of a decimal")
	}
	x := p.expr(e.Args[0])
	d := p.agDistinct(e)
	n := "count(" + d + x + ")" + p.aggFilter(e)
	list := "list_sort(list(" + d + x + ")" + p.aggFilter(e, x+" IS NOT NULL") + ")"
	v := fmt.Sprintf("%s[CAST(greatest(ceil(%s * %s), 1) AS BIGINT)]", list, strconv.FormatFloat(pct, 'g', -1, 64), n)
	// Spark's sketch holds doubles and narrows its answer back as Java
	// does: a long beyond 2^53 comes back rounded to a double, and
	// saturates at the long's bounds; a timestamp's microseconds too
	switch p.typeOf(e.Args[0]).Kind {
	case ir.TInt64:
		v = fmt.Sprintf("(CASE WHEN CAST(%[1]s AS DOUBLE) >= 9223372036854775807.0 THEN CAST(9223372036854775807 AS BIGINT) "+
			"WHEN CAST(%[1]s AS DOUBLE) <= -9223372036854775808.0 THEN CAST(-9223372036854775808 AS BIGINT) "+
			"ELSE CAST(CAST(%[1]s AS DOUBLE) AS BIGINT) END)", v)
	case ir.TTimestamp:
		v = fmt.Sprintf("make_timestamp(CAST(CAST(epoch_us(%s) AS DOUBLE) AS BIGINT))", v)
	}
	return p.cast(e, fmt.Sprintf("CASE WHEN %[1]s * 2 >= %[2]d THEN error('percentile_approx: %[2]d rows or more make the sketch approximate') "+
		"ELSE %[3]s END", n, acc, v))
}

// hllExactBound is the largest number of distinct values whose linear
// counting over 2^p registers (m ln(m / (m - n)), rounded) gives n back
// when no two share a register.
func hllExactBound(prec int) int {
	m := math.Ldexp(1, prec)
	n := 0
	for math.Round(m*math.Log(m/(m-float64(n+1)))) == float64(n+1) {
		n++
	}
	return n
}

func (p *printer) agApproxCount(e *ir.Call) string {
	p.agArity(e, 1, 2)
	sd, ok := passes.RelativeSD(e)
	if !ok {
		p.fail(e.Pos, "approx_count_distinct with a relative standard deviation that is not a literal")
	}
	if t := p.typeOf(e.Args[0]); t.IsFloat() {
		// Spark hashes -0.0 and 0.0 (and each NaN's bits) apart; DuckDB's
		// count(DISTINCT) holds them equal
		p.fail(e.Pos, "approx_count_distinct of %s", t)
	}
	bound := hllExactBound(passes.HLLPrecision(sd))
	n := "count(DISTINCT " + p.expr(e.Args[0]) + ")" + p.aggFilter(e)
	return fmt.Sprintf("CAST(CASE WHEN %[1]s > %[2]d THEN error('approx_count_distinct: more than %[2]d distinct values make linear counting inexact') ELSE %[1]s END AS BIGINT)", n, bound)
}

// agTrySum prints try_sum: sum, NULL where Spark's sum overflows its type.
func (p *printer) agTrySum(e *ir.Call) string {
	p.agArity(e, 1)
	at := p.typeOf(e.Args[0])
	x := p.expr(e.Args[0])
	d := p.agDistinct(e)
	switch {
	case at.IsInteger():
		s := "sum(" + d + "CAST(" + x + " AS HUGEINT))" + p.aggFilter(e)
		return fmt.Sprintf("CAST(CASE WHEN %[1]s BETWEEN -9223372036854775808 AND 9223372036854775807 THEN %[1]s END AS BIGINT)", s)
	case at.IsFloat():
		return "CAST(sum(" + d + "CAST(" + x + " AS DOUBLE))" + p.aggFilter(e) + " AS DOUBLE)"
	case at.Kind == ir.TDecimal:
		t := boundedDecimal(at.Precision+10, at.Scale)
		p.agree(e, t)
		total, over := p.agDecimalSum(e, at, t.Precision)
		return fmt.Sprintf("CASE WHEN %s THEN NULL ELSE CAST(spark_dec_text(%s, %s, %d) AS DECIMAL(%d,%d)) END",
			over, total, pow10(at.Scale), at.Scale, t.Precision, t.Scale)
	}
	p.fail(e.Pos, "try_sum of %s", at)
	return ""
}

// agDecimalSum sums a decimal's unscaled values as two HUGEINT halves
// (below and above 10^19), so that no sum of a few rows overflows DuckDB,
// and returns the exact total (to be evaluated only where it fits) and
// the condition that the total needs more than prec digits.
func (p *printer) agDecimalSum(e *ir.Call, at ir.Type, prec int) (total, over string) {
	u := p.unscaled(e.Args[0], p.expr(e.Args[0]), at.Scale)
	d := p.agDistinct(e)
	half := pow10(19)
	hi := fmt.Sprintf("sum(%s%s // %s)%s", d, u, half, p.aggFilter(e))
	lo := fmt.Sprintf("sum(%s%s %% %s)%s", d, u, half, p.aggFilter(e))
	if e.Distinct {
		// the halves of distinct values are not the distinct halves
		p.fail(e.Pos, "try_sum/try_avg(distinct) of a decimal")
	}
	approx := fmt.Sprintf("abs(CAST(%s AS DOUBLE) * 1e19 + CAST(%s AS DOUBLE))", hi, lo)
	return fmt.Sprintf("(%s * %s + %s)", hi, half, lo), fmt.Sprintf("%s >= %s", approx, "1e"+strconv.Itoa(prec))
}

// agTryAvg prints try_avg: avg, NULL where Spark's sum or the result
// overflows (a double average never does).
func (p *printer) agTryAvg(e *ir.Call) string {
	p.agArity(e, 1)
	at := p.typeOf(e.Args[0])
	x := p.expr(e.Args[0])
	d := p.agDistinct(e)
	switch {
	case at.IsNumeric() && at.Kind != ir.TDecimal:
		return "CAST(avg(" + d + "CAST(" + x + " AS DOUBLE))" + p.aggFilter(e) + " AS DOUBLE)"
	case at.Kind == ir.TDecimal:
		sumT := boundedDecimal(at.Precision+10, at.Scale)
		t := boundedDecimal(at.Precision+4, at.Scale+4)
		p.agree(e, t)
		total, over := p.agDecimalSum(e, at, sumT.Precision)
		n := "count(" + x + ")" + p.aggFilter(e)
		// the average, approximately, against the result's integer digits
		big := fmt.Sprintf("abs(CAST(%s AS DOUBLE) / %s / 1e%d) >= 1e%d", total, n, at.Scale, t.Precision-t.Scale)
		return fmt.Sprintf("CASE WHEN %s = 0 THEN NULL WHEN %s THEN NULL WHEN %s THEN NULL ELSE %s END",
			n, over, big, decimalDivide(total, n, at.Scale, 0, t))
	}
	p.fail(e.Pos, "try_avg of %s", at)
	return ""
}

// agFirstLast prints first/last/any_value [ignoring NULLs]: DuckDB's first
// and last keep NULLs; ignoring them is a filter.
func (p *printer) agFirstLast(e *ir.Call, fn string) string {
	p.agArity(e, 1, 2)
	ignore := e.IgnoreNulls
	if len(e.Args) == 2 {
		l, ok := e.Args[1].(*ir.Literal)
		if !ok || l.Kind != ir.LitBool {
			p.fail(e.Pos, "%s with an ignore-nulls argument that is not a constant", e.Name)
		}
		ignore = ignore || strings.EqualFold(l.Text, "true")
	}
	if e.Distinct {
		p.fail(e.Pos, "%s(distinct)", e.Name)
	}
	x := p.expr(e.Args[0])
	var more []string
	if ignore {
		more = append(more, x+" IS NOT NULL")
	}
	return p.cast(e, fn+"("+x+")"+p.aggFilter(e, more...))
}

// agCollect prints collect_list/collect_set: the non-NULL values, an
// empty list when there are none. The order of the list is Spark's input
// order across partitions (undefined), the set's a hash order: the views
// collect only values that are equal within each group, so that every
// order gives the same array.
func (p *printer) agCollect(e *ir.Call, set bool) string {
	p.agArity(e, 1)
	x := p.expr(e.Args[0])
	d := p.agDistinct(e)
	if set {
		d = "DISTINCT "
	}
	t := p.typeOf(e)
	return fmt.Sprintf("CAST(coalesce(list(%s%s)%s, []) AS %s)", d, x, p.aggFilter(e, x+" IS NOT NULL"), duckType(e.Pos, t))
}

// agMakeDTInterval prints make_dt_interval([days [, hours [, mins [,
// secs]]]]) as DuckDB microseconds: the seconds cast to DECIMAL(18,6)
// HALF_UP as Spark casts them; INTERVAL_ARITHMETIC_OVERFLOW past a long.
func (p *printer) agMakeDTInterval(e *ir.Call) string {
	per := []string{"86400000000", "3600000000", "60000000"}
	var parts []string
	for i, a := range e.Args {
		x := p.expr(a)
		if i < 3 {
			parts = append(parts, fmt.Sprintf("CAST(%s AS HUGEINT) * %s", x, per[i]))
			continue
		}
		t := p.typeOf(a)
		if !t.IsInteger() && t.Kind != ir.TDecimal {
			// DuckDB's DOUBLE to DECIMAL cast need not round as
			// BigDecimal(double) HALF_UP does
			p.fail(a.Position(), "make_dt_interval seconds of %s", t)
		}
		parts = append(parts, fmt.Sprintf("CAST(CAST(%s AS DECIMAL(18,6)) * 1000000 AS HUGEINT)", x))
	}
	if len(parts) == 0 {
		return "to_microseconds(CAST(0 AS BIGINT))"
	}
	us := "(" + strings.Join(parts, " + ") + ")"
	return fmt.Sprintf("(CASE WHEN %[1]s NOT BETWEEN -9223372036854775808 AND 9223372036854775807 THEN error('INTERVAL_ARITHMETIC_OVERFLOW') "+
		"ELSE to_microseconds(CAST(%[1]s AS BIGINT)) END)", us)
}

// genAgx is the aggregate family's own data: groups with one row, two
// rows, constant values, only NULLs, a NULL key, a Unicode key, NaN and
// infinities, signed zeros, long and int extremes (try_sum, bit_*), and a
// generated group (its own seed) of unique orderings for max_by/min_by.
// Within every group, c is constant but for NULLs, and k is constant.
func genAgx() *table {
	t := &table{name: "agx", cols: []string{"id", "g", "x", "y", "i", "b", "s", "d", "c", "fq", "day", "ts"},
		quoted: []bool{false, true, false, false, false, false, true, false, true, false, false, false}}
	id := 0
	add := func(g, x, y, i, b, s, d, c, fq string) {
		id++
		day := dateText(19000 + id*37)
		ts := tsText(int64(id)*86_400_000_123+1_700_000_000_000_000, 0)
		t.rows = append(t.rows, []string{strconv.Itoa(id), g, x, y, i, b, s, d, c, fq, day, ts})
	}
	add("one", "2.5", "7", "3", "true", "é", "1.25", "uno", "2")
	add("two", "1.0", "-3", "-1", "false", "a", "-0.50", "dos", "1")
	add("two", "4.0", "5", "2", "true", "😀", "2.00", null, "3")
	for range 4 {
		add("const", "3.0", "9", "4", "true", "c", "1.00", "tres", "1")
	}
	for range 3 {
		add("nul", null, null, null, null, null, null, null, null)
	}
	add(null, "1.5", "1", "1", "true", "n1", "0.10", "nk", "1")
	add(null, "-2.5", "2", "-8", null, "n2", "0.20", null, "0")
	add("big", "1e15", "9223372036854775807", "2147483647", "true", "e\u0301", "99999999.99", "grand", "2")
	add("big", "-1e15", "9223372036854775807", "2147483647", "false", "é", "99999999.99", "grand", "1")
	add("big", "3.0", "9223372036854775806", "-2147483648", "true", "", "-99999999.99", null, "0")
	add("Ωμ😀", "0.25", "-9223372036854775808", "0", "false", "Ω", "0.00", "ωμ", "1")
	add("Ωμ😀", "0.5", "1", "-1", "true", "ω", "0.01", "ωμ", "4")
	add("Ωμ😀", "-0.75", "4", "5", "false", "\U0001F600", "-0.01", "ωμ", "2")
	add("nan", "NaN", "1", "1", "true", "x", "1.00", "nn", "1")
	add("nan", "1.0", "2", "2", "true", "y", "2.00", "nn", "1")
	add("nan", "2.0", "3", "3", "false", "z", "3.00", "nn", "1")
	add("inf", "Infinity", "1", "1", "true", "x", "1.00", "ii", "1")
	add("inf", "-1.0", "2", "2", "true", "y", "2.00", "ii", "2")
	add("ninf", "-Infinity", "1", "1", "true", "x", "1.00", "ni", "1")
	add("ninf", "Infinity", "2", "2", "true", "y", "2.00", "ni", "1")
	add("zero", "-0.0", "0", "0", "false", "-", "0.00", "zz", "1")
	add("zero", "0.0", "0", "0", "false", "+", "-0.00", "zz", "1")
	add("zero", "0.0", "1", "1", "true", "0", "0.00", "zz", "1")
	r := rand.New(rand.NewPCG(20261204, 19))
	maybe := func(v string) string {
		if r.IntN(10) == 0 {
			return null
		}
		return v
	}
	for k := range 60 {
		// x unique: k * 37 mod 101 is a bijection on 0..100
		x := floatText(float64(k*37%101)/8 - 6)
		add("gen", maybe(x), maybe(strconv.Itoa(r.IntN(2_000_001)-1_000_000)), maybe(strconv.Itoa(r.IntN(2001)-1000)),
			maybe(strconv.FormatBool(r.IntN(2) == 0)), maybe(strKeys[r.IntN(len(strKeys))]),
			maybe(decText(r.Int64N(2_000_000)-1_000_000, 2)), maybe("gen"), maybe(strconv.Itoa(r.IntN(4))))
	}
	return t
}
