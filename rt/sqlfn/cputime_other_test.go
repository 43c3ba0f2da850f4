//go:build !linux

package sqlfn

// threadCPU is not available here; the cpu-ns/op metric then reads 0.
func threadCPU() int64 { return 0 }
