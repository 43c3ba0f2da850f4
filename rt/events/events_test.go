package events

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nordisk/thund/rt/store"
)

func TestWriteListLoad(t *testing.T) {
	ctx := context.Background()
	fs, err := store.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	mk := func(runID string, fail bool) {
		l := NewLog("nexmark", runID)
		l.Now = func() time.Time { clock = clock.Add(time.Second); return clock }
		var seen []string
		l.Subscribe(func(e Event) { seen = append(seen, e.EventType) })
		l.Emit(Info, TypeRunStart, "", "", RunStart{Warehouse: "wh", Epoch: 1})
		l.Emit(Info, TypeFlowStart, "high_bids", "high_bids", FlowStart{Target: "high_bids"})
		l.Emit(Metrics, TypeExpectation, "high_bids", "high_bids", Expectation{Name: "positive", Action: "drop", Passed: 9, Failed: 1, Dropped: 1})
		if fail {
			l.Emit(Error, TypeError, "", "", ErrorDetails{Message: "boom", Kind: "data", File: "x.csv", Row: 3, Col: 2, Column: "price"})
			l.Emit(Error, TypeRunEnd, "", "", RunEnd{Status: "failed", Error: "boom"})
		} else {
			l.Emit(Info, TypeRunEnd, "", "", RunEnd{Status: "completed", Epoch: 1, RowsIn: 10, RowsOut: 9})
		}
		if err := l.Write(ctx, fs); err != nil {
			t.Fatal(err)
		}
		if err := l.Write(ctx, fs); err == nil {
			t.Error("second Write accepted")
		}
		if len(seen) != len(l.Events()) {
			t.Errorf("subscriber saw %v", seen)
		}
	}
	mk(NewRunID(clock), false)
	mk(NewRunID(clock.Add(time.Minute)), true)

	runs, err := ListRuns(ctx, fs)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].Status != "completed" || runs[0].Epoch != 1 || runs[1].Status != "failed" || runs[1].Error != "boom" || runs[0].Pipeline != "nexmark" {
		t.Fatalf("runs: %+v", runs)
	}
	if !runs[0].Start.Before(runs[1].Start) || runs[0].End.Sub(runs[0].Start) != 3*time.Second {
		t.Errorf("times: %+v", runs)
	}
	evs, err := LoadRun(ctx, fs, runs[1].RunID)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 5 || evs[3].Sequence != 4 || evs[3].Level != Error {
		t.Fatalf("events: %+v", evs)
	}
	var ed ErrorDetails
	if err := evs[3].Payload(&ed); err != nil || ed.Row != 3 || ed.Column != "price" {
		t.Errorf("payload: %+v %v", ed, err)
	}
	// The record shape, key by key.
	data, _, _ := fs.ReadFile(ctx, FileName(runs[1].RunID))
	first := strings.SplitN(string(data), "\n", 2)[0]
	var m map[string]json.RawMessage
	json.Unmarshal([]byte(first), &m)
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	if len(keys) != 7 {
		t.Errorf("keys %v", keys)
	}
	for _, k := range []string{"id", "sequence", "timestamp", "level", "event_type", "origin", "details"} {
		if _, ok := m[k]; !ok {
			t.Errorf("record lacks %q: %s", k, first)
		}
	}
	if !strings.Contains(first, `"origin":{"pipeline":"nexmark","dataset":"","flow":"","run_id":"`+runs[1].RunID+`"}`) ||
		!strings.Contains(first, `"details":{"run_start":{"warehouse":"wh","epoch":1,`) ||
		!strings.Contains(first, `"timestamp":"2026-03-04T05:06:12.000000Z"`) {
		t.Errorf("first record: %s", first)
	}
	// Written once: the name is taken.
	if err := fs.CreateIfAbsent(ctx, FileName(runs[1].RunID), nil); !errors.Is(err, store.ErrExist) {
		t.Errorf("log not there? %v", err)
	}
	if len(runs[0].RunID) != len("20060102T150405.000000000Z-0123abcd") {
		t.Errorf("run id %q", runs[0].RunID)
	}
}

// TestRunIDsSortByStart: ids of runs started within one second sort by start
// time (vacuum and history rely on it), whatever their random parts.
func TestRunIDsSortByStart(t *testing.T) {
	start := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	for i := 0; i < 200; i++ {
		a := NewRunID(start.Add(time.Duration(i) * time.Millisecond))
		b := NewRunID(start.Add(time.Duration(i+1) * time.Millisecond))
		if !(a < b) {
			t.Fatalf("%s does not sort before %s", a, b)
		}
	}
}
