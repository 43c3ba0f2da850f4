package spill

import (
	"cmp"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

type mergeRow struct {
	key int64
	seq int64 // input position: ties must come out in input order
	s   string
}

// TestMerge sorts rows in runs of random sizes, the last kept in memory,
// and checks the merge gives what one stable sort of all rows gives, and
// that the runs' files are gone once read; with a fan-in of 3 the runs are
// merged on the way as well.
func TestMerge(t *testing.T) {
	for _, fanIn := range []int{MaxFanIn, 3} {
		testMerge(t, fanIn)
	}
}

func testMerge(t *testing.T, fanIn int) {
	dir := t.TempDir()
	a := Open(dir)
	defer a.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	var all []mergeRow
	for i := range 5000 {
		all = append(all, mergeRow{key: rng.Int64N(50), seq: int64(i), s: string(rune('a' + i%26))})
	}
	byKey := func(a, b *mergeRow) int { return cmp.Compare(a.key, b.key) }
	runs := NewRuns(byKey,
		func(w *Writer, r *mergeRow) { w.PutInt64(r.key); w.PutInt64(r.seq); w.PutString(r.s) },
		func(rd *Reader, r *mergeRow) { r.key, r.seq, r.s = rd.GetInt64(), rd.GetInt64(), rd.GetString() },
		func() (*Writer, error) { return a.Create("order by at t:1:1", nil) })
	runs.fanIn = fanIn
	rest := all
	written := 0
	for len(rest) > 700 {
		n := 1 + rng.IntN(700)
		if err := runs.Write(rest[:n]); err != nil {
			t.Fatal(err)
		}
		written++
		rest = rest[n:]
	}
	if written < 5 || runs.Len() > fanIn {
		t.Fatalf("fan-in %d: %d runs written, %d left", fanIn, written, runs.Len())
	}
	idx := make([]int32, len(rest))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(x, y int32) int { return byKey(&rest[x], &rest[y]) })
	m, err := runs.Merge(rest, idx)
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(all)
	slices.SortStableFunc(want, func(a, b mergeRow) int { return byKey(&a, &b) })
	var got []mergeRow
	for {
		b, ord, err := m.Batch(333)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) == 0 {
			break
		}
		for _, k := range ord {
			got = append(got, b[k])
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("merged %d rows, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
	}
	ents, _ := os.ReadDir(a.dir)
	for _, e := range ents {
		if e.Name() != lockName {
			t.Errorf("left after the merge: %s", e.Name())
		}
	}
}

func firstDiff(a, b []mergeRow) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
