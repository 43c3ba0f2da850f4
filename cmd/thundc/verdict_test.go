package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckGivesBuildVerdict runs check and the command that emits for the
// target (build --emit-go for native, spark emit for Spark) on every
// pipeline of the repository's examples and test data, for every target
// and lowering flag, and asserts that they give the same diagnostics: a
// pipeline check passes is one build or spark emit takes, and every
// refusal either makes has the same position and words in check (issue 16).
func TestCheckGivesBuildVerdict(t *testing.T) {
	var paths []string
	for _, glob := range []string{"../../examples/*/pipeline.thund", "../../examples/*/spark-pipeline.yml",
		"../../sparkemit/testdata/*.thund", "../../codegen/testdata/vet/*.thund", "../../testdata/spark/*/pipeline.thund",
		"../../passes/testdata/*.thund"} {
		m, _ := filepath.Glob(glob)
		paths = append(paths, m...)
	}
	if len(paths) < 10 {
		t.Fatalf("only %d pipelines found", len(paths))
	}
	type variant struct {
		target string
		flags  []string
	}
	variants := []variant{
		{"native", nil},
		{"spark-4.1", nil}, {"spark-4.1", []string{"--expectations", "filter"}},
		{"spark-4.2", nil}, {"spark-4.2", []string{"--expectations", "filter"}},
	}
	refused, clean := 0, 0
	for _, p := range paths {
		in := p
		if filepath.Base(p) == "spark-pipeline.yml" {
			in = filepath.Dir(p)
		}
		for _, v := range variants {
			vs := [][]string{v.flags}
			if v.target != "native" && in != p {
				vs = append(vs, append([]string{"--sql-elements"}, v.flags...))
			}
			for _, flags := range vs {
				name := strings.TrimPrefix(p, "../../") + " " + v.target + " " + strings.Join(flags, " ")
				check := append([]string{"check", in, "--target", v.target}, flags...)
				var emit []string
				if v.target == "native" {
					emit = []string{"build", in, "--emit-go", filepath.Join(t.TempDir(), "gen")}
				} else {
					emit = append([]string{"spark", "emit", in, "--target", v.target, "-o", filepath.Join(t.TempDir(), "b.pb")}, flags...)
				}
				cs, cerr := runQuiet(check)
				es, eerr := runQuiet(emit)
				if (cs == exitOK) != (es == exitOK) || diagLines(cerr) != diagLines(eerr) {
					t.Errorf("%s: check exits %d, %s exits %d\ncheck:\n%s\n%s:\n%s", name, cs, emit[0], es, cerr, emit[0], eerr)
					continue
				}
				if cs == exitOK {
					clean++
				} else {
					refused++
				}
			}
		}
	}
	if refused == 0 || clean == 0 {
		t.Errorf("%d refused and %d clean: the corpus must have both", refused, clean)
	}
}

// runQuiet runs thundc in-process and returns its status and stderr.
func runQuiet(args []string) (int, string) {
	var stdout, stderr bytes.Buffer
	st := run(args, strings.NewReader(""), &stdout, &stderr)
	return st, stderr.String()
}

// diagLines are the diagnostic lines of stderr (file:line:col: ...), the
// source excerpts and warnings aside.
func diagLines(stderr string) string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, ": ") && !strings.HasPrefix(l, " ") && !strings.Contains(l, "warning") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
