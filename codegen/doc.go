// Package codegen writes one Go program per pipeline with jennifer: a
// monomorphized function per flow, typed to the concrete Arrow column types,
// and a main that hands the pipeline (datasets, schemas, sources, flows,
// expectations) to rt/etl.Main.
//
// Generate is a pure function of the planned unit (*passes.Unit after every
// pass, the plan pass last): it prints the plan (passes.FlowPlan) and
// returns the program's files; it never touches the disk or runs the go
// command (cmd/thundc and internal/gobuild do).
//
// A flow's query is compiled produce/consume (HyPer-style): each fused chain
// of stateless operators becomes one loop over the Arrow batches of its
// input, with row values in typed Go locals (a value and a validity per
// column, loaded only when read); pipeline breakers (hash aggregation, hash
// join build, sort) end a loop and start another. Expressions compile to Go
// with Spark 4 ANSI semantics through rt/sqlfn. It decides nothing the plan
// does not hold and refuses nothing: the plan pass refuses what the native
// backend cannot run, and a construct it accepted that codegen cannot
// print is an internal error (unplanned).
//
// The files:
//
//   - generate.go: Generate, rendering and formatting errors;
//   - pipeline.go: main.go and pipeline.go (genMain, genPipeline, genDataset);
//   - flow.go: one flow's function (genFlow), its output and expectations;
//   - cdc.go: change flows (apply changes): the projection into change rows
//     and the flow's cdc.Spec; the apply itself is rt/cdc's;
//   - stream.go, streamjoin.go, streamgroups.go, streamdedup.go: stateful
//     streaming flows (windowed and unwindowed aggregates, interval joins of
//     two streams, dedup within the watermark) over rt/stream, their
//     watermark tracking, late rows and the state committed per epoch;
//   - materialize.go: a view declared materialize incremental, marked as
//     the plan says (etl.Dataset.Incremental / NotIncremental);
//   - rel.go, agg.go, join.go, sort.go, subquery.go: the operators. Two
//     specializations of hash aggregation, where the plan asks for them:
//     over a scan's rows, the row loop only finds each row's group and a
//     second loop per batch updates the accumulators (deferAccum: the
//     lookups' and the states' cache misses overlap); over a join whose
//     group keys are all columns of the build row, each build row's group
//     is found once per worker (memoGroup). A
//     hash join's table marks the keys with more than one build row
//     (kernel.ChainMore), so that probing a unique key never reads the chain;
//   - parallel.go: pipelines on fc.Threads workers (fc.Parallel): a scan's
//     batches handed to workers that run the fused loop with their own
//     output builders, partial aggregate tables (merged after) or top-N
//     rows; where that would change results, one goroutine (it says where);
//   - layout.go: the field order of generated structs (flags packed last);
//   - expr.go, arith.go, cast.go, funcs.go: expressions;
//   - values.go, keys.go, konst.go: the compile-time model of values;
//   - memory.go: the --memory-limit accounting of every operator that keeps
//     rows (join builds, groups, distinct, order by, top-N, stream state);
//   - keys.go: hash keys, and their tables: rt/hashtab's open-addressing
//     tables for one integer, float or string field, Go maps otherwise;
//   - types.go: the physical type table that drives specialization;
//   - nested.go: ARRAY, MAP and STRUCT values, held as rt/nested values (a
//     Go any: nested.Array, *nested.Map, nested.Struct, nil for NULL), and
//     the expressions over them.
//
// Generated code is only what specialization buys: typed loops and the
// wiring. What does not depend on the pipeline's types is rt's, called by
// qualified name: SQL semantics in rt/sqlfn, the loop machinery (output
// growth, row slices, sort, join chains) in rt/kernel, the positioned
// runtime errors and the run in rt/etl.
//
// codegen must not import rt (generated code does; the compiler only embeds
// rt's source), and it must not change the IR or the passes' results.
package codegen
