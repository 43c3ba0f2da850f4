// Package passes runs the ordered compiler passes over an ir.Pipeline and
// records what they learn in a Unit:
//
//   - validate: ir.Validate (names, duplicates, dangling references, cycles);
//   - resolve: names, Arrow types and nullability of every column and
//     expression (Spark 4 ANSI typing), per-operator and per-dataset schemas;
//   - sanity: boundedness × emission per flow (what a streaming flow can emit
//     and when), and watermarks: a stream read's own, else its source's, else
//     the one a streaming table's flows carry through unchanged;
//   - capability: what the chosen target (native, spark-4.1, spark-4.2) runs,
//     refuses, drops or converts, recorded in a LoweringReport; and, for
//     every target, the options of sources and sinks (sourceopts.go: CSV
//     and JSON reader options, Kafka sources' and sinks' through
//     internal/kafkaopt, a Kafka sink's columns), so that check refuses what
//     the runtime would, and a source's quarantine table (quarantine.go);
//   - fuse: the stage plan codegen follows (fused chains of stateless
//     operators between stateful ones);
//   - plan: the native physical plan (Unit.Plan: column demand, scan
//     bounds, join keys, the stream plan, change-flow layout, store casts,
//     the parallel split and the operators' strategies), and every refusal
//     of the native backend, so that check gives build's verdict.
//
// The pass list is one ordered table (passes) with its ordering constraints
// beside it as data (passOrder); one driver, Run, runs it, stops after a named
// pass or at the first pass that reports errors, optionally verifies
// invariants after every pass, and names the pass in any panic.
//
// passes reads the IR and never changes it: every result lives in the Unit,
// keyed by IR node. It must not import a backend (codegen, sparkemit) or a
// frontend, and it does no I/O.
package passes
