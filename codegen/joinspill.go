package codegen

import (
	"fmt"
	"slices"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
)

// A hash join whose build side passes --memory-limit goes grace (rt/spill's
// Partitions): while fc.TryGrow grants its table's bytes, the join is
// built and probed in memory as without a limit; once TryGrow refuses, the
// build rows held so far and the rest of the build input go to
// spill.Fanout files by their key's hash, the probe rows to as many files
// by the same hash (the columns of the left input the join reads), and
// then each pair of files is joined in turn: its build rows loaded into the
// table by the build side's own code, its probe rows replayed through the
// probe's own code and the join's consumer (generated a second time, for
// the replay loop). Right and full joins emit each partition's unmatched
// build rows after its probe rows; a probe row with a NULL key lands in
// some partition and is handled there as in memory. A partition whose
// build rows still pass the limit splits again by the next bits of the
// hash, to spill.MaxLevel levels. Without a limit nothing spills: the
// added code is one nil test of the build side's partitions per build row
// and of the probe side's per probe row.
//
// A spilled join's probe writes its files and replays them on one
// goroutine (fc.SerialBegin): in a parallel pipeline the replay runs in
// the one worker's end function, where that worker's consumer state (its
// output builders, its partial aggregate) is in scope.

// graceJoin holds the names of one hash join's spill state in generated
// code.
type graceJoin struct {
	op     string // the operator and its position: its spill files, its errors
	build  string // *spill.Partitions of the build rows, nil while they are in memory
	probe  string // *spill.Partitions of the probe rows, nil unless build is not
	level  string // the level the build side splits at when it passes the limit
	held   string // the bytes fc.TryGrow granted the table
	parts  string // the partitions left to join ([]spill.Part)
	serial string // the probe runs on one goroutine (fc.SerialBegin); "" when it never runs on the workers
}

// newGraceJoin declares a join's spill state; parallel: its probe may run
// on the workers.
func (g *flowGen) newGraceJoin(op string, parallel bool) *graceJoin {
	gj := &graceJoin{op: op, build: g.name("spillB"), probe: g.name("spillP"), level: g.name("spillLevel"),
		held: g.name("spillHeld"), parts: g.name("spillParts")}
	defs := []jen.Code{
		jen.Id(gj.build).Op(",").Id(gj.probe).Op("*").Qual(spillPkg, "Partitions"),
		jen.Id(gj.level).Int(),
		jen.Id(gj.held).Int64(),
		jen.Id(gj.parts).Index().Qual(spillPkg, "Part"),
	}
	if parallel {
		gj.serial = g.name("spillSerial")
		defs = append(defs, jen.Id(gj.serial).Bool())
	}
	g.emit(jen.Var().Defs(defs...))
	return gj
}

// spillCol is one column of a spilled row: its index in its side's
// schema, its type, and whether an ok flag precedes its value.
type spillCol struct {
	j        int
	t        ir.Type
	nullable bool
}

// putValue is the statements writing x to spill writer w in the layout of
// col.
func putValue(w string, col spillCol, x *value) []jen.Code {
	if col.t.Kind == ir.TUnknown {
		return nil // always NULL: nothing to write
	}
	var out []jen.Code
	if col.nullable {
		out = append(out, spillPutOK(w, OK(x)))
	}
	return append(out, spillPut(col.t, w, V0(x)))
}

// putRow is the statements writing the columns cols of r to the partition
// of key (a key of the join's keyType) in parts, after the batch number
// and row index of a parallel pipeline's row when par is not nil (a
// top-N's tie-breaker).
func (g *flowGen) putRow(parts string, key jen.Code, cols []spillCol, r *row, par *parPipe) []jen.Code {
	return g.sub(func() {
		w := g.name("w")
		g.emit(jen.Id(w).Op(":=").Id(parts).Dot("Of").Call(jen.Qual(spillPkg, "Hash").Call(key)))
		if par != nil {
			g.emit(jen.Id(w).Dot("PutInt64").Call(jen.Id(par.seq)), jen.Id(w).Dot("PutInt64").Call(jen.Int64().Call(jen.Id(par.row))))
		}
		for _, c := range cols {
			g.emit(putValue(w, c, g.col(r.cols[c.j]))...)
		}
	})
}

// readRow declares the columns cols of a row read from spill reader rd
// and returns the row (of width columns; the others are absent).
func (g *flowGen) readRow(rd string, cols []spillCol, width int) *row {
	out := &row{cols: make([]*column, width)}
	for _, c := range cols {
		if c.t.Kind == ir.TUnknown {
			out.cols[c.j] = constColumn(nullValue(c.t))
			continue
		}
		v := g.name("sv")
		x := &value{t: c.t, v: jen.Id(v)}
		if c.nullable {
			ok := g.declare([]string{v + "ok"}, spillGetOK(rd))[0]
			x.ok = use(ok)
		}
		g.declare([]string{v}, spillGet(c.t, rd))
		out.cols[c.j] = &column{t: c.t, load: func() *value { return x }}
	}
	return out
}

// startPartitions is the code starting the partitions of one side at the
// current level.
func (gj *graceJoin) startPartitions(parts string) jen.Code {
	p := "parts"
	return jen.Block(
		jen.List(jen.Id(p), jen.Err()).Op(":=").Id("fc").Dot("SpillPartitions").Call(jen.Lit(gj.op), jen.Id(gj.level)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Id(parts).Op("=").Id(p))
}

// checkErr is "if err := call; err != nil { return err }".
func checkErr(call jen.Code) jen.Code {
	return jen.If(jen.Err().Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
}

// genReplay generates the grace phase of a spilled join, after its probe
// input is done: the partitions of the level just written join the queue,
// and each queued partition is built (build: the build side's row code,
// for a row read back), probed (probe: the probe side's, which joins or,
// if the partition's build rows spilled again, writes to the next level's
// partitions), and for right and full joins its unmatched build rows
// emitted (unmatched); reset empties the table (rows: its slice of build
// rows) after each.
func (g *flowGen) genReplay(gj *graceJoin, rows string, bcols []spillCol, bwidth int, build func(*row),
	pcols []spillCol, pwidth int, par *parPipe, probe func(*row), unmatched func(), reset []jen.Code) {
	part, rd := g.name("part"), g.name("rd")
	readAll := func(file string, cols []spillCol, width int, seq bool, each func(*row)) []jen.Code {
		body := g.loop(func() {
			if seq {
				g.declare([]string{par.seq}, jen.Id(rd).Dot("GetInt64").Call())
				g.declare([]string{par.row}, jen.Int().Call(jen.Id(rd).Dot("GetInt64").Call()))
			}
			each(g.readRow(rd, cols, width))
		})
		return []jen.Code{
			jen.List(jen.Id(rd), jen.Err()).Op(":=").Id(part).Dot(file).Dot("Reader").Call(),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.For(jen.Id(rd).Dot("More").Call()).Block(body...),
			checkErr(jen.Id(rd).Dot("Err").Call()),
		}
	}
	queue := checkErr(jen.Func().Params().Error().Block(
		jen.Var().Err().Error(),
		jen.List(jen.Id(gj.parts), jen.Err()).Op("=").Qual(spillPkg, "Pair").Call(jen.Id(gj.parts), jen.Id(gj.build), jen.Id(gj.probe)),
		jen.List(jen.Id(gj.build), jen.Id(gj.probe)).Op("=").List(jen.Nil(), jen.Nil()),
		jen.Return(jen.Err())).Call())
	// rows come from files: nothing reloads a row by its batch index
	// (deferred accumulators)
	oldRowEnd, oldSpill := g.rowEnd, g.fromSpill
	g.rowEnd, g.fromSpill = nil, true
	var loop []jen.Code
	loop = append(loop,
		jen.Id(part).Op(":=").Id(gj.parts).Index(jen.Len(jen.Id(gj.parts)).Op("-").Lit(1)),
		jen.Id(gj.parts).Op("=").Id(gj.parts).Index(jen.Empty(), jen.Len(jen.Id(gj.parts)).Op("-").Lit(1)),
		jen.Id(gj.level).Op("=").Id(part).Dot("Level"))
	loop = append(loop, jen.Block(readAll("Build", bcols, bwidth, false, build)...))
	loop = append(loop, jen.If(jen.Id(gj.build).Op("!=").Nil()).Block(gj.startPartitions(gj.probe)))
	loop = append(loop, jen.Block(readAll("Probe", pcols, pwidth, par != nil && par.on, probe)...))
	loop = append(loop, checkErr(jen.Id(part).Dot("Remove").Call()),
		jen.If(jen.Id(gj.build).Op("!=").Nil()).Block(queue, jen.Continue()))
	if unmatched != nil {
		loop = append(loop, g.sub(unmatched)...)
	}
	loop = append(loop, reset...)
	// an aggregate's memo of this build side's groups (memoGroup) is by
	// row index: the next partition's rows start again at 0
	var memos []string
	for k, memo := range g.memos {
		if k.rows == rows {
			memos = append(memos, memo)
		}
	}
	slices.Sort(memos)
	for _, memo := range memos {
		loop = append(loop, jen.Id("fc").Dot("Shrink").Call(jen.Lit(4).Op("*").Int64().Call(jen.Len(jen.Id(memo)))),
			jen.Id(memo).Op("=").Id(memo).Index(jen.Empty(), jen.Lit(0)))
	}
	g.rowEnd, g.fromSpill = oldRowEnd, oldSpill
	g.emit(jen.Commentf("%s: join its spilled partitions one by one", gj.op),
		jen.If(jen.Id(gj.build).Op("!=").Nil()).Block(queue,
			jen.For(jen.Len(jen.Id(gj.parts)).Op(">").Lit(0)).Block(loop...)))
}

// spillCols is the layout of one side's spilled rows: the columns of r
// that need marks (nil: every column of r; a NULL type's, always NULL, is
// written as nothing); nullable says which carry an ok flag.
func spillCols(r *row, need []bool, nullable func(j int) bool) []spillCol {
	var cols []spillCol
	for j, c := range r.cols {
		if c == nil || need != nil && (j >= len(need) || !need[j]) {
			continue
		}
		cols = append(cols, spillCol{j: j, t: c.t, nullable: nullable(j)})
	}
	return cols
}

// joinOpText is the operator text of a join's spill files and errors.
func joinOpText(n *ir.Join) string { return fmt.Sprintf("join at %s (its build side)", posText(n.Pos)) }
