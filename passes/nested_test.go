package passes

import (
	"strings"
	"testing"

	"github.com/nordisk/thund/ir"
)

// nestedSource is a source with every nested kind, for the typing tests.
const nestedSource = `pipeline p
source s from jsonl "s.jsonl" {
  id int64 not null, tags array<string>, ns array<int32 not null>, m map<string, int64>,
  who struct<name: string not null, scores: array<float64>>
}
`

// TestNestedTypes pins the type and nullability of each nested expression,
// as Spark 4.1.4 reports them (typeof and the schema's nullability).
func TestNestedTypes(t *testing.T) {
	for _, c := range []struct {
		expr, typ string
		nullable  bool
	}{
		{"tags[0]", "string", true},
		{"ns[id]", "int32", true},
		{"m['k']", "int64", true}, // a missing key is NULL
		{"who.name", "string", true},
		{"who.scores", "array<float64>", true},
		{"(who).scores[1]", "float64", true},
		{"named_struct('a', id, 'b', tags).a", "int64", false},
		{"array(id, 2, null)", "array<int64>", false},
		{"array(id, 2)", "array<int64 not null>", false},
		{"array()", "array<null not null>", false},
		{"map('k', id)", "map<string, int64 not null>", false},
		{"struct(id, who.name, id + 1)", "struct<id: int64 not null, name: string, col3: int64 not null>", false},
		{"size(tags)", "int32", true},
		{"size(ns)", "int32", true},
		{"element_at(ns, -1)", "int32", true},
		{"element_at(m, 'k')", "int64", true},
		{"map_keys(m)", "array<string>", true},
		{"map_values(m)", "array<int64>", true},
		{"array_contains(tags, 'x')", "bool", true},
		{"cast(null as map<string, array<int32>>)", "map<string, array<int32>>", true},
		{"split(who.name, ',')", "array<string not null>", true},
		{"split('a', ',', 2)", "array<string not null>", false},
	} {
		u := planOf(t, nestedSource+"materialized view v = from s | select "+c.expr+" as x\n")
		var errs []string
		for _, d := range u.Diags {
			if !strings.Contains(d.Error(), "native backend") && d.Code != ir.CodeIcebergType {
				errs = append(errs, d.Error())
			}
		}
		if len(errs) > 0 {
			t.Errorf("%s: %s", c.expr, strings.Join(errs, "\n"))
			continue
		}
		x := u.Pipeline.Flows[0].Query.(*ir.Project).Items[0].Expr
		if typ, null := u.Types[x], u.Nullable[x]; typ.String() != c.typ || null != c.nullable {
			t.Errorf("%s: %s (nullable %v), want %s (nullable %v)", c.expr, typ, null, c.typ, c.nullable)
		}
	}
}

// TestStoredNested: a materialized view keeps every part of its nested
// columns nullable, as Spark's tables do, whatever its query says.
func TestStoredNested(t *testing.T) {
	u := planOf(t, nestedSource+"materialized view v = from s | select split('a,b', ',') as p, named_struct('a', id, 'b', ns) as s\n")
	got := u.Datasets[u.Pipeline.Datasets[1]]
	if got[0].Type.String() != "array<string>" || got[1].Type.String() != "struct<a: int64, b: array<int32>>" {
		t.Errorf("stored as %s", got)
	}
}

// TestNestedErrors: misuse of nested values is refused at its position,
// as Spark refuses it at analysis.
func TestNestedErrors(t *testing.T) {
	for _, c := range []struct{ expr, want string }{
		{"id.x", `cannot take field "x" of int64 (id.x): only a struct has fields`},
		{"who.nme", `no field "nme" in struct<name: string not null, scores: array<float64>> (who.nme): did you mean name?`},
		{"id[0]", `cannot subscript int64 (id): only an array (by a 0-based index) or a map (by a key) can be`},
		{"tags['a']", `an array's index must be an integer, got string ('a')`},
		{"m = m", `cannot compare map<string, int64> with map<string, int64>`},
		{"map(m, 1)", `the key of a map cannot be or contain a map, got map<string, int64> (Spark: INVALID_MAP_KEY_TYPE)`},
		{"map(null, 1)", `a map key cannot be NULL (Spark: NULL_MAP_KEY)`},
		{"map('a')", `map takes key, value pairs, got 1 argument(s)`},
		{"named_struct(tags, 1)", `named_struct's field names must be string literals, got tags`},
		{"element_at(ns, id)", `element_at's index must be an int (1-based; negative counts from the end), got int64 (id)`},
		{"array_contains(ns, 'x')", `array_contains looks for a value of the array's element type int32, got string ('x')`},
		{"array_contains(ns, null)", `array_contains cannot look for NULL (Spark: DATATYPE_MISMATCH.NULL_TYPE)`},
		{"size(id)", `size takes an array or a map, got int64 (id)`},
		{"cast(tags as array<int32 not null>)", `cannot cast array<string> to array<int32 not null>`},
		{"cast('x' as array<string>)", `cannot cast string to array<string>`},
		{"explode(tags)", `explode is a generator (it makes rows): it stands only in a lateral view (SQL: LATERAL VIEW, or a whole SELECT item), not inside an expression (Spark: UNSUPPORTED_GENERATOR)`},
		{"split(id, ',')", `split takes a string, a regex (string) and a limit (integer); argument 1 is int64 (id)`},
		{"m as x | order by x", `cannot order by x, of type map<string, int64>: a map has no order (Spark: INVALID_ORDERING_TYPE)`},
		{"m as x | distinct", `distinct over the column x, of type map<string, int64>: Spark cannot compare maps (UNSUPPORTED_FEATURE.SET_OPERATION_ON_MAP_TYPE)`},
		{"m as x | union (from s | select m as x)", `union over the column x, of type map<string, int64>: Spark cannot compare maps`},
	} {
		q := c.expr + " as x"
		if strings.Contains(c.expr, "|") { // a whole query after select
			q = c.expr
		}
		u := planOf(t, nestedSource+"materialized view v = from s | select "+q+"\n")
		var got []string
		for _, d := range u.Diags {
			got = append(got, d.Error())
		}
		if !strings.Contains(strings.Join(got, "\n"), c.want) {
			t.Errorf("%s:\n got: %s\nwant: %s", c.expr, strings.Join(got, "\n"), c.want)
		}
	}
}
