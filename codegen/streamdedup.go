package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
)

// genStreamDedup generates a distinct within watermark over a stream
// (Spark's dropDuplicatesWithinWatermark; rt/stream.Dedup): each row's key
// (the listed columns, or every column) and event time go to the state,
// which passes on the first row of a key it does not hold and holds the key
// until the watermark reaches its event time plus the delay; a duplicate is
// dropped, a late row (at or below the watermark) dropped, counted and
// written to the flow's late table, if any. At the end of the micro-batch
// the watermark advances and the keys it reached are dropped. The held keys
// are the flow's state, restored from the last commit and handed back with
// it.
func (g *flowGen) genStreamDedup(n *ir.Distinct, c consumer) {
	sf := g.st
	if sf == nil || g.plan.Stream.Dedup == nil || g.plan.Stream.Dedup.Distinct != n {
		g.unplanned(n.Pos, "a distinct within watermark the stream plan does not hold")
		return
	}
	dp := g.plan.Stream.Dedup
	sf.ops++
	in := g.u.Schemas[n.Input]
	key := g.newStruct("dedupKey", "is the key of a distinct within watermark.")
	conv := make([]func(jen.Code) jen.Code, len(dp.Keys))
	for i, j := range dp.Keys {
		var typ jen.Code
		typ, conv[i] = dedupKeyField(in[j].Type)
		key.add(fmt.Sprintf("K%d", i), typ)
		key.add(fmt.Sprintf("K%dok", i), jen.Bool())
	}

	dd := g.name("dedup")
	grain := msGrain(sf.unit)
	g.prelude = append(g.prelude,
		jen.Commentf("the keys of the distinct within watermark at %s (rt/stream.Dedup), held for %d units", posText(n.Pos), dp.Delay),
		jen.List(jen.Id(dd), jen.Id(dd+"Err")).Op(":=").Qual(streamPkg, "NewDedup").Types(jen.Id(key.name)).Call(jen.Lit(dp.Delay), jen.Lit(sf.lateness), jen.Lit(grain)),
		jen.If(jen.Id(dd+"Err").Op("!=").Nil()).Block(jen.Return(jen.Id(dd+"Err"))))
	field := fmt.Sprintf("D%d", sf.ops-1)
	sf.addState(field, jen.Qual(streamPkg, "DedupSnapshot").Types(jen.Id(key.name)), dd, "Restore", "Snapshot", "dedup state")
	shape := fmt.Sprintf("%s: dedup within watermark delay %d lateness %d; key", field, dp.Delay, sf.lateness)
	for _, j := range dp.Keys {
		shape += " " + in[j].Type.String()
	}
	sf.shape = append(sf.shape, shape)

	late := g.genLateTable(n.Input, n.Pos)
	mem := g.newMemHold(fmt.Sprintf("distinct within watermark at %s (its keys)", posText(n.Pos)))
	g.produce(n.Input, func(r *row) {
		k := g.name("dk")
		g.emit(jen.Var().Id(k).Id(key.name))
		for i, j := range dp.Keys {
			x := g.col(r.cols[j])
			if x.null {
				continue // the zero key field, not ok
			}
			set := []jen.Code{jen.Id(k).Dot(fmt.Sprintf("K%d", i)).Op("=").Add(conv[i](V(x))), jen.Id(k).Dot(fmt.Sprintf("K%dok", i)).Op("=").True()}
			if x.nullable() {
				g.emit(jen.If(OK(x)).Block(set...))
			} else {
				g.emit(set...)
			}
		}
		t := g.col(r.cols[dp.Time])
		seen := g.name("seen")
		lateRow := g.sub(func() {
			g.emit(jen.Id(sf.nlate).Op("++"))
			if late != nil {
				late(r)
			}
		})
		g.emit(jen.If(jen.Id(seen).Op(":=").Id(dd).Dot("Add").Call(jen.Id(k), jen.Int64().Call(V0(t)), OK(t)), jen.Id(seen).Op("!=").Qual(streamPkg, "First")).Block(
			jen.If(jen.Id(seen).Op("==").Qual(streamPkg, "Late")).Block(lateRow...),
			g.skipStmt()))
		// a held key is in the map and in the expiry heap, with its expiry
		mem.hold(g, jen.Id(dd).Dot("Len").Call(),
			jen.Lit(2).Op("*").Qual(unsafePkg, "Sizeof").Call(jen.Id(key.name).Values()).Op("+").Lit(16))
		c(r)
	})
	g.emit(jen.Comment("the micro-batch ends: count late rows, advance the watermark, drop the keys it reached"),
		jen.Id("fc").Dot("Late").Call(jen.Id(sf.nlate)),
		jen.Id(dd).Dot("Advance").Call(jen.Id(sf.tracker).Dot("Advance").Call()))
}

// dedupKeyField is how a distinct within watermark's key holds a value of
// t: as a hash key does (keyField: floats normalized, so that NaN is one key
// and -0.0 is 0.0, as Spark 4.2 compares a dedup's keys, SPARK-56280;
// binary as a string), strings cloned out of the batch.
func dedupKeyField(t ir.Type) (jen.Code, func(jen.Code) jen.Code) {
	typ, conv := keyField(t)
	if t.Kind == ir.TString {
		return typ, func(v jen.Code) jen.Code { return cloneValue(t, v) }
	}
	return typ, conv
}
