package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
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
	g.accumulateValues(a, gs, args)
}

// accumulateValues updates the accumulator from its arguments' values
// (of a row read back from a spill file, or evaluated by accumulateArgs).
func (g *flowGen) accumulateValues(a *accum, gs *jen.Statement, args []*value) {
	if a.call.Star {
		g.emit(gs.Clone().Dot(a.field).Op("++"))
		return
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

// Grouping sets (GROUPING SETS, ROLLUP, CUBE).

// groupingSetsRow feeds one input row to every grouping set of n in one
// pass: the keys are computed once, and per set the row's group is looked
// up with the keys outside the set NULL and the set's index as the last
// key field (so that a NULL of the data and a NULL of the set are
// different groups, and a set listed twice gives its groups twice, as
// Spark's Expand does), then its accumulators updated.
func (g *flowGen) groupingSetsRow(n *ir.Aggregate, e *env, accs []*accum, kt *keyType, groups, ht, nullGroup string, nullDecl *local, keyNullable []bool) {
	keys := make([]*value, len(n.Keys))
	for i, k := range n.Keys {
		keys[i] = g.bind(g.genExpr(k.Expr, e), "key")
	}
	for si, s := range n.Sets {
		vals := make([]*value, len(n.Keys)+1)
		for i, k := range n.Keys {
			vals[i] = &value{t: g.typeOf(k.Expr), null: true}
		}
		for _, k := range s {
			vals[k] = keys[k]
		}
		vals[len(n.Keys)] = &value{t: ir.Int64, v: jen.Int64().Call(jen.Lit(si))}
		g.emit(jen.Commentf("grouping set %d (grouping id %d)", si, passes.GroupingSetID(n, s)))
		body := g.sub(func() {
			gi := g.groupLookup(kt, groups, ht, nullGroup, nullDecl, vals, keyNullable, nil)
			gs := g.declare([]string{g.name("gs")}, jen.Op("&").Id(groups).Index(jen.Id(gi)))[0]
			for _, a := range accs {
				g.genAccumulate(a, use(gs), e)
			}
		})
		g.emit(jen.Block(body...))
	}
}

// groupingCalls adds to ae the values of n's grouping(x) and
// grouping_id(...) calls for the group gs: from its set's grouping id, by
// the set's index, the last key field (grouping(x) is the key's bit, the
// first key the most significant; Spark's tinyint and bigint).
func (g *flowGen) groupingCalls(n *ir.Aggregate, ae *aggEnv, gs *jen.Statement) {
	ids := make([]jen.Code, len(n.Sets))
	for i, s := range n.Sets {
		ids[i] = jen.Lit(passes.GroupingSetID(n, s))
	}
	id := jen.Index(jen.Lit(len(n.Sets))).Int64().Values(ids...).Index(gs.Clone().Dot(fmt.Sprintf("k%d", len(n.Keys))))
	for _, it := range n.Aggs {
		ir.WalkExpr(it.Expr, func(x ir.Expr) bool {
			call, ok := x.(*ir.Call)
			if !ok {
				return true
			}
			switch g.fn(call).Name {
			case "grouping":
				k := g.u.GroupingKey(n, call.Args[0])
				if k < 0 {
					g.unplanned(call.Pos, "grouping of an expression that is not a key")
					return false
				}
				shift := len(n.Keys) - 1 - k
				ae.calls[call] = constColumn(plainValue(ir.Int8, jen.Int8().Call(jen.Parens(id.Clone().Op(">>").Lit(shift)).Op("&").Lit(1))))
				return false
			case "grouping_id":
				ae.calls[call] = constColumn(plainValue(ir.Int64, id.Clone()))
				return false
			}
			return true
		})
	}
}
