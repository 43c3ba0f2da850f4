package warehouse

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/store"
)

var schema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "region", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "day", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
}, nil)

type row struct {
	id     int64
	region *string
	day    int32
}

func str(s string) *string { return &s }

func batch(rows ...row) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.Int64Builder).Append(r.id)
		if r.region == nil {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(*r.region)
		}
		b.Field(2).(*array.Date32Builder).Append(arrow.Date32(r.day))
	}
	return b.NewRecordBatch()
}

func newWH(t *testing.T) (*Warehouse, *store.Local) {
	t.Helper()
	l, err := store.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return New(l), l
}

// readRows returns a dataset version's rows as sorted text lines.
func readRows(t *testing.T, w *Warehouse, name string, version int64) []string {
	t.Helper()
	r, _, err := w.ReadDataset(context.Background(), name, version, format.Options{})
	if err != nil {
		t.Fatalf("read %s v%d: %v", name, version, err)
	}
	recs, err := format.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, rec := range recs {
		for i := 0; i < int(rec.NumRows()); i++ {
			var cells []string
			for c := 0; c < int(rec.NumCols()); c++ {
				v, ok := format.ValueText(rec.Column(c), i)
				if !ok {
					v = "NULL"
				}
				cells = append(cells, v)
			}
			out = append(out, strings.Join(cells, ","))
		}
		rec.Release()
	}
	sort.Strings(out)
	return out
}

// runOnce is one whole run: lock, load, collect, write datasets, commit.
func runOnce(ctx context.Context, w *Warehouse, runID string, data map[string][]row, opts WriteOptions) (*Commit, error) {
	lock, err := w.Acquire(ctx, runID, "p", time.Minute)
	if err != nil {
		return nil, err
	}
	defer lock.Release(ctx)
	st, err := w.Load(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := w.Collect(ctx, st); err != nil {
		return nil, err
	}
	txn := w.Begin(st, runID, "p")
	names := make([]string, 0, len(data))
	for n := range data {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		dw, err := txn.Write(ctx, name, schema, opts)
		if err != nil {
			txn.Abort(ctx)
			return nil, err
		}
		rows := data[name]
		for len(rows) > 0 { // two rows a batch
			n := min(2, len(rows))
			rec := batch(rows[:n]...)
			err := dw.Write(rec)
			rec.Release()
			if err != nil {
				dw.Abort()
				txn.Abort(ctx)
				return nil, err
			}
			rows = rows[n:]
		}
		if err := dw.Close(); err != nil {
			txn.Abort(ctx)
			return nil, err
		}
	}
	if err := lock.Renew(ctx); err != nil {
		txn.Abort(ctx)
		return nil, err
	}
	c, err := txn.Commit(ctx)
	if err != nil {
		txn.Abort(ctx)
	}
	return c, err
}

func TestCommitAndVersions(t *testing.T) {
	ctx := context.Background()
	w, l := newWH(t)
	c1, err := runOnce(ctx, w, "run-0001-aaaaaaaa", map[string][]row{
		"sales": {{1, str("eu"), 0}, {2, str("us"), 1}, {3, nil, 2}},
		"empty": {},
	}, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c1.Epoch != 1 || c1.Datasets["sales"].Version != 1 || c1.Datasets["sales"].Rows != 3 {
		t.Fatalf("commit 1: %+v", c1)
	}
	if got := c1.Datasets["sales"].Files; len(got) != 1 || got[0].Path != "sales/v000001/part-00000-aaaaaaaa.parquet" || got[0].Rows != 3 {
		t.Errorf("files: %+v", got)
	}
	if e := c1.Datasets["empty"]; e.Rows != 0 || len(e.Files) != 1 {
		t.Errorf("empty dataset: %+v", e)
	}
	// Second run: only sales changes; empty is carried forward.
	c2, err := runOnce(ctx, w, "run-0002-bbbbbbbb", map[string][]row{"sales": {{10, str("eu"), 5}}}, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c2.Epoch != 2 || c2.Previous != 1 || c2.Datasets["sales"].Version != 2 || c2.Datasets["empty"].Version != 1 || c2.Datasets["empty"].Epoch != 1 {
		t.Fatalf("commit 2: %+v", c2)
	}
	if got := readRows(t, w, "sales", 0); strings.Join(got, ";") != "10,eu,1970-01-06" {
		t.Errorf("latest: %v", got)
	}
	if got := readRows(t, w, "sales", 1); strings.Join(got, ";") != "1,eu,1970-01-01;2,us,1970-01-02;3,NULL,1970-01-03" {
		t.Errorf("version 1: %v", got)
	}
	if got := readRows(t, w, "empty", 0); len(got) != 0 {
		t.Errorf("empty: %v", got)
	}
	for _, bad := range []struct {
		name    string
		version int64
		want    string
	}{
		{"sales", 3, `dataset "sales" has no version 3 (versions 1 to 2)`},
		{"nope", 0, `no dataset "nope" in the warehouse (it has: empty, sales)`},
	} {
		if _, _, err := w.Resolve(ctx, bad.name, bad.version); err == nil || err.Error() != bad.want {
			t.Errorf("Resolve(%s, %d) = %v, want %s", bad.name, bad.version, err, bad.want)
		}
	}
	// The record on disk: readable JSON with a valid checksum.
	data, _, err := l.ReadFile(ctx, "_thund/commits/000000000002.json")
	if err != nil {
		t.Fatal(err)
	}
	var shape map[string]any
	if err := json.Unmarshal(data, &shape); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"format", "epoch", "previous_epoch", "run_id", "pipeline", "committed_at", "datasets", "source_offsets", "state", "fingerprints", "checksum"} {
		if _, ok := shape[k]; !ok {
			t.Errorf("record lacks %q", k)
		}
	}
	if _, err := ParseCommit(data); err != nil {
		t.Error(err)
	}
	edited := strings.Replace(string(data), `"rows": 1`, `"rows": 2`, 1)
	if _, err := ParseCommit([]byte(edited)); err == nil || !strings.Contains(err.Error(), "checksum mismatch") {
		t.Errorf("edited record accepted: %v", err)
	}
}

// A run that fails at any storage write leaves the previous commit readable
// and nothing of itself visible; the next run cleans up and commits.
func TestFailureAtEveryWrite(t *testing.T) {
	ctx := context.Background()
	next := map[string][]row{"sales": {{7, str("x"), 0}, {8, str("y"), 0}, {9, str("z"), 0}}, "other": {{1, nil, 0}}}
	// Count the mutations of a whole run.
	probe, _ := newWH(t)
	pf := store.NewFaulty(probe.FS)
	probe.FS = pf
	if _, err := runOnce(ctx, probe, "probe", next, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	counts := map[store.Op]int{store.OpAnyWrite: pf.Calls(store.OpAnyWrite), store.OpWrite: pf.Calls(store.OpWrite)}
	if counts[store.OpAnyWrite] < 5 || counts[store.OpWrite] < 2 {
		t.Fatalf("too few writes in a run: %v", counts)
	}
	for _, op := range []store.Op{store.OpAnyWrite, store.OpWrite} {
		for n := 1; n <= counts[op]; n++ {
			w, l := newWH(t)
			if _, err := runOnce(ctx, w, "run-1-11111111", map[string][]row{"sales": {{1, str("a"), 0}}}, WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			f := store.NewFaulty(l, store.Fault{Op: op, Nth: n, Err: syscall.ENOSPC})
			w.FS = f
			_, err := runOnce(ctx, w, "run-2-22222222", next, WriteOptions{})
			w.FS = l
			st, lerr := w.Load(ctx)
			if lerr != nil {
				t.Fatal(lerr)
			}
			if err == nil {
				// The fault hit a write that does not matter (the lock's
				// removal after the commit, say): the run committed.
				if st.Head.Epoch != 2 {
					t.Errorf("%s #%d: run succeeded but head is epoch %d", op, n, st.Head.Epoch)
				}
				continue
			}
			if !errors.Is(err, syscall.ENOSPC) {
				t.Errorf("%s #%d: error %v does not carry ENOSPC", op, n, err)
			}
			if st.Head.Epoch != 1 {
				t.Fatalf("%s #%d: failed run committed epoch %d", op, n, st.Head.Epoch)
			}
			if got := readRows(t, w, "sales", 0); strings.Join(got, ";") != "1,a,1970-01-01" {
				t.Errorf("%s #%d: previous version changed: %v", op, n, got)
			}
			// The next run commits, and afterwards only referenced files and
			// engine files exist.
			os.Remove(l.Location(LockName)) // the failed run may have been unable to remove it
			if _, err := runOnce(ctx, w, "run-3-33333333", next, WriteOptions{}); err != nil {
				t.Fatalf("%s #%d: next run: %v", op, n, err)
			}
			st, _ = w.Load(ctx)
			assertOnlyReferenced(t, w, st)
		}
	}
}

func assertOnlyReferenced(t *testing.T, w *Warehouse, st *State) {
	t.Helper()
	ctx := context.Background()
	referenced := map[string]bool{}
	epochs, _ := w.Epochs(ctx)
	for _, e := range epochs {
		c, err := w.ReadCommit(ctx, e)
		if err != nil {
			continue
		}
		for _, d := range c.Datasets {
			for _, f := range d.Files {
				referenced[f.Path] = true
			}
		}
	}
	// Collect as the next run would, then nothing unreferenced may remain.
	if _, err := w.Collect(ctx, st); err != nil {
		t.Fatal(err)
	}
	all, _ := w.FS.List(ctx, "")
	for _, o := range all {
		if strings.HasPrefix(o.Name, EngineDir+"/") {
			continue
		}
		if !referenced[o.Name] {
			t.Errorf("unreferenced file left: %s", o.Name)
		}
	}
}

func TestCommitFaults(t *testing.T) {
	ctx := context.Background()
	data := map[string][]row{"sales": {{1, str("a"), 0}}}
	// The store applies the commit write but reports a failure: the run reads
	// the record back and knows it committed.
	w, l := newWH(t)
	w.FS = store.NewFaulty(l, store.Fault{Op: store.OpCreateIfAbsent, Match: "commits/", After: true, Err: syscall.ETIMEDOUT})
	c, err := runOnce(ctx, w, "run-amb", data, WriteOptions{})
	if err != nil || c.Epoch != 1 {
		t.Fatalf("ambiguous commit: %v", err)
	}
	// A torn commit write: nothing committed, the torn temp file is invisible.
	w, l = newWH(t)
	w.FS = store.NewFaulty(l, store.Fault{Op: store.OpCreateIfAbsent, Match: "commits/", Torn: true, Err: syscall.EIO})
	if _, err := runOnce(ctx, w, "run-torn", data, WriteOptions{}); !errors.Is(err, syscall.EIO) {
		t.Fatalf("torn: %v", err)
	}
	w.FS = l
	if st, _ := w.Load(ctx); st.Head != nil || st.NextEpoch != 1 {
		t.Fatalf("torn write visible: %+v", st)
	}
	ents, _ := os.ReadDir(l.Location(CommitsDir))
	if len(ents) != 1 || !strings.Contains(ents[0].Name(), ".tmp-") {
		t.Fatalf("want the torn temp file only: %v", ents)
	}
	// A damaged record (as a create without atomic publish could leave) is
	// ignored and reported, and the next commit takes the next epoch.
	if _, err := runOnce(ctx, w, "run-ok", data, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(l.Location(CommitName(2)), []byte(`{"format":1,"epoch":2,"datasets":{`), 0o644)
	st, err := w.Load(ctx)
	if err != nil || st.Head.Epoch != 1 || st.NextEpoch != 3 || len(st.Invalid) != 1 {
		t.Fatalf("damaged record: %+v %v", st, err)
	}
	c, err = runOnce(ctx, w, "run-after", data, WriteOptions{})
	if err != nil || c.Epoch != 3 || c.Previous != 1 {
		t.Fatalf("after damaged record: %+v %v", c, err)
	}
}

func TestRecordFreeFormMapsKeepChecksum(t *testing.T) {
	ctx := context.Background()
	w, _ := newWH(t)
	st, _ := w.Load(ctx)
	txn := w.Begin(st, "r1", "p")
	txn.SetSourceOffset("bids", json.RawMessage(`{ "files": ["a.csv", "<b&c>.csv"],
		"bytes": 12 }`))
	txn.SetFingerprint("high_bids", json.RawMessage(`"sha256:00"`))
	if err := txn.WriteState(ctx, "agg", []byte("state bytes")); err != nil {
		t.Fatal(err)
	}
	if _, err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	c, err := w.ReadCommit(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if string(c.State["agg"]) == "" || !strings.Contains(string(c.SourceOffsets["bids"]), "<b&c>.csv") {
		t.Errorf("maps: %+v", c)
	}
	// Carried forward by the next epoch.
	st, _ = w.Load(ctx)
	c2, err := w.Begin(st, "r2", "p").Commit(ctx)
	if err != nil || string(c2.Fingerprints["high_bids"]) != `"sha256:00"` {
		t.Errorf("carry forward: %v %+v", err, c2)
	}
}

func TestConcurrentCommitsOneWins(t *testing.T) {
	w, _ := newWH(t)
	concurrentCommitsOneWins(t, w)
}

// concurrentCommitsOneWins: runs that stage the same epoch at once cannot
// both commit (create-if-absent of the commit record).
func concurrentCommitsOneWins(t *testing.T, w *Warehouse) {
	ctx := context.Background()
	st, _ := w.Load(ctx)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			txn := w.Begin(st, fmt.Sprintf("run-%d", i), "p")
			dw, err := txn.Write(ctx, "t", schema, WriteOptions{})
			if err == nil {
				rec := batch(row{int64(i), nil, 0})
				dw.Write(rec)
				rec.Release()
				err = dw.Close()
			}
			if err == nil {
				_, err = txn.Commit(ctx)
			}
			if err != nil {
				txn.Abort(ctx)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		var ce *ConflictError
		switch {
		case err == nil:
			won++
		case errors.As(err, &ce):
			if !strings.Contains(err.Error(), "committed epoch 1 of the warehouse first") {
				t.Errorf("message: %v", err)
			}
		default:
			t.Errorf("unexpected: %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d commits won", won)
	}
	if got := readRows(t, w, "t", 0); len(got) != 1 {
		t.Errorf("rows: %v", got)
	}
}

func TestPartitionedWriteRead(t *testing.T) {
	ctx := context.Background()
	w, _ := newWH(t)
	rows := []row{{1, str("eu"), 0}, {2, str("eu"), 1}, {3, str("a/b:c=d"), 0}, {4, nil, 0}, {5, str(""), 0}, {6, str("eu"), 0}, {7, str(".hidden"), 0}}
	c, err := runOnce(ctx, w, "run-part-cccccccc", map[string][]row{"events": rows}, WriteOptions{PartitionBy: []string{"region", "day"}})
	if err != nil {
		t.Fatal(err)
	}
	d := c.Datasets["events"]
	var paths []string
	for _, f := range d.Files {
		p := strings.TrimPrefix(f.Path, "events/v000001/")
		region := "NULL"
		if v := f.Partition["region"]; v != nil {
			region = fmt.Sprintf("%q", *v)
		}
		paths = append(paths, fmt.Sprintf("%s rows=%d region=%s", p, f.Rows, region))
	}
	sort.Strings(paths)
	want := []string{
		`region=%2Ehidden/day=1970-01-01/part-00005-cccccccc.parquet rows=1 region=".hidden"`,
		`region=__HIVE_DEFAULT_PARTITION__/day=1970-01-01/part-00003-cccccccc.parquet rows=1 region=NULL`,
		`region=__HIVE_DEFAULT_PARTITION__/day=1970-01-01/part-00004-cccccccc.parquet rows=1 region=""`,
		`region=a%2Fb%3Ac%3Dd/day=1970-01-01/part-00002-cccccccc.parquet rows=1 region="a/b:c=d"`,
		`region=eu/day=1970-01-01/part-00000-cccccccc.parquet rows=2 region="eu"`,
		`region=eu/day=1970-01-02/part-00001-cccccccc.parquet rows=1 region="eu"`,
	}
	if strings.Join(paths, "\n") != strings.Join(want, "\n") {
		t.Errorf("files:\n%s\nwant:\n%s", strings.Join(paths, "\n"), strings.Join(want, "\n"))
	}
	got := readRows(t, w, "events", 0)
	wantRows := "1,eu,1970-01-01;2,eu,1970-01-02;3,a/b:c=d,1970-01-01;4,NULL,1970-01-01;5,,1970-01-01;6,eu,1970-01-01;7,.hidden,1970-01-01"
	if strings.Join(got, ";") != wantRows {
		t.Errorf("rows: %v", got)
	}
	if _, err := w.Begin(&State{NextEpoch: 1}, "x", "p").Write(ctx, "e", schema, WriteOptions{PartitionBy: []string{"nope"}}); err == nil {
		t.Error("unknown partition column accepted")
	}
}

func TestEscapePartitionValue(t *testing.T) {
	for in, want := range map[string]string{"": DefaultPartition, "plain": "plain", "a b": "a b", "x=1/y": "x%3D1%2Fy",
		"2024-01-01 10:00:00": "2024-01-01 10%3A00%3A00", "100%": "100%25", "..": "%2E.", "tab\t": "tab%09", "ünï": "ünï"} {
		got := EscapePartitionValue(in)
		if got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
		if back, ok := UnescapePartitionValue(got); in != "" && (!ok || back != in) {
			t.Errorf("Unescape(%q) = %q %v", got, back, ok)
		}
	}
}

func TestAppendDropAndRenumber(t *testing.T) {
	ctx := context.Background()
	w, _ := newWH(t)
	mustRun := func(id string, data map[string][]row, o WriteOptions) *Commit {
		t.Helper()
		c, err := runOnce(ctx, w, id, data, o)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	mustRun("r1", map[string][]row{"s": {{1, nil, 0}}}, WriteOptions{Append: true})
	c := mustRun("r2", map[string][]row{"s": {{2, nil, 0}}}, WriteOptions{Append: true})
	if d := c.Datasets["s"]; d.Version != 2 || d.Rows != 2 || len(d.Files) != 2 {
		t.Fatalf("append: %+v", d)
	}
	if got := readRows(t, w, "s", 0); strings.Join(got, ";") != "1,NULL,1970-01-01;2,NULL,1970-01-01" {
		t.Errorf("append rows: %v", got)
	}
	// Drop s.
	lock, _ := w.Acquire(ctx, "r3", "p", time.Minute)
	st, _ := w.Load(ctx)
	txn := w.Begin(st, "r3", "p")
	txn.Drop("s")
	if _, err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	lock.Release(ctx)
	if _, _, err := w.Resolve(ctx, "s", 0); err == nil || !strings.Contains(err.Error(), "was dropped from the pipeline at epoch 3; its last version is 2") {
		t.Errorf("dropped: %v", err)
	}
	if got := readRows(t, w, "s", 2); len(got) != 2 {
		t.Errorf("old version of a dropped dataset: %v", got)
	}
	// Re-added: numbering continues, old folders are kept.
	c = mustRun("r4", map[string][]row{"s": {{3, nil, 0}}}, WriteOptions{Append: true})
	if d := c.Datasets["s"]; d.Version != 3 || d.Rows != 1 {
		t.Fatalf("re-added: %+v", d)
	}
	if got := readRows(t, w, "s", 1); len(got) != 1 {
		t.Errorf("version 1 after re-add: %v", got)
	}
	st, _ = w.Load(ctx)
	assertOnlyReferenced(t, w, st)
}

func TestLockRefusesSecondRun(t *testing.T) {
	ctx := context.Background()
	w, l := newWH(t)
	first, err := w.Acquire(ctx, "run-first", "pipe", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.Acquire(ctx, "run-second", "pipe", time.Minute)
	var le *LockedError
	if !errors.As(err, &le) || le.Holder.RunID != "run-first" {
		t.Fatalf("second acquire: %v", err)
	}
	host, _ := os.Hostname()
	wantPrefix := fmt.Sprintf(`the warehouse is in use by run run-first of pipeline "pipe" (pid %d on host %s, started `, os.Getpid(), host)
	if !strings.HasPrefix(err.Error(), wantPrefix) || !strings.HasSuffix(err.Error(), "remove "+l.Location(LockName)) {
		t.Errorf("message: %s", err)
	}
	if err := first.Renew(ctx); err != nil {
		t.Fatal(err)
	}
	if err := first.Release(ctx); err != nil {
		t.Fatal(err)
	}
	second, err := w.Acquire(ctx, "run-second", "pipe", time.Minute)
	if err != nil || second.Takeover != nil {
		t.Fatalf("after release: %v %+v", err, second)
	}
	second.Release(ctx)
	lockRace(t, w)
}

// lockRace: of many runs taking the lock at once, exactly one holds it.
func lockRace(t *testing.T, w *Warehouse) {
	ctx := context.Background()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var held []*Lock
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lk, err := w.Acquire(ctx, fmt.Sprintf("g%d", i), "pipe", time.Minute)
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				held = append(held, lk)
			} else if !errors.As(err, new(*LockedError)) {
				t.Errorf("goroutine %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	if len(held) != 1 {
		t.Fatalf("%d goroutines hold the lock", len(held))
	}
	held[0].Release(ctx)
}

func TestLockTakeover(t *testing.T) {
	ctx := context.Background()
	w, l := newWH(t)
	// A dead process on this host.
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no `true` binary:", err)
	}
	dead := LockInfo{RunID: "run-dead", Pipeline: "p", PID: cmd.Process.Pid, Host: hostname(),
		StartedAt: time.Now(), ExpiresAt: time.Now().Add(time.Hour)}
	data, _ := json.Marshal(dead)
	l.WriteFile(ctx, LockName, data)
	lk, err := w.Acquire(ctx, "run-new", "p", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if lk.Takeover == nil || lk.Takeover.Previous.RunID != "run-dead" || lk.Takeover.Reason != fmt.Sprintf("process %d on this host is gone", dead.PID) {
		t.Fatalf("takeover: %+v", lk.Takeover)
	}
	if !strings.HasPrefix(lk.Takeover.String(), "took over the warehouse lock from run run-dead") {
		t.Errorf("%s", lk.Takeover)
	}
	lk.Release(ctx)

	// An expired lease on another host; and a run that hung past its lease
	// loses the lock and cannot renew.
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	w.Now = func() time.Time { return now }
	hung, err := w.Acquire(ctx, "run-hung", "p", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	cur, _, _ := l.ReadFile(ctx, LockName)
	var info LockInfo
	json.Unmarshal(cur, &info)
	info.Host = "elsewhere"
	data, _ = json.Marshal(info)
	l.WriteFile(ctx, LockName, data)
	hung.confirm(ctx) // as if it had been written from the other host

	if _, err := w.Acquire(ctx, "run-early", "p", time.Minute); !errors.As(err, new(*LockedError)) {
		t.Fatalf("live lease taken: %v", err)
	}
	now = now.Add(2 * time.Minute)
	lk, err = w.Acquire(ctx, "run-late", "p", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if lk.Takeover == nil || lk.Takeover.Reason != "its lease expired at 2026-01-02 03:05:05 UTC" {
		t.Fatalf("takeover: %+v", lk.Takeover)
	}
	err = hung.Renew(ctx)
	var lost *LockLostError
	if !errors.As(err, &lost) || lost.Holder == nil || lost.Holder.RunID != "run-late" {
		t.Fatalf("hung renew: %v", err)
	}
	if !strings.HasPrefix(err.Error(), "this run lost the warehouse lock to run run-late") {
		t.Errorf("message: %s", err)
	}
	hung.Release(ctx) // must not remove run-late's lock
	if _, err := l.Stat(ctx, LockName); err != nil {
		t.Errorf("release by the loser removed the winner's lock")
	}
	lk.Release(ctx)
	if _, err := l.Stat(ctx, LockName); !errors.Is(err, store.ErrNotExist) {
		t.Errorf("lock not removed: %v", err)
	}
}

// TestLockAcrossProcesses holds the lock in a child process: the parent is
// refused while the child lives and takes over once it is killed.
func TestLockAcrossProcesses(t *testing.T) {
	if dir := os.Getenv("THUND_LOCK_CHILD"); dir != "" {
		l, _ := store.NewLocal(dir)
		lk, err := New(l).Acquire(context.Background(), "run-child", "p", time.Hour)
		if err != nil {
			fmt.Println("ERR", err)
			os.Exit(1)
		}
		fmt.Println("LOCKED", lk.Info.PID)
		os.Stdout.Sync()
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	ctx := context.Background()
	w, l := newWH(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockAcrossProcesses$")
	cmd.Env = append(os.Environ(), "THUND_LOCK_CHILD="+l.Root)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	buf := make([]byte, 64)
	n, _ := out.Read(buf)
	if !strings.HasPrefix(string(buf[:n]), "LOCKED") {
		t.Fatalf("child: %q", buf[:n])
	}
	_, err = w.Acquire(ctx, "run-parent", "p", time.Minute)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("in use by run run-child of pipeline \"p\" (pid %d", cmd.Process.Pid)) {
		t.Fatalf("parent: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	lk, err := w.Acquire(ctx, "run-parent", "p", time.Minute)
	if err != nil || lk.Takeover == nil || !strings.Contains(lk.Takeover.Reason, "is gone") {
		t.Fatalf("after kill: %v %+v", err, lk)
	}
	lk.Release(ctx)
}
