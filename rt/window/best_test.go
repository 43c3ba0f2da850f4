package window

import (
	"cmp"
	"math/rand"
	"slices"
	"testing"
)

// TestBestEqualsGroupLimit: rows added to a Best in chunks of random
// sizes, then GroupLimit over its rows followed by the rows added since,
// keep exactly the rows that GroupLimit keeps over all
// the rows (k = 1), for random data with many ties and NULL keys, a good
// hash, one that collides and none, and enough partitions to grow the
// table.
func TestBestEqualsGroupLimit(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for iter := 0; iter < 400; iter++ {
		n := rng.Intn(200)
		parts := 1 + rng.Intn(8)
		if iter%20 == 0 {
			n, parts = 20000+rng.Intn(5000), 3000+rng.Intn(3000)
		}
		ties := 1 + rng.Intn(4)
		desc := rng.Intn(2) == 0
		hashKind := rng.Intn(3) // 0 good, 1 colliding, 2 none
		rows := glRows(rng, n, parts, ties)
		var hash func(*glRow) uint64
		switch hashKind {
		case 0:
			hash = func(r *glRow) uint64 {
				if !r.pok {
					return MixNull(0)
				}
				return Mix(0, uint64(r.p))
			}
		case 1:
			hash = func(r *glRow) uint64 {
				if !r.pok {
					return MixNull(0)
				}
				return Mix(0, uint64(r.p%2))
			}
		}
		same := func(a, b *glRow) bool { return hash == nil || a.pok == b.pok && a.p == b.p }
		less := func(a, b *glRow) int {
			if hash != nil {
				if c := cmp.Compare(b2i(a.pok), b2i(b.pok)); c != 0 {
					return c
				}
				if c := cmp.Compare(a.p, b.p); c != 0 {
					return c
				}
			}
			if c := cmp.Compare(b2i(a.ook), b2i(b.ook)); c != 0 {
				return c
			}
			c := cmp.Compare(a.o, b.o)
			if desc {
				c = -c
			}
			return c
		}
		want := GroupLimit(append([]glRow(nil), rows...), hash, same, less, 1)
		b := NewBest(hash, same, less)
		at := 0
		for at < n && rng.Intn(4) != 0 {
			end := min(n, at+rng.Intn(2*BestChunk))
			b.AddAll(rows[at:end])
			at = end
		}
		got := GroupLimit(append(b.Rows(), rows[at:]...), hash, same, less, 1)
		// the same rows; their order may differ (a Best keeps partitions
		// in the order they first came, GroupLimit its rows in input
		// order), and does not matter: with one row a partition, the sort
		// that follows orders them by their partition keys alone
		slices.SortFunc(got, func(a, b glRow) int { return cmp.Compare(a.id, b.id) })
		if len(got) != len(want) {
			t.Fatalf("iter %d (n %d, hash %d): %d rows kept, want %d", iter, n, hashKind, len(got), len(want))
		}
		for i := range want {
			if got[i].id != want[i].id {
				t.Fatalf("iter %d (n %d, hash %d, desc %v): row %d is %+v, want %+v", iter, n, hashKind, desc, i, got[i], want[i])
			}
		}
	}
}
