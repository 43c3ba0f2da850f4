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
// that the runs' files are gone once read.
func TestMerge(t *testing.T) {
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
		func(rd *Reader, r *mergeRow) { r.key, r.seq, r.s = rd.GetInt64(), rd.GetInt64(), rd.GetString() })
	rest := all
	for len(rest) > 700 {
		n := 1 + rng.IntN(700)
		w, err := a.Create("order by at t:1:1", nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := runs.Write(w, rest[:n]); err != nil {
			t.Fatal(err)
		}
		rest = rest[n:]
	}
	if runs.Len() < 3 {
		t.Fatalf("%d runs", runs.Len())
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
