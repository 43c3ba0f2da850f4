package codegen

import (
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
)

// Spark's higher-order functions are monomorphized: each call is a Go loop
// over the array's elements (rt/nested values) whose body is the lambda's
// body, generated inline with the lambda's parameters bound to typed
// locals, so nothing is interpreted at run time. A lambda's body may raise
// (ANSI overflow, ...) at its own position, as any expression does.

// lambdaFrame binds the parameters of one lambda being generated.
type lambdaFrame struct {
	names []string
	vals  []*value
}

// genLambdaVar reads a lambda variable: the innermost lambda's parameter
// of its name (the frontends resolved the name the same way).
func (g *flowGen) genLambdaVar(e *ir.LambdaVar) *value {
	for i := len(g.lambdas) - 1; i >= 0; i-- {
		f := g.lambdas[i]
		for j, n := range f.names {
			if strings.EqualFold(n, e.Name) {
				return f.vals[j]
			}
		}
	}
	g.unplanned(e.Pos, "lambda variable %s outside its lambda", e.Name)
	return nullValue(g.typeOf(e))
}

// genLambdaBody generates lambda l's body with its parameters bound to
// vals, into the current block.
func (g *flowGen) genLambdaBody(l *ir.Lambda, en *env, vals ...*value) *value {
	g.lambdas = append(g.lambdas, lambdaFrame{names: l.Params, vals: vals})
	defer func() { g.lambdas = g.lambdas[:len(g.lambdas)-1] }()
	return g.genExpr(l.Body, en)
}

// elemValue binds the array element el (a Go any) to a typed local of
// type t, NULL when el is nil.
func (g *flowGen) elemValue(t ir.Type, el jen.Code) *value {
	vn := g.name("x")
	ls := g.declare([]string{vn, vn + "ok"}, jen.Qual(nestedPkg, "As").Types(goType(t)).Call(el))
	return &value{t: t, v: jen.Id(vn), ok: jen.Id(vn + "ok"), vl: ls[0], okl: ls[1]}
}

// genLambdaCall generates transform, filter, exists, forall and aggregate
// (the plan refuses the other higher-order functions natively); nil for
// any other function.
func (g *flowGen) genLambdaCall(name string, e *ir.Call, en *env, t ir.Type) *value {
	switch name {
	case "transform", "filter", "exists", "forall", "aggregate":
	case "zip_with", "map_filter", "transform_keys", "transform_values", "map_zip_with":
		return g.genPairLambdaCall(name, e, en, t)
	default:
		return nil
	}
	arr := g.genExpr(e.Args[0], en)
	if arr.null {
		return nullValue(t)
	}
	lam := func(i int) *ir.Lambda { return e.Args[i].(*ir.Lambda) }
	elemT := arr.t.Elem()
	rn := g.name("hof")
	res := &value{t: t, v: jen.Id(rn), ok: jen.Id(rn + "ok")}
	res.vl = g.declareVar(rn, goType(t))
	res.okl = g.declare([]string{rn + "ok"}, OK(arr))[0]
	xs, i, el := g.name("xs"), g.name("i"), g.name("el")
	// loop generates the element loop; each(idx, x) generates one element's
	// code with the element bound.
	loop := func(each func(idx, x *value)) jen.Code {
		return jen.For(jen.List(jen.Id(i), jen.Id(el)).Op(":=").Range().Id(xs)).Block(g.sub(func() {
			x := g.elemValue(elemT, jen.Id(el))
			in := g.name("idx") // a local, so that an unread index is fixUnused's
			idx := &value{t: ir.Int32, v: jen.Id(in), vl: g.declare([]string{in}, jen.Int32().Call(jen.Id(i)))[0]}
			each(idx, x)
		})...)
	}
	body := g.sub(func() {
		// any(...): a constructor's value is a nested.Array already
		g.emit(jen.Id(xs).Op(":=").Id("any").Call(V(arr)).Assert(jen.Qual(nestedPkg, "Array")))
		switch name {
		case "transform":
			out := g.name("out")
			g.emit(jen.Id(out).Op(":=").Make(jen.Qual(nestedPkg, "Array"), jen.Len(jen.Id(xs))))
			g.emit(loop(func(idx, x *value) {
				v := g.genLambdaBody(lam(1), en, x, idx)
				g.emit(jen.Id(out).Index(jen.Id(i)).Op("=").Add(anyOf(g.as(v, t.Elem(), e.Pos))))
			}))
			g.emit(jen.Id(rn).Op("=").Id(out))
		case "filter":
			out := g.name("out")
			g.emit(jen.Id(out).Op(":=").Qual(nestedPkg, "Array").Values())
			g.emit(loop(func(idx, x *value) {
				v := g.genLambdaBody(lam(1), en, x, idx)
				g.emit(jen.If(truth(v)).Block(jen.Id(out).Op("=").Append(jen.Id(out), jen.Id(el))))
			}))
			g.emit(jen.Id(rn).Op("=").Id(out))
		case "exists", "forall":
			// exists: true at the first true, else NULL if one was NULL;
			// forall: false at the first false, else NULL if one was NULL
			decided := name == "exists"
			sawNull := g.name("null")
			g.emit(jen.Id(rn).Op("=").Lit(!decided), jen.Id(sawNull).Op(":=").False())
			g.emit(loop(func(_, x *value) {
				v := g.genLambdaBody(lam(1), en, x)
				if v.null {
					g.emit(jen.Id(sawNull).Op("=").True())
					return
				}
				hit := V(v)
				if !decided {
					hit = jen.Op("!").Add(V(v))
				}
				stop := jen.Id(rn).Op("=").Lit(decided).Line().Break()
				if v.nullable() {
					g.emit(jen.If(jen.Op("!").Add(OK(v))).Block(jen.Id(sawNull).Op("=").True()).Else().If(hit).Block(stop))
				} else {
					g.emit(jen.If(hit).Block(stop))
				}
			}))
			g.emit(jen.If(jen.Id(rn).Op("==").Lit(!decided).Op("&&").Id(sawNull)).Block(jen.Id(rn + "ok").Op("=").False()))
		case "aggregate":
			g.genAggregateFold(e, en, res, lam, loop)
		}
	})
	g.emit(jen.If(jen.Id(rn + "ok")).Block(body...))
	return res
}

// genAggregateFold generates aggregate's fold into res: the accumulator
// starts at the start value (its type the merge lambda's), each element
// merges into it, and the finish lambda, if any, maps it to the result.
func (g *flowGen) genAggregateFold(e *ir.Call, en *env, res *value, lam func(int) *ir.Lambda, loop func(func(idx, x *value)) jen.Code) {
	zero := g.genExpr(e.Args[1], en)
	accT := g.u.Types[lam(2)]
	an := g.name("acc")
	acc := &value{t: accT, v: jen.Id(an), ok: jen.Id(an + "ok")}
	acc.vl = g.declareVar(an, goType(accT))
	acc.okl = g.declare([]string{an + "ok"}, OK(zero))[0]
	if !zero.null {
		g.emit(jen.Id(an).Op("=").Add(V(g.as(zero, accT, e.Pos))))
	}
	g.emit(loop(func(_, x *value) {
		v := g.genLambdaBody(lam(2), en, acc, x)
		if v.null {
			g.emit(jen.Id(an + "ok").Op("=").False())
			return
		}
		g.emit(jen.List(jen.Id(an), jen.Id(an+"ok")).Op("=").List(V(v), OK(v)))
	}))
	out := acc
	if len(e.Args) == 4 {
		out = g.genLambdaBody(lam(3), en, acc)
	}
	if out.null {
		g.emit(jen.Id(res.okl.name).Op("=").False())
		return
	}
	g.emit(jen.List(jen.Id(res.vl.name), jen.Id(res.okl.name)).Op("=").List(V(out), OK(out)))
}

// genPairLambdaCall generates the higher-order functions whose lambda
// takes two or three parameters from two arrays or maps: zip_with over
// both arrays' indexes, map_filter, transform_keys and transform_values
// over a map's entries, map_zip_with over the keys of either map. The call
// is NULL when an array or map argument is.
func (g *flowGen) genPairLambdaCall(name string, e *ir.Call, en *env, t ir.Type) *value {
	nvals := 1
	if name == "zip_with" || name == "map_zip_with" {
		nvals = 2
	}
	vals := make([]*value, nvals)
	for i := range vals {
		if vals[i] = g.genExpr(e.Args[i], en); vals[i].null {
			return nullValue(t)
		}
	}
	l := e.Args[nvals].(*ir.Lambda)
	x := vals[0].t
	rn := g.name("hof")
	res := &value{t: t, v: jen.Id(rn), ok: jen.Id(rn + "ok")}
	res.vl = g.declareVar(rn, goType(t))
	ok := and(oksOf(vals...)...)
	if ok == nil {
		ok = jen.True()
	}
	res.okl = g.declare([]string{rn + "ok"}, ok)[0]
	// as is a nested argument's Go value as a nested.Array or *nested.Map
	as := func(v *value, typ jen.Code) jen.Code { return jen.Id("any").Call(V(v)).Assert(typ) }
	mapT := jen.Op("*").Qual(nestedPkg, "Map")
	body := g.sub(func() {
		n, i := g.name("n"), g.name("i")
		var parts []jen.Code // the Go expressions of the lambda's parameters, per element
		var types []ir.Type
		switch name {
		case "zip_with":
			a, b := g.name("as"), g.name("bs")
			g.emit(jen.List(jen.Id(a), jen.Id(b)).Op(":=").List(as(vals[0], jen.Qual(nestedPkg, "Array")), as(vals[1], jen.Qual(nestedPkg, "Array"))))
			g.emit(jen.Id(n).Op(":=").Max(jen.Len(jen.Id(a)), jen.Len(jen.Id(b))))
			parts = []jen.Code{jen.Qual(nestedPkg, "At").Call(jen.Id(a), jen.Id(i)), jen.Qual(nestedPkg, "At").Call(jen.Id(b), jen.Id(i))}
			types = []ir.Type{x.Elem(), vals[1].t.Elem()}
		case "map_zip_with":
			ks, va, vb := g.name("ks"), g.name("va"), g.name("vb")
			g.emit(jen.List(jen.Id(ks), jen.Id(va), jen.Id(vb)).Op(":=").Qual(nestedPkg, "ZipMaps").Call(as(vals[0], mapT), as(vals[1], mapT)))
			g.emit(jen.Id(n).Op(":=").Len(jen.Id(ks)))
			parts = []jen.Code{jen.Id(ks).Index(jen.Id(i)), jen.Id(va).Index(jen.Id(i)), jen.Id(vb).Index(jen.Id(i))}
			types = []ir.Type{x.Key(), x.Elem(), vals[1].t.Elem()}
		default:
			m := g.name("m")
			g.emit(jen.Id(m).Op(":=").Add(as(vals[0], mapT)))
			g.emit(jen.Id(n).Op(":=").Len(jen.Id(m).Dot("Keys")))
			parts = []jen.Code{jen.Id(m).Dot("Keys").Index(jen.Id(i)), jen.Id(m).Dot("Values").Index(jen.Id(i))}
			types = []ir.Type{x.Key(), x.Elem()}
		}
		kv := g.name("kv") // the result's parts: elements, or keys and values in turn
		g.emit(jen.Id(kv).Op(":=").Index().Any().Values())
		g.emit(jen.For(jen.Id(i).Op(":=").Range().Id(n)).Block(g.sub(func() {
			ps := make([]*value, len(parts))
			for j, p := range parts {
				ps[j] = g.elemValue(types[j], p)
			}
			v := g.genLambdaBody(l, en, ps...)
			switch name {
			case "zip_with":
				g.emit(jen.Id(kv).Op("=").Append(jen.Id(kv), anyOf(g.as(v, t.Elem(), e.Pos))))
			case "map_filter":
				g.emit(jen.If(truth(v)).Block(jen.Id(kv).Op("=").Append(jen.Id(kv), parts[0], parts[1])))
			case "transform_keys":
				g.emit(jen.Id(kv).Op("=").Append(jen.Id(kv), anyOf(g.as(v, t.Key(), e.Pos)), parts[1]))
			default: // transform_values, map_zip_with
				g.emit(jen.Id(kv).Op("=").Append(jen.Id(kv), parts[0], anyOf(g.as(v, t.Elem(), e.Pos))))
			}
		})...))
		if name == "zip_with" {
			g.emit(jen.Id(rn).Op("=").Qual(nestedPkg, "Array").Call(jen.Id(kv)))
			return
		}
		// MakeMap raises transform_keys' NULL_MAP_KEY and DUPLICATED_MAP_KEY
		en := g.name("e")
		g.emit(jen.Var().Id(en).Op("*").Qual(sqlfnPkg, "Error"),
			jen.List(jen.Id(rn), jen.Id(en)).Op("=").Qual(nestedPkg, "MakeMap").Call(jen.Id(kv).Op("...")),
			jen.If(jen.Id(en).Op("!=").Nil()).Block(g.fail(e.Pos, jen.Id(en))))
	})
	g.emit(jen.If(jen.Id(rn + "ok")).Block(body...))
	return res
}
