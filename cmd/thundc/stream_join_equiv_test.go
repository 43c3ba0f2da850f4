package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
)

// Outer joins of two streams, end to end: a generated executable runs a
// left, a right and a full outer interval join of two watched folders, one
// run (micro-batch, epoch, process) per batch of files, restoring the
// join's held rows and their matched flags from the last commit every time.
// Each table must equal a batch outer join of the rows that were on time,
// where lateness (Spark's rule, seen on its servers: t <= WM - allowed
// lateness, WM the minimum over both inputs of the greatest event time seen
// in earlier batches less the delay) is computed here, from the generated
// arrival order, not read from the engine.
// Keys are sometimes NULL (an empty CSV field): such a row matches nothing
// and, on a preserved side, is emitted NULL-padded at once (unless late).
// The join's residual condition (a.v <> bb.w) is one the state cannot test,
// so a pair in the time bound may still not match. The last batches move
// event time far ahead, so that every held row is evicted (and its
// NULL-padded row emitted) by the end.

const joinEquivPipeline = `pipeline joinequiv

source a stream from csv "data/a/*.csv" options ("header" = "true") {
  k string, v int64, t timestamp(ms, "UTC")
  watermark t delay 2s allowed lateness 1s
}

source b stream from csv "data/b/*.csv" options ("header" = "true") {
  k string, w int64, t timestamp(ms, "UTC")
  watermark t delay 2s allowed lateness 1s
}

streaming table left_j =
  from stream a
  | left join (from stream b) as bb on a.k = bb.k and bb.t between a.t - 3s and a.t + 5s and a.v <> bb.w
  | select a.k, a.v, a.t, bb.w, bb.t as bt

streaming table right_j =
  from stream a
  | right join (from stream b) as bb on a.k = bb.k and bb.t between a.t - 3s and a.t + 5s and a.v <> bb.w
  | select a.v, a.t, bb.k, bb.w, bb.t as bt

streaming table full_j =
  from stream a
  | full join (from stream b) as bb on a.k = bb.k and bb.t between a.t - 3s and a.t + 5s and a.v <> bb.w
  | select a.k as ak, a.v, a.t, bb.k as bk, bb.w, bb.t as bt
`

const (
	jeDelay, jeLateness = 2, 1
	jeLower, jeUpper    = -3, 5 // bb.t - a.t
)

type jeRow struct {
	right bool
	k     string
	v     int64
	t     int64 // seconds
}

func TestStreamOuterJoinEquivalence(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a pipeline")
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("THUND_STREAM_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		seed = v
	}
	t.Logf("seed %d (THUND_STREAM_SEED=%d replays it)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 0x701e))
	bin := buildText(t, joinEquivPipeline)
	for c := range testenv.Size(t, "random cases", 2, 3) {
		t.Run(fmt.Sprint("case", c), func(t *testing.T) {
			work := t.TempDir()
			batches, want, late := joinEquivGenerate(rng)
			t.Logf("%d batches, %d late rows", len(batches), late)
			for i, b := range batches {
				for _, side := range []string{"a", "b"} {
					var csv strings.Builder
					csv.WriteString("k," + map[string]string{"a": "v", "b": "w"}[side] + ",t\n")
					n := 0
					for _, r := range b {
						if r.right == (side == "b") {
							fmt.Fprintf(&csv, "%s,%d,%s\n", r.k, r.v, stamp(r.t))
							n++
						}
					}
					if n == 0 {
						continue
					}
					d := filepath.Join(work, "data", side)
					if err := os.MkdirAll(d, 0o755); err != nil {
						t.Fatal(err)
					}
					name := filepath.Join(d, fmt.Sprintf("b%04d.csv", i))
					if err := os.WriteFile(name+".tmp", []byte(csv.String()), 0o644); err != nil {
						t.Fatal(err)
					}
					if err := os.Rename(name+".tmp", name); err != nil {
						t.Fatal(err)
					}
				}
				etlRun(t, work, bin, "run")
			}
			for _, table := range []string{"left_j", "right_j", "full_j"} {
				got := strings.Split(strings.TrimSpace(etlRun(t, work, bin, "read", table)), "\n")[1:]
				slices.Sort(got)
				w := want[table]
				slices.Sort(w)
				if !slices.Equal(got, w) {
					t.Errorf("%s: the streaming result differs from the batch outer join of the on-time rows\n got (%d):\n  %s\nwant (%d):\n  %s",
						table, len(got), strings.Join(got, "\n  "), len(w), strings.Join(w, "\n  "))
				}
			}
		})
	}
}

// joinEquivGenerate draws batches of rows of both sides and computes the
// expected tables; it draws again until the case has late rows, matched
// pairs and NULL-padded rows of both sides, so that no case passes
// vacuously.
func joinEquivGenerate(rng *rand.Rand) ([][]jeRow, map[string][]string, int) {
	for {
		var batches [][]jeRow
		clock := int64(1000)
		for b := 0; b < 8+rng.IntN(12); b++ {
			var batch []jeRow
			for n := rng.IntN(10); n > 0; n-- {
				clock += int64(rng.IntN(2))
				ts := clock
				if rng.IntN(4) == 0 {
					ts -= int64(rng.IntN(12)) // out of order: some rows late
				}
				batch = append(batch, jeRow{right: rng.IntN(2) == 0, k: []string{"x", "y", "z", "x", "y", "z", ""}[rng.IntN(7)], v: int64(rng.IntN(4)), t: ts})
			}
			batches = append(batches, batch)
		}
		// the end: both inputs move far ahead, so every held row is evicted
		clock += 100
		batches = append(batches, []jeRow{{false, "end", 0, clock}, {true, "end", 1, clock + 50}},
			[]jeRow{{false, "end2", 0, clock + 100}, {true, "end2", 1, clock + 100}})
		want, late, pairs, padL, padR := joinEquivOracle(batches)
		if late > 0 && pairs > 0 && padL > 2 && padR > 2 {
			return batches, want, late
		}
	}
}

// joinEquivOracle computes each table's expected rows (as etl read prints
// them) from the batches in arrival order. It shares no code with the
// engine. The rows of the last batch are still held when the input ends
// (the watermark has not passed them): they pair, but are not NULL-padded
// yet.
func joinEquivOracle(batches [][]jeRow) (map[string][]string, int, int, int, int) {
	var onTime []jeRow
	held := map[int]bool{} // in onTime: the last batch's rows
	late := 0
	var maxA, maxB, wm int64
	hasA, hasB, hasWM := false, false, false
	for i, b := range batches {
		for _, r := range b {
			if hasWM && r.t <= wm-jeLateness {
				late++
				continue
			}
			if i == len(batches)-1 && r.k != "" { // a NULL key is padded at once
				held[len(onTime)] = true
			}
			onTime = append(onTime, r)
		}
		for _, r := range b {
			if r.right {
				maxB, hasB = max(maxB, r.t), true
			} else {
				maxA, hasA = max(maxA, r.t), true
			}
		}
		if hasA && hasB {
			if w := min(maxA, maxB) - jeDelay; !hasWM || w > wm {
				wm, hasWM = w, true
			}
		}
	}
	out := map[string][]string{}
	matched := map[int]bool{}
	pairs := 0
	for i, l := range onTime {
		for j, r := range onTime {
			if l.right || !r.right || l.k != r.k || l.k == "" || r.t < l.t+jeLower || r.t > l.t+jeUpper || l.v == r.v {
				continue
			}
			pairs++
			matched[i], matched[j] = true, true
			out["left_j"] = append(out["left_j"], fmt.Sprintf("%s,%d,%s,%d,%s", l.k, l.v, stamp(l.t), r.v, stamp(r.t)))
			out["right_j"] = append(out["right_j"], fmt.Sprintf("%d,%s,%s,%d,%s", l.v, stamp(l.t), r.k, r.v, stamp(r.t)))
			out["full_j"] = append(out["full_j"], fmt.Sprintf("%s,%d,%s,%s,%d,%s", l.k, l.v, stamp(l.t), r.k, r.v, stamp(r.t)))
		}
	}
	padL, padR := 0, 0
	for i, r := range onTime {
		if matched[i] || held[i] {
			continue
		}
		if r.right {
			padR++
			out["right_j"] = append(out["right_j"], fmt.Sprintf(",,%s,%d,%s", r.k, r.v, stamp(r.t)))
			out["full_j"] = append(out["full_j"], fmt.Sprintf(",,,%s,%d,%s", r.k, r.v, stamp(r.t)))
		} else {
			padL++
			out["left_j"] = append(out["left_j"], fmt.Sprintf("%s,%d,%s,,", r.k, r.v, stamp(r.t)))
			out["full_j"] = append(out["full_j"], fmt.Sprintf("%s,%d,%s,,,", r.k, r.v, stamp(r.t)))
		}
	}
	return out, late, pairs, padL, padR
}
