package passes

import (
	"strings"
	"testing"

	"github.com/nordisk/thund/frontend/dsl"
	"github.com/nordisk/thund/ir"
)

// TestSparkOnlyFunctions: rlike (and its aliases) types on every target;
// the Spark targets run every call, and the native target's plan pass
// refuses, at the pattern, one that is not a constant and one whose
// meaning RE2 does not share (lookahead).
func TestSparkOnlyFunctions(t *testing.T) {
	const src = rootCauseHead + `
materialized view m = from trips | where rlike(city, city) and not regexp(city, 'a(?=b)') | select id, regexp_like(city, 'a+') as a
`
	for _, tc := range []struct {
		target Target
		want   []string
	}{
		{Native, []string{
			`t.thund:5:54: native backend: rlike with a pattern that is not a constant is not supported yet`,
			`t.thund:5:81: native backend: regexp's pattern has lookahead "(?="`,
		}},
		{Spark41, nil},
		{Spark42, nil},
	} {
		t.Run(string(tc.target), func(t *testing.T) {
			p, u := checkRefusals(t, src, tc.target, tc.want)
			if len(tc.want) > 0 {
				return
			}
			d := p.LookupDataset("m")
			if got := u.Datasets[d]; len(got) != 2 || got[1].Type != ir.Bool {
				t.Errorf("schema of m: got %v, want id and a bool", got)
			}
		})
	}
}

// TestSparkOnlyFunctionErrors: a Spark-only function is typed like any
// other, and a misspelt one is suggested.
func TestSparkOnlyFunctionErrors(t *testing.T) {
	for _, tc := range []struct{ expr, want string }{
		{"rlike(id, 'x')", "rlike needs a string as argument 1, got int64"},
		{"rlike(city)", "rlike takes 2 arguments, got 1"},
		{"rlikee(city, 'x')", `unknown function "rlikee" (did you mean "rlike"?)`},
	} {
		p, diags := dsl.Parse("t.thund", []byte(rootCauseHead+"materialized view m = from trips | select "+tc.expr+" as x\n"))
		if err := diags.Err(); err != nil {
			t.Fatalf("parse: %v", err)
		}
		u, _ := Run(p, Options{Target: Spark41, StopAfter: "resolve"})
		if len(u.Diags) != 1 || !strings.Contains(u.Diags[0].Msg, tc.want) {
			t.Errorf("%s: got\n%s\nwant one diagnostic containing\n\t%s", tc.expr, u.Diags.Error(), tc.want)
		}
	}
}

// checkRefusals runs the passes over a .thund source for target and checks
// its diagnostics: exactly the capability refusals want, in order, each by
// the start of its text (none: the target runs it all).
func checkRefusals(t *testing.T, src string, target Target, want []string) (*ir.Pipeline, *Unit) {
	t.Helper()
	p, diags := dsl.Parse("t.thund", []byte(src))
	if err := diags.Err(); err != nil {
		t.Fatalf("parse: %v", err)
	}
	u, _ := Run(p, Options{Target: target})
	if len(u.Diags) != len(want) {
		t.Fatalf("got %d diagnostics, want %d:\n%s", len(u.Diags), len(want), u.Diags.Error())
	}
	for i, w := range want {
		if d := u.Diags[i]; d.Code != ir.CodeCapability || !strings.HasPrefix(d.Error(), w) {
			t.Errorf("diagnostic %d: got\n\t%s\nwant a capability refusal starting\n\t%s", i+1, d.Error(), w)
		}
	}
	return p, u
}
