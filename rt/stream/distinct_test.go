package stream

import (
	"testing"

	"github.com/nordisk/thund/rt/pqstate"
)

// TestDistinctSnapshot: a Distinct survives a snapshot (its index is not
// stored, and is rebuilt), and merging counts each value once.
func TestDistinctSnapshot(t *testing.T) {
	type acc struct {
		N Distinct[string]
		M int64
	}
	var a acc
	for _, v := range []string{"x", "y", "x", "z", "y"} {
		a.N.Add(v)
	}
	a.M = 7
	data, err := pqstate.Marshal(&a)
	if err != nil {
		t.Fatal(err)
	}
	var b acc
	if err := pqstate.Unmarshal(data, &b); err != nil {
		t.Fatal(err)
	}
	if b.N.Len() != 3 || b.M != 7 {
		t.Fatalf("restored %+v, want 3 distinct values and M 7", b)
	}
	if b.N.Add("x") || !b.N.Add("w") || b.N.Len() != 4 {
		t.Fatalf("after restore, the index does not hold the stored values: %v", b.N.Items)
	}
	var c Distinct[string]
	c.Add("w")
	c.Add("v")
	c.Merge(&b.N)
	if c.Len() != 5 {
		t.Fatalf("merged %v, want 5 values", c.Items)
	}
}
