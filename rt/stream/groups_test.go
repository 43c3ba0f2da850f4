package stream

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestGroupsProperty feeds random keys in random micro-batches through
// group state, checkpointing and restoring it between some of them, and
// checks each batch's changes (exactly the keys it touched, with their
// running counts) and the whole result against a recount.
func TestGroupsProperty(t *testing.T) {
	type acc struct{ N int64 }
	for c := 0; c < 50; c++ {
		rng := rand.New(rand.NewPCG(uint64(c), 3))
		g := NewGroups[string, acc]()
		want := map[string]int64{}
		var order []string
		for b := 0; b < 20; b++ {
			touched := map[string]bool{}
			for n := rng.IntN(8); n > 0; n-- {
				k := fmt.Sprint("k", rng.IntN(6))
				g.Assign(k).N++
				if _, ok := want[k]; !ok {
					order = append(order, k)
				}
				want[k]++
				touched[k] = true
			}
			ch := g.Changes()
			if len(ch) != len(touched) {
				t.Fatalf("case %d batch %d: %d changes, %d keys touched", c, b, len(ch), len(touched))
			}
			last := -1
			for _, r := range ch {
				pos := -1
				for i, k := range order {
					if k == r.Key {
						pos = i
					}
				}
				if !touched[r.Key] || r.Acc.N != want[r.Key] || pos < last {
					t.Fatalf("case %d batch %d: change %+v (want count %d, touched %v, in first-seen order)", c, b, r, want[r.Key], touched[r.Key])
				}
				last = pos
			}
			if rng.IntN(3) == 0 {
				s := g.Snapshot()
				g = NewGroups[string, acc]()
				if err := g.Restore(s); err != nil {
					t.Fatal(err)
				}
			}
		}
		all := g.All()
		if len(all) != len(want) {
			t.Fatalf("case %d: %d groups, want %d", c, len(all), len(want))
		}
		for i, r := range all {
			if r.Key != order[i] || r.Acc.N != want[r.Key] {
				t.Fatalf("case %d: group %d is %+v, want %s with %d", c, i, r, order[i], want[order[i]])
			}
		}
	}
}
