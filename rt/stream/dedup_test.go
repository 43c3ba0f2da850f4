package stream

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/nordisk/thund/rt/pqstate"
)

// TestDedupBoundaries replays the micro-batches run on Spark 4.1.4 and
// 4.2.1 (a file stream with withWatermark("t", "10 seconds") and
// dropDuplicatesWithinWatermark(["k"]), one availableNow run per batch),
// with Spark's answers: times in seconds, a key's state expires when the
// watermark reaches its first time plus 10 (>=), a row is late when its
// time is <= the watermark, a NULL time is never late and is held as the
// epoch.
func TestDedupBoundaries(t *testing.T) {
	type in struct {
		k  string
		t  int64
		ok bool
	}
	batches := []struct {
		rows []in
		want []Seen
		wm   int64 // the flow's watermark at the batch's end
	}{
		{[]in{{"a", 100, true}, {"b", 100, true}}, []Seen{First, First}, 90},
		// a's state expires at 110: a@105 is a duplicate; e's NULL time
		{[]in{{"a", 105, true}, {"c", 120, true}, {"e", 0, false}}, []Seen{Duplicate, First, First}, 110},
		// the watermark reached 110: a and b expired (110 >= 110), e too;
		// b@110 is late (110 <= 110)
		{[]in{{"a", 111, true}, {"b", 110, true}, {"c", 121, true}, {"e", 115, true}, {"", 113, true}},
			[]Seen{First, Late, Duplicate, First, First}, 111},
		{[]in{{"d", 111, true}, {"d", 112, true}, {"", 114, true}}, []Seen{Late, First, Duplicate}, 104},
	}
	d, err := NewDedup[string](10, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range batches {
		for j, r := range b.rows {
			if got := d.Add(r.k, r.t, r.ok); got != b.want[j] {
				t.Errorf("batch %d row %+v: %v, want %v", i, r, got, b.want[j])
			}
		}
		d.Advance(b.wm, true)
	}
	// held: c (130), a (121), e (125), the empty key (123), d (122)
	if s := d.Stats(); s.Held != 5 || s.Late != 2 || s.Duplicates != 3 || s.Passed != 8 || s.Evicted != 3 || s.Rows != 13 {
		t.Errorf("stats %+v", s)
	}
}

// TestDedupEpochAndLateness checks Spark's watermark before any batch (the
// epoch: a time at or before it is late) and an allowed lateness L, which
// the Spark targets fold into the delay: the dedup's watermark is the
// flow's less L, and a key lives for the delay given (delay plus L).
func TestDedupEpochAndLateness(t *testing.T) {
	d, _ := NewDedup[string](10, 0, 1)
	if d.Add("x", -10, true) != Late || d.Add("y", 0, true) != Late || d.Add("z", 1, true) != First {
		t.Error("before any watermark, times at or before the epoch are late")
	}
	d.Advance(-50, true) // the watermark never goes below the epoch
	if d.Add("w", 0, true) != Late {
		t.Error("the watermark went below the epoch")
	}
	// delay 2 + lateness 3: held for 5; the watermark is the flow's less 3
	l, _ := NewDedup[string](5, 3, 1)
	l.Add("k", 100, true)
	l.Advance(107, true) // Spark's 104 < 105: k held
	if l.Add("k", 106, true) != Duplicate || l.Add("j", 105, true) != First || l.Add("i", 104, true) != Late {
		t.Error("lateness: k expires at 105 against the flow's watermark less 3")
	}
	l.Advance(108, true) // Spark's 105: k expires
	if l.Add("k", 106, true) != First {
		t.Error("lateness: k did not expire when the watermark less the lateness reached 105")
	}
	if _, err := NewDedup[string](-1, 0, 1); err == nil {
		t.Error("a negative delay was accepted")
	}
	if _, err := NewDedup[string](1, 0, 0); err == nil {
		t.Error("a grain of 0 was accepted")
	}
}

// TestDedupMilliseconds replays a stream run on Spark 4.1.4 with event
// times in microseconds (a delay of 10s): Spark's watermark is whole
// milliseconds, the greatest time truncated less the delay, so after
// 100.0005s it is 90.000s, not 90.0005s: a row at 90.0003s is on time, one
// at 90.000s late; a key held from 100.0005s expires when the watermark
// reaches 110.0005s, that is at 110.001s.
func TestDedupMilliseconds(t *testing.T) {
	d, _ := NewDedup[string](10_000_000, 0, 1000) // microseconds
	d.Add("a", 100_000_500, true)
	d.Advance(100_000_500-10_000_000, true)
	if d.Add("c", 90_000_300, true) != First || d.Add("d", 90_000_000, true) != Late {
		t.Error("the watermark is not 90.000s")
	}
	d.Advance(120_000_999-10_000_000, true) // 110.000999s: 110.000s
	if d.Add("a", 115_000_000, true) != Duplicate {
		t.Error("a expired at 110.000s, before its expiry 110.0005s")
	}
	d.Advance(120_001_000-10_000_000, true)
	if d.Add("a", 115_000_000, true) != First {
		t.Error("a did not expire at 110.001s")
	}
	n, _ := NewDedup[string](0, 0, 1000)
	n.Advance(-1500, true) // before the epoch: floored, and never below 0
	if n.Add("x", 1, true) != First || n.Add("y", 0, true) != Late {
		t.Error("a watermark before the epoch")
	}
}

// TestDedupProperty feeds random rows in random micro-batches through
// dedup state, checkpointing and restoring it between some of them, and
// checks every verdict against a model that scans all keys (no heap).
func TestDedupProperty(t *testing.T) {
	type key struct {
		K  string
		OK bool
	}
	for c := 0; c < 100; c++ {
		rng := rand.New(rand.NewPCG(uint64(c), 7))
		delay, lateness := int64(rng.IntN(6)), int64(rng.IntN(3))
		d, err := NewDedup[key](delay+lateness, lateness, 1)
		if err != nil {
			t.Fatal(err)
		}
		model := map[key]int64{}
		var wm, maxT int64
		hasMax := false
		for b := 0; b < 30; b++ {
			for n := rng.IntN(8); n > 0; n-- {
				k := key{fmt.Sprint("k", rng.IntN(5)), rng.IntN(6) != 0}
				tt := 20 + int64(b)*2 - int64(rng.IntN(12))
				ok := rng.IntN(10) != 0
				want := First
				switch _, held := model[k]; {
				case ok && tt <= wm:
					want = Late
				case held:
					want = Duplicate
				default:
					if !ok {
						model[k] = delay + lateness
					} else {
						model[k] = tt + delay + lateness
					}
				}
				if got := d.Add(k, tt, ok); got != want {
					t.Fatalf("case %d batch %d: %+v at %d (%v): %v, want %v", c, b, k, tt, ok, got, want)
				}
				if ok {
					maxT, hasMax = max(maxT, tt), true
				}
			}
			if hasMax {
				wm = max(wm, maxT-delay-lateness)
				d.Advance(maxT-delay, true)
			} else {
				d.Advance(0, false)
			}
			for k, at := range model {
				if at <= wm {
					delete(model, k)
				}
			}
			if d.Len() != len(model) {
				t.Fatalf("case %d batch %d: %d keys held, want %d", c, b, d.Len(), len(model))
			}
			if rng.IntN(3) == 0 {
				s := d.Snapshot()
				d, _ = NewDedup[key](delay+lateness, lateness, 1)
				if err := d.Restore(s); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// TestDedupRestore: a snapshot goes through a checkpoint's encoding
// (rt/pqstate) and back with its watermark, keys (a generated key struct's
// shape: a value and its NULL flag) and counters; it restores only into
// empty state, and holds each key once.
func TestDedupRestore(t *testing.T) {
	type key struct {
		K0   string
		K0ok bool
	}
	d, _ := NewDedup[key](10, 0, 1)
	d.Add(key{"a", true}, 5, true)
	d.Add(key{}, 30, true)
	d.Add(key{"b", true}, 0, false)
	d.Advance(12, true) // b (10) expires
	data, err := pqstate.Marshal(&struct{ D0 DedupSnapshot[key] }{d.Snapshot()})
	if err != nil {
		t.Fatal(err)
	}
	var st struct{ D0 DedupSnapshot[key] }
	if err := pqstate.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	r, _ := NewDedup[key](10, 0, 1)
	if err := r.Restore(st.D0); err != nil {
		t.Fatal(err)
	}
	if got := r.Snapshot(); fmt.Sprint(got) != fmt.Sprint(d.Snapshot()) || got.WM != 12 || len(got.Keys) != 2 {
		t.Errorf("round trip: %+v, want %+v", got, d.Snapshot())
	}
	if r.Add(key{"a", true}, 13, true) != Duplicate || r.Add(key{}, 13, true) != Duplicate || r.Add(key{"b", true}, 13, true) != First || r.Add(key{"c", true}, 12, true) != Late {
		t.Error("the restored state does not hold a and NULL (expiring at 15 and 40) behind watermark 12")
	}
	r.Advance(15, true)
	if r.Add(key{"a", true}, 16, true) != First {
		t.Error("a did not expire at 15 after a restore")
	}
	if err := r.Restore(DedupSnapshot[key]{}); err == nil {
		t.Error("restored into state that is not empty")
	}
	e, _ := NewDedup[string](10, 0, 1)
	if err := e.Restore(DedupSnapshot[string]{Keys: []DedupKey[string]{{"a", 1}, {"a", 2}}}); err == nil {
		t.Error("restored a key held twice")
	}
}
