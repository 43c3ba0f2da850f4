package dsl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nordisk/thund/ir"
)

// TestParallelParseEqualsWhole checks that a file large enough to be parsed
// in parallel gives the same IR as one sequential parse, and that an error
// in a late declaration is still reported as the whole parse reports it.
func TestParallelParseEqualsWhole(t *testing.T) {
	var b strings.Builder
	b.WriteString("pipeline big\n\nsource s from csv \"s.csv\" {\n  id int64, v decimal(10,2), name string\n}\n\n")
	for i := range 3 * parallelMinDecls {
		fmt.Fprintf(&b, "materialized view m%d =\n  from s\n  | where v > %d.5 and name like 'a%%'\n  | group by id aggregate sum(v) as total, count(*) as n\n\n", i, i)
	}
	src := []byte(b.String())
	toks, lexErrs := lex("big.thund", src)
	if len(lexErrs) > 0 {
		t.Fatal(lexErrs)
	}
	whole, err := parseTokens(toks, false)
	if err != nil {
		t.Fatal(err)
	}
	par, err := parseFile(toks)
	if err != nil {
		t.Fatal(err)
	}
	if len(par.Decls) != len(whole.Decls) || len(par.Decls) != 3*parallelMinDecls+1 {
		t.Fatalf("parallel parse has %d declarations, whole %d", len(par.Decls), len(whole.Decls))
	}
	lw := &lowerer{file: "big.thund", src: newSource(src)}
	lp := &lowerer{file: "big.thund", src: newSource(src)}
	if d := ir.Diff(lw.lowerFile(whole), lp.lowerFile(par)); d != "" {
		t.Fatalf("parallel parse differs: %s", d)
	}
	// A syntax error in the last declaration.
	bad := append([]byte(nil), src...)
	bad = append(bad, []byte("materialized view broken =\n  from s\n  | where\n")...)
	if _, diags := Parse("big.thund", bad); !diags.HasErrors() || !strings.Contains(diags.Error(), "big.thund:") {
		t.Fatalf("want a positioned syntax error, got %v", diags)
	}
}
