package memtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"syscall"
	"testing"

	"github.com/nordisk/thund/internal/testenv"
)

// repoRoot is the module root, from this package's folder.
const repoRoot = "../.."

// limit is the --memory-limit of every run, and overhead what the process
// may hold beyond it: the Go runtime and its collector's headroom, the
// executable itself, the input's Arrow batches in flight and the writers.
const (
	limit    = 64 << 20
	overhead = 100 << 20
)

// pipeline keeps far more than limit in each flow: 6M distinct rows of an
// integer and a string, 6M rows to sort, a top 3M of 6M.
const pipeline = `pipeline mem

materialized view distinct_rows = from range(0, 6000000) | select id, cast(id as string) as s | distinct
materialized view sorted_rows = from range(0, 6000000) | select id, cast(id as string) as s | order by s desc
materialized view top_rows = from range(0, 6000000) | select id, cast(id as string) as s | order by s | limit 3000000
materialized view grouped = from range(0, 6000000) | group by cast(id as string) as s aggregate count(*) as n
`

// TestPeakRSSUnderLimit runs each flow as its own child process under
// --memory-limit and reads the child's peak RSS.
func TestPeakRSSUnderLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a pipeline and runs it over millions of rows")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads the peak RSS as Linux reports it (rusage maxrss in KiB)")
	}
	dir := t.TempDir()
	thundc := filepath.Join(dir, "thundc")
	if out, err := exec.Command("go", "build", "-o", thundc, repoRoot+"/cmd/thundc").CombinedOutput(); err != nil {
		t.Fatalf("go build thundc: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "pipeline.thund"), []byte(pipeline), 0o644); err != nil {
		t.Fatal(err)
	}
	build := exec.Command(thundc, "build", "pipeline.thund", "-o", "etl")
	build.Dir = dir
	build.Env = append(os.Environ(), "THUND_CACHE="+testenv.ThundCache())
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("thundc build: %v\n%s", err, out)
	}
	for _, tc := range []struct{ flow, op string }{
		{"distinct_rows", `distinct at pipeline.thund:3:\d+`},
		{"sorted_rows", `order by at pipeline.thund:4:\d+`},
		{"top_rows", `order by at pipeline.thund:5:\d+ \(its top 3000000 rows\)`},
		{"grouped", `group by at pipeline.thund:6:\d+`},
	} {
		t.Run(tc.flow, func(t *testing.T) {
			run := exec.Command(filepath.Join(dir, "etl"), "run", "--select", tc.flow, "--memory-limit", "64MiB")
			run.Dir = dir
			out, err := run.CombinedOutput()
			if _, ok := err.(*exec.ExitError); !ok || run.ProcessState.ExitCode() != 1 {
				t.Fatalf("etl run: %v, want exit status 1\n%s", err, out)
			}
			want := regexp.MustCompile(`flow ` + tc.flow + `: ` + tc.op + ` needs more than --memory-limit 64MiB`)
			if !want.Match(out) {
				t.Errorf("no %s in:\n%s", want, out)
			}
			peak := run.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
			t.Logf("%s: --memory-limit %d MiB, peak RSS %d MiB, %d MiB over the limit", tc.flow, limit>>20, peak>>20, (peak-limit)>>20)
			if peak > limit+overhead {
				t.Errorf("peak RSS %d MiB, want at most the limit %d MiB + %d MiB", peak>>20, limit>>20, overhead>>20)
			}
		})
	}
}
