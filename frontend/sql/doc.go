// Package sql turns Spark Declarative Pipelines (SDP) SQL files, plus the
// Lakeflow forms Databricks adds to them, into the same ir.Pipeline the
// .thund DSL gives for the same pipeline. It owns the participle grammar of
// pipeline SQL (grammar.go), the conversion to IR, and compile-time schema
// inference for read_files(...). It must not type-check, resolve columns or
// validate the graph: that is ir.Validate and the passes; it reports only
// what the text itself gets wrong, and names every Spark construct it
// refuses.
//
// # Entry points
//
// Parse(files) parses the SQL files of one pipeline; ParseWith adds the
// graph defaults (catalog, database) and the thund.source.<name> bindings of
// a spark-pipeline.yml (frontend/spec). Each file is split on the
// semicolons outside quotes and comments, as Spark's
// splitSemiColonWithIndex does, and every statement is parsed and converted
// on its own, so that each statement's errors are reported
// (file:line:col: message [code]). On any error the pipeline is nil.
//
// # Statements accepted
//
//	CREATE [OR REFRESH] MATERIALIZED VIEW [IF NOT EXISTS] name [(elements)] clauses AS query
//	CREATE [OR REFRESH] STREAMING TABLE [IF NOT EXISTS] name [(elements)] clauses [AS query]
//	CREATE [OR REFRESH] STREAMING TABLE name ... FLOW AUTO CDC FROM source KEYS ... (as below)
//	CREATE [OR REPLACE] TEMPORARY VIEW name [(columns)] [COMMENT ...] [TBLPROPERTIES ...] AS query
//	CREATE [OR REPLACE] VIEW name [(columns)] clauses AS query            (a persisted view)
//	CREATE FLOW name [COMMENT '...'] AS INSERT INTO target [BY NAME] query
//	CREATE FLOW name [COMMENT '...'] AS AUTO CDC INTO target cdc-body     (APPLY CHANGES too)
//	APPLY CHANGES INTO target cdc-body | AUTO CDC INTO target cdc-body    (the target's own flow)
//	SET key = value | SET CATALOG c | SET TIME ZONE 'zone'
//	USE CATALOG c | USE [SCHEMA | DATABASE | NAMESPACE] [c.]schema
//
// elements are column definitions, name TYPE [NOT NULL] [COMMENT '...'], and
// expectations, CONSTRAINT name EXPECT (cond) [ON VIOLATION DROP ROW | FAIL
// UPDATE] (ir.Expectation warn, drop, fail). clauses are COMMENT '...',
// PARTITIONED BY (col, ...) or CLUSTER BY (col, ...), USING format,
// TBLPROPERTIES (...), each once.
// cdc-body is FROM [STREAM] source KEYS (...) [IGNORE NULL UPDATES] [APPLY
// AS DELETE WHEN cond] SEQUENCE BY expr [COLUMNS a, b | COLUMNS * EXCEPT
// (c)] [STORED AS SCD TYPE 1 | 2] [TRACK HISTORY ON a, b | * EXCEPT (c)]
// (ir.CDC; SCD type 1 when not stored as).
//
// Queries: WITH (inlined as aliased subqueries), SELECT [DISTINCT] items
// (expressions, *, q.*, * EXCEPT (...), AS aliases), FROM (tables,
// STREAM(t) and STREAM t, read_files(...), parquet.`path` and csv., json.,
// arrow., subqueries, range(end | start, end[, step]), the window TVFs
// TUMBLE / HOP / SESSION(TABLE t, DESCRIPTOR(ts), INTERVAL ...) with or
// without TABLE(...) around them, comma lists), WATERMARK col DELAY OF
// INTERVAL ... after a read, joins ([INNER], LEFT/RIGHT/FULL [OUTER], [LEFT]
// SEMI, [LEFT] ANTI, CROSS, ON or USING), WHERE, GROUP BY (expressions,
// ordinals, select aliases, ALL, and Spark's window(ts, size[, slide]) and
// session_window(ts, gap)), HAVING, UNION [ALL | DISTINCT], ORDER BY
// (ASC/DESC, NULLS FIRST/LAST, ordinals), LIMIT n | ALL, OFFSET with LIMIT,
// and TABLE t. Expressions: Spark's precedence (|| binds like + and -),
// CASE, CAST / TRY_CAST / ::, scalar subqueries, [NOT] IN (list | query),
// [NOT] BETWEEN, [NOT] LIKE, ILIKE (as LIKE of lower()), RLIKE / REGEXP (as
// rlike() / regexp(), on the Spark targets only: the native target refuses
// them), IS [NOT] NULL / TRUE / FALSE / UNKNOWN / DISTINCT FROM (as <=>),
// EXTRACT(YEAR | MONTH | DAY | HOUR | MINUTE FROM x) (as year(x), ...),
// first/last(x) IGNORE NULLS (as first(x, true)), count(*), count(DISTINCT
// x), back-quoted names.
//
// # Refused, by name
//
// Statements: CREATE FUNCTION, CREATE TABLE, CREATE GLOBAL TEMPORARY VIEW,
// CREATE LIVE TABLE, CREATE SINK and other CREATEs, MERGE, INSERT outside a
// flow, a bare query, ALTER, DROP, DELETE, UPDATE and every other statement.
// Clauses and forms: window functions (OVER), LATERAL VIEW and LATERAL joins,
// the WINDOW clause, QUALIFY, PIVOT / UNPIVOT, TABLESAMPLE, CLUSTER /
// DISTRIBUTE / SORT BY, INTERSECT, EXCEPT, MINUS, NATURAL JOIN, GROUPING SETS,
// ROLLUP, CUBE, aggregate FILTER, WITHIN GROUP, LIKE ANY/ALL, ESCAPE, EXISTS,
// DIV, POSITION(a IN b), EXTRACT of SECOND and of the other fields, the
// niladic functions (current_date, ...), WITH RECURSIVE, column aliases on
// a relation or a WITH query, row constructors, subscripts, lambdas,
// semi-structured paths, parameter markers, bitwise operators, qualified
// (user-defined) function names,
// LOCATION, OPTIONS, CLUSTERED BY, STORED AS (a Hive format), ROW FORMAT,
// column DEFAULT / GENERATED / MASK, CHECK / PRIMARY KEY / FOREIGN KEY /
// UNIQUE constraints, INSERT OVERWRITE, a PARTITION spec or a column list on a
// flow target, APPLY AS TRUNCATE WHEN, IGNORE NULL UPDATES ON (...), SYSTEM
// SEQUENCE BY, STORED AS BITEMPORAL, COLUMNS TO UPDATE, nested types (ARRAY,
// MAP, STRUCT), INTERVAL, VARIANT and TIME types, binary and TIME literals,
// year-month intervals, and partition transforms.
//
// # Names
//
// A dataset, flow or table name may be any word but Spark's
// strict-non-reserved keywords (the joins and set operators), as in Spark
// with spark.sql.ansi.enforceReservedKeywords off, its default: CREATE
// STREAMING TABLE table is a table named table. Column names and aliases
// are stricter: a word the grammar reserves (SELECT, FROM, TABLE, ...) needs
// back-quotes there.
//
// # Datasets and flows
//
// A MATERIALIZED VIEW, STREAMING TABLE AS, [TEMPORARY] VIEW gives a dataset
// and its own flow (named like it). A flow's query is Spark's plan shape in
// ir.Rel terms. Dataset.Catalog and Database come from the name's
// qualification and the file's USE state (temporary views stay unqualified,
// as in Spark); a value equal to the pipeline default is "". USE CATALOG
// clears the schema, as in Spark. Dataset.Conf is the file's SET state where
// the dataset is declared (the delta over Pipeline.Conf, which the spec's
// configuration fills); a CREATE FLOW or APPLY CHANGES flow carries it in
// Flow.Conf. CREATE FLOW ... INSERT INTO flows have ByName set whether or
// not BY NAME is written: SDP refuses positional INSERT INTO flows.
//
// Reads: a name the pipeline defines (possibly qualified with its schema, or
// catalog and schema) reads that dataset under its plain name; any other
// name stays as written, an external table, except that an unqualified name
// read under a USE SCHEMA is qualified with that schema, as Spark qualifies
// it. thund.source.<name> bindings of the spec turn reads of <name> into
// reads of a source named after the name's last part, unbounded when the
// binding says STREAM read_files(...) or any read is a stream read.
//
// # File sources
//
// CREATE TEMPORARY VIEW v [(col TYPE, ...)] AS SELECT * FROM [STREAM]
// read_files(...) [WATERMARK ...] (or parquet.`path`, csv.`...`, json.`...`,
// arrow.`...`) is the source v, the same IR as the DSL's source v: Columns
// from the column list, the schema => option or inference; SourceSpec with
// the path as written, the format (format => option, or the path's
// extension: .parquet, .csv, .json / .jsonl / .ndjson, .arrow / .ipc /
// .feather / .arrows), Unbounded for a STREAM read, and the other options as
// reader options (format, schema and inferColumnTypes / inferSchema are
// consumed); the WATERMARK clause is the source's watermark. A file read
// anywhere else is a synthesized source named <flow>_files_<n>: <flow> is
// the name of the flow whose query reads it (lower-cased, other characters
// than [a-z0-9_-] replaced by _), n counts that flow's file reads in source
// order from 1, and a name a declared dataset takes gets _2, _3, ...
// appended. It is declared just before the statement's dataset; its
// WATERMARK stays on the read (Scan.Watermark).
//
// Schema inference, at compile time, reads the first file (in name order)
// that the path names by the runtime's glob rules (internal/glob), relative
// to the SQL file's folder (or to Options.Root: a spec project reads from
// its spec's folder, where the pipeline runs): the file itself, a glob's
// matches ("**" is any number of folders), or the files under a folder,
// skipping names that start with '.' or '_' (as Spark does). Parquet and Arrow IPC (file or
// stream format) give their file schema: Arrow types map one to one
// (ir.FromArrow: dictionaries of strings or binaries to their values, large
// and view strings to string, as the runtime reads them); a
// non-nullable field is NOT NULL. CSV (header => true names the columns,
// else _c0, _c1, ...; sep / delimiter, nullValue) and JSON lines sample the
// first 1000 rows. A CSV column is, Spark's way, the narrowest of INT,
// BIGINT, DOUBLE, BOOLEAN, DATE (yyyy-mm-dd), TIMESTAMP that all its non-null
// values parse as: INT and BIGINT widen to BIGINT, either to DOUBLE, DATE to
// TIMESTAMP, anything else to STRING; a column with no value is STRING. A
// JSON field is BIGINT (integral numbers), DOUBLE, BOOLEAN or STRING (no date
// or timestamp inference, as Spark's default), BIGINT and DOUBLE widen to
// DOUBLE, other mixes to STRING, all-null to STRING; columns come in name
// order, as Spark's JSON inference sorts them; nested values are refused.
// inferColumnTypes => false makes every column STRING. Inferred columns are
// nullable.
//
// # Canonical shapes
//
// A SELECT maps to the operators FROM (left-deep joins; a comma list is a
// chain of cross joins; no FROM reads range(0, 1)) → WHERE (Filter) →
// window (ir.Window, from GROUP BY window(...)) → Aggregate → HAVING (Filter)
// → Project → DISTINCT → ORDER BY (Sort) → LIMIT. SELECT * alone is no
// Project at all (the DSL's bare "from t"). UNION chains of one kind are one
// Union; a parenthesised query in FROM without an alias is its query; with
// one, an ir.SubqueryRel (as are WITH queries, aliased range(...) and
// aliased window TVFs, which have no alias of their own).
//
// Aggregation: when the select list is the grouping keys, each once and in
// any order, followed by aggregate expressions (and HAVING and ORDER BY need
// no aggregate the list lacks), the result is one ir.Aggregate whose Keys are
// those select items (with their aliases, in select order) and whose Aggs
// are the rest, with no Project: the DSL's "| group by k aggregate count(*)
// as n". Otherwise Keys are the GROUP BY expressions in their order (each
// aliased as its select item is), Aggs the select list's aggregate items,
// plus any aggregate HAVING or ORDER BY alone uses, and a Project above (and
// above HAVING's Filter) computes the select list from the Aggregate's
// columns. A grouping key, or an aggregate, that something above the
// Aggregate must name and that has no alias is named as Spark names it
// (count(1), sum(v), (a + b)). Spark's window(ts, size) is a tumbling
// ir.Window, window(ts, size, slide) a hopping one, session_window(ts, gap) a
// session one, all before the Aggregate, and window.start / window.end (and
// session_window.start / .end; the bare window struct is both) are the
// window_start / window_end columns: a grouping by window(...) groups by the
// window columns the select list names (both when it names none). The Flink
// TVFs give the same ir.Window over their TABLE argument, which is read as
// written (TABLE STREAM(t) for a stream read).
//
// ORDER BY is over the select list's output (ordinals and expressions equal
// to a select item become references to it). A sort key that needs a column
// the select list drops sorts before the Project (aliases expanded), which
// DISTINCT forbids.
//
// # Types and literals
//
// BOOLEAN bool, TINYINT int8, SMALLINT int16, INT int32, BIGINT int64, FLOAT
// float32, DOUBLE float64, DECIMAL(p,s) decimal(p,s) (DECIMAL is
// decimal(10,0)), STRING / VARCHAR(n) / CHAR(n) string, BINARY binary, DATE
// date32, TIMESTAMP (and TIMESTAMP_LTZ) timestamp(us, "UTC"), TIMESTAMP_NTZ
// (and TIMESTAMP WITHOUT TIME ZONE) timestamp(us). Numbers follow Spark: 1
// int (bigint when it does not fit, decimal(p,0) beyond), 1.50 decimal as
// written, 1.5e0 and 1.5D double (ir float text, with an exponent), 1L, 1S,
// 1Y and 1.5F casts of an int or float literal, 1.5BD decimal. Strings take
// Spark's backslash escapes (\' is a quote), and adjacent strings
// concatenate, so a doubled quote inside a string is not a quote but two
// strings, as in Spark. INTERVAL 5 SECONDS, INTERVAL '5' SECOND, INTERVAL '1
// hour 30 minutes' and multi-unit intervals are durations (no months or
// years). TIMESTAMP '...' is read in UTC, a zone suffix converted.
//
// # Thund knobs
//
// SDP SQL has no syntax for Thund's streaming knobs; TBLPROPERTIES carry
// them, and an unknown thund.* key is an error naming the known ones. They
// are removed from Dataset.Properties (other properties stay). Durations are
// written '10 seconds', 'INTERVAL 1 minute' or '1m30s'.
//
//	key                     value                                          sets
//	thund.id                any text                                       Dataset.ID
//	thund.materialize       full | incremental                             Dataset.Materialize
//	thund.allowedLateness   a duration                                     Watermark.AllowedLateness (1)
//	thund.idleTimeout       a duration                                     Watermark.IdleTimeout (1)
//	thund.emit              on window close | on update                    Flow.Emit (2)
//	thund.trigger           available now | every DURATION | DURATION      Flow.Trigger (2)
//	thund.outputMode        append | update | complete                     Flow.OutputMode (2)
//	thund.lateTable         a dataset name                                 Flow.LateTable (3)
//	thund.boundRows         a row count                                    Scan.Bounds.Rows (4)
//	thund.boundBytes        bytes, with an optional KB, MB or GB suffix    Scan.Bounds.Bytes (4)
//
// (1) of a source view's watermark, or of every WATERMARK clause in the
// flows into the dataset; an error when there is none. (2) of every flow
// into the dataset (its own and CREATE FLOW ones); an error when no flow
// writes it. (3) of the dataset's one flow; an error when several write it.
// (4) of every read in the flows into the dataset.
//
// # Deviations from Spark, on purpose
//
// A bare column named like a niladic function (current_date,
// current_timestamp, current_user, session_user) is the function, refused;
// Spark prefers a column of that name when one exists. GROUP BY alias prefers the
// alias to an input column of the same name. window.start is named
// window_start (Spark names the column start). Spark's session time zone is
// taken to be UTC.
package sql
