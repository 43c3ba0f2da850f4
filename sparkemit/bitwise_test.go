package sparkemit

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/prototext"

	"github.com/nordisk/thund/passes"
)

// TestBitwiseLowering: the bitwise operators are unresolved functions of
// the names Spark's registry gives them (4.1.4 and 4.2.1 plan both; the
// real-Spark lane's bitwise case runs them), so that Spark names an
// unaliased column as its parser would: "(a & b)", "~a", "(a << n)".
func TestBitwiseLowering(t *testing.T) {
	u := compileSrc(t, "p.thund", `pipeline p
source t from parquet "t/*.parquet" { a int64, b int32, n int32 }
materialized view w = from t
  | select a & b as x_and, (a | b) as x_or, a ^ b as x_xor, ~b as x_not, a << n as x_shl, a >> n as x_shr, b >>> n as x_shru
`, passes.Spark42)
	b, _, err := Emit(u, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, x := range flowRelation(t, b, "w").GetProject().GetExpressions() {
		a := x.GetAlias()
		got[a.GetName()[0]] = strings.Join(strings.Fields(prototext.MarshalOptions{}.Format(a.GetExpr())), "")
	}
	attr := func(n string) string { return `arguments:{unresolved_attribute:{unparsed_identifier:"` + n + `"}}` }
	for name, want := range map[string]string{
		"x_and":  `unresolved_function:{function_name:"&"` + attr("a") + attr("b") + `}`,
		"x_or":   `unresolved_function:{function_name:"|"` + attr("a") + attr("b") + `}`,
		"x_xor":  `unresolved_function:{function_name:"^"` + attr("a") + attr("b") + `}`,
		"x_not":  `unresolved_function:{function_name:"~"` + attr("b") + `}`,
		"x_shl":  `unresolved_function:{function_name:"<<"` + attr("a") + attr("n") + `}`,
		"x_shr":  `unresolved_function:{function_name:">>"` + attr("a") + attr("n") + `}`,
		"x_shru": `unresolved_function:{function_name:">>>"` + attr("b") + attr("n") + `}`,
	} {
		if got[name] != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got[name], want)
		}
	}
}
