package codegen

import "github.com/nordisk/thund/ir"

// genCondCall generates the conditional functions (passes/funcs_cond.go) that take evaluated arguments; nil for a call it does not generate.
func (g *flowGen) genCondCall(name string, e *ir.Call, args []*value, t ir.Type) *value {
	return nil
}

// genLazyCondCall generates the conditional functions that evaluate their
// own arguments (passes/funcs_cond.go); nil for a call it does not generate.
func (g *flowGen) genLazyCondCall(name string, e *ir.Call, en *env, t ir.Type) *value {
	return nil
}
