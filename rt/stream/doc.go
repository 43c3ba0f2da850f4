// Package stream is the streaming runtime that generated streaming flows
// call: the watched-folder source, watermark tracking, window state with
// incremental accumulators and the three output modes, interval-join state,
// bounded edges between concurrently running flows, and the micro-batch
// scheduler. Event-time semantics are DESIGN.md's "Watermark and lateness",
// implemented exactly as written there; docs/streaming.md is the user-level
// account.
//
// It owns:
//   - Folder: an unbounded file source over a store.FS (below).
//   - Watermark and Tracker: one stream read's watermark, and a flow's
//     (the minimum over its inputs, with an idle timeout).
//   - Spec, State, the accumulators (Count, SumInt64, SumFloat64, Min, Max,
//     Avg): tumbling, hopping and session windows per key, emitting in
//     append, update or complete mode, classifying late rows; Snapshot and
//     Restore for checkpoints.
//   - IntervalJoin: the state of a two-stream join with a time bound.
//   - Edge: a queue bounded by rows and bytes, with occupancy counters.
//   - Scheduler, Trigger, Clock, ManualClock: processing-time, available-now
//     and once triggers over an injectable clock.
//
// It must not: know the warehouse layout, the event log's format or the
// commit protocol (rt/warehouse, rt/events, rt/run own those; this package
// hands them plain values: FolderOffset, TrackerState, Stats, EdgeStats),
// parse files (rt/format), or import anything of the compiler.
//
// # Time
//
// Event times, delays, window sizes and lateness are int64 counts of the
// event-time column's unit (an Arrow timestamp's unit; generated code
// converts declared durations once). Arithmetic saturates at the int64
// range. Processing time (triggers, idle timeouts, polling) is time.Time
// from a Clock; tests inject a ManualClock.
//
// # The watched folder and half-written files
//
// A Folder lists its folder (every file below it, subfolders included) on
// each Poll and yields the files it has not yielded before, in name order.
// The rule that keeps half-written files out:
//
//   - Writers publish a file whole: write it under a temporary name and
//     rename it into place (rt/store's Writer.Commit does exactly this, with
//     a hidden dot-name). Renames are atomic, so a listed name is complete.
//   - Files are ignored when any segment of their name below the folder
//     starts with "." or "_" (temporary files, _SUCCESS markers, _temporary
//     folders of Spark and Hadoop writers), or when the name ends in ".tmp"
//     or ".crc".
//   - For writers that cannot rename, FolderOptions.Settle also defers a
//     file until two consecutive listings show the same size and
//     modification time. This is a heuristic (a writer that pauses longer
//     than a poll interval defeats it); write-then-rename is the rule.
//
// Each file is yielded exactly once: a FolderOffset, the set of names
// consumed, is what a checkpoint stores with the epoch that read them, and a
// Folder made from it never yields them again. A file landing with a name
// below one already consumed is still read (once), in the next Poll; name
// order holds within a Poll. A failed listing consumes nothing.
//
// # Lateness
//
// A stream read's watermark is the greatest event time seen in earlier
// micro-batches minus the read's delay, never decreasing; a flow's is the
// minimum over its stream inputs, except that an input idle for longer than
// the idle timeout stops holding it back (all idle: the maximum), and the
// flow's watermark never decreases either. Within a micro-batch the
// watermark is fixed: rows are judged by the watermark of earlier
// micro-batches, and at the end of the micro-batch it advances and closes
// windows in that same micro-batch's commit.
//
// A window [start, end) closes when WM >= end + allowed lateness: its final
// row is emitted and its state evicted. A row is late when its window has
// closed. For hopping windows each window a row falls into is judged on its
// own (the row is dropped from the closed ones and counted in the open ones;
// Stats.PartlyLateRows counts such rows; the row is late, and goes to the
// late table, when all its windows have closed). A session row's window is
// [t, t+gap) merged with the key's open sessions it overlaps; it is late when
// [t, t+gap) has closed, or when it overlaps a session already closed
// (accepting it would change an emitted row; closed sessions are remembered
// until WM >= end + gap + allowed lateness, after which no on-time row can
// reach them). The row's own window decides, not the session it would merge
// into: judged by the merged session, rows chaining backwards from a
// long-open session could reach any session emitted before, so every emitted
// session would have to be kept forever. For other stateful operators (IntervalJoin) a row is late
// when its event time < WM - allowed lateness.
//
// # Codegen integration (codegen/stream.go, streamjoin.go)
//
// A streaming flow becomes, per micro-batch epoch, a BatchFunc run by a
// Scheduler built from the flow's trigger (Once for `--once`, ProcessingTime
// for `trigger every`, AvailableNow for bounded replay). The generated code
// specialises only the typed parts: the group-key struct K, the accumulator
// struct A (one field per aggregate, built from Count, SumInt64, Min[T], ...),
// the loop over Arrow columns, and the output builders. Per flow, created
// once (and restored from the last checkpoint):
//
//	folder, _ := stream.NewFolder(fsys, stream.FolderOptions{Dir: "bids", Pattern: "*.parquet"}, offset)
//	tracker := stream.NewTracker(clock, idleTimeout, delayBids)    // one delay per stream input
//	state, _ := stream.NewState[key, acc](spec, stream.Append, mergeAcc)
//
// Per micro-batch (the BatchFunc):
//
//  1. files, _ := folder.Poll(ctx) for each stream input; open each with
//     format.Open (the batch is the files of this poll).
//  2. For each row of each batch, in the generated loop:
//     tracker.Observe(input, t) (or ObserveMax once per Arrow batch);
//     evaluate the fused stateless chain; then
//     accs, _, err := state.Assign(key{...}, t) and, for each a in accs,
//     update its fields (a.bids.Add(); err = a.spent.Add(price); ...).
//     len(accs) == 0 means the row is late: append it to the late table's
//     builder if the flow declares one.
//     For an interval join: join.AddLeft / AddRight(key, t, row, emit).
//  3. em := state.Advance(tracker.Advance()); join.Advance(same watermark).
//  4. Write em.Final (append: window_start, window_end, key and results),
//     em.Changes (update: upserts and deletes keyed by key and window) or
//     em.Complete (complete) through the target's writer.
//  5. Record Stats().LateRows in the flow's counters (the event log's
//     late_rows_dropped and the run summary), Edge.Stats() of the flow's
//     edges, then commit the epoch with folder.Offset(), tracker.State()
//     and state.Snapshot() in the commit record.
//
// For a bounded input replayed to its end (available-now over a finished
// folder, or a batch run), state.Flush() closes every window.
//
// Checkpoints: FolderOffset, TrackerState, State.Snapshot and
// IntervalJoin.Snapshot are plain values to store with the epoch's commit;
// NewFolder(from), Tracker.Restore, State.Restore and IntervalJoin.Restore
// resume from them (the property tests restart from snapshots at random
// micro-batch boundaries).
//
// The generated code follows this sequence with one stateful operator per
// flow, one micro-batch per run (rt/etl: FlowContext.LoadState, SaveState,
// Late, EmitLate); it reads new input through rt/etl's stream reads rather
// than a Folder of its own.
package stream
