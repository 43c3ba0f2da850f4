package passes

// SparkSyntaxQueries are sparkSyntax's example queries, for
// TestSparkSyntaxChecks (package passes_test, which parses them with
// frontend/sql).
func SparkSyntaxQueries() map[string]string {
	out := map[string]string{}
	for _, s := range sparkSyntax {
		out[s.names[0]] = s.query
	}
	return out
}
