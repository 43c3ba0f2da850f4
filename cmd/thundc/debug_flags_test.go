package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nordisk/thund/passes"
)

const debugPipeline = `pipeline debug

source t from parquet "t/*.parquet" { k int64, v int64 }

materialized view totals = from t | group by k aggregate sum(v) as s
`

// TestDumpAfterEveryPass: --dump-after takes every pass of the table
// (passes.Names, a pass added later included), on every command that
// compiles, and prints the plan after it, naming it.
func TestDumpAfterEveryPass(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.thund")
	if err := os.WriteFile(path, []byte(debugPipeline), 0o644); err != nil {
		t.Fatal(err)
	}
	commands := [][]string{
		{"check", path},
		{"explain", path},
		{"build", path, "--emit-go", filepath.Join(dir, "gen")},
		{"spark", "emit", path, "-o", filepath.Join(dir, "p.bundle")},
	}
	for _, name := range passes.Names() {
		for _, cmd := range commands {
			var stdout, stderr bytes.Buffer
			args := append(append([]string{}, cmd...), "--dump-after", name, "--verify-ir")
			if st := run(args, nil, &stdout, &stderr); st != exitOK {
				t.Fatalf("thundc %s: exit %d\n%s", strings.Join(args, " "), st, stderr.String())
			}
			want := "# after pass " + name + "\n"
			if !strings.HasPrefix(stderr.String(), want) || strings.Count(stderr.String(), "# after pass ") != 1 {
				t.Errorf("thundc %s: stderr does not start with %q, once:\n%s", strings.Join(args, " "), want, stderr.String())
			}
			if !strings.Contains(stderr.String(), "\npasses "+strings.Join(passesUpTo(name), ", ")+"\n") {
				t.Errorf("thundc %s: the dump is not the plan after %s:\n%s", strings.Join(args, " "), name, stderr.String())
			}
		}
	}
}

// passesUpTo lists the passes up to and including name.
func passesUpTo(name string) []string {
	var out []string
	for _, n := range passes.Names() {
		out = append(out, n)
		if n == name {
			break
		}
	}
	return out
}

// TestVerifyIRFlag: --verify-ir turns on the driver's invariant checker
// (passes.Options.Verify) for each command that compiles; without it, it
// stays off.
func TestVerifyIRFlag(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.thund")
	if err := os.WriteFile(path, []byte(debugPipeline), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"check", "explain", "build", "spark"} {
		cmd := lookupCommand(name)
		args := []string{path}
		if name == "spark" {
			args = []string{"emit", path}
		}
		for _, verify := range []bool{false, true} {
			a := args
			if verify {
				a = append(append([]string{}, args...), "--verify-ir")
			}
			inv, err := parseArgs(cmd, a)
			if err != nil {
				t.Fatalf("%s %v: %v", name, a, err)
			}
			var stderr bytes.Buffer
			u, diags, err := compile(&cli{stderr: &stderr}, inv, passes.Options{})
			if err != nil || diags.HasErrors() {
				t.Fatalf("%s %v: %v %v", name, a, err, diags)
			}
			if u.Opts.Verify != verify {
				t.Errorf("%s %v: Options.Verify = %v", name, a, u.Opts.Verify)
			}
		}
	}
}
