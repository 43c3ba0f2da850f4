package spill

import (
	"os"
	"testing"
)

// TestPartitions writes keys to one level's partitions and splits one
// partition again: every key is read back from exactly one partition, a
// key lands where its equal keys do, a level's partitions use other bits
// of the hash than the level before, and Pair drops empty pairs.
func TestPartitions(t *testing.T) {
	dir := t.TempDir()
	a := Open(dir)
	defer a.Close()
	create := func() (*Writer, error) { return a.Create("join at p.thund:3:5 (its build side)", nil) }
	build, err := NewPartitions(0, create)
	if err != nil {
		t.Fatal(err)
	}
	probe, err := NewPartitions(0, create)
	if err != nil {
		t.Fatal(err)
	}
	const keys = 4000
	for k := range keys {
		build.Of(Hash(int64(k))).PutInt64(int64(k))
		if k%2 == 0 { // the probe side has half the keys
			probe.Of(Hash(int64(k))).PutInt64(int64(k))
		}
	}
	parts, err := Pair(nil, build, probe)
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != Fanout {
		t.Fatalf("%d parts, want %d", len(parts), Fanout)
	}
	seen := map[int64]int{}
	read := func(f *File, each func(k int64)) {
		r, err := f.Reader()
		if err != nil {
			t.Fatal(err)
		}
		for r.More() {
			each(r.GetInt64())
		}
		if r.Err() != nil {
			t.Fatal(r.Err())
		}
	}
	for i, p := range parts {
		if p.Level != 1 {
			t.Fatalf("part %d at level %d, want 1", i, p.Level)
		}
		read(p.Build, func(k int64) { seen[k] = i + 1 })
		read(p.Probe, func(k int64) {
			if seen[k] != i+1 {
				t.Fatalf("probe key %d in part %d, its build row in part %d", k, i, seen[k]-1)
			}
		})
	}
	if len(seen) != keys {
		t.Fatalf("%d keys read back, want %d", len(seen), keys)
	}

	// the first part splits again at level 1: its keys spread over several
	// partitions (other bits), and the pairs with no rows are dropped
	first := parts[0]
	b2, _ := NewPartitions(first.Level, create)
	p2, _ := NewPartitions(first.Level, create)
	read(first.Build, func(k int64) { b2.Of(Hash(k)).PutInt64(k) })
	if err := first.Remove(); err != nil {
		t.Fatal(err)
	}
	again, err := Pair(nil, b2, p2)
	if err != nil {
		t.Fatal(err)
	}
	if len(again) < Fanout/2 {
		t.Fatalf("level 1 split %d parts of one level-0 part, want most of %d", len(again), Fanout)
	}
	for _, p := range again {
		if p.Build.Len() == 0 {
			t.Fatalf("a pair with no rows was kept")
		}
		p.Remove()
	}
	for _, p := range parts[1:] {
		p.Remove()
	}
	if _, err := NewPartitions(MaxLevel, create); err == nil {
		t.Fatalf("a partition level past MaxLevel was started")
	}
	a.Close()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left in the spill root: %v", ents)
	}
}
