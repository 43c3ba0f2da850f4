package codegen

import (
	"github.com/dave/jennifer/jen"
)

// genGroupLimit generates a window operator's group limit (the plan's
// GroupLimits, passes/plan_wgl.go): rt/window's GroupLimit keeps, in one
// pass over the stored rows, the first lim rows of each partition in the
// spec's order (ties in input order, as the sort breaks them), so that the
// sort, the walk and the replay see only those: the same rows, order and
// row numbers as the full sort gives them, for the filter above.
func (g *flowGen) genGroupLimit(rows string, hashFn jen.Code, samePart, cmpFn string, lim int64) {
	g.emit(groupLimitStmts(rows, hashFn, samePart, cmpFn, lim)[0])
}

// groupLimitStmts cut rows down to the group limit's (window.GroupLimit),
// then zero what they no longer hold, so that the backing array keeps no
// dropped row's strings alive: the code of a compaction. The first
// statement alone is the final cut.
func groupLimitStmts(rows string, hashFn jen.Code, samePart, cmpFn string, lim int64) []jen.Code {
	return []jen.Code{
		jen.Id(rows).Op("=").Qual(windowPkg, "GroupLimit").Call(jen.Id(rows), hashFn, jen.Id(samePart), jen.Id(cmpFn), jen.Lit(int(lim))),
		jen.Clear(jen.Id(rows).Index(jen.Len(jen.Id(rows)), jen.Cap(jen.Id(rows)))),
	}
}

// groupLimitCompactMin is the fewest stored rows at which a group limit
// without --memory-limit compacts them (genGroupLimitCompact).
const groupLimitCompactMin = 1 << 16

// genGroupLimitCompact declares the compaction of a group-limited window
// operator's rows as they arrive, and returns the code that runs after each
// row is stored. GroupLimit over any prefix of the input keeps a superset
// of the rows it keeps over the whole input, in input order, so the rows
// can be cut down to it whenever they grow: without a limit, each time
// they reach four times what the last compaction kept (and at least
// groupLimitCompactMin), which bounds them by about four times the kept
// rows (a dedup's latest row per key) for a cost linear in the input. (On
// W7, 10M rows of 2.5M keys: twice cost 1.8x the CPU of four times, eight
// times 0.84x for 1.3x the peak RSS; storing every row, 1.7x the CPU and
// 6x the peak RSS.) Under
// --memory-limit the account's own compaction does it when the rows pass
// the limit (declGroupLimitFull), so this one stays off.
//
// A group limit of one row a partition (a dedup's row_number() = 1) keeps
// its rows in an rt/window.Best instead, without --memory-limit: the rows
// are stored a chunk at a time (window.BestChunk, which stays in the
// cache) and added to it, which keeps each partition's first row as an
// aggregate keeps a group's state, with no compaction to sort and no
// table to build again. The returned end runs before the final cut: the
// Best's rows then go first, as they came first in the input. (On W7, 10M
// rows of 100K auctions, serial: about half the CPU of the compactions.)
func (g *flowGen) genGroupLimitCompact(rows string, hashFn jen.Code, samePart, cmpFn string, lim int64) (perRow, end []jen.Code) {
	if lim == 1 {
		best := g.name("best")
		g.emit(jen.Commentf("%s keeps each partition's first row as the rows arrive; nil under --memory-limit.", best),
			jen.Id(best).Op(":=").Qual(windowPkg, "NewBest").Call(hashFn, jen.Id(samePart), jen.Id(cmpFn)),
			jen.If(jen.Id("fc").Dot("MemoryLimit").Call().Op(">").Lit(0)).Block(jen.Id(best).Op("=").Nil()))
		perRow = []jen.Code{jen.If(jen.Id(best).Op("!=").Nil().Op("&&").Len(jen.Id(rows)).Op(">=").Qual(windowPkg, "BestChunk")).Block(
			jen.Id(best).Dot("AddAll").Call(jen.Id(rows)),
			jen.Clear(jen.Id(rows)),
			jen.Id(rows).Op("=").Id(rows).Index(jen.Empty(), jen.Lit(0)))}
		end = []jen.Code{jen.If(jen.Id(best).Op("!=").Nil()).Block(
			jen.Id(rows).Op("=").Append(jen.Id(best).Dot("Rows").Call(), jen.Id(rows).Op("...")))}
		return perRow, end
	}
	at := g.name("compactAt")
	g.emit(jen.Commentf("%s is the stored rows' count that next compacts them to the group limit's; never under --memory-limit.", at),
		jen.Id(at).Op(":=").Lit(groupLimitCompactMin),
		jen.If(jen.Id("fc").Dot("MemoryLimit").Call().Op(">").Lit(0)).Block(jen.Id(at).Op("=").Qual(mathPkg, "MaxInt")))
	return []jen.Code{jen.If(jen.Len(jen.Id(rows)).Op(">=").Id(at)).Block(
		append(groupLimitStmts(rows, hashFn, samePart, cmpFn, lim),
			jen.Id(at).Op("=").Max(jen.Lit(4).Op("*").Len(jen.Id(rows)), jen.Lit(groupLimitCompactMin)))...)}, nil
}
