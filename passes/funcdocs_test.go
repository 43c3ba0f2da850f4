package passes

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nordisk/thund/internal/testenv"
)

// TestFunctionDocs keeps docs/functions.md equal to the catalogue's
// rendering (FunctionsMarkdown); THUNDC_UPDATE=1 rewrites it.
func TestFunctionDocs(t *testing.T) {
	const path = "../docs/functions.md"
	want := FunctionsMarkdown()
	if testenv.Update() {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is stale: run THUNDC_UPDATE=1 go test ./passes -run TestFunctionDocs", path)
	}
}

// TestCatalogueDocumented: every function of the catalogue says what it
// computes, for docs/functions.md.
func TestCatalogueDocumented(t *testing.T) {
	for _, list := range catalogueTables {
		for _, f := range list {
			if f.doc == "" {
				t.Errorf("function %s has no doc line", f.name)
			}
			if (f.result == resCustom && f.typeFn == nil) || (f.result >= resCustom && f.resultDoc == "") {
				t.Errorf("function %s: resCustom needs typeFn and resultDoc", f.name)
			}
		}
	}
}

// TestLaneCoversFunctions: every function of the families whose answers the
// Spark lane checks (funcs_*.go; the functions table is the conformance
// corpus's, against DuckDB and Spark) is called, by its name or an alias, in
// some case of the lane (testdata/spark/*), where both engines run it on the
// same rows and the rows are compared.
func TestLaneCoversFunctions(t *testing.T) {
	var text strings.Builder
	// a case's SQL is in its transformations/ folder: every level
	err := filepath.WalkDir("../testdata/spark", func(f string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(f, ".sql") || strings.HasSuffix(f, ".thund")) {
			return err
		}
		b, err := os.ReadFile(f)
		text.Write(bytes.ToLower(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	called := map[string]bool{}
	for _, m := range regexp.MustCompile(`([a-z_][a-z0-9_]*)\s*\(`).FindAllStringSubmatch(text.String(), -1) {
		called[m[1]] = true
	}
	for _, list := range [][]funcSig{stringFunctions, hashFunctions, timeFunctions, mathFunctions, condFunctions, aggFunctions, nestedFunctions, hllFunctions, arrayFunctions, collectFunctions, generatorFunctions, lambdaFunctions, jsonFunctions} {
		for _, f := range list {
			ok := called[f.name]
			for _, a := range f.aliases {
				ok = ok || called[a]
			}
			if !ok {
				t.Errorf("function %s is called in no case of the Spark lane (testdata/spark/*)", f.name)
			}
		}
	}
}
