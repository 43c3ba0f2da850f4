package window

import (
	"sync"
)

// Split returns the boundaries of the runs of n sorted rows: 0, the
// position of every row i > 0 for which same(i) is false (it does not
// belong with row i-1), and n.
func Split(n int, same func(i int) bool) []int32 {
	out := []int32{0}
	for i := 1; i < n; i++ {
		if !same(i) {
			out = append(out, int32(i))
		}
	}
	if n > 0 {
		out = append(out, int32(n))
	}
	return out
}

// Walk calls fn for every partition [lo, hi) of bounds (as Split returns
// them), on up to threads goroutines: each worker w takes a contiguous run
// of whole partitions, the runs balanced by row count, so the results do not
// depend on the number of threads. The error returned is the one of the
// first partition (in sorted order) that failed; a worker stops at its
// first error.
func Walk(bounds []int32, threads int, fn func(w, lo, hi int) error) error {
	parts := len(bounds) - 1
	if parts <= 0 {
		return nil
	}
	n := int(bounds[parts])
	if threads > parts {
		threads = parts
	}
	if threads <= 1 || n < 4096 {
		for p := 0; p < parts; p++ {
			if err := fn(0, int(bounds[p]), int(bounds[p+1])); err != nil {
				return err
			}
		}
		return nil
	}
	// cut[w] is the first partition of worker w: the first whose start is at
	// or past w/threads of the rows
	cut := make([]int, threads+1)
	p := 0
	for w := 1; w < threads; w++ {
		target := int32(int64(n) * int64(w) / int64(threads))
		for p < parts && bounds[p] < target {
			p++
		}
		cut[w] = p
	}
	cut[threads] = parts
	errs := make([]error, threads)
	var wg sync.WaitGroup
	for w := 0; w < threads; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for p := cut[w]; p < cut[w+1]; p++ {
				if err := fn(w, int(bounds[p]), int(bounds[p+1])); err != nil {
					errs[w] = err
					return
				}
			}
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Buf is one worker's scratch space, reused across its partitions.
type Buf struct {
	peers  []int32
	cnt    []int32
	nn     []int32
	deque  []int32
	Frames Frames
	i32    [][]int32
	i64    [][]int64
	f64    [][]float64
	bs     [][]bool
}

// Peers returns the peer groups of the partition [lo, hi) of the sorted
// rows: the starts of its runs of rows with equal order keys, relative to lo,
// and m = hi-lo last. peer(i) reports whether sorted row i (lo < i < hi) has
// the same order keys as row i-1. The slice is b's, valid until the next
// call.
func (b *Buf) Peers(lo, hi int, peer func(i int) bool) []int32 {
	out := b.peers[:0]
	out = append(out, 0)
	for i := lo + 1; i < hi; i++ {
		if !peer(i) {
			out = append(out, int32(i-lo))
		}
	}
	out = append(out, int32(hi-lo))
	b.peers = out
	return out
}

// WholePartition is the peer groups of a partition of m rows without ORDER
// BY: one group, every row a peer of every other.
func (b *Buf) WholePartition(m int) []int32 {
	b.peers = append(b.peers[:0], 0, int32(m))
	return b.peers
}

// nonNull fills b.nn with the positions of the rows that are not NULL
// (ok[i]) and b.cnt with cnt[i] = how many of rows 0..i-1 are not NULL.
func (b *Buf) nonNull(ok []bool) (nn, cnt []int32) {
	m := len(ok)
	nn = b.nn[:0]
	if cap(b.cnt) < m+1 {
		b.cnt = make([]int32, m+1, 2*m+1)
	}
	cnt = b.cnt[:m+1]
	for i, v := range ok {
		cnt[i] = int32(len(nn))
		if v {
			nn = append(nn, int32(i))
		}
	}
	cnt[m] = int32(len(nn))
	b.nn = nn
	return nn, cnt
}

func grow32(s []int32, m int) []int32 {
	if cap(s) < m {
		return make([]int32, m, max(m, 2*cap(s)))
	}
	return s[:m]
}

// Int32s, Int64s, Float64s and Bools are scratch slices of m elements
// (their contents left over), one per slot, reused across partitions: the
// generated code gathers a partition's values and keys into them.
func (b *Buf) Int32s(slot, m int) []int32     { return scratch(&b.i32, slot, m) }
func (b *Buf) Int64s(slot, m int) []int64     { return scratch(&b.i64, slot, m) }
func (b *Buf) Float64s(slot, m int) []float64 { return scratch(&b.f64, slot, m) }
func (b *Buf) Bools(slot, m int) []bool       { return scratch(&b.bs, slot, m) }

func scratch[T any](slots *[][]T, slot, m int) []T {
	for len(*slots) <= slot {
		*slots = append(*slots, nil)
	}
	s := (*slots)[slot]
	if cap(s) < m {
		s = make([]T, m, max(m, 2*cap(s)))
		(*slots)[slot] = s
	}
	return s[:m]
}
