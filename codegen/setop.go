package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
)

// Set operations (EXCEPT, INTERSECT).

// genSetOp generates EXCEPT and INTERSECT [ALL]: the right input is counted
// into a hash table keyed by the whole row (NULLs equal, floats normalized,
// each column widened to the output's type), then the left input streams
// through it on one goroutine, so the output follows the left input's
// order at any --threads:
//   - except: a left row is dropped while its right count is positive
//     (ALL: one count per row; otherwise the row's key is then marked
//     seen, so that it passes once);
//   - intersect: a left row passes while its right count is positive
//     (ALL: taking one count per row; otherwise all of them).
//
// The counts are pointers, so that counting never stores a key again (a Go
// map overwrites the stored key of an existing entry, which for strings
// would point into a released batch). The table's keys are accounted
// against --memory-limit as distinct's are.
func (g *flowGen) genSetOp(n *ir.SetOp, c consumer) {
	vis := g.u.Schemas[n].Visible()
	types := make([]ir.Type, len(vis))
	for i, f := range vis {
		types[i] = f.Type
	}
	k := g.newKeyType("setop", types, true)
	cnt := g.name("setCount")
	g.emit(jen.Id(cnt).Op(":=").Map(k.goType()).Op("*").Int64().Values())
	mem := g.newMemAccountOf(fmt.Sprintf("%s at %s", n.Kind, posText(n.Pos)), memSetTimes, memSetOverhead+8)
	// key binds the row's key; vals are its values in the output's types
	key := func(in ir.Rel, r *row) (string, []*value) {
		vals := make([]*value, len(vis))
		for i := range vis {
			v := g.col(r.cols[i])
			if !sameType(v.t, types[i]) {
				v = g.bind(g.coerce(v, types[i], in.Position()), "w")
			}
			vals[i] = v
		}
		kv := g.name("skey")
		g.emit(jen.Id(kv).Op(":=").Add(k.build(g, vals)))
		return kv, vals
	}
	// store inserts the key kv with count init, accounting it
	store := func(kv string, init int64) []jen.Code {
		return g.sub(func() {
			var strs []jen.Code
			for i, t := range types {
				if t.Kind == ir.TString || t.Kind == ir.TBinary || t.IsNested() { // a nested value's key is its encoding
					strs = append(strs, jen.Id(kv).Dot(fmt.Sprintf("k%d", i)))
				}
			}
			ck := k.cloned(g, jen.Id(kv))
			g.emit(jen.Id(cnt).Index(ck).Op("=").Op("&").Index().Int64().Values(jen.Lit(init)).Index(jen.Lit(0)))
			mem.add(g, jen.Id(k.name).Values(), strs)
		})
	}
	g.emit(jen.Commentf("%s: count the right input's rows", n.Kind))
	g.produce(n.Right, func(r *row) {
		kv, _ := key(n.Right, r)
		g.emit(jen.If(jen.Id("p").Op(":=").Id(cnt).Index(jen.Id(kv)), jen.Id("p").Op("!=").Nil()).Block(
			jen.Op("*").Id("p").Op("++"),
		).Else().Block(store(kv, 1)...))
	})
	g.emit(jen.Commentf("%s: stream the left input through the counts", n.Kind))
	g.produce(n.Left, func(r *row) {
		kv, vals := key(n.Left, r)
		p := g.name("cnt")
		g.emit(jen.Id(p).Op(":=").Id(cnt).Index(jen.Id(kv)))
		switch {
		case n.Kind == ir.SetExcept && n.All:
			g.emit(jen.If(jen.Id(p).Op("!=").Nil().Op("&&").Op("*").Id(p).Op(">").Lit(0)).Block(
				jen.Op("*").Id(p).Op("--"), g.skipStmt()))
		case n.Kind == ir.SetExcept:
			g.emit(jen.If(jen.Id(p).Op("!=").Nil()).Block(g.skipStmt()))
			for _, s := range store(kv, 0) {
				g.emit(s)
			}
		default: // intersect
			g.emit(jen.If(jen.Id(p).Op("==").Nil().Op("||").Op("*").Id(p).Op("==").Lit(0)).Block(g.skipStmt()))
			if n.All {
				g.emit(jen.Op("*").Id(p).Op("--"))
			} else {
				g.emit(jen.Op("*").Id(p).Op("=").Lit(0))
			}
		}
		out := &row{cols: make([]*column, len(vis))}
		for i, x := range vals {
			if x.t.IsFloat() || x.t.IsNested() {
				// the row holds the normalized value, as Spark's
				// aggregate does: -0.0 is 0.0
				x = g.bind(normalized(x), "norm")
			}
			out.cols[i] = constColumn(x)
		}
		c(out)
	})
}
