package sqlfn

import (
	"math"
	"slices"
	"strconv"
)

// The exact and approximate percentiles (percentile, median,
// percentile_approx): the accumulators keep every non-NULL value of the
// group, and the result sorts them once.

// Percentile is percentile's and median's accumulator: the values as
// doubles, each with its frequency (1 unless the call gives one).
type Percentile struct {
	vals  []float64
	freqs []int64
	n     int64
}

// Add adds a value with its frequency: 0 leaves it out; a negative one is
// Spark's error (the caller checks it with PercentileFrequency first).
func (p *Percentile) Add(x float64, freq int64) {
	if freq == 0 {
		return
	}
	p.vals = append(p.vals, x)
	p.freqs = append(p.freqs, freq)
	p.n += freq
}

// PercentileFrequency checks percentile's frequency argument (expr is its
// SQL text): a negative one is Spark's
// NEGATIVE_VALUES_IN_FREQUENCY_EXPRESSION.
func PercentileFrequency(freq int64, expr string) *Error {
	if freq < 0 {
		return errNegativeFrequency(freq, expr)
	}
	return nil
}

//go:noinline
func errNegativeFrequency(freq int64, expr string) *Error {
	return &Error{Class: ClassNegativeFrequency,
		Msg: "Found the negative value in \"" + expr + "\": " + strconv.FormatInt(freq, 10) + "L, but expected a positive integral value."}
}

// Reset empties the accumulator, keeping its memory.
func (p *Percentile) Reset() {
	p.vals, p.freqs, p.n = p.vals[:0], p.freqs[:0], 0
}

// Result is the percentile p (0 to 1) of the values, as Spark's
// Percentile computes it: the values sorted (NaN last), the position
// p * (n - 1) in their expansion by frequency, and the two values around
// it interpolated linearly; NULL over no rows.
func (p *Percentile) Result(pct float64) (float64, bool) {
	if p.n == 0 {
		return 0, false
	}
	idx := make([]int, len(p.vals))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return CompareFloat64(p.vals[a], p.vals[b]) })
	pos := pct * float64(p.n-1)
	lo, hi := int64(math.Floor(pos)), int64(math.Ceil(pos))
	// at is the value at 0-based position k of the expansion
	at := func(k int64) float64 {
		for _, i := range idx {
			if k < p.freqs[i] {
				return p.vals[i]
			}
			k -= p.freqs[i]
		}
		return p.vals[idx[len(idx)-1]]
	}
	lv := at(lo)
	if hi == lo {
		return lv, true
	}
	hv := at(hi)
	return (float64(hi)-pos)*lv + (pos-float64(lo))*hv, true
}

// Quantile is percentile_approx's accumulator over an ordered type: the
// values themselves.
type Quantile[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64] struct {
	vals []T
}

// Add adds a value.
func (q *Quantile[T]) Add(x T) { q.vals = append(q.vals, x) }

// Result is the value of rank ceil(p * n) (the first for p = 0) of the
// sorted values (NaN last), NULL over no rows. This is the exact quantile
// that Spark's Greenwald-Khanna summary approximates: Spark's answer is
// within n / accuracy ranks of it, and equal to it while the summary keeps
// every value (fewer than accuracy / 2 rows, as its compression merges no
// neighbours below that). Spark's summary holds doubles: a long (or a
// timestamp's microseconds) beyond 2^53 comes back rounded to a double
// and narrowed as Java's (long) narrows it (viaDouble).
func (q *Quantile[T]) Result(pct float64) (T, bool) {
	var zero T
	if len(q.vals) == 0 {
		return zero, false
	}
	slices.SortFunc(q.vals, func(a, b T) int { return CompareFloat64(float64(a), float64(b)) })
	rank := int(math.Ceil(pct * float64(len(q.vals))))
	rank = max(rank, 1)
	return viaDouble(q.vals[min(rank, len(q.vals))-1]), true
}

// viaDouble is x converted to a double and back as Spark's
// ApproximatePercentile converts its answer: exact for every type but the
// 64-bit integers, which round to the nearest double and then narrow as
// Java's (long) does (saturating at the long's bounds).
func viaDouble[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64](x T) T {
	switch v := any(x).(type) {
	case int64:
		return any(javaLong(float64(v))).(T)
	case uint64:
		return any(uint64(javaLong(float64(v)))).(T)
	}
	return x
}

// javaLong is Java's (long) d: truncated toward zero, saturating at the
// long's bounds, 0 for NaN.
func javaLong(d float64) int64 {
	switch {
	case math.IsNaN(d):
		return 0
	case d >= 0x1p63:
		return math.MaxInt64
	case d <= -0x1p63:
		return math.MinInt64
	}
	return int64(d)
}
