package passes

import "github.com/nordisk/thund/ir"

// Typing rules of nested types (ARRAY, MAP, STRUCT), Spark's, part by part.
// Each applies when either side is nested; the scalar rules in types.go
// call them first.

// nestedParts lists the corresponding parts of two nested types of one
// kind, with each part's nullability on both sides; ok false when the kinds
// differ or two structs have different numbers of fields.
func nestedParts(a, b ir.Type) (parts [][2]ir.Type, nulls [][2]bool, ok bool) {
	if a.Kind != b.Kind || !a.IsNested() {
		return nil, nil, false
	}
	switch a.Kind {
	case ir.TArray:
		return [][2]ir.Type{{a.Elem(), b.Elem()}}, [][2]bool{{a.ElemNullable(), b.ElemNullable()}}, true
	case ir.TMap:
		return [][2]ir.Type{{a.Key(), b.Key()}, {a.Elem(), b.Elem()}}, [][2]bool{{false, false}, {a.ElemNullable(), b.ElemNullable()}}, true
	}
	fa, fb := a.Fields(), b.Fields()
	if len(fa) != len(fb) {
		return nil, nil, false
	}
	for i := range fa {
		parts = append(parts, [2]ir.Type{fa[i].Type, fb[i].Type})
		nulls = append(nulls, [2]bool{!fa[i].NotNull, !fb[i].NotNull})
	}
	return parts, nulls, true
}

// nestedConvertible is Spark's rule for casting (cast) or storing (store)
// one nested value as another type: same kind, as many struct fields
// (matched by position, names aside), each part convertible by the same
// rule, and no part that may be NULL going into one that may not.
func nestedConvertible(from, to ir.Type, part func(from, to ir.Type) bool) bool {
	parts, nulls, ok := nestedParts(from, to)
	if !ok {
		return false
	}
	for i, p := range parts {
		if !part(p[0], p[1]) || nulls[i][0] && !nulls[i][1] {
			return false
		}
	}
	return true
}

// commonNested is the type two nested types meet at: their parts' common
// types, a part nullable when either side's is, and the first side's
// struct field names (as Spark's UNION ALL of struct<a: int> and
// struct<b: bigint> gives struct<a: bigint>).
func commonNested(a, b ir.Type) (ir.Type, bool) {
	parts, nulls, ok := nestedParts(a, b)
	if !ok {
		return ir.Type{}, false
	}
	common := make([]ir.Type, len(parts))
	for i, p := range parts {
		if common[i], ok = commonType(p[0], p[1]); !ok {
			return ir.Type{}, false
		}
	}
	switch a.Kind {
	case ir.TArray:
		return ir.ArrayOf(common[0], nulls[0][0] || nulls[0][1]), true
	case ir.TMap:
		return ir.MapOf(common[0], common[1], nulls[1][0] || nulls[1][1]), true
	}
	fields := make([]ir.StructField, len(common))
	for i, f := range a.Fields() {
		fields[i] = ir.StructField{Name: f.Name, Type: common[i], NotNull: !nulls[i][0] && !nulls[i][1]}
	}
	return ir.StructOf(fields...), true
}

// comparableNested reports whether two nested values compare (=, <, ...):
// arrays and structs do, part by part, as Spark orders them; maps never do
// (Spark: "does not support ordering on type MAP").
func comparableNested(a, b ir.Type) bool {
	if a.Kind == ir.TMap || b.Kind == ir.TMap {
		return false
	}
	parts, _, ok := nestedParts(a, b)
	if !ok {
		return false
	}
	for _, p := range parts {
		if !comparable(p[0], p[1]) {
			return false
		}
	}
	return true
}

// storedNested is the schema a table keeps of a query's output: every part
// of a nested column nullable, as Spark stores a query's schema
// (asNullable: a materialized view of split(s, ',') reads back as
// array<string> with nullable elements on 4.1.4 and 4.2.1).
func storedNested(s Schema) Schema {
	out := append(Schema(nil), s...)
	for i := range out {
		out[i].Type = nullableParts(out[i].Type)
	}
	return out
}

// nullableParts is t with every part of it, at any depth, nullable.
func nullableParts(t ir.Type) ir.Type {
	switch t.Kind {
	case ir.TArray:
		return ir.ArrayOf(nullableParts(t.Elem()), true)
	case ir.TMap:
		return ir.MapOf(nullableParts(t.Key()), nullableParts(t.Elem()), true)
	case ir.TStruct:
		fs := append([]ir.StructField(nil), t.Fields()...)
		for i := range fs {
			fs[i].Type, fs[i].NotNull = nullableParts(fs[i].Type), false
		}
		return ir.StructOf(fs...)
	}
	return t
}
