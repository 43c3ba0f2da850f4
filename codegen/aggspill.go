package codegen

import (
	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
)

// Grace-hash spilling of a hash aggregate and of a distinct past
// --memory-limit. While fc.TryGrow admits the table's growth, every key
// lives in memory as without a limit. Once it refuses, the table freezes:
// a row whose key is in the table still updates it, and a row with a new
// key is written to one of spill.Fanout partition files picked by its
// key's hash (rt/spill.Grace, over the Partitions a join spills to too) — for an aggregate its key values and the
// values its accumulators read, for a distinct the row. Each key is then
// wholly in memory or wholly on disk, so no partial state is ever written.
// After the input, the table's groups (rows) are emitted and the table
// emptied; each partition is then read back into it with the same lookup
// and accumulate code, and one that freezes again spills to the next
// level's partitions (other hash bits), down to spill.MaxLevel.
//
// A parallel aggregate's workers would each freeze their own table, and a
// key could then be in one worker's table and in another's spill files;
// under a limit its pipeline runs on one worker (fc.ParallelSpilling).
// Grouping sets and global aggregates do not spill: past the limit they
// fail with the MemoryLimitError as before. Values an accumulator keeps
// (collect_list, the percentiles) grow in memory for groups already in
// the table when it froze: they cannot spill, and may take the flow to
// twice the limit before it fails (fc.GrowSpilling).

// graceSpill is the spilling of one operator: the names of its flow-level
// locals.
type graceSpill struct {
	op     string // the operator and its position, for the errors
	grace  string // its *spill.Grace
	frozen string // true once fc.TryGrow refused the table's growth
	held   string // the bytes accounted for the table, given back as it empties
}

// newGraceSpill declares the locals of op's spilling.
func (g *flowGen) newGraceSpill(op string) *graceSpill {
	s := &graceSpill{op: op, grace: g.name("grace"), frozen: g.name("frozen"), held: g.name("held")}
	g.emit(jen.Id(s.grace).Op(":=").Qual(spillPkg, "NewGrace").Call(jen.Func().Params(jen.Id("level").Int()).Params(jen.Op("*").Qual(spillPkg, "Partitions"), jen.Error()).Block(
		jen.Return(jen.Id("fc").Dot("SpillPartitions").Call(jen.Lit(op), jen.Id("level"))))),
		jen.Var().Id(s.frozen).Bool(),
		jen.Var().Id(s.held).Int64())
	return s
}

// tryGrowStmts hands pending bytes (a local) to fc.TryGrow, freezing the
// table when it refuses them.
func (s *graceSpill) tryGrowStmts(pending string) jen.Code {
	return jen.If(jen.Id("fc").Dot("TryGrow").Call(jen.Id(pending))).Block(s.heldStmt(jen.Id(pending))).Else().Block(jen.Id(s.frozen).Op("=").True())
}

// heldStmt adds n accounted bytes to the held ones (atomically: the
// workers of a parallel aggregate without a limit account concurrently).
func (s *graceSpill) heldStmt(n jen.Code) jen.Code {
	return jen.Qual(atomicPkg, "AddInt64").Call(jen.Op("&").Id(s.held), n)
}

// spillNew emits the code for a row whose key is not in the table: once
// the table is frozen, the row is written (puts, given the writer's name)
// to the partition file of key (a comparable Go value) and dropped.
func (s *graceSpill) spillNew(g *flowGen, key jen.Code, puts func(w string)) {
	w := g.name("sw")
	body := g.sub(func() {
		g.emit(jen.List(jen.Id(w), jen.Err()).Op(":=").Id(s.grace).Dot("Writer").Call(jen.Qual(spillPkg, "Hash").Call(key)),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
		puts(w)
		g.emit(g.skipStmt())
	})
	g.emit(jen.If(jen.Id(s.frozen)).Block(body...))
}

// replay emits the loop over the spilled partitions around emit (the
// code that emits the table's groups or rows): after each emission, the
// next partition is read back into the emptied table (reset empties it)
// by row, which reads one row from the reader it is given. The rows' code
// is generated first: it may mark keys nullable, which emit reads.
func (s *graceSpill) replay(g *flowGen, emit func() []jen.Code, reset []jen.Code, row func(r string)) {
	r, more := g.name("sr"), g.name("more")
	rows := g.loop(func() { row(r) })
	g.emit(jen.For().Block(append(emit(),
		jen.List(jen.Id(r), jen.Id(more), jen.Err()).Op(":=").Id(s.grace).Dot("Next").Call(),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.If(jen.Op("!").Id(more)).Block(jen.Break()),
		jen.Comment("a partition spilled past --memory-limit, read back into the emptied table"),
		jen.Id("fc").Dot("Shrink").Call(jen.Id(s.held)),
		jen.List(jen.Id(s.held), jen.Id(s.frozen)).Op("=").List(jen.Lit(0), jen.False()),
		jen.Block(reset...),
		jen.For(jen.Id(r).Dot("More").Call()).Block(rows...),
		jen.If(jen.Err().Op(":=").Id(r).Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
	)...))
}

// spillPutValue emits the puts of x to writer w: its validity, then its
// value when valid.
func (g *flowGen) spillPutValue(w string, x *value) {
	switch {
	case x.null:
		g.emit(spillPutOK(w, jen.False()))
	case x.nullable():
		g.emit(spillPutOK(w, OK(x)), jen.If(OK(x)).Block(spillPut(x.t, w, V(x))))
	default:
		g.emit(spillPutOK(w, jen.True()), spillPut(x.t, w, V(x)))
	}
}

// spillVar declares the locals of a value of type t read back from a
// spill file (by spillGetValue).
func (g *flowGen) spillVar(t ir.Type) *value {
	v, ok := g.name("sv"), g.name("svok")
	vl := g.declareVar(v, goType(t))
	okl := g.declareVar(ok, jen.Bool())
	return &value{t: t, v: jen.Id(v), ok: jen.Id(ok), vl: vl, okl: okl}
}

// spillGetValue emits the reads of what spillPutValue wrote into x's
// locals (from spillVar).
func (g *flowGen) spillGetValue(r string, x *value) {
	g.emit(jen.Add(OK(x)).Op("=").Add(spillGetOK(r)),
		jen.If(OK(x)).Block(jen.Add(V(x)).Op("=").Add(spillGet(x.t, r))))
}

// accIn is what one accumulator reads of a row: its FILTER's truth (nil
// without a FILTER) and its arguments' values (args[i] nil for a literal,
// which is not spilled). The arguments are valid only where the filter is
// true.
type accIn struct {
	filter *value
	args   []*value
}

// spillPutAccs emits the puts of what each accumulator of accs reads of
// the row: filter(a) is the value of a's FILTER (for a call with one), and
// args(a) its arguments' values (nil for a literal), called only where the
// filter holds (a row filtered out raises no error of its arguments).
func (g *flowGen) spillPutAccs(w string, accs []*accum, filter func(a *accum) *value, args func(a *accum) []*value) {
	for _, a := range accs {
		put := func() {
			for i, x := range args(a) {
				if x != nil {
					g.spillPutValue(w, g.coerce(x, g.typeOf(a.call.Args[i]), a.call.Pos))
				}
			}
		}
		if a.call.Filter == nil {
			put()
			continue
		}
		f := filter(a)
		g.emit(spillPutOK(w, truth(f)))
		g.emit(jen.If(truth(f)).Block(g.sub(put)...))
	}
}

// spillEvalAccs is spillPutAccs over the row of env e: the filters and
// arguments evaluated.
func (g *flowGen) spillEvalAccs(w string, accs []*accum, e *env) {
	g.spillPutAccs(w, accs, func(a *accum) *value {
		return g.bind(g.genExpr(a.call.Filter, e), "filter")
	}, func(a *accum) []*value {
		if a.call.Star {
			return nil
		}
		vals := make([]*value, len(a.call.Args))
		for i, x := range a.call.Args {
			if _, lit := x.(*ir.Literal); !lit {
				vals[i] = g.genExpr(x, e)
			}
		}
		return vals
	})
}

// spillGetAccs declares the locals of what spillPutAccs wrote and emits
// their reads from r.
func (g *flowGen) spillGetAccs(r string, accs []*accum) []accIn {
	ins := make([]accIn, len(accs))
	for j, a := range accs {
		in := &ins[j]
		if !a.call.Star {
			in.args = make([]*value, len(a.call.Args))
			for i, x := range a.call.Args {
				if _, lit := x.(*ir.Literal); !lit {
					in.args[i] = g.spillVar(g.typeOf(x))
				}
			}
		}
		get := func() {
			for _, x := range in.args {
				if x != nil {
					g.spillGetValue(r, x)
				}
			}
		}
		if a.call.Filter == nil {
			get()
			continue
		}
		f := g.name("filter")
		fl := g.declareVar(f, jen.Bool())
		in.filter = &value{t: ir.Bool, v: jen.Id(f), vl: fl}
		g.emit(jen.Id(f).Op("=").Add(spillGetOK(r)), jen.If(jen.Id(f)).Block(g.sub(get)...))
	}
	return ins
}

// spillPutAccIns emits the puts of accumulator values read back by
// spillGetAccs (a partition's row spilled again).
func (g *flowGen) spillPutAccIns(w string, accs []*accum, ins []accIn) {
	idx := map[*accum]int{}
	for j, a := range accs {
		idx[a] = j
	}
	g.spillPutAccs(w, accs, func(a *accum) *value { return ins[idx[a]].filter },
		func(a *accum) []*value { return ins[idx[a]].args })
}

// accumulateIns updates the accumulators of group gs from values read
// back by spillGetAccs.
func (g *flowGen) accumulateIns(accs []*accum, gs *jen.Statement, ins []accIn) {
	for j, a := range accs {
		in := ins[j]
		args := make([]*value, len(in.args))
		for i, x := range in.args {
			if x == nil {
				args[i] = g.genExpr(a.call.Args[i], &env{})
			} else {
				args[i] = x
			}
		}
		if in.filter == nil {
			g.accumulateValues(a, gs, args)
			continue
		}
		g.emit(jen.If(truth(in.filter)).Block(g.sub(func() { g.accumulateValues(a, gs, args) })...))
	}
}
