package stream

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"
)

func TestIntervalJoinTable(t *testing.T) {
	j, err := NewIntervalJoin[int, string, string](0, 10, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	emit := func(l, r string) { got = append(got, l+"+"+r) }
	j.AddLeft(1, 100, "p100", emit)
	j.AddRight(1, 100, "b100", emit) // tr = tl: matches
	j.AddRight(1, 110, "b110", emit) // tr = tl+10: matches
	j.AddRight(1, 111, "b111", emit) // outside
	j.AddRight(2, 105, "other", emit)
	j.AddLeft(1, 99, "p99", emit) // matches b100 (99+10 >= 100) only... and b100 at 100 <= 109
	want := "[p100+b100 p100+b110 p99+b100]"
	if fmt.Sprint(got) != want {
		t.Fatalf("pairs %v, want %v", got, want)
	}
	j.Advance(111, true)
	// Left rows expire when tl+10 < 111; right rows when tr < 111.
	if s := j.Stats(); s.Held != 1 || s.Evicted != 5 {
		t.Fatalf("after WM 111: %+v", s)
	}
	if j.AddLeft(1, 110, "late", emit) {
		t.Fatal("row below the watermark accepted")
	}
	if _, err := NewIntervalJoin[int, int, int](5, 4, 0, 1); err == nil {
		t.Fatal("empty bound accepted")
	}
}

// TestIntervalJoinProperty compares the streamed join with a brute-force
// join of the rows that are on time by the rule (Spark's: t > WM - lateness, with
// the watermark from refWatermarks), and checks that eviction keeps the
// state bounded.
func TestIntervalJoinProperty(t *testing.T) {
	evictedSome := false
	for c := 0; c < 150; c++ {
		seed := uint64(c)
		rng := rand.New(rand.NewPCG(seed, 99))
		lower := rng.Int64N(21) - 10
		upper := lower + rng.Int64N(20)
		lateness := rng.Int64N(10)
		ec := eqCase{seed: seed, delays: []int64{rng.Int64N(10), rng.Int64N(10)}, idle: time.Duration(rng.IntN(2)) * 6 * time.Second}
		var nominal int64
		id := 0
		for b := 0; b < 20+rng.IntN(30); b++ {
			var batch []evRow
			for k := rng.IntN(12); k > 0; k-- {
				nominal += rng.Int64N(3)
				ts := nominal - rng.Int64N(15)
				if rng.IntN(8) == 0 {
					ts -= 30 + rng.Int64N(50)
				}
				batch = append(batch, evRow{id: id, input: rng.IntN(2), key: rng.IntN(4), t: ts})
				id++
			}
			ec.batches = append(ec.batches, batch)
			ec.clockAdv = append(ec.clockAdv, time.Duration(1+rng.IntN(5))*time.Second)
		}
		wms, oks, _ := refWatermarks(ec)
		var onL, onR []evRow
		lateN := 0
		onTime := map[int]bool{}
		for b, batch := range ec.batches {
			for _, r := range batch {
				if oks[b] && r.t <= wms[b]-lateness {
					lateN++
					continue
				}
				onTime[r.id] = true
				if r.input == 0 {
					onL = append(onL, r)
				} else {
					onR = append(onR, r)
				}
			}
		}
		var want []string
		for _, l := range onL {
			for _, r := range onR {
				if l.key == r.key && l.t+lower <= r.t && r.t <= l.t+upper {
					want = append(want, fmt.Sprint(l.id, "-", r.id))
				}
			}
		}

		clock := NewManualClock(time.Unix(0, 0))
		tr := NewTracker(clock, ec.idle, ec.delays...)
		j, _ := NewIntervalJoin[int, int, int](lower, upper, lateness, 1)
		var got []string
		emit := func(l, r int) { got = append(got, fmt.Sprint(l, "-", r)) }
		for b, batch := range ec.batches {
			for _, r := range batch {
				tr.Observe(r.input, r.t)
				if r.input == 0 {
					j.AddLeft(r.key, r.t, r.id, emit)
				} else {
					j.AddRight(r.key, r.t, r.id, emit)
				}
			}
			clock.Advance(ec.clockAdv[b])
			j.Advance(tr.Advance())
			if rng.IntN(4) == 0 {
				// A checkpoint and a restart.
				data, err := json.Marshal(j.Snapshot())
				if err != nil {
					t.Fatal(err)
				}
				var snap JoinSnapshot[int, int, int]
				if err := json.Unmarshal(data, &snap); err != nil {
					t.Fatal(err)
				}
				j, _ = NewIntervalJoin[int, int, int](lower, upper, lateness, 1)
				if err := j.Restore(snap); err != nil {
					t.Fatal(err)
				}
			}
			// Eviction is exact: the rows held are the on-time rows so far
			// that a future on-time row could still match, and those whose
			// bound is exactly WM - lateness (Spark holds them one
			// watermark longer).
			wantHeld := 0
			for _, bb := range ec.batches[:b+1] {
				for _, r := range bb {
					if onTime[r.id] {
						last := r.t + upper
						if r.input == 1 {
							last = r.t - lower
						}
						if b+1 >= len(wms) || !oks[b+1] || last >= wms[b+1]-lateness {
							wantHeld++
						}
					}
				}
			}
			if b+1 < len(wms) && j.Stats().Held != wantHeld {
				t.Fatalf("seed %d batch %d: %d rows held, %d can still match", seed, b, j.Stats().Held, wantHeld)
			}
		}
		sort.Strings(got)
		sort.Strings(want)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("seed %d bound [%d,%d] lateness %d: pairs\n got %v\nwant %v", seed, lower, upper, lateness, got, want)
		}
		s := j.Stats()
		if s.LateLeft+s.LateRight != int64(lateN) || s.Pairs != int64(len(want)) {
			t.Fatalf("seed %d: stats %+v, rule: %d late, %d pairs", seed, s, lateN, len(want))
		}
		if s.Evicted > 0 {
			evictedSome = true
		}
	}
	if !evictedSome {
		t.Fatal("no case evicted anything")
	}
}
