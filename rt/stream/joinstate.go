package stream

import (
	"slices"
	"unsafe"
)

// The held rows of one side of an IntervalJoin, kept by columns in chunks in
// arrival order and indexed by key through a chain per key.
//
// A row's id is its position: chunk k holds the ids from base+k*joinChunkRows
// on. Each row links to the previous row of its key (prev) and the index maps
// a key to its newest row, so a probe walks a key's rows back from the newest
// and stops at an id below base (a chunk given back held it). Eviction tests
// only the chunks whose least live expiry the horizon has passed, a column of
// times at a time, and flags the rows it evicts (clearing their values);
// chunks are given back whole: the front ones once every row in them is
// evicted (a stream's rows come roughly in time order), and all of them when
// the side is compacted, its live rows copied and its index rebuilt, once
// evicted rows outnumber the live ones. That replaces a heap pop, a map
// lookup and a slice rewrite per evicted row, and an allocation per held row.

// joinChunkRows is the rows in a full chunk (a power of two: an id splits into
// chunk and row by a shift and a mask).
const (
	joinChunkShift = 10
	joinChunkRows  = 1 << joinChunkShift
)

// Flags of a held row.
const (
	rowEvicted    uint8 = 1 << iota // evicted: no longer held, its value cleared
	rowSuperseded                   // a later row of its key came: the index does not point at it
)

// joinChunk is up to joinChunkRows held rows, by column.
type joinChunk[K comparable, T any] struct {
	keys    []K
	ts      []int64
	rows    []T
	prev    []int64 // the previous row of the same key, or -1
	matched []bool  // some pair of it passed the join's whole condition (outer joins)
	flags   []uint8
	live    int   // rows not evicted
	minExp  int64 // the least expiry of a live row, when live > 0
}

// joinSide is the held rows of one side of an IntervalJoin.
type joinSide[K comparable, T any] struct {
	chunks []*joinChunk[K, T]
	base   int64       // id of chunks[0]'s first row
	index  map[K]int64 // the newest row of each key stored
	// a row at t expires at t+reach, or at t-reach when sub: the greatest
	// time of the other side it can match
	reach   int64
	sub     bool
	held    int   // rows not evicted
	stored  int   // rows in the chunks, evicted ones included
	slots   int   // the chunks' capacity in rows
	evicted int64 // rows evicted since the start
	hits    []int64
}

func newJoinSide[K comparable, T any](reach int64, sub bool) joinSide[K, T] {
	return joinSide[K, T]{index: map[K]int64{}, reach: reach, sub: sub}
}

// expiry is the greatest time of the other side a row at t can match.
func (s *joinSide[K, T]) expiry(t int64) int64 {
	if s.sub {
		return satSub(t, s.reach)
	}
	return satAdd(t, s.reach)
}

// at returns the chunk and position of row id (id >= base).
func (s *joinSide[K, T]) at(id int64) (*joinChunk[K, T], int) {
	o := id - s.base
	return s.chunks[o>>joinChunkShift], int(o & (joinChunkRows - 1))
}

// add keeps a row and returns the address of its matched flag, valid until
// the next eviction.
func (s *joinSide[K, T]) add(key K, t int64, row T, matched bool) *bool {
	n := len(s.chunks)
	if n == 0 || len(s.chunks[n-1].ts) == joinChunkRows {
		size := joinChunkRows
		if n == 0 {
			size = 16 // a small join stays small: the first chunk grows by appends
		}
		s.chunks = append(s.chunks, &joinChunk[K, T]{keys: make([]K, 0, size), ts: make([]int64, 0, size),
			rows: make([]T, 0, size), prev: make([]int64, 0, size), matched: make([]bool, 0, size), flags: make([]uint8, 0, size)})
		s.slots += size
		n++
	}
	c := s.chunks[n-1]
	was := cap(c.ts)
	id := s.base + int64(n-1)<<joinChunkShift + int64(len(c.ts))
	prev := int64(-1)
	if p, ok := s.index[key]; ok {
		prev = p
		pc, pi := s.at(p)
		pc.flags[pi] |= rowSuperseded
	}
	s.index[key] = id
	if exp := s.expiry(t); c.live == 0 || exp < c.minExp {
		c.minExp = exp
	}
	c.keys = append(c.keys, key)
	c.ts = append(c.ts, t)
	c.rows = append(c.rows, row)
	c.prev = append(c.prev, prev)
	c.matched = append(c.matched, matched)
	c.flags = append(c.flags, 0)
	s.slots += cap(c.ts) - was
	c.live++
	s.held++
	s.stored++
	return &c.matched[len(c.matched)-1]
}

// probe calls f with each held row of key whose time is within [lo, hi], in
// arrival order.
func (s *joinSide[K, T]) probe(key K, lo, hi int64, f func(row T, matched *bool)) {
	id, ok := s.index[key]
	if !ok {
		return
	}
	hits := s.hits[:0]
	for id >= s.base {
		c, i := s.at(id)
		if t := c.ts[i]; lo <= t && t <= hi && c.flags[i]&rowEvicted == 0 {
			hits = append(hits, id)
		}
		id = c.prev[i]
	}
	s.hits = hits
	for k := len(hits) - 1; k >= 0; k-- {
		c, i := s.at(hits[k])
		f(c.rows[i], &c.matched[i])
	}
}

// evict evicts the rows whose expiry is at or before horizon, hands those
// never matched to unmatched when it is not nil (in the order of their
// expiry; rows of one expiry in arrival order), and gives back the chunks
// the live rows do not need.
func (s *joinSide[K, T]) evict(horizon int64, unmatched func(T)) {
	type gone struct {
		exp int64
		row T
	}
	var out []gone
	var zero T
	for _, c := range s.chunks {
		if c.live == 0 || c.minExp > horizon {
			continue
		}
		n, least, has := 0, int64(0), false
		for i, t := range c.ts {
			if c.flags[i]&rowEvicted != 0 {
				continue
			}
			if exp := s.expiry(t); exp > horizon {
				if !has || exp < least {
					least, has = exp, true
				}
				continue
			} else if unmatched != nil && !c.matched[i] {
				out = append(out, gone{exp, c.rows[i]})
			}
			c.flags[i] |= rowEvicted
			c.rows[i] = zero // what the row refers to is garbage now
			n++
		}
		c.live -= n
		c.minExp = least
		s.held -= n
		s.evicted += int64(n)
	}
	s.reclaim()
	slices.SortStableFunc(out, func(a, b gone) int {
		switch {
		case a.exp < b.exp:
			return -1
		case a.exp > b.exp:
			return 1
		}
		return 0
	})
	for _, g := range out {
		unmatched(g.row)
	}
}

// reclaim gives back the chunks that hold only evicted rows from the front,
// with their index entries, or compacts the side when evicted rows outnumber
// the live ones.
func (s *joinSide[K, T]) reclaim() {
	if s.held == 0 {
		*s = joinSide[K, T]{index: map[K]int64{}, reach: s.reach, sub: s.sub, evicted: s.evicted, hits: s.hits}
		return
	}
	n := 0
	for s.chunks[n].live == 0 { // held > 0: some chunk is live
		c := s.chunks[n]
		for i, k := range c.keys {
			if c.flags[i]&rowSuperseded == 0 {
				delete(s.index, k)
			}
		}
		s.stored -= len(c.ts)
		s.slots -= cap(c.ts)
		n++
	}
	clear(s.chunks[:n])
	s.chunks = s.chunks[n:]
	s.base += int64(n) << joinChunkShift
	if dead := s.stored - s.held; dead < joinChunkRows || dead <= s.held {
		return
	}
	old := s.chunks
	*s = joinSide[K, T]{index: make(map[K]int64, len(s.index)), reach: s.reach, sub: s.sub, evicted: s.evicted, hits: s.hits}
	for _, c := range old {
		for i, t := range c.ts {
			if c.flags[i]&rowEvicted == 0 {
				s.add(c.keys[i], t, c.rows[i], c.matched[i])
			}
		}
	}
}

// each calls f with every held row, in arrival order.
func (s *joinSide[K, T]) each(f func(key K, t int64, row T, matched bool)) {
	for _, c := range s.chunks {
		for i, t := range c.ts {
			if c.flags[i]&rowEvicted == 0 {
				f(c.keys[i], t, c.rows[i], c.matched[i])
			}
		}
	}
}

// bytes estimates the memory the side holds: its chunks' columns at their
// capacity, and its index (a map slot of a key and an id, with its control
// byte, in a table that grows by doubling: up to twice the entries). What
// the rows refer to (strings) is not counted.
func (s *joinSide[K, T]) bytes() int64 {
	var k K
	var r T
	row := int64(unsafe.Sizeof(k)) + 8 + int64(unsafe.Sizeof(r)) + 8 + 1 + 1
	return int64(s.slots)*row + int64(len(s.index))*2*(int64(unsafe.Sizeof(k))+8+1)
}
