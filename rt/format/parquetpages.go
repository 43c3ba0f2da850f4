package format

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"

	"github.com/nordisk/thund/rt/format/pqfast"
	"github.com/nordisk/thund/rt/store"
)

// pageGuard is the file arrow-go's Parquet reader reads through. arrow-go
// trusts a page header: on one it cannot parse it retries with a view of
// twice the bytes, up to 4 MiB, allocating each; on one it parses it
// allocates the page's stated sizes before reading the page. So the guard
// parses the page headers of the column chunks the reader reads as their
// bytes go by (a chunk is read front to back), and fails the read that
// brings a header that is malformed or claims more than its chunk, before
// arrow-go sees it. It costs no read of its own. rt/format/pqfast, which
// reads whole chunks and checks them itself, reads the file directly.
type pageGuard struct {
	store.Object
	mu     sync.Mutex
	chunks []*guardedChunk // by start
}

// maxPageHeader is the longest page header the guard waits for (arrow-go's
// limit).
const maxPageHeader = 4 << 20

// guardedChunk is the guard's state of one column chunk.
type guardedChunk struct {
	col          string
	group        int
	start, end   int64 // the chunk's bytes [start, end)
	limit        int64 // the most a page may decompress to
	width        int64 // bytes of a PLAIN value, at least (a dictionary page's)
	want, values int64 // the chunk's values, and those of the data pages passed
	pos          int64 // bytes before it have been checked
	next         int64 // where the next page header starts
	page         int   // its number, from 1
	hdr          []byte
	done         bool // every value passed, or the reads left the expected order
	err          error
}

// add guards the chunk of column col in row group group, end-start bytes
// at start, whose pages decompress to at most limit bytes and hold want
// values of at least width bytes each (PLAIN-encoded, as a dictionary is).
func (g *pageGuard) add(col string, group int, start, end, limit, want, width int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	i := sort.Search(len(g.chunks), func(i int) bool { return g.chunks[i].start >= start })
	if i < len(g.chunks) && g.chunks[i].start == start {
		return // another leaf's chunk at the same offset: a malformed footer, left to the readers
	}
	c := &guardedChunk{col: col, group: group, start: start, end: end, limit: limit, want: want, width: width}
	c.reset()
	g.chunks = append(g.chunks, nil)
	copy(g.chunks[i+1:], g.chunks[i:])
	g.chunks[i] = c
}

func (c *guardedChunk) reset() {
	c.pos, c.next, c.page, c.values, c.hdr, c.done, c.err = c.start, c.start, 1, 0, nil, false, nil
}

// ReadAt reads from the file and checks the chunks' bytes it brings; a
// read that brings a bad page fails whole, with no bytes (io.ReadAtLeast,
// which arrow-go's buffered reader calls, drops the error of a read that
// returns bytes).
func (g *pageGuard) ReadAt(p []byte, off int64) (int, error) {
	n, err := g.Object.ReadAt(p, off)
	if n == 0 {
		return n, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	end := off + int64(n)
	// the chunks that overlap [off, end) (chunks do not overlap each other
	// in a valid file; where a malformed footer makes them, one may go
	// unchecked here, left to arrow-go's checks and the page size limits)
	i := sort.Search(len(g.chunks), func(i int) bool { return g.chunks[i].end > off })
	for ; i < len(g.chunks) && g.chunks[i].start < end; i++ {
		c := g.chunks[i]
		lo, hi := max(off, c.start), min(end, c.end)
		if lo >= hi {
			continue
		}
		if cerr := c.feed(p[lo-off:hi-off], lo); cerr != nil {
			return 0, cerr
		}
	}
	return n, err
}

// pageError is a page that the guard refused.
type pageError struct {
	col         string
	group, page int
	msg         string
}

func (e *pageError) Error() string {
	return fmt.Sprintf("column %s, row group %d, page %d: %s", e.col, e.group, e.page, e.msg)
}

func (c *guardedChunk) fail(format string, args ...any) error {
	c.err = &pageError{col: c.col, group: c.group, page: c.page, msg: fmt.Sprintf(format, args...)}
	return c.err
}

// feed checks the bytes b of the chunk, which start at offset at.
func (c *guardedChunk) feed(b []byte, at int64) error {
	if at == c.start && c.pos > c.start {
		c.reset() // read again from the start
	}
	if c.err != nil || c.done {
		return c.err
	}
	if at > c.pos {
		c.done = true // not read front to back: arrow-go's own checks remain
		return nil
	}
	if skip := c.pos - at; skip >= int64(len(b)) {
		return nil
	} else {
		b, at = b[skip:], c.pos
	}
	for len(b) > 0 && !c.done {
		if at < c.next { // a page's payload
			k := min(c.next-at, int64(len(b)))
			b, at = b[k:], at+k
			continue
		}
		buf := b
		if len(c.hdr) > 0 {
			c.hdr = append(c.hdr, b...)
			buf = c.hdr
		}
		h, hl, err := pqfast.ReadPageHeader(buf)
		if errors.Is(err, pqfast.ErrShortPageHeader) {
			if c.next+int64(len(buf)) >= c.end {
				return c.fail("the page header is cut short by the end of the column chunk")
			}
			if len(buf) > maxPageHeader {
				return c.fail("a page header longer than %d bytes", maxPageHeader)
			}
			if len(c.hdr) == 0 {
				c.hdr = append([]byte(nil), b...)
			}
			at += int64(len(b))
			b = nil
			break
		}
		if err != nil {
			return c.fail("%v", err)
		}
		used := hl - (len(buf) - len(b)) // of b
		b, at = b[used:], at+int64(used)
		c.hdr = c.hdr[:0]
		body := c.next + int64(hl)
		if left := c.end - body; int64(h.Compressed) > left {
			return c.fail("compressed size %d exceeds the column chunk (%d bytes left of %d)", h.Compressed, left, c.end-c.start)
		}
		if int64(h.Uncompressed) > c.limit {
			return c.fail("uncompressed size %d exceeds the column chunk's (%d bytes)", h.Uncompressed, c.limit)
		}
		if h.DictValues > 0 && int64(h.DictValues) > int64(h.Uncompressed)/c.width {
			return c.fail("dictionary of %d values in %d bytes", h.DictValues, h.Uncompressed)
		}
		if int64(h.NumValues) > c.want-c.values {
			return c.fail("page of %d values past the column chunk's %d", h.NumValues, c.want)
		}
		c.values += int64(h.NumValues)
		if c.values >= c.want {
			c.done = true // arrow-go reads no further page
		}
		c.next = body + int64(h.Compressed)
		c.page++
	}
	c.pos = at
	return nil
}

var _ io.ReaderAt = (*pageGuard)(nil)

// prove reads the page headers of the chunks of row group group whose
// values would take pqarrow far more memory than their bytes: it reserves
// a row group's stated rows before it reads a page, and a chunk can state
// any number. It costs a read of each page header of such a chunk (only a
// column of long runs of one value has them legitimately, and its chunk
// is small) and none of any other.
func (g *pageGuard) prove(group int) error {
	g.mu.Lock()
	var suspects []guardedChunk
	for _, c := range g.chunks {
		if c.group == group && c.want > (64*(c.end-c.start)+1<<20)/reservedBytes(c.width) {
			suspects = append(suspects, *c)
		}
	}
	g.mu.Unlock()
	var buf []byte
	for _, c := range suspects {
		at := c.start
		for c.values < c.want {
			if at >= c.end {
				return fmt.Errorf("column %s, row group %d: column chunk ends after %d of its %d values (%d pages)", c.col, c.group, c.values, c.want, c.page-1)
			}
			var h pqfast.PageHeader
			var hl int
			for size := int64(256); ; size *= 4 {
				buf = resized(buf, int(min(size, c.end-at)))
				if _, err := g.Object.ReadAt(buf, at); err != nil && err != io.EOF {
					return err
				}
				var err error
				h, hl, err = pqfast.ReadPageHeader(buf)
				if err == nil {
					break
				}
				if !errors.Is(err, pqfast.ErrShortPageHeader) || int64(len(buf)) >= c.end-at || size > maxPageHeader {
					return c.fail("%v", err)
				}
			}
			at += int64(hl)
			if int64(h.Compressed) > c.end-at {
				return c.fail("compressed size %d exceeds the column chunk (%d bytes left of %d)", h.Compressed, c.end-at, c.end-c.start)
			}
			if int64(h.NumValues) > c.want-c.values {
				return c.fail("page of %d values past the column chunk's %d", h.NumValues, c.want)
			}
			at += int64(h.Compressed)
			c.values += int64(h.NumValues)
			c.page++
		}
	}
	return nil
}

// reservedBytes is what pqarrow reserves for a value of width bytes, at
// least: the value or its offset, its levels and its validity bit.
func reservedBytes(width int64) int64 { return max(16, width+8) }

// resized returns b with length n, reallocated when too small.
func resized(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}
