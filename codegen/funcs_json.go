package codegen

import (
	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
)

// jsonfnPkg is the runtime of the JSON functions.
const jsonfnPkg = "github.com/nordisk/thund/rt/jsonfn"

// jsonFns are the rt/jsonfn functions of the JSON functions
// (passes/funcs_json.go), by catalogue name: each takes the strings and
// answers (value, valid).
var jsonFns = map[string]string{
	"get_json_object": "GetJSONObject", "json_array_length": "JSONArrayLength", "json_object_keys": "JSONObjectKeys",
}

// genJSONCall generates the JSON functions (passes/funcs_json.go); nil for
// a call it does not generate.
func (g *flowGen) genJSONCall(name string, e *ir.Call, args []*value, t ir.Type) *value {
	if name == "schema_of_json" { // of a literal (passes/funcs_json.go): an error when malformed
		return g.jsonfnCall(t, e.Pos, checked, "SchemaOfJSON", args)
	}
	fn, ok := jsonFns[name]
	if !ok {
		return nil
	}
	return g.jsonfnCall(t, e.Pos, maybe, fn, args)
}

// jsonfnCall calls rt/jsonfn's fn on args: NULL when any is, and fn's
// error (by mode) raised at pos.
func (g *flowGen) jsonfnCall(t ir.Type, pos ir.Pos, mode callMode, fn string, args []*value) *value {
	return g.strict(t, pos, mode, false, args, func() jen.Code {
		cs := make([]jen.Code, len(args))
		for i, a := range args {
			cs[i] = V(a)
		}
		return jen.Qual(jsonfnPkg, fn).Call(cs...)
	})
}
