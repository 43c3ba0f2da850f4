package passes

import (
	"testing"
)

// jsonSource is a table of each type the JSON functions' errors name.
const jsonSource = `source u from parquet "u.parquet" { s string, i32 int32, ts timestamp(us, "UTC"), st struct<a: int32>, at array<timestamp(us, "UTC")> }
`

// TestJSONFamilyErrors: arguments Spark refuses are positioned type errors
// at resolve (a number is not cast to a string: Spark's
// DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE; schema_of_json of a column is
// NON_FOLDABLE_INPUT; from_json's options must be map() of literals, and
// DROPMALFORMED is PARSE_MODE_UNSUPPORTED); to_json of a timestamp, and a
// from_json option native does not read, are refused by the native plan
// only.
func TestJSONFamilyErrors(t *testing.T) {
	checkSelectDiags(t, jsonSource, []selectDiag{
		{"get_json_object(i32, '$')", "p.thund:3:55: get_json_object needs a string as argument 1, got int32 [type-mismatch]"},
		{"json_array_length(st)", "p.thund:3:57: json_array_length needs a string argument, got struct<a: int32> [type-mismatch]"},
		{"schema_of_json(s)", "p.thund:3:54: schema_of_json takes a string literal, got s (Spark: DATATYPE_MISMATCH.NON_FOLDABLE_INPUT) [type-mismatch]"},
		{"to_json(s)", "p.thund:3:47: to_json takes a struct, an array or a map, got string (s) [type-mismatch]"},
		{"to_json(named_struct('t', ts))", "p.thund:3:47: native backend: to_json of a value holding a timestamp(us, \"UTC\") is not supported yet: format it as a string first (date_format), or target spark-4.1 or spark-4.2 [capability]"},
		{"to_json(at)", "p.thund:3:47: native backend: to_json of a value holding a timestamp(us, \"UTC\") is not supported yet: format it as a string first (date_format), or target spark-4.1 or spark-4.2 [capability]"},
		{"from_json(s, s)", "p.thund:3:52: from_json's schema must be a string literal in DDL ('a INT, b STRING'), got s (Spark: INVALID_SCHEMA.NON_STRING_LITERAL) [type-mismatch]"},
		{"from_json(s, 'a')", "p.thund:3:52: from_json's schema \"a\": expected NAME TYPE, got \"a\" [type-mismatch]"},
		{"from_json(s, 'a TIMESTAMP')", "p.thund:3:52: from_json's schema \"a TIMESTAMP\": a field of type timestamp(us) is not supported yet [type-mismatch]"},
		{"from_json(s, 'd DATE')", "p.thund:3:52: native backend: from_json with a date32 is not supported yet: read it as a string and cast it, or target spark-4.1 or spark-4.2 [capability]"},
		{"from_json(s, 'a INT', map('mode', 'DROPMALFORMED'))", "p.thund:3:65: from_json does not take mode DROPMALFORMED (Spark: PARSE_MODE_UNSUPPORTED): want PERMISSIVE or FAILFAST; to drop malformed values, declare a _corrupt_record STRING field and keep the rows where it is null [type-mismatch]"},
		{"from_json(s, 'a INT', map('MODE', s))", "p.thund:3:73: from_json's options must be map() of string literals, as map('mode', 'FAILFAST') (Spark: INVALID_OPTIONS) [type-mismatch]"},
		{"from_json(s, 'a INT, r INT', map('rescuedDataColumn', 'r'))", "p.thund:3:68: from_json's rescued-data field r holds rescued data: want STRING, got int32 [type-mismatch]"},
		{"from_json(s, 'a INT', map('allowComments', 'true'))", "p.thund:3:65: native backend: from_json option \"allowComments\" is not read natively (it reads mode, columnNameOfCorruptRecord, rescuedDataColumn and schemaEvolutionMode): remove it, or target spark-4.1 or spark-4.2 [capability]"},
		{"from_json(s, 'ARRAY<INT>')", "p.thund:3:52: native backend: from_json with the schema array<int32> (not a STRUCT) is not supported yet: read it as a string and cast it, or target spark-4.1 or spark-4.2 [capability]"},
	})
}
