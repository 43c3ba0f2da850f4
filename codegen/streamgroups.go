package codegen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// genStreamGroups generates an aggregate over stream reads without an
// event-time window, in output mode update or complete (rt/stream.Groups):
// each row's group accumulates it; at the end of the micro-batch the
// groups it changed are upserted into the target by their key, as change
// rows of an SCD type 1 change flow (update), or every group is written,
// replacing the table (complete). The groups are the flow's state,
// restored from the last commit and handed back with it.
func (g *flowGen) genStreamGroups(n *ir.Aggregate, c consumer) {
	sf := g.st
	sf.ops++
	complete := g.fi.Emission == passes.EmissionComplete
	if !complete && g.fi.Emission != passes.EmissionUpdate {
		g.unplanned(n.Pos, "an aggregate over a stream in append mode needs an event-time window under it")
		return
	}
	if complete {
		g.extra(g.flow).complete = true
	}
	acc, accs, ok := g.streamAccums(n, false, "holds the accumulators of one group.")
	if !ok {
		return
	}
	key := g.newStruct("streamKey", "is the group key of an aggregate over a stream.")
	keyTypes := make([]ir.Type, len(n.Keys))
	for i, k := range n.Keys {
		keyTypes[i] = g.typeOf(k.Expr)
		switch keyTypes[i].Kind {
		case ir.TDecimal, ir.TBinary:
			g.unplanned(k.Pos, "a group key of type %s over a stream is not supported yet", keyTypes[i])
			return
		}
		key.add(fmt.Sprintf("K%d", i), goType(keyTypes[i]))
		key.add(fmt.Sprintf("K%dok", i), jen.Bool())
	}
	if len(key.fields) == 0 {
		key.add("None", jen.Bool())
	}

	gs := g.name("groups")
	g.prelude = append(g.prelude,
		jen.Commentf("the groups of the aggregate at %s (rt/stream.Groups)", posText(n.Pos)),
		jen.Id(gs).Op(":=").Qual(streamPkg, "NewGroups").Types(jen.Id(key.name), jen.Id(acc.name)).Call())
	field := fmt.Sprintf("G%d", sf.ops-1)
	sf.addState(field, jen.Qual(streamPkg, "GroupsSnapshot").Types(jen.Id(key.name), jen.Id(acc.name)), gs, "Restore", "Snapshot", "groups")
	mode := "update"
	if complete {
		mode = "complete"
	}
	var shape strings.Builder
	fmt.Fprintf(&shape, "%s: groups mode %s; key", field, mode)
	for _, t := range keyTypes {
		fmt.Fprintf(&shape, " %s", t)
	}
	accShape(&shape, accs, acc)
	sf.shape = append(sf.shape, shape.String())

	keyNullable := make([]bool, len(n.Keys))
	mem := g.newMemHold(fmt.Sprintf("group by at %s (its groups)", posText(n.Pos)))
	g.produce(n.Input, func(r *row) {
		e := g.envOf(n.Input, r)
		kd := jen.Dict{}
		for i, k := range n.Keys {
			x := normalized(g.bind(g.genExpr(k.Expr, e), "key"))
			if x.nullable() {
				keyNullable[i] = true
			}
			if !x.null {
				kd[jen.Id(fmt.Sprintf("K%d", i))] = cloneValue(x.t, V(x))
			}
			kd[jen.Id(fmt.Sprintf("K%dok", i))] = OK(x)
		}
		sa := g.name("sa")
		g.emit(jen.Id(sa).Op(":=").Id(gs).Dot("Assign").Call(jen.Id(key.name).Values(kd)))
		mem.hold(g, jen.Id(gs).Dot("Len").Call(),
			jen.Qual(unsafePkg, "Sizeof").Call(jen.Id(key.name).Values()).Op("+").Qual(unsafePkg, "Sizeof").Call(jen.Id(acc.name).Values()))
		for _, a := range accs {
			g.genAccumulate(a, jen.Id(sa), e)
		}
	})

	// the micro-batch ends: advance the watermark (no window closes), emit
	g.emit(jen.Id("fc").Dot("Late").Call(jen.Id(sf.nlate)),
		jen.Id(sf.tracker).Dot("Advance").Call())
	schema := g.u.Schemas[n]
	out := func(rw jen.Code) {
		ae := &aggEnv{calls: map[*ir.Call]*column{}}
		o := &row{cols: make([]*column, len(schema))}
		for i, k := range n.Keys {
			x := &value{t: keyTypes[i], v: jen.Add(rw).Dot("Key").Dot(fmt.Sprintf("K%d", i))}
			if keyNullable[i] {
				x.ok = jen.Add(rw).Dot("Key").Dot(fmt.Sprintf("K%dok", i))
			}
			col := constColumn(x)
			ae.keys = append(ae.keys, k.Expr)
			ae.keyVals = append(ae.keyVals, col)
			o.cols[i] = col
		}
		g.aggResults(n, o, ae, accs, func() *jen.Statement { return jen.Add(rw).Dot("Acc") })
		c(o)
	}
	ri, ci := g.name("r"), g.name("ci")
	if complete || g.target.Kind == ir.KindSink {
		ci = "_"
	}
	list := jen.Id(gs).Dot("Changes").Call()
	if complete {
		list = jen.Id(gs).Dot("All").Call()
	}
	seq := !complete && g.target.Kind != ir.KindSink // change rows carry a sequence
	body := g.loop(func() {
		if seq {
			sf.chSeq = jen.Id("fc").Dot("Epoch").Call().Op("<<").Lit(32).Op("|").Int64().Call(jen.Id(ci))
			sf.chDel = jen.False()
		}
		out(jen.Id(ri))
	})
	if complete {
		g.emit(jen.Id("_").Op("=").Id(gs).Dot("Changes").Call()) // the micro-batch's changes are in the whole result
	}
	g.emit(jen.Commentf("the groups of the aggregate at %s: %s", posText(n.Pos), mode),
		jen.For(jen.List(jen.Id(ci), jen.Id(ri)).Op(":=").Range().Add(list)).Block(body...))
}
