package thund

import (
	"slices"
	"testing"

	"github.com/nordisk/thund/passes"
	"github.com/nordisk/thund/rt/format"
)

// TestSourceOptionTables holds the source options thundc check accepts
// (passes/sourceopts.go) equal to those the runtime reads
// (rt/format.ParseSourceOptions): the compiler may not import rt, so each
// keeps its own list, and this test is where they meet.
func TestSourceOptionTables(t *testing.T) {
	common, dialect, modes, evolutions := passes.SourceOptionTables()
	if !slices.Equal(common, format.CommonSourceOptions) {
		t.Errorf("common options: check %v, runtime %v", common, format.CommonSourceOptions)
	}
	if !slices.Equal(dialect, format.CSVDialectOptions) {
		t.Errorf("csv options: check %v, runtime %v", dialect, format.CSVDialectOptions)
	}
	if !slices.Equal(modes, format.ModeNames()) {
		t.Errorf("modes: check %v, runtime %v", modes, format.ModeNames())
	}
	if !slices.Equal(evolutions, format.EvolutionNames()) {
		t.Errorf("schemaEvolutionMode values: check %v, runtime %v", evolutions, format.EvolutionNames())
	}
	// and the runtime reads every option it lists
	for _, k := range append(append([]string{}, common...), dialect...) {
		v := "x"
		switch k {
		case "mode":
			v = "permissive"
		case "schemaevolutionmode":
			v = "rescue"
		case "header":
			v = "true"
		case "delimiter", "sep", "separator":
			v = ";"
		case "quote":
			v = "'"
		}
		if _, err := format.ParseSourceOptions(format.CSV, [][2]string{{k, v}}); err != nil {
			t.Errorf("option %s: %v", k, err)
		}
	}
}
