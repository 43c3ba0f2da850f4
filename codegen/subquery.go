package codegen

import (
	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// inSet is the hash set of an uncorrelated IN subquery's values.
type inSet struct {
	set     string // map of the values
	hasNull string // the subquery returned a NULL
	any     string // the subquery returned a row
	kt      *keyType
	t       ir.Type // the type values are compared in
}

// genSubqueries computes every uncorrelated subquery of the flow once,
// before the flow's main pipelines (innermost first): a scalar subquery
// into a value (more than one row is Spark's SCALAR_SUBQUERY_TOO_MANY_ROWS
// error, none is NULL), an IN subquery into a hash set.
func (g *flowGen) genSubqueries() {
	var list []ir.Expr
	var walk func(r ir.Rel)
	walk = func(r ir.Rel) {
		for _, e := range ir.RelExprs(r) {
			ir.WalkExpr(e, func(x ir.Expr) bool {
				if g.plan.Subqueries[x] != nil {
					// correlated: its build side, then probes (decorrelate.go)
					walk(ir.SubqueryQuery(x))
					list = append(list, x)
					return true
				}
				switch s := x.(type) {
				case *ir.ScalarSubquery:
					walk(s.Query)
					list = append(list, s)
				case *ir.InSubquery:
					walk(s.Query)
					list = append(list, s)
				}
				return true
			})
		}
		for _, in := range ir.RelInputs(r) {
			walk(in)
		}
	}
	walk(g.flow.Query)
	for _, e := range list {
		if sp := g.plan.Subqueries[e]; sp != nil {
			g.genCorrelatedBuild(e, sp)
			continue
		}
		switch s := e.(type) {
		case *ir.ScalarSubquery:
			g.genScalarSubquery(s)
		case *ir.InSubquery:
			g.genInSubquerySet(s)
		}
	}
}

// genScalarSubquery computes a scalar subquery's value.
func (g *flowGen) genScalarSubquery(s *ir.ScalarSubquery) {
	if passes.Streaming(s.Query) {
		g.refuseStreamSubquery(s.Pos, "a scalar subquery")
		return
	}
	t := g.typeOf(s)
	vn := g.name("sq")
	x := &value{t: t, v: jen.Id(vn), ok: jen.Id(vn + "ok")}
	g.emit(jen.Commentf("scalar subquery at %s", posText(s.Pos)))
	if t.Kind == ir.TUnknown {
		g.subq[s] = nullValue(t)
		return
	}
	x.vl = g.declareVar(vn, goType(t))
	x.okl = g.declare([]string{vn + "ok"}, jen.False())[0]
	rows := g.declare([]string{vn + "rows"}, jen.Lit(0))[0]
	rows.used = true
	g.produce(s.Query, func(r *row) {
		v := g.coerce(g.col(r.cols[0]), t, s.Pos)
		g.emit(jen.If(jen.Id(vn+"rows").Op(">").Lit(0)).Block(jen.Return(jen.Qual(etlPkg, "TooManyRows").Call(jen.Lit(posText(s.Pos)), jen.Lit(g.flow.Name)))),
			jen.Id(vn+"rows").Op("++"))
		if !v.null {
			g.emit(jen.List(jen.Id(vn), jen.Id(vn+"ok")).Op("=").List(cloneValue(t, V(v)), OK(v)))
		}
	})
	g.subq[s] = x
}

// genInSubquerySet computes the hash set of an IN subquery.
func (g *flowGen) genInSubquerySet(s *ir.InSubquery) {
	if passes.Streaming(s.Query) {
		g.refuseStreamSubquery(s.Pos, "an in subquery")
		return
	}
	qt := g.u.Schemas[s.Query].Visible()[0].Type
	t, ok := commonType(g.typeOf(s.X), qt)
	if !ok {
		panic("in subquery without a common type")
	}
	is := &inSet{set: g.name("inset"), t: t}
	is.hasNull, is.any = is.set+"null", is.set+"any"
	is.kt = g.newKeyType("in", []ir.Type{t}, false)
	g.emit(jen.Commentf("in subquery at %s", posText(s.Pos)),
		jen.Id(is.set).Op(":=").Map(is.kt.goType()).Struct().Values(),
		jen.List(jen.Id(is.hasNull), jen.Id(is.any)).Op(":=").List(jen.False(), jen.False()))
	g.produce(s.Query, func(r *row) {
		v := g.coerce(g.col(r.cols[0]), t, s.Pos)
		g.emit(jen.Id(is.any).Op("=").True())
		if v.null {
			g.emit(jen.Id(is.hasNull).Op("=").True())
			return
		}
		key, ok := is.kt.buildOK(g, []*value{v}, []bool{false})
		ins := jen.Id(is.set).Index(is.kt.cloned(g, key)).Op("=").Struct().Values()
		if ok != nil {
			g.emit(jen.If(ok).Block(ins).Else().Block(jen.Id(is.hasNull).Op("=").True()))
		} else {
			g.emit(ins)
		}
	})
	g.inSets[s] = is
}

// genInSubquery is x [NOT] IN (subquery) with Spark's rules: FALSE over an
// empty subquery (even for a NULL x); else NULL for a NULL x; TRUE when x
// is in the set; else NULL when the subquery returned a NULL, else FALSE.
func (g *flowGen) genInSubquery(e *ir.InSubquery, en *env) *value {
	is := g.inSets[e]
	if is == nil {
		return nullValue(ir.Bool)
	}
	x := g.coerce(g.genExpr(e.X, en), is.t, e.Pos)
	vn := g.name("in")
	okn := vn + "ok"
	res := &value{t: ir.Bool, v: jen.Id(vn), ok: jen.Id(okn)}
	res.vl = g.declare([]string{vn}, jen.False())[0]
	res.okl = g.declare([]string{okn}, jen.True())[0]
	var body []jen.Code
	if x.null {
		body = []jen.Code{jen.Id(okn).Op("=").False()}
	} else {
		key, ok := is.kt.buildOK(g, []*value{x}, []bool{false})
		lookup := jen.If(jen.List(jen.Id("_"), jen.Id("hit")).Op(":=").Id(is.set).Index(key), jen.Id("hit")).Block(
			jen.Id(vn).Op("=").True()).Else().If(jen.Id(is.hasNull)).Block(jen.Id(okn).Op("=").False())
		if ok != nil {
			body = []jen.Code{jen.If(jen.Op("!").Add(ok)).Block(jen.Id(okn).Op("=").False()).Else().Add(lookup)}
		} else {
			body = []jen.Code{lookup}
		}
	}
	g.emit(jen.If(jen.Id(is.any)).Block(body...))
	if e.Not {
		return g.not(res, e.Pos)
	}
	return res
}

// refuseStreamSubquery refuses a subquery that reads a stream. Unlike
// refuseStreaming it does not point at Spark, which refuses a stream read
// in a subquery expression too.
func (g *flowGen) refuseStreamSubquery(pos ir.Pos, what string) {
	g.unplanned(pos, "%s over a stream", what)
}
