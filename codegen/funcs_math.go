package codegen

import "github.com/nordisk/thund/ir"

// genMathCall generates the math functions (passes/funcs_math.go); nil for a call it does not generate.
func (g *flowGen) genMathCall(name string, e *ir.Call, args []*value, t ir.Type) *value {
	return nil
}
