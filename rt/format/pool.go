package format

import (
	"math/bits"
	"sync"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/format/pqfast"
)

// bufferPool is the allocator of a Parquet reader whose caller asked for
// Options.Reuse: the buffers of decoded row groups (a MiB or so per column)
// go back to a pool when their batches are released, and the next row
// groups decode into them, instead of into fresh memory the collector must
// find and the kernel must fault in and zero. Buffers are handed out zeroed,
// as memory.GoAllocator's are. Small buffers come from the Go allocator.
type bufferPool struct {
	classes [48]sync.Pool // by capacity: 1 << class bytes
}

// minPooled is the smallest buffer the pool keeps.
const minPooled = 64 << 10

var (
	readPool bufferPool
	goAlloc  = memory.NewGoAllocator()
)

func (p *bufferPool) Allocate(size int) []byte {
	if size < minPooled {
		return goAlloc.Allocate(size)
	}
	c := bits.Len(uint(size - 1))
	if v, ok := p.classes[c].Get().(*[]byte); ok {
		b := (*v)[:size]
		clear(b)
		return b
	}
	return goAlloc.Allocate(1 << c)[:size]
}

func (p *bufferPool) Reallocate(size int, b []byte) []byte {
	if cap(b) >= size {
		n := len(b)
		b = b[:size]
		if size > n {
			clear(b[n:]) // a pooled buffer's tail holds old bytes
		}
		return b
	}
	nb := p.Allocate(size)
	copy(nb, b)
	p.Free(b)
	return nb
}

// Free pools a buffer of one of the pool's capacities; others are left to
// the collector.
func (p *bufferPool) Free(b []byte) {
	c := cap(b)
	if c < minPooled || c&(c-1) != 0 {
		return
	}
	b = b[:c]
	p.classes[bits.Len(uint(c-1))].Put(&b)
}

// AllocateDirty is Allocate without the zeroing: a pooled buffer keeps the
// bytes of its last use. It makes the pool a pqfast.DirtyAllocator: only the
// fast Parquet decoder (rt/format/pqfast), which writes every byte of the
// buffers it asks for before they are read, may use it; arrow-go's builders
// assume the zeroed memory Allocate gives.
func (p *bufferPool) AllocateDirty(size int) []byte {
	if size < minPooled {
		return goAlloc.Allocate(size)
	}
	c := bits.Len(uint(size - 1))
	if v, ok := p.classes[c].Get().(*[]byte); ok {
		return (*v)[:size]
	}
	return goAlloc.Allocate(1 << c)[:size]
}

var _ pqfast.DirtyAllocator = (*bufferPool)(nil)
