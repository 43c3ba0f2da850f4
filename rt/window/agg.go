package window

import "github.com/nordisk/thund/rt/sqlfn"

// The aggregates over each row's frame in f, for one partition. An argument
// is vals (its value per row) and ok (false where it is NULL; nil: never
// NULL). Each walks the partition once with two pointers: the frame's rows
// [s, e) are kept as the last row's, the rows entering (up to the new end)
// are added first and the rows leaving (before the new start) taken away
// after, so nothing is taken away that was not added.

// Count is count(x) (count(*) with ok nil): the rows of the frame where x
// is not NULL; 0 for an empty frame.
func Count(out []int64, ok []bool, f *Frames) {
	s, e := int32(0), int32(0)
	var n int64
	for i := range out {
		for ; e < f.End[i]; e++ {
			if ok == nil || ok[e] {
				n++
			}
		}
		for ; s < f.Start[i]; s++ {
			if ok == nil || ok[s] {
				n--
			}
		}
		out[i] = n
	}
}

// SumInt64 is sum over BIGINT (the integer types widened): NULL (outOK
// false) when the frame holds no value, and Spark's ARITHMETIC_OVERFLOW
// when a sum leaves BIGINT.
func SumInt64(out []int64, outOK []bool, vals []int64, ok []bool, f *Frames) *sqlfn.Error {
	s, e := int32(0), int32(0)
	var sum, n int64
	var err *sqlfn.Error
	for i := range out {
		for ; e < f.End[i]; e++ {
			if ok == nil || ok[e] {
				if sum, err = sqlfn.AddInt64(sum, vals[e]); err != nil {
					return err
				}
				n++
			}
		}
		for ; s < f.Start[i]; s++ {
			if ok == nil || ok[s] {
				if sum, err = sqlfn.SubInt64(sum, vals[s]); err != nil {
					return err
				}
				n--
			}
		}
		out[i], outOK[i] = sum, n > 0
	}
	return nil
}

// SumFloat64 is sum over DOUBLE, and avg (avg set: the sum divided by the
// count of values) over DOUBLE or the integers (their values converted):
// NULL when the frame holds no value. The sum is added up from the frame's
// start in order, as Spark does: kept while the start stays (a growing
// frame), added up again when it moves (a sliding one).
func SumFloat64(out []float64, outOK []bool, vals []float64, ok []bool, f *Frames, avg bool) {
	s, e := int32(-1), int32(0)
	var sum float64
	var n int64
	for i := range out {
		if f.Start[i] != s {
			s, e = f.Start[i], f.Start[i]
			sum, n = 0, 0
		}
		for ; e < f.End[i]; e++ {
			if ok == nil || ok[e] {
				sum += vals[e]
				n++
			}
		}
		outOK[i] = n > 0
		switch {
		case n == 0:
			out[i] = 0
		case avg:
			out[i] = sum / float64(n)
		default:
			out[i] = sum
		}
	}
}

// MinMax is min (max false) and max: for each row, the position of the
// frame's least (greatest) value, the first of equal ones, or -1 when the
// frame holds no value. less(i, j) compares the values of rows i and j in
// Spark's order. A monotonic deque of candidate positions makes it O(m).
func (b *Buf) MinMax(out []int32, ok []bool, less func(i, j int32) bool, max bool, f *Frames) {
	dq := b.deque[:0]
	head := 0
	s, e := int32(0), int32(0)
	better := less
	if max {
		better = func(i, j int32) bool { return less(j, i) }
	}
	for i := range out {
		for ; e < f.End[i]; e++ {
			if ok != nil && !ok[e] {
				continue
			}
			// a candidate no better than the entering value never wins
			// again: it leaves before it, and ties go to the first
			for len(dq) > head && better(e, dq[len(dq)-1]) {
				dq = dq[:len(dq)-1]
			}
			dq = append(dq, e)
		}
		s = f.Start[i]
		for head < len(dq) && dq[head] < s {
			head++
		}
		if head == len(dq) {
			out[i] = -1
		} else {
			out[i] = dq[head]
		}
		if head > 4096 && head*2 > len(dq) {
			dq = append(dq[:0], dq[head:]...)
			head = 0
		}
	}
	b.deque = dq
}

// First is first_value: the position of the frame's first row, or with
// ignore nulls (ok non-nil) of its first row whose argument is not NULL;
// -1 when there is none (the result is NULL).
func (b *Buf) First(out []int32, ok []bool, f *Frames) { b.nth(out, ok, f, 1, false) }

// Last is last_value, as First from the frame's end.
func (b *Buf) Last(out []int32, ok []bool, f *Frames) { b.nth(out, ok, f, 1, true) }

// Nth is nth_value(x, n) for n >= 1: the position of the frame's n-th row
// (the n-th whose argument is not NULL, with ignore nulls), or -1.
func (b *Buf) Nth(out []int32, ok []bool, f *Frames, n int64) { b.nth(out, ok, f, n, false) }

func (b *Buf) nth(out []int32, ok []bool, f *Frames, n int64, fromEnd bool) {
	if ok == nil {
		for i := range out {
			s, e := int64(f.Start[i]), int64(f.End[i])
			p := s + n - 1
			if fromEnd {
				p = e - n
			}
			if p < s || p >= e {
				p = -1
			}
			out[i] = int32(p)
		}
		return
	}
	nn, cnt := b.nonNull(ok)
	for i := range out {
		s, e := f.Start[i], f.End[i]
		var idx int64
		if fromEnd {
			idx = int64(cnt[e]) - n
		} else {
			idx = int64(cnt[s]) + n - 1
		}
		if idx < int64(cnt[s]) || idx >= int64(cnt[e]) {
			out[i] = -1
		} else {
			out[i] = nn[idx]
		}
	}
}
