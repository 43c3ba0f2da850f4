package passes

import (
	"slices"
	"testing"

	"github.com/nordisk/thund/ir"
)

// TestPlanStreamDedup checks a distinct within watermark's plan: its key
// columns (the listed ones, or every visible column), its event-time column
// traced through a projection that renames it, and its delay in the event
// time's unit, the watermark's delay plus the allowed lateness (as the
// Spark targets declare it).
func TestPlanStreamDedup(t *testing.T) {
	u := planOf(t, `pipeline p

source s stream from csv "s/*.csv" { k string, v int64, t timestamp(ms) watermark t delay 5s allowed lateness 2s }

streaming table on_k =
  from stream s
  | select v, t as at, k
  | distinct on (k, v) within watermark

streaming table every =
  from stream s
  | distinct within watermark
`)
	if u.Diags.HasErrors() {
		t.Fatal(u.Diags)
	}
	for _, c := range []struct {
		table string
		keys  []int
		time  int
	}{{"on_k", []int{2, 0}, 1}, {"every", []int{0, 1, 2}, 2}} {
		fp := flowPlan(t, u, c.table)
		dp := fp.Stream.Dedup
		if dp == nil || dp.Distinct != firstOf[*ir.Distinct](fp) {
			t.Fatalf("%s: no dedup plan: %+v", c.table, fp.Stream)
		}
		if !slices.Equal(dp.Keys, c.keys) || dp.Time != c.time || dp.Delay != 7000 || fp.Stream.Lateness != 2000 {
			t.Errorf("%s: keys %v time %d delay %d lateness %d; want keys %v time %d delay 7000 lateness 2000",
				c.table, dp.Keys, dp.Time, dp.Delay, fp.Stream.Lateness, c.keys, c.time)
		}
	}
}
