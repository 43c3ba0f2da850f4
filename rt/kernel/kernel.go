package kernel

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// BatchRows is the number of rows per batch that a flow emits: rt/format's
// DefaultBatchRows, the size of the batches it reads.
const BatchRows = 64 * 1024

// GrowOutput reserves room for more rows in every builder of ob, whose
// builders hold room for capacity rows: it doubles the room, from 1024 rows
// up to BatchRows, so that fixed-width columns append without capacity
// checks. It returns the new capacity.
func GrowOutput(ob *array.RecordBuilder, capacity int) int {
	n := min(max(capacity, 1024), BatchRows-capacity)
	ob.Reserve(n)
	return capacity + n
}

// AppendZero appends a zero element to rows that are never cut (groups,
// build rows, sort rows), doubling the capacity when full (at least 64): the
// built-in append grows a large slice by a quarter, copying it (and faulting
// fresh pages in) again and again.
func AppendZero[T any](rows []T) []T {
	if len(rows) == cap(rows) {
		grown := make([]T, len(rows), max(2*cap(rows), 64))
		copy(grown, rows)
		rows = grown
	}
	return rows[:len(rows)+1]
}

// SortIndex returns the positions of rows in the order of cmp, ties in their
// original order: a stable sort that moves 4-byte indexes, not rows.
func SortIndex[T any](rows []T, cmp func(a, b *T) int) []int32 {
	idx := make([]int32, len(rows))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int { return cmp(&rows[a], &rows[b]) })
	return idx
}

// TopK returns the first k rows in the order of cmp (stable: ties in their
// original order), for an order by with a limit; all of them when there are
// no more than k.
func TopK[T any](rows []T, k int, cmp func(a, b *T) int) []T {
	idx := SortIndex(rows, cmp)
	if len(idx) > k {
		idx = idx[:k]
	}
	out := make([]T, len(idx))
	for i, j := range idx {
		out[i] = rows[j]
	}
	return out
}

// ChainMore marks, in a hash join's table, a key with more than one build
// row: the table's value is then the head of the key's chain in next (with
// this bit cleared), else the key's only row. Build rows are therefore
// numbered below 2^30.
const ChainMore = int32(1 << 30)

// ChainNext is the build row after row j in the chain of a key whose table
// value is b, -1 after the last: a key with one row (b without ChainMore)
// never reads next. The probe loop is
//
//	for j := b &^ ChainMore; j >= 0; j = ChainNext(next, j, b) { ... }
func ChainNext(next []int32, j, b int32) int32 {
	if b&ChainMore == 0 {
		return -1
	}
	return next[j]
}
