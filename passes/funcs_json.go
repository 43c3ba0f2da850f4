package passes

import (
	"fmt"
	"strings"

	"github.com/nordisk/thund/ir"
)

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
	{name: "json_object_keys", minArgs: 1, maxArgs: 1, args: []argRule{argString}, ret: ir.ArrayOf(ir.StringT, true), result: resFixed, nulls: nullAlways, nativeNested: true, family: famJSON,
		doc: "the keys of the outermost JSON object, in order (a repeated key each time); NULL for anything else or malformed JSON"},
	{name: "schema_of_json", minArgs: 1, maxArgs: 1, args: []argRule{argString}, result: resCustom, typeFn: schemaOfJSONType, resultDoc: "STRING", nulls: nullNever, family: famJSON,
		doc: "the DDL type Spark infers for a JSON string literal (integers BIGINT, DECIMAL(p,0) beyond, other numbers DOUBLE, objects STRUCT with their fields sorted); malformed JSON is an error"},
	{name: "to_json", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resCustom, typeFn: toJSONType, resultDoc: "STRING", native: toJSONNative, nativeNested: true, family: famJSON,
		doc: "a struct, array or map as JSON text: a struct's NULL fields left out, doubles as Java prints them, decimals as BigDecimal.toString, dates as yyyy-MM-dd, binaries in base64 (no options argument yet)"},
	{name: "from_json", minArgs: 2, maxArgs: 2, args: []argRule{argString}, result: resCustom, typeFn: fromJSONType, resultDoc: "the schema's type, every part nullable",
		nulls: nullAlways, native: fromJSONNative, nativeNested: true, family: famJSON,
		doc: "JSON text read as the schema, a DDL string literal ('a INT, b ARRAY<STRING>' or a type): PERMISSIVE, so malformed JSON is a struct of NULLs and a field that does not convert is NULL; names match exactly; NULL for an empty text (no options argument yet)"},
}

// fromJSONType: from_json's schema is a string literal in DDL (Spark:
// INVALID_SCHEMA for anything else); the result is its type with every part
// nullable, as Spark makes it.
func fromJSONType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	l, ok := e.Args[1].(*ir.Literal)
	if !ok || l.Kind != ir.LitString {
		r.errorf(e.Args[1].Position(), ir.CodeTypeMismatch, "from_json's schema must be a string literal in DDL ('a INT, b STRING'), got %s (Spark: INVALID_SCHEMA.NON_STRING_LITERAL)", exprString(e.Args[1]))
		return ir.Type{}, false
	}
	t, err := parseDDLSchema(l.Text)
	if err != nil {
		r.errorf(l.Pos, ir.CodeTypeMismatch, "from_json's schema %q: %v", l.Text, err)
		return ir.Type{}, false
	}
	return t, true
}

// parseDDLSchema parses a schema in Spark's DDL: a type (STRUCT<a: INT>,
// ARRAY<INT>, MAP<STRING, INT>), or a list of fields "name TYPE, ..." (a
// STRUCT); every part of the type is nullable. TIMESTAMP is not taken yet.
func parseDDLSchema(s string) (ir.Type, error) {
	t, err := ir.ParseType(s)
	if err != nil || !t.IsNested() {
		var fields []ir.StructField
		for _, part := range splitTopLevel(s) {
			part = strings.TrimSpace(part)
			name, rest := part, ""
			if strings.HasPrefix(part, "`") {
				end := strings.Index(part[1:], "`")
				if end < 0 {
					return ir.Type{}, fmt.Errorf("unterminated field name %s", part)
				}
				name, rest = part[1:1+end], part[2+end:]
			} else if i := strings.IndexAny(part, " \t"); i > 0 {
				name, rest = part[:i], part[i:]
			}
			ft, ferr := ir.ParseType(strings.TrimPrefix(strings.TrimSpace(rest), ":"))
			if ferr != nil || name == "" {
				return ir.Type{}, fmt.Errorf("expected NAME TYPE, got %q", part)
			}
			fields = append(fields, ir.StructField{Name: name, Type: ft})
		}
		t = ir.StructOf(fields...)
	}
	var bad string
	t = asNullable(t, &bad)
	if bad != "" {
		return ir.Type{}, fmt.Errorf("a field of type %s is not supported yet", bad)
	}
	return t, nil
}

// splitTopLevel splits s at the commas outside <...> and (...).
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '<', '(':
			depth++
		case '>', ')':
			depth--
		case ',':
			if depth == 0 {
				out, start = append(out, s[start:i]), i+1
			}
		}
	}
	return append(out, s[start:])
}

// asNullable is t with every part nullable; bad names the first leaf type
// from_json does not take (timestamps, intervals, unsigned integers).
func asNullable(t ir.Type, bad *string) ir.Type {
	switch t.Kind {
	case ir.TArray:
		return ir.ArrayOf(asNullable(t.Elem(), bad), true)
	case ir.TMap:
		return ir.MapOf(asNullable(t.Key(), bad), asNullable(t.Elem(), bad), true)
	case ir.TStruct:
		fs := make([]ir.StructField, len(t.Fields()))
		for i, f := range t.Fields() {
			fs[i] = ir.StructField{Name: f.Name, Type: asNullable(f.Type, bad)}
		}
		return ir.StructOf(fs...)
	case ir.TTimestamp, ir.TDuration, ir.TUint8, ir.TUint16, ir.TUint32, ir.TUint64, ir.TUnknown:
		if *bad == "" {
			*bad = t.String()
		}
	}
	return t
}

// fromJSONNative refuses from_json whose schema rt/jsonfn does not read
// yet: a top level other than a STRUCT, decimals, dates and binaries, and
// maps keyed by anything but strings.
func fromJSONNative(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	t := u.Types[e]
	why := ""
	var walk func(t ir.Type)
	walk = func(t ir.Type) {
		switch t.Kind {
		case ir.TArray:
			walk(t.Elem())
		case ir.TMap:
			if t.Key().Kind != ir.TString {
				why = "a map keyed by " + t.Key().String()
			}
			walk(t.Elem())
		case ir.TStruct:
			for _, f := range t.Fields() {
				walk(f.Type)
			}
		case ir.TDecimal, ir.TDate32, ir.TBinary:
			why = "a " + t.String()
		}
	}
	if t.Kind != ir.TStruct {
		why = "the schema " + t.String() + " (not a STRUCT)"
	}
	walk(t)
	if why == "" {
		return ir.Pos{}, ""
	}
	return e.Args[1].Position(), "from_json with " + why + " is not supported yet: read it as a string and cast it, or target spark-4.1 or spark-4.2"
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
