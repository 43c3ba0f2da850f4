package stream

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"
)

// TestProcessingTimeTriggerProperty: random batch durations; every batch
// starts at the first multiple of Every (from the start) at or after the
// previous batch's end, computed here from the recorded ends.
func TestProcessingTimeTriggerProperty(t *testing.T) {
	for c := 0; c < 50; c++ {
		seed := uint64(c)
		rng := rand.New(rand.NewPCG(seed, 3))
		every := time.Duration(1+rng.IntN(10)) * time.Second
		t0 := time.Unix(5000, 0)
		clock := NewManualClock(t0)
		var starts, ends []time.Time
		n := 5 + rng.IntN(20)
		ctx, cancel := context.WithCancel(context.Background())
		s := &Scheduler{Trigger: Trigger{Kind: ProcessingTime, Every: every}, Clock: clock}
		done := make(chan int64)
		go func() {
			next, err := s.Run(ctx, 7, func(ctx context.Context, epoch int64) (BatchResult, error) {
				if epoch != 7+int64(len(starts)) {
					t.Errorf("epoch %d, want %d", epoch, 7+len(starts))
				}
				starts = append(starts, clock.Now())
				// The batch's work takes processing time, sometimes more than
				// an interval.
				clock.Advance(time.Duration(rng.Int64N(int64(every) * 5 / 2)))
				ends = append(ends, clock.Now())
				if len(starts) == n {
					cancel()
				}
				return BatchResult{}, nil
			})
			if err != nil {
				t.Error(err)
			}
			done <- next
		}()
		var next int64
	loop:
		for {
			select {
			case next = <-done:
				break loop
			default:
			}
			if clock.Waiters() > 0 {
				clock.FireNext()
			} else {
				time.Sleep(10 * time.Microsecond)
			}
		}
		if len(starts) != n || next != 7+int64(n) {
			t.Fatalf("seed %d: %d batches, next epoch %d; want %d, %d", seed, len(starts), next, n, 7+n)
		}
		if !starts[0].Equal(t0) {
			t.Fatalf("seed %d: first batch at %v, want at once", seed, starts[0])
		}
		for i := 1; i < n; i++ {
			want := t0
			for want.Before(ends[i-1]) {
				want = want.Add(every)
			}
			if !starts[i].Equal(want) {
				t.Fatalf("seed %d every %v: batch %d started at +%v, previous ended at +%v, want +%v",
					seed, every, i, starts[i].Sub(t0), ends[i-1].Sub(t0), want.Sub(t0))
			}
		}
	}
}

func TestAvailableNowAndOnce(t *testing.T) {
	clock := NewManualClock(time.Unix(0, 0))
	ctx := context.Background()
	calls := 0
	s := &Scheduler{Trigger: Trigger{Kind: AvailableNow}, Clock: clock}
	next, err := s.Run(ctx, 0, func(ctx context.Context, epoch int64) (BatchResult, error) {
		calls++
		return BatchResult{Rows: 10, Drained: calls == 3}, nil
	})
	if err != nil || next != 3 || calls != 3 || clock.Waiters() != 0 {
		t.Fatalf("available-now: next %d, %d calls, %v", next, calls, err)
	}
	calls = 0
	s.Trigger = Trigger{Kind: Once}
	next, err = s.Run(ctx, 10, func(ctx context.Context, epoch int64) (BatchResult, error) {
		calls++
		return BatchResult{}, nil
	})
	if err != nil || next != 11 || calls != 1 {
		t.Fatalf("once: next %d, %d calls, %v", next, calls, err)
	}
	boom := errors.New("boom")
	s.Trigger = Trigger{Kind: ProcessingTime, Every: time.Second}
	next, err = s.Run(ctx, 4, func(ctx context.Context, epoch int64) (BatchResult, error) { return BatchResult{}, boom })
	if !errors.Is(err, boom) || next != 4 {
		t.Fatalf("failed batch: next %d, %v", next, err)
	}
	s.Trigger = Trigger{Kind: ProcessingTime}
	if _, err := s.Run(ctx, 0, nil); err == nil {
		t.Fatal("a zero interval accepted")
	}
}
