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
