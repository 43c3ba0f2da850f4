package sql_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nordisk/thund/frontend/sql"
	"github.com/nordisk/thund/ir"
)

// errorCases: each statement form that pipeline SQL refuses, or gets wrong,
// and the exact diagnostics (file:line:col: message [code]).
var errorCases = []struct {
	sql  string
	want []string
}{
	{
		sql: "CREATE STREAMING TABLE a AS SELECT * FROM STREAM(t) AS x WATERMARK ts DELAY OF INTERVAL 5 SECONDS",
		want: []string{
			"e.sql:1:58: unexpected \"WATERMARK\": WATERMARK col DELAY OF INTERVAL ... comes right after the table it reads, before AS alias [syntax]",
		},
	},
	{
		sql: "CREATE STREAMING TABLE b AS SELECT * FROM STREAM(t) WATERMARK ts DELAY INTERVAL 5 SECONDS",
		want: []string{
			"e.sql:1:72: unexpected \"INTERVAL\": expected OF [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW c AS SELECT a, FROM t",
		want: []string{
			"e.sql:1:41: unexpected \"FROM\": expected an expression after , [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW d AS SELECT a FROM t WHERE a = 1 GROUP k",
		want: []string{
			"e.sql:1:65: unexpected \"k\": expected BY [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW g AS SELECT a FROM t LIMIT x",
		want: []string{
			"e.sql:1:53: unexpected \"x\": expected a number, \"-\" or ALL [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW h (a INT, CONSTRAINT c EXPECT a > 0) AS SELECT 1 AS a",
		want: []string{
			"e.sql:1:56: unexpected \"a\": expected \"(\" [syntax]",
		},
	},
	{
		sql: "SET a b = c",
		want: []string{
			"e.sql:1:5: invalid SET key \"a b\": quote a key with other characters than letters, digits, _ . and : in back-quotes [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW n AS SELECT a FROM t WHERE a IN ()",
		want: []string{
			"e.sql:1:59: unexpected \")\": expected an expression or a query [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW m1 AS SELECT 1 AS a; CREATE VIEW m1 AS SELECT 2 AS b; CREATE MATERIALIZED VIEW w AS SELECT window.start, count(*) AS n FROM t GROUP BY window(ts, '1 second'), session_window(ts, '1 second')",
		want: []string{
			"e.sql:1:185: only one window(...) or session_window(...) may appear in GROUP BY [syntax]",
		},
	},
	{
		sql: "CREATE FUNCTION f AS 'x'",
		want: []string{
			"e.sql:1:1: CREATE FUNCTION is not supported in pipeline SQL [syntax]",
		},
	},
	{
		sql: "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE",
		want: []string{
			"e.sql:1:1: MERGE INTO is not supported in pipeline SQL [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW a AS SELECT x, row_number() OVER w2 AS rn FROM t WINDOW w1 AS (ORDER BY t)",
		want: []string{
			"e.sql:1:59: window specification w2 is not defined in the WINDOW clause (Spark: MISSING_WINDOW_SPECIFICATION): it defines w1 [syntax]",
		},
	},
	// generators (generate.go)
	{
		sql:  "CREATE MATERIALIZED VIEW b AS SELECT * FROM t LATERAL VIEW explode(xs)",
		want: []string{"e.sql:1:60: LATERAL VIEW explode(...) needs a table alias after the call, as Spark's grammar does: LATERAL VIEW explode(...) e [AS name, ...] [syntax]"},
	},
	{
		sql:  "CREATE MATERIALIZED VIEW b AS SELECT * FROM t LATERAL VIEW explode(xs) e WHERE x > 1 LATERAL VIEW explode(xs) f",
		want: []string{"e.sql:1:86: LATERAL VIEW after WHERE or GROUP BY is not supported in pipeline SQL: write each LATERAL VIEW right after FROM's relations (FROM t LATERAL VIEW explode(xs) e AS x WHERE ...) [syntax]"},
	},
	{
		sql:  "CREATE MATERIALIZED VIEW b AS SELECT * FROM t LATERAL VIEW upper(s) e",
		want: []string{"e.sql:1:60: LATERAL VIEW needs a generator (explode, posexplode, inline, stack, json_tuple or an _outer variant), got upper(s) [syntax]"},
	},
	{
		sql:  "CREATE MATERIALIZED VIEW b AS SELECT explode(xs), explode(ys) FROM t",
		want: []string{"e.sql:1:51: a second generator (explode) in a SELECT is not supported in pipeline SQL: use LATERAL VIEW for the others [syntax]"},
	},
	{
		sql:  "CREATE MATERIALIZED VIEW b AS SELECT *, explode(xs) FROM t",
		want: []string{"e.sql:1:38: a * beside the generator explode in a SELECT is not supported in pipeline SQL: write FROM ... LATERAL VIEW explode(...) alias AS name, ... and SELECT * [syntax]"},
	},
	{
		sql:  "CREATE MATERIALIZED VIEW b AS SELECT k, explode(collect_list(x)) FROM t GROUP BY k",
		want: []string{"e.sql:1:41: a generator in a SELECT with GROUP BY or HAVING is not supported in pipeline SQL: group in a subquery, and explode its result outside [bad-aggregate]"},
	},
	{
		sql: "CREATE STREAMING TABLE t; CREATE FLOW f2 AS AUTO CDC INTO t FROM STREAM(s) KEYS (id) APPLY AS TRUNCATE WHEN op = 'T' SEQUENCE BY seq",
		want: []string{
			"e.sql:1:109: APPLY AS TRUNCATE WHEN is not supported in pipeline SQL [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW c AS SELECT FROM t",
		want: []string{
			"e.sql:1:38: unexpected \"FROM\": expected an expression after SELECT [syntax]",
		},
	},
	{
		sql: "SELECT 1",
		want: []string{
			"e.sql:1:1: a bare query (SELECT ...) outside CREATE is not supported in pipeline SQL [syntax]",
		},
	},
	{
		sql: "CREATE TABLE x (a INT)",
		want: []string{
			"e.sql:1:1: CREATE TABLE is not supported in pipeline SQL: use CREATE MATERIALIZED VIEW or CREATE STREAMING TABLE [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW cb CLUSTER BY (a) PARTITIONED BY (a) AS SELECT 1 AS a",
		want: []string{
			"e.sql:1:29: a dataset takes PARTITIONED BY or CLUSTER BY, not both (Spark: SPECIFY_CLUSTER_BY_WITH_PARTITIONED_BY_IS_NOT_ALLOWED) [syntax]",
		},
	},
	{
		sql: "CREATE TEMPORARY VIEW cv CLUSTER BY (a) AS SELECT 1 AS a",
		want: []string{
			"e.sql:1:26: CLUSTER BY applies to materialized views and streaming tables, not to a temporary view [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW rp TBLPROPERTIES ('Owner' = 'me', 'k' = 'v') AS SELECT 1 AS a",
		want: []string{
			"e.sql:1:44: Owner is a reserved table property: Spark sets it to the current user (Spark: UNSUPPORTED_FEATURE.SET_TABLE_PROPERTY) [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW e LOCATION '/x' AS SELECT 1 AS one",
		want: []string{
			"e.sql:1:28: LOCATION is not supported in pipeline SQL: Spark refuses it (specifying location is not supported: the pipeline manages a dataset's storage) [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW g TBLPROPERTIES ('thund.bogus' = '1') AS SELECT 1 AS one",
		want: []string{
			"e.sql:1:43: unknown table property \"thund.bogus\": the thund.* properties are thund.id, thund.materialize, thund.allowedLateness, thund.idleTimeout, thund.emit, thund.trigger, thund.outputMode, thund.lateTable, thund.boundRows, thund.boundBytes, thund.dedupWithinWatermark [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW h AS SELECT count(*) AS n FROM t GROUP BY GROUPING SETS (())",
		want: []string{
			"e.sql:1:31: GROUPING SETS without a grouping column is not supported in pipeline SQL: use an aggregate without GROUP BY [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW i AS SELECT a, b FROM t GROUP BY a, ROLLUP(b) WITH CUBE",
		want: []string{
			"e.sql:1:62: GROUP BY ROLLUP(...) cannot be combined with WITH CUBE [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW m AS SELECT a, rank() IGNORE NULLS OVER (ORDER BY a) FROM t",
		want: []string{
			"e.sql:1:41: IGNORE NULLS is not supported for rank(...) in pipeline SQL [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW p (a INT DEFAULT 1) AS SELECT 1 AS a",
		want: []string{
			"e.sql:1:35: a column DEFAULT value is not supported in pipeline SQL [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW q AS SELECT CAST(a AS ARRAY<INT NOT NULL>) AS b FROM t",
		want: []string{
			"e.sql:1:54: NOT NULL and COMMENT apply to STRUCT fields only: want ARRAY<element type> [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW q AS SELECT CAST(a AS MAP<INT>) AS b, CAST(a AS STRUCT<INT>) AS c, CAST(a AS INT<INT>) AS d FROM t",
		want: []string{
			"e.sql:1:48: MAP takes 2 type(s) between < and >, got 1: want MAP<key type, value type> [syntax]",
			"e.sql:1:81: a STRUCT field is a name and a type: want STRUCT<name: type, ...> [syntax]",
			"e.sql:1:103: type INT takes no <...>: only ARRAY, MAP and STRUCT do [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW q2 AS SELECT CAST(a AS VARIANT) AS b FROM t",
		want: []string{
			"e.sql:1:49: the type VARIANT is not supported in pipeline SQL [unknown-type]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW q3 AS SELECT CAST(a AS BOGUS) AS b FROM t",
		want: []string{
			"e.sql:1:49: unknown type BOGUS (want BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p,s), STRING, BINARY, DATE, TIMESTAMP, TIMESTAMP_NTZ, ARRAY<T>, MAP<K, V> or STRUCT<name: T, ...>) [unknown-type]",
		},
	},
	{
		sql: "SET foo",
		want: []string{
			"e.sql:1:1: SET without a value is not supported in pipeline SQL: write SET key = value [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW s AS SELECT a FROM t NATURAL JOIN u",
		want: []string{
			"e.sql:1:47: NATURAL JOIN is not supported in pipeline SQL: join with USING (...) [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW z AS SELECT 99999999999999999999999999999999999999999 AS x FROM t",
		want: []string{
			"e.sql:1:38: the integer 99999999999999999999999999999999999999999 has more than 38 digits [bad-literal]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW y AS SELECT 128Y AS x FROM t",
		want: []string{
			"e.sql:1:38: 128Y does not fit a TINYINT [bad-literal]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW y2 AS SELECT INTERVAL 1 MONTH AS x FROM t",
		want: []string{
			"e.sql:1:48: INTERVAL 1 MONTH: month intervals have no fixed length: use days, hours, minutes or seconds [bad-duration]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW y3 AS SELECT DATE '2024-02-30' AS x FROM t",
		want: []string{
			"e.sql:1:39: DATE \"2024-02-30\": no such date [bad-literal]",
		},
	},
	{
		sql: "CREATE FLOW a.b AS INSERT INTO t SELECT 1 AS x",
		want: []string{
			"e.sql:1:13: flow name a.b must be a single part (Spark: MULTIPART_FLOW_NAME_NOT_SUPPORTED) [syntax]",
		},
	},
	{
		sql: "CREATE FLOW f AS INSERT INTO t (a, b) SELECT 1 AS a, 2 AS b",
		want: []string{
			"e.sql:1:33: a column list on the flow target is not supported (Spark: column schema may not be specified for a flow target) [syntax]",
		},
	},
	{
		sql: "CREATE FLOW f AS INSERT OVERWRITE t SELECT 1 AS a",
		want: []string{
			"e.sql:1:18: INSERT OVERWRITE is not supported in pipeline SQL: a flow appends (Spark refuses INSERT OVERWRITE flows) [syntax]",
		},
	},
	{
		sql: "CREATE TEMPORARY VIEW db.v AS SELECT 1 AS a",
		want: []string{
			"e.sql:1:23: temporary view name db.v must not be qualified (Spark: TEMP_VIEW_NAME_TOO_MANY_NAME_PARTS; from 4.2, INVALID_TEMP_OBJ_QUALIFIER) [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv",
		want: []string{
			"e.sql:1:26: materialized view mv needs a query: add AS SELECT ... [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv COMMENT 'a' COMMENT 'b' AS SELECT 1 AS a",
		want: []string{
			"e.sql:1:41: duplicate COMMENT clause [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv PARTITIONED BY (bucket(4, a)) AS SELECT 1 AS a",
		want: []string{
			"e.sql:1:45: partition transform bucket(4, a) is not supported in pipeline SQL: partition by column names (Spark: Invalid partitioning transform; only single-column identity partitioning) [syntax]",
		},
	},
	{
		sql: "CREATE STREAMING TABLE st TBLPROPERTIES ('thund.emit' = 'sometimes') AS SELECT * FROM STREAM(t)",
		want: []string{
			"e.sql:1:42: table property thund.emit = \"sometimes\": want 'on window close' or 'on update' [syntax]",
		},
	},
	{
		sql: "CREATE STREAMING TABLE st TBLPROPERTIES ('thund.allowedLateness' = '10 seconds') AS SELECT * FROM STREAM(t)",
		want: []string{
			"e.sql:1:42: table property thund.allowedLateness needs a watermark: add a WATERMARK clause to the query of st [bad-dataset]",
		},
	},
	{
		sql: "CREATE STREAMING TABLE st TBLPROPERTIES ('thund.trigger' = 'every 10 parsecs') AS SELECT * FROM STREAM(t)",
		want: []string{
			"e.sql:1:42: table property thund.trigger = \"every 10 parsecs\": want 'available now', or 'every' and a positive duration such as 'every 10 seconds' [syntax]",
		},
	},
	{
		sql: "CREATE STREAMING TABLE st TBLPROPERTIES ('thund.emit' = 'on update')",
		want: []string{
			"e.sql:1:42: table property thund.emit applies to the flows into streaming table \"st\", and it has none [bad-dataset]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS SELECT a FROM read_files('nope/*.csv', format => 'csv')",
		want: []string{
			"e.sql:1:46: cannot infer the schema of read_files('nope/*.csv'): no file matches nope/*.csv; declare it with schema => 'col TYPE, ...' [bad-dataset]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS SELECT a FROM read_files('x.avro')",
		want: []string{
			"e.sql:1:46: read_files('x.avro'): the format cannot be told from the path: add format => 'parquet' (or csv, json, arrow) [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS SELECT a FROM read_files('x.bin', format => 'avro')",
		want: []string{
			"e.sql:1:46: read_files format \"avro\" is not supported (want parquet, csv, json or arrow) [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS SELECT a FROM read_files('x.csv', schema => 'a INT,')",
		want: []string{
			"e.sql:1:76: schema \"a INT,\": unexpected end of the schema: want 'name TYPE [NOT NULL] [COMMENT ...], ...' [syntax]",
		},
	},
	{
		sql: "CREATE STREAMING TABLE st AS SELECT * FROM STREAM(t) WATERMARK ts + 1 DELAY OF INTERVAL 1 SECOND",
		want: []string{
			"e.sql:1:64: WATERMARK on an expression is not supported in pipeline SQL: name a column (compute it in a subquery) [syntax]",
		},
	},
	{
		sql: "CREATE STREAMING TABLE st AS SELECT * FROM STREAM(t) GROUP BY window(ts, '10 parsecs')",
		want: []string{
			"e.sql:1:74: the window duration \"10 parsecs\": unknown unit \"parsecs\" (want seconds, minutes, hours, days, ...) [bad-duration]",
		},
	},
	{
		sql: "CREATE STREAMING TABLE st AS SELECT window(ts, '10 seconds') FROM STREAM(t)",
		want: []string{
			"e.sql:1:37: window(...) outside GROUP BY is not supported in pipeline SQL: group by it [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS SELECT * FROM t WHERE count(*) > 1",
		want: []string{
			"e.sql:1:54: aggregate functions are not allowed in WHERE: use HAVING [bad-aggregate]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS SELECT a FROM t OFFSET 5",
		want: []string{
			"e.sql:1:55: OFFSET without LIMIT is not supported in pipeline SQL [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS SELECT DISTINCT a FROM t ORDER BY b",
		want: []string{
			"e.sql:1:66: with SELECT DISTINCT, ORDER BY may only use the selected columns [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS SELECT a FROM t WHERE a LIKE 'x' ESCAPE '!'",
		want: []string{
			"e.sql:1:72: LIKE ... ESCAPE is not supported in pipeline SQL [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS SELECT a < < 1 AS b, a >> 1 AS c, a > >> 1 AS d FROM t",
		want: []string{
			"e.sql:1:41: write the shift operator << without spaces inside it [syntax]",
			"e.sql:1:68: write the shift operator >>> without spaces inside it [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS SELECT db.f(a) AS b FROM t",
		want: []string{
			"e.sql:1:39: the qualified function name db.f is not supported in pipeline SQL (user-defined functions are not) [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS SELECT sum(*) AS b FROM t",
		want: []string{
			"e.sql:1:39: sum(*) is not supported: only count(*) takes * [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS SELECT (a, b) AS c FROM t",
		want: []string{
			"e.sql:1:39: a row constructor (a, b, ...) is not supported in pipeline SQL [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS SELECT a FROM t AS x(a)",
		want: []string{
			"e.sql:1:53: column aliases on a relation (AS t(a, b)) are not supported in pipeline SQL: alias the columns in a subquery [syntax]",
		},
	},
	{
		sql:  "CREATE STREAMING TABLE s AS SELECT value FROM STREAM read_kafka('clicks')",
		want: []string{"e.sql:1:65: read_kafka takes named options only, as read_kafka(bootstrapServers => 'host:port', subscribe => 'topic'): it reads topics, not a path [syntax]"},
	},
	{
		sql:  "CREATE STREAMING TABLE s AS SELECT value FROM STREAM read_kafka(bootstrapServers => 'h:1', schema => 'a INT')",
		want: []string{"e.sql:1:92: read_kafka takes no schema option: its columns are Kafka's (key, value, topic, partition, offset, timestamp, timestampType); parse the value in the query, as from_json(CAST(value AS STRING), '...') [syntax]"},
	},
	{
		sql:  "CREATE MATERIALIZED VIEW m AS SELECT value FROM read_kafka()",
		want: []string{"e.sql:1:49: read_kafka needs its options: read_kafka(bootstrapServers => 'host:port', subscribe => 'topic') [syntax]"},
	},
	{
		sql:  "CREATE MATERIALIZED VIEW m AS SELECT value FROM read_kafka(bootstrapServers => 'h:1', subscribe => upper('t'))",
		want: []string{"e.sql:1:100: a read_kafka option value must be a constant string, number or boolean [syntax]"},
	},
	{
		sql:  "CREATE MATERIALIZED VIEW m AS SELECT upper(s => 'x') AS u FROM t",
		want: []string{"e.sql:1:44: named arguments (s => ...) are only supported in read_files(...) and read_kafka(...) [syntax]"},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS SELECT a FROM unknown_fn(1)",
		want: []string{
			"e.sql:1:46: table function unknown_fn(...) is not supported in pipeline SQL (want read_files, read_kafka, range, TUMBLE, HOP or SESSION) [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS WITH RECURSIVE r AS (SELECT 1 AS a) SELECT * FROM r",
		want: []string{
			"e.sql:1:37: WITH RECURSIVE is not supported in pipeline SQL [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS SELECT a FROM t GROUP BY 3",
		want: []string{
			"e.sql:1:57: GROUP BY position 3 is not in the select list (1 to 1) [syntax]",
		},
	},
	{
		sql: "CREATE STREAMING TABLE tgt FLOW AUTO CDC FROM STREAM(src) KEYS (id) SEQUENCE BY ts STORED AS SCD TYPE 3",
		want: []string{
			"e.sql:1:94: STORED AS SCD TYPE 3: want 1 or 2 [syntax]",
		},
	},
	{
		sql: "CREATE STREAMING TABLE tgt FLOW AUTO CDC FROM STREAM(src) KEYS (id) SEQUENCE BY ts STORED AS BITEMPORAL",
		want: []string{
			"e.sql:1:94: STORED AS BITEMPORAL is not supported in pipeline SQL [syntax]",
		},
	},
	{
		sql: "USE a.b.c",
		want: []string{
			"e.sql:1:5: USE a.b.c: a schema name has at most two parts (catalog.schema) [syntax]",
		},
	},
	{
		sql: "ALTER TABLE t ADD COLUMN x INT",
		want: []string{
			"e.sql:1:1: ALTER TABLE is not supported in pipeline SQL [syntax]",
		},
	},
	{
		sql: "DROP TABLE t",
		want: []string{
			"e.sql:1:1: DROP TABLE is not supported in pipeline SQL [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS SELECT a FROM t WHERE a = $x",
		want: []string{
			"e.sql:1:58: unexpected \"$\": expected an expression after = [syntax]",
		},
	},
	{
		sql: "CREATE MATERIALIZED VIEW mv AS SELECT 1 AS a; CREATE MATERIALIZED VIEW bad AS SELECT; CREATE TABLE x (a INT)",
		want: []string{
			"e.sql:1:85: unexpected end of statement: expected an expression after SELECT [syntax]",
			"e.sql:1:87: CREATE TABLE is not supported in pipeline SQL: use CREATE MATERIALIZED VIEW or CREATE STREAMING TABLE [syntax]",
		},
	},
	// What was expected, and a did-you-mean for a misspelt keyword: where
	// it stands, even when an implicit alias took it (FORM, GRUOP, JION).
	{
		sql:  "CREATE MATERIALIZED VIEW a AS SELECT * FORM trips",
		want: []string{"e.sql:1:40: unexpected \"FORM\" (did you mean FROM?): expected an operator, AS, \",\", FROM, WHERE, GROUP BY, HAVING, QUALIFY, UNION, EXCEPT, MINUS, INTERSECT, ORDER BY, LIMIT, OFFSET or the end of the statement [syntax]"},
	},
	{
		sql:  "CREATE MATERIALIZED VIEW b AS SELECT city, count(*) AS n FROM trips GRUOP BY city",
		want: []string{"e.sql:1:69: unexpected \"GRUOP\" (did you mean GROUP BY?): expected WITH, WATERMARK, AS, \",\", JOIN, LATERAL VIEW, WHERE, GROUP BY, HAVING, QUALIFY, UNION, EXCEPT, MINUS, INTERSECT, ORDER BY, LIMIT, OFFSET or the end of the statement [syntax]"},
	},
	{
		sql:  "CREATE MATERIALIZED VIEW c AS SELECT city FROM trips JION hubs USING (city)",
		want: []string{"e.sql:1:54: unexpected \"JION\" (did you mean JOIN?): expected WITH, WATERMARK, AS, \",\", JOIN, LATERAL VIEW, WHERE, GROUP BY, HAVING, QUALIFY, UNION, EXCEPT, MINUS, INTERSECT, ORDER BY, LIMIT, OFFSET or the end of the statement [syntax]"},
	},
	{
		sql:  "CREATE MATERIALIZED VIEW d AS SELECT city FROM trips WHERE id > 1 ORDR BY city",
		want: []string{"e.sql:1:67: unexpected \"ORDR\" (did you mean ORDER BY?): expected an operator, GROUP BY, HAVING, WINDOW, QUALIFY, UNION, EXCEPT, MINUS, INTERSECT, ORDER BY, LIMIT, OFFSET or the end of the statement [syntax]"},
	},
	{
		sql:  "CREATE MATERIALIZED VIEW e AS SELCT city FROM trips",
		want: []string{"e.sql:1:31: unexpected \"SELCT\" (did you mean SELECT?): expected a query [syntax]"},
	},
	{
		sql:  "CREATE MATERIALIZD VIEW f AS SELECT 1 AS x",
		want: []string{"e.sql:1:8: unexpected \"MATERIALIZD\" (did you mean MATERIALIZED VIEW?): expected OR REFRESH, MATERIALIZED VIEW, VIEW, STREAMING TABLE, TEMPORARY VIEW, TEMP VIEW or FLOW [syntax]"},
	},
	{
		sql:  "CRATE MATERIALIZED VIEW g AS SELECT 1 AS x",
		want: []string{"e.sql:1:1: unexpected \"CRATE\" (did you mean CREATE?): expected CREATE, APPLY CHANGES, AUTO CDC, USE or SET [syntax]"},
	},
	{
		sql:  "CREATE STREAMING TABLE h AS SELECT * FROM STREM(trips)",
		want: []string{"e.sql:1:43: table function STREM(...) is not supported in pipeline SQL (did you mean STREAM?) [syntax]"},
	},
	{
		sql:  "CREATE MATERIALIZED VIEW i AS SELECT cast(x AS) AS y FROM t",
		want: []string{"e.sql:1:47: unexpected \")\": expected a type [syntax]"},
	},
	// EXTRACT is the function of its field (year(x), or extract('QUARTER', x));
	// a field Spark 4 does not extract from a date or timestamp is refused by
	// the name written.
	{
		sql:  "CREATE MATERIALIZED VIEW k AS SELECT EXTRACT(SECOND FROM ts) AS s, EXTRACT(EPOCH FROM ts) AS q FROM t",
		want: []string{"e.sql:1:76: EXTRACT of unknown field EPOCH: it extracts YEAR, QUARTER, MONTH, WEEK, DAY, DAYOFWEEK, DOY, HOUR, MINUTE, SECOND, ... [syntax]"},
	},
	{
		sql:  "CREATE MATERIALIZED VIEW l AS SELECT EXTRACT(YAER FROM ts) AS y FROM t",
		want: []string{"e.sql:1:46: EXTRACT of unknown field YAER (did you mean YEAR?) [syntax]"},
	},
	{
		sql:  "CREATE MATERIALIZED VIEW m AS SELECT a DIV 2 AS q FROM t",
		want: []string{"e.sql:1:40: DIV (integral division) is not supported in pipeline SQL [syntax]"},
	},
	{
		sql:  "CREATE MATERIALIZED VIEW o AS SELECT current_user AS d FROM t",
		want: []string{"e.sql:1:38: current_user is not supported in pipeline SQL [syntax]"},
	},
	{
		// a real alias before a mistake is left alone
		sql:  "CREATE MATERIALIZED VIEW j AS SELECT a FROM t AS form trips",
		want: []string{"e.sql:1:55: unexpected \"trips\": expected \"(\", \",\", JOIN, LATERAL VIEW, WHERE, GROUP BY, HAVING, WINDOW, QUALIFY, UNION, EXCEPT, MINUS, INTERSECT, ORDER BY, LIMIT, OFFSET or the end of the statement [syntax]"},
	},
}

func TestErrors(t *testing.T) {
	for _, c := range errorCases {
		t.Run(c.sql, func(t *testing.T) {
			t.Chdir(t.TempDir())
			p, diags := sql.Parse([]sql.File{{Name: "e.sql", Src: []byte(c.sql)}})
			if p != nil {
				t.Errorf("a pipeline despite errors")
			}
			var got []string
			for _, d := range diags {
				got = append(got, d.Error())
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestErrorsPerStatement: several statements' errors are all reported,
// with their lines and columns, sorted, and each carries its source line.
func TestErrorsPerStatement(t *testing.T) {
	src := `-- a file with three bad statements and two good ones
CREATE MATERIALIZED VIEW ok1 AS SELECT a FROM t;

CREATE MATERIALIZED VIEW bad1 AS
  SELECT a,
         count(*) OVER (ORDER BY a ROWS 1) AS c
  FROM t;
CREATE FUNCTION f AS 'com.example.F';
CREATE MATERIALIZED VIEW ok2 AS SELECT a FROM t
  WHERE a > 1;
  CREATE MATERIALIZED VIEW bad2 AS SELECT a FROM t WHERE a >
`
	_, diags := sql.Parse([]sql.File{{Name: "dir/p.sql", Src: []byte(src)}})
	want := []string{
		"dir/p.sql:6:42: unexpected \")\": expected \".\", \"-\", \"+\", \"*\", \"::\", \"[\", \"/\", \"%\", DIV or \"||\" [syntax]",
		"dir/p.sql:8:1: CREATE FUNCTION is not supported in pipeline SQL [syntax]",
		"dir/p.sql:12:1: unexpected end of statement: expected an expression after > [syntax]",
	}
	var got []string
	for _, d := range diags {
		got = append(got, d.Error())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if diags[0].Source != "         count(*) OVER (ORDER BY a ROWS 1) AS c" {
		t.Errorf("source line %q", diags[0].Source)
	}
	if diags[0].Pos.Offset != strings.Index(src, "1)")+1 {
		t.Errorf("offset %d, want %d", diags[0].Pos.Offset, strings.Index(src, "1)")+1)
	}
}

// TestErrorsAcrossFiles: each file's statements are positioned in their file.
func TestErrorsAcrossFiles(t *testing.T) {
	_, diags := sql.Parse([]sql.File{
		{Name: "b.sql", Src: []byte("CREATE MATERIALIZED VIEW x AS SELECT 1 AS one;\nSELECT 2")},
		{Name: "a.sql", Src: []byte("\n\n  MERGE INTO t USING s ON true")},
	})
	want := "a.sql:3:3: MERGE INTO is not supported in pipeline SQL [syntax]\n" +
		"b.sql:2:1: a bare query (SELECT ...) outside CREATE is not supported in pipeline SQL [syntax]"
	if diags.Error() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", diags.Error(), want)
	}
	if diags.Err() == nil || !diags.HasErrors() {
		t.Fatal("Err() is nil")
	}
}

// TestUnterminatedString: a missing quote swallows the statements after it,
// as in Spark; the string that did it is pointed at.
func TestUnterminatedString(t *testing.T) {
	src := "CREATE MATERIALIZED VIEW j AS SELECT 'oops FROM t;\nCREATE MATERIALIZED VIEW k AS SELECT a FROM t;\nCREATE MATERIALIZED VIEW l AS SELECT 'b' FROM t;\n"
	_, diags := sql.Parse([]sql.File{{Name: "u.sql", Src: []byte(src)}})
	want := "u.sql:1:38: this string runs on past a ';' and a line break, into the statements after it: is its closing quote missing? [syntax]\n" +
		"u.sql:3:40: invalid character \"'\": unterminated string literal [lex]"
	if diags.Error() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", diags.Error(), want)
	}
}

// TestNoStatements: an empty file, or one of comments, declares no dataset:
// an error at the file, never an empty pipeline that builds and runs green.
// One file among several that declares nothing is a warning.
func TestNoStatements(t *testing.T) {
	for _, src := range []string{"", "  \n", "-- nothing\n/* at /* all */ */ ;;\n"} {
		p, diags := sql.Parse([]sql.File{{Name: "e.sql", Src: []byte(src)}})
		want := "e.sql:1:1: the pipeline declares no dataset: e.sql holds no CREATE MATERIALIZED VIEW, STREAMING TABLE, VIEW, TEMPORARY VIEW or SINK [syntax]"
		if p != nil || diags.Error() != want {
			t.Errorf("%q: %v\n%v", src, p, diags)
		}
	}
	p, diags := sql.Parse([]sql.File{
		{Name: "a.sql", Src: []byte("CREATE MATERIALIZED VIEW m AS SELECT 1 AS x;\n")},
		{Name: "b.sql", Src: []byte("-- to do\n")},
	})
	if p == nil || diags.HasErrors() || len(diags) != 1 || diags[0].Severity != ir.Warning || diags[0].Error() != "b.sql:1:1: warning: b.sql declares no dataset and no flow [syntax]" {
		t.Errorf("one empty file of two: %v\n%v", p, diags)
	}
}

// TestCROnlyLineEnds: a file whose lines end in CR alone reads as lines (a
// comment ends at its CR), with the positions of its lines.
func TestCROnlyLineEnds(t *testing.T) {
	src := "-- a comment\rCREATE MATERIALIZED VIEW m AS SELECT 1 AS x;\rCREATE MATERIALIZED VIEW n AS SELEC 2;\r"
	_, diags := sql.Parse([]sql.File{{Name: "cr.sql", Src: []byte(src)}})
	if !diags.HasErrors() || !strings.HasPrefix(diags.Error(), "cr.sql:3:") {
		t.Errorf("want a syntax error on line 3, got %v", diags)
	}
	p, diags := sql.Parse([]sql.File{{Name: "cr.sql", Src: []byte("-- a comment\rCREATE MATERIALIZED VIEW m AS SELECT 1 AS x;\r")}})
	if diags.HasErrors() || p == nil || len(p.Datasets) != 1 || p.Datasets[0].Pos.Line != 2 {
		t.Errorf("want m on line 2: %v %v", p, diags)
	}
}

// TestNestingLimit: SQL stops at 200 levels of parentheses and CASE, as the
// DSL does, with the position of the level past it; 10,000 levels (which
// the parser once took minutes over) are refused the same way.
func TestNestingLimit(t *testing.T) {
	nested := func(n int, open, close string) string {
		return "CREATE MATERIALIZED VIEW m AS SELECT " + strings.Repeat(open, n) + "1" + strings.Repeat(close, n) + " AS x;\n"
	}
	if _, diags := sql.Parse([]sql.File{{Name: "d.sql", Src: []byte(nested(200, "(", ")"))}}); diags.HasErrors() {
		t.Errorf("200 levels: %v", diags)
	}
	for _, c := range []struct {
		n           int
		open, close string
		col         int
	}{
		{201, "(", ")", 38 + 200},
		{10000, "(", ")", 38 + 200},
		{201, "CASE WHEN true THEN ", " END", 38 + 200*len("CASE WHEN true THEN ")},
	} {
		_, diags := sql.Parse([]sql.File{{Name: "d.sql", Src: []byte(nested(c.n, c.open, c.close))}})
		want := fmt.Sprintf("d.sql:1:%d: too deeply nested: more than 200 levels of parentheses and CASE expressions [syntax]", c.col)
		if diags.Error() != want {
			t.Errorf("%d levels of %q: %v, want %s", c.n, c.open, diags, want)
		}
	}
}
