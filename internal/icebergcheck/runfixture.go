package icebergcheck

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// RunFixture runs a Python fixture script (rt/iceberg's
// testdata/pyiceberg_fixture.py, by its path from the test's folder) with
// the THUND_TEST_PYICEBERG python, over the warehouse wh with the JSON
// steps, and returns what it printed. Without THUND_TEST_PYICEBERG the
// test is skipped.
func RunFixture(t testing.TB, script, wh, steps string) string {
	t.Helper()
	py := os.Getenv("THUND_TEST_PYICEBERG")
	if py == "" {
		t.Skip("THUND_TEST_PYICEBERG not set (a python with pyiceberg and pyarrow)")
	}
	abs, err := filepath.Abs(script)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, abs, wh, steps).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("pyiceberg fixture: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	return string(out)
}
