package passes_test

import (
	"testing"

	"github.com/nordisk/thund/frontend/sql"
	"github.com/nordisk/thund/passes"
)

// TestSparkSyntaxChecks: each Spark built-in docs/functions.md calls
// "supported as syntax" is, in pipeline SQL: its example query parses and
// passes every pass for each target.
func TestSparkSyntaxChecks(t *testing.T) {
	const head = "CREATE TEMPORARY VIEW t (a BIGINT, b BIGINT, s STRING, p BOOLEAN, ts TIMESTAMP)\n" +
		"AS SELECT * FROM read_files('t/*.parquet', format => 'parquet');\n"
	for name, q := range passes.SparkSyntaxQueries() {
		kind := "MATERIALIZED VIEW"
		if name == "window" || name == "session_window" {
			kind = "STREAMING TABLE"
		}
		src := head + "CREATE " + kind + " v AS " + q + ";\n"
		p, diags := sql.Parse([]sql.File{{Name: "p.sql", Src: []byte(src)}})
		if diags.HasErrors() {
			t.Errorf("%s: %v", name, diags.Err())
			continue
		}
		for _, target := range passes.Targets() {
			if _, err := passes.Run(p, passes.Options{Target: target}); err != nil {
				t.Errorf("%s on %s: %v", name, target, err)
			}
		}
	}
}
