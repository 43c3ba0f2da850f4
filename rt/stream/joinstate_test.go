package stream

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIntervalJoinModel streams thousands of random rows per case (enough
// for several chunks per side, out of order, with stragglers far behind and
// far ahead of the rest, and late rows) through inner and outer interval
// joins with a residual condition (the stragglers ahead in half the cases), and checks them against a brute-force
// model: after every micro-batch, the rows held, the rows of a preserved
// side emitted NULL-padded at that watermark (exactly those whose bound the
// horizon passed and that nothing matched, in the order of their bound), and
// that the evicted rows still stored stay bounded (whole chunks given back,
// or the side compacted); at the end, the pairs emitted, which a probe
// finds in the held rows' order, indexed or not. Some batches end in
// a checkpoint and a restore.
func TestIntervalJoinModel(t *testing.T) {
	type ev struct {
		id, key int
		t       int64
		left    bool
	}
	type advance struct {
		h       int64 // the horizon: rows bound at or before it are evicted
		arrived int   // on-time rows so far
		pad     []ev  // the rows emitted NULL-padded
	}
	compacted, dropped, indexed, scanned, padded := false, false, false, false, 0
	for c := 0; c < 40; c++ {
		rng := rand.New(rand.NewPCG(uint64(c), 11))
		lower := rng.Int64N(41) - 20
		upper := lower + rng.Int64N(40)
		lateness, delay := rng.Int64N(6), rng.Int64N(30)
		keys := []int{3, 50, 5000}[c%3]
		preserveL, preserveR := c%4 == 1 || c%4 == 3, c%4 == 2 || c%4 == 3 // inner, left, right, full
		residual := func(l, r int) bool { return (l+r)%5 != 0 }
		bound := func(e ev) int64 {
			if e.left {
				return satAdd(e.t, upper)
			}
			return satSub(e.t, lower)
		}
		j, err := NewIntervalJoin[int, int, int](lower, upper, lateness, 1)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		last := -1 // a probe pairs the held rows in arrival order, restarts or not
		emit := func(l, r int, m Match) {
			if held := min(l, r); held <= last {
				t.Fatalf("case %d: row %d paired after row %d, which came after it", c, held, last)
			} else {
				last = held
			}
			if residual(l, r) {
				m.Set()
				got = append(got, fmt.Sprintf("%d+%d", l, r))
			}
		}
		var onTime []ev
		var advances []advance
		var wm int64
		hasWM, maxT, nominal, id := false, int64(math.MinInt64), int64(0), 0
		batches := 20 + rng.IntN(20)
		for b := 0; b <= batches; b++ {
			end := b == batches
			for k := rng.IntN(600); k > 0 && !end; k-- {
				nominal += rng.Int64N(2)
				e := ev{id: id, key: rng.IntN(keys), t: nominal - rng.Int64N(25), left: rng.IntN(2) == 0}
				switch rng.IntN(200) {
				case 0:
					e.t -= 200 + rng.Int64N(500) // far behind: late, mostly
				case 1:
					if c%2 == 0 {
						e.t += 500 + rng.Int64N(2000) // far ahead: held long, pins its chunk
					}
				}
				id++
				late := hasWM && e.t <= wm-lateness
				last = -1
				var ok bool
				if e.left {
					ok = j.AddLeftM(e.key, e.t, e.id, emit)
				} else {
					ok = j.AddRightM(e.key, e.t, e.id, emit)
				}
				if ok == late {
					t.Fatalf("case %d: row %+v accepted %v, late by the rule %v", c, e, ok, late)
				}
				if ok {
					onTime = append(onTime, e)
					maxT = max(maxT, min(e.t, nominal)) // the watermark does not follow the stragglers ahead
				}
			}
			if maxT != math.MinInt64 && (!hasWM || maxT-delay > wm) {
				wm, hasWM = maxT-delay, true
			}
			if end {
				wm, hasWM = math.MaxInt64, true
			}
			var pad []ev
			var unL, unR func(int)
			if preserveL {
				unL = func(l int) { pad = append(pad, ev{id: l, left: true}) }
			}
			if preserveR {
				unR = func(r int) { pad = append(pad, ev{id: r}) }
			}
			sides := []*joinSide[int, int]{&j.left, &j.right}
			var firsts [2]*joinChunk[int, int]
			var bases [2]int64
			for k, s := range sides {
				if len(s.chunks) > 0 {
					firsts[k] = s.chunks[0]
				}
				bases[k] = s.base
			}
			j.AdvanceOuter(wm, hasWM, unL, unR)
			a := advance{h: satSub(satSub(wm, lateness), 1), arrived: len(onTime), pad: pad}
			advances = append(advances, a)
			held := 0
			for _, e := range onTime {
				if bound(e) > a.h {
					held++
				}
			}
			if s := j.Stats(); s.Held != held {
				t.Fatalf("case %d batch %d: %d rows held, want %d", c, b, s.Held, held)
			}
			for k, s := range sides {
				if dead := s.stored - s.held; dead >= joinChunkRows && dead > s.held {
					t.Fatalf("case %d batch %d: %d evicted rows stored beside %d held", c, b, dead, s.held)
				}
				dropped = dropped || s.base > bases[k]
				indexed = indexed || s.indexed > s.base
				scanned = scanned || s.scanned > 0
				compacted = compacted || s.held > 0 && s.base == 0 && firsts[k] != nil && s.chunks[0] != firsts[k]
			}
			if (j.HeldBytes() == 0) != (j.left.stored+j.right.stored == 0) {
				t.Fatalf("case %d batch %d: %d bytes held for %d rows stored", c, b, j.HeldBytes(), j.left.stored+j.right.stored)
			}
			if !end && rng.IntN(8) == 0 { // a restart: checkpoint, restore into new state
				j = restartJoin(t, j, preserveL || preserveR, lower, upper, lateness)

			}
		}
		if s := j.Stats(); s.Held != 0 || j.HeldBytes() != 0 {
			t.Fatalf("case %d: %d rows, %d bytes held after the end", c, s.Held, j.HeldBytes())
		}

		// the pairs, by key and time
		byKey := map[int][]ev{}
		for _, e := range onTime {
			if !e.left {
				byKey[e.key] = append(byKey[e.key], e)
			}
		}
		for _, rs := range byKey {
			slices.SortFunc(rs, func(a, b ev) int { return cmp.Compare(a.t, b.t) })
		}
		var want []string
		matched := map[int]bool{}
		for _, l := range onTime {
			if !l.left {
				continue
			}
			rs := byKey[l.key]
			i, _ := slices.BinarySearchFunc(rs, l.t+lower, func(e ev, t int64) int { return cmp.Compare(e.t, t) })
			for ; i < len(rs) && rs[i].t <= l.t+upper; i++ {
				if residual(l.id, rs[i].id) {
					want = append(want, fmt.Sprintf("%d+%d", l.id, rs[i].id))
					matched[l.id], matched[rs[i].id] = true, true
				}
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("case %d (bound [%d, %d]): %d pairs, want %d", c, lower, upper, len(got), len(want))
		}
		// the NULL-padded rows of each micro-batch: left ones first (the
		// join evicts the left side first), each side's by bound, then
		// arrival
		emitted := map[int]bool{}
		for b, a := range advances {
			var wantPad []ev
			for _, e := range onTime[:a.arrived] {
				if bound(e) <= a.h && !emitted[e.id] && !matched[e.id] && (e.left && preserveL || !e.left && preserveR) {
					wantPad = append(wantPad, e)
				}
			}
			slices.SortStableFunc(wantPad, func(a, b ev) int {
				if a.left != b.left {
					if a.left {
						return -1
					}
					return 1
				}
				return cmp.Compare(bound(a), bound(b))
			})
			ids := func(es []ev) (out []string) {
				for _, e := range es {
					out = append(out, fmt.Sprintf("%v:%d", e.left, e.id))
				}
				return out
			}
			if g, w := ids(a.pad), ids(wantPad); !slices.Equal(g, w) {
				t.Fatalf("case %d batch %d (bound [%d, %d]): NULL-padded\n got %v\nwant %v", c, b, lower, upper, g, w)
			}
			for _, e := range a.pad {
				emitted[e.id] = true
			}
			padded += len(a.pad)
		}
	}
	if padded == 0 || !dropped || !compacted || !indexed || !scanned {
		t.Fatalf("the cases did not exercise the state: %d NULL-padded, chunks dropped %v, compacted %v, indexed %v, scanned %v",
			padded, dropped, compacted, indexed, scanned)
	}
}

// restartJoin checkpoints j through JSON and restores it into a new join.
func restartJoin(t *testing.T, j *IntervalJoin[int, int, int], outer bool, lower, upper, lateness int64) *IntervalJoin[int, int, int] {
	t.Helper()
	n, _ := NewIntervalJoin[int, int, int](lower, upper, lateness, 1)
	var err error
	if outer {
		var s OuterJoinSnapshot[int, int, int]
		if err = roundTrip(j.SnapshotOuter(), &s); err == nil {
			err = n.RestoreOuter(s)
		}
	} else {
		var s JoinSnapshot[int, int, int]
		if err = roundTrip(j.Snapshot(), &s); err == nil {
			err = n.Restore(s)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// roundTrip encodes v as JSON and decodes it into into.
func roundTrip(v, into any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, into)
}
