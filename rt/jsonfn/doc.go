// Package jsonfn is the runtime of Spark's JSON functions:
// get_json_object (Spark's JSON path subset), json_array_length,
// json_object_keys, schema_of_json (Spark's schema inference), to_json
// (of nested values, as rt/nested holds them) and from_json, whose Parser
// (parse.go) takes its options (mode, columnNameOfCorruptRecord, and
// Lakeflow's rescuedDataColumn and schemaEvolutionMode) and counts the
// malformed values, rescued values and new keys it meets for the flow's
// run summary.
//
// Spark reads JSON with Jackson, configured to accept single-quoted strings
// and names and unescaped control characters in strings; it reads only the
// first JSON value of the text (what follows it is ignored, except that a
// number or a keyword at the top level must end at a space or the end), and
// malformed input within that value gives NULL. A value copied to the output
// is rewritten as Jackson writes it: no spaces, numbers with a fraction or
// exponent as Java's Double.toString ("1.5", "100.0", "1.0E7"; out of range
// is the string "Infinity"), integers in their canonical digits, and
// strings escaping only '"', '\\' and control characters.
//
// It must not import anything of the compiler.
package jsonfn
