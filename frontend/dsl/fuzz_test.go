package dsl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// fuzzSeeds are the .thund files of examples/ and of the script archives in
// testdata/scripts, the canonical corpus, and the inputs of the table tests.
func fuzzSeeds(t testing.TB) [][]byte {
	var seeds [][]byte
	_ = filepath.WalkDir("../../examples", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".thund") {
			if src, err := os.ReadFile(path); err == nil {
				seeds = append(seeds, src)
			}
		}
		return nil
	})
	archives, _ := filepath.Glob("../../testdata/scripts/*.txtar")
	for _, a := range archives {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			t.Fatalf("%s: %v", a, err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".thund") {
				seeds = append(seeds, f.Data)
			}
		}
	}
	for _, src := range canonicalFiles(t) {
		seeds = append(seeds, src)
	}
	// Small inputs mutate and minimize faster: each declaration alone, too.
	for _, s := range append([][]byte(nil), seeds...) {
		for _, block := range strings.Split(string(s), "\n\n") {
			seeds = append(seeds, []byte(block))
		}
	}
	for _, c := range constructCases {
		seeds = append(seeds, []byte(c.src))
	}
	for _, c := range errorCases {
		seeds = append(seeds, []byte(c.src))
	}
	return seeds
}

// FuzzParse checks that Parse never panics, that it returns either a
// pipeline or errors (all positioned), and that every accepted input
// round-trips: Parse -> Print -> Parse gives an Equal pipeline and the same
// text, keeping every comment of the input, and MarshalJSON -> UnmarshalJSON
// gives an Equal pipeline.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p, diags := Parse("fuzz.thund", src)
		if p == nil {
			if !diags.HasErrors() {
				t.Fatalf("no pipeline and no error")
			}
			for _, d := range diags {
				if !d.Pos.IsValid() || d.Pos.File != "fuzz.thund" || d.Msg == "" {
					t.Fatalf("bad diagnostic %q at %#v", d.Error(), d.Pos)
				}
			}
			return
		}
		if diags != nil {
			t.Fatalf("a pipeline and diagnostics: %v", diags)
		}
		if err := roundTrip("fuzz.thund", p); err != nil {
			t.Fatal(err)
		}
		if err := checkComments(src, p); err != nil {
			t.Fatal(err)
		}
	})
}
