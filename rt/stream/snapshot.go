package stream

import (
	"fmt"
	"sort"
)

// Snapshot is a State's contents between micro-batches, for a checkpoint:
// plain exported values that the checkpoint store encodes (K and A must then
// be encodable: generated key and accumulator structs have exported fields,
// as the accumulators here do).
type Snapshot[K comparable, A any] struct {
	WM    *int64 `json:"wm,omitempty"`
	Stats Stats  `json:"stats"`
	// Open: the open (key, window) entries. Tumbling and hopping: by window,
	// keys in first-arrival order. Session: the open sessions.
	Open []SnapshotEntry[K, A] `json:"open"`
	// Ghosts: closed sessions a later row could still overlap.
	Ghosts []SnapshotGhost[K] `json:"ghosts,omitempty"`
	// Closed: Complete mode's final rows of closed windows.
	Closed []Row[K, A] `json:"closed,omitempty"`
}

// SnapshotEntry is one open entry.
type SnapshotEntry[K comparable, A any] struct {
	Key    K      `json:"key"`
	Window Window `json:"window"`
	Acc    A      `json:"acc"`
	// Emitted (session windows in Update mode): the window last upserted.
	Emitted *Window `json:"emitted,omitempty"`
}

// SnapshotGhost is a closed session kept for lateness checks.
type SnapshotGhost[K comparable] struct {
	Key    K      `json:"key"`
	Window Window `json:"window"`
}

// Snapshot returns the state's contents. Call it between micro-batches
// (after Advance), when no changes are pending.
func (s *State[K, A]) Snapshot() Snapshot[K, A] {
	snap := Snapshot[K, A]{WM: ptr(s.wm, s.hasWM), Stats: s.stats, Closed: append([]Row[K, A](nil), s.closed...)}
	if s.spec.Kind != Session {
		s.eachPaneRow(func(w Window, k K, acc A) {
			snap.Open = append(snap.Open, SnapshotEntry[K, A]{Key: k, Window: w, Acc: acc})
		})
		return snap
	}
	var open []*session[K, A]
	for k, ks := range s.keys {
		open = append(open, ks.open...)
		for _, g := range ks.ghosts {
			snap.Ghosts = append(snap.Ghosts, SnapshotGhost[K]{Key: k, Window: g})
		}
	}
	sort.Slice(open, func(i, j int) bool { return open[i].id < open[j].id })
	for _, x := range open {
		e := SnapshotEntry[K, A]{Key: x.key, Window: x.w, Acc: x.acc}
		if x.emitted != nil {
			w := *x.emitted
			e.Emitted = &w
		}
		snap.Open = append(snap.Open, e)
	}
	sort.SliceStable(snap.Ghosts, func(i, j int) bool { return windowLess(snap.Ghosts[i].Window, snap.Ghosts[j].Window) })
	return snap
}

// Restore loads a snapshot into an empty state of the same spec and mode.
func (s *State[K, A]) Restore(snap Snapshot[K, A]) error {
	if s.stats.Rows != 0 || len(s.panes) != 0 || len(s.keys) != 0 {
		return fmt.Errorf("restore into a state that is not empty")
	}
	s.wm, s.hasWM = 0, false
	if snap.WM != nil {
		s.wm, s.hasWM = *snap.WM, true
	}
	s.stats = snap.Stats
	s.closed = append([]Row[K, A](nil), snap.Closed...)
	l := s.spec.AllowedLateness
	if s.spec.Kind != Session {
		for _, e := range snap.Open {
			if got := s.spec.Assign(nil, e.Window.Start); len(got) == 0 || got[0] != e.Window {
				return fmt.Errorf("snapshot window %v is not a %v window of this spec", e.Window, s.spec.Kind)
			}
			p := s.panes[e.Window.Start]
			if p == nil {
				p = s.newPane()
				s.panes[e.Window.Start] = p
				heapPush(&s.ends, e.Window, windowLess)
			}
			if _, dup := p.idx[e.Key]; dup {
				return fmt.Errorf("snapshot holds window %v of one key twice", e.Window)
			}
			p.idx[e.Key] = int32(len(p.keys))
			p.keys = append(p.keys, e.Key)
			p.accs = append(p.accs, e.Acc)
		}
		return nil
	}
	for _, e := range snap.Open {
		ks := s.keys[e.Key]
		if ks == nil {
			ks = &keySessions[K, A]{}
			s.keys[e.Key] = ks
		}
		s.seq++
		x := &session[K, A]{key: e.Key, w: e.Window, acc: e.Acc, id: s.seq, alive: true}
		if e.Emitted != nil {
			w := *e.Emitted
			x.emitted = &w
		}
		ks.open = append(ks.open, x)
		heapPush(&s.closing, entry[K, A]{at: satAdd(x.w.End, l), s: x, id: x.id}, entryLess[K, A])
	}
	for _, ks := range s.keys {
		sort.Slice(ks.open, func(i, j int) bool { return ks.open[i].w.Start < ks.open[j].w.Start })
		for i := 1; i < len(ks.open); i++ {
			if ks.open[i].w.Start < ks.open[i-1].w.End {
				return fmt.Errorf("snapshot sessions %v and %v of one key overlap", ks.open[i-1].w, ks.open[i].w)
			}
		}
	}
	for _, g := range snap.Ghosts {
		ks := s.keys[g.Key]
		if ks == nil {
			ks = &keySessions[K, A]{}
			s.keys[g.Key] = ks
		}
		ks.ghosts = append(ks.ghosts, g.Window)
		heapPush(&s.closing, entry[K, A]{at: satAdd(satAdd(g.Window.End, s.spec.Gap), l), key: g.Key, ghost: g.Window}, entryLess[K, A])
	}
	return nil
}
