package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// genSort generates ORDER BY over bounded input: the input's pipeline
// stores each row's sort keys and needed columns in a slice of generated
// structs; a generated comparator orders them (asc/desc, NULLS FIRST/LAST
// per key, Spark's defaults: ASC NULLS FIRST, DESC NULLS LAST) with a
// stable sort, and a new pipeline replays them in order. With topK > 0 (a
// limit above the sort) the rows are cut down to the best topK whenever
// the slice grows past twice that, so memory stays bounded, and a top-N
// never spills. Without, the rows spill past --memory-limit: whenever the
// account would pass it, the rows in memory are sorted and written out as
// one run (declSpillRuns), and at the end the runs and the rows still in
// memory merge, the replay reading the merge a batch at a time.
func (g *flowGen) genSort(n *ir.Sort, c consumer, topK int64) {
	if passes.Streaming(n) {
		g.refuseStreaming(n.Pos, "order by")
		return
	}
	st := g.newStruct("sortRow", "is one row of an order by: its sort keys and the columns read after it.")
	cmpFn := g.global("sortCompare_", g.flow.Name)
	rows := g.name("sorted")
	// with topK, bar is the topK-th best row after the last cut: a row that
	// does not sort before it cannot make the cut (the sort is stable, so a
	// tie with it loses too), and is dropped at once
	bar, haveBar := g.name("bar"), g.name("haveBar")
	// the --memory-limit account of the rows kept; a top-N's slice is cut
	// back whenever it grows past its bound, so it accounts only the rows
	// past the slice's longest yet (high)
	var mem *memAccount
	high := g.name("high")
	schema := g.u.Schemas[n]
	need := g.plan.Need[n]
	keyNullable := make([]bool, len(n.Keys))
	keyTypes := make([]ir.Type, len(n.Keys))
	for i, k := range n.Keys {
		keyTypes[i] = g.typeOf(k.Expr)
	}
	colStored := make([]bool, len(schema))
	colNullable := make([]bool, len(schema))
	// without a limit above, the rows spill past --memory-limit as sorted
	// runs (a top-N keeps only its rows: it does not spill)
	var sr *spillRuns
	op := fmt.Sprintf("order by at %s", posText(n.Pos))
	decls := g.sub(func() {
		g.emit(jen.Id(rows).Op(":=").Index().Id(st.name).Values())
		if topK > 0 {
			g.emit(jen.Var().Id(bar).Id(st.name), jen.Id(haveBar).Op(":=").False())
			mem = g.newMemAccountOf(fmt.Sprintf("order by at %s (its top %d rows)", posText(n.Pos), topK), memSliceTimes, memSliceOverhead)
			g.emit(jen.Var().Id(high).Int())
		} else {
			mem = g.newMemAccountOf(op, memSliceTimes, memSliceOverhead)
			sr = g.declSpillRuns(op, st, rows, cmpFn, func() []*storedField {
				var fs []*storedField
				for i, t := range keyTypes {
					fs = append(fs, &storedField{name: fmt.Sprintf("k%d", i), t: t, nullable: keyNullable[i]})
				}
				for j, f := range schema {
					if colStored[j] {
						fs = append(fs, &storedField{name: fmt.Sprintf("c%d", j), t: f.Type, nullable: colNullable[j]})
					}
				}
				return fs
			})
		}
	})
	// a top-N's input runs on the workers, each keeping its own top rows
	// (parallel.go); the rows' input positions break ties
	var par *sortPar
	if topK > 0 && g.plan.Parallel[n] {
		par = g.newSortPar(st, rows, decls)
		g.par = &par.parPipe
	} else {
		g.emit(decls...)
	}
	store := func(rw *local, f string, x *value, nullable *bool) {
		st.add(f, goType(x.t))
		st.add(f+"ok", jen.Bool())
		set := []jen.Code{use(rw).Dot(f).Op("=").Add(cloneValue(x.t, V0(x))), use(rw).Dot(f + "ok").Op("=").True()}
		switch {
		case x.null:
			*nullable = true
		case x.nullable():
			*nullable = true
			g.emit(jen.If(OK(x)).Block(set...))
		default:
			g.emit(set...)
		}
	}
	g.produce(n.Input, func(r *row) {
		e := g.envOf(n.Input, r)
		keys := make([]*value, len(n.Keys))
		for i, k := range n.Keys {
			keys[i] = g.coerce(g.genExpr(k.Expr, e), keyTypes[i], k.Pos)
			if i == 0 && g.plan.TopNBar[n] {
				if keys[0].nullable() {
					g.unplanned(k.Pos, "a top-N bar on a key that can be NULL")
				}
				// a first key worse than the bar's loses whatever the
				// others are: the row is dropped before they are read
				op := ">"
				if k.Desc {
					op = "<"
				}
				g.emit(jen.If(jen.Id(haveBar).Op("&&").Add(V(keys[0])).Op(op).Id(bar).Dot("k0")).Block(g.skipStmt()))
			}
		}
		if topK > 0 {
			// the keys go to a candidate row first: most rows lose to the
			// bar and are never stored
			cand := g.declareVar(g.name("cand"), jen.Id(st.name))
			for i, x := range keys {
				store(cand, fmt.Sprintf("k%d", i), x, &keyNullable[i])
			}
			if par != nil {
				g.emit(use(cand).Dot("seq").Op("=").Id(par.seq).Op("<<").Lit(32).Op("|").Int64().Call(jen.Id(par.row)))
			}
			g.emit(jen.If(jen.Id(haveBar).Op("&&").Id(cmpFn).Call(jen.Op("&").Add(use(cand)), jen.Op("&").Id(bar)).Op(">=").Lit(0)).Block(g.skipStmt()),
				jen.Id(rows).Op("=").Append(jen.Id(rows), use(cand)))
		} else {
			g.emit(jen.Id(rows).Op("=").Qual(kernelPkg, "AppendZero").Call(jen.Id(rows)))
		}
		rw := g.declare([]string{g.name("rw")}, jen.Op("&").Id(rows).Index(jen.Len(jen.Id(rows)).Op("-").Lit(1)))[0]
		if topK == 0 {
			for i, x := range keys {
				store(rw, fmt.Sprintf("k%d", i), x, &keyNullable[i])
			}
		}
		for j := range schema {
			if j >= len(need) || !need[j] || r.cols[j] == nil {
				continue
			}
			colStored[j] = true
			store(rw, fmt.Sprintf("c%d", j), g.col(r.cols[j]), &colNullable[j])
		}
		var strs []jen.Code
		isStr := func(t ir.Type) bool { return t.Kind == ir.TString || t.Kind == ir.TBinary }
		for i, t := range keyTypes {
			if isStr(t) {
				strs = append(strs, use(rw).Dot(fmt.Sprintf("k%d", i)))
			}
		}
		for j, f := range schema {
			if j < len(need) && need[j] && r.cols[j] != nil && isStr(f.Type) {
				strs = append(strs, use(rw).Dot(fmt.Sprintf("c%d", j)))
			}
		}
		if topK > 0 {
			g.emit(jen.If(jen.Len(jen.Id(rows)).Op(">").Id(high)).Block(
				append([]jen.Code{jen.Id(high).Op("=").Len(jen.Id(rows))}, mem.addStmts(jen.Id(st.name).Values(), strs)...)...))
		} else {
			mem.addOrSpill(g, jen.Id(st.name).Values(), strs, sr)
		}
		if topK > 0 {
			limit := max(2*topK, 1024)
			g.emit(jen.If(jen.Len(jen.Id(rows)).Op(">=").Lit(int(limit))).Block(
				jen.Id(rows).Op("=").Qual(kernelPkg, "TopK").Call(jen.Id(rows), jen.Lit(int(topK)), jen.Id(cmpFn)),
				jen.If(jen.Len(jen.Id(rows)).Op("==").Lit(int(topK))).Block(
					jen.List(jen.Id(bar), jen.Id(haveBar)).Op("=").List(jen.Id(rows).Index(jen.Lit(int(topK)-1)), jen.True())),
			))
		}
	})
	g.par = nil
	if par != nil {
		g.emit(jen.Comment("the workers' top rows, in one slice"),
			jen.Id(rows).Op(":=").Qual(slicesPkg, "Concat").Call(jen.Id(par.slots).Op("...")))
	}
	idx := g.name("order")
	g.emit(jen.Id(idx).Op(":=").Qual(kernelPkg, "SortIndex").Call(jen.Id(rows), jen.Id(cmpFn)))
	if topK > 0 {
		g.emit(jen.If(jen.Len(jen.Id(idx)).Op(">").Lit(int(topK))).Block(jen.Id(idx).Op("=").Id(idx).Index(jen.Empty(), jen.Lit(int(topK)))))
	}
	// spilled: the runs and the rows in memory merge, and the replay
	// below reads them a batch at a time
	var merge string
	if sr != nil {
		merge = g.name("merge")
		g.emit(jen.Var().Id(merge).Op("*").Qual(spillPkg, "Merger").Types(jen.Id(st.name)),
			jen.If(jen.Id(sr.runs).Dot("Len").Call().Op(">").Lit(0)).Block(
				jen.List(jen.Id("m"), jen.Err()).Op(":=").Id(sr.runs).Dot("Merge").Call(jen.Id(rows), jen.Id(idx)),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
				jen.Id(merge).Op("=").Id("m")))
	}
	k := g.name("k")
	body := g.loop(func() {
		rw := g.declare([]string{g.name("rw")}, jen.Op("&").Id(rows).Index(jen.Id(k)))[0]
		out := &row{cols: make([]*column, len(schema))}
		for j, f := range schema {
			if !colStored[j] {
				continue
			}
			j, t := j, f.Type
			out.cols[j] = &column{t: t, load: func() *value {
				x := &value{t: t, v: use(rw).Dot(fmt.Sprintf("c%d", j))}
				if colNullable[j] {
					x.ok = use(rw).Dot(fmt.Sprintf("c%dok", j))
				}
				return x
			}}
		}
		c(out)
	})
	replay := jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Id(idx)).Block(body...)
	if sr == nil {
		g.emit(replay)
	} else {
		g.emit(jen.For().Block(
			jen.If(jen.Id(merge).Op("!=").Nil()).Block(
				jen.List(jen.Id("b"), jen.Id("o"), jen.Err()).Op(":=").Id(merge).Dot("Batch").Call(jen.Lit(sortMergeBatch)),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
				jen.If(jen.Len(jen.Id("o")).Op("==").Lit(0)).Block(jen.Break()),
				jen.List(jen.Id(rows), jen.Id(idx)).Op("=").List(jen.Id("b"), jen.Id("o"))),
			replay,
			jen.If(jen.Id(merge).Op("==").Nil()).Block(jen.Break())),
			jen.Id("fc").Dot("Shrink").Call(jen.Id(sr.held)))
	}
	g.typeDecls = append(g.typeDecls, func() jen.Code {
		var stmts []jen.Code
		for i, key := range n.Keys {
			f := fmt.Sprintf("k%d", i)
			a, b := jen.Id("a").Dot(f), jen.Id("b").Dot(f)
			ret := jen.Return(jen.Id("c"))
			if key.Desc {
				ret = jen.Return(jen.Op("-").Id("c"))
			}
			cmpStmt := jen.If(jen.Id("c").Op(":=").Add(compareCode(keyTypes[i], a, b)), jen.Id("c").Op("!=").Lit(0)).Block(ret)
			if keyNullable[i] {
				first := key.EffectiveNullsFirst()
				// a NULL sorts before (NULLS FIRST) or after (NULLS LAST) any value
				aNull := 1
				if !first {
					aNull = -1
				}
				stmts = append(stmts,
					jen.If(jen.Id("a").Dot(f+"ok").Op("!=").Id("b").Dot(f+"ok")).Block(
						jen.If(jen.Id("a").Dot(f+"ok")).Block(jen.Return(jen.Lit(aNull))),
						jen.Return(jen.Lit(-aNull))),
					jen.If(jen.Id("a").Dot(f+"ok")).Block(cmpStmt))
			} else {
				stmts = append(stmts, cmpStmt)
			}
		}
		if par != nil {
			// the rows' positions in the input: ties break as in a stable sort
			stmts = append(stmts, jen.If(jen.Id("c").Op(":=").Qual(cmpPkg, "Compare").Call(jen.Id("a").Dot("seq"), jen.Id("b").Dot("seq")), jen.Id("c").Op("!=").Lit(0)).Block(jen.Return(jen.Id("c"))))
		}
		stmts = append(stmts, jen.Return(jen.Lit(0)))
		return jen.Commentf("%s orders the rows of the order by at %s.", cmpFn, posText(n.Pos)).Line().
			Func().Id(cmpFn).Params(jen.List(jen.Id("a"), jen.Id("b")).Op("*").Id(st.name)).Int().Block(stmts...)
	})
}

// sortMergeBatch is how many rows a spilled order by's replay takes from
// the merge at a time.
const sortMergeBatch = 1024

// compareCode is a Go expression comparing two values of type t (-1, 0,
// +1) in Spark's order.
func compareCode(t ir.Type, a, b jen.Code) jen.Code {
	switch {
	case t.Kind == ir.TFloat64:
		return jen.Qual(sqlfnPkg, "CompareFloat64").Call(a, b)
	case t.Kind == ir.TFloat32:
		return jen.Qual(sqlfnPkg, "CompareFloat32").Call(a, b)
	case t.Kind == ir.TDecimal:
		return jen.Add(a).Dot("Cmp").Call(b)
	case t.Kind == ir.TBool:
		return jen.Qual(sqlfnPkg, "CompareBool").Call(a, b)
	case t.Kind == ir.TBinary:
		return jen.Qual(bytesPkg, "Compare").Call(a, b)
	case t.Kind == ir.TArray || t.Kind == ir.TStruct:
		return jen.Qual(nestedPkg, "Compare").Call(a, b)
	}
	return jen.Qual(cmpPkg, "Compare").Call(a, b)
}
