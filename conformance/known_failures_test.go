package conformance

// knownFailures lists tests (by full name, Test.../view) that fail today
// because of a bug or a missing feature in codegen or rt (not in this
// module). A listed test that fails is logged (t.Log), not failed, so the
// lead can decide; a listed test that passes logs that it can be removed.
// Each entry says why.
var knownFailures = map[string]string{}

func init() {
	both := func(view, why string) {
		knownFailures["TestConformance/"+view] = why
		knownFailures["TestThreadsIdentical/"+view] = why
	}
	// ln(5e-324): Þund -709.0895657128241, Spark (Math.log) and DuckDB
	// -744.4400719213812. rt/sqlfn.Ln and Log10 call math.Log, whose amd64
	// assembly does not normalize subnormal inputs (golang/go#56600).
	knownFailures["TestConformance/expr_ln_subnormal"] = "rt: ln/log10 of a subnormal double is wrong on amd64 (Go's math.Log, golang/go#56600)"
	// avg(decimal(38,10)): Spark divides sum (decimal(38,10)) by count
	// (decimal(20,0)) in Divide's adjusted type decimal(38,10), then casts
	// to decimal(38,14): 41152.87448559630000. Þund divides straight to
	// scale 14: 41152.87448559633333.
	knownFailures["TestConformance/agg_avg_wide_decimal"] = "codegen/rt: avg(decimal) skips Spark's intermediate Divide type (precision loss when p+10 > 38)"
	// not built: codegen refuses correlated subqueries (a documented gap)
	both("expr_subquery_correlated", "codegen: correlated subqueries are refused (not supported yet)")
	both("expr_subquery_correlated_in", "codegen: correlated subqueries are refused (not supported yet)")
	// not built: sum(distinct x) and avg(distinct x) make codegen fail with
	// "internal error: ... aggregate sum outside an aggregate" instead of
	// computing them (or refusing them with a diagnostic)
	both("agg_sum_distinct", "codegen: sum(distinct) is an internal error")
	both("agg_avg_distinct", "codegen: avg(distinct) is an internal error")
}
