package spec_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nordisk/thund/frontend/spec"
	"github.com/nordisk/thund/internal/fuzzbudget"
	"github.com/nordisk/thund/ir"
)

// FuzzLoadSpec loads its input as the spark-pipeline.yml of a project (a
// copy of testdata/clicks) and, when the spec loads, assembles the
// pipeline from the project's SQL files: Load and Pipeline never panic,
// return a project or diagnostics (every error positioned in a file), and
// stay within internal/fuzzbudget's allocation budget (16 MiB + 64× the
// input). Pipeline runs only when the spec's paths stay inside the project:
// a fuzzed spec must not walk or read the rest of the machine.
func FuzzLoadSpec(f *testing.F) {
	for _, seed := range []string{"testdata/clicks/spark-pipeline.yml", "testdata/init/hello/spark-pipeline.yml"} {
		src, err := os.ReadFile(seed)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	for _, s := range []string{
		okSpec + "definitions: []\n",
		"name: &n p1\nstorage: *n\ndatabase: d\nschema: s\n",
		"name: p\nstorage: s\nconfiguration:\n  spark.sql.shuffle.partitions: 8\n  thund.source.x: \"read_files('data/countries.csv', format => 'csv', header => true)\"\n",
		"name: p\nstorage: s\nlibraries:\n  - file: x.sql\n  - glob:\n      include: transformations/silver/per_user.sql\n",
		"name: p\nstorage: [\n",
		"a: &a [*a]\n",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/clicks")); err != nil {
		f.Fatal(err)
	}
	file := filepath.Join(dir, "spark-pipeline.yml")
	f.Fuzz(func(t *testing.T, src []byte) {
		if err := os.WriteFile(file, src, 0o644); err != nil {
			t.Fatal(err)
		}
		fuzzbudget.Check(t, len(src), func() int64 {
			proj, err := spec.Load(dir)
			if err != nil {
				checkDiags(t, err)
				return 0
			}
			if !confined(proj) {
				return 0
			}
			p, diags := proj.Pipeline()
			checkDiags(t, diags)
			if diags.HasErrors() != (p == nil) {
				t.Fatalf("errors %v, but pipeline %v", diags.HasErrors(), p != nil)
			}
			return 0
		})
	})
}

// checkDiags fails t unless err is diagnostics whose errors each name a
// file and none is an internal error.
func checkDiags(t *testing.T, err error) {
	t.Helper()
	var diags ir.Diagnostics
	if !errors.As(err, &diags) {
		if err != nil {
			t.Fatalf("an error that is not diagnostics: %v", err)
		}
		return
	}
	for _, d := range diags {
		if d.Severity == ir.Error && d.Pos.File == "" {
			t.Fatalf("an error without a file: %v", d)
		}
		if strings.Contains(d.Msg, "internal error") || strings.Contains(d.Msg, "runtime error") {
			t.Fatalf("%v", d)
		}
	}
}

// outside matches a path in a source spec that leaves the project: from
// the root or the home folder, up, or through a URL.
var outside = regexp.MustCompile(`['"]\s*[/~\\]|\.\.|://|[A-Za-z]:[/\\]`)

// confined reports whether the paths proj names stay inside its folder.
func confined(proj *spec.Project) bool {
	for _, l := range proj.Libraries {
		if !filepath.IsLocal(strings.TrimSuffix(l.Include, "/**")) {
			return false
		}
	}
	for _, s := range proj.Sources {
		if outside.MatchString(s.Spec) {
			return false
		}
	}
	return true
}
