package stream

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// runSlowSink sends items of (rows, bytes) through an edge whose consumer
// takes one item per tick of the test. It returns the edge's final stats
// and the items in the order received.
func runSlowSink(t *testing.T, b EdgeBounds, items [][2]int64) (EdgeStats, []int) {
	t.Helper()
	e, err := NewEdge[int](b)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sent := make(chan struct{})
	go func() {
		for i, it := range items {
			if err := e.Send(ctx, i, it[0], it[1]); err != nil {
				t.Error(err)
			}
			s := e.Stats()
			if (b.Rows > 0 && s.Rows > b.Rows) || (b.Bytes > 0 && s.Bytes > b.Bytes) {
				t.Errorf("occupancy %d rows %d bytes above bounds %+v", s.Rows, s.Bytes, b)
			}
		}
		e.Close()
		close(sent)
	}()
	if b == (EdgeBounds{}) {
		<-sent // the control: the sink does not keep up at all
	}
	var got []int
	for {
		v, ok, err := e.Recv(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		got = append(got, v)
		time.Sleep(20 * time.Microsecond) // the slow sink
	}
	<-sent
	return e.Stats(), got
}

func TestEdgeSlowSinkBoundedVsControl(t *testing.T) {
	var items [][2]int64
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 500; i++ {
		items = append(items, [2]int64{1 + rng.Int64N(100), 100 + rng.Int64N(5000)})
	}
	bounds := EdgeBounds{Rows: 400, Bytes: 20000}
	st, got := runSlowSink(t, bounds, items)
	if st.PeakRows > bounds.Rows || st.PeakBytes > bounds.Bytes {
		t.Fatalf("bounded edge peaked at %d rows, %d bytes; bounds %+v", st.PeakRows, st.PeakBytes, bounds)
	}
	if st.BlockedSends == 0 {
		t.Fatal("a slow sink never slowed the producer")
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("item %d received as %d: not FIFO", i, v)
		}
	}
	if len(got) != len(items) || st.Rows != 0 || st.Items != 0 {
		t.Fatalf("received %d of %d, %d rows left", len(got), len(items), st.Rows)
	}
	ctl, _ := runSlowSink(t, EdgeBounds{}, items)
	var total int64
	for _, it := range items {
		total += it[0]
	}
	t.Logf("bounded: peak %d rows / %d bytes (bounds %d / %d), %d blocked sends; unbounded control: peak %d rows / %d bytes",
		st.PeakRows, st.PeakBytes, bounds.Rows, bounds.Bytes, st.BlockedSends, ctl.PeakRows, ctl.PeakBytes)
	if ctl.PeakRows != total || ctl.PeakRows <= 10*bounds.Rows {
		t.Fatalf("control without bounds peaked at %d rows, want all %d held", ctl.PeakRows, total)
	}
}

// TestEdgePropertyManyProducers: random bounds, item sizes and producer
// counts; every item arrives once, per-producer order is kept, and the peak
// never exceeds a bound except by counted oversize items.
func TestEdgePropertyManyProducers(t *testing.T) {
	for c := 0; c < 40; c++ {
		seed := uint64(c)
		rng := rand.New(rand.NewPCG(seed, 5))
		b := EdgeBounds{Rows: rng.Int64N(50), Bytes: rng.Int64N(2000)}
		e, _ := NewEdge[[2]int](b)
		producers := 1 + rng.IntN(4)
		per := 50 + rng.IntN(100)
		sizes := make([][][2]int64, producers)
		for p := range sizes {
			for i := 0; i < per; i++ {
				sizes[p] = append(sizes[p], [2]int64{rng.Int64N(60), rng.Int64N(2500)})
			}
		}
		var wg sync.WaitGroup
		ctx := context.Background()
		for p := 0; p < producers; p++ {
			wg.Add(1)
			go func(p int) {
				defer wg.Done()
				for i, sz := range sizes[p] {
					if err := e.Send(ctx, [2]int{p, i}, sz[0], sz[1]); err != nil {
						t.Error(err)
					}
				}
			}(p)
		}
		go func() { wg.Wait(); e.Close() }()
		next := make([]int, producers)
		for {
			v, ok, err := e.Recv(ctx)
			if err != nil || !ok {
				break
			}
			if v[1] != next[v[0]] {
				t.Fatalf("seed %d: producer %d item %d arrived, want %d", seed, v[0], v[1], next[v[0]])
			}
			next[v[0]]++
		}
		for p, n := range next {
			if n != per {
				t.Fatalf("seed %d: producer %d delivered %d of %d", seed, p, n, per)
			}
		}
		s := e.Stats()
		if s.OversizeItems == 0 && ((b.Rows > 0 && s.PeakRows > b.Rows) || (b.Bytes > 0 && s.PeakBytes > b.Bytes)) {
			t.Fatalf("seed %d: peak %d/%d above bounds %+v", seed, s.PeakRows, s.PeakBytes, b)
		}
	}
}

func TestEdgeCancelAndClose(t *testing.T) {
	e, _ := NewEdge[string](EdgeBounds{Rows: 1})
	ctx := context.Background()
	if err := e.Send(ctx, "a", 1, 0); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	if err := e.Send(cctx, "b", 1, 0); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("blocked send: %v", err)
	}
	if s := e.Stats(); s.Items != 1 {
		t.Fatalf("a cancelled send enqueued: %+v", s)
	}
	// An item bigger than the bound travels alone.
	e2, _ := NewEdge[string](EdgeBounds{Rows: 5})
	if err := e2.Send(ctx, "big", 9, 0); err != nil || e2.Stats().OversizeItems != 1 {
		t.Fatalf("oversize item: %v %+v", err, e2.Stats())
	}
	e.Close()
	if err := e.Send(ctx, "c", 0, 0); !errors.Is(err, ErrEdgeClosed) {
		t.Fatalf("send after close: %v", err)
	}
	if v, ok, _ := e.Recv(ctx); !ok || v != "a" {
		t.Fatal("close lost a held item")
	}
	if _, ok, _ := e.Recv(ctx); ok {
		t.Fatal("recv after drain")
	}
	rctx, cancel2 := context.WithCancel(ctx)
	cancel2()
	e3, _ := NewEdge[string](EdgeBounds{})
	if _, _, err := e3.Recv(rctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled recv: %v", err)
	}
	if _, err := NewEdge[int](EdgeBounds{Rows: -1}); err == nil {
		t.Fatal("negative bound accepted")
	}
}

func TestSendRecordCountsRowsAndBytes(t *testing.T) {
	mem := memory.NewGoAllocator()
	b := array.NewInt64Builder(mem)
	for i := 0; i < 1000; i++ {
		b.Append(int64(i))
	}
	col := b.NewArray()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil), []arrow.Array{col}, 1000)
	e, _ := NewEdge[arrow.RecordBatch](EdgeBounds{})
	if err := SendRecord(context.Background(), e, rec); err != nil {
		t.Fatal(err)
	}
	s := e.Stats()
	if s.Rows != 1000 || s.Bytes < 8000 {
		t.Fatalf("record counted as %d rows, %d bytes", s.Rows, s.Bytes)
	}
}
