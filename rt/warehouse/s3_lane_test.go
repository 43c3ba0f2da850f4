//go:build s3

package warehouse

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/store/s3store"
)

// newLaneWH is a warehouse on the S3 lane's real server (the bucket must
// exist: .ci/run creates it), under a fresh prefix.
func newLaneWH(t *testing.T) (*Warehouse, *s3store.Store) {
	t.Helper()
	lane := testenv.S3(t)
	s, err := s3store.New(context.Background(), s3store.Config{Bucket: lane.Bucket, Endpoint: lane.Endpoint, PathStyle: true,
		Prefix: fmt.Sprintf("warehouse-test/%s-%d", t.Name(), time.Now().UnixNano()), MaxAttempts: 3})
	if err != nil {
		t.Fatal(err)
	}
	return New(s), s
}

// TestS3LaneTwoWriters: two runs against one S3 warehouse cannot both
// commit, and of many runs taking the lock at once one gets it.
func TestS3LaneTwoWriters(t *testing.T) {
	w, _ := newLaneWH(t)
	concurrentCommitsOneWins(t, w)
	lockRace(t, w)
}

// TestS3LaneCommitCycle: versions, a failed run that leaves nothing visible,
// garbage collection, and the lock's compare-and-swap renewal, on S3.
func TestS3LaneCommitCycle(t *testing.T) {
	ctx := context.Background()
	w, s := newLaneWH(t)
	if _, err := runOnce(ctx, w, "run-1", map[string][]row{"t": {{1, str("a"), 1}, {2, nil, 2}}}, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := runOnce(ctx, w, "run-2", map[string][]row{"t": {{3, str("b"), 3}}}, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := readRows(t, w, "t", 0); len(got) != 1 {
		t.Errorf("head rows %v", got)
	}
	if got := readRows(t, w, "t", 1); len(got) != 2 {
		t.Errorf("v1 rows %v", got)
	}
	// A run that fails before its commit: staged files exist but no reader
	// sees them, and the next run's Collect removes them.
	faulty := store.NewFaulty(s, store.Fault{Op: store.OpCreateIfAbsent, Match: CommitsDir, Err: errors.New("injected")})
	fw := New(faulty)
	if _, err := runOnce(ctx, fw, "run-3", map[string][]row{"t": {{9, nil, 9}}}, WriteOptions{}); err == nil {
		t.Fatal("run-3 committed through a failing commit write")
	}
	if got := readRows(t, w, "t", 0); len(got) != 1 || got[0] != "3,b,1970-01-04" {
		t.Errorf("after a failed run, head rows %v", got)
	}
	st, err := w.Load(ctx)
	if err != nil || st.Head.Epoch != 2 {
		t.Fatalf("head %+v %v", st, err)
	}
	lock, err := w.Acquire(ctx, "run-4", "p", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := lock.Renew(ctx); err != nil {
		t.Fatalf("renewing on S3: %v", err)
	}
	if _, err := w.Collect(ctx, st); err != nil {
		t.Fatal(err)
	}
	assertOnlyReferenced(t, w, st)
	lock.Release(ctx)
}

func TestS3LaneVacuum(t *testing.T) {
	w, _ := newLaneWH(t)
	vacuumCycle(t, w)
}
