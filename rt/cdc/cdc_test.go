package cdc

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// change is one change row of the test feeds: key id, name, city, seq,
// delete. An empty name or city is NULL.
type change struct {
	id         int64
	name, city string
	seq        int64
	del        bool
}

func spec(scd int, ignoreNull bool, tracked []int) *Spec {
	fs := []arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "city", Type: arrow.BinaryTypes.String, Nullable: true},
	}
	if scd == 2 {
		fs = append(fs, arrow.Field{Name: StartColumn, Type: arrow.PrimitiveTypes.Int64, Nullable: true},
			arrow.Field{Name: EndColumn, Type: arrow.PrimitiveTypes.Int64, Nullable: true})
	}
	return &Spec{Target: arrow.NewSchema(fs, nil), Keys: []int{0}, Sequence: arrow.PrimitiveTypes.Int64,
		SCD: scd, IgnoreNullUpdates: ignoreNull, Tracked: tracked}
}

func batch(t *testing.T, sp *Spec, mem memory.Allocator, cs []change) arrow.RecordBatch {
	t.Helper()
	b := array.NewRecordBuilder(mem, sp.ChangeSchema())
	defer b.Release()
	for _, c := range cs {
		b.Field(0).(*array.Int64Builder).Append(c.id)
		for i, s := range []string{c.name, c.city} {
			if s == "" {
				b.Field(1 + i).AppendNull()
			} else {
				b.Field(1 + i).(*array.StringBuilder).Append(s)
			}
		}
		b.Field(3).(*array.Int64Builder).Append(c.seq)
		b.Field(4).(*array.BooleanBuilder).Append(c.del)
	}
	return b.NewRecordBatch()
}

// apply runs one apply over the state and the runs' changes, and returns
// the target as sorted lines and the new state.
func apply(t *testing.T, sp *Spec, mem memory.Allocator, state []byte, cs ...[]change) ([]string, *Result) {
	t.Helper()
	a, err := New(sp, mem)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	if state != nil {
		if err := a.LoadState(state); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cs {
		rec := batch(t, sp, mem, c)
		if err := a.Add(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	res, err := a.Apply(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer res.Target.Release()
	var lines []string
	for r := 0; r < int(res.Target.NumRows()); r++ {
		var f []string
		for c := 0; c < int(res.Target.NumCols()); c++ {
			col := res.Target.Column(c)
			if col.IsNull(r) {
				f = append(f, "-")
			} else {
				f = append(f, col.ValueStr(r))
			}
		}
		lines = append(lines, strings.Join(f, ","))
	}
	sort.Strings(lines)
	return lines, res
}

func check(t *testing.T, got []string, want ...string) {
	t.Helper()
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestSCD1OutOfOrderAndTombstones(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	sp := spec(1, false, nil)
	// run 1: key 1 updated out of order; key 2 inserted then deleted
	got, res := apply(t, sp, mem, nil, []change{
		{1, "b", "y", 2, false}, {1, "a", "x", 1, false}, {2, "c", "z", 1, false}, {2, "", "", 5, true},
	})
	check(t, got, "1,b,y")
	if res.Tombstones != 1 || res.LogRows != 2 {
		t.Errorf("tombstones %d, log rows %d; want 1 and 2", res.Tombstones, res.LogRows)
	}
	// run 2: a late insert of key 2 older than its delete stays deleted; a
	// late update of key 1 older than seq 2 loses; a newer one wins
	got, _ = apply(t, sp, mem, res.State, []change{
		{2, "old", "old", 3, false}, {1, "late", "late", 1, false}, {3, "n", "", 1, false},
	})
	check(t, got, "1,b,y", "3,n,-")
	got, _ = apply(t, sp, mem, res.State, []change{{2, "new", "new", 6, false}})
	check(t, got, "1,b,y", "2,new,new")
}

func TestSCD1IgnoreNullUpdatesLate(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	sp := spec(1, true, nil)
	got, res := apply(t, sp, mem, nil, []change{{1, "a1", "c1", 10, false}, {1, "", "c3", 30, false}})
	check(t, got, "1,a1,c3")
	// in sequence order: 10 (a1,c1), 20 (a2,NULL), 30 (NULL,c3) gives a2,c3
	got, res = apply(t, sp, mem, res.State, []change{{1, "a2", "", 20, false}})
	check(t, got, "1,a2,c3")
	// a late delete at 25 wipes what came before it: 30 inserts (NULL,c3)
	got, _ = apply(t, sp, mem, res.State, []change{{1, "", "", 25, true}})
	check(t, got, "1,-,c3")
}

func TestSCD2TrackHistorySubsetAndLateChanges(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	sp := spec(2, false, []int{1}) // history on name only
	got, res := apply(t, sp, mem, nil, []change{
		{1, "A", "X", 1, false}, {1, "A", "Y", 2, false}, {1, "B", "Y", 3, false}, {1, "", "", 5, true},
	})
	check(t, got, "1,A,Y,1,3", "1,B,Y,3,5")
	// a late change at 4 splits the version B [3,5)
	got, res = apply(t, sp, mem, res.State, []change{{1, "C", "Y", 4, false}})
	check(t, got, "1,A,Y,1,3", "1,B,Y,3,4", "1,C,Y,4,5")
	// after the delete, a new insert opens a new version
	got, _ = apply(t, sp, mem, res.State, []change{{1, "D", "Z", 7, false}, {2, "E", "Q", 1, false}})
	check(t, got, "1,A,Y,1,3", "1,B,Y,3,4", "1,C,Y,4,5", "1,D,Z,7,-", "2,E,Q,1,-")
}

// TestSplitEqualsWhole: applying a feed in several runs, shuffled, gives
// what applying it whole does.
func TestSplitEqualsWhole(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	for _, seed := range []uint64{1, 2, 3} {
		rng := rand.New(rand.NewPCG(seed, 0))
		var feed []change
		for i := 0; i < 300; i++ {
			c := change{id: rng.Int64N(20), seq: int64(i), del: rng.IntN(6) == 0}
			if rng.IntN(3) > 0 {
				c.name = fmt.Sprint("n", rng.IntN(3))
			}
			if rng.IntN(3) > 0 {
				c.city = fmt.Sprint("c", rng.IntN(3))
			}
			feed = append(feed, c)
		}
		for _, sp := range []*Spec{spec(1, false, nil), spec(1, true, nil), spec(2, false, nil), spec(2, true, []int{2})} {
			whole, _ := apply(t, sp, mem, nil, feed)
			shuffled := append([]change{}, feed...)
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			var state []byte
			var got []string
			for i := 0; i < len(shuffled); i += 70 {
				var res *Result
				got, res = apply(t, sp, mem, state, shuffled[i:min(i+70, len(shuffled))])
				state = res.State
			}
			if strings.Join(got, "\n") != strings.Join(whole, "\n") {
				t.Errorf("seed %d, scd %d ignore-null %v: split runs differ from the whole feed", seed, sp.SCD, sp.IgnoreNullUpdates)
			}
		}
	}
}

// BenchmarkApply applies 1M changes over 100k keys (SCD 1 with ignore null
// updates, and SCD 2): go test ./rt/cdc -run '^$' -bench Apply -benchtime 1x
func BenchmarkApply(b *testing.B) {
	mem := memory.DefaultAllocator
	rng := rand.New(rand.NewPCG(1, 2))
	var feed []change
	for i := 0; i < 1_000_000; i++ {
		feed = append(feed, change{id: rng.Int64N(100_000), name: fmt.Sprint("n", rng.IntN(4)), city: "c", seq: rng.Int64N(1 << 40), del: rng.IntN(10) == 0})
	}
	t := &testing.T{}
	for _, sp := range []*Spec{spec(1, true, nil), spec(2, false, []int{1})} {
		b.Run(fmt.Sprintf("scd%d", sp.SCD), func(b *testing.B) {
			rec := batch(t, sp, mem, feed)
			defer rec.Release()
			b.ResetTimer()
			for range b.N {
				a, _ := New(sp, mem)
				a.Add(rec)
				res, err := a.Apply(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(res.Target.NumRows()), "rows")
				b.ReportMetric(float64(len(res.State))/1e6, "stateMB")
				res.Target.Release()
				a.Release()
			}
		})
	}
}
