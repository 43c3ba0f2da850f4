// Package stream is the streaming runtime that generated streaming flows
// call: watermark tracking, window state with incremental accumulators and
// the three output modes, interval-join state, bounded edges between
// concurrently running stages, the watched-folder source and the micro-batch
// scheduler. Event-time semantics are DESIGN.md's "Watermark and lateness",
// implemented exactly as written there; docs/streaming.md is their account
// (lateness per window kind and for joins, the watched folder's rules for
// half-written files, triggers, back-pressure).
//
// It owns:
//   - Folder: an unbounded file source over a store.FS, each file yielded
//     once, in name order; FolderOffset, what a checkpoint stores of it.
//   - Watermark and Tracker: one stream read's watermark, and a flow's
//     (the minimum over its inputs, with an idle timeout).
//   - Spec, State, the accumulators (Count, SumInt64, SumFloat64, Min, Max,
//     Avg): tumbling, hopping and session windows per key, emitting in
//     append, update or complete mode, classifying late rows; Snapshot and
//     Restore for checkpoints.
//   - Distinct: count(DISTINCT x)'s accumulator in window state.
//   - IntervalJoin: the state of a two-stream join with a time bound, its
//     held rows by columns in chunks, indexed by key once probes have
//     scanned them enough, evicted a chunk at a time (joinstate.go); for
//     outer joins (AddLeftM, AddRightM, Match, AdvanceOuter,
//     OuterJoinSnapshot) the held rows' matched flags, and the rows evicted
//     unmatched, to be emitted NULL-padded.
//   - Dedup: the state of a dedup within the watermark (Spark's
//     dropDuplicatesWithinWatermark): per key, its first row's event time
//     plus the delay, dropped when Spark's watermark reaches it; DedupSnapshot.
//   - Groups: the state of an aggregate over a stream without a window
//     (output mode update or complete): one accumulator per group key, the
//     groups each micro-batch changed, GroupsSnapshot.
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
// # How it is called
//
// A generated stateful streaming flow (codegen/stream.go, streamjoin.go,
// streamdedup.go) has one stateful operator and runs one micro-batch per
// epoch, through rt/etl's FlowContext: it restores its Tracker and its
// State, IntervalJoin or Dedup from the last commit (LoadState, then
// Restore), observes every row's event time (Tracker.Observe) before any
// filter, assigns each row to its open windows (State.Assign; none open:
// the row is late), joins it (IntervalJoin.AddLeft, AddRight) or dedups it
// (Dedup.Add), then
// advances the watermark (Tracker.Advance, then State.Advance,
// IntervalJoin.Advance or Dedup.Advance; for windows and joins to the
// greatest time when its inputs are bounded files replayed to their end, so
// that every window closes), writes what that emits, and hands the
// snapshots back (SaveState). It reads its input
// through rt/etl's stream reads, not through a Folder or a Scheduler of its
// own; those are exercised by the tests (internal/nexmark's replay test,
// example_test.go). rt/etl also uses Edge (between a flow's reader, its
// loop and its writer), Clock and ManualClock (`run --follow`), and
// Ignored (the watched folder's rule for half-written files).
package stream
