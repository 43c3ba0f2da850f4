package format

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// nestedSchema has an array, a map and a struct column.
var nestedSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "tags", Type: arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.BinaryTypes.String, Nullable: true}), Nullable: true},
	{Name: "m", Type: arrow.MapOf(arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Float64), Nullable: true},
	{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		arrow.Field{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true}), Nullable: true},
}, nil)

// TestNestedJSONLAndText: JSON lines read into nested columns; their text
// form is Spark's show; every format writes and reads them back the same.
func TestNestedJSONLAndText(t *testing.T) {
	in := `{"id": 1, "tags": ["a", null], "m": {"2": 1.5, "1": null}, "s": {"A": 7, "d": "2024-01-02"}}
{"id": 2, "tags": [], "m": {}, "s": {"a": 8}}
{"id": 3, "tags": null, "m": null, "s": null}
`
	recs, err := readBytes([]byte(in), "in.jsonl", JSONL, nestedSchema, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer release(recs)
	want := "1 | [a, null] | {2 -> 1.5, 1 -> null} | {7, 2024-01-02}\n2 | [] | {} | {8, null}\n3 | NULL | NULL | NULL"
	if got := strings.Join(render(t, recs), "\n"); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	for _, f := range []Format{Parquet, JSONL, Arrow} {
		back, err := readBytes(write(t, f, nestedSchema, recs...), "back", f, nestedSchema, Options{})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if got := strings.Join(render(t, back), "\n"); got != want {
			t.Errorf("%s round trip:\n%s", f, got)
		}
		release(back)
	}
}

// TestNestedJSONLErrors: a nested value of the wrong shape, or a NULL
// where the type says NOT NULL, names the line and the column.
func TestNestedJSONLErrors(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{`{"id": 1, "tags": "a"}`, `in.jsonl:1:19: column tags: want array<string>, got "a"`},
		{`{"id": 1, "tags": {"a": 1}}`, `in.jsonl:1:19: column tags: want array<string>, got {"a": 1}`},
		{`{"id": 1, "m": {"x": 1}}`, `in.jsonl:1:16: column m: map key "x": want int32, got "x"`},
		{`{"id": 1, "s": {"d": "2024-01-02"}}`, `in.jsonl:1:16: column s: field a is missing, and NOT NULL`},
		{`{"id": 1, "s": {"a": null}}`, `in.jsonl:1:16: column s: NULL in a NOT NULL column`},
		{`{"id": 1, "s": {"a": 1, "a": 2}}`, `in.jsonl:1:16: column s: field "a" given twice`},
	} {
		recs, err := readBytes([]byte(c.data+"\n"), "in.jsonl", JSONL, nestedSchema, Options{})
		release(recs)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got: %v\nwant: %s", c.data, err, c.want)
		}
	}
}

// TestNestedTypeText: the DSL spelling of nested types reads back, and
// malformed spellings are errors.
func TestNestedTypeText(t *testing.T) {
	for _, s := range []string{"array<int32>", "array<string not null>", "map<string, decimal(10,2) not null>",
		"struct<a: int32 not null, `b, c`: array<timestamp(us, \"UTC\")>>", "struct<>", "map<int64, struct<x: map<string, date32>>>"} {
		dt, err := ParseType(s)
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		if got := TypeString(dt); got != s {
			t.Errorf("%s reads back as %s", s, got)
		}
		if !Supported(dt) {
			t.Errorf("%s is not supported", s)
		}
	}
	for _, s := range []string{"array<>", "array<int32, int32>", "map<string>", "struct<a int32>", "array<int32", "struct<`a: int32>"} {
		if dt, err := ParseType(s); err == nil {
			t.Errorf("%s reads as %s", s, dt)
		}
	}
}
