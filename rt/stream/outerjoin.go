package stream

// Outer joins of two streams: an IntervalJoin whose held rows also carry
// whether some pair of them passed the join's condition (AddLeftM,
// AddRightM, Match.Set); AdvanceOuter hands each row evicted unmatched to
// its side's callback, to be emitted NULL-padded. Their checkpoint is an
// OuterJoinSnapshot, which keeps the flags; an inner join's JoinSnapshot
// stays as it was, so that inner-join state written before them restores.

// OuterJoinSnapshot is an outer IntervalJoin's contents between
// micro-batches, for a checkpoint.
type OuterJoinSnapshot[K comparable, L, R any] struct {
	WM    *int64               `json:"wm,omitempty"`
	Stats JoinStats            `json:"stats"`
	Left  []OuterJoinRow[K, L] `json:"left"`
	Right []OuterJoinRow[K, R] `json:"right"`
}

// OuterJoinRow is one held row of an OuterJoinSnapshot.
type OuterJoinRow[K comparable, T any] struct {
	Key     K     `json:"key"`
	T       int64 `json:"t"`
	Row     T     `json:"row"`
	Matched bool  `json:"matched"`
}

func snapSideOuter[K comparable, T any](s *joinSide[K, T]) []OuterJoinRow[K, T] {
	var out []OuterJoinRow[K, T]
	s.each(func(k K, t int64, row T, matched bool) { out = append(out, OuterJoinRow[K, T]{k, t, row, matched}) }) // see snapSide
	return out
}

// SnapshotOuter returns the join's contents with the rows' matched flags.
func (j *IntervalJoin[K, L, R]) SnapshotOuter() OuterJoinSnapshot[K, L, R] {
	return OuterJoinSnapshot[K, L, R]{WM: ptr(j.wm, j.hasWM), Stats: j.stats, Left: snapSideOuter(&j.left), Right: snapSideOuter(&j.right)}
}

// RestoreOuter loads an outer snapshot into an empty join of the same bound.
func (j *IntervalJoin[K, L, R]) RestoreOuter(s OuterJoinSnapshot[K, L, R]) error {
	if err := j.Restore(JoinSnapshot[K, L, R]{WM: s.WM, Stats: s.Stats}); err != nil {
		return err
	}
	for _, r := range s.Left {
		j.left.add(r.Key, r.T, r.Row, r.Matched)
	}
	for _, r := range s.Right {
		j.right.add(r.Key, r.T, r.Row, r.Matched)
	}
	return nil
}
