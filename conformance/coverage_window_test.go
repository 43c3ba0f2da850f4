package conformance

import (
	"strings"

	"github.com/nordisk/thund/ir"
)

// The window-function cells of the coverage matrix (wnative): every window
// function, each frame kind and bound kind, RANGE offsets over numbers and
// timestamps (a date's is a cell when a view has one: Spark takes only an
// integer offset over a date, which resolve does not accept yet), IGNORE NULLS, lag's default, windows over an aggregate and
// filtered above, NULL partition keys, and an empty input.

var requiredWindowFuncs = []string{"row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile",
	"lag", "lead", "first_value", "last_value", "nth_value", "count", "sum", "avg", "min", "max"}

var requiredWindow = []string{"rows frame", "range frame", "default frame", "whole partition",
	"bound unbounded preceding", "bound preceding", "bound current row", "bound following", "bound unbounded following",
	"range offset over a number", "range offset over a timestamp",
	"ignore nulls", "lag default", "over an aggregate", "filtered above", "nested in an expression",
	"NULL partition key", "empty input", "several specs"}

func requiredWindowCells() []string {
	var out []string
	for _, f := range requiredWindowFuncs {
		out = append(out, "window function "+f)
	}
	for _, c := range requiredWindow {
		out = append(out, "window "+c)
	}
	return out
}

// windows adds the cells a view's window functions cover.
func (cv *coverer) windows(view string, q ir.Rel) {
	var parents []ir.Rel
	ir.WalkRel(q, func(r ir.Rel) bool {
		parents = append(parents, r)
		p, ok := r.(*ir.Project)
		if !ok {
			return true
		}
		var overs []*ir.Over
		for _, it := range p.Items {
			if _, top := it.Expr.(*ir.Over); !top && ir.HasOver(it.Expr) {
				cv.m.add("window nested in an expression", view)
			}
			ir.WalkExpr(it.Expr, func(x ir.Expr) bool {
				if o, ok := x.(*ir.Over); ok {
					overs = append(overs, o)
				}
				return true
			})
		}
		if len(overs) == 0 {
			return true
		}
		if _, ok := p.Input.(*ir.Aggregate); ok {
			cv.m.add("window over an aggregate", view)
		}
		for _, r := range parents[:len(parents)-1] {
			if _, ok := r.(*ir.Filter); ok {
				cv.m.add("window filtered above", view)
			}
		}
		if sc, ok := p.Input.(*ir.Scan); ok && strings.HasSuffix(sc.Name, "_empty") {
			cv.m.add("window empty input", view)
		}
		specs := map[string]bool{}
		for _, o := range overs {
			cv.over(view, o)
			specs[ir.FormatExpr(&ir.Over{Partition: o.Partition, Order: o.Order, Func: &ir.Call{Name: "f"}}, ir.Label)] = true
		}
		if len(specs) > 1 {
			cv.m.add("window several specs", view)
		}
		return true
	})
}

func (cv *coverer) over(view string, o *ir.Over) {
	name := strings.ToLower(o.Func.Name)
	cv.m.add("window function "+name, view)
	if o.Func.IgnoreNulls {
		cv.m.add("window ignore nulls", view)
	}
	if (name == "first_value" || name == "last_value") && len(o.Func.Args) == 2 {
		cv.m.add("window ignore nulls", view)
	}
	if (name == "lag" || name == "lead") && len(o.Func.Args) == 3 {
		cv.m.add("window lag default", view)
	}
	for _, k := range o.Partition {
		if c, ok := k.(*ir.ColumnRef); ok && c.Name == "k" {
			cv.m.add("window NULL partition key", view) // facts.k holds NULLs (datagen)
		}
	}
	switch name {
	case "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead":
		return
	}
	fr := o.Frame
	if fr == nil {
		cv.m.add("window default frame", view)
		if len(o.Order) == 0 {
			cv.m.add("window whole partition", view)
		}
		return
	}
	cv.m.add("window "+fr.Kind.String()+" frame", view)
	for _, b := range []ir.FrameBound{fr.Start, fr.End} {
		cv.m.add("window bound "+b.Kind.String(), view)
		if fr.Kind == ir.FrameRange && b.Offset != nil && len(o.Order) == 1 {
			switch t := cv.u.Types[o.Order[0].Expr]; {
			case t.IsNumeric():
				cv.m.add("window range offset over a number", view)
			case t.Kind == ir.TDate32:
				cv.m.add("window range offset over a date", view)
			case t.Kind == ir.TTimestamp:
				cv.m.add("window range offset over a timestamp", view)
			}
		}
	}
	if fr.Start.Kind == ir.UnboundedPreceding && fr.End.Kind == ir.UnboundedFollowing {
		cv.m.add("window whole partition", view)
	}
}
