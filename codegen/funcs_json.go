package codegen

import (
	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
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
	if name == "to_json" { // of a nested value (passes/funcs_json.go refuses what jsonfn does not write)
		x := args[0]
		jt := g.jsonTypeVar(e, x.t)
		return g.strict(t, e.Pos, pure, false, args, func() jen.Code {
			return jen.Qual(jsonfnPkg, "ToJSON").Call(V(x), jen.Id(jt))
		})
	}
	if name == "schema_of_json" { // of a literal (passes/funcs_json.go): an error when malformed
		return g.jsonfnCall(t, e.Pos, checked, "SchemaOfJSON", args)
	}
	fn, ok := jsonFns[name]
	if !ok {
		return nil
	}
	return g.jsonfnCall(t, e.Pos, maybe, fn, args)
}

// evolutionNames are rt/jsonfn's Evolution constants by
// schemaEvolutionMode (passes.JSONOptions).
var evolutionNames = map[string]string{
	"none": "EvolveNone", "addNewColumns": "EvolveAddNewColumns", "rescue": "EvolveRescue", "failOnNewColumns": "EvolveFailOnNewColumns",
}

// genLazyJSONCall generates from_json of a literal STRUCT schema
// (passes/funcs_json.go), which evaluates only its text: its options map
// is read here, once. The flow's prelude builds the call's
// rt/jsonfn.Parser and registers it with the flow, which reports what it
// counts (malformed values, rescued values, new keys) under "from_json at
// FILE:LINE:COL"; a FAILFAST value, or a new key under addNewColumns or
// failOnNewColumns, fails the flow at the call.
func (g *flowGen) genLazyJSONCall(name string, e *ir.Call, en *env, t ir.Type) *value {
	if name != "from_json" {
		return nil
	}
	x := g.genExpr(e.Args[0], en)
	if x.null || t.Kind == ir.TUnknown {
		return nullValue(t)
	}
	o := passes.FromJSONOptions(e)
	index := func(n string) int {
		for i, f := range t.Fields() {
			if n != "" && f.Name == n {
				return i
			}
		}
		return -1
	}
	jt := g.jsonTypeVar(e, t)
	jp := g.name("jp")
	g.prelude = append(g.prelude,
		jen.Id(jp).Op(":=").Qual(jsonfnPkg, "NewParser").Call(jen.Id(jt), jen.Lit("from_json at "+posText(e.Pos)), jen.Qual(jsonfnPkg, "Options").Values(jen.Dict{
			jen.Id("FailFast"):  jen.Lit(o.Mode == "FAILFAST"),
			jen.Id("Corrupt"):   jen.Lit(index(o.Corrupt)),
			jen.Id("Rescued"):   jen.Lit(index(o.Rescued)),
			jen.Id("Evolution"): jen.Qual(jsonfnPkg, evolutionNames[o.Evolution]),
		})),
		jen.Id("fc").Dot("CountParses").Call(jen.Id(jp)))
	return g.strict(t, e.Pos, checkedMaybe, false, []*value{x}, func() jen.Code {
		return jen.Id(jp).Dot("Parse").Call(V(x))
	})
}

// jsonTypeVar declares, once when the flow starts, the rt/jsonfn.Type of
// t that a to_json or from_json call reads, and returns its name: the
// type is built once, not for every row.
func (g *flowGen) jsonTypeVar(e *ir.Call, t ir.Type) string {
	v := g.name("jt")
	g.prelude = append(g.prelude,
		jen.Commentf("%s %s: its JSON type", posText(e.Pos), e.Name),
		jen.Id(v).Op(":=").Add(jsonType(t)))
	return v
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

// jsonKinds are rt/jsonfn's TypeKind of each scalar type to_json writes.
var jsonKinds = map[ir.TypeKind]string{
	ir.TBool: "Bool", ir.TFloat32: "Float32", ir.TFloat64: "Float64", ir.TDecimal: "Decimal",
	ir.TString: "String", ir.TBinary: "Binary", ir.TDate32: "Date",
	ir.TArray: "Array", ir.TMap: "Map", ir.TStruct: "Struct",
}

// jsonType builds the rt/jsonfn.Type that describes t to to_json.
func jsonType(t ir.Type) jen.Code {
	kind, ok := jsonKinds[t.Kind]
	if !ok {
		kind = "Int" // the integers (the plan admits nothing else)
	}
	d := jen.Dict{jen.Id("Kind"): jen.Qual(jsonfnPkg, kind)}
	switch t.Kind {
	case ir.TDecimal:
		d[jen.Id("Scale")] = jen.Lit(int32(t.Scale))
	case ir.TInt8, ir.TInt16, ir.TInt32, ir.TInt64:
		d[jen.Id("Bits")] = jen.Lit(bitsOf(t))
	case ir.TArray:
		d[jen.Id("Elem")] = jsonType(t.Elem())
	case ir.TMap:
		d[jen.Id("Key")], d[jen.Id("Elem")] = jsonType(t.Key()), jsonType(t.Elem())
	case ir.TStruct:
		fs := make([]jen.Code, len(t.Fields()))
		for i, f := range t.Fields() {
			fs[i] = jen.Values(jen.Dict{jen.Id("Name"): jen.Lit(f.Name), jen.Id("Type"): jsonType(f.Type)}) // keyed: vet-clean
		}
		d[jen.Id("Fields")] = jen.Index().Qual(jsonfnPkg, "Field").Values(fs...)
	}
	return jen.Op("&").Qual(jsonfnPkg, "Type").Values(d)
}
