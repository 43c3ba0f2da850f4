package format

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestRelayout: nested columns with large lists, strings and binaries (what
// pyarrow writes) read as the declared array, map and struct types, sliced
// or not; a column of another shape is refused.
func TestRelayout(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for _, c := range []struct {
		name     string
		from, to arrow.DataType
		json     string
	}{
		{"large list of large strings",
			arrow.LargeListOf(arrow.BinaryTypes.LargeString),
			arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.BinaryTypes.String, Nullable: true}),
			`[["a",null,"bc"],null,[],["d"]]`},
		{"map of large strings to large lists",
			arrow.MapOf(arrow.BinaryTypes.LargeString, arrow.LargeListOf(arrow.PrimitiveTypes.Int64)),
			arrow.MapOf(arrow.BinaryTypes.String, arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int64, Nullable: true})),
			`[[{"key":"k","value":[1,2]},{"key":"l","value":null}],null,[]]`},
		{"struct of a large binary and a large list",
			arrow.StructOf(arrow.Field{Name: "b", Type: arrow.BinaryTypes.LargeBinary, Nullable: true}, arrow.Field{Name: "l", Type: arrow.LargeListOf(arrow.BinaryTypes.LargeString), Nullable: true}),
			arrow.StructOf(arrow.Field{Name: "b", Type: arrow.BinaryTypes.Binary, Nullable: true}, arrow.Field{Name: "l", Type: arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.BinaryTypes.String, Nullable: true}), Nullable: true}),
			`[{"b":"AAE=","l":["x"]},null,{"b":null,"l":null}]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, _, err := array.FromJSON(mem, c.from, strings.NewReader(c.json))
			if err != nil {
				t.Fatal(err)
			}
			defer src.Release()
			conv, ok := conformFor(c.from, c.to, mem)
			if !ok {
				t.Fatalf("%s does not read as %s", c.from, c.to)
			}
			for _, sl := range [][2]int{{0, src.Len()}, {1, src.Len()}} {
				part := array.NewSlice(src, int64(sl[0]), int64(sl[1]))
				out, _, err := conv(part)
				if err != nil {
					t.Fatal(err)
				}
				if !arrow.TypeEqual(out.DataType(), c.to) {
					t.Errorf("type %s, want %s", out.DataType(), c.to)
				}
				want, _ := json.Marshal(part)
				got, _ := json.Marshal(out)
				if string(got) != string(want) {
					t.Errorf("slice %v:\n got %s\nwant %s", sl, got, want)
				}
				out.Release()
				part.Release()
			}
		})
	}
	if _, ok := conformFor(arrow.LargeListOf(arrow.PrimitiveTypes.Int64), arrow.ListOf(arrow.BinaryTypes.String), mem); ok {
		t.Error("a list of int64 reads as a list of strings")
	}
	notNull := arrow.ListOfField(arrow.Field{Name: "element", Type: arrow.PrimitiveTypes.Int64})
	if _, ok := conformFor(arrow.LargeListOf(arrow.PrimitiveTypes.Int64), notNull, mem); ok {
		t.Error("nullable elements read as NOT NULL ones")
	}
}
