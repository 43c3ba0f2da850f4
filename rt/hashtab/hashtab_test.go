package hashtab

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// checkInt drives a table and a Go map with the same Puts and compares
// every Get, including keys never put, of the table and of its Dense form,
// which it makes when dense says so.
func checkInt[K Integer](t *testing.T, keys []K, probes []K, dense bool) {
	t.Helper()
	var tab Int[K]
	ref := map[K]int32{}
	for i, k := range keys {
		if _, ok := ref[k]; !ok {
			if v, ok := tab.Get(k); ok {
				t.Fatalf("Get(%v) before Put = %d, true", k, v)
			}
		}
		ref[k] = int32(i)
		tab.Put(k, int32(i))
		if v, ok := tab.Get(k); !ok || v != int32(i) {
			t.Fatalf("Get(%v) after Put(%v, %d) = %d, %v", k, k, i, v, ok)
		}
	}
	if tab.Len() != len(ref) {
		t.Fatalf("Len = %d, want %d", tab.Len(), len(ref))
	}
	d := tab.Dense()
	if (d != nil) != dense {
		t.Fatalf("Dense() = %v, want a dense table %v", d, dense)
	}
	for _, k := range append(keys, probes...) {
		want, wok := ref[k]
		got, gok := tab.Get(k)
		if got != want || gok != wok {
			t.Fatalf("Get(%v) = %d, %v; want %d, %v", k, got, gok, want, wok)
		}
		if d == nil {
			continue
		}
		if got, gok := d.Get(k); got != want && wok || gok != wok {
			t.Fatalf("Dense Get(%v) = %d, %v; want %d, %v", k, got, gok, want, wok)
		}
	}
}

func TestIntMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var random, small, seq, strided, probes []int64
	for i := range 50000 {
		random = append(random, r.Int64()>>r.IntN(64))
		small = append(small, r.Int64N(100000)) // slots first, then direct
		seq = append(seq, int64(i)-1000)
		strided = append(strided, int64(i)<<32) // only the high bits differ
		probes = append(probes, r.Int64N(100000)-50000)
	}
	edge := []int64{0, -1, 1, math.MinInt64, math.MaxInt64, 0, -1} // repeated keys overwrite
	// a dimension's ids with gaps: half the span
	var ids []int64
	for i := range 50000 {
		ids = append(ids, int64(2*i+1)-30000)
	}
	for name, c := range map[string]struct {
		keys  []int64
		dense bool
	}{
		"random": {random, false}, "sequential": {seq, true}, "high bits": {strided, false}, "edge": {edge, false},
		"ids": {ids, true}, "small": {small, false},
	} {
		t.Run(name, func(t *testing.T) { checkInt(t, c.keys, probes, c.dense) })
	}
	t.Run("int8", func(t *testing.T) {
		var keys []int8
		for i := range 300 { // every value, some twice
			keys = append(keys, int8(i))
		}
		checkInt(t, keys, []int8{-128, 127, 0}, true)
	})
	t.Run("uint64", func(t *testing.T) {
		keys := []uint64{math.MaxUint64, 0, 1 << 63, math.Float64bits(math.NaN()), math.Float64bits(-1.5)}
		checkInt(t, keys, []uint64{2, 3}, false)
		checkInt(t, []uint64{math.MaxUint64, math.MaxUint64 - 2}, []uint64{0, 1, math.MaxUint64 - 1, math.MaxUint64 - 3}, true)
	})
	t.Run("date32", func(t *testing.T) {
		type date int32 // a named type of the constraint's ~int32
		var keys []date
		for i := range 1000 {
			keys = append(keys, date(i*7-3000))
		}
		checkInt(t, keys, []date{1, 2, -1}, false)
		checkInt(t, keys[:1], []date{1, 2, -1, -3000, -2999, -3001}, true)
	})
}

func TestIntZeroValue(t *testing.T) {
	var tab Int[int64]
	if v, ok := tab.Get(0); ok || v != 0 || tab.Len() != 0 {
		t.Fatalf("empty table: Get(0) = %d, %v; Len %d", v, ok, tab.Len())
	}
}

func TestIntLoad(t *testing.T) {
	var tab Int[int64]
	for i := range 1000 {
		tab.Put(int64(i)+directMax, int32(i)) // past the direct array
		if tab.n > len(tab.slots)*7/8 {
			t.Fatalf("%d keys in %d slots: above 7/8", tab.n, len(tab.slots))
		}
	}
	if len(tab.slots) != 2048 {
		t.Fatalf("1000 keys in %d slots, want 2048", len(tab.slots))
	}
}

// TestIntDirect checks where the keys go: small non-negative ones to the
// direct array while it stays within directPerKey entries a key (moving
// the slots' keys it comes to cover), the others to the slots.
func TestIntDirect(t *testing.T) {
	var tab Int[int64]
	tab.Put(1<<20, 0) // one key: far past 64 entries, to the slots
	tab.Put(5, 1)
	tab.Put(-1, 2)
	if len(tab.direct) != 64 || tab.nd != 1 || tab.n != 2 {
		t.Fatalf("direct %d entries, %d keys; %d in the slots; want 64, 1, 2", len(tab.direct), tab.nd, tab.n)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 100000 {
		tab.Put(r.Int64N(100000), int32(i))
	}
	// about 63K distinct keys: the array covers 0..131071, the slots hold
	// only -1 and 1<<20
	if len(tab.direct) != 1<<17 || tab.n != 2 {
		t.Fatalf("direct %d entries, %d keys in the slots; want %d, 2", len(tab.direct), tab.n, 1<<17)
	}
	for k, want := range map[int64]int32{1 << 20: 0, -1: 2} {
		if v, ok := tab.Get(k); !ok || v != want {
			t.Fatalf("Get(%d) = %d, %v; want %d", k, v, ok, want)
		}
	}
	if len(tab.slots) != minSlots {
		t.Fatalf("%d slots for 2 keys after the move, want %d", len(tab.slots), minSlots)
	}
	// keys spread thin (one in 8 of 0..1M) stay in the slots
	var thin Int[int64]
	for i := range 1 << 17 {
		thin.Put(int64(i)*8, int32(i))
	}
	if len(thin.direct) > 64 || thin.n != 1<<17-thin.nd {
		t.Fatalf("direct %d entries for keys one in 8; %d keys in the slots", len(thin.direct), thin.n)
	}
	var big Int[uint64]
	big.Put(directMax, 1) // past directMax, whatever the keys
	if len(big.direct) != 0 {
		t.Fatalf("direct %d entries for key %d", len(big.direct), uint64(directMax))
	}
}

func TestStringsMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var keys, probes []string
	for i := range 30000 {
		keys = append(keys, fmt.Sprintf("key-%d", r.IntN(20000)))
		probes = append(probes, fmt.Sprintf("key-%d", i))
	}
	keys = append(keys, "", "a", "a\x00", strings.Repeat("long ", 100), "")
	probes = append(probes, "\x00", "b", "a\x00\x00")
	var tab Strings
	ref := map[string]int32{}
	for i, k := range keys {
		ref[k] = int32(i)
		tab.Put(strings.Clone(k), int32(i))
	}
	if tab.Len() != len(ref) {
		t.Fatalf("Len = %d, want %d", tab.Len(), len(ref))
	}
	for _, k := range append(keys, probes...) {
		want, wok := ref[k]
		got, gok := tab.Get(k)
		if got != want || gok != wok {
			t.Fatalf("Get(%q) = %d, %v; want %d, %v", k, got, gok, want, wok)
		}
	}
}

func TestStringsGetDoesNotAllocate(t *testing.T) {
	var tab Strings
	tab.Put("apple", 1)
	b := []byte("apple")
	if n := testing.AllocsPerRun(100, func() {
		if _, ok := tab.Get(string(b[:4])); ok {
			t.Fatal("found apple's prefix")
		}
		if _, ok := tab.Get("apple"); !ok {
			t.Fatal("apple not found")
		}
	}); n != 0 {
		t.Fatalf("Get allocates %v times", n)
	}
}

// batch is how many operations one timed call does (timing each one alone
// would measure the clock).
const batch = 4096

// benchRatio times batches of lookups through the table and through a Go
// map holding the same keys, side by side and alternating, and reports the
// time of one lookup in each and the map/table ratio (above 1: the table is
// faster). Each function does batch lookups starting at probe offset off.
func benchRatio(b *testing.B, table, goMap func(off int) int32) {
	var tt, tm time.Duration
	var sink int32
	off := 0
	for b.Loop() {
		start := time.Now()
		sink += table(off)
		tt += time.Since(start)
		start = time.Now()
		sink += goMap(off)
		tm += time.Since(start)
		off += batch
	}
	n := float64(b.N) * batch
	b.ReportMetric(float64(tt.Nanoseconds())/n, "table-ns/lookup")
	b.ReportMetric(float64(tm.Nanoseconds())/n, "map-ns/lookup")
	b.ReportMetric(float64(tm)/float64(tt), "map/table")
	if sink == 1 {
		b.Log(sink)
	}
}

// probes is a random sequence of the keys (a power-of-two length).
func probes[K comparable](r *rand.Rand, keys []K) []K {
	p := make([]K, 1<<16)
	for i := range p {
		p[i] = keys[r.IntN(len(keys))]
	}
	return p
}

// BenchmarkInt64Get looks up int64 keys as a group by and a hash join's
// probe do: 100 to 2M distinct keys (the bench's W2 and W4 have 100K),
// every lookup a hit, in random order.
func BenchmarkInt64Get(b *testing.B) {
	for _, n := range []int{100, 100_000, 2_000_000} {
		b.Run(fmt.Sprintf("keys=%d", n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(5, 6))
			var tab Int[int64]
			m := map[int64]int32{}
			keys := make([]int64, n)
			for i := range keys {
				keys[i] = r.Int64N(1 << 40)
				tab.Put(keys[i], int32(i))
				m[keys[i]] = int32(i)
			}
			p := probes(r, keys)
			mask := len(p) - 1
			benchRatio(b, func(off int) int32 {
				var s int32
				for i := range batch {
					v, _ := tab.Get(p[(off+i)&mask])
					s += v
				}
				return s
			}, func(off int) int32 {
				var s int32
				for i := range batch {
					v, _ := m[p[(off+i)&mask]]
					s += v
				}
				return s
			})
		})
	}
}

// BenchmarkStringGet looks up short string keys (W4's group key, a state)
// and longer ones, every lookup a hit, in random order.
func BenchmarkStringGet(b *testing.B) {
	for _, c := range []struct {
		n      int
		prefix string
	}{{50, ""}, {100_000, ""}, {100_000, "https://www.example.com/item/"}} {
		b.Run(fmt.Sprintf("keys=%d/len=%d", c.n, len(c.prefix)+5), func(b *testing.B) {
			r := rand.New(rand.NewPCG(7, 8))
			var tab Strings
			m := map[string]int32{}
			keys := make([]string, c.n)
			for i := range keys {
				keys[i] = fmt.Sprintf("%s%05d", c.prefix, i)
				tab.Put(keys[i], int32(i))
				m[keys[i]] = int32(i)
			}
			// the probes are copies, as a batch's strings are
			p := probes(r, keys)
			for i := range p {
				p[i] = strings.Clone(p[i])
			}
			mask := len(p) - 1
			benchRatio(b, func(off int) int32 {
				var s int32
				for i := range batch {
					v, _ := tab.Get(p[(off+i)&mask])
					s += v
				}
				return s
			}, func(off int) int32 {
				var s int32
				for i := range batch {
					v, _ := m[p[(off+i)&mask]]
					s += v
				}
				return s
			})
		})
	}
}

// BenchmarkInt64Build puts distinct int64 keys into an empty table, as a
// join's build side and a group by's new groups do (growth included).
func BenchmarkInt64Build(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	keys := make([]int64, batch*25)
	for i := range keys {
		keys[i] = r.Int64N(1 << 40)
	}
	var tt, tm time.Duration
	for b.Loop() {
		start := time.Now()
		var tab Int[int64]
		for i, k := range keys {
			if _, ok := tab.Get(k); !ok {
				tab.Put(k, int32(i))
			}
		}
		tt += time.Since(start)
		start = time.Now()
		m := map[int64]int32{}
		for i, k := range keys {
			if _, ok := m[k]; !ok {
				m[k] = int32(i)
			}
		}
		tm += time.Since(start)
	}
	n := float64(b.N) * float64(len(keys))
	b.ReportMetric(float64(tt.Nanoseconds())/n, "table-ns/key")
	b.ReportMetric(float64(tm.Nanoseconds())/n, "map-ns/key")
	b.ReportMetric(float64(tm)/float64(tt), "map/table")
}
