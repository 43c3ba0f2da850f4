package sparkemit

import (
	"strings"
	"testing"

	"github.com/nordisk/thund/passes"
)

// TestGenerateLowering: a generator is a Project of the input's columns
// (*) and the generator call, aliased to every generated column's name;
// outer calls the _outer function (stack never needs it), and references
// to a LATERAL VIEW's columns lose its alias, which Spark's Project does
// not give them.
func TestGenerateLowering(t *testing.T) {
	u := compileSrc(t, "g.thund", `pipeline g
source events from jsonl "e.jsonl" {
  id int64, tags array<string>, m map<string, int64>
}

materialized view v =
  from events
  | lateral view outer posexplode(tags) t as p, tag
  | lateral view explode(m) e
  | lateral view outer stack(1, id) s
  | select t.tag, e.key, e.value, s.col0
`, passes.Spark41)
	b, _, err := Emit(u, Options{})
	if err != nil {
		t.Fatal(err)
	}
	top := flowRelation(t, b, "v").GetProject()
	var refs []string
	for _, e := range top.GetExpressions() {
		refs = append(refs, e.GetUnresolvedAttribute().GetUnparsedIdentifier())
	}
	if got := strings.Join(refs, ","); got != "tag,key,value,col0" {
		t.Errorf("select lowered to %s, want tag,key,value,col0", got)
	}
	var gens []string
	for rel := top.GetInput(); rel.GetProject() != nil; rel = rel.GetProject().GetInput() {
		exprs := rel.GetProject().GetExpressions()
		if len(exprs) != 2 || exprs[0].GetUnresolvedStar() == nil {
			t.Fatalf("generator project %v, want *, generator", exprs)
		}
		a := exprs[1].GetAlias()
		gens = append(gens, a.GetExpr().GetUnresolvedFunction().GetFunctionName()+"("+strings.Join(a.GetName(), ",")+")")
	}
	if got := strings.Join(gens, " "); got != "stack(col0) explode(key,value) posexplode_outer(p,tag)" {
		t.Errorf("generators lowered to %s", got)
	}
}
