package passes

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/nordisk/thund/internal/suggest"
)

// Spark's built-in functions, as data: what SHOW SYSTEM FUNCTIONS lists on
// the pinned servers (spark_functions_*.txt, made by TestSparkFunctionList
// under the spark build tag), and for each name what Þund does with it. A
// name is supported when the catalogue (funcs*.go) has it, under its name or
// an alias; an operator or keyword Þund parses is supported as syntax
// (sparkSyntax); every other name has the reason Þund lacks it
// (sparkLacks). TestSparkNamesAccounted keeps the three in step: a name
// with neither state, or with a reason the catalogue has made stale, fails.

//go:embed spark_functions_4.1.txt
var sparkFunctions41 string

//go:embed spark_functions_4.2.txt
var sparkFunctions42 string

// sparkNames parses a spark_functions_*.txt file: one name a line, '#'
// lines are comments.
func sparkNames(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// sparkBuiltins41 and sparkBuiltins42 are SHOW SYSTEM FUNCTIONS' names on
// the pinned Spark 4.1 and 4.2 servers.
var (
	sparkBuiltins41 = sparkNames(sparkFunctions41)
	sparkBuiltins42 = sparkNames(sparkFunctions42)
)

// syntaxForm is a group of Spark built-ins that Þund supports as SQL
// syntax (an operator or a keyword), not as a call of the name.
type syntaxForm struct {
	names []string
	form  string // how to write it, for docs/functions.md and the unknown-function error
	// query is a SQL query over t (a BIGINT, b BIGINT, s STRING, p BOOLEAN,
	// ts TIMESTAMP) that uses the form; TestSparkSyntaxChecks checks it.
	query string
}

// sparkSyntax are the operators and keywords SHOW FUNCTIONS lists that
// Þund's pipeline SQL parses.
var sparkSyntax = []syntaxForm{
	{[]string{"+", "-", "*", "/", "%"}, "a + b, a - b, -a, a * b, a / b, a % b", "SELECT a + b AS c1, a - b AS c2, -a AS c3, a * b AS c4, a / b AS c5, a % b AS c6, +a AS c7 FROM t"},
	{[]string{"=", "==", "<>", "!=", "<", "<=", ">", ">=", "<=>"}, "a = b, a <> b, a < b, ..., a <=> b (NULL-safe equality)", "SELECT a = b AS c1, a == b AS c2, a <> b AS c3, a != b AS c4, a < b AS c5, a <= b AS c6, a > b AS c7, a >= b AS c8, a <=> b AS c9 FROM t"},
	{[]string{"and", "or", "not", "!"}, "p AND q, p OR q, NOT p (or !p)", "SELECT p AND p AS c1, p OR p AS c2, NOT p AS c3, !p AS c4 FROM t"},
	{[]string{"||"}, "s || t", "SELECT s || s AS c FROM t"},
	{[]string{"&", "|", "^", "~"}, "a & b, a | b, a ^ b, ~a on integers (in .thund, a | b only inside parentheses)", "SELECT a & b AS c1, a | b AS c2, a ^ b AS c3, ~a AS c4 FROM t"},
	{[]string{"<<", ">>", ">>>"}, "a << n, a >> n, a >>> n: shiftleft, shiftright, shiftrightunsigned", "SELECT a << 1 AS c1, a >> 1 AS c2, a >>> 1 AS c3 FROM t"},
	{[]string{"like", "ilike"}, "s LIKE pattern, s ILIKE pattern (pipeline SQL also reads like(s, pattern))", "SELECT s LIKE 'a%' AS c1, s ILIKE 'a%' AS c2 FROM t"},
	{[]string{"between"}, "a BETWEEN lo AND hi", "SELECT a BETWEEN 1 AND 2 AS c FROM t"},
	{[]string{"in"}, "a IN (x, y, ...)", "SELECT a IN (1, 2) AS c FROM t"},
	{[]string{"case", "when"}, "CASE WHEN p THEN x ELSE y END", "SELECT CASE WHEN p THEN 1 ELSE 2 END AS c FROM t"},
	{[]string{"cast"}, "CAST(x AS type)", "SELECT CAST(a AS STRING) AS c FROM t"},
	{[]string{"window"}, "GROUP BY window(ts, '10 seconds') in a streaming aggregate of pipeline SQL (.thund: window tumble(ts, 10s) or hop(ts, 10s, 2s))", "SELECT window.start AS ws, count(*) AS n FROM STREAM(t) WATERMARK ts DELAY OF INTERVAL 5 SECONDS GROUP BY window(ts, '10 seconds')"},
	{[]string{"session_window"}, "GROUP BY session_window(ts, '30 seconds') in a streaming aggregate of pipeline SQL (.thund: window session(ts, 30s))", "SELECT session_window.start AS ws, count(*) AS n FROM STREAM(t) WATERMARK ts DELAY OF INTERVAL 5 SECONDS GROUP BY session_window(ts, '30 seconds')"},
}

// lackGroup is a group of Spark built-ins Þund does not have, with the
// reason, which completes "Þund does not support it: ...".
type lackGroup struct {
	reason string
	names  []string
}

// sparkLacks are the reasons for every SHOW FUNCTIONS name (of either
// pinned server) that neither the catalogue nor sparkSyntax has.
var sparkLacks = []lackGroup{
	{"a cast written as a function is not built: write CAST(x AS type)",
		[]string{"bigint", "binary", "boolean", "date", "decimal", "double", "float", "int", "smallint", "string", "timestamp", "tinyint"}},
	{"aggregates that collect values into an array or string are not built yet",
		[]string{"listagg", "string_agg"}},
	{"this aggregate is not built yet",
		[]string{"mode", "percentile_cont", "percentile_disc", "histogram_numeric"}},
	{"the top-k and count-min sketch aggregates are not built yet",
		[]string{"approx_top_k", "approx_top_k_accumulate", "approx_top_k_combine", "approx_top_k_estimate", "count_min_sketch"}},
	{"sketch functions (HLL, KLL, Theta, Tuple sketches and bitmaps) are not built",
		[]string{"bitmap_and_agg", "bitmap_construct_agg", "bitmap_or_agg", "hll_sketch_agg", "hll_sketch_estimate", "hll_union", "hll_union_agg", "kll_merge_agg_bigint", "kll_merge_agg_double", "kll_merge_agg_float", "kll_sketch_agg_bigint", "kll_sketch_agg_double", "kll_sketch_agg_float", "kll_sketch_get_n_bigint", "kll_sketch_get_n_double", "kll_sketch_get_n_float", "kll_sketch_get_quantile_bigint", "kll_sketch_get_quantile_double", "kll_sketch_get_quantile_float", "kll_sketch_get_rank_bigint", "kll_sketch_get_rank_double", "kll_sketch_get_rank_float", "kll_sketch_merge_bigint", "kll_sketch_merge_double", "kll_sketch_merge_float", "kll_sketch_to_string_bigint", "kll_sketch_to_string_double", "kll_sketch_to_string_float", "theta_difference", "theta_intersection", "theta_intersection_agg", "theta_sketch_agg", "theta_sketch_estimate", "theta_union", "theta_union_agg", "tuple_difference_double", "tuple_difference_integer", "tuple_difference_theta_double", "tuple_difference_theta_integer", "tuple_intersection_agg_double", "tuple_intersection_agg_integer", "tuple_intersection_double", "tuple_intersection_integer", "tuple_intersection_theta_double", "tuple_intersection_theta_integer", "tuple_sketch_agg_double", "tuple_sketch_agg_integer", "tuple_sketch_estimate_double", "tuple_sketch_estimate_integer", "tuple_sketch_summary_double", "tuple_sketch_summary_integer", "tuple_sketch_theta_double", "tuple_sketch_theta_integer", "tuple_union_agg_double", "tuple_union_agg_integer", "tuple_union_double", "tuple_union_integer", "tuple_union_theta_double", "tuple_union_theta_integer"}},
	{"CSV-text functions are not built",
		[]string{"from_csv", "schema_of_csv", "to_csv"}},
	{"XML functions are not built",
		[]string{"from_xml", "schema_of_xml", "to_xml", "xpath", "xpath_boolean", "xpath_double", "xpath_float", "xpath_int", "xpath_long", "xpath_number", "xpath_short", "xpath_string"}},
	{"Avro and Protobuf functions need Spark's connector libraries and are not built",
		[]string{"from_avro", "schema_of_avro", "to_avro", "from_protobuf", "to_protobuf"}},
	{"Þund has no VARIANT type",
		[]string{"is_valid_variant", "is_variant_null", "parse_json", "schema_of_variant", "schema_of_variant_agg", "to_variant_object", "try_parse_json", "try_variant_get", "variant_explode", "variant_explode_outer", "variant_get"}},
	{"Þund has no GEOMETRY or GEOGRAPHY type",
		[]string{"st_asbinary", "st_geogfromwkb", "st_geomfromwkb", "st_setsrid", "st_srid"}},
	{"Þund has no TIME type",
		[]string{"current_time", "make_time", "time", "time_diff", "time_from_micros", "time_from_millis", "time_from_seconds", "time_to_micros", "time_to_millis", "time_to_seconds", "time_trunc", "to_time", "try_to_time"}},
	{"the vector functions (Spark 4.2: arrays of floats as vectors) are not built yet",
		[]string{"vector_avg", "vector_cosine_similarity", "vector_inner_product", "vector_l2_distance", "vector_norm", "vector_normalize", "vector_sum"}},
	{"interval constructors are not built: write an INTERVAL literal",
		[]string{"make_interval", "make_ym_interval", "try_make_interval"}},
	{"Þund's timestamps are TIMESTAMP (with the session time zone) only: TIMESTAMP_LTZ and TIMESTAMP_NTZ constructors and these conversions are not built yet",
		[]string{"convert_timezone", "make_timestamp_ltz", "make_timestamp_ntz", "to_timestamp_ltz", "to_timestamp_ntz", "try_make_timestamp", "try_make_timestamp_ltz", "try_make_timestamp_ntz"}},
	{"this date, string or number-format function is not built yet",
		[]string{"dayname", "monthname", "time_bucket", "try_to_date", "parse_url", "try_parse_url", "sentences", "to_char", "to_varchar", "to_number", "try_to_number", "typeof", "window_time"}},
	{"collations are not built: Þund compares strings by their UTF-8 bytes (Spark's UTF8_BINARY)",
		[]string{"collate", "collation", "collations"}},
	{"it reads the Spark session (catalog, user, version, time zone), which a pipeline does not have natively",
		[]string{"current_catalog", "current_database", "current_path", "current_schema", "current_timezone", "current_user", "session_user", "user", "version"}},
	{"it reads how Spark splits and reads its input (file, block, partition), which the native runtime does not share",
		[]string{"input_file_block_length", "input_file_block_start", "input_file_name", "monotonically_increasing_id", "spark_partition_id"}},
	{"it is random per Spark partition and is not built (rand, randn and uniform run on Spark targets only)",
		[]string{"randstr"}},
	{"it calls a Java method, which only Spark's JVM can",
		[]string{"java_method", "reflect", "try_reflect"}},
	{"it is a table-valued function (FROM range(...)), which pipeline SQL does not read",
		[]string{"range", "sql_keywords"}},
	{"it reports Spark's Python workers, which a pipeline does not have",
		[]string{"python_worker_logs"}},
	{"measure() computes a metric view's measure, and Þund has no metric views",
		[]string{"measure"}},
}

// sparkBuiltin says what Þund does with a Spark built-in it has no catalogue
// entry for: the syntax to write instead, or the reason it lacks it; ok is
// false for a name Spark does not list.
func sparkBuiltin(name string) (syntax, reason string, ok bool) {
	name = strings.ToLower(name)
	for _, s := range sparkSyntax {
		for _, n := range s.names {
			if n == name {
				return s.form, "", true
			}
		}
	}
	for _, g := range sparkLacks {
		for _, n := range g.names {
			if n == name {
				return "", g.reason, true
			}
		}
	}
	return "", "", false
}

// unknownFuncText is the unknown-function error for a name the catalogue
// lacks: for a Spark built-in, the syntax to write or the reason Þund lacks
// it; for any other name, a did-you-mean when one is close.
func unknownFuncText(name string) string {
	syntax, reason, ok := sparkBuiltin(name)
	switch {
	case ok && syntax != "":
		return fmt.Sprintf("function %q is a Spark built-in that Þund supports as syntax: write %s", name, syntax)
	case ok:
		return fmt.Sprintf("function %q is a Spark built-in that Þund does not support: %s", name, reason)
	}
	if s, ok := suggest.Closest(name, funcNames()); ok {
		return fmt.Sprintf("unknown function %q (did you mean %q?)", name, s)
	}
	return fmt.Sprintf("unknown function %q", name)
}
