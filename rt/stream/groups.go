package stream

import "errors"

var errNotEmpty = errors.New("restore into group state that is not empty")

// Groups is the state of an aggregate over a stream without an event-time
// window, in output mode update or complete (as Spark keeps it): one
// accumulator per group key, kept for as long as the flow runs (no window
// closes, so nothing is evicted and no row is late). K is the generated
// group-key type, A the generated accumulator struct.
//
// Each micro-batch assigns its rows (Assign); Changes then returns the
// groups the micro-batch touched (update mode: upserted into the target by
// their key) and All every group (complete mode: the whole result), both in
// the order the groups were first seen.
type Groups[K comparable, A any] struct {
	index   map[K]int
	keys    []K
	accs    []*A
	touched []uint64 // the batch that last touched each group
	batch   uint64
	dirty   []int
	rows    int64
}

// NewGroups returns empty group state.
func NewGroups[K comparable, A any]() *Groups[K, A] {
	return &Groups[K, A]{index: map[K]int{}, batch: 1}
}

// Assign returns the accumulators of key's group, creating it, and marks
// the group changed in this micro-batch.
func (g *Groups[K, A]) Assign(key K) *A {
	g.rows++
	i, ok := g.index[key]
	if !ok {
		i = len(g.keys)
		g.index[key] = i
		g.keys = append(g.keys, key)
		g.accs = append(g.accs, new(A))
		g.touched = append(g.touched, 0)
	}
	if g.touched[i] != g.batch {
		g.touched[i] = g.batch
		g.dirty = append(g.dirty, i)
	}
	return g.accs[i]
}

// Changes ends a micro-batch: the groups it touched, in first-seen order.
func (g *Groups[K, A]) Changes() []Row[K, A] {
	sortStable(g.dirty, func(a, b int) bool { return a < b })
	out := make([]Row[K, A], 0, len(g.dirty))
	for _, i := range g.dirty {
		out = append(out, Row[K, A]{Key: g.keys[i], Acc: *g.accs[i]})
	}
	g.dirty = g.dirty[:0]
	g.batch++
	return out
}

// All is every group, in first-seen order.
func (g *Groups[K, A]) All() []Row[K, A] {
	out := make([]Row[K, A], 0, len(g.keys))
	for i, k := range g.keys {
		out = append(out, Row[K, A]{Key: k, Acc: *g.accs[i]})
	}
	return out
}

// Len is the number of groups held.
func (g *Groups[K, A]) Len() int { return len(g.keys) }

// GroupsSnapshot is a Groups' contents between micro-batches, for a
// checkpoint: the groups in first-seen order.
type GroupsSnapshot[K comparable, A any] struct {
	Rows   int64            `json:"rows"`
	Groups []GroupRow[K, A] `json:"groups"`
}

// GroupRow is one group of a GroupsSnapshot.
type GroupRow[K comparable, A any] struct {
	Key K `json:"key"`
	Acc A `json:"acc"`
}

// Snapshot returns the groups; call it after Changes.
func (g *Groups[K, A]) Snapshot() GroupsSnapshot[K, A] {
	s := GroupsSnapshot[K, A]{Rows: g.rows}
	for i, k := range g.keys {
		s.Groups = append(s.Groups, GroupRow[K, A]{Key: k, Acc: *g.accs[i]})
	}
	return s
}

// Restore loads a snapshot into empty group state.
func (g *Groups[K, A]) Restore(s GroupsSnapshot[K, A]) error {
	if len(g.keys) != 0 || g.rows != 0 {
		return errNotEmpty
	}
	for _, r := range s.Groups {
		acc := r.Acc
		g.index[r.Key] = len(g.keys)
		g.keys = append(g.keys, r.Key)
		g.accs = append(g.accs, &acc)
		g.touched = append(g.touched, 0)
	}
	g.rows = s.Rows
	return nil
}
