package window

import (
	"cmp"
	"math/rand"
	"testing"
)

// glRow is a row of the group-limit property test: a nullable partition
// key, a nullable order key with many ties, and the input position.
type glRow struct {
	p, o     int
	pok, ook bool
	id       int
}

// glRows are n random rows in parts partitions with ties distinct order
// keys, a sixth of the partition keys and a fifth of the order keys NULL.
func glRows(rng *rand.Rand, n, parts, ties int) []glRow {
	rows := make([]glRow, n)
	for i := range rows {
		rows[i] = glRow{p: rng.Intn(parts), pok: rng.Intn(6) != 0, o: rng.Intn(ties), ook: rng.Intn(5) != 0, id: i}
		if !rows[i].pok {
			rows[i].p = 0
		}
		if !rows[i].ook {
			rows[i].o = 0
		}
	}
	return rows
}

// TestGroupLimitEqualsSort: GroupLimit then Sort gives, partition by
// partition, exactly the first k rows of Sort over all rows, in the same
// order (so the same row numbers), for random data with many ties and NULL
// keys, k in 1..5, ascending and descending orders, one partition or
// several, a good hash and one that collides, and 1 or 2 threads.
func TestGroupLimitEqualsSort(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	nullCmp := func(aok, bok, nullsFirst bool) int {
		if aok == bok {
			return 0
		}
		if aok == nullsFirst { // a is the non-NULL one and NULLs come first
			return 1
		}
		return -1
	}
	for iter := 0; iter < 300; iter++ {
		n := rng.Intn(60)
		if iter%50 == 0 {
			n = 1<<14 + rng.Intn(5000) // Sort's parallel path
		}
		parts := 1 + rng.Intn(8)
		ties := 1 + rng.Intn(4)
		k := 1 + rng.Intn(5)
		desc, nullsFirst := rng.Intn(2) == 0, rng.Intn(2) == 0
		partitioned := rng.Intn(5) != 0
		collide := rng.Intn(3) == 0
		rows := glRows(rng, n, parts, ties)
		var hash func(*glRow) uint64
		if partitioned {
			hash = func(r *glRow) uint64 {
				if !r.pok {
					return MixNull(0)
				}
				if collide {
					return Mix(0, uint64(r.p%2))
				}
				return Mix(0, uint64(r.p))
			}
		}
		same := func(a, b *glRow) bool { return !partitioned || a.pok == b.pok && a.p == b.p }
		less := func(a, b *glRow) int {
			if partitioned {
				if c := nullCmp(a.pok, b.pok, true); c != 0 {
					return c
				}
				if c := cmp.Compare(a.p, b.p); c != 0 {
					return c
				}
			}
			if c := nullCmp(a.ook, b.ook, nullsFirst); c != 0 {
				return c
			}
			c := cmp.Compare(a.o, b.o)
			if desc {
				c = -c
			}
			return c
		}
		for _, threads := range []int{1, 2} {
			// the sort-based path: every row sorted, the first k of each
			// partition kept
			type out struct{ id, rn int }
			var want []out
			idx := Sort(rows, hash, less, threads)
			bounds := Split(n, func(i int) bool { return same(&rows[idx[i-1]], &rows[idx[i]]) })
			for p := 0; p+1 < len(bounds); p++ {
				for i := bounds[p]; i < bounds[p+1] && int(i-bounds[p]) < k; i++ {
					want = append(want, out{rows[idx[i]].id, int(i-bounds[p]) + 1})
				}
			}
			// the limited path
			kept := GroupLimit(append([]glRow(nil), rows...), hash, same, less, k)
			var got []out
			idx2 := Sort(kept, hash, less, threads)
			bounds2 := Split(len(kept), func(i int) bool { return same(&kept[idx2[i-1]], &kept[idx2[i]]) })
			for p := 0; p+1 < len(bounds2); p++ {
				for i := bounds2[p]; i < bounds2[p+1]; i++ {
					got = append(got, out{kept[idx2[i]].id, int(i-bounds2[p]) + 1})
				}
			}
			if len(got) != len(want) {
				t.Fatalf("iter %d (n %d, k %d, threads %d): %d rows kept, want %d", iter, n, k, threads, len(got), len(want))
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("iter %d (n %d, k %d, desc %v, nulls first %v, threads %d): row %d is %+v, want %+v", iter, n, k, desc, nullsFirst, threads, i, got[i], want[i])
				}
			}
		}
	}
}
