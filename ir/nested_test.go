package ir

import (
	"testing"
)

// TestNestedSpelling pins the DSL and Spark SQL spellings of nested types
// (Spark's DataType.sql for the latter) and reads the DSL one back.
func TestNestedSpelling(t *testing.T) {
	for _, c := range []struct {
		t        Type
		dsl, sql string
	}{
		{ArrayOf(Int32, true), "array<int32>", "ARRAY<INT>"},
		{ArrayOf(Int32, false), "array<int32 not null>", "ARRAY<INT>"},
		{MapOf(StringT, Int64, true), "map<string, int64>", "MAP<STRING, BIGINT>"},
		{MapOf(StringT, Int64, false), "map<string, int64 not null>", "MAP<STRING, BIGINT>"},
		{StructOf(StructField{Name: "a", Type: Int32, NotNull: true}, StructField{Name: "b", Type: StringT}),
			"struct<a: int32 not null, b: string>", "STRUCT<a: INT NOT NULL, b: STRING>"},
		{StructOf(StructField{Name: "we`ird", Type: Timestamp(Micro, "UTC")}),
			"struct<`we``ird`: timestamp(us, \"UTC\")>", "STRUCT<`we``ird`: TIMESTAMP>"},
		{StructOf(), "struct<>", "STRUCT<>"},
		{ArrayOf(MapOf(Decimal(10, 2), StructOf(StructField{Name: "z", Type: Date32}), true), true),
			"array<map<decimal(10,2), struct<z: date32>>>", "ARRAY<MAP<DECIMAL(10,2), STRUCT<z: DATE>>>"},
	} {
		if got := c.t.String(); got != c.dsl {
			t.Errorf("String() = %q, want %q", got, c.dsl)
		}
		if got := c.t.SQL(); got != c.sql {
			t.Errorf("SQL() = %q, want %q", got, c.sql)
		}
		back, err := ParseType(c.dsl)
		if err != nil || back != c.t {
			t.Errorf("ParseType(%q) = %s, %v", c.dsl, back, err)
		}
	}
}

// TestNestedEquality: equal nested types are ==, built apart or parsed;
// any difference in a part, a name or a nullability makes them differ.
func TestNestedEquality(t *testing.T) {
	a := StructOf(StructField{Name: "a", Type: ArrayOf(Int32, true)})
	b, err := ParseType("STRUCT<a: ARRAY<INT>>")
	if err != nil || a != b {
		t.Fatalf("%s != %s (%v)", a, b, err)
	}
	differ := []Type{
		StructOf(StructField{Name: "A", Type: ArrayOf(Int32, true)}),
		StructOf(StructField{Name: "a", Type: ArrayOf(Int32, false)}),
		StructOf(StructField{Name: "a", Type: ArrayOf(Int64, true)}),
		StructOf(StructField{Name: "a", Type: ArrayOf(Int32, true), NotNull: true}),
		ArrayOf(Int32, true), MapOf(Int32, Int32, true), StructOf(),
	}
	for _, d := range differ {
		if d == a {
			t.Errorf("%s == %s", d, a)
		}
	}
	if f, i := a.Field("A"); i != 0 || f.Type != ArrayOf(Int32, true) {
		t.Errorf("Field(A) = %v, %d", f, i)
	}
	if _, i := a.Field("b"); i != -1 {
		t.Errorf("Field(b) = %d", i)
	}
}

// TestNestedParseErrors: malformed nested spellings are refused.
func TestNestedParseErrors(t *testing.T) {
	for _, s := range []string{"array", "array<", "array<int32", "array<int32>>", "map<string>", "map<string, >",
		"struct<a int32>", "struct<a: int32", "struct<: int32>", "struct<`a: int32>", "array<nope>", "array<int32 not>"} {
		if ty, err := ParseType(s); err == nil {
			t.Errorf("ParseType(%q) = %s, want an error", s, ty)
		}
	}
}
