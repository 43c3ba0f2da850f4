package etl

import (
	"encoding/json"
	"strings"
	"testing"

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
