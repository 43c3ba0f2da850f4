package window

import "math"

// BoundKind is where a frame bound lies, relative to the current row (the
// same order as ir.BoundKind, which rt cannot import).
type BoundKind uint8

const (
	UnboundedPreceding BoundKind = iota
	Preceding
	CurrentRow
	Following
	UnboundedFollowing
)

// Frames holds the frame of each row of one partition: rows Start[i] to
// End[i]-1 (relative to the partition's start), empty when End[i] ==
// Start[i]. Both are non-decreasing in i, which every aggregate here relies
// on.
type Frames struct {
	Start, End []int32
}

func (f *Frames) size(m int) {
	f.Start = grow32(f.Start, m)
	f.End = grow32(f.End, m)
}

// clamp cuts the frame of row i to the partition and makes an inverted
// frame (a start past the end) empty; both ends stay non-decreasing.
func (f *Frames) clamp(i, m int, s, e int64) {
	s = min(max(s, 0), int64(m))
	e = min(max(e, s), int64(m))
	f.Start[i], f.End[i] = int32(s), int32(e)
}

// RowsFrames computes a ROWS frame for a partition of m rows: offsets
// (startOff, endOff, used for Preceding and Following) count rows.
func (f *Frames) RowsFrames(m int, start BoundKind, startOff int64, end BoundKind, endOff int64) {
	f.size(m)
	for i := 0; i < m; i++ {
		f.clamp(i, m, rowsBound(i, m, start, startOff, false), rowsBound(i, m, end, endOff, true))
	}
}

func rowsBound(i, m int, k BoundKind, off int64, isEnd bool) int64 {
	var p int64
	switch k {
	case UnboundedPreceding:
		return 0
	case UnboundedFollowing:
		return int64(m)
	case Preceding:
		p = int64(i) - min(off, math.MaxInt32)
	case Following:
		p = int64(i) + min(off, math.MaxInt32)
	default:
		p = int64(i)
	}
	if isEnd {
		p++ // exclusive
	}
	return p
}

// PeerFrames computes a RANGE frame without offsets (each bound UNBOUNDED or
// CURRENT ROW, which for RANGE means the row's peers) over the partition's
// peer groups.
func (f *Frames) PeerFrames(peers []int32, start, end BoundKind) {
	m := int(peers[len(peers)-1])
	f.size(m)
	for g := 0; g+1 < len(peers); g++ {
		s, e := int32(0), int32(m)
		if start == CurrentRow {
			s = peers[g]
		}
		if end == CurrentRow {
			e = peers[g+1]
		}
		if start == UnboundedFollowing || end == UnboundedPreceding {
			s, e = 0, 0 // no row lies in such a frame
		}
		for i := peers[g]; i < peers[g+1]; i++ {
			f.Start[i], f.End[i] = s, e
		}
	}
}

// Key is the type of a RANGE frame's order key with value offsets: a
// number, or a date (days) or timestamp (microseconds) as an integer.
type Key interface{ ~int64 | ~float64 }

// RangeFrames computes a RANGE frame with value offsets over the
// partition's one order key: keys[i] (meaningless where ok[i] is false, the
// key is NULL; ok nil: no NULL), sorted descending when desc, and its peer
// groups. A Preceding or Following bound at offset d is the first row (for a
// start) or past the last row (for an end) whose key is at least key - d, or
// at most key + d, in the sort's direction; CURRENT ROW is the peers. As in
// Spark, a row whose key is NULL has the NULL rows as the frame of its
// offset bounds, and a NULL key lies outside every other row's offset
// bounds (the NULL rows are at one end of the partition, so UNBOUNDED
// bounds reach them).
func RangeFrames[K Key](f *Frames, keys []K, ok []bool, desc bool, peers []int32, start BoundKind, startOff K, end BoundKind, endOff K) {
	m := len(keys)
	f.size(m)
	// the non-NULL rows are [a, z)
	a, z := 0, m
	if ok != nil {
		for a < m && !ok[a] {
			a++
		}
		if a == 0 {
			for z > 0 && !ok[z-1] {
				z--
			}
		} else {
			z = m
		}
		if a == m {
			z = m
		}
	}
	// before reports whether x sorts before y
	before := func(x, y K) bool {
		if desc {
			return x > y
		}
		return x < y
	}
	// shift moves key v by d in the sort's direction (d > 0: following)
	shift := func(v K, d K) K {
		if desc {
			return sat(v, -d)
		}
		return sat(v, d)
	}
	var lo, hi int // the two pointers over [a, z): first row >= start bound, first row > end bound
	g := 0
	for i := 0; i < m; i++ {
		for int(peers[g+1]) <= i {
			g++
		}
		null := i < a || i >= z
		// the NULL block: [0, a) or [z, m)
		nb0, nb1 := 0, a
		if i >= z {
			nb0, nb1 = z, m
		}
		var s, e int
		switch start {
		case UnboundedPreceding:
			s = 0
		case UnboundedFollowing:
			s = m
		case CurrentRow:
			s = int(peers[g])
		default:
			if null {
				s = nb0
				break
			}
			d := startOff
			if start == Preceding {
				d = -d
			}
			bound := shift(keys[i], d)
			if lo < a {
				lo = a
			}
			for lo < z && before(keys[lo], bound) {
				lo++
			}
			s = lo
		}
		switch end {
		case UnboundedPreceding:
			e = 0
		case UnboundedFollowing:
			e = m
		case CurrentRow:
			e = int(peers[g+1])
		default:
			if null {
				e = nb1
				break
			}
			d := endOff
			if end == Preceding {
				d = -d
			}
			bound := shift(keys[i], d)
			if hi < a {
				hi = a
			}
			for hi < z && !before(bound, keys[hi]) {
				hi++
			}
			e = hi
		}
		f.clamp(i, m, int64(s), int64(e))
	}
}

// sat is v + d, saturated at the integer limits (a float saturates to
// infinity by itself): a bound past the limits lies past every key.
func sat[K Key](v, d K) K {
	r := v + d
	var half K = 1
	if half/2 == 0 { // an integer key
		if d > 0 && r < v {
			return maxKey[K]()
		}
		if d < 0 && r > v {
			return -maxKey[K]() - 1
		}
	}
	return r
}

func maxKey[K Key]() K {
	var v K = 1
	for v*2 > v {
		v = v*2 + 1
	}
	return v
}
