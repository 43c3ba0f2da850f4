package stream

import (
	"context"
	"fmt"
	"time"
)

// TriggerKind is how micro-batches are scheduled.
type TriggerKind uint8

const (
	// ProcessingTime runs a micro-batch every Every of processing time,
	// until the context is cancelled.
	ProcessingTime TriggerKind = iota + 1
	// AvailableNow processes what is available when the run starts, in as
	// many micro-batches as the flow takes, and stops.
	AvailableNow
	// Once runs exactly one micro-batch (`--once`).
	Once
)

// Trigger is a flow's trigger.
type Trigger struct {
	Kind  TriggerKind
	Every time.Duration // ProcessingTime
}

// BatchResult is what a micro-batch reports to the scheduler.
type BatchResult struct {
	Rows int64
	// Drained: the sources had nothing left of what was available when the
	// run started (AvailableNow stops after such a batch).
	Drained bool
}

// BatchFunc runs micro-batch epoch: read, process, commit.
type BatchFunc func(ctx context.Context, epoch int64) (BatchResult, error)

// Scheduler runs micro-batches by a trigger over a processing-time clock.
type Scheduler struct {
	Trigger Trigger
	Clock   Clock // nil: the wall clock
}

// Run runs micro-batches from epoch first on, and returns the next epoch.
//
// ProcessingTime: trigger times are start, start+Every, start+2·Every, ...
// (start is when Run began); each micro-batch begins at the first trigger
// time at or after the previous one ended, so a batch that overran its
// interval is followed at once, and missed intervals are skipped, not
// caught up. Cancelling ctx while Run waits for the next trigger time is a
// clean stop: Run returns nil. A micro-batch is never interrupted by the
// scheduler; the BatchFunc sees ctx.
//
// An error from a micro-batch stops Run and is returned.
func (s *Scheduler) Run(ctx context.Context, first int64, fn BatchFunc) (next int64, err error) {
	clock := s.Clock
	if clock == nil {
		clock = WallClock{}
	}
	epoch := first
	batch := func() (BatchResult, error) {
		r, err := fn(ctx, epoch)
		if err != nil {
			return r, fmt.Errorf("micro-batch %d: %w", epoch, err)
		}
		epoch++
		return r, nil
	}
	switch s.Trigger.Kind {
	case Once:
		_, err := batch()
		return epoch, err
	case AvailableNow:
		for {
			if ctx.Err() != nil {
				return epoch, nil
			}
			r, err := batch()
			if err != nil || r.Drained {
				return epoch, err
			}
		}
	case ProcessingTime:
		every := s.Trigger.Every
		if every <= 0 {
			return epoch, fmt.Errorf("processing-time trigger every %v: want > 0", every)
		}
		start := clock.Now()
		for {
			if ctx.Err() != nil {
				return epoch, nil
			}
			if _, err := batch(); err != nil {
				return epoch, err
			}
			end := clock.Now()
			n := (end.Sub(start) + every - 1) / every
			wait := start.Add(n * every).Sub(end)
			if wait <= 0 {
				continue
			}
			select {
			case <-ctx.Done():
				return epoch, nil
			case <-clock.After(wait):
			}
		}
	}
	return epoch, fmt.Errorf("unknown trigger kind %d", s.Trigger.Kind)
}
