package passes

// nestedFunctions are the functions that build and read ARRAY, MAP and
// STRUCT values (famNested). Their arity, arguments and types are checked
// by nestedCall (resolve_nested.go), which the result rule resNested
// names; the entries give them their place in the catalogue (suggestions,
// docs/functions.md) and the Spark lane's coverage (testdata/spark/nested).
var nestedFunctions = []funcSig{
	{name: "array", minArgs: 0, maxArgs: -1, args: []argRule{argAny}, result: resNested, resultDoc: "ARRAY of the arguments' common type", family: famNested,
		doc: "an array of the arguments"},
	{name: "map", minArgs: 0, maxArgs: -1, args: []argRule{argAny}, result: resNested, resultDoc: "MAP of the keys' and the values' common types", family: famNested,
		doc: "a map of key, value pairs (ANSI: a NULL key is NULL_MAP_KEY, a repeated one DUPLICATED_MAP_KEY)"},
	{name: "struct", minArgs: 1, maxArgs: -1, args: []argRule{argAny}, result: resNested, resultDoc: "STRUCT with a field per argument", family: famNested,
		doc: "a struct of the arguments, each field named as its column (col1, col2, ... otherwise)"},
	{name: "named_struct", minArgs: 2, maxArgs: -1, args: []argRule{argString, argAny}, result: resNested, resultDoc: "STRUCT of the named fields", family: famNested,
		doc: "a struct of name, value pairs (the names string literals)"},
	{name: "size", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resNested, resultDoc: "INT", family: famNested,
		doc: "the number of elements of an array or entries of a map"},
	{name: "element_at", minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resNested, resultDoc: "the element type", family: famNested,
		doc: "an array's element at a 1-based index (negative: from the end; ANSI: out of range is an error), or a map's value for a key (NULL when missing)"},
	{name: "array_contains", minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resNested, resultDoc: "BOOLEAN", family: famNested,
		doc: "whether the array has an element equal to the value (NULL when not, and an element is NULL)"},
	{name: "map_keys", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resNested, resultDoc: "ARRAY of the key type", family: famNested,
		doc: "a map's keys, in the map's order"},
	{name: "map_values", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resNested, resultDoc: "ARRAY of the value type", family: famNested,
		doc: "a map's values, in the map's order"},
	{name: "split", minArgs: 2, maxArgs: 3, args: []argRule{argString, argString, argInteger}, result: resNested, resultDoc: "ARRAY<STRING>", family: famNested,
		doc: "the string split around matches of a Java regular expression, at most limit parts (<= 0: all, trailing empty strings kept)"},
}

// isNestedFunc reports whether name is one of nestedFunctions (or an alias).
func isNestedFunc(name string) bool {
	f := lookupFunc(name)
	return f != nil && f.result == resNested
}
