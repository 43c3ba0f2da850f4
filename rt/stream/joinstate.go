package stream

import (
	"slices"
	"unsafe"
)

// The held rows of one side of an IntervalJoin, kept by columns in chunks in
// arrival order and indexed by key through a chain per key.
//
// A row's id is its position: chunk k holds the ids from base+k*joinChunkRows
// on. The rows before id indexed are in the index: each links to the
// previous indexed row of its key (prev) and the index maps a key to its
// newest, so a probe walks a key's rows back from the newest and stops at an
// id below base (a chunk given back held it). The rows after them are found
// by scanning their keys. Indexing costs a map insert a row and a scan a
// comparison a row, so the rows are indexed when the probes have spent on
// scanning them joinIndexAfter comparisons a row (which bounds the cost at
// twice the cheaper of the two): a side that is probed by few rows (a
// bounded replay's last windows joined back to all the rows of the epoch)
// is never indexed, one probed by every row of the other side is indexed
// every few rows.
//
// Eviction tests only the chunks whose least live expiry the horizon has
// passed, a column of times at a time, and flags the rows it evicts
// (clearing their values); chunks are given back whole: the front ones once
// every row in them is evicted (a stream's rows come roughly in time order),
// and all of them when the side is compacted, its live rows copied and its
// index dropped, once evicted rows outnumber the live ones. That replaces a
// heap pop, a map lookup and a slice rewrite per evicted row, and an
// allocation per held row.

// joinIndexAfter is the comparisons a row that scans of the rows not indexed
// may cost before they are indexed: about what a map insert costs (in a
// large map, a cache miss) over what a comparison in a scan of a column
// costs.
const joinIndexAfter = 32

// joinChunkRows is the rows in a full chunk (a power of two: an id splits into
// chunk and row by a shift and a mask).
const (
	joinChunkShift = 10
	joinChunkRows  = 1 << joinChunkShift
)

// Flags of a held row.
const (
	rowEvicted    uint8 = 1 << iota // evicted: no longer held, its value cleared
	rowSuperseded                   // indexed, but the index does not point at it (a later row of its key, or evicted)
)

// joinChunk is up to joinChunkRows held rows, by column.
type joinChunk[K comparable, T any] struct {
	keys    []K
	ts      []int64
	rows    []T
	prev    []int64 // of each indexed row, the previous indexed row of its key, or -1
	matched []bool  // some pair of it passed the join's whole condition (outer joins)
	flags   []uint8
	live    int   // rows not evicted
	minExp  int64 // the least expiry of a live row, when live > 0
}

// joinSide is the held rows of one side of an IntervalJoin.
type joinSide[K comparable, T any] struct {
	chunks  []*joinChunk[K, T]
	base    int64       // id of chunks[0]'s first row
	index   map[K]int64 // the newest indexed row of each key
	indexed int64       // the rows before this id are indexed
	scanned int64       // comparisons the scans of the rows not indexed cost since the side was last indexed
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
// the side's next add (the first chunk grows by appends) or eviction.
func (s *joinSide[K, T]) add(key K, t int64, row T, matched bool) *bool {
	n := len(s.chunks)
	if n == 0 || len(s.chunks[n-1].ts) == joinChunkRows {
		size := joinChunkRows
		if n == 0 {
			size = 16 // a small join stays small: the first chunk grows by appends
		}
		s.chunks = append(s.chunks, &joinChunk[K, T]{keys: make([]K, 0, size), ts: make([]int64, 0, size),
			rows: make([]T, 0, size), matched: make([]bool, 0, size), flags: make([]uint8, 0, size)})
		s.slots += size
		n++
	}
	c := s.chunks[n-1]
	was := cap(c.ts)
	if exp := s.expiry(t); c.live == 0 || exp < c.minExp {
		c.minExp = exp
	}
	c.keys = append(c.keys, key)
	c.ts = append(c.ts, t)
	c.rows = append(c.rows, row)
	c.matched = append(c.matched, matched)
	c.flags = append(c.flags, 0)
	s.slots += cap(c.ts) - was
	c.live++
	s.held++
	s.stored++
	return &c.matched[len(c.matched)-1]
}

// end is the id the next row will have.
func (s *joinSide[K, T]) end() int64 {
	n := len(s.chunks)
	if n == 0 {
		return s.base
	}
	return s.base + int64(n-1)<<joinChunkShift + int64(len(s.chunks[n-1].ts))
}

// indexAll indexes the rows not indexed yet.
func (s *joinSide[K, T]) indexAll() {
	end := s.end()
	for id := s.indexed; id < end; {
		c, i := s.at(id)
		for ; i < len(c.ts); i++ {
			prev := int64(-1)
			switch p, ok := s.index[c.keys[i]]; {
			case c.flags[i]&rowEvicted != 0:
				c.flags[i] |= rowSuperseded // evicted: left out of the index
			case ok:
				pc, pi := s.at(p)
				pc.flags[pi] |= rowSuperseded
				prev = p
				fallthrough
			default:
				s.index[c.keys[i]] = id
			}
			c.prev = append(c.prev, prev)
			id++
		}
	}
	s.indexed, s.scanned = end, 0
}

// probe calls f with each held row of key whose time is within [lo, hi], in
// arrival order.
func (s *joinSide[K, T]) probe(key K, lo, hi int64, f func(row T, matched *bool)) {
	end := s.end()
	if u := end - s.indexed; u > 0 && s.scanned >= joinIndexAfter*u {
		s.indexAll()
	}
	hits := s.hits[:0]
	if id, ok := s.index[key]; ok {
		for id >= s.base {
			c, i := s.at(id)
			if t := c.ts[i]; lo <= t && t <= hi && c.flags[i]&rowEvicted == 0 {
				hits = append(hits, id)
			}
			id = c.prev[i]
		}
		slices.Reverse(hits)
	}
	s.scanned += end - s.indexed
	for id := s.indexed; id < end; {
		c, i := s.at(id)
		for ; i < len(c.ts); i++ {
			if c.keys[i] == key {
				if t := c.ts[i]; lo <= t && t <= hi && c.flags[i]&rowEvicted == 0 {
					hits = append(hits, id)
				}
			}
			id++
		}
	}
	s.hits = hits
	for _, id := range hits {
		c, i := s.at(id)
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
		for i := range c.prev { // its indexed rows
			if c.flags[i]&rowSuperseded == 0 {
				delete(s.index, c.keys[i])
			}
		}
		s.stored -= len(c.ts)
		s.slots -= cap(c.ts)
		n++
	}
	clear(s.chunks[:n])
	s.chunks = s.chunks[n:]
	s.base += int64(n) << joinChunkShift
	s.indexed = max(s.indexed, s.base)
	if dead := s.stored - s.held; dead < joinChunkRows || dead <= s.held {
		return
	}
	old := s.chunks
	*s = joinSide[K, T]{index: map[K]int64{}, reach: s.reach, sub: s.sub, evicted: s.evicted, hits: s.hits}
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
// capacity, the links of its indexed rows, and its index (a map slot of a
// key and an id, with its control byte, in a table that grows by doubling:
// up to twice the entries). What the rows refer to (strings) is not counted.
func (s *joinSide[K, T]) bytes() int64 {
	var k K
	var r T
	row := int64(unsafe.Sizeof(k)) + 8 + int64(unsafe.Sizeof(r)) + 1 + 1
	return int64(s.slots)*row + 8*(s.indexed-s.base) + int64(len(s.index))*2*(int64(unsafe.Sizeof(k))+8+1)
}
