package passes

import (
	"strconv"
	"strings"

	"github.com/nordisk/thund/ir"
)

// Window functions: the typing of an ir.Over and Spark's rules for one
// (Spark's CheckAnalysis and ResolveWindowFrame / ResolveWindowOrder):
//   - an Over stands only in a select's items: a window in WHERE, GROUP
//     BY or an aggregate is an error (one in another window's arguments,
//     which Spark computes first, is refused);
//   - its function is a window function (ranking, offset, nth_value) or an
//     aggregate of the catalogue; anything else is UNSUPPORTED_EXPR_FOR_WINDOW;
//   - a window function without OVER is WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE
//     (call, in resolve_expr.go);
//   - ranking functions, lag and lead need ORDER BY, and take no frame but
//     their own (ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW for the
//     ranks; lag and lead none a query can spell);
//   - a RANGE frame with an offset needs exactly one order key, numeric
//     with a numeric offset, a date with a whole number of days or an
//     interval, a timestamp with an interval;
//   - a frame's start may not be unbounded following, nor its end unbounded
//     preceding, nor an offset start after an offset end.
//
// The types: a ranking function's INT or DOUBLE, an offset or value
// function's argument type (nullable: no row may be at the offset, but
// for lag and lead with a default when neither it nor the input is), an
// aggregate's own type, nullable but for count (a frame may be empty).

// rankingFuncs need ORDER BY and take only the frame Spark gives them.
var rankingFuncs = map[string]bool{"row_number": true, "rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true, "ntile": true}

// rankingFrame is the kind of a ranking function's frame: RANGE for
// cume_dist (its peers count), ROWS for the others.
func rankingFrame(name string) ir.FrameKind {
	if name == "cume_dist" {
		return ir.FrameRange
	}
	return ir.FrameRows
}

// offsetFuncs need ORDER BY and take no frame.
var offsetFuncs = map[string]bool{"lag": true, "lead": true}

// over types a window function.
func (r *resolver) over(e *ir.Over, sc *scope, c ectx) (ir.Type, bool) {
	if e.Func == nil {
		return invalid, true
	}
	name := strings.ToLower(e.Func.Name)
	if f := lookupFunc(name); f != nil {
		name = f.name
	}
	switch {
	case c.inWindow != "":
		r.errorf(e.Pos, ir.CodeBadWindow, "window function %s inside window %s: nested windows are not supported; compute it in a select before", exprString(e.Func), c.inWindow)
	case c.inAgg != "":
		r.errorf(e.Pos, ir.CodeBadWindow, "window function %s inside aggregate %s: compute the window in a select after the aggregate", exprString(e.Func), c.inAgg)
	case c.clause != "select":
		r.errorf(e.Pos, ir.CodeBadWindow, "window function %s is not allowed in %s: window functions are computed in a select: filter on one in a where after it (QUALIFY in SQL)", exprString(e.Func), c.clause)
	}
	kc := ectx{clause: "a window's partition or order", inWindow: name}
	for _, p := range e.Partition {
		r.expr(p, sc, kc)
	}
	var orderTypes []ir.Type
	for _, k := range e.Order {
		t, _ := r.expr(k.Expr, sc, kc)
		orderTypes = append(orderTypes, t)
	}

	f := lookupFunc(name)
	fc := ectx{clause: c.clause, agg: true, global: true, overFunc: e.Func, inWindow: name}
	if f != nil && !f.agg && !f.window {
		r.errorf(e.Func.Pos, ir.CodeBadWindow, "%s is not a window function or an aggregate: %s over (...) is not supported (Spark's UNSUPPORTED_EXPR_FOR_WINDOW)", exprString(e.Func), name)
		for _, a := range e.Func.Args {
			r.expr(a, sc, kc)
		}
		return invalid, true
	}
	t, n := r.expr(e.Func, sc, fc)
	if f == nil {
		return invalid, true
	}
	if e.Func.IgnoreNulls && !(name == "lag" || name == "lead" || name == "nth_value") {
		r.errorf(e.Func.Pos, ir.CodeBadWindow, "ignore nulls applies to lag, lead and nth_value, not %s%s", strings.ToLower(e.Func.Name), ignoreNullsHint(name, e.Func.Name))
	}
	if e.Func.Distinct && f.agg {
		r.errorf(e.Func.Pos, ir.CodeBadWindow, "distinct aggregates are not supported as window functions (Spark: DISTINCT_WINDOW_FUNCTION_UNSUPPORTED): %s", exprString(e.Func))
	}
	if (rankingFuncs[name] || offsetFuncs[name]) && len(e.Order) == 0 {
		r.errorf(e.Pos, ir.CodeBadWindow, "window function %s requires window to be ordered: add order by, as in %s over (partition by ... order by ...)", name, exprString(e.Func))
	}
	if name == "ntile" || name == "nth_value" {
		r.positiveConstant(e.Func, name)
	}
	if name == "median" && (len(e.Order) > 0 || e.Frame != nil && !(e.Frame.Start.Kind == ir.UnboundedPreceding && e.Frame.End.Kind == ir.UnboundedFollowing)) {
		// Spark's median (an inverse distribution function) is over a
		// whole partition; percentile takes any frame
		r.errorf(e.Pos, ir.CodeBadWindow, "median over a window takes no order by and no frame but the whole partition (Spark: INVALID_WINDOW_SPEC_FOR_AGGREGATION_FUNC): use percentile(x, 0.5) over (...)")
	}
	if fr := e.Frame; fr != nil {
		switch {
		case offsetFuncs[name]:
			r.errorf(fr.Pos, ir.CodeBadWindow, "window function %s takes no frame: its rows are at its offset (Spark: the frame must match the required frame)", name)
		case rankingFuncs[name] && !(fr.Kind == rankingFrame(name) && fr.Start.Kind == ir.UnboundedPreceding && fr.End.Kind == ir.CurrentRow):
			r.errorf(fr.Pos, ir.CodeBadWindow, "window function %s takes no frame but %s between unbounded preceding and current row (Spark: the frame must match the required frame)", name, rankingFrame(name))
		default:
			r.frame(fr, e.Order, orderTypes, sc)
		}
	}
	switch {
	case f.agg:
		n = name != "count"
	case offsetFuncs[name]:
		// Spark: nullable unless a default stands in where no row is
		a := e.Func.Args
		n = len(a) < 3 || r.u.Nullable[a[0]] || r.u.Nullable[a[2]]
		if len(a) == 3 {
			t0, t2 := r.u.Types[a[0]], r.u.Types[a[2]]
			if _, ok := commonType(t0, t2); !ok && !isUnknown(t0) && !isUnknown(t2) {
				r.errorf(a[2].Position(), ir.CodeTypeMismatch, "%s's default is %s, which does not fit %s's %s: cast it", name, t2, exprString(a[0]), t0)
			}
		}
	}
	return t, n
}

// positiveConstant checks ntile's and nth_value's count: a positive integer
// constant (Spark: the buckets / offset must be a foldable positive int).
func (r *resolver) positiveConstant(call *ir.Call, name string) {
	i := 0
	if name == "nth_value" {
		i = 1
	}
	if i >= len(call.Args) {
		return
	}
	if l, ok := call.Args[i].(*ir.Literal); ok && l.Kind == ir.LitInt && strings.Trim(l.Text, "0") != "" {
		return
	}
	r.errorf(call.Args[i].Position(), ir.CodeBadWindow, "%s's %s must be a positive integer constant, got %s", name, map[string]string{"ntile": "bucket count", "nth_value": "offset"}[name], exprString(call.Args[i]))
}

// boundValue is the signed row or value offset of an N PRECEDING or N
// FOLLOWING bound with an integer literal N.
func boundValue(b ir.FrameBound) (int64, bool) {
	l, ok := b.Offset.(*ir.Literal)
	if !ok || l.Kind != ir.LitInt || (b.Kind != ir.Preceding && b.Kind != ir.Following) {
		return 0, false
	}
	n, err := strconv.ParseInt(l.Text, 10, 64)
	if err != nil {
		return 0, false
	}
	if b.Kind == ir.Preceding {
		n = -n
	}
	return n, true
}

// frame checks a frame's bounds against its kind and the order keys.
func (r *resolver) frame(fr *ir.Frame, order []*ir.SortKey, orderTypes []ir.Type, sc *scope) {
	if fr.Start.Kind == ir.UnboundedFollowing {
		r.errorf(fr.Pos, ir.CodeBadWindow, "a frame cannot start at unbounded following")
		return
	}
	if fr.End.Kind == ir.UnboundedPreceding {
		r.errorf(fr.Pos, ir.CodeBadWindow, "a frame cannot end at unbounded preceding")
		return
	}
	if lo, ok1 := boundValue(fr.Start); ok1 {
		if hi, ok2 := boundValue(fr.End); ok2 && lo > hi {
			// Spark compares only two offsets; a frame from the current row
			// to a preceding one is empty, not an error
			r.errorf(fr.Pos, ir.CodeBadWindow, "the frame's start (%s) is after its end (%s) (Spark: the lower bound of a window frame must be less than or equal to the upper bound)", boundText(fr.Start), boundText(fr.End))
			return
		}
	}
	hasOffset := false
	for _, b := range []ir.FrameBound{fr.Start, fr.End} {
		if b.Offset == nil {
			continue
		}
		hasOffset = true
		t, _ := r.expr(b.Offset, sc, ectx{clause: "a frame bound"})
		l, lit := b.Offset.(*ir.Literal)
		switch {
		case !lit:
			r.errorf(b.Offset.Position(), ir.CodeBadWindow, "a frame offset must be a constant: a non-negative number (rows or a numeric range) or an interval (a date or timestamp range), got %s", exprString(b.Offset))
			return
		case fr.Kind == ir.FrameRows && l.Kind != ir.LitInt:
			r.errorf(b.Offset.Position(), ir.CodeBadWindow, "a rows frame's offset is a row count, a non-negative integer; got %s (%s)", exprString(b.Offset), t)
			return
		}
	}
	if fr.Kind != ir.FrameRange || !hasOffset {
		return
	}
	if len(order) != 1 {
		r.errorf(fr.Pos, ir.CodeBadWindow, "a range frame with an offset needs exactly one order by key, got %d (Spark: RANGE_FRAME_MULTI_ORDER / RANGE_FRAME_WITHOUT_ORDER)", len(order))
		return
	}
	kt := orderTypes[0]
	if isUnknown(kt) {
		return
	}
	for _, b := range []ir.FrameBound{fr.Start, fr.End} {
		if b.Offset == nil {
			continue
		}
		l := b.Offset.(*ir.Literal)
		switch {
		case kt.IsNumeric():
			if l.Kind != ir.LitInt && l.Kind != ir.LitDecimal && l.Kind != ir.LitFloat {
				r.errorf(b.Offset.Position(), ir.CodeBadWindow, "a range frame over %s order key %s needs a numeric offset, got %s", kt, exprString(order[0].Expr), exprString(b.Offset))
			}
		case kt.Kind == ir.TDate32 && l.Kind == ir.LitInt:
			// days, as Spark takes them (date - n)
		case isTime(kt):
			if l.Kind != ir.LitInterval {
				want := "an interval offset (interval '1' day preceding)"
				if kt.Kind == ir.TDate32 {
					want = "a whole number of days or an interval offset"
				}
				r.errorf(b.Offset.Position(), ir.CodeBadWindow, "a range frame over %s order key %s needs %s, got %s", kt, exprString(order[0].Expr), want, exprString(b.Offset))
			}
		default:
			r.errorf(order[0].Expr.Position(), ir.CodeBadWindow, "a range frame with an offset needs a numeric, date or timestamp order key; %s is %s (Spark: SPECIFIED_WINDOW_FRAME_UNACCEPTED_TYPE)", exprString(order[0].Expr), kt)
			return
		}
	}
}

func boundText(b ir.FrameBound) string {
	if b.Offset != nil {
		return exprString(b.Offset) + " " + b.Kind.String()
	}
	return b.Kind.String()
}

// ignoreNullsHint says how first and last (first_value, last_value) skip
// nulls: with their second argument, as Spark spells it.
func ignoreNullsHint(name, written string) string {
	switch name {
	case "first", "last", "any_value":
		return ": its second argument skips nulls, " + strings.ToLower(written) + "(x, true)"
	}
	return ""
}
