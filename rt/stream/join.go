package stream

import (
	"fmt"
)

// IntervalJoin is the state of an inner join of two streams on an equality
// key and a time bound: a left row at time tl matches a right row at tr of
// the same key when tl+Lower <= tr <= tl+Upper. Each row probes the other
// side's state as it arrives and is then kept until no future on-time row of
// the other side could match it.
//
// A row is late, as Spark's stream-stream joins judge it, when its event
// time is <= H, H being WM - allowed lateness floored to whole milliseconds
// and WM the flow's watermark (the minimum over both inputs). Late rows are
// dropped and counted. Every future on-time row has t > H; as Spark does
// (its state watermark is a millisecond short of H), a left row is evicted
// once tl+Upper <= H - 1ms and a right row once tr-Lower <= H - 1ms, so
// eviction never loses a match and a row whose bound is within the last
// millisecond up to H is held (and, in an outer join, emitted NULL-padded)
// until a later watermark.
type IntervalJoin[K comparable, L, R any] struct {
	lower, upper, lateness int64
	grain                  int64 // units per millisecond
	wm                     int64
	hasWM                  bool
	left                   joinSide[K, L]
	right                  joinSide[K, R]
	stats                  JoinStats
}

// JoinStats counts what an interval join saw.
type JoinStats struct {
	LeftRows, RightRows int64 // rows added, late ones included
	LateLeft, LateRight int64 // dropped as late
	Pairs               int64 // matches emitted
	Held                int   // rows in state now
	Evicted             int64
}

// NewIntervalJoin returns empty join state for the bound
// tl+lower <= tr <= tl+upper (lower <= upper; either may be negative);
// grain is the units in a millisecond.
func NewIntervalJoin[K comparable, L, R any](lower, upper, allowedLateness, grain int64) (*IntervalJoin[K, L, R], error) {
	if lower > upper {
		return nil, fmt.Errorf("interval join bound [%d, %d] is empty", lower, upper)
	}
	if allowedLateness < 0 {
		return nil, fmt.Errorf("allowed lateness %d is negative", allowedLateness)
	}
	if grain < 1 {
		return nil, fmt.Errorf("interval join grain %d is not positive", grain)
	}
	return &IntervalJoin[K, L, R]{
		lower: lower, upper: upper, lateness: allowedLateness, grain: grain,
		left:  newJoinSide[K, L](upper, false),
		right: newJoinSide[K, R](lower, true),
	}, nil
}

// late reports whether event time t is late under the current watermark.
func (j *IntervalJoin[K, L, R]) late(t int64) bool {
	return j.hasWM && t <= j.horizon()
}

// horizon is H: the watermark less the allowed lateness, floored to whole
// milliseconds.
func (j *IntervalJoin[K, L, R]) horizon() int64 {
	return floorGrain(satSub(j.wm, j.lateness), j.grain)
}

// AddLeft adds one left row: emit is called with each matching right row
// already held, and the row is kept. It returns false, calling nothing, when
// the row is late.
func (j *IntervalJoin[K, L, R]) AddLeft(key K, t int64, row L, emit func(L, R)) bool {
	return j.AddLeftM(key, t, row, func(l L, r R, _ Match) { emit(l, r) })
}

// AddRight adds one right row; see AddLeft.
func (j *IntervalJoin[K, L, R]) AddRight(key K, t int64, row R, emit func(L, R)) bool {
	return j.AddRightM(key, t, row, func(l L, r R, _ Match) { emit(l, r) })
}

// Match is a pair a probe found, for an outer join: Set marks both of its
// rows matched when the pair passes the join's whole condition (the key and
// the time bound are only what the state can test). A held row evicted
// unmatched is handed to Advance's unmatched callback, to be emitted
// NULL-padded. A Match is valid until the join's next Add or Advance (it
// points into the held rows' columns, which grow and are compacted).
type Match struct{ l, r *bool }

// Set marks the pair's two rows matched.
func (m Match) Set() { *m.l, *m.r = true, true }

// AddLeftM is AddLeft for outer joins: emit also gets the pair's Match.
func (j *IntervalJoin[K, L, R]) AddLeftM(key K, t int64, row L, emit func(L, R, Match)) bool {
	j.stats.LeftRows++
	if j.late(t) {
		j.stats.LateLeft++
		return false
	}
	lo, hi := satAdd(t, j.lower), satAdd(t, j.upper)
	me := j.left.add(key, t, row, false)
	j.right.probe(key, lo, hi, func(r R, matched *bool) {
		j.stats.Pairs++
		emit(row, r, Match{me, matched})
	})
	return true
}

// AddRightM is AddRight for outer joins; see AddLeftM.
func (j *IntervalJoin[K, L, R]) AddRightM(key K, t int64, row R, emit func(L, R, Match)) bool {
	j.stats.RightRows++
	if j.late(t) {
		j.stats.LateRight++
		return false
	}
	lo, hi := satSub(t, j.upper), satSub(t, j.lower)
	me := j.right.add(key, t, row, false)
	j.left.probe(key, lo, hi, func(l L, matched *bool) {
		j.stats.Pairs++
		emit(l, row, Match{matched, me})
	})
	return true
}

// Late reports whether event time t is late under the current watermark
// (t <= H, see IntervalJoin).
func (j *IntervalJoin[K, L, R]) Late(t int64) bool { return j.late(t) }

// Advance ends a micro-batch with the flow's watermark and evicts the rows no
// future on-time row can match. The watermark never decreases.
func (j *IntervalJoin[K, L, R]) Advance(wm int64, ok bool) {
	j.AdvanceOuter(wm, ok, nil, nil)
}

// AdvanceOuter is Advance for outer joins: each evicted row that no pair
// matched goes to its side's callback (nil for a side that is not
// preserved), in the order of the time after which it could match no more,
// so that it is emitted NULL-padded once, when the watermark passes its time
// bound.
func (j *IntervalJoin[K, L, R]) AdvanceOuter(wm int64, ok bool, unmatchedLeft func(L), unmatchedRight func(R)) {
	if ok && (!j.hasWM || wm > j.wm) {
		j.wm, j.hasWM = wm, true
	}
	if !j.hasWM {
		return
	}
	h := satSub(j.horizon(), j.grain)
	j.left.evict(h, unmatchedLeft)
	j.right.evict(h, unmatchedRight)
}

// Stats returns the counters.
func (j *IntervalJoin[K, L, R]) Stats() JoinStats {
	s := j.stats
	s.Held = j.left.held + j.right.held
	s.Evicted = j.left.evicted + j.right.evicted
	return s
}

// HeldBytes estimates the memory the held rows take, for --memory-limit:
// their columns, evicted rows not given back yet included, and the index
// of each side (what the rows refer to, such as strings, is not counted).
func (j *IntervalJoin[K, L, R]) HeldBytes() int64 { return j.left.bytes() + j.right.bytes() }

// JoinSnapshot is an IntervalJoin's contents between micro-batches, for a
// checkpoint (plain values; L and R must be encodable by the store).
type JoinSnapshot[K comparable, L, R any] struct {
	WM    *int64          `json:"wm,omitempty"`
	Stats JoinStats       `json:"stats"`
	Left  []JoinRow[K, L] `json:"left"`
	Right []JoinRow[K, R] `json:"right"`
}

// JoinRow is one held row of a JoinSnapshot.
type JoinRow[K comparable, T any] struct {
	Key K     `json:"key"`
	T   int64 `json:"t"`
	Row T     `json:"row"`
}

func snapSide[K comparable, T any](s *joinSide[K, T]) []JoinRow[K, T] {
	var out []JoinRow[K, T]
	// in arrival order: reproducible, and restored in the same order, so
	// that a probe pairs the rows in the same order after a restart
	s.each(func(k K, t int64, row T, _ bool) { out = append(out, JoinRow[K, T]{k, t, row}) })
	return out
}

// Snapshot returns the join's contents.
func (j *IntervalJoin[K, L, R]) Snapshot() JoinSnapshot[K, L, R] {
	return JoinSnapshot[K, L, R]{WM: ptr(j.wm, j.hasWM), Stats: j.stats, Left: snapSide(&j.left), Right: snapSide(&j.right)}
}

// Restore loads a snapshot into an empty join of the same bound.
func (j *IntervalJoin[K, L, R]) Restore(s JoinSnapshot[K, L, R]) error {
	if j.left.held+j.right.held != 0 || j.stats.LeftRows+j.stats.RightRows != 0 {
		return fmt.Errorf("restore into a join that is not empty")
	}
	j.wm, j.hasWM = 0, false
	if s.WM != nil {
		j.wm, j.hasWM = *s.WM, true
	}
	j.stats = s.Stats
	j.stats.Held, j.stats.Evicted = 0, 0
	j.left.evicted = s.Stats.Evicted // the sides' split is not kept; the sum is
	for _, r := range s.Left {
		j.left.add(r.Key, r.T, r.Row, false)
	}
	for _, r := range s.Right {
		j.right.add(r.Key, r.T, r.Row, false)
	}
	return nil
}
