package etl

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
)

// The memory limit (--memory-limit). Generated code accounts what its
// operators keep — a hash join's build rows and hash table, a hash
// aggregate's groups, a distinct's rows seen, an order by's rows, a top-N's
// — through FlowContext.Grow, in steps of about a MiB, and the state a
// stream's windows and interval joins hold through FlowContext.Hold; a
// change flow's new changes are accounted as it emits them (cdc.go).
// An operator that can spill asks with FlowContext.TryGrow, and past the
// limit writes what does not fit to spill files (FlowContext.SpillFile,
// FlowContext.SpillPartitions, rt/spill) instead: by grace hashing a hash
// join's build side (codegen/joinspill.go), a hash aggregate with group
// keys (GROUP BY, not grouping sets), DISTINCT and UNION's distinct
// (codegen/aggspill.go; values their accumulators keep, collect_list's and
// the percentiles', go on to twice the limit, FlowContext.GrowSpilling); as
// sorted runs an order by and a window's partitions (one partition alone
// past the limit fails, WholeLimitError). One that cannot — a top-N,
// INTERSECT and EXCEPT, grouping sets, a global aggregate's kept values, a
// stream's state — past the limit stops the flow with a
// MemoryLimitError naming the operator, rather than the process dying of
// an out-of-memory kill. The limit plus a margin (softMemoryLimit) becomes the Go
// runtime's soft memory limit (debug.SetMemoryLimit), so the collector
// works harder before then.

// MemoryLimitError is a flow whose hash tables would pass --memory-limit.
type MemoryLimitError struct {
	Operator string // "join at FILE:LINE:COL (its build side)", ...
	Limit    int64
	Used     int64 // accounted when the limit was reached
}

func (e *MemoryLimitError) Error() string {
	return fmt.Sprintf("%s needs more than --memory-limit %s (%s accounted so far); spilling it to disk is not implemented: raise --memory-limit, or filter its input",
		e.Operator, FormatBytes(e.Limit), FormatBytes(e.Used))
}

// memBudget is one run's accounted memory.
type memBudget struct {
	limit int64 // 0: none
	used  atomic.Int64
}

// grow accounts n more bytes kept by op (FlowContext.Grow); a nil budget
// accounts nothing.
func (b *memBudget) grow(op string, n int64) error {
	if b == nil {
		return nil
	}
	used := b.used.Add(n)
	if b.limit > 0 && used > b.limit {
		return &MemoryLimitError{Operator: op, Limit: b.limit, Used: used}
	}
	return nil
}

// growSpilling accounts n more bytes kept by a spilling op, up to twice
// the limit (FlowContext.GrowSpilling).
func (b *memBudget) growSpilling(op string, n int64) error {
	if b == nil {
		return nil
	}
	used := b.used.Add(n)
	if b.limit > 0 && used > 2*b.limit {
		return &MemoryLimitError{Operator: op, Limit: b.limit, Used: used}
	}
	return nil
}

// tryGrow accounts n more bytes unless that passes the limit (FlowContext.TryGrow).
func (b *memBudget) tryGrow(n int64) bool {
	if b == nil {
		return true
	}
	if b.limit <= 0 {
		b.used.Add(n)
		return true
	}
	for {
		u := b.used.Load()
		if u+n > b.limit {
			return false
		}
		if b.used.CompareAndSwap(u, u+n) {
			return true
		}
	}
}

// ParseBytes reads a size: a number with an optional unit B, KB, MB, GB, TB
// (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024); a bare number is
// bytes. Case does not matter.
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || num == "" {
		return 0, fmt.Errorf("%q: want a size such as 512MiB or 2GB", s)
	}
	mult := map[string]float64{"": 1, "b": 1,
		"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
		"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("%q: unknown unit %q (want B, KB, MB, GB, TB, KiB, MiB, GiB or TiB)", s, t[i:])
	}
	n := v * mult
	if n < 1 || n > 1<<62 {
		return 0, fmt.Errorf("%q: want a size between 1 byte and 4EiB", s)
	}
	return int64(n), nil
}

// FormatBytes prints a size in the largest binary unit that keeps it at
// least 1.
func FormatBytes(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	v, u := float64(n), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if u == 0 || v == float64(int64(v)) {
		return fmt.Sprintf("%d%s", int64(v), units[u])
	}
	return fmt.Sprintf("%.1f%s", v, units[u])
}

// softMemoryLimit is the Go runtime's soft memory limit under
// --memory-limit n: the accounted structures (at most n, estimated) plus
// what is not accounted — the batches in flight, the writers, the runtime —
// with an eighth of n for the estimates' error. Higher, the collector lets
// garbage pile up to it (GOGC doubles the live heap between collections):
// at n + n/2 + 64MiB a refused group by under 200MiB peaked at 337 MiB.
// Lower, it collects without end once the live heap nears it.
func softMemoryLimit(n int64) int64 { return n + n/8 + 32<<20 }
