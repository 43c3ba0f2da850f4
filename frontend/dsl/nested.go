package dsl

import (
	"strings"

	"github.com/nordisk/thund/ir"
)

// isNestedTypeName reports array, map and struct, in any case.
func isNestedTypeName(name string) bool {
	switch strings.ToLower(name) {
	case "array", "map", "struct":
		return true
	}
	return false
}

// nestedType lowers array<T [not null]>, map<K, V [not null]> and
// struct<name: T [not null], ...>. A map's key is never NULL, so not null
// on it is refused as meaningless; only struct parts have names.
func (l *lowerer) nestedType(t *typeRef) ir.Type {
	name := strings.ToLower(string(t.Name))
	if len(t.Args) > 0 {
		l.errorf(t.Args[0].Pos, ir.CodeSyntax, "%s takes its parts between < and >, not (...)", name)
		return ir.Type{}
	}
	want := map[string]string{"array": "array<element type>", "map": "map<key type, value type>", "struct": "struct<name: type, ...>"}[name]
	if t.Parts == nil && name != "struct" {
		l.errorf(t.Pos, ir.CodeSyntax, "%s needs its parts: want %s", name, want)
		return ir.Type{}
	}
	if name != "struct" {
		n := map[string]int{"array": 1, "map": 2}[name]
		if len(t.Parts) != n {
			l.errorf(t.Pos, ir.CodeSyntax, "%s takes %d part(s), got %d: want %s", name, n, len(t.Parts), want)
			return ir.Type{}
		}
		for _, p := range t.Parts {
			if p.Field != nil {
				l.errorf(p.Pos, ir.CodeSyntax, "%s parts have no names: want %s", name, want)
				return ir.Type{}
			}
		}
	}
	switch name {
	case "array":
		return ir.ArrayOf(l.typ(t.Parts[0].Type), !t.Parts[0].NotNull)
	case "map":
		if t.Parts[0].NotNull {
			l.errorf(t.Parts[0].Pos, ir.CodeSyntax, "a map's keys are never NULL: drop not null on the key")
		}
		return ir.MapOf(l.typ(t.Parts[0].Type), l.typ(t.Parts[1].Type), !t.Parts[1].NotNull)
	}
	fields := make([]ir.StructField, len(t.Parts))
	for i, p := range t.Parts {
		if p.Field == nil {
			l.errorf(p.Pos, ir.CodeSyntax, "a struct field needs a name: want %s", want)
			return ir.Type{}
		}
		fields[i] = ir.StructField{Name: string(*p.Field), Type: l.typ(p.Type), NotNull: p.NotNull}
	}
	return ir.StructOf(fields...)
}
