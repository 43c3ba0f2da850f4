package codegen

import (
	"github.com/dave/jennifer/jen"
)

// spillRuns is the generated state of an operator that sorts its rows and,
// past --memory-limit, spills them as sorted runs (an order by, a window:
// an external merge sort over rt/spill's Runs): the Runs, the bytes the
// rows in memory hold in the flow's account, and the function that writes
// them out as one run and gives those bytes back.
type spillRuns struct {
	runs, held, spill string
	// full is what the operator calls when its rows would pass the limit:
	// spill, or a function that first makes room another way
	full string
}

// declSpillRuns declares, in the operator's prelude, the sorted runs of
// the rows kept in the slice rows of struct st, ordered by cmpFn, and the
// spill function; fields (called once the rows' fields are all known) is
// the layout of a row in a run.
func (g *flowGen) declSpillRuns(op string, st *structDecl, rows, cmpFn string, fields func() []*storedField) *spillRuns {
	sr := &spillRuns{runs: g.name("runs"), held: g.name("memHeld"), spill: g.name("spillRun")}
	sr.full = sr.spill
	put, get := g.global("spillPut_", st.name), g.global("spillGet_", st.name)
	g.typeDecls = append(g.typeDecls, func() jen.Code { return spillRowFuncs(st.name, put, get, fields()) })
	g.emit(jen.Var().Id(sr.held).Int64(),
		jen.Id(sr.runs).Op(":=").Qual(spillPkg, "NewRuns").Call(jen.Id(cmpFn), jen.Id(put), jen.Id(get),
			jen.Func().Params().Params(jen.Op("*").Qual(spillPkg, "Writer"), jen.Error()).Block(
				jen.Return(jen.Id("fc").Dot("SpillFile").Call(jen.Lit(op))))),
		jen.Commentf("%s writes the rows in memory out as one sorted run and gives their memory back.", sr.spill),
		jen.Id(sr.spill).Op(":=").Func().Params().Error().Block(
			jen.If(jen.Err().Op(":=").Id(sr.runs).Dot("Write").Call(jen.Id(rows)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.Clear(jen.Id(rows)),
			jen.Id(rows).Op("=").Id(rows).Index(jen.Empty(), jen.Lit(0)),
			jen.Id("fc").Dot("Shrink").Call(jen.Id(sr.held)),
			jen.Id(sr.held).Op("=").Lit(0),
			jen.Return(jen.Nil())))
	return sr
}

// winMerge is the generated state of a spilled window operator's read-back:
// the merge of its runs (nil when nothing spilled), and the bytes of the
// batch in memory in the flow's account; gather is the code, at the top
// of the operator's batch loop, that fills the rows with the next batch of
// whole partitions (or breaks at the end).
type winMerge struct {
	merge, held string
	gather      []jen.Code
}

// genWindowSpill generates the switch of a window operator whose rows
// spilled (sr) to reading them back: the rows still in memory, and their
// result slots (perRow bytes each), go out as the last run unless they
// fit; then its batch loop reads the runs' merge (partition keys, then
// order keys, ties in input order) a batch of whole partitions at a time,
// as many as fit in the flow's account (size is a row's bytes in it) — a
// partition that does not fit alone fails with an etl.WholeLimitError. A
// group limit (lim, when hasLim) keeps only the first lim rows of each
// partition as they are read.
func (g *flowGen) genWindowSpill(op, st, rows string, sr *spillRuns, perRow int, size, samePart string, lim int64, hasLim bool) *winMerge {
	wm := &winMerge{merge: g.name("merge"), held: g.name("batchHeld")}
	buf, cut := g.name("buf"), g.name("cut")
	g.emit(jen.Var().Id(wm.merge).Op("*").Qual(spillPkg, "Merger").Types(jen.Id(st)),
		jen.If(jen.Id(sr.runs).Dot("Len").Call().Op(">").Lit(0).Op("||").Op("!").Id("fc").Dot("TryGrow").Call(jen.Int64().Call(jen.Len(jen.Id(rows))).Op("*").Lit(perRow))).Block(
			jen.If(jen.Len(jen.Id(rows)).Op(">").Lit(0)).Block(
				jen.If(jen.Err().Op(":=").Id(sr.spill).Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))),
			jen.List(jen.Id("m"), jen.Err()).Op(":=").Id(sr.runs).Dot("Merge").Call(jen.Nil(), jen.Nil()),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.Id(wm.merge).Op("=").Id("m"),
			jen.Id(rows).Op("=").Nil()),
		jen.Var().Id(buf).Index().Id(st),
		jen.Var().Id(cut).Int(),
		jen.Var().Id(wm.held).Int64())
	var limit []jen.Code
	if hasLim {
		limit = []jen.Code{jen.If(jen.Id("inPart").Op(">=").Lit(int(lim))).Block(jen.Continue())}
	}
	read := append(limit,
		jen.Id(buf).Op("=").Append(jen.Id(buf), jen.Op("*").Id("r")),
		jen.Id("inPart").Op("++"),
		jen.Id("pending").Op("+=").Id(size).Call(jen.Id("r")),
		jen.If(jen.Id("pending").Op(">=").Id("fc").Dot("GrowStep")).Block(
			jen.If(jen.Op("!").Id("fc").Dot("TryGrow").Call(jen.Id("pending"))).Block(
				jen.If(jen.Id(cut).Op("==").Lit(0)).Block(
					jen.Return(jen.Op("&").Qual(etlPkg, "WholeLimitError").Values(jen.Dict{
						jen.Id("Operator"): jen.Lit(op),
						jen.Id("Unit"):     jen.Lit("one partition"),
						jen.Id("Limit"):    jen.Id("fc").Dot("MemoryLimit").Call(),
					}))),
				jen.Comment("the partitions before this one are a batch"),
				jen.Id(wm.merge).Dot("Next").Call(),
				jen.Break()),
			jen.Id(wm.held).Op("+=").Id("pending"),
			jen.Id("pending").Op("=").Lit(0)))
	wm.gather = []jen.Code{jen.If(jen.Id(wm.merge).Op("!=").Nil()).Block(
		jen.Comment("the last batch is done; the partition it cut short comes first"),
		jen.Id("fc").Dot("Shrink").Call(jen.Id(wm.held)),
		jen.Id(wm.held).Op("=").Lit(0),
		jen.Id("n").Op(":=").Copy(jen.Id(buf), jen.Id(buf).Index(jen.Id(cut), jen.Empty())),
		jen.Clear(jen.Id(buf).Index(jen.Id("n"), jen.Empty())),
		jen.Id(buf).Op("=").Id(buf).Index(jen.Empty(), jen.Id("n")),
		jen.Var().Id("pending").Int64(),
		jen.For(jen.Id("i").Op(":=").Range().Id(buf)).Block(jen.Id("pending").Op("+=").Id(size).Call(jen.Op("&").Id(buf).Index(jen.Id("i")))),
		jen.Id(cut).Op("=").Lit(0),
		jen.Comment("inPart: the rows kept of the partition being read"),
		jen.Id("inPart").Op(":=").Len(jen.Id(buf)),
		jen.For(jen.Id("r").Op(":=").Id(wm.merge).Dot("Peek").Call(), jen.Id("r").Op("!=").Nil(), jen.Id("r").Op("=").Id(wm.merge).Dot("Next").Call()).Block(
			append([]jen.Code{jen.If(jen.Len(jen.Id(buf)).Op(">").Lit(0).Op("&&").Op("!").Id(samePart).Call(jen.Op("&").Id(buf).Index(jen.Len(jen.Id(buf)).Op("-").Lit(1)), jen.Id("r"))).Block(
				jen.List(jen.Id(cut), jen.Id("inPart")).Op("=").List(jen.Len(jen.Id(buf)), jen.Lit(0)))}, read...)...),
		jen.If(jen.Err().Op(":=").Id(wm.merge).Dot("Err").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.If(jen.Id(wm.merge).Dot("Peek").Call().Op("==").Nil()).Block(jen.Id(cut).Op("=").Len(jen.Id(buf))),
		jen.Id(rows).Op("=").Id(buf).Index(jen.Empty(), jen.Id(cut)),
		jen.If(jen.Len(jen.Id(rows)).Op("==").Lit(0)).Block(jen.Break()))}
	return wm
}

// declGroupLimitFull declares, for a spilling window operator with a group
// limit (only the first lim rows of each partition go on), what it does
// when its rows would pass the limit: it keeps only those rows of the rows
// in memory (window.GroupLimit: a superset of the first lim rows of their
// partitions over all rows, in input order), and spills only when they
// still take more than half the limit. A dedup's rows then mostly stay in
// memory, as the partitions' best rows.
func (g *flowGen) declGroupLimitFull(sr *spillRuns, rows, size string, hashFn jen.Code, samePart, cmpFn string, lim int64) {
	sr.full = g.name("compact")
	g.emit(jen.Commentf("%s keeps only the group limit's rows, and spills them if they still do not fit.", sr.full),
		jen.Id(sr.full).Op(":=").Func().Params().Error().Block(append(groupLimitStmts(rows, hashFn, samePart, cmpFn, lim),
			jen.Var().Id("kept").Int64(),
			jen.For(jen.Id("i").Op(":=").Range().Id(rows)).Block(jen.Id("kept").Op("+=").Id(size).Call(jen.Op("&").Id(rows).Index(jen.Id("i")))),
			jen.Id("fc").Dot("Shrink").Call(jen.Id(sr.held)),
			jen.Id(sr.held).Op("=").Lit(0),
			jen.If(jen.Id("kept").Op("<=").Id("fc").Dot("MemoryLimit").Call().Op("/").Lit(2).Op("&&").Id("fc").Dot("TryGrow").Call(jen.Id("kept"))).Block(
				jen.Id(sr.held).Op("=").Id("kept"),
				jen.Return(jen.Nil())),
			jen.Return(jen.Id(sr.spill).Call()))...))
}
