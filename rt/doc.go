// Package rt is the runtime library that every program built by thundc links.
// The compiler embeds this tree as source and compiles it into each generated
// pipeline program; generated code calls it for everything that is not
// specific to one pipeline.
//
// The tree:
//
//   - rt/store: the object-store-shaped interface the warehouse lives on
//     (whole-object reads and atomic writes, create-if-absent, compare-and-swap),
//     a local-disk implementation and a fault-injecting wrapper for tests.
//   - rt/format: readers (Parquet, CSV, JSON lines, Arrow IPC, with globs) that
//     produce record batches of a declared Arrow schema, and writers for the
//     same formats, including the CSV text contract of `read`.
//   - rt/warehouse: the warehouse layout, versioned datasets, hive-style
//     partitions, the one-atomic-commit-record protocol and the run lock.
//   - rt/events: the event log (Lakeflow record shape), one file per run.
//   - rt/cdc: the change-feed apply engine (SCD 1 and 2) that change flows
//     feed; its change log is committed as a state snapshot.
//   - rt/run: the per-run context that generated main functions use:
//     Begin / Commit / Fail over warehouse, lock, event log, expectation
//     counters and the run summary.
//   - rt/hashtab: the open-addressing hash tables (integer and string keys)
//     of generated group-by and hash-join code.
//   - rt/kernel: the generic machinery of generated operator loops: output
//     growth, row slices, stable sort and top-k, hash-join chains.
//   - rt/stream: the streaming runtime: watched-folder source, watermarks,
//     window and interval-join state, bounded edges and micro-batch triggers
//     (not yet called by generated code).
//
// rt must import nothing of the compiler (frontend, ir, passes, codegen,
// cmd): it is shipped into every generated program with one leaf package
// from outside rt/, internal/glob (the source globs it shares with the
// compiler's schema inference). Besides that one, it may import the
// standard library and the module's pinned third-party dependencies
// (arrow-go) only; TestRuntimeImports checks it.
package rt
