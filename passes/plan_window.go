package passes

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nordisk/thund/ir"
)

// The plan of window functions (ir.Over) for the native backend. A select
// (ir.Project) whose items hold window functions is a window operator, a
// pipeline breaker: it keeps its input rows, sorts them by each distinct
// window spec's (partition keys, order keys) and walks each partition once
// (rt/window), then emits the rows in the order of the first spec with the
// items computed. The plan decides, per function, what rt/window computes
// (its canonical name, offsets, the frame with Spark's default filled in,
// and how a RANGE frame's value offsets are measured) and refuses what the
// native backend does not compute.

// WindowPlan is how the native backend computes the window functions of
// one select.
type WindowPlan struct {
	Specs []*WindowSpec // one sort each, in the order of their first function
	// Parallel: the partitions are walked on the workers (always, today:
	// each row's results depend only on its partition)
	Parallel bool
}

// WindowSpec is the functions sharing one partitioning and order.
type WindowSpec struct {
	Partition []ir.Expr
	Order     []*ir.SortKey
	Funcs     []*WindowFunc
}

// WindowFunc is one window function as rt/window computes it.
type WindowFunc struct {
	Over *ir.Over
	// Name is canonical: row_number, rank, dense_rank, percent_rank,
	// cume_dist, ntile, lag, lead, first_value, last_value, nth_value,
	// count, sum, avg, min, max, and the family's moments (plan_agg.go's
	// windowMoments).
	Name    string
	Arg     ir.Expr // the argument (nil: count(*) and the ranking functions)
	Arg2    ir.Expr // the second argument of a pair statistic (corr(x, y), regr_*(y, x))
	Default ir.Expr // lag and lead's default (nil: NULL)
	// N is ntile's bucket count, nth_value's n, and lag and lead's offset
	// in rows after the current one (lag's is negative).
	N           int64
	IgnoreNulls bool
	// Frame is the frame of a framed function (aggregates and the value
	// functions), Spark's default filled in; nil for the others.
	Frame *ir.Frame
	// Range says how a RANGE frame's value offsets are measured: RangeNone
	// (a ROWS frame, or RANGE without offsets: the peers), RangeInt (an
	// integer, date in days or timestamp in its unit) or RangeFloat.
	Range              RangeKind
	StartOff, EndOff   int64 // ROWS, RangeInt
	StartOffF, EndOffF float64
}

// RangeKind is how a RANGE frame's value offsets are measured.
type RangeKind int

const (
	RangeNone RangeKind = iota
	RangeInt
	RangeFloat
)

// WindowProject reports a select whose items hold window functions: a
// window operator, not a stateless step.
func WindowProject(r ir.Rel) bool {
	n, ok := r.(*ir.Project)
	if !ok {
		return false
	}
	for _, it := range n.Items {
		if ir.HasOver(it.Expr) {
			return true
		}
	}
	return false
}

// windowFuncNames maps the function names an Over may call to the
// canonical ones; true for the functions that read a frame.
var windowFuncNames = map[string]struct {
	name   string
	framed bool
}{
	"row_number": {"row_number", false}, "rank": {"rank", false}, "dense_rank": {"dense_rank", false},
	"percent_rank": {"percent_rank", false}, "cume_dist": {"cume_dist", false}, "ntile": {"ntile", false},
	"lag": {"lag", false}, "lead": {"lead", false},
	"first_value": {"first_value", true}, "first": {"first_value", true}, "any_value": {"first_value", true},
	"last_value": {"last_value", true}, "last": {"last_value", true}, "nth_value": {"nth_value", true},
	"count": {"count", true}, "sum": {"sum", true}, "avg": {"avg", true}, "mean": {"avg", true},
	"min": {"min", true}, "max": {"max", true},
}

// windowProject plans a select holding window functions.
func (p *planner) windowProject(n *ir.Project) {
	if Streaming(n) {
		return // refused at each Over (operators)
	}
	wp := &WindowPlan{Parallel: true}
	for _, it := range n.Items {
		ir.WalkExpr(it.Expr, func(x ir.Expr) bool {
			o, ok := x.(*ir.Over)
			if !ok {
				return true
			}
			if f := p.windowFunc(o); f != nil {
				spec := p.specOf(wp, o)
				spec.Funcs = append(spec.Funcs, f)
			}
			return false // an Over's arguments hold no Over
		})
	}
	if p.fp.Windows == nil {
		p.fp.Windows = map[*ir.Project]*WindowPlan{}
	}
	p.fp.Windows[n] = wp
}

// specOf is the spec of wp with o's partitioning and order, added if new.
func (p *planner) specOf(wp *WindowPlan, o *ir.Over) *WindowSpec {
	for _, s := range wp.Specs {
		if p.sameSpec(s, o) {
			return s
		}
	}
	s := &WindowSpec{Partition: o.Partition, Order: o.Order}
	wp.Specs = append(wp.Specs, s)
	return s
}

func (p *planner) sameSpec(s *WindowSpec, o *ir.Over) bool {
	if len(s.Partition) != len(o.Partition) || len(s.Order) != len(o.Order) {
		return false
	}
	for i, e := range s.Partition {
		if !p.u.SameExpr(e, o.Partition[i]) {
			return false
		}
	}
	for i, k := range s.Order {
		q := o.Order[i]
		if k.Desc != q.Desc || k.EffectiveNullsFirst() != q.EffectiveNullsFirst() || !p.u.SameExpr(k.Expr, q.Expr) {
			return false
		}
	}
	return true
}

// windowFunc plans one window function, or refuses it (nil).
func (p *planner) windowFunc(o *ir.Over) *WindowFunc {
	// resolve has checked the function (a window function or an
	// aggregate of the catalogue, each of which is in windowFuncNames), its
	// arity, ntile's and nth_value's constants, no distinct, and the frame's
	// shape and offsets' kinds; what is left is what the native backend
	// computes of them
	c := o.Func
	if c == nil {
		return nil
	}
	name := strings.ToLower(c.Name)
	if f := p.u.Calls[c]; f != nil {
		name = f.Name
	}
	known, ok := windowFuncNames[name]
	if !ok && IsFamilyAgg(name) { // plan_agg.go
		return p.familyWindowFunc(o, name)
	}
	if !ok || c.Distinct {
		return nil
	}
	wf := &WindowFunc{Over: o, Name: known.name, IgnoreNulls: c.IgnoreNulls}
	args := c.Args
	if (known.name == "first_value" || known.name == "last_value") && len(args) == 2 {
		// Spark's first(x, ignoreNulls) and last(x, ignoreNulls)
		l, ok := args[1].(*ir.Literal)
		if !ok || l.Kind != ir.LitBool {
			p.refuse(args[1].Position(), "%s over a window with an ignore-nulls argument that is not true or false is not supported yet", c.Name)
			return nil
		}
		wf.IgnoreNulls = wf.IgnoreNulls || strings.EqualFold(l.Text, "true")
		args = args[:1]
	}
	// constArg is ntile's and nth_value's count, a positive constant
	constArg := func(i int) (int64, bool) {
		if i >= len(args) {
			return 0, false
		}
		v, ok := IntConstant(args[i])
		return int64(v), ok && v >= 1
	}
	switch wf.Name {
	case "ntile":
		n, ok := constArg(0)
		if !ok {
			return nil
		}
		wf.N = n
	case "lag", "lead":
		if len(args) == 0 {
			return nil
		}
		wf.Arg, wf.N = args[0], 1
		if len(args) > 1 {
			v, ok := IntConstant(args[1])
			if !ok {
				p.refuse(args[1].Position(), "the offset of %s must be an integer constant natively", c.Name)
				return nil
			}
			wf.N = int64(v)
		}
		if wf.Name == "lag" {
			wf.N = -wf.N
		}
		if len(args) > 2 {
			wf.Default = args[2]
		}
	case "nth_value":
		n, ok := constArg(1)
		if len(args) < 2 || !ok {
			return nil
		}
		wf.Arg, wf.N = args[0], n
	case "count":
		if !c.Star && len(args) != 1 {
			p.refuse(c.Pos, "count of %d arguments over a window is not supported yet", len(args))
			return nil
		}
		if !c.Star {
			wf.Arg = args[0]
		}
	case "sum", "avg":
		if len(args) != 1 {
			return nil // resolve's arity error
		}
		t := p.u.Types[args[0]]
		if !(t.IsInteger() || t.IsFloat() || isUnknown(t)) || t.Kind == ir.TUint64 {
			p.refuse(c.Pos, "%s of %s over a window is not supported yet (the native backend sums integers and floating-point numbers over windows)", c.Name, t)
			return nil
		}
		wf.Arg = args[0]
	case "min", "max", "first_value", "last_value":
		if len(args) != 1 {
			return nil
		}
		wf.Arg = args[0]
	}
	if !known.framed {
		return wf
	}
	return p.frame(o, wf)
}

// frame fills in a framed function's frame (Spark's default when the Over
// has none: RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW with an
// order, ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING without)
// and measures its offsets.
func (p *planner) frame(o *ir.Over, wf *WindowFunc) *WindowFunc {
	fr := o.Frame
	if fr == nil {
		fr = &ir.Frame{Pos: o.Pos, Kind: ir.FrameRows, Start: ir.FrameBound{Kind: ir.UnboundedPreceding}, End: ir.FrameBound{Kind: ir.UnboundedFollowing}}
		if len(o.Order) > 0 {
			fr = &ir.Frame{Pos: o.Pos, Kind: ir.FrameRange, Start: ir.FrameBound{Kind: ir.UnboundedPreceding}, End: ir.FrameBound{Kind: ir.CurrentRow}}
		}
	}
	wf.Frame = fr
	offset := func(b ir.FrameBound) bool { return b.Kind == ir.Preceding || b.Kind == ir.Following }
	if fr.Kind == ir.FrameRows {
		for i, b := range []ir.FrameBound{fr.Start, fr.End} {
			if !offset(b) {
				continue
			}
			v, ok := IntConstant(b.Offset)
			if !ok || v < 0 {
				return nil // resolve: a ROWS offset is a non-negative integer literal
			}
			if i == 0 {
				wf.StartOff = int64(v)
			} else {
				wf.EndOff = int64(v)
			}
		}
		return wf
	}
	if !offset(fr.Start) && !offset(fr.End) {
		return wf
	}
	if len(o.Order) != 1 {
		return nil // resolve: one order key
	}
	kt := p.u.Types[o.Order[0].Expr]
	switch {
	case kt.IsInteger() && kt.Kind != ir.TUint64, kt.Kind == ir.TDate32, kt.Kind == ir.TTimestamp:
		wf.Range = RangeInt
	case kt.IsFloat():
		wf.Range = RangeFloat
	default:
		p.refuse(fr.Pos, "a RANGE frame with offsets over %s is not supported yet (the native backend measures them over integers, floating-point numbers, dates and timestamps)", kt)
		return nil
	}
	for i, b := range []ir.FrameBound{fr.Start, fr.End} {
		if !offset(b) {
			continue
		}
		vi, vf, why := rangeOffset(b.Offset, kt)
		if why != "" {
			p.refuse(boundPos(b, fr), "a RANGE frame's offset over %s %s", kt, why)
			return nil
		}
		if i == 0 {
			wf.StartOff, wf.StartOffF = vi, vf
		} else {
			wf.EndOff, wf.EndOffF = vi, vf
		}
	}
	return wf
}

func boundPos(b ir.FrameBound, fr *ir.Frame) ir.Pos {
	if b.Offset != nil && b.Offset.Position().IsValid() {
		return b.Offset.Position()
	}
	return fr.Pos
}

// rangeOffset measures a RANGE offset in the units of an order key of
// type kt: an integer for integers, a number for floats, whole days (an
// integer or an interval) for dates, an interval in the timestamp's unit
// for timestamps. why says what is wrong ("" when nothing).
func rangeOffset(e ir.Expr, kt ir.Type) (int64, float64, string) {
	l, ok := e.(*ir.Literal)
	if !ok {
		return 0, 0, "must be a constant natively"
	}
	switch {
	case kt.IsInteger():
		if v, err := strconv.ParseInt(l.Text, 10, 64); err == nil && l.Kind == ir.LitInt && v >= 0 {
			return v, 0, ""
		}
		return 0, 0, "must be a non-negative integer natively"
	case kt.IsFloat():
		if l.Kind == ir.LitInt || l.Kind == ir.LitDecimal || l.Kind == ir.LitFloat {
			if v, err := strconv.ParseFloat(l.Text, 64); err == nil && v >= 0 {
				return 0, v, ""
			}
		}
		return 0, 0, "must be a non-negative number natively"
	case kt.Kind == ir.TDate32:
		if l.Kind == ir.LitInt {
			if v, err := strconv.ParseInt(l.Text, 10, 64); err == nil && v >= 0 {
				return v, 0, ""
			}
		}
		if l.Kind == ir.LitInterval {
			d, err := ir.ParseDuration(l.Text)
			const day = int64(24 * 3600 * 1e9)
			if err == nil && d >= 0 && int64(d)%day == 0 {
				return int64(d) / day, 0, ""
			}
		}
		return 0, 0, "must be a whole number of days natively"
	case kt.Kind == ir.TTimestamp:
		if l.Kind == ir.LitInterval {
			d, err := ir.ParseDuration(l.Text)
			per := int64(1e9) / UnitsPerSecond[kt.Unit]
			if err == nil && d >= 0 && int64(d)%per == 0 {
				return int64(d) / per, 0, ""
			}
		}
		return 0, 0, fmt.Sprintf("must be a non-negative interval in whole %s natively", kt.Unit)
	}
	return 0, 0, "is not supported yet"
}

// explain is the window operator's line of explain's physical plan.
func (wp *WindowPlan) explain(n *ir.Project) string {
	var specs []string
	for _, s := range wp.Specs {
		var keys []string
		for _, e := range s.Partition {
			keys = append(keys, exprString(e))
		}
		by := "one partition"
		if len(keys) > 0 {
			by = "partitions by " + strings.Join(keys, ", ")
		}
		var order []string
		for _, k := range s.Order {
			o := exprString(k.Expr)
			if k.Desc {
				o += " desc"
			}
			if k.EffectiveNullsFirst() {
				o += " nulls first"
			} else {
				o += " nulls last"
			}
			order = append(order, o)
		}
		if len(order) > 0 {
			by += " ordered by " + strings.Join(order, ", ")
		}
		var fs []string
		for _, f := range s.Funcs {
			t := f.Name
			if f.Frame != nil {
				t += " " + frameText(f)
			}
			fs = append(fs, t)
		}
		specs = append(specs, fmt.Sprintf("sort %s: %s", by, strings.Join(fs, ", ")))
	}
	s := fmt.Sprintf("window at %s: %s", posText(n.Pos), strings.Join(specs, "; "))
	if wp.Parallel {
		s += "; partitions on the workers"
	}
	return s
}

func frameText(f *WindowFunc) string {
	b := func(x ir.FrameBound, off int64, offF float64) string {
		switch x.Kind {
		case ir.Preceding, ir.Following:
			if f.Range == RangeFloat {
				return fmt.Sprintf("%g %s", offF, x.Kind)
			}
			return fmt.Sprintf("%d %s", off, x.Kind)
		}
		return x.Kind.String()
	}
	fr := f.Frame
	return fmt.Sprintf("%s %s..%s", fr.Kind, b(fr.Start, f.StartOff, f.StartOffF), b(fr.End, f.EndOff, f.EndOffF))
}
