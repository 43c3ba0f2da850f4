package crashtest

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/rt/iceberg"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/warehouse"
)

// repoRoot is the module root, from this package's folder.
const repoRoot = "../.."

// builds holds the executables, built once per test binary.
var builds struct {
	once sync.Once
	dir  string
	bins map[string]string
	err  error
}

// executables builds thundc and, with it, every scenario's pipeline (once).
func executables(t *testing.T) map[string]string {
	t.Helper()
	builds.once.Do(func() {
		dir, err := os.MkdirTemp("", "thund-crashtest-")
		if err != nil {
			builds.err = err
			return
		}
		builds.dir = dir
		thundc, err := thundcBin()
		if err != nil {
			builds.err = err
			return
		}
		builds.bins = map[string]string{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, sc := range scenarios {
			if sc.exe != "" {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				bin := filepath.Join(dir, sc.name)
				// --s3: the same executables run against a folder and, in
				// the S3 lane (s3_test.go), against a bucket.
				cmd := exec.Command(thundc, "build", "--s3", "pipeline.thund", "-o", bin)
				cmd.Dir = sc.src
				cmd.Env = append(os.Environ(), "THUND_CACHE="+testenv.ThundCache())
				out, err := cmd.CombinedOutput()
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					builds.err = fmt.Errorf("thundc build %s: %v\n%s", sc.src, err, out)
					return
				}
				builds.bins[sc.name] = bin
			}()
		}
		wg.Wait()
		for _, sc := range scenarios {
			if sc.exe != "" {
				builds.bins[sc.name] = builds.bins[sc.exe]
			}
		}
	})
	if builds.err != nil {
		t.Fatal(builds.err)
	}
	return builds.bins
}

// thundcBin builds thundc (once; testenv.Thundc relinks it only when it
// is stale) and returns its path.
var thundcBin = sync.OnceValues(func() (string, error) { return testenv.Thundc(repoRoot) })

// commitAppears returns a channel that receives the time settle after the
// commit record of epoch next appears in fs; it stops looking once stop is
// closed.
func commitAppears(fs store.FS, next int64, settle time.Duration, stop <-chan struct{}) <-chan time.Time {
	ch := make(chan time.Time, 1)
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := fs.Stat(context.Background(), warehouse.CommitName(next)); err == nil {
				time.Sleep(settle)
				ch <- time.Now()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	return ch
}

// TestMain removes the built executables.
func TestMain(m *testing.M) {
	code := m.Run()
	if builds.dir != "" {
		os.RemoveAll(builds.dir)
	}
	os.Exit(code)
}

// scenario is one pipeline under the suite.
type scenario struct {
	name string
	src  string // the folder with pipeline.thund
	// inputs makes the input: files written before the first run (bounded
	// tables), and the files fed in steps, in order.
	inputs func(t *testing.T, rng *rand.Rand) (fixed, feed []inputFile)
	// read: the datasets compared with the uninterrupted run.
	read []string
	// streams: flows (target/flow) that read only the new files of source;
	// each run's rows_in for them must be exactly the rows of the files its
	// head commit had not consumed.
	streams []string
	source  string
	sinkDir string // a CSV sink folder under the root ("": none)
	// batchSinkDir: a CSV batch sink's folder under the root (mode replace,
	// its output one file, replaced on each rebuild): after every kill it
	// holds at most one visible file, and at the end exactly one, equal to
	// the uninterrupted run's ("": none)
	batchSinkDir string
	// sameBatches: each step's files are one micro-batch, as in the
	// uninterrupted run (update-mode changelogs depend on the batches); else
	// a step's files sometimes join the next step's run.
	sameBatches bool
	// exe: run the executable of this scenario (the same pipeline); "": build
	// one of its own.
	exe string
	// maxFiles, keep: the killed and completing runs (not the uninterrupted
	// ones) run with --max-files-per-epoch maxFiles and --keep-checkpoints
	// keep (see cappedScenario).
	maxFiles, keep int
	// stepFiles: a step brings 1 + rng.Intn(stepFiles) files (0: 3).
	stepFiles int
	// commitKills: one killed run in commitKills is killed as soon as its
	// commit record appears (0: 5).
	commitKills int
}

// inputFile is one input file.
type inputFile struct {
	path   string // relative to the root
	data   []byte
	rows   int64
	source string
}

// rowsPerFile is the row count of the generated CSV files.
const rowsPerFile = 12

// csvFiles makes n CSV files under dir, from rows.
func csvFiles(n int, dir, source, header string, rows func(file int) []string) []inputFile {
	var out []inputFile
	for i := range n {
		r := rows(i)
		out = append(out, inputFile{path: fmt.Sprintf("%s/%04d.csv", dir, i), source: source, rows: int64(len(r)),
			data: []byte(header + "\n" + strings.Join(r, "\n") + "\n")})
	}
	return out
}

var scenarios = []*scenario{
	{
		name: "streams", src: "testdata/streams", source: "events",
		inputs:  eventFiles,
		read:    []string{"events_copy", "big_events", "small_inc", "per_key"},
		streams: []string{"events_copy/events_copy", "big_events/big_events", "small_inc/small_inc", "out_csv/export"},
		sinkDir: "out", batchSinkDir: "out_batch",
	},
	{
		name: "cdc", src: repoRoot + "/examples/cdc", source: "customer_changes",
		inputs: func(t *testing.T, rng *rand.Rand) (fixed, feed []inputFile) {
			names := []string{"Ada", "Bo", "Cy", "Di", "Ed"}
			cities := []string{"Oslo", "Malmo", "Bergen", "Turku"}
			seq := int64(0)
			alive := map[int]bool{}
			return nil, csvFiles(16, "data/changes", "customer_changes", "id,name,email,city,op,seq,changed_at", func(int) []string {
				var out []string
				for range rowsPerFile {
					seq++
					id := 1 + rng.Intn(15)
					op := "INSERT"
					switch {
					case alive[id] && rng.Intn(5) == 0:
						op = "DELETE"
						delete(alive, id)
					case alive[id]:
						op = "UPDATE"
					default:
						alive[id] = true
					}
					email := fmt.Sprintf("%s%d@example.no", strings.ToLower(names[id%5]), id)
					if rng.Intn(4) == 0 {
						email = "" // NULL: ignored by customers' null updates
					}
					at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(seq) * time.Minute)
					out = append(out, fmt.Sprintf("%d,%s,%s,%s,%s,%d,%s", id, names[rng.Intn(5)], email, cities[rng.Intn(4)], op, seq, at.Format("2006-01-02 15:04:05")))
				}
				// changes arrive out of order within a file; seq orders them
				rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
				return out
			})
		},
		read:    []string{"customers", "customers_history", "customers_per_city"},
		streams: []string{"customers/customers", "customers_history/customers_history"},
	},
}

// eventFiles are the streams scenario's input: 16 CSV files of events.
func eventFiles(t *testing.T, rng *rand.Rand) (fixed, feed []inputFile) {
	seq := 0
	return nil, csvFiles(16, "data/events", "events", "id,k,v", func(int) []string {
		var out []string
		for range rowsPerFile {
			seq++
			out = append(out, fmt.Sprintf("%d,k%d,%d", seq, rng.Intn(6), rng.Intn(100)))
		}
		return out
	})
}

// target is where a scenario's warehouse lives.
type target struct {
	arg string              // --warehouse
	env []string            // extra environment (S3 settings)
	fs  func() store.FS     // the same warehouse, opened in-process
	new func(string) target // a fresh warehouse for a name
}

func localTarget(t *testing.T) func(string) target {
	base := t.TempDir()
	return func(name string) target {
		dir := filepath.Join(base, name)
		return target{arg: dir, fs: func() store.FS { return &store.Local{Root: dir} }}
	}
}

// suite is one run of the kill suite over every scenario.
type suite struct {
	t       *testing.T
	rng     *rand.Rand
	targets func(string) target
	kills   int
	steps   int
}

func seed(t *testing.T) int64 {
	if s := os.Getenv("THUND_CRASH_SEED"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("THUND_CRASH_SEED=%q: %v", s, err)
		}
		return n
	}
	return time.Now().UnixNano()
}

// TestKill is the kill -9 suite on a local warehouse.
func TestKill(t *testing.T) {
	t.Parallel()
	runSuite(t, localTarget(t))
}

// The suite's size, full (THUND_TEST_FULL=1, as CI runs it) and reduced
// (the default, see internal/testenv): every scenario and every check runs
// in both; the reduced form kills once per step instead of 1 to 3 times,
// and wants fewer kills in all.
const (
	// minKills is the least number of SIGKILLs that land in a running
	// process, per scenario.
	minKills, minKillsReduced = 8, 4
	// suiteKills is the least number of them over all scenarios.
	suiteKills, suiteKillsReduced = 20, 12
	// stepKills: each step has 1 to stepKills killed runs.
	stepKills, stepKillsReduced = 3, 1
)

// runSuite runs the scenarios in parallel (each has its own warehouses,
// folders and random source; runs mostly wait on the disk), and checks
// the number of kills once all have finished.
func runSuite(t *testing.T, targets func(string) target) {
	bins := executables(t)
	sd := seed(t)
	t.Logf("seed %d (replay: THUND_CRASH_SEED=%d)", sd, sd)
	size := suiteSize{
		minKills:  testenv.Size(t, "least kills per scenario", minKillsReduced, minKills),
		stepKills: testenv.Size(t, "most killed runs per step", stepKillsReduced, stepKills),
	}
	want := testenv.Size(t, "least kills in the suite", suiteKillsReduced, suiteKills)
	start := time.Now()
	var mu sync.Mutex
	total, ran := 0, 0
	t.Cleanup(func() { // after every scenario's subtest
		mu.Lock()
		defer mu.Unlock()
		t.Logf("seed %d: %d kills in %v", sd, total, time.Since(start).Round(time.Millisecond))
		if ran == len(scenarios) && total < want {
			t.Errorf("only %d kills landed in a running process; the suite wants at least %d", total, want)
		}
	})
	for i, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			t.Logf("seed %d", sd)
			s := &scenarioRun{t: t, sc: sc, bin: bins[sc.name], rng: rand.New(rand.NewSource(sd + int64(i))), size: size}
			s.run(targets)
			mu.Lock()
			defer mu.Unlock()
			ran++
			total += s.kills
		})
	}
}

// suiteSize is how many kills a scenario's run makes (runSuite).
type suiteSize struct {
	minKills  int // at least this many per scenario
	stepKills int // 1 to stepKills killed runs per step
}

// scenarioRun is one scenario's kill run.
type scenarioRun struct {
	t     *testing.T
	sc    *scenario
	bin   string
	rng   *rand.Rand
	size  suiteSize
	fixed []inputFile // written before the first run
	files []inputFile // fed in steps, in order
	kills int
	after int           // kills that landed after the run's commit
	dur   time.Duration // the mean uninterrupted run
	// --max-files-per-epoch: kills that landed after the killed run's first
	// commit with input still unread, and the pairs of consecutive commits
	// checked against the cap.
	midBacklog, capChecked int
	seen                   map[int64]bool // epochs checkCap compared with the one before
	logs                   []string       // the output of every run, killed or not, and command
}

// root is a working folder: the feed folder and, for sinks, their output.
type root struct {
	dir string
	tg  target
	n   int // files fed so far
}

func (s *scenarioRun) run(targets func(string) target) {
	t := s.t
	s.fixed, s.files = s.sc.inputs(t, s.rng)
	nfiles := len(s.files)
	// The steps: how many files each brings.
	var steps []int
	stepFiles := s.sc.stepFiles
	if stepFiles == 0 {
		stepFiles = 3
	}
	for left := nfiles; left > 0; {
		n := min(left, 1+s.rng.Intn(stepFiles))
		steps = append(steps, n)
		left -= n
	}

	// The uninterrupted run: one run per step.
	ref := s.newRoot(targets(s.sc.name + "-ref"))
	t0 := time.Now()
	for _, n := range steps {
		s.feed(ref, n)
		s.etl(ref, 0, "run")
	}
	s.dur = time.Since(t0) / time.Duration(len(steps))

	// The same steps, with kills.
	cr := s.newRoot(targets(s.sc.name + "-crash"))
	for i, n := range steps {
		s.feed(cr, n)
		first := true
		// Under --max-files-per-epoch, until a kill has landed after a run's
		// first commit with input left, every step tries while it can.
		tryMid := func() bool {
			return s.sc.maxFiles > 0 && s.midBacklog == 0 && s.unread(cr, s.head(cr)) > s.sc.maxFiles
		}
		// (rng.Intn(1) draws too, so that the reduced form's input and
		// choices follow the same seed as the full form's.)
		for a := 1 + s.rng.Intn(s.size.stepKills); a > 0 || (i == len(steps)-1 && s.kills < s.size.minKills) || tryMid(); a-- {
			s.killedRun(cr, first || s.rng.Intn(2) == 0)
			first = false
			s.checkVisible(cr)
			s.checkCap(cr)
		}
		// Mostly a run completes before the next step; sometimes the next
		// step's files join the same run.
		if s.sc.sameBatches || s.rng.Intn(4) != 0 || i == len(steps)-1 {
			s.completingRun(cr)
			s.checkVisible(cr)
			s.checkTables(cr, s.head(cr), true)
			s.checkCap(cr)
			s.checkNoOrphans(cr)
		}
	}
	if s.sc.maxFiles > 0 {
		if s.midBacklog == 0 {
			t.Errorf("no kill landed after a run's first commit with input left: the checkpoint interval went untested")
		}
		if s.capChecked == 0 {
			t.Errorf("no two consecutive commits were compared against --max-files-per-epoch")
		}
		t.Logf("%s: %d kills after a run's first commit with input left; %d consecutive commits within %d files",
			s.sc.name, s.midBacklog, s.capChecked, s.sc.maxFiles)
	}
	for _, ds := range s.sc.read {
		got, want := s.read(cr, ds), s.read(ref, ds)
		if !slices.Equal(got, want) {
			t.Errorf("%s after %d kills differs from the uninterrupted run (sorted rows):\n%s", ds, s.kills, diffLines(got, want))
		} else if len(want) < 2 {
			t.Errorf("%s: the uninterrupted run produced no rows", ds)
		}
	}
	if s.sc.sinkDir != "" {
		got, want := s.sinkRows(cr), s.sinkRows(ref)
		if !slices.Equal(got, want) {
			t.Errorf("sink folder %s after %d kills differs from the uninterrupted run:\n%s", s.sc.sinkDir, s.kills, diffLines(got, want))
		}
		if n := s.sourceRows(nfiles, nil); int64(len(want)) != n {
			t.Errorf("sink folder of the uninterrupted run: %d rows, want %d", len(want), n)
		}
	}
	if s.sc.batchSinkDir != "" {
		got, gotFiles := s.folderRows(cr, s.sc.batchSinkDir)
		want, wantFiles := s.folderRows(ref, s.sc.batchSinkDir)
		if gotFiles != 1 || wantFiles != 1 {
			t.Errorf("batch sink folder %s: %d visible files after %d kills, %d in the uninterrupted run; want 1", s.sc.batchSinkDir, gotFiles, s.kills, wantFiles)
		}
		if !slices.Equal(got, want) {
			t.Errorf("batch sink folder %s after %d kills differs from the uninterrupted run:\n%s", s.sc.batchSinkDir, s.kills, diffLines(got, want))
		} else if len(want) == 0 {
			t.Errorf("batch sink folder %s: the uninterrupted run produced no rows", s.sc.batchSinkDir)
		}
	}
	t.Logf("%s: %d steps, %d kills (%d after the run's commit); an uninterrupted run takes %v on average",
		s.sc.name, len(steps), s.kills, s.after, s.dur.Round(time.Millisecond))
}

// newRoot is a working folder with the fixed input files.
func (s *scenarioRun) newRoot(tg target) *root {
	r := &root{dir: s.t.TempDir(), tg: tg}
	for _, f := range s.fixed {
		s.put(r, f)
	}
	return r
}

// put writes an input file beside its folder, then renames it into place,
// so a run never sees half a file.
func (s *scenarioRun) put(r *root, f inputFile) {
	dst := filepath.Join(r.dir, filepath.FromSlash(f.path))
	incoming := filepath.Join(r.dir, "incoming")
	for _, d := range []string{filepath.Dir(dst), incoming} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			s.t.Fatal(err)
		}
	}
	tmp := filepath.Join(incoming, filepath.Base(dst))
	if err := os.WriteFile(tmp, f.data, 0o644); err != nil {
		s.t.Fatal(err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		s.t.Fatal(err)
	}
}

// feed adds the next n input files.
func (s *scenarioRun) feed(r *root, n int) {
	for range n {
		s.put(r, s.files[r.n])
		r.n++
	}
}

// sourceRows counts the rows of the first n fed files of the scenario's
// source, less those of the consumed paths.
func (s *scenarioRun) sourceRows(n int, consumed map[string]bool) int64 {
	var rows int64
	for _, f := range s.files[:n] {
		if f.source == s.sc.source && !consumed[f.path] {
			rows += f.rows
		}
	}
	return rows
}

func (s *scenarioRun) command(r *root, args ...string) *exec.Cmd {
	cmd := exec.Command(s.bin, append(args, "--warehouse", r.tg.arg)...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), r.tg.env...)
	return cmd
}

// etl runs a command to its end and wants exit status code; it returns
// stdout.
func (s *scenarioRun) etl(r *root, code int, args ...string) string {
	s.t.Helper()
	cmd := s.command(r, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	got := 0
	if ee, ok := err.(*exec.ExitError); ok {
		got = ee.ExitCode()
	} else if err != nil {
		s.t.Fatal(err)
	}
	if got != code {
		s.t.Fatalf("etl %s: exit %d, want %d\n%s%s", strings.Join(args, " "), got, code, stdout.String(), stderr.String())
	}
	s.logs = append(s.logs, stdout.String()+stderr.String())
	return stdout.String()
}

// runArgs is the command line of the killed and completing runs.
func (s *scenarioRun) runArgs() []string {
	if s.sc.maxFiles == 0 {
		return []string{"run"}
	}
	return []string{"run", "--max-files-per-epoch", strconv.Itoa(s.sc.maxFiles), "--keep-checkpoints", strconv.Itoa(s.sc.keep)}
}

// killedRun starts `etl run` and SIGKILLs it after a random delay of up to
// 1.3 times the mean uninterrupted run, or (one time in five, or in
// sc.commitKills) as soon as its commit record appears. Under
// --max-files-per-epoch the delay is scaled by the epochs the run has to
// commit, and with afterFirst (when more than one epoch of input waits) the
// kill lands within half an uninterrupted run after the run's first commit.
func (s *scenarioRun) killedRun(r *root, afterFirst bool) {
	before := s.head(r)
	st, err := warehouse.New(r.tg.fs()).Load(context.Background())
	if err != nil {
		s.t.Fatal(err)
	}
	next, fs := st.NextEpoch, r.tg.fs()
	left := s.unread(r, before)
	afterFirst = afterFirst && s.sc.maxFiles > 0 && left > s.sc.maxFiles
	commitKills := s.sc.commitKills
	if commitKills == 0 {
		commitKills = 5
	}
	atCommit := !afterFirst && s.rng.Intn(commitKills) == 0
	stop := make(chan struct{})
	cmd := s.command(r, s.runArgs()...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	delay := time.Duration(s.rng.Int63n(int64(s.dur) * 13 / 10))
	if n := s.sc.maxFiles; n > 0 {
		delay *= time.Duration(max(1, (left+n-1)/n))
	}
	settle := time.Duration(0) // after the first commit (afterFirst)
	if afterFirst {
		settle = time.Duration(s.rng.Int63n(int64(s.dur) / 2))
	}
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	wait := time.After(delay)
	if atCommit || afterFirst {
		// Kill as soon as the commit record is there: between the commit
		// point and the end of the process (event log, lock, sinks); or,
		// afterFirst, a while later, in the run's next epochs.
		wait = commitAppears(fs, next, settle, stop)
	}
	select {
	case err := <-done:
		close(stop)
		if err != nil {
			s.t.Fatalf("etl run (not killed) failed: %v\n%s", err, out.String())
		}
		s.logs = append(s.logs, out.String())
		return
	case <-wait:
	}
	close(stop)
	cmd.Process.Signal(syscall.SIGKILL)
	err = <-done
	s.logs = append(s.logs, out.String())
	if ee, ok := err.(*exec.ExitError); ok {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			s.kills++
			h := s.head(r)
			if h != nil && (before == nil || h.Epoch > before.Epoch) {
				s.after++
			}
			if s.sc.maxFiles > 0 {
				s.checkKilled(r, before, h, out.String())
			}
			return
		}
	}
	if err != nil {
		s.t.Fatalf("etl run failed before the kill landed: %v\n%s", err, out.String())
	}
}

// completingRun runs `etl run --json` to its end and checks that it resumed
// from the head commit and read only the input files the head had not
// consumed.
func (s *scenarioRun) completingRun(r *root) {
	t := s.t
	head := s.head(r)
	want := map[string]int64{}
	for _, key := range s.sc.streams {
		consumed := map[string]bool{}
		if head != nil {
			var off struct {
				Files []struct {
					Path string `json:"path"`
				} `json:"files"`
			}
			if raw, ok := head.SourceOffsets[key+"/"+s.sc.source]; ok {
				if err := json.Unmarshal(raw, &off); err != nil {
					t.Fatal(err)
				}
			}
			for _, f := range off.Files {
				consumed[f.Path] = true
			}
		}
		want[key] = s.sourceRows(r.n, consumed)
	}
	got := map[string]int64{}
	var epochs []map[string]int64 // per epoch of the run: the rows each stream flow read
	resumed := int64(-1)
	for _, line := range strings.Split(strings.TrimSpace(s.etl(r, 0, append(s.runArgs(), "--json")...)), "\n") {
		var ev struct {
			Type   string `json:"event_type"`
			Origin struct {
				Dataset string `json:"dataset"`
				Flow    string `json:"flow"`
			} `json:"origin"`
			Details struct {
				FlowEnd *struct {
					RowsIn int64 `json:"rows_in"`
				} `json:"flow_end"`
				Resume *struct {
					Epoch int64 `json:"epoch"`
				} `json:"resume_from_epoch"`
			} `json:"details"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("run --json: %v: %s", err, line)
		}
		switch {
		case ev.Type == "run_start":
			epochs = append(epochs, map[string]int64{})
		case ev.Details.FlowEnd != nil && len(epochs) > 0:
			got[ev.Origin.Dataset+"/"+ev.Origin.Flow] += ev.Details.FlowEnd.RowsIn
			epochs[len(epochs)-1][ev.Origin.Dataset+"/"+ev.Origin.Flow] += ev.Details.FlowEnd.RowsIn
		case ev.Details.Resume != nil && resumed < 0:
			resumed = ev.Details.Resume.Epoch // the run's first epoch
		}
	}
	if head != nil && resumed != head.Epoch {
		t.Errorf("the run after epoch %d resumed from %d (resume_from_epoch)", head.Epoch, resumed)
	}
	if n := s.sc.maxFiles; n > 0 {
		// Each epoch reads at most n files per stream read: the first one
		// reads again what a killed run's epoch in flight had read, the
		// others read what no run had read yet.
		for i, ep := range epochs {
			for _, key := range s.sc.streams {
				if ep[key] > int64(n*rowsPerFile) {
					t.Errorf("epoch %d of a run with --max-files-per-epoch %d: flow %s read %d rows, more than %d files of %d", i+1, n, key, ep[key], n, rowsPerFile)
				}
			}
		}
		if left := s.unread(r, head); len(epochs) < (left+n-1)/n {
			t.Errorf("a run with --max-files-per-epoch %d read %d unread files in %d epochs", n, left, len(epochs))
		}
	}
	for _, key := range s.sc.streams {
		if got[key] != want[key] {
			headEpoch := int64(0)
			if head != nil {
				headEpoch = head.Epoch
			}
			t.Errorf("flow %s read %d rows after commit %d, want %d (the rows of the %d files fed, less those the commit consumed)",
				key, got[key], headEpoch, want[key], r.n)
		}
	}
}

// consumed is the set of files a commit's offset of stream flow key
// records (empty for a nil commit).
func (s *scenarioRun) consumed(c *warehouse.Commit, key string) map[string]bool {
	out := map[string]bool{}
	if c == nil {
		return out
	}
	var off struct {
		Files []struct {
			Path string `json:"path"`
		} `json:"files"`
	}
	if raw, ok := c.SourceOffsets[key+"/"+s.sc.source]; ok {
		if err := json.Unmarshal(raw, &off); err != nil {
			s.t.Fatal(err)
		}
	}
	for _, f := range off.Files {
		out[f.Path] = true
	}
	return out
}

// unread is the most files fed so far that a stream flow's offset in c does
// not record.
func (s *scenarioRun) unread(r *root, c *warehouse.Commit) int {
	most := 0
	for _, key := range s.sc.streams {
		done, n := s.consumed(c, key), 0
		for _, f := range s.files[:r.n] {
			if f.source == s.sc.source && !done[f.path] {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}

// committedLine is the line a run prints for each epoch it committed.
var committedLine = regexp.MustCompile(`(?m)^epoch ([0-9]+) committed in `)

// checkKilled checks a kill under --max-files-per-epoch: every epoch the
// run said it committed is in the warehouse (head is at least the last),
// and counts the kills that landed after the run's first commit with input
// left to read. For those, what the restart reads again is the epoch in
// flight at most: the files the commits before it consumed are never read
// again (completingRun checks that a run reads exactly the files the head
// has not consumed), and an epoch reads at most --max-files-per-epoch files
// (checkCap checks every commit, completingRun every epoch of its run).
func (s *scenarioRun) checkKilled(r *root, before, head *warehouse.Commit, out string) {
	for _, m := range committedLine.FindAllStringSubmatch(out, -1) {
		n, _ := strconv.ParseInt(m[1], 10, 64)
		if head == nil || head.Epoch < n {
			s.t.Errorf("a killed run said it committed epoch %d; the warehouse's head is %v", n, head)
		}
	}
	if head != nil && (before == nil || head.Epoch > before.Epoch) && s.unread(r, head) > 0 {
		s.midBacklog++
	}
}

// checkCap checks --max-files-per-epoch on the commits in the warehouse
// (those --keep-checkpoints kept): from one epoch to the next, a stream
// flow's offset grows by at most maxFiles files, and never shrinks.
func (s *scenarioRun) checkCap(r *root) {
	if s.sc.maxFiles == 0 {
		return
	}
	ctx := context.Background()
	wh := warehouse.New(r.tg.fs())
	epochs, err := wh.Epochs(ctx)
	if err != nil {
		s.t.Fatal(err)
	}
	if s.seen == nil {
		s.seen = map[int64]bool{}
	}
	var prev *warehouse.Commit
	for _, e := range epochs {
		c, err := wh.ReadCommit(ctx, e)
		if err != nil {
			s.t.Fatal(err)
		}
		if prev != nil && prev.Epoch == e-1 && !s.seen[e] {
			s.seen[e] = true
			s.capChecked++
			for _, key := range s.sc.streams {
				was, now := s.consumed(prev, key), s.consumed(c, key)
				grew := len(now) - len(was)
				for f := range was {
					if !now[f] {
						s.t.Errorf("commit %d: flow %s no longer records %s as consumed", e, key, f)
					}
				}
				if grew > s.sc.maxFiles {
					s.t.Errorf("commit %d: flow %s consumed %d files since commit %d; --max-files-per-epoch is %d", e, key, grew, e-1, s.sc.maxFiles)
				}
			}
		}
		prev = c
	}
}

// head loads the warehouse's latest commit (nil before the first).
func (s *scenarioRun) head(r *root) *warehouse.Commit {
	st, err := warehouse.New(r.tg.fs()).Load(context.Background())
	if err != nil {
		s.t.Fatal(err)
	}
	if len(st.Invalid) > 0 {
		s.t.Fatalf("invalid commit records after a kill: %v", st.Invalid)
	}
	return st.Head
}

// partName is what a committed data file's name must look like: no
// temporary or hidden names.
var partName = regexp.MustCompile(`^[a-z_][a-z0-9_]*/v[0-9]+/(?:[^/.][^/]*=[^/]*/)*part-[0-9]{5}-[0-9a-f]{8}\.(?:parquet|csv|jsonl)$`)

// checkVisible checks what a reader sees after a kill: every file the head
// commit lists exists with its recorded size and has a committed name; the
// state it references verifies; every dataset reads in full; every visible
// sink file parses in full.
func (s *scenarioRun) checkVisible(r *root) {
	t := s.t
	ctx := context.Background()
	head := s.head(r)
	if head == nil {
		return
	}
	fs := r.tg.fs()
	for name, d := range head.Datasets {
		if d.Dropped {
			continue
		}
		var rows int64
		for _, f := range d.Files {
			if !partName.MatchString(f.Path) || !strings.HasPrefix(f.Path, name+"/") {
				t.Errorf("commit %d lists %s for %s: not a committed file name", head.Epoch, f.Path, name)
			}
			info, err := fs.Stat(ctx, f.Path)
			if err != nil {
				t.Errorf("commit %d lists %s: %v", head.Epoch, f.Path, err)
				continue
			}
			if info.Size != f.Bytes {
				t.Errorf("commit %d lists %s with %d bytes; it has %d", head.Epoch, f.Path, f.Bytes, info.Size)
			}
			rows += f.Rows
		}
		if got := len(s.read(r, name)) - 1; int64(got) != rows {
			t.Errorf("read %s after a kill: %d rows, the commit lists %d", name, got, rows)
		}
	}
	if err := warehouse.New(fs).VerifyState(ctx, head); err != nil {
		t.Errorf("state of commit %d after a kill: %v", head.Epoch, err)
	}
	s.checkTables(r, head, false)
	if s.sc.sinkDir != "" {
		s.sinkRows(r)
	}
	if s.sc.batchSinkDir != "" {
		if _, err := os.Stat(filepath.Join(r.dir, s.sc.batchSinkDir)); err == nil {
			if _, n := s.folderRows(r, s.sc.batchSinkDir); n > 1 {
				t.Errorf("batch sink folder %s after a kill: %d visible files, want at most 1 (a reader would see two rebuilds)", s.sc.batchSinkDir, n)
			}
		}
	}
}

// checkTables checks the datasets' Iceberg tables against the warehouse
// (iceberg.Verify): never ahead of the commit after a kill, each snapshot
// exactly its version's files, all of them there; with upToDate (after a
// completed run or vacuum) each dataset's table exists and is at the
// commit's version.
func (s *scenarioRun) checkTables(r *root, head *warehouse.Commit, upToDate bool) {
	ctx := context.Background()
	fs := r.tg.fs()
	if err := iceberg.Verify(ctx, warehouse.New(fs), head, upToDate); err != nil {
		s.t.Errorf("Iceberg tables (upToDate=%v): %v", upToDate, err)
	}
	if !upToDate || head == nil {
		return
	}
	for name, d := range head.Datasets {
		if _, _, _, err := iceberg.Current(ctx, fs, name); err != nil && !d.Dropped {
			s.t.Errorf("dataset %s has no Iceberg table after a completed run: %v", name, err)
		}
	}
}

// checkNoOrphans checks, after a completed run, that no temporary file of a
// killed run is left in a folder only the lock's holder writes (dataset
// versions, commit records, checkpoints): the run removed them when it took
// the lock. Folders only; S3 has no temporary files to look at.
func (s *scenarioRun) checkNoOrphans(r *root) {
	l, ok := r.tg.fs().(*store.Local)
	if !ok {
		return
	}
	filepath.WalkDir(l.Root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(d.Name(), ".tmp-") {
			return nil
		}
		rel, _ := filepath.Rel(l.Root, p)
		rel = filepath.ToSlash(rel)
		if !strings.HasPrefix(rel, warehouse.EngineDir+"/") || strings.HasPrefix(rel, warehouse.CommitsDir+"/") || strings.HasPrefix(rel, warehouse.CheckpointsDir+"/") {
			s.t.Errorf("after a completed run, a killed run's temporary file is left: %s", rel)
		}
		return nil
	})
}

// read returns `etl read NAME --format csv`, header first, rows sorted.
func (s *scenarioRun) read(r *root, name string) []string {
	lines := strings.Split(strings.TrimRight(s.etl(r, 0, "read", name, "--format", "csv"), "\n"), "\n")
	slices.Sort(lines[1:])
	return lines
}

// sinkRows reads every visible (not hidden) file of the sink folder in full
// and returns their data rows, sorted.
func (s *scenarioRun) sinkRows(r *root) []string {
	rows, _ := s.folderRows(r, s.sc.sinkDir)
	return rows
}

// folderRows reads every visible file of the sink folder sub in full and
// returns their data rows, sorted, and how many files there are.
func (s *scenarioRun) folderRows(r *root, sub string) (rows []string, files int) {
	t := s.t
	dir := filepath.Join(r.dir, sub)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue // a sink's temporary file: never a reader's
		}
		files++
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil || len(recs) == 0 || !bytes.HasSuffix(data, []byte("\n")) {
			t.Errorf("sink file %s is not a whole CSV file: %v\n%s", e.Name(), err, data)
			continue
		}
		for _, rec := range recs[1:] {
			rows = append(rows, strings.Join(rec, ","))
		}
	}
	slices.Sort(rows)
	return rows, files
}

// diffLines shows what one sorted multiset has that the other lacks.
func diffLines(got, want []string) string {
	count := map[string]int{}
	for _, l := range got {
		count[l]++
	}
	for _, l := range want {
		count[l]--
	}
	var b strings.Builder
	for l, n := range count {
		switch {
		case n > 0:
			fmt.Fprintf(&b, "  extra (x%d): %s\n", n, l)
		case n < 0:
			fmt.Fprintf(&b, "  missing (x%d): %s\n", -n, l)
		}
	}
	return b.String()
}

// TestTwoWriters: concurrent runs against one local warehouse.
func TestTwoWriters(t *testing.T) {
	t.Parallel()
	twoWriters(t, localTarget(t))
}

// twoWriters starts four `etl run` processes at once against one warehouse,
// in several rounds of new input: each either commits an epoch of its own
// or is refused with the lock's message, or finds nothing left to do (none
// fails otherwise), at least one
// is refused, and the outputs equal those of one run per round: no input
// was consumed twice.
func twoWriters(t *testing.T, targets func(string) target) {
	bins := executables(t)
	sc := scenarios[0]
	s := &scenarioRun{t: t, sc: sc, bin: bins[sc.name], rng: rand.New(rand.NewSource(1))}
	const rounds = 3
	s.fixed, s.files = sc.inputs(t, s.rng)
	ref := s.newRoot(targets("writers-ref"))
	many := s.newRoot(targets("writers"))
	epochs := map[int64]bool{}
	refused := 0
	for range rounds {
		s.feed(ref, 2)
		s.etl(ref, 0, "run")
		s.feed(many, 2)
		type result struct {
			code int
			out  string
		}
		res := make([]result, 4)
		var wg sync.WaitGroup
		for i := range res {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := s.command(many, "run")
				out, err := cmd.CombinedOutput()
				res[i].out = string(out)
				if ee, ok := err.(*exec.ExitError); ok {
					res[i].code = ee.ExitCode()
				} else if err != nil {
					res[i].code = -1
					res[i].out += err.Error()
				}
			}()
		}
		wg.Wait()
		committed := regexp.MustCompile(`committed epoch ([0-9]+)`)
		for _, r := range res {
			switch m := committed.FindStringSubmatch(r.out); {
			case r.code == 0 && m != nil:
				n, _ := strconv.ParseInt(m[1], 10, 64)
				if epochs[n] {
					t.Errorf("two runs committed epoch %d", n)
				}
				epochs[n] = true
			case r.code == 1 && strings.Contains(r.out, "the warehouse is in use by run"):
				refused++
			case r.code == 0 && strings.Contains(r.out, "nothing to do; nothing committed"):
				// it took the lock after the round's commit: nothing left
			default:
				t.Errorf("a concurrent run: exit %d\n%s", r.code, r.out)
			}
		}
	}
	if refused == 0 {
		t.Errorf("no run of %d concurrent ones was refused the lock", rounds*4)
	}
	for _, ds := range sc.read {
		if got, want := s.read(many, ds), s.read(ref, ds); !slices.Equal(got, want) {
			t.Errorf("%s after concurrent runs differs from one run per round:\n%s", ds, diffLines(got, want))
		}
	}
	if got, want := s.sinkRows(many), s.sinkRows(ref); !slices.Equal(got, want) {
		t.Errorf("sink after concurrent runs differs from one run per round:\n%s", diffLines(got, want))
	}
	t.Logf("%d commits, %d runs refused the lock", len(epochs), refused)
}
