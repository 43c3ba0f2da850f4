package etl

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/format"
)

// Workers is the number of workers Parallel runs a pipeline on: Threads,
// at least 1. Generated code sizes its per-worker partial state by it.
func (fc *FlowContext) Workers() int { return max(fc.Threads, 1) }

// errStopped ends a worker's loop because another worker failed.
var errStopped = errors.New("stopped")

// Parallel runs one pipeline of a flow over the batches of rd on Workers()
// goroutines. For each worker w (0 ≤ w < Workers()), on that worker's
// goroutine, start(w) returns the function that handles one batch and the
// one that ends the worker after its last batch (nil: nothing to do).
// Batches go to whichever worker is free, numbered in rd's order from 0
// (seq: generated code uses it where the input's order matters); each is
// handed to one worker, and Parallel releases it when the handler returns.
// The first error (or panic, as an error) stops every worker after the
// batch at hand and is returned; the end functions run only when no worker
// failed. With one worker everything runs on the calling goroutine. Parallel
// does not close rd.
func (fc *FlowContext) Parallel(rd format.BatchReader, start func(w int) (each func(seq int64, rec arrow.RecordBatch) error, end func() error)) error {
	n := fc.Workers()
	var (
		mu     sync.Mutex
		seq    int64
		done   bool // rd returned io.EOF, or a worker failed
		first  error
		failed bool
	)
	next := func() (int64, arrow.RecordBatch, error) {
		mu.Lock()
		defer mu.Unlock()
		if failed {
			return 0, nil, errStopped
		}
		if done {
			return 0, nil, io.EOF
		}
		rec, err := rd.Next()
		if err != nil {
			done = true
			return 0, nil, err
		}
		s := seq
		seq++
		return s, rec, nil
	}
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if !failed {
			failed, first = true, err
		}
	}
	work := func(w int) (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("internal error: %v\n%s", p, debug.Stack())
			}
			if err != nil && err != errStopped {
				fail(err)
			}
		}()
		each, end := start(w)
		for {
			s, rec, err := next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			err = each(s, rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
		mu.Lock()
		stop := failed
		mu.Unlock()
		if stop || end == nil {
			return nil
		}
		return end()
	}
	if n == 1 {
		work(0)
		return first
	}
	var wg sync.WaitGroup
	for w := range n {
		wg.Go(func() { work(w) })
	}
	wg.Wait()
	return first
}
