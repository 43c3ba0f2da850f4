package stream

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"
)

// The equivalence property: feeding a random event stream through the window
// state micro-batch by micro-batch gives the same result as recomputing the
// whole input as a batch, minus exactly the late rows. The late set is
// computed here, independently, from the generated arrival order and the
// DESIGN.md rule; the engine's counters are only checked against it.

type evRow struct {
	id    int
	input int
	key   int
	t     int64
	v     int64
}

type eqCase struct {
	seed     uint64
	spec     Spec
	mode     Mode
	delays   []int64
	idle     time.Duration
	batches  [][]evRow
	clockAdv []time.Duration // processing time passing during each batch
}

// genCase makes a random stream: event times near an increasing nominal
// time with bounded disorder, a random fraction of rows far behind (late
// candidates), random micro-batch splits (some empty), a second input with
// idle gaps, and random processing-time gaps.
func genCase(seed uint64, kind Kind, mode Mode) eqCase {
	rng := rand.New(rand.NewPCG(seed, uint64(kind)*31+uint64(mode)))
	c := eqCase{seed: seed, mode: mode}
	switch kind {
	case Tumbling:
		c.spec = Spec{Kind: Tumbling, Size: 5 + rng.Int64N(40)}
	case Hopping:
		size := 5 + rng.Int64N(40)
		c.spec = Spec{Kind: Hopping, Size: size, Slide: 1 + rng.Int64N(size)}
	case Session:
		c.spec = Spec{Kind: Session, Gap: 2 + rng.Int64N(25)}
	}
	c.spec.AllowedLateness = rng.Int64N(3) * rng.Int64N(15)
	disorder := rng.Int64N(30)
	c.delays = []int64{rng.Int64N(disorder + 1), rng.Int64N(disorder + 1)}
	c.idle = time.Duration(rng.IntN(3)) * 7 * time.Second
	lateFrac := rng.Float64() * 0.3
	n := 50 + rng.IntN(350)
	keys := 1 + rng.IntN(5)
	var nominal int64 = rng.Int64N(100) - 50
	rows := make([]evRow, n)
	input1Off := false
	for i := range rows {
		nominal += rng.Int64N(4)
		t := nominal - rng.Int64N(disorder+1)
		if rng.Float64() < lateFrac {
			t = nominal - disorder - 1 - rng.Int64N(200)
		}
		if rng.IntN(40) == 0 {
			input1Off = !input1Off // idle gaps of input 1
		}
		in := rng.IntN(2)
		if input1Off {
			in = 0
		}
		rows[i] = evRow{id: i, input: in, key: rng.IntN(keys), t: t, v: rng.Int64N(2001) - 1000}
	}
	for len(rows) > 0 {
		k := min(len(rows), rng.IntN(30))
		if rng.IntN(10) == 0 {
			k = 0
		}
		c.batches = append(c.batches, rows[:k])
		rows = rows[k:]
		adv := time.Duration(1+rng.IntN(4)) * time.Second
		if rng.IntN(8) == 0 {
			adv = time.Duration(10+rng.IntN(30)) * time.Second
		}
		c.clockAdv = append(c.clockAdv, adv)
	}
	return c
}

// refWatermarks returns, per batch, the flow watermark in force while it
// runs (ok false: none), from the DESIGN.md rule written out directly: per
// input the max event time of earlier batches minus its delay; the flow's is
// the minimum over inputs that had rows within the idle timeout (the maximum
// when all are idle), never decreasing.
func refWatermarks(c eqCase) (wms []int64, oks []bool, idleMattered int) {
	start := time.Unix(0, 0)
	now := start
	var flow int64
	flowOK := false
	nIn := len(c.delays)
	maxSeen := make([]int64, nIn)
	seen := make([]bool, nIn)
	last := []time.Time{start, start}
	for b, batch := range c.batches {
		wms = append(wms, flow)
		oks = append(oks, flowOK)
		now = now.Add(c.clockAdv[b])
		for _, r := range batch {
			if !seen[r.input] || r.t > maxSeen[r.input] {
				maxSeen[r.input] = r.t
			}
			seen[r.input] = true
			last[r.input] = now
		}
		var act []int64
		blocked := false
		var all []int64
		for i := 0; i < nIn; i++ {
			if seen[i] {
				all = append(all, maxSeen[i]-c.delays[i])
			}
			if c.idle > 0 && now.Sub(last[i]) >= c.idle {
				continue
			}
			if !seen[i] {
				blocked = true
			} else {
				act = append(act, maxSeen[i]-c.delays[i])
			}
		}
		var cand []int64
		useMin := true
		switch {
		case blocked:
		case len(act) == 0:
			cand, useMin = all, false
		default:
			cand = act
		}
		if !blocked && len(act) < len(all) && len(act) > 0 && minOf(act) != minOf(all) {
			idleMattered++
		}
		if len(cand) > 0 {
			x := cand[0]
			for _, y := range cand {
				if (useMin && y < x) || (!useMin && y > x) {
					x = y
				}
			}
			if !flowOK || x > flow {
				flow, flowOK = x, true
			}
		}
	}
	return
}

func minOf(xs []int64) int64 {
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

// refWindows lists the tumbling/hopping windows holding t by testing every
// candidate start near t (a different method from Spec.Assign).
func refWindows(s Spec, t int64) []Window {
	slide := s.Slide
	if s.Kind == Tumbling {
		slide = s.Size
	}
	var out []Window
	k0 := (t-s.Size)/slide - 2
	for k := k0; k*slide <= t+slide; k++ {
		st := k * slide
		if st <= t && t < st+s.Size {
			out = append(out, Window{st, st + s.Size})
		}
	}
	return out
}

type assignment struct {
	row evRow
	w   Window
}

// refSessions splits one key's rows into sessions: sorted by time, a row
// at or beyond the running session's end (last time + gap) starts a new one.
func refSessions(rows []evRow, gap int64) [][]evRow {
	rs := append([]evRow(nil), rows...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].t < rs[j].t })
	var out [][]evRow
	var end int64
	for _, r := range rs {
		if len(out) == 0 || r.t >= end {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], r)
		end = r.t + gap
	}
	return out
}

func sessionWindow(rows []evRow, gap int64) Window {
	w := Window{rows[0].t, rows[0].t + gap}
	for _, r := range rows {
		w.Start = min(w.Start, r.t)
		w.End = max(w.End, r.t+gap)
	}
	return w
}

// refLate classifies every row in arrival order. It returns the accepted
// (row, window) assignments per batch, the ids of rows that are entirely
// late, and the number of late assignments and partly late rows.
func refLate(c eqCase, wms []int64, oks []bool) (acceptedBy [][]evRow, pairs [][]assignment, lateIDs map[int]bool, latePairs, partly int) {
	lateIDs = map[int]bool{}
	l := c.spec.AllowedLateness
	closed := func(end int64, b int) bool { return oks[b] && wms[b] >= end+l }
	accepted := map[int][]evRow{} // per key, rows accepted in earlier batches
	for b, batch := range c.batches {
		var acc []evRow
		var prs []assignment
		for _, r := range batch {
			if c.spec.Kind == Session {
				late := closed(r.t+c.spec.Gap, b)
				for _, sess := range refSessions(accepted[r.key], c.spec.Gap) {
					w := sessionWindow(sess, c.spec.Gap)
					if closed(w.End, b) && w.Start < r.t+c.spec.Gap && r.t < w.End {
						late = true
					}
				}
				if late {
					lateIDs[r.id] = true
					latePairs++
				} else {
					acc = append(acc, r)
				}
				continue
			}
			nl, no := 0, 0
			for _, w := range refWindows(c.spec, r.t) {
				if closed(w.End, b) {
					nl++
				} else {
					no++
					prs = append(prs, assignment{r, w})
				}
			}
			latePairs += nl
			switch {
			case nl > 0 && no == 0:
				lateIDs[r.id] = true
			case nl > 0:
				partly++
			}
			if no > 0 {
				acc = append(acc, r)
			}
		}
		for _, r := range acc {
			accepted[r.key] = append(accepted[r.key], r)
		}
		acceptedBy = append(acceptedBy, acc)
		pairs = append(pairs, prs)
	}
	return
}

type rkey struct {
	key int
	w   Window
}

type ragg struct {
	n, sum, min, max int64
	avg              float64
	fp               uint64
}

func fpOf(id int) uint64 {
	x := uint64(id)*0x9E3779B97F4A7C15 + 1
	x ^= x >> 29
	return x * 0xBF58476D1CE4E5B9
}

// batchRecompute aggregates the accepted assignments of batches [0, upto).
func batchRecompute(c eqCase, acceptedBy [][]evRow, pairs [][]assignment, upto int) map[rkey]ragg {
	out := map[rkey]ragg{}
	add := func(k rkey, rows []evRow) {
		a, ok := out[k]
		for _, r := range rows {
			if !ok {
				a = ragg{min: r.v, max: r.v}
				ok = true
			}
			a.n++
			a.sum += r.v
			a.min = min(a.min, r.v)
			a.max = max(a.max, r.v)
			a.fp += fpOf(r.id)
		}
		a.avg = float64(a.sum) / float64(a.n)
		out[k] = a
	}
	if c.spec.Kind == Session {
		byKey := map[int][]evRow{}
		for _, acc := range acceptedBy[:upto] {
			for _, r := range acc {
				byKey[r.key] = append(byKey[r.key], r)
			}
		}
		for k, rows := range byKey {
			for _, s := range refSessions(rows, c.spec.Gap) {
				add(rkey{k, sessionWindow(s, c.spec.Gap)}, s)
			}
		}
		return out
	}
	for _, prs := range pairs[:upto] {
		for _, p := range prs {
			add(rkey{p.row.key, p.w}, []evRow{p.row})
		}
	}
	return out
}

type eacc struct {
	n   Count
	sum SumInt64
	mn  Min[int64]
	mx  Max[int64]
	avg Avg
	fp  uint64
}

func mergeE(d, s *eacc) error {
	d.n.Merge(&s.n)
	if err := d.sum.Merge(&s.sum); err != nil {
		return err
	}
	d.mn.Merge(&s.mn)
	d.mx.Merge(&s.mx)
	d.avg.Merge(&s.avg)
	d.fp += s.fp
	return nil
}

func toRagg(a eacc) ragg {
	avg, _ := a.avg.Result()
	return ragg{n: a.n.N, sum: a.sum.S, min: a.mn.V, max: a.mx.V, avg: avg, fp: a.fp}
}

func diffResults(got, want map[rkey]ragg) string {
	var out []string
	for k, w := range want {
		if g, ok := got[k]; !ok {
			out = append(out, fmt.Sprintf("missing %v %+v", k, w))
		} else if g != w {
			out = append(out, fmt.Sprintf("%v: got %+v want %+v", k, g, w))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			out = append(out, fmt.Sprintf("extra %v %+v", k, g))
		}
	}
	sort.Strings(out)
	if len(out) > 8 {
		out = append(out[:8], fmt.Sprintf("... %d more", len(out)-8))
	}
	if len(out) == 0 {
		return ""
	}
	return fmt.Sprint(out)
}

type eqTotals struct {
	late, partly, onTime, flushed, closedEarly int
	idle                                       int // batches where an idle input was left out of the minimum
	restores                                   int // snapshot and restore of the state between batches
}

func runEquivalence(t *testing.T, c eqCase, tot *eqTotals) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("seed %d %v/%v size %d slide %d gap %d lateness %d delays %v idle %v: %s",
			c.seed, c.spec.Kind, c.mode, c.spec.Size, c.spec.Slide, c.spec.Gap, c.spec.AllowedLateness, c.delays, c.idle,
			fmt.Sprintf(format, args...))
	}
	wms, oks, idleMattered := refWatermarks(c)
	tot.idle += idleMattered
	acceptedBy, pairs, lateIDs, latePairs, partly := refLate(c, wms, oks)
	want := batchRecompute(c, acceptedBy, pairs, len(c.batches))
	if len(want) == 0 {
		fail("the case has no on-time output")
	}

	clock := NewManualClock(time.Unix(0, 0))
	tr := NewTracker(clock, c.idle, c.delays...)
	st, err := NewState[int, eacc](c.spec, c.mode, mergeE)
	if err != nil {
		fail("%v", err)
	}
	restoreRng := rand.New(rand.NewPCG(c.seed, 77))
	final := map[rkey]ragg{}
	table := map[rkey]ragg{} // update mode: the changelog applied
	engineLate := map[int]bool{}
	emitFinal := func(rows []Row[int, eacc], b int) {
		for _, r := range rows {
			k := rkey{r.Key, r.Window}
			if _, dup := final[k]; dup {
				fail("window %v emitted twice", k)
			}
			final[k] = toRagg(r.Acc)
			if b >= 0 {
				// Closed by batch b's watermark advance, and not before.
				if b+1 < len(wms) && !(oks[b+1] && wms[b+1] >= r.Window.End+c.spec.AllowedLateness) {
					fail("window %v emitted after batch %d, but WM %d < end + lateness", k, b, wms[b+1])
				}
				if oks[b] && wms[b] >= r.Window.End+c.spec.AllowedLateness {
					fail("window %v emitted after batch %d, but it had closed before", k, b)
				}
				tot.closedEarly++
			}
		}
	}
	for b, batch := range c.batches {
		if wm, ok := tr.Current(); ok != oks[b] || (ok && wm != wms[b]) {
			fail("batch %d: tracker WM %d,%v; reference %d,%v", b, wm, ok, wms[b], oks[b])
		}
		for _, r := range batch {
			tr.Observe(r.input, r.t)
			accs, _, err := st.Assign(r.key, r.t)
			if err != nil {
				fail("%v", err)
			}
			if len(accs) == 0 {
				engineLate[r.id] = true
			}
			for _, a := range accs {
				a.n.Add()
				if err := a.sum.Add(r.v); err != nil {
					fail("%v", err)
				}
				a.mn.Add(r.v)
				a.mx.Add(r.v)
				a.avg.Add(float64(r.v))
				a.fp += fpOf(r.id)
			}
		}
		clock.Advance(c.clockAdv[b])
		em := st.Advance(tr.Advance())
		if restoreRng.IntN(4) == 0 {
			// A checkpoint and a restart: the state continues from its
			// snapshot, the watermark tracker from its own.
			snap := st.Snapshot()
			st, _ = NewState[int, eacc](c.spec, c.mode, mergeE)
			if err := st.Restore(snap); err != nil {
				fail("restore after batch %d: %v", b, err)
			}
			ts := tr.State()
			tr = NewTracker(clock, c.idle, c.delays...)
			if err := tr.Restore(ts); err != nil {
				fail("%v", err)
			}
			tot.restores++
		}
		// Eviction: the state holds exactly the windows not yet closed.
		if b+1 < len(wms) {
			open := 0
			for k := range batchRecompute(c, acceptedBy, pairs, b+1) {
				if !oks[b+1] || wms[b+1] < k.w.End+c.spec.AllowedLateness {
					open++
				}
			}
			if got := st.Stats().Open; got != open {
				fail("after batch %d the state holds %d windows, %d are open", b, got, open)
			}
		}
		switch c.mode {
		case Append:
			emitFinal(em.Final, b)
		case Update:
			touched := map[rkey]bool{}
			for _, ch := range em.Changes {
				k := rkey{ch.Key, ch.Window}
				if ch.Kind == Delete {
					if _, ok := table[k]; !ok {
						fail("batch %d: delete of %v, never upserted", b, k)
					}
					delete(table, k)
				} else {
					table[k] = toRagg(ch.Acc)
					touched[k] = true
				}
			}
			if d := diffResults(table, batchRecompute(c, acceptedBy, pairs, b+1)); d != "" {
				fail("update table after batch %d differs from the batch recompute so far: %s", b, d)
			}
			// Upserts are exactly the windows this batch's on-time rows reached.
			wantTouched := map[rkey]bool{}
			so := batchRecompute(c, acceptedBy, pairs, b+1)
			for _, p := range pairs[b] {
				wantTouched[rkey{p.row.key, p.w}] = true
			}
			if c.spec.Kind == Session {
				in := map[int]bool{}
				for _, r := range acceptedBy[b] {
					in[r.id] = true
				}
				byKey := map[int][]evRow{}
				for _, acc := range acceptedBy[:b+1] {
					for _, r := range acc {
						byKey[r.key] = append(byKey[r.key], r)
					}
				}
				for k, rows := range byKey {
					for _, s := range refSessions(rows, c.spec.Gap) {
						for _, r := range s {
							if in[r.id] {
								wantTouched[rkey{k, sessionWindow(s, c.spec.Gap)}] = true
							}
						}
					}
				}
			}
			for k := range wantTouched {
				if !touched[k] {
					fail("batch %d: window %v touched but not upserted", b, k)
				}
				if _, ok := so[k]; !ok {
					fail("internal: %v", k)
				}
			}
			if len(touched) != len(wantTouched) {
				fail("batch %d: %d upserts, %d windows touched", b, len(touched), len(wantTouched))
			}
		case Complete:
			got := map[rkey]ragg{}
			for _, r := range em.Complete {
				got[rkey{r.Key, r.Window}] = toRagg(r.Acc)
			}
			if len(got) != len(em.Complete) {
				fail("batch %d: complete output repeats a window", b)
			}
			if d := diffResults(got, batchRecompute(c, acceptedBy, pairs, b+1)); d != "" {
				fail("complete output after batch %d differs from the batch recompute so far: %s", b, d)
			}
		}
	}
	em := st.Flush()
	switch c.mode {
	case Append:
		tot.flushed += len(em.Final)
		emitFinal(em.Final, -1)
		if d := diffResults(final, want); d != "" {
			fail("append output differs from the batch recompute minus late rows: %s", d)
		}
	case Update:
		for _, ch := range em.Changes {
			if ch.Kind == Delete {
				delete(table, rkey{ch.Key, ch.Window})
			} else {
				table[rkey{ch.Key, ch.Window}] = toRagg(ch.Acc)
			}
		}
		if d := diffResults(table, want); d != "" {
			fail("update table differs from the batch recompute minus late rows: %s", d)
		}
	case Complete:
		got := map[rkey]ragg{}
		for _, r := range em.Complete {
			got[rkey{r.Key, r.Window}] = toRagg(r.Acc)
		}
		if d := diffResults(got, want); d != "" {
			fail("complete output differs from the batch recompute minus late rows: %s", d)
		}
	}
	if st.Stats().Open != 0 {
		fail("%d entries left after Flush", st.Stats().Open)
	}
	// The engine's late rows are exactly the independently computed ones.
	for id := range lateIDs {
		if !engineLate[id] {
			fail("row %d is late by the rule, the engine kept it", id)
		}
	}
	for id := range engineLate {
		if !lateIDs[id] {
			fail("row %d dropped by the engine, on time by the rule", id)
		}
	}
	s := st.Stats()
	if s.LateRows != int64(len(lateIDs)) || s.LateAssignments != int64(latePairs) || s.PartlyLateRows != int64(partly) {
		fail("counters %+v; rule: %d late rows, %d late assignments, %d partly late", s, len(lateIDs), latePairs, partly)
	}
	tot.late += len(lateIDs)
	tot.partly += partly
	tot.onTime += len(want)
}

func TestEquivalenceWithBatchRecompute(t *testing.T) {
	cases := 60
	if testing.Short() {
		cases = 15
	}
	for _, kind := range []Kind{Tumbling, Hopping, Session} {
		for _, mode := range []Mode{Append, Update, Complete} {
			t.Run(kind.String()+"/"+mode.String(), func(t *testing.T) {
				var tot eqTotals
				for i := 0; i < cases; i++ {
					runEquivalence(t, genCase(uint64(i), kind, mode), &tot)
				}
				t.Logf("%d cases: %d late rows, %d partly late, %d on-time windows, %d closed by the watermark, %d at end of input, %d batches where idleness moved the watermark, %d restores from snapshots",
					cases, tot.late, tot.partly, tot.onTime, tot.closedEarly, tot.flushed, tot.idle, tot.restores)
				if tot.idle == 0 {
					t.Error("no case had an idle input that mattered")
				}
				// The property is only meaningful if lateness and closing happen.
				if tot.late == 0 {
					t.Error("no case produced a late row")
				}
				if kind == Hopping && tot.partly == 0 {
					t.Error("no hopping case produced a partly late row")
				}
				if mode == Append && tot.closedEarly == 0 {
					t.Error("no window closed by the watermark before the end of input")
				}
			})
		}
	}
}
