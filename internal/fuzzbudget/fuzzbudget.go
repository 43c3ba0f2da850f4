// Package fuzzbudget is the memory cap of the module's fuzz targets: `go
// test -fuzz` has none of its own, so a reader that trusts a length in its
// input and allocates gigabytes would only slow the fuzzer down, or take
// the machine with it, instead of failing it.
//
// The cap is an allocation budget checked in the target: Check measures the
// bytes the Go heap allocated while one input was read (runtime/metrics
// /gc/heap/allocs:bytes, cumulative, so a buffer allocated and dropped
// counts as much as one kept) and fails the input when they exceed
// Limit: Base, plus PerInputByte per byte of input, plus PerOutputByte per
// byte of the data the reader returned. Output is counted because some
// formats legitimately decode to far more than their size (a Parquet RLE
// run, a compressed page); a reader that allocates for data it then fails
// to produce gets only the input's share. A fuzz worker runs one input at a
// time, so the process's allocations are the input's.
//
// A failed budget is a failed input, which the fuzzer minimizes and keeps
// in testdata/fuzz/FuzzX/ like a crash. .ci/fuzz also runs each fuzzer
// under `ulimit -v`, for an allocation too big to return from at all.
//
// It is imported by tests only.
package fuzzbudget

import (
	"runtime/metrics"
	"testing"
)

// The budget of one input (see the package comment).
const (
	Base          = 16 << 20
	PerInputByte  = 64
	PerOutputByte = 8
)

// Limit is the most a reader may allocate for an input of in bytes from
// which it returned out bytes of data.
func Limit(in int, out int64) uint64 {
	return Base + PerInputByte*uint64(max(in, 0)) + PerOutputByte*uint64(max(out, 0))
}

var allocs = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}

// Allocated is the bytes the Go heap has allocated since the process
// started. Allocations are counted a span at a time, so it may lag by a
// few hundred KiB: well within Base.
func Allocated() uint64 {
	metrics.Read(allocs)
	return allocs[0].Value.Uint64()
}

// Check reads one input of in bytes with read, which returns the bytes of
// data it produced, and fails t when the reading allocated more than
// Limit.
func Check(t testing.TB, in int, read func() (out int64)) {
	t.Helper()
	before := Allocated()
	out := read()
	if got, limit := Allocated()-before, Limit(in, out); got > limit {
		t.Fatalf("reading %d bytes (returning %d) allocated %d bytes, over the fuzz budget of %d (internal/fuzzbudget)",
			in, out, got, limit)
	}
}
