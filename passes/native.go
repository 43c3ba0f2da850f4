package passes

import (
	"strconv"
	"strings"

	"github.com/nordisk/thund/ir"
)

// What the native backend computes of the expressions resolve accepts: the
// casts, arithmetic and function calls with an implementation in codegen
// and rt/sqlfn. These tables are the plan's; codegen treats anything else
// as an internal error. codegen's TestNativeCastsAgree holds the cast table
// to codegen for every pair of the model's types; the arithmetic and calls
// are held by the refusal tests (passes' TestNativeRefusals) and by the
// conformance corpus, which generates every form it uses.

// NativeCast reports whether the native backend casts from to to (CAST,
// TRY_CAST and store assignment).
func NativeCast(from, to ir.Type) bool {
	if isUnknown(from) || SameType(from, to) {
		return true
	}
	if to.Kind == ir.TString {
		switch {
		case from.Kind == ir.TBool, from.IsInteger(), from.IsFloat(), from.Kind == ir.TDecimal,
			from.Kind == ir.TDate32, from.Kind == ir.TTimestamp, from.Kind == ir.TBinary:
			return true
		}
		return false
	}
	switch {
	case from.Kind == ir.TString:
		switch {
		case to.IsSigned(), to.IsFloat(), to.Kind == ir.TBool, to.Kind == ir.TDecimal,
			to.Kind == ir.TDate32, to.Kind == ir.TTimestamp, to.Kind == ir.TBinary:
			return true
		}
	case from.Kind == ir.TBool:
		return to.IsInteger() || to.IsFloat() || to.Kind == ir.TDecimal
	case from.IsInteger():
		switch {
		case to.IsInteger(), to.IsFloat(), to.Kind == ir.TBool, to.Kind == ir.TDecimal:
			return true
		case to.Kind == ir.TTimestamp:
			return from.Kind != ir.TUint64
		}
	case from.IsFloat():
		return to.IsSigned() || to.IsFloat() || to.Kind == ir.TBool || to.Kind == ir.TDecimal
	case from.Kind == ir.TDecimal:
		return to.IsSigned() || to.IsFloat() || to.Kind == ir.TDecimal || to.Kind == ir.TBool
	case from.Kind == ir.TDate32:
		return to.Kind == ir.TTimestamp
	case from.Kind == ir.TTimestamp:
		return to.Kind == ir.TDate32 || to.Kind == ir.TTimestamp || to.IsSigned() || to.Kind == ir.TFloat64
	case from.Kind == ir.TDuration:
		return to.Kind == ir.TDuration
	case from.Kind == ir.TBinary:
		return to.Kind == ir.TBinary
	}
	return false
}

// NativeArith reports whether the native backend computes l op r in type
// t (the type resolve gave it).
func NativeArith(op ir.BinaryOp, t, l, r ir.Type) bool {
	num := func(x ir.Type) bool { return x.IsNumeric() || isUnknown(x) }
	lk, rk := l.Kind, r.Kind
	switch {
	case isUnknown(t) || isUnknown(l) && isUnknown(r):
		return true
	case t.IsInteger():
		return true
	case t.IsFloat() && num(l) && num(r):
		return true
	case t.Kind == ir.TDecimal && lk != ir.TDuration && rk != ir.TDuration:
		return true
	case t.Kind == ir.TTimestamp && (op == ir.OpAdd || op == ir.OpSub):
		return true
	case t.Kind == ir.TDate32 && (op == ir.OpAdd || op == ir.OpSub):
		return true
	case t.Kind == ir.TDuration && lk == ir.TDuration && rk == ir.TDuration:
		return true
	case t.Kind == ir.TDuration && op == ir.OpSub:
		return true
	case t.Kind == ir.TDuration && op == ir.OpMul:
		n := r
		if lk != ir.TDuration {
			n = l
		}
		return n.IsInteger()
	case t.Kind == ir.TDuration && op == ir.OpDiv && rk != ir.TDuration:
		return r.IsInteger()
	}
	return false
}

// nativeCall says why the native backend cannot compute a call of the
// catalogue's scalar function f ("" when it can), and where.
func nativeCall(u *Unit, e *ir.Call, f *Func) (ir.Pos, string) {
	if f.notNative != "" {
		return e.Pos, strings.ToUpper(e.Name) + " " + f.notNative
	}
	args := make([]ir.Type, len(e.Args))
	for i, a := range e.Args {
		args[i] = u.Types[a]
		if isUnknown(args[i]) {
			return ir.Pos{}, "" // NULL: the call is NULL
		}
	}
	with := func() (ir.Pos, string) {
		ts := make([]string, len(args))
		for i, t := range args {
			ts[i] = t.String()
		}
		return e.Pos, e.Name + "(" + strings.Join(ts, ", ") + ") is not supported yet with these arguments"
	}
	if sig := funcIndex[f.Name]; sig != nil && sig.native != nil {
		return sig.native(u, e, args)
	}
	switch f.Name {
	case "round":
		if len(e.Args) == 2 {
			if _, ok := IntConstant(e.Args[1]); !ok {
				return with()
			}
		}
		if a := args[0]; !(a.IsFloat() || a.IsSigned() || a.Kind == ir.TDecimal) {
			return with()
		}
	case "floor", "ceil":
		if len(e.Args) != 1 {
			return with()
		}
	case "unix_timestamp":
		if len(args) > 0 && !(isTime(args[0]) || args[0].Kind == ir.TString) {
			return with()
		}
		return formatNative(1, true)(u, e, args) // funcs_time.go
	case "timestamp_seconds", "timestamp_millis", "timestamp_micros":
		if !args[0].IsInteger() {
			return with()
		}
	case "date_trunc":
		if l, ok := e.Args[0].(*ir.Literal); !ok || l.Kind != ir.LitString {
			return e.Args[0].Position(), "date_trunc with a unit that is not a constant is not supported yet"
		}
	case "to_date", "to_timestamp":
		return formatNative(1, true)(u, e, args) // funcs_time.go
	}
	return ir.Pos{}, ""
}

// IntConstant is the value of an integer literal (possibly negated).
func IntConstant(e ir.Expr) (int, bool) {
	neg := false
	if x, ok := e.(*ir.Unary); ok && x.Op == ir.OpNeg {
		e, neg = x.X, true
	}
	l, ok := e.(*ir.Literal)
	if !ok || l.Kind != ir.LitInt {
		return 0, false
	}
	v, err := strconv.Atoi(l.Text)
	if err != nil {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

// expressions checks every expression of the flow (its subqueries', its
// change flow's clauses and its store assignment included) against what
// the native backend computes.
func (p *planner) expressions() {
	check := func(e ir.Expr) {
		ir.WalkExpr(e, func(x ir.Expr) bool {
			if p.refuseNested(x) { // plan_nested.go
				return false
			}
			switch x := x.(type) {
			case *ir.Cast:
				if from := p.u.Types[x.X]; !NativeCast(from, x.To) {
					p.refuse(x.Pos, "cast from %s to %s is not supported yet", from, x.To)
				}
			case *ir.Binary:
				if x.Op.IsArithmetic() {
					if t := p.u.Types[x]; !NativeArith(x.Op, t, p.u.Types[x.L], p.u.Types[x.R]) {
						p.refuse(x.Pos, "%s %s %s is not supported yet", p.u.Types[x.L], x.Op, p.u.Types[x.R])
					}
				}
			case *ir.Call:
				if f := p.u.Calls[x]; f != nil && !f.Agg {
					if pos, why := nativeCall(p.u, x, f); why != "" {
						p.refuse(pos, "%s", why)
					}
				}
			}
			return true
		})
	}
	walkAll(p.fp.Flow.Query, func(r ir.Rel) {
		for _, e := range ir.RelExprs(r) {
			check(e)
		}
	})
	if c := p.fp.Flow.CDC; c != nil {
		for _, e := range []ir.Expr{c.SequenceBy, c.DeleteWhen} {
			if e != nil {
				check(e)
			}
		}
	}
	for _, sc := range p.fp.Store {
		if sc.Cast && !NativeCast(sc.From, sc.To) {
			p.refuse(sc.Pos, "cast from %s to %s is not supported yet", sc.From, sc.To)
		}
	}
}
