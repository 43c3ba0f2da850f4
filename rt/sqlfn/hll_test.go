package sqlfn

import (
	"math"
	"strconv"
	"testing"
)

// hllOf is approx_count_distinct's estimate of n hashes at precision p.
func hllOf(p, n int, hash func(i int) int64) int64 {
	regs := make([]uint8, 1<<p)
	for i := range n {
		HLLAdd(regs, hash(i))
	}
	return HLLEstimate(regs)
}

// TestHLLSpark checks estimates against Spark 4.1/4.2's answers where the
// native algorithm is Spark's: linear counting, and the raw estimate at
// 5m and above.
func TestHLLSpark(t *testing.T) {
	long := func(i int) int64 { return XxHash64Long(int64(i), HashSeed) }
	cases := []struct {
		query string
		p, n  int
		hash  func(int) int64
		want  int64
	}{
		// select approx_count_distinct(id, 0.01) from range(100000)
		{"bigint, p 14", 14, 100000, long, 100425},
		// select approx_count_distinct(id, 0.39) from range(100): p 4, linear counting
		{"bigint, p 4", 4, 100, long, 80},
		// select approx_count_distinct(cast(id as int)) from range(5000)
		{"int", 9, 5000, func(i int) int64 { return XxHash64Int(int32(i), HashSeed) }, 4956},
		// select approx_count_distinct(cast(id as string)) from range(5000)
		{"string", 9, 5000, func(i int) int64 { return XxHash64Bytes(strconv.Itoa(i), HashSeed) }, 4632},
		// select approx_count_distinct(cast(id as double)) from range(5000)
		{"double", 9, 5000, func(i int) int64 { return XxHash64Long(Float64HashBits(float64(i)), HashSeed) }, 4558},
	}
	for _, c := range cases {
		if got := hllOf(c.p, c.n, c.hash); got != c.want {
			t.Errorf("%s: %d distinct at p %d: got %d, Spark gives %d", c.query, c.n, c.p, got, c.want)
		}
	}
}

// TestHLLPrecision checks Spark's precision for a relative SD.
func TestHLLPrecision(t *testing.T) {
	for sd, want := range map[float64]int{0.05: 9, 0.01: 14, 0.39: 4, 0.4: 3, 0.002: 19} {
		if got := HLLPrecision(sd); got != want {
			t.Errorf("HLLPrecision(%v) = %d, want %d", sd, got, want)
		}
	}
}

// TestHLLError is the property the doc states: over many cardinalities
// and every precision, the estimate is within 4 times HLLStdError of the
// exact count (and exact while the count is tiny).
func TestHLLError(t *testing.T) {
	for p := HLLMinPrecision; p <= 14; p++ {
		for n := 0; n <= 200000; n = n*3/2 + 1 {
			got := hllOf(p, n, func(i int) int64 { return XxHash64Long(int64(i)*7919+int64(p), HashSeed) })
			if err := math.Abs(float64(got-int64(n))) / math.Max(float64(n), 1); err > 4*HLLStdError(p) && math.Abs(float64(got-int64(n))) > 1 {
				t.Errorf("p %d, %d distinct: estimate %d, relative error %.3f above 4 x %.3f", p, n, got, err, HLLStdError(p))
			}
		}
	}
}
