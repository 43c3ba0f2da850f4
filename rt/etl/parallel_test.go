package etl

import (
	"errors"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// sliceReader hands out n batches of one int64 column: batch k holds the
// values k*size .. k*size+size-1. It counts the batches still unreleased.
type sliceReader struct {
	n, size int
	next    int
	nexts   atomic.Int64 // calls of Next after io.EOF
	live    atomic.Int64
	mu      sync.Mutex // Next is not safe for concurrent use: catch callers that think so
	schema  *arrow.Schema
}

func newSliceReader(n, size int) *sliceReader {
	return &sliceReader{n: n, size: size, schema: arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil)}
}

func (r *sliceReader) Schema() *arrow.Schema { return r.schema }
func (r *sliceReader) Close() error          { return nil }

func (r *sliceReader) Next() (arrow.RecordBatch, error) {
	if !r.mu.TryLock() {
		panic("concurrent Next")
	}
	defer r.mu.Unlock()
	if r.next >= r.n {
		r.nexts.Add(1)
		return nil, io.EOF
	}
	b := array.NewInt64Builder(memory.DefaultAllocator)
	for i := range r.size {
		b.Append(int64(r.next*r.size + i))
	}
	col := b.NewArray()
	rec := array.NewRecordBatch(r.schema, []arrow.Array{col}, int64(r.size))
	col.Release()
	r.next++
	r.live.Add(1)
	return &countedRec{RecordBatch: rec, live: &r.live}, nil
}

// countedRec counts its release.
type countedRec struct {
	arrow.RecordBatch
	live *atomic.Int64
}

func (c *countedRec) Release() {
	c.live.Add(-1)
	c.RecordBatch.Release()
}

func TestParallelEveryBatchOnceAndEachWorkerEnds(t *testing.T) {
	for _, threads := range []int{1, 2, 5} {
		rd := newSliceReader(37, 10)
		fc := &FlowContext{Threads: threads}
		sums := make([]int64, fc.Workers())
		seen := make([][]int64, fc.Workers())
		ended := make([]bool, fc.Workers())
		err := fc.Parallel(rd, func(w int) (func(int64, arrow.RecordBatch) error, func() error) {
			var sum int64
			return func(seq int64, rec arrow.RecordBatch) error {
					v := rec.Column(0).(*array.Int64)
					if first := v.Value(0); first != seq*10 {
						t.Errorf("threads %d: batch %d starts at %d, want %d (seq is the batch's position)", threads, seq, first, seq*10)
					}
					for i := range v.Len() {
						sum += v.Value(i)
					}
					seen[w] = append(seen[w], seq)
					return nil
				}, func() error {
					sums[w] = sum
					ended[w] = true
					return nil
				}
		})
		if err != nil {
			t.Fatalf("threads %d: %v", threads, err)
		}
		var total int64
		count := map[int64]int{}
		for w := range sums {
			total += sums[w]
			if !ended[w] {
				t.Errorf("threads %d: worker %d did not end", threads, w)
			}
			for i, s := range seen[w] {
				count[s]++
				if i > 0 && s <= seen[w][i-1] {
					t.Errorf("threads %d: worker %d got batch %d after %d", threads, w, s, seen[w][i-1])
				}
			}
		}
		if want := int64(370 * 369 / 2); total != want {
			t.Errorf("threads %d: sum %d, want %d", threads, total, want)
		}
		for s := range int64(37) {
			if count[s] != 1 {
				t.Errorf("threads %d: batch %d handled %d times", threads, s, count[s])
			}
		}
		if n := rd.live.Load(); n != 0 {
			t.Errorf("threads %d: %d batches not released", threads, n)
		}
		if n := rd.nexts.Load(); n != 1 {
			t.Errorf("threads %d: Next called %d times after io.EOF, want 1", threads, n)
		}
	}
}

func TestParallelFirstErrorStopsAndSkipsEnds(t *testing.T) {
	boom := errors.New("boom")
	for _, threads := range []int{1, 3} {
		rd := newSliceReader(100, 4)
		fc := &FlowContext{Threads: threads}
		var handled, ends atomic.Int64
		err := fc.Parallel(rd, func(w int) (func(int64, arrow.RecordBatch) error, func() error) {
			return func(seq int64, rec arrow.RecordBatch) error {
					handled.Add(1)
					if seq == 5 {
						return boom
					}
					return nil
				}, func() error {
					ends.Add(1)
					return nil
				}
		})
		if err != boom {
			t.Errorf("threads %d: error %v, want boom", threads, err)
		}
		if n := handled.Load(); n > 5+int64(threads) {
			t.Errorf("threads %d: %d batches handled after the failure at batch 5", threads, n)
		}
		if threads == 1 && ends.Load() != 0 {
			t.Errorf("threads 1: the end function ran after a failure")
		}
		if n := rd.live.Load(); n != 0 {
			t.Errorf("threads %d: %d batches not released", threads, n)
		}
	}
}

func TestParallelPanicIsAnError(t *testing.T) {
	rd := newSliceReader(10, 2)
	fc := &FlowContext{Threads: 2}
	err := fc.Parallel(rd, func(w int) (func(int64, arrow.RecordBatch) error, func() error) {
		return func(seq int64, rec arrow.RecordBatch) error {
			if seq == 3 {
				panic("bad row")
			}
			return nil
		}, nil
	})
	if err == nil || !strings.Contains(err.Error(), "internal error: bad row") {
		t.Errorf("error %v, want the panic as an internal error", err)
	}
}
