package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// joinKey is one equi-join key of the plan (passes.JoinKey).
type joinKey = passes.JoinKey

// joinKeys are a join's equi-join keys and residual condition, from the
// plan.
func (g *flowGen) joinKeys(n *ir.Join) ([]joinKey, []ir.Expr) {
	jp := g.plan.Joins[n]
	return jp.Keys, jp.Residual
}

// keyValues computes the key values of one side, coerced to the keys'
// types.
func (g *flowGen) keyValues(keys []joinKey, left bool, r *row, e *env, pos ir.Pos) []*value {
	vals := make([]*value, len(keys))
	for i, k := range keys {
		var x *value
		switch {
		case left && k.LCol >= 0:
			x = g.col(r.cols[k.LCol])
		case !left && k.RCol >= 0:
			x = g.col(r.cols[k.RCol])
		case left:
			x = g.genExpr(k.L, e)
		default:
			x = g.genExpr(k.R, e)
		}
		vals[i] = g.coerce(x, k.Type, pos)
	}
	return vals
}

// genJoin generates a hash join. The right input is the build side: its
// pipeline ends by storing each row's needed columns in a slice of
// generated structs, chained per key in a hash table (next links each row
// to the key's previous row; an rt/hashtab table maps a key to its chain's
// head, the last row, marked kernel.ChainMore when the key has more than one row,
// so that a probe of a unique key never reads next; a Go map maps a
// composite or NULL-safe key to a bucket holding the head); the left input
// streams and probes. Equi-conjuncts of ON (or the
// USING columns) are the hash key; NULL keys never match (except for
// <=>); the rest of ON is a residual tested per candidate. Inner, left,
// right, full, semi, anti and cross (a nested loop) joins; right and full
// joins replay the build rows no probe matched at the end. A join on keys
// whose build side passes --memory-limit spills (joinspill.go).
func (g *flowGen) genJoin(n *ir.Join, c consumer) {
	kind := n.Kind
	switch {
	case passes.Streaming(n.Left) && passes.Streaming(n.Right):
		g.genStreamJoin(n, c)
		return
	case passes.Streaming(n.Right):
		// the build side would have to be kept across micro-batches
		g.refuseStreaming(n.Pos, "a join whose right input (the build side) reads a stream")
		return
	case passes.Streaming(n.Left) && (kind == ir.JoinRight || kind == ir.JoinFull):
		// the right rows no probe matched are known only at the stream's end
		g.refuseStreaming(n.Pos, "a "+kind.String()+" join")
		return
	}
	// a parallel pipeline asked of the join's output is its probe's: the
	// build side is built once, on the flow's goroutine (parallel.go)
	par := g.par
	g.par = nil
	info := g.u.Joins[n]
	keys, residual := g.joinKeys(n)
	rneed := g.plan.Need[n.Right]
	rschema := g.u.Schemas[n.Right]
	lschema := g.u.Schemas[n.Left]
	outSchema := g.u.Schemas[n]
	need := g.plan.Need[n]

	st := g.newStruct("buildRow", "is one row of a join's build side (its right input).")
	rows := g.name("build")
	g.emit(jen.Id(rows).Op(":=").Index().Id(st.name).Values())
	var kt *keyType
	var ht, heads, next string
	nullSafe := make([]bool, len(keys))
	if len(keys) > 0 {
		types := make([]ir.Type, len(keys))
		force := false
		for i, k := range keys {
			types[i] = k.Type
			nullSafe[i] = k.NullSafe
			force = force || k.NullSafe
		}
		kt = g.newKeyType("join", types, force)
		ht, heads, next = g.name("ht"), g.name("heads"), g.name("next")
		g.emit(jen.Id(ht).Op(":=").Add(kt.newTable()))
		if kt.table() == "" {
			g.emit(jen.Var().Id(heads).Index().Int32())
		}
		g.emit(jen.Var().Id(next).Index().Int32())
	}
	stored := make([]bool, len(rschema))
	storedNullable := make([]bool, len(rschema))
	trackMatch := kind == ir.JoinRight || kind == ir.JoinFull
	if trackMatch {
		st.add("matched", jen.Bool())
	}

	// the build side's row, read from a stored struct: row j of rows
	buildRow := func(rw *local, j string) *row {
		out := &row{cols: make([]*column, len(rschema))}
		from := &buildRef{rows: rows, j: j, join: n}
		for j, f := range rschema {
			if !stored[j] {
				continue
			}
			j, t := j, f.Type
			out.cols[j] = &column{t: t, load: func() *value {
				x := &value{t: t, v: use(rw).Dot(fmt.Sprintf("c%d", j))}
				if storedNullable[j] {
					x.ok = use(rw).Dot(fmt.Sprintf("c%dok", j))
				}
				return x
			}, from: from}
		}
		return out
	}
	// build: the right input's pipeline
	op := joinOpText(n)
	mem := g.newMemAccount(op)
	var gj *graceJoin // a join on keys spills (joinspill.go); a cross join cannot
	if kt != nil {
		gj = g.newGraceJoin(op, par != nil)
	}
	var bcols []spillCol // the layout of a spilled build row
	// resetTable empties the table and gives back the bytes it was granted
	resetTable := func() []jen.Code {
		out := []jen.Code{jen.Id(rows).Op("=").Nil(), jen.Id(ht).Op("=").Add(kt.newTable())}
		if kt.table() == "" {
			out = append(out, jen.Id(heads).Op("=").Nil())
		}
		return append(out, jen.Id(next).Op("=").Nil(),
			jen.Id("fc").Dot("Shrink").Call(jen.Id(gj.held)), jen.Id(gj.held).Op("=").Lit(0))
	}
	// spillTable writes the table's rows to new partitions and empties it
	spillTable := func() []jen.Code {
		j := g.name("j")
		body := g.loop(func() {
			rw := g.declare([]string{g.name("rw")}, jen.Op("&").Id(rows).Index(jen.Id(j)))[0]
			br := buildRow(rw, j)
			key, _ := kt.buildOK(g, g.keyValues(keys, false, br, g.envOf(n.Right, br), n.Pos), nullSafe)
			g.emit(g.putRow(gj.build, key, bcols, br, nil)...)
		})
		return append([]jen.Code{gj.startPartitions(gj.build), jen.For(jen.Id(j).Op(":=").Range().Id(rows)).Block(body...)}, resetTable()...)
	}
	g.emit(jen.Commentf("join at %s: build the right side", posText(n.Pos)))
	build := func(r *row) {
		e := g.envOf(n.Right, r)
		var key, ok jen.Code
		if kt != nil {
			key, ok = kt.buildOK(g, g.keyValues(keys, false, r, e, n.Pos), nullSafe)
		}
		inMem := g.sub(func() {
			g.emit(jen.Id(rows).Op("=").Qual(kernelPkg, "AppendZero").Call(jen.Id(rows)))
			rw := g.declare([]string{g.name("rw")}, jen.Op("&").Id(rows).Index(jen.Len(jen.Id(rows)).Op("-").Lit(1)))[0]
			for j := range rschema {
				if j >= len(rneed) || !rneed[j] || r.cols[j] == nil {
					continue
				}
				x := g.col(r.cols[j])
				f := fmt.Sprintf("c%d", j)
				st.add(f, goType(x.t))
				st.add(f+"ok", jen.Bool())
				stored[j] = true
				set := []jen.Code{use(rw).Dot(f).Op("=").Add(cloneValue(x.t, V0(x))), use(rw).Dot(f + "ok").Op("=").True()}
				switch {
				case x.null:
					storedNullable[j] = true
				case x.nullable():
					storedNullable[j] = true
					g.emit(jen.If(OK(x)).Block(set...))
				default:
					g.emit(set...)
				}
			}
			var strs []jen.Code
			for j := range rschema {
				if stored[j] && (rschema[j].Type.Kind == ir.TString || rschema[j].Type.Kind == ir.TBinary) {
					strs = append(strs, use(rw).Dot(fmt.Sprintf("c%d", j)))
				}
			}
			if kt == nil {
				mem.add(g, jen.Id(st.name).Values(), strs)
				return
			}
			bcols = spillCols(r, stored, func(j int) bool { return storedNullable[j] })
			g.genJoinInsert(kt, key, ok, rows, ht, heads, next)
			// accounted after the insert: a refusal spills the table (written out and emptied), this row with it
			g.emit(mem.tryGrowStmts(mem.size(jen.Id(st.name).Values(), strs, 0), gj.held, jen.Block(spillTable()...))...)
		})
		if gj != nil {
			g.emit(jen.If(jen.Id(gj.build).Op("!=").Nil()).Block(append(g.putRow(gj.build, key, bcols, r, nil), g.skipStmt())...))
		}
		g.emit(inMem...)
	}
	g.produce(n.Right, build)

	if kt != nil && kt.table() != "" {
		// a table value's bit 30 is kernel.ChainMore: the rows' indexes stay below it
		g.emit(jen.If(jen.Len(jen.Id(rows)).Op(">").Int().Call(jen.Qual(kernelPkg, "ChainMore"))).Block(
			jen.Return(jen.Qual(fmtPkg, "Errorf").Call(jen.Lit(fmt.Sprintf("flow %s: join at %s: its build side has more than 2^30 rows", g.flow.Name, posText(n.Pos)))))))
	}
	dense := g.denseJoinTable(kt, ht, gj)
	nullRow := func(left bool) *row {
		sch := rschema
		if left {
			sch = lschema
		}
		out := &row{cols: make([]*column, len(sch)), allNull: true}
		for j, f := range sch {
			out.cols[j] = constColumn(nullValue(f.Type))
		}
		return out
	}
	// joined is the join's output row from a left and a right row.
	joined := func(l, r *row) *row {
		out := &row{cols: make([]*column, len(outSchema))}
		for k, jc := range info.Output {
			if k >= len(need) || !need[k] {
				continue
			}
			var src *column
			switch {
			case jc.Left >= 0 && jc.Right >= 0:
				src = l.cols[jc.Left]
				if kind == ir.JoinFull && r != nil && l.allNull {
					src = r.cols[jc.Right]
				}
			case jc.Left >= 0:
				src = l.cols[jc.Left]
			case r != nil:
				src = r.cols[jc.Right]
			}
			if src != nil {
				out.cols[k] = g.castColumn(src, outSchema[k].Type, n.Pos)
			}
		}
		return out
	}
	residualTrue := func(e *env) jen.Code {
		var conds []jen.Code
		for _, x := range residual {
			conds = append(conds, truth(g.genExpr(x, e)))
		}
		return and(conds...)
	}

	// probe: the left input's pipeline
	g.emit(jen.Commentf("join at %s: probe with the left side", posText(n.Pos)))
	if par != nil && trackMatch {
		panic("codegen: a parallel probe of a " + kind.String() + " join")
	}
	var pcols []spillCol // the layout of a spilled probe row
	lneed := g.plan.Need[n.Left]
	probe := func(l *row) {
		if gj != nil {
			// the build side spilled: the row goes to its partition
			spilled := g.sub(func() {
				key, _ := kt.buildOK(g, g.keyValues(keys, true, l, g.envOf(n.Left, l), n.Pos), nullSafe)
				if pcols == nil {
					pcols = spillCols(l, lneed, func(j int) bool { return g.col(l.cols[j]).nullable() })
				}
				var seq *parPipe
				if par != nil && par.on {
					seq = par
				}
				g.emit(append(g.putRow(gj.probe, key, pcols, l, seq), g.skipStmt())...)
			})
			g.emit(jen.If(jen.Id(gj.probe).Op("!=").Nil()).Block(spilled...))
		}
		// candidates is the loop over the build rows that may match
		candidates := func(body func(rw *local, j string) []jen.Code) {
			j := g.name("j")
			rwDecl := jen.Id(g.name("rw")).Op(":=").Op("&").Id(rows).Index(jen.Id(j))
			rw := &local{name: fmt.Sprintf("rw%d", g.n), decl: rwDecl}
			g.locals = append(g.locals, rw)
			if kt == nil {
				inner := body(rw, j)
				g.emit(jen.For(jen.Id(j).Op(":=").Range().Id(rows)).Block(append([]jen.Code{rwDecl}, inner...)...))
				return
			}
			kvals := g.keyValues(keys, true, l, g.envOf(n.Left, l), n.Pos)
			key, ok := kt.buildOK(g, kvals, nullSafe)
			b := g.name("b")
			var loop []jen.Code
			inner := body(rw, j)
			head := jen.Id(heads).Index(jen.Id(b))
			step := jen.Id(next).Index(jen.Id(j))
			if kt.table() != "" {
				head = jen.Id(b).Op("&^").Qual(kernelPkg, "ChainMore")
				step = jen.Qual(kernelPkg, "ChainNext").Call(jen.Id(next), jen.Id(j), jen.Id(b))
			}
			chain := jen.For(jen.Id(j).Op(":=").Add(head), jen.Id(j).Op(">=").Lit(0), jen.Id(j).Op("=").Add(step)).Block(
				append([]jen.Code{rwDecl}, inner...)...)
			if dense != "" {
				// both lookups inline: the branch goes the same way every row
				loop = append(loop, jen.Var().Id(b).Int32(), jen.Var().Id("found").Bool(),
					jen.If(jen.Id(dense).Op("!=").Nil()).Block(
						jen.List(jen.Id(b), jen.Id("found")).Op("=").Id(dense).Dot("Get").Call(key)).
						Else().Block(jen.List(jen.Id(b), jen.Id("found")).Op("=").Add(kt.get(ht, key))),
					jen.If(jen.Id("found")).Block(chain))
			} else {
				loop = append(loop, jen.If(jen.List(jen.Id(b), jen.Id("found")).Op(":=").Add(kt.get(ht, key)), jen.Id("found")).Block(chain))
			}
			if ok != nil {
				g.emit(jen.If(ok).Block(loop...))
			} else {
				g.emit(loop...)
			}
		}
		switch kind {
		case ir.JoinSemi, ir.JoinAnti:
			found := g.name("matched")
			g.emit(jen.Id(found).Op(":=").False())
			candidates(func(rw *local, j string) []jen.Code {
				return g.sub(func() {
					e := &env{rows: map[ir.Rel]*row{n.Left: l, n.Right: buildRow(rw, j)}}
					hit := []jen.Code{jen.Id(found).Op("=").True(), jen.Break()}
					if cond := residualTrue(e); cond != nil {
						g.emit(jen.If(cond).Block(hit...))
					} else {
						g.emit(hit...)
					}
				})
			})
			if kind == ir.JoinSemi {
				g.emit(jen.If(jen.Op("!").Id(found)).Block(g.skipStmt()))
			} else {
				g.emit(jen.If(jen.Id(found)).Block(g.skipStmt()))
			}
			c(joined(l, nil))
		default:
			found := ""
			if kind == ir.JoinLeft || kind == ir.JoinFull {
				found = g.name("matched")
				g.emit(jen.Id(found).Op(":=").False())
			}
			candidates(func(rw *local, j string) []jen.Code {
				g.skips = append(g.skips, nil)
				defer func() { g.skips = g.skips[:len(g.skips)-1] }()
				return g.sub(func() {
					br := buildRow(rw, j)
					e := &env{rows: map[ir.Rel]*row{n.Left: l, n.Right: br}}
					if cond := residualTrue(e); cond != nil {
						g.emit(jen.If(jen.Op("!").Parens(cond)).Block(jen.Continue()))
					}
					if found != "" {
						g.emit(jen.Id(found).Op("=").True())
					}
					if trackMatch {
						g.emit(use(rw).Dot("matched").Op("=").True())
					}
					c(joined(l, br))
				})
			})
			if found != "" {
				unmatched := g.sub(func() { c(joined(l, nullRow(false))) })
				g.emit(jen.If(jen.Op("!").Id(found)).Block(unmatched...))
			}
		}
	}
	var unmatched func() // right and full joins: the build rows no probe matched
	if trackMatch {
		unmatched = func() {
			j := g.name("j")
			body := g.loop(func() {
				rw := g.declare([]string{g.name("rw")}, jen.Op("&").Id(rows).Index(jen.Id(j)))[0]
				g.emit(jen.If(use(rw).Dot("matched")).Block(jen.Continue()))
				c(joined(nullRow(true), buildRow(rw, j)))
			})
			g.emit(jen.Commentf("join at %s: the build rows no probe matched", posText(n.Pos)),
				jen.For(jen.Id(j).Op(":=").Range().Id(rows)).Block(body...))
		}
	}
	if gj == nil {
		g.par = par
		g.produce(n.Left, probe)
		if unmatched != nil {
			unmatched()
		}
		return
	}
	// the grace phase runs once the probe input is done: after it, or in a
	// parallel pipeline's one worker's end (joinspill.go)
	replayed := false
	replay := func() {
		replayed = true
		g.genReplay(gj, rows, bcols, len(rschema), build, pcols, len(lschema), par, probe, unmatched,
			append(resetTable(), jen.Id(mem.pending).Op("=").Lit(0)))
	}
	g.emit(jen.If(jen.Id(gj.build).Op("!=").Nil()).Block(gj.startPartitions(gj.probe)))
	var end func()
	if par != nil {
		g.emit(jen.If(jen.Id(gj.build).Op("!=").Nil()).Block(
			jen.Id("fc").Dot("SerialBegin").Call(), jen.Id(gj.serial).Op("=").True()))
		end = par.end
		par.end = func() {
			inside := par.inside
			par.inside = true
			replay()
			par.inside = inside
			if end != nil {
				end()
			}
		}
	}
	g.par = par
	g.produce(n.Left, probe)
	if par != nil {
		par.end = end
	}
	if !replayed {
		replay()
	}
	if par != nil {
		g.emit(jen.If(jen.Id(gj.serial)).Block(jen.Id("fc").Dot("SerialEnd").Call(), jen.Id(gj.serial).Op("=").False()))
	}
	if unmatched != nil {
		unmatched()
	}
}

// castColumn is src as a column of type t: src itself when the types are
// the same, else a column that loads src coerced to t (a join's output
// column, whose type the join's schema unifies from its two sides).
func (g *flowGen) castColumn(src *column, t ir.Type, pos ir.Pos) *column {
	if sameType(src.t, t) && !g.shifts(src.t, t) {
		return src
	}
	return &column{t: t, load: func() *value { return g.coerce(g.col(src), t, pos) }}
}

// genJoinInsert inserts the build row just appended to rows under key
// (valid when ok, nil for always): kt's table maps a key to the head of
// its chain of rows (next links each row to the key's previous row). An
// rt/hashtab table holds the chain's head, this row, marked
// kernel.ChainMore when the key has rows before it; a Go map holds the
// index of a bucket in heads. A new key's strings are copied out of the
// batch. A row whose key is NULL is in no chain.
func (g *flowGen) genJoinInsert(kt *keyType, key, ok jen.Code, rows, ht, heads, next string) {
	b := g.name("b")
	insert := g.sub(func() {
		g.emit(jen.List(jen.Id(b), jen.Id("found")).Op(":=").Add(kt.get(ht, key)))
		if kt.table() != "" {
			last := jen.Int32().Call(jen.Len(jen.Id(rows)).Op("-").Lit(1))
			g.emit(jen.If(jen.Op("!").Id("found")).Block(
				jen.Id(b).Op("=").Lit(-1),
				kt.put(ht, kt.cloned(g, key), last.Clone())).
				Else().Block(
				jen.Id(b).Op("&^=").Qual(kernelPkg, "ChainMore"),
				kt.put(ht, key, last.Clone().Op("|").Qual(kernelPkg, "ChainMore"))),
				jen.Id(next).Op("=").Append(jen.Id(next), jen.Id(b)))
			return
		}
		newKey := g.sub(func() {
			g.emit(jen.Id(b).Op("=").Int32().Call(jen.Len(jen.Id(heads))),
				jen.Id(heads).Op("=").Append(jen.Id(heads), jen.Lit(-1)))
			g.emit(kt.put(ht, kt.cloned(g, key), jen.Id(b)))
		})
		g.emit(jen.If(jen.Op("!").Id("found")).Block(newKey...),
			jen.Id(next).Op("=").Append(jen.Id(next), jen.Id(heads).Index(jen.Id(b))),
			jen.Id(heads).Index(jen.Id(b)).Op("=").Int32().Call(jen.Len(jen.Id(next)).Op("-").Lit(1)))
	})
	if ok == nil {
		g.emit(jen.Block(insert...))
	} else {
		g.emit(jen.If(ok).Block(insert...).Else().Block(jen.Id(next).Op("=").Append(jen.Id(next), jen.Lit(-1))))
	}
}

// denseJoinTable makes the Dense form of a join's table of integer keys
// once its build side is complete in memory (rt/hashtab: an array indexed
// by the key when the keys' range is short, as a dimension's ids are), if
// fc.TryGrow grants its bytes, and returns its local ("" for keys of other
// types). The probe looks a key up in it when there is one, else in the
// table: always in the table once the build side spilled (gj.build), whose
// partitions rebuild the table one at a time (joinspill.go).
func (g *flowGen) denseJoinTable(kt *keyType, ht string, gj *graceJoin) string {
	if kt == nil || kt.table() != "Int" || gj == nil {
		return ""
	}
	dense, d := g.name("dense"), g.name("d")
	g.emit(jen.Var().Id(dense).Op("*").Qual(hashtabPkg, "Dense").Types(kt.goType()),
		jen.If(jen.Id(gj.build).Op("==").Nil()).Block(
			jen.If(jen.Id(d).Op(":=").Id(ht).Dot("Dense").Call(),
				jen.Id(d).Op("!=").Nil().Op("&&").Id("fc").Dot("TryGrow").Call(jen.Id(d).Dot("Bytes").Call())).Block(
				jen.Id(dense).Op("=").Id(d))))
	return dense
}
