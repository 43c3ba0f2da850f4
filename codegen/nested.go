package codegen

import (
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
)

// Nested values (ARRAY, MAP, STRUCT) are held in generated code as rt/nested
// values (a Go any: nested.Array, *nested.Map, nested.Struct, nil for
// NULL; see that package's doc), loaded from their Arrow column with
// nested.Get and appended with nested.Append. The plan pass admits them
// only where this file generates them: through scans, filters and
// projections, and in the expressions below.

const nestedPkg = "github.com/nordisk/thund/rt/nested"

// nestedFuncs are the functions over nested values genNestedCall generates.
var nestedFuncs = map[string]bool{
	"array": true, "map": true, "struct": true, "named_struct": true,
	"size": true, "element_at": true, "array_contains": true, "map_keys": true, "map_values": true,
	"split": true,
}

// nestedArrowType builds the Arrow type of a nested type, as ir.Type.Arrow
// does: a list's element is named "element", a map's entries "key" and
// "value".
func nestedArrowType(t ir.Type) *jen.Statement {
	field := func(name string, ft ir.Type, nullable bool) jen.Code {
		return jen.Qual(arrowPkg, "Field").Values(jen.Dict{
			jen.Id("Name"): jen.Lit(name), jen.Id("Type"): arrowType(ft), jen.Id("Nullable"): jen.Lit(nullable)})
	}
	switch t.Kind {
	case ir.TArray:
		return jen.Qual(arrowPkg, "ListOfField").Call(field("element", t.Elem(), t.ElemNullable()))
	case ir.TMap:
		return jen.Qual(nestedPkg, "MapType").Call(arrowType(t.Key()), arrowType(t.Elem()), jen.Lit(t.ElemNullable()))
	}
	fs := make([]jen.Code, len(t.Fields()))
	for i, f := range t.Fields() {
		fs[i] = field(f.Name, f.Type, !f.NotNull)
	}
	return jen.Qual(arrowPkg, "StructOf").Call(fs...)
}

// anyOf is a value as a nested part: nil for NULL.
func anyOf(x *value) jen.Code {
	switch {
	case x.null:
		return jen.Nil()
	case x.ok == nil:
		return jen.Id("any").Call(V(x))
	}
	return jen.Qual(nestedPkg, "Opt").Call(V(x), OK(x))
}

// as converts x to type t (a struct field's, an array's element, a map's
// key) when it is not of it already.
func (g *flowGen) as(x *value, t ir.Type, pos ir.Pos) *value {
	if x.null || x.t == t || sameRep(x.t, t) {
		return x
	}
	return g.genCast(x, t, false, pos)
}

// genFieldPath reads the struct fields a field reference (s.f, t.s.f) names
// after its column, from the column's value x.
func (g *flowGen) genFieldPath(c *ir.ColumnRef, x *value) *value {
	parts := g.u.FieldRefs[c]
	names := append(strings.Split(c.Qualifier, "."), c.Name)
	for _, name := range names[len(names)-parts:] {
		x = g.genField(x, name, c.Pos)
	}
	return x
}

// genField reads field name of struct value x.
func (g *flowGen) genField(x *value, name string, pos ir.Pos) *value {
	f, i := x.t.Field(name)
	if x.null || x.t.Kind != ir.TStruct {
		return nullValue(f.Type)
	}
	return g.strict(f.Type, pos, maybe, false, []*value{x}, func() jen.Code {
		return jen.Qual(nestedPkg, "Field").Types(goType(f.Type)).Call(V(x), jen.Lit(i))
	})
}

// genNestedExpr generates a GetField or a Subscript.
func (g *flowGen) genNestedExpr(e ir.Expr, en *env) *value {
	t := g.typeOf(e)
	switch e := e.(type) {
	case *ir.GetField:
		return g.genField(g.genExpr(e.X, en), e.Name, e.Pos)
	case *ir.Subscript:
		x, i := g.genExpr(e.X, en), g.genExpr(e.Index, en)
		if x.t.Kind == ir.TMap {
			k := g.as(i, x.t.Key(), e.Pos)
			return g.strict(t, e.Pos, maybe, false, []*value{x, k}, func() jen.Code {
				return jen.Qual(nestedPkg, "Lookup").Types(goType(t)).Call(V(x), V(k))
			})
		}
		return g.strict(t, e.Pos, checkedMaybe, false, []*value{x, i}, func() jen.Code {
			return jen.Qual(nestedPkg, "Index").Types(goType(t)).Call(V(x), jen.Int64().Call(V(i)))
		})
	}
	return nullValue(t)
}

// genNestedCall generates a call of a function over nested values: the
// constructors, which take NULL parts, and the readers, which are NULL
// when their nested argument is.
func (g *flowGen) genNestedCall(e *ir.Call, en *env, t ir.Type) *value {
	args := make([]*value, len(e.Args))
	for i, a := range e.Args {
		args[i] = g.genExpr(a, en)
	}
	parts := func(from, step int, typ func(int) ir.Type) []jen.Code {
		var out []jen.Code
		for i := from; i < len(args); i += step {
			out = append(out, anyOf(g.as(args[i], typ(i), e.Pos)))
		}
		return out
	}
	switch e.Name {
	case "array":
		return g.bindPlain(t, jen.Qual(nestedPkg, "Array").Values(parts(0, 1, func(int) ir.Type { return t.Elem() })...))
	case "struct":
		return g.bindPlain(t, jen.Qual(nestedPkg, "Struct").Values(parts(0, 1, func(i int) ir.Type { return t.Fields()[i].Type })...))
	case "named_struct":
		return g.bindPlain(t, jen.Qual(nestedPkg, "Struct").Values(parts(1, 2, func(i int) ir.Type { return t.Fields()[i/2].Type })...))
	case "map":
		kv := parts(0, 1, func(i int) ir.Type {
			if i%2 == 0 {
				return t.Key()
			}
			return t.Elem()
		})
		return g.strict(t, e.Pos, checked, false, nil, func() jen.Code { return jen.Qual(nestedPkg, "MakeMap").Call(kv...) })
	}
	if e.Name == "split" { // the plan admits a literal pattern only
		limit := plainValue(ir.Int64, jen.Lit(-1))
		if len(args) == 3 {
			limit = args[2]
		}
		return g.strict(t, e.Pos, pure, false, args, func() jen.Code {
			return jen.Qual(nestedPkg, "Split").Call(V(args[0]), V(args[1]), jen.Int64().Call(V(limit)))
		})
	}
	x := args[0]
	if x.null {
		return nullValue(t)
	}
	switch e.Name {
	case "size":
		return g.strict(t, e.Pos, pure, false, []*value{x}, func() jen.Code { return jen.Qual(nestedPkg, "Size").Call(V(x)) })
	case "map_keys", "map_values":
		fn := map[string]string{"map_keys": "Keys", "map_values": "Values"}[e.Name]
		return g.strict(t, e.Pos, pure, false, []*value{x}, func() jen.Code { return jen.Qual(nestedPkg, fn).Call(V(x)) })
	case "array_contains":
		v := g.as(args[1], x.t.Elem(), e.Pos)
		return g.strict(t, e.Pos, maybe, false, []*value{x, v}, func() jen.Code { return jen.Qual(nestedPkg, "Contains").Call(V(x), V(v)) })
	}
	// element_at
	if x.t.Kind == ir.TMap {
		k := g.as(args[1], x.t.Key(), e.Pos)
		return g.strict(t, e.Pos, maybe, false, []*value{x, k}, func() jen.Code {
			return jen.Qual(nestedPkg, "Lookup").Types(goType(t)).Call(V(x), V(k))
		})
	}
	i := args[1]
	return g.strict(t, e.Pos, checkedMaybe, false, []*value{x, i}, func() jen.Code {
		return jen.Qual(nestedPkg, "ElementAt").Types(goType(t)).Call(V(x), jen.Int64().Call(V(i)))
	})
}

// bindPlain is a never-NULL value of type t computed by v, in a local.
func (g *flowGen) bindPlain(t ir.Type, v jen.Code) *value {
	return g.strict(t, ir.Pos{}, pure, false, nil, func() jen.Code { return v })
}
