package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// workerMode is the first argument that makes this binary a DuckDB worker:
// one query in a process of its own, so that its peak RSS is measured the
// way the thund executable's is.
const workerMode = "duckdb-worker"

// workerSpec is what a worker runs (its second argument, JSON).
type workerSpec struct {
	Root        string // the folder holding data/
	Threads     int
	MemoryLimit string // empty: DuckDB's default
	Query       string
	Out         string // the Parquet file the result goes to
}

// duckWorker runs one workload: the sources as views over the Parquet files,
// then COPY (query) TO a Snappy Parquet file.
func duckWorker(args []string) int {
	var spec workerSpec
	if len(args) != 1 || json.Unmarshal([]byte(args[0]), &spec) != nil {
		fmt.Fprintln(os.Stderr, "usage: bench duckdb-worker JSON")
		return 2
	}
	if err := os.Chdir(spec.Root); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	stmts := []string{fmt.Sprintf("SET threads = %d", spec.Threads)}
	if spec.MemoryLimit != "" {
		stmts = append(stmts, fmt.Sprintf("SET memory_limit = '%s'", spec.MemoryLimit),
			fmt.Sprintf("SET temp_directory = '%s.tmp'", spec.Out))
	}
	stmts = append(stmts, duckViews...)
	stmts = append(stmts, fmt.Sprintf("COPY (%s) TO '%s' (FORMAT parquet, COMPRESSION snappy)", spec.Query, spec.Out))
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s); err != nil {
			fmt.Fprintf(os.Stderr, "%v\n%s\n", err, strings.TrimSpace(s))
			return 1
		}
	}
	os.RemoveAll(spec.Out + ".tmp")
	return 0
}
