package main

import (
	"os"
	"os/exec"
	"testing"

	"github.com/nordisk/thund/frontend/dsl"
	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

const golden = "testdata/clicks.thund"

// TestGolden runs the program, compares what it prints with the golden, and
// checks that text as thundc check would: it parses to the same IR and
// passes every compiler pass.
func TestGolden(t *testing.T) {
	out, err := exec.Command("go", "run", ".").Output()
	if err != nil {
		t.Fatalf("go run: %v", err)
	}
	if testenv.Update() {
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(want) {
		t.Fatalf("output differs from %s (THUNDC_UPDATE=1 refreshes it):\n%s", golden, out)
	}
	p, diags := dsl.Parse(golden, out)
	if diags.HasErrors() {
		t.Fatalf("the printed pipeline does not parse:\n%v", diags)
	}
	if d := ir.Diff(build(), p); d != "" {
		t.Fatalf("parse(print(build())) differs from build(): %s", d)
	}
	if u, err := passes.Run(p, passes.Options{}); err != nil {
		t.Fatalf("check: %v\n%v", err, u.Diags)
	}
}
