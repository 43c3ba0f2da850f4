// Package etl is the command line of a generated pipeline executable (run,
// plan, history, read, vacuum, version, help) and the contract between generated code
// and the runtime: a generated main builds a Pipeline value, with one Run
// function per flow, and calls Main.
//
// Everything generic lives here; generated code holds only the typed loops of
// its flows.
//
// What it owns:
//   - the command surface of ./etl (cli.go): flags before or after positional
//     arguments, exit status 0 (success), 1 (the pipeline failed: an
//     expectation, bad data, a held lock) and 2 (usage); the selection flags
//     (select.go);
//   - reconciliation (plan.go): a fingerprint per dataset (its definition, the
//     versions of the datasets it reads, the files of the sources it reads,
//     the runtime version), recorded in the commit that built it, and the
//     fresh / stale decision with its reason, shared by `plan` and `run`;
//   - --allow-older-checkpoint (checkpoint.go; rt/run decides which commit a
//     run resumes from);
//   - the run itself (exec.go): flows in Pipeline.Datasets order, reads of
//     sources (stream reads see only the files not consumed before: source
//     offsets in the commit), of stored datasets and of temporary views
//     (computed in memory, never stored), writes of new versions (replace for
//     materialized views, append for streaming tables), sinks (files renamed
//     into place after the commit, or JSON lines on stdout), expectations;
//     with more than one thread a flow's output is written on a goroutine of
//     its own; a flow reads sources through FlowContext.ReadColumns and
//     ReadPruned (only the columns it loads; row groups its filter
//     excludes skipped; decoded into buffers reused once the flow released
//     its batches: format.Options.Reuse); with more than one thread each input is decoded on
//     a goroutine of its own, and the stages are joined by bounded edges
//     (rt/stream.Edge; Input.Bounds, DefaultEdgeBounds, --edge-rows,
//     --edge-bytes) whose occupancy goes into flow_progress / flow_end
//     events and `history --json`: a slow sink slows its sources;
//   - `run --follow` (follow.go): epochs, each one --once run (one commit,
//     one event file), whenever a poll finds a selected dataset stale over
//     the flows that are due (Flow.Trigger), or a stateful flow's idle
//     timeout passed (Flow.IdleTimeout); nothing new, nothing committed; the
//     first SIGINT/SIGTERM stops after the epoch in flight commits, a second
//     abandons it; an Arrow IPC stream on stdin is read as it arrives and
//     its batches become epochs (at-most-once: it cannot be replayed);
//   - the checkpoint interval and retention (epochs.go): --max-files-per-epoch
//     bounds each stream read of a source to N new files per epoch (name
//     order), a --once run then runs the --follow loop's epochs until
//     nothing is stale, and --follow starts the next epoch at once while
//     files wait; --keep-checkpoints N vacuums (vacuum.go) after each commit;
//   - parallel pipelines (parallel.go): FlowContext.Parallel hands a
//     reader's batches to Workers() goroutines, each running the generated
//     loop with its own state, numbered in the reader's order;
//   - --memory-limit (memory.go): generated hash joins and aggregates account
//     what they keep through FlowContext.Grow, and a flow past the limit
//     stops with a MemoryLimitError naming the operator (no spilling yet);
//   - change flows (cdc.go): a streaming table fed by change flows gets a
//     new version per run computed by rt/cdc from its committed change state
//     and the run's new change rows; the new state joins the same commit;
//   - stateful streaming flows (stream.go): FlowContext.LoadState and
//     SaveState carry a flow's operator state from commit to commit (staged
//     under _thund/checkpoints/, refused when its shape changed), Late
//     counts late rows, EmitLate writes a flow's late table; output mode
//     complete replaces the target every run (Flow.Complete);
//   - incremental materialized views (Dataset.Incremental): read only the
//     input new since their last version (like stream reads), append, and
//     recompute in full, with the reason, when an input was rewritten, the
//     definition changed or a full refresh was asked for;
//   - progress on stderr (progress.go): a live display on a terminal, plain
//     lines otherwise;
//   - history and read (inspect.go), vacuum (vacuum.go);
//   - opening the warehouse's store (storage.go): a folder or
//     s3://BUCKET/PREFIX (through Pipeline.OpenS3, which is s3store.Open,
//     configured from THUND_S3_* and the AWS SDK's standard settings, in a
//     program built with S3 support, and nil otherwise: then such a
//     warehouse is refused with a usage error naming thundc build --s3: a
//     program built with --s3=false),
//     with advice added to storage errors a user can fix.
//
// Views (Kind View) are computed like temporary views: in memory, during the
// run, when a dataset that reads them is built.
//
// It must not: import anything of the compiler (only rt/..., the standard
// library and the module's pinned dependencies), write to the warehouse other
// than through rt/run and rt/warehouse, or hold per-pipeline logic (generated
// code does).
package etl
