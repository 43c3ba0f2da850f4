package sql

import (
	"strconv"
	"strings"

	"github.com/nordisk/thund/internal/suggest"
	"github.com/nordisk/thund/ir"
)

// cteScope is one WITH clause; visible is how many of its definitions the
// query being converted may see (a CTE sees those before it).
type cteScope struct {
	defs    []*cteAST
	visible int
}

// query converts a full query: WITH, the set expression, ORDER BY, LIMIT.
func (c *conv) query(q *queryAST) ir.Rel {
	if len(q.With) > 0 {
		seen := map[string]bool{}
		for _, d := range q.With {
			n := strings.ToLower(d.Name.Name)
			switch {
			case d.Recursive:
				c.errorf(pos(d.Pos), ir.CodeSyntax, "WITH RECURSIVE is not supported in pipeline SQL")
				return nil
			case len(d.Cols) > 0:
				c.errorf(pos(d.Cols[0].Pos), ir.CodeSyntax, "column aliases on a WITH query are not supported in pipeline SQL: alias the columns in its SELECT")
				return nil
			case seen[n]:
				c.errorf(pos(d.Name.Pos), ir.CodeDuplicateName, "WITH query %s is defined twice", d.Name.Name)
				return nil
			}
			seen[n] = true
		}
		saved := c.cteStack
		c.cteStack = append(append([]cteScope(nil), c.cteStack...), cteScope{defs: q.With, visible: len(q.With)})
		defer func() { c.cteStack = saved }()
	}
	var rel ir.Rel
	body := q.Body
	if len(body.Rest) == 0 && body.Left.Select != nil {
		rel = c.selectBlock(body.Left.Select, q.OrderBy)
	} else {
		rel = c.setExpr(body)
		if rel != nil && len(q.OrderBy) > 0 {
			keys := c.sortKeys(q.OrderBy)
			for _, k := range keys {
				if lit, ok := k.Expr.(*ir.Literal); ok && lit.Kind == ir.LitInt {
					c.errorf(k.Pos, ir.CodeSyntax, "ORDER BY position %s over a set operation is not supported: order by column name", lit.Text)
				}
			}
			rel = &ir.Sort{Pos: keys[0].Pos, Input: rel, Keys: keys}
		}
	}
	if rel == nil {
		return nil
	}
	return c.limit(rel, q)
}

func (c *conv) limit(rel ir.Rel, q *queryAST) ir.Rel {
	var n, off int64 = -1, 0
	p := ir.Pos{}
	if q.Limit != nil && !q.Limit.All {
		v, ok := parseInt64(q.Limit.N)
		if !ok || v < 0 {
			c.errorf(pos(q.Limit.Pos), ir.CodeBadLiteral, "LIMIT %s: want a non-negative integer", q.Limit.N.N)
			return nil
		}
		n, p = v, pos(q.Limit.Pos)
	}
	if q.Offset != nil {
		v, ok := parseInt64(q.Offset)
		if !ok || v < 0 {
			c.errorf(pos(q.Offset.Pos), ir.CodeBadLiteral, "OFFSET %s: want a non-negative integer", q.Offset.N)
			return nil
		}
		if n < 0 {
			c.errorf(pos(q.Offset.Pos), ir.CodeSyntax, "OFFSET without LIMIT is not supported in pipeline SQL")
			return nil
		}
		off = v
	}
	if n < 0 {
		return rel
	}
	return &ir.Limit{Pos: p, Input: rel, N: n, Offset: off}
}

// setExpr converts chains of set operations with Spark's precedence:
// INTERSECT binds tighter than UNION and EXCEPT (MINUS), which associate to
// the left. A run of UNIONs of the same kind is one Union with several
// inputs.
func (c *conv) setExpr(s *setExprAST) ir.Rel {
	// operands of UNION/EXCEPT, each an INTERSECT chain already folded
	rel := c.term(s.Left)
	type operand struct {
		op  *setOpAST
		rel ir.Rel
	}
	var ops []operand
	bad := rel == nil
	for _, op := range s.Rest {
		right := c.term(op.Right)
		if right == nil {
			bad = true
		}
		if strings.EqualFold(op.Op, "INTERSECT") {
			if bad {
				continue
			}
			all := strings.EqualFold(op.Quant, "ALL")
			if len(ops) == 0 {
				rel = &ir.SetOp{Pos: pos(op.Pos), Kind: ir.SetIntersect, All: all, Left: rel, Right: right}
			} else {
				last := &ops[len(ops)-1]
				last.rel = &ir.SetOp{Pos: pos(op.Pos), Kind: ir.SetIntersect, All: all, Left: last.rel, Right: right}
			}
			continue
		}
		ops = append(ops, operand{op, right})
	}
	if bad {
		return nil
	}
	var u *ir.Union
	for _, o := range ops {
		all := strings.EqualFold(o.op.Quant, "ALL")
		if !strings.EqualFold(o.op.Op, "UNION") {
			u = nil
			rel = &ir.SetOp{Pos: pos(o.op.Pos), Kind: ir.SetExcept, All: all, Left: rel, Right: o.rel}
			continue
		}
		if u != nil && u.All == all {
			u.Inputs = append(u.Inputs, o.rel)
			continue
		}
		u = &ir.Union{Pos: pos(o.op.Pos), Inputs: []ir.Rel{rel, o.rel}, All: all}
		rel = u
	}
	return rel
}

func (c *conv) term(t *queryTermAST) ir.Rel {
	switch {
	case t.Select != nil:
		return c.selectBlock(t.Select, nil)
	case t.Paren != nil:
		return c.query(t.Paren)
	case t.Table != nil:
		return c.tableRef(t.Table, nil, false, nil, nil)
	}
	return nil
}

// selItem is one converted select-list item.
type selItem struct {
	pos   ir.Pos
	expr  ir.Expr
	alias string
}

// name is the column name the item produces, or "" when the resolver names it.
func (s selItem) name() string {
	if s.alias != "" {
		return s.alias
	}
	if r, ok := s.expr.(*ir.ColumnRef); ok {
		return r.Name
	}
	return ""
}

func isStar(e ir.Expr) bool { _, ok := e.(*ir.Star); return ok }

// selectBlock converts one SELECT with the ORDER BY of its query, in the
// canonical order FROM → joins → WHERE → window → aggregate → HAVING →
// project → DISTINCT → ORDER BY (LIMIT is added by query).
func (c *conv) selectBlock(sel *selectAST, order []*orderItemAST) ir.Rel {
	c.relAliases = append(c.relAliases, map[string]bool{})
	defer func() { c.relAliases = c.relAliases[:len(c.relAliases)-1] }()

	in := c.from(sel)
	if in == nil {
		return nil
	}
	c.windows = append(c.windows, sel.Windows) // window functions (window.go)
	defer func() { c.windows = c.windows[:len(c.windows)-1] }()
	if sel.Where != nil {
		cond := c.expr(sel.Where)
		if cond == nil {
			return nil
		}
		if containsAgg(cond) {
			c.errorf(pos(sel.Where.Pos), ir.CodeBadAggregate, "aggregate functions are not allowed in WHERE: use HAVING")
			return nil
		}
		in = &ir.Filter{Pos: pos(sel.Where.Pos), Input: in, Cond: cond}
	}
	var items []selItem
	ok := true
	for _, it := range sel.Items {
		x := c.exprItem(it.Expr)
		if x == nil {
			ok = false
			continue
		}
		items = append(items, selItem{pos: pos(it.Pos), expr: x, alias: it.alias()})
	}
	if !ok {
		return nil
	}
	if in, items, ok = c.selectGenerator(sel, in, items); !ok { // generate.go
		return nil
	}
	nameWindows(items) // window functions (window.go)
	distinct := strings.EqualFold(sel.Quant, "DISTINCT")

	// GROUP BY keys, with ordinals and select aliases resolved, and the
	// Spark window() call taken out.
	var keys []ir.Expr
	var win *ir.Window
	var winCall *ir.Call
	winSlot := -1
	if sel.GroupAll {
		for _, it := range items {
			if isStar(it.expr) {
				c.errorf(it.pos, ir.CodeBadAggregate, "GROUP BY ALL with * in the select list is not supported")
				return nil
			}
			if !containsAgg(it.expr) {
				keys = append(keys, it.expr)
			}
		}
	}
	// grouping sets (setgroup: groupingsets.go): the keys are every
	// item's expressions, and sets the sets over them
	groupBy, gkeys, sets, ok := c.groupingSets(sel, items)
	if !ok {
		return nil
	}
	keys = append(keys, gkeys...)
	for _, x := range groupBy {
		x = c.groupKey(x, items)
		if x == nil {
			return nil
		}
		if call, isCall := x.(*ir.Call); isCall && (call.Name == "window" || call.Name == "session_window") {
			if win != nil {
				c.errorf(call.Pos, ir.CodeSyntax, "only one window(...) or session_window(...) may appear in GROUP BY")
				return nil
			}
			win, winCall = c.sparkWindow(call), call
			if win == nil {
				return nil
			}
			winSlot = len(keys)
			keys = append(keys, nil) // the window's columns, decided below
			continue
		}
		if call, isCall := x.(*ir.Call); isCall && (call.Name == "rollup" || call.Name == "cube" || call.Name == "grouping_sets") {
			c.errorf(call.Pos, ir.CodeSyntax, "GROUP BY %s(...) is not supported in pipeline SQL", strings.ToUpper(call.Name))
			return nil
		}
		if containsAgg(x) {
			c.errorf(x.Position(), ir.CodeBadAggregate, "aggregate functions are not allowed in GROUP BY")
			return nil
		}
		keys = append(keys, x)
	}
	if win != nil && sets != nil {
		c.errorf(pos(sel.Pos), ir.CodeSyntax, "GROUP BY window(...) with GROUPING SETS, ROLLUP or CUBE is not supported in pipeline SQL")
		return nil
	}
	if win != nil {
		win.Input = in
		in = win
	}
	for i, it := range items {
		call := findWindowCall(it.expr)
		if call == nil {
			continue
		}
		if win == nil {
			c.errorf(call.Pos, ir.CodeSyntax, "%s(...) outside GROUP BY is not supported in pipeline SQL: group by it", call.Name)
			return nil
		}
		if call != it.expr || exprKey(call, false) != exprKey(winCall, false) {
			c.errorf(call.Pos, ir.CodeSyntax, "%s(...) in the select list must be the GROUP BY's window, selected whole", call.Name)
			return nil
		}
		// The GROUP BY's window selected again is the window struct.
		items[i].expr = &ir.ColumnRef{Pos: call.Pos, Name: winCall.Name}
	}
	var having ir.Expr
	if sel.Having != nil {
		having = c.expr(sel.Having)
		if having == nil {
			return nil
		}
	}
	agg := len(keys) > 0 || sel.GroupAll || having != nil
	for _, it := range items {
		if containsAgg(it.expr) {
			agg = true
		}
	}
	if sel.Qualify != nil { // window functions (window.go)
		return c.qualifyBlock(sel, func(all []selItem) ir.Rel {
			if !agg {
				return c.projectBlock(sel, in, all, false, nil)
			}
			return c.aggregateBlock(sel, in, all, keys, sets, win, winSlot, having, false, nil)
		}, items, distinct, order)
	}
	if !agg {
		return c.projectBlock(sel, in, items, distinct, order)
	}
	return c.aggregateBlock(sel, in, items, keys, sets, win, winSlot, having, distinct, order)
}

// groupKey resolves a GROUP BY ordinal or select-list alias (Spark's
// groupByOrdinal and groupByAliases) to the select item's expression.
func (c *conv) groupKey(x ir.Expr, items []selItem) ir.Expr {
	if lit, ok := x.(*ir.Literal); ok && lit.Kind == ir.LitInt {
		n, err := strconv.Atoi(lit.Text)
		if err != nil || n < 1 || n > len(items) {
			c.errorf(lit.Pos, ir.CodeSyntax, "GROUP BY position %s is not in the select list (1 to %d)", lit.Text, len(items))
			return nil
		}
		it := items[n-1]
		if isStar(it.expr) || containsAgg(it.expr) {
			c.errorf(lit.Pos, ir.CodeBadAggregate, "GROUP BY position %d refers to %s, which cannot be grouped by", n, autoName(it.expr))
			return nil
		}
		return it.expr
	}
	if ref, ok := x.(*ir.ColumnRef); ok && ref.Qualifier == "" {
		for _, it := range items {
			if it.alias != "" && strings.EqualFold(it.alias, ref.Name) && !containsAgg(it.expr) {
				if r2, ok := it.expr.(*ir.ColumnRef); ok && strings.EqualFold(r2.Name, ref.Name) {
					break
				}
				return it.expr
			}
		}
	}
	return x
}

// projectBlock finishes a SELECT without aggregation.
func (c *conv) projectBlock(sel *selectAST, in ir.Rel, items []selItem, distinct bool, order []*orderItemAST) ir.Rel {
	identity := len(items) == 1 && it0BareStar(items)
	project := func(input ir.Rel) ir.Rel {
		if identity {
			return input
		}
		p := &ir.Project{Pos: pos(sel.Pos), Input: input}
		for _, it := range items {
			p.Items = append(p.Items, &ir.NamedExpr{Pos: it.pos, Expr: it.expr, Alias: it.alias})
		}
		return p
	}
	if len(order) == 0 {
		rel := project(in)
		if distinct {
			rel = &ir.Distinct{Pos: pos(sel.Pos), Input: rel}
		}
		return rel
	}
	keys := c.sortKeys(order)
	if keys == nil {
		return nil
	}
	onOutput := true
	for _, k := range keys {
		x, ok := c.outputKey(k, items)
		if !ok {
			return nil
		}
		k.Expr = x
		if !refsOutput(x, items) {
			onOutput = false
		}
	}
	if onOutput {
		rel := project(in)
		if distinct {
			rel = &ir.Distinct{Pos: pos(sel.Pos), Input: rel}
		}
		return &ir.Sort{Pos: keys[0].Pos, Input: rel, Keys: keys}
	}
	if distinct {
		c.errorf(keys[0].Pos, ir.CodeSyntax, "with SELECT DISTINCT, ORDER BY may only use the selected columns")
		return nil
	}
	// Sort the input, then project: select aliases in the keys stand for
	// their expressions.
	for _, k := range keys {
		k.Expr = expandAliases(k.Expr, items)
	}
	return project(&ir.Sort{Pos: keys[0].Pos, Input: in, Keys: keys})
}

func it0BareStar(items []selItem) bool {
	s, ok := items[0].expr.(*ir.Star)
	return ok && s.Qualifier == "" && len(s.Except) == 0
}

// outputKey resolves an ORDER BY ordinal, or an expression equal to a
// select item's, to a reference to that item's output column.
func (c *conv) outputKey(k *ir.SortKey, items []selItem) (ir.Expr, bool) {
	if lit, ok := k.Expr.(*ir.Literal); ok && lit.Kind == ir.LitInt {
		n, err := strconv.Atoi(lit.Text)
		if err != nil || n < 1 || n > len(items) {
			c.errorf(lit.Pos, ir.CodeSyntax, "ORDER BY position %s is not in the select list (1 to %d)", lit.Text, len(items))
			return nil, false
		}
		for _, it := range items[:n] {
			if isStar(it.expr) {
				c.errorf(lit.Pos, ir.CodeSyntax, "ORDER BY position %s after * in the select list is not supported: order by column name", lit.Text)
				return nil, false
			}
		}
		it := items[n-1]
		if it.name() != "" {
			return &ir.ColumnRef{Pos: lit.Pos, Name: it.name()}, true
		}
		return it.expr, true
	}
	exprs := make([]ir.Expr, len(items))
	for i, it := range items {
		exprs[i] = it.expr
	}
	if i := matchExpr(k.Expr, exprs); i >= 0 && items[i].name() != "" {
		return &ir.ColumnRef{Pos: k.Expr.Position(), Name: items[i].name()}, true
	}
	return k.Expr, true
}

// refsOutput reports whether every column e reads is an output column of
// the select list (its names, or what its stars let through).
func refsOutput(e ir.Expr, items []selItem) bool {
	names := map[string]bool{}
	var stars []*ir.Star
	for _, it := range items {
		if s, ok := it.expr.(*ir.Star); ok {
			stars = append(stars, s)
		} else if n := it.name(); n != "" {
			names[strings.ToLower(n)] = true
		}
	}
	ok := true
	ir.WalkExpr(e, func(x ir.Expr) bool {
		switch x := x.(type) {
		case *ir.ColumnRef:
			if x.Qualifier == "" && names[strings.ToLower(x.Name)] {
				return true
			}
			for _, s := range stars {
				if s.Qualifier == "" || strings.EqualFold(s.Qualifier, x.Qualifier) {
					return true
				}
			}
			ok = false
		case *ir.Call:
			if isAggName(x.Name) {
				ok = false
			}
		case *ir.ScalarSubquery, *ir.InSubquery, *ir.Exists:
			// Subqueries read their own inputs.
		}
		return ok
	})
	return ok
}

// expandAliases replaces unqualified references to select aliases with the
// aliased expressions.
func expandAliases(e ir.Expr, items []selItem) ir.Expr {
	return mapExpr(e, func(x ir.Expr) (ir.Expr, bool) {
		r, ok := x.(*ir.ColumnRef)
		if !ok || r.Qualifier != "" {
			return nil, false
		}
		for _, it := range items {
			if it.alias != "" && strings.EqualFold(it.alias, r.Name) {
				return it.expr, true
			}
		}
		return nil, false
	})
}

func (c *conv) sortKeys(order []*orderItemAST) []*ir.SortKey {
	var keys []*ir.SortKey
	for _, o := range order {
		x := c.expr(o.Expr)
		if x == nil {
			return nil
		}
		k := &ir.SortKey{Pos: pos(o.Pos), Expr: x, Desc: strings.EqualFold(o.Dir, "DESC")}
		switch strings.ToUpper(o.Nulls) {
		case "FIRST":
			t := true
			k.NullsFirst = &t
		case "LAST":
			f := false
			k.NullsFirst = &f
		}
		keys = append(keys, k)
	}
	return keys
}

// aggShape builds the Aggregate of a grouped SELECT and names its columns
// on demand.
type aggShape struct {
	agg    *ir.Aggregate
	keys   []*ir.NamedExpr // agg.Keys, in output order
	aggs   []*ir.NamedExpr // agg.Aggs: the select list's aggregate items, then hidden ones
	hidden int             // how many of aggs were added for HAVING / ORDER BY
}

func (a *aggShape) keyName(i int) string {
	k := a.keys[i]
	if k.Alias != "" {
		return k.Alias
	}
	if r, ok := k.Expr.(*ir.ColumnRef); ok {
		return r.Name
	}
	k.Alias = autoName(k.Expr)
	return k.Alias
}

// peekKeyName is keyName without naming an unnamed key.
func (a *aggShape) peekKeyName(i int) string {
	k := a.keys[i]
	if k.Alias != "" {
		return k.Alias
	}
	if r, ok := k.Expr.(*ir.ColumnRef); ok {
		return r.Name
	}
	return autoName(k.Expr)
}

// peekAggName is aggName without naming an unnamed aggregate.
func (a *aggShape) peekAggName(i int) string {
	if a.aggs[i].Alias != "" {
		return a.aggs[i].Alias
	}
	return autoName(a.aggs[i].Expr)
}

func (a *aggShape) aggName(i int) string {
	x := a.aggs[i]
	if x.Alias == "" {
		x.Alias = autoName(x.Expr)
	}
	return x.Alias
}

func (a *aggShape) matchKey(e ir.Expr) int { return matchExpr(e, namedExprs(a.keys)) }

func (a *aggShape) matchAgg(e ir.Expr) int { return matchExpr(e, namedExprs(a.aggs)) }

func namedExprs(ns []*ir.NamedExpr) []ir.Expr {
	out := make([]ir.Expr, len(ns))
	for i, n := range ns {
		out[i] = n.Expr
	}
	return out
}

// matchExpr returns the index of the expression of list equal to e: the
// same expression, qualifiers included, or else the one expression that is
// the same once qualifiers are dropped (t.k and k). -1 when none is.
func matchExpr(e ir.Expr, list []ir.Expr) int {
	k := exprKey(e, false)
	for i, x := range list {
		if exprKey(x, false) == k {
			return i
		}
	}
	k = exprKey(e, true)
	found := -1
	for i, x := range list {
		if exprKey(x, true) == k {
			if found >= 0 {
				return -1 // ambiguous
			}
			found = i
		}
	}
	return found
}

// rewrite expresses e over the Aggregate's output: grouping expressions and
// aggregate items become references to their columns; any other aggregate
// call becomes a hidden aggregate column.
func (a *aggShape) rewrite(e ir.Expr) ir.Expr {
	return mapExpr(e, func(x ir.Expr) (ir.Expr, bool) {
		if _, ok := x.(*ir.Literal); ok {
			return nil, false
		}
		if i := a.matchKey(x); i >= 0 {
			return &ir.ColumnRef{Pos: x.Position(), Name: a.keyName(i)}, true
		}
		if i := a.matchAgg(x); i >= 0 {
			return &ir.ColumnRef{Pos: x.Position(), Name: a.aggName(i)}, true
		}
		if call, ok := x.(*ir.Call); ok && isAggName(call.Name) {
			a.aggs = append(a.aggs, &ir.NamedExpr{Pos: call.Pos, Expr: call, Alias: autoName(call)})
			a.agg.Aggs = a.aggs
			a.hidden++
			return &ir.ColumnRef{Pos: call.Pos, Name: a.aggName(len(a.aggs) - 1)}, true
		}
		return nil, false
	})
}

// aggregateBlock finishes a grouped or aggregating SELECT. The canonical
// shape (doc.go): when the select list is the grouping keys (each once, in
// any order) followed by aggregate expressions, the result is one Aggregate
// whose Keys are those items and whose Aggs are the rest, with no Project;
// otherwise Keys are the GROUP BY expressions in order, Aggs the select
// list's aggregate items, and a Project above computes the select list.
func (c *conv) aggregateBlock(sel *selectAST, in ir.Rel, items []selItem, keys []ir.Expr, sets [][]int, win *ir.Window, winSlot int, having ir.Expr, distinct bool, order []*orderItemAST) ir.Rel {
	// The window's columns: those the select list names as items, in
	// select order, or both.
	if win != nil {
		var expanded []selItem
		var wcols []string
		seen := map[string]bool{}
		for _, it := range items {
			if r, ok := it.expr.(*ir.ColumnRef); ok && r.Qualifier == "" && (strings.EqualFold(r.Name, "window") || strings.EqualFold(r.Name, "session_window")) && !c.aliasInScope(r.Name) {
				if it.alias != "" {
					c.errorf(it.pos, ir.CodeSyntax, "aliasing the window struct is not supported: select window.start and window.end (window_start and window_end) with their own aliases")
					return nil
				}
				for _, n := range []string{"window_start", "window_end"} {
					expanded = append(expanded, selItem{pos: it.pos, expr: &ir.ColumnRef{Pos: r.Pos, Name: n}})
					if !seen[n] {
						seen[n] = true
						wcols = append(wcols, n)
					}
				}
				continue
			}
			if r, ok := it.expr.(*ir.ColumnRef); ok && r.Qualifier == "" && (r.Name == "window_start" || r.Name == "window_end") {
				if !seen[r.Name] {
					seen[r.Name] = true
					wcols = append(wcols, r.Name)
				}
				if strings.EqualFold(it.alias, r.Name) {
					it.alias = ""
				}
			}
			expanded = append(expanded, it)
		}
		items = expanded
		if len(wcols) == 0 {
			wcols = []string{"window_start", "window_end"}
		}
		var ks []ir.Expr
		ks = append(ks, keys[:winSlot]...)
		for _, n := range wcols {
			ks = append(ks, &ir.ColumnRef{Pos: win.Pos, Name: n})
		}
		keys = append(ks, keys[winSlot+1:]...)
	}

	// Classify the select items.
	const (
		kindKey = iota
		kindAgg
		kindOther
	)
	kinds := make([]int, len(items))
	keyOf := make([]int, len(items))
	keyHits := make([]int, len(keys))
	for i, it := range items {
		if s, ok := it.expr.(*ir.Star); ok {
			c.errorf(s.Pos, ir.CodeBadAggregate, "* in the select list of an aggregating query is not supported: list the grouping columns")
			return nil
		}
		keyOf[i] = matchExpr(it.expr, keys)
		switch {
		case keyOf[i] >= 0:
			kinds[i] = kindKey
			keyHits[keyOf[i]]++
		case containsAgg(it.expr) && !ir.HasOver(it.expr): // a window over aggregates is computed above them
			kinds[i] = kindAgg
		default:
			kinds[i] = kindOther
		}
	}
	fast := sets == nil // grouping sets keep the GROUP BY's key order, which their sets index
	for _, h := range keyHits {
		if h != 1 {
			fast = false
		}
	}
	seenAgg := false
	for i := range items {
		switch kinds[i] {
		case kindOther:
			fast = false
		case kindAgg:
			seenAgg = true
		case kindKey:
			if seenAgg {
				fast = false
			}
		}
	}

	a := &aggShape{agg: &ir.Aggregate{Pos: pos(sel.Pos), Input: in}}
	if fast {
		for i, it := range items {
			if kinds[i] == kindKey {
				a.keys = append(a.keys, &ir.NamedExpr{Pos: it.pos, Expr: it.expr, Alias: it.alias})
			}
		}
	} else {
		for j, key := range keys {
			ne := &ir.NamedExpr{Pos: key.Position(), Expr: key}
			for i, it := range items {
				if keyOf[i] == j && it.alias != "" {
					ne.Alias = it.alias
					break
				}
			}
			a.keys = append(a.keys, ne)
		}
	}
	for i, it := range items {
		if kinds[i] == kindAgg {
			a.aggs = append(a.aggs, &ir.NamedExpr{Pos: it.pos, Expr: it.expr, Alias: it.alias})
		}
	}
	a.agg.Keys, a.agg.Aggs, a.agg.Sets = a.keys, a.aggs, sets
	var rel ir.Rel = a.agg
	if having != nil {
		rel = &ir.Filter{Pos: having.Position(), Input: rel, Cond: a.rewrite(having)}
	}

	// The select list over the Aggregate's output.
	projItems := func() []*ir.NamedExpr {
		var out []*ir.NamedExpr
		aggIdx := 0
		for i, it := range items {
			switch kinds[i] {
			case kindKey:
				j := a.matchKey(it.expr)
				n := a.keyName(j)
				ne := &ir.NamedExpr{Pos: it.pos, Expr: &ir.ColumnRef{Pos: it.expr.Position(), Name: n}}
				if it.alias != "" && it.alias != n {
					ne.Alias = it.alias
				}
				out = append(out, ne)
			case kindAgg:
				out = append(out, &ir.NamedExpr{Pos: it.pos, Expr: &ir.ColumnRef{Pos: it.expr.Position(), Name: a.aggName(aggIdx)}})
				aggIdx++
			default:
				out = append(out, &ir.NamedExpr{Pos: it.pos, Expr: a.rewrite(it.expr), Alias: it.alias})
			}
		}
		return out
	}
	// The select list's output names, for ORDER BY, without naming
	// anything yet (an unnamed key or aggregate would be named so).
	outNames := func() []selItem {
		var out []selItem
		aggIdx := 0
		for i, it := range items {
			switch kinds[i] {
			case kindKey:
				n := it.alias
				if n == "" {
					n = a.peekKeyName(a.matchKey(it.expr))
				}
				out = append(out, selItem{pos: it.pos, expr: it.expr, alias: n})
			case kindAgg:
				out = append(out, selItem{pos: it.pos, expr: it.expr, alias: a.peekAggName(aggIdx)})
				aggIdx++
			default:
				out = append(out, it)
			}
		}
		return out
	}

	var sortKeys []*ir.SortKey
	sortAbove := true
	if len(order) > 0 {
		sortKeys = c.sortKeys(order)
		if sortKeys == nil {
			return nil
		}
		overAgg := make([]bool, len(sortKeys))
		for i, k := range sortKeys {
			x, ok := c.outputKey(k, items)
			if !ok {
				return nil
			}
			k.Expr = x
			if refsOutput(x, outNames()) {
				continue
			}
			// What is left is expressed over the Aggregate's output.
			k.Expr = a.rewrite(expandAliasesOther(x, items, kinds, kindOther))
			overAgg[i] = true
			if !refsOutput(k.Expr, outNames()) {
				sortAbove = false
			}
		}
		if !sortAbove {
			for i, k := range sortKeys {
				if !overAgg[i] {
					k.Expr = a.rewrite(expandAliasesOther(k.Expr, items, kinds, kindOther))
				}
			}
		}
	}
	if fast && a.hidden == 0 {
		// The select list is the Aggregate's output: no Project.
		if distinct {
			rel = &ir.Distinct{Pos: pos(sel.Pos), Input: rel}
		}
		if len(sortKeys) > 0 {
			rel = &ir.Sort{Pos: sortKeys[0].Pos, Input: rel, Keys: sortKeys}
		}
		return rel
	}
	if len(sortKeys) > 0 && !sortAbove {
		if distinct {
			c.errorf(sortKeys[0].Pos, ir.CodeSyntax, "with SELECT DISTINCT, ORDER BY may only use the selected columns")
			return nil
		}
		rel = &ir.Sort{Pos: sortKeys[0].Pos, Input: rel, Keys: sortKeys}
	}
	rel = &ir.Project{Pos: pos(sel.Pos), Input: rel, Items: projItems()}
	if distinct {
		rel = &ir.Distinct{Pos: pos(sel.Pos), Input: rel}
	}
	if len(sortKeys) > 0 && sortAbove {
		rel = &ir.Sort{Pos: sortKeys[0].Pos, Input: rel, Keys: sortKeys}
	}
	return rel
}

// expandAliasesOther replaces references to the aliases of computed
// (non-key, non-aggregate) select items with their expressions.
func expandAliasesOther(e ir.Expr, items []selItem, kinds []int, other int) ir.Expr {
	var sub []selItem
	for i, it := range items {
		if kinds[i] == other {
			sub = append(sub, it)
		}
	}
	return expandAliases(e, sub)
}

// aliasInScope reports whether a relation alias or name is in scope.
func (c *conv) aliasInScope(name string) bool {
	for _, m := range c.relAliases {
		if m[strings.ToLower(name)] {
			return true
		}
	}
	return false
}

func (c *conv) noteAlias(name string) {
	if len(c.relAliases) > 0 && name != "" {
		c.relAliases[len(c.relAliases)-1][strings.ToLower(name)] = true
	}
}

// findWindowCall returns a window(...) or session_window(...) call in e.
func findWindowCall(e ir.Expr) *ir.Call {
	var out *ir.Call
	ir.WalkExpr(e, func(x ir.Expr) bool {
		if call, ok := x.(*ir.Call); ok && (call.Name == "window" || call.Name == "session_window") {
			out = call
			return false
		}
		return out == nil
	})
	return out
}

// sparkWindow converts GROUP BY window(ts, size [, slide]) or
// session_window(ts, gap) to an ir.Window (Input set by the caller).
func (c *conv) sparkWindow(call *ir.Call) *ir.Window {
	w := &ir.Window{Pos: call.Pos}
	if call.Star || call.Distinct {
		c.errorf(call.Pos, ir.CodeSyntax, "%s(...) takes a time column and durations", call.Name)
		return nil
	}
	dur := func(i int, what string) (ir.Duration, bool) {
		d, ok := c.durationArg(call.Args[i], what)
		if ok && d <= 0 {
			c.errorf(call.Args[i].Position(), ir.CodeBadDuration, "%s of %s(...) must be positive", what, call.Name)
			return 0, false
		}
		return d, ok
	}
	var ok bool
	switch call.Name {
	case "window":
		switch len(call.Args) {
		case 2:
			w.Kind = ir.WindowTumble
			if w.Size, ok = dur(1, "the window duration"); !ok {
				return nil
			}
		case 3:
			w.Kind = ir.WindowHop
			if w.Size, ok = dur(1, "the window duration"); !ok {
				return nil
			}
			if w.Slide, ok = dur(2, "the slide duration"); !ok {
				return nil
			}
		case 4:
			c.errorf(call.Args[3].Position(), ir.CodeSyntax, "the start time argument of window(...) is not supported in pipeline SQL")
			return nil
		default:
			c.errorf(call.Pos, ir.CodeArity, "window(time, duration [, slide]) takes 2 or 3 arguments, not %d", len(call.Args))
			return nil
		}
	case "session_window":
		if len(call.Args) != 2 {
			c.errorf(call.Pos, ir.CodeArity, "session_window(time, gap) takes 2 arguments, not %d", len(call.Args))
			return nil
		}
		w.Kind = ir.WindowSession
		if w.Gap, ok = dur(1, "the gap duration"); !ok {
			return nil
		}
	}
	w.Time = call.Args[0]
	return w
}

// durationArg reads a duration given as a string ('10 seconds') or an
// interval literal.
func (c *conv) durationArg(e ir.Expr, what string) (ir.Duration, bool) {
	lit, ok := e.(*ir.Literal)
	if ok {
		switch lit.Kind {
		case ir.LitString:
			d, err := parseDurationText(lit.Text)
			if err != nil {
				c.errorf(lit.Pos, ir.CodeBadDuration, "%s %q: %v", what, lit.Text, err)
				return 0, false
			}
			return d, true
		case ir.LitInterval:
			d, err := ir.ParseDuration(lit.Text)
			if err != nil {
				c.errorf(lit.Pos, ir.CodeBadDuration, "%s: %v", what, err)
				return 0, false
			}
			return d, true
		}
	}
	c.errorf(e.Position(), ir.CodeBadDuration, "%s must be a constant interval such as '10 seconds' or INTERVAL 10 SECONDS", what)
	return 0, false
}

// from converts the FROM clause; a comma list is a chain of cross joins.
// Without FROM, a SELECT reads one row: range(0, 1).
func (c *conv) from(sel *selectAST) ir.Rel {
	if len(sel.From) == 0 {
		return &ir.Range{Pos: pos(sel.Pos), Start: 0, End: 1}
	}
	var rel ir.Rel
	for _, r := range sel.From {
		x := c.relation(r)
		if x == nil {
			return nil
		}
		if rel == nil {
			rel = x
		} else {
			rel = &ir.Join{Pos: pos(r.Pos), Kind: ir.JoinCross, Left: rel, Right: x}
		}
	}
	for _, l := range sel.Laterals { // LATERAL VIEW (generate.go)
		if rel = c.lateral(rel, l); rel == nil {
			return nil
		}
	}
	return rel
}

func (c *conv) relation(r *relationAST) ir.Rel {
	rel := c.primaryRel(r.Primary)
	if rel == nil {
		return nil
	}
	for _, j := range r.Joins {
		if j.Natural {
			c.errorf(pos(j.Pos), ir.CodeSyntax, "NATURAL JOIN is not supported in pipeline SQL: join with USING (...)")
			return nil
		}
		if j.Lateral {
			c.errorf(pos(j.Pos), ir.CodeSyntax, "a LATERAL join is not supported in pipeline SQL")
			return nil
		}
		right := c.primaryRel(j.Right)
		if right == nil {
			return nil
		}
		join := &ir.Join{Pos: pos(j.Pos), Left: rel, Right: right}
		kind := strings.ToUpper(j.Kind)
		switch {
		case kind == "" || kind == "INNER":
			join.Kind = ir.JoinInner
		case kind == "CROSS":
			join.Kind = ir.JoinCross
		case strings.HasSuffix(kind, "SEMI"):
			join.Kind = ir.JoinSemi
		case strings.HasSuffix(kind, "ANTI"):
			join.Kind = ir.JoinAnti
		case strings.HasPrefix(kind, "LEFT"):
			join.Kind = ir.JoinLeft
		case strings.HasPrefix(kind, "RIGHT"):
			join.Kind = ir.JoinRight
		case strings.HasPrefix(kind, "FULL"):
			join.Kind = ir.JoinFull
		}
		switch {
		case j.On != nil:
			join.On = c.expr(j.On)
			if join.On == nil {
				return nil
			}
		case j.Using != nil:
			for _, u := range j.Using {
				join.Using = append(join.Using, u.Name)
			}
		}
		rel = join
	}
	return rel
}

// primaryRel converts one relation of FROM.
func (c *conv) primaryRel(p *primaryRelAST) ir.Rel {
	alias := p.Alias.name()
	if p.Alias != nil && len(p.Alias.Columns) > 0 {
		c.errorf(pos(p.Alias.Columns[0].Pos), ir.CodeSyntax, "column aliases on a relation (AS t(a, b)) are not supported in pipeline SQL: alias the columns in a subquery")
		return nil
	}
	var wm *ir.Watermark
	if p.Watermark != nil {
		var ok bool
		if wm, ok = c.watermark(p.Watermark); !ok {
			return nil
		}
	}
	extra, ok := c.readExtras(p)
	if !ok {
		return nil
	}
	if p.Travel != nil || p.Options != nil {
		if at := extrasAt(p); p.Name == nil && (p.Stream == nil || p.Stream.Name == nil && p.Stream.ParenName == nil) {
			c.errorf(at, ir.CodeSyntax, "%s applies to a table read (an Iceberg table: iceberg.`LOCATION`, or a name bound to one), not to a table function or a subquery", extrasWhat(p))
			return nil
		}
		if p.Stream != nil && p.Travel != nil {
			c.errorf(pos(p.Travel.Pos), ir.CodeSyntax, "time travel on a stream read: a stream reads the snapshots appended after the last one it consumed, from the table's oldest; read a snapshot without STREAM")
			return nil
		}
	}
	var rel ir.Rel
	switch {
	case p.Stream != nil:
		s := p.Stream
		switch {
		case s.ParenFunc != nil:
			rel = c.funcRel(s.ParenFunc, alias, true, wm)
		case s.Func != nil:
			rel = c.funcRel(s.Func, alias, true, wm)
		case s.ParenName != nil:
			rel = c.tableRef(s.ParenName, p.Alias, true, wm, extra)
		default:
			rel = c.tableRef(s.Name, p.Alias, true, wm, extra)
		}
		return rel
	case p.TableFn != nil:
		return c.funcRel(p.TableFn, alias, false, wm)
	case p.Func != nil:
		return c.funcRel(p.Func, alias, false, wm)
	case p.Sub != nil:
		if wm != nil {
			c.errorf(wm.Pos, ir.CodeSyntax, "WATERMARK on a subquery is not supported in pipeline SQL: put it on the stream read inside")
			return nil
		}
		q := c.query(p.Sub)
		if q == nil {
			return nil
		}
		c.noteAlias(alias)
		return &ir.SubqueryRel{Pos: pos(p.Pos), Input: q, Alias: alias}
	default:
		return c.tableRef(p.Name, p.Alias, false, wm, extra)
	}
}

// fileFormats are the prefixes of parquet.`path` file reads (and of
// iceberg.`location` table reads).
var fileFormats = map[string]bool{"parquet": true, "csv": true, "json": true, "jsonl": true, "arrow": true, "ipc": true, "iceberg": true}

// tableRef converts a read of a name: a WITH query, a file (parquet.`path`),
// an Iceberg table (iceberg.`location`), or a dataset or external table.
// extra are the read's time travel and WITH options (readExtras).
func (c *conv) tableRef(q *qnameAST, a *aliasAST, stream bool, wm *ir.Watermark, extra []ir.KV) ir.Rel {
	parts := q.parts()
	alias := a.name()
	if len(parts) == 1 && !stream {
		if cte, scope := c.lookupCTE(parts[0]); cte != nil {
			if len(extra) > 0 {
				c.errorf(extra[0].Pos, ir.CodeSyntax, "time travel and WITH options apply to an Iceberg table, not to the WITH query %s", parts[0])
				return nil
			}
			if wm != nil {
				c.errorf(wm.Pos, ir.CodeSyntax, "WATERMARK on a WITH query is not supported: put it on the stream read inside")
				return nil
			}
			saved := c.cteStack
			c.cteStack = scope
			body := c.query(cte.Query)
			c.cteStack = saved
			if body == nil {
				return nil
			}
			if alias == "" {
				alias = cte.Name.Name
			}
			c.noteAlias(alias)
			return &ir.SubqueryRel{Pos: pos(q.Pos), Input: body, Alias: alias}
		}
	}
	if len(parts) == 2 && len(q.Rest) == 1 && q.Rest[0].Quoted && fileFormats[strings.ToLower(parts[0])] {
		if len(extra) > 0 && !strings.EqualFold(parts[0], "iceberg") {
			c.errorf(extra[0].Pos, ir.CodeSyntax, "time travel and WITH options apply to an Iceberg table (iceberg.`LOCATION`), not to %s files", strings.ToLower(parts[0]))
			return nil
		}
		return c.fileRead(q, parts[0], parts[1], alias, stream, wm, extra)
	}
	s := &ir.Scan{Pos: pos(q.Pos), Name: strings.Join(parts, "."), Alias: alias, Stream: stream, Watermark: wm}
	if alias != "" {
		c.noteAlias(alias)
	} else {
		c.noteAlias(parts[len(parts)-1])
	}
	c.noteScan(s, extra)
	return s
}

func (c *conv) lookupCTE(name string) (*cteAST, []cteScope) {
	for i := len(c.cteStack) - 1; i >= 0; i-- {
		sc := c.cteStack[i]
		for j := sc.visible - 1; j >= 0; j-- {
			d := sc.defs[j]
			if strings.EqualFold(d.Name.Name, name) {
				// The body sees the scopes outside and the definitions before it.
				scope := append(append([]cteScope(nil), c.cteStack[:i]...), cteScope{defs: sc.defs, visible: j})
				return d, scope
			}
		}
	}
	return nil, nil
}

// watermark converts WATERMARK col DELAY OF INTERVAL ...
func (c *conv) watermark(w *watermarkAST) (*ir.Watermark, bool) {
	col := c.expr(w.Col)
	if col == nil {
		return nil, false
	}
	ref, ok := col.(*ir.ColumnRef)
	if !ok || w.As != nil {
		c.errorf(pos(w.Col.Pos), ir.CodeSyntax, "WATERMARK on an expression is not supported in pipeline SQL: name a column (compute it in a subquery)")
		return nil, false
	}
	d, ok := c.interval(w.Delay)
	if !ok {
		return nil, false
	}
	if d < 0 {
		c.errorf(pos(w.Delay.Pos), ir.CodeBadDuration, "the watermark delay must not be negative")
		return nil, false
	}
	return &ir.Watermark{Pos: pos(w.Pos), Column: ref.Name, Delay: d}, true
}

// funcRel converts a table-valued function: read_files, read_kafka, range, and the
// window TVFs TUMBLE / HOP / SESSION.
func (c *conv) funcRel(f *funcRelAST, alias string, stream bool, wm *ir.Watermark) ir.Rel {
	name := strings.ToLower(f.Name.Name)
	switch name {
	case "read_files":
		return c.readFiles(f, alias, stream, wm)
	case "read_kafka":
		return c.readKafka(f, alias, stream, wm)
	}
	if stream {
		c.errorf(pos(f.Pos), ir.CodeSyntax, "STREAM %s(...) is not supported: STREAM reads a table, read_files(...) or read_kafka(...)", f.Name.Name)
		return nil
	}
	if wm != nil {
		c.errorf(wm.Pos, ir.CodeSyntax, "WATERMARK on %s(...) is not supported: put it on the read inside", f.Name.Name)
		return nil
	}
	var rel ir.Rel
	switch name {
	case "range":
		rel = c.rangeRel(f)
	case "tumble", "hop", "session":
		rel = c.windowTVF(f, name)
	default:
		if k, ok := suggest.Closest(f.Name.Name, []string{"read_files", "read_kafka", "range", "TUMBLE", "HOP", "SESSION", "STREAM"}); ok {
			c.errorf(pos(f.Pos), ir.CodeSyntax, "table function %s(...) is not supported in pipeline SQL (did you mean %s?)", f.Name.Name, k)
			return nil
		}
		c.errorf(pos(f.Pos), ir.CodeSyntax, "table function %s(...) is not supported in pipeline SQL (want read_files, read_kafka, range, TUMBLE, HOP or SESSION)", f.Name.Name)
		return nil
	}
	if rel == nil {
		return nil
	}
	if alias != "" {
		c.noteAlias(alias)
		return &ir.SubqueryRel{Pos: pos(f.Pos), Input: rel, Alias: alias}
	}
	return rel
}

func (c *conv) rangeRel(f *funcRelAST) ir.Rel {
	var vals []int64
	for _, a := range f.Args {
		if a.Expr == nil {
			c.errorf(pos(a.Pos), ir.CodeSyntax, "range(...) takes integer arguments")
			return nil
		}
		x := c.expr(a.Expr)
		v, ok := intConst(x)
		if !ok {
			c.errorf(pos(a.Pos), ir.CodeSyntax, "range(...) takes integer constants")
			return nil
		}
		vals = append(vals, v)
	}
	r := &ir.Range{Pos: pos(f.Pos)}
	switch len(vals) {
	case 1:
		r.End = vals[0]
	case 2:
		r.Start, r.End = vals[0], vals[1]
	case 3:
		r.Start, r.End, r.Step = vals[0], vals[1], vals[2]
		if r.Step == 0 {
			c.errorf(pos(f.Args[2].Pos), ir.CodeSyntax, "range(...) step must not be 0")
			return nil
		}
	default:
		c.errorf(pos(f.Pos), ir.CodeArity, "range(start, end [, step]) takes 1 to 3 arguments, not %d", len(vals))
		return nil
	}
	return r
}

// intConst evaluates an integer literal, possibly negated or cast to bigint.
func intConst(x ir.Expr) (int64, bool) {
	switch x := x.(type) {
	case *ir.Literal:
		if x.Kind == ir.LitInt {
			v, err := strconv.ParseInt(x.Text, 10, 64)
			return v, err == nil
		}
	case *ir.Unary:
		if x.Op == ir.OpNeg {
			v, ok := intConst(x.X)
			return -v, ok
		}
	case *ir.Cast:
		if x.To.IsInteger() {
			return intConst(x.X)
		}
	}
	return 0, false
}

// windowTVF converts TUMBLE(TABLE t, DESCRIPTOR(ts), size),
// HOP(TABLE t, DESCRIPTOR(ts), slide, size) and
// SESSION(TABLE t, DESCRIPTOR(ts), gap), Flink's argument orders.
func (c *conv) windowTVF(f *funcRelAST, name string) ir.Rel {
	want := map[string]int{"tumble": 3, "hop": 4, "session": 3}[name]
	usage := map[string]string{
		"tumble":  "TUMBLE(TABLE t, DESCRIPTOR(time), size)",
		"hop":     "HOP(TABLE t, DESCRIPTOR(time), slide, size)",
		"session": "SESSION(TABLE t, DESCRIPTOR(time), gap)",
	}[name]
	if len(f.Args) != want {
		c.errorf(pos(f.Pos), ir.CodeArity, "%s takes %d arguments, not %d", usage, want, len(f.Args))
		return nil
	}
	if f.Args[0].Table == nil {
		c.errorf(pos(f.Args[0].Pos), ir.CodeSyntax, "the first argument of %s is TABLE name", usage)
		return nil
	}
	if len(f.Args[1].Descriptor) != 1 {
		c.errorf(pos(f.Args[1].Pos), ir.CodeSyntax, "the second argument of %s is DESCRIPTOR(time column)", usage)
		return nil
	}
	in := c.primaryRel(f.Args[0].Table)
	if in == nil {
		return nil
	}
	d := f.Args[1].Descriptor[0]
	w := &ir.Window{Pos: pos(f.Pos), Input: in, Time: &ir.ColumnRef{Pos: pos(d.Pos), Name: d.Name}}
	durs := make([]ir.Duration, 0, 2)
	for _, a := range f.Args[2:] {
		if a.Expr == nil {
			c.errorf(pos(a.Pos), ir.CodeBadDuration, "%s: want an interval", usage)
			return nil
		}
		x := c.expr(a.Expr)
		if x == nil {
			return nil
		}
		dur, ok := c.durationArg(x, "the window duration")
		if !ok {
			return nil
		}
		if dur <= 0 {
			c.errorf(pos(a.Pos), ir.CodeBadDuration, "%s: durations must be positive", usage)
			return nil
		}
		durs = append(durs, dur)
	}
	switch name {
	case "tumble":
		w.Kind, w.Size = ir.WindowTumble, durs[0]
	case "hop":
		w.Kind, w.Slide, w.Size = ir.WindowHop, durs[0], durs[1]
	case "session":
		w.Kind, w.Gap = ir.WindowSession, durs[0]
	}
	return w
}
