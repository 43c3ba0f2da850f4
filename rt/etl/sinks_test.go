package etl

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nordisk/thund/rt/run"
)

// batchSinkPipeline is testPipeline with sink export reading high_bids (no
// stream read: a batch sink), with the given sink options after path.
func batchSinkPipeline(opts ...[2]string) *Pipeline {
	p := testPipeline(pipeOpts{action: run.Drop, sink: "csv"})
	ex := p.Datasets[len(p.Datasets)-1]
	ex.SinkOptions = append(ex.SinkOptions, opts...)
	ex.Flows = []*Flow{{Name: "export", Inputs: []Input{{Name: "high_bids"}}, Run: filterRun("high_bids", int64(-1<<63), false)}}
	ex.Definition = fmt.Sprintf("sink export %v = from high_bids", ex.SinkOptions)
	return p
}

// visibleSinkRows is the rows a reader of the sink folder sees: the data lines
// of every visible file (not hidden), sorted by file name.
func visibleSinkRows(t *testing.T, e *env) (files int, rows []string) {
	t.Helper()
	dir := filepath.Join(e.root, "out", "export")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range ents {
		if strings.HasPrefix(de.Name(), ".") {
			continue
		}
		files++
		data, err := os.ReadFile(filepath.Join(dir, de.Name()))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		rows = append(rows, lines[1:]...)
	}
	return files, rows
}

func TestBatchSinkReplacesOnEachRebuild(t *testing.T) {
	e := newEnv(t)
	p := batchSinkPipeline()
	for i := 1; i <= 6; i++ {
		e.write(fmt.Sprintf("data/bids/%d.csv", i), fmt.Sprintf("auction,price\n%d,%d\n", i, 10+i))
		e.mustRun(p)
		files, rows := visibleSinkRows(t, e)
		if files != 1 || len(rows) != i {
			t.Fatalf("rebuild %d: %d files, rows %q; want 1 file of %d rows", i, files, rows, i)
		}
	}
	diffText(t, "sink", readSink(t, e), "part-00000.csv\nauction,price\n1,11\n2,12\n3,13\n4,14\n5,15\n6,16\n")
	// a rebuild that emits no rows leaves an empty output, not the old one
	for i := 1; i <= 6; i++ {
		e.write(fmt.Sprintf("data/bids/%d.csv", i), "auction,price\n")
	}
	e.mustRun(p)
	diffText(t, "sink after an empty rebuild", readSink(t, e), "part-00000.csv\nauction,price\n")
}

func TestBatchSinkAppendModeKeepsEveryRebuild(t *testing.T) {
	e := newEnv(t)
	p := batchSinkPipeline([2]string{"mode", "append"})
	want := 0
	for i := 1; i <= 6; i++ {
		e.write(fmt.Sprintf("data/bids/%d.csv", i), fmt.Sprintf("auction,price\n%d,%d\n", i, 10+i))
		e.mustRun(p)
		want += i
	}
	files, rows := visibleSinkRows(t, e)
	if files != 6 || len(rows) != want {
		t.Errorf("append: %d files, %d rows; want 6 files, %d rows", files, len(rows), want)
	}
	// switching to replace: the next rebuild's file is the only one left
	p = batchSinkPipeline([2]string{"mode", "replace"})
	e.mustRun(p)
	if files, rows := visibleSinkRows(t, e); files != 1 || len(rows) != 6 {
		t.Errorf("after the switch to replace: %d files, %d rows; want 1 file, 6 rows", files, len(rows))
	}
}

func TestBatchSinkSwapCrashHeals(t *testing.T) {
	e := newEnv(t)
	p := batchSinkPipeline()
	dir := filepath.Join(e.root, "out", "export")
	final := filepath.Join(dir, "part-00000.csv")
	e.write("data/bids/1.csv", "auction,price\n1,11\n")
	e.mustRun(p)
	gen1, _ := os.ReadFile(final)

	// 1. a run that died before its commit leaves its temporary file; the
	// output stays the previous generation, and vacuum removes the file
	dead := filepath.Join(dir, ".part-000009-deadbeef.csv.tmp")
	e.write("out/export/.part-000009-deadbeef.csv.tmp", "auction,price\n9,99\n")
	e.write("data/bids/2.csv", "auction,price\n2,12\n")
	id := e.mustRun(p)
	if files, rows := visibleSinkRows(t, e); files != 1 || len(rows) != 2 {
		t.Errorf("after a dead run: %d files, rows %q", files, rows)
	}
	gen2, _ := os.ReadFile(final)

	// 2. a run that committed and died before the rename: the reader sees
	// the previous generation until the next run renames the new one over it
	tag := id[len(id)-8:]
	temp := ""
	if ents, _ := filepath.Glob(filepath.Join(dir, ".part-*-"+tag+".csv.tmp")); len(ents) == 1 {
		temp = ents[0]
	}
	if temp == "" {
		temp = filepath.Join(dir, fmt.Sprintf(".part-000002-%s.csv.tmp", tag))
	}
	if err := os.WriteFile(temp, gen2, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(final, gen1, 0o644); err != nil {
		t.Fatal(err)
	}
	e.mustRun(p) // nothing new: no rebuild, but the pending publish completes
	if got, _ := os.ReadFile(final); string(got) != string(gen2) {
		t.Errorf("pending publish not completed: %q, want %q", got, gen2)
	}
	if _, err := os.Stat(temp); err == nil {
		t.Errorf("%s left behind", temp)
	}

	// 3. a run that died after the rename, before removing the earlier
	// output of another name (a file from mode append): the next run removes it
	e.write("out/export/part-000001-run00001.csv", "auction,price\n1,11\n")
	e.mustRun(p)
	if files, rows := visibleSinkRows(t, e); files != 1 || len(rows) != 2 {
		t.Errorf("after a crash before the sweep: %d files, rows %q", files, rows)
	}

	// vacuum removes the dead run's temporary file, not the output
	if _, err := os.Stat(dead); err != nil {
		t.Fatalf("the dead run's file should still be there before vacuum: %v", err)
	}
	if code, out, stderr := e.etl(p, "vacuum"); code != 0 || !strings.Contains(out, "1 sink files no kept version needs") {
		t.Errorf("vacuum: exit %d\n%s%s", code, out, stderr)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Error("vacuum left the dead run's temporary file")
	}
	if files, rows := visibleSinkRows(t, e); files != 1 || len(rows) != 2 {
		t.Errorf("after vacuum: %d files, rows %q", files, rows)
	}
}

func TestSinkOptionsCheckedAtRun(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/1.csv", "auction,price\n1,11\n")
	for _, c := range []struct {
		p    *Pipeline
		want string
	}{
		{batchSinkPipeline([2]string{"mdoe", "append"}), `sink export: unknown option "mdoe": a csv sink takes path, mode`},
		{batchSinkPipeline([2]string{"mode", "overwrite"}), `sink export: mode "overwrite": want append or replace`},
		{func() *Pipeline {
			p := batchSinkPipeline()
			p.Datasets[len(p.Datasets)-1].SinkOptions = nil
			return p
		}(), `sink export has no path option`},
	} {
		code, _, stderr := e.etl(c.p, "run")
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("exit %d, want an error %q:\n%s", code, c.want, stderr)
		}
	}
	// a streaming sink cannot replace
	p := testPipeline(pipeOpts{action: run.Drop, sink: "csv"})
	p.Datasets[len(p.Datasets)-1].SinkOptions = append(p.Datasets[len(p.Datasets)-1].SinkOptions, [2]string{"mode", "replace"})
	if code, _, stderr := e.etl(p, "run"); code == 0 || !strings.Contains(stderr, "sink export: mode replace: a sink filled by a stream read appends") {
		t.Errorf("replace on a streaming sink: exit %d\n%s", code, stderr)
	}
}
