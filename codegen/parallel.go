package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// Parallel pipelines. A pipeline from a scan to the operator that consumes
// it last (the flow's output, a hash aggregate's build, a top-N sort's
// collection) runs on the flow's workers when every operator between them
// keeps no state across rows: the scan hands its batches to
// fc.Parallel, and each worker runs the fused loop over the batches it gets
// with its own copy of the consumer's state (its own output builders, its
// own partial hash table, its own top-N rows). After the pipeline, the
// partial states are merged on the flow's goroutine.
//
// Where parallelism would change results, the pipeline stays on one
// goroutine (fc.Threads 1 gives the old plan everywhere):
//   - limit without order by, distinct, union, a right or full join's
//     probe, a join's build side, stream reads, change flows' output;
//   - an order by without a limit (its sort is on one goroutine anyway);
//   - an aggregate with first, last, any_value or count(distinct), or any
//     float accumulator (sum, avg of floats; min, max of floats, where
//     -0.0 and 0.0 tie): partial results would merge in another order.
//
// A top-N keeps each row's position in the input (the batch's number and
// the row's index) as the comparator's last key, so that ties break as the
// one-goroutine stable sort breaks them. The groups of a parallel aggregate
// and the rows of a parallel output come in another order than on one
// goroutine: a dataset without order by promises no order (DESIGN.md).

// parPipe is one pipeline that its last consumer asked to run on the
// workers; the scan that produces it takes it (genScan).
type parPipe struct {
	// begin emits the per-worker state of the consumer, inside a worker
	// before its first batch; end emits the worker's last statements after
	// its last batch (handing its partial state to the flow).
	begin, end func()
	on         bool   // a scan runs the pipeline on the workers
	inside     bool   // the scan's per-batch code is being generated
	w          string // the worker's index
	spills     bool   // the consumer spills: fc.ParallelSpilling
	seq, row   string // the batch's number, and the row's index in it
}

// parTransparent reports the operators that pass g.par on to their input.
func parTransparent(r ir.Rel) bool {
	if passes.WindowProject(r) {
		return false // window functions (wnative): a pipeline breaker
	}
	switch r.(type) {
	case *ir.Scan, *ir.Filter, *ir.Project, *ir.SubqueryRel, *ir.Window, *ir.Join:
		return true
	}
	return false
}

// genParScan wraps a scan's per-batch code in fc.Parallel: begin is the
// consumer's per-worker state, batch the statements for one batch (rec,
// its row count and arrays, the row loop).
func (g *flowGen) genParScan(p *parPipe, rd, rec string, begin, batch []jen.Code) {
	var end []jen.Code
	if p.end != nil {
		end = g.sub(p.end)
	}
	each := jen.Func().Params(jen.Id(p.seq).Int64(), jen.Id(rec).Qual(arrowPkg, "RecordBatch")).Error().Block(
		append(batch, jen.Return(jen.Nil()))...)
	done := jen.Func().Params().Error().Block(append(end, jen.Return(jen.Nil()))...)
	parallelFn := "Parallel"
	if p.spills {
		parallelFn = "ParallelSpilling"
	}
	start := jen.Func().Params(jen.Id(p.w).Int()).Params(
		jen.Func().Params(jen.Int64(), jen.Qual(arrowPkg, "RecordBatch")).Error(),
		jen.Func().Params().Error(),
	).Block(append(begin, jen.Return(each, done))...)
	g.emit(jen.Comment("the batches go to fc.Threads workers (fc.Parallel), each with its own state"),
		jen.If(jen.Err().Op(":=").Id("fc").Dot(parallelFn).Call(jen.Id(rd), start), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Err())))
}

// parOutput asks for the flow's root pipeline to run on the workers, each
// with its own output builders (flushed at its end); it returns the
// consumer that appends to the builders of the worker at hand.
func (g *flowGen) parOutput(out *output) consumer {
	var wout *output
	p := &parPipe{}
	p.begin = func() {
		wout = g.genOutputFor(false)
		g.emit(wout.setup...)
	}
	p.end = func() {
		g.emit(jen.If(jen.Err().Op(":=").Id(wout.flush).Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.Id("ob").Dot("Release").Call())
	}
	g.par = p
	return func(r *row) {
		switch {
		case p.inside:
			wout.consume(r)
		case p.on:
			panic("codegen: the flow's output is used outside its parallel pipeline")
		default:
			out.consume(r)
		}
	}
}

// workerSlots declares one slot per worker for a partial state of type typ
// and returns its name.
func (g *flowGen) workerSlots(stem string, typ jen.Code) string {
	s := g.name(stem)
	g.emit(jen.Id(s).Op(":=").Make(jen.Index().Add(typ), jen.Id("fc").Dot("Workers").Call()))
	return s
}

// genAccumMerge merges the accumulator a of the partial state ps into the
// group's state gs.
func (g *flowGen) genAccumMerge(a *accum, gs, ps *jen.Statement) {
	f := func(s *jen.Statement, suffix string) *jen.Statement { return s.Clone().Dot(a.field + suffix) }
	pos := a.call.Pos
	en := g.name("e")
	checked := func(call jen.Code) []jen.Code {
		err := jen.Code(jen.Id(en))
		if a.resT.Kind == ir.TDecimal {
			err = decimalSumOverflow(a.name)
		}
		return []jen.Code{jen.Var().Id(en).Op("*").Qual(sqlfnPkg, "Error"),
			jen.List(f(gs, ""), jen.Id(en)).Op("=").Add(call),
			jen.If(jen.Id(en).Op("!=").Nil()).Block(g.fail(pos, err))}
	}
	decimalAdd := func(t ir.Type) jen.Code {
		return jen.Qual(sqlfnPkg, "DecimalAdd").Call(f(gs, ""), jen.Lit(int32(t.Scale)), f(ps, ""), jen.Lit(int32(t.Scale)), jen.Lit(int32(t.Precision)), jen.Lit(int32(t.Scale)))
	}
	switch a.name {
	case "count":
		g.emit(f(gs, "").Op("+=").Add(f(ps, "")))
	case "avg":
		if a.resT.Kind != ir.TDecimal {
			g.emit(f(gs, "").Op("+=").Add(f(ps, "")), f(gs, "n").Op("+=").Add(f(ps, "n")))
			return
		}
		upd := checked(decimalAdd(sumDecimalType(a.argT)))
		g.emit(jen.If(f(ps, "n").Op(">").Lit(0)).Block(append(upd, f(gs, "n").Op("+=").Add(f(ps, "n")))...))
	case "sum":
		var upd []jen.Code
		if a.resT.Kind == ir.TDecimal {
			upd = checked(decimalAdd(a.resT))
		} else {
			upd = checked(jen.Qual(sqlfnPkg, "AddInt64").Call(f(gs, ""), f(ps, "")))
		}
		g.emit(jen.If(f(ps, "ok")).Block(append(upd, f(gs, "ok").Op("=").True())...))
	case "min", "max":
		op := ir.OpLt
		if a.name == "max" {
			op = ir.OpGt
		}
		src, dst := &value{t: a.resT, v: f(ps, "")}, &value{t: a.resT, v: f(gs, "")}
		g.emit(jen.If(f(ps, "ok").Op("&&").Parens(jen.Op("!").Add(f(gs, "ok")).Op("||").Add(cmpExpr(op, src, dst)))).Block(
			f(gs, "").Op("=").Add(f(ps, "")), f(gs, "ok").Op("=").True()))
	default:
		panic(fmt.Sprintf("genAccumMerge: %s is not mergeable", a.name))
	}
}

// aggPar is a hash aggregate whose input pipeline runs on the workers:
// each builds a partial table (the declarations of one goroutine's table,
// per worker) and hands it to its slots at its end.
type aggPar struct {
	parPipe
	kt                    *keyType // nil: a global aggregate
	groups, ht, nullGroup string   // the table's names (in each worker, then merged)
	groupsP, htP, nullP   string   // the per-worker slots
}

// newAggPar declares the per-worker slots of an aggregate's partial
// tables; decls are the declarations of one table.
func (g *flowGen) newAggPar(st *structDecl, kt *keyType, groups, ht, nullGroup string, decls []jen.Code) *aggPar {
	ap := &aggPar{kt: kt, groups: groups, ht: ht, nullGroup: nullGroup}
	if kt == nil {
		ap.groupsP = g.workerSlots("groupsP", jen.Index(jen.Lit(1)).Id(st.name))
	} else {
		ap.groupsP = g.workerSlots("groupsP", jen.Index().Id(st.name))
		ap.htP = g.workerSlots("htP", kt.tableType())
		if nullGroup != "" {
			ap.nullP = g.workerSlots("nullP", jen.Int32())
		}
	}
	ap.begin = func() { g.emit(decls...) }
	ap.end = func() {
		w := jen.Id(ap.w)
		g.emit(jen.Id(ap.groupsP).Index(w.Clone()).Op("=").Id(groups))
		if kt != nil {
			g.emit(jen.Id(ap.htP).Index(w.Clone()).Op("=").Id(ht))
		}
		if ap.nullP != "" {
			g.emit(jen.Id(ap.nullP).Index(w.Clone()).Op("=").Id(nullGroup))
		}
	}
	return ap
}

// genAggMerge merges the workers' partial tables into the first worker's,
// under the names the groups' replay reads: each partial group is looked
// up (or added, keeping its key) by its key, and its accumulators merged.
func (g *flowGen) genAggMerge(ap *aggPar, accs []*accum, keyTypes []ir.Type, keyNullable []bool, nullDecl *local) {
	g.emit(jen.Comment("merge the workers' partial groups into the first worker's"))
	w := g.name("w")
	loop := func(body ...jen.Code) jen.Code {
		return jen.For(jen.Id(w).Op(":=").Lit(1), jen.Id(w).Op("<").Len(jen.Id(ap.groupsP)), jen.Id(w).Op("++")).Block(body...)
	}
	if ap.kt == nil {
		g.emit(jen.Id(ap.groups).Op(":=").Id(ap.groupsP).Index(jen.Lit(0)))
		body := g.sub(func() {
			gs := g.declare([]string{g.name("gs")}, jen.Op("&").Id(ap.groups).Index(jen.Lit(0)))[0]
			ps := g.declare([]string{g.name("ps")}, jen.Op("&").Id(ap.groupsP).Index(jen.Id(w)).Index(jen.Lit(0)))[0]
			for _, a := range accs {
				g.genAccumMerge(a, use(gs), use(ps))
			}
		})
		g.emit(loop(body...))
		return
	}
	g.emit(jen.List(jen.Id(ap.groups), jen.Id(ap.ht)).Op(":=").List(jen.Id(ap.groupsP).Index(jen.Lit(0)), jen.Id(ap.htP).Index(jen.Lit(0))))
	if ap.nullP != "" {
		g.emit(jen.Id(ap.nullGroup).Op(":=").Id(ap.nullP).Index(jen.Lit(0)), jen.Id("_").Op("=").Id(ap.nullGroup))
	}
	pi := g.name("pi")
	body := g.sub(func() {
		ps := g.declare([]string{g.name("ps")}, jen.Op("&").Id(ap.groupsP).Index(jen.Id(w)).Index(jen.Id(pi)))[0]
		vals := make([]*value, len(keyTypes))
		for i, t := range keyTypes {
			f := fmt.Sprintf("k%d", i)
			vals[i] = &value{t: t, v: use(ps).Dot(f)}
			if keyNullable[i] {
				vals[i].ok = use(ps).Dot(f + "ok")
			}
		}
		// the partial table accounted its groups already
		mem := ap.kt.mem
		ap.kt.mem = nil
		gi := g.groupLookup(ap.kt, ap.groups, ap.ht, ap.nullGroup, nullDecl, vals, keyNullable, nil)
		gs := g.declare([]string{g.name("gs")}, jen.Op("&").Id(ap.groups).Index(jen.Id(gi)))[0]
		ap.kt.mem = mem
		for _, a := range accs {
			g.genAccumMerge(a, use(gs), use(ps))
		}
	})
	g.emit(loop(
		jen.For(jen.Id(pi).Op(":=").Range().Id(ap.groupsP).Index(jen.Id(w))).Block(body...),
		jen.List(jen.Id(ap.groupsP).Index(jen.Id(w)), jen.Id(ap.htP).Index(jen.Id(w))).Op("=").List(jen.Nil(), jen.Nil())))
}

// sortPar is a top-N whose input runs on the workers, each keeping its
// own best rows (rows, bar, haveBar: decls) and handing them to its slot.
type sortPar struct {
	parPipe
	slots string
}

// newSortPar declares the per-worker slots of a top-N's rows.
func (g *flowGen) newSortPar(st *structDecl, rows string, decls []jen.Code) *sortPar {
	st.add("seq", jen.Int64()) // the batch's number << 32 | the row's index
	sp := &sortPar{}
	sp.slots = g.workerSlots("sortedP", jen.Index().Id(st.name))
	sp.begin = func() { g.emit(decls...) }
	sp.end = func() { g.emit(jen.Id(sp.slots).Index(jen.Id(sp.w)).Op("=").Id(rows)) }
	return sp
}
