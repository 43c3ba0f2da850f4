package passes

import (
	"strings"
	"testing"

	"github.com/nordisk/thund/ir"
)

// windowSrc is the source the window tests read.
const windowSrc = `pipeline p
source u from csv "u.csv" { k int64, v int32 not null, d decimal(10,2), s string, day date32, ts timestamp(us), f float64 }
`

// TestWindowTypes checks the types and nullability resolve gives window
// functions: Spark's, as its analyzer reports them (checked on Spark 4.1.4
// and 4.2.1: RANK() int not null, PERCENT_RANK() double not null, lag(v)
// int nullable, lead(v, 1, -1) of a non-null v not null, sum(v) over a
// window bigint nullable, count(1) not null).
func TestWindowTypes(t *testing.T) {
	cases := []struct {
		expr, typ string
		nullable  bool
	}{
		{"row_number() over (order by v)", "int32", false},
		{"rank() over (partition by k order by v desc)", "int32", false},
		{"dense_rank() over (order by v)", "int32", false},
		{"percent_rank() over (order by v)", "float64", false},
		{"cume_dist() over (order by v)", "float64", false},
		{"ntile(4) over (order by v)", "int32", false},
		{"lag(v) over (order by v)", "int32", true},
		{"lead(s, 2, 'x') over (order by v)", "string", true},
		{"lead(v, 1, -1) over (order by v)", "int32", false},
		{"lag(v, 1, null) over (order by v)", "int32", true},
		{"lag(v) ignore nulls over (order by v)", "int32", true},
		{"nth_value(d, 2) over (order by v)", "decimal(10,2)", true},
		{"first_value(v) over (order by v)", "int32", true},
		{"last_value(v, true) over (partition by k)", "int32", true},
		{"sum(v) over (partition by k)", "int64", true},
		{"sum(d) over (order by v rows between 1 preceding and 1 following)", "decimal(20,2)", true},
		{"avg(v) over ()", "float64", true},
		{"count(*) over ()", "int64", false},
		{"count(s) over (order by day range between 1d preceding and current row)", "int64", false},
		{"max(ts) over (order by f range between 1.5 preceding and current row)", "timestamp(us)", true},
		{"min(v) over (order by ts range between unbounded preceding and 1h following)", "int32", true},
		{"rank() over (order by v) + 1", "int32", false},
		// Spark takes these (checked on 4.1.4): days off a date, an empty frame
		{"count(*) over (order by day range between 1 preceding and current row)", "int64", false},
		{"sum(v) over (order by v rows between current row and 1 preceding)", "int64", true},
	}
	for _, tc := range cases {
		t.Run(tc.expr, func(t *testing.T) {
			u := planOf(t, windowSrc+"materialized view w = from u | select "+tc.expr+" as x\n")
			var errs []string
			for _, d := range u.Diags {
				if d.Code != ir.CodeCapability {
					errs = append(errs, d.Error())
				}
			}
			if len(errs) > 0 {
				t.Fatalf("diagnostics:\n%s", strings.Join(errs, "\n"))
			}
			var s Schema
			for d, sch := range u.Datasets {
				if d.Name == "w" {
					s = sch
				}
			}
			if len(s) != 1 || s[0].Type.String() != tc.typ || s[0].Nullable != tc.nullable {
				t.Errorf("got %v, want x %s nullable=%v", s, tc.typ, tc.nullable)
			}
		})
	}
}

// TestWindowCalls checks that an Over's function is recorded in Unit.Calls
// with its kind.
func TestWindowCalls(t *testing.T) {
	u := planOf(t, windowSrc+"materialized view w = from u | select rank() over (order by v) as r, sum(v) over () as s\n")
	var names []string
	for call, f := range u.Calls {
		switch {
		case f.Window:
			names = append(names, "window:"+call.Name)
		case f.Agg:
			names = append(names, "agg:"+call.Name)
		}
	}
	got := strings.Join(sortedStrings(names), " ")
	if got != "agg:sum window:rank" {
		t.Errorf("calls: %s", got)
	}
}

func sortedStrings(s []string) []string {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

// TestWindowErrors checks Spark's window rules, each with its position.
func TestWindowErrors(t *testing.T) {
	cases := []struct{ query, want string }{
		{"select row_number() as x",
			"p.thund:3:39: window function row_number() requires an OVER clause (Spark: WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE): row_number() over (order by ...) [bad-window]"},
		{"select rank() over (partition by k) as x",
			"p.thund:3:39: window function rank requires window to be ordered: add order by, as in rank() over (partition by ... order by ...) [bad-window]"},
		{"select lag(v) over () as x",
			"p.thund:3:39: window function lag requires window to be ordered: add order by, as in lag(v) over (partition by ... order by ...) [bad-window]"},
		{"select cume_dist() over (order by v rows between unbounded preceding and current row) as x",
			"p.thund:3:68: window function cume_dist takes no frame but range between unbounded preceding and current row (Spark: the frame must match the required frame) [bad-window]"},
		{"select rank() over (order by v rows between 1 preceding and current row) as x",
			"p.thund:3:63: window function rank takes no frame but rows between unbounded preceding and current row (Spark: the frame must match the required frame) [bad-window]"},
		{"select lead(v) over (order by v rows between unbounded preceding and current row) as x",
			"p.thund:3:64: window function lead takes no frame: its rows are at its offset (Spark: the frame must match the required frame) [bad-window]"},
		{"select sum(v) over (order by k, v range between 1 preceding and current row) as x",
			"p.thund:3:66: a range frame with an offset needs exactly one order by key, got 2 (Spark: RANGE_FRAME_MULTI_ORDER / RANGE_FRAME_WITHOUT_ORDER) [bad-window]"},
		{"select sum(v) over (order by s range between 1 preceding and current row) as x",
			"p.thund:3:61: a range frame with an offset needs a numeric, date or timestamp order key; s is string (Spark: SPECIFIED_WINDOW_FRAME_UNACCEPTED_TYPE) [bad-window]"},
		{"select sum(v) over (order by ts range between 1 preceding and current row) as x",
			"p.thund:3:78: a range frame over timestamp(us) order key ts needs an interval offset (interval '1' day preceding), got 1 [bad-window]"},
		{"select sum(distinct v) over (order by v) as x",
			"p.thund:3:39: distinct aggregates are not supported as window functions (Spark: DISTINCT_WINDOW_FUNCTION_UNSUPPORTED): sum(distinct v) [bad-window]"},
		{"select sum(v) over (order by v range between 1d preceding and current row) as x",
			"p.thund:3:77: a range frame over int32 order key v needs a numeric offset, got 1d [bad-window]"},
		{"select sum(v) over (order by v rows between 1.5 preceding and current row) as x",
			"p.thund:3:76: a rows frame's offset is a row count, a non-negative integer; got 1.5 (decimal(2,1)) [bad-window]"},
		{"select sum(v) over (order by v rows between 1 following and 1 preceding) as x",
			"p.thund:3:63: the frame's start (1 following) is after its end (1 preceding) (Spark: the lower bound of a window frame must be less than or equal to the upper bound) [bad-window]"},
		{"where rank() over (order by v) = 1",
			"p.thund:3:38: window function rank() is not allowed in where: window functions are computed in a select: filter on one in a where after it (QUALIFY in SQL) [bad-window]"},
		{"group by k aggregate sum(rank() over (order by v)) as x",
			"p.thund:3:57: window function rank() inside aggregate sum: compute the window in a select after the aggregate [bad-window]"},
		{"group by rank() over (order by v) as r aggregate count(*) as n",
			"p.thund:3:41: window function rank() is not allowed in group by: window functions are computed in a select: filter on one in a where after it (QUALIFY in SQL) [bad-window]"},
		{"select sum(rank() over (order by v)) over () as x",
			"p.thund:3:43: window function rank() inside window sum: nested windows are not supported; compute it in a select before [bad-window]"},
		{"select upper(s) over (order by v) as x",
			"p.thund:3:39: upper(s) is not a window function or an aggregate: upper over (...) is not supported (Spark's UNSUPPORTED_EXPR_FOR_WINDOW) [bad-window]"},
		{"select lag(v, 1, 'x') over (order by v) as x",
			"p.thund:3:49: lag's default is string, which does not fit v's int32: cast it [type-mismatch]"},
		{"select ntile(0) over (order by v) as x",
			"p.thund:3:45: ntile's bucket count must be a positive integer constant, got 0 [bad-window]"},
		{"select sum(v) ignore nulls over (order by v) as x",
			"p.thund:3:39: ignore nulls applies to lag, lead and nth_value, not sum [bad-window]"},
		{"select first_value(v) ignore nulls over (order by v) as x",
			"p.thund:3:39: ignore nulls applies to lag, lead and nth_value, not first_value: its second argument skips nulls, first_value(x, true) [bad-window]"},
		{"select upper(s) ignore nulls as x",
			"p.thund:3:39: ignore nulls applies to lag, lead and nth_value over a window, not to upper here [bad-window]"},
		{"group by k aggregate first(v) ignore nulls as x",
			"p.thund:3:53: ignore nulls applies to lag, lead and nth_value over a window, not to first here: its second argument skips nulls, first(x, true) [bad-window]"},
	}
	for _, tc := range cases {
		t.Run(tc.query, func(t *testing.T) {
			u := planOf(t, windowSrc+"materialized view w = from u | "+tc.query+"\n")
			var got []string
			for _, d := range u.Diags {
				got = append(got, d.Error())
			}
			if !containsStr(got, tc.want) {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), tc.want)
			}
		})
	}
}
