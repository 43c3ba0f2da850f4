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
	{name: "from_json", minArgs: 2, maxArgs: 3, args: []argRule{argString, argString, argAny}, result: resCustom, typeFn: fromJSONType, resultDoc: "the schema's type, every part nullable",
		nulls: nullAlways, native: fromJSONNative, nativeNested: true, family: famJSON,
		doc: "JSON text read as the schema, a DDL string literal ('a INT, b ARRAY<STRING>' or a type), with options map('mode', 'FAILFAST', ...): names match exactly; NULL for an empty text. " +
			"A value that is not JSON, not an object, or has a field that does not convert is malformed, and counted in the run: mode PERMISSIVE (default) keeps it (NULL where it does not convert, a struct of NULLs when it is not an object, the text in the schema's columnNameOfCorruptRecord field, _corrupt_record by default), FAILFAST fails the run. " +
			"Natively (Lakeflow's options, refused for Spark targets): rescuedDataColumn (a STRING field of the schema) receives what does not convert and keys not in the schema; schemaEvolutionMode (none, rescue, failOnNewColumns, addNewColumns) says what a key not in the schema does (docs/dsl.md, Bad JSON values)"},
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
	return t, r.fromJSONOptions(e, t)
}

// JSONOptions are a from_json call's options as the native backend reads
// them (after resolve has checked them): Mode (PERMISSIVE or FAILFAST,
// upper-cased), the corrupt-record field (_corrupt_record unless named),
// the rescued-data field ("" for none; _rescued_data under
// schemaEvolutionMode rescue) and the evolution mode (none by default), as
// schemaEvolutionModes spells it. Other lists the keys it does not read.
type JSONOptions struct {
	Mode, Corrupt, Rescued, Evolution string
	Other                             []ir.KV
}

// jsonOption is one key and value of from_json's options map.
type jsonOption struct {
	key, value string
	pos        ir.Pos
}

// fromJSONOptionList is the options map of a from_json call (nil for
// none); ok is false when it is not map() of string literals (Spark:
// INVALID_OPTIONS.NON_MAP_FUNCTION or NON_STRING_TYPE), with the position
// of what is wrong.
func fromJSONOptionList(e *ir.Call) ([]jsonOption, ir.Pos, bool) {
	if len(e.Args) < 3 {
		return nil, ir.Pos{}, true
	}
	m, ok := e.Args[2].(*ir.Call)
	if !ok || m.Name != "map" || len(m.Args)%2 != 0 {
		return nil, e.Args[2].Position(), false
	}
	var out []jsonOption
	for i := 0; i < len(m.Args); i += 2 {
		k, kok := m.Args[i].(*ir.Literal)
		v, vok := m.Args[i+1].(*ir.Literal)
		if !kok || k.Kind != ir.LitString {
			return nil, m.Args[i].Position(), false
		}
		if !vok || v.Kind != ir.LitString {
			return nil, m.Args[i+1].Position(), false
		}
		out = append(out, jsonOption{key: k.Text, value: v.Text, pos: k.Pos})
	}
	return out, ir.Pos{}, true
}

// FromJSONOptions reads a from_json call's options (resolve has checked
// them).
func FromJSONOptions(e *ir.Call) JSONOptions {
	o := JSONOptions{Mode: "PERMISSIVE", Corrupt: defaultCorruptColumn, Evolution: "none"}
	opts, _, _ := fromJSONOptionList(e)
	for _, kv := range opts {
		switch strings.ToLower(kv.key) {
		case "mode":
			o.Mode = strings.ToUpper(kv.value)
		case "columnnameofcorruptrecord":
			o.Corrupt = kv.value
		case "rescueddatacolumn":
			o.Rescued = kv.value
		case "schemaevolutionmode":
			for _, m := range schemaEvolutionModes {
				if strings.EqualFold(m, kv.value) {
					o.Evolution = m
				}
			}
		default:
			o.Other = append(o.Other, ir.KV{Key: kv.key, Value: kv.value, Pos: kv.pos})
		}
	}
	if o.Evolution == "rescue" && o.Rescued == "" {
		o.Rescued = defaultRescuedColumn
	}
	return o
}

// fromJSONOptions checks from_json's options map against schema t, as
// every target reads them: map() of string literals; mode PERMISSIVE or
// FAILFAST (Spark: PARSE_MODE_UNSUPPORTED for DROPMALFORMED); a corrupt-
// record field and a rescued field the schema declares as STRING (Spark:
// INVALID_CORRUPT_RECORD_TYPE), not the same one; a known
// schemaEvolutionMode. schemaLocationKey (Lakeflow's schema inference) is
// refused. Other keys are the capability pass's (the native backend reads
// none, Spark's from_json takes its JSON options).
func (r *resolver) fromJSONOptions(e *ir.Call, t ir.Type) bool {
	opts, bad, ok := fromJSONOptionList(e)
	if !ok {
		r.errorf(bad, ir.CodeTypeMismatch, "from_json's options must be map() of string literals, as map('mode', 'FAILFAST') (Spark: INVALID_OPTIONS)")
		return false
	}
	okAll := true
	field := func(name string) (ir.Type, bool) {
		if t.Kind != ir.TStruct {
			return ir.Type{}, false
		}
		for _, f := range t.Fields() {
			if f.Name == name {
				return f.Type, true
			}
		}
		return ir.Type{}, false
	}
	for _, kv := range opts {
		switch strings.ToLower(kv.key) {
		case "mode":
			switch {
			case strings.EqualFold(kv.value, "DROPMALFORMED"):
				r.errorf(kv.pos, ir.CodeTypeMismatch, "from_json does not take mode DROPMALFORMED (Spark: PARSE_MODE_UNSUPPORTED): want PERMISSIVE or FAILFAST; to drop malformed values, declare a _corrupt_record STRING field and keep the rows where it is null")
				okAll = false
			case !strings.EqualFold(kv.value, "PERMISSIVE") && !strings.EqualFold(kv.value, "FAILFAST"):
				r.errorf(kv.pos, ir.CodeTypeMismatch, "from_json option mode: want PERMISSIVE or FAILFAST, got %q", kv.value)
				okAll = false
			}
		case "columnnameofcorruptrecord", "rescueddatacolumn":
			if kv.value == "" {
				r.errorf(kv.pos, ir.CodeTypeMismatch, "from_json option %s: want a field name, got \"\"", kv.key)
				okAll = false
			}
		case "schemaevolutionmode":
			if !containsFold(schemaEvolutionModes, kv.value) {
				r.errorf(kv.pos, ir.CodeTypeMismatch, "from_json option schemaEvolutionMode: want %s, got %q", strings.Join(schemaEvolutionModes, ", "), kv.value)
				okAll = false
			}
		case "schemalocationkey":
			r.errorf(kv.pos, ir.CodeTypeMismatch, "from_json option schemaLocationKey (Lakeflow's schema inference) is not supported: Þund compiles the schema into the program; give it as from_json's second argument, and schemaEvolutionMode addNewColumns names the keys to add")
			okAll = false
		}
	}
	if !okAll {
		return false
	}
	o := FromJSONOptions(e)
	pos := e.Args[1].Position()
	if len(e.Args) == 3 {
		pos = e.Args[2].Position()
	}
	if ft, ok := field(o.Corrupt); ok && ft.Kind != ir.TString {
		r.errorf(pos, ir.CodeTypeMismatch, "from_json's corrupt-record field %s holds the malformed text: want STRING, got %s (Spark: INVALID_CORRUPT_RECORD_TYPE)", o.Corrupt, ft)
		return false
	}
	if o.Rescued != "" {
		ft, ok := field(o.Rescued)
		switch {
		case o.Rescued == o.Corrupt:
			r.errorf(pos, ir.CodeTypeMismatch, "from_json's field %s cannot be both the rescued-data field and the corrupt-record field", o.Rescued)
			return false
		case t.Kind != ir.TStruct:
		case !ok:
			r.errorf(pos, ir.CodeTypeMismatch, "from_json's rescued-data field %s: the schema does not declare it (add `%s STRING` to the schema)", o.Rescued, o.Rescued)
			return false
		case ft.Kind != ir.TString:
			r.errorf(pos, ir.CodeTypeMismatch, "from_json's rescued-data field %s holds rescued data: want STRING, got %s", o.Rescued, ft)
			return false
		}
	}
	return true
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
	if o := FromJSONOptions(e); why == "" && len(o.Other) > 0 {
		kv := o.Other[0]
		return kv.Pos, fmt.Sprintf("from_json option %q is not read natively (it reads mode, columnNameOfCorruptRecord, rescuedDataColumn and schemaEvolutionMode): remove it, or target spark-4.1 or spark-4.2", kv.Key)
	}
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
