package dsl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/nordisk/thund/ir"
)

// canonicalFiles are testdata/canonical/*.thund: canonical text covering
// every construct of the language.
func canonicalFiles(t testing.TB) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob("testdata/canonical/*.thund")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no canonical files: %v", err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = src
	}
	return out
}

// TestCanonicalIdempotent: printing the IR of canonical text gives the text
// back byte for byte.
func TestCanonicalIdempotent(t *testing.T) {
	for name, src := range canonicalFiles(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			p, diags := Parse(name, src)
			if diags != nil {
				t.Fatalf("parse: %v", diags)
			}
			checkRoundTrip(t, name, p)
			if got := ir.Print(p); string(got) != string(src) {
				t.Errorf("Print(Parse(text)) != text:\n%s", diff.Diff("want", src, "got", got))
			}
		})
	}
}

// TestDocExample: the example that closes docs/dsl.md is canonical.
func TestDocExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/dsl.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "## Example\n\n```\n")
	if !ok {
		t.Fatal("docs/dsl.md has no example")
	}
	example, _, _ := strings.Cut(rest, "```")
	p, diags := Parse("dsl.md", []byte(example))
	if diags != nil {
		t.Fatal(diags)
	}
	if got := string(ir.Print(p)); got != example {
		t.Errorf("the example is not canonical:\n%s", diff.Diff("doc", []byte(example), "printed", []byte(got)))
	}
}
