package stream

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// ErrEdgeClosed is returned by Send on a closed edge.
var ErrEdgeClosed = errors.New("edge closed")

// EdgeBounds bound an edge, as NiFi bounds a connection: by rows and by
// bytes. Zero means unbounded on that measure.
type EdgeBounds struct {
	Rows  int64 `json:"rows,omitempty"`
	Bytes int64 `json:"bytes,omitempty"`
}

// EdgeStats are an edge's occupancy counters, for the event log.
type EdgeStats struct {
	Bounds        EdgeBounds `json:"bounds"`
	Rows          int64      `json:"rows"`       // held now
	Bytes         int64      `json:"bytes"`      // held now
	PeakRows      int64      `json:"peak_rows"`  // most ever held
	PeakBytes     int64      `json:"peak_bytes"` // most ever held
	Items         int        `json:"items"`      // batches held now
	Sent          int64      `json:"sent"`       // batches accepted
	Received      int64      `json:"received"`
	BlockedSends  int64      `json:"blocked_sends"` // Sends that had to wait
	OversizeItems int64      `json:"oversize_items,omitempty"`
}

// Edge is a FIFO between two concurrently running flows that holds at most
// Bounds.Rows rows and Bounds.Bytes bytes: Send blocks while the item would
// not fit, so a slow consumer slows its producers instead of growing memory.
// One item larger than a bound on its own is let through when the edge is
// empty (it would never fit otherwise); OversizeItems counts those, and only
// they can make the peak exceed a bound. It is safe for concurrent use.
type Edge[T any] struct {
	mu      sync.Mutex
	bounds  EdgeBounds
	q       []edgeItem[T]
	head    int
	closed  bool
	changed chan struct{} // closed and replaced on every change
	st      EdgeStats
}

type edgeItem[T any] struct {
	v           T
	rows, bytes int64
}

// NewEdge returns an empty edge with the given bounds.
func NewEdge[T any](b EdgeBounds) (*Edge[T], error) {
	if b.Rows < 0 || b.Bytes < 0 {
		return nil, fmt.Errorf("edge bounds %+v: want >= 0", b)
	}
	return &Edge[T]{bounds: b, changed: make(chan struct{}), st: EdgeStats{Bounds: b}}, nil
}

func (e *Edge[T]) notify() {
	close(e.changed)
	e.changed = make(chan struct{})
}

func (e *Edge[T]) fits(rows, bytes int64) bool {
	if e.st.Items == 0 {
		return true
	}
	return (e.bounds.Rows == 0 || e.st.Rows+rows <= e.bounds.Rows) &&
		(e.bounds.Bytes == 0 || e.st.Bytes+bytes <= e.bounds.Bytes)
}

// Send enqueues v, which holds rows rows and bytes bytes, waiting while it
// does not fit. It returns ctx's error if ctx ends first (v is then not
// enqueued), and ErrEdgeClosed after Close.
func (e *Edge[T]) Send(ctx context.Context, v T, rows, bytes int64) error {
	waited := false
	for {
		e.mu.Lock()
		if e.closed {
			e.mu.Unlock()
			return ErrEdgeClosed
		}
		if e.fits(rows, bytes) {
			if (e.bounds.Rows > 0 && rows > e.bounds.Rows) || (e.bounds.Bytes > 0 && bytes > e.bounds.Bytes) {
				e.st.OversizeItems++
			}
			e.q = append(e.q, edgeItem[T]{v, rows, bytes})
			e.st.Items++
			e.st.Rows += rows
			e.st.Bytes += bytes
			e.st.PeakRows = max(e.st.PeakRows, e.st.Rows)
			e.st.PeakBytes = max(e.st.PeakBytes, e.st.Bytes)
			e.st.Sent++
			if waited {
				e.st.BlockedSends++
			}
			e.notify()
			e.mu.Unlock()
			return nil
		}
		ch := e.changed
		e.mu.Unlock()
		waited = true
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}

// Recv dequeues the oldest item, waiting for one. ok is false once the edge
// is closed and drained; err is ctx's error if ctx ends first.
func (e *Edge[T]) Recv(ctx context.Context) (v T, ok bool, err error) {
	for {
		e.mu.Lock()
		if e.st.Items > 0 {
			it := e.q[e.head]
			e.q[e.head] = edgeItem[T]{}
			e.head++
			if e.head > len(e.q)/2 && e.head > 16 {
				e.q = append(e.q[:0], e.q[e.head:]...)
				e.head = 0
			}
			e.st.Items--
			e.st.Rows -= it.rows
			e.st.Bytes -= it.bytes
			e.st.Received++
			e.notify()
			e.mu.Unlock()
			return it.v, true, nil
		}
		if e.closed {
			e.mu.Unlock()
			return v, false, nil
		}
		ch := e.changed
		e.mu.Unlock()
		select {
		case <-ctx.Done():
			return v, false, ctx.Err()
		case <-ch:
		}
	}
}

// Close ends the edge: Sends fail, Recv drains what is held and then
// reports ok false.
func (e *Edge[T]) Close() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.closed {
		e.closed = true
		e.notify()
	}
}

// Stats returns the occupancy counters.
func (e *Edge[T]) Stats() EdgeStats {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.st
}

// RecordBytes is the byte size an Arrow batch counts for on an edge: the
// lengths of its columns' buffers, children and dictionaries included (a
// slice counts its whole buffers, which it keeps alive).
func RecordBytes(rec arrow.RecordBatch) int64 {
	var n int64
	for _, c := range rec.Columns() {
		n += dataBytes(c.Data())
	}
	return n
}

func dataBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, c := range d.Children() {
		n += dataBytes(c)
	}
	if d.DataType().ID() == arrow.DICTIONARY {
		n += dataBytes(d.Dictionary())
	}
	return n
}

// SendRecord sends an Arrow batch on an edge, counting its rows and
// RecordBytes. The receiver owns the batch (Release it).
func SendRecord(ctx context.Context, e *Edge[arrow.RecordBatch], rec arrow.RecordBatch) error {
	return e.Send(ctx, rec, rec.NumRows(), RecordBytes(rec))
}
