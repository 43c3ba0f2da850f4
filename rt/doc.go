// Package rt is the runtime library that every program built by thundc links.
// The compiler embeds this tree as source (thund.Runtime) and compiles it
// into each generated pipeline program; generated code calls it for
// everything that is not specific to one pipeline.
//
// The tree:
//
//   - rt/etl: the executable's command line (run, plan, history, read,
//     vacuum), reconciliation, and the contract with generated code: the
//     Pipeline value a program describes itself with, and FlowContext
//     (flowcontext.go), what each generated flow calls.
//   - rt/run: one run: Begin / Commit / Fail over the warehouse transaction,
//     the lock, the event log, expectation counters and the summary.
//   - rt/warehouse: the warehouse layout, versioned datasets, hive-style
//     partitions, the one-atomic-commit-record protocol, state snapshots,
//     the run lock and retention.
//   - rt/store: the object-store-shaped interface the warehouse lives on, a
//     local-disk implementation and a fault-injecting wrapper for tests;
//     rt/store/s3store, the S3 implementation, linked only by programs built
//     with S3 support.
//   - rt/events: the event log (Lakeflow record shape), one file per run.
//   - rt/format: readers (Parquet, CSV, JSON lines, Arrow IPC, with globs)
//     that produce batches of a declared Arrow schema, and writers for the
//     same formats; rt/format/pqfast, its own decoder of flat Parquet
//     columns.
//   - rt/sqlfn: Spark 4 ANSI scalar semantics as typed functions that
//     generated row loops call.
//   - rt/nested: nested values (ARRAY, MAP, STRUCT) in generated row loops:
//     their Go form, read from and appended to Arrow columns, and the
//     operations on them (fields, subscripts, size, element_at, ...).
//   - rt/hashtab: the hash tables of generated group-by and hash-join code.
//   - rt/cdc: the change-feed apply engine (SCD 1 and 2) that change flows
//     feed; its change log is committed as a state snapshot.
//   - rt/kernel: the generic machinery of generated operator loops: output
//     growth, row slices, stable sort and top-k, hash-join chains.
//   - rt/window: the frame machinery of generated window operators:
//     partitions and peer groups of sorted rows, ranking, lag/lead, value
//     functions and aggregates over ROWS and RANGE frames, partitions
//     walked in parallel.
//   - rt/stream: the streaming runtime. Generated stateful streaming flows
//     call its watermark Tracker, window State and IntervalJoin once per
//     micro-batch; rt/etl uses its bounded Edge, its Clock and its rule for
//     half-written files (Ignored). Its Folder and Scheduler are exercised by
//     tests (internal/nexmark), not by generated programs, whose stream reads
//     go through rt/etl.
//   - rt/pqstate: operator state snapshots encoded as Parquet files.
//   - rt/kafka: the Kafka client (franz-go) behind rt/etl's
//     KafkaConnector, linked only by programs that read or write Kafka.
//
// rt must import nothing of the compiler (frontend, ir, passes, codegen,
// cmd): it is shipped into every generated program with one leaf package
// from outside rt/, internal/glob (the source globs it shares with the
// compiler's schema inference). Besides that one, it may import the
// standard library and the module's pinned third-party dependencies
// (arrow-go) only; TestRuntimeImports checks it.
package rt
