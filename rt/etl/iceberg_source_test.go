package etl

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/iceberg"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/warehouse"
)

// icebergWriter is a pipeline whose streaming table events appends each
// run's new CSV files; its warehouse publishes events as an Iceberg table
// (one snapshot per version: an append per run, an overwrite on a full
// refresh).
func icebergWriter() *Pipeline {
	all := int64(math.MinInt64)
	return &Pipeline{Name: "writer", File: "writer.thund", Compiler: "v0.0.0-test", Datasets: []*Dataset{
		{Name: "in", Kind: Source, Schema: bidsSchema, Source: &FileSource{Format: "csv", Patterns: []string{"data/in/*.csv"}},
			Definition: `source in from csv "data/in/*.csv" { auction int64, price int64 }`},
		{Name: "events", Kind: StreamingTable, Schema: bidsSchema,
			Flows:      []*Flow{{Name: "events", Inputs: []Input{{Name: "in", Stream: true}}, Run: filterRun("in", all, false)}},
			Definition: "streaming table events = from stream in"},
	}}
}

// publish brings the writer's Iceberg tables up to its head, as a run
// that publishes does.
func (e *env) publish(tables ...string) {
	e.t.Helper()
	var fs store.FS = &store.Local{Root: e.wh}
	if strings.HasPrefix(e.wh, "s3://") {
		var err error
		if fs, err = e.openS3(context.Background(), e.wh); err != nil {
			e.t.Fatal(err)
		}
	}
	wh := warehouse.New(fs)
	st, err := wh.Load(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	m := map[string]bool{}
	for _, t := range tables {
		m[t] = true
	}
	if _, err := iceberg.Publish(context.Background(), wh, st.Head, m); err != nil {
		e.t.Fatal(err)
	}
}

// icebergReader reads the Iceberg table at loc: copy by a stream read,
// snap by a snapshot read.
func icebergReader(loc string, opts ...[2]string) *Pipeline {
	all := int64(math.MinInt64)
	return &Pipeline{Name: "reader", File: "reader.thund", Compiler: "v0.0.0-test", Datasets: []*Dataset{
		{Name: "ev", Kind: Source, Schema: bidsSchema, Source: &FileSource{Format: "iceberg", Patterns: []string{loc}, Options: opts, Unbounded: true},
			Definition: "source ev from iceberg " + loc},
		{Name: "copy", Kind: StreamingTable, Schema: bidsSchema,
			Flows:      []*Flow{{Name: "copy", Inputs: []Input{{Name: "ev", Stream: true}}, Run: filterRun("ev", all, false)}},
			Definition: "streaming table copy = from stream ev"},
		{Name: "snap", Kind: MaterializedView, Schema: bidsSchema,
			Flows:      []*Flow{{Name: "snap", Inputs: []Input{{Name: "ev"}}, Run: filterRun("ev", all, false)}},
			Definition: "materialized view snap = from ev"},
	}}
}

// icebergReads is the iceberg_read events by flow, as JSON.
func icebergReads(evs []events.Event) map[string]string {
	out := map[string]string{}
	for _, ev := range evs {
		if ev.EventType == events.TypeIcebergRead {
			var p events.IcebergRead
			ev.Payload(&p)
			raw, _ := json.Marshal(p)
			out[ev.Origin.Flow] = string(raw)
		}
	}
	return out
}

// sortedRows is `etl read`'s output without its header, sorted.
func sortedRows(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) > 0 {
		lines = lines[1:]
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// TestIcebergSourceStreamAndSnapshot: a table Thund wrote, read by a
// stream read over three runs with appends in between (each row read
// once, the total equal to a snapshot read of the current snapshot and to
// the writer's dataset; a run killed at its commit reads its snapshots
// again), then an overwrite snapshot: an error by default,
// skipped with thund.non-append = skip, a recompute with recompute.
func TestIcebergSourceStreamAndSnapshot(t *testing.T) {
	w, r := newEnv(t), newEnv(t)
	wp := icebergWriter()
	loc := filepath.Join(w.wh, "events")
	rp := icebergReader(loc)
	step := func(file, rows string) {
		t.Helper()
		w.write("data/in/"+file, "auction,price\n"+rows)
		w.mustRun(wp)
		w.publish("events")
	}
	check := func(runID string, wantIn int64) {
		t.Helper()
		if in, _ := r.flowRows(runID, "copy"); in != wantIn {
			t.Errorf("run %s: copy read %d rows, want %d", runID, in, wantIn)
		}
		full := sortedRows(w.read(wp, "events"))
		if got := sortedRows(r.read(rp, "copy")); got != full {
			t.Errorf("copy (stream read):\n%s\nwant (events):\n%s", got, full)
		}
		if got := sortedRows(r.read(rp, "snap")); got != full {
			t.Errorf("snap (snapshot read):\n%s\nwant (events):\n%s", got, full)
		}
	}

	step("1.csv", "1,10\n2,20\n")
	id := r.mustRun(rp)
	check(id, 2)
	step("2.csv", "3,30\n")
	step("3.csv", "4,40\n5,\n")
	// A run that dies at its commit record commits neither rows nor
	// offsets: the next run reads the same snapshots, once.
	testWrapFS = func(fs store.FS) store.FS {
		return store.NewFaulty(fs, store.Fault{Op: store.OpCreateIfAbsent, Match: "_thund/commits/", Err: syscall.EIO})
	}
	code, _, stderr := r.etl(rp, "run")
	testWrapFS = nil
	if code == 0 || !strings.Contains(stderr, "nothing was committed") {
		t.Fatalf("run killed at its commit: exit %d\n%s", code, stderr)
	}
	code, _, stderr = r.etl(rp, "run")
	id = r.last
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	check(id, 3)
	for _, want := range []string{
		"  flow copy: 3 rows in, 3 rows out\n    read ev: Iceberg snapshots after 1 up to 3 (2 snapshots read): 2 files, 3 rows\n",
		"  flow snap: 5 rows in, 5 rows out\n    read ev: Iceberg snapshot 3: 3 files, 5 rows\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("run summary lacks\n%s\n%s", want, stderr)
		}
	}
	if d := r.decisions(id); !strings.Contains(d, "copy stale: new snapshots in ev (2 files, 3 rows; snapshot 2, 3)") {
		t.Errorf("decisions:\n%s", d)
	}
	reads := icebergReads(r.events(id))
	if got, want := reads["copy"], `{"source":"ev","table":"`+loc+`","stream":true,"from":1,"to":3,"snapshots":[2,3],"files":2,"rows":3}`; got != want {
		t.Errorf("iceberg_read of copy:\n got %s\nwant %s", got, want)
	}
	if got, want := reads["snap"], `{"source":"ev","table":"`+loc+`","stream":false,"snapshot":3,"files":3,"rows":5}`; got != want {
		t.Errorf("iceberg_read of snap:\n got %s\nwant %s", got, want)
	}
	r.mustNoOp(rp)
	step("4.csv", "6,60\n")
	if code, out, stderr := r.etl(rp, "plan"); code != 0 || !strings.Contains(out, "Iceberg table "+loc+": snapshot 4 (4 files, 6 rows); new files (1: v000004/part-") ||
		!strings.Contains(out, "new snapshots in ev (1 file, 1 row; snapshot 4)") {
		t.Errorf("plan: exit %d\n%s%s", code, out, stderr)
	}
	id = r.mustRun(rp)
	check(id, 1)

	// The writer recomputes events: its Iceberg snapshot 5 is an overwrite.
	refresh := func(file, rows string) {
		t.Helper()
		w.write("data/in/"+file, "auction,price\n"+rows)
		if code, _, stderr := w.etl(wp, "run", "--full-refresh", "events"); code != 0 {
			t.Fatalf("writer full refresh: %d\n%s", code, stderr)
		}
		w.publish("events")
	}
	refresh("5.csv", "7,70\n")
	code, _, stderr = r.etl(rp, "run")
	if code == 0 || !strings.Contains(stderr, "snapshot 5 is an overwrite, not an append") || !strings.Contains(stderr, "streaming-skip-overwrite-snapshots") {
		t.Errorf("stream read over an overwrite: exit %d\n%s", code, stderr)
	}

	// recompute: copy is rebuilt from the current snapshot (7 rows).
	rec := icebergReader(loc, [2]string{"thund.non-append", "recompute"})
	id = r.mustRun(rec)
	if d := r.decisions(id); !strings.Contains(d, "snapshot 5 of ev is an overwrite, not an append (thund.non-append = recompute: reading its current snapshot 5 whole)") {
		t.Errorf("decisions:\n%s", d)
	}
	check(id, 7)
	r.mustNoOp(rec)

	// skip: another overwrite (snapshot 6) is passed over, the append
	// after it (snapshot 7) read.
	refresh("6.csv", "8,80\n")
	skip := icebergReader(loc, [2]string{"thund.non-append", "skip"})
	before := sortedRows(r.read(skip, "copy"))
	r.mustNoOp(skip, "--select", "copy") // nothing appended
	if got := sortedRows(r.read(skip, "copy")); got != before {
		t.Errorf("skip changed copy:\n%s", got)
	}
	step("7.csv", "9,90\n")
	id = r.mustRun(skip, "--select", "copy")
	if in, _ := r.flowRows(id, "copy"); in != 1 {
		t.Errorf("skip, then an append: copy read %d rows, want 1", in)
	}
	if got, want := sortedRows(r.read(skip, "copy")), before+"\n9,90"; got != want {
		t.Errorf("copy after skip and append:\n%s\nwant\n%s", got, want)
	}
}

// TestIcebergSourceErrors: what is wrong with an Iceberg source fails the
// run before any flow runs, saying what.
func TestIcebergSourceErrors(t *testing.T) {
	w, r := newEnv(t), newEnv(t)
	wp := icebergWriter()
	w.write("data/in/1.csv", "auction,price\n1,10\n")
	w.mustRun(wp)
	w.publish("events")
	loc := filepath.Join(w.wh, "events")
	wrongCol := icebergReader(loc)
	wrongCol.Datasets[0].Schema = arrow.NewSchema([]arrow.Field{{Name: "auction", Type: arrow.PrimitiveTypes.Int64}, {Name: "bid", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	for _, c := range []struct {
		name string
		p    *Pipeline
		want string
	}{
		{"no table", icebergReader(filepath.Join(w.wh, "nothing")), "source ev: " + filepath.Join(w.wh, "nothing") + ": no Iceberg table (no metadata/*.metadata.json)"},
		{"unknown option", icebergReader(loc, [2]string{"snapshot", "1"}), `source ev: unknown option "snapshot" (an Iceberg source takes snapshot-id, as-of-timestamp, streaming-skip-overwrite-snapshots, streaming-skip-delete-snapshots and thund.non-append)`},
		{"bad mode", icebergReader(loc, [2]string{"thund.non-append", "ignore"}), `option thund.non-append = "ignore": want fail, skip or recompute`},
		{"no such snapshot", icebergReader(loc, [2]string{"snapshot-id", "9"}), "has no snapshot 9 (snapshots: 1)"},
		{"time travel in a stream read", icebergReader(loc, [2]string{"snapshot-id", "1"}), "source ev: a stream read takes what is appended after the snapshot it read last, so it does not time travel"},
		{"no such column", wrongCol, "source ev: Iceberg table " + loc + ": column bid is not in its current schema (auction, price)"},
	} {
		code, _, stderr := r.etl(c.p, "run")
		if code == 0 || !strings.Contains(stderr, "before any flow ran") || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d\n%s", c.name, code, stderr)
		}
	}
}

// TestIcebergSourceLostSnapshot: a stream read whose last snapshot is no
// longer in the table's history (the table was written again from
// nothing) fails before any flow runs, saying what to do; --full-refresh
// reads the table again.
func TestIcebergSourceLostSnapshot(t *testing.T) {
	w, r := newEnv(t), newEnv(t)
	wp := icebergWriter()
	loc := filepath.Join(w.wh, "events")
	rp := icebergReader(loc)
	for _, f := range []string{"1.csv", "2.csv"} {
		w.write("data/in/"+f, "auction,price\n1,10\n")
		w.mustRun(wp)
		w.publish("events")
	}
	r.mustRun(rp)
	if err := os.RemoveAll(w.wh); err != nil {
		t.Fatal(err)
	}
	w.write("data/in/3.csv", "auction,price\n3,30\n")
	w.mustRun(wp) // snapshot 1 holds all three files now
	w.publish("events")
	code, _, stderr := r.etl(rp, "run")
	if code == 0 || !strings.Contains(stderr, "before any flow ran") ||
		!strings.Contains(stderr, "snapshot 2, the last one the stream read, is no longer in the history of its current snapshot") ||
		!strings.Contains(stderr, "--full-refresh copy reads the table again from the start") {
		t.Errorf("stream read from a lost snapshot: exit %d\n%s", code, stderr)
	}
	r.mustRun(rp, "--full-refresh", "copy")
	if got, want := sortedRows(r.read(rp, "copy")), sortedRows(w.read(wp, "events")); got != want {
		t.Errorf("copy after --full-refresh:\n%s\nwant\n%s", got, want)
	}
}

func TestIcebergOptions(t *testing.T) {
	src := func(kv ...string) *Dataset {
		var opts [][2]string
		for i := 0; i < len(kv); i += 2 {
			opts = append(opts, [2]string{kv[i], kv[i+1]})
		}
		return &Dataset{Name: "s", Kind: Source, Source: &FileSource{Format: "iceberg", Patterns: []string{"t"}, Options: opts}}
	}
	o, err := icebergOptions(src("Streaming-Skip-Overwrite-Snapshots", "TRUE", "thund.non-append", "Recompute", "snapshot-id", " 42 "))
	if err != nil || !o.scan.SkipOverwrite || o.scan.SkipDelete || o.nonAppend != "recompute" || o.snapshotID == nil || *o.snapshotID != 42 {
		t.Errorf("options: %+v, %v", o, err)
	}
	if o, err := icebergOptions(src("thund.non-append", "skip")); err != nil || !o.scan.SkipOverwrite || !o.scan.SkipDelete {
		t.Errorf("skip: %+v, %v", o, err)
	}
	_, err = icebergOptions(src("streaming-skip-delete-snapshots", "1", "as-of-timestamp", "soon", "snapshot-id", "1", "thund.non-append", "ignore"))
	for _, want := range []string{`option streaming-skip-delete-snapshots = "1": want true or false`, `option as-of-timestamp = "soon": want an integer`,
		`option thund.non-append = "ignore": want fail, skip or recompute`} {
		if !strings.Contains(fmt.Sprint(err), want) {
			t.Errorf("bad options: %v\nlacks %s", err, want)
		}
	}
	if _, err := icebergOptions(src("snapshot-id", "1", "as-of-timestamp", "2")); !strings.Contains(fmt.Sprint(err), "options snapshot-id and as-of-timestamp both choose a snapshot") {
		t.Errorf("two time travels: %v", err)
	}
}

// TestIcebergSourceIncrementalView: an incremental materialized view over
// an Iceberg source reads only the appended files, and recomputes in full
// over an overwrite (whatever the skip options), equal to the table.
func TestIcebergSourceIncrementalView(t *testing.T) {
	w, r := newEnv(t), newEnv(t)
	wp := icebergWriter()
	loc := filepath.Join(w.wh, "events")
	rp := icebergReader(loc, [2]string{"thund.non-append", "skip"})
	rp.Datasets = append(rp.Datasets[:1], &Dataset{Name: "inc", Kind: MaterializedView, Schema: bidsSchema, Incremental: true,
		Flows:      []*Flow{{Name: "inc", Inputs: []Input{{Name: "ev"}}, Run: filterRun("ev", math.MinInt64, false)}},
		Definition: "materialized view inc materialize incremental = from ev"})
	run := func(wantIn int64) {
		t.Helper()
		id := r.mustRun(rp)
		if in, _ := r.flowRows(id, "inc"); in != wantIn {
			t.Errorf("inc read %d rows, want %d", in, wantIn)
		}
		if got, want := sortedRows(r.read(rp, "inc")), sortedRows(w.read(wp, "events")); got != want {
			t.Errorf("inc:\n%s\nwant\n%s", got, want)
		}
	}
	w.write("data/in/1.csv", "auction,price\n1,10\n2,20\n")
	w.mustRun(wp)
	w.publish("events")
	run(2)
	w.write("data/in/2.csv", "auction,price\n3,30\n")
	w.mustRun(wp)
	w.publish("events")
	run(1)
	w.write("data/in/3.csv", "auction,price\n4,40\n")
	if code, _, stderr := w.etl(wp, "run", "--full-refresh", "events"); code != 0 {
		t.Fatalf("writer full refresh: %d\n%s", code, stderr)
	}
	w.publish("events")
	run(4)
}

// TestIcebergSourceFollow: `run --follow` commits an epoch when the table
// has a new append snapshot, and none when it has not.
func TestIcebergSourceFollow(t *testing.T) {
	w, r := newEnv(t), newEnv(t)
	wp := icebergWriter()
	rp := icebergReader(filepath.Join(w.wh, "events"))
	w.write("data/in/1.csv", "auction,price\n1,10\n")
	w.mustRun(wp)
	w.publish("events")
	f := r.follow(rp, nil)
	if got := r.headEpoch(); got != 1 {
		t.Fatalf("after the first poll: head epoch %d, want 1\n%s", got, f.stderr)
	}
	f.tick(time.Second)
	if got := r.headEpoch(); got != 1 {
		t.Fatalf("an idle poll committed epoch %d\n%s", got, f.stderr)
	}
	w.write("data/in/2.csv", "auction,price\n2,20\n")
	w.mustRun(wp)
	w.publish("events")
	f.tick(time.Second)
	if got := r.headEpoch(); got != 2 {
		t.Fatalf("after a new snapshot: head epoch %d, want 2\n%s", got, f.stderr)
	}
	if code := f.end(); code != 0 {
		t.Fatalf("exit %d\n%s", code, f.stderr)
	}
	if got, want := sortedRows(r.readNow(rp, "copy")), "1,10\n2,20"; got != want {
		t.Errorf("copy:\n%s\nwant\n%s", got, want)
	}
}
