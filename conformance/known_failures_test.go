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
	// not built: codegen refuses sum(distinct x) and avg(distinct x) with a
	// capability diagnostic (not supported yet)
	both("agg_sum_distinct", "codegen: sum(distinct) is refused (not supported yet)")
	both("agg_avg_distinct", "codegen: avg(distinct) is refused (not supported yet)")
}
