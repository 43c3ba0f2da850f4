package stream

import (
	"fmt"
	"slices"
	"sort"
)

// Row is one result row of a windowed aggregate: the group key, the window
// and the accumulators.
type Row[K comparable, A any] struct {
	Key    K
	Window Window
	Acc    A
}

// ChangeKind is the kind of an update-mode change.
type ChangeKind uint8

const (
	// Upsert sets the row of (Key, Window) to Acc.
	Upsert ChangeKind = iota + 1
	// Delete removes the row of (Key, Window), emitted earlier: a session
	// window that merged into another or changed its bounds. Acc is zero.
	Delete
)

func (c ChangeKind) String() string {
	if c == Delete {
		return "delete"
	}
	return "upsert"
}

// Change is one update-mode changelog entry.
type Change[K comparable, A any] struct {
	Kind ChangeKind
	Row[K, A]
}

// Emission is what one micro-batch of a windowed aggregate emits, by mode.
type Emission[K comparable, A any] struct {
	// WM is the watermark in force after the micro-batch.
	WM    int64
	HasWM bool
	// Final (Append): the windows closed by this micro-batch, each once.
	Final []Row[K, A]
	// Changes (Update): deletes, then upserts for the windows the
	// micro-batch touched.
	Changes []Change[K, A]
	// Complete (Complete): the whole result.
	Complete []Row[K, A]
}

// Stats counts what a window state saw. Late rows are dropped: the caller
// writes them to the late table, when the flow has one, from Assign's result.
type Stats struct {
	Rows int64 // rows assigned
	// LateRows: rows all of whose windows had closed; they are dropped.
	LateRows int64
	// PartlyLateRows: hopping rows of which some windows had closed (those
	// assignments are dropped) and some had not.
	PartlyLateRows int64
	// LateAssignments: (row, window) assignments dropped, late rows' and
	// partly late rows' together.
	LateAssignments int64
	// Open: (key, window) entries held now; Evicted: entries removed after
	// their window closed.
	Open    int
	Evicted int64
}

// State is the per-key window state of one windowed aggregate: K is the
// generated group-key type, A the generated accumulator struct. See the
// package comment for the call sequence. It is not safe for concurrent use.
type State[K comparable, A any] struct {
	spec  Spec
	mode  Mode
	merge func(dst, src *A) error
	wm    int64
	hasWM bool
	stats Stats
	buf   []*A
	wbuf  []Window

	// Tumbling and hopping: one pane per window, by start (the size is
	// fixed, so the start names the window).
	panes    map[int64]*pane[K, A]
	ends     []Window // open windows by end, start
	dirty    []paneRef[K]
	dirtySet map[paneRef[K]]struct{}
	free     []*pane[K, A] // evicted panes for reuse
	lastW    Window        // one-entry cache of the last pane used
	lastP    *pane[K, A]

	// Session: per key, its open sessions and recently closed ones.
	keys      map[K]*keySessions[K, A]
	closing   []entry[K, A] // by at, id
	seq       uint64
	dirtySess []*session[K, A]
	deletes   []Change[K, A]

	// Complete: the final rows of closed windows.
	closed []Row[K, A]
}

// pane holds one window's keys: accumulators in a slice (no allocation per
// key), indexed by a map, in first-arrival order. Evicted panes are reused.
type pane[K comparable, A any] struct {
	idx  map[K]int32
	keys []K
	accs []A
}

type paneRef[K comparable] struct {
	w Window
	k K
}

type session[K comparable, A any] struct {
	key     K
	w       Window
	acc     A
	id      uint64
	alive   bool
	dirty   bool
	emitted *Window // Update: the window last upserted
}

type keySessions[K comparable, A any] struct {
	open   []*session[K, A] // sorted by start, pairwise not overlapping
	ghosts []Window         // closed sessions a new row could still touch
}

// NewState returns empty window state. merge folds one accumulator into
// another; it is required for session windows (sessions merge) and unused
// otherwise.
func NewState[K comparable, A any](spec Spec, mode Mode, merge func(dst, src *A) error) (*State[K, A], error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	switch mode {
	case Append, Update, Complete:
	default:
		return nil, fmt.Errorf("unknown output mode %v", mode)
	}
	if spec.Kind == Session && merge == nil {
		return nil, fmt.Errorf("session windows need a merge function")
	}
	s := &State[K, A]{spec: spec, mode: mode, merge: merge}
	if spec.Kind == Session {
		s.keys = map[K]*keySessions[K, A]{}
	} else {
		s.panes = map[int64]*pane[K, A]{}
		s.dirtySet = map[paneRef[K]]struct{}{}
	}
	return s, nil
}

// Watermark is the watermark the state judges lateness by: the one given to
// the last Advance.
func (s *State[K, A]) Watermark() (int64, bool) { return s.wm, s.hasWM }

// Stats returns the counters.
func (s *State[K, A]) Stats() Stats { return s.stats }

// Assign places one row (group key, event time) into its windows and returns
// the accumulators of those that are still open, for the caller to update
// with the row's values. The slice and the pointers are valid until the next
// call of any State method (they point into reused storage). late is the
// number of the row's windows that had already closed: the row is late (and
// dropped) when accs is empty. The error is a failed session merge (an
// overflowing sum).
//
// Lateness follows DESIGN.md: a row is late when its window has closed, that
// is when the watermark >= window end + allowed lateness. Each hopping window
// is judged on its own. A session row's window is [t, t+gap) merged with the
// open sessions it overlaps; it is late when [t, t+gap) has closed or when it
// overlaps a session that has closed (merging it would reopen emitted output).
func (s *State[K, A]) Assign(key K, t int64) (accs []*A, late int, err error) {
	s.stats.Rows++
	s.buf = s.buf[:0]
	if s.spec.Kind == Session {
		a, err := s.assignSession(key, t)
		if err != nil {
			return nil, 0, err
		}
		if a == nil {
			s.stats.LateRows++
			s.stats.LateAssignments++
			return nil, 1, nil
		}
		s.buf = append(s.buf, a)
		return s.buf, 0, nil
	}
	s.wbuf = s.spec.Assign(s.wbuf[:0], t)
	for _, w := range s.wbuf {
		if closedBy(w.End, s.spec.AllowedLateness, s.wm, s.hasWM) {
			late++
			continue
		}
		p := s.lastP
		if p == nil || s.lastW != w {
			p = s.panes[w.Start]
			if p == nil {
				p = s.newPane()
				s.panes[w.Start] = p
				heapPush(&s.ends, w, windowLess)
			}
			s.lastW, s.lastP = w, p
		}
		i, ok := p.idx[key]
		if !ok {
			i = int32(len(p.keys))
			p.idx[key] = i
			p.keys = append(p.keys, key)
			var zero A
			p.accs = append(p.accs, zero)
			s.stats.Open++
		}
		a := &p.accs[i]
		if s.mode == Update {
			r := paneRef[K]{w, key}
			if _, ok := s.dirtySet[r]; !ok {
				s.dirtySet[r] = struct{}{}
				s.dirty = append(s.dirty, r)
			}
		}
		s.buf = append(s.buf, a)
	}
	if late > 0 {
		s.stats.LateAssignments += int64(late)
		if len(s.buf) == 0 {
			s.stats.LateRows++
		} else {
			s.stats.PartlyLateRows++
		}
	}
	return s.buf, late, nil
}

func (s *State[K, A]) newPane() *pane[K, A] {
	if n := len(s.free); n > 0 {
		p := s.free[n-1]
		s.free = s.free[:n-1]
		return p
	}
	return &pane[K, A]{idx: map[K]int32{}}
}

// recycle keeps an evicted pane's storage for the next window.
func (s *State[K, A]) recycle(p *pane[K, A]) {
	if len(s.free) >= 4 {
		return
	}
	clear(p.idx)
	var zero A
	for i := range p.accs {
		p.accs[i] = zero // drop references the accumulators hold
	}
	p.keys, p.accs = p.keys[:0], p.accs[:0]
	s.free = append(s.free, p)
}

func (s *State[K, A]) assignSession(key K, t int64) (*A, error) {
	l := s.spec.AllowedLateness
	proto := Window{t, satAdd(t, s.spec.Gap)}
	if closedBy(proto.End, l, s.wm, s.hasWM) {
		return nil, nil
	}
	ks := s.keys[key]
	if ks == nil {
		ks = &keySessions[K, A]{}
		s.keys[key] = ks
	}
	for _, g := range ks.ghosts {
		if g.Start < proto.End && t < g.End {
			return nil, nil
		}
	}
	lo, hi := -1, -1 // ks.open[lo:hi] overlap proto
	for i, o := range ks.open {
		if o.w.Start < proto.End && t < o.w.End {
			if lo < 0 {
				lo = i
			}
			hi = i + 1
		}
	}
	if lo < 0 {
		s.seq++
		n := &session[K, A]{key: key, w: proto, id: s.seq, alive: true}
		i := sort.Search(len(ks.open), func(i int) bool { return ks.open[i].w.Start > t })
		ks.open = append(ks.open, nil)
		copy(ks.open[i+1:], ks.open[i:])
		ks.open[i] = n
		s.stats.Open++
		heapPush(&s.closing, entry[K, A]{at: satAdd(proto.End, l), s: n, id: n.id}, entryLess[K, A])
		s.markDirty(n)
		return &n.acc, nil
	}
	m := ks.open[lo]
	w := Window{min(m.w.Start, t), max(ks.open[hi-1].w.End, proto.End)}
	for _, o := range ks.open[lo+1 : hi] {
		if err := s.merge(&m.acc, &o.acc); err != nil {
			return nil, err
		}
		o.alive = false
		s.stats.Open--
		if o.emitted != nil {
			s.deletes = append(s.deletes, Change[K, A]{Kind: Delete, Row: Row[K, A]{Key: key, Window: *o.emitted}})
		}
	}
	ks.open = append(ks.open[:lo+1], ks.open[hi:]...)
	// m keeps its one closing entry; ends only grow, so the entry is due no
	// later than m closes, and emit re-queues it if m's end has moved.
	m.w = w
	s.markDirty(m)
	return &m.acc, nil
}

func (s *State[K, A]) markDirty(x *session[K, A]) {
	if s.mode == Update && !x.dirty {
		x.dirty = true
		s.dirtySess = append(s.dirtySess, x)
	}
}

// Advance ends a micro-batch with the flow's new watermark, floored to the
// spec's Grain (ok false: still none). A lower watermark than the state's is
// ignored: it never decreases.
// It returns the micro-batch's emission and evicts the windows that closed
// (Complete mode keeps their final rows).
func (s *State[K, A]) Advance(wm int64, ok bool) Emission[K, A] {
	wm = floorGrain(wm, max(1, s.spec.Grain))
	if ok && (!s.hasWM || wm > s.wm) {
		s.wm, s.hasWM = wm, true
	}
	return s.emit(false)
}

// Flush ends a bounded input: every window closes, as if the watermark had
// passed them all, and the emission is returned. The state is then empty
// (Complete mode keeps the final rows).
func (s *State[K, A]) Flush() Emission[K, A] { return s.emit(true) }

func (s *State[K, A]) emit(all bool) Emission[K, A] {
	em := Emission[K, A]{WM: s.wm, HasWM: s.hasWM}
	if s.mode == Update {
		em.Changes = s.updates()
	}
	closes := func(at int64) bool { return all || (s.hasWM && s.wm >= at) }
	l := s.spec.AllowedLateness
	if s.spec.Kind != Session {
		for len(s.ends) > 0 && closes(satAdd(s.ends[0].End, l)) {
			w := heapPop(&s.ends, windowLess)
			p := s.panes[w.Start]
			delete(s.panes, w.Start)
			if s.lastP == p {
				s.lastP = nil
			}
			if s.mode == Append {
				em.Final = slices.Grow(em.Final, len(p.keys))
			}
			for i, k := range p.keys {
				s.closeRow(&em, Row[K, A]{Key: k, Window: w, Acc: p.accs[i]})
			}
			s.recycle(p)
		}
	} else {
		for len(s.closing) > 0 && closes(s.closing[0].at) {
			e := heapPop(&s.closing, entryLess[K, A])
			if e.s == nil { // a ghost's expiry
				ks := s.keys[e.key]
				for i, g := range ks.ghosts {
					if g == e.ghost {
						ks.ghosts = append(ks.ghosts[:i], ks.ghosts[i+1:]...)
						break
					}
				}
				if len(ks.open) == 0 && len(ks.ghosts) == 0 {
					delete(s.keys, e.key)
				}
				continue
			}
			x := e.s
			if !x.alive {
				continue // merged away
			}
			if at := satAdd(x.w.End, l); at != e.at && !all {
				e.at = at // its end moved later: wait for the new one
				heapPush(&s.closing, e, entryLess[K, A])
				continue
			}
			x.alive = false
			ks := s.keys[x.key]
			for i, o := range ks.open {
				if o == x {
					ks.open = append(ks.open[:i], ks.open[i+1:]...)
					break
				}
			}
			s.closeRow(&em, Row[K, A]{Key: x.key, Window: x.w, Acc: x.acc})
			// A row that is not late by its own window may still overlap this
			// session until the watermark passes end + gap + allowed lateness.
			exp := satAdd(satAdd(x.w.End, s.spec.Gap), l)
			if !all && !closes(exp) {
				ks.ghosts = append(ks.ghosts, x.w)
				heapPush(&s.closing, entry[K, A]{at: exp, key: x.key, ghost: x.w}, entryLess[K, A])
			} else if len(ks.open) == 0 && len(ks.ghosts) == 0 {
				delete(s.keys, x.key)
			}
		}
	}
	if s.mode == Complete {
		em.Complete = s.result()
	}
	return em
}

func (s *State[K, A]) closeRow(em *Emission[K, A], r Row[K, A]) {
	s.stats.Open--
	s.stats.Evicted++
	switch s.mode {
	case Append:
		em.Final = append(em.Final, r)
	case Complete:
		s.closed = append(s.closed, r)
	}
}

// updates drains the update-mode changelog of the micro-batch.
func (s *State[K, A]) updates() []Change[K, A] {
	out := s.deletes
	s.deletes = nil
	for _, r := range s.dirty {
		out = append(out, Change[K, A]{Kind: Upsert, Row: Row[K, A]{Key: r.k, Window: r.w, Acc: s.paneAcc(r)}})
	}
	s.dirty = s.dirty[:0]
	clear(s.dirtySet)
	var ups []Change[K, A]
	for _, x := range s.dirtySess {
		x.dirty = false
		if !x.alive {
			continue
		}
		if x.emitted != nil && *x.emitted != x.w {
			out = append(out, Change[K, A]{Kind: Delete, Row: Row[K, A]{Key: x.key, Window: *x.emitted}})
		}
		w := x.w
		x.emitted = &w
		ups = append(ups, Change[K, A]{Kind: Upsert, Row: Row[K, A]{Key: x.key, Window: x.w, Acc: x.acc}})
	}
	s.dirtySess = s.dirtySess[:0]
	return append(out, ups...)
}

func (s *State[K, A]) paneAcc(r paneRef[K]) A {
	p := s.panes[r.w.Start]
	return p.accs[p.idx[r.k]]
}

// result is the whole result table: closed windows' final rows, then the
// open windows by end, start and (within a window) first arrival.
func (s *State[K, A]) result() []Row[K, A] {
	out := append([]Row[K, A](nil), s.closed...)
	if s.spec.Kind != Session {
		s.eachPaneRow(func(w Window, k K, acc A) { out = append(out, Row[K, A]{Key: k, Window: w, Acc: acc}) })
		return out
	}
	var open []*session[K, A]
	for _, ks := range s.keys {
		open = append(open, ks.open...)
	}
	sort.Slice(open, func(i, j int) bool {
		if open[i].w != open[j].w {
			return windowLess(open[i].w, open[j].w)
		}
		return open[i].id < open[j].id
	})
	for _, x := range open {
		out = append(out, Row[K, A]{Key: x.key, Window: x.w, Acc: x.acc})
	}
	return out
}

// eachPaneRow calls f for every open (key, window) of a tumbling or hopping
// state: windows by end then start, keys within a window in first-arrival
// order.
func (s *State[K, A]) eachPaneRow(f func(w Window, k K, acc A)) {
	ws := make([]Window, 0, len(s.panes))
	for st := range s.panes {
		ws = append(ws, Window{st, satAdd(st, s.spec.Size)})
	}
	sort.Slice(ws, func(i, j int) bool { return windowLess(ws[i], ws[j]) })
	for _, w := range ws {
		p := s.panes[w.Start]
		for i, k := range p.keys {
			f(w, k, p.accs[i])
		}
	}
}

func windowLess(a, b Window) bool {
	if a.End != b.End {
		return a.End < b.End
	}
	return a.Start < b.Start
}

// entry is a session's closing time (s set) or a ghost's expiry (s nil).
type entry[K comparable, A any] struct {
	at    int64
	id    uint64
	s     *session[K, A]
	key   K
	ghost Window
}

func entryLess[K comparable, A any](a, b entry[K, A]) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.id < b.id
}
