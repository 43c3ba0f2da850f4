package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkCheckLarge runs `thundc check` in-process on large pipelines:
// SQL files of 5,000 and 10,000 statements, and .thund files of 2,500 and
// 5,000 datasets (a source and views over it). Twice the input should cost
// at most about twice the time (issue 17: at most 2.2x, and each under a
// second); compare the pairs' ns/op.
func BenchmarkCheckLarge(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s.csv"), []byte("a,b\n1,x\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		form string
		n    int
	}{{"sql", 5000}, {"sql", 10000}, {"thund", 2500}, {"thund", 5000}} {
		path := filepath.Join(dir, fmt.Sprintf("big%d.%s", tc.n, tc.form))
		if err := os.WriteFile(path, largePipeline(tc.form, tc.n, dir), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%s/%d", tc.form, tc.n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if st := run([]string{"check", path}, strings.NewReader(""), io.Discard, io.Discard); st != exitOK {
					b.Fatalf("check exits %d", st)
				}
			}
		})
	}
}

// largePipeline is a pipeline of n datasets in form sql or thund: a source
// of dir/s.csv and n-1 views filtering it.
func largePipeline(form string, n int, dir string) []byte {
	var s strings.Builder
	csv := filepath.Join(dir, "s.csv")
	if form == "sql" {
		fmt.Fprintf(&s, "CREATE TEMPORARY VIEW s (a BIGINT, b STRING) AS SELECT * FROM read_files('%s', format => 'csv');\n", csv)
		for i := 0; i < n-1; i++ {
			fmt.Fprintf(&s, "CREATE MATERIALIZED VIEW m%d AS SELECT a, b FROM s WHERE a > %d;\n", i, i)
		}
		return []byte(s.String())
	}
	fmt.Fprintf(&s, "pipeline big\nsource s from csv %q { a int64, b string }\n", csv)
	for i := 0; i < n-1; i++ {
		fmt.Fprintf(&s, "materialized view m%d = from s | where a > %d | select a, b\n", i, i)
	}
	return []byte(s.String())
}
