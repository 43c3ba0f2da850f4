package kernel

import (
	"cmp"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/nordisk/thund/rt/format"
)

func TestBatchRows(t *testing.T) {
	if BatchRows != format.DefaultBatchRows {
		t.Errorf("BatchRows = %d, rt/format's DefaultBatchRows = %d: a flow emits the batches it reads", BatchRows, format.DefaultBatchRows)
	}
}

func TestGrowOutput(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}, {Name: "s", Type: arrow.BinaryTypes.String}}, nil)
	ob := array.NewRecordBuilder(memory.NewGoAllocator(), schema)
	defer ob.Release()
	n, s := ob.Field(0).(*array.Int64Builder), ob.Field(1).(*array.StringBuilder)
	var got []int
	for c := 0; len(got) < 9; {
		// generated code grows the builders when they hold c rows
		c = GrowOutput(ob, c)
		got = append(got, c)
		for i, f := range ob.Fields() {
			if f.Cap() < c {
				t.Fatalf("after GrowOutput to %d, builder %d holds room for %d rows", c, i, f.Cap())
			}
		}
		for n.Len() < c {
			n.UnsafeAppend(1)
			s.Append("x")
		}
	}
	want := []int{1024, 2048, 4096, 8192, 16384, 32768, 65536, BatchRows, BatchRows}
	if !slices.Equal(got, want) {
		t.Errorf("capacities %v, want %v (doubling from 1024, never past BatchRows)", got, want)
	}
	ob.NewRecordBatch().Release()
	if c := GrowOutput(ob, 40000); c != BatchRows {
		t.Errorf("GrowOutput(40000) = %d, want BatchRows", c)
	}
}

func TestAppendZero(t *testing.T) {
	type row struct {
		k int64
		s string
	}
	var rows []row
	for i := range 200 {
		before := cap(rows)
		rows = AppendZero(rows)
		if len(rows) != i+1 || rows[i] != (row{}) {
			t.Fatalf("AppendZero: len %d, last %v; want len %d and a zero row", len(rows), rows[i], i+1)
		}
		switch {
		case i == 0 && cap(rows) != 64:
			t.Fatalf("first capacity %d, want 64", cap(rows))
		case before == i && i > 0 && cap(rows) != 2*before:
			t.Fatalf("capacity %d grew to %d, want it doubled", before, cap(rows))
		case before > i && cap(rows) != before:
			t.Fatalf("capacity %d changed to %d with room left", before, cap(rows))
		}
		rows[i] = row{int64(i), "x"}
	}
	for i, r := range rows {
		if r.k != int64(i) {
			t.Fatalf("row %d = %v after growing: rows were not kept", i, r)
		}
	}
	// With room left it extends in place.
	s := make([]int, 1, 4)
	if t2 := AppendZero(s); &t2[0] != &s[0] || len(t2) != 2 {
		t.Error("AppendZero with room left copied the slice")
	}
}

// pair is a sort row: ordered by k, v tells ties apart.
type pair struct{ k, v int }

func byK(a, b *pair) int { return cmp.Compare(a.k, b.k) }

func TestSortIndex(t *testing.T) {
	rows := []pair{{3, 0}, {1, 1}, {2, 2}, {1, 3}, {3, 4}, {1, 5}}
	if got, want := SortIndex(rows, byK), []int32{1, 3, 5, 2, 0, 4}; !slices.Equal(got, want) {
		t.Errorf("SortIndex = %v, want %v (ties in their original order)", got, want)
	}
	if got := SortIndex([]pair{}, byK); len(got) != 0 {
		t.Errorf("SortIndex of no rows = %v", got)
	}
	if !slices.Equal(rows, []pair{{3, 0}, {1, 1}, {2, 2}, {1, 3}, {3, 4}, {1, 5}}) {
		t.Errorf("SortIndex moved the rows: %v", rows)
	}
}

func TestTopK(t *testing.T) {
	rows := []pair{{3, 0}, {1, 1}, {2, 2}, {1, 3}, {3, 4}, {1, 5}}
	tests := []struct {
		k    int
		want []pair
	}{
		{0, []pair{}},
		{1, []pair{{1, 1}}},
		{2, []pair{{1, 1}, {1, 3}}},
		{4, []pair{{1, 1}, {1, 3}, {1, 5}, {2, 2}}},
		{6, []pair{{1, 1}, {1, 3}, {1, 5}, {2, 2}, {3, 0}, {3, 4}}},
		{100, []pair{{1, 1}, {1, 3}, {1, 5}, {2, 2}, {3, 0}, {3, 4}}},
	}
	for _, tt := range tests {
		if got := TopK(rows, tt.k, byK); !slices.Equal(got, tt.want) {
			t.Errorf("TopK(%d) = %v, want %v", tt.k, got, tt.want)
		}
	}
	if got := TopK([]pair(nil), 3, byK); len(got) != 0 {
		t.Errorf("TopK of no rows = %v", got)
	}
}

// TestChains builds a join's table and chains as generated code does
// (codegen/join.go) and probes every key.
func TestChains(t *testing.T) {
	keys := []string{"x", "y", "x", "z", "x", "y"}
	table := map[string]int32{}
	var next []int32
	for i, k := range keys {
		b, found := table[k]
		if !found {
			b = -1
			table[k] = int32(i)
		} else {
			b &^= ChainMore
			table[k] = int32(i) | ChainMore
		}
		next = append(next, b)
	}
	probe := func(k string, next []int32) []int32 {
		var rows []int32
		b := table[k]
		for j := b &^ ChainMore; j >= 0; j = ChainNext(next, j, b) {
			rows = append(rows, j)
		}
		return rows
	}
	for k, want := range map[string][]int32{"x": {4, 2, 0}, "y": {5, 1}, "z": {3}} {
		if got := probe(k, next); !slices.Equal(got, want) {
			t.Errorf("key %s: build rows %v, want %v (the latest first)", k, got, want)
		}
	}
	// A key with one row is marked by the absence of ChainMore and never
	// reads next: probing it with no chains at all must not index them.
	if got := probe("z", nil); !slices.Equal(got, []int32{3}) {
		t.Errorf("key z without chains: %v", got)
	}
	if table["z"]&ChainMore != 0 || table["x"]&ChainMore == 0 {
		t.Errorf("marks: z %#x, x %#x; want ChainMore on x only", table["z"], table["x"])
	}
}
