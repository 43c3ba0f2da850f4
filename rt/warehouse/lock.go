package warehouse

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/nordisk/thund/rt/store"
)

// DefaultLease is how long a run's lock stays valid without renewal. A run
// renews it every lease/3 (Lock.Keep), so only a run that is gone or hung
// lets it expire.
const DefaultLease = 2 * time.Minute

// LockInfo is the content of _thund/lock: who holds the warehouse.
type LockInfo struct {
	RunID     string    `json:"run_id"`
	Pipeline  string    `json:"pipeline"`
	PID       int       `json:"pid"`
	Host      string    `json:"host"`
	StartedAt time.Time `json:"started_at"`
	ExpiresAt time.Time `json:"expires_at"`
}

func (i LockInfo) describe() string {
	return fmt.Sprintf("run %s of pipeline %q (pid %d on host %s, started %s, lease until %s)",
		i.RunID, i.Pipeline, i.PID, i.Host, i.StartedAt.UTC().Format("2006-01-02 15:04:05 UTC"),
		i.ExpiresAt.UTC().Format("2006-01-02 15:04:05 UTC"))
}

// LockedError refuses a run because another one holds the warehouse.
type LockedError struct {
	Holder   LockInfo
	Location string // of the lock object
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("the warehouse is in use by %s; wait for that run to finish, or, if its process is gone, remove %s",
		e.Holder.describe(), e.Location)
}

// LockLostError: the lock was taken over while this run held it (its lease
// expired: the run hung for longer than the lease).
type LockLostError struct {
	Holder   *LockInfo // the new holder, if known
	Location string
}

func (e *LockLostError) Error() string {
	if e.Holder != nil {
		return fmt.Sprintf("this run lost the warehouse lock to %s; nothing of this run was committed", e.Holder.describe())
	}
	return fmt.Sprintf("this run lost the warehouse lock (%s is gone); nothing of this run was committed", e.Location)
}

// Takeover records a stale lock that was taken over.
type Takeover struct {
	Previous LockInfo
	Reason   string // "process 123 on this host is gone", "its lease expired at ..."
}

func (t *Takeover) String() string {
	return fmt.Sprintf("took over the warehouse lock from %s: %s", t.Previous.describe(), t.Reason)
}

// Lock is a held run lock.
type Lock struct {
	w        *Warehouse
	Info     LockInfo
	Takeover *Takeover // set when a stale lock was taken over
	// Acquired is when the lock object was written at acquisition, by the
	// store's clock (its modification time; zero if the store could not
	// say): what CleanTemp compares temporary objects with.
	Acquired time.Time
	lease    time.Duration

	mu   sync.Mutex
	tag  string
	lost error
	stop chan struct{}
	wg   sync.WaitGroup
}

var hostname = sync.OnceValue(func() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "unknown"
	}
	return h
})

// Acquire takes the warehouse's run lock for runID, creating _thund/lock if
// absent. A lock held by a live run is refused with a *LockedError naming the
// holder. A stale lock — its process gone on this host, or its lease expired —
// is taken over (compare-and-swap on the lock object, so of two runs taking it
// over at once one wins), and Lock.Takeover says whose it was and why.
func (w *Warehouse) Acquire(ctx context.Context, runID, pipeline string, lease time.Duration) (*Lock, error) {
	if lease <= 0 {
		lease = DefaultLease
	}
	now := w.now()
	l := &Lock{w: w, lease: lease, Info: LockInfo{RunID: runID, Pipeline: pipeline, PID: os.Getpid(), Host: hostname(),
		StartedAt: now, ExpiresAt: now.Add(lease)}}
	data, err := json.Marshal(l.Info)
	if err != nil {
		return nil, err
	}
	loc := w.FS.Location(LockName)
	var holder LockInfo
	for attempt := 0; attempt < 4; attempt++ {
		err := w.FS.CreateIfAbsent(ctx, LockName, data)
		if err == nil {
			return l, l.acquired(ctx)
		}
		if !errors.Is(err, store.ErrExist) {
			return nil, fmt.Errorf("taking the warehouse lock %s: %w", loc, err)
		}
		cur, tag, err := w.FS.ReadFile(ctx, LockName)
		if errors.Is(err, store.ErrNotExist) {
			continue // released meanwhile
		}
		if err != nil {
			return nil, fmt.Errorf("reading the warehouse lock %s: %w", loc, err)
		}
		var reason string
		if jerr := json.Unmarshal(cur, &holder); jerr != nil || holder.RunID == "" {
			holder = LockInfo{RunID: "?"}
			reason = "the lock file is unreadable"
		} else if holder.Host == hostname() && !processAlive(holder.PID) {
			reason = fmt.Sprintf("process %d on this host is gone", holder.PID)
		} else if w.now().After(holder.ExpiresAt) {
			reason = fmt.Sprintf("its lease expired at %s", holder.ExpiresAt.UTC().Format("2006-01-02 15:04:05 UTC"))
		} else {
			return nil, &LockedError{Holder: holder, Location: loc}
		}
		err = w.FS.ReplaceIfMatch(ctx, LockName, data, tag)
		if err == nil {
			l.Takeover = &Takeover{Previous: holder, Reason: reason}
			return l, l.acquired(ctx)
		}
		if !errors.Is(err, store.ErrPrecondition) && !errors.Is(err, store.ErrNotExist) {
			return nil, fmt.Errorf("taking over the warehouse lock %s: %w", loc, err)
		}
		// Someone else changed it first: look again.
	}
	return nil, &LockedError{Holder: holder, Location: loc}
}

// confirm reads the lock back: it must be ours, and its tag is kept for
// compare-and-swap renewals.
func (l *Lock) confirm(ctx context.Context) error {
	cur, tag, err := l.w.FS.ReadFile(ctx, LockName)
	if err != nil {
		return fmt.Errorf("reading back the warehouse lock %s: %w", l.w.FS.Location(LockName), err)
	}
	var got LockInfo
	if json.Unmarshal(cur, &got) != nil || got.RunID != l.Info.RunID {
		if got.RunID != "" {
			return &LockedError{Holder: got, Location: l.w.FS.Location(LockName)}
		}
		return &LockLostError{Location: l.w.FS.Location(LockName)}
	}
	l.mu.Lock()
	l.tag = tag
	l.mu.Unlock()
	return nil
}

// acquired confirms a lock just written and records its time (Acquired).
func (l *Lock) acquired(ctx context.Context) error {
	if err := l.confirm(ctx); err != nil {
		return err
	}
	if info, err := l.w.FS.Stat(ctx, LockName); err == nil {
		l.Acquired = info.ModTime
	}
	return nil
}

// Renew extends the lease. It fails with *LockLostError when the lock is no
// longer this run's; the run must then not commit.
func (l *Lock) Renew(ctx context.Context) error {
	l.mu.Lock()
	if l.lost != nil {
		l.mu.Unlock()
		return l.lost
	}
	info := l.Info
	info.ExpiresAt = l.w.now().Add(l.lease)
	tag := l.tag
	l.mu.Unlock()
	data, err := json.Marshal(info)
	if err != nil {
		return err
	}
	err = l.w.FS.ReplaceIfMatch(ctx, LockName, data, tag)
	if errors.Is(err, store.ErrPrecondition) || errors.Is(err, store.ErrNotExist) {
		lost := &LockLostError{Location: l.w.FS.Location(LockName)}
		if cur, _, rerr := l.w.FS.ReadFile(ctx, LockName); rerr == nil {
			var h LockInfo
			if json.Unmarshal(cur, &h) == nil {
				lost.Holder = &h
			}
		}
		l.mu.Lock()
		l.lost = lost
		l.mu.Unlock()
		return lost
	}
	if err != nil {
		return fmt.Errorf("renewing the warehouse lock %s: %w", l.w.FS.Location(LockName), err)
	}
	l.mu.Lock()
	l.Info = info
	l.mu.Unlock()
	return l.confirm(ctx)
}

// Keep renews the lease every lease/3 until Release. A failed renewal is
// kept and returned by Err (and by the next Renew).
func (l *Lock) Keep(ctx context.Context) {
	l.mu.Lock()
	if l.stop != nil {
		l.mu.Unlock()
		return
	}
	l.stop = make(chan struct{})
	stop := l.stop
	l.mu.Unlock()
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		t := time.NewTicker(l.lease / 3)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if err := l.Renew(ctx); err != nil {
					var lost *LockLostError
					if errors.As(err, &lost) {
						return
					}
					// A transient store error: the next tick tries again,
					// and the lease still has two thirds to run.
				}
			}
		}
	}()
}

// Err reports a lost lock.
func (l *Lock) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lost
}

// Release stops renewals and removes the lock if it is still this run's.
func (l *Lock) Release(ctx context.Context) error {
	l.mu.Lock()
	if l.stop != nil {
		close(l.stop)
		l.stop = nil
	}
	l.mu.Unlock()
	l.wg.Wait()
	cur, _, err := l.w.FS.ReadFile(ctx, LockName)
	if errors.Is(err, store.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var h LockInfo
	if json.Unmarshal(cur, &h) != nil || h.RunID != l.Info.RunID {
		return nil // not ours any more
	}
	// Between this read and the remove another run could only have taken
	// the lock over if our lease had expired; the commit record, created-if-
	// absent, keeps the warehouse consistent even then.
	if err := l.w.FS.Remove(ctx, LockName); err != nil && !errors.Is(err, store.ErrNotExist) {
		return err
	}
	return nil
}
