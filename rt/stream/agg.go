package stream

import (
	"cmp"
	"errors"
)

// ErrOverflow is the error of an int64 sum that does not fit (Spark 4 ANSI:
// integer overflow is an error, never a wrapped value).
var ErrOverflow = errors.New("integer overflow in sum (ANSI mode)")

// The accumulators below are the building blocks of a generated accumulator
// struct: one field per aggregate, e.g.
//
//	type acc struct {
//		bids stream.Count
//		top  stream.Max[int64]
//		avg  stream.Avg
//	}
//
// Each has Add (one input value; SQL NULLs are skipped by the caller, as
// Spark's aggregates skip them) and Merge (fold another partial, used when
// session windows merge). Results follow Spark: count is never NULL, the
// others are NULL (Valid false) over no values.

// Count is count(*) or count(x).
type Count struct{ N int64 }

// Add counts one row.
func (c *Count) Add() { c.N++ }

// Merge adds another count.
func (c *Count) Merge(o *Count) { c.N += o.N }

// SumInt64 is sum over an integral column, with ANSI overflow checking.
type SumInt64 struct {
	S     int64
	Valid bool
}

// Add adds v, or returns ErrOverflow and leaves the sum unchanged.
func (s *SumInt64) Add(v int64) error {
	r := s.S + v
	if (v > 0 && r < s.S) || (v < 0 && r > s.S) {
		return ErrOverflow
	}
	s.S, s.Valid = r, true
	return nil
}

// Merge adds another partial sum.
func (s *SumInt64) Merge(o *SumInt64) error {
	if !o.Valid {
		return nil
	}
	return s.Add(o.S)
}

// SumFloat64 is sum over a floating-point column. Floating-point addition is
// not associative: a streaming sum may differ from a batch sum in the last
// bits when rows arrive in another order.
type SumFloat64 struct {
	S     float64
	Valid bool
}

// Add adds v.
func (s *SumFloat64) Add(v float64) { s.S += v; s.Valid = true }

// Merge adds another partial sum.
func (s *SumFloat64) Merge(o *SumFloat64) {
	if o.Valid {
		s.Add(o.S)
	}
}

// Avg is avg(x): Spark keeps a double sum and a count for non-decimal input.
type Avg struct {
	Sum float64
	N   int64
}

// Add adds one value.
func (a *Avg) Add(v float64) { a.Sum += v; a.N++ }

// Merge adds another partial average.
func (a *Avg) Merge(o *Avg) { a.Sum += o.Sum; a.N += o.N }

// Result is the average, NULL (false) over no values.
func (a *Avg) Result() (float64, bool) {
	if a.N == 0 {
		return 0, false
	}
	return a.Sum / float64(a.N), true
}

// less orders values as Spark does: NaN is greater than every other value
// (and equal to itself), unlike cmp.Less.
func less[T cmp.Ordered](a, b T) bool {
	if a != a { // NaN
		return false
	}
	if b != b {
		return true
	}
	return a < b
}

// Min is min(x).
type Min[T cmp.Ordered] struct {
	V     T
	Valid bool
}

// Add folds one value.
func (m *Min[T]) Add(v T) {
	if !m.Valid || less(v, m.V) {
		m.V, m.Valid = v, true
	}
}

// Merge folds another partial minimum.
func (m *Min[T]) Merge(o *Min[T]) {
	if o.Valid {
		m.Add(o.V)
	}
}

// Max is max(x).
type Max[T cmp.Ordered] struct {
	V     T
	Valid bool
}

// Add folds one value.
func (m *Max[T]) Add(v T) {
	if !m.Valid || less(m.V, v) {
		m.V, m.Valid = v, true
	}
}

// Merge folds another partial maximum.
func (m *Max[T]) Merge(o *Max[T]) {
	if o.Valid {
		m.Add(o.V)
	}
}
