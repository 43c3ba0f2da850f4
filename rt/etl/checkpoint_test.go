package etl

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/nordisk/thund/rt/cdc"
	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/warehouse"
)

// cdcPipeline is, in the DSL's words:
//
//	source bids from csv "data/bids/*.csv" { auction int64, price int64 }
//	streaming table best = from stream bids
//	  apply changes keys (auction) sequence by price scd type 1
//
// best holds, per auction, the row with the highest price: its change
// state is committed with each run.
func cdcPipeline() *Pipeline {
	spec := &cdc.Spec{Target: bidsSchema, Keys: []int{0}, Sequence: arrow.PrimitiveTypes.Int64, SCD: 1}
	change := spec.ChangeSchema()
	flow := func(fc *FlowContext) error {
		return fc.EachBatch("bids", func(rec arrow.RecordBatch) error {
			b := array.NewRecordBuilder(fc.Mem, change)
			auction, price := rec.Column(0).(*array.Int64), rec.Column(1).(*array.Int64)
			for i := 0; i < int(rec.NumRows()); i++ {
				b.Field(0).(*array.Int64Builder).Append(auction.Value(i))
				b.Field(1).(*array.Int64Builder).Append(price.Value(i))
				b.Field(2).(*array.Int64Builder).Append(price.Value(i))
				b.Field(3).(*array.BooleanBuilder).Append(false)
			}
			out := b.NewRecordBatch()
			b.Release()
			rec.Release()
			err := fc.Emit(out)
			out.Release()
			return err
		})
	}
	return &Pipeline{Name: "best", File: "best.thund", Compiler: "v0.0.0-test", Datasets: []*Dataset{
		{Name: "bids", Kind: Source, Schema: bidsSchema,
			Source:     &FileSource{Format: "csv", Patterns: []string{"data/bids/*.csv"}},
			Definition: `source bids from csv "data/bids/*.csv" { auction int64, price int64 }`},
		{Name: "best", Kind: StreamingTable, Schema: bidsSchema,
			Flows:      []*Flow{{Name: "best", Inputs: []Input{{Name: "bids", Stream: true}}, CDC: spec, Run: flow}},
			Definition: "streaming table best = from stream bids apply changes keys (auction) sequence by price scd type 1"},
	}}
}

// stateObject returns the file of the change state the head commit records
// for best.
func (e *env) stateObject(t *testing.T) (string, int64) {
	t.Helper()
	st, err := warehouse.New(&store.Local{Root: e.wh}).Load(context.Background())
	if err != nil || st.Head == nil {
		t.Fatalf("load: %v", err)
	}
	ref, err := warehouse.ParseStateRef(st.Head.State[cdcStateKey("best")])
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(e.wh, filepath.FromSlash(ref.Object)), st.Head.Epoch
}

// TestCorruptCheckpoint: a change state object that fails its checksum is
// reported, never loaded: the run stops naming the object and the flag;
// with --allow-older-checkpoint it resumes from the commit before, whose
// offsets make it read the later input again, and the result equals an
// uninterrupted run's; the event log says which epoch it resumed from.
func TestCorruptCheckpoint(t *testing.T) {
	p := cdcPipeline()
	e := newEnv(t)
	e.write("data/bids/a.csv", "auction,price\n1,5\n2,50\n1,7\n")
	e.mustRun(p)
	e.write("data/bids/b.csv", "auction,price\n2,40\n3,9\n1,8\n")
	e.mustRun(p)
	want := e.read(p, "best")
	if want != "auction,price\n1,8\n2,50\n3,9\n" {
		t.Fatalf("best after two runs:\n%s", want)
	}
	obj, epoch := e.stateObject(t)
	if epoch != 2 {
		t.Fatalf("head epoch %d", epoch)
	}
	data, err := os.ReadFile(obj)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x55
	os.WriteFile(obj, data, 0o644)
	rel := strings.TrimPrefix(filepath.ToSlash(obj), filepath.ToSlash(e.wh)+"/")

	e.write("data/bids/c.csv", "auction,price\n3,2\n4,1\n")
	code, _, stderr := e.etl(p, "run")
	if code != 1 || !strings.Contains(stderr, rel) || !strings.Contains(stderr, "checksum mismatch") ||
		!strings.Contains(stderr, "--allow-older-checkpoint") {
		t.Fatalf("run over a corrupt checkpoint: exit %d\n%s", code, stderr)
	}
	if got := e.read(p, "best"); got != want {
		t.Errorf("a refused run changed best:\n%s", got)
	}

	code, _, stderr = e.etl(p, "run", "--allow-older-checkpoint")
	if code != 0 || !strings.Contains(stderr, "committed epoch 3") {
		t.Fatalf("run --allow-older-checkpoint: exit %d\n%s", code, stderr)
	}
	if in, _ := e.flowRows(e.last, "best"); in != 5 {
		t.Errorf("the fallback run read %d rows, want 5 (b.csv and c.csv, after epoch 1)", in)
	}
	var resumed []events.ResumeFromEpoch
	for _, ev := range e.events(e.last) {
		if ev.EventType == events.TypeResumeFromEpoch {
			var r events.ResumeFromEpoch
			ev.Payload(&r)
			resumed = append(resumed, r)
		}
	}
	if len(resumed) != 1 || resumed[0].Epoch != 1 || len(resumed[0].Skipped) != 1 || !strings.Contains(resumed[0].Skipped[0], rel) {
		t.Errorf("resume events: %+v", resumed)
	}
	if got := e.read(p, "best"); got != "auction,price\n1,8\n2,50\n3,9\n4,1\n" {
		t.Errorf("best after the fallback:\n%s", got)
	}

	// the uninterrupted run over the same input agrees
	f := newEnv(t)
	f.write("data/bids/a.csv", "auction,price\n1,5\n2,50\n1,7\n")
	f.mustRun(p)
	f.write("data/bids/b.csv", "auction,price\n2,40\n3,9\n1,8\n")
	f.write("data/bids/c.csv", "auction,price\n3,2\n4,1\n")
	f.mustRun(p)
	if got, ref := e.read(p, "best"), f.read(p, "best"); got != ref {
		t.Errorf("after the fallback:\n%s\nuninterrupted:\n%s", got, ref)
	}

	// a missing state object is reported as missing
	obj, _ = e.stateObject(t)
	os.Remove(obj)
	code, _, stderr = e.etl(p, "run")
	if code != 1 || !strings.Contains(stderr, "missing") || !strings.Contains(stderr, filepath.Base(obj)) {
		t.Errorf("run over a missing checkpoint: exit %d\n%s", code, stderr)
	}
}

// TestCheckpointStorageFaults: a full disk while writing a checkpoint and a
// permission error while reading one (injected through the store layer)
// stop the run with a clear message; the previous commit stays; a rerun
// completes.
func TestCheckpointStorageFaults(t *testing.T) {
	p := cdcPipeline()
	e := newEnv(t)
	e.write("data/bids/a.csv", "auction,price\n1,5\n2,50\n1,7\n")
	e.mustRun(p)
	best := e.read(p, "best")
	e.write("data/bids/b.csv", "auction,price\n2,60\n")
	defer func() { testWrapFS = nil }()
	for _, tc := range []struct {
		name  string
		fault store.Fault
		want  []string
	}{
		{"disk full writing a checkpoint", store.Fault{Op: store.OpWriteFile, Match: "_thund/checkpoints/", Err: syscall.ENOSPC},
			[]string{"writing its change state", "_thund/checkpoints/000000000002/cdc-best-", "no space left on device", "the disk holding the warehouse is full"}},
		{"permission denied reading a checkpoint", store.Fault{Op: store.OpOpen, Match: "_thund/checkpoints/", Err: syscall.EACCES},
			[]string{"verifying the state of commit epoch 1", "_thund/checkpoints/000000000001/cdc-best-", "cannot be read", "permission denied"}},
		{"permission denied reading a checkpoint (loader)", store.Fault{Op: store.OpReadFile, Match: "_thund/checkpoints/", Err: syscall.EACCES},
			[]string{"its change state", "_thund/checkpoints/000000000001/cdc-best-", "cannot be read", "permission denied"}},
	} {
		testWrapFS = func(fs store.FS) store.FS { return store.NewFaulty(fs, tc.fault) }
		code, _, stderr := e.etl(p, "run")
		testWrapFS = nil
		if code != 1 {
			t.Errorf("%s: exit %d, want 1\n%s", tc.name, code, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", tc.name, w, stderr)
			}
		}
		if strings.Contains(stderr, "allow-older-checkpoint") {
			t.Errorf("%s: a storage error is not a damaged checkpoint, yet stderr suggests falling back:\n%s", tc.name, stderr)
		}
		t.Logf("%s:\n%s", tc.name, stderr)
		if got := e.read(p, "best"); got != best {
			t.Errorf("%s: committed data changed:\n%s", tc.name, got)
		}
	}
	code, _, stderr := e.etl(p, "run")
	if code != 0 || !strings.Contains(stderr, "committed epoch 2") {
		t.Errorf("rerun after the faults: exit %d\n%s", code, stderr)
	}
	if got := e.read(p, "best"); got != "auction,price\n1,7\n2,60\n" {
		t.Errorf("best after the rerun:\n%s", got)
	}
}
