package stream

import (
	"fmt"
	"math"
)

// Kind is a window kind.
type Kind uint8

const (
	Tumbling Kind = iota + 1
	Hopping
	Session
)

func (k Kind) String() string {
	switch k {
	case Tumbling:
		return "tumbling"
	case Hopping:
		return "hopping"
	case Session:
		return "session"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Mode is a streaming output mode.
type Mode uint8

const (
	// Append emits each window's final row once, when it closes.
	Append Mode = iota + 1
	// Update emits, at the end of every micro-batch, an upsert for each
	// window the batch touched (and, for session windows, a delete for each
	// earlier-emitted session that was merged away or changed its bounds).
	Update
	// Complete emits the whole result table at every micro-batch; closed
	// windows keep their final rows, so the state grows with the result.
	Complete
)

func (m Mode) String() string {
	switch m {
	case Append:
		return "append"
	case Update:
		return "update"
	case Complete:
		return "complete"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Window is a half-open event-time interval [Start, End).
type Window struct{ Start, End int64 }

// Spec declares a window and its allowed lateness (all in event-time units).
type Spec struct {
	Kind  Kind
	Size  int64 // tumbling and hopping
	Slide int64 // hopping: 0 < Slide <= Size
	Gap   int64 // session: rows less than Gap apart are one session
	// AllowedLateness: a window closes once the watermark reaches its end
	// plus this.
	AllowedLateness int64
	// Grain is the event-time units in a millisecond (0 counts as 1): the
	// watermark is floored to it, as Spark's is whole milliseconds, so that
	// a session ending within the millisecond after it stays open.
	Grain int64
}

// Validate reports a malformed spec.
func (s Spec) Validate() error {
	if s.AllowedLateness < 0 {
		return fmt.Errorf("allowed lateness %d is negative", s.AllowedLateness)
	}
	if s.Grain < 0 {
		return fmt.Errorf("window grain %d is negative", s.Grain)
	}
	switch s.Kind {
	case Tumbling:
		if s.Size <= 0 {
			return fmt.Errorf("tumbling window size %d: want > 0", s.Size)
		}
	case Hopping:
		if s.Size <= 0 || s.Slide <= 0 || s.Slide > s.Size {
			return fmt.Errorf("hopping window size %d, slide %d: want 0 < slide <= size", s.Size, s.Slide)
		}
	case Session:
		if s.Gap <= 0 {
			return fmt.Errorf("session gap %d: want > 0", s.Gap)
		}
	default:
		return fmt.Errorf("unknown window kind %v", s.Kind)
	}
	return nil
}

// floorDiv is a/b rounded towards minus infinity (b > 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// Assign appends to dst the windows of a tumbling or hopping spec that
// contain event time t, latest start first, and returns dst. A tumbling
// window is [floor(t/size)*size, +size); hopping windows start at multiples
// of slide and t belongs to every one with start <= t < start+size (size/slide
// of them when slide divides size). Windows at the edge of the int64 range
// have their end clamped to math.MaxInt64.
func (s Spec) Assign(dst []Window, t int64) []Window {
	switch s.Kind {
	case Tumbling:
		st := floorDiv(t, s.Size) * s.Size
		return append(dst, Window{st, satAdd(st, s.Size)})
	case Hopping:
		for st := floorDiv(t, s.Slide) * s.Slide; st > satSub(t, s.Size); st -= s.Slide {
			dst = append(dst, Window{st, satAdd(st, s.Size)})
			if st < math.MinInt64+s.Slide {
				break
			}
		}
	}
	return dst
}

// closedBy reports whether a window ending at end has closed under watermark
// wm with allowed lateness l: wm >= end + l.
func closedBy(end, l, wm int64, hasWM bool) bool {
	return hasWM && wm >= satAdd(end, l)
}
