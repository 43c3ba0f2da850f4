package sqlfn

import "syscall"

// threadCPU is this OS thread's user+system CPU time in nanoseconds
// (getrusage RUSAGE_THREAD), so benchmarks can report CPU time per op that
// does not count time spent waiting for a core on a busy machine.
func threadCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
