package stream

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOuterJoinProperty streams random rows of two sides through an outer
// interval join, batch by batch, with a residual condition the state cannot
// see (a pair matches only when its values' sum is not divisible by 3), and
// compares everything emitted (pairs that pass, and the rows evicted
// unmatched, NULL-padded) with a brute-force left, right and full outer join
// of the rows that were on time. It checkpoints and restores the state
// between some batches, as a restarted flow does.
func TestOuterJoinProperty(t *testing.T) {
	type ev struct {
		id, key int
		t       int64
		left    bool
	}
	padded := 0
	for c := 0; c < 200; c++ {
		rng := rand.New(rand.NewPCG(uint64(c), 7))
		lower := rng.Int64N(21) - 10
		upper := lower + rng.Int64N(20)
		lateness, delay := rng.Int64N(6), rng.Int64N(6)
		preserveL, preserveR := c%3 != 1, c%3 != 0 // left, right, full
		residual := func(l, r int) bool { return (l+r)%3 != 0 }
		j, err := NewIntervalJoin[int, int, int](lower, upper, lateness, 1)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		emit := func(l, r int, m Match) {
			if residual(l, r) {
				m.Set()
				got = append(got, fmt.Sprintf("%d+%d", l, r))
			}
		}
		var onTime []ev
		var wm int64
		hasWM, maxT, nominal, id := false, int64(math.MinInt64), int64(0), 0
		for b := 0; b < 10+rng.IntN(30); b++ {
			for k := rng.IntN(10); k > 0; k-- {
				nominal += rng.Int64N(3)
				e := ev{id: id, key: rng.IntN(3), t: nominal - rng.Int64N(20), left: rng.IntN(2) == 0}
				id++
				maxT = max(maxT, e.t)
				late := hasWM && e.t <= wm-lateness
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
				}
			}
			if maxT != math.MinInt64 && (!hasWM || maxT-delay > wm) {
				wm, hasWM = maxT-delay, true
			}
			var unL, unR func(int)
			if preserveL {
				unL = func(l int) { got = append(got, fmt.Sprintf("%d+null", l)) }
			}
			if preserveR {
				unR = func(r int) { got = append(got, fmt.Sprintf("null+%d", r)) }
			}
			j.AdvanceOuter(wm, hasWM, unL, unR)
			if rng.IntN(3) == 0 { // a restart: checkpoint, restore into new state
				snap := j.SnapshotOuter()
				j, _ = NewIntervalJoin[int, int, int](lower, upper, lateness, 1)
				if err := j.RestoreOuter(snap); err != nil {
					t.Fatal(err)
				}
			}
		}
		// the end of the input: every held row is evicted
		var unL, unR func(int)
		if preserveL {
			unL = func(l int) { got = append(got, fmt.Sprintf("%d+null", l)) }
		}
		if preserveR {
			unR = func(r int) { got = append(got, fmt.Sprintf("null+%d", r)) }
		}
		j.AdvanceOuter(math.MaxInt64, true, unL, unR)
		if s := j.Stats(); s.Held != 0 {
			t.Fatalf("case %d: %d rows held after the end", c, s.Held)
		}
		var want []string
		matched := map[int]bool{}
		for _, l := range onTime {
			for _, r := range onTime {
				if l.left && !r.left && l.key == r.key && l.t+lower <= r.t && r.t <= l.t+upper && residual(l.id, r.id) {
					want = append(want, fmt.Sprintf("%d+%d", l.id, r.id))
					matched[l.id], matched[r.id] = true, true
				}
			}
		}
		for _, e := range onTime {
			switch {
			case matched[e.id]:
			case e.left && preserveL:
				want = append(want, fmt.Sprintf("%d+null", e.id))
				padded++
			case !e.left && preserveR:
				want = append(want, fmt.Sprintf("null+%d", e.id))
				padded++
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("case %d (bound [%d, %d], lateness %d, delay %d, left %v right %v):\n got %v\nwant %v", c, lower, upper, lateness, delay, preserveL, preserveR, got, want)
		}
	}
	if padded == 0 {
		t.Fatal("no case emitted a NULL-padded row")
	}
}

// TestOuterJoinSparkBoundary replays, in microseconds, a full outer join
// run on Spark 4.1.4 and 4.2.1 (bt between at - 3s and at + 5s, both
// watermarks delayed 2s, each side's first batch topped by 10.0009s): the
// watermark is 8.000s, the millisecond-floored 10.0009s less the delay; a
// left row is NULL-padded once at+5s <= 7.999s (2.999s and 2.998s are,
// 2.9995s and 3s are not), a right row once bt+3s <= 7.999s, and a later
// row at or before 8.000s is late (8s and 7.9995s are, 8.0005s is not).
func TestOuterJoinSparkBoundary(t *testing.T) {
	const s, ms = 1_000_000, 1_000
	j, err := NewIntervalJoin[string, string, string](-3*s, 5*s, 0, ms)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	emit := func(l, r string, m Match) { m.Set(); got = append(got, l+"+"+r) }
	for _, r := range []struct {
		k string
		t int64
	}{{"x", 10*s + 900}, {"z", 3 * s}, {"q", 3*s + 500}, {"e", 3*s - 500}, {"f", 3*s - ms}, {"g", 3*s - 2*ms}} {
		j.AddLeftM(r.k, r.t, "a"+r.k, emit)
	}
	for _, r := range []struct {
		k string
		t int64
	}{{"x", 10*s + 900}, {"r1", 5 * s}, {"r2", 5*s - 500}, {"r3", 5*s - ms}} {
		j.AddRightM(r.k, r.t, "b"+r.k, emit)
	}
	j.AdvanceOuter(10*s+900-2*s, true,
		func(l string) { got = append(got, l+"+null") },
		func(r string) { got = append(got, "null+"+r) })
	slices.Sort(got)
	if want := []string{"af+null", "ag+null", "ax+bx", "null+br3"}; !slices.Equal(got, want) {
		t.Fatalf("after the first batch: got %v, want %v", got, want)
	}
	for _, c := range []struct {
		t    int64
		late bool
	}{{8 * s, true}, {8*s - 500, true}, {8*s + 500, false}} {
		if j.Late(c.t) != c.late {
			t.Errorf("Late(%d) = %v, want %v", c.t, !c.late, c.late)
		}
	}
}
