package passes

// generatorFunctions are Spark's generators (famGenerator): functions that
// make rows, which stand as a whole SELECT item or in LATERAL VIEW, where
// the frontends make them an ir.Generate (typed by generate.go). A call of
// one anywhere else is refused (nestedCall). The _outer variants keep a
// row, its generated columns NULL, where the generator makes none.
var generatorFunctions = []funcSig{
	{name: "explode", aliases: []string{"explode_outer"}, minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resNested, resultDoc: "rows: col (array element), or key, value (map entry)", family: famGenerator,
		doc: "a row per element of an array or entry of a map (none for NULL or empty; explode_outer: one row of NULLs)"},
	{name: "posexplode", aliases: []string{"posexplode_outer"}, minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resNested, resultDoc: "rows: pos INT, then explode's columns", family: famGenerator,
		doc: "explode with each element's 0-based position"},
	{name: "inline", aliases: []string{"inline_outer"}, minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resNested, resultDoc: "rows: the struct's fields", family: famGenerator,
		doc: "a row per struct of an array of structs, a column per field"},
	{name: "stack", minArgs: 2, maxArgs: -1, args: []argRule{argInteger, argAny}, result: resNested, resultDoc: "rows: col0, col1, ... (each its values' common type)", family: famGenerator,
		doc: "stack(n, v...): the values in n rows of ceil(len(v)/n) columns, row by row (missing ones NULL)"},
	{name: "json_tuple", minArgs: 2, maxArgs: -1, args: []argRule{argString}, result: resNested, resultDoc: "a row: c0, c1, ... STRING", family: famGenerator,
		doc: "one row of the named top-level fields of a JSON object, as text (NULL when missing or the text is no object)"},
}
