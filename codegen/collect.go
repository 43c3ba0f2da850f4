package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// collect_list and collect_set (passes/funcs_collect.go): a group's state
// keeps its values in an rt/nested Array, in the order its rows came
// (copied out of their batch), and collect_set a Go map of the values
// seen beside it. collect_set and a DISTINCT collect keep floats
// normalized, as Spark's do (its NormalizeFloatingNumbers): -0.0 is kept
// as 0.0, and every NaN is one value. The plan admits
// collect_set of scalars only, and leaves the aggregate sequential (its
// states do not merge), so collect_list's order is the input's. Each kept
// value is counted against --memory-limit.

// collectSlot is what one kept value costs beyond its payload: its
// interface slot in the Array, twice for the slice's growth by doubling.
const collectSlot = memSliceTimes * 16

// planCollectAccum declares collect_list's or collect_set's accumulator
// fields and its --memory-limit account; false when a is neither.
func (g *flowGen) planCollectAccum(st *structDecl, a *accum) bool {
	if !passes.IsCollectAgg(a.name) {
		return false
	}
	f := a.field
	if a.call.Distinct && a.argT.Kind != ir.TUnknown { // the values seen, in front of the accumulator (aggfilter.go)
		a.distinct = g.newKeyType("aggDistinct", []ir.Type{a.argT}, false)
		st.add(f+"d", jen.Map(a.distinct.goType()).Struct())
	}
	st.add(f, jen.Qual(nestedPkg, "Array"))
	if a.name == "collect_set" {
		st.add(f+"s", jen.Map(setKeyType(a.argT)).Struct())
	}
	a.mem = g.newMemAccount(fmt.Sprintf("%s at %s", a.call.Name, posText(a.call.Pos)))
	g.emit(jen.Id("_").Op("=").Id(a.mem.pending)) // used only where a row can give a value
	return true
}

// setKeyType is the Go map key of collect_set's values of type t: the
// value itself, a binary as a string, a (normalized) float as its bits,
// so that NaN equals NaN.
func setKeyType(t ir.Type) jen.Code {
	switch t.Kind {
	case ir.TBinary, ir.TUnknown:
		return jen.String()
	case ir.TFloat64:
		return jen.Uint64()
	case ir.TFloat32:
		return jen.Uint32()
	}
	return goType(t)
}

// setKey is a value as its collect_set map key (setKeyType).
func setKey(t ir.Type, v jen.Code) jen.Code {
	switch t.Kind {
	case ir.TBinary:
		return jen.String().Call(v)
	case ir.TFloat64:
		return jen.Qual("math", "Float64bits").Call(v)
	case ir.TFloat32:
		return jen.Qual("math", "Float32bits").Call(v)
	}
	return v
}

// payloadBytes is what a kept value of type t holds beyond its slot: its
// text, or its nested parts (rt/nested.Bytes).
func payloadBytes(t ir.Type, v jen.Code) jen.Code {
	switch {
	case t.Kind == ir.TString || t.Kind == ir.TBinary:
		return jen.Int64().Call(jen.Len(v))
	case t.IsNested():
		return jen.Qual(nestedPkg, "Bytes").Call(v)
	}
	return nil
}

// accumulateCollect appends the row's value x to its group's values
// (collect_set: when not seen before); a NULL is skipped.
func (g *flowGen) accumulateCollect(a *accum, gs *jen.Statement, args []*value) {
	x := args[0]
	if x.null {
		return
	}
	if a.name == "collect_set" || a.distinct != nil {
		x = normalized(x)
	}
	x = g.bind(x, "cv")
	f := func(suffix string) *jen.Statement { return gs.Clone().Dot(a.field + suffix) }
	kept := g.name("kept")
	size := jen.Lit(int64(collectSlot))
	if p := payloadBytes(x.t, jen.Id(kept)); p != nil {
		size = size.Op("+").Add(p)
	}
	keep := []jen.Code{jen.Id(kept).Op(":=").Add(cloneValue(x.t, V(x)))}
	if a.name == "collect_set" {
		// the map's slot: as a distinct row's (memSetTimes, memSetOverhead)
		size = size.Op("+").Lit(memSetTimes).Op("*").Int64().Call(jen.Qual(unsafePkg, "Sizeof").Call(setKey(x.t, jen.Id(kept)))).Op("+").Lit(memSetOverhead)
		keep = append(keep,
			jen.If(f("s").Op("==").Nil()).Block(f("s").Op("=").Map(setKeyType(x.t)).Struct().Values()),
			f("s").Index(setKey(x.t, jen.Id(kept))).Op("=").Struct().Values())
	}
	keep = append(keep, f("").Op("=").Append(f(""), jen.Id(kept)))
	keep = append(keep, a.mem.growStmts(size)...)
	if a.name == "collect_set" {
		keep = []jen.Code{jen.If(jen.List(jen.Id("_"), jen.Id("dup")).Op(":=").Add(f("s")).Index(setKey(x.t, V(x))), jen.Op("!").Id("dup")).Block(keep...)}
	}
	if x.nullable() {
		g.emit(jen.If(OK(x)).Block(keep...))
		return
	}
	g.emit(keep...)
}
