package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// workerMode is the first argument that makes this binary a DuckDB worker:
// one query in a process of its own, so that its peak RSS is measured the
// way the thund executable's is.
const workerMode = "duckdb-worker"

// workerSpec is what a worker runs (its second argument, JSON).
type workerSpec struct {
	// Do is what to do: "query" (the default), "generate" (Rows of input
	// under Root), "generate-keys" (gb50m's) or "compare" (Query holds
	// the two Parquet globs, A and B).
	Do          string
	Rows        int64
	A, B        string
	Root        string // the folder holding data/
	Threads     int
	MemoryLimit string // empty: DuckDB's default
	Query       string
	Views       []string // the sources as views (default duckViews)
	Out         string   // the Parquet file the result goes to
}

// duckWorker runs one workload: the sources as views over the Parquet files,
// then COPY (query) TO a Snappy Parquet file.
func duckWorker(args []string) int {
	var spec workerSpec
	if len(args) != 1 || json.Unmarshal([]byte(args[0]), &spec) != nil {
		fmt.Fprintln(os.Stderr, "usage: bench duckdb-worker JSON")
		return 2
	}
	switch spec.Do {
	case "generate", "generate-keys":
		gen := generateHere
		if spec.Do == "generate-keys" {
			gen = generateKeysHere
		}
		if err := gen(spec.Root, spec.Rows); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	case "compare":
		if err := sameMultisetHere(spec.A, spec.B); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
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
	if len(spec.Views) > 0 {
		stmts = append(stmts, spec.Views...)
	} else {
		stmts = append(stmts, duckViews...)
	}
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

// inWorker runs spec in a worker child, so that the harness process stays
// small: a child's rusage peak RSS starts from its parent's RSS at the
// fork (Linux keeps it across exec), so DuckDB must not grow the parent.
func inWorker(spec workerSpec) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	b, _ := json.Marshal(spec)
	cmd := exec.Command(self, workerMode, string(b))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}
