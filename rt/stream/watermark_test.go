package stream

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func TestWatermarkTable(t *testing.T) {
	type batch struct {
		times []int64
		want  int64 // watermark after Advance; math.MinInt64 means none
	}
	none := int64(math.MinInt64)
	for _, tc := range []struct {
		name    string
		delay   int64
		batches []batch
	}{
		{"no rows no watermark", 5, []batch{{nil, none}, {nil, none}}},
		{"max minus delay", 5, []batch{{[]int64{10, 30, 20}, 25}, {[]int64{40}, 35}}},
		{"never decreases", 5, []batch{{[]int64{100}, 95}, {[]int64{50}, 95}, {nil, 95}}},
		{"zero delay", 0, []batch{{[]int64{7}, 7}}},
		{"saturates", 10, []batch{{[]int64{math.MinInt64 + 3}, math.MinInt64}}},
		{"negative times", 1, []batch{{[]int64{-10, -20}, -11}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := NewWatermark(tc.delay)
			for i, b := range tc.batches {
				before, hadBefore := w.Current()
				for _, ts := range b.times {
					w.Observe(ts)
				}
				if cur, ok := w.Current(); cur != before || ok != hadBefore {
					t.Fatalf("batch %d: Observe changed the watermark in force", i)
				}
				got, ok := w.Advance()
				if !ok {
					got = none
				}
				if got != b.want && !(b.want == none && !ok) {
					t.Fatalf("batch %d: watermark %d, want %d", i, got, b.want)
				}
			}
		})
	}
}

func TestTrackerMinAndIdle(t *testing.T) {
	clock := NewManualClock(time.Unix(0, 0))
	tr := NewTracker(clock, 10*time.Second, 0, 0)
	step := func(a, b []int64) (int64, bool) {
		for _, ts := range a {
			tr.Observe(0, ts)
		}
		for _, ts := range b {
			tr.Observe(1, ts)
		}
		clock.Advance(time.Second)
		return tr.Advance()
	}
	if _, ok := step([]int64{100}, nil); ok {
		t.Fatal("an active input without a watermark must hold the flow's back")
	}
	if wm, _ := step([]int64{200}, []int64{50}); wm != 50 {
		t.Fatalf("min of inputs: got %d, want 50", wm)
	}
	// Input 1 stops; after 10s of processing time it no longer holds back.
	var wm int64
	for i := 0; i < 8; i++ {
		wm, _ = step([]int64{300 + int64(i)}, nil)
	}
	if wm != 50 {
		t.Fatalf("before the idle timeout: got %d, want 50", wm)
	}
	for i := 0; i < 3; i++ {
		wm, _ = step([]int64{400 + int64(i)}, nil)
	}
	if !tr.Idle(1) || wm != 402 {
		t.Fatalf("after the idle timeout: idle=%v wm=%d, want idle and 402", tr.Idle(1), wm)
	}
	// Input 1 wakes up far behind: the flow's watermark does not go back.
	if wm, _ = step([]int64{403}, []int64{60}); wm != 402 {
		t.Fatalf("woken input: got %d, want 402 (never decreases)", wm)
	}
	// Everything idle: the maximum of the inputs.
	clock.Advance(time.Minute)
	if wm, _ = tr.Advance(); wm != 403 {
		t.Fatalf("all idle: got %d, want 403", wm)
	}
}

// TestTrackerProperty drives random inputs, delays, batches and processing
// time gaps, and recomputes the flow watermark after every batch from the
// whole history with the rule written out plainly. It also restores from a
// JSON snapshot at random.
func TestTrackerProperty(t *testing.T) {
	for c := 0; c < 200; c++ {
		seed := uint64(c)
		rng := rand.New(rand.NewPCG(seed, 11))
		n := 1 + rng.IntN(3)
		delays := make([]int64, n)
		for i := range delays {
			delays[i] = int64(rng.IntN(20))
		}
		idle := time.Duration(rng.IntN(3)) * 5 * time.Second
		start := time.Unix(1000, 0)
		clock := NewManualClock(start)
		tr := NewTracker(clock, idle, delays...)
		type hist struct {
			maxes  []int64 // per batch, per input; MinInt64 = no rows
			hasRow []bool
			at     time.Time
		}
		var history []hist
		flow, flowOK := int64(0), false
		for b := 0; b < 40; b++ {
			h := hist{maxes: make([]int64, n), hasRow: make([]bool, n)}
			for i := 0; i < n; i++ {
				if rng.IntN(3) == 0 {
					continue
				}
				for k := rng.IntN(4); k >= 0; k-- {
					ts := int64(b*10 + rng.IntN(30) - 10)
					tr.Observe(i, ts)
					if !h.hasRow[i] || ts > h.maxes[i] {
						h.maxes[i] = ts
					}
					h.hasRow[i] = true
				}
			}
			clock.Advance(time.Duration(rng.IntN(8)) * time.Second)
			h.at = clock.Now()
			history = append(history, h)
			got, gotOK := tr.Advance()

			// Reference: per input, max over all batches so far minus delay;
			// active when a batch with rows lies within idle of now.
			var cands []int64
			blocked, active := false, 0
			var maxAll int64
			anyAll := false
			for i := 0; i < n; i++ {
				var m int64
				seen := false
				last := start
				for _, hh := range history {
					if hh.hasRow[i] {
						if !seen || hh.maxes[i] > m {
							m = hh.maxes[i]
						}
						seen = true
						last = hh.at
					}
				}
				wm := satSub(m, delays[i])
				if seen && (!anyAll || wm > maxAll) {
					maxAll, anyAll = wm, true
				}
				if idle > 0 && h.at.Sub(last) >= idle {
					continue
				}
				active++
				if !seen {
					blocked = true
				} else {
					cands = append(cands, wm)
				}
			}
			var cand int64
			candOK := false
			if !blocked {
				if active == 0 {
					cand, candOK = maxAll, anyAll
				} else {
					cand, candOK = cands[0], true
					for _, x := range cands {
						cand = min(cand, x)
					}
				}
			}
			if candOK && (!flowOK || cand > flow) {
				flow, flowOK = cand, true
			}
			if got != flow || gotOK != flowOK {
				t.Fatalf("seed %d batch %d: tracker %d,%v; reference %d,%v", seed, b, got, gotOK, flow, flowOK)
			}
			if rng.IntN(5) == 0 {
				data, _ := json.Marshal(tr.State())
				var s TrackerState
				if err := json.Unmarshal(data, &s); err != nil {
					t.Fatal(err)
				}
				tr = NewTracker(clock, idle, delays...)
				if err := tr.Restore(s); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

func TestTrackerRestoreMismatch(t *testing.T) {
	tr := NewTracker(nil, 0, 1, 2)
	if err := tr.Restore(TrackerState{Inputs: make([]InputState, 1)}); err == nil {
		t.Fatal(fmt.Sprint("restore of a different input count accepted"))
	}
}
