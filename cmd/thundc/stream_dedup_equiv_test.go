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

// Dedup within the watermark, end to end: a generated executable runs
// three distinct ... within watermark flows over a watched folder (by k,
// by (k, v), by every column), one run (micro-batch, epoch, process) per
// batch of files, restoring the held keys from the last commit every time.
// Each table must equal the rows that Spark's rule passes on, computed here
// from the generated arrival order, not read from the engine:
//
//   - Spark's watermark S_b in force during batch b starts at the epoch and
//     is max(S_{b-1}, greatest event time of batches before b less the
//     delay less the allowed lateness, truncated to whole milliseconds)
//     (the Spark targets declare the delay plus the lateness on the read);
//   - a row of batch b is late when its time is not NULL and <= S_b;
//   - an on-time row is passed on unless an earlier passed row of its key
//     is still held: it was passed in the same batch (keys are dropped at a
//     batch's end), or its time (the epoch when NULL) plus the delay plus
//     the lateness is > S_b.
//
// Keys and times are sometimes NULL (an empty CSV field), rows are often
// exact copies of earlier ones (the duplicates of every column, with the
// rows of the same k and v whose times are both NULL), and
// event times (in microseconds, often a fraction of a millisecond off a
// second) are out of order by up to 8s against a delay of 3s and a
// lateness of 1s, so that rows are late, duplicates fall inside and beyond
// a key's expiry, and keys come back after expiring.

const dedupEquivPipeline = `pipeline dedupequiv

source ev stream from csv "data/*.csv" options ("header" = "true") {
  k string, v int64, t timestamp(us, "UTC")
  watermark t delay 3s allowed lateness 1s
}

streaming table by_k =
  from stream ev
  | distinct on (k) within watermark

streaming table by_kv =
  from stream ev
  | distinct on (k, v) within watermark

streaming table every =
  from stream ev
  | distinct within watermark
`

// deDelay is the delay plus the allowed lateness, in microseconds.
const deDelay = (3 + 1) * 1_000_000

type deRow struct {
	k      string
	v      int64
	t      int64 // microseconds
	hasT   bool
	nullK  bool
	copied bool // an exact copy of an earlier row
}

// kText is the key k: NULL (whatever k holds) apart from every string.
func (r deRow) kText() string {
	if r.nullK {
		return "\x00NULL"
	}
	return r.k
}

// tText is the event time t: NULL (whatever t holds, as the generator
// draws a time for every row) apart from every time.
func (r deRow) tText() string {
	if !r.hasT {
		return "NULL"
	}
	return strconv.FormatInt(r.t, 10)
}

func (r deRow) csv() string {
	k, t := r.k, ""
	if r.nullK {
		k = ""
	}
	if r.hasT {
		t = time.UnixMicro(r.t).UTC().Format("2006-01-02 15:04:05.999999")
	}
	return fmt.Sprintf("%s,%d,%s", k, r.v, t)
}

func TestStreamDedupEquivalence(t *testing.T) {
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
	rng := rand.New(rand.NewPCG(seed, 0xdedf))
	bin := buildText(t, dedupEquivPipeline)
	for c := range testenv.Size(t, "random cases", 2, 3) {
		t.Run(fmt.Sprint("case", c), func(t *testing.T) {
			work := t.TempDir()
			batches, want, stats := dedupEquivGenerate(rng)
			t.Logf("%d batches; %s", len(batches), stats)
			d := filepath.Join(work, "data")
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
			for i, b := range batches {
				if len(b) > 0 {
					var csv strings.Builder
					csv.WriteString("k,v,t\n")
					for _, r := range b {
						csv.WriteString(r.csv() + "\n")
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
			for _, table := range []string{"by_k", "by_kv", "every"} {
				got := strings.Split(strings.TrimSpace(etlRun(t, work, bin, "read", table)), "\n")[1:]
				slices.Sort(got)
				w := want[table]
				slices.Sort(w)
				if !slices.Equal(got, w) {
					t.Errorf("%s: the streaming result differs from Spark's rule over the arrival order\n got (%d):\n  %s\nwant (%d):\n  %s",
						table, len(got), strings.Join(got, "\n  "), len(w), strings.Join(w, "\n  "))
				}
			}
		})
	}
}

// dedupEquivGenerate draws batches and computes the expected tables; it
// draws again until the case has late rows, duplicates dropped while held,
// keys passed on again after expiring, a NULL key and a NULL time passed
// on, so that no case passes vacuously.
func dedupEquivGenerate(rng *rand.Rand) ([][]deRow, map[string][]string, string) {
	for {
		var batches [][]deRow
		var all []deRow
		clock := int64(1000)
		for b := 0; b < 10+rng.IntN(12); b++ {
			var batch []deRow
			for n := rng.IntN(8); n > 0; n-- {
				if len(all) > 0 && rng.IntN(4) == 0 {
					r := all[rng.IntN(len(all))]
					r.copied = true
					batch = append(batch, r)
					continue
				}
				clock += int64(rng.IntN(2))
				at := (clock-int64(rng.IntN(9)))*1_000_000 + int64(rng.IntN(4))*250 // 0, 250, 500 or 750µs past a second
				r := deRow{k: []string{"x", "y", "z"}[rng.IntN(3)], v: int64(rng.IntN(3)), t: at, hasT: rng.IntN(12) != 0, nullK: rng.IntN(6) == 0}
				batch = append(batch, r)
				all = append(all, r)
			}
			batches = append(batches, batch)
		}
		want, st := dedupEquivOracle(batches)
		if st.late > 0 && st.heldDups > 0 && st.again > 0 && st.nullK > 0 && st.nullT > 0 {
			return batches, want, fmt.Sprintf("%d late, %d duplicates held, %d keys passed again, %d NULL keys and %d NULL times passed on (by k)",
				st.late, st.heldDups, st.again, st.nullK, st.nullT)
		}
	}
}

type deStats struct{ late, heldDups, again, nullK, nullT int }

// dedupEquivOracle computes each table's expected rows (as etl read prints
// them) by the rule in the file's comment. It shares no code with the
// engine.
func dedupEquivOracle(batches [][]deRow) (map[string][]string, deStats) {
	// S_b: Spark's watermark in force during each batch
	S := make([]int64, len(batches))
	var s, maxT int64 // s starts at the epoch
	hasMax := false
	for b, batch := range batches {
		S[b] = s
		for _, r := range batch {
			if r.hasT && (!hasMax || r.t > maxT) {
				maxT, hasMax = r.t, true
			}
		}
		if hasMax {
			w := maxT - deDelay
			s = max(s, w-w%1000) // whole milliseconds (times are after the epoch)
		}
	}
	keyOf := map[string]func(deRow) string{
		"by_k":  func(r deRow) string { return r.kText() },
		"by_kv": func(r deRow) string { return fmt.Sprint(r.kText(), r.v) },
		"every": func(r deRow) string { return fmt.Sprint(r.kText(), r.v, r.tText()) },
	}
	out := map[string][]string{}
	var st deStats
	for table, key := range keyOf {
		var passed []deRow // in arrival order
		var passedIn []int // the batch of each
		passedKeys := map[string]bool{}
		for b, batch := range batches {
			for _, r := range batch {
				if r.hasT && r.t <= S[b] {
					if table == "by_k" {
						st.late++
					}
					continue
				}
				held := false
				for j, p := range passed {
					exp := int64(deDelay)
					if p.hasT {
						exp += p.t
					}
					if key(p) == key(r) && (passedIn[j] == b || exp > S[b]) {
						held = true
					}
				}
				if held {
					if table == "by_k" {
						st.heldDups++
					}
					continue
				}
				if table == "by_k" {
					switch {
					case passedKeys[key(r)]:
						st.again++
					case r.nullK:
						st.nullK++
					}
					if !r.hasT {
						st.nullT++
					}
				}
				passedKeys[key(r)] = true
				passed = append(passed, r)
				passedIn = append(passedIn, b)
				out[table] = append(out[table], r.csv())
			}
		}
	}
	return out, st
}

// TestDedupEquivOracleNullTime checks the oracle on a sequence run on Spark
// 4.1.4 and 4.2.1 (dropDuplicatesWithinWatermark on every column, a 4s
// delay): rows whose times are NULL are one key whatever time the generator
// drew for them, so batch 1's two copies pass once; that key was held from
// batch 0 as the epoch plus the delay, which batch 0's watermark passed, so
// it passes again. Spark's table: ",1," twice and "x,1,...40".
func TestDedupEquivOracleNullTime(t *testing.T) {
	null := func(drawn int64) deRow { return deRow{v: 1, t: drawn, nullK: true} }
	batches := [][]deRow{
		{null(997_000_250), {k: "x", v: 1, t: 1_000_000_000, hasT: true}},
		{null(1_005_000_250), null(1_007_000_500)},
	}
	want := []string{",1,", ",1,", "x,1,1970-01-01 00:16:40"}
	got, _ := dedupEquivOracle(batches)
	slices.Sort(got["every"])
	if !slices.Equal(got["every"], want) {
		t.Errorf("every: %q, want %q (Spark's)", got["every"], want)
	}
}
