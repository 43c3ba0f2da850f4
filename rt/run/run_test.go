package run

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/warehouse"
)

var bids = arrow.NewSchema([]arrow.Field{
	{Name: "auction", Type: arrow.PrimitiveTypes.Int64},
	{Name: "price", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

type env struct {
	root string
	fs   *store.Local
	now  time.Time
	seq  int
}

func newEnv(t *testing.T) *env {
	t.Helper()
	root := t.TempDir()
	fs, err := store.NewLocal(filepath.Join(root, "warehouse"))
	if err != nil {
		t.Fatal(err)
	}
	return &env{root: root, fs: fs, now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (e *env) source(t *testing.T, name, text string) {
	t.Helper()
	p := filepath.Join(e.root, "data", name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (e *env) config() Config {
	e.seq++
	return Config{Pipeline: "nexmark", Warehouse: e.fs, Root: e.root, Lease: time.Minute,
		RunID: "20260102T030405Z-run" + string(rune('0'+e.seq)),
		Now:   func() time.Time { e.now = e.now.Add(250 * time.Millisecond); return e.now }}
}

// pipeline is what generated code would do for
//
//	materialized view high_bids = from bids | where price > 10
//	  expect positive: price >= 0 on violation <action>
func pipeline(action Action) func(ctx context.Context, r *Run) error {
	return func(ctx context.Context, r *Run) error {
		f := r.Flow("high_bids", "high_bids")
		f.Start()
		exp := f.Expect("positive", action)
		src, err := r.Source([]string{"data/*.csv"}, format.CSV, bids, format.Options{})
		if err != nil {
			return f.End(err)
		}
		defer src.Close()
		w, err := r.Write(ctx, "high_bids", bids, warehouse.WriteOptions{})
		if err != nil {
			return err
		}
		for {
			rec, err := src.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				w.Abort()
				f.End(err)
				return err
			}
			f.AddIn(rec.NumRows())
			b := array.NewRecordBuilder(memory.DefaultAllocator, bids)
			price := rec.Column(1).(*array.Int64)
			var passed, failed int64
			for i := 0; i < int(rec.NumRows()); i++ {
				ok := price.IsNull(i) || price.Value(i) >= 0
				if ok {
					passed++
				} else {
					failed++
				}
				if (!ok && action == Drop) || price.IsNull(i) || price.Value(i) <= 10 {
					continue
				}
				b.Field(0).(*array.Int64Builder).Append(rec.Column(0).(*array.Int64).Value(i))
				b.Field(1).(*array.Int64Builder).Append(price.Value(i))
			}
			exp.Add(passed, failed)
			out := b.NewRecordBatch()
			b.Release()
			rec.Release()
			f.AddOut(out.NumRows())
			err = w.Write(out)
			out.Release()
			if err != nil {
				return err
			}
		}
		if err := w.Close(); err != nil {
			return err
		}
		return f.End(nil)
	}
}

func readAll(t *testing.T, e *env, name string, version int64) string {
	t.Helper()
	r, _, err := warehouse.New(e.fs).ReadDataset(context.Background(), name, version, format.Options{})
	if err != nil {
		return "error: " + err.Error()
	}
	recs, err := format.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, _ := format.NewWriter(&buf, format.CSV, bids, format.WriteOptions{})
	for _, rec := range recs {
		w.Write(rec)
		rec.Release()
	}
	w.Close()
	return buf.String()
}

func eventTypes(t *testing.T, e *env, runID string) string {
	t.Helper()
	evs, err := events.LoadRun(context.Background(), e.fs, runID)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ev := range evs {
		s := ev.EventType
		if ev.Origin.Flow != "" {
			s += "(" + ev.Origin.Flow + ")"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestRunCommitAndFailures(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.source(t, "a.csv", "auction,price\n1,5\n2,50\n3,-1\n4,\n")

	// A good run.
	r, err := Execute(ctx, e.config(), pipeline(Drop))
	if err != nil {
		t.Fatal(err)
	}
	var sum bytes.Buffer
	r.Summary.Print(&sum)
	wantSum := `run 20260102T030405Z-run1 of nexmark: completed in D, committed epoch 1
  flow high_bids: 4 rows in, 1 rows out
    expect positive (drop): 3 passed, 1 dropped
`
	if got := regexp.MustCompile(`in [0-9.]+m?s,`).ReplaceAllString(sum.String(), "in D,"); got != wantSum {
		t.Errorf("summary:\n%s\nwant:\n%s", sum.String(), wantSum)
	}
	if got := readAll(t, e, "high_bids", 0); got != "auction,price\n2,50\n" {
		t.Errorf("committed: %q", got)
	}
	if got := eventTypes(t, e, r.ID); got != "run_start flow_start(high_bids) rows(high_bids) expectation(high_bids) flow_end(high_bids) checkpoint_committed run_end" {
		t.Errorf("events: %s", got)
	}

	// A failing expectation: exit 1, nothing committed, version 1 intact.
	e.source(t, "b.csv", "auction,price\n5,100\n")
	r, err = Execute(ctx, e.config(), pipeline(Fail))
	var ee *ExpectationError
	if !errors.As(err, &ee) || err.Error() != "expectation positive on dataset high_bids failed: 1 row violated it (on violation fail)" || ExitCode(err) != 1 {
		t.Fatalf("fail expectation: %v", err)
	}
	if got := readAll(t, e, "high_bids", 0); got != "auction,price\n2,50\n" {
		t.Errorf("after failed run: %q", got)
	}
	sum.Reset()
	r.Summary.Print(&sum)
	if !strings.Contains(sum.String(), "FAILED after") || !strings.Contains(sum.String(), "expect positive (fail): 4 passed, 1 failed") {
		t.Errorf("summary: %s", sum.String())
	}
	if got := eventTypes(t, e, r.ID); !strings.HasSuffix(got, "expectation(high_bids) flow_end(high_bids) error run_end") {
		t.Errorf("events: %s", got)
	}

	// Bad input: the error names file, row and column; nothing committed.
	e.source(t, "c.csv", "auction,price\n6,12x\n")
	r, err = Execute(ctx, e.config(), pipeline(Drop))
	var de *format.DataError
	if !errors.As(err, &de) || err.Error() != `data/c.csv:2:2: column price: want int64, got "12x"` {
		t.Fatalf("bad input: %v", err)
	}
	evs, _ := events.LoadRun(ctx, e.fs, r.ID)
	var ed events.ErrorDetails
	for _, ev := range evs {
		if ev.EventType == events.TypeError {
			ev.Payload(&ed)
		}
	}
	if ed.Kind != "data" || ed.File != "data/c.csv" || ed.Row != 2 || ed.Col != 2 || ed.Column != "price" {
		t.Errorf("error event: %+v", ed)
	}
	os.Remove(filepath.Join(e.root, "data", "c.csv"))

	// A panic in generated code fails the run and frees the lock.
	_, err = Execute(ctx, e.config(), func(ctx context.Context, r *Run) error {
		w, _ := r.Write(ctx, "high_bids", bids, warehouse.WriteOptions{})
		_ = w
		var m map[string]int
		m["boom"]++
		return nil
	})
	if err == nil || !strings.HasPrefix(err.Error(), "internal error: assignment to entry in nil map") {
		t.Fatalf("panic: %v", err)
	}

	// The next good run commits epoch 2 (version 2); version 1 stays readable.
	r, err = Execute(ctx, e.config(), pipeline(Drop))
	if err != nil {
		t.Fatal(err)
	}
	if r.Summary.Epoch != 2 || readAll(t, e, "high_bids", 2) != "auction,price\n2,50\n5,100\n" || readAll(t, e, "high_bids", 1) != "auction,price\n2,50\n" {
		t.Errorf("epoch %d; v2 %q; v1 %q", r.Summary.Epoch, readAll(t, e, "high_bids", 2), readAll(t, e, "high_bids", 1))
	}

	runs, err := events.ListRuns(ctx, e.fs)
	if err != nil {
		t.Fatal(err)
	}
	var statuses []string
	for _, ri := range runs {
		statuses = append(statuses, ri.Status)
	}
	if strings.Join(statuses, ",") != "completed,failed,failed,failed,completed" {
		t.Errorf("history: %v", statuses)
	}
}

func TestConcurrentRunRefused(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.source(t, "a.csv", "auction,price\n1,50\n")
	first, err := Begin(ctx, e.config())
	if err != nil {
		t.Fatal(err)
	}
	cfg := e.config()
	_, err = Begin(ctx, cfg)
	var le *warehouse.LockedError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "the warehouse is in use by run "+first.ID+" of pipeline \"nexmark\"") {
		t.Fatalf("second run: %v", err)
	}
	// The refusal is in the second run's own event log.
	if got := eventTypes(t, e, cfg.RunID); got != "run_start error run_end" {
		t.Errorf("refused run's events: %s", got)
	}
	if err := pipeline(Drop)(ctx, first); err != nil {
		t.Fatal(err)
	}
	if err := first.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	// After the first run, the next one proceeds.
	if _, err := Execute(ctx, e.config(), pipeline(Drop)); err != nil {
		t.Fatal(err)
	}
}

func TestStaleLockTakenOverAndReadOwnWrites(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	// A lock left by a run whose lease expired long ago, on another host.
	e.fs.WriteFile(ctx, warehouse.LockName, []byte(`{"run_id":"old","pipeline":"nexmark","pid":1,"host":"gone","started_at":"2020-01-01T00:00:00Z","expires_at":"2020-01-01T00:02:00Z"}`))
	r, err := Begin(ctx, e.config())
	if err != nil {
		t.Fatal(err)
	}
	// A flow reads what an earlier flow of the same run wrote.
	w, _ := r.Write(ctx, "up", bids, warehouse.WriteOptions{})
	b := array.NewRecordBuilder(memory.DefaultAllocator, bids)
	b.Field(0).(*array.Int64Builder).Append(7)
	b.Field(1).AppendNull()
	rec := b.NewRecordBatch()
	w.Write(rec)
	rec.Release()
	b.Release()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	src, err := r.ReadDataset(ctx, "up", format.Options{})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := format.ReadAll(src)
	if err != nil || len(recs) != 1 || recs[0].NumRows() != 1 {
		t.Fatalf("read own write: %v", err)
	}
	recs[0].Release()
	if err := r.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	evs, _ := events.LoadRun(ctx, e.fs, r.ID)
	var lt events.LockTakenOver
	for _, ev := range evs {
		if ev.EventType == events.TypeLockTakenOver {
			ev.Payload(&lt)
			if ev.Level != events.Warn {
				t.Errorf("level %s", ev.Level)
			}
		}
	}
	if lt.PreviousRun != "old" || !strings.Contains(lt.Reason, "its lease expired at 2020-01-01 00:02:00 UTC") {
		t.Errorf("takeover event: %+v", lt)
	}
}

func TestLayoutConstantsAgree(t *testing.T) {
	if events.Dir != warehouse.EventsDir {
		t.Errorf("events.Dir %q != warehouse.EventsDir %q", events.Dir, warehouse.EventsDir)
	}
}
