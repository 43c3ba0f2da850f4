package stream

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestHeapSortsProperty(t *testing.T) {
	less := func(a, b int) bool { return a < b }
	for c := 0; c < 200; c++ {
		rng := rand.New(rand.NewPCG(uint64(c), 1))
		var h, all []int
		var got []int
		for i := 0; i < rng.IntN(200); i++ {
			if len(h) > 0 && rng.IntN(3) == 0 {
				x := heapPop(&h, less)
				// The popped value is the minimum of what is held.
				for _, y := range h {
					if y < x {
						t.Fatalf("seed %d: popped %d while %d is held", c, x, y)
					}
				}
				got = append(got, x)
				continue
			}
			x := rng.IntN(50)
			heapPush(&h, x, less)
			all = append(all, x)
		}
		for len(h) > 0 {
			got = append(got, heapPop(&h, less))
		}
		slices.Sort(got)
		slices.Sort(all)
		if !slices.Equal(got, all) {
			t.Fatalf("seed %d: popped %v, pushed %v", c, got, all)
		}
	}
}
