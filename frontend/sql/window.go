package sql

import (
	"fmt"
	"strings"

	"github.com/nordisk/thund/ir"
)

// Window functions: f(...) [IGNORE | RESPECT NULLS] OVER (spec) | OVER w,
// the WINDOW clause, and QUALIFY. An OVER becomes an ir.Over around the
// call; a named window is copied into every Over that names it (the IR
// holds the spec itself, so that the printed .thund form, which spells the
// spec inline, parses back to the same IR). QUALIFY is desugared: a Filter
// over the projection, the window functions only QUALIFY uses computed as
// hidden columns that an outer Project drops.

// windowIgnoreNulls are the window functions whose IGNORE NULLS is
// Call.IgnoreNulls (Spark's NthValue, Lag and Lead take it as a flag, not
// an argument); first_value, last_value and the other nullsArg functions
// carry it as their second argument, as Spark's First and Last do.
var windowIgnoreNulls = wordSet(`lag lead nth_value`)

// hiddenQualify is the prefix of the hidden columns QUALIFY's window
// functions are computed into.
const hiddenQualify = "__qualify_"

// over wraps call in the window spec o names or spells.
func (c *conv) over(call *ir.Call, o *overAST) ir.Expr {
	spec, ok := c.windowSpec(o, 0)
	if !ok {
		return nil
	}
	ov := &ir.Over{Pos: call.Pos, Func: call}
	if spec == nil {
		return ov
	}
	for _, p := range spec.Partition {
		x := c.expr(p)
		if x == nil {
			return nil
		}
		ov.Partition = append(ov.Partition, x)
	}
	if len(spec.Order) > 0 {
		if ov.Order = c.sortKeys(spec.Order); ov.Order == nil {
			return nil
		}
	}
	if spec.Frame != nil {
		if ov.Frame = c.frame(spec.Frame); ov.Frame == nil {
			return nil
		}
	}
	return ov
}

// windowSpec follows window names to the spec they stand for (nil: the
// empty spec).
func (c *conv) windowSpec(o *overAST, depth int) (*windowSpecAST, bool) {
	if o.Spec != nil {
		return o.Spec, true
	}
	name := o.Name
	if name == nil {
		name = o.Paren
	}
	if name == nil {
		return nil, true
	}
	if depth > 16 {
		c.errorf(pos(name.Pos), ir.CodeSyntax, "window %s is defined in terms of itself", name.Name)
		return nil, false
	}
	for i := len(c.windows) - 1; i >= 0; i-- {
		for _, w := range c.windows[i] {
			if strings.EqualFold(w.Name.Name, name.Name) {
				return c.windowSpec(w.Spec, depth+1)
			}
		}
	}
	var have []string
	if n := len(c.windows); n > 0 {
		for _, w := range c.windows[n-1] {
			have = append(have, w.Name.Name)
		}
	}
	if len(have) == 0 {
		c.errorf(pos(name.Pos), ir.CodeSyntax, "window specification %s is not defined in the WINDOW clause (Spark: MISSING_WINDOW_SPECIFICATION): this SELECT has none", name.Name)
	} else {
		c.errorf(pos(name.Pos), ir.CodeSyntax, "window specification %s is not defined in the WINDOW clause (Spark: MISSING_WINDOW_SPECIFICATION): it defines %s", name.Name, strings.Join(have, ", "))
	}
	return nil, false
}

// frame converts ROWS | RANGE BETWEEN start AND end (or the short form).
func (c *conv) frame(f *frameAST) *ir.Frame {
	fr := &ir.Frame{Pos: pos(f.Pos), Kind: ir.FrameRows}
	if strings.EqualFold(f.Kind, "RANGE") {
		fr.Kind = ir.FrameRange
	}
	var ok1, ok2 bool
	if f.Single != nil {
		fr.Start, ok1 = c.frameBound(f.Single)
		fr.End, ok2 = ir.FrameBound{Kind: ir.CurrentRow}, true
	} else {
		fr.Start, ok1 = c.frameBound(f.Start)
		fr.End, ok2 = c.frameBound(f.End)
	}
	if !ok1 || !ok2 {
		return nil
	}
	return fr
}

func (c *conv) frameBound(b *frameBoundAST) (ir.FrameBound, bool) {
	switch {
	case strings.EqualFold(b.Unbounded, "PRECEDING"):
		return ir.FrameBound{Kind: ir.UnboundedPreceding}, true
	case b.Unbounded != "":
		return ir.FrameBound{Kind: ir.UnboundedFollowing}, true
	case b.Current:
		return ir.FrameBound{Kind: ir.CurrentRow}, true
	}
	x := c.add(b.Offset)
	if x == nil {
		return ir.FrameBound{}, false
	}
	k := ir.Preceding
	if strings.EqualFold(b.Dir, "FOLLOWING") {
		k = ir.Following
	}
	return ir.FrameBound{Kind: k, Offset: x}, true
}

// qualifyBlock finishes a SELECT with QUALIFY: the select list, plus a hidden
// column for each window function of the condition that is not a
// select item of its own, then the Filter, then a Project dropping the
// hidden columns, then DISTINCT and ORDER BY over the selected columns.
func (c *conv) qualifyBlock(sel *selectAST, finish func(items []selItem) ir.Rel, items []selItem, distinct bool, order []*orderItemAST) ir.Rel {
	cond := c.expr(sel.Qualify)
	if cond == nil {
		return nil
	}
	all := append([]selItem(nil), items...)
	var hidden []string
	cond = mapExpr(cond, func(x ir.Expr) (ir.Expr, bool) {
		ov, ok := x.(*ir.Over)
		if !ok {
			return nil, false
		}
		for _, it := range items {
			if it.alias != "" && exprKey(it.expr, false) == exprKey(ov, false) {
				return &ir.ColumnRef{Pos: ov.Pos, Name: it.alias}, true
			}
		}
		name := fmt.Sprintf("%s%d", hiddenQualify, len(hidden))
		hidden = append(hidden, name)
		all = append(all, selItem{pos: ov.Pos, expr: ov, alias: name})
		return &ir.ColumnRef{Pos: ov.Pos, Name: name}, true
	})
	rel := finish(all)
	if rel == nil {
		return nil
	}
	qpos := pos(sel.Qualify.Pos)
	rel = &ir.Filter{Pos: qpos, Input: rel, Cond: cond}
	if len(hidden) > 0 {
		rel = &ir.Project{Pos: qpos, Input: rel, Items: []*ir.NamedExpr{{Pos: qpos, Expr: &ir.Star{Pos: qpos, Except: hidden}}}}
	}
	if distinct {
		rel = &ir.Distinct{Pos: pos(sel.Pos), Input: rel}
	}
	if len(order) == 0 {
		return rel
	}
	keys := c.sortKeys(order)
	if keys == nil {
		return nil
	}
	for _, k := range keys {
		x, ok := c.outputKey(k, items)
		if !ok {
			return nil
		}
		if !refsOutput(x, items) {
			c.errorf(k.Pos, ir.CodeSyntax, "with QUALIFY, ORDER BY may only use the selected columns")
			return nil
		}
		k.Expr = x
	}
	return &ir.Sort{Pos: keys[0].Pos, Input: rel, Keys: keys}
}

// mapOver is mapExpr's case of an Over: the function's arguments (not the
// function itself, which is the window's, not an aggregate of the query),
// the partition and order keys and the frame's offsets.
func mapOver(e *ir.Over, m func(ir.Expr) ir.Expr) ir.Expr {
	c := *e
	if e.Func != nil {
		fc := *e.Func
		if e.Func.Args != nil {
			fc.Args = make([]ir.Expr, len(e.Func.Args))
			for i, x := range e.Func.Args {
				fc.Args[i] = m(x)
			}
		}
		c.Func = &fc
	}
	if e.Partition != nil {
		c.Partition = make([]ir.Expr, len(e.Partition))
		for i, x := range e.Partition {
			c.Partition[i] = m(x)
		}
	}
	if e.Order != nil {
		c.Order = make([]*ir.SortKey, len(e.Order))
		for i, k := range e.Order {
			kc := *k
			kc.Expr = m(k.Expr)
			c.Order[i] = &kc
		}
	}
	if e.Frame != nil {
		fr := *e.Frame
		if fr.Start.Offset != nil {
			fr.Start.Offset = m(fr.Start.Offset)
		}
		if fr.End.Offset != nil {
			fr.End.Offset = m(fr.End.Offset)
		}
		c.Frame = &fr
	}
	return &c
}

// writeOverKey is writeKey's case of an Over.
func writeOverKey(b *strings.Builder, e *ir.Over, k func(ir.Expr)) {
	b.WriteString("over(")
	if e.Func != nil {
		k(e.Func)
		fmt.Fprintf(b, ",ign%v", e.Func.IgnoreNulls)
	}
	for _, x := range e.Partition {
		b.WriteString(",p:")
		k(x)
	}
	for _, o := range e.Order {
		nf := "-"
		if o.NullsFirst != nil {
			nf = fmt.Sprint(*o.NullsFirst)
		}
		fmt.Fprintf(b, ",o%v%s:", o.Desc, nf)
		k(o.Expr)
	}
	if f := e.Frame; f != nil {
		fmt.Fprintf(b, ",f%d:%d:", f.Kind, f.Start.Kind)
		k(f.Start.Offset)
		fmt.Fprintf(b, ":%d:", f.End.Kind)
		k(f.End.Offset)
	}
	b.WriteString(")")
}

// nameWindows names each unaliased select item that computes a window
// function as Spark names its column (ir.SparkName: RANK() OVER (ORDER BY
// v ASC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)), as
// aggregates are named: the name is the one a reader of the table sees on
// Spark, so it is the pipeline's on every target.
func nameWindows(items []selItem) {
	for i, it := range items {
		if it.alias == "" && ir.HasOver(it.expr) {
			items[i].alias = autoName(it.expr)
		}
	}
}
