package stream

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
)

func TestSpecAssignTable(t *testing.T) {
	for _, tc := range []struct {
		spec Spec
		t    int64
		want []Window
	}{
		{Spec{Kind: Tumbling, Size: 10}, 0, []Window{{0, 10}}},
		{Spec{Kind: Tumbling, Size: 10}, 9, []Window{{0, 10}}},
		{Spec{Kind: Tumbling, Size: 10}, 10, []Window{{10, 20}}},
		{Spec{Kind: Tumbling, Size: 10}, -1, []Window{{-10, 0}}},
		{Spec{Kind: Tumbling, Size: 10}, -10, []Window{{-10, 0}}},
		{Spec{Kind: Hopping, Size: 10, Slide: 5}, 7, []Window{{5, 15}, {0, 10}}},
		{Spec{Kind: Hopping, Size: 10, Slide: 5}, 5, []Window{{5, 15}, {0, 10}}},
		{Spec{Kind: Hopping, Size: 10, Slide: 10}, 5, []Window{{0, 10}}},
		{Spec{Kind: Hopping, Size: 10, Slide: 3}, 4, []Window{{3, 13}, {0, 10}, {-3, 7}}},
		{Spec{Kind: Hopping, Size: 10, Slide: 3}, -4, []Window{{-6, 4}, {-9, 1}, {-12, -2}}},
		{Spec{Kind: Tumbling, Size: 10}, math.MaxInt64, []Window{{math.MaxInt64 - 7, math.MaxInt64}}},
	} {
		got := tc.spec.Assign(nil, tc.t)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%v size %d slide %d, t=%d: got %v, want %v", tc.spec.Kind, tc.spec.Size, tc.spec.Slide, tc.t, got, tc.want)
		}
	}
}

func TestSpecValidate(t *testing.T) {
	for _, s := range []Spec{
		{Kind: Tumbling},
		{Kind: Hopping, Size: 10, Slide: 11},
		{Kind: Hopping, Size: 10},
		{Kind: Session},
		{Kind: Tumbling, Size: 1, AllowedLateness: -1},
		{},
	} {
		if s.Validate() == nil {
			t.Errorf("%+v accepted", s)
		}
	}
	if _, err := NewState[int, Count](Spec{Kind: Session, Gap: 1}, Append, nil); err == nil {
		t.Error("session state without merge accepted")
	}
}

type cnt struct{ c Count }

func mergeCnt(d, s *cnt) error { d.c.Merge(&s.c); return nil }

// TestWindowCloseBoundary: a window closes exactly when WM >= end + allowed
// lateness; a row for it is on time one tick before and late at that point.
func TestWindowCloseBoundary(t *testing.T) {
	st, _ := NewState[string, cnt](Spec{Kind: Tumbling, Size: 10, AllowedLateness: 5}, Append, nil)
	add := func(k string, ts int64) int {
		accs, late, _ := st.Assign(k, ts)
		for _, a := range accs {
			a.c.Add()
		}
		return late
	}
	add("a", 3)
	add("b", 4)
	if em := st.Advance(14, true); len(em.Final) != 0 {
		t.Fatalf("closed at WM 14 < 10+5: %+v", em.Final)
	}
	if late := add("a", 9); late != 0 {
		t.Fatal("row late before its window closed")
	}
	em := st.Advance(15, true)
	if len(em.Final) != 2 || em.Final[0].Key != "a" || em.Final[0].Acc.c.N != 2 || em.Final[1].Acc.c.N != 1 {
		t.Fatalf("at WM 15: %+v", em.Final)
	}
	if late := add("a", 0); late != 1 {
		t.Fatal("row for a closed window not late")
	}
	if em := st.Advance(10, true); em.WM != 15 {
		t.Fatalf("watermark went back to %d", em.WM)
	}
	s := st.Stats()
	if s.Rows != 4 || s.LateRows != 1 || s.Open != 0 || s.Evicted != 2 {
		t.Fatalf("stats %+v", s)
	}
}

func TestSessionMergeAndUpdateDeletes(t *testing.T) {
	st, _ := NewState[int, cnt](Spec{Kind: Session, Gap: 10}, Update, mergeCnt)
	add := func(ts int64) {
		accs, late, err := st.Assign(1, ts)
		if err != nil || late != 0 {
			t.Fatalf("t=%d: late %d err %v", ts, late, err)
		}
		accs[0].c.Add()
	}
	add(0)  // [0,10)
	add(30) // [30,40)
	em := st.Advance(0, false)
	if len(em.Changes) != 2 {
		t.Fatalf("first batch changes %+v", em.Changes)
	}
	add(15) // [15,25): touches neither ([0,10) ends at 10, [30,40) starts at 30)
	add(22) // [22,32) bridges [15,25) and [30,40) into [15,40)
	add(5)  // extends [0,10) to [0,15): [5,15) and [15,..) do not overlap
	em = st.Advance(0, false)
	var got []string
	for _, c := range em.Changes {
		got = append(got, fmt.Sprintf("%v%v:%d", c.Kind, c.Window, c.Acc.c.N))
	}
	want := "[delete{30 40}:0 delete{0 10}:0 upsert{15 40}:3 upsert{0 15}:2]"
	if fmt.Sprint(got) != want {
		t.Fatalf("changes %v, want %v", got, want)
	}
}

// TestSessionGhost: a row whose own window [t, t+gap) is still open but that
// overlaps a session already emitted is late (it would reopen that output).
func TestSessionGhost(t *testing.T) {
	st, _ := NewState[int, cnt](Spec{Kind: Session, Gap: 10, AllowedLateness: 0}, Append, mergeCnt)
	accs, _, _ := st.Assign(1, 0) // [0,10)
	accs[0].c.Add()
	if em := st.Advance(10, true); len(em.Final) != 1 {
		t.Fatalf("session not closed: %+v", em)
	}
	if _, late, _ := st.Assign(1, 5); late != 1 {
		t.Fatal("row overlapping an emitted session accepted")
	}
	if _, late, _ := st.Assign(2, 5); late != 0 {
		t.Fatal("another key's row is not affected")
	}
	if _, late, _ := st.Assign(1, 10); late != 0 {
		t.Fatal("a row starting at the emitted session's end is a new session")
	}
	st.Advance(20, true) // ghost of [0,10) expires at 10+10+0
	for _, g := range st.keys[1].ghosts {
		if g == (Window{0, 10}) {
			t.Fatalf("ghost kept past its expiry: %+v", st.keys[1].ghosts)
		}
	}
	if _, late, _ := st.Assign(1, 5); late != 1 {
		t.Fatal("after the ghost expired, [5,15) has closed by its own end")
	}
}

type sumAcc struct{ s SumInt64 }

func TestSessionMergeOverflow(t *testing.T) {
	st, _ := NewState[int, sumAcc](Spec{Kind: Session, Gap: 10}, Append, func(d, s *sumAcc) error { return d.s.Merge(&s.s) })
	a, _, _ := st.Assign(1, 0)
	a[0].s.Add(math.MaxInt64)
	a, _, _ = st.Assign(1, 15)
	a[0].s.Add(1)
	if _, _, err := st.Assign(1, 9); !errors.Is(err, ErrOverflow) {
		t.Fatalf("merge overflow: %v", err)
	}
}

func TestAccumulators(t *testing.T) {
	var s SumInt64
	if err := s.Add(math.MaxInt64); err != nil {
		t.Fatal(err)
	}
	if err := s.Add(1); !errors.Is(err, ErrOverflow) || s.S != math.MaxInt64 {
		t.Fatalf("overflow: %v, sum %d", err, s.S)
	}
	var n SumInt64
	n.Add(math.MinInt64)
	if err := n.Add(-1); !errors.Is(err, ErrOverflow) {
		t.Fatal("negative overflow not reported")
	}
	var mn Min[float64]
	var mx Max[float64]
	for _, v := range []float64{3, math.NaN(), -1, math.Inf(1)} {
		mn.Add(v)
		mx.Add(v)
	}
	if mn.V != -1 || !math.IsNaN(mx.V) {
		t.Fatalf("min %v max %v: Spark orders NaN above +Inf", mn.V, mx.V)
	}
	var a Avg
	if _, ok := a.Result(); ok {
		t.Fatal("avg of nothing is not NULL")
	}
	a.Add(1)
	a.Add(2)
	b := Avg{Sum: 3, N: 1}
	a.Merge(&b)
	if r, _ := a.Result(); r != 2 {
		t.Fatalf("avg %v", r)
	}
	var ms Min[string]
	ms.Merge(&Min[string]{V: "b", Valid: true})
	ms.Merge(&Min[string]{})
	ms.Merge(&Min[string]{V: "a", Valid: true})
	if ms.V != "a" {
		t.Fatalf("min string %q", ms.V)
	}
}

type jsonKey struct {
	Auction int64
	Channel string
}

type jsonAcc struct {
	Bids  Count
	Spent SumInt64
	Top   Max[int64]
	Avg   Avg
}

func mergeJSON(d, s *jsonAcc) error {
	d.Bids.Merge(&s.Bids)
	d.Top.Merge(&s.Top)
	d.Avg.Merge(&s.Avg)
	return d.Spent.Merge(&s.Spent)
}

// TestSnapshotJSON: a snapshot of a state with struct keys and accumulator
// structs survives JSON, and the restored state emits what the original
// would have.
func TestSnapshotJSON(t *testing.T) {
	for _, spec := range []Spec{{Kind: Hopping, Size: 10, Slide: 5, AllowedLateness: 2}, {Kind: Session, Gap: 4}} {
		for _, mode := range []Mode{Append, Update, Complete} {
			mk := func() *State[jsonKey, jsonAcc] {
				st, err := NewState[jsonKey, jsonAcc](spec, mode, mergeJSON)
				if err != nil {
					t.Fatal(err)
				}
				return st
			}
			feed := func(st *State[jsonKey, jsonAcc], from, to int64) {
				for ts := from; ts < to; ts++ {
					accs, _, _ := st.Assign(jsonKey{ts % 3, fmt.Sprint("c", ts%2)}, ts*2)
					for _, a := range accs {
						a.Bids.Add()
						a.Spent.Add(ts)
						a.Top.Add(ts)
						a.Avg.Add(float64(ts))
					}
				}
			}
			a, b := mk(), mk()
			feed(a, 0, 20)
			a.Advance(25, true)
			data, err := json.Marshal(a.Snapshot())
			if err != nil {
				t.Fatal(err)
			}
			var snap Snapshot[jsonKey, jsonAcc]
			if err := json.Unmarshal(data, &snap); err != nil {
				t.Fatal(err)
			}
			if err := b.Restore(snap); err != nil {
				t.Fatal(err)
			}
			feed(a, 20, 40)
			feed(b, 20, 40)
			ea, eb := a.Advance(60, true), b.Advance(60, true)
			fa, fb := a.Flush(), b.Flush()
			if fmt.Sprint(ea, fa) != fmt.Sprint(eb, fb) || a.Stats() != b.Stats() {
				t.Fatalf("%v/%v: restored state differs:\n%v\n%v", spec.Kind, mode, ea, eb)
			}
			if err := b.Restore(snap); err == nil {
				t.Fatal("restore into a used state accepted")
			}
		}
	}
	bad, _ := NewState[int, cnt](Spec{Kind: Tumbling, Size: 10}, Append, nil)
	if err := bad.Restore(Snapshot[int, cnt]{Open: []SnapshotEntry[int, cnt]{{Key: 1, Window: Window{3, 13}}}}); err == nil {
		t.Fatal("a misaligned window restored")
	}
}

// TestSessionSparkBoundary replays, in microseconds, session windows (gap
// 5s, delay 2s, append mode) run on Spark 4.1.4: the rows at 4.9995s, 5s,
// 5.0005s (one key each) and 12.0009s make the watermark 10.000s, the
// millisecond-floored 12.0009s less the delay; the sessions ending at
// 9.9995s and 10s are emitted, the one ending at 10.0005s stays open.
func TestSessionSparkBoundary(t *testing.T) {
	const s = 1_000_000
	st, err := NewState[string, int](Spec{Kind: Session, Gap: 5 * s, Grain: 1_000}, Append, func(dst, src *int) error { *dst += *src; return nil })
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]int64{"q": 5*s - 500, "r": 5 * s, "p": 5*s + 500, "m": 12*s + 900}
	for k, ts := range rows {
		accs, _, err := st.Assign(k, ts)
		if err != nil || len(accs) != 1 {
			t.Fatalf("Assign(%s, %d): %d windows, %v", k, ts, len(accs), err)
		}
		*accs[0]++
	}
	var got []string
	for _, r := range st.Advance(rows["m"]-2*s, true).Final {
		got = append(got, fmt.Sprintf("%s[%d,%d)", r.Key, r.Window.Start, r.Window.End))
	}
	slices.Sort(got)
	if want := []string{"q[4999500,9999500)", "r[5000000,10000000)"}; !slices.Equal(got, want) {
		t.Fatalf("emitted %v, want %v", got, want)
	}
}
