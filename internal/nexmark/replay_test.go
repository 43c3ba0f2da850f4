package nexmark

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/stream"
)

type q5acc struct {
	n   stream.Count
	top stream.Max[int64]
}

// TestReplayAsStream replays generated bid files through a watched folder
// while they land, one micro-batch per poll, into a q5-like hopping window
// (count and max price per auction), and compares the final rows with a
// batch recompute of all bids minus the late (bid, window) assignments,
// which are computed here from the arrival order and the DESIGN.md rule.
func TestReplayAsStream(t *testing.T) {
	ctx := context.Background()
	stage, _ := store.NewLocal(t.TempDir())
	cfg := Config{Seed: 5, Events: 20000, EventsPerSecond: 1000, MaxDisorder: 2 * time.Second}
	sum, err := Write(ctx, stage, cfg, WriteOptions{EventsPerFile: 1500})
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, f := range sum.Files {
		if filepath.Dir(f) == "bid" {
			parts = append(parts, f)
		}
	}
	watchDir := t.TempDir()
	watched, _ := store.NewLocal(watchDir)
	folder, err := stream.NewFolder(watched, stream.FolderOptions{Dir: "bid", Pattern: "*.parquet"}, stream.FolderOffset{})
	if err != nil {
		t.Fatal(err)
	}
	const delay = 1000 // ms
	spec := stream.Spec{Kind: stream.Hopping, Size: 2000, Slide: 500}
	st, _ := stream.NewState[int64, q5acc](spec, stream.Append, nil)
	clock := stream.NewManualClock(time.Unix(0, 0))
	tr := stream.NewTracker(clock, 0, delay)

	type bid struct{ auction, price, t int64 }
	var batches [][]bid
	final := map[string]q5acc{}
	rng := rand.New(rand.NewPCG(5, 5))
	landed := 0
	for landed < len(parts) || len(batches) == 0 || len(batches[len(batches)-1]) > 0 {
		// 0-2 parts land (write to a temporary name, then rename).
		for k := rng.IntN(3); k > 0 && landed < len(parts); k-- {
			data, _, err := stage.ReadFile(ctx, parts[landed])
			if err != nil {
				t.Fatal(err)
			}
			dst := filepath.Join(watchDir, filepath.FromSlash(parts[landed]))
			os.MkdirAll(filepath.Dir(dst), 0o755)
			os.WriteFile(dst+".tmp", data, 0o644)
			os.Rename(dst+".tmp", dst)
			landed++
		}
		files, err := folder.Poll(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var batch []bid
		for _, f := range files {
			obj, err := watched.Open(ctx, f.Name)
			if err != nil {
				t.Fatal(err)
			}
			r, err := format.Open(obj, f.Name, format.Parquet, BidSchema, format.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for {
				rec, err := r.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				auc := rec.Column(0).(*array.Int64)
				price := rec.Column(2).(*array.Int64)
				dt := rec.Column(5).(*array.Timestamp)
				for i := 0; i < int(rec.NumRows()); i++ {
					b := bid{auc.Value(i), price.Value(i), int64(dt.Value(i))}
					batch = append(batch, b)
					tr.Observe(0, b.t)
					accs, _, _ := st.Assign(b.auction, b.t)
					for _, a := range accs {
						a.n.Add()
						a.top.Add(b.price)
					}
				}
				rec.Release()
			}
			r.Close()
		}
		batches = append(batches, batch)
		clock.Advance(time.Second)
		em := st.Advance(tr.Advance())
		for _, row := range em.Final {
			final[fmt.Sprint(row.Key, row.Window)] = row.Acc
		}
		if len(batches) > 1000 {
			t.Fatal("replay does not end")
		}
	}
	for _, row := range st.Flush().Final {
		final[fmt.Sprint(row.Key, row.Window)] = row.Acc
	}

	// Reference.
	want := map[string]q5acc{}
	var maxSeen int64
	seen := false
	total, late := 0, 0
	for _, batch := range batches {
		wm, hasWM := maxSeen-delay, seen
		for _, b := range batch {
			total++
			for s := (b.t/spec.Slide - 5) * spec.Slide; s <= b.t; s += spec.Slide {
				if !(s <= b.t && b.t < s+spec.Size) {
					continue
				}
				if hasWM && wm >= s+spec.Size {
					late++
					continue
				}
				k := fmt.Sprint(b.auction, stream.Window{Start: s, End: s + spec.Size})
				a := want[k]
				a.n.Add()
				a.top.Add(b.price)
				want[k] = a
			}
		}
		for _, b := range batch {
			if !seen || b.t > maxSeen {
				maxSeen, seen = b.t, true
			}
		}
	}
	if total != int(sum.Bids) {
		t.Fatalf("replayed %d bids, %d written", total, sum.Bids)
	}
	if late == 0 || len(want) == 0 {
		t.Fatalf("degenerate case: %d late assignments, %d windows", late, len(want))
	}
	if int64(late) != st.Stats().LateAssignments {
		t.Fatalf("engine dropped %d assignments, the rule %d", st.Stats().LateAssignments, late)
	}
	if len(final) != len(want) {
		t.Fatalf("%d windows emitted, recompute has %d", len(final), len(want))
	}
	for k, w := range want {
		if final[k] != w {
			t.Fatalf("window %s: streamed %+v, recomputed %+v", k, final[k], w)
		}
	}
	t.Logf("%d bids in %d micro-batches from %d files: %d windows, %d late assignments", total, len(batches), len(parts), len(want), late)
}
