package passes

import (
	"strings"
	"testing"

	"github.com/nordisk/thund/frontend/dsl"
)

// rootCauseHead declares the sources every root-cause case reads.
const rootCauseHead = `pipeline p
source trips from csv "t.csv" { id int64, fare string, city string, t timestamp(ms) }
source hubs from csv "h.csv" { city string, hub string }
`

// TestRootCause checks that one mistake gives one diagnostic: whatever
// follows from a failed expression, relation or flow is not reported, while
// an independent mistake downstream still is. want lists the diagnostics,
// "line:col: message substring", in order.
func TestRootCause(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []string
	}{
		{"type error in an expression", `
materialized view m = from trips | select id, fare * 2 + true as cost, (fare * 2) > 1 and true as big`,
			[]string{"5:52: cannot apply * to string and int32", "5:78: cannot apply * to string and int32"}},
		// each fare * 2 is a mistake of its own; + true, > 1 and the and
		// over them are not reported
		{"readers of a failed flow", `
materialized view costly = from trips as tr | join hubs as h on tr.city = h.city | select tr.id, h.hub, tr.fare * 2 as cost
materialized view by_hub = from costly as c | join hubs as h on c.hub = h.hub | group by h.city aggregate sum(c.cost) as total, count(*) as n | select h.city, total + 1 as total, n
materialized view top = from by_hub | where total > 10 | select city, total, n
materialized view star = from costly as k | select k.*, k.id + 1 as next
materialized view again = from star as s | select s.id, s.cost, s.next`,
			[]string{"5:113: cannot apply * to string and int32"}},
		{"a key qualified by the alias of a failed dataset", `
materialized view costly = from trips | select id, city, fare * 2 as cost
materialized view bad = from costly as h | group by h.city aggregate sum(h.cost) as n | select h.city, n`,
			[]string{"5:63: cannot apply * to string and int32"}},
		{"expectations on a failed dataset", `
materialized view costly expect positive: cost > 0 on violation drop = from trips | select id, fare * 2 as cost`,
			[]string{"5:101: cannot apply * to string and int32"}},
		{"unknown column", `
materialized view m = from trips | select id, farr as fare
materialized view n = from m | where fare > 'x' | select upper(fare) as f, id`,
			[]string{`5:47: unknown column "farr" (did you mean "fare"?)`}},
		{"unknown function", `
materialized view m = from trips | select id, frobnicate(fare) as f
materialized view n = from m | select lower(f) as g, f || 'x' as h`,
			[]string{`5:47: unknown function "frobnicate"`}},
		{"q.* naming no alias", `
materialized view m = from trips as tr | select x.*
materialized view n = from m | select id, city`,
			[]string{`5:49: unknown table or alias "x" in x.*`}},
		{"an independent mistake downstream is still reported", `
materialized view costly = from trips | select id, city, fare * 2 as cost
materialized view n = from costly | where city > 1 | select id, nope`,
			[]string{"5:63: cannot apply * to string and int32", "6:48: cannot compare string with int32"}},
		// nope still resolves through the failed flow's unknown columns
		{"declared columns stay strict", `
materialized view costly (id int64, cost int64) = from trips | select id, fare * 2 as cost
materialized view n = from costly | select id, nope`,
			[]string{"5:80: cannot apply * to string and int32", `6:48: unknown column "nope"`}},
		{"a dataset nothing writes, read twice", `
streaming table nothing
materialized view a = from nothing | select x
materialized view b = from nothing | select y`,
			[]string{`6:28: streaming table "nothing" has no columns to read`}},
		{"a dataset nothing writes, with an expectation and a reader", `
streaming table nothing expect pos: a > 0
materialized view b = from nothing | select a`,
			[]string{`5:25: streaming table "nothing" has no columns for expectation "pos" to check`}},
		{"an external table's key keeps its qualifier", `
materialized view m = from cat.db.ext as h | group by h.city aggregate count(*) as n | select h.city, n`,
			nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, diags := dsl.Parse("t.thund", []byte(rootCauseHead+tc.src))
			if err := diags.Err(); err != nil {
				t.Fatalf("parse: %v", err)
			}
			u, _ := Run(p, Options{StopAfter: "resolve"})
			var got []string
			for _, d := range u.Diags {
				got = append(got, d.Error())
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d diagnostics, want %d:\n%s", len(got), len(tc.want), strings.Join(got, "\n"))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], "t.thund:"+w[:strings.Index(w, " ")]) || !strings.Contains(got[i], w[strings.Index(w, " ")+1:]) {
					t.Errorf("diagnostic %d: got\n\t%s\nwant\n\tt.thund:%s", i+1, got[i], w)
				}
			}
		})
	}
}
