package passes

import (
	"strings"
	"testing"
)

// mathRefusals are the calls of the math and conditional families that the
// native backend refuses (their funcSig.native), each at its position.
var mathRefusals = []struct{ name, src, want string }{
	{"div of a decimal", `source u from csv "u.csv" { x decimal(10,2) }
materialized view m = from u | select div(x, 2) as q`,
		`p.thund:3:43: native backend: div of decimal(10,2) is not supported yet: cast it to bigint`},
	{"bround of an unsigned", `source u from csv "u.csv" { x uint32 }
materialized view m = from u | select bround(x) as r`,
		`p.thund:3:46: native backend: bround of uint32 is not supported yet`},
	{"pmod of floats", `source u from csv "u.csv" { x float32 }
materialized view m = from u | select pmod(x, x) as r`,
		`p.thund:3:39: native backend: pmod in float32 is not supported yet`},
	{"negative of an unsigned", `source u from csv "u.csv" { x uint32 }
materialized view m = from u | select negative(x) as r`,
		`p.thund:3:48: native backend: negative of uint32 is not supported yet`},
	{"factorial of an unsigned", `source u from csv "u.csv" { x uint32 }
materialized view m = from u | select factorial(x) as r`,
		`p.thund:3:49: native backend: factorial of uint32 is not supported yet`},
	{"try_add of unsigned", `source u from csv "u.csv" { x uint32 }
materialized view m = from u | select try_add(x, x) as r`,
		`p.thund:3:39: native backend: try_add(uint32, uint32) is not supported yet`},
	{"width_bucket with an unsigned count", `source u from csv "u.csv" { x float64, n uint32 }
materialized view m = from u | select width_bucket(x, 0, 1, n) as r`,
		`p.thund:3:61: native backend: width_bucket with a bucket count of uint32 is not supported yet`},
	{"try_add of a date", `source u from csv "u.csv" { x date }
materialized view m = from u | select try_add(x, 1) as r`,
		`p.thund:3:39: native backend: try_add(date32, int32) is not supported yet`},
	{"assert_true without a message", `source u from csv "u.csv" { x int64 }
materialized view m = from u | select coalesce(assert_true(x > 0), x) as r`,
		`p.thund:3:48: native backend: assert_true without a message is not supported yet: give one, assert_true(cond, 'message')`},
}

// TestMathRefusals checks each refusal's position and message, made by the
// plan pass.
func TestMathRefusals(t *testing.T) {
	for _, tc := range mathRefusals {
		t.Run(tc.name, func(t *testing.T) {
			u := planOf(t, "pipeline p\n"+tc.src+"\n")
			var got []string
			for _, d := range u.Diags {
				got = append(got, d.Error())
			}
			if want := tc.want + " [capability]"; !containsStr(got, want) {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
			}
			if !u.ran("plan") {
				t.Errorf("the refusal came before the plan pass: %v", u.Ran)
			}
		})
	}
}
