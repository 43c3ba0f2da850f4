package codegen

import (
	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// approx_count_distinct (passes/funcs_hll.go): a group's state is the
// HyperLogLog++ registers, a fixed array of 2^p bytes (so that the
// group's size, which --memory-limit counts, includes them); each row adds
// its value's xxhash64 (hashOperand, seed 42) and the result is
// rt/sqlfn.HLLEstimate of the registers.

// hllRegisters declares a's registers in the group's state.
func (g *flowGen) hllRegisters(st *structDecl, a *accum) {
	sd, _ := passes.RelativeSD(a.call)
	st.add(a.field, jen.Index(jen.Lit(1<<passes.HLLPrecision(sd))).Uint8())
}

// hllAdd adds the row's value x (non-NULL where when guards) to the
// registers regs.
func (g *flowGen) hllAdd(a *accum, regs *jen.Statement, x *value) {
	fn, hx, vals := g.hashOperand(x, a.call.Pos)
	step := jen.Qual(sqlfnPkg, "HLLAdd").Call(regs.Index(jen.Empty(), jen.Empty()), jen.Qual(sqlfnPkg, "XxHash64"+fn).Call(append(vals, jen.Qual(sqlfnPkg, "HashSeed"))...))
	if hx.nullable() {
		step = jen.If(OK(hx)).Block(step)
	}
	g.emit(step)
}

// hllResult is the estimate of the registers regs.
func hllResult(regs *jen.Statement) *value {
	return plainValue(ir.Int64, jen.Qual(sqlfnPkg, "HLLEstimate").Call(regs.Index(jen.Empty(), jen.Empty())))
}

// genSliceCall generates this slice's scalar functions
// (passes/funcs_hll.go); nil for a call it does not generate.
func (g *flowGen) genSliceCall(name string, e *ir.Call, args []*value, t ir.Type) *value {
	if name != "make_dt_interval" {
		return nil
	}
	// days, hours and minutes as INT, seconds as DECIMAL(18,6) (Spark's
	// implicit casts); a missing one is 0
	vals := []*value{
		plainValue(ir.Int32, jen.Lit(int32(0))), plainValue(ir.Int32, jen.Lit(int32(0))), plainValue(ir.Int32, jen.Lit(int32(0))),
		plainValue(ir.Decimal(18, 6), jen.Qual(decimalPkg, "Num").Values()),
	}
	for i, a := range args {
		if i == 3 {
			vals[i] = g.genCast(a, ir.Decimal(18, 6), false, e.Pos)
		} else {
			vals[i] = g.asInt32(a, e.Pos)
		}
	}
	return g.sqlfnCall(t, e.Pos, checked, "MakeDTInterval", vals...)
}
