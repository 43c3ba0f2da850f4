package codegen

import "github.com/nordisk/thund/ir"

// genStringCall generates the string functions (passes/funcs_strings.go); nil for a call it does not generate.
func (g *flowGen) genStringCall(name string, e *ir.Call, args []*value, t ir.Type) *value {
	return nil
}
