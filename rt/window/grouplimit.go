package window

import "slices"

// GroupLimit is Spark's WindowGroupLimit: it returns the rows, in input
// order, that are among the first k of their partition in Sort's order
// (less, ties in input order), compacting rows in place. Sort and the
// walk then see only them, and give the first k rows of every partition
// exactly as over all rows: the same rows, in the same order, with the same
// row numbers.
//
// One pass finds each row's partition in a hash table (hash; same tells
// rows of one partition apart from others of the same hash) and keeps its
// best row (k = 1) or its best k in a max-heap whose root is the worst kept
// (k > 1): a later row replaces it only when it sorts strictly before it,
// since on a tie the earlier row sorts first. With hash nil (no partition
// keys) all rows are one partition.
func GroupLimit[T any](rows []T, hash func(*T) uint64, same func(a, b *T) bool, less func(a, b *T) int, k int) []T {
	if k <= 0 {
		return rows[:0]
	}
	type group struct {
		first int32   // a row of the partition, to test same against
		next  int32   // the next group of the same hash (-1: none)
		kept  []int32 // k > 1: the heap; k = 1: unused
		best  int32   // k = 1: the best row
	}
	var groups []group
	var heads map[uint64]int32
	if hash != nil {
		heads = map[uint64]int32{}
	}
	// worse: row a sorts after row b (a tie goes by position)
	worse := func(a, b int32) bool {
		c := less(&rows[a], &rows[b])
		return c > 0 || c == 0 && a > b
	}
	for i := range rows {
		r := int32(i)
		g := int32(-1)
		var h uint64
		if hash == nil {
			if len(groups) > 0 {
				g = 0
			}
		} else {
			h = hash(&rows[i])
			if x, ok := heads[h]; ok {
				for g = x; g >= 0 && !same(&rows[groups[g].first], &rows[i]); g = groups[g].next {
				}
			}
		}
		if g < 0 {
			ng := group{first: r, next: -1, best: r}
			if hash != nil {
				if x, ok := heads[h]; ok {
					ng.next = x
				}
				heads[h] = int32(len(groups))
			}
			if k > 1 {
				ng.kept = append(make([]int32, 0, min(k, 4)), r)
			}
			groups = append(groups, ng)
			continue
		}
		gr := &groups[g]
		if k == 1 {
			if less(&rows[i], &rows[gr.best]) < 0 {
				gr.best = r
			}
			continue
		}
		if len(gr.kept) < k {
			gr.kept = append(gr.kept, r)
			heapUp(gr.kept, len(gr.kept)-1, worse)
		} else if less(&rows[i], &rows[gr.kept[0]]) < 0 {
			gr.kept[0] = r
			heapDown(gr.kept, 0, worse)
		}
	}
	var keep []int32
	for gi := range groups {
		if k == 1 {
			keep = append(keep, groups[gi].best)
		} else {
			keep = append(keep, groups[gi].kept...)
		}
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
