package stream

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

type benchAcc struct {
	n   Count
	sum SumInt64
	top Max[int64]
}

func mergeBench(d, s *benchAcc) error {
	d.n.Merge(&s.n)
	d.top.Merge(&s.top)
	return d.sum.Merge(&s.sum)
}

// benchAssign runs b.N rows (event time advancing 1 per row with disorder
// up to 100, keys uniform over nkeys) through window state, advancing the
// watermark (max - 100) every 10,000 rows: a q5/q7-like inner loop without
// the Arrow decoding.
func benchAssign(b *testing.B, spec Spec, nkeys int) {
	st, err := NewState[int64, benchAcc](spec, Append, mergeBench)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	keys := make([]int64, 1<<16)
	lag := make([]int64, 1<<16)
	for i := range keys {
		keys[i] = rng.Int64N(int64(nkeys))
		lag[i] = rng.Int64N(100)
	}
	w := NewWatermark(100)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t := int64(i) - lag[i&0xffff]
		w.Observe(t)
		accs, _, err := st.Assign(keys[i&0xffff], t)
		if err != nil {
			b.Fatal(err)
		}
		for _, a := range accs {
			a.n.Add()
			a.sum.Add(int64(i & 1023))
			a.top.Add(int64(i & 4095))
		}
		if i%10000 == 9999 {
			st.Advance(w.Advance())
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkAssign(b *testing.B) {
	for _, nk := range []int{100, 10000} {
		b.Run(fmt.Sprintf("tumbling/keys=%d", nk), func(b *testing.B) {
			benchAssign(b, Spec{Kind: Tumbling, Size: 10000}, nk)
		})
		b.Run(fmt.Sprintf("hopping5/keys=%d", nk), func(b *testing.B) {
			benchAssign(b, Spec{Kind: Hopping, Size: 10000, Slide: 2000}, nk)
		})
		b.Run(fmt.Sprintf("session/keys=%d", nk), func(b *testing.B) {
			benchAssign(b, Spec{Kind: Session, Gap: 1000}, nk)
		})
	}
}

// BenchmarkStateMemory reports the heap held by window state per (key,
// window) entry as the key count grows: one tumbling window holding nkeys
// keys of a three-aggregate accumulator.
func BenchmarkStateMemory(b *testing.B) {
	for _, nk := range []int{1000, 100000, 1000000} {
		b.Run(fmt.Sprintf("keys=%d", nk), func(b *testing.B) {
			var perKey float64
			for i := 0; i < b.N; i++ {
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				st, _ := NewState[int64, benchAcc](Spec{Kind: Tumbling, Size: 1 << 40}, Append, nil)
				for k := 0; k < nk; k++ {
					accs, _, _ := st.Assign(int64(k), 5)
					accs[0].n.Add()
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				perKey = float64(after.HeapAlloc-before.HeapAlloc) / float64(nk)
				runtime.KeepAlive(st)
			}
			b.ReportMetric(perKey, "bytes/key")
		})
	}
}

// BenchmarkDedup runs b.N rows (event time advancing 1 per row with
// disorder up to 100, keys uniform over 100,000, a key held for 1,000)
// through dedup state, advancing the watermark (max - 100) every 10,000
// rows: the inner loop of a distinct within watermark without the Arrow
// decoding.
func BenchmarkDedup(b *testing.B) {
	d, err := NewDedup[int64](1000, 0, 1)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	keys := make([]int64, 1<<16)
	lag := make([]int64, 1<<16)
	for i := range keys {
		keys[i] = rng.Int64N(100_000)
		lag[i] = rng.Int64N(100)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d.Add(keys[i&0xffff], int64(i)-lag[i&0xffff], true)
		if i%10_000 == 9_999 {
			d.Advance(int64(i)-100, true)
		}
	}
	b.ReportMetric(float64(d.Stats().Passed)/float64(b.N), "passed/row")
}
