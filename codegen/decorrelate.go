package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// Correlated subqueries (EXISTS, IN, scalar), printed from their
// decorrelated plan (passes.SubqueryPlan): the subquery's uncorrelated
// input is built once, before the flow's pipelines, into a slice of
// generated structs (its needed columns) indexed by the equality
// correlations' values (a Go map from the key to the rows' indexes; a NULL
// key never matches); each outer row then probes it with its own key
// values and tests the residual per candidate, as a hash join's probe does.

// corrBuild is the build side of one correlated subquery.
type corrBuild struct {
	sp      *passes.SubqueryPlan
	rows    string // the slice of stored rows
	index   string // the map from key to row indexes ("" without keys)
	kt      *keyType
	stored  []bool // the input's columns stored
	nullOK  []bool // ... and which of them can be NULL
	aggSt   *structDecl
	accs    []*accum
	inT     ir.Type // IN: the type values are compared in
	scalarT ir.Type
}

// genCorrelatedBuild builds a correlated subquery's input: rows that pass
// the local conjuncts, keyed by the correlation keys' subquery side.
func (g *flowGen) genCorrelatedBuild(x ir.Expr, sp *passes.SubqueryPlan) {
	cb := &corrBuild{sp: sp}
	schema := g.u.Schemas[sp.Input]
	need := g.plan.Need[sp.Input]
	cb.stored = make([]bool, len(schema))
	cb.nullOK = make([]bool, len(schema))
	st := g.newStruct("corrRow", "is one row of a correlated subquery's input (its build side).")
	g.emit(jen.Commentf("correlated subquery at %s: build its input (%s join)", posText(x.Position()), sp.Join))
	if !sp.PerKey {
		cb.rows = g.name("corr")
		g.emit(jen.Id(cb.rows).Op(":=").Index().Id(st.name).Values())
	}
	nullSafe := make([]bool, len(sp.Keys))
	if len(sp.Keys) > 0 {
		types := make([]ir.Type, len(sp.Keys))
		force := false
		for i, k := range sp.Keys {
			types[i], nullSafe[i] = k.Type, k.NullSafe
			force = force || k.NullSafe
		}
		cb.kt = g.newKeyType("corr", types, force)
		cb.index = g.name("corrIndex")
		if sp.PerKey {
			g.emit(jen.Id(cb.index).Op(":=").Map(cb.kt.goType()).Int32().Values()) // key → its state
		} else {
			g.emit(jen.Id(cb.index).Op(":=").Map(cb.kt.goType()).Index().Int32().Values())
		}
	}
	if in, ok := x.(*ir.InSubquery); ok {
		qt := g.u.Schemas[in.Query].Visible()[0].Type
		t, ok := commonType(g.typeOf(in.X), qt)
		if !ok {
			g.unplanned(in.Pos, "in subquery without a common type")
			return
		}
		cb.inT = t
	}
	if sp.Agg != nil {
		cb.aggSt = g.newStruct("corrAgg", "is the aggregate state of one outer row's correlated subquery.")
		for i, call := range g.u.AggCalls[sp.Agg] {
			a := &accum{call: call, name: g.fn(call).Name, field: fmt.Sprintf("a%d", i), resT: g.typeOf(call)}
			if len(call.Args) > 0 {
				a.argT = g.typeOf(call.Args[0])
			}
			if !g.planAccum(cb.aggSt, a) {
				return
			}
			cb.accs = append(cb.accs, a)
		}
	}
	mem := g.newMemAccount(fmt.Sprintf("correlated subquery at %s (its build side)", posText(x.Position())))
	if sp.PerKey {
		g.genCorrelatedAggBuild(x, cb, nullSafe, mem)
		g.corr[x] = cb
		return
	}
	g.produce(sp.Input, func(r *row) {
		e := cb.env(nil, r)
		g.skipUnless(sp.Local, e)
		var kvals []*value
		for _, k := range sp.Keys {
			kvals = append(kvals, g.coerce(g.genExpr(k.R, e), k.Type, x.Position()))
		}
		g.emit(jen.Id(cb.rows).Op("=").Append(jen.Id(cb.rows), jen.Id(st.name).Values()))
		rw := g.declare([]string{g.name("rw")}, jen.Op("&").Id(cb.rows).Index(jen.Len(jen.Id(cb.rows)).Op("-").Lit(1)))[0]
		var strs []jen.Code
		for j := range schema {
			if j >= len(need) || !need[j] || r.cols[j] == nil {
				continue
			}
			v := g.col(r.cols[j])
			f := fmt.Sprintf("c%d", j)
			st.add(f, goType(v.t))
			st.add(f+"ok", jen.Bool())
			cb.stored[j] = true
			set := []jen.Code{use(rw).Dot(f).Op("=").Add(cloneValue(v.t, V0(v))), use(rw).Dot(f + "ok").Op("=").True()}
			switch {
			case v.null:
				cb.nullOK[j] = true
			case v.nullable():
				cb.nullOK[j] = true
				g.emit(jen.If(OK(v)).Block(set...))
			default:
				g.emit(set...)
			}
			if k := v.t.Kind; k == ir.TString || k == ir.TBinary {
				strs = append(strs, use(rw).Dot(f))
			}
		}
		mem.add(g, jen.Id(st.name).Values(), strs)
		if cb.kt == nil {
			return
		}
		key, ok := cb.kt.buildOK(g, kvals, nullSafe)
		ins := jen.Id(cb.index).Index(cb.kt.cloned(g, key)).Op("=").Append(jen.Id(cb.index).Index(key), jen.Int32().Call(jen.Len(jen.Id(cb.rows)).Op("-").Lit(1)))
		if ok != nil {
			g.emit(jen.If(ok).Block(ins))
		} else {
			g.emit(ins)
		}
	})
	g.corr[x] = cb
}

// genCorrelatedAggBuild computes a scalar subquery's aggregate per key
// of its equality correlations while building (its plan's PerKey: no
// residual, so the aggregate depends on the key alone), as Spark
// aggregates below the join: a slice of states indexed by the key.
func (g *flowGen) genCorrelatedAggBuild(x ir.Expr, cb *corrBuild, nullSafe []bool, mem *memAccount) {
	sp := cb.sp
	cb.rows = g.name("corrStates")
	g.emit(jen.Id(cb.rows).Op(":=").Index().Id(cb.aggSt.name).Values())
	if cb.kt == nil {
		// no key: one state (its correlation is in the select over the aggregate)
		g.emit(jen.Id(cb.rows).Op("=").Append(jen.Id(cb.rows), jen.Id(cb.aggSt.name).Values()))
	}
	g.produce(sp.Input, func(r *row) {
		e := cb.env(nil, r)
		g.skipUnless(sp.Local, e)
		gi := g.name("gi")
		if cb.kt == nil {
			g.emit(jen.Id(gi).Op(":=").Lit(0))
		} else {
			var kvals []*value
			for _, k := range sp.Keys {
				kvals = append(kvals, g.coerce(g.genExpr(k.R, e), k.Type, x.Position()))
			}
			key, ok := cb.kt.buildOK(g, kvals, nullSafe)
			if ok != nil {
				g.emit(jen.If(jen.Op("!").Parens(ok)).Block(g.skipStmt())) // a NULL key matches no outer row
			}
			newKey := g.sub(func() {
				g.emit(jen.Id(gi).Op("=").Int32().Call(jen.Len(jen.Id(cb.rows))),
					jen.Id(cb.rows).Op("=").Append(jen.Id(cb.rows), jen.Id(cb.aggSt.name).Values()),
					jen.Id(cb.index).Index(cb.kt.cloned(g, key)).Op("=").Id(gi))
				mem.add(g, jen.Id(cb.aggSt.name).Values(), nil)
			})
			g.emit(jen.List(jen.Id(gi), jen.Id("found")).Op(":=").Id(cb.index).Index(key),
				jen.If(jen.Op("!").Id("found")).Block(newKey...))
		}
		gs := g.declare([]string{g.name("gs")}, jen.Op("&").Id(cb.rows).Index(jen.Id(gi)))[0]
		for _, a := range cb.accs {
			g.genAccumulate(a, use(gs), e)
		}
	})
}

// env is the scope of the subquery's operators over one stored (or, while
// building, produced) row of its input, inside the outer scope (nil while
// building).
func (cb *corrBuild) env(outer *env, r *row) *env {
	e := &env{rows: map[ir.Rel]*row{cb.sp.Input: r}}
	if outer != nil {
		for k, v := range outer.rows {
			e.rows[k] = v
		}
		e.agg = outer.agg
		e.rows[cb.sp.Input] = r
	}
	for _, f := range cb.sp.Filters {
		e.rows[f] = r
	}
	return e
}

// storedRow is the input's row read from stored row rw.
func (cb *corrBuild) storedRow(g *flowGen, rw *local) *row {
	schema := g.u.Schemas[cb.sp.Input]
	out := &row{cols: make([]*column, len(schema))}
	for j, f := range schema {
		if !cb.stored[j] {
			continue
		}
		j, t := j, f.Type
		out.cols[j] = &column{t: t, load: func() *value {
			v := &value{t: t, v: use(rw).Dot(fmt.Sprintf("c%d", j))}
			if cb.nullOK[j] {
				v.ok = use(rw).Dot(fmt.Sprintf("c%dok", j))
			}
			return v
		}}
	}
	return out
}

// genCorrelated is a correlated subquery's value for the outer row in en:
// the candidates are the stored rows of the outer row's key (all rows
// without keys) that pass the residual.
func (g *flowGen) genCorrelated(x ir.Expr, en *env) *value {
	cb := g.corr[x]
	if cb == nil {
		g.unplanned(x.Position(), "correlated subquery without a build side")
		return nullValue(g.typeOf(x))
	}
	sp := cb.sp
	pos := x.Position()
	g.emit(jen.Commentf("correlated subquery at %s: probe (%s join)", posText(pos), sp.Join))
	// forEach generates the loop over the candidates; body returns the
	// statements for one that passed the residual
	forEach := func(body func(e *env) []jen.Code) {
		var kvals []*value
		for _, k := range sp.Keys {
			kvals = append(kvals, g.coerce(g.genExpr(k.L, en), k.Type, pos))
		}
		j := g.name("j")
		rwName := g.name("rw")
		rw := &local{name: rwName}
		rwDecl := jen.Id(rwName).Op(":=").Op("&").Id(cb.rows).Index(jen.Id(j))
		rw.decl = rwDecl
		g.locals = append(g.locals, rw)
		inner := g.sub(func() {
			e := cb.env(en, cb.storedRow(g, rw))
			for _, c := range sp.Residual {
				g.emit(jen.If(jen.Op("!").Parens(truth(g.genExpr(c, e)))).Block(jen.Continue()))
			}
			g.emit(body(e)...)
		})
		loopBody := append([]jen.Code{rwDecl}, inner...)
		if cb.kt == nil {
			g.emit(jen.For(jen.Id(j).Op(":=").Range().Id(cb.rows)).Block(loopBody...))
			return
		}
		nullSafe := make([]bool, len(sp.Keys))
		for i, k := range sp.Keys {
			nullSafe[i] = k.NullSafe
		}
		key, ok := cb.kt.buildOK(g, kvals, nullSafe)
		lookup := jen.For(jen.List(jen.Id("_"), jen.Id(j)).Op(":=").Range().Id(cb.index).Index(key)).Block(loopBody...)
		if ok != nil {
			g.emit(jen.If(ok).Block(lookup))
		} else {
			g.emit(lookup)
		}
	}
	switch s := x.(type) {
	case *ir.Exists:
		found := g.name("exists")
		g.declare([]string{found}, jen.False())[0].used = true
		forEach(func(*env) []jen.Code { return []jen.Code{jen.Id(found).Op("=").True(), jen.Break()} })
		res := &value{t: ir.Bool, v: jen.Id(found)}
		if s.Not {
			return g.not(res, pos)
		}
		return res
	case *ir.InSubquery:
		return g.genCorrelatedIn(s, cb, en, forEach)
	}
	return g.genCorrelatedScalar(x.(*ir.ScalarSubquery), cb, en, forEach)
}

// subqueryValue is the value of the subquery's one column for a candidate
// in e: its select's item, else its input's one visible column.
func (g *flowGen) subqueryValue(cb *corrBuild, e *env) *value {
	if p := cb.sp.Project; p != nil {
		return g.projectedValue(p, e)
	}
	schema := g.u.Schemas[cb.sp.Input]
	for j, f := range schema {
		if !f.Hidden {
			return g.col(e.rows[cb.sp.Input].cols[j])
		}
	}
	panic("codegen: a subquery without a column")
}

// projectedValue is the one visible column of a subquery's select: its
// item's expression, or for a * item, the input's column.
func (g *flowGen) projectedValue(p *ir.Project, e *env) *value {
	for i, f := range g.u.Schemas[p] {
		if f.Hidden {
			continue
		}
		pc := g.u.Projections[p][i]
		if pc.InputIndex >= 0 {
			return g.col(e.rows[p.Input].cols[pc.InputIndex])
		}
		return g.genExpr(p.Items[pc.Item].Expr, e)
	}
	panic("codegen: a subquery's select without a column")
}

// genCorrelatedIn is x [NOT] IN (correlated query), Spark's three-valued
// IN over the outer row's candidates: FALSE when there are none (even for
// a NULL x); TRUE when one equals x; else NULL when x or a candidate's
// value is NULL; else FALSE. NOT IN is its negation (a null-aware anti
// join).
func (g *flowGen) genCorrelatedIn(s *ir.InSubquery, cb *corrBuild, en *env, forEach func(func(*env) []jen.Code)) *value {
	x := g.bind(g.coerce(g.genExpr(s.X, en), cb.inT, s.Pos), "inx")
	vn := g.name("in")
	any, sawNull := vn+"any", vn+"null"
	g.declare([]string{vn, any, sawNull}, jen.List(jen.False(), jen.False(), jen.False()))
	for _, l := range g.locals[len(g.locals)-3:] {
		l.used = true
	}
	forEach(func(e *env) []jen.Code {
		return g.sub(func() {
			g.emit(jen.Id(any).Op("=").True())
			v := g.coerce(g.subqueryValue(cb, e), cb.inT, s.Pos)
			if v.null || x.null {
				g.emit(jen.Id(sawNull).Op("=").True())
				return
			}
			eq := g.genCompare(ir.OpEq, x, v, s.Pos)
			g.emit(jen.If(jen.Op("!").Parens(OK(x)).Op("||").Op("!").Parens(OK(v))).Block(
				jen.Id(sawNull).Op("=").True(), jen.Continue()))
			g.emit(jen.If(truth(eq)).Block(jen.Id(vn).Op("=").True(), jen.Break()))
		})
	})
	// NULL: candidates, no match, and a NULL on either side
	res := &value{t: ir.Bool, v: jen.Id(vn), ok: jen.Id(vn).Op("||").Op("!").Id(any).Op("||").Op("!").Id(sawNull)}
	res = g.bind(res, "in")
	if s.Not {
		return g.not(res, s.Pos)
	}
	return res
}

// genCorrelatedScalar is a correlated scalar subquery's value for the
// outer row: over a global aggregate, the aggregate of the candidates
// (none: count 0, the rest NULL); else the one candidate's value, NULL for
// none, and Spark's SCALAR_SUBQUERY_TOO_MANY_ROWS for more than one.
func (g *flowGen) genCorrelatedScalar(s *ir.ScalarSubquery, cb *corrBuild, en *env, forEach func(func(*env) []jen.Code)) *value {
	sp := cb.sp
	t := g.typeOf(s)
	if sp.Agg != nil {
		gs := g.declareVar(g.name("corrgs"), jen.Id(cb.aggSt.name))
		switch {
		case sp.PerKey && cb.kt == nil:
			g.emit(use(gs).Op("=").Id(cb.rows).Index(jen.Lit(0)))
		case sp.PerKey:
			// the key's state, computed while building; none: no match
			var kvals []*value
			nullSafe := make([]bool, len(sp.Keys))
			for i, k := range sp.Keys {
				kvals = append(kvals, g.coerce(g.genExpr(k.L, en), k.Type, s.Pos))
				nullSafe[i] = k.NullSafe
			}
			key, ok := cb.kt.buildOK(g, kvals, nullSafe)
			lookup := jen.If(jen.List(jen.Id("gi"), jen.Id("found")).Op(":=").Id(cb.index).Index(key), jen.Id("found")).Block(
				use(gs).Op("=").Id(cb.rows).Index(jen.Id("gi")))
			if ok != nil {
				g.emit(jen.If(ok).Block(lookup))
			} else {
				g.emit(lookup)
			}
		default:
			forEach(func(e *env) []jen.Code {
				return g.sub(func() {
					for _, a := range cb.accs {
						g.genAccumulate(a, use(gs), e)
					}
				})
			})
		}
		schema := g.u.Schemas[sp.Agg]
		o := &row{cols: make([]*column, len(schema))}
		g.aggResults(sp.Agg, o, &aggEnv{calls: map[*ir.Call]*column{}}, cb.accs, func() *jen.Statement { return use(gs) })
		var v *value
		if sp.Project != nil {
			e := &env{rows: map[ir.Rel]*row{sp.Agg: o}}
			for k, r := range en.rows {
				if _, ok := e.rows[k]; !ok {
					e.rows[k] = r
				}
			}
			v = g.projectedValue(sp.Project, e)
		} else {
			for j, f := range schema {
				if !f.Hidden {
					v = g.col(o.cols[j])
					break
				}
			}
		}
		return g.bind(g.coerce(v, t, s.Pos), "sq")
	}
	vn := g.name("sq")
	x := &value{t: t, v: jen.Id(vn), ok: jen.Id(vn + "ok")}
	x.vl = g.declareVar(vn, goType(t))
	x.okl = g.declare([]string{vn + "ok"}, jen.False())[0]
	n := g.declare([]string{vn + "rows"}, jen.Lit(0))[0]
	n.used = true
	forEach(func(e *env) []jen.Code {
		return g.sub(func() {
			g.emit(jen.If(jen.Id(vn+"rows").Op(">").Lit(0)).Block(jen.Return(jen.Qual(etlPkg, "TooManyRows").Call(jen.Lit(posText(s.Pos)), jen.Lit(g.flow.Name)))),
				jen.Id(vn+"rows").Op("++"))
			v := g.coerce(g.subqueryValue(cb, e), t, s.Pos)
			if !v.null {
				g.emit(jen.List(jen.Id(vn), jen.Id(vn+"ok")).Op("=").List(V(v), OK(v)))
			}
		})
	})
	return x
}

// skipUnless skips the row unless every condition holds (a constant TRUE
// is left out).
func (g *flowGen) skipUnless(conds []ir.Expr, e *env) {
	for _, c := range conds {
		v := g.genExpr(c, e)
		if v.k != nil && v.k.b && !v.null {
			continue
		}
		g.emit(jen.If(jen.Op("!").Parens(truth(v))).Block(g.skipStmt()))
	}
}
