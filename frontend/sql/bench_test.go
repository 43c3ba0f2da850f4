package sql_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nordisk/thund/frontend/sql"
)

// largeSQL is a pipeline of n statements: a source view and n-1
// materialized views over it.
func largeSQL(n int) []byte {
	var b strings.Builder
	b.WriteString("CREATE TEMPORARY VIEW s (a BIGINT, b STRING) AS SELECT * FROM read_files('s.csv', format => 'csv');\n")
	for i := 0; i < n-1; i++ {
		fmt.Fprintf(&b, "CREATE MATERIALIZED VIEW m%d AS SELECT a, b FROM s WHERE a > %d;\n", i, i)
	}
	return []byte(b.String())
}

// BenchmarkParseLarge parses 5,000 and 10,000 statements: the second
// should cost about twice the first (parsing is linear in the input).
func BenchmarkParseLarge(b *testing.B) {
	for _, n := range []int{5000, 10000} {
		src := largeSQL(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, diags := sql.Parse([]sql.File{{Name: "big.sql", Src: src}}); diags.HasErrors() {
					b.Fatal(diags)
				}
			}
		})
	}
}
