package window

// Best keeps, as rows arrive, the first row of each partition in Sort's
// order (less; on a tie the row added first): the group limit of one row
// a partition (a dedup's row_number() = 1) taken as an aggregate, without
// storing the rows it drops. A window operator of that group limit adds
// its rows to it in small chunks (BestChunk) that stay in the cache, then
// runs GroupLimit over Rows followed by the rows added since: the kept
// rows come first, as they came first in the input, so the result is the
// rows GroupLimit keeps over the whole input. Not in its order (Best keeps
// the partitions in the order they first came), which does not matter:
// with one row a partition, the sort that follows orders the rows by their
// partition keys alone.
//
// Its table is open addressing over hash (at most half full), a slot the
// hash's top 32 bits and the partition's index plus one, so that same runs
// only on a likely match. With hash nil (no partition keys) all rows are
// one partition.
type Best[T any] struct {
	hash  func(*T) uint64
	same  func(a, b *T) bool
	less  func(a, b *T) int
	slots []uint64
	mask  uint64
	rows  []T
}

// BestChunk is the rows a window operator stores before it adds them to
// its Best.
const BestChunk = 1024

// NewBest returns an empty Best of the partitions hash and same tell
// apart, and the order less gives.
func NewBest[T any](hash func(*T) uint64, same func(a, b *T) bool, less func(a, b *T) int) *Best[T] {
	b := &Best[T]{hash: hash, same: same, less: less}
	if hash != nil {
		b.slots = make([]uint64, 1024)
		b.mask = 1023
	}
	return b
}

// AddAll adds rows, in order.
func (b *Best[T]) AddAll(rows []T) {
	for i := range rows {
		b.add(&rows[i])
	}
}

func (b *Best[T]) add(r *T) {
	if b.hash == nil {
		if len(b.rows) == 0 {
			b.rows = append(b.rows, *r)
		} else if b.less(r, &b.rows[0]) < 0 {
			b.rows[0] = *r
		}
		return
	}
	h := b.hash(r)
	for at := h & b.mask; ; at = (at + 1) & b.mask {
		s := b.slots[at]
		if s == 0 {
			b.slots[at] = h>>32<<32 | uint64(len(b.rows)+1)
			b.rows = append(b.rows, *r)
			if 2*len(b.rows) > len(b.slots) {
				b.grow()
			}
			return
		}
		if s>>32 == h>>32 {
			if g := &b.rows[uint32(s)-1]; b.same(g, r) {
				if b.less(r, g) < 0 {
					*g = *r
				}
				return
			}
		}
	}
}

// grow doubles the slots and places every partition again.
func (b *Best[T]) grow() {
	b.slots = make([]uint64, 2*len(b.slots))
	b.mask = uint64(len(b.slots) - 1)
	for g := range b.rows {
		h := b.hash(&b.rows[g])
		at := h & b.mask
		for b.slots[at] != 0 {
			at = (at + 1) & b.mask
		}
		b.slots[at] = h>>32<<32 | uint64(g+1)
	}
}

// Rows is the kept rows, one a partition, in the order their partitions
// first came. The slice is the Best's own: appending to it ends the Best.
func (b *Best[T]) Rows() []T { return b.rows }
