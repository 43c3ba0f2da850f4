package codegen

import (
	"github.com/dave/jennifer/jen"
)

// memAccount is the --memory-limit accounting of one pipeline breaker that
// keeps rows (a join's build side, an aggregate's groups, a distinct's rows,
// an order by's rows): generated code
// adds each kept row's size to a local and hands it to fc.Grow whenever it
// passes fc.GrowStep, which fails the flow, naming op, past the limit.
type memAccount struct {
	op      string // the operator and its position, for the error
	pending string // the local holding bytes not yet handed to fc.Grow
	// a kept row costs times its struct's size plus overhead bytes (and
	// its strings): what the structure holding it adds
	times, overhead int
	// spill, when set, is the grace spilling of the operator whose rows
	// these are (aggspill.go): past the limit, a table's rows freeze it
	// rather than fail; values an accumulator keeps (values true) go on
	// up to fc.GrowSpilling's bound, and count into its held bytes
	spill  *graceSpill
	values bool
}

// memRowOverhead is what a kept row costs beyond its struct: its hash-table
// slot and chain entry (an estimate: an rt/hashtab.Int slot is 16 bytes at
// a load between 7/16 and 7/8, 18–37 bytes a key; a Strings slot 24 bytes
// at 3/8 to 3/4, 32–64; a Go map, for composite keys, about twice its
// key+value size; plus 4 bytes of join chain, and while a table doubles its
// old slots too). The struct itself counts twice (newMemAccount): the rows'
// slice grows by doubling, so up to as much spare capacity again. Measured
// on a refused group by of string keys under --memory-limit 200MiB, with 48
// and the struct once the live heap was 1.25× the accounted bytes and the
// peak RSS 337 MiB; with 64 and twice the peak RSS was 236 MiB.
const memRowOverhead = 64

// memSetOverhead and memSetTimes are what a distinct row costs beyond its
// key struct in a Go map of the key to struct{}: a swiss table's slots at
// a load between 7/16 and 7/8 hold up to twice the keys, and a control
// byte each; while a table doubles the old one lives on (an estimate; with
// twice the key, a refused distinct's live heap was 1.07× the accounted
// bytes, with three times 1.03×).
const (
	memSetTimes    = 3
	memSetOverhead = 16
)

// memSliceTimes and memSliceOverhead are what a row kept in a slice grown
// by doubling (an order by's rows) costs beyond its struct: up to as much
// spare capacity again, and its 4-byte entry in the sort index.
const (
	memSliceTimes    = 2
	memSliceOverhead = 4
)

// newMemAccount declares the pending counter of one operator's account of
// rows kept in a hash table (memRowOverhead).
func (g *flowGen) newMemAccount(op string) *memAccount {
	return g.newMemAccountOf(op, 2, memRowOverhead)
}

// newMemAccountOf declares the pending counter of one operator's account
// of rows that cost times their struct's size plus overhead bytes.
func (g *flowGen) newMemAccountOf(op string, times, overhead int) *memAccount {
	m := &memAccount{op: op, pending: g.name("memPending"), times: times, overhead: overhead}
	g.emit(jen.Var().Id(m.pending).Int64())
	return m
}

// add accounts one kept row: the size of its struct (zero is a zero value
// of it) times m.times, the bytes of the strings it copied (strs: string or
// []byte expressions), and m.overhead.
func (m *memAccount) add(g *flowGen, zero jen.Code, strs []jen.Code) {
	g.emit(m.addStmts(zero, strs)...)
}

// addStmts is the code of add.
func (m *memAccount) addStmts(zero jen.Code, strs []jen.Code) []jen.Code {
	return m.growStmts(m.size(zero, strs, 0))
}

// size is the int64 expression of one kept row's bytes: its struct's size
// (zero is a zero value of it) times m.times, m.overhead plus extra, and
// the bytes of its strings (strs).
func (m *memAccount) size(zero jen.Code, strs []jen.Code, extra int) *jen.Statement {
	size := jen.Int64().Call(jen.Qual(unsafePkg, "Sizeof").Call(zero))
	if m.times != 1 {
		size = jen.Lit(m.times).Op("*").Add(size)
	}
	size = size.Op("+").Lit(m.overhead + extra)
	for _, s := range strs {
		size = size.Op("+").Int64().Call(jen.Len(s))
	}
	return size
}

// addOrSpill accounts one kept row as add does, for an operator that
// spills its rows as sorted runs (spillRuns): past the limit it writes the
// rows kept out as one run instead of failing. The check is once a
// GrowStep, outside the per-row work.
func (m *memAccount) addOrSpill(g *flowGen, zero jen.Code, strs []jen.Code, sr *spillRuns) {
	g.emit(m.tryGrowStmts(m.size(zero, strs, 0), sr.held,
		jen.If(jen.Err().Op(":=").Id(sr.full).Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))...)
}

// tryGrowStmts is the code of an operator that spills past the limit
// accounting size (an int64 expression) more bytes: past fc.GrowStep its
// pending bytes go to fc.TryGrow and, granted, to held (the local of what
// the operator holds, given back when it empties); refused, refused runs
// (a block, or an if statement: it follows the else).
func (m *memAccount) tryGrowStmts(size jen.Code, held string, refused jen.Code) []jen.Code {
	return []jen.Code{jen.Id(m.pending).Op("+=").Add(size),
		jen.If(jen.Id(m.pending).Op(">=").Id("fc").Dot("GrowStep")).Block(
			jen.If(jen.Id("fc").Dot("TryGrow").Call(jen.Id(m.pending))).Block(
				jen.Id(held).Op("+=").Id(m.pending)).
				Else().Add(refused),
			jen.Id(m.pending).Op("=").Lit(0))}
}

// growStmts is the code that accounts size (an int64 expression) more
// bytes kept, handing the pending bytes to fc.Grow past fc.GrowStep (to
// fc.TryGrow when the operator spills).
func (m *memAccount) growStmts(size jen.Code) []jen.Code {
	grow := []jen.Code{jen.If(jen.Err().Op(":=").Id("fc").Dot("Grow").Call(jen.Lit(m.op), jen.Id(m.pending)), jen.Err().Op("!=").Nil()).Block(
		jen.Return(jen.Err()))}
	switch {
	case m.spill != nil && m.values:
		grow = []jen.Code{jen.If(jen.Err().Op(":=").Id("fc").Dot("GrowSpilling").Call(jen.Lit(m.op), jen.Id(m.pending)), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Err())),
			m.spill.heldStmt(jen.Id(m.pending))}
	case m.spill != nil:
		grow = []jen.Code{m.spill.tryGrowStmts(m.pending)}
	}
	return []jen.Code{jen.Id(m.pending).Op("+=").Add(size),
		jen.If(jen.Id(m.pending).Op(">=").Id("fc").Dot("GrowStep")).Block(
			append(grow, jen.Id(m.pending).Op("=").Lit(0))...)}
}

// memHold is the --memory-limit account of state a runtime structure holds
// and gives back (a stream's open windows, an interval join's held rows):
// generated code hands fc.Hold the structure's entry count times an
// entry's estimated bytes after each row it adds, and fc.Hold grows or
// shrinks the flow's account by the change. The state of the last commit,
// restored at the start, counts too: it is held.
type memHold struct {
	op  string // the operator and its position, for the error
	was string // the local holding the bytes accounted so far
}

// newMemHold declares the account of op in the flow's prelude.
func (g *flowGen) newMemHold(op string) *memHold {
	h := &memHold{op: op, was: g.name("memHeld")}
	g.prelude = append(g.prelude, jen.Var().Id(h.was).Int64())
	return h
}

// hold accounts count entries of entry bytes each (Go int expressions)
// plus memRowOverhead each: their map slot and index (strings the entries
// hold are not counted).
func (h *memHold) hold(g *flowGen, count, entry jen.Code) {
	h.holdBytes(g, jen.Int64().Call(count).Op("*").Parens(jen.Int64().Call(entry).Op("+").Lit(memRowOverhead)))
}

// holdBytes accounts the bytes (an int64 expression) a structure that
// estimates its own footprint reports (rt/stream.IntervalJoin.HeldBytes).
func (h *memHold) holdBytes(g *flowGen, bytes jen.Code) {
	g.emit(jen.If(jen.Err().Op(":=").Id("fc").Dot("Hold").Call(jen.Lit(h.op), jen.Op("&").Id(h.was), bytes), jen.Err().Op("!=").Nil()).Block(
		jen.Return(jen.Err())))
}
