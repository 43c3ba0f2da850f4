package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestCDCScriptCopiesExample keeps run_cdc_scd.txtar's copy of examples/cdc
// (its pipeline and its first change file) equal to the example, so that
// the script tests the example as shipped.
func TestCDCScriptCopiesExample(t *testing.T) {
	a, err := txtar.ParseFile("../../testdata/scripts/run_cdc_scd.txtar")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range a.Files {
		files[f.Name] = string(f.Data)
	}
	for _, name := range []string{"pipeline.thund", "data/changes/2026-01-01.csv"} {
		want, err := os.ReadFile(filepath.Join("../../examples/cdc", name))
		if err != nil {
			t.Fatal(err)
		}
		if files[name] != string(want) {
			t.Errorf("run_cdc_scd.txtar's %s differs from examples/cdc/%s", name, name)
		}
	}
}
