package passes

import (
	"testing"

	"github.com/nordisk/thund/ir"
)

// TestRandomFunctions: rand, random, randn and uniform type on every
// target; the Spark targets run them, and the native target refuses each
// where it is written (Spark draws them per partition).
func TestRandomFunctions(t *testing.T) {
	const src = `pipeline p
source u from csv "u.csv" { x int64 }
materialized view m = from u | select x, rand() as r, random(7) as s, randn(7) as n, uniform(1, 10, 3) as k
`
	for _, tc := range []struct {
		target Target
		want   []string
	}{
		{Native, []string{
			`t.thund:3:42: native backend: RAND draws random numbers per Spark partition`,
			`t.thund:3:55: native backend: RANDOM draws random numbers per Spark partition`,
			`t.thund:3:71: native backend: RANDN draws random numbers per Spark partition`,
			`t.thund:3:86: native backend: UNIFORM draws random numbers per Spark partition`,
		}},
		{Spark41, nil},
		{Spark42, nil},
	} {
		t.Run(string(tc.target), func(t *testing.T) {
			p, u := checkRefusals(t, src, tc.target, tc.want)
			if len(tc.want) > 0 {
				return
			}
			got := u.Datasets[p.LookupDataset("m")]
			want := []ir.Type{ir.Int64, ir.Float64, ir.Float64, ir.Float64, ir.Int32}
			for i, w := range want {
				if i >= len(got) || got[i].Type != w {
					t.Errorf("schema of m: got %v, want types %v", got, want)
					break
				}
			}
		})
	}
}
