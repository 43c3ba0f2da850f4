package dsl

import (
	"strings"
	"testing"
)

// TestProductionsCoveredByCorpus: the canonical corpus and the construct
// cases use every production of the grammar, so that the lead's repository
// coverage test can rely on Covered, and a new production comes with a test.
func TestProductionsCoveredByCorpus(t *testing.T) {
	seen := map[string]bool{}
	use := func(name string, src []byte) {
		used, err := Covered(name, src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, u := range used {
			seen[u] = true
		}
	}
	for name, src := range canonicalFiles(t) {
		use(name, src)
	}
	for _, c := range constructCases {
		use(c.name, []byte(c.src))
	}
	var missing []string
	for _, p := range Productions() {
		if !seen[p] {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d of %d productions unused:\n  %s", len(missing), len(Productions()), strings.Join(missing, "\n  "))
	}
	for u := range seen {
		if !contains(Productions(), u) {
			t.Errorf("Covered reports %q, which Productions does not list", u)
		}
	}
}

// TestProductionsShape pins a few names and what counts as optional.
func TestProductionsShape(t *testing.T) {
	all := Productions()
	for _, want := range []string{"Stage", "Stage.Where", "FromItem.Range", "Literal.Date", "Decl.Flow", "CmpOp.Negated", "ScanItem.Stream", "SortKey.Nulls"} {
		if !contains(all, want) {
			t.Errorf("Productions lacks %q", want)
		}
	}
	// Required fields are not productions of their own.
	for _, no := range []string{"Query.From", "WhenArm.Cond", "Watermark.Delay", "Stage.Pos", "KeyValue.Key"} {
		if contains(all, no) {
			t.Errorf("Productions lists required field %q", no)
		}
	}
	if _, err := Covered("bad.thund", []byte("from")); err == nil {
		t.Error("Covered accepted bad text")
	}
	got, err := Covered("ok.thund", []byte("materialized view v =\n  from range(0, 1)\n  | where date '2024-01-01' = d\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Stage.Where", "FromItem.Range", "Literal.Date", "Decl.MaterializedView", "File"} {
		if !contains(got, want) {
			t.Errorf("Covered lacks %q: %v", want, got)
		}
	}
	if contains(got, "Stage.Select") {
		t.Errorf("Covered reports an unused production")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
