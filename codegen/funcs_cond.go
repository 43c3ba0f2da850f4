package codegen

import (
	"math/big"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
)

// genCondCall generates the conditional functions (passes/funcs_cond.go) that take evaluated arguments; nil for a call it does not generate.
func (g *flowGen) genCondCall(name string, e *ir.Call, args []*value, t ir.Type) *value {
	switch name {
	case "nullifzero":
		a := g.bind(args[0], "nz")
		nonZero := jen.Add(V(a)).Op("!=").Lit(0)
		if a.t.Kind == ir.TDecimal {
			nonZero = jen.Add(V(a)).Dot("Sign").Call().Op("!=").Lit(0)
		}
		return g.strict(t, e.Pos, maybe, false, []*value{a}, func() jen.Code { return jen.List(V(a), nonZero) })
	}
	return nil
}

// genLazyCondCall generates the conditional functions that evaluate their
// own arguments (passes/funcs_cond.go); nil for a call it does not generate.
func (g *flowGen) genLazyCondCall(name string, e *ir.Call, en *env, t ir.Type) *value {
	arg := func(i int) func() *value { return func() *value { return g.genExpr(e.Args[i], en) } }
	switch name {
	case "raise_error":
		g.emitRaise(e.Args[0], en, e.Pos)
		return nullValue(t)
	case "assert_true":
		c := g.genExpr(e.Args[0], en)
		fail := g.sub(func() { g.emitRaise(e.Args[1], en, e.Pos) })
		g.emit(jen.If(jen.Op("!").Parens(truth(c))).Block(fail...))
		return nullValue(t)
	}
	if t.Kind == ir.TUnknown {
		return nil // every argument is NULL: the call is NULL (genCall)
	}
	switch name {
	case "nvl":
		return g.genCoalesce(e, en, t)
	case "nvl2":
		a := g.genExpr(e.Args[0], en)
		switch {
		case a.null:
			return g.branch(arg(2)(), t, e.Pos)
		case !a.nullable():
			return g.branch(arg(1)(), t, e.Pos)
		}
		return g.genChoice(OK(a), t, e.Pos, arg(1), arg(2))
	case "isnull", "isnotnull":
		a := g.genExpr(e.Args[0], en)
		not := name == "isnotnull"
		switch {
		case a.null:
			return constValue(ir.Bool, &konst{b: !not})
		case !a.nullable():
			return constValue(ir.Bool, &konst{b: not})
		case not:
			return plainValue(ir.Bool, OK(a))
		}
		return plainValue(ir.Bool, jen.Op("!").Add(OK(a)))
	case "equal_null":
		return g.genCompare(ir.OpEqNullSafe, g.genExpr(e.Args[0], en), g.genExpr(e.Args[1], en), e.Pos)
	case "zeroifnull":
		a := g.genExpr(e.Args[0], en)
		zero := g.coerce(constValue(ir.Int32, &konst{i: big.NewInt(0)}), t, e.Pos)
		switch {
		case a.null:
			return zero
		case !a.nullable():
			return g.coerce(a, t, e.Pos)
		}
		a = g.bind(a, "zn")
		return g.genChoice(OK(a), t, e.Pos, func() *value { return a }, func() *value { return zero })
	case "isnan":
		a := g.genExpr(e.Args[0], en)
		if a.null || !a.t.IsFloat() {
			return constValue(ir.Bool, &konst{b: false})
		}
		a = g.bind(a, "nan")
		isNaN := jen.Add(V(a)).Op("!=").Add(V(a))
		if a.nullable() {
			isNaN = jen.Add(OK(a)).Op("&&").Add(isNaN)
		}
		return plainValue(ir.Bool, isNaN)
	case "nanvl":
		a := g.genExpr(e.Args[0], en)
		if a.null {
			return nullValue(t)
		}
		a = g.bind(g.coerce(a, t, e.Pos), "nv")
		isNaN := jen.Add(V(a)).Op("!=").Add(V(a))
		if !a.t.IsFloat() {
			isNaN = jen.False()
		}
		if a.nullable() {
			isNaN = jen.Add(OK(a)).Op("&&").Add(isNaN)
		}
		return g.genChoice(isNaN, t, e.Pos, arg(1), func() *value { return a })
	}
	return nil
}

// branch is a chosen argument's value in the call's type t.
func (g *flowGen) branch(a *value, t ir.Type, pos ir.Pos) *value {
	if a.null {
		return nullValue(t)
	}
	return g.coerce(a, t, pos)
}

// emitRaise fails the flow at pos with USER_RAISED_EXCEPTION and the
// message msg evaluates to (raise_error, a failed assert_true).
func (g *flowGen) emitRaise(msg ir.Expr, en *env, pos ir.Pos) {
	m := g.genExpr(msg, en)
	err := g.name("e")
	g.emit(jen.If(jen.Id(err).Op(":=").Qual(sqlfnPkg, "RaiseError").Call(V0(m), OK(m)), jen.Id(err).Op("!=").Nil()).Block(g.fail(pos, jen.Id(err))))
}
