package codegen

import (
	"fmt"
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// structDecl is a generated struct type (a group's state, a build-side
// row, a sort row) whose fields are added while the code that fills it is
// generated, and which is declared at package level afterwards.
type structDecl struct {
	name   string
	doc    string
	fields []structField
	index  map[string]bool
}

type structField struct {
	name string
	typ  jen.Code
}

// newStruct starts a generated struct type of the flow.
func (g *flowGen) newStruct(stem, doc string) *structDecl {
	s := &structDecl{name: g.global(stem+"_", g.flow.Name), doc: doc, index: map[string]bool{}}
	g.typeDecls = append(g.typeDecls, s.decl)
	return s
}

// add declares a field (once).
func (s *structDecl) add(name string, typ jen.Code) string {
	if !s.index[name] {
		s.index[name] = true
		s.fields = append(s.fields, structField{name, typ})
	}
	return name
}

// decl declares the struct with the fields added so far.
func (s *structDecl) decl() jen.Code {
	fs := make([]jen.Code, len(s.fields))
	for i, f := range packed(s.fields) {
		fs[i] = jen.Id(f.name).Add(f.typ)
	}
	return jen.Commentf("%s %s", s.name, s.doc).Line().Type().Id(s.name).Struct(fs...)
}

// accum is one aggregate call's accumulator in a group's state.
type accum struct {
	call        *ir.Call
	name        string // canonical function name
	field       string // base field name
	argT        ir.Type
	resT        ir.Type
	distinct    *keyType // count(distinct ...)
	ignoreNulls bool
	stream      bool // kept in window state: count(distinct x) is an rt/stream.Distinct
	try         bool // try_sum, try_avg: an overflow is NULL (field "ovf"), not an error
	// mem accounts the values an accumulator keeps (collect_list, the
	// percentiles) against --memory-limit; nil for one of fixed size
	mem *memAccount
}

// genAggregate generates hash aggregation: the input's pipeline ends in
// the build of a hash table from the group key (a generated key struct,
// or the key's own Go type for a single key) to an index into a slice of
// generated state structs (the keys and one accumulator per aggregate call);
// a new pipeline then replays the groups in first-seen order into the
// consumer, computing the aggregate items from the accumulators. A global
// aggregate (no keys) has one state and yields one row even over empty
// input (count 0, other aggregates NULL).
func (g *flowGen) genAggregate(n *ir.Aggregate, c consumer) {
	if passes.Streaming(n) {
		g.genStreamAggregate(n, c)
		return
	}
	st := g.newStruct("aggState", "is the state of one group of an aggregate.")
	var accs []*accum
	for i, call := range g.u.AggCalls[n] {
		a := &accum{call: call, name: g.fn(call).Name, field: fmt.Sprintf("a%d", i), resT: g.typeOf(call)}
		if len(call.Args) > 0 {
			a.argT = g.typeOf(call.Args[0])
		}
		if !g.planAccum(st, a) {
			return // refused: the diagnostic is recorded, and the flow is not generated
		}
		accs = append(accs, a)
	}
	keyTypes := make([]ir.Type, len(n.Keys))
	for i, k := range n.Keys {
		keyTypes[i] = g.typeOf(k.Expr)
		st.add(fmt.Sprintf("k%d", i), goType(keyTypes[i]))
		st.add(fmt.Sprintf("k%dok", i), jen.Bool())
	}
	if n.Sets != nil { // grouping sets: the grouping id is one more key (groupingsets.go)
		keyTypes = append(keyTypes, ir.Int64)
		st.add(fmt.Sprintf("k%d", len(n.Keys)), jen.Int64())
		st.add(fmt.Sprintf("k%dok", len(n.Keys)), jen.Bool())
	}
	keyNullable := make([]bool, len(keyTypes))
	global := len(n.Keys) == 0
	op := fmt.Sprintf("group by at %s", posText(n.Pos))
	var sp *graceSpill // nil: the aggregate does not spill (aggspill.go)
	if !global && n.Sets == nil {
		sp = g.newGraceSpill(op)
		for _, a := range accs {
			if a.mem != nil {
				a.mem.spill, a.mem.values = sp, true
			}
		}
	}
	groups := g.name("groups")
	var ht, nullGroup string
	var nullDecl *local
	var kt *keyType
	// the table's declarations: per worker when the input runs on the
	// workers (parallel.go)
	var stateDecl *jen.Statement // per-worker scratch of memoGroup and deferAccum, filled when used
	decls := g.sub(func() {
		if global {
			g.emit(jen.Var().Id(groups).Index(jen.Lit(1)).Id(st.name))
			return
		}
		stateDecl = jen.Null()
		g.emit(stateDecl)
		ht = g.name("ht")
		kt = g.newKeyType("group", keyTypes, false)
		kt.stateName = st.name
		kt.mem = g.newMemAccount(op)
		kt.mem.spill = sp
		g.emit(jen.Id(groups).Op(":=").Index().Id(st.name).Values(),
			jen.Id(ht).Op(":=").Add(kt.newTable()))
		if kt.name == "" {
			nullGroup = g.name("nullGroup")
			g.declare([]string{nullGroup}, jen.Int32().Call(jen.Lit(-1)))[0].used = true
			nullDecl = g.locals[len(g.locals)-1]
			nullDecl.used = false
		}
	})
	var ap *aggPar
	if g.plan.Parallel[n] {
		ap = g.newAggPar(st, kt, groups, ht, nullGroup, decls)
		ap.spills = sp != nil
		g.par = &ap.parPipe
	} else {
		g.emit(decls...)
	}
	g.produce(n.Input, func(r *row) {
		e := g.envOf(n.Input, r)
		if n.Sets != nil {
			g.groupingSetsRow(n, e, accs, kt, groups, ht, nullGroup, nullDecl, keyNullable)
			return
		}
		var gs *local
		if global {
			gs = g.declare([]string{g.name("gs")}, jen.Op("&").Id(groups).Index(jen.Lit(0)))[0]
		} else {
			lookup := func() string {
				vals := make([]*value, len(n.Keys))
				for i, k := range n.Keys {
					vals[i] = g.bind(g.genExpr(k.Expr, e), "key")
				}
				var spillNew func(jen.Code)
				if sp != nil {
					spillNew = func(key jen.Code) {
						sp.spillNew(g, key, func(w string) {
							for i, x := range vals {
								g.spillPutValue(w, g.coerce(x, keyTypes[i], n.Pos))
							}
							g.spillEvalAccs(w, accs, e)
						})
					}
				}
				return g.groupLookup(kt, groups, ht, nullGroup, nullDecl, vals, keyNullable, spillNew)
			}
			gi := ""
			if from := g.keysFrom(n, e); from != nil && slices.Contains(g.plan.Memo[n], from.join) {
				gi = g.memoGroup(from, stateDecl, kt.mem.op, lookup)
			} else {
				gi = lookup()
			}
			if g.plan.Defer[n] && !g.fromSpill {
				if g.rowEnd == nil {
					g.unplanned(n.Pos, "deferred accumulators outside a scan's row loop")
				}
				g.deferAccum(g.rowEnd, stateDecl, groups, gi, func(gs *local) {
					for _, a := range accs {
						g.genAccumulate(a, use(gs), e)
					}
				})
				return
			}
			gs = g.declare([]string{g.name("gs")}, jen.Op("&").Id(groups).Index(jen.Id(gi)))[0]
		}
		for _, a := range accs {
			g.genAccumulate(a, use(gs), e)
		}
	})
	g.par = nil
	if ap != nil {
		g.genAggMerge(ap, accs, keyTypes, keyNullable, nullDecl)
	}
	// the groups, in first-seen order
	out := func(gs *local) {
		schema := g.u.Schemas[n]
		ae := &aggEnv{calls: map[*ir.Call]*column{}}
		o := &row{cols: make([]*column, len(schema))}
		for i, k := range n.Keys {
			t := keyTypes[i]
			field := fmt.Sprintf("k%d", i)
			nullable := keyNullable[i]
			col := &column{t: t, load: func() *value {
				x := &value{t: t, v: use(gs).Dot(field)}
				if nullable {
					x.ok = use(gs).Dot(field + "ok")
				}
				return x
			}}
			ae.keys = append(ae.keys, k.Expr)
			ae.keyVals = append(ae.keyVals, col)
			o.cols[i] = col
		}
		if n.Sets != nil {
			g.groupingCalls(n, ae, use(gs))
		}
		g.aggResults(n, o, ae, accs, func() *jen.Statement { return use(gs) })
		c(o)
	}
	emit := func() {
		gi := g.name("gi")
		body := g.loop(func() {
			out(g.declare([]string{g.name("gs")}, jen.Op("&").Id(groups).Index(jen.Id(gi)))[0])
		})
		g.emit(jen.Commentf("the groups of the aggregate at %s", posText(n.Pos)),
			jen.For(jen.Id(gi).Op(":=").Range().Id(groups)).Block(body...))
	}
	if sp == nil {
		emit()
		return
	}
	g.aggReplay(sp, accs, kt, keyTypes, keyNullable, groups, ht, nullGroup, nullDecl, emit)
}

// aggReplay emits the groups (emit) and then those of each partition the
// aggregate spilled (aggspill.go): a partition's rows are read back into
// the emptied table, looked up and accumulated as the input's were, and
// spill again to the next level when the table freezes again. The replay
// accounts the table with a flow-level memAccount of its own, since a
// parallel aggregate's is its workers'.
func (g *flowGen) aggReplay(sp *graceSpill, accs []*accum, kt *keyType, keyTypes []ir.Type, keyNullable []bool, groups, ht, nullGroup string, nullDecl *local, emit func()) {
	mem := kt.mem
	kt.mem = g.newMemAccount(mem.op)
	kt.mem.spill = sp
	defer func() { kt.mem = mem }()
	nullable := slices.Clone(keyNullable) // the input's: a key never NULL there is never NULL here
	row := func(r string) {
		vals := make([]*value, len(keyTypes))
		for i, t := range keyTypes {
			x := g.spillVar(t)
			g.spillGetValue(r, x)
			if !nullable[i] {
				x.ok, x.okl = nil, nil
			}
			vals[i] = x
		}
		ins := g.spillGetAccs(r, accs)
		gi := g.groupLookup(kt, groups, ht, nullGroup, nullDecl, vals, keyNullable, func(key jen.Code) {
			sp.spillNew(g, key, func(w string) {
				for _, x := range vals {
					g.spillPutValue(w, x)
				}
				g.spillPutAccIns(w, accs, ins)
			})
		})
		gs := g.declare([]string{g.name("gs")}, jen.Op("&").Id(groups).Index(jen.Id(gi)))[0]
		if len(accs) > 0 { // a group by without aggregates reads no state
			g.accumulateIns(accs, use(gs), ins)
		}
	}
	reset := []jen.Code{jen.Clear(jen.Id(groups)),
		jen.Id(groups).Op("=").Id(groups).Index(jen.Op(":").Lit(0)),
		jen.Id(ht).Op("=").Add(kt.newTable())}
	if nullGroup != "" {
		reset = append(reset, jen.Id(nullGroup).Op("=").Lit(-1))
	}
	sp.replay(g, func() []jen.Code { return g.sub(emit) }, reset, row)
}

// groupLookup finds (or adds) the group of the key values and returns the
// local holding its index in groups. A new group stores its keys (strings copied out of the
// batch); a key that can be NULL marks nullable[i], so that the groups'
// replay knows which keys to test. spillNew, when not nil, emits the code
// for a key not in the table before it is added (graceSpill.spillNew: the
// row spills once the table is frozen), given the key's Go value; the
// NULL of a single key is always added.
func (g *flowGen) groupLookup(kt *keyType, groups, ht, nullGroup string, nullDecl *local, vals []*value, nullable []bool, spillNew func(key jen.Code)) string {
	gi := g.name("gi")
	found := g.name("found")
	slot := jen.Id(groups).Index(jen.Id(gi))
	store := func() {
		for i, x := range vals {
			f := fmt.Sprintf("k%d", i)
			x = normalized(x)
			switch {
			case x.null:
				nullable[i] = true
			case x.nullable():
				nullable[i] = true
				g.emit(jen.If(OK(x)).Block(slot.Clone().Dot(f).Op("=").Add(cloneValue(x.t, V(x))), slot.Clone().Dot(f+"ok").Op("=").True()))
			default:
				g.emit(slot.Clone().Dot(f).Op("=").Add(cloneValue(x.t, V(x))), slot.Clone().Dot(f+"ok").Op("=").True())
			}
		}
	}
	newGroup := func() {
		g.emit(jen.Id(gi).Op("=").Int32().Call(jen.Len(jen.Id(groups))),
			jen.Id(groups).Op("=").Qual(kernelPkg, "AppendZero").Call(jen.Id(groups)))
	}
	// account counts a new group (its keys stored) against --memory-limit
	account := func() {
		if kt.mem != nil {
			var strs []jen.Code
			for i, x := range vals {
				k := slot.Clone().Dot(fmt.Sprintf("k%d", i))
				switch {
				case x.t.Kind == ir.TString || x.t.Kind == ir.TBinary:
					strs = append(strs, k)
				case x.t.IsNested(): // its parts, counted before add hands them on
					g.emit(jen.Id(kt.mem.pending).Op("+=").Qual(nestedPkg, "Bytes").Call(k))
				}
			}
			kt.mem.add(g, jen.Id(kt.stateName).Values(), strs)
		}
	}
	g.emit(jen.Var().Id(gi).Int32())
	if kt.name == "" {
		x := vals[0]
		key, ok := kt.buildOK(g, vals, []bool{false})
		lookup := g.sub(func() {
			vals = []*value{nonNull(x)} // the key is valid here
			g.emit(jen.Var().Id(found).Bool(), jen.List(jen.Id(gi), jen.Id(found)).Op("=").Add(kt.get(ht, key)))
			ins := g.sub(func() {
				if spillNew != nil {
					spillNew(key)
				}
				newGroup()
				store()
				account()
				mapKey := slot.Clone().Dot("k0")
				if x.t.Kind == ir.TFloat64 || x.t.Kind == ir.TFloat32 || x.t.Kind == ir.TBinary || x.t.IsNested() {
					mapKey = jen.Add(key)
				}
				g.emit(kt.put(ht, mapKey, jen.Id(gi)))
			})
			g.emit(jen.If(jen.Op("!").Id(found)).Block(ins...))
		})
		if ok == nil {
			g.emit(jen.Block(lookup...))
		} else {
			nullDecl.used = true
			nullable[0] = true
			g.emit(jen.If(ok).Block(lookup...).Else().Block(
				jen.If(jen.Id(nullGroup).Op("<").Lit(0)).Block(
					jen.Id(nullGroup).Op("=").Int32().Call(jen.Len(jen.Id(groups))),
					jen.Id(groups).Op("=").Qual(kernelPkg, "AppendZero").Call(jen.Id(groups))),
				jen.Id(gi).Op("=").Id(nullGroup)))
		}
	} else {
		key := kt.build(g, vals)
		for i, x := range vals {
			if x.nullable() {
				nullable[i] = true
			}
		}
		g.emit(jen.Var().Id(found).Bool(), jen.List(jen.Id(gi), jen.Id(found)).Op("=").Add(kt.get(ht, key)))
		ins := g.sub(func() {
			if spillNew != nil {
				spillNew(key)
			}
			newGroup()
			store()
			account()
			g.emit(kt.put(ht, kt.cloned(g, key), jen.Id(gi)))
		})
		g.emit(jen.If(jen.Op("!").Id(found)).Block(ins...))
	}
	return gi
}

// keysFrom is the join build row that every group key of n reads (each
// key a column of that row), else nil: the group of such a row is then
// the same at every probe that reaches it.
func (g *flowGen) keysFrom(n *ir.Aggregate, e *env) *buildRef {
	var from *buildRef
	for _, k := range n.Keys {
		c := g.refColumn(k.Expr, e)
		if c == nil {
			return nil
		}
		f := c.from
		if f == nil || from != nil && *f != *from {
			return nil
		}
		from = f
	}
	return from
}

// rowLoop is the row loop of one scan's batch while its body is being
// generated: i is the row's index, and after the statements to run once
// the loop is done (inside the batch, before it is released).
type rowLoop struct {
	i     string
	after []jen.Code
}

// deferAccum splits a hash aggregate over a scan's rows in two loops per
// batch: the row loop only finds each row's group and records the row's
// index and the group's (in per-worker slices declared at decl); a second
// loop, after it, loads the aggregated columns again by the row's index
// and updates the groups' accumulators. Each group's rows still come in
// input order. The split lets the processor overlap the cache misses of
// many rows' table lookups, and then of many groups' states, where one
// fused loop waits on a lookup and then a state per row
// (docs/performance.md).
func (g *flowGen) deferAccum(rl *rowLoop, decl *jen.Statement, groups, gi string, accumulate func(gs *local)) {
	rows, gis := g.name("rowsOf"), g.name("groupsOf")
	decl.Line().Var().Id(rows).Op(",").Id(gis).Index().Int32()
	g.emit(jen.Id(rows).Op("=").Append(jen.Id(rows), jen.Int32().Call(jen.Id(rl.i))),
		jen.Id(gis).Op("=").Append(jen.Id(gis), jen.Id(gi)))
	// the second loop's block is not nested in the row loop's: the
	// columns the accumulators read load again there
	k := g.name("k")
	old := g.blk
	g.blk = &block{}
	body := g.loop(func() {
		// scan loads name i without marking it used: it always gets "_ = i"
		g.declare([]string{rl.i}, jen.Int().Call(jen.Id(rows).Index(jen.Id(k))))
		accumulate(g.declare([]string{g.name("gs")}, jen.Op("&").Id(groups).Index(jen.Id(gis).Index(jen.Id(k))))[0])
	})
	g.blk = old
	rl.after = append(rl.after,
		jen.For(jen.Id(k).Op(":=").Range().Id(rows)).Block(body...),
		jen.List(jen.Id(rows), jen.Id(gis)).Op("=").List(jen.Id(rows).Index(jen.Op(":").Lit(0)), jen.Id(gis).Index(jen.Op(":").Lit(0))))
}

// memoGroup finds the group of a row whose keys all come from one join
// build row: a per-worker slice (declared at decl) remembers each build
// row's group index plus one, so that the keys are read, hashed and looked
// up once per build row and worker instead of once per probe row that
// reaches it (a join then group by a column of the dimension, where the
// key lookup would otherwise be the loop's costliest step). lookup
// generates the plain lookup and returns its index's local; op names the
// aggregate for the --memory-limit account of the slice.
func (g *flowGen) memoGroup(from *buildRef, decl *jen.Statement, op string, lookup func() string) string {
	if g.memos == nil {
		g.memos = map[memoKey]string{}
	}
	// one memo per aggregate and build side: an aggregate over a union of
	// two joins indexes each join's rows in its own
	k := memoKey{decl, from.rows}
	memo, ok := g.memos[k]
	if !ok {
		memo = g.name("memo")
		g.memos[k] = memo
		decl.Line().Var().Id(memo).Index().Int32()
	}
	gi := g.name("gi")
	at := jen.Id(memo).Index(jen.Id(from.j))
	miss := g.sub(func() {
		inner := lookup()
		// the memo grows by doubling to the highest build row seen (at
		// most the build side's length), accounted as it grows
		n := g.name("n")
		g.emit(jen.Id(gi).Op("=").Id(inner),
			jen.If(jen.Int().Call(jen.Id(from.j)).Op(">=").Len(jen.Id(memo))).Block(
				jen.Id(n).Op(":=").Min(jen.Max(jen.Int().Call(jen.Id(from.j)).Op("+").Lit(1), jen.Lit(2).Op("*").Len(jen.Id(memo)), jen.Lit(1024)), jen.Len(jen.Id(from.rows))),
				jen.If(jen.Err().Op(":=").Id("fc").Dot("Grow").Call(jen.Lit(op), jen.Lit(4).Op("*").Int64().Call(jen.Id(n).Op("-").Len(jen.Id(memo)))), jen.Err().Op("!=").Nil()).Block(
					jen.Return(jen.Err())),
				jen.Id(memo).Op("=").Append(jen.Id(memo), jen.Make(jen.Index().Int32(), jen.Id(n).Op("-").Len(jen.Id(memo))).Op("...")),
			),
			at.Clone().Op("=").Id(gi).Op("+").Lit(1))
	})
	g.emit(jen.Var().Id(gi).Int32(),
		jen.If(jen.Int().Call(jen.Id(from.j)).Op("<").Len(jen.Id(memo)).Op("&&").Add(at.Clone()).Op("!=").Lit(0)).Block(
			jen.Id(gi).Op("=").Add(at.Clone()).Op("-").Lit(1)).
			Else().Block(miss...))
	return gi
}

// normalized is a float value with -0.0 as 0.0 and one NaN (Spark's
// NormalizeFloatingNumbers), as group keys and distinct rows hold them,
// and an ARRAY or STRUCT with its floats so (rt/nested.Normalize); other
// values pass.
func normalized(x *value) *value {
	if !x.null && (x.t.Kind == ir.TArray || x.t.Kind == ir.TStruct) {
		y := *x
		y.vl, y.k = nil, nil
		y.v = jen.Qual(nestedPkg, "Normalize").Call(V(x))
		return &y
	}
	if x.null || !x.t.IsFloat() {
		return x
	}
	fn := "NormalizeFloat64"
	if x.t.Kind == ir.TFloat32 {
		fn = "NormalizeFloat32"
	}
	y := *x
	y.vl, y.k = nil, nil
	y.v = jen.Qual(sqlfnPkg, fn).Call(V(x))
	return &y
}

// planAccum declares an aggregate call's accumulator fields; false when
// the call is refused.
func (g *flowGen) planAccum(st *structDecl, a *accum) bool {
	f := a.field
	if base, ok := tryAggs[a.name]; ok {
		a.name, a.try = base, true
		st.add(f+"ovf", jen.Bool())
	}
	switch a.name {
	case "count":
		if a.call.Distinct && !a.call.Star {
			types := make([]ir.Type, len(a.call.Args))
			for i, x := range a.call.Args {
				types[i] = g.typeOf(x)
			}
			a.distinct = g.newKeyType("countDistinct", types, false)
			if a.stream {
				// window state: a set a snapshot can store (one column)
				if len(types) != 1 {
					g.unplanned(a.call.Pos, "count(distinct ...) of several columns over a stream is not supported yet")
					return false
				}
				st.add(f, jen.Qual(streamPkg, "Distinct").Types(a.distinct.goType()))
				return true
			}
			st.add(f, jen.Map(a.distinct.goType()).Struct())
			return true
		}
		st.add(f, jen.Int64())
	case "sum", "avg":
		if a.call.Distinct { // the values seen, in front of the sum (aggfilter.go)
			a.distinct = g.newKeyType("aggDistinct", []ir.Type{a.argT}, false)
			st.add(f+"d", jen.Map(a.distinct.goType()).Struct())
		}
		switch {
		case a.name == "avg" && a.argT.Kind == ir.TDuration:
			g.unplanned(a.call.Pos, "avg of a duration is not supported yet")
			return false
		case a.name == "avg" && a.resT.Kind == ir.TDecimal:
			// the sum is kept as decimal(p+10, s), Spark's sum type
			st.add(f, jen.Qual(decimalPkg, "Num"))
			st.add(f+"n", jen.Int64())
		case a.name == "avg":
			st.add(f, jen.Float64())
			st.add(f+"n", jen.Int64())
		default:
			st.add(f, goType(a.resT))
			st.add(f+"ok", jen.Bool())
		}
	case "min", "max":
		st.add(f, goType(a.resT))
		st.add(f+"ok", jen.Bool())
	case "first", "last", "any_value":
		if len(a.call.Args) == 2 {
			l, ok := a.call.Args[1].(*ir.Literal)
			if !ok || l.Kind != ir.LitBool {
				g.unplanned(a.call.Args[1].Position(), "%s with an ignore-nulls argument that is not true or false is not supported yet", a.name)
				return false
			}
			a.ignoreNulls = l.Text == "true" || l.Text == "TRUE" || l.Text == "True"
		}
		st.add(f, goType(a.resT))
		st.add(f+"ok", jen.Bool())
		if a.name != "last" {
			st.add(f+"set", jen.Bool())
		}
	default:
		if !g.planFamilyAccum(st, a) && !g.planCollectAccum(st, a) { // funcs_agg.go, collect.go
			g.unplanned(a.call.Pos, "aggregate %s is not supported yet", a.call.Name)
			return false
		}
	}
	return true
}

// decimalSumOverflow is the error of a decimal sum (of sum or avg) that
// leaves its type: Spark's ARITHMETIC_OVERFLOW "Overflow in sum of
// decimals", not the NUMERIC_VALUE_OUT_OF_RANGE of the addition.
func decimalSumOverflow(agg string) jen.Code {
	return jen.Qual(sqlfnPkg, "ErrDecimalSumOverflow").Call(jen.Lit("try_" + agg))
}

// sumDecimalType is Spark's sum type of a decimal, decimal(p+10, s)
// capped at 38, also the sum kept by avg.
func sumDecimalType(t ir.Type) ir.Type {
	return ir.Decimal(min(t.Precision+10, 38), t.Scale)
}

// accumulate generates the update of one accumulator for the current
// row (gs points at the group's state) from its arguments' values;
// genAccumulate (aggfilter.go) evaluates them, under the call's FILTER.
func (g *flowGen) accumulate(a *accum, gs *jen.Statement, args []*value) {
	f := func(suffix string) *jen.Statement { return gs.Clone().Dot(a.field + suffix) }
	pos := a.call.Pos
	if _, ok := familyAggs[a.name]; ok {
		g.accumulateFamily(a, gs, args) // funcs_agg.go
		return
	}
	if passes.IsCollectAgg(a.name) {
		g.accumulateCollect(a, gs, args) // collect.go
		return
	}
	if anyNull(args[0]) {
		return // NULL never counts
	}
	x := args[0]
	when := func(stmts ...jen.Code) {
		if x.nullable() {
			g.emit(jen.If(OK(x)).Block(stmts...))
		} else {
			g.emit(stmts...)
		}
	}
	switch a.name {
	case "count":
		if a.distinct != nil {
			if anyNull(args...) {
				return
			}
			key, ok := a.distinct.buildOK(g, args, make([]bool, len(args)))
			if a.stream {
				ins := g.sub(func() { g.emit(f("").Dot("Add").Call(a.distinct.cloned(g, key))) })
				if ok != nil {
					g.emit(jen.If(ok).Block(ins...))
				} else {
					g.emit(ins...)
				}
				return
			}
			ins := g.sub(func() {
				g.emit(jen.If(f("").Op("==").Nil()).Block(f("").Op("=").Map(a.distinct.goType()).Struct().Values()))
				add := g.sub(func() {
					// strings are copied only for a value not seen before
					g.emit(f("").Index(a.distinct.cloned(g, key)).Op("=").Struct().Values())
				})
				g.emit(jen.If(jen.List(jen.Id("_"), jen.Id("dup")).Op(":=").Add(f("")).Index(key), jen.Op("!").Id("dup")).Block(add...))
			})
			if ok != nil {
				g.emit(jen.If(ok).Block(ins...))
			} else {
				g.emit(ins...)
			}
			return
		}
		if anyNull(args...) {
			return
		}
		if ok := and(oksOf(args...)...); ok != nil {
			g.emit(jen.If(ok).Block(f("").Op("++")))
		} else {
			g.emit(f("").Op("++"))
		}
	case "sum", "avg":
		rt := a.resT
		if a.name == "avg" {
			if rt.Kind != ir.TDecimal {
				when(f("").Op("+=").Add(V(g.coerce(x, ir.Float64, pos))), f("n").Op("++"))
				return
			}
			rt = sumDecimalType(x.t)
		}
		var upd []jen.Code
		en := g.name("e")
		switch {
		case rt.Kind == ir.TFloat64:
			upd = append(upd, f("").Op("+=").Add(V(g.coerce(x, ir.Float64, pos))))
		case rt.Kind == ir.TDecimal:
			d := g.toDecimal(x)
			upd = append(upd, jen.Var().Id(en).Op("*").Qual(sqlfnPkg, "Error"),
				jen.List(f(""), jen.Id(en)).Op("=").Qual(sqlfnPkg, "DecimalAdd").Call(f(""), jen.Lit(int32(rt.Scale)), V(d), jen.Lit(int32(d.t.Scale)), jen.Lit(int32(rt.Precision)), jen.Lit(int32(rt.Scale))),
				jen.If(jen.Id(en).Op("!=").Nil()).Block(g.sumFail(a, f, decimalSumOverflow(a.name))))
		default: // int64 or a duration
			v := V(x)
			if x.t.Kind != ir.TInt64 && x.t.Kind != ir.TDuration {
				v = jen.Int64().Call(v)
			}
			upd = append(upd, jen.Var().Id(en).Op("*").Qual(sqlfnPkg, "Error"),
				jen.List(f(""), jen.Id(en)).Op("=").Qual(sqlfnPkg, "AddInt64").Call(f(""), v),
				jen.If(jen.Id(en).Op("!=").Nil()).Block(g.sumFail(a, f, jen.Id(en))))
		}
		if a.name == "avg" {
			upd = append(upd, f("n").Op("++"))
		} else {
			upd = append(upd, f("ok").Op("=").True())
		}
		when(upd...)
	case "min", "max":
		x = g.coerce(x, a.resT, pos)
		op := ir.OpLt
		if a.name == "max" {
			op = ir.OpGt
		}
		cur := &value{t: a.resT, v: f("")}
		better := jen.Op("!").Add(f("ok")).Op("||").Add(cmpExpr(op, x, cur))
		set := []jen.Code{f("").Op("=").Add(cloneValue(a.resT, V(x))), f("ok").Op("=").True()}
		if x.nullable() {
			g.emit(jen.If(jen.Add(OK(x)).Op("&&").Parens(better)).Block(set...))
		} else {
			g.emit(jen.If(better).Block(set...))
		}
	case "first", "any_value", "last":
		x = g.coerce(x, a.resT, pos)
		var set []jen.Code
		if x.nullable() {
			set = append(set, jen.If(OK(x)).Block(f("").Op("=").Add(cloneValue(a.resT, V(x)))), f("ok").Op("=").Add(OK(x)))
		} else {
			set = append(set, f("").Op("=").Add(cloneValue(a.resT, V(x))), f("ok").Op("=").True())
		}
		var conds []jen.Code
		if a.name != "last" {
			set = append(set, f("set").Op("=").True())
			conds = append(conds, jen.Op("!").Add(f("set")))
		}
		if a.ignoreNulls && x.nullable() {
			conds = append(conds, OK(x))
		}
		if c := and(conds...); c != nil {
			g.emit(jen.If(c).Block(set...))
		} else {
			g.emit(set...)
		}
	}
}

// sumFail is the statement for an overflow of sum's or avg's sum: the
// flow fails with err, or try_sum and try_avg note it (their result is
// then NULL).
func (g *flowGen) sumFail(a *accum, f func(string) *jen.Statement, err jen.Code) jen.Code {
	if a.try {
		return f("ovf").Op("=").True()
	}
	return g.fail(a.call.Pos, err)
}

// genAccumResult is the value of an aggregate call for the group gs:
// NULL for try_sum and try_avg after an overflow.
func (g *flowGen) genAccumResult(a *accum, gs *jen.Statement) *value {
	if v := g.familyAccumResult(a, gs); v != nil { // funcs_agg.go
		return v
	}
	if passes.IsCollectAgg(a.name) {
		return plainValue(a.resT, jen.Any().Call(gs.Clone().Dot(a.field))) // collect.go: never NULL
	}
	v := g.accumResult(a, gs)
	if !a.try {
		return v
	}
	return &value{t: v.t, v: V(v), ok: and(OK(v), jen.Op("!").Add(gs.Clone().Dot(a.field+"ovf")))}
}

// accumResult is the value of a count, sum, avg, min, max, first, last or
// any_value accumulator.
func (g *flowGen) accumResult(a *accum, gs *jen.Statement) *value {
	f := func(suffix string) *jen.Statement { return gs.Clone().Dot(a.field + suffix) }
	t := a.resT
	switch a.name {
	case "count":
		if a.distinct != nil && a.stream {
			return plainValue(t, f("").Dot("Len").Call())
		}
		if a.distinct != nil {
			return plainValue(t, jen.Int64().Call(jen.Len(f(""))))
		}
		return plainValue(t, f(""))
	case "avg":
		n := &value{t: ir.Int64, v: f("n")}
		if t.Kind != ir.TDecimal {
			return g.strict(t, a.call.Pos, maybe, false, nil, func() jen.Code {
				return jen.Qual(sqlfnPkg, "AvgFloat64").Call(f(""), V(n))
			})
		}
		st := sumDecimalType(g.typeOf(a.call.Args[0]))
		return g.strict(t, a.call.Pos, checkedMaybe, a.try, nil, func() jen.Code {
			return jen.Qual(sqlfnPkg, "AvgDecimal").Call(f(""), jen.Lit(int32(st.Precision)), jen.Lit(int32(st.Scale)), V(n), jen.Lit(int32(t.Precision)), jen.Lit(int32(t.Scale)))
		})
	}
	return &value{t: t, v: f(""), ok: f("ok")}
}

// aggResults fills o's aggregate columns (those after n's keys): each
// evaluates its expression over the accumulators' results, read from the
// group state that base names (the accumulators' struct), and over the
// key columns already in ae.
func (g *flowGen) aggResults(n *ir.Aggregate, o *row, ae *aggEnv, accs []*accum, base func() *jen.Statement) {
	schema := g.u.Schemas[n]
	for _, a := range accs {
		a := a
		ae.calls[a.call] = &column{t: a.resT, load: func() *value { return g.genAccumResult(a, base()) }}
	}
	en := &env{agg: ae}
	for j, item := range n.Aggs {
		item := item
		o.cols[len(n.Keys)+j] = &column{t: schema[len(n.Keys)+j].Type, load: func() *value {
			return g.bind(g.genExpr(item.Expr, en), "agg")
		}}
	}
}
