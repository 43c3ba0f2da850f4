package passes

import (
	"testing"

	"github.com/nordisk/thund/ir"
)

// TestGroupLimit checks which filters over a row_number select the plan
// gives a group limit (plan_wgl.go): rn <= K, rn < K, rn = 1, the constant
// on either side, among other conjuncts (the smallest limit wins); and
// none with another window function beside it, a non-constant K, rn > 1,
// rn = 2, rank(), rn computed in an expression, a K above the bound, or a
// filter not directly over the select.
func TestGroupLimit(t *testing.T) {
	u := planOf(t, `pipeline p
source f from parquet "f/*.parquet" { k int64, t int64, v int64 }

materialized view le = from f | select k, v, row_number() over (partition by k order by t desc) as rn | where rn <= 3
materialized view lt = from f | select k, v, row_number() over (partition by k order by t desc) as rn | where rn < 3
materialized view eq1 = from f | select k, v, row_number() over (partition by k order by t desc) as rn | where rn = 1
materialized view one_eq = from f | select k, v, row_number() over (partition by k order by t desc) as rn | where 1 = rn
materialized view ge_rev = from f | select k, v, row_number() over (partition by k order by t desc) as rn | where 4 >= rn
materialized view conj = from f | select k, v, row_number() over (partition by k order by t desc) as rn | where v > 0 and rn <= 5 and rn < 3
materialized view no_part = from f | select k, v, row_number() over (order by t) as rn | where rn <= 2

materialized view other_fn = from f | select k, v, row_number() over (partition by k order by t desc) as rn, sum(v) over (partition by k) as s | where rn <= 3
materialized view non_const = from f | select k, v, row_number() over (partition by k order by t desc) as rn | where rn <= v
materialized view gt = from f | select k, v, row_number() over (partition by k order by t desc) as rn | where rn > 1
materialized view eq2 = from f | select k, v, row_number() over (partition by k order by t desc) as rn | where rn = 2
materialized view ranked = from f | select k, v, rank() over (partition by k order by t desc) as rn | where rn <= 3
materialized view expr = from f | select k, v, row_number() over (partition by k order by t desc) + 0 as rn | where rn <= 3
materialized view big = from f | select k, v, row_number() over (partition by k order by t desc) as rn | where rn <= 5000
materialized view either = from f | select k, v, row_number() over (partition by k order by t desc) as rn | where rn <= 3 or v > 0
materialized view lt1 = from f | select k, v, row_number() over (partition by k order by t desc) as rn | where rn < 1
`)
	if u.Diags.HasErrors() {
		t.Fatal(u.Diags)
	}
	want := map[string]int64{"le": 3, "lt": 2, "eq1": 1, "one_eq": 1, "ge_rev": 4, "conj": 2, "no_part": 2,
		"other_fn": 0, "non_const": 0, "gt": 0, "eq2": 0, "ranked": 0, "expr": 0, "big": 0, "either": 0, "lt1": 0}
	for view, k := range want {
		fp := flowPlan(t, u, view)
		p := firstOf[*ir.Project](fp)
		if fp.Windows[p] == nil {
			t.Fatalf("%s: the first select is not the window operator", view)
		}
		got, ok := fp.GroupLimits[p]
		if ok != (k > 0) || got != k {
			t.Errorf("%s: group limit %d (recorded %v), want %d", view, got, ok, k)
		}
	}
}
