package passes

import (
	"strings"
	"testing"
)

// TestGeneratedColumns pins the names, types and nullability of each
// generator's columns, as Spark 4.2.1 reports them (the schema of SELECT
// gen(...) and of LATERAL VIEW): pos is a non-NULL int, a map's key is
// non-NULL, an element or value is as nullable as the array's elements or
// map's values, inline's fields are nullable when the structs may be NULL,
// stack's columns and json_tuple's are always nullable, and outer makes
// every generated column nullable.
func TestGeneratedColumns(t *testing.T) {
	const src = `pipeline p
source s from jsonl "s.jsonl" {
  id int64 not null, tags array<string>, ns array<int32 not null>, m map<string, int64 not null>,
  items array<struct<a: int32 not null, b: string> not null>, doc string
}
`
	for _, c := range []struct {
		stage, cols string
	}{
		{"lateral view explode(tags) t", "col string"},
		{"lateral view explode(ns) t", "col int32 not null"},
		{"lateral view explode_outer(ns) t", "col int32"},
		{"lateral view posexplode(ns) t as p, x", "p int32 not null, x int32 not null"},
		{"lateral view outer posexplode(ns) t", "pos int32, col int32"},
		{"lateral view explode(m) t", "key string not null, value int64 not null"},
		{"lateral view posexplode_outer(m) t", "pos int32, key string, value int64"},
		{"lateral view inline(items) t", "a int32 not null, b string"},
		{"lateral view inline_outer(items) t", "a int32, b string"},
		{"lateral view stack(2, id, 'x', cast(3 as int64), null) t", "col0 int64, col1 string"},
		{"lateral view stack(3, id, cast(2 as int64)) t", "col0 int64"},
		{"lateral view json_tuple(doc, 'a', 'b') t", "c0 string, c1 string"},
	} {
		u := planOf(t, src+"materialized view v = from s | "+c.stage+"\n")
		for _, d := range u.Diags {
			t.Errorf("%s: %v", c.stage, d)
		}
		out := u.Schemas[u.Pipeline.Flows[0].Query]
		var got []string
		for _, f := range out[6:] {
			got = append(got, f.String())
		}
		if strings.Join(got, ", ") != c.cols {
			t.Errorf("%s: generated %s, want %s", c.stage, strings.Join(got, ", "), c.cols)
		}
	}
}
