package conformance

// The function families of the catalogue (passes/funcs_*.go) against
// DuckDB. The corpus is testdata/pipeline.thund followed by every
// testdata/functions/*.thund, in name order: one file per family, holding
// that family's views (the sources are declared once, in pipeline.thund).
// Each family's printer file (sqlprint_<family>_test.go) registers in an
// init:
//
//   - familyCalls: how each of its functions prints as DuckDB SQL with
//     Spark 4's ANSI meaning, spelled out where DuckDB's own function
//     differs; a call the printer cannot translate faithfully refuses
//     (p.fail), never guesses;
//   - noDuckDB: the functions DuckDB cannot check, each with the reason
//     (no DuckDB function means the same thing). TestCoverage requires every
//     other function of the catalogue in some view, and fails on an excuse
//     for a function a view calls;
//   - extraTables: data of its own, when the shared tables lack the edge
//     cases (a generator with its own seed);
//   - sparkMacros: DuckDB macros it needs (appended).

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/nordisk/thund/ir"
)

// familyCalls print a catalogue function's call as DuckDB SQL.
var familyCalls = map[string]func(p *printer, e *ir.Call) string{}

// noDuckDB are the catalogue's functions that no view checks against
// DuckDB, each with the reason.
var noDuckDB = map[string]string{}

// extraTables generate the families' own data tables.
var extraTables []func() *table

// registerCalls adds a family's printers; a name registered twice is a bug.
func registerCalls(m map[string]func(p *printer, e *ir.Call) string) {
	for name, f := range m {
		if _, dup := familyCalls[name]; dup {
			panic(fmt.Sprintf("familyCalls: %q registered twice", name))
		}
		familyCalls[name] = f
	}
}

// excuse adds a family's functions that DuckDB cannot check.
func excuse(m map[string]string) {
	for name, why := range m {
		if _, dup := noDuckDB[name]; dup {
			panic(fmt.Sprintf("noDuckDB: %q excused twice", name))
		}
		if why == "" {
			panic(fmt.Sprintf("noDuckDB: %q needs a reason", name))
		}
		noDuckDB[name] = why
	}
}

// pipelineSource is the corpus: pipeline.thund, then each family's file.
func pipelineSource() ([]byte, error) {
	src, err := os.ReadFile(pipelineFile)
	if err != nil {
		return nil, err
	}
	more, err := filepath.Glob("testdata/functions/*.thund")
	if err != nil {
		return nil, err
	}
	sort.Strings(more)
	for _, path := range more {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		src = fmt.Appendf(src, "\n# ---- %s\n%s", path, b)
	}
	return src, nil
}
