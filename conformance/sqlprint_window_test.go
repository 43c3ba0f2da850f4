package conformance

import (
	"fmt"
	"strings"

	"github.com/nordisk/thund/ir"
)

// over prints a window function (ir.Over) as DuckDB's, with Spark's
// semantics spelled out: every order key's NULL ordering explicit (Spark:
// ASC NULLS FIRST, DESC NULLS LAST), the frame of every framed function
// explicit (Spark's default: RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT
// ROW with an order, the whole partition without), IGNORE NULLS where
// Spark has it (lag, lead, nth_value flag it; first_value and last_value
// as their second argument), and the result cast to Spark's type
// (ranking functions are INT in Spark, BIGINT in DuckDB; sum of integers
// BIGINT, not HUGEINT; avg DOUBLE over the values as DOUBLE).
func (p *printer) over(e *ir.Over) string {
	c := e.Func
	name := strings.ToLower(c.Name)
	var spec []string
	if len(e.Partition) > 0 {
		var keys []string
		for _, k := range e.Partition {
			keys = append(keys, p.expr(k))
		}
		spec = append(spec, "PARTITION BY "+strings.Join(keys, ", "))
	}
	if len(e.Order) > 0 {
		var keys []string
		for _, k := range e.Order {
			keys = append(keys, p.expr(k.Expr)+orderSuffix(k.Desc, k.EffectiveNullsFirst()))
		}
		spec = append(spec, "ORDER BY "+strings.Join(keys, ", "))
	}
	framed := true
	ignore := c.IgnoreNulls
	args := c.Args
	var fn string
	switch name {
	case "row_number", "rank", "dense_rank", "percent_rank", "cume_dist":
		framed = false
		fn = name + "()"
	case "ntile":
		framed = false
		fn = fmt.Sprintf("ntile(%d)", p.intConst(args[0]))
	case "lag", "lead":
		framed = false
		var as []string
		as = append(as, p.expr(args[0]))
		if len(args) > 1 {
			as = append(as, fmt.Sprint(p.intConst(args[1])))
		}
		if len(args) > 2 {
			// the default, in the result's type as Spark coerces it
			as = append(as, castTo(e.Pos, p.expr(args[2]), p.typeOf(e)))
		}
		fn = name + "(" + strings.Join(as, ", ")
	case "first_value", "last_value", "first", "last", "nth_value", "any_value":
		if name == "first" || name == "any_value" {
			name = "first_value"
		}
		if name == "last" {
			name = "last_value"
		}
		if name != "nth_value" && len(args) == 2 {
			l, ok := args[1].(*ir.Literal)
			if !ok || l.Kind != ir.LitBool {
				p.fail(e.Pos, "%s with a non-constant ignore-nulls argument", name)
			}
			ignore = ignore || strings.EqualFold(l.Text, "true")
			args = args[:1]
		}
		as := []string{p.expr(args[0])}
		if name == "nth_value" {
			as = append(as, fmt.Sprint(p.intConst(args[1])))
		}
		fn = name + "(" + strings.Join(as, ", ")
	case "count", "sum", "min", "max", "avg", "mean":
		if c.Distinct {
			p.fail(e.Pos, "%s(distinct) over a window", name)
		}
		return p.windowAgg(e, c, name, spec)
	default:
		p.fail(e.Pos, "window function %s", name)
	}
	if !strings.HasSuffix(fn, "()") && !strings.HasPrefix(fn, "ntile(") {
		// the argument list is open: IGNORE NULLS goes inside it
		if ignore {
			fn += " IGNORE NULLS"
		}
		fn += ")"
	} else if ignore {
		p.fail(e.Pos, "ignore nulls with %s", name)
	}
	if framed {
		spec = append(spec, p.frameSQL(e))
	}
	return p.cast(e, fn+" OVER ("+strings.Join(spec, " ")+")")
}

// windowAgg prints an aggregate over a window: DuckDB's aggregate with
// the explicit frame, cast to Spark's type.
func (p *printer) windowAgg(e *ir.Over, c *ir.Call, name string, spec []string) string {
	spec = append(spec, p.frameSQL(e))
	w := " OVER (" + strings.Join(spec, " ") + ")"
	var x string
	if !c.Star {
		if len(c.Args) != 1 {
			p.fail(e.Pos, "%s of %d arguments over a window", name, len(c.Args))
		}
		x = p.expr(c.Args[0])
	}
	switch name {
	case "count":
		if c.Star {
			return p.cast(e, "count(*)"+w)
		}
		return p.cast(e, "count("+x+")"+w)
	case "sum", "min", "max":
		return p.cast(e, name+"("+x+")"+w)
	case "avg", "mean":
		return p.cast(e, "avg(CAST("+x+" AS DOUBLE))"+w)
	}
	p.fail(e.Pos, "aggregate %s over a window", name)
	return ""
}

// frameSQL is an Over's frame, Spark's default spelled out.
func (p *printer) frameSQL(e *ir.Over) string {
	fr := e.Frame
	if fr == nil {
		if len(e.Order) > 0 {
			return "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
		}
		return "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING"
	}
	bound := func(b ir.FrameBound) string {
		switch b.Kind {
		case ir.UnboundedPreceding:
			return "UNBOUNDED PRECEDING"
		case ir.UnboundedFollowing:
			return "UNBOUNDED FOLLOWING"
		case ir.CurrentRow:
			return "CURRENT ROW"
		}
		dir := " PRECEDING"
		if b.Kind == ir.Following {
			dir = " FOLLOWING"
		}
		l, ok := b.Offset.(*ir.Literal)
		if !ok {
			p.fail(fr.Pos, "a frame offset that is not a literal")
		}
		if l.Kind == ir.LitInterval {
			d, err := ir.ParseDuration(l.Text)
			if err != nil {
				p.fail(fr.Pos, "interval %s", l.Text)
			}
			return fmt.Sprintf("INTERVAL '%d microseconds'", int64(d)/1000) + dir
		}
		return l.Text + dir
	}
	return strings.ToUpper(fr.Kind.String()) + " BETWEEN " + bound(fr.Start) + " AND " + bound(fr.End)
}
