package window

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// Buckets is the number of hash buckets Sort spreads partitions over: a
// constant, so that the order of the rows (bucket by bucket, each sorted)
// is the same at any thread count.
const Buckets = 256

// Sort returns the positions of rows grouped into partitions and ordered
// within them: every row goes to the bucket of its partition keys' hash
// (a counting sort, in input order), then each bucket is sorted by cmp
// (partition keys, then order keys; ties in input order) with pdqsort, the
// buckets on up to threads goroutines. A partition lies within one bucket,
// and rows of adjacent buckets have different partition keys, so Split
// finds the partitions in the result. With hash nil (no partition keys)
// all rows are one bucket.
func Sort[T any](rows []T, hash func(*T) uint64, less func(a, b *T) int, threads int) []int32 {
	return SortKeyed(rows, hash, nil, less, threads)
}

// SortKeyed is Sort with key, when not nil, a prefix of less's order in two
// words (codegen's winKey: the leading partition and order keys of integer
// types, each as an unsigned word in the order they sort): a row whose key
// is less sorts first, and rows of equal keys go by less. Each bucket's
// rows are sorted as their keys and positions, in an array of their own
// (24 bytes a row, which stays in the cache), so that a comparison reads
// no row unless the keys tie: a window's stored rows are large and read
// through the positions in no order, a cache miss each.
func SortKeyed[T any](rows []T, hash func(*T) uint64, key func(*T) (uint64, uint64), less func(a, b *T) int, threads int) []int32 {
	n := len(rows)
	idx := make([]int32, n)
	var starts []int
	if hash == nil {
		for i := range idx {
			idx[i] = int32(i)
		}
		starts = []int{0, n}
	} else {
		bucket := make([]uint8, n)
		var count [Buckets + 1]int
		for i := range rows {
			b := uint8(hash(&rows[i]) >> 56)
			bucket[i] = b
			count[int(b)+1]++
		}
		for b := 1; b <= Buckets; b++ {
			count[b] += count[b-1]
		}
		starts = count[:]
		starts = append([]int(nil), starts...)
		next := count
		for i, b := range bucket {
			idx[next[b]] = int32(i)
			next[b]++
		}
	}
	sortRange := func(s []int32, buf *[]keyedRow) {
		if key == nil {
			slices.SortFunc(s, func(a, b int32) int {
				if c := less(&rows[a], &rows[b]); c != 0 {
					return c
				}
				return cmp.Compare(a, b)
			})
			return
		}
		ks := slices.Grow((*buf)[:0], len(s))[:len(s)]
		*buf = ks
		for j, i := range s {
			k1, k2 := key(&rows[i])
			ks[j] = keyedRow{k1, k2, i}
		}
		slices.SortFunc(ks, func(a, b keyedRow) int {
			if a.k1 != b.k1 {
				return cmp.Compare(a.k1, b.k1)
			}
			if a.k2 != b.k2 {
				return cmp.Compare(a.k2, b.k2)
			}
			if c := less(&rows[a.i], &rows[b.i]); c != 0 {
				return c
			}
			return cmp.Compare(a.i, b.i)
		})
		for j := range ks {
			s[j] = ks[j].i
		}
	}
	nb := len(starts) - 1
	if threads <= 1 || nb == 1 || n < 1<<14 {
		var buf []keyedRow
		for b := 0; b < nb; b++ {
			sortRange(idx[starts[b]:starts[b+1]], &buf)
		}
		return idx
	}
	var mu sync.Mutex
	nextB := 0
	var wg sync.WaitGroup
	for w := 0; w < threads; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []keyedRow
			for {
				mu.Lock()
				b := nextB
				nextB++
				mu.Unlock()
				if b >= nb {
					return
				}
				sortRange(idx[starts[b]:starts[b+1]], &buf)
			}
		}()
	}
	wg.Wait()
	return idx
}

// GatherChunk is the rows a window operator's replay copies out of its
// stored rows at a time, in the sorted order, before it reads them.
const GatherChunk = 1024

// keyedRow is a row's position with its key, as SortKeyed sorts them.
type keyedRow struct {
	k1, k2 uint64
	i      int32
}

// The hash of partition keys, deterministic across processes (the order of
// Sort's buckets must not change from run to run): Mix folds in one 64-bit
// word of a key, the other helpers a key of their type; a NULL key is
// MixNull.

// Mix folds x into h.
func Mix(h, x uint64) uint64 {
	hi, lo := bits.Mul64(h^x^0x9e3779b97f4a7c15, 0xbf58476d1ce4e5b9)
	return hi ^ lo
}

// MixNull folds in a NULL key.
func MixNull(h uint64) uint64 { return Mix(h, 0x6a09e667f3bcc909) }

// MixFloat64 folds in a DOUBLE as Spark groups it: -0.0 as 0.0, every NaN
// as one.
func MixFloat64(h uint64, f float64) uint64 {
	switch {
	case f == 0:
		f = 0
	case f != f:
		f = math.NaN()
	}
	return Mix(h, math.Float64bits(f))
}

// MixString folds in a string (FNV-1a over its bytes, then its length).
func MixString(h uint64, s string) uint64 {
	x := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		x ^= uint64(s[i])
		x *= 1099511628211
	}
	return Mix(Mix(h, x), uint64(len(s)))
}

// MixBytes folds in a binary value.
func MixBytes(h uint64, b []byte) uint64 { return MixString(h, string(b)) }

// MixBool folds in a boolean.
func MixBool(h uint64, b bool) uint64 {
	if b {
		return Mix(h, 1)
	}
	return Mix(h, 2)
}
