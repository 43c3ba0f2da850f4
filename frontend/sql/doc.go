// Package sql turns Spark Declarative Pipelines (SDP) SQL files, plus the
// Lakeflow forms Databricks adds to them, into the same ir.Pipeline the
// .thund DSL gives for the same pipeline. docs/sql.md is the language it
// accepts, every form it refuses, and how each form maps to the IR.
//
// It owns:
//   - the participle grammar of pipeline SQL (grammar.go) and the
//     split of a file into statements on the semicolons outside quotes and
//     comments, as Spark's splitSemiColonWithIndex does (lexer.go);
//   - the conversion of each statement to IR (stmt.go, query.go, expr.go):
//     datasets and their flows, CREATE FLOW and AUTO CDC / APPLY CHANGES
//     flows, names qualified by the file's USE state, Conf from its SET
//     state;
//   - file and Kafka reads (files.go): a temporary view that only reads
//     files (or read_kafka) is a source, any other read_files(...),
//     read_kafka(...) or format.`path` read a synthesized source; and the
//     files' compile-time schema inference (infer.go);
//   - the Thund knobs that TBLPROPERTIES carry (knobs.go, table below);
//   - the refusals of Spark forms it does not take, each by name
//     (unsupported.go).
//
// Entry points: Parse(files) parses the SQL files of one pipeline;
// ParseWith adds the graph defaults (catalog, database) and the
// thund.source.<name> bindings of a spark-pipeline.yml (frontend/spec).
// Every statement is parsed and converted on its own, so that each reports
// its own errors (file:line:col: message [code]); on any error the pipeline
// is nil.
//
// It must not: type-check, resolve columns or validate the graph (that is
// ir.Validate and the passes); it reports only what the text itself gets
// wrong, and never ignores a Spark construct it does not take. It imports
// nothing of this module but ir.
//
// # Thund knobs
//
// SDP SQL has no syntax for Thund's streaming knobs; TBLPROPERTIES carry
// them, and an unknown thund.* key is an error naming the known ones. They
// are removed from Dataset.Properties (other properties stay). Durations are
// written '10 seconds', 'INTERVAL 1 minute' or '1m30s'. TestKnobKeys checks
// that this table names every key.
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
//	thund.dedupWithinWatermark  k1, k2, ... | *                            Distinct{Keys, WithinWatermark} (5)
//
// (1) of a source view's watermark, or of every WATERMARK clause in the
// flows into the dataset; an error when there is none. (2) of every flow
// into the dataset (its own and CREATE FLOW ones); an error when no flow
// writes it. (3) of the dataset's one flow; an error when several write it.
// (4) of every read in the flows into the dataset. (5) dedup within the
// watermark: the query of every flow into the dataset is wrapped in a
// Distinct with WithinWatermark over those columns (* for all of them),
// Spark's dropDuplicatesWithinWatermark; .thund spells it
// distinct on (k1, k2) within watermark.
package sql
