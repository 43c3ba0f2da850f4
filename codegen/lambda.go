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
