//go:build spark || iceberg

package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nordisk/thund/internal/testenv"
)

// laneThundc builds thundc for a lane test (testenv.Thundc: relinked only
// when stale).
func laneThundc(t *testing.T) string {
	t.Helper()
	thundc, err := testenv.Thundc("../..")
	if err != nil {
		t.Fatal(err)
	}
	return thundc
}

// laneEdit replaces the one occurrence of old in a file of a case's copy.
func laneEdit(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), old); n != 1 {
		t.Fatalf("%s: %q occurs %d times, want once", path, old, n)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// copyExample copies an example's files (not its warehouses or Spark
// storage) into dst.
func copyExample(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			switch d.Name() {
			case "warehouse", "pipeline-storage":
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// laneRun runs a command in dir and returns its stdout; a failure fails
// the test with both outputs.
func laneRun(t *testing.T, dir string, env []string, prog string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(prog, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "THUND_CACHE="+testenv.ThundCache()), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", filepath.Base(prog), strings.Join(args, " "), err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.Bytes()
}

// laneTables are the datasets of the pipeline that both engines keep as
// tables: its materialized views and streaming tables.
func laneTables(t *testing.T, thundc, dir, path string) []string {
	var g struct {
		Nodes []struct{ Name, Kind string }
	}
	if err := json.Unmarshal(laneRun(t, dir, nil, thundc, "graph", "--format", "json", path), &g); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range g.Nodes {
		if n.Kind == "materialized view" || n.Kind == "streaming table" {
			out = append(out, n.Name)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s has no table to compare", path)
	}
	return out
}

// nexmarkData writes a bounded replay of the Nexmark generator's events
// into the example's watched folders.
func nexmarkData(t *testing.T, dir string) {
	t.Helper()
	laneEdit(t, filepath.Join(dir, "pipeline.thund"), "join stream q7_max as m watermark window_end delay 0s", "join q7_max as m")
	laneEdit(t, filepath.Join(dir, "transformations", "4_highest_bid.sql"), "JOIN STREAM(q7_max) WATERMARK window_end DELAY OF INTERVAL 0 SECONDS AS m", "JOIN q7_max AS m")
	cmd := exec.Command("go", "run", "./internal/nexmark/cmd/nexmarkgen", "-events", "20000", "-out", filepath.Join(dir, "data"))
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nexmarkgen: %v\n%s", err, out)
	}
}
