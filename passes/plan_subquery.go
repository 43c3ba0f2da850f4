package passes

import (
	"fmt"
	"sort"
	"strings"

	"github.com/nordisk/thund/ir"
)

// Correlated subqueries: the plan of a subquery expression (EXISTS, IN,
// scalar) whose query reads columns of the enclosing query. The IR keeps
// the user's form; the plan records its decorrelation, as Spark's optimizer
// rewrites it (RewritePredicateSubquery, RewriteCorrelatedScalarSubquery):
// the subquery's uncorrelated input is a hash join's build side, keyed by
// the equality correlations; the other correlated predicates are a
// residual tested per candidate; EXISTS is a semi join (NOT EXISTS an
// anti join), IN a semi join on the value too (NOT IN a null-aware anti
// join: a NULL on either side against a non-empty candidate set makes it
// unknown), and a scalar subquery a left outer join that must find at most
// one row, or, over a global aggregate, the aggregate of each outer row's
// candidates (zero of them: count is 0, the rest NULL, Spark's count-bug
// handling). Codegen prints this plan (codegen/decorrelate.go).

// SubqueryPlan is the decorrelated plan of one correlated subquery
// expression (FlowPlan.Subqueries, keyed by the *ir.Exists, *ir.InSubquery
// or *ir.ScalarSubquery).
type SubqueryPlan struct {
	Join     string       // "semi", "anti", "null-aware anti" or "left outer" (scalar)
	Input    ir.Rel       // the uncorrelated input: the build side
	Filters  []*ir.Filter // the filters over Input holding the correlation, outermost first
	Local    []ir.Expr    // their conjuncts that read only Input: tested while building
	Keys     []JoinKey    // equality correlations: L the outer side, R the subquery's
	Residual []ir.Expr    // the other correlated conjuncts, tested per candidate
	Agg      *ir.Aggregate
	Project  *ir.Project
	// PerKey: a scalar subquery's aggregate without residual depends only
	// on the key, so it is computed per key while building (Spark's
	// aggregate below the join); else per outer row over its matches.
	PerKey bool
}

// decorrelate plans every correlated subquery expression of the flow and
// refuses, with its position, each shape it does not decorrelate.
func (p *planner) decorrelate() bool {
	ok := true
	main := map[ir.Rel]bool{}
	var mainRels func(r ir.Rel)
	mainRels = func(r ir.Rel) { // the operators outside subquery expressions
		main[r] = true
		for _, in := range ir.RelInputs(r) {
			mainRels(in)
		}
	}
	mainRels(p.fp.Flow.Query)
	// which operators of the main query hold each subquery expression
	ir.WalkRel(p.fp.Flow.Query, func(r ir.Rel) bool {
		for _, e := range ir.RelExprs(r) {
			ir.WalkExpr(e, func(x ir.Expr) bool {
				q := ir.SubqueryQuery(x)
				if q == nil {
					return true
				}
				inner := map[ir.Rel]bool{}
				ir.WalkRel(q, func(b ir.Rel) bool { inner[b] = true; return true })
				outer := p.outerRefs(q, inner)
				if outer == nil {
					if ex, isExists := x.(*ir.Exists); isExists {
						// uncorrelated: a semi (anti) join on no key
						p.fp.Subqueries[x] = &SubqueryPlan{Join: map[bool]string{false: "semi", true: "anti"}[ex.Not], Input: q}
					}
					return true
				}
				for c := range outer {
					if !main[p.u.Refs[c].Rel] {
						// an outer reference into an enclosing subquery
						p.refuse(c.Pos, "a subquery correlated with an enclosing subquery (%s) is not supported yet: correlate it with the flow's query", RefText(c))
						ok = false
						return true
					}
				}
				if sp := p.subqueryPlan(r, x, q, outer); sp != nil {
					p.fp.Subqueries[x] = sp
				} else {
					ok = false
				}
				return true
			})
		}
		return true
	})
	return ok
}

// outerRefs returns the column references of a subquery's operators that
// read outside it (nil when it is uncorrelated), mapped to the operator
// holding each.
func (p *planner) outerRefs(q ir.Rel, inner map[ir.Rel]bool) map[*ir.ColumnRef]ir.Rel {
	var out map[*ir.ColumnRef]ir.Rel
	ir.WalkRel(q, func(r ir.Rel) bool {
		for _, e := range ir.RelExprs(r) {
			walkExprDeep(e, func(x ir.Expr) {
				if c, isRef := x.(*ir.ColumnRef); isRef {
					if b, found := p.u.Refs[c]; found && b.Depth > 0 && !inner[b.Rel] {
						if out == nil {
							out = map[*ir.ColumnRef]ir.Rel{}
						}
						out[c] = r
					}
				}
			})
		}
		return true
	})
	return out
}

// walkExprDeep calls fn for e's sub-expressions and those of the
// subquery expressions' queries in it.
func walkExprDeep(e ir.Expr, fn func(ir.Expr)) {
	ir.WalkExpr(e, func(x ir.Expr) bool {
		fn(x)
		if q := ir.SubqueryQuery(x); q != nil {
			ir.WalkRel(q, func(r ir.Rel) bool {
				for _, e := range ir.RelExprs(r) {
					walkExprDeep(e, fn)
				}
				return true
			})
		}
		return true
	})
}

// walkQueryExprs calls fn for every expression of a query's operators,
// subqueries' included.
func walkQueryExprs(q ir.Rel, fn func(ir.Expr)) {
	ir.WalkRel(q, func(r ir.Rel) bool {
		for _, e := range ir.RelExprs(r) {
			ir.WalkExpr(e, func(x ir.Expr) bool { fn(x); return true })
		}
		return true
	})
}

// readsOuter reports whether e reads a column of the outer query.
func readsOuter(e ir.Expr, outer map[*ir.ColumnRef]ir.Rel) bool {
	found := false
	walkExprDeep(e, func(x ir.Expr) {
		if c, ok := x.(*ir.ColumnRef); ok {
			if _, isOuter := outer[c]; isOuter {
				found = true
			}
		}
	})
	return found
}

// readsLocal reports whether e reads a column of the subquery itself (or
// holds a subquery expression).
func readsLocal(e ir.Expr, outer map[*ir.ColumnRef]ir.Rel) bool {
	found := false
	ir.WalkExpr(e, func(x ir.Expr) bool {
		switch x := x.(type) {
		case *ir.ColumnRef:
			if _, isOuter := outer[x]; !isOuter {
				found = true
			}
		case *ir.ScalarSubquery, *ir.InSubquery, *ir.Exists:
			found = true
		}
		return !found
	})
	return found
}

// subqueryPlan decorrelates one subquery expression x (of query q, held by
// operator at of the flow's query), or refuses it.
func (p *planner) subqueryPlan(at ir.Rel, x ir.Expr, q ir.Rel, outer map[*ir.ColumnRef]ir.Rel) *SubqueryPlan {
	pos := x.Position()
	what := map[bool]string{true: "exists", false: "not exists"}
	var kind string
	switch s := x.(type) {
	case *ir.Exists:
		kind = what[!s.Not]
	case *ir.InSubquery:
		kind = "in"
		if s.Not {
			kind = "not in"
		}
	default:
		kind = "scalar"
	}
	switch at.(type) {
	case *ir.Filter, *ir.Project:
	default:
		p.refuse(pos, "a correlated %s subquery in %s is not supported yet: use it in a where or a select", kind, opName(at))
		return nil
	}
	if Streaming(at) {
		p.refuse(pos, "a correlated %s subquery over a stream read is not supported yet: compute it in a materialized view over a snapshot read, or target spark-4.1", kind)
		return nil
	}
	sp := &SubqueryPlan{}
	top := q
	if pr, ok := top.(*ir.Project); ok {
		sp.Project, top = pr, pr.Input
	}
	if a, ok := top.(*ir.Aggregate); ok && len(a.Keys) == 0 {
		sp.Agg, top = a, a.Input
	}
	for {
		f, ok := top.(*ir.Filter)
		if !ok {
			break
		}
		sp.Filters = append(sp.Filters, f)
		top = f.Input
	}
	sp.Input = top
	if sp.Project != nil && sp.Agg == nil && len(sp.Filters) == 0 {
		p.refuse(pos, "a correlated %s subquery is supported when its correlation is in a where over its input, not in %s", kind, opName(q))
		return nil
	}
	switch kind {
	case "exists", "not exists":
		if sp.Agg != nil {
			p.refuse(sp.Agg.Pos, "an exists subquery over an aggregate without group by is always TRUE: not supported yet")
			return nil
		}
		sp.Join = map[string]string{"exists": "semi", "not exists": "anti"}[kind]
	case "in", "not in":
		if sp.Agg != nil {
			p.refuse(sp.Agg.Pos, "a correlated in subquery over an aggregate is not supported yet")
			return nil
		}
		sp.Join = map[string]string{"in": "semi", "not in": "null-aware anti"}[kind]
	default:
		sp.Join = "left outer"
	}
	// where the outer references may be: the filters, the select, not the
	// aggregate's calls (Spark: AGGREGATE_FUNCTION_MIXED_OUTER_LOCAL_REFERENCES)
	// nor the input
	allowed := map[ir.Rel]bool{}
	for _, f := range sp.Filters {
		allowed[f] = true
	}
	if sp.Project != nil {
		allowed[sp.Project] = true
	}
	for c, r := range outer {
		if !allowed[r] {
			where := "below the subquery's where"
			if r == ir.Rel(sp.Agg) {
				where = "in an aggregate (Spark refuses it too: AGGREGATE_FUNCTION_MIXED_OUTER_LOCAL_REFERENCES)"
			}
			p.refuse(c.Pos, "a correlated reference (%s) %s is not supported yet: correlate the subquery in a where over its input", RefText(c), where)
			return nil
		}
	}
	// the conjuncts: local ones, equality correlations (hash keys), the rest
	for i := len(sp.Filters) - 1; i >= 0; i-- {
		for _, c := range conjuncts(sp.Filters[i].Cond) {
			if !readsOuter(c, outer) {
				sp.Local = append(sp.Local, c)
				continue
			}
			if b, ok := c.(*ir.Binary); ok && (b.Op == ir.OpEq || b.Op == ir.OpEqNullSafe) {
				l, r := b.L, b.R
				if !readsLocal(l, outer) && readsLocal(r, outer) && !readsOuter(r, outer) {
					// outer = inner
				} else if !readsLocal(r, outer) && readsLocal(l, outer) && !readsOuter(l, outer) {
					l, r = r, l
				} else {
					sp.Residual = append(sp.Residual, c)
					continue
				}
				if t, ok := commonType(p.u.Types[l], p.u.Types[r]); ok && t.Kind != ir.TUnknown {
					sp.Keys = append(sp.Keys, JoinKey{L: l, R: r, LCol: -1, RCol: -1, Type: t, NullSafe: b.Op == ir.OpEqNullSafe})
					continue
				}
			}
			sp.Residual = append(sp.Residual, c)
		}
	}
	sp.PerKey = sp.Agg != nil && len(sp.Residual) == 0
	return sp
}

// opName names an operator for a diagnostic.
func opName(r ir.Rel) string {
	switch r.(type) {
	case *ir.Filter:
		return "a where"
	case *ir.Project:
		return "a select"
	case *ir.Aggregate:
		return "an aggregate"
	case *ir.Join:
		return "a join"
	case *ir.Sort:
		return "an order by"
	case *ir.Limit:
		return "a limit"
	case *ir.Scan:
		return "a read"
	}
	return fmt.Sprintf("a %T", r)
}

// subqueryLines are explain's lines of the flow's decorrelated subqueries,
// in source order: the join they run as, its hash keys and residual, and
// the aggregate of a scalar subquery.
func subqueryLines(fp *FlowPlan) []string {
	var xs []ir.Expr
	for x := range fp.Subqueries {
		xs = append(xs, x)
	}
	sort.Slice(xs, func(i, j int) bool {
		a, b := xs[i].Position(), xs[j].Position()
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Offset < b.Offset
	})
	var out []string
	for _, x := range xs {
		sp := fp.Subqueries[x]
		what := "exists"
		switch s := x.(type) {
		case *ir.Exists:
			if s.Not {
				what = "not exists"
			}
		case *ir.InSubquery:
			what = "in"
			if s.Not {
				what = "not in"
			}
		case *ir.ScalarSubquery:
			what = "scalar"
		}
		line := fmt.Sprintf("%s subquery at %s: %s join", what, posText(x.Position()), sp.Join)
		if len(sp.Keys) == 0 {
			line += ", nested loop"
		} else {
			keys := make([]string, len(sp.Keys))
			for i, k := range sp.Keys {
				op := "="
				if k.NullSafe {
					op = "<=>"
				}
				keys[i] = fmt.Sprintf("%s %s %s", exprString(k.L), op, exprString(k.R))
			}
			line += ", hash on " + strings.Join(keys, ", ")
		}
		if len(sp.Residual) > 0 {
			parts := make([]string, len(sp.Residual))
			for i, e := range sp.Residual {
				parts[i] = exprString(e)
			}
			line += "; residual " + strings.Join(parts, " and ")
		}
		switch {
		case sp.PerKey:
			line += fmt.Sprintf("; the aggregate at %s computed per key while building (count over no match is 0)", posText(sp.Agg.Pos))
		case sp.Agg != nil:
			line += fmt.Sprintf("; the aggregate at %s over each outer row's matches (count over none is 0)", posText(sp.Agg.Pos))
		case sp.Join == "left outer":
			line += "; at most one match per outer row (SCALAR_SUBQUERY_TOO_MANY_ROWS)"
		}
		out = append(out, line)
	}
	return out
}
