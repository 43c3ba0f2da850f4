package sql

import (
	"strings"

	"github.com/nordisk/thund/ir"
)

// isNestedTypeName reports ARRAY, MAP and STRUCT, in any case.
func isNestedTypeName(name string) bool {
	switch strings.ToLower(name) {
	case "array", "map", "struct":
		return true
	}
	return false
}

// nestedType converts ARRAY<T>, MAP<K, V> and STRUCT<name[:] T [NOT NULL]
// [COMMENT '...'], ...>. As in Spark, elements and values are nullable
// (its DDL cannot say otherwise: NOT NULL there is a parse error), struct
// fields may be NOT NULL, and a field's COMMENT is accepted and dropped
// (the model keeps no field metadata).
func (c *conv) nestedType(t *typeAST) (ir.Type, bool) {
	name := strings.ToUpper(t.Name.Name)
	want := map[string]string{"ARRAY": "ARRAY<element type>", "MAP": "MAP<key type, value type>", "STRUCT": "STRUCT<name: type, ...>"}[name]
	fail := func(p ir.Pos, format string, args ...any) (ir.Type, bool) {
		c.errorf(p, ir.CodeSyntax, format, args...)
		return ir.Type{}, false
	}
	if len(t.Args) > 0 || t.WithoutTZ {
		return fail(pos(t.Pos), "%s takes its parts between < and >: want %s", name, want)
	}
	if name != "STRUCT" {
		if n := map[string]int{"ARRAY": 1, "MAP": 2}[name]; len(t.Parts) != n {
			return fail(pos(t.Pos), "%s takes %d type(s) between < and >, got %d: want %s", name, n, len(t.Parts), want)
		}
		for _, p := range t.Parts {
			switch {
			case p.FieldType != nil:
				return fail(pos(p.Pos), "%s parts have no names: want %s", name, want)
			case p.NotNull || p.Comment != nil:
				return fail(pos(p.Pos), "NOT NULL and COMMENT apply to STRUCT fields only: want %s", want)
			}
		}
		parts := make([]ir.Type, len(t.Parts))
		for i, p := range t.Parts {
			var ok bool
			if parts[i], ok = c.sparkType(p.Type); !ok {
				return ir.Type{}, false
			}
		}
		if name == "ARRAY" {
			return ir.ArrayOf(parts[0], true), true
		}
		return ir.MapOf(parts[0], parts[1], true), true
	}
	fields := make([]ir.StructField, len(t.Parts))
	for i, p := range t.Parts {
		n := p.Type
		if p.FieldType == nil || n.Parts != nil || n.Empty || n.Args != nil || n.WithoutTZ {
			return fail(pos(p.Pos), "a STRUCT field is a name and a type: want %s", want)
		}
		ft, ok := c.sparkType(p.FieldType)
		if !ok {
			return ir.Type{}, false
		}
		fields[i] = ir.StructField{Name: n.Name.Name, Type: ft, NotNull: p.NotNull}
	}
	return ir.StructOf(fields...), true
}
