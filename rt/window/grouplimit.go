package window

import "slices"

// GroupLimit is Spark's WindowGroupLimit: it returns the rows, in input
// order, that are among the first k of their partition in Sort's order
// (less, ties in input order), compacting rows in place. Sort and the
// walk then see only them, and give the first k rows of every partition
// exactly as over all rows: the same rows, in the same order, with the same
// row numbers.
//
// One pass finds each row's partition in a hash table (open addressing
// over hash; same tells
// rows of one partition apart from others of the same hash) and keeps its
// best row (k = 1) or its best k in a max-heap whose root is the worst kept
// (k > 1): a later row replaces it only when it sorts strictly before it,
// since on a tie the earlier row sorts first. With hash nil (no partition
// keys) all rows are one partition.
func GroupLimit[T any](rows []T, hash func(*T) uint64, same func(a, b *T) bool, less func(a, b *T) int, k int) []T {
	if k <= 0 {
		return rows[:0]
	}
	// the partitions: gh their hash, gbest (k = 1) the best row, gkept
	// (k > 1) the heap; slots an open-addressing table of group index + 1
	// by hash (linear probing, at most half full)
	var gh []uint64
	var gbest []int32
	var gbestRow []T // k = 1: a copy of the best row, read in place of rows[gbest[g]] (one cache miss fewer)
	var gkept [][]int32
	var slots []int32
	mask := uint64(0)
	if hash != nil {
		slots = make([]int32, 1024)
		mask = 1023
	}
	// worse: row a sorts after row b (a tie goes by position)
	worse := func(a, b int32) bool {
		c := less(&rows[a], &rows[b])
		return c > 0 || c == 0 && a > b
	}
	// member is a row of group g, to test same against
	member := func(g int32) *T {
		if k == 1 {
			return &gbestRow[g]
		}
		return &rows[gkept[g][0]]
	}
	for i := range rows {
		r := int32(i)
		g := int32(-1)
		var h uint64
		var at uint64
		if hash == nil {
			if len(gbest)+len(gkept) > 0 {
				g = 0
			}
		} else {
			h = hash(&rows[i])
			for at = h & mask; slots[at] != 0; at = (at + 1) & mask {
				if x := slots[at] - 1; (k == 1 || gh[x] == h) && same(member(x), &rows[i]) {
					g = x
					break
				}
			}
		}
		if g < 0 {
			ng := int32(len(gh))
			gh = append(gh, h)
			if k == 1 {
				gbest = append(gbest, r)
				gbestRow = append(gbestRow, rows[i])
			} else {
				gkept = append(gkept, append(make([]int32, 0, min(k, 4)), r))
			}
			if hash != nil {
				slots[at] = ng + 1
				if 2*len(gh) > len(slots) { // grow: rehash every group
					slots = make([]int32, 2*len(slots))
					mask = uint64(len(slots) - 1)
					for x, hx := range gh {
						j := hx & mask
						for slots[j] != 0 {
							j = (j + 1) & mask
						}
						slots[j] = int32(x) + 1
					}
				}
			}
			continue
		}
		if k == 1 {
			if less(&rows[i], &gbestRow[g]) < 0 {
				gbest[g], gbestRow[g] = r, rows[i]
			}
			continue
		}
		kept := gkept[g]
		if len(kept) < k {
			kept = append(kept, r)
			heapUp(kept, len(kept)-1, worse)
			gkept[g] = kept
		} else if less(&rows[i], &rows[kept[0]]) < 0 {
			kept[0] = r
			heapDown(kept, 0, worse)
		}
	}
	keep := gbest
	for _, kept := range gkept {
		keep = append(keep, kept...)
	}
	slices.Sort(keep)
	for i, j := range keep {
		rows[i] = rows[j]
	}
	clear(rows[len(keep):])
	return rows[:len(keep)]
}

// heapUp and heapDown keep h a max-heap under worse (the root sorts last).
func heapUp(h []int32, i int, worse func(a, b int32) bool) {
	for i > 0 {
		p := (i - 1) / 2
		if !worse(h[i], h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func heapDown(h []int32, i int, worse func(a, b int32) bool) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && worse(h[r], h[l]) {
			c = r
		}
		if !worse(h[c], h[i]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
