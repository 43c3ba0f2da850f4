package crashtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os/exec"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/warehouse"
)

// TestKillVacuum is the kill -9 suite for `etl vacuum` on a local warehouse.
func TestKillVacuum(t *testing.T) {
	t.Parallel()
	killVacuum(t, localTarget(t))
}

// vacuumKills is the least number of SIGKILLs that must land inside a
// running `etl vacuum`, and midVacuumKills how many of them must land after
// it removed something and before it finished.
const vacuumKills, midVacuumKills = 20, 10

// vacuumKillsReduced and midVacuumKillsReduced are the same in the reduced
// form (the default; THUND_TEST_FULL=1 runs the full one, see
// internal/testenv).
const vacuumKillsReduced, midVacuumKillsReduced = 8, 4

// killVacuum grows the streams scenario's warehouse by a few commits a round
// (`etl run --max-files-per-epoch 1`, one epoch per new file; every epoch
// replaces per_key, so old versions' files pile up), then starts `etl vacuum
// --keep K` and SIGKILLs it: after a random delay, or once it has removed a
// random number of objects. After each kill: no commit record is invalid,
// every dataset version that a remaining record lists reads back in full
// (in-process, and one of them through `etl read --version`), and every
// dataset reads as before the vacuum. Sometimes a completing vacuum follows at
// once, else the next round's vacuum inherits the half-done one. At the end a
// vacuum completes and a second one finds nothing to remove. It stops once
// vacuumKills kills have landed, midVacuumKills of them mid-removal (fewer
// in the reduced form: vacuumKillsReduced, midVacuumKillsReduced).
func killVacuum(t *testing.T, targets func(string) target) {
	bins := executables(t)
	sd := seed(t)
	t.Logf("seed %d (replay: THUND_CRASH_SEED=%d)", sd, sd)
	wantKills := testenv.Size(t, "least kills inside etl vacuum", vacuumKillsReduced, vacuumKills)
	wantMid := testenv.Size(t, "least of them mid-removal", midVacuumKillsReduced, midVacuumKills)
	sc := scenarios[0]
	s := &scenarioRun{t: t, sc: sc, bin: bins[sc.name], rng: rand.New(rand.NewSource(sd))}
	seq := 0
	s.files = csvFiles(200, "data/events", "events", "id,k,v", func(int) []string {
		var out []string
		for range rowsPerFile {
			seq++
			out = append(out, fmt.Sprintf("%d,k%d,%d", seq, s.rng.Intn(6), s.rng.Intn(100)))
		}
		return out
	})
	r := s.newRoot(targets("vacuum"))
	ctx := context.Background()
	var (
		kills, mid, finished, rounds, verified int
		removable                              = 10 // objects the last round's vacuums removed in all
		vacDur                                 = 50 * time.Millisecond
	)
	start := time.Now()
	for kills < wantKills || mid < wantMid {
		rounds++
		if rounds > 200 || r.n+3 > len(s.files) {
			t.Fatalf("after %d rounds: only %d kills landed in etl vacuum, %d of them mid-removal", rounds, kills, mid)
		}
		s.feed(r, 1+s.rng.Intn(3))
		s.etl(r, 0, "run", "--max-files-per-epoch", "1")
		before := map[string][]string{}
		for _, ds := range sc.read {
			before[ds] = s.read(r, ds)
		}
		keep := strconv.Itoa(1 + s.rng.Intn(3))
		objects := s.objects(ctx, r)

		// The killed vacuum: after a random delay, or after a random number
		// of removals.
		cmd := s.command(r, "vacuum", "--keep", keep)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		afterRemovals := 0
		delay := time.Duration(s.rng.Int63n(int64(vacDur) * 13 / 10))
		if s.rng.Intn(3) != 0 {
			afterRemovals = 1 + s.rng.Intn(max(1, removable))
		}
		t0 := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		wait := time.After(delay)
		stop := make(chan struct{})
		if afterRemovals > 0 {
			ch := make(chan time.Time, 1)
			wait = ch
			fs := r.tg.fs()
			go func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					if infos, err := fs.List(ctx, ""); err == nil && len(infos) <= len(objects)-afterRemovals {
						ch <- time.Now()
						return
					}
					time.Sleep(200 * time.Microsecond)
				}
			}()
		}
		var err error
		select {
		case err = <-done:
			close(stop)
			if err != nil {
				t.Fatalf("etl vacuum (not killed) failed: %v\n%s", err, out.String())
			}
			finished++
			vacDur = (vacDur + time.Since(t0)) / 2
		case <-wait:
			close(stop)
			cmd.Process.Signal(syscall.SIGKILL)
			err = <-done
			ee, ok := err.(*exec.ExitError)
			if ok {
				ws, sig := ee.Sys().(syscall.WaitStatus)
				ok = sig && ws.Signaled() && ws.Signal() == syscall.SIGKILL
			}
			if !ok && err != nil {
				t.Fatalf("etl vacuum failed before the kill landed: %v\n%s", err, out.String())
			}
			if ok {
				kills++
				if len(s.objects(ctx, r)) < len(objects) {
					mid++
				}
			}
		}
		gone := len(objects) - len(s.objects(ctx, r))

		// What a reader sees after the kill.
		verified += s.checkVersions(ctx, r, fmt.Sprintf("round %d, after vacuum --keep %s", rounds, keep))
		s.checkTables(r, s.head(r), false)
		for _, ds := range sc.read {
			if got := s.read(r, ds); !slices.Equal(got, before[ds]) {
				t.Errorf("round %d: %s changed across a killed vacuum:\n%s", rounds, ds, diffLines(got, before[ds]))
			}
		}
		if s.rng.Intn(3) == 0 {
			gone += s.completingVacuum(r, keep)
		}
		removable = gone
	}
	// A final vacuum completes, and leaves nothing for the next one.
	s.completingVacuum(r, "2")
	if n := s.completingVacuum(r, "2"); n != 0 {
		t.Errorf("a vacuum after a completed one removed %d objects", n)
	}
	verified += s.checkVersions(ctx, r, "after the final vacuum")
	s.checkTables(r, s.head(r), true)
	t.Logf("seed %d: %d rounds, %d kills inside etl vacuum (%d after it had removed something), %d vacuums finished before the kill; %d dataset versions read back; %v",
		sd, rounds, kills, mid, finished, verified, time.Since(start).Round(time.Millisecond))
}

// objects lists the warehouse's objects.
func (s *scenarioRun) objects(ctx context.Context, r *root) []string {
	infos, err := r.tg.fs().List(ctx, "")
	if err != nil {
		s.t.Fatal(err)
	}
	var out []string
	for _, i := range infos {
		out = append(out, i.Name)
	}
	return out
}

// completingVacuum runs `etl vacuum --keep keep --json` to its end and
// returns how many objects it removed.
func (s *scenarioRun) completingVacuum(r *root, keep string) int {
	var res struct {
		Commits     []string `json:"removed_commits"`
		DataFiles   []string `json:"removed_data_files"`
		EventLogs   []string `json:"removed_event_logs"`
		Checkpoints []string `json:"removed_checkpoints"`
	}
	out := s.etl(r, 0, "vacuum", "--keep", keep, "--json")
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		s.t.Fatalf("vacuum --json: %v\n%s", err, out)
	}
	return len(res.Commits) + len(res.DataFiles) + len(res.EventLogs) + len(res.Checkpoints)
}

// checkVersions reads back, in full, every dataset version that a commit
// record of the warehouse lists (as `read --version N` resolves it), and one
// of them through `etl read --version`; it returns how many it read.
func (s *scenarioRun) checkVersions(ctx context.Context, r *root, when string) int {
	t := s.t
	s.head(r) // no invalid record
	wh := warehouse.New(r.tg.fs())
	epochs, err := wh.Epochs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type version struct {
		name string
		v    int64
	}
	seen := map[version]bool{}
	var all []version
	for _, e := range epochs {
		c, err := wh.ReadCommit(ctx, e)
		if err != nil {
			t.Errorf("%s: commit %d: %v", when, e, err)
			continue
		}
		for name, d := range c.Datasets {
			k := version{name, d.Version}
			if d.Dropped || seen[k] {
				continue
			}
			seen[k] = true
			all = append(all, k)
			rd, _, err := wh.ReadDataset(ctx, name, d.Version, format.Options{})
			if err == nil {
				var rows int64
				recs, rerr := format.ReadAll(rd)
				for _, rec := range recs {
					rows += rec.NumRows()
					rec.Release()
				}
				if err = rerr; err == nil && rows != d.Rows {
					err = fmt.Errorf("%d rows, the record lists %d", rows, d.Rows)
				}
			}
			if err != nil {
				t.Errorf("%s: commit %d lists %s version %d, which does not read back: %v", when, e, name, d.Version, err)
			}
		}
	}
	if len(all) > 0 {
		v := all[s.rng.Intn(len(all))]
		s.etl(r, 0, "read", v.name, "--version", strconv.FormatInt(v.v, 10), "--format", "csv")
	}
	return len(all)
}
