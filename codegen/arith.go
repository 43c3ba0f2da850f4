package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
)

// genArith generates + - * / % over the result type passes resolved:
// integers are checked (overflow is ARITHMETIC_OVERFLOW), '/' is
// fractional (double, or decimal), decimals go through sqlfn with Spark's
// result precision and scale, and date/time arithmetic is done in the
// finer unit.
func (g *flowGen) genArith(e *ir.Binary, en *env) *value {
	t := g.typeOf(e)
	l, r := g.genExpr(e.L, en), g.genExpr(e.R, en)
	if t.Kind == ir.TUnknown || l.null || r.null {
		return nullValue(t)
	}
	return g.arith(e.Op, t, l, r, e.Pos)
}

// arith computes l op r in type t.
func (g *flowGen) arith(op ir.BinaryOp, t ir.Type, l, r *value, pos ir.Pos) *value {
	return g.arithTry(op, t, l, r, pos, false)
}

// arithTry is arith; with try, a numeric operation's error gives NULL
// instead (try_add, try_divide, ...).
func (g *flowGen) arithTry(op ir.BinaryOp, t ir.Type, l, r *value, pos ir.Pos, try bool) *value {
	switch {
	case t.IsInteger():
		a, b := g.coerce(l, t, pos), g.coerce(r, t, pos)
		return g.intArith(op, t, a, b, pos, try)
	case t.IsFloat() && (l.t.IsNumeric() || l.t.Kind == ir.TUnknown) && (r.t.IsNumeric() || r.t.Kind == ir.TUnknown):
		a, b := g.coerce(l, t, pos), g.coerce(r, t, pos)
		args := []*value{a, b}
		switch op {
		case ir.OpDiv:
			return g.strict(t, pos, checked, try, args, func() jen.Code { return jen.Qual(sqlfnPkg, "DivideFloat64").Call(V(a), V(b)) })
		case ir.OpMod:
			fn := "RemFloat64"
			if t.Kind == ir.TFloat32 {
				fn = "RemFloat32"
			}
			return g.strict(t, pos, checked, try, args, func() jen.Code { return jen.Qual(sqlfnPkg, fn).Call(V(a), V(b)) })
		}
		goOp := map[ir.BinaryOp]string{ir.OpAdd: "+", ir.OpSub: "-", ir.OpMul: "*"}[op]
		return g.strict(t, pos, pure, false, args, func() jen.Code { return jen.Add(V(a)).Op(goOp).Add(V(b)) })
	case t.Kind == ir.TDecimal && l.t.Kind != ir.TDuration && r.t.Kind != ir.TDuration:
		a, b := g.toDecimal(l), g.toDecimal(r)
		fn := map[ir.BinaryOp]string{ir.OpAdd: "DecimalAdd", ir.OpSub: "DecimalSub", ir.OpMul: "DecimalMul", ir.OpDiv: "DecimalDiv", ir.OpMod: "DecimalMod"}[op]
		return g.strict(t, pos, checked, try, []*value{a, b}, func() jen.Code {
			return jen.Qual(sqlfnPkg, fn).Call(V(a), jen.Lit(int32(a.t.Scale)), V(b), jen.Lit(int32(b.t.Scale)), jen.Lit(int32(t.Precision)), jen.Lit(int32(t.Scale)))
		})
	}
	return g.temporalArith(op, t, l, r, pos)
}

// intArith is checked integer arithmetic on two values of type t (with
// try: NULL on an error).
func (g *flowGen) intArith(op ir.BinaryOp, t ir.Type, a, b *value, pos ir.Pos, try bool) *value {
	args := []*value{a, b}
	if t.IsUnsigned() {
		fn := map[ir.BinaryOp]string{ir.OpAdd: "AddUnsigned", ir.OpSub: "SubUnsigned", ir.OpMul: "MulUnsigned"}[op]
		if op == ir.OpMod {
			return g.strict(t, pos, checked, try, args, func() jen.Code { return jen.Qual(sqlfnPkg, "RemUnsigned").Call(V(a), V(b)) })
		}
		return g.strict(t, pos, checked, try, args, func() jen.Code { return jen.Qual(sqlfnPkg, fn).Call(V(a), V(b)) })
	}
	if op == ir.OpMod {
		return g.strict(t, pos, checked, try, args, func() jen.Code { return jen.Qual(sqlfnPkg, "Rem").Call(V(a), V(b)) })
	}
	fn := map[ir.BinaryOp]string{ir.OpAdd: "AddInt", ir.OpSub: "SubInt", ir.OpMul: "MulInt"}[op] + fmt.Sprint(bitsOf(t))
	return g.strict(t, pos, checked, try, args, func() jen.Code { return jen.Qual(sqlfnPkg, fn).Call(V(a), V(b)) })
}

// temporalArith is date, timestamp and duration arithmetic (passes'
// arithType): timestamp ± duration, date ± duration (a timestamp), date ±
// integer days, duration ± duration, date - date, timestamp - timestamp,
// duration * integer, duration / integer (rounded half up, as Spark).
func (g *flowGen) temporalArith(op ir.BinaryOp, t ir.Type, l, r *value, pos ir.Pos) *value {
	lk, rk := l.t.Kind, r.t.Kind
	checked64 := func(fn string, a, b *value) *value {
		return g.strict(t, pos, checked, false, []*value{a, b}, func() jen.Code { return jen.Qual(sqlfnPkg, fn).Call(V(a), V(b)) })
	}
	addSub := "AddInt64"
	if op == ir.OpSub {
		addSub = "SubInt64"
	}
	switch {
	case t.Kind == ir.TTimestamp && (op == ir.OpAdd || op == ir.OpSub):
		ts, dur := l, r
		if lk == ir.TDuration {
			ts, dur = r, l
		}
		a := g.coerce(ts, ir.Timestamp(t.Unit, ts.t.Zone), pos)
		b := g.coerce(dur, ir.DurationType(t.Unit), pos)
		return checked64(addSub, retype(a, t), b)
	case t.Kind == ir.TDate32 && (op == ir.OpAdd || op == ir.OpSub):
		d, n := l, r
		if lk != ir.TDate32 {
			d, n = r, l
		}
		fn := "DateAdd"
		if op == ir.OpSub {
			fn = "DateSub"
		}
		return g.strict(t, pos, checked, false, []*value{d, n}, func() jen.Code { return jen.Qual(sqlfnPkg, fn).Call(V(d), jen.Int64().Call(V(n))) })
	case t.Kind == ir.TDuration && lk == ir.TDuration && rk == ir.TDuration:
		return checked64(addSub, g.coerce(l, t, pos), g.coerce(r, t, pos))
	case t.Kind == ir.TDuration && op == ir.OpSub && lk == ir.TDate32 && rk == ir.TDate32:
		return g.strict(t, pos, pure, false, []*value{l, r}, func() jen.Code {
			return jen.Parens(jen.Int64().Call(V(l)).Op("-").Int64().Call(V(r))).Op("*").Lit(86400)
		})
	case t.Kind == ir.TDuration && op == ir.OpSub:
		// Spark subtracts the wall-clock times of the session zone
		// (DateTimeUtils.subtractTimestamps): a TIMESTAMP's goes through
		// the zone (zone.go)
		a := g.coerce(l, ir.Timestamp(t.Unit, ""), pos)
		b := g.coerce(r, ir.Timestamp(t.Unit, ""), pos)
		return checked64("SubInt64", a, b)
	case t.Kind == ir.TDuration && op == ir.OpMul:
		d, n := l, r
		if lk != ir.TDuration {
			d, n = r, l
		}
		if !n.t.IsInteger() {
			break
		}
		return checked64("MulInt64", g.coerce(d, t, pos), g.coerce(n, ir.Int64, pos))
	case t.Kind == ir.TDuration && op == ir.OpDiv && rk != ir.TDuration:
		if !r.t.IsInteger() {
			break
		}
		a, b := g.coerce(l, t, pos), g.coerce(r, ir.Int64, pos)
		return g.strict(t, pos, checked, false, []*value{a, b}, func() jen.Code { return jen.Qual(sqlfnPkg, "DurationDiv").Call(V(a), V(b)) })
	}
	g.unplanned(pos, "%s %s %s is not supported yet", l.t, op, r.t)
	return nullValue(t)
}
