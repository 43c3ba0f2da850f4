package stream

import (
	"fmt"
	"math"
	"time"
)

// Event times, delays, window sizes and lateness are int64 counts of one
// unit, the unit of the event-time column (an Arrow timestamp's unit). The
// runtime never converts units; generated code converts the declared
// durations into the column's unit once.

// satAdd is a+b clamped to the int64 range.
func satAdd(a, b int64) int64 {
	s := a + b
	if b > 0 && s < a {
		return math.MaxInt64
	}
	if b < 0 && s > a {
		return math.MinInt64
	}
	return s
}

// satSub is a-b clamped to the int64 range.
func satSub(a, b int64) int64 {
	if b == math.MinInt64 {
		if a >= 0 {
			return math.MaxInt64
		}
		return a - b
	}
	return satAdd(a, -b)
}

// floorGrain floors w to a multiple of grain, the units in a millisecond:
// Spark's watermark is whole milliseconds.
func floorGrain(w, grain int64) int64 {
	if r := w % grain; r != 0 {
		w -= r
		if r < 0 {
			w -= grain
		}
	}
	return w
}

// Watermark is the watermark of one stream read (DESIGN.md): the maximum
// event time seen in earlier micro-batches minus the delay, never
// decreasing. Observe every row's event time during a micro-batch; Advance at
// its end. Until the first Advance after a row was seen there is no
// watermark (nothing is late, no window closes).
type Watermark struct {
	Delay int64
	max   int64
	seen  bool
	wm    int64
	has   bool
}

// NewWatermark returns the watermark of a read declared with delay.
func NewWatermark(delay int64) *Watermark { return &Watermark{Delay: delay} }

// Observe records one row's event time in the current micro-batch.
func (w *Watermark) Observe(t int64) {
	if !w.seen || t > w.max {
		w.max, w.seen = t, true
	}
}

// Current is the watermark in force for the current micro-batch; ok is false
// before there is one.
func (w *Watermark) Current() (wm int64, ok bool) { return w.wm, w.has }

// Advance ends a micro-batch: the watermark becomes max seen - delay unless
// that is lower than it already is. It returns the new watermark.
func (w *Watermark) Advance() (int64, bool) {
	if w.seen {
		c := satSub(w.max, w.Delay)
		if !w.has || c > w.wm {
			w.wm, w.has = c, true
		}
	}
	return w.wm, w.has
}

// Tracker combines the watermarks of a flow's stream inputs: the flow's
// watermark is the minimum over its inputs, except that an input which has
// had no rows for the idle timeout (processing time, read from the Clock)
// stops holding it back. When every input is idle, the flow's watermark is
// the maximum of theirs (nothing is arriving that it could make late). The
// flow's watermark never decreases: when an idle input wakes up with a lower
// watermark, its rows below the flow's watermark are judged late.
type Tracker struct {
	clock  Clock
	idle   time.Duration
	inputs []trackedInput
	wm     int64
	has    bool
}

type trackedInput struct {
	w          Watermark
	lastActive time.Time
	rows       bool // rows in the current micro-batch
}

// NewTracker tracks one input per delay. idleTimeout 0 disables idleness.
// Processing time starts at clock.Now(): an input that never receives a row
// turns idle one timeout later.
func NewTracker(clock Clock, idleTimeout time.Duration, delays ...int64) *Tracker {
	if clock == nil {
		clock = WallClock{}
	}
	t := &Tracker{clock: clock, idle: idleTimeout}
	now := clock.Now()
	for _, d := range delays {
		t.inputs = append(t.inputs, trackedInput{w: Watermark{Delay: d}, lastActive: now})
	}
	return t
}

// Observe records one row of input i in the current micro-batch.
func (t *Tracker) Observe(i int, ts int64) {
	in := &t.inputs[i]
	in.w.Observe(ts)
	in.rows = true
}

// ObserveMax records that input i had rows in the current micro-batch whose
// greatest event time is maxTS (a generated loop may keep the maximum itself
// and report it once per batch).
func (t *Tracker) ObserveMax(i int, maxTS int64) { t.Observe(i, maxTS) }

// Current is the flow's watermark in force for the current micro-batch.
func (t *Tracker) Current() (int64, bool) { return t.wm, t.has }

// Input is input i's own watermark.
func (t *Tracker) Input(i int) (int64, bool) { return t.inputs[i].w.Current() }

// Idle reports whether input i is idle now: it has had no rows (in a
// micro-batch that ended) for the idle timeout.
func (t *Tracker) Idle(i int) bool {
	return t.idle > 0 && t.clock.Now().Sub(t.inputs[i].lastActive) >= t.idle
}

// Advance ends a micro-batch: every input's watermark advances, and the
// flow's becomes the minimum over the inputs that are not idle (the maximum
// when all are), if that is higher. It returns the new flow watermark.
func (t *Tracker) Advance() (int64, bool) {
	now := t.clock.Now()
	var (
		min, max       int64
		anyMin, anyMax bool
		blocked        bool // an active input has no watermark yet
		active         int
	)
	for i := range t.inputs {
		in := &t.inputs[i]
		if in.rows {
			in.lastActive = now
			in.rows = false
		}
		wm, ok := in.w.Advance()
		if ok && (!anyMax || wm > max) {
			max, anyMax = wm, true
		}
		if t.idle > 0 && now.Sub(in.lastActive) >= t.idle {
			continue
		}
		active++
		if !ok {
			blocked = true
			continue
		}
		if !anyMin || wm < min {
			min, anyMin = wm, true
		}
	}
	var cand int64
	var ok bool
	switch {
	case blocked:
	case active == 0:
		cand, ok = max, anyMax
	default:
		cand, ok = min, anyMin
	}
	if ok && (!t.has || cand > t.wm) {
		t.wm, t.has = cand, true
	}
	return t.wm, t.has
}

// TrackerState is a Tracker's checkpointable state.
type TrackerState struct {
	WM     *int64       `json:"wm,omitempty"`
	Inputs []InputState `json:"inputs"`
}

// InputState is one input's part of a TrackerState.
type InputState struct {
	MaxSeen    *int64    `json:"max_seen,omitempty"`
	WM         *int64    `json:"wm,omitempty"`
	LastActive time.Time `json:"last_active"`
}

func ptr(v int64, ok bool) *int64 {
	if !ok {
		return nil
	}
	return &v
}

// State snapshots the tracker between micro-batches.
func (t *Tracker) State() TrackerState {
	s := TrackerState{WM: ptr(t.wm, t.has)}
	for _, in := range t.inputs {
		s.Inputs = append(s.Inputs, InputState{MaxSeen: ptr(in.w.max, in.w.seen), WM: ptr(in.w.wm, in.w.has), LastActive: in.lastActive})
	}
	return s
}

// Restore loads a snapshot taken by State from a tracker of the same inputs.
func (t *Tracker) Restore(s TrackerState) error {
	if len(s.Inputs) != len(t.inputs) {
		return fmt.Errorf("watermark state has %d inputs, the flow has %d", len(s.Inputs), len(t.inputs))
	}
	t.wm, t.has = 0, false
	if s.WM != nil {
		t.wm, t.has = *s.WM, true
	}
	for i, in := range s.Inputs {
		w := &t.inputs[i].w
		w.max, w.seen, w.wm, w.has = 0, false, 0, false
		if in.MaxSeen != nil {
			w.max, w.seen = *in.MaxSeen, true
		}
		if in.WM != nil {
			w.wm, w.has = *in.WM, true
		}
		t.inputs[i].lastActive = in.LastActive
		t.inputs[i].rows = false
	}
	return nil
}
