package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestScriptsCopyExamples keeps the scripts that copy an example equal to
// it, so that they test the example as shipped: each listed file of the
// script must be the example's file of the same name.
func TestScriptsCopyExamples(t *testing.T) {
	for _, c := range []struct {
		script, example string
		files           []string
	}{
		{"run_cdc_scd", "cdc", []string{"pipeline.thund", "data/changes/2026-01-01.csv"}},
		{"run_edit_one_flow", "batch_etl", []string{"pipeline.thund", "data/customers.csv", "data/orders/2026-11.csv", "data/orders/2026-12.csv"}},
	} {
		a, err := txtar.ParseFile(filepath.Join("../../testdata/scripts", c.script+".txtar"))
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]string{}
		for _, f := range a.Files {
			files[f.Name] = string(f.Data)
		}
		for _, name := range c.files {
			want, err := os.ReadFile(filepath.Join("../../examples", c.example, name))
			if err != nil {
				t.Fatal(err)
			}
			if files[name] != string(want) {
				t.Errorf("%s.txtar's %s differs from examples/%s/%s", c.script, name, c.example, name)
			}
		}
	}
}
