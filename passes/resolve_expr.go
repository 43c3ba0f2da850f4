package passes

import (
	"fmt"
	"strings"

	"github.com/nordisk/thund/ir"
)

// invalid is the type of an expression that failed to resolve, or that
// reads a column of something that did. It is the null type to every check
// that lets NULL through (isUnknown holds), and operators over it report
// nothing and are invalid in turn: the mistake was reported once, where it
// was made. It never outlives a resolve pass that reported no error.
var invalid = ir.Type{Kind: ir.TUnknown, Precision: -1}

func isInvalid(t ir.Type) bool { return t == invalid }

// anyInvalid reports whether one of the types is invalid.
func anyInvalid(ts ...ir.Type) bool {
	for _, t := range ts {
		if isInvalid(t) {
			return true
		}
	}
	return false
}

// ectx is the context an expression is typed in.
type ectx struct {
	clause string      // where the expression stands, for messages ("where", "select", ...)
	agg    bool        // aggregate calls are allowed (an aggregate stage's items)
	global bool        // in a global aggregate (no keys): aggregates of empty input are NULL
	inAgg  string      // the aggregate call being typed, for nesting errors
	calls  *[]*ir.Call // collects the aggregate calls of an aggregate stage
	// window functions (resolve_window.go)
	overFunc *ir.Call // the function of the Over being typed: a window function may stand here
	inWindow string   // the window function being typed, for nesting errors
	// lambdas are the parameters of the lambdas around the expression,
	// innermost first (funcs_lambda.go)
	lambdas *lambdaScope
}

// expr types an expression, records its type and nullability, and returns them.
func (r *resolver) expr(e ir.Expr, sc *scope, c ectx) (ir.Type, bool) {
	t, n := r.expr1(e, sc, c)
	if e != nil {
		r.u.Types[e] = t
		r.u.Nullable[e] = n
	}
	return t, n
}

func (r *resolver) expr1(e ir.Expr, sc *scope, c ectx) (ir.Type, bool) {
	switch e := e.(type) {
	case nil:
		return ir.Type{}, true
	case *ir.Literal:
		t, msg := literalType(e, false)
		if msg != "" {
			r.errorf(e.Pos, ir.CodeBadLiteral, "%s", msg)
		}
		return t, e.Kind == ir.LitNull
	case *ir.ColumnRef:
		if t, n, ok := r.fieldRef(sc, e); ok { // a struct's field (resolve_nested.go)
			return t, n
		}
		f, b, ok := r.lookup(sc, e)
		if !ok {
			return invalid, true
		}
		r.u.Refs[e] = b
		return f.Type, f.Nullable
	case *ir.Star:
		r.errorf(e.Pos, ir.CodeTypeMismatch, "%s stands for columns only as a select item (count rows with count(*))", exprString(e))
		return invalid, true
	case *ir.Unary:
		return r.unary(e, sc, c)
	case *ir.Binary:
		return r.binary(e, sc, c)
	case *ir.IsNull:
		r.expr(e.X, sc, c)
		return ir.Bool, false
	case *ir.In:
		xt, xn := r.expr(e.X, sc, c)
		n := xn
		for _, it := range e.List {
			t, nl := r.expr(it, sc, c)
			n = n || nl
			r.compare(e.Pos, "in", xt, t, e.X, it)
		}
		return ir.Bool, n
	case *ir.Between:
		xt, xn := r.expr(e.X, sc, c)
		lt, ln := r.expr(e.Lo, sc, c)
		ht, hn := r.expr(e.Hi, sc, c)
		r.compare(e.Pos, "between", xt, lt, e.X, e.Lo)
		r.compare(e.Pos, "between", xt, ht, e.X, e.Hi)
		return ir.Bool, xn || ln || hn
	case *ir.Like:
		xt, xn := r.expr(e.X, sc, c)
		pt, pn := r.expr(e.Pattern, sc, c)
		for _, t := range []ir.Type{xt, pt} {
			if !isUnknown(t) && t.Kind != ir.TString {
				r.errorf(e.Pos, ir.CodeTypeMismatch, "like needs strings, got %s and %s: cast(%s as string)", xt, pt, exprString(e.X))
				break
			}
		}
		return ir.Bool, xn || pn
	case *ir.Case:
		return r.caseExpr(e, sc, c)
	case *ir.Cast:
		xt, xn := r.expr(e.X, sc, c)
		if !canCast(xt, e.To) {
			r.errorf(e.Pos, ir.CodeBadCast, "cannot cast %s to %s: %s", xt, e.To, castHint(xt, e.To))
		}
		return e.To, xn || e.Try
	case *ir.Call:
		return r.call(e, sc, c)
	case *ir.Over: // window functions (resolve_window.go)
		return r.over(e, sc, c)
	case *ir.GetField, *ir.Subscript: // nested types (resolve_nested.go)
		return r.nestedExpr(e, sc, c)
	case *ir.Lambda, *ir.LambdaVar: // higher-order functions (funcs_lambda.go)
		return r.lambdaExpr(e, c)
	case *ir.ScalarSubquery:
		s := r.rel(e.Query, sc).Visible()
		switch {
		case s.IsOpen():
			if isPoisoned(s) {
				return invalid, true
			}
			return ir.Type{}, true
		case len(s) != 1:
			r.errorf(e.Pos, ir.CodeTypeMismatch, "a scalar subquery returns one column; this one returns %d (%s)", len(s), strings.Join(s.Names(), ", "))
			return invalid, true
		}
		return s[0].Type, true
	case *ir.InSubquery:
		xt, xn := r.expr(e.X, sc, c)
		s := r.rel(e.Query, sc).Visible()
		switch {
		case s.IsOpen():
			return ir.Bool, true
		case len(s) != 1:
			r.errorf(e.Pos, ir.CodeTypeMismatch, "an in subquery returns one column; this one returns %d (%s)", len(s), strings.Join(s.Names(), ", "))
			return ir.Bool, true
		}
		r.compare(e.Pos, "in", xt, s[0].Type, e.X, nil)
		return ir.Bool, xn || s[0].Nullable
	case *ir.Exists: // correlated subqueries: TRUE or FALSE, never NULL
		r.rel(e.Query, sc)
		return ir.Bool, false
	}
	panic(fmt.Sprintf("resolve: unknown expression %T", e))
}

// compare reports two operands that cannot be compared.
func (r *resolver) compare(pos ir.Pos, op string, a, b ir.Type, ea, eb ir.Expr) bool {
	if comparable(a, b) {
		return true
	}
	r.errorf(pos, ir.CodeTypeMismatch, "cannot compare %s with %s (%s %s %s): %s", a, b, exprString(ea), op, exprString(eb), compareHint(a, b, ea, eb))
	return false
}

func (r *resolver) unary(e *ir.Unary, sc *scope, c ectx) (ir.Type, bool) {
	if l, ok := e.X.(*ir.Literal); ok && e.Op == ir.OpNeg && l.Kind == ir.LitInt {
		r.expr(l, sc, c)
		t, _ := literalType(l, true) // -2147483648 is an int32
		return t, false
	}
	t, n := r.expr(e.X, sc, c)
	switch {
	case isInvalid(t) && e.Op != ir.OpNot:
		return invalid, n
	case isUnknown(t):
		switch e.Op {
		case ir.OpNot:
			return ir.Bool, n
		case ir.OpBitNot:
			return ir.Int32, n // Spark: ~NULL is an INT
		}
		return t, n
	case e.Op == ir.OpNot && t.Kind != ir.TBool:
		r.errorf(e.Pos, ir.CodeTypeMismatch, "not needs a bool operand, got %s", t)
		return ir.Bool, n
	case e.Op == ir.OpNeg && !t.IsNumeric() && t.Kind != ir.TDuration:
		r.errorf(e.Pos, ir.CodeTypeMismatch, "unary - needs a number or a duration, got %s", t)
		return invalid, n
	case e.Op == ir.OpBitNot && !sparkIntegral(t):
		// Spark: DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE, BitwiseNot
		// requires the INTEGRAL type (no implicit cast from a string)
		r.errorf(e.Pos, ir.CodeTypeMismatch, "~ needs an integer (tinyint, smallint, int or bigint), got %s%s", t, bitwiseHint(t, e.X))
		return invalid, n
	case e.Op == ir.OpBitNot:
		return sparkInteger(t), n
	}
	return t, n
}

// sparkInteger is the Spark type of an integer type: itself when signed,
// the signed type twice as wide when unsigned (SMALLINT for a uint8), as
// the bitwise operators see it (~ of a uint8 is a SMALLINT's).
func sparkInteger(t ir.Type) ir.Type {
	if t.IsUnsigned() {
		return integerCommon(ir.Int8, t)
	}
	return t
}

// bitwiseHint suggests a cast for an operand the bitwise operators do not
// take.
func bitwiseHint(t ir.Type, x ir.Expr) string {
	switch {
	case t.Kind == ir.TString, t.Kind == ir.TDecimal, t.IsFloat():
		return ": cast(" + exprString(x) + " as bigint)"
	case t.Kind == ir.TUint64:
		return " (Spark's DECIMAL(20,0)): cast(" + exprString(x) + " as bigint)"
	}
	return ""
}

// bitwiseType types a & b, a | b, a ^ b (Spark's BitwiseAnd, BitwiseOr,
// BitwiseXor): integers of Spark's, widened to the wider one. Spark
// refuses a decimal, a float or a boolean operand (BINARY_OP_WRONG_TYPE,
// or BINARY_OP_DIFF_TYPES beside an integer). It casts a string to BIGINT
// implicitly; like the arithmetic operators here, the bitwise ones ask for
// the cast to be written.
func (r *resolver) bitwiseType(e *ir.Binary, lt, rt ir.Type) (ir.Type, bool) {
	for i, t := range []ir.Type{lt, rt} {
		if !isUnknown(t) && !sparkIntegral(t) {
			x := []ir.Expr{e.L, e.R}[i]
			r.errorf(e.Pos, ir.CodeTypeMismatch, "%s needs integers (tinyint, smallint, int or bigint), got %s and %s%s", e.Op, lt, rt, bitwiseHint(t, x))
			return invalid, false
		}
	}
	switch {
	case isUnknown(lt) && isUnknown(rt):
		return ir.Int32, true // Spark: NULL & NULL is an INT
	case isUnknown(lt):
		return sparkInteger(rt), true
	case isUnknown(rt):
		return sparkInteger(lt), true
	}
	return integerCommon(sparkInteger(lt), sparkInteger(rt)), true
}

// shiftOpType types a << n, a >> n, a >>> n as the shiftleft, shiftright
// and shiftrightunsigned calls they are (shiftResult).
func (r *resolver) shiftOpType(e *ir.Binary, lt, rt ir.Type) (ir.Type, bool) {
	if !isUnknown(lt) && !sparkIntegral(lt) {
		r.errorf(e.L.Position(), ir.CodeTypeMismatch, "%s needs an integer of at most 64 signed bits on its left, got %s%s", e.Op, lt, bitwiseHint(lt, e.L))
		return invalid, false
	}
	if !isUnknown(rt) && !rt.IsInteger() {
		r.errorf(e.R.Position(), ir.CodeTypeMismatch, "%s needs an integer shift count on its right, got %s%s", e.Op, rt, bitwiseHint(rt, e.R))
		return invalid, false
	}
	return shiftResult(lt), true
}

func (r *resolver) binary(e *ir.Binary, sc *scope, c ectx) (ir.Type, bool) {
	lt, ln := r.expr(e.L, sc, c)
	rt, rn := r.expr(e.R, sc, c)
	n := ln || rn
	switch {
	case anyInvalid(lt, rt):
		if e.Op == ir.OpAnd || e.Op == ir.OpOr || e.Op.IsComparison() {
			return ir.Bool, n
		}
		return invalid, n
	case e.Op == ir.OpAnd || e.Op == ir.OpOr:
		for _, t := range []ir.Type{lt, rt} {
			if !isUnknown(t) && t.Kind != ir.TBool {
				r.errorf(e.Pos, ir.CodeTypeMismatch, "%s needs bool operands, got %s and %s", e.Op, lt, rt)
				break
			}
		}
		return ir.Bool, n
	case e.Op.IsComparison():
		r.compare(e.Pos, e.Op.String(), lt, rt, e.L, e.R)
		return ir.Bool, n && e.Op != ir.OpEqNullSafe
	case e.Op == ir.OpConcat:
		switch {
		case (lt.Kind == ir.TString || isUnknown(lt)) && (rt.Kind == ir.TString || isUnknown(rt)):
			return ir.StringT, n
		case (lt.Kind == ir.TBinary || isUnknown(lt)) && (rt.Kind == ir.TBinary || isUnknown(rt)):
			return ir.BinaryT, n
		}
		bad := e.L
		if lt.Kind == ir.TString || lt.Kind == ir.TBinary {
			bad = e.R
		}
		r.errorf(e.Pos, ir.CodeTypeMismatch, "|| needs strings, got %s and %s: cast(%s as string)", lt, rt, exprString(bad))
		return ir.StringT, n
	}
	switch {
	case e.Op.IsBitwise():
		return r.bitwiseType(e, lt, rt)
	case e.Op.IsShift():
		return r.shiftOpType(e, lt, rt)
	}
	t, ok := arithType(e.Op, lt, rt, e.L, e.R)
	if !ok {
		hint := "cast an operand"
		switch {
		case e.Op == ir.OpAdd && lt.Kind == ir.TString && rt.Kind == ir.TString:
			hint = "use || to concatenate strings"
		case lt.Kind == ir.TString && rt.IsNumeric():
			hint = "cast(" + exprString(e.L) + " as " + rt.String() + ")"
		case rt.Kind == ir.TString && lt.IsNumeric():
			hint = "cast(" + exprString(e.R) + " as " + lt.String() + ")"
		}
		r.errorf(e.Pos, ir.CodeTypeMismatch, "cannot apply %s to %s and %s: %s", e.Op, lt, rt, hint)
		return invalid, n
	}
	return t, n
}

// literalDecimal is the minimal decimal of an integer literal operand
// (possibly negated), or the zero Type.
func literalDecimal(e ir.Expr) ir.Type {
	if u, ok := e.(*ir.Unary); ok && u.Op == ir.OpNeg {
		e = u.X
	}
	if l, ok := e.(*ir.Literal); ok && l.Kind == ir.LitInt {
		return intLiteralDecimal(l.Text)
	}
	return ir.Type{}
}

// arithType types +, -, *, /, % (the operands' expressions give literal
// precision); false when the operator does not apply.
func arithType(op ir.BinaryOp, lt, rt ir.Type, el, er ir.Expr) (ir.Type, bool) {
	switch {
	case isUnknown(lt) && isUnknown(rt):
		return ir.Type{}, true
	case isUnknown(lt):
		lt = rt
	case isUnknown(rt):
		rt = lt
	}
	if lt.IsNumeric() && rt.IsNumeric() {
		return numericArith(op, lt, rt, literalDecimal(el), literalDecimal(er)), true
	}
	ts, dt, dur := ir.TTimestamp, ir.TDate32, ir.TDuration
	lk, rk := lt.Kind, rt.Kind
	switch op {
	case ir.OpAdd, ir.OpSub:
		switch {
		case lk == ts && rk == dur:
			return ir.Timestamp(finerUnit(lt.Unit, rt.Unit), lt.Zone), true
		case op == ir.OpAdd && lk == dur && rk == ts:
			return ir.Timestamp(finerUnit(lt.Unit, rt.Unit), rt.Zone), true
		// a date and a duration (Spark's INTERVAL DAY TO SECOND) give
		// Spark's TIMESTAMP: the date is cast to it (TimeAdd over
		// Cast(date, TimestampType)), not to TIMESTAMP_NTZ
		case lk == dt && rk == dur:
			return ir.Timestamp(rt.Unit, "UTC"), true
		case op == ir.OpAdd && lk == dur && rk == dt:
			return ir.Timestamp(lt.Unit, "UTC"), true
		case lk == dt && rt.IsInteger():
			return ir.Date32, true
		case op == ir.OpAdd && lt.IsInteger() && rk == dt:
			return ir.Date32, true
		case lk == dur && rk == dur:
			return ir.DurationType(finerUnit(lt.Unit, rt.Unit)), true
		case op == ir.OpSub && lk == dt && rk == dt:
			return ir.DurationType(ir.Second), true
		case op == ir.OpSub && isTime(lt) && isTime(rt):
			u := ir.Second
			if lk == ts {
				u = lt.Unit
			}
			if rk == ts {
				u = finerUnit(u, rt.Unit)
			}
			return ir.DurationType(u), true
		}
	case ir.OpMul:
		switch {
		case lk == dur && rt.IsNumeric():
			return lt, true
		case lt.IsNumeric() && rk == dur:
			return rt, true
		}
	case ir.OpDiv:
		if lk == dur && rt.IsNumeric() {
			return lt, true
		}
	}
	return ir.Type{}, false
}

func (r *resolver) caseExpr(e *ir.Case, sc *scope, c ectx) (ir.Type, bool) {
	var ot ir.Type
	if e.Operand != nil {
		ot, _ = r.expr(e.Operand, sc, c)
	}
	var res ir.Type
	n := e.Else == nil
	first := true
	branch := func(x ir.Expr) {
		t, nl := r.expr(x, sc, c)
		n = n || nl
		if first {
			res, first = t, false
			return
		}
		if anyInvalid(res, t) {
			res = invalid
			return
		}
		ct, ok := commonType(res, t)
		if !ok {
			r.errorf(x.Position(), ir.CodeTypeMismatch, "case results have no common type: %s and %s (%s): cast one of them", res, t, exprString(x))
			res = invalid
			return
		}
		res = ct
	}
	for _, w := range e.Whens {
		ct, _ := r.expr(w.Cond, sc, c)
		if e.Operand != nil {
			r.compare(w.Pos, "=", ot, ct, e.Operand, w.Cond)
		} else if !isUnknown(ct) && ct.Kind != ir.TBool {
			r.errorf(w.Cond.Position(), ir.CodeTypeMismatch, "when needs a bool condition, got %s", ct)
		}
		branch(w.Then)
	}
	if e.Else != nil {
		branch(e.Else)
	}
	return res, n
}

// aggHint says where an aggregate belongs, for an aggregate in clause.
func aggHint(clause, call string) string {
	switch clause {
	case "select":
		return "aggregate in an aggregate stage: group by ... aggregate " + call + " (or a global aggregate " + call + ")"
	case "a where after an aggregate":
		return "compute it in the aggregate stage with an alias (aggregate " + call + " as n) and filter on the alias"
	}
	return "aggregates go in an aggregate stage (group by ... aggregate ...)"
}

// call types a function call against the catalogue.
func (r *resolver) call(e *ir.Call, sc *scope, c ectx) (ir.Type, bool) {
	if t, n, ok := r.nestedCall(e, sc, c); ok { // nested types (resolve_nested.go)
		return t, n
	}
	if t, n, ok := r.lambdaCall(e, sc, c); ok { // higher-order functions (funcs_lambda.go)
		return t, n
	}
	f := lookupFunc(e.Name)
	if f == nil {
		for _, a := range e.Args {
			r.expr(a, sc, c)
		}
		r.errorf(e.Pos, ir.CodeUnknownFunc, "%s; docs/functions.md lists the functions", unknownFuncText(e.Name))
		return invalid, true
	}
	r.u.Calls[e] = f.entry
	ac := c
	ac.overFunc = nil
	if f.window && c.overFunc != e { // window functions (resolve_window.go)
		r.errorf(e.Pos, ir.CodeBadWindow, "window function %s requires an OVER clause (Spark: WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE): %s over (order by ...)", exprString(e), exprString(e))
	}
	if e.IgnoreNulls && c.overFunc != e {
		r.errorf(e.Pos, ir.CodeBadWindow, "ignore nulls applies to lag, lead and nth_value over a window, not to %s here%s", strings.ToLower(e.Name), ignoreNullsHint(f.name, e.Name))
	}
	switch {
	case f.agg && c.inAgg != "":
		r.errorf(e.Pos, ir.CodeBadAggregate, "aggregate %s inside aggregate %s: aggregates do not nest; aggregate in two stages", exprString(e), c.inAgg)
	case f.agg && !c.agg:
		r.errorf(e.Pos, ir.CodeBadAggregate, "aggregate %s is not allowed in %s: %s", exprString(e), c.clause, aggHint(c.clause, exprString(e)))
	case f.agg:
		if c.calls != nil {
			*c.calls = append(*c.calls, e)
		}
	case e.Distinct:
		r.errorf(e.Pos, ir.CodeBadAggregate, "distinct applies to aggregate functions; %s is a scalar function", f.name)
	case isGroupingCall(f.name) && (!c.agg || c.inAgg != ""): // setgroup: groupingsets.go
		r.errorf(e.Pos, ir.CodeBadAggregate, "%s is only allowed in the aggregate items of group by ... grouping sets (rollup, cube)", f.name)
	}
	if f.agg {
		ac.inAgg = f.name
	}
	types := make([]ir.Type, len(e.Args))
	nulls := make([]bool, len(e.Args))
	for i, a := range e.Args {
		types[i], nulls[i] = r.expr(a, sc, ac)
	}
	if e.Filter != nil { // an aggregate's FILTER (WHERE ...)
		ft, _ := r.expr(e.Filter, sc, ac)
		switch {
		case !f.agg:
			r.errorf(e.Filter.Position(), ir.CodeBadAggregate, "filter (where ...) applies to aggregate functions; %s is a scalar function", f.name)
		case !isUnknown(ft) && ft.Kind != ir.TBool:
			r.errorf(e.Filter.Position(), ir.CodeTypeMismatch, "the filter of %s needs a bool condition, got %s", e.Name, ft)
		}
	}
	if e.Star {
		if f.name != "count" {
			r.errorf(e.Pos, ir.CodeArity, "%s(*) is not a function: only count takes *", e.Name)
			return invalid, true
		}
		if len(e.Args) > 0 {
			r.errorf(e.Pos, ir.CodeArity, "count(*) takes no other arguments")
		}
		return ir.Int64, false
	}
	if n := len(e.Args); n < f.minArgs || f.maxArgs >= 0 && n > f.maxArgs {
		plural := "s"
		if f.minArgs == 1 && f.maxArgs == 1 {
			plural = ""
		}
		r.errorf(e.Pos, ir.CodeArity, "%s takes %s argument%s, got %d", e.Name, f.arityText(), plural, n)
		return invalid, true
	}
	if anyInvalid(types...) {
		return invalid, true
	}
	if t, n, ok := r.arrayForm(e, f, types, nulls); ok { // concat and reverse of arrays: funcs_arrays.go
		return t, n
	}
	for i, t := range types {
		rule := f.argAt(i)
		if !isUnknown(t) && !argRules[rule].ok(t) {
			if f.maxArgs == 1 {
				r.errorf(e.Args[i].Position(), ir.CodeTypeMismatch, "%s needs %s argument, got %s", e.Name, argRules[rule].desc, t)
			} else {
				r.errorf(e.Args[i].Position(), ir.CodeTypeMismatch, "%s needs %s as argument %d, got %s", e.Name, argRules[rule].desc, i+1, t)
			}
			return invalid, true
		}
		if rule == argTruncUnit {
			if l, ok := e.Args[i].(*ir.Literal); ok && l.Kind == ir.LitString && !containsFold(truncUnits, l.Text) {
				r.errorf(l.Pos, ir.CodeTypeMismatch, "%s unit '%s' is not one of %s", e.Name, l.Text, strings.Join(truncUnits, ", "))
			}
		}
	}
	t, ok := r.callResult(e, f, types)
	if !ok {
		return invalid, true
	}
	// a FILTER can leave a group without a row: what is NULL over no rows
	// (max, sum, avg, ...) is then NULL in that group, as in a global one
	if e.Filter != nil && f.nulls == nullAgg {
		return t, true
	}
	return t, callNullable(f, nulls, c)
}

// callResult applies a function's result rule.
func (r *resolver) callResult(e *ir.Call, f *funcSig, types []ir.Type) (ir.Type, bool) {
	common := func(from int) (ir.Type, bool) {
		var t ir.Type
		for i := from; i < len(types); i++ {
			ct, ok := commonType(t, types[i])
			if !ok {
				r.errorf(e.Args[i].Position(), ir.CodeTypeMismatch, "%s arguments have no common type: %s and %s (%s): cast one of them", e.Name, t, types[i], exprString(e.Args[i]))
				return ir.Type{}, false
			}
			t = ct
		}
		return t, true
	}
	scale := func() (int, bool) {
		if len(e.Args) < 2 {
			return 0, true
		}
		a, neg := e.Args[1], false
		if u, ok := a.(*ir.Unary); ok && u.Op == ir.OpNeg {
			a, neg = u.X, true
		}
		var d int
		if l, ok := a.(*ir.Literal); ok && l.Kind == ir.LitInt {
			if _, err := fmt.Sscan(l.Text, &d); err == nil && d <= maxPrecision {
				if neg {
					d = -d
				}
				return d, true
			}
		}
		r.errorf(e.Args[1].Position(), ir.CodeTypeMismatch, "%s's scale must be an integer constant between -38 and 38, got %s", e.Name, exprString(e.Args[1]))
		return 0, false
	}
	switch f.result {
	case resFixed:
		return f.ret, true
	case resArg0:
		if f.name == "nullif" && !r.compare(e.Pos, "=", types[0], types[1], e.Args[0], e.Args[1]) {
			return ir.Type{}, false
		}
		return types[0], true
	case resCommon:
		return common(0)
	case resCommonTail:
		return common(1)
	case resSum:
		return sumType(types[0]), true
	case resAvg:
		return avgType(types[0]), true
	case resRound:
		d, ok := scale()
		return roundType(types[0], d), ok
	case resFloorCeil:
		d, ok := scale()
		return floorCeilType(types[0], d, len(e.Args) == 2), ok
	case resMod:
		return arithType(ir.OpMod, types[0], types[1], e.Args[0], e.Args[1])
	case resTrunc:
		return zonedTimestamp(types[1]), true
	case resToTimestamp:
		return zonedTimestamp(types[0]), true
	case resCustom:
		return f.typeFn(r, e, types)
	}
	panic(fmt.Sprintf("resolve: function %s has no result rule", f.name))
}

// zonedTimestamp is the result type of date_trunc and to_timestamp, which
// is Spark's TIMESTAMP (its session-zoned type, not TIMESTAMP_NTZ) whatever
// the argument: TruncTimestamp's dataType is TimestampType, and
// to_timestamp's is spark.sql.timestampType (TIMESTAMP_LTZ by default), a
// zoneless argument cast to it. A timestamp argument keeps its unit and
// zone; any other gives timestamp(us, "UTC").
func zonedTimestamp(arg ir.Type) ir.Type {
	if arg.Kind != ir.TTimestamp {
		return ir.Timestamp(ir.Micro, "UTC")
	}
	if arg.Zone == "" {
		return ir.Timestamp(arg.Unit, "UTC")
	}
	return arg
}

// callNullable applies a function's null rule.
func callNullable(f *funcSig, nulls []bool, c ectx) bool {
	some, all := false, len(nulls) > 0
	for _, n := range nulls {
		some = some || n
		all = all && n
	}
	switch f.nulls {
	case nullNever:
		return false
	case nullAlways:
		return true
	case nullAllArgs:
		return all
	case nullTail:
		return len(nulls) > 1 && (nulls[1] || len(nulls) > 2 && nulls[2])
	case nullAgg:
		return c.global || len(nulls) > 0 && nulls[0]
	}
	return some
}

// SameExpr reports whether two resolved expressions compute the same value:
// structurally equal, with column references compared by what they bind to
// (as an aggregate item is matched against its group keys). Backends use it
// to find a group key again in a projection.
func (u *Unit) SameExpr(a, b ir.Expr) bool {
	if a == nil || b == nil {
		return a == b
	}
	if ir.NodeKindName(a) != ir.NodeKindName(b) {
		return false
	}
	switch a := a.(type) {
	case *ir.ColumnRef:
		b := b.(*ir.ColumnRef)
		ba, oka := u.Refs[a]
		bb, okb := u.Refs[b]
		if !oka || !okb || ba.Open || bb.Open {
			return strings.EqualFold(a.Name, b.Name) && strings.EqualFold(a.Qualifier, b.Qualifier)
		}
		return ba == bb
	case *ir.Literal:
		b := b.(*ir.Literal)
		return a.Kind == b.Kind && a.Text == b.Text
	case *ir.Unary:
		if a.Op != b.(*ir.Unary).Op {
			return false
		}
	case *ir.Binary:
		if a.Op != b.(*ir.Binary).Op {
			return false
		}
	case *ir.IsNull:
		if a.Not != b.(*ir.IsNull).Not {
			return false
		}
	case *ir.In:
		b := b.(*ir.In)
		if a.Not != b.Not || len(a.List) != len(b.List) {
			return false
		}
	case *ir.Between:
		if a.Not != b.(*ir.Between).Not {
			return false
		}
	case *ir.Like:
		if a.Not != b.(*ir.Like).Not {
			return false
		}
	case *ir.Case:
		b := b.(*ir.Case)
		if len(a.Whens) != len(b.Whens) || (a.Operand == nil) != (b.Operand == nil) || (a.Else == nil) != (b.Else == nil) {
			return false
		}
	case *ir.Cast:
		b := b.(*ir.Cast)
		if a.To != b.To || a.Try != b.Try {
			return false
		}
	case *ir.Call:
		b := b.(*ir.Call)
		if !strings.EqualFold(a.Name, b.Name) || a.Distinct != b.Distinct || a.Star != b.Star || len(a.Args) != len(b.Args) {
			return false
		}
	default:
		return a == b // subqueries and stars: only the same node
	}
	ca, cb := ir.ExprChildren(a), ir.ExprChildren(b)
	if len(ca) != len(cb) {
		return false
	}
	for i := range ca {
		if !u.SameExpr(ca[i], cb[i]) {
			return false
		}
	}
	return true
}

// sameExpr is Unit.SameExpr.
func (r *resolver) sameExpr(a, b ir.Expr) bool { return r.u.SameExpr(a, b) }
