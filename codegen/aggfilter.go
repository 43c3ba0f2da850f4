package codegen

import (
	"github.com/dave/jennifer/jen"
)

// Aggregate FILTER (WHERE ...) and sum/avg(DISTINCT ...).

// genAccumulate generates the update of one accumulator for the current row
// (gs points at the group's state). An aggregate's FILTER is evaluated
// first, and the arguments only for the rows it passes (as Spark's
// aggregate evaluates them: a row filtered out raises no error of its
// arguments). sum and avg of DISTINCT values keep the values seen in a set
// in front of the accumulator, which sees each value once.
func (g *flowGen) genAccumulate(a *accum, gs *jen.Statement, e *env) {
	if a.call.Filter == nil {
		g.accumulateArgs(a, gs, e)
		return
	}
	cond := g.genExpr(a.call.Filter, e)
	if cond.null || cond.k != nil && !cond.k.b {
		return // never true: the accumulator keeps its initial state
	}
	body := g.sub(func() { g.accumulateArgs(a, gs, e) })
	g.emit(jen.If(truth(cond)).Block(body...))
}

// accumulateArgs evaluates the call's arguments and updates its
// accumulator.
func (g *flowGen) accumulateArgs(a *accum, gs *jen.Statement, e *env) {
	if a.call.Star {
		g.emit(gs.Clone().Dot(a.field).Op("++"))
		return
	}
	args := make([]*value, len(a.call.Args))
	for i, x := range a.call.Args {
		args[i] = g.genExpr(x, e)
	}
	if a.distinct == nil || a.name == "count" {
		g.accumulate(a, gs, args)
		return
	}
	// sum/avg(distinct x): NULL is never summed; a value is summed the
	// first time it is seen (floats by their normalized bits: -0.0 is 0.0
	// and NaN is one value, as Spark's distinct aggregate groups them)
	x := args[0]
	if x.null {
		return
	}
	x = g.bind(x, "dv")
	set := gs.Clone().Dot(a.field + "d")
	key, ok := a.distinct.buildOK(g, []*value{x}, []bool{false})
	ins := g.sub(func() {
		g.emit(jen.If(set.Clone().Op("==").Nil()).Block(set.Clone().Op("=").Map(a.distinct.goType()).Struct().Values()))
		add := g.sub(func() {
			g.emit(set.Clone().Index(a.distinct.cloned(g, key)).Op("=").Struct().Values())
			g.accumulate(a, gs, []*value{x})
		})
		g.emit(jen.If(jen.List(jen.Id("_"), jen.Id("dup")).Op(":=").Add(set.Clone()).Index(key), jen.Op("!").Id("dup")).Block(add...))
	})
	if ok != nil {
		g.emit(jen.If(ok).Block(ins...))
	} else {
		g.emit(ins...)
	}
}
