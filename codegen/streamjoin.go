package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
)

// genStreamJoin generates an inner join of two streams with a time bound
// (rt/stream.IntervalJoin): every row of each side is added to the state,
// probing the other side's rows of the same key within the bound; the
// pairs found are tested against the whole ON condition and passed on. A
// row whose event time is below the watermark less the allowed lateness is
// late: it is dropped and counted. Held rows are evicted when the watermark
// passes the last time the other side could match them.
//
// A left, right or full outer join also emits each row of a preserved side
// that no pair matched (through the whole ON condition), NULL-padded, once:
// when it is evicted (rt/stream.IntervalJoin.AdvanceOuter), that is when the
// watermark passes the last time the other side could match it. A row of a
// preserved side whose key or event time is NULL can match nothing: it is
// emitted NULL-padded at once.
func (g *flowGen) genStreamJoin(n *ir.Join, c consumer) {
	sf := g.st
	tb := g.plan.Joins[n].Time
	if sf == nil || g.plan.Stream.Join != n || tb == nil {
		g.unplanned(n.Pos, "a join of two streams the stream plan does not hold")
	}
	sf.ops++
	outer := n.Kind == ir.JoinLeft || n.Kind == ir.JoinRight || n.Kind == ir.JoinFull
	preserved := map[bool]bool{true: n.Kind == ir.JoinLeft || n.Kind == ir.JoinFull, false: n.Kind == ir.JoinRight || n.Kind == ir.JoinFull}
	keys, _ := g.joinKeys(n)
	flow := g.flow.Name
	kt := g.newStruct("streamJoinKey", "is the key of a join of two streams.")
	for i, k := range keys {
		kt.add(fmt.Sprintf("K%d", i), goType(k.Type))
	}
	type side struct {
		rel    ir.Rel
		st     *structDecl
		stored []bool
		tcol   ir.Expr
	}
	mkSide := func(r ir.Rel, stem string, t ir.Expr) *side {
		return &side{rel: r, st: g.newStruct(stem, "is one held row of a side of a join of two streams."), tcol: t,
			stored: make([]bool, len(g.u.Schemas[r]))}
	}
	L, R := mkSide(n.Left, "streamLeft", tb.L), mkSide(n.Right, "streamRight", tb.R)
	// the columns each side keeps: what the join's consumers and its ON read
	used := map[ir.Rel]map[int]bool{n.Left: {}, n.Right: {}}
	ir.WalkExpr(n.On, func(x ir.Expr) bool {
		if ref, ok := x.(*ir.ColumnRef); ok {
			if b, ok := g.u.Refs[ref]; ok && b.Depth == 0 && used[b.Rel] != nil {
				used[b.Rel][b.Index] = true
			}
		}
		return true
	})
	for _, s := range []*side{L, R} {
		need := g.plan.Need[s.rel]
		for j, f := range g.u.Schemas[s.rel] {
			if f.Open || !(used[s.rel][j] || j < len(need) && need[j]) {
				continue
			}
			switch f.Type.Kind {
			case ir.TDecimal:
				g.unplanned(n.Pos, "a join of two streams that keeps a %s column (%s) is not supported yet", f.Type, f.Name)
				return
			}
			s.stored[j] = true
			s.st.add(fmt.Sprintf("C%d", j), goType(f.Type))
			s.st.add(fmt.Sprintf("C%dok", j), jen.Bool())
		}
		if len(s.st.fields) == 0 {
			s.st.add("None", jen.Bool())
		}
	}
	pair := g.global("streamPair_", flow)
	pairFields := []jen.Code{jen.Id("L").Id(L.st.name), jen.Id("R").Id(R.st.name)}
	emitParams := []jen.Code{jen.Id("l").Id(L.st.name), jen.Id("r").Id(R.st.name)}
	pairVals := []jen.Code{jen.Id("l"), jen.Id("r")}
	addL, addR, snap, restore, snapType := "AddLeft", "AddRight", "Snapshot", "Restore", "JoinSnapshot"
	if outer {
		// the pair's matched flags, set when it passes the ON condition
		pairFields = append(pairFields, jen.Id("M").Qual(streamPkg, "Match"))
		emitParams = append(emitParams, jen.Id("m").Qual(streamPkg, "Match"))
		pairVals = append(pairVals, jen.Id("m"))
		addL, addR, snap, restore, snapType = "AddLeftM", "AddRightM", "SnapshotOuter", "RestoreOuter", "OuterJoinSnapshot"
	}
	g.typeDecls = append(g.typeDecls, func() jen.Code {
		return jen.Commentf("%s is a pair of rows a join of two streams matched.", pair).Line().
			Type().Id(pair).Struct(pairFields...)
	})

	ij, pairs, emitFn := g.name("ij"), g.name("pairs"), g.name("match")
	g.prelude = append(g.prelude,
		jen.Commentf("the state of the join of two streams at %s (rt/stream.IntervalJoin): tr - tl in [%d, %d]", posText(n.Pos), tb.Lower, tb.Upper),
		jen.List(jen.Id(ij), jen.Id(ij+"Err")).Op(":=").Qual(streamPkg, "NewIntervalJoin").Types(jen.Id(kt.name), jen.Id(L.st.name), jen.Id(R.st.name)).Call(
			jen.Lit(tb.Lower), jen.Lit(tb.Upper), jen.Lit(sf.lateness), jen.Lit(msGrain(sf.unit))),
		jen.If(jen.Id(ij+"Err").Op("!=").Nil()).Block(jen.Return(jen.Id(ij+"Err"))),
		jen.Var().Id(pairs).Index().Id(pair),
		jen.Id(emitFn).Op(":=").Func().Params(emitParams...).Block(
			jen.Id(pairs).Op("=").Append(jen.Id(pairs), jen.Id(pair).Values(pairVals...))))
	field := fmt.Sprintf("J%d", sf.ops-1)
	sf.addState(field, jen.Qual(streamPkg, snapType).Types(jen.Id(kt.name), jen.Id(L.st.name), jen.Id(R.st.name)), ij, restore, snap, "join state")
	shape := fmt.Sprintf("%s: interval join [%d, %d]; key", field, tb.Lower, tb.Upper)
	if outer {
		shape = fmt.Sprintf("%s: %s outer interval join [%d, %d]; key", field, n.Kind, tb.Lower, tb.Upper)
	}
	for _, k := range keys {
		shape += " " + k.Type.String()
	}
	for _, s := range []*side{L, R} {
		shape += "; side"
		for _, f := range s.st.fields {
			shape += fmt.Sprintf(" %s %#v", f.name, f.typ)
		}
	}
	sf.shape = append(sf.shape, shape)

	// a held row's columns, read back from its struct
	heldRow := func(s *side, v jen.Code) *row {
		sch := g.u.Schemas[s.rel]
		out := &row{cols: make([]*column, len(sch))}
		for j, f := range sch {
			if !s.stored[j] {
				continue
			}
			j, t := j, f.Type
			out.cols[j] = &column{t: t, load: func() *value {
				// the other side's nullability is not known yet when this
				// side's probe is generated: test the flag always
				return &value{t: t, v: jen.Add(v).Dot(fmt.Sprintf("C%d", j)), ok: jen.Add(v).Dot(fmt.Sprintf("C%dok", j))}
			}}
		}
		return out
	}
	outSchema := g.u.Schemas[n]
	info := g.u.Joins[n]
	need := g.plan.Need[n]
	joined := func(l, r *row) *row {
		out := &row{cols: make([]*column, len(outSchema))}
		for k, jc := range info.Output {
			if k >= len(need) || !need[k] {
				continue
			}
			var src *column
			if jc.Left >= 0 {
				src = l.cols[jc.Left]
			} else {
				src = r.cols[jc.Right]
			}
			if src != nil {
				out.cols[k] = g.castColumn(src, outSchema[k].Type, n.Pos)
			}
		}
		return out
	}
	// the missing side of a NULL-padded row
	nullRow := func(s *side) *row {
		sch := g.u.Schemas[s.rel]
		out := &row{cols: make([]*column, len(sch)), allNull: true}
		for j, f := range sch {
			out.cols[j] = constColumn(nullValue(f.Type))
		}
		return out
	}
	padded := func(r *row, left bool) *row {
		if left {
			return joined(r, nullRow(R))
		}
		return joined(nullRow(L), r)
	}
	mem := g.newMemHold(fmt.Sprintf("join at %s (its held rows)", posText(n.Pos)))
	// add is one side's pipeline: key, time, held row, then the probe
	add := func(s *side, left bool) {
		g.emit(jen.Commentf("join of two streams at %s: the %s side", posText(n.Pos), map[bool]string{true: "left", false: "right"}[left]))
		g.produce(s.rel, func(r *row) {
			e := g.envOf(s.rel, r)
			// a row that can match nothing: skipped, or NULL-padded at once
			// on a preserved side
			drop := func() []jen.Code {
				if !preserved[left] {
					return []jen.Code{g.skipStmt()}
				}
				return append(g.sub(func() { c(padded(r, left)) }), g.skipStmt())
			}
			t := g.genExpr(s.tcol, e)
			if t.null {
				g.emit(drop()...)
				return
			}
			if t.nullable() {
				g.emit(jen.If(jen.Op("!").Add(OK(t))).Block(drop()...))
			}
			// a NULL key: a late row is dropped and counted, as any late row
			dropKey := func() []jen.Code {
				if !preserved[left] {
					return drop()
				}
				return append([]jen.Code{jen.If(jen.Id(ij).Dot("Late").Call(jen.Int64().Call(V(nonNull(t))))).Block(
					jen.Id(sf.nlate).Op("++"), g.skipStmt())}, drop()...)
			}
			kvals := g.keyValues(keys, left, r, e, n.Pos)
			kd := jen.Dict{}
			for i, x := range kvals {
				if x.null {
					g.emit(dropKey()...)
					return
				}
				if x.nullable() {
					g.emit(jen.If(jen.Op("!").Add(OK(x))).Block(dropKey()...)) // NULL keys never match
				}
				kd[jen.Id(fmt.Sprintf("K%d", i))] = cloneValue(x.t, V(x))
			}
			rd := jen.Dict{}
			for j := range g.u.Schemas[s.rel] {
				if !s.stored[j] || r.cols[j] == nil {
					continue
				}
				x := g.col(r.cols[j])
				if x.null {
					continue
				}
				rd[jen.Id(fmt.Sprintf("C%d", j))] = cloneValue(x.t, V0(x))
				rd[jen.Id(fmt.Sprintf("C%dok", j))] = OK(x)
			}
			method := addR
			if left {
				method = addL
			}
			g.emit(jen.Id(pairs).Op("=").Id(pairs).Index(jen.Empty(), jen.Lit(0)),
				jen.If(jen.Op("!").Id(ij).Dot(method).Call(jen.Id(kt.name).Values(kd), jen.Int64().Call(V(nonNull(t))), jen.Id(s.st.name).Values(rd), jen.Id(emitFn))).Block(
					jen.Id(sf.nlate).Op("++"), g.skipStmt()))
			// the held rows' columns and index, as the state counts them
			mem.holdBytes(g, jen.Id(ij).Dot("HeldBytes").Call())
			p := g.name("p")
			body := g.loop(func() {
				var lr, rr *row
				if left {
					lr, rr = r, heldRow(R, jen.Id(p).Dot("R"))
				} else {
					lr, rr = heldRow(L, jen.Id(p).Dot("L")), r
				}
				en := &env{rows: map[ir.Rel]*row{n.Left: lr, n.Right: rr}}
				if cond := truth(g.genExpr(n.On, en)); fmt.Sprintf("%#v", cond) != "true" {
					g.emit(jen.If(jen.Op("!").Parens(cond)).Block(jen.Continue()))
				}
				if outer {
					g.emit(jen.Id(p).Dot("M").Dot("Set").Call())
				}
				c(joined(lr, rr))
			})
			g.emit(jen.For(jen.List(jen.Id("_"), jen.Id(p)).Op(":=").Range().Id(pairs)).Block(body...))
		})
	}
	add(L, true)
	add(R, false)
	if !outer {
		g.emit(jen.Comment("the micro-batch ends: count late rows, advance the watermark, evict"),
			jen.Id("fc").Dot("Late").Call(jen.Id(sf.nlate)),
			jen.Id(ij).Dot("Advance").Call(jen.Id(sf.tracker).Dot("Advance").Call()))
		return
	}
	g.emit(jen.Comment("the micro-batch ends: count late rows, advance the watermark, evict, and emit the"),
		jen.Comment("evicted rows of a preserved side that nothing matched, NULL-padded"),
		jen.Id("fc").Dot("Late").Call(jen.Id(sf.nlate)))
	wm, wmOK := g.name("wm"), g.name("wmOK")
	g.emit(jen.List(jen.Id(wm), jen.Id(wmOK)).Op(":=").Id(sf.tracker).Dot("Advance").Call())
	adv := []jen.Code{jen.Id(wm), jen.Id(wmOK)}
	if sf.bounded {
		// every stream input is a bounded source: its end evicts every row
		g.emit(jen.List(jen.Id("_"), jen.Id("_")).Op("=").List(jen.Id(wm), jen.Id(wmOK)))
		adv = []jen.Code{jen.Qual(mathPkg, "MaxInt64"), jen.True()}
	}
	var loops []jen.Code
	for _, s := range []*side{L, R} {
		left := s == L
		if !preserved[left] {
			adv = append(adv, jen.Nil())
			continue
		}
		un, u := g.name("unmatched"), g.name("u")
		g.emit(jen.Var().Id(un).Index().Id(s.st.name))
		adv = append(adv, jen.Func().Params(jen.Id("x").Id(s.st.name)).Block(jen.Id(un).Op("=").Append(jen.Id(un), jen.Id("x"))))
		body := g.loop(func() { c(padded(heldRow(s, jen.Id(u)), left)) })
		loops = append(loops, jen.For(jen.List(jen.Id("_"), jen.Id(u)).Op(":=").Range().Id(un)).Block(body...))
	}
	g.emit(jen.Id(ij).Dot("AdvanceOuter").Call(adv...))
	g.emit(loops...)
}
