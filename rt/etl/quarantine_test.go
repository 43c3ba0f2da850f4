package etl

import (
	"strings"
	"syscall"
	"testing"

	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/run"
	"github.com/nordisk/thund/rt/store"
)

// quarantinePipeline is testPipeline with bids' malformed records sent to
// the streaming table bad_bids (quarantine table bad_bids).
func quarantinePipeline(mode string) *Pipeline {
	p := testPipeline(pipeOpts{action: run.Drop, mode: mode})
	p.Datasets[0].Source.QuarantineTable = "bad_bids"
	p.Datasets = append(p.Datasets, &Dataset{Name: "bad_bids", Kind: StreamingTable, Schema: QuarantineSchema,
		Definition: "streaming table bad_bids (source string, file string, line int64, reason string, record string, epoch int64)"})
	return p
}

// TestQuarantineTable: two flows (high_bids, bids_log) read bids, whose
// malformed records go to bad_bids once each, at any --threads; a second
// run appends only the new file's; the summary and the event log count
// what each flow put there.
func TestQuarantineTable(t *testing.T) {
	for _, threads := range []string{"1", "4"} {
		e := newEnv(t)
		p := quarantinePipeline("")
		e.write("data/bids/a.csv", "auction,price\n1,50\n6,12x\nx,20\n")
		code, _, stderr := e.etl(p, "run", "--threads", threads)
		if code != 0 {
			t.Fatalf("threads %s: exit %d\n%s", threads, code, stderr)
		}
		runID := e.last
		want := "source,file,line,reason,record,epoch\n" +
			`bids,data/bids/a.csv,3,"column price: want int64, got ""12x""","6,12x",1` + "\n" +
			`bids,data/bids/a.csv,4,"column auction: want int64, got ""x""","x,20",1` + "\n"
		diffText(t, "bad_bids", e.read(p, "bad_bids"), want)
		if n := strings.Count(stderr, "; 2 new in quarantine table bad_bids"); n != 1 {
			t.Errorf("threads %s: %d flows put 2 records in bad_bids, want 1:\n%s", threads, n, stderr)
		}
		if n := strings.Count(stderr, "; 0 new in quarantine table bad_bids"); n != 1 {
			t.Errorf("threads %s: %d flows put none in bad_bids, want 1:\n%s", threads, n, stderr)
		}
		var quarantined int64
		for _, ev := range e.events(runID) {
			var m events.MalformedRecords
			if ev.EventType == events.TypeMalformedRecords && ev.Payload(&m) == nil {
				if m.QuarantineTable != "bad_bids" {
					t.Errorf("event %+v", m)
				}
				quarantined += m.Quarantined
			}
		}
		if quarantined != 2 {
			t.Errorf("threads %s: events count %d quarantined, want 2", threads, quarantined)
		}
		// a new file: only its record is appended
		e.write("data/bids/b.csv", "auction,price\n7,70\n8,eighty\n")
		e.mustRun(p, "--threads", threads)
		want += `bids,data/bids/b.csv,3,"column price: want int64, got ""eighty""","8,eighty",2` + "\n"
		diffText(t, "bad_bids", e.read(p, "bad_bids"), want)
		e.mustNoOp(p)
		diffText(t, "bad_bids after a no-op run", e.read(p, "bad_bids"), want)
	}
}

// TestQuarantineTableFaults: a run that fails writing the quarantine table,
// or at the commit record, commits none of its records and none of the
// flows' outputs; the rerun puts each record in the table once.
func TestQuarantineTableFaults(t *testing.T) {
	defer func() { testWrapFS = nil }()
	for _, fault := range []store.Fault{
		{Op: store.OpCommit, Match: "bad_bids/", Err: syscall.ENOSPC},
		{Op: store.OpCreateIfAbsent, Match: "_thund/commits/", Err: syscall.ENOSPC},
	} {
		e := newEnv(t)
		p := quarantinePipeline("DROPMALFORMED")
		e.write("data/bids/a.csv", "auction,price\n1,50\n6,12x\n")
		e.mustRun(p)
		before := e.read(p, "bad_bids")
		log := e.read(p, "bids_log")
		e.write("data/bids/b.csv", "auction,price\n7,70\n8,eighty\n")
		testWrapFS = func(fs store.FS) store.FS { return store.NewFaulty(fs, fault) }
		code, _, stderr := e.etl(p, "run")
		testWrapFS = nil
		if code != 1 || !strings.Contains(stderr, "no space left on device") {
			t.Fatalf("%s %s: exit %d\n%s", fault.Op, fault.Match, code, stderr)
		}
		diffText(t, "bad_bids after the fault", e.read(p, "bad_bids"), before)
		diffText(t, "bids_log after the fault", e.read(p, "bids_log"), log)
		e.mustRun(p)
		want := before + `bids,data/bids/b.csv,3,"column price: want int64, got ""eighty""","8,eighty",2` + "\n"
		diffText(t, "bad_bids after the rerun", e.read(p, "bad_bids"), want)
	}
}
