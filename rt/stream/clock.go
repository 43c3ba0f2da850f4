package stream

import (
	"sort"
	"sync"
	"time"
)

// Clock is processing time: the wall clock in production, a ManualClock in
// tests. Triggers, idle timeouts and the folder source's polling read time
// only through it.
type Clock interface {
	Now() time.Time
	// After returns a channel that receives the time once d has passed.
	After(d time.Duration) <-chan time.Time
}

// WallClock is the real clock.
type WallClock struct{}

// Now implements Clock.
func (WallClock) Now() time.Time { return time.Now() }

// After implements Clock.
func (WallClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// ManualClock is a Clock that moves only when Advance or Set is called. It is
// safe for concurrent use; Waiters lets a test wait until a goroutine is
// blocked on After before it moves the clock.
type ManualClock struct {
	mu      sync.Mutex
	now     time.Time
	timers  []manualTimer
	changed chan struct{}
}

type manualTimer struct {
	at time.Time
	ch chan time.Time
}

// NewManualClock returns a ManualClock reading start.
func NewManualClock(start time.Time) *ManualClock {
	return &ManualClock{now: start, changed: make(chan struct{})}
}

// Now implements Clock.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After implements Clock.
func (c *ManualClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	at := c.now.Add(d)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.timers = append(c.timers, manualTimer{at: at, ch: ch})
	c.notify()
	return ch
}

// notify wakes WaitForWaiters callers; c.mu must be held.
func (c *ManualClock) notify() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// Advance moves the clock forward by d and fires the timers that are due, in
// time order.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.setLocked(c.now.Add(d))
	c.mu.Unlock()
}

// Set moves the clock to t (never backwards) and fires due timers.
func (c *ManualClock) Set(t time.Time) {
	c.mu.Lock()
	if t.After(c.now) {
		c.setLocked(t)
	}
	c.mu.Unlock()
}

func (c *ManualClock) setLocked(t time.Time) {
	c.now = t
	sort.SliceStable(c.timers, func(i, j int) bool { return c.timers[i].at.Before(c.timers[j].at) })
	keep := c.timers[:0]
	for _, tm := range c.timers {
		if !tm.at.After(t) {
			tm.ch <- t
		} else {
			keep = append(keep, tm)
		}
	}
	c.timers = keep
	c.notify()
}

// Waiters reports how many After timers are pending.
func (c *ManualClock) Waiters() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// WaitForWaiters blocks until at least n After timers are pending.
func (c *ManualClock) WaitForWaiters(n int) {
	for {
		c.mu.Lock()
		if len(c.timers) >= n {
			c.mu.Unlock()
			return
		}
		ch := c.changed
		c.mu.Unlock()
		<-ch
	}
}

// FireNext moves the clock to the earliest pending After timer and fires
// it; it reports false when no timer is pending.
func (c *ManualClock) FireNext() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.timers) == 0 {
		return false
	}
	at := c.timers[0].at
	for _, tm := range c.timers {
		if tm.at.Before(at) {
			at = tm.at
		}
	}
	if at.After(c.now) {
		c.setLocked(at)
	} else {
		c.setLocked(c.now)
	}
	return true
}
