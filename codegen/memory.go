package codegen

import (
	"github.com/dave/jennifer/jen"
)

// memAccount is the --memory-limit accounting of one pipeline breaker that
// keeps rows (a join's build side, an aggregate's groups): generated code
// adds each kept row's size to a local and hands it to fc.Grow whenever it
// passes fc.GrowStep, which fails the flow, naming op, past the limit.
type memAccount struct {
	op      string // the operator and its position, for the error
	pending string // the local holding bytes not yet handed to fc.Grow
}

// memRowOverhead is what a kept row costs beyond its struct: its hash-table
// slot and chain entry (an estimate: an rt/hashtab.Int slot is 16 bytes at
// a load between 7/16 and 7/8, 18–37 bytes a key; a Strings slot 24 bytes
// at 3/8 to 3/4, 32–64; a Go map, for composite keys, about twice its
// key+value size; plus 4 bytes of join chain, and the slices' spare
// capacity).
const memRowOverhead = 48

// newMemAccount declares the pending counter of one operator's account.
func (g *flowGen) newMemAccount(op string) *memAccount {
	m := &memAccount{op: op, pending: g.name("memPending")}
	g.emit(jen.Var().Id(m.pending).Int64())
	return m
}

// add accounts one kept row: the size of its struct (zero is a zero value
// of it), the bytes of the strings it copied (strs: string or []byte
// expressions), and memRowOverhead.
func (m *memAccount) add(g *flowGen, zero jen.Code, strs []jen.Code) {
	size := jen.Int64().Call(jen.Qual(unsafePkg, "Sizeof").Call(zero)).Op("+").Lit(memRowOverhead)
	for _, s := range strs {
		size = size.Op("+").Int64().Call(jen.Len(s))
	}
	g.emit(jen.Id(m.pending).Op("+=").Add(size),
		jen.If(jen.Id(m.pending).Op(">=").Id("fc").Dot("GrowStep")).Block(
			jen.If(jen.Err().Op(":=").Id("fc").Dot("Grow").Call(jen.Lit(m.op), jen.Id(m.pending)), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Err())),
			jen.Id(m.pending).Op("=").Lit(0)))
}
