package etl

import (
	"strings"
	"syscall"
	"testing"

	"github.com/nordisk/thund/rt/run"
	"github.com/nordisk/thund/rt/store"
)

// TestLocalStorageFaults: a full disk or a permission error (injected
// through the store layer: tests run as root, where chmod proves nothing)
// fails the run with a message that says what to do; what was committed
// stays; once the fault is gone a rerun completes. (--all-or-nothing: a
// fault in one dataset's files otherwise fails that dataset alone, see
// TestIsolationStorageFault.)
func TestLocalStorageFaults(t *testing.T) {
	e := newEnv(t)
	p := testPipeline(pipeOpts{action: run.Drop})
	e.write("data/bids/a.csv", bidsA)
	e.mustRun(p)
	top := e.read(p, "top")
	e.write("data/bids/b.csv", "auction,price\n6,9000\n")
	defer func() { testWrapFS = nil }()
	for _, tc := range []struct {
		name  string
		fault store.Fault
		want  []string
	}{
		{"disk full", store.Fault{Op: store.OpCommit, Match: "high_bids/", Err: syscall.ENOSPC},
			[]string{"commit high_bids/v000002/part-", "no space left on device", "the disk holding the warehouse is full", "nothing was committed"}},
		{"disk full at the commit record", store.Fault{Op: store.OpCreateIfAbsent, Match: "_thund/commits/", Err: syscall.ENOSPC},
			[]string{"_thund/commits/000000000002.json", "no space left on device", "the disk holding the warehouse is full"}},
		{"permission", store.Fault{Op: store.OpCreateIfAbsent, Match: "_thund/lock", Err: syscall.EACCES},
			[]string{"taking the warehouse lock", "permission denied", "this user must be able to create, write and remove files in the warehouse folder"}},
	} {
		testWrapFS = func(fs store.FS) store.FS { return store.NewFaulty(fs, tc.fault) }
		code, _, stderr := e.etl(p, "run", "--all-or-nothing")
		testWrapFS = nil
		if code != 1 {
			t.Errorf("%s: exit %d, want 1\n%s", tc.name, code, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", tc.name, w, stderr)
			}
		}
		if got := e.read(p, "top"); got != top {
			t.Errorf("%s: committed data changed:\n%s", tc.name, got)
		}
	}
	code, _, stderr := e.etl(p, "run")
	if code != 0 || !strings.Contains(stderr, "committed epoch 2") {
		t.Errorf("rerun after the faults: exit %d\n%s", code, stderr)
	}
}
