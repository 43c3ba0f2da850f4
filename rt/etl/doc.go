// Package etl is the command line of a generated pipeline executable (run,
// plan, history, read, vacuum, version, help) and the contract between
// generated code and the runtime: a generated main builds a Pipeline value
// (spec.go), with one Run function per flow, and calls Main; each Run
// function gets a FlowContext (flowcontext.go, the contract file).
//
// Everything generic lives here; generated code holds only the typed loops
// of its flows. The user-level account of the commands and flags is
// docs/cli.md; of runs, commits and recovery, docs/warehouse.md.
//
// It owns, by file:
//   - the command surface (cli.go, select.go): flags before or after
//     positional arguments, exit status 0, 1 (the pipeline failed) or 2
//     (usage), the selection flags;
//   - reconciliation (plan.go): each dataset's fingerprint and the fresh /
//     stale decision with its reason, shared by `plan` and `run`;
//   - `run` (runcmd.go), the sources' check before any flow (preflight.go),
//     per-dataset failure isolation and --all-or-nothing (isolate.go), one
//     epoch's work (exec.go), a flow's reads
//     (reads.go: only what a stream read has not consumed, decoded ahead of
//     the flow through bounded edges) and writes (targets.go, sinks.go; the
//     Kafka sink's exactly-once protocol in kafka_sink.go, its client in
//     rt/kafka behind Pipeline.Kafka);
//   - `run --follow` (follow.go), the checkpoint interval and retention
//     (epochs.go, vacuum.go), --allow-older-checkpoint (checkpoint.go);
//   - what FlowContext's methods stand on: parallel loops, --memory-limit
//     accounting (memory.go), change flows (cdc.go), the state of stateful
//     streaming flows and late tables (stream.go);
//   - quarantine tables (quarantine.go): the malformed records of a
//     source's reads, each once, appended in the run's commit;
//   - Kafka sources (kafka_source.go): per run, the partitions listed and
//     the offset ranges each read takes (from the flow's offset in the
//     commit record to the listed ends, maxOffsetsPerTrigger, data loss),
//     read through Pipeline.Kafka (rt/kafka), which the planner also asks;
//   - Iceberg sources (iceberg_source.go): per run, the table opened and a
//     snapshot read's files planned; a stream read's incremental append
//     scan from the flow's snapshot in the commit record (rt/iceberg), the
//     non-append modes, and their events and summary lines;
//   - progress on stderr (progress.go), history and read (inspect.go), and
//     opening the warehouse's store (storage.go): a folder, or
//     s3://BUCKET/PREFIX through Pipeline.OpenS3 in a program built with S3.
//
// It must not: import anything of the compiler (only rt/..., the standard
// library and the module's pinned dependencies), write to the warehouse other
// than through rt/run and rt/warehouse, or hold per-pipeline logic (generated
// code does).
package etl
