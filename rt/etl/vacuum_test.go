package etl

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nordisk/thund/rt/run"
)

// vacuumScenario runs the test pipeline three times (new input each time),
// vacuums with --keep 1 and checks that the current data and the last run's
// history survive while older versions and logs are gone. e.wh may be a
// folder or an s3:// URL.
func vacuumScenario(t *testing.T, e *env) {
	p := testPipeline(pipeOpts{action: run.Drop})
	e.write("data/bids/a.csv", bidsA)
	e.mustRun(p)
	e.write("data/bids/b.csv", "auction,price\n6,60\n")
	e.mustRun(p)
	e.write("data/bids/c.csv", "auction,price\n7,700\n")
	last := e.mustRun(p)
	top := e.read(p, "top")
	v1 := e.read(p, "high_bids", "--version", "1")

	code, out, stderr := e.etl(p, "vacuum", "--keep", "1", "--json")
	if code != 0 {
		t.Fatalf("vacuum: exit %d\n%s", code, stderr)
	}
	var res struct {
		Kept      []int64  `json:"kept_epochs"`
		Commits   []string `json:"removed_commits"`
		DataFiles []string `json:"removed_data_files"`
		EventLogs []string `json:"removed_event_logs"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("vacuum --json: %v\n%s", err, out)
	}
	if len(res.Kept) != 1 || res.Kept[0] != 3 || len(res.Commits) != 2 || len(res.EventLogs) != 2 || len(res.DataFiles) == 0 {
		t.Errorf("vacuum --keep 1: %s", out)
	}
	if got := e.read(p, "top"); got != top {
		t.Errorf("top after vacuum:\n%s\nwant:\n%s", got, top)
	}
	if code, _, stderr := e.etl(p, "read", "high_bids", "--version", "1"); code != 1 || !strings.Contains(stderr, "version 1 is no longer recorded") {
		t.Errorf("read --version 1 after vacuum (was %q): exit %d %s", v1, code, stderr)
	}
	code, hist, _ := e.etl(p, "history", "--json")
	if code != 0 || strings.Count(hist, "\n") != 1 || !strings.Contains(hist, last) {
		t.Errorf("history after vacuum (want only %s): %s", last, hist)
	}
	// Nothing left to remove; a run afterwards is fine.
	code, out, _ = e.etl(p, "vacuum", "--keep", "1")
	if code != 0 || !strings.Contains(out, "removed 0 objects") {
		t.Errorf("second vacuum: exit %d %s", code, out)
	}
	e.write("data/bids/d.csv", "auction,price\n8,800\n")
	e.mustRun(p)
}

func TestVacuum(t *testing.T) {
	vacuumScenario(t, newEnv(t))
}

func TestVacuumUsage(t *testing.T) {
	e := newEnv(t)
	p := testPipeline(pipeOpts{action: run.Drop})
	if code, _, stderr := e.etl(p, "vacuum", "--keep", "0"); code != 2 || !strings.Contains(stderr, `--keep "0": want a positive number`) {
		t.Errorf("--keep 0: exit %d %s", code, stderr)
	}
	if code, out, _ := e.etl(p, "vacuum"); code != 0 || !strings.Contains(out, "has no commits; nothing removed") {
		t.Errorf("vacuum of an empty warehouse: exit %d %s", code, out)
	}
}

// TestOrphanTempFilesRemoved: the temporary files that killed runs leave
// (a half-written part file, a torn commit record) are removed by the next
// run and by vacuum, however young, since the lock says no live run owns
// them; a temporary event log, which a run refused the lock writes too, is
// left until it is old. On main they stayed for 15 minutes whatever ran.
func TestOrphanTempFilesRemoved(t *testing.T) {
	e := newEnv(t)
	p := testPipeline(pipeOpts{action: run.Drop})
	e.write("data/bids/a.csv", bidsA)
	e.mustRun(p)
	orphan := func(name string) string {
		t.Helper()
		path := filepath.Join(e.wh, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("half a file"), 0o644); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Minute)
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
		return path
	}
	exists := func(path string) bool {
		_, err := os.Stat(path)
		return err == nil
	}
	part := orphan("high_bids/v000002/.part-00000-deadbeef.parquet.tmp-123")
	record := orphan("_thund/commits/.000000000002.json.tmp-456")
	eventLog := orphan("_thund/events/.20260102T030405Z-run99999.jsonl.tmp-789")

	// the next run
	e.write("data/bids/b.csv", "auction,price\n6,60\n")
	e.mustRun(p)
	if exists(part) || exists(record) {
		t.Errorf("a run left the temporary files of a killed run: part %v, commit record %v", exists(part), exists(record))
	}
	if !exists(eventLog) {
		t.Errorf("a run removed a young temporary event log, which a run without the lock may be writing")
	}

	// vacuum
	part = orphan("top/v000009/.part-00000-deadbeef.parquet.tmp-321")
	code, out, stderr := e.etl(p, "vacuum", "--json")
	if code != 0 {
		t.Fatalf("vacuum: exit %d\n%s", code, stderr)
	}
	var res struct {
		Temp int `json:"removed_temp_files"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if exists(part) || res.Temp != 1 {
		t.Errorf("vacuum: the orphan is there: %v; removed_temp_files %d, want 1", exists(part), res.Temp)
	}
	if exists(filepath.Dir(part)) {
		t.Errorf("vacuum left the orphan's empty folder")
	}
}
