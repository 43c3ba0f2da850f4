package codegen

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// produce generates the code that produces r's rows and hands each to c.
func (g *flowGen) produce(r ir.Rel, c consumer) {
	if st := g.stageTop[r]; st != nil && st.Fused {
		g.genFusedStage(st, r, c)
		return
	}
	g.produceOp(r, c)
}

// genFusedStage generates a fused stage of passes' plan: a chain of
// stateless operators (scan or range, where, select, subquery aliases)
// whose consumers nest into one loop over the batches of the chain's input,
// with each row's values in typed locals and only the columns the chain
// reads loaded.
func (g *flowGen) genFusedStage(st *passes.Stage, top ir.Rel, c consumer) {
	g.emit(jen.Commentf("stage s%d (fused): %s", st.ID, strings.Join(g.details[st], " | ")))
	g.produceOp(top, c)
}

// produceOp dispatches on the operator.
func (g *flowGen) produceOp(r ir.Rel, c consumer) {
	if !parTransparent(r) {
		g.par = nil // a pipeline breaker or an order-sensitive operator: its own pipelines
	}
	if st := g.stageTop[r]; st != nil && !st.Fused {
		g.emit(jen.Commentf("stage s%d: %s", st.ID, strings.Join(g.details[st], " | ")))
	}
	switch n := r.(type) {
	case *ir.Scan:
		g.genScan(n, c)
	case *ir.Range:
		g.genRange(n, c)
	case *ir.SubqueryRel:
		g.produce(n.Input, g.genSubqueryAlias(n, c))
	case *ir.Filter:
		g.produce(n.Input, g.genFilter(n, c))
	case *ir.Project:
		if passes.WindowProject(n) {
			g.genWindowProject(n, c) // window functions (wnative)
			break
		}
		g.produce(n.Input, g.genProject(n, c))
	case *ir.Aggregate:
		g.genAggregate(n, c)
	case *ir.Join:
		g.genJoin(n, c)
	case *ir.Window:
		g.genWindow(n, c)
	case *ir.Union:
		g.genUnion(n, c)
	case *ir.Distinct:
		g.genDistinct(n, c)
	case *ir.SetOp: // EXCEPT, INTERSECT (setop.go)
		g.genSetOp(n, c)
	case *ir.Generate: // generators, LATERAL VIEW (generators.go)
		g.genGenerate(n, c)
	case *ir.Sort:
		g.genSort(n, c, 0)
	case *ir.Limit:
		g.genLimit(n, c)
	default:
		panic(fmt.Sprintf("produce: unknown operator %T", r))
	}
}

// refuseStreaming is a stateful operator over a stream read, which the
// plan refuses.
func (g *flowGen) refuseStreaming(pos ir.Pos, what string) {
	g.unplanned(pos, "%s over a stream", what)
}

// envOf is the scope of an operator's expressions over one input row.
func (g *flowGen) envOf(in ir.Rel, r *row) *env {
	return &env{rows: map[ir.Rel]*row{in: r}}
}

// genScan generates the loop over a dataset's batches: fc.ReadColumns (of
// the columns the loop loads; fc.ReadPruned when a filter over the scan
// bounds an integer column by a constant), then per batch the typed arrays of the
// columns the consumer reads (found while its code is generated), then the
// row loop.
func (g *flowGen) genScan(n *ir.Scan, c consumer) {
	d := g.u.Pipeline.LookupDataset(n.Name)
	name := n.Name
	if d != nil {
		name = d.Name
	}
	schema := g.u.Schemas[n]
	// a pipeline its last consumer asked to run on the workers (parallel.go)
	par := g.par
	g.par = nil
	rd := g.name("rd")
	rec := g.name("rec")
	nrows := "n" + strings.TrimPrefix(rec, "rec")
	i := "i" + strings.TrimPrefix(rec, "rec")
	// the call's arguments are filled in once the loop is generated: the
	// columns it loads are the ones the reader decodes
	readCall := jen.Id("fc")
	g.emit(
		jen.List(jen.Id(rd), jen.Err()).Op(":=").Add(readCall),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Defer().Id(rd).Dot("Close").Call(),
	)
	type arr struct {
		name, values string
	}
	arrays := map[int]*arr{}
	var order []int
	getArr := func(k int) *arr {
		if a := arrays[k]; a != nil {
			return a
		}
		a := &arr{name: fmt.Sprintf("%s_%d", rec, k)}
		if mustPhys(schema[k].Type).values {
			a.values = a.name + "v"
		}
		arrays[k] = a
		order = append(order, k)
		return a
	}
	c = g.observeWatermark(n, c)
	r := &row{cols: make([]*column, len(schema))}
	for k, f := range schema {
		if f.Open {
			continue
		}
		k, f := k, f
		r.cols[k] = &column{t: f.Type, load: func() *value {
			a := getArr(k)
			p := mustPhys(f.Type)
			var load jen.Code
			switch {
			case p.nested:
				load = jen.Qual(nestedPkg, "Get").Call(jen.Id(a.name), jen.Id(i))
			case p.values:
				load = jen.Id(a.values).Index(jen.Id(i))
				if p.elem != "" {
					load = goType(f.Type).Call(load)
				}
			default:
				load = jen.Id(a.name).Dot("Value").Call(jen.Id(i))
			}
			vn := g.name(goIdent(f.Name) + "_")
			x := &value{t: f.Type}
			x.vl = g.declare([]string{vn}, load)[0]
			x.v = jen.Id(vn)
			if f.Nullable {
				x.okl = g.declare([]string{vn + "ok"}, jen.Id(a.name).Dot("IsValid").Call(jen.Id(i)))[0]
				x.ok = jen.Id(vn + "ok")
			}
			return x
		}, scan: true}
	}
	var begin []jen.Code
	if par != nil {
		if n.Stream {
			panic("codegen: a parallel pipeline over a stream read")
		}
		par.on, par.inside = true, true
		par.w, par.seq, par.row = g.name("w"), g.name("seq"), i
		begin = g.sub(par.begin)
	}
	g.recs = append(g.recs, rec)
	rl, outer := &rowLoop{i: i}, g.rowEnd
	g.rowEnd = rl
	body := g.loop(func() { c(r) })
	g.rowEnd = outer
	g.recs = g.recs[:len(g.recs)-1]
	var batch []jen.Code
	if par == nil {
		batch = append(batch,
			jen.List(jen.Id(rec), jen.Err()).Op(":=").Id(rd).Dot("Next").Call(),
			jen.If(jen.Err().Op("==").Qual(ioPkg, "EOF")).Block(jen.Break()),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	}
	batch = append(batch,
		jen.Id(nrows).Op(":=").Int().Call(jen.Id(rec).Dot("NumRows").Call()),
		jen.Id("fc").Dot("CountIn").Call(jen.Int64().Call(jen.Id(nrows))),
	)
	readArgs := []jen.Code{jen.Lit(name)}
	if bounds := g.scanBounds(n); len(bounds) > 0 {
		readCall.Dot("ReadPruned")
		readArgs = append(readArgs, jen.Index().Qual(formatPkg, "Bound").Values(bounds...))
	} else {
		readCall.Dot("ReadColumns")
	}
	for _, k := range slices.Sorted(maps.Keys(arrays)) {
		readArgs = append(readArgs, jen.Lit(k))
	}
	readCall.Call(readArgs...)
	for _, k := range order {
		a := arrays[k]
		batch = append(batch, jen.Id(a.name).Op(":=").Id(rec).Dot("Column").Call(jen.Lit(k)).Assert(jen.Op("*").Qual(arrayPkg, mustPhys(schema[k].Type).array)))
		if a.values != "" {
			batch = append(batch, jen.Id(a.values).Op(":=").Id(a.name).Dot("Values").Call())
		}
	}
	batch = append(batch,
		jen.For(jen.Id(i).Op(":=").Lit(0), jen.Id(i).Op("<").Id(nrows), jen.Id(i).Op("++")).Block(body...))
	batch = append(batch, rl.after...)
	g.emit(jen.Commentf("scan %s", scanText(n)))
	if par != nil {
		par.inside = false
		g.genParScan(par, rd, rec, begin, batch)
		return
	}
	batch = append(batch, jen.Id(rec).Dot("Release").Call())
	g.emit(jen.For().Block(batch...))
}

// scanText describes a scan for a comment.
func scanText(n *ir.Scan) string {
	s := n.Name
	if n.Stream {
		s = "stream " + s
	}
	if n.Alias != "" {
		s += " as " + n.Alias
	}
	return s
}

// genRange generates range(start, end, step): one int64 column "id". The
// row count is computed at generation time, so the loop cannot overflow.
func (g *flowGen) genRange(n *ir.Range, c consumer) {
	step := n.Step
	if step == 0 {
		step = 1
	}
	span := new(big.Int).Sub(big.NewInt(n.End), big.NewInt(n.Start))
	st := big.NewInt(step)
	cnt := new(big.Int)
	if span.Sign() != 0 && span.Sign() == st.Sign() {
		// ceil(span / step) for same signs
		q, m := new(big.Int).QuoRem(span, st, new(big.Int))
		if m.Sign() != 0 {
			q.Add(q, bigOne)
		}
		cnt = q
	}
	k := g.name("k")
	id := g.name("id")
	r := &row{cols: []*column{{t: ir.Int64, load: func() *value {
		x := &value{t: ir.Int64}
		x.vl = g.declare([]string{id}, jen.Add(typedNum("int64", fmt.Sprint(n.Start))).Op("+").Id(k).Op("*").Add(typedNum("int64", fmt.Sprint(step))))[0]
		x.v = jen.Id(id)
		return x
	}}}}
	body := g.loop(func() { c(r) })
	g.emit(jen.Commentf("range(%d, %d, %d)", n.Start, n.End, step),
		jen.For(jen.Id(k).Op(":=").Int64().Call(jen.Lit(0)), jen.Id(k).Op("<").Add(typedNum("int64", cnt.String())), jen.Id(k).Op("++")).Block(body...))
}

// genSubqueryAlias passes its input's visible columns through under a new
// qualifier.
func (g *flowGen) genSubqueryAlias(n *ir.SubqueryRel, c consumer) consumer {
	nvis := len(g.u.Schemas[n])
	return func(r *row) {
		c(&row{cols: r.cols[:min(nvis, len(r.cols))]})
	}
}

// genFilter drops rows whose condition is not TRUE. Top-level conjuncts are
// tested one after the other, so a FALSE one stops the evaluation of the
// rest (false and 1/0 = 1 does not raise).
func (g *flowGen) genFilter(n *ir.Filter, c consumer) consumer {
	return func(r *row) {
		e := g.envOf(n.Input, r)
		for _, conj := range conjuncts(n.Cond) {
			x := g.genExpr(conj, e)
			if x.k != nil && x.k.b && !x.null {
				continue
			}
			g.emit(jen.If(jen.Op("!").Parens(truth(x))).Block(g.skipStmt()))
			g.refineNotNull(conj, n.Input, r)
		}
		c(r)
	}
}

// refineNotNull records that the columns a passed condition is strict in
// are not NULL in the rest of the current block (after "where x > 0" or
// "where x is not null", x's validity is no longer tested).
func (g *flowGen) refineNotNull(cond ir.Expr, in ir.Rel, r *row) {
	for _, ref := range strictCols(cond) {
		b, ok := g.u.Refs[ref]
		if !ok || b.Depth != 0 || b.Rel != in || b.Index >= len(r.cols) || r.cols[b.Index] == nil {
			continue
		}
		col := r.cols[b.Index]
		if x := g.loaded(col); x != nil && x.nullable() && !x.null {
			col.cache = append(col.cache, cachedValue{blk: g.blk, v: nonNull(x)})
		}
	}
}

// nonNull is x known not to be NULL.
func nonNull(x *value) *value {
	return &value{t: x.t, v: x.v, vl: x.vl, k: x.k}
}

// strictCols lists the column references that cannot be NULL when cond
// is TRUE.
func strictCols(cond ir.Expr) []*ir.ColumnRef {
	switch e := cond.(type) {
	case *ir.IsNull:
		if e.Not {
			return strictRefs(e.X)
		}
	case *ir.Binary:
		switch {
		case e.Op == ir.OpAnd:
			return append(strictCols(e.L), strictCols(e.R)...)
		case e.Op.IsComparison() && e.Op != ir.OpEqNullSafe:
			return append(strictRefs(e.L), strictRefs(e.R)...)
		}
	case *ir.In:
		return strictRefs(e.X)
	case *ir.Between:
		return append(append(strictRefs(e.X), strictRefs(e.Lo)...), strictRefs(e.Hi)...)
	case *ir.Like:
		return append(strictRefs(e.X), strictRefs(e.Pattern)...)
	}
	return nil
}

// strictRefs lists the column references whose NULL makes e NULL.
func strictRefs(e ir.Expr) []*ir.ColumnRef {
	switch e := e.(type) {
	case *ir.ColumnRef:
		return []*ir.ColumnRef{e}
	case *ir.Binary:
		if e.Op.IsArithmetic() || e.Op.IsBitwise() || e.Op.IsShift() || e.Op == ir.OpConcat || e.Op.IsComparison() && e.Op != ir.OpEqNullSafe {
			return append(strictRefs(e.L), strictRefs(e.R)...)
		}
	case *ir.Unary:
		return strictRefs(e.X)
	case *ir.Cast:
		return strictRefs(e.X)
	}
	return nil
}

// conjuncts splits e on top-level ANDs.
func conjuncts(e ir.Expr) []ir.Expr {
	if b, ok := e.(*ir.Binary); ok && b.Op == ir.OpAnd {
		return append(conjuncts(b.L), conjuncts(b.R)...)
	}
	return []ir.Expr{e}
}

// genProject computes the select items the consumer reads, each on first
// use (so a later where is tested before the other items are computed, as
// Spark's optimizer pushes filters below projections).
func (g *flowGen) genProject(n *ir.Project, c consumer) consumer {
	cols := g.u.Projections[n]
	schema := g.u.Schemas[n]
	return func(r *row) {
		e := g.envOf(n.Input, r)
		out := &row{cols: make([]*column, len(schema))}
		for j, pc := range cols {
			if pc.InputIndex >= 0 {
				out.cols[j] = r.cols[pc.InputIndex]
				continue
			}
			item := n.Items[pc.Item]
			col := &column{t: schema[j].Type, load: func() *value {
				return g.bind(g.genExpr(item.Expr, e), "p")
			}}
			// an item that names a column of a scan's batch or of a join's
			// build row stays one (deferAccum reloads the first by the row's
			// index, memoGroup keys its memo by the second's row)
			if src := g.refColumn(item.Expr, e); src != nil {
				col.scan, col.from = src.scan, src.from
			}
			out.cols[j] = col
		}
		c(out)
	}
}

// refColumn is the column of e that x reads when x is a plain column
// reference in scope there, else nil.
func (g *flowGen) refColumn(x ir.Expr, e *env) *column {
	ref, ok := x.(*ir.ColumnRef)
	if !ok {
		return nil
	}
	b, ok := g.u.Refs[ref]
	if !ok {
		return nil
	}
	r := e.rows[b.Rel]
	if r == nil || b.Index >= len(r.cols) {
		return nil
	}
	return r.cols[b.Index]
}

// genUnion produces each input in turn into the same consumer, each row's
// columns widened to the union's types; UNION (not ALL) adds a distinct.
func (g *flowGen) genUnion(n *ir.Union, c consumer) {
	schema := g.u.Schemas[n]
	if !n.All {
		if passes.Streaming(n) {
			g.refuseStreaming(n.Pos, "union (distinct)")
			return
		}
		var finish func()
		c, finish = g.distinctConsumer(schema, fmt.Sprintf("union at %s (its distinct)", posText(n.Pos)), c)
		defer finish()
	}
	for _, in := range n.Inputs {
		in := in
		g.produce(in, func(r *row) {
			out := &row{cols: make([]*column, len(schema))}
			for k, f := range schema {
				if k >= len(r.cols) || r.cols[k] == nil {
					continue
				}
				src, f := r.cols[k], f
				if sameType(src.t, f.Type) && !g.shifts(src.t, f.Type) {
					out.cols[k] = src
					continue
				}
				out.cols[k] = &column{t: f.Type, load: func() *value {
					return g.bind(g.coerce(g.col(src), f.Type, in.Position()), "u")
				}}
			}
			c(out)
		})
	}
}

// genDistinct removes duplicate rows with a hash set of a generated row
// struct; it streams (a row is passed on the first time it is seen). Within
// the watermark it is the stream state of genStreamDedup.
func (g *flowGen) genDistinct(n *ir.Distinct, c consumer) {
	if n.WithinWatermark { // dedup within the watermark
		g.genStreamDedup(n, c) // streamdedup.go
		return
	}
	if passes.Streaming(n) {
		g.refuseStreaming(n.Pos, "distinct")
		return
	}
	consume, finish := g.distinctConsumer(g.u.Schemas[n], fmt.Sprintf("distinct at %s", posText(n.Pos)), c)
	g.produce(n.Input, consume)
	finish()
}

// distinctConsumer is the consumer of genDistinct over schema's columns;
// op names the operator in its --memory-limit account of the rows seen.
// Past the limit it spills (aggspill.go): finish, called after the input's
// code, emits the replay of the rows spilled, each passed on to c the
// first time it is seen there.
func (g *flowGen) distinctConsumer(schema passes.Schema, op string, c consumer) (consumer, func()) {
	vis := schema.Visible()
	types := make([]ir.Type, len(vis))
	for i, f := range vis {
		types[i] = f.Type
	}
	k := g.newKeyType("distinct", types, true)
	set := g.name("seen")
	g.emit(jen.Id(set).Op(":=").Map(k.goType()).Struct().Values())
	sp := g.newGraceSpill(op)
	mem := g.newMemAccountOf(op, memSetTimes, memSetOverhead)
	mem.spill = sp
	// see passes the row of vals (cols its columns, nil when read back) to
	// c unless it was seen, or spills it
	see := func(vals []*value, cols []*column) {
		key := k.build(g, vals)
		g.emit(jen.If(jen.List(jen.Id("_"), jen.Id("dup")).Op(":=").Id(set).Index(key), jen.Id("dup")).Block(g.skipStmt()))
		sp.spillNew(g, key, func(w string) {
			for i, x := range vals {
				g.spillPutValue(w, g.coerce(x, types[i], ir.Pos{}))
			}
		})
		g.emit(jen.Id(set).Index(k.cloned(g, key)).Op("=").Struct().Values())
		var strs []jen.Code
		for i, t := range types {
			if t.Kind == ir.TString || t.Kind == ir.TBinary || t.IsNested() { // a nested value's key is its encoding
				strs = append(strs, jen.Add(key).Dot(fmt.Sprintf("k%d", i)))
			}
		}
		mem.add(g, jen.Id(k.name).Values(), strs)
		out := &row{cols: make([]*column, len(vis))}
		for i, x := range vals {
			switch {
			case x.t.IsFloat() || x.t.IsNested():
				// the distinct row holds the normalized value, as Spark's
				// aggregate does: -0.0 is 0.0
				out.cols[i] = constColumn(g.bind(normalized(x), "norm"))
			case cols != nil:
				out.cols[i] = cols[i]
			default:
				out.cols[i] = constColumn(x)
			}
		}
		c(out)
	}
	consume := func(r *row) {
		vals := make([]*value, len(vis))
		for i := range vis {
			vals[i] = g.col(r.cols[i])
		}
		see(vals, r.cols)
	}
	finish := func() {
		reset := []jen.Code{jen.Id(set).Op("=").Map(k.goType()).Struct().Values()}
		sp.replay(g, func() []jen.Code { return nil }, reset, func(r string) {
			vals := make([]*value, len(vis))
			for i, t := range types {
				vals[i] = g.spillVar(t)
				g.spillGetValue(r, vals[i])
			}
			see(vals, nil)
		})
	}
	return consume, finish
}

// genWindow assigns each row its tumbling or hopping windows over bounded
// input, adding window_start and window_end (in the time column's type).
// Rows whose time is NULL belong to no window and are dropped, as in
// Spark. A hop expands a row into size/slide windows, latest first.
func (g *flowGen) genWindow(n *ir.Window, c consumer) {
	switch {
	case passes.Streaming(n):
		g.genStreamWindow(n, c)
		return
	}
	schema := g.u.Schemas[n]
	wt := schema[len(g.u.Schemas[n.Input].Visible())].Type
	per := int64(1e9) / unitsPerSecond[wt.Unit]
	size, slide := int64(n.Size), int64(n.Slide)
	if n.Kind == ir.WindowTumble {
		slide = size
	}
	size, slide = size/per, slide/per // the plan checked that they divide
	g.produce(n.Input, func(r *row) {
		e := g.envOf(n.Input, r)
		t := g.eventTime(n, e, wt)
		if t == nil {
			return
		}
		vis := len(g.u.Schemas[n.Input].Visible())
		out := func(ws string) *row {
			o := &row{cols: make([]*column, len(schema))}
			copy(o.cols, r.cols[:vis])
			copy(o.cols[vis+2:], r.cols[vis:])
			o.cols[vis] = constColumn(&value{t: wt, v: jen.Id(ws)})
			o.cols[vis+1] = &column{t: wt, load: func() *value {
				we := g.name("wend")
				ee := g.name("e")
				g.emit(jen.List(jen.Id(we), jen.Id(ee)).Op(":=").Qual(sqlfnPkg, "AddInt64").Call(jen.Id(ws), typedNum("int64", fmt.Sprint(size))),
					jen.If(jen.Id(ee).Op("!=").Nil()).Block(g.fail(n.Pos, jen.Id(ee))))
				return &value{t: wt, v: jen.Id(we)}
			}}
			return o
		}
		last := g.name("wstart")
		g.emit(jen.Id(last).Op(":=").Add(V(t)).Op("-").Qual(sqlfnPkg, "FloorMod").Call(V(t), typedNum("int64", fmt.Sprint(slide))))
		if n.Kind == ir.WindowTumble {
			c(out(last))
			return
		}
		ws := g.name("ws")
		body := g.loop(func() { c(out(ws)) })
		g.emit(jen.For(jen.Id(ws).Op(":=").Id(last), jen.Id(ws).Op(">").Add(V(t)).Op("-").Add(typedNum("int64", fmt.Sprint(size))), jen.Id(ws).Op("-=").Add(typedNum("int64", fmt.Sprint(slide)))).Block(body...))
	})
}

// genLimit passes on at most N rows after skipping Offset, and stops its
// input's pipelines (a jump past them) once it has them, so that scans stop
// reading early. A limit over a sort keeps only the top N+Offset rows while
// collecting.
func (g *flowGen) genLimit(n *ir.Limit, c consumer) {
	if passes.Streaming(n) {
		g.refuseStreaming(n.Pos, "limit")
		return
	}
	if n.N <= 0 {
		g.emit(jen.Comment("limit 0: nothing to read"))
		return
	}
	taken := g.name("taken")
	end := g.name("limitDone")
	g.emit(jen.Id(taken).Op(":=").Int64().Call(jen.Lit(0)))
	skipped := ""
	if n.Offset > 0 {
		skipped = g.name("skipped")
		g.emit(jen.Id(skipped).Op(":=").Int64().Call(jen.Lit(0)))
	}
	endUsed := false
	openAtStart := len(g.recs)
	lim := func(r *row) {
		if skipped != "" {
			g.emit(jen.If(jen.Id(skipped).Op("<").Add(typedNum("int64", fmt.Sprint(n.Offset)))).Block(
				jen.Id(skipped).Op("++"), g.skipStmt()))
		}
		g.emit(jen.Id(taken).Op("++"))
		next := &skipTarget{label: g.name("limitNext")}
		g.skips = append(g.skips, next)
		inner := g.sub(func() { c(r) })
		g.skips = g.skips[:len(g.skips)-1]
		g.emit(jen.Block(inner...))
		var stop []jen.Code
		for _, rec := range g.recs[openAtStart:] {
			stop = append(stop, jen.Id(rec).Dot("Release").Call())
		}
		stop = append(stop, jen.Goto().Id(end))
		endUsed = true
		check := jen.If(jen.Id(taken).Op(">=").Add(typedNum("int64", fmt.Sprint(n.N)))).Block(stop...)
		if next.used {
			g.emit(jen.Id(next.label).Op(":").Add(check))
		} else {
			g.emit(check)
		}
	}
	var stmts []jen.Code
	if s, ok := n.Input.(*ir.Sort); ok {
		stmts = g.sub(func() { g.genSort(s, lim, g.plan.TopN[s]) })
	} else {
		stmts = g.sub(func() { g.produce(n.Input, lim) })
	}
	g.emit(jen.Block(stmts...))
	if endUsed {
		g.emit(jen.Id(end).Op(":"))
	}
}

// scanBounds are the plan's bounds of a scan (passes.FlowPlan.Bounds), as
// format.Bound values.
func (g *flowGen) scanBounds(n *ir.Scan) []jen.Code {
	var out []jen.Code
	for _, b := range g.plan.Bounds[n] {
		if b.IsText {
			out = append(out, jen.Values(jen.Dict{jen.Id("Col"): jen.Lit(b.Col), jen.Id("Op"): jen.Lit(b.Op), jen.Id("Text"): jen.Lit(b.Text)}))
		} else {
			out = append(out, jen.Values(jen.Dict{jen.Id("Col"): jen.Lit(b.Col), jen.Id("Op"): jen.Lit(b.Op), jen.Id("Value"): jen.Lit(b.Value)}))
		}
	}
	return out
}

// eventTime evaluates window n's time column in e as wt, and skips the row
// when it is null (a row without a time is in no window): nil when it is
// always null.
func (g *flowGen) eventTime(n *ir.Window, e *env, wt ir.Type) *value {
	t := g.genExpr(n.Time, e)
	if !sameRep(t.t, wt) {
		t = g.coerce(t, wt, n.Time.Position())
	}
	if t.null {
		g.emit(g.skipStmt())
		return nil
	}
	if t.nullable() {
		g.emit(jen.If(jen.Op("!").Add(OK(t))).Block(g.skipStmt()))
	}
	return t
}
