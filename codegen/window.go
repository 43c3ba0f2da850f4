package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

const windowPkg = "github.com/nordisk/thund/rt/window"

// winSpecFields are the stored fields of a window spec's partition and
// order keys.
type winSpecFields struct{ part, order []*storedField }

// winFuncFields are the stored fields of one window function.
type winFuncFields struct {
	f        *passes.WindowFunc
	spec     int
	arg, def *storedField
	arg2     *storedField // a pair statistic's second argument
	resT     ir.Type      // the Over's type
}

// genWindowProject generates a select holding window functions, as the
// plan's WindowPlan says (passes/plan_window.go): the input's pipeline
// stores each row's partition and order keys, the functions' arguments
// and defaults, and the input columns the items read in a slice of
// generated structs; then per window spec rt/window's Sort of an index
// (rows spread over hash buckets by a generated hash of the partition keys,
// each bucket sorted by a generated comparator: partition keys, NULLS
// FIRST, then the order keys as written; ties in input order), its Split
// into partitions and Walk over them on
// fc.Threads workers, each function computed by rt/window over the
// partition's gathered values and scattered into one result slot per row;
// then a new pipeline replays the rows in the first spec's order with the
// items computed, each window function read from its slot. With one spec,
// the rows spill past --memory-limit as runs sorted by its comparator and
// are read back a batch of whole partitions at a time (genWindowSpill),
// each batch going through the same sort, walk and replay; with more
// (each sorts all rows its own way) the operator keeps its rows in memory
// and fails past the limit.
func (g *flowGen) genWindowProject(n *ir.Project, c consumer) {
	wp := g.plan.Windows[n]
	if wp == nil {
		g.unplanned(n.Pos, "a select with window functions that the plan did not plan")
		return
	}
	if passes.Streaming(n) {
		g.refuseStreaming(n.Pos, "a window function")
		return
	}
	g.par = nil
	st := g.newStruct("winRow", "is one row of a window operator: its partition and order keys, its functions' arguments and the columns read after it.")
	rows := g.name("winRows")
	g.emit(jen.Id(rows).Op(":=").Index().Id(st.name).Values())
	op := fmt.Sprintf("window at %s", posText(n.Pos))
	mem := g.newMemAccountOf(op, memSliceTimes, memSliceOverhead)

	// the fields, by spec and function
	specs := make([]winSpecFields, len(wp.Specs))
	var funcs []*winFuncFields
	for si, s := range wp.Specs {
		for ki, k := range s.Partition {
			specs[si].part = append(specs[si].part, &storedField{name: fmt.Sprintf("p%d_%d", si, ki), t: g.typeOf(k)})
		}
		for ki, k := range s.Order {
			specs[si].order = append(specs[si].order, &storedField{name: fmt.Sprintf("o%d_%d", si, ki), t: g.typeOf(k.Expr)})
		}
		for _, f := range s.Funcs {
			ff := &winFuncFields{f: f, spec: si, resT: g.typeOf(f.Over)}
			i := len(funcs)
			if f.Arg != nil {
				t := g.typeOf(f.Arg)
				switch f.Name {
				case "lag", "lead", "first_value", "last_value", "nth_value", "min", "max":
					t = ff.resT // the result is one row's argument
				}
				ff.arg = &storedField{name: fmt.Sprintf("a%d", i), t: t}
			}
			if f.Default != nil {
				ff.def = &storedField{name: fmt.Sprintf("d%d", i), t: ff.resT}
			}
			if f.Arg2 != nil {
				ff.arg2 = &storedField{name: fmt.Sprintf("b%d", i), t: g.typeOf(f.Arg2)}
			}
			funcs = append(funcs, ff)
		}
	}
	schema := g.u.Schemas[n.Input]
	need := g.plan.Need[n.Input]
	cols := make([]*storedField, len(schema))

	store := func(rw *local, f *storedField, x *value) {
		st.add(f.name, goType(f.t))
		st.add(f.name+"ok", jen.Bool())
		set := []jen.Code{use(rw).Dot(f.name).Op("=").Add(cloneValue(f.t, V(x))), use(rw).Dot(f.name + "ok").Op("=").True()}
		switch {
		case x.null:
			f.nullable = true
		case x.nullable():
			f.nullable = true
			g.emit(jen.If(OK(x)).Block(set...))
		default:
			g.emit(set...)
		}
	}
	isStr := func(t ir.Type) bool { return t.Kind == ir.TString || t.Kind == ir.TBinary }

	// each spec's comparator, hash of its partition keys (nil: none) and
	// test of same partition, declared after the loop below
	cmpFns, hashFns, sameParts := make([]string, len(wp.Specs)), make([]jen.Code, len(wp.Specs)), make([]string, len(wp.Specs))
	for si, s := range wp.Specs {
		sf := specs[si]
		cmpFns[si] = g.global("winCompare_", g.flow.Name)
		hashFns[si] = jen.Nil()
		if len(s.Partition) > 0 {
			name := g.global("winHash_", g.flow.Name)
			hashFns[si] = jen.Id(name)
			g.typeDecls = append(g.typeDecls, func() jen.Code { return winHashFunc(st.name, name, sf.part) })
		}
		sameParts[si] = g.global("winSamePartition_", g.flow.Name)
	}
	// the fields stored, each once, once the loop below stored them
	fields := func() []*storedField {
		var fs []*storedField
		seen := map[string]bool{}
		add := func(f *storedField) {
			if f != nil && !seen[f.name] {
				seen[f.name] = true
				fs = append(fs, f)
			}
		}
		for _, f := range cols {
			add(f)
		}
		for _, sf := range specs {
			for _, f := range append(append([]*storedField(nil), sf.part...), sf.order...) {
				add(f)
			}
		}
		for _, ff := range funcs {
			add(ff.arg)
			add(ff.def)
			add(ff.arg2)
		}
		return fs
	}
	// with one spec, the rows spill past --memory-limit as runs sorted by
	// partition and order keys, and are read back a batch of whole
	// partitions at a time (genWindowMerge); with more, each spec sorts
	// all rows its own way, and the rows stay in memory
	var sr *spillRuns
	var size string
	// a row_number filter's group limit (wgl): only the first K rows of
	// each partition go on
	lim, hasLim := g.plan.GroupLimits[n]
	// the --memory-limit account of what the operator adds to its rows:
	// per row, each result slot (8 bytes and a validity byte at most), and
	// per spec its sort index (4 bytes) and bucket (1 byte)
	perRow := 9*len(funcs) + 5*len(wp.Specs)
	if len(wp.Specs) == 1 {
		sr = g.declSpillRuns(op, st, rows, cmpFns[0], fields)
		size = g.global("winSize_", g.flow.Name)
		g.typeDecls = append(g.typeDecls, func() jen.Code {
			var strs []jen.Code
			for _, f := range fields() {
				if isStr(f.t) {
					strs = append(strs, jen.Id("r").Dot(f.name))
				}
			}
			return jen.Commentf("%s is what a %s holds in the --memory-limit account, with its result slots.", size, st.name).Line().
				Func().Id(size).Params(jen.Id("r").Op("*").Id(st.name)).Int64().Block(jen.Return(mem.size(jen.Id(st.name).Values(), strs, perRow)))
		})
		if hasLim {
			g.declGroupLimitFull(sr, rows, size, hashFns[0], sameParts[0], cmpFns[0], lim)
		}
	}
	var compact, compactEnd []jen.Code
	if hasLim {
		compact, compactEnd = g.genGroupLimitCompact(rows, hashFns[0], sameParts[0], cmpFns[0], lim)
	}
	g.produce(n.Input, func(r *row) {
		e := g.envOf(n.Input, r)
		g.emit(jen.Id(rows).Op("=").Qual(kernelPkg, "AppendZero").Call(jen.Id(rows)))
		rw := g.declare([]string{g.name("rw")}, jen.Op("&").Id(rows).Index(jen.Len(jen.Id(rows)).Op("-").Lit(1)))[0]
		var strs []jen.Code
		for j, f := range schema {
			if j >= len(need) || !need[j] || r.cols[j] == nil {
				continue
			}
			if cols[j] == nil {
				cols[j] = &storedField{name: fmt.Sprintf("c%d", j), t: f.Type}
			}
			store(rw, cols[j], g.col(r.cols[j]))
			if isStr(f.Type) {
				strs = append(strs, use(rw).Dot(cols[j].name))
			}
		}
		// put stores a key, argument or default; one that is an input
		// column stored already (of its type) is that column's field
		put := func(f **storedField, x ir.Expr) {
			if ref, ok := x.(*ir.ColumnRef); ok {
				if b, ok := g.u.Refs[ref]; ok && b.Depth == 0 && b.Rel == n.Input && b.Index < len(cols) && cols[b.Index] != nil {
					if c := cols[b.Index]; *f == c || passes.SameType(c.t, (*f).t) {
						*f = c
						return
					}
				}
			}
			v := g.coerce(g.genExpr(x, e), (*f).t, x.Position())
			store(rw, *f, v)
			if isStr((*f).t) {
				strs = append(strs, use(rw).Dot((*f).name))
			}
		}
		for si, s := range wp.Specs {
			for ki, k := range s.Partition {
				put(&specs[si].part[ki], k)
			}
			for ki, k := range s.Order {
				put(&specs[si].order[ki], k.Expr)
			}
		}
		for _, ff := range funcs {
			if ff.arg != nil {
				put(&ff.arg, ff.f.Arg)
			}
			if ff.def != nil {
				put(&ff.def, ff.f.Default)
			}
			if ff.arg2 != nil {
				put(&ff.arg2, ff.f.Arg2)
			}
		}
		if sr != nil {
			mem.addOrSpill(g, jen.Id(st.name).Values(), strs, sr)
		} else {
			mem.add(g, jen.Id(st.name).Values(), strs)
		}
		g.emit(compact...)
	})

	if hasLim {
		g.emit(compactEnd...)
		g.genGroupLimit(rows, hashFns[0], sameParts[0], cmpFns[0], lim)
	}
	var wm *winMerge
	if sr == nil {
		g.emit(jen.If(jen.Err().Op(":=").Id("fc").Dot("Grow").Call(jen.Lit(op), jen.Int64().Call(jen.Len(jen.Id(rows))).Op("*").Lit(perRow)), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Err())))
	} else {
		wm = g.genWindowSpill(op, st.name, rows, sr, perRow, size, sameParts[0], lim, hasLim)
	}

	tail := g.sub(func() {
		g.genWindowBatch(n, wp, st.name, rows, specs, funcs, cmpFns, hashFns, sameParts, cols, c)
	})
	if wm == nil {
		g.emit(tail...)
	} else {
		g.emit(jen.For().Block(append(append(wm.gather, tail...), jen.If(jen.Id(wm.merge).Op("==").Nil()).Block(jen.Break()))...),
			jen.Id("fc").Dot("Shrink").Call(jen.Id(wm.held)))
	}
}

// genWindowBatch is the code of a window operator over the rows in rows
// (all of them, or a batch of whole partitions read back from spilled
// runs): the result slots, each spec's sort and walk, and the replay.
func (g *flowGen) genWindowBatch(n *ir.Project, wp *passes.WindowPlan, st, rows string, specs []winSpecFields, funcs []*winFuncFields, cmpFns []string, hashFns []jen.Code, sameParts []string, cols []*storedField, c consumer) {
	schema := g.u.Schemas[n.Input]
	// the results: one slot per row (by its index in rows)
	nRows := g.name("nRows")
	g.emit(jen.Id(nRows).Op(":=").Len(jen.Id(rows)))
	res := make([]string, len(funcs))
	resOK := make([]string, len(funcs))
	for i, ff := range funcs {
		res[i] = g.name("win")
		t := winSlotType(ff.f, ff.f.Name == "avg" || ff.arg != nil && ff.arg.t.IsFloat())
		g.emit(jen.Id(res[i]).Op(":=").Make(jen.Index().Add(t), jen.Id(nRows)))
		if winSlotNullable(ff.f) {
			resOK[i] = res[i] + "ok"
			g.emit(jen.Id(resOK[i]).Op(":=").Make(jen.Index().Bool(), jen.Id(nRows)))
		}
	}
	bufs := g.name("winBufs")
	g.emit(jen.Id(bufs).Op(":=").Make(jen.Index().Qual(windowPkg, "Buf"), jen.Id("fc").Dot("Workers").Call()))
	orders := make([]string, len(wp.Specs))
	for si, s := range wp.Specs {
		sf := specs[si]
		cmpFn, hashFn, samePart := cmpFns[si], hashFns[si], sameParts[si]
		samePeer := g.global("winSamePeer_", g.flow.Name)
		order, parts := g.name("winOrder"), g.name("winParts")
		orders[si] = order
		sortCall := jen.Qual(windowPkg, "Sort").Call(jen.Id(rows), hashFn, jen.Id(cmpFn), jen.Id("fc").Dot("Workers").Call())
		if keys := winSortKeys(s, sf); len(keys) > 0 {
			keyFn := g.global("winKey_", g.flow.Name)
			g.typeDecls = append(g.typeDecls, func() jen.Code { return winKeyFunc(st, keyFn, keys) })
			sortCall = jen.Qual(windowPkg, "SortKeyed").Call(jen.Id(rows), hashFn, jen.Id(keyFn), jen.Id(cmpFn), jen.Id("fc").Dot("Workers").Call())
		}
		g.emit(jen.Id(order).Op(":=").Add(sortCall),
			jen.Id(parts).Op(":=").Qual(windowPkg, "Split").Call(jen.Id(nRows), jen.Func().Params(jen.Id("i").Int()).Bool().Block(
				jen.Return(jen.Id(samePart).Call(jen.Op("&").Id(rows).Index(jen.Id(order).Index(jen.Id("i").Op("-").Lit(1))), jen.Op("&").Id(rows).Index(jen.Id(order).Index(jen.Id("i"))))))))
		// the code of one partition [lo, hi): ord is its slice of order,
		// m its size, b the worker's buffers
		body := []jen.Code{
			jen.Id("b").Op(":=").Op("&").Id(bufs).Index(jen.Id("w")),
			jen.Id("ord").Op(":=").Id(order).Index(jen.Id("lo"), jen.Id("hi")),
			jen.Id("m").Op(":=").Id("hi").Op("-").Id("lo"),
		}
		if len(s.Order) > 0 {
			body = append(body, jen.Id("peers").Op(":=").Id("b").Dot("Peers").Call(jen.Id("lo"), jen.Id("hi"), jen.Func().Params(jen.Id("i").Int()).Bool().Block(
				jen.Return(jen.Id(samePeer).Call(jen.Op("&").Id(rows).Index(jen.Id(order).Index(jen.Id("i").Op("-").Lit(1))), jen.Op("&").Id(rows).Index(jen.Id(order).Index(jen.Id("i"))))))))
		} else {
			body = append(body, jen.Id("peers").Op(":=").Id("b").Dot("WholePartition").Call(jen.Id("m")))
		}
		body = append(body, jen.Id("_").Op("=").Id("peers"))
		for i, ff := range funcs {
			if ff.spec != si {
				continue
			}
			body = append(body, jen.Commentf("%s at %s", ff.f.Name, posText(ff.f.Over.Pos)))
			body = append(body, g.winFunc(ff.f, rows, ff.arg, ff.arg2, sf.order, res[i], resOK[i], si == 0)...)
		}
		body = append(body, jen.Return(jen.Nil()))
		g.emit(jen.If(jen.Err().Op(":=").Qual(windowPkg, "Walk").Call(jen.Id(parts), jen.Id("fc").Dot("Workers").Call(),
			jen.Func().Params(jen.List(jen.Id("w"), jen.Id("lo"), jen.Id("hi")).Int()).Error().Block(body...)), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Err())))
		g.typeDecls = append(g.typeDecls, func() jen.Code {
			return g.winCompareFuncs(st, cmpFn, samePart, samePeer, s, sf.part, sf.order)
		})
	}

	// the replay, in the first spec's order, a chunk of rows at a time: the
	// chunk's rows are first copied out of rows in that order, a tight loop
	// whose loads the CPU overlaps, where the replay's own loop, long,
	// would wait on each row's cache miss in turn
	overs := map[*ir.Over]*column{}
	k, j, chunk, gathered := g.name("k"), g.name("j"), g.name("chunk"), g.name("gathered")
	lo, kk := g.name("lo"), g.name("k")
	kUsed := false // the replay's code reads k, the row's index
	body := g.loop(func() {
		rw := g.declare([]string{g.name("rw")}, jen.Op("&").Id(gathered).Index(jen.Id(j)))[0]
		field := func(f *storedField, of jen.Code) *value {
			x := &value{t: f.t, v: jen.Add(of).Dot(f.name)}
			if f.nullable {
				x.ok = jen.Add(of).Dot(f.name + "ok")
			}
			return x
		}
		in := &row{cols: make([]*column, len(schema))}
		for j, f := range cols {
			if f == nil {
				continue
			}
			in.cols[j] = &column{t: f.t, load: func() *value { return field(f, use(rw)) }}
		}
		for i, ff := range funcs {
			i, ff := i, ff
			overs[ff.f.Over] = &column{t: ff.resT, load: func() *value {
				// the first spec's slots are by position (winFunc)
				slot := jen.Id(lo).Op("+").Id(j)
				if ff.spec != 0 {
					slot, kUsed = jen.Id(k), true
				}
				return g.winResult(ff.f, rows, slot, rw, ff.arg, ff.def, res[i], resOK[i], ff.resT)
			}}
		}
		e := &env{rows: map[ir.Rel]*row{n.Input: in}, overs: overs}
		pcols := g.u.Projections[n]
		out := &row{cols: make([]*column, len(g.u.Schemas[n]))}
		for j, pc := range pcols {
			if pc.InputIndex >= 0 {
				out.cols[j] = in.cols[pc.InputIndex]
				continue
			}
			item := n.Items[pc.Item]
			out.cols[j] = &column{t: g.u.Schemas[n][j].Type, load: func() *value {
				return g.bind(g.genExpr(item.Expr, e), "p")
			}}
		}
		c(out)
	})
	loopVars := jen.List(jen.Id(j), jen.Id(k))
	if !kUsed {
		loopVars = jen.Id(j)
	}
	g.emit(jen.Id(gathered).Op(":=").Make(jen.Index().Id(st), jen.Min(jen.Len(jen.Id(orders[0])), jen.Qual(windowPkg, "GatherChunk"))),
		jen.For(jen.Id(lo).Op(":=").Lit(0), jen.Id(lo).Op("<").Len(jen.Id(orders[0])), jen.Id(lo).Op("+=").Qual(windowPkg, "GatherChunk")).Block(
			jen.Id(chunk).Op(":=").Id(orders[0]).Index(jen.Id(lo), jen.Min(jen.Id(lo).Op("+").Qual(windowPkg, "GatherChunk"), jen.Len(jen.Id(orders[0])))),
			jen.For(jen.List(jen.Id(j), jen.Id(kk)).Op(":=").Range().Id(chunk)).Block(
				jen.Id(gathered).Index(jen.Id(j)).Op("=").Id(rows).Index(jen.Id(kk))),
			jen.For(loopVars.Op(":=").Range().Id(chunk)).Block(body...)),
		jen.Clear(jen.Id(gathered)))
}

// winSlotType is the Go type of a window function's result slot: a
// ranking's number, a count, a sum (float: of floating-point numbers), or
// for the functions whose result is one row's argument, that row's index
// (-1: none).
func winSlotType(f *passes.WindowFunc, float bool) jen.Code {
	if t := winSlotIR(f, float); t.Kind != ir.TUnknown {
		return goType(t)
	}
	return jen.Int32()
}

// winSlotNullable: the slot has a validity slot beside it.
func winSlotNullable(f *passes.WindowFunc) bool {
	return f.Name == "sum" || f.Name == "avg" || windowMoments[f.Name] != ""
}

// winSlotIR is the type of a result slot's value, before the cast to the
// Over's type.
func winSlotIR(f *passes.WindowFunc, float bool) ir.Type {
	switch f.Name {
	case "row_number", "rank", "dense_rank", "ntile":
		return ir.Int32
	case "percent_rank", "cume_dist", "avg":
		return ir.Float64
	case "stddev_samp", "stddev_pop", "var_samp", "var_pop", "skewness", "kurtosis", "median", "percentile", // windowMoments
		"corr", "covar_samp", "covar_pop", "regr_sxx", "regr_syy", "regr_sxy", "regr_slope", "regr_intercept", "regr_r2":
		return ir.Float64
	case "count":
		return ir.Int64
	case "sum":
		if float {
			return ir.Float64
		}
		return ir.Int64
	}
	return ir.Type{}
}

// bound is an rt/window bound kind.
func winBound(k ir.BoundKind) jen.Code {
	names := map[ir.BoundKind]string{ir.UnboundedPreceding: "UnboundedPreceding", ir.Preceding: "Preceding",
		ir.CurrentRow: "CurrentRow", ir.Following: "Following", ir.UnboundedFollowing: "UnboundedFollowing"}
	return jen.Qual(windowPkg, names[k])
}

// winFunc is the code computing one function over a partition (inside
// Walk's function: b, ord, m, peers in scope) into its result slots.
//
// The result of the partition's i-th row (row k) goes to slot k, or with
// byPos (a function of the first spec, whose order the replay follows) to
// slot lo+i, the row's position in that order, so that the replay reads
// the slots in order rather than one cache miss a row.
func (g *flowGen) winFunc(f *passes.WindowFunc, rows string, arg, arg2 *storedField, order []*storedField, res, resOK string, byPos bool) []jen.Code {
	var out []jen.Code
	slot := jen.Id("k")
	// slots loops over the partition's rows to set their slots
	slots := func(stmts ...jen.Code) jen.Code {
		return jen.For(jen.List(jen.Id("i"), jen.Id("k")).Op(":=").Range().Id("ord")).Block(stmts...)
	}
	if byPos {
		slot = jen.Id("lo").Op("+").Id("i")
		slots = func(stmts ...jen.Code) jen.Code {
			return jen.For(jen.Id("i").Op(":=").Range().Id("ord")).Block(stmts...)
		}
	}
	at := func(of jen.Code, fld string) jen.Code {
		return jen.Id(rows).Index(of).Dot(fld)
	}
	// gather loops over the partition's rows: i its position, k the row
	gather := func(dst jen.Code, val jen.Code) jen.Code {
		return jen.For(jen.List(jen.Id("i"), jen.Id("k")).Op(":=").Range().Id("ord")).Block(jen.Add(dst).Index(jen.Id("i")).Op("=").Add(val))
	}
	scatter := func(val jen.Code) jen.Code {
		return slots(jen.Id(res).Index(slot).Op("=").Add(val))
	}
	// okSlice: the argument's validity per partition row, or nil
	okCode := func(want bool) jen.Code {
		if !want || arg == nil || !arg.nullable {
			return jen.Nil()
		}
		out = append(out, jen.Id("aok").Op(":=").Id("b").Dot("Bools").Call(jen.Lit(0), jen.Id("m")),
			gather(jen.Id("aok"), at(jen.Id("k"), arg.name+"ok")))
		return jen.Id("aok")
	}
	// positions: rt/window's partition positions to row indexes
	scatterPos := func() jen.Code {
		return slots(
			jen.Id("p").Op(":=").Id("out").Index(jen.Id("i")),
			jen.If(jen.Id("p").Op(">=").Lit(0)).Block(jen.Id("p").Op("=").Id("ord").Index(jen.Id("p"))),
			jen.Id(res).Index(slot).Op("=").Id("p"))
	}
	frame := func() {
		fr := f.Frame
		sk, ek := winBound(fr.Start.Kind), winBound(fr.End.Kind)
		switch {
		case fr.Kind == ir.FrameRows:
			out = append(out, jen.Id("b").Dot("Frames").Dot("RowsFrames").Call(jen.Id("m"), sk, jen.Lit(f.StartOff), ek, jen.Lit(f.EndOff)))
		case f.Range == passes.RangeNone:
			out = append(out, jen.Id("b").Dot("Frames").Dot("PeerFrames").Call(jen.Id("peers"), sk, ek))
		default:
			key := order[0]
			okArg := jen.Nil()
			if key.nullable {
				out = append(out, jen.Id("kok").Op(":=").Id("b").Dot("Bools").Call(jen.Lit(1), jen.Id("m")),
					gather(jen.Id("kok"), at(jen.Id("k"), key.name+"ok")))
				okArg = jen.Id("kok")
			}
			so, eo := jen.Lit(f.StartOff), jen.Lit(f.EndOff)
			if f.Range == passes.RangeFloat {
				out = append(out, jen.Id("keys").Op(":=").Id("b").Dot("Float64s").Call(jen.Lit(2), jen.Id("m")),
					gather(jen.Id("keys"), jen.Float64().Call(at(jen.Id("k"), key.name))))
				so, eo = jen.Lit(f.StartOffF), jen.Lit(f.EndOffF)
			} else {
				out = append(out, jen.Id("keys").Op(":=").Id("b").Dot("Int64s").Call(jen.Lit(2), jen.Id("m")),
					gather(jen.Id("keys"), jen.Int64().Call(at(jen.Id("k"), key.name))))
			}
			desc := f.Over.Order[0].Desc
			out = append(out, jen.Qual(windowPkg, "RangeFrames").Call(jen.Op("&").Id("b").Dot("Frames"), jen.Id("keys"), okArg, jen.Lit(desc), jen.Id("peers"), sk, so, ek, eo))
		}
	}
	fr := jen.Op("&").Id("b").Dot("Frames")
	switch f.Name {
	case "row_number", "rank", "dense_rank", "ntile":
		out = append(out, jen.Id("out").Op(":=").Id("b").Dot("Int32s").Call(jen.Lit(0), jen.Id("m")))
		switch f.Name {
		case "row_number":
			out = append(out, jen.Qual(windowPkg, "RowNumber").Call(jen.Id("out")))
		case "rank":
			out = append(out, jen.Qual(windowPkg, "Rank").Call(jen.Id("out"), jen.Id("peers")))
		case "dense_rank":
			out = append(out, jen.Qual(windowPkg, "DenseRank").Call(jen.Id("out"), jen.Id("peers")))
		case "ntile":
			out = append(out, jen.Qual(windowPkg, "NTile").Call(jen.Id("out"), jen.Lit(f.N)))
		}
		out = append(out, scatter(jen.Id("out").Index(jen.Id("i"))))
	case "percent_rank", "cume_dist":
		fn := map[string]string{"percent_rank": "PercentRank", "cume_dist": "CumeDist"}[f.Name]
		out = append(out, jen.Id("out").Op(":=").Id("b").Dot("Float64s").Call(jen.Lit(0), jen.Id("m")),
			jen.Qual(windowPkg, fn).Call(jen.Id("out"), jen.Id("peers")),
			scatter(jen.Id("out").Index(jen.Id("i"))))
	case "lag", "lead":
		ok := okCode(f.IgnoreNulls)
		out = append(out, jen.Id("out").Op(":=").Id("b").Dot("Int32s").Call(jen.Lit(0), jen.Id("m")),
			jen.Id("b").Dot("Offset").Call(jen.Id("out"), jen.Lit(f.N), ok), scatterPos())
	case "first_value", "last_value", "nth_value":
		ok := okCode(f.IgnoreNulls)
		frame()
		out = append(out, jen.Id("out").Op(":=").Id("b").Dot("Int32s").Call(jen.Lit(0), jen.Id("m")))
		switch f.Name {
		case "first_value":
			out = append(out, jen.Id("b").Dot("First").Call(jen.Id("out"), ok, fr))
		case "last_value":
			out = append(out, jen.Id("b").Dot("Last").Call(jen.Id("out"), ok, fr))
		default:
			out = append(out, jen.Id("b").Dot("Nth").Call(jen.Id("out"), ok, fr, jen.Lit(f.N)))
		}
		out = append(out, scatterPos())
	case "min", "max":
		ok := okCode(true)
		frame()
		less := jen.Func().Params(jen.List(jen.Id("i"), jen.Id("j")).Int32()).Bool().Block(
			jen.Return(jen.Add(compareCode(arg.t, at(jen.Id("ord").Index(jen.Id("i")), arg.name), at(jen.Id("ord").Index(jen.Id("j")), arg.name))).Op("<").Lit(0)))
		out = append(out, jen.Id("out").Op(":=").Id("b").Dot("Int32s").Call(jen.Lit(0), jen.Id("m")),
			jen.Id("b").Dot("MinMax").Call(jen.Id("out"), ok, less, jen.Lit(f.Name == "max"), fr), scatterPos())
	case "count":
		ok := jen.Code(jen.Nil())
		if arg != nil {
			ok = okCode(true)
		}
		frame()
		out = append(out, jen.Id("out").Op(":=").Id("b").Dot("Int64s").Call(jen.Lit(0), jen.Id("m")),
			jen.Qual(windowPkg, "Count").Call(jen.Id("out"), ok, fr),
			scatter(jen.Id("out").Index(jen.Id("i"))))
	case "sum", "avg":
		ok := okCode(true)
		frame()
		float := f.Name == "avg" || arg.t.IsFloat()
		scat := slots(
			jen.Id(res).Index(slot).Op("=").Id("out").Index(jen.Id("i")),
			jen.Id(resOK).Index(slot).Op("=").Id("outok").Index(jen.Id("i")))
		if float {
			out = append(out, jen.Id("vals").Op(":=").Id("b").Dot("Float64s").Call(jen.Lit(1), jen.Id("m")),
				gather(jen.Id("vals"), jen.Float64().Call(at(jen.Id("k"), arg.name))),
				jen.Id("out").Op(":=").Id("b").Dot("Float64s").Call(jen.Lit(0), jen.Id("m")),
				jen.Id("outok").Op(":=").Id("b").Dot("Bools").Call(jen.Lit(2), jen.Id("m")),
				jen.Qual(windowPkg, "SumFloat64").Call(jen.Id("out"), jen.Id("outok"), jen.Id("vals"), ok, fr, jen.Lit(f.Name == "avg")),
				scat)
		} else {
			out = append(out, jen.Id("vals").Op(":=").Id("b").Dot("Int64s").Call(jen.Lit(1), jen.Id("m")),
				gather(jen.Id("vals"), jen.Int64().Call(at(jen.Id("k"), arg.name))),
				jen.Id("out").Op(":=").Id("b").Dot("Int64s").Call(jen.Lit(0), jen.Id("m")),
				jen.Id("outok").Op(":=").Id("b").Dot("Bools").Call(jen.Lit(2), jen.Id("m")),
				jen.If(jen.Id("e").Op(":=").Qual(windowPkg, "SumInt64").Call(jen.Id("out"), jen.Id("outok"), jen.Id("vals"), ok, fr), jen.Id("e").Op("!=").Nil()).Block(
					g.fail(f.Over.Pos, jen.Id("e"))),
				scat)
		}
	default:
		stat := windowMoments[f.Name]
		if stat == "" {
			g.unplanned(f.Over.Pos, "window function %s", f.Name)
			break
		}
		ok := okCode(true)
		frame()
		out = append(out, jen.Id("vals").Op(":=").Id("b").Dot("Float64s").Call(jen.Lit(1), jen.Id("m")),
			gather(jen.Id("vals"), jen.Float64().Call(at(jen.Id("k"), arg.name))))
		if arg2 != nil { // a pair: its second values, and both valid
			out = append(out, jen.Id("vals2").Op(":=").Id("b").Dot("Float64s").Call(jen.Lit(2), jen.Id("m")),
				gather(jen.Id("vals2"), jen.Float64().Call(at(jen.Id("k"), arg2.name))))
			if arg2.nullable {
				both := jen.Id("aok").Index(jen.Id("i")).Op("&&")
				if !arg.nullable {
					out = append(out, jen.Id("aok").Op(":=").Id("b").Dot("Bools").Call(jen.Lit(0), jen.Id("m")))
					both = jen.Null()
				}
				out = append(out, gather(jen.Id("aok"), jen.Add(both).Add(at(jen.Id("k"), arg2.name+"ok"))))
				ok = jen.Id("aok")
			}
		}
		out = append(out, jen.Id("out").Op(":=").Id("b").Dot("Float64s").Call(jen.Lit(0), jen.Id("m")),
			jen.Id("outok").Op(":=").Id("b").Dot("Bools").Call(jen.Lit(2), jen.Id("m")),
			g.windowFamilyCall(f, stat, ok, fr),
			slots(
				jen.Id(res).Index(slot).Op("=").Id("out").Index(jen.Id("i")),
				jen.Id(resOK).Index(slot).Op("=").Id("outok").Index(jen.Id("i"))))
	}
	return []jen.Code{jen.Block(out...)}
}

// winResult is a window function's value for the row being replayed (its
// index k, its struct rw): its result slot, or the argument of the row
// whose index the slot holds (the default, or NULL, when -1), cast to the
// Over's type.
func (g *flowGen) winResult(f *passes.WindowFunc, rows string, slot jen.Code, rw *local, arg, def *storedField, res, resOK string, resT ir.Type) *value {
	switch f.Name {
	case "lag", "lead", "first_value", "last_value", "nth_value", "min", "max":
		vn := g.name("w")
		x := &value{t: arg.t, v: jen.Id(vn), vl: g.declareVar(vn, goType(arg.t))}
		x.ok = jen.Id(vn + "ok")
		x.okl = g.declareVar(vn+"ok", jen.Bool())
		src := g.name("src")
		g.emit(jen.Id(src).Op(":=").Id(res).Index(slot))
		get := []jen.Code{jen.Id(vn).Op("=").Id(rows).Index(jen.Id(src)).Dot(arg.name)}
		if arg.nullable {
			get = append(get, jen.Id(vn+"ok").Op("=").Id(rows).Index(jen.Id(src)).Dot(arg.name+"ok"))
		} else {
			get = append(get, jen.Id(vn+"ok").Op("=").True())
		}
		var dflt []jen.Code
		if def != nil {
			dflt = append(dflt, jen.Id(vn).Op("=").Add(use(rw)).Dot(def.name))
			if def.nullable {
				dflt = append(dflt, jen.Id(vn+"ok").Op("=").Add(use(rw)).Dot(def.name+"ok"))
			} else {
				dflt = append(dflt, jen.Id(vn+"ok").Op("=").True())
			}
		}
		st := jen.If(jen.Id(src).Op(">=").Lit(0)).Block(get...)
		if len(dflt) > 0 {
			st = st.Else().Block(dflt...)
		}
		g.emit(st)
		return g.coerce(x, resT, f.Over.Pos)
	}
	float := f.Name == "avg" || arg != nil && arg.t.IsFloat()
	x := &value{t: winSlotIR(f, float), v: jen.Id(res).Index(slot)}
	if resOK != "" {
		x.ok = jen.Id(resOK).Index(slot)
	}
	return g.coerce(g.bind(x, "w"), resT, f.Over.Pos)
}

// winCompareFuncs declares a window spec's comparator (partition keys
// ascending, NULLS FIRST, then the order keys as written) and its
// equality tests of partition keys and of order keys (peers), NULL equal
// to NULL.
func (g *flowGen) winCompareFuncs(st, cmpFn, samePart, samePeer string, s *passes.WindowSpec, part, order []*storedField) jen.Code {
	cmpKey := func(f *storedField, desc, nullsFirst bool) []jen.Code {
		a, b := jen.Id("a").Dot(f.name), jen.Id("b").Dot(f.name)
		ret := jen.Return(jen.Id("c"))
		if desc {
			ret = jen.Return(jen.Op("-").Id("c"))
		}
		cmpStmt := jen.If(jen.Id("c").Op(":=").Add(compareCode(f.t, a, b)), jen.Id("c").Op("!=").Lit(0)).Block(ret)
		if !f.nullable {
			return []jen.Code{cmpStmt}
		}
		aNull := 1
		if !nullsFirst {
			aNull = -1
		}
		return []jen.Code{
			jen.If(jen.Id("a").Dot(f.name+"ok").Op("!=").Id("b").Dot(f.name+"ok")).Block(
				jen.If(jen.Id("a").Dot(f.name+"ok")).Block(jen.Return(jen.Lit(aNull))),
				jen.Return(jen.Lit(-aNull))),
			jen.If(jen.Id("a").Dot(f.name + "ok")).Block(cmpStmt)}
	}
	var stmts []jen.Code
	for _, f := range part {
		stmts = append(stmts, cmpKey(f, false, true)...)
	}
	for i, f := range order {
		stmts = append(stmts, cmpKey(f, s.Order[i].Desc, s.Order[i].EffectiveNullsFirst())...)
	}
	stmts = append(stmts, jen.Return(jen.Lit(0)))
	eq := func(fs []*storedField) []jen.Code {
		var out []jen.Code
		for _, f := range fs {
			a, b := jen.Id("a").Dot(f.name), jen.Id("b").Dot(f.name)
			ne := jen.Add(compareCode(f.t, a, b)).Op("!=").Lit(0)
			if f.nullable {
				out = append(out,
					jen.If(jen.Id("a").Dot(f.name+"ok").Op("!=").Id("b").Dot(f.name+"ok")).Block(jen.Return(jen.False())),
					jen.If(jen.Id("a").Dot(f.name+"ok").Op("&&").Add(ne)).Block(jen.Return(jen.False())))
			} else {
				out = append(out, jen.If(ne).Block(jen.Return(jen.False())))
			}
		}
		return append(out, jen.Return(jen.True()))
	}
	params := jen.List(jen.Id("a"), jen.Id("b")).Op("*").Id(st)
	return jen.Commentf("%s orders a window's rows: partition keys, then order keys.", cmpFn).Line().
		Func().Id(cmpFn).Params(params).Int().Block(stmts...).Line().Line().
		Commentf("%s reports rows of the same window partition.", samePart).Line().
		Func().Id(samePart).Params(jen.List(jen.Id("a"), jen.Id("b")).Op("*").Id(st)).Bool().Block(eq(part)...).Line().Line().
		Commentf("%s reports peers: rows with equal order keys.", samePeer).Line().
		Func().Id(samePeer).Params(jen.List(jen.Id("a"), jen.Id("b")).Op("*").Id(st)).Bool().Block(eq(order)...)
}

// winSortKey is a key of a window spec that its sort key (winKeyFunc)
// holds: its field (read once the rows are stored, when its nullability
// is known) and how it sorts.
type winSortKey struct {
	f                *storedField
	desc, nullsFirst bool
}

// winSortKeys are the leading keys of a spec's order (partition keys,
// ascending with NULLs first, then the order keys) that window.SortKeyed's
// two words can hold: integers, dates, timestamps and intervals, at most
// two, up to the first key of another type. None when the first key is
// of another type.
func winSortKeys(s *passes.WindowSpec, sf winSpecFields) []winSortKey {
	var keys []winSortKey
	add := func(f *storedField, desc, nullsFirst bool) bool {
		switch k := f.t.Kind; {
		case len(keys) == 2:
			return false
		case f.t.IsInteger(), k == ir.TDate32, k == ir.TTimestamp, k == ir.TDuration:
			keys = append(keys, winSortKey{f, desc, nullsFirst})
			return true
		}
		return false
	}
	for _, f := range sf.part {
		if !add(f, false, true) {
			return keys
		}
	}
	for i, f := range sf.order {
		if !add(f, s.Order[i].Desc, s.Order[i].EffectiveNullsFirst()) {
			return keys
		}
	}
	return keys
}

// winKeyFunc declares a window spec's sort key (window.SortKeyed): each of
// keys as an unsigned word in the order it sorts (a signed value with its
// sign bit flipped, the bits inverted when descending; a NULL the least
// word or the greatest), the second word 0 when there is one key. A NULL
// and a value of the same word tie, and the comparator orders them.
func winKeyFunc(st, name string, keys []winSortKey) jen.Code {
	var stmts []jen.Code
	words := []string{"k1", "k2"}
	for i, k := range keys {
		w := words[i]
		v := jen.Id("a").Dot(k.f.name)
		enc := jen.Uint64().Call(v)
		if !k.f.t.IsUnsigned() {
			enc = jen.Uint64().Call(jen.Int64().Call(v)).Op("^").Parens(jen.Lit(1).Op("<<").Lit(63))
		}
		set := []jen.Code{jen.Id(w).Op("=").Add(enc)}
		if k.desc {
			set = append(set, jen.Id(w).Op("=").Op("^").Id(w))
		}
		if !k.f.nullable {
			stmts = append(stmts, set...)
			continue
		}
		null := jen.Id(w).Op("=").Qual(mathPkg, "MaxUint64")
		if k.nullsFirst {
			null = jen.Id(w).Op("=").Lit(0)
		}
		stmts = append(stmts, jen.If(jen.Id("a").Dot(k.f.name+"ok")).Block(set...).Else().Block(null))
	}
	stmts = append(stmts, jen.Return())
	return jen.Commentf("%s is a window row's sort key (window.SortKeyed): its leading keys as words in the order they sort.", name).Line().
		Func().Id(name).Params(jen.Id("a").Op("*").Id(st)).Params(jen.Id("k1"), jen.Id("k2").Uint64()).Block(stmts...)
}

// winHashFunc declares the hash of a window spec's partition keys, which
// spreads its partitions over window.Sort's buckets: equal keys hash
// equally (a DOUBLE's -0.0 and NaNs as Spark groups them).
func winHashFunc(st, name string, part []*storedField) jen.Code {
	h := jen.Id("h")
	var stmts []jen.Code
	stmts = append(stmts, jen.Var().Id("h").Uint64())
	for _, f := range part {
		v := jen.Id("a").Dot(f.name)
		var mix jen.Code
		switch t := f.t; {
		case t.IsFloat():
			mix = jen.Qual(windowPkg, "MixFloat64").Call(h, jen.Float64().Call(v))
		case t.Kind == ir.TString:
			mix = jen.Qual(windowPkg, "MixString").Call(h, v)
		case t.Kind == ir.TBinary:
			mix = jen.Qual(windowPkg, "MixBytes").Call(h, v)
		case t.Kind == ir.TBool:
			mix = jen.Qual(windowPkg, "MixBool").Call(h, v)
		case t.Kind == ir.TDecimal:
			mix = jen.Qual(windowPkg, "Mix").Call(jen.Qual(windowPkg, "Mix").Call(h, jen.Add(v).Dot("LowBits").Call()), jen.Uint64().Call(jen.Add(v).Dot("HighBits").Call()))
		default:
			mix = jen.Qual(windowPkg, "Mix").Call(h, jen.Uint64().Call(v))
		}
		set := jen.Id("h").Op("=").Add(mix)
		if f.nullable {
			stmts = append(stmts, jen.If(jen.Id("a").Dot(f.name+"ok")).Block(set).Else().Block(
				jen.Id("h").Op("=").Qual(windowPkg, "MixNull").Call(h)))
		} else {
			stmts = append(stmts, set)
		}
	}
	stmts = append(stmts, jen.Return(h))
	return jen.Commentf("%s hashes a window row's partition keys (window.Sort's buckets).", name).Line().
		Func().Id(name).Params(jen.Id("a").Op("*").Id(st)).Uint64().Block(stmts...)
}
