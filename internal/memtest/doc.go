// Package memtest holds the --memory-limit suite (tests only): it builds a
// pipeline with the real thundc, runs `etl run --memory-limit` on it as a
// child process over input large enough to pass the limit, and checks that
// each operator that keeps rows stops with the limit's error naming it,
// while the process's peak resident set (its rusage maxrss) stays within the
// limit plus a stated overhead. It is skipped under -short.
package memtest
