package sqlfn

import (
	"math"
	"math/bits"
)

// approx_count_distinct: HyperLogLog++ (Heule, Nunkesser and Hall, 2013)
// over Spark's hash of each value, xxhash64 with seed 42 (the XxHash64*
// steps). The precision p, the registers and the linear counting below
// the paper's thresholds are Spark's, so an estimate that linear counting
// gives (few distinct values for the precision: at most HLLThreshold) is
// Spark's answer. Above it, Spark subtracts the paper's empirical bias
// (its k-nearest-neighbour interpolation over measured tables) from a raw
// estimate below 5m (m = 2^p registers); that table is not in this
// runtime, so there linear counting stands while a register is empty
// (the raw estimate is far off so low): its relative standard error up
// to 5m is at most 2.4/sqrt(m), against HyperLogLog's 1.04/sqrt(m), so
// that answers in that range are close to Spark's, not equal
// (HLLStdError). From 5m up, the raw estimate is Spark's answer again.
// The state is one register (a byte) per bucket, a fixed array in the
// group's state that --memory-limit counts.

// hllThresholds are the HLL++ paper's cardinalities up to which linear
// counting is used, for p = 4 to 18.
var hllThresholds = [...]float64{10, 20, 40, 80, 220, 400, 900, 1800, 3100, 6500, 11500, 20000, 50000, 120000, 350000}

// HLLMinPrecision and HLLMaxPrecision bound the precision the native
// registers support (Spark needs at least 4 bits; its threshold table
// ends at 18).
const (
	HLLMinPrecision = 4
	HLLMaxPrecision = 18
)

// HLLPrecision is Spark's precision for a relative standard deviation:
// ceil(2 * log2(1.106 / relativeSD)).
func HLLPrecision(relativeSD float64) int {
	return int(math.Ceil(2 * math.Log(1.106/relativeSD) / math.Log(2)))
}

// HLLStdError bounds the relative standard error of the native estimate
// with 2^p registers at any cardinality: 2.4 / sqrt(2^p), linear
// counting's at 5m (HyperLogLog's own, 1.04 / sqrt(2^p), holds from 5m
// up).
func HLLStdError(p int) float64 { return 2.4 / math.Sqrt(float64(uint64(1)<<p)) }

// HLLThreshold is the largest linear-counting estimate at precision p:
// up to it, the native answer is Spark's.
func HLLThreshold(p int) float64 { return hllThresholds[p-HLLMinPrecision] }

// HLLAdd records a value's 64-bit hash in the registers (len 2^p): the
// top p bits pick the register, which keeps the largest position of the
// first set bit in the rest (counted from 1).
func HLLAdd(regs []uint8, hash int64) {
	p := bits.Len(uint(len(regs))) - 1
	x := uint64(hash)
	idx := x >> (64 - p)
	w := x<<p | 1<<(p-1) // the guard bit bounds the count
	if r := uint8(bits.LeadingZeros64(w) + 1); r > regs[idx] {
		regs[idx] = r
	}
}

// HLLEstimate is the estimated number of distinct values the registers
// saw: linear counting m*ln(m/V) (V the empty registers) while it is at
// most the precision's threshold or the raw HyperLogLog estimate
// alpha*m^2 / sum(2^-register) is below 5m (where Spark corrects the raw
// estimate's bias instead), else the raw estimate; rounded half up as
// Java's Math.round.
func HLLEstimate(regs []uint8) int64 {
	m := float64(len(regs))
	p := bits.Len(uint(len(regs))) - 1
	var z float64
	zeros := 0
	for _, r := range regs {
		z += 1 / float64(uint64(1)<<r)
		if r == 0 {
			zeros++
		}
	}
	var alpha float64
	switch p {
	case 4:
		alpha = 0.673
	case 5:
		alpha = 0.697
	case 6:
		alpha = 0.709
	default:
		alpha = 0.7213 / (1 + 1.079/m)
	}
	e := alpha * m * m / z
	if zeros > 0 {
		if h := m * math.Log(m/float64(zeros)); h <= HLLThreshold(p) || e < 5*m {
			e = h
		}
	}
	return int64(math.Floor(e + 0.5))
}
