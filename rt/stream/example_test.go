package stream_test

import (
	"context"
	"fmt"

	"github.com/nordisk/thund/rt/stream"
)

// The shape generated code takes for
//
//	from stream bids | window tumble(date_time, 10s)
//	| group by auction, window_start, window_end aggregate count(*) as bids, max(price) as top
//	output mode append, watermark date_time delay 5s
//
// with event times in seconds for brevity.
func Example() {
	type key struct{ Auction int64 }
	type acc struct {
		Bids stream.Count
		Top  stream.Max[int64]
	}
	type bid struct{ auction, price, t int64 }

	state, _ := stream.NewState[key, acc](stream.Spec{Kind: stream.Tumbling, Size: 10}, stream.Append, nil)
	tracker := stream.NewTracker(nil, 0, 5) // one stream input, delay 5
	batches := [][]bid{
		{{1, 10, 1}, {2, 20, 3}, {1, 30, 8}},
		{{1, 5, 12}, {2, 7, 16}},
		{{1, 99, 4}, {2, 8, 21}}, // t=4: its window [0,10) closed (WM 11 >= 10)
	}
	sched := stream.Scheduler{Trigger: stream.Trigger{Kind: stream.AvailableNow}}
	sched.Run(context.Background(), 0, func(ctx context.Context, epoch int64) (stream.BatchResult, error) {
		late := 0
		for _, b := range batches[epoch] {
			tracker.Observe(0, b.t)
			accs, _, err := state.Assign(key{b.auction}, b.t)
			if err != nil {
				return stream.BatchResult{}, err
			}
			if len(accs) == 0 {
				late++ // the late table's builder would get the row
			}
			for _, a := range accs {
				a.Bids.Add()
				a.Top.Add(b.price)
			}
		}
		em := state.Advance(tracker.Advance())
		fmt.Printf("epoch %d: WM %d, %d late\n", epoch, em.WM, late)
		for _, r := range em.Final {
			fmt.Printf("  auction %d [%d,%d): bids %d, top %d\n", r.Key.Auction, r.Window.Start, r.Window.End, r.Acc.Bids.N, r.Acc.Top.V)
		}
		return stream.BatchResult{Drained: epoch == int64(len(batches))-1}, nil
	})
	// Output:
	// epoch 0: WM 3, 0 late
	// epoch 1: WM 11, 0 late
	//   auction 1 [0,10): bids 2, top 30
	//   auction 2 [0,10): bids 1, top 20
	// epoch 2: WM 16, 1 late
}
