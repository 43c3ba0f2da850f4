package iceberg

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	ice "github.com/apache/iceberg-go"
)

// TestProjectNested: a struct inside a list and inside a map gained a
// field and had one renamed since the file was written: the file's parts
// are found by field id (by name without ids), the new field is NULL.
func TestProjectNested(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	id := func(n string) arrow.Metadata { return arrow.NewMetadata([]string{"PARQUET:field_id"}, []string{n}) }
	fileStruct := arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true, Metadata: id("3")},
		arrow.Field{Name: "c", Type: arrow.BinaryTypes.String, Nullable: true, Metadata: id("4")})
	noIDs := arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		arrow.Field{Name: "cc", Type: arrow.BinaryTypes.String, Nullable: true})
	declStruct := arrow.StructOf(
		arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		arrow.Field{Name: "cc", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "d", Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	iceStruct := &ice.StructType{FieldList: []ice.NestedField{
		{ID: 3, Name: "a", Type: ice.PrimitiveTypes.Int64}, {ID: 4, Name: "cc", Type: ice.PrimitiveTypes.String}, {ID: 5, Name: "d", Type: ice.PrimitiveTypes.Int64}}}
	elem := func(dt arrow.DataType) arrow.DataType {
		return arrow.ListOfField(arrow.Field{Name: "element", Type: dt, Nullable: true})
	}
	mapOf := func(dt arrow.DataType) arrow.DataType { return arrow.MapOf(arrow.BinaryTypes.String, dt) }
	for _, c := range []struct {
		name       string
		file, decl arrow.DataType
		it         ice.Type
		in, want   string
	}{
		{"list by id", elem(fileStruct), elem(declStruct), &ice.ListType{ElementID: 2, Element: iceStruct},
			`[[{"a":1,"c":"x"},null],null,[]]`, `[[{"a":1,"cc":"x","d":null},null],null,[]]`},
		{"list by name", elem(noIDs), elem(declStruct), &ice.ListType{ElementID: 2, Element: iceStruct},
			`[[{"a":1,"cc":"x"}]]`, `[[{"a":1,"cc":"x","d":null}]]`},
		{"map by id", mapOf(fileStruct), mapOf(declStruct), &ice.MapType{KeyID: 1, KeyType: ice.PrimitiveTypes.String, ValueID: 2, ValueType: iceStruct},
			`[[{"key":"k","value":{"a":2,"c":"y"}}],null]`, `[[{"key":"k","value":{"a":2,"cc":"y","d":null}}],null]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, _, err := array.FromJSON(mem, c.file, strings.NewReader(c.in))
			if err != nil {
				t.Fatal(err)
			}
			defer in.Release()
			p, err := project(arrow.Field{Name: "x", Type: c.file}, c.decl, c.it, "x", mem)
			if err != nil {
				t.Fatal(err)
			}
			out, err := p(in)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			if !arrow.TypeEqual(out.DataType(), c.decl) {
				t.Errorf("type %s, want %s", out.DataType(), c.decl)
			}
			got, _ := json.Marshal(out)
			if string(got) != c.want {
				t.Errorf("got %s\nwant %s", got, c.want)
			}
		})
	}
	if _, err := project(arrow.Field{Name: "x", Type: elem(fileStruct)}, elem(arrow.BinaryTypes.String), &ice.ListType{ElementID: 2, Element: ice.PrimitiveTypes.String}, "x", mem); err == nil ||
		!strings.Contains(err.Error(), "column x[]: file has struct<a: int32, c: string>, the table's schema says string") {
		t.Errorf("a struct read as a string: %v", err)
	}
}
