// Package window evaluates window functions (Spark's WindowExpression) over
// rows that generated code has already sorted: the frame machinery of
// codegen's window operator (codegen/window.go), which keeps only the typed
// parts (the row struct, its comparator, gathering the arguments and
// emitting the results) in the generated program.
//
// # Design: sorted runs, one pass per partition
//
// The operator is sort-based, as Spark's WindowExec is. The generated code
// stores every input row (its partition keys, order keys, the functions'
// arguments and the columns read above the window) in a slice of generated
// structs, sorts an index of it by (partition keys, order keys) with
// Spark's null ordering, and hands this package
// the sorted positions through two predicates: whether a row has the same
// partition keys as the one before it, and whether it has the same order
// keys (is its peer). The sort is Sort: a counting sort of the rows into a
// fixed number of buckets by a hash of their partition keys (so a
// partition lies in one bucket), then a pdqsort of each bucket by
// (partition keys, order keys, input position), the buckets on the
// workers; the result does not depend on the thread count. SortKeyed is
// Sort with the leading keys as two order-preserving words (codegen's
// winKey_ for keys of integer types): a bucket is sorted as compact (key,
// key, position) records, reading the rows only on a tie, since the rows,
// read through positions in no order, are a cache miss each. Split turns them into partition and peer-group
// boundaries; Walk runs the partitions on fc.Threads workers, contiguous
// runs of whole partitions balanced by row count, so every row's result is
// the same at any thread count; each worker reuses its own buffers.
//
// # Group limit
//
// Under a filter keeping rn <= K (rn a row_number, the select's only
// window function: the plan's GroupLimits, Spark's WindowGroupLimit),
// GroupLimit first keeps, in one hash pass over the stored rows, the first
// K rows of each partition in Sort's order (ties in input order), and Sort
// and Walk see only those: the same rows, order and row numbers as over all
// rows, without sorting the rest. For K = 1 without --memory-limit the
// operator does not store the rows it would drop: it adds them a chunk at
// a time to a Best, which keeps each partition's first row as they arrive.
//
// Inside one partition of m rows (positions 0..m-1 relative to its start):
//
//   - Ranking (RowNumber, Rank, DenseRank, PercentRank, CumeDist, NTile)
//     reads only the peer groups; NTile gives Spark's bucket sizes (the
//     first m % n buckets hold one row more).
//   - Offsets (Offset: lag and lead, IGNORE NULLS too) and values (First,
//     Last, Nth: first_value, last_value, nth_value, IGNORE NULLS too)
//     return the position of the row whose value is the result, or -1 for
//     NULL (or lag/lead's default); the generated code fetches the typed
//     value, so these are independent of types.
//   - Frames: RowsFrames, PeerFrames (RANGE without offsets: UNBOUNDED and
//     CURRENT ROW, which means the peers) and RangeFrames (RANGE with value
//     offsets over a number, or a date or timestamp as days or
//     microseconds) compute each row's frame [start, end). Both ends are
//     non-decreasing along the partition, so every aggregate walks the
//     partition once with two pointers: Count and the integer Sum add the
//     rows that enter and subtract the ones that leave (O(m)); Min and Max
//     keep a monotonic deque (O(m)); an unbounded frame is the degenerate
//     case (all rows enter at the first row, none leave). A floating-point
//     sum or avg is not invertible in IEEE arithmetic: it is added up
//     forward from the frame's start, as Spark's frames do (so the answer
//     is Spark's to the last bit), incrementally while the start does not
//     move (growing and whole-partition frames, O(m)) and again when it
//     does (sliding frames, O(m·w) for frames of w rows, as Spark's
//     SlidingWindowFunctionFrame). An empty frame gives NULL (count 0).
//
// # Memory and spilling
//
// The operator keeps its input's rows in a slice (accounted under
// --memory-limit), and this package adds, per function, one result slot per
// row and per worker buffers of the largest partition's size. Nothing here
// needs more than one partition at a time, so past the limit a select with
// one window spec spills (codegen's genWindowSpill): its rows go out as
// runs sorted by partition and order keys (rt/spill's Runs), and the runs'
// merge is read back a batch of whole partitions at a time, each batch
// sorted, walked and replayed as all rows are without a limit. Only the
// largest partition must fit; one that does not fails the flow naming the
// window. A group limit first cuts the rows in memory to each partition's
// first K (GroupLimit is correct over any prefix of the input). A select
// with two specs sorts all its rows twice, and keeps them in memory.
//
// window imports only the standard library and rt/sqlfn (for Spark's
// overflow errors), and holds no state between calls but what a Best
// holds, which its caller owns.
package window
