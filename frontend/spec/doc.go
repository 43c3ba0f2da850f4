// Package spec reads a Spark Declarative Pipelines project: a
// spark-pipeline.yml (or .yaml) spec and the SQL files its libraries name,
// laid out as `spark-pipelines init` lays one out:
//
//	NAME/spark-pipeline.yml
//	NAME/transformations/*.sql
//
// It owns the spec's schema and Spark's rules for it (as the reference
// CLI, python/pyspark/pipelines/cli.py, applies them), the expansion of the
// library globs, and the assembly of one ir.Pipeline from the project: it
// parses the SQL files with frontend/sql and must not parse SQL itself.
//
// # The spec
//
//	name: clicks                     # required
//	storage: file:///var/sdp/clicks  # required (Spark 4.1 refuses a run without it)
//	catalog: main                    # optional: the graph's default catalog
//	database: analytics              # optional; schema is an alias (database wins)
//	configuration:                   # optional: string keys to string values
//	  spark.sql.shuffle.partitions: "8"
//	  thund.source.landing.events: "STREAM read_files('data/events/', format => 'json')"
//	libraries:
//	  - glob:
//	      include: transformations/**
//
// Any other top-level field is an error (Spark's
// PIPELINE_SPEC_UNEXPECTED_FIELD), as is a missing name or storage
// (PIPELINE_SPEC_MISSING_REQUIRED_FIELD), a configuration that is not a map
// (PIPELINE_SPEC_FIELD_NOT_DICT) or that holds a value that is not a string
// (PIPELINE_SPEC_DICT_VALUE_NOT_STRING: quote numbers). A library entry is
// glob: {include: PATTERN}; other keys are errors here (Spark ignores them).
//
// Configuration entries become Pipeline.Conf, in file order, except the
// thund.source.<name> entries: their value, the text of a read_files(...)
// call (optionally STREAM read_files(...) and a WATERMARK clause), binds the
// external table <name> that the SQL reads to a source (see frontend/sql).
// Any other thund.* key is an error. Relative read_files paths, in the SQL
// files and in these entries, are the pipeline's: they are read from the
// spec's folder (where the pipeline runs) to infer a schema.
//
// # Library globs
//
// As in Spark, a pattern is either a plain path without wildcards (*, ?, [),
// which names one file, or a folder followed by /**, which names every file
// under it, recursively, hidden files included; anything else (such as
// transformations/**/*.sql) is an error (PIPELINE_SPEC_INVALID_GLOB_PATTERN).
// Patterns are relative to the spec's folder. Files under a __pycache__
// folder are skipped. Each pattern's files are taken in lexical order, and a
// file two patterns name is read once. A .sql file is parsed; a .py file is
// an error naming it (Python definitions are not supported: the pipeline
// must be written in SQL); any other extension is an error
// (PIPELINE_UNSUPPORTED_DEFINITIONS_FILE_EXTENSION). A plain path that names
// no file is a warning (Spark matches nothing and says nothing).
//
// # Finding the spec
//
// Load takes the spec file itself, or a folder that holds exactly one of
// spark-pipeline.yml and spark-pipeline.yaml (both is Spark's
// MULTIPLE_PIPELINE_SPEC_FILES_FOUND, neither PIPELINE_SPEC_FILE_NOT_FOUND).
// Unlike the Spark CLI it does not search the folder's ancestors: the thundc
// PATH names the project.
//
// Errors are ir.Diagnostics positioned in the spec (file:line:col) or at the
// file they concern; Spark's error class is named in the message.
package spec
