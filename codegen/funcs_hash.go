package codegen

import "github.com/nordisk/thund/ir"

// genHashCall generates hashing and encoding (passes/funcs_hash.go); nil for a call it does not generate.
func (g *flowGen) genHashCall(name string, e *ir.Call, args []*value, t ir.Type) *value {
	return nil
}
