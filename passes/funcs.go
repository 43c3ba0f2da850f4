package passes

import (
	"strconv"
	"strings"

	"github.com/nordisk/thund/ir"
)

// argRule is what a function accepts at one argument position.
type argRule uint8

const (
	argAny argRule = iota
	argNumeric
	argNumericOrDuration
	argInteger
	argString
	argStringOrBinary
	argBool
	argTime         // date or timestamp
	argTimeOrString // date, timestamp, or a string to parse
	argTimestamp    // a TIMESTAMP (with a zone), not a TIMESTAMP_NTZ
	argTruncUnit    // a string naming a date_trunc unit
	argInt32        // INT, SMALLINT or TINYINT (funcs_time.go: Spark's date_add takes no BIGINT)
	argDate         // a date (funcs_time.go: Spark's unix_date casts nothing to DATE)
	argLambda       // a lambda, x -> body (funcs_lambda.go: lambdaCall checks it)
)

// argRules describes each argRule: the words an error uses, and the test.
// NULL and an external table's column (TUnknown) pass every test.
var argRules = [...]struct {
	desc string
	ok   func(ir.Type) bool
}{
	argAny:               {"any", func(ir.Type) bool { return true }},
	argNumeric:           {"a numeric", func(t ir.Type) bool { return t.IsNumeric() }},
	argNumericOrDuration: {"a numeric", func(t ir.Type) bool { return t.IsNumeric() || t.Kind == ir.TDuration }},
	argInteger:           {"an integer", func(t ir.Type) bool { return t.IsInteger() }},
	argString:            {"a string", func(t ir.Type) bool { return t.Kind == ir.TString }},
	argStringOrBinary:    {"a string or binary", func(t ir.Type) bool { return t.Kind == ir.TString || t.Kind == ir.TBinary }},
	argBool:              {"a bool", func(t ir.Type) bool { return t.Kind == ir.TBool }},
	argTime:              {"a date or timestamp", isTime},
	argTimeOrString:      {"a date, timestamp or string", func(t ir.Type) bool { return isTime(t) || t.Kind == ir.TString }},
	// Spark's TIMESTAMP only: Spark's unix_seconds, unix_millis and
	// unix_micros refuse a TIMESTAMP_NTZ (DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE:
	// no implicit cast to their TIMESTAMP)
	argTimestamp: {"a zoned timestamp", func(t ir.Type) bool { return t.Kind == ir.TTimestamp && t.Zone != "" }},
	argTruncUnit: {"a string (the unit)", func(t ir.Type) bool { return t.Kind == ir.TString }},
	argDate:      {"a date", func(t ir.Type) bool { return t.Kind == ir.TDate32 }},
	argLambda:    {"a lambda", func(ir.Type) bool { return true }},
	argInt32: {"an INT, SMALLINT or TINYINT", func(t ir.Type) bool {
		return t.Kind == ir.TInt32 || t.Kind == ir.TInt16 || t.Kind == ir.TInt8
	}},
}

// resultRule computes a function's result type from its argument types.
type resultRule uint8

const (
	resFixed       resultRule = iota // funcSig.ret
	resArg0                          // the first argument's type
	resCommon                        // the common type of every argument
	resCommonTail                    // the common type of every argument but the first (if)
	resSum                           // Spark's Sum.resultType
	resAvg                           // Spark's Average.resultType
	resRound                         // Spark's RoundBase.dataType (scale: an integer constant)
	resFloorCeil                     // Spark's Ceil/Floor.dataType
	resMod                           // like the % operator
	resTrunc                         // date_trunc: Spark's TIMESTAMP, in the unit of argument 2 (zonedTimestamp)
	resToTimestamp                   // Spark's TIMESTAMP, in the unit of a timestamp argument (zonedTimestamp)
	resCustom                        // funcSig.typeFn
	resNested                        // typed by nestedCall (resolve_nested.go)
	resLambda                        // typed by lambdaCall (funcs_lambda.go)
)

// nullRule says when a call can be NULL.
type nullRule uint8

const (
	nullArgs    nullRule = iota // when any argument can be
	nullNever                   // never (count)
	nullAlways                  // always (nullif, parsing functions)
	nullAllArgs                 // only when every argument can be (coalesce, greatest, least)
	nullTail                    // when a result argument can be (if)
	nullAgg                     // when the argument can be, or in a global aggregate (empty input)
)

// funcSig is one entry of the function catalogue.
type funcSig struct {
	name    string
	aliases []string
	agg     bool
	window  bool // a window function: only with OVER (resolve_window.go)
	minArgs int
	maxArgs int       // -1: variadic
	args    []argRule // per position; the last one repeats
	ret     ir.Type   // for resFixed
	result  resultRule
	nulls   nullRule
	// notNative says why the native runtime does not run it ("": it does)
	notNative string
	// typeFn types a call for resCustom: it reports its own errors (at the
	// argument's position) and returns false after one.
	typeFn func(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool)
	// resultDoc describes typeFn's result for docs/functions.md.
	resultDoc string
	// native, when set, says why the native backend cannot compute this
	// call with these argument types ("" when it can), and where; the plan
	// pass refuses it there (nativeCall).
	native func(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string)
	// nativeNested: the native backend computes the call's nested result
	// or arguments itself, so the plan pass does not refuse it for them
	// (plan_nested.go).
	nativeNested bool
	// sparkSince is the first Spark target that has the function ("": every
	// one); sparkemit refuses it on an older target.
	sparkSince string

	family family // the heading docs/functions.md lists it under
	doc    string // one line for docs/functions.md: what it computes

	entry *Func // what later phases see of the entry
}

// family is a heading of docs/functions.md.
type family uint8

const (
	famAggregate family = iota
	famWindow
	famGrouping
	famMath
	famConditional
	famString
	famHash
	famTime
	famNested
	famGenerator
	famLambda // higher-order functions (funcs_lambda.go)
	famJSON   // funcs_json.go
)

// familyNames are the headings, in the order docs/functions.md gives them.
var familyNames = [...]string{
	famAggregate:   "Aggregate functions",
	famWindow:      "Window functions",
	famGrouping:    "Grouping sets",
	famMath:        "Math",
	famConditional: "Conditional and NULL handling",
	famString:      "Strings",
	famHash:        "Hashing and encoding",
	famTime:        "Date and time",
	famNested:      "Arrays, maps and structs",
	famGenerator:   "Generators (LATERAL VIEW)",
	famLambda:      "Higher-order functions (lambdas)",
	famJSON:        "JSON",
}

// Func is the catalogue entry a call resolved to (Unit.Calls): its
// canonical name, whatever alias the call was written with, and whether it
// is an aggregate.
type Func struct {
	Name string
	Agg  bool
	// Window is a window function (ranking, offset, nth_value), which only
	// an ir.Over calls; an aggregate may be an Over's function too.
	Window bool
	// SparkSince is the first Spark target that has it ("": every one).
	SparkSince string

	notNative string // why the native backend does not run it (the plan refuses it)
}

// functions is the one catalogue of functions the compiler types.
var functions = []funcSig{
	// aggregates
	{name: "count", agg: true, minArgs: 1, maxArgs: -1, args: []argRule{argAny}, ret: ir.Int64, result: resFixed, nulls: nullNever, family: famAggregate, doc: "the number of rows, or of rows whose arguments are all non-NULL"},
	{name: "sum", agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argNumericOrDuration}, result: resSum, nulls: nullAgg, family: famAggregate, doc: "the sum of the non-NULL values (ANSI: an integer overflow is an error)"},
	{name: "avg", aliases: []string{"mean"}, agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argNumericOrDuration}, result: resAvg, nulls: nullAgg, family: famAggregate, doc: "the mean of the non-NULL values"},
	{name: "min", agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resArg0, nulls: nullAgg, family: famAggregate, doc: "the smallest non-NULL value"},
	{name: "max", agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resArg0, nulls: nullAgg, family: famAggregate, doc: "the largest non-NULL value"},
	{name: "first", aliases: []string{"first_value"}, agg: true, minArgs: 1, maxArgs: 2, args: []argRule{argAny, argBool}, result: resArg0, nulls: nullAgg, family: famAggregate, doc: "the first value in the input's order (with true: the first non-NULL)"},
	{name: "last", aliases: []string{"last_value"}, agg: true, minArgs: 1, maxArgs: 2, args: []argRule{argAny, argBool}, result: resArg0, nulls: nullAgg, family: famAggregate, doc: "the last value in the input's order (with true: the last non-NULL)"},
	// grouping sets (setgroup): evaluated from the row's grouping set, in an
	// aggregate with grouping sets only (resolve's groupingCalls)
	{name: "grouping", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, ret: ir.Int8, result: resFixed, nulls: nullNever, family: famGrouping, doc: "1 when the argument's column is aggregated away in the row's grouping set, else 0"},
	{name: "grouping_id", minArgs: 0, maxArgs: -1, args: []argRule{argAny}, ret: ir.Int64, result: resFixed, nulls: nullNever, family: famGrouping, doc: "the bits of grouping() of each key, the first key highest"},
	{name: "any_value", agg: true, minArgs: 1, maxArgs: 2, args: []argRule{argAny, argBool}, result: resArg0, nulls: nullAgg, family: famGrouping, doc: "some value of the group (with true: some non-NULL value)"},

	// math
	{name: "abs", minArgs: 1, maxArgs: 1, args: []argRule{argNumericOrDuration}, result: resArg0, family: famMath, doc: "the absolute value (ANSI: the smallest integer is an overflow error)"},
	{name: "round", minArgs: 1, maxArgs: 2, args: []argRule{argNumeric, argInteger}, result: resRound, family: famMath, doc: "rounds half up to the given scale (default 0)"},
	{name: "floor", minArgs: 1, maxArgs: 2, args: []argRule{argNumeric, argInteger}, result: resFloorCeil, family: famMath, doc: "the largest integer (or value at the given scale) not above the argument"},
	{name: "ceil", aliases: []string{"ceiling"}, minArgs: 1, maxArgs: 2, args: []argRule{argNumeric, argInteger}, result: resFloorCeil, family: famMath, doc: "the smallest integer (or value at the given scale) not below the argument"},
	{name: "sqrt", minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, family: famMath, doc: "the square root, as a double (NaN below zero)"},
	{name: "power", aliases: []string{"pow"}, minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, family: famMath, doc: "x raised to y, as a double"},
	{name: "exp", minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, family: famMath, doc: "e raised to x"},
	{name: "ln", minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, family: famMath, doc: "the natural logarithm (NULL at or below zero)"},
	{name: "log10", minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, ret: ir.Float64, result: resFixed, family: famMath, doc: "the base-10 logarithm (NULL at or below zero)"},
	{name: "mod", minArgs: 2, maxArgs: 2, args: []argRule{argNumeric}, result: resMod, family: famMath, doc: "the remainder of x / y, with the sign of x (ANSI: division by zero is an error)"},
	{name: "greatest", minArgs: 2, maxArgs: -1, args: []argRule{argAny}, result: resCommon, nulls: nullAllArgs, family: famConditional, doc: "the largest non-NULL argument"},
	{name: "least", minArgs: 2, maxArgs: -1, args: []argRule{argAny}, result: resCommon, nulls: nullAllArgs, family: famConditional, doc: "the smallest non-NULL argument"},

	// conditional
	{name: "coalesce", minArgs: 1, maxArgs: -1, args: []argRule{argAny}, result: resCommon, nulls: nullAllArgs, family: famConditional, doc: "the first non-NULL argument"},
	{name: "nullif", minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resArg0, nulls: nullAlways, family: famConditional, doc: "NULL when a = b, else a"},
	{name: "if", minArgs: 3, maxArgs: 3, args: []argRule{argBool, argAny}, result: resCommonTail, nulls: nullTail, family: famConditional, doc: "b when the condition is true, else c"},

	// strings
	{name: "lower", aliases: []string{"lcase"}, minArgs: 1, maxArgs: 1, args: []argRule{argString}, ret: ir.StringT, result: resFixed, family: famString, doc: "lower-cases the string"},
	{name: "upper", aliases: []string{"ucase"}, minArgs: 1, maxArgs: 1, args: []argRule{argString}, ret: ir.StringT, result: resFixed, family: famString, doc: "upper-cases the string"},
	{name: "length", aliases: []string{"char_length", "character_length"}, minArgs: 1, maxArgs: 1, args: []argRule{argStringOrBinary}, ret: ir.Int32, result: resFixed, family: famString, doc: "the number of characters of a string, or bytes of a binary"},
	{name: "substring", aliases: []string{"substr"}, minArgs: 2, maxArgs: 3, args: []argRule{argString, argInteger}, ret: ir.StringT, result: resFixed, family: famString, doc: "the substring from a 1-based position (negative: from the end), of an optional length"},
	{name: "concat", minArgs: 1, maxArgs: -1, args: []argRule{argString}, ret: ir.StringT, result: resFixed, family: famString, doc: "the arguments joined (NULL when any is)"},
	{name: "trim", minArgs: 1, maxArgs: 2, args: []argRule{argString}, ret: ir.StringT, result: resFixed, family: famString, doc: "removes spaces (or the characters of the first argument) at both ends"},
	{name: "ltrim", minArgs: 1, maxArgs: 2, args: []argRule{argString}, ret: ir.StringT, result: resFixed, family: famString, doc: "removes spaces (or the given characters) at the start"},
	{name: "rtrim", minArgs: 1, maxArgs: 2, args: []argRule{argString}, ret: ir.StringT, result: resFixed, family: famString, doc: "removes spaces (or the given characters) at the end"},
	{name: "replace", minArgs: 2, maxArgs: 3, args: []argRule{argString}, ret: ir.StringT, result: resFixed, family: famString, doc: "replaces every occurrence of search by replacement (default: removes it)"},
	{name: "starts_with", aliases: []string{"startswith"}, minArgs: 2, maxArgs: 2, args: []argRule{argStringOrBinary}, ret: ir.Bool, result: resFixed, family: famString, doc: "whether the first argument starts with the second"},
	{name: "ends_with", aliases: []string{"endswith"}, minArgs: 2, maxArgs: 2, args: []argRule{argStringOrBinary}, ret: ir.Bool, result: resFixed, family: famString, doc: "whether the first argument ends with the second"},
	{name: "contains", minArgs: 2, maxArgs: 2, args: []argRule{argStringOrBinary}, ret: ir.Bool, result: resFixed, family: famString, doc: "whether the first argument contains the second"},

	// date and time
	{name: "date_trunc", minArgs: 2, maxArgs: 2, args: []argRule{argTruncUnit, argTime}, result: resTrunc, family: famTime, doc: "truncates a timestamp to the unit (year, quarter, month, week, day, hour, ...)"},
	{name: "to_date", minArgs: 1, maxArgs: 2, args: []argRule{argTimeOrString, argString}, ret: ir.Date32, result: resFixed, family: famTime, doc: "casts to DATE, or parses the text with a datetime pattern (ANSI: CANNOT_PARSE_TIMESTAMP)"},
	{name: "to_timestamp", minArgs: 1, maxArgs: 2, args: []argRule{argTimeOrString, argString}, result: resToTimestamp, family: famTime, doc: "casts to TIMESTAMP, or parses the text with a datetime pattern (ANSI: CANNOT_PARSE_TIMESTAMP)"},
	{name: "year", minArgs: 1, maxArgs: 1, args: []argRule{argTime}, ret: ir.Int32, result: resFixed, family: famTime, doc: "the year"},
	{name: "month", minArgs: 1, maxArgs: 1, args: []argRule{argTime}, ret: ir.Int32, result: resFixed, family: famTime, doc: "the month, 1 to 12"},
	{name: "day", aliases: []string{"dayofmonth"}, minArgs: 1, maxArgs: 1, args: []argRule{argTime}, ret: ir.Int32, result: resFixed, family: famTime, doc: "the day of the month"},
	{name: "hour", minArgs: 1, maxArgs: 1, args: []argRule{argTime}, ret: ir.Int32, result: resFixed, family: famTime, doc: "the hour, 0 to 23"},
	{name: "minute", minArgs: 1, maxArgs: 1, args: []argRule{argTime}, ret: ir.Int32, result: resFixed, family: famTime, doc: "the minute"},
	{name: "second", minArgs: 1, maxArgs: 1, args: []argRule{argTime}, ret: ir.Int32, result: resFixed, family: famTime, doc: "the second"},
	{name: "unix_timestamp", minArgs: 0, maxArgs: 2, args: []argRule{argTimeOrString, argString}, ret: ir.Int64, result: resFixed, family: famTime, doc: "the seconds since 1970-01-01 UTC of a timestamp, of a text in a datetime pattern (default yyyy-MM-dd HH:mm:ss), or of now"},
	{name: "timestamp_seconds", minArgs: 1, maxArgs: 1, args: []argRule{argNumeric}, ret: ir.Timestamp(ir.Micro, "UTC"), result: resFixed, family: famTime, doc: "the timestamp that many seconds after 1970-01-01 UTC"},
	{name: "timestamp_millis", minArgs: 1, maxArgs: 1, args: []argRule{argInteger}, ret: ir.Timestamp(ir.Micro, "UTC"), result: resFixed, family: famTime, doc: "the timestamp that many milliseconds after 1970-01-01 UTC"},
	{name: "timestamp_micros", minArgs: 1, maxArgs: 1, args: []argRule{argInteger}, ret: ir.Timestamp(ir.Micro, "UTC"), result: resFixed, family: famTime, doc: "the timestamp that many microseconds after 1970-01-01 UTC"},
}

// windowFunctions are the functions only an ir.Over calls (resolve_window.go),
// with Spark's types: INT for the ranks and ntile, DOUBLE for the
// distributions, the input's for the offset and value functions (NULL where
// no row is at the offset). They are not scalar functions: a table of their
// own (the conformance matrix reads functions as the scalar ones).
var windowFunctions = []funcSig{
	{name: "row_number", window: true, minArgs: 0, maxArgs: 0, args: []argRule{argAny}, ret: ir.Int32, result: resFixed, nulls: nullNever, family: famWindow, doc: "1, 2, 3, ... in the window's order"},
	{name: "rank", window: true, minArgs: 0, maxArgs: 0, args: []argRule{argAny}, ret: ir.Int32, result: resFixed, nulls: nullNever, family: famWindow, doc: "the rank, with gaps after ties"},
	{name: "dense_rank", window: true, minArgs: 0, maxArgs: 0, args: []argRule{argAny}, ret: ir.Int32, result: resFixed, nulls: nullNever, family: famWindow, doc: "the rank, without gaps"},
	{name: "percent_rank", window: true, minArgs: 0, maxArgs: 0, args: []argRule{argAny}, ret: ir.Float64, result: resFixed, nulls: nullNever, family: famWindow, doc: "(rank - 1) / (rows - 1)"},
	{name: "cume_dist", window: true, minArgs: 0, maxArgs: 0, args: []argRule{argAny}, ret: ir.Float64, result: resFixed, nulls: nullNever, family: famWindow, doc: "the fraction of rows up to and including the row's peers"},
	{name: "ntile", window: true, minArgs: 1, maxArgs: 1, args: []argRule{argInteger}, ret: ir.Int32, result: resFixed, nulls: nullNever, family: famWindow, doc: "the bucket number, 1 to n, of n nearly equal buckets"},
	{name: "lag", window: true, minArgs: 1, maxArgs: 3, args: []argRule{argAny, argInteger, argAny}, result: resArg0, nulls: nullAlways, family: famWindow, doc: "the value that many rows before (default 1), or the default"},
	{name: "lead", window: true, minArgs: 1, maxArgs: 3, args: []argRule{argAny, argInteger, argAny}, result: resArg0, nulls: nullAlways, family: famWindow, doc: "the value that many rows after (default 1), or the default"},
	{name: "nth_value", window: true, minArgs: 2, maxArgs: 2, args: []argRule{argAny, argInteger}, result: resArg0, nulls: nullAlways, family: famWindow, doc: "the n-th value of the frame"},
}

// sparkOnly are the functions the compiler types and the Spark targets run,
// but the native runtime does not: resolve refuses a call of one on the
// native target where it is written, saying why (notNative).
var sparkOnly = []funcSig{
	// the random functions: Spark draws them per partition (a generator
	// seeded with the seed plus the partition index), so the rows' values
	// depend on how Spark splits the input, which the native engine cannot
	// reproduce (funcs_math.go: randomReason, uniformType)
	{name: "rand", aliases: []string{"random"}, minArgs: 0, maxArgs: 1, args: []argRule{argInteger}, ret: ir.Float64, result: resFixed, nulls: nullNever, notNative: randomReason, family: famMath, doc: "a uniform random double in [0, 1), from an optional seed"},
	{name: "randn", minArgs: 0, maxArgs: 1, args: []argRule{argInteger}, ret: ir.Float64, result: resFixed, nulls: nullNever, notNative: randomReason, family: famMath, doc: "a standard normal random double, from an optional seed"},
	{name: "uniform", minArgs: 2, maxArgs: 3, args: []argRule{argNumeric, argNumeric, argInteger}, result: resCustom, typeFn: uniformType, resultDoc: "the common type of min and max", notNative: randomReason, family: famMath, doc: "a uniform random number between min and max, from an optional seed"},
	// uuid draws a random version-4 UUID per row: no engine gives
	// another's values (funcs_hll.go: uuidReason)
	{name: "uuid", minArgs: 0, maxArgs: 1, args: []argRule{argInteger}, ret: ir.StringT, result: resFixed, nulls: nullNever, notNative: uuidReason, family: famString, doc: "a random version-4 UUID as 36 lower-case characters, from an optional seed"},
	// shuffle: random too (funcs_arrays.go types it)
	{name: "shuffle", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resNested, resultDoc: "the array's type", family: famNested,
		notNative: "is random: Spark draws its permutation per partition, which the native engine cannot reproduce", doc: "a random permutation of the array"},
}

// catalogueTables are every table of the catalogue: the scalar functions
// the conformance corpus covers against DuckDB (functions, whose table the
// conformance module reads), the window functions, the Spark-only ones, and
// the families whose answers the Spark lane checks (funcs_*.go).
var catalogueTables = [][]funcSig{functions, windowFunctions, sparkOnly, stringFunctions, hashFunctions, timeFunctions, mathFunctions, condFunctions, aggFunctions, nestedFunctions, hllFunctions, arrayFunctions, collectFunctions, generatorFunctions, lambdaFunctions, jsonFunctions}

// funcIndex maps every name and alias to its catalogue entry.
var funcIndex = indexFunctions(catalogueTables)

func indexFunctions(tables [][]funcSig) map[string]*funcSig {
	m := map[string]*funcSig{}
	for _, list := range tables {
		for i := range list {
			f := &list[i]
			if m[f.name] != nil {
				panic("passes: function " + f.name + " is in the catalogue twice")
			}
			f.entry = &Func{Name: f.name, Agg: f.agg, Window: f.window, SparkSince: f.sparkSince, notNative: f.notNative}
			m[f.name] = f
			for _, a := range f.aliases {
				if m[a] != nil {
					panic("passes: function name " + a + " is in the catalogue twice")
				}
				m[a] = f
			}
		}
	}
	return m
}

// lookupFunc finds a function by name, case-insensitively.
func lookupFunc(name string) *funcSig { return funcIndex[strings.ToLower(name)] }

// funcNames lists every name and alias, for suggestions.
func funcNames() []string {
	var out []string
	for _, list := range catalogueTables {
		for _, f := range list {
			out = append(out, f.name)
			out = append(out, f.aliases...)
		}
	}
	return out
}

// argAt is the rule for argument i.
func (f *funcSig) argAt(i int) argRule {
	if i < len(f.args) {
		return f.args[i]
	}
	return f.args[len(f.args)-1]
}

// arityText renders the accepted argument counts: "1", "1 or 2", "2 to 3",
// "at least 2".
func (f *funcSig) arityText() string {
	n := strconv.Itoa
	switch {
	case f.maxArgs < 0:
		return "at least " + n(f.minArgs)
	case f.minArgs == f.maxArgs:
		return n(f.minArgs)
	case f.maxArgs == f.minArgs+1:
		return n(f.minArgs) + " or " + n(f.maxArgs)
	}
	return n(f.minArgs) + " to " + n(f.maxArgs)
}

// truncUnits are the units date_trunc accepts (Spark's TruncTimestamp).
var truncUnits = []string{
	"year", "yyyy", "yy", "quarter", "month", "mon", "mm", "week", "day", "dd",
	"hour", "minute", "second", "millisecond", "microsecond",
}

// sumType is Spark's Sum.resultType: integers sum to int64 (a uint64 to
// decimal(30,0)), decimal(p,s) to decimal(p+10,s), floats to float64.
func sumType(t ir.Type) ir.Type {
	switch {
	case t.Kind == ir.TUint64:
		return ir.Decimal(30, 0)
	case t.IsInteger():
		return ir.Int64
	case t.Kind == ir.TDecimal:
		return boundedDecimal(t.Precision+10, t.Scale)
	case t.IsFloat():
		return ir.Float64
	}
	return t // duration, unknown
}

// avgType is Spark's Average.resultType: decimal(p+4, s+4) for decimals,
// float64 for other numbers.
func avgType(t ir.Type) ir.Type {
	switch {
	case t.Kind == ir.TDecimal:
		return boundedDecimal(t.Precision+4, t.Scale+4)
	case t.IsNumeric():
		return ir.Float64
	}
	return t
}

// roundType is Spark's RoundBase.dataType for scale d.
func roundType(t ir.Type, d int) ir.Type {
	if t.Kind != ir.TDecimal {
		return t
	}
	p, s := t.Precision, t.Scale
	intDigits := p - s + 1
	if d < 0 {
		return ir.Decimal(min(max(intDigits, -d+1), maxPrecision), 0)
	}
	ns := min(s, d)
	return ir.Decimal(min(intDigits+ns, maxPrecision), ns)
}

// floorCeilType is Spark's Ceil/Floor.dataType: decimal(p-s+1, 0) for a
// decimal, int64 otherwise; with a scale, like round.
func floorCeilType(t ir.Type, d int, hasScale bool) ir.Type {
	if hasScale {
		if t.Kind == ir.TDecimal {
			return roundType(t, d)
		}
		if t.IsFloat() {
			return ir.Float64
		}
		return ir.Decimal(integerDecimal[t.Kind]+1, 0)
	}
	switch {
	case t.Kind == ir.TDecimal:
		return boundedDecimal(t.Precision-t.Scale+1, 0)
	case t.IsNumeric():
		return ir.Int64
	}
	return t
}
