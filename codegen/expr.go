package codegen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// env is what an expression's column references read: the rows of the
// operator's inputs, keyed by the input operator (passes' ColumnBinding.Rel;
// nil for an expectation's dataset row), and in an aggregate's output items
// the group's keys and aggregate results.
type env struct {
	rows map[ir.Rel]*row
	agg  *aggEnv
	// overs are the window functions' results of a window operator's
	// row (window.go)
	overs map[*ir.Over]*column
}

// aggEnv is the scope of an aggregate's output items.
type aggEnv struct {
	keys    []ir.Expr
	keyVals []*column
	calls   map[*ir.Call]*column
}

// callMode is what the Go expression of a strict operation returns.
type callMode int

const (
	pure         callMode = iota // the value
	checked                      // (value, *sqlfn.Error)
	maybe                        // (value, valid bool): invalid is NULL
	checkedMaybe                 // (value, valid bool, *sqlfn.Error)
)

// strict generates a value of type t computed from args, NULL when any of
// them is NULL (the arguments are not evaluated then). expr returns the Go
// expression over the arguments' values; mode says what it returns. With
// try, an error gives NULL instead of failing the flow.
func (g *flowGen) strict(t ir.Type, pos ir.Pos, mode callMode, try bool, args []*value, expr func() jen.Code) *value {
	if anyNull(args...) {
		return nullValue(t)
	}
	oks := and(oksOf(args...)...)
	vn := g.name("t")
	x := &value{t: t, v: jen.Id(vn)}
	if oks == nil && !try && (mode == pure || mode == checked) {
		if mode == pure {
			x.vl = g.declare([]string{vn}, expr())[0]
			return x
		}
		en := g.name("e")
		ls := g.declare([]string{vn, en}, expr())
		x.vl = ls[0]
		ls[1].used = true
		g.emit(jen.If(jen.Id(en).Op("!=").Nil()).Block(g.fail(pos, jen.Id(en))))
		return x
	}
	if oks == nil && mode == maybe {
		ls := g.declare([]string{vn, vn + "ok"}, expr())
		x.vl, x.okl, x.ok = ls[0], ls[1], jen.Id(vn+"ok")
		return x
	}
	okn := vn + "ok"
	x.vl = g.declareVar(vn, goType(t))
	init := oks
	if init == nil {
		init = jen.True()
	}
	x.okl = g.declare([]string{okn}, init)[0]
	x.ok = jen.Id(okn)
	body := g.sub(func() {
		onErr := func(en string) jen.Code {
			if try {
				return jen.If(jen.Id(en).Op("!=").Nil()).Block(jen.Id(okn).Op("=").False())
			}
			return jen.If(jen.Id(en).Op("!=").Nil()).Block(g.fail(pos, jen.Id(en)))
		}
		switch mode {
		case pure:
			g.emit(jen.Id(vn).Op("=").Add(expr()))
		case checked:
			en := g.name("e")
			g.emit(jen.Var().Id(en).Op("*").Qual(sqlfnPkg, "Error"),
				jen.List(jen.Id(vn), jen.Id(en)).Op("=").Add(expr()), onErr(en))
		case maybe:
			g.emit(jen.List(jen.Id(vn), jen.Id(okn)).Op("=").Add(expr()))
		case checkedMaybe:
			en := g.name("e")
			g.emit(jen.Var().Id(en).Op("*").Qual(sqlfnPkg, "Error"),
				jen.List(jen.Id(vn), jen.Id(okn), jen.Id(en)).Op("=").Add(expr()), onErr(en))
		}
	})
	if oks != nil {
		g.emit(jen.If(jen.Id(okn)).Block(body...))
	} else {
		g.emit(jen.Block(body...))
	}
	return x
}

// typeOf is an expression's resolved type.
func (g *flowGen) typeOf(e ir.Expr) ir.Type { return g.u.Types[e] }

// genExpr generates the code computing e into the current block and
// returns its value. Values follow Spark 4 with ANSI on: NULL propagates,
// AND and OR are three-valued and short-circuit, arithmetic overflow and
// bad casts fail the flow (with the expression's position), '/' is
// fractional.
func (g *flowGen) genExpr(e ir.Expr, en *env) *value {
	if en != nil && en.agg != nil {
		if c, ok := e.(*ir.Call); ok {
			if col := en.agg.calls[c]; col != nil {
				return g.col(col)
			}
		}
		for i, k := range en.agg.keys {
			if g.sameExpr(e, k) {
				return g.col(en.agg.keyVals[i])
			}
		}
	}
	if g.plan.Subqueries[e] != nil { // correlated subqueries (decorrelate.go)
		return g.genCorrelated(e, en)
	}
	switch e := e.(type) {
	case *ir.Over:
		// window functions (wnative): computed by the window operator
		if en != nil && en.overs[e] != nil {
			return g.col(en.overs[e])
		}
		g.unplanned(e.Pos, "a window function outside a window operator")
		return nullValue(g.typeOf(e))
	case *ir.Literal:
		return g.genLiteral(e, g.typeOf(e), false)
	case *ir.ColumnRef:
		if g.u.FieldRefs[e] > 0 { // a struct's field (nested.go)
			return g.genFieldPath(e, g.genColumnRef(e, en))
		}
		return g.genColumnRef(e, en)
	case *ir.GetField, *ir.Subscript: // nested.go
		return g.genNestedExpr(e, en)
	case *ir.LambdaVar: // lambda.go
		return g.genLambdaVar(e)
	case *ir.Unary:
		return g.genUnary(e, en)
	case *ir.Binary:
		switch {
		case e.Op == ir.OpAnd || e.Op == ir.OpOr:
			return g.genLogic(e, en)
		case e.Op.IsComparison():
			return g.genCompare(e.Op, g.genExpr(e.L, en), g.genExpr(e.R, en), e.Pos)
		case e.Op == ir.OpConcat:
			return g.genConcat(g.typeOf(e), e.Pos, []*value{g.genExpr(e.L, en), g.genExpr(e.R, en)})
		case e.Op.IsBitwise():
			return g.genBitwise(e, en)
		case e.Op.IsShift():
			return g.genShift(e.Op.ShiftFunc(), g.typeOf(e), e.Pos, g.genExpr(e.L, en), g.genExpr(e.R, en))
		}
		return g.genArith(e, en)
	case *ir.IsNull:
		x := g.genExpr(e.X, en)
		switch {
		case x.null:
			return constValue(ir.Bool, &konst{b: !e.Not})
		case !x.nullable():
			return constValue(ir.Bool, &konst{b: e.Not})
		case e.Not:
			return plainValue(ir.Bool, OK(x))
		}
		return plainValue(ir.Bool, jen.Op("!").Add(OK(x)))
	case *ir.In:
		return g.genIn(e, en)
	case *ir.Between:
		return g.genBetween(e, en)
	case *ir.Like:
		return g.genLike(e, en)
	case *ir.Case:
		return g.genCase(e, en)
	case *ir.Cast:
		return g.genCast(g.genExpr(e.X, en), e.To, e.Try, e.Pos)
	case *ir.Call:
		return g.genCall(e, en)
	case *ir.ScalarSubquery:
		if x := g.subq[e]; x != nil {
			return x
		}
		panic("scalar subquery not computed")
	case *ir.InSubquery:
		return g.genInSubquery(e, en)
	case *ir.Star:
		panic("star outside a projection")
	}
	panic(fmt.Sprintf("genExpr: unknown expression %T", e))
}

// genLiteral is a constant of type t (the literal's resolved type); neg
// negates it (-2147483648 is an int32 literal).
func (g *flowGen) genLiteral(l *ir.Literal, t ir.Type, neg bool) *value {
	if l.Kind == ir.LitNull || t.Kind == ir.TUnknown {
		return nullValue(t)
	}
	k, err := literalKonst(l, t, neg)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", l.Pos, err))
	}
	return constValue(t, k)
}

// genColumnRef reads a column of the scope's rows.
func (g *flowGen) genColumnRef(c *ir.ColumnRef, en *env) *value {
	b, ok := g.u.Refs[c]
	if !ok {
		panic(fmt.Sprintf("%s: unresolved column %s", c.Pos, passes.RefText(c)))
	}
	if en == nil {
		panic(fmt.Sprintf("%s: column %s outside a row scope", c.Pos, passes.RefText(c)))
	}
	r := en.rows[b.Rel]
	if r == nil || b.Index >= len(r.cols) || r.cols[b.Index] == nil {
		panic(fmt.Sprintf("%s: column %s is not in scope", c.Pos, passes.RefText(c)))
	}
	return g.col(r.cols[b.Index])
}

// genUnary generates NOT and unary minus (checked: -MIN overflows).
func (g *flowGen) genUnary(e *ir.Unary, en *env) *value {
	t := g.typeOf(e)
	if l, ok := e.X.(*ir.Literal); ok && e.Op == ir.OpNeg && (l.Kind == ir.LitInt || l.Kind == ir.LitDecimal || l.Kind == ir.LitFloat || l.Kind == ir.LitInterval) {
		return g.genLiteral(l, t, true)
	}
	x := g.genExpr(e.X, en)
	if x.null || t.Kind == ir.TUnknown {
		return nullValue(t)
	}
	if e.Op == ir.OpNot {
		if x.k != nil {
			return constValue(ir.Bool, &konst{b: !x.k.b})
		}
		return g.strict(ir.Bool, e.Pos, pure, false, []*value{x}, func() jen.Code { return jen.Op("!").Add(V(x)) })
	}
	if e.Op == ir.OpBitNot { // Go's unary ^ is Java's ~ on the signed type
		a := g.coerce(x, t, e.Pos)
		return g.strict(t, e.Pos, pure, false, []*value{a}, func() jen.Code { return jen.Op("^").Add(V(a)) })
	}
	return g.negate(g.coerce(x, t, e.Pos), t, e.Pos)
}

// bitwiseOps are Go's spelling of & | ^ (never overflow: pure).
var bitwiseOps = map[ir.BinaryOp]string{ir.OpBitAnd: "&", ir.OpBitOr: "|", ir.OpBitXor: "^"}

// genBitwise generates a & b, a | b, a ^ b in the result type passes
// resolved (the wider signed integer): NULL when either side is.
func (g *flowGen) genBitwise(e *ir.Binary, en *env) *value {
	t := g.typeOf(e)
	l, r := g.genExpr(e.L, en), g.genExpr(e.R, en)
	if t.Kind == ir.TUnknown || l.null || r.null {
		return nullValue(t)
	}
	a, b := g.coerce(l, t, e.Pos), g.coerce(r, t, e.Pos)
	op := bitwiseOps[e.Op]
	return g.strict(t, e.Pos, pure, false, []*value{a, b}, func() jen.Code { return jen.Add(V(a)).Op(op).Add(V(b)) })
}

// genShift generates shiftleft, shiftright and shiftrightunsigned (the
// functions and the << >> >>> operators) in type t, INT or BIGINT: Java's
// shifts, the count modulo the width; a BIGINT count is cast to INT as
// Spark does (CAST_OVERFLOW past it).
func (g *flowGen) genShift(name string, t ir.Type, pos ir.Pos, x, n *value) *value {
	if t.Kind == ir.TUnknown || x.null || n.null {
		return nullValue(t)
	}
	fn := map[string]string{"shiftleft": "ShiftLeft", "shiftright": "ShiftRight", "shiftrightunsigned": "ShiftRightUnsigned"}[name]
	if t.Kind == ir.TInt64 {
		fn += "Int64"
	} else {
		fn += "Int32"
	}
	return g.sqlfnCall(t, pos, pure, fn, g.coerce(x, t, pos), g.asInt32(n, pos))
}

// negate is -x in x's type t (unary minus, negative()): checked, -MIN
// overflows.
func (g *flowGen) negate(x *value, t ir.Type, pos ir.Pos) *value {
	switch {
	case t.Kind == ir.TInt64 || t.Kind == ir.TDuration:
		return g.strict(t, pos, checked, false, []*value{x}, func() jen.Code { return jen.Qual(sqlfnPkg, "NegInt64").Call(V(x)) })
	case t.Kind == ir.TInt32 || t.Kind == ir.TInt16 || t.Kind == ir.TInt8:
		fn := "NegInt" + fmt.Sprint(bitsOf(t))
		return g.strict(t, pos, checked, false, []*value{x}, func() jen.Code { return jen.Qual(sqlfnPkg, fn).Call(V(x)) })
	case t.IsUnsigned():
		return g.strict(t, pos, checked, false, []*value{x}, func() jen.Code { return jen.Qual(sqlfnPkg, "NegUnsigned").Call(V(x)) })
	case t.IsFloat():
		return g.strict(t, pos, pure, false, []*value{x}, func() jen.Code { return jen.Op("-").Add(V(x)) })
	case t.Kind == ir.TDecimal:
		return g.strict(t, pos, pure, false, []*value{x}, func() jen.Code { return jen.Add(V(x)).Dot("Negate").Call() })
	}
	g.unplanned(pos, "unary - of %s is not supported yet", t)
	return nullValue(t)
}

// genLogic generates three-valued AND / OR that short-circuit like
// Spark's: the right side is evaluated only when the left one does not
// decide (false for AND, true for OR), so "false and 1/0 = 1" is false.
func (g *flowGen) genLogic(e *ir.Binary, en *env) *value {
	isAnd := e.Op == ir.OpAnd
	decisive := !isAnd // the value that decides: false for AND, true for OR
	l := g.genExpr(e.L, en)
	if l.k != nil && !l.null {
		if l.k.b == decisive {
			return l
		}
		return g.genExpr(e.R, en)
	}
	vn := g.name("b")
	okn := vn + "ok"
	x := &value{t: ir.Bool, v: jen.Id(vn)}
	// rDec is "r is the deciding value" (FALSE for AND, TRUE for OR)
	rDec := func(r *value) jen.Code {
		c := jen.Add(V(r))
		if !decisive {
			c = jen.Op("!").Add(V(r))
		}
		if r.nullable() {
			c = jen.Add(OK(r)).Op("&&").Add(c)
		}
		return c
	}
	if l.null {
		// NULL and r: FALSE when r is FALSE, else NULL (or: TRUE when r is TRUE)
		x.vl = g.declareVar(vn, jen.Bool())
		x.okl = g.declare([]string{okn}, jen.True())[0]
		x.ok = jen.Id(okn)
		rcode := g.sub(func() {
			r := g.genExpr(e.R, en)
			if r.null {
				g.emit(jen.Id(okn).Op("=").False())
				return
			}
			g.emit(jen.If(rDec(r)).Block(jen.Id(vn).Op("=").Lit(decisive)).Else().Block(jen.Id(okn).Op("=").False()))
		})
		g.emit(jen.Block(rcode...))
		return x
	}
	nullable := false
	rcode := g.sub(func() {
		r := g.genExpr(e.R, en)
		nullable = l.nullable() || r.nullable()
		switch {
		case r.null:
			g.emit(jen.Id(okn).Op("=").False())
		case !nullable:
			g.emit(jen.Id(vn).Op("=").Add(V(r)))
		default:
			g.emit(jen.If(rDec(r)).Block(jen.Id(vn).Op("=").Lit(decisive)).Else().Block(
				jen.Id(vn).Op("=").Lit(!decisive),
				jen.Id(okn).Op("=").Add(orTrue(and(oksOf(l, r)...)))))
		}
	})
	if !nullable {
		// two-valued: b := l; if b (AND) / !b (OR) { b = r }
		x.vl = g.declare([]string{vn}, V(l))[0]
		cond := jen.Id(vn)
		if !isAnd {
			cond = jen.Op("!").Id(vn)
		}
		g.emit(jen.If(cond).Block(rcode...))
		return x
	}
	x.vl = g.declareVar(vn, jen.Bool())
	x.okl = g.declare([]string{okn}, jen.True())[0]
	x.ok = jen.Id(okn)
	lDec := jen.Add(V(l))
	if !decisive {
		lDec = jen.Op("!").Add(V(l))
	}
	if l.nullable() {
		lDec = jen.Add(OK(l)).Op("&&").Add(lDec)
	}
	g.emit(jen.If(lDec).Block(jen.Id(vn).Op("=").Lit(decisive)).Else().Block(rcode...))
	return x
}

// compareDomain coerces two operands to the type they are compared in.
// Decimals keep their own scales (compared exactly by DecimalCmp); integers
// meet decimals as decimal(n,0).
func (g *flowGen) compareDomain(l, r *value, pos ir.Pos) (*value, *value) {
	lt, rt := l.t, r.t
	switch {
	case lt.Kind == ir.TUnknown || rt.Kind == ir.TUnknown:
		return l, r
	case sameRep(lt, rt) && lt.Kind != ir.TDecimal && !g.shifts(lt, rt):
		return l, r
	case (lt.Kind == ir.TDecimal || rt.Kind == ir.TDecimal) && !lt.IsFloat() && !rt.IsFloat():
		a, b := g.toDecimal(l), g.toDecimal(r)
		// a constant takes the other side's scale, when exact, so that
		// the comparison is a plain Cmp
		if a.k != nil && b.k == nil && a.t.Scale != b.t.Scale {
			if k, ok := convertKonst(a.k, a.t, ir.Decimal(38, b.t.Scale)); ok {
				a = constValue(ir.Decimal(38, b.t.Scale), k)
			}
		}
		if b.k != nil && a.k == nil && a.t.Scale != b.t.Scale {
			if k, ok := convertKonst(b.k, b.t, ir.Decimal(38, a.t.Scale)); ok {
				b = constValue(ir.Decimal(38, a.t.Scale), k)
			}
		}
		return a, b
	case lt.IsInteger() && rt.IsInteger():
		c := intCommon(lt, rt)
		if c.Kind == ir.TDecimal {
			return g.toDecimal(l), g.toDecimal(r)
		}
		return g.coerce(l, c, pos), g.coerce(r, c, pos)
	}
	c, ok := commonType(lt, rt)
	if !ok {
		panic(fmt.Sprintf("%s: cannot compare %s with %s", pos, lt, rt))
	}
	return g.coerce(l, c, pos), g.coerce(r, c, pos)
}

// toDecimal turns an integer operand into a decimal(n,0) (decimals pass).
func (g *flowGen) toDecimal(x *value) *value {
	if x.t.Kind == ir.TDecimal || x.null && x.t.Kind == ir.TUnknown {
		return x
	}
	dt := asDecimal(x.t)
	if x.null {
		return nullValue(dt)
	}
	if x.k != nil {
		return constValue(dt, x.k)
	}
	fn := "FromI64"
	conv := jen.Int64()
	if x.t.IsUnsigned() {
		fn, conv = "FromU64", jen.Uint64()
	}
	return &value{t: dt, v: jen.Qual(decimalPkg, fn).Call(conv.Call(V(x))), ok: x.ok, okl: x.okl, vl: x.vl}
}

// cmpExpr is the Go boolean expression of "a op b" for two values of the
// comparison domain: Spark's order (NaN greatest and equal to itself,
// -0.0 = 0.0 for floats; false < true; byte-wise strings).
func cmpExpr(op ir.BinaryOp, a, b *value) jen.Code {
	goOp := map[ir.BinaryOp]string{ir.OpEq: "==", ir.OpEqNullSafe: "==", ir.OpNe: "!=", ir.OpLt: "<", ir.OpLe: "<=", ir.OpGt: ">", ir.OpGe: ">="}[op]
	eq := op == ir.OpEq || op == ir.OpEqNullSafe
	av, bv := V(a), V(b)
	switch t := a.t; {
	case t.IsFloat():
		suffix := "64"
		if t.Kind == ir.TFloat32 {
			suffix = "32"
		}
		switch {
		case eq:
			return jen.Qual(sqlfnPkg, "EqualFloat"+suffix).Call(av, bv)
		case op == ir.OpNe:
			return jen.Op("!").Qual(sqlfnPkg, "EqualFloat"+suffix).Call(av, bv)
		}
		return jen.Qual(sqlfnPkg, "CompareFloat"+suffix).Call(av, bv).Op(goOp).Lit(0)
	case t.Kind == ir.TDecimal:
		if a.t.Scale != b.t.Scale {
			return jen.Qual(sqlfnPkg, "DecimalCmp").Call(av, jen.Lit(int32(a.t.Scale)), bv, jen.Lit(int32(b.t.Scale))).Op(goOp).Lit(0)
		}
		if eq || op == ir.OpNe {
			return jen.Add(av).Op(goOp).Add(bv)
		}
		return jen.Add(av).Dot("Cmp").Call(bv).Op(goOp).Lit(0)
	case t.Kind == ir.TBool:
		switch op {
		case ir.OpLt:
			return jen.Op("!").Add(av).Op("&&").Add(bv)
		case ir.OpLe:
			return jen.Op("!").Add(av).Op("||").Add(bv)
		case ir.OpGt:
			return jen.Add(av).Op("&&").Op("!").Add(bv)
		case ir.OpGe:
			return jen.Add(av).Op("||").Op("!").Add(bv)
		}
		return jen.Add(av).Op(goOp).Add(bv)
	case t.Kind == ir.TBinary:
		if eq {
			return jen.Qual(bytesPkg, "Equal").Call(av, bv)
		}
		return jen.Qual(bytesPkg, "Compare").Call(av, bv).Op(goOp).Lit(0)
	case t.Kind == ir.TArray || t.Kind == ir.TStruct: // the plan admits the same type on both sides
		return jen.Qual(nestedPkg, "Compare").Call(av, bv).Op(goOp).Lit(0)
	}
	return jen.Add(av).Op(goOp).Add(bv)
}

// genCompare generates a comparison (= <> < <= > >= and null-safe <=>).
func (g *flowGen) genCompare(op ir.BinaryOp, l, r *value, pos ir.Pos) *value {
	if op == ir.OpEqNullSafe {
		switch {
		case l.null && r.null:
			return constValue(ir.Bool, &konst{b: true})
		case l.null:
			return plainValue(ir.Bool, jen.Op("!").Add(OK(r)))
		case r.null:
			return plainValue(ir.Bool, jen.Op("!").Add(OK(l)))
		}
		a, b := g.compareDomain(l, r, pos)
		if !a.nullable() && !b.nullable() {
			return g.strict(ir.Bool, pos, pure, false, []*value{a, b}, func() jen.Code { return cmpExpr(ir.OpEq, a, b) })
		}
		vn := g.name("b")
		x := &value{t: ir.Bool, v: jen.Id(vn)}
		x.vl = g.declare([]string{vn}, jen.Add(OK(a)).Op("==").Add(OK(b)).Op("&&").Parens(jen.Op("!").Add(OK(a)).Op("||").Add(cmpExpr(ir.OpEq, a, b))))[0]
		return x
	}
	if anyNull(l, r) {
		return nullValue(ir.Bool)
	}
	a, b := g.compareDomain(l, r, pos)
	return g.strict(ir.Bool, pos, pure, false, []*value{a, b}, func() jen.Code { return cmpExpr(op, a, b) })
}

// genBetween is x >= lo AND x <= hi with AND's three-valued logic (x is
// evaluated once; hi is not evaluated when x >= lo is false).
func (g *flowGen) genBetween(e *ir.Between, en *env) *value {
	x := g.bind(g.genExpr(e.X, en), "x")
	lo := g.genCompare(ir.OpGe, x, g.genExpr(e.Lo, en), e.Pos)
	res := g.logicValues(lo, func() *value { return g.genCompare(ir.OpLe, x, g.genExpr(e.Hi, en), e.Pos) })
	if e.Not {
		return g.not(res, e.Pos)
	}
	return res
}

// logicValues is three-valued AND of a computed left value and a right one
// generated on demand (only when the left is not FALSE).
func (g *flowGen) logicValues(l *value, right func() *value) *value {
	if l.k != nil && !l.null {
		if !l.k.b {
			return l
		}
		return right()
	}
	vn := g.name("b")
	okn := vn + "ok"
	x := &value{t: ir.Bool, v: jen.Id(vn)}
	x.vl = g.declareVar(vn, jen.Bool())
	x.okl = g.declare([]string{okn}, jen.True())[0]
	x.ok = jen.Id(okn)
	rcode := g.sub(func() {
		r := right()
		if r.null {
			g.emit(jen.Id(okn).Op("=").False())
			return
		}
		rFalse := jen.Op("!").Add(V(r))
		if r.nullable() {
			rFalse = jen.Add(OK(r)).Op("&&").Add(rFalse)
		}
		g.emit(jen.If(rFalse).Block(jen.Id(vn).Op("=").False()).Else().Block(
			jen.Id(vn).Op("=").True(), jen.Id(okn).Op("=").Add(orTrue(and(oksOf(l, r)...)))))
	})
	if l.null {
		g.emit(jen.Block(rcode...))
		return x
	}
	lFalse := jen.Op("!").Add(V(l))
	if l.nullable() {
		lFalse = jen.Add(OK(l)).Op("&&").Add(lFalse)
	}
	g.emit(jen.If(lFalse).Block(jen.Id(vn).Op("=").False()).Else().Block(rcode...))
	return x
}

// orTrue is c, or true when c is nil (nothing to test).
func orTrue(c jen.Code) jen.Code {
	if c == nil {
		return jen.True()
	}
	return c
}

// not is three-valued NOT.
func (g *flowGen) not(x *value, pos ir.Pos) *value {
	if x.null {
		return x
	}
	if x.k != nil {
		return constValue(ir.Bool, &konst{b: !x.k.b})
	}
	return g.strict(ir.Bool, pos, pure, false, []*value{x}, func() jen.Code { return jen.Op("!").Add(V(x)) })
}

// genIn generates x [NOT] IN (list) with Spark's rules: NULL when x is
// NULL; TRUE at the first equal item (later items are not evaluated); else
// NULL when an item was NULL, else FALSE. A list of constants compiles to
// one switch (or one comparison chain).
func (g *flowGen) genIn(e *ir.In, en *env) *value {
	x := g.genExpr(e.X, en)
	if x.null {
		return nullValue(ir.Bool)
	}
	dom := x.t
	for _, it := range e.List {
		c, ok := commonType(dom, g.typeOf(it))
		if !ok {
			panic(fmt.Sprintf("%s: in list has no common type", e.Pos))
		}
		dom = c
	}
	x = g.bind(g.coerce(x, dom, e.Pos), "x")
	var res *value
	allConst := true
	for _, it := range e.List {
		if !isConstExpr(it) {
			allConst = false
		}
	}
	if allConst {
		res = g.inConstants(e, en, x, dom)
	} else {
		res = g.inChain(e, en, x, dom)
	}
	if e.Not {
		return g.not(res, e.Pos)
	}
	return res
}

// isConstExpr reports a literal, or a unary minus of one.
func isConstExpr(e ir.Expr) bool {
	switch e := e.(type) {
	case *ir.Literal:
		return true
	case *ir.Unary:
		_, ok := e.X.(*ir.Literal)
		return ok && e.Op == ir.OpNeg
	}
	return false
}

// inConstants is IN over a list of constants: one switch (or comparison
// chain), no per-item code.
func (g *flowGen) inConstants(e *ir.In, en *env, x *value, dom ir.Type) *value {
	var items []*value
	hasNull := false
	for _, it := range e.List {
		v := g.genExpr(it, en)
		if v.null {
			hasNull = true
			continue
		}
		items = append(items, g.coerce(v, dom, it.Position()))
	}
	vn := g.name("in")
	found := &value{t: ir.Bool, v: jen.Id(vn)}
	switchable := mustPhys(dom).ordered && dom.Kind != ir.TBool
	allKonst := true
	for _, it := range items {
		if it.k == nil {
			allKonst = false
		}
	}
	switch {
	case len(items) == 0:
		found = constValue(ir.Bool, &konst{b: false})
	case switchable && allKonst:
		seen := map[string]bool{}
		var cases []jen.Code
		for _, it := range items {
			key := fmt.Sprintf("%#v", it.v)
			if !seen[key] {
				seen[key] = true
				cases = append(cases, it.v)
			}
		}
		found.vl = g.declare([]string{vn}, jen.False())[0]
		sw := jen.Switch(V(x)).Block(jen.Case(cases...).Block(jen.Id(vn).Op("=").True()))
		if x.nullable() {
			g.emit(jen.If(OK(x)).Block(sw))
		} else {
			g.emit(sw)
		}
	default:
		var parts []jen.Code
		for _, it := range items {
			parts = append(parts, cmpExpr(ir.OpEq, x, it))
		}
		expr := jen.Add(parts[0])
		for _, p := range parts[1:] {
			expr = expr.Op("||").Add(p)
		}
		if x.nullable() {
			expr = jen.Add(OK(x)).Op("&&").Parens(expr)
		}
		found.vl = g.declare([]string{vn}, expr)[0]
	}
	// result: found -> TRUE; else NULL when x or an item is NULL; else FALSE
	switch {
	case !x.nullable() && !hasNull:
		return found
	case hasNull && !x.nullable():
		return &value{t: ir.Bool, v: V(found), ok: V(found), vl: found.vl}
	case !hasNull:
		return &value{t: ir.Bool, v: V(found), ok: OK(x), vl: found.vl, okl: x.okl}
	}
	// NULL x, or no match with a NULL item: NULL
	return &value{t: ir.Bool, v: V(found), ok: jen.Add(OK(x)).Op("&&").Add(V(found)), vl: found.vl, okl: x.okl}
}

// inChain is IN over a list with computed items: each item is evaluated
// only when the earlier ones did not match.
func (g *flowGen) inChain(e *ir.In, en *env, x *value, dom ir.Type) *value {
	vn := g.name("in")
	okn := vn + "ok"
	hn := vn + "null"
	res := &value{t: ir.Bool, v: jen.Id(vn), ok: jen.Id(okn)}
	res.vl = g.declare([]string{vn}, jen.False())[0]
	res.okl = g.declare([]string{okn}, orTrue(x.ok0()))[0]
	hasNull := g.declare([]string{hn}, jen.False())[0]
	hasNull.used = true
	var chain func(i int)
	chain = func(i int) {
		if i == len(e.List) {
			g.emit(jen.If(jen.Id(hn)).Block(jen.Id(okn).Op("=").False()))
			return
		}
		it := g.genExpr(e.List[i], en)
		if it.null {
			g.emit(jen.Id(hn).Op("=").True())
			chain(i + 1)
			return
		}
		it = g.coerce(it, dom, e.List[i].Position())
		match := cmpExpr(ir.OpEq, x, it)
		if it.nullable() {
			match = jen.Add(OK(it)).Op("&&").Add(match)
		}
		rest := g.sub(func() {
			if it.nullable() {
				g.emit(jen.If(jen.Op("!").Add(OK(it))).Block(jen.Id(hn).Op("=").True()))
			}
			chain(i + 1)
		})
		g.emit(jen.If(match).Block(jen.Id(vn).Op("=").True()).Else().Block(rest...))
	}
	body := g.sub(func() { chain(0) })
	if x.nullable() {
		g.emit(jen.If(jen.Id(okn)).Block(body...))
	} else {
		g.emit(jen.Block(body...))
	}
	return res
}

// genLike generates x [NOT] LIKE pattern. A constant pattern is compiled
// once, when the flow starts (sqlfn.CompileLike); another is compiled per
// row.
func (g *flowGen) genLike(e *ir.Like, en *env) *value {
	x := g.genExpr(e.X, en)
	p := g.genExpr(e.Pattern, en)
	var res *value
	if p.k != nil && !p.null {
		lv := g.name("like")
		g.prelude = append(g.prelude,
			jen.Commentf("%s like %s", posText(e.Pos), quoteSQL(p.k.s)),
			jen.List(jen.Id(lv), jen.Err()).Op(":=").Qual(sqlfnPkg, "CompileLike").Call(jen.Lit(p.k.s)),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Qual(etlPkg, "SQLError").Call(jen.Lit(posText(e.Pos)), jen.Lit(g.flow.Name), jen.Err()))))
		res = g.strict(ir.Bool, e.Pos, pure, false, []*value{x}, func() jen.Code { return jen.Id(lv).Dot("Match").Call(V(x)) })
	} else {
		res = g.strict(ir.Bool, e.Pos, checked, false, []*value{x, p}, func() jen.Code { return jen.Qual(sqlfnPkg, "LikeMatch").Call(V(x), V(p)) })
	}
	if e.Not {
		return g.not(res, e.Pos)
	}
	return res
}

// quoteSQL quotes a string as a SQL literal, for comments.
func quoteSQL(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// genCase generates CASE: the first WHEN whose condition is TRUE (searched)
// or whose value equals the operand (simple) gives its THEN; later arms
// are not evaluated. Without a match, ELSE, or NULL.
func (g *flowGen) genCase(e *ir.Case, en *env) *value {
	t := g.typeOf(e)
	if t.Kind == ir.TUnknown {
		return nullValue(t)
	}
	var op *value
	if e.Operand != nil {
		op = g.bind(g.genExpr(e.Operand, en), "op")
	}
	vn := g.name("c")
	okn := vn + "ok"
	x := &value{t: t, v: jen.Id(vn), ok: jen.Id(okn)}
	x.vl = g.declareVar(vn, goType(t))
	x.okl = g.declare([]string{okn}, jen.False())[0]
	assign := func(v *value) {
		if v.null {
			return
		}
		v = g.coerce(v, t, e.Pos)
		g.emit(jen.List(jen.Id(vn), jen.Id(okn)).Op("=").List(V(v), OK(v)))
	}
	var arm func(i int)
	arm = func(i int) {
		if i == len(e.Whens) {
			if e.Else != nil {
				assign(g.genExpr(e.Else, en))
			}
			return
		}
		w := e.Whens[i]
		var cond *value
		if op != nil {
			cond = g.genCompare(ir.OpEq, op, g.genExpr(w.Cond, en), w.Pos)
		} else {
			cond = g.genExpr(w.Cond, en)
		}
		then := g.sub(func() { assign(g.genExpr(w.Then, en)) })
		rest := g.sub(func() { arm(i + 1) })
		if len(rest) == 0 {
			g.emit(jen.If(truth(cond)).Block(then...))
		} else {
			g.emit(jen.If(truth(cond)).Block(then...).Else().Block(rest...))
		}
	}
	arm(0)
	return x
}

// genConcat is || and concat(): NULL if any part is.
func (g *flowGen) genConcat(t ir.Type, pos ir.Pos, parts []*value) *value {
	if t.Kind == ir.TUnknown {
		return nullValue(t)
	}
	for i, p := range parts {
		if p.t.Kind == ir.TUnknown {
			parts[i] = nullValue(t)
		}
	}
	return g.strict(t, pos, pure, false, parts, func() jen.Code {
		if t.Kind == ir.TBinary {
			var args []jen.Code
			for _, p := range parts {
				args = append(args, V(p))
			}
			return jen.Qual(slicesPkg, "Concat").Call(args...)
		}
		out := jen.Add(V(parts[0]))
		for _, p := range parts[1:] {
			out = out.Op("+").Add(V(p))
		}
		return out
	})
}

// sameExpr is passes.Unit.SameExpr: structural equality with column
// references compared by binding.
func (g *flowGen) sameExpr(a, b ir.Expr) bool { return g.u.SameExpr(a, b) }
