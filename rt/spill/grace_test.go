package spill

import (
	"slices"
	"testing"
)

// TestGrace spills keys (their own hashes) at level 0, reads each
// partition back and spills it whole again, level after level: each
// partition holds only keys whose level's hash bits pick it, every key
// comes back once per level, the files are removed as they are read, and
// past MaxLevel Writer refuses (NewPartitions does).
func TestGrace(t *testing.T) {
	a := Open(t.TempDir())
	defer a.Close()
	g := NewGrace(func(level int) (*Partitions, error) {
		return NewPartitions(level, func() (*Writer, error) { return a.Create("group by", nil) })
	})
	keys := make([]uint64, 500)
	for i := range keys {
		keys[i] = uint64(i) * 0x9e3779b97f4a7c15
		w, err := g.Writer(keys[i])
		if err != nil {
			t.Fatal(err)
		}
		w.PutUint64(keys[i])
	}
	seen := map[int][]uint64{} // level of the partition read → its keys
	for {
		r, more, err := g.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			break
		}
		var part []uint64
		for r.More() {
			part = append(part, r.GetUint64())
		}
		if r.Err() != nil {
			t.Fatal(r.Err())
		}
		bits := func(k uint64, l int) uint64 { return k >> (FanoutBits * l) & (Fanout - 1) }
		for _, k := range part {
			// every level so far picked the same partition for all of them
			for l := range g.level {
				if bits(k, l) != bits(part[0], l) {
					t.Fatalf("a level %d partition holds keys %x and %x of different partitions at level %d", g.level, part[0], k, l)
				}
			}
		}
		seen[g.level] = append(seen[g.level], part...)
		if g.level == 2 {
			continue // done: not spilled again
		}
		for _, k := range part { // the partition does not fit: all of it again
			w, err := g.Writer(k)
			if err != nil {
				t.Fatal(err)
			}
			w.PutUint64(k)
		}
	}
	for l := 1; l <= 2; l++ {
		got := slices.Clone(seen[l])
		slices.Sort(got)
		want := slices.Clone(keys)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("level %d read back %d keys, want the %d spilled", l, len(got), len(want))
		}
	}
	if n := entries(t, a.dir); n != 1 { // the lock file
		t.Fatalf("%d entries left in the area's folder, want only its lock", n)
	}
	g.level = MaxLevel
	if _, err := g.Writer(1); err == nil {
		t.Fatal("past MaxLevel: no error")
	}
}
