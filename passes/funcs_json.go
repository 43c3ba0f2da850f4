package passes

import "github.com/nordisk/thund/ir"

// jsonFunctions are Spark's JSON functions over JSON text (famJSON), whose
// answers the Spark lane checks (testdata/spark/json). Each reads only the
// first JSON value of its text, as Spark's Jackson parser does (single
// quotes allowed, what follows the value ignored), and answers NULL for
// malformed text. The runtime is rt/jsonfn.
var jsonFunctions = []funcSig{
	{name: "get_json_object", minArgs: 2, maxArgs: 2, args: []argRule{argString}, ret: ir.StringT, result: resFixed, nulls: nullAlways, family: famJSON,
		doc: "the value a JSON path ($, .name, ['name'], [n], [*]) selects: a string unquoted, anything else as compact JSON (numbers as Jackson rewrites them); NULL when nothing matches, for a JSON null, or for malformed JSON"},
	{name: "json_array_length", minArgs: 1, maxArgs: 1, args: []argRule{argString}, ret: ir.Int32, result: resFixed, nulls: nullAlways, family: famJSON,
		doc: "the number of elements of the outermost JSON array; NULL for anything else or malformed JSON"},
	{name: "json_object_keys", minArgs: 1, maxArgs: 1, args: []argRule{argString}, ret: ir.ArrayOf(ir.StringT, true), result: resFixed, nulls: nullAlways, family: famJSON,
		doc: "the keys of the outermost JSON object, in order (a repeated key each time); NULL for anything else or malformed JSON"},
	{name: "schema_of_json", minArgs: 1, maxArgs: 1, args: []argRule{argString}, result: resCustom, typeFn: schemaOfJSONType, resultDoc: "STRING", nulls: nullNever, family: famJSON,
		doc: "the DDL type Spark infers for a JSON string literal (integers BIGINT, DECIMAL(p,0) beyond, other numbers DOUBLE, objects STRUCT with their fields sorted); malformed JSON is an error"},
	{name: "to_json", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resCustom, typeFn: toJSONType, resultDoc: "STRING", native: toJSONNative, family: famJSON,
		doc: "a struct, array or map as JSON text: a struct's NULL fields left out, doubles as Java prints them, decimals as BigDecimal.toString, dates as yyyy-MM-dd, binaries in base64 (no options argument yet)"},
}

// toJSONType: to_json writes a struct, an array or a map (Spark:
// DATATYPE_MISMATCH.INVALID_JSON_SCHEMA for anything else).
func toJSONType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	if t := types[0]; !isUnknown(t) && !t.IsNested() {
		r.errorf(e.Args[0].Position(), ir.CodeTypeMismatch, "to_json takes a struct, an array or a map, got %s (%s)", t, exprString(e.Args[0]))
		return ir.Type{}, false
	}
	return ir.StringT, true
}

// toJSONNative refuses to_json of a value holding what rt/jsonfn does not
// write yet: timestamps (Spark writes them in the session zone with its
// JSON timestampFormat), intervals, and maps keyed by nested values.
func toJSONNative(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	var why string
	var walk func(t ir.Type)
	walk = func(t ir.Type) {
		switch t.Kind {
		case ir.TTimestamp, ir.TDuration:
			why = "a " + t.String()
		case ir.TArray:
			walk(t.Elem())
		case ir.TMap:
			if t.Key().IsNested() {
				why = "a map keyed by " + t.Key().String()
			}
			walk(t.Key())
			walk(t.Elem())
		case ir.TStruct:
			for _, f := range t.Fields() {
				walk(f.Type)
			}
		}
	}
	walk(args[0])
	if why == "" {
		return ir.Pos{}, ""
	}
	return e.Args[0].Position(), "to_json of a value holding " + why + " is not supported yet: format it as a string first (date_format), or target spark-4.1 or spark-4.2"
}

// schemaOfJSONType: schema_of_json takes a string literal only (Spark:
// DATATYPE_MISMATCH.NON_FOLDABLE_INPUT for anything not constant).
func schemaOfJSONType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	if l, ok := e.Args[0].(*ir.Literal); !ok || l.Kind != ir.LitString {
		r.errorf(e.Args[0].Position(), ir.CodeTypeMismatch, "schema_of_json takes a string literal, got %s (Spark: DATATYPE_MISMATCH.NON_FOLDABLE_INPUT)", exprString(e.Args[0]))
		return ir.Type{}, false
	}
	return ir.StringT, true
}

// jsonNestedResults are the JSON functions whose result or argument is
// nested (an ARRAY, MAP or STRUCT) and that the native backend computes
// (plan_nested.go admits them; toJSONNative refuses what it does not).
var jsonNestedResults = map[string]bool{"json_object_keys": true, "to_json": true}
