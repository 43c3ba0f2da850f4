package run

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/warehouse"
)

// A run whose datasets failed alone commits the others with the marks and
// ends partial (exit 1), its failed flows' Fail expectations no longer
// failing it; a run with nothing else to commit commits nothing and fails
// with the dataset's own error.
func TestPartialCommit(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	r, err := Begin(ctx, e.config())
	if err != nil {
		t.Fatal(err)
	}
	w, err := r.Write(ctx, "good", bids, warehouse.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, bids)
	b.Field(0).(*array.Int64Builder).Append(1)
	b.Field(1).(*array.Int64Builder).Append(10)
	rec := b.NewRecordBatch()
	b.Release()
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	rec.Release()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r.DatasetUpdated("good")
	f := r.Flow("bad", "bad")
	f.Start()
	f.Expect("positive", Fail).Add(1, 1)
	failure := f.End(nil)
	f.Isolate()
	r.DatasetFailed("bad", failure)
	r.DatasetSkipped("below", "bad")
	err = r.Commit(ctx)
	var pe *PartialError
	if !errors.As(err, &pe) || pe.Epoch != 1 || ExitCode(err) != 1 {
		t.Fatalf("Commit: %v", err)
	}
	if !strings.Contains(err.Error(), "1 dataset failed: bad (expectation positive on dataset bad failed") ||
		!strings.Contains(err.Error(), "skipped downstream: below; the others were committed in epoch 1") {
		t.Errorf("error: %v", err)
	}
	if r.Summary.Status != "partial" || r.Summary.Epoch != 1 {
		t.Errorf("summary: %s, epoch %d", r.Summary.Status, r.Summary.Epoch)
	}
	var out strings.Builder
	r.Summary.Print(&out)
	for _, want := range []string{"PARTIALLY FAILED after", "committed epoch 1 with the datasets that succeeded", "  updated: good\n",
		"  failed: bad: expectation positive on dataset bad failed: 1 row violated it (on violation fail)\n", "  skipped: below (upstream bad failed)\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
	c, err := warehouse.New(e.fs).ReadCommit(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if m := c.Outcomes(); m["bad"].Status != "failed" || m["below"].Upstream != "bad" || len(c.Names()) != 1 {
		t.Errorf("record: marks %+v, datasets %v", m, c.Names())
	}
	var statuses []string
	for _, ev := range r.Log.Events() {
		if ev.EventType == events.TypeDatasetOutcome {
			var o events.DatasetOutcome
			ev.Payload(&o)
			statuses = append(statuses, ev.Origin.Dataset+"="+o.Status)
		}
	}
	if got := strings.Join(statuses, " "); got != "good=updated bad=failed below=skipped" {
		t.Errorf("dataset_outcome events: %s", got)
	}

	// nothing else to commit: nothing is committed, the error is the
	// dataset's own, logged once
	r, err = Begin(ctx, e.config())
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	r.DatasetFailed("bad", boom)
	if err := r.Commit(ctx); err != boom || r.Summary.Status != "failed" || r.Summary.Epoch != 0 {
		t.Errorf("Commit: %v, %s, epoch %d", err, r.Summary.Status, r.Summary.Epoch)
	}
	n := 0
	for _, ev := range r.Log.Events() {
		if ev.EventType == events.TypeError {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d error events, want 1", n)
	}
	if st, _ := warehouse.New(e.fs).Load(ctx); st.Head.Epoch != 1 {
		t.Errorf("head epoch %d", st.Head.Epoch)
	}
}
