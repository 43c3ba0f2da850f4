package crashtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
)

// spillPipeline is a group by whose groups do not fit in spillLimit: its
// run spills them (rt/spill) for a while before it commits.
const spillPipeline = `pipeline spill

materialized view g =
  from range(0, 2000000)
  | group by id % 300000 as k aggregate count(*) as n, sum(id) as total
`

const spillLimit = "4MiB"

// spillKills is how many spilling runs TestKillSpilling kills.
const spillKills = 3

// TestKillSpilling SIGKILLs a run of a spilling group by once its spill
// folder holds a spill file (the killed process's folder, under
// --spill-dir, stays behind), spillKills times; each next run removes
// what the killed one left (rt/spill's Sweep) as it spills in turn. A
// last run completes, leaves no folder, and gives the rows of a run
// without a limit.
func TestKillSpilling(t *testing.T) {
	t.Parallel()
	thundc, err := thundcBin()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pipeline.thund"), []byte(spillPipeline), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "etl")
	build := exec.Command(thundc, "build", "pipeline.thund", "-o", bin)
	build.Dir = dir
	build.Env = append(os.Environ(), "THUND_CACHE="+testenv.ThundCache())
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("thundc build: %v\n%s", err, out)
	}
	spillDir := filepath.Join(dir, "spill")
	etl := func(args ...string) *exec.Cmd {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		return cmd
	}
	// folders are the process folders under the spill root; files, the
	// spill files in them
	folders := func() (names []string, files int) {
		ents, _ := os.ReadDir(spillDir)
		for _, e := range ents {
			names = append(names, e.Name())
			inner, _ := os.ReadDir(filepath.Join(spillDir, e.Name()))
			for _, f := range inner {
				if strings.Contains(f.Name(), "group") {
					files++
				}
			}
		}
		return names, files
	}
	var left []string // the folders the last killed run left
	for kill := range spillKills {
		cmd := etl("run", "--warehouse", "wh", "--memory-limit", spillLimit, "--spill-dir", spillDir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(time.Minute)
		for {
			names, files := folders()
			if files > 0 && !slices.ContainsFunc(names, func(n string) bool { return slices.Contains(left, n) }) {
				break // spilling, and what the killed run left is gone
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("kill %d: no spill file, or the folders %v of the killed run are still there (now %v)", kill, left, names)
			}
			time.Sleep(2 * time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if left, _ = folders(); len(left) == 0 {
			t.Fatalf("kill %d: the killed run left no spill folder", kill)
		}
	}
	if out, err := etl("run", "--warehouse", "wh", "--memory-limit", spillLimit, "--spill-dir", spillDir).CombinedOutput(); err != nil {
		t.Fatalf("the last run: %v\n%s", err, out)
	}
	if names, _ := folders(); len(names) != 0 {
		t.Fatalf("after the last run, the spill root holds %v", names)
	}
	if out, err := etl("run", "--warehouse", "free").CombinedOutput(); err != nil {
		t.Fatalf("the run without a limit: %v\n%s", err, out)
	}
	read := func(wh string) []string {
		out, err := etl("read", "g", "--warehouse", wh).Output()
		if err != nil {
			t.Fatalf("etl read g --warehouse %s: %v", wh, err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		slices.Sort(lines)
		return lines
	}
	if a, b := read("wh"), read("free"); !slices.Equal(a, b) {
		t.Fatalf("the spilled run's %d rows differ from the unlimited run's %d", len(a), len(b))
	}
}
