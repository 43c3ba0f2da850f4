package sparkemit

import "github.com/nordisk/thund/ir"

// streamDistinctAgg refuses a distinct aggregate (count(DISTINCT x), ...)
// over a stream, which Spark's UnsupportedOperationChecker rejects when the
// flow starts, whatever the window or the output mode (verified on 4.1.4
// and 4.2.1). The native backend runs count(DISTINCT x) over event-time
// windows (docs/streaming.md). It reports whether n may be lowered.
func (l *lowerer) streamDistinctAgg(n *ir.Aggregate) bool {
	streams := false
	for _, s := range ir.Scans(n.Input) {
		streams = streams || s.Stream
	}
	if !streams {
		return true
	}
	for _, c := range l.e.u.AggCalls[n] {
		if c.Distinct {
			l.refuse(c.Pos, "a distinct aggregate over a stream",
				"Spark: \"Distinct aggregations are not supported on streaming DataFrames/Datasets. Consider using approx_count_distinct() instead.\" (the native backend runs count(distinct x) over event-time windows)")
			return false
		}
	}
	return true
}
