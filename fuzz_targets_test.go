package thund

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// .ci/fuzz runs the fuzz targets it lists, each for a stated time: a Fuzz
// function it does not list would never run but on its seeds. This test
// (and .ci/fuzz -check) fails on any difference between the list and the
// module's Fuzz functions.
func TestFuzzTargetsListed(t *testing.T) {
	script, err := os.ReadFile(".ci/fuzz")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, m := range regexp.MustCompile(`(?m)^\s+"(\./\S+ Fuzz\w+)"$`).FindAllSubmatch(script, -1) {
		listed = append(listed, string(m[1]))
	}
	fuzzFunc := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(`)
	var found []string
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (d.Name() == "testdata" || d.Name()[0] == '.') {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); path != "." && err == nil {
				return filepath.SkipDir // a module of its own (conformance, bench)
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range fuzzFunc.FindAllSubmatch(src, -1) {
			found = append(found, "./"+filepath.ToSlash(filepath.Dir(path))+" "+string(m[1]))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(listed)
	slices.Sort(found)
	for _, f := range found {
		if !slices.Contains(listed, f) {
			t.Errorf("fuzz target %s is not listed in .ci/fuzz", f)
		}
	}
	for _, l := range listed {
		if !slices.Contains(found, l) {
			t.Errorf(".ci/fuzz lists %s, which does not exist", l)
		}
	}
	if len(found) == 0 {
		t.Error("no fuzz target found")
	}
}
