package hashtab

import (
	"hash/maphash"
	"math/bits"
)

// Integer is the key types of Int.
type Integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// minSlots is a table's number of slots at its first Put.
const minSlots = 16

// Int is a hash table from an integer key to an int32. The zero value is an
// empty table.
//
// Small non-negative keys (a dimension's ids, auction numbers: the keys of
// most group-bys and joins on integers) skip the hashing: a key below
// len(direct) has its value in direct, indexed by the key, one load into
// an array of 4 bytes a key where a slot is 16 (DuckDB's perfect hash
// aggregate, made as the keys arrive instead of from statistics). The
// array grows, by powers of two, to cover a new key while it stays within
// directPerKey entries a key of the table and a key it would hold; keys it
// comes to cover move out of the slots. A key is in direct or in the
// slots, never both.
type Int[K Integer] struct {
	slots []intSlot[K]
	shift uint // 64 - log2(len(slots)): a hash's top bits index the slots
	n     int  // keys in the slots
	limit int  // grow when n reaches it (7/8 of the slots)

	direct []uint32 // the value plus one of each key below len(direct); 0: none
	nd     int      // keys in direct
	retry  int      // no growth of direct before Len reaches it
}

// directPerKey bounds the direct array: at most this many entries a key
// the table holds (16 bytes a key, a slot's size), past a first 64.
const directPerKey = 4

// directMax bounds the direct array's entries (1 GiB).
const directMax = 1 << 28

// intSlot holds a key and its value plus one; 0 marks an empty slot.
type intSlot[K Integer] struct {
	key K
	v   uint32
}

// hashInt mixes a key's bits; the table indexes its slots with the top
// bits of the result (Fibonacci hashing after an xor-shift, so that keys
// differing only in their high bits spread too).
func hashInt(x uint64) uint64 {
	x ^= x >> 32
	return x * 0x9e3779b97f4a7c15
}

// Len is the number of keys in the table.
func (t *Int[K]) Len() int { return t.n + t.nd }

// Get returns the value of key k, and whether k is in the table.
func (t *Int[K]) Get(k K) (int32, bool) {
	if u := uint64(k); u < uint64(len(t.direct)) {
		if v := t.direct[u]; v != 0 {
			return int32(v - 1), true
		}
		return 0, false
	}
	if t.n == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	for i := hashInt(uint64(k)) >> t.shift; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.v == 0 {
			return 0, false
		}
		if s.key == k {
			return int32(s.v - 1), true
		}
	}
}

// Put sets the value of key k to v (v ≥ 0).
func (t *Int[K]) Put(k K, v int32) {
	if u := uint64(k); u < uint64(len(t.direct)) || t.growDirect(u) {
		if t.direct[u] == 0 {
			t.nd++
		}
		t.direct[u] = uint32(v) + 1
		return
	}
	if t.n >= t.limit {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	for i := hashInt(uint64(k)) >> t.shift; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.v == 0 {
			s.key, s.v = k, uint32(v)+1
			t.n++
			return
		}
		if s.key == k {
			s.v = uint32(v) + 1
			return
		}
	}
}

// Dense is a read-only form of an Int table whose keys lie in a short
// range (a dimension's ids, 0..n-1): each key's value plus one in an array
// indexed by the key minus the smallest (0: no such key), so that a lookup
// is a subtraction, a bounds check and one load, with no hashing nor
// probing, into an array of 4 bytes a slot where the table's slots are 16
// (DuckDB's perfect hash join). A join's build side of integer keys is
// probed through one when Int.Dense makes it (codegen's genJoin).
type Dense[K Integer] struct {
	min  K
	vals []uint32
}

// denseSlotsPerKey bounds a Dense table's array: at most this many slots
// per key (so at most 8 bytes a key, less than the Int table it reads).
const denseSlotsPerKey = 2

// Dense returns the table's keys and values as a Dense table when their
// range spans at most denseSlotsPerKey slots per key; nil otherwise (and
// for an empty table). The table itself is left as it was.
func (t *Int[K]) Dense() *Dense[K] {
	if t.Len() == 0 {
		return nil
	}
	first := true
	var lo, hi K
	t.each(func(k K, _ uint32) {
		if first || k < lo {
			lo = k
		}
		if first || k > hi {
			hi = k
		}
		first = false
	})
	// the keys' span as a uint64: a signed key converts sign-extended, so
	// that the difference is right for every K, and cannot overflow
	span := uint64(hi) - uint64(lo)
	if span >= uint64(denseSlotsPerKey*t.Len()) {
		return nil
	}
	d := &Dense[K]{min: lo, vals: make([]uint32, span+1)}
	t.each(func(k K, v uint32) { d.vals[uint64(k)-uint64(lo)] = v })
	return d
}

// each calls f with every key of the table and its value plus one.
func (t *Int[K]) each(f func(k K, v uint32)) {
	for k, v := range t.direct {
		if v != 0 {
			f(K(k), v)
		}
	}
	for _, s := range t.slots {
		if s.v != 0 {
			f(s.key, s.v)
		}
	}
}

// Get returns the value of key k, and whether k is in the table.
func (d *Dense[K]) Get(k K) (int32, bool) {
	if i := uint64(k) - uint64(d.min); i < uint64(len(d.vals)) {
		v := d.vals[i]
		return int32(v) - 1, v != 0
	}
	return 0, false
}

// Bytes is the memory the table's array holds.
func (d *Dense[K]) Bytes() int64 { return 4 * int64(len(d.vals)) }

// growDirect grows the direct array to cover key u (≥ its length), when
// the array's bounds allow it, and moves the keys it comes to cover out of
// the slots; it reports whether u is now covered.
func (t *Int[K]) growDirect(u uint64) bool {
	if u >= directMax {
		return false
	}
	n := uint64(64)
	for n <= u {
		n *= 2
	}
	if n > uint64(max(64, directPerKey*(t.Len()+1))) || t.Len() < t.retry {
		return false
	}
	if n > 64 {
		// the keys the array would hold: at least one in directPerKey
		// entries (keys spread thin over a wide range stay in the
		// slots); after a refusal, the next try waits until the table
		// grows by an eighth, so that the count costs O(1) a Put
		covered := t.nd + 1
		for _, s := range t.slots {
			if s.v != 0 && uint64(s.key) < n {
				covered++
			}
		}
		if uint64(directPerKey*covered) < n {
			t.retry = t.Len() + t.Len()/8 + 1
			return false
		}
	}
	d := make([]uint32, n)
	copy(d, t.direct)
	t.direct = d
	if t.n == 0 {
		return true
	}
	// the slots again, without the keys now below n: a table of their size
	old, kept := t.slots, 0
	for _, s := range old {
		if s.v == 0 {
			continue
		}
		if uint64(s.key) < n {
			t.direct[uint64(s.key)] = s.v
			t.nd++
		} else {
			kept++
		}
	}
	t.slots, t.n, t.limit = nil, 0, 0
	if kept > 0 {
		size := minSlots
		for size/8*7 <= kept {
			size *= 2
		}
		t.rehash(old, size)
	}
	return true
}

// grow doubles the slots (or makes the first ones) and moves the keys.
func (t *Int[K]) grow() { t.rehash(t.slots, max(2*len(t.slots), minSlots)) }

// rehash makes n empty slots (a power of two) and places old's keys in
// them, but those the direct array covers.
func (t *Int[K]) rehash(old []intSlot[K], n int) {
	t.slots = make([]intSlot[K], n)
	t.shift = uint(64 - log2(n))
	t.limit = n / 8 * 7
	t.n = 0
	mask := uint64(n - 1)
	for _, s := range old {
		if s.v == 0 || uint64(s.key) < uint64(len(t.direct)) {
			continue
		}
		i := hashInt(uint64(s.key)) >> t.shift
		for t.slots[i].v != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
		t.n++
	}
}

// log2 of a power of two.
func log2(n int) int {
	b := 0
	for n > 1 {
		n >>= 1
		b++
	}
	return b
}

// seed is the hash seed of every Strings table of the process (a table's
// hashes never leave the process).
var seed = maphash.MakeSeed()

// Strings is a hash table from a string key to an int32. The zero value is
// an empty table.
type Strings struct {
	slots []strSlot
	n     int
	limit int // grow when n reaches it (3/4 of the slots)
}

// strSlot holds a key, 32 bits of its hash (which index the slots, so that
// growing never rehashes a string) and its value plus one; 0 marks an empty
// slot.
type strSlot struct {
	key  string
	hash uint32
	v    uint32
}

// hashString is the 32 bits of s's hash that a table keeps. Keys of up to
// 16 bytes (most group and join keys) are hashed inline: their bytes in two
// words, mixed by one 128-bit multiply with the process's seed (as wyhash
// does); longer keys by hash/maphash.
func hashString(s string) uint32 {
	n := len(s)
	var a, b uint64
	switch {
	case n > 16:
		h := maphash.String(seed, s)
		return uint32(h ^ h>>32)
	case n >= 8:
		a, b = load64(s), load64(s[n-8:])
	case n >= 4:
		a, b = uint64(load32(s)), uint64(load32(s[n-4:]))
	case n > 0:
		a = uint64(s[0])<<16 | uint64(s[n>>1])<<8 | uint64(s[n-1])
	}
	hi, lo := bits.Mul64(a^seed0, b^seed1^uint64(n))
	h := hi ^ lo
	return uint32(h ^ h>>32)
}

// load64 and load32 read the first 8 or 4 bytes of s, little-endian (the
// compiler makes each one load).
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func load32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// seed0 and seed1 are the inline hash's seeds, drawn from seed.
var (
	seed0 = maphash.Comparable(seed, 0) | 1
	seed1 = maphash.Comparable(seed, 1) | 1
)

// Len is the number of keys in the table.
func (t *Strings) Len() int { return t.n }

// Get returns the value of key s, and whether s is in the table.
func (t *Strings) Get(s string) (int32, bool) {
	if t.n == 0 {
		return 0, false
	}
	h := hashString(s)
	mask := uint32(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.v == 0 {
			return 0, false
		}
		if sl.hash == h && sl.key == s {
			return int32(sl.v - 1), true
		}
	}
}

// Put sets the value of key s to v (v ≥ 0). The table keeps s itself: the
// caller passes a string that outlives the batch it came from (a copy).
func (t *Strings) Put(s string, v int32) {
	if t.n >= t.limit {
		t.grow()
	}
	h := hashString(s)
	mask := uint32(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.v == 0 {
			*sl = strSlot{key: s, hash: h, v: uint32(v) + 1}
			t.n++
			return
		}
		if sl.hash == h && sl.key == s {
			sl.v = uint32(v) + 1
			return
		}
	}
}

// grow doubles the slots (or makes the first ones) and moves the keys by
// their stored hashes.
func (t *Strings) grow() {
	old := t.slots
	n := max(2*len(old), minSlots)
	t.slots = make([]strSlot, n)
	t.limit = n / 4 * 3
	mask := uint32(n - 1)
	for _, s := range old {
		if s.v == 0 {
			continue
		}
		i := s.hash & mask
		for t.slots[i].v != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}
