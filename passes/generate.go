package passes

import (
	"strconv"
	"strings"

	"github.com/nordisk/thund/ir"
)

// generate resolves a Generate (a generator in a SELECT list, LATERAL
// VIEW): the input's visible columns, then the generated ones (qualified by
// the view's alias), then the input's hidden ones. The generated columns'
// names, types and nullability are Spark's (Generator.elementSchema).
func (r *resolver) generate(n *ir.Generate, outer *scope) Schema {
	in := r.rel(n.Input, outer)
	sc := single(n.Input, in, outer)
	types := make([]ir.Type, len(n.Args))
	for i, a := range n.Args {
		types[i], _ = r.expr(a, sc, ectx{clause: "a generator"})
	}
	gen, ok := r.generated(n, types)
	vis := in.Visible()
	s := append(Schema{}, vis...)
	if ok {
		if len(n.Names) > 0 && len(n.Names) != len(gen) {
			r.errorf(n.Pos, ir.CodeArity, "%s makes %d columns (%s), but the names given are %d (%s) (Spark: UDTF_ALIAS_NUMBER_MISMATCH)", n.Func, len(gen), strings.Join(gen.Names(), ", "), len(n.Names), strings.Join(n.Names, ", "))
		}
		for i := range gen {
			gen[i].Qualifier = n.Alias
			if i < len(n.Names) {
				gen[i].Name = n.Names[i]
			}
			gen[i].Nullable = gen[i].Nullable || n.Outer
		}
		s = append(s, gen...)
	}
	return append(s, in[len(vis):]...)
}

// generated is the columns a generator makes, before aliases and OUTER, or
// false after an error.
func (r *resolver) generated(n *ir.Generate, types []ir.Type) (Schema, bool) {
	for _, t := range types {
		if t == invalid {
			return nil, false
		}
	}
	if f := lookupFunc(n.Func); len(n.Args) < f.minArgs || f.maxArgs >= 0 && len(n.Args) > f.maxArgs {
		r.errorf(n.Pos, ir.CodeArity, "%s takes %s argument(s), got %d", n.Func, f.arityText(), len(n.Args))
		return nil, false
	}
	switch n.Func {
	case "explode", "posexplode":
		var s Schema
		if n.Func == "posexplode" {
			s = Schema{{Name: "pos", Type: ir.Int32}}
		}
		switch t := types[0]; t.Kind {
		case ir.TArray:
			return append(s, Field{Name: "col", Type: t.Elem(), Nullable: t.ElemNullable()}), true
		case ir.TMap:
			return append(s, Field{Name: "key", Type: t.Key()}, Field{Name: "value", Type: t.Elem(), Nullable: t.ElemNullable()}), true
		}
		r.errorf(n.Args[0].Position(), ir.CodeTypeMismatch, "%s needs an array or a map, got %s %s", n.Func, exprString(n.Args[0]), types[0])
	case "inline":
		if t := types[0]; t.Kind == ir.TArray && t.Elem().Kind == ir.TStruct {
			var s Schema
			for _, f := range t.Elem().Fields() {
				s = append(s, Field{Name: f.Name, Type: f.Type, Nullable: !f.NotNull || t.ElemNullable()})
			}
			return s, true
		}
		r.errorf(n.Args[0].Position(), ir.CodeTypeMismatch, "inline needs an array of structs, got %s %s", exprString(n.Args[0]), types[0])
	case "stack":
		return r.stackColumns(n, types)
	case "json_tuple":
		var s Schema
		for i, t := range types {
			if t.Kind != ir.TString {
				r.errorf(n.Args[i].Position(), ir.CodeTypeMismatch, "json_tuple needs string arguments, got %s %s", exprString(n.Args[i]), t)
				return nil, false
			}
			if i > 0 {
				s = append(s, Field{Name: "c" + strconv.Itoa(i-1), Type: ir.StringT, Nullable: true})
			}
		}
		return s, true
	}
	return nil, false
}

// stackColumns types stack(n, v...): n, a positive integer literal, rows of
// ceil(len(v)/n) columns col0, col1, ..., each of the one type of its
// values (NULLs aside: Spark does not widen, STACK_COLUMN_DIFF_TYPES),
// always nullable, as Spark types them.
func (r *resolver) stackColumns(n *ir.Generate, types []ir.Type) (Schema, bool) {
	rows := 0
	if len(n.Args) >= 2 {
		if l, ok := n.Args[0].(*ir.Literal); ok && l.Kind == ir.LitInt {
			rows, _ = strconv.Atoi(l.Text)
		}
	}
	if rows <= 0 {
		r.errorf(n.Pos, ir.CodeTypeMismatch, "stack takes a positive integer literal row count and at least one value: stack(n, v1, v2, ...)")
		return nil, false
	}
	vals := len(n.Args) - 1
	cols := (vals + rows - 1) / rows
	s := make(Schema, cols)
	for j := range s {
		s[j] = Field{Name: "col" + strconv.Itoa(j), Type: ir.Type{Kind: ir.TUnknown}, Nullable: true} // NULL's type until a value has one
		for i := 1 + j; i < len(n.Args); i += cols {
			switch t := types[i]; {
			case isUnknown(t):
			case isUnknown(s[j].Type):
				s[j].Type = t
			case !SameType(s[j].Type, t):
				r.errorf(n.Args[i].Position(), ir.CodeTypeMismatch, "stack column %d is %s, but %s is %s: cast it (Spark: DATATYPE_MISMATCH.STACK_COLUMN_DIFF_TYPES)", j, s[j].Type, exprString(n.Args[i]), t)
				return nil, false
			}
		}
	}
	return s, true
}
