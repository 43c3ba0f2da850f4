package ir

import "testing"

// TestSetGroupJSONAndPrint: a set operation, grouping sets (with the empty
// set) and an aggregate FILTER survive JSON and print as the DSL spells
// them (setgroup).
func TestSetGroupJSONAndPrint(t *testing.T) {
	agg := &Aggregate{
		Input: &SetOp{Kind: SetIntersect, All: true, Left: &Scan{Name: "a"}, Right: &Scan{Name: "b"}},
		Keys:  []*NamedExpr{{Expr: col("k")}, {Expr: &Binary{Op: OpAdd, L: col("x"), R: intLit("1")}, Alias: "y"}},
		Sets:  [][]int{{1, 0}, {0}, {}},
		Aggs: []*NamedExpr{
			{Expr: &Call{Name: "count", Star: true, Filter: &Binary{Op: OpGt, L: col("x"), R: intLit("0")}}, Alias: "n"},
			{Expr: &Call{Name: "grouping_id"}, Alias: "g"},
		},
	}
	p := &Pipeline{Name: "p", Flows: []*Flow{{Name: "v", Target: "v", Query: &SetOp{Kind: SetExcept, Left: agg, Right: &Scan{Name: "c"}}}}}
	data, err := MarshalJSON(p)
	if err != nil {
		t.Fatal(err)
	}
	back, err := UnmarshalJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	if !Equal(p, back) {
		t.Fatalf("JSON round trip: %s", Diff(p, back))
	}
	got := back.Flows[0].Query.(*SetOp).Left.(*Aggregate)
	if len(got.Sets) != 3 || got.Sets[0][0] != 1 || len(got.Sets[2]) != 0 || got.Aggs[0].Expr.(*Call).Filter == nil {
		t.Errorf("decoded: sets %v, aggs %+v", got.Sets, got.Aggs[0].Expr)
	}
	want := "from a | intersect all b | group by k, x + 1 as y grouping sets ((x + 1, k), (k), ()) aggregate count(*) filter (where x > 0) as n, grouping_id() as g | except c"
	if s := inlineQuery(p.Flows[0].Query); s != want {
		t.Errorf("print:\n got %s\nwant %s", s, want)
	}
}
