package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
)

// The streaming equivalence property, end to end: a generated executable
// runs windowed aggregates over a watched folder, one run (micro-batch,
// epoch, process) per batch of files, restoring its state from the last
// commit every time. Its tables must equal a batch recompute of the rows
// that were on time, where which rows are late is computed here, from the
// generated arrival order and DESIGN.md's rule, not read from the engine.
//
// Cases are random (seeded; the seed is printed, THUND_STREAM_SEED replays
// it): keys, out-of-order event times (disorder of up to 30s against a delay of
// 2s and allowed lateness of 3s, so that a share of rows is late), gaps in
// event time, and random splits into batches.

const equivPipeline = `pipeline equiv

source ev stream from csv "data/ev/*.csv" options ("header" = "true") {
  k string, v int64, t timestamp(ms, "UTC")
  watermark t delay 2s allowed lateness 3s
}

streaming table tumble_append =
  from stream ev
  | window tumble(t, 10s)
  | group by k, window_start, window_end aggregate count(*) as n, sum(v) as s, min(v) as lo, max(v) as hi
  emit on window close
  late table tumble_late

streaming table tumble_complete =
  from stream ev
  | window tumble(t, 10s)
  | group by k, window_start aggregate count(*) as n, sum(v) as s
  output mode complete

streaming table hop_update =
  from stream ev
  | window hop(t, 10s, 5s)
  | group by k, window_start aggregate count(*) as n, max(v) as hi
  output mode update
  emit on update

streaming table hop_append =
  from stream ev
  | window hop(t, 10s, 5s)
  | group by k, window_start aggregate count(*) as n
  emit on window close

streaming table session_append =
  from stream ev
  | window session(t, 4s)
  | group by k, window_start, window_end aggregate count(*) as n, sum(v) as s
  emit on window close

streaming table session_update =
  from stream ev
  | window session(t, 4s)
  | group by k, window_start, window_end aggregate count(*) as n
  output mode update
  emit on update

streaming table tumble_distinct =
  from stream ev
  | window tumble(t, 10s)
  | group by k, window_start aggregate count(distinct v % 7) as d, count(*) as n
  emit on window close

streaming table hop_distinct_update =
  from stream ev
  | window hop(t, 10s, 5s)
  | group by window_start aggregate count(distinct k) as dk
  output mode update
  emit on update

streaming table session_distinct =
  from stream ev
  | window session(t, 4s)
  | group by k, window_start, window_end aggregate count(distinct v % 5) as d
  emit on window close

streaming table keys_update =
  from stream ev
  | group by k aggregate count(*) as n, sum(v) as s, min(v) as lo, count(distinct v % 3) as d
  output mode update

streaming table keys_complete =
  from stream ev
  | group by k, v % 2 = 0 as even aggregate count(*) as n, max(v) as hi
  output mode complete
`

// Event times are whole seconds; the windows and rules below are in seconds.
const (
	eqDelay    = 2
	eqLateness = 3
	eqSize     = 10
	eqSlide    = 5
	eqGap      = 4
)

type eqRow struct {
	k string
	v int64
	t int64 // seconds
}

func TestStreamEquivalence(t *testing.T) {
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
	rng := rand.New(rand.NewPCG(seed, 0x5eed))

	bin := buildText(t, equivPipeline)
	cases := testenv.Size(t, "random cases", 2, 5)
	for c := 0; c < cases; c++ {
		t.Run(fmt.Sprint("case", c), func(t *testing.T) { equivCase(t, rng, bin) })
	}
}

// buildText builds the pipeline text src, written as pipeline.thund in a
// new folder, and returns the executable. thundc runs in that folder with
// the name pipeline.thund, as a user would: the generated program names its
// source as given, so an absolute path of a temporary folder would make a
// new program on every run, which the tests' shared cache
// (testenv.ThundCache) would build again every time.
func buildText(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pipeline.thund"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "etl")
	t.Setenv("THUND_CACHE", testenv.ThundCache())
	t.Chdir(dir)
	var out, errb bytes.Buffer
	if code := run([]string{"build", "pipeline.thund", "-o", bin}, nil, &out, &errb); code != 0 {
		t.Fatalf("thundc build: exit %d\n%s", code, errb.String())
	}
	return bin
}

func equivCase(t *testing.T, rng *rand.Rand, bin string) {
	work := t.TempDir()
	if err := os.MkdirAll(filepath.Join(work, "data", "ev"), 0o755); err != nil {
		t.Fatal(err)
	}
	rows, batches, want := equivGenerate(rng)
	t.Logf("%d rows in %d batches, %d late for the tumbling windows", len(rows), len(batches), len(want["tumble_late"]))
	equivRun(t, work, bin, batches)
	equivCheck(t, work, bin, want)
}

// equivGenerate draws a case: the rows in arrival order (event time
// advances with random steps and gaps, one row in 2 to 6 jittered back
// by up to 5 to 30s: random late fractions), their random split into batches, and the oracle's tables.
// It draws again until the case has late rows and on-time output in every
// append table, so that no case passes vacuously.
func equivGenerate(rng *rand.Rand) ([]eqRow, [][]eqRow, map[string][]string) {
	for {
		rows, batches := equivDraw(rng)
		want := equivOracle(batches)
		if len(want["tumble_late"]) > 0 && len(want["tumble_append"]) > 0 && len(want["hop_append"]) > 0 && len(want["session_append"]) > 0 {
			return rows, batches, want
		}
	}
}

func equivDraw(rng *rand.Rand) ([]eqRow, [][]eqRow) {
	n := 40 + rng.IntN(120)
	frac, jitter := 2+rng.IntN(5), 5+rng.IntN(26) // a random late fraction
	keys := []string{"a", "b", "c", "d"}[:1+rng.IntN(4)]
	var rows []eqRow
	clock := int64(1000)
	for i := 0; i < n; i++ {
		clock += int64(rng.IntN(3))
		if rng.IntN(25) == 0 {
			clock += 15 + int64(rng.IntN(30)) // a gap
		}
		ts := clock
		if rng.IntN(frac) == 0 {
			ts -= int64(rng.IntN(jitter))
		}
		rows = append(rows, eqRow{k: keys[rng.IntN(len(keys))], v: int64(rng.IntN(100)) - 20, t: ts})
	}
	var batches [][]eqRow
	for i := 0; i < len(rows); {
		m := 1 + rng.IntN(30)
		batches = append(batches, rows[i:min(i+m, len(rows))])
		i += m
	}
	return rows, batches
}

// equivRun writes each batch as a file (write, then rename) and runs one
// micro-batch per file.
func equivRun(t *testing.T, work, bin string, batches [][]eqRow) {
	for i, b := range batches {
		var csv strings.Builder
		csv.WriteString("k,v,t\n")
		for _, r := range b {
			fmt.Fprintf(&csv, "%s,%d,%s\n", r.k, r.v, stamp(r.t))
		}
		name := filepath.Join(work, "data", "ev", fmt.Sprintf("b%04d.csv", i))
		if err := os.WriteFile(name+".tmp", []byte(csv.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(name+".tmp", name); err != nil {
			t.Fatal(err)
		}
		etlRun(t, work, bin, "run")
	}
}

func equivCheck(t *testing.T, work, bin string, want map[string][]string) {
	for _, table := range []string{"tumble_append", "tumble_late", "tumble_complete", "hop_update", "hop_append", "session_append", "session_update",
		"tumble_distinct", "hop_distinct_update", "session_distinct", "keys_update", "keys_complete"} {
		got := strings.Split(strings.TrimSpace(etlRun(t, work, bin, "read", table)), "\n")[1:]
		slices.Sort(got)
		w := want[table]
		slices.Sort(w)
		if !slices.Equal(got, w) {
			t.Errorf("%s: the streaming result differs from the batch recompute of the on-time rows\n got (%d):\n  %s\nwant (%d):\n  %s",
				table, len(got), strings.Join(got, "\n  "), len(w), strings.Join(w, "\n  "))
		}
	}
}

func etlRun(t *testing.T, dir, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("etl %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

// stamp formats a time in seconds as etl read prints it.
func stamp(s int64) string {
	return time.Unix(s, 0).UTC().Format("2006-01-02 15:04:05")
}

// equivOracle computes, from the batches in arrival order and DESIGN.md's
// rule, each table's expected rows (as etl read prints them, without the
// header). It shares no code with the engine.
func equivOracle(batches [][]eqRow) map[string][]string {
	type win struct {
		k     string
		start int64
	}
	type acc struct {
		n, s, lo, hi int64
		d7           map[int64]bool // v % 7 (count(distinct ...))
	}
	add := func(m map[win]*acc, w win, r eqRow) {
		a := m[w]
		if a == nil {
			a = &acc{lo: r.v, hi: r.v, d7: map[int64]bool{}}
			m[w] = a
		}
		a.d7[r.v%7] = true
		a.n++
		a.s += r.v
		a.lo, a.hi = min(a.lo, r.v), max(a.hi, r.v)
	}
	tumble, hop := map[win]*acc{}, map[win]*acc{}
	hopKeys := map[int64]map[string]bool{} // window start: the keys of its on-time rows
	var late []eqRow
	// sessions: per key, open sessions and closed ones (emitted)
	type sess struct {
		start, end int64
		n, s       int64
		d5         map[int64]bool // v % 5
	}
	open := map[string][]*sess{}
	var closed []struct {
		k string
		x *sess
	}
	var wm int64
	hasWM := false
	maxT := int64(0)
	closedBy := func(end int64) bool { return hasWM && wm >= end+eqLateness }
	for _, b := range batches {
		for _, r := range b {
			// tumbling: one window
			ts := r.t - ((r.t%eqSize)+eqSize)%eqSize
			if closedBy(ts + eqSize) {
				late = append(late, r)
			} else {
				add(tumble, win{r.k, ts}, r)
			}
			// hopping: each window on its own
			for st := r.t - ((r.t%eqSlide)+eqSlide)%eqSlide; st > r.t-eqSize; st -= eqSlide {
				if !closedBy(st + eqSize) {
					add(hop, win{r.k, st}, r)
					if hopKeys[st] == nil {
						hopKeys[st] = map[string]bool{}
					}
					hopKeys[st][r.k] = true
				}
			}
			// session: late when its own window closed or it touches an
			// emitted session
			lo, hi := r.t, r.t+eqGap
			isLate := closedBy(hi)
			for _, c := range closed {
				if c.k == r.k && lo < c.x.end && c.x.start < hi {
					isLate = true
				}
			}
			if !isLate {
				merged := &sess{start: lo, end: hi, n: 1, s: r.v, d5: map[int64]bool{r.v % 5: true}}
				var keep []*sess
				for _, o := range open[r.k] {
					if o.start < merged.end && merged.start < o.end {
						merged.start, merged.end = min(merged.start, o.start), max(merged.end, o.end)
						merged.n += o.n
						merged.s += o.s
						for v := range o.d5 {
							merged.d5[v] = true
						}
					} else {
						keep = append(keep, o)
					}
				}
				open[r.k] = append(keep, merged)
			}
		}
		for _, r := range b {
			maxT = max(maxT, r.t)
		}
		if w := maxT - eqDelay; !hasWM || w > wm {
			wm, hasWM = w, true
		}
		for k, list := range open {
			var keep []*sess
			for _, o := range list {
				if closedBy(o.end) {
					closed = append(closed, struct {
						k string
						x *sess
					}{k, o})
				} else {
					keep = append(keep, o)
				}
			}
			open[k] = keep
		}
	}
	out := map[string][]string{}
	for w, a := range tumble {
		if closedBy(w.start + eqSize) {
			out["tumble_append"] = append(out["tumble_append"], fmt.Sprintf("%s,%s,%s,%d,%d,%d,%d", w.k, stamp(w.start), stamp(w.start+eqSize), a.n, a.s, a.lo, a.hi))
		}
		out["tumble_complete"] = append(out["tumble_complete"], fmt.Sprintf("%s,%s,%d,%d", w.k, stamp(w.start), a.n, a.s))
	}
	// the unwindowed aggregates: every row counts (no window closes)
	type kacc struct {
		n, s, lo, hi int64
		d3           map[int64]bool
	}
	keys := map[string]*kacc{}
	keysEven := map[string]*kacc{}
	for _, b := range batches {
		for _, r := range b {
			for _, m := range []struct {
				m map[string]*kacc
				k string
			}{{keys, r.k}, {keysEven, fmt.Sprintf("%s,%v", r.k, r.v%2 == 0)}} {
				a := m.m[m.k]
				if a == nil {
					a = &kacc{lo: r.v, hi: r.v, d3: map[int64]bool{}}
					m.m[m.k] = a
				}
				a.n++
				a.s += r.v
				a.lo, a.hi = min(a.lo, r.v), max(a.hi, r.v)
				a.d3[r.v%3] = true
			}
		}
	}
	for k, a := range keys {
		out["keys_update"] = append(out["keys_update"], fmt.Sprintf("%s,%d,%d,%d,%d", k, a.n, a.s, a.lo, len(a.d3)))
	}
	for k, a := range keysEven {
		out["keys_complete"] = append(out["keys_complete"], fmt.Sprintf("%s,%d,%d", k, a.n, a.hi))
	}
	for w, a := range tumble {
		if closedBy(w.start + eqSize) {
			out["tumble_distinct"] = append(out["tumble_distinct"], fmt.Sprintf("%s,%s,%d,%d", w.k, stamp(w.start), len(a.d7), a.n))
		}
	}
	for st, ks := range hopKeys {
		out["hop_distinct_update"] = append(out["hop_distinct_update"], fmt.Sprintf("%s,%d", stamp(st), len(ks)))
	}
	for _, r := range late {
		out["tumble_late"] = append(out["tumble_late"], fmt.Sprintf("%s,%d,%s", r.k, r.v, stamp(r.t)))
	}
	for w, a := range hop {
		out["hop_update"] = append(out["hop_update"], fmt.Sprintf("%s,%s,%d,%d", w.k, stamp(w.start), a.n, a.hi))
		if closedBy(w.start + eqSize) {
			out["hop_append"] = append(out["hop_append"], fmt.Sprintf("%s,%s,%d", w.k, stamp(w.start), a.n))
		}
	}
	for _, c := range closed {
		out["session_append"] = append(out["session_append"], fmt.Sprintf("%s,%s,%s,%d,%d", c.k, stamp(c.x.start), stamp(c.x.end), c.x.n, c.x.s))
		out["session_update"] = append(out["session_update"], fmt.Sprintf("%s,%s,%s,%d", c.k, stamp(c.x.start), stamp(c.x.end), c.x.n))
		out["session_distinct"] = append(out["session_distinct"], fmt.Sprintf("%s,%s,%s,%d", c.k, stamp(c.x.start), stamp(c.x.end), len(c.x.d5)))
	}
	for k, list := range open {
		for _, o := range list {
			out["session_update"] = append(out["session_update"], fmt.Sprintf("%s,%s,%s,%d", k, stamp(o.start), stamp(o.end), o.n))
		}
	}
	return out
}
