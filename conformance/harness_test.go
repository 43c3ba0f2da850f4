package conformance

// The harness: TestMain builds thundc from ../cmd/thundc, generates the
// data, builds testdata/pipeline.thund into one executable, runs it at
// --threads 1 and --threads 2 (separate warehouses), reads every view with
// `read --format jsonl`, and opens DuckDB on the same CSV files. The tests
// then compare.
//
// When codegen refuses a view (a positioned diagnostic) or generates Go that
// does not compile (an error in flow_NAME.go), the view is recorded as
// refused and the rest is rebuilt without it; when a run fails, the failing
// flow is recorded and the rest rerun. Refusals and failures are findings:
// the view's test fails, unless knownFailures lists it (then it logs).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nordisk/thund/frontend/dsl"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

const pipelineFile = "testdata/pipeline.thund"

// threadCounts are the --threads values every result must agree across.
var threadCounts = [2]int{1, 2}

var suite struct {
	err      error // setup failed: every test reports it
	work     string
	root     string // --root: the data is under root/data
	unit     *passes.Unit
	views    []*ir.Dataset     // materialized views compared with DuckDB, in order
	errViews []*ir.Dataset     // err_* views: each must fail
	expect   map[string]string // err_* view → the error class it must report
	etl      string
	refused  map[string]string    // view → why the build left it out
	runErr   [2]map[string]string // per thread count: view → why it has no result
	out      [2]map[string][]byte // per thread count: view → jsonl
	duck     *duckSession
	timings  []string
}

func TestMain(m *testing.M) {
	start := time.Now()
	suite.err = setup()
	suite.timings = append(suite.timings, fmt.Sprintf("setup %v", time.Since(start).Round(time.Millisecond)))
	fmt.Fprintf(os.Stderr, "conformance: %s\n", strings.Join(suite.timings, ", "))
	if suite.err != nil {
		fmt.Fprintf(os.Stderr, "conformance setup failed: %v\n", suite.err)
	}
	code := m.Run()
	if suite.duck != nil {
		suite.duck.close()
	}
	if suite.work != "" && os.Getenv("THUND_CONFORMANCE_KEEP") == "" {
		os.RemoveAll(suite.work)
	} else if suite.work != "" {
		fmt.Fprintf(os.Stderr, "conformance: kept %s\n", suite.work)
	}
	os.Exit(code)
}

// needSetup stops a test when the shared setup failed.
func needSetup(t *testing.T) {
	t.Helper()
	if suite.err != nil {
		t.Fatalf("setup: %v", suite.err)
	}
}

func timed(what string, start time.Time) {
	suite.timings = append(suite.timings, fmt.Sprintf("%s %v", what, time.Since(start).Round(time.Millisecond)))
}

func setup() error {
	var err error
	if suite.work, err = os.MkdirTemp("", "thund-conformance-"); err != nil {
		return err
	}
	suite.root = filepath.Join(suite.work, "root")
	suite.refused = map[string]string{}
	suite.expect = map[string]string{}

	src, err := pipelineSource()
	if err != nil {
		return err
	}
	if err := loadPipeline(src); err != nil {
		return err
	}

	// thundc and the data, concurrently
	var wg sync.WaitGroup
	var buildErr, genErr error
	wg.Go(func() {
		defer timed("go build thundc", time.Now())
		buildErr = buildThundc()
	})
	wg.Go(func() {
		defer timed("generate data", time.Now())
		genErr = generate(filepath.Join(suite.root, "data"))
	})
	wg.Wait()
	if err := errors.Join(buildErr, genErr); err != nil {
		return err
	}

	// the executable, and DuckDB meanwhile
	var duckErr error
	wg.Go(func() {
		defer timed("duckdb load", time.Now())
		suite.duck, duckErr = openDuck(suite.root, suite.unit)
	})
	start := time.Now()
	err = buildETL(src)
	timed("thundc build", start)
	wg.Wait()
	if err := errors.Join(err, duckErr); err != nil {
		return err
	}

	start = time.Now()
	for i := range threadCounts {
		wg.Go(func() { runAndRead(i) })
	}
	wg.Wait()
	timed("etl run+read (both thread counts)", start)
	return nil
}

// loadPipeline parses and resolves the pipeline the way thundc does.
func loadPipeline(src []byte) error {
	p, diags := dsl.Parse(pipelineFile, src)
	if diags.HasErrors() {
		return diags.Err()
	}
	u, err := passes.Run(p, passes.Options{Target: passes.Native, StopAfter: "fuse"}) // what the native backend refuses, buildETL leaves out
	if err != nil {
		return fmt.Errorf("passes: %w", err)
	}
	suite.unit = u
	for _, d := range p.Datasets {
		if d.Kind != ir.KindMaterializedView {
			continue
		}
		for _, s := range ir.Scans(p.FlowsInto(d.Name)[0].Query) {
			if x := p.LookupDataset(s.Name); x == nil || x.Kind != ir.KindSource {
				return fmt.Errorf("%s reads %s: conformance views read only sources, so that each can run alone", d.Name, s.Name)
			}
		}
		if strings.HasPrefix(d.Name, "err_") {
			suite.errViews = append(suite.errViews, d)
			for _, c := range d.Doc {
				if _, class, ok := strings.Cut(c, "error:"); ok {
					suite.expect[d.Name] = strings.TrimSpace(class)
				}
			}
			if suite.expect[d.Name] == "" {
				return fmt.Errorf("%s: no \"# error: CLASS\" comment", d.Name)
			}
			continue
		}
		suite.views = append(suite.views, d)
	}
	return nil
}

func goCmd(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	return cmd
}

func buildThundc() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	suite.etl = filepath.Join(suite.work, "etl")
	out, err := goCmd(ctx, "..", "build", "-buildvcs=false", "-o", filepath.Join(suite.work, "thundc"), "./cmd/thundc").CombinedOutput()
	if err != nil {
		return fmt.Errorf("go build ./cmd/thundc: %v\n%s", err, out)
	}
	return nil
}

var (
	diagPos   = regexp.MustCompile(`pipeline\.thund:(\d+):\d+`)
	goErrLine = regexp.MustCompile(`(?m)^\./flow_([a-z0-9_]+?)(?:_\d+)?\.go:\d+:\d+: (.*)$`)
)

// buildETL builds the pipeline, leaving out what the build refuses, until
// it builds.
func buildETL(src []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cache := filepath.Join(os.TempDir(), "thund-conformance-cache")
	file := filepath.Join(suite.work, "pipeline.thund")
	for attempt := 0; ; attempt++ {
		if err := os.WriteFile(file, src, 0o644); err != nil {
			return err
		}
		// a relative path: positions embedded in the program stay the same
		// from run to run, so the content-addressed build cache hits
		cmd := exec.CommandContext(ctx, filepath.Join(suite.work, "thundc"), "build", filepath.Base(file), "-o", suite.etl)
		cmd.Dir = suite.work
		cmd.Env = append(os.Environ(), "THUND_CACHE="+cache, "GOWORK=off")
		out, err := cmd.CombinedOutput()
		if err == nil {
			return nil
		}
		p, diags := dsl.Parse("pipeline.thund", src)
		if diags.HasErrors() || attempt > 30 {
			return fmt.Errorf("thundc build: %v\n%s", err, out)
		}
		culprits := map[string][]string{}
		for _, l := range strings.Split(string(out), "\n") {
			// the first position on a line of a diagnostic (or of an
			// internal error) names the declaration at fault
			if m := diagPos.FindStringSubmatch(l); m != nil {
				line, _ := strconv.Atoi(m[1])
				if d := datasetAt(p, line); d != "" {
					culprits[d] = append(culprits[d], "thundc build: "+strings.TrimSpace(l))
				}
			}
		}
		for _, m := range goErrLine.FindAllStringSubmatch(string(out), -1) {
			for _, d := range p.Datasets {
				if strings.EqualFold(d.Name, m[1]) {
					culprits[d.Name] = append(culprits[d.Name], "generated Go does not compile: "+m[2])
				}
			}
		}
		if len(culprits) == 0 {
			return fmt.Errorf("thundc build failed and no view could be blamed: %v\n%s", err, out)
		}
		for name, why := range culprits {
			suite.refused[name] = strings.Join(dedup(why), "; ")
		}
		src = ir.Print(without(p, culprits))
	}
}

func dedup(list []string) []string {
	var out []string
	for _, s := range list {
		if len(out) == 0 || out[len(out)-1] != s {
			out = append(out, s)
		}
	}
	return out
}

// datasetAt names the dataset whose declaration holds line.
func datasetAt(p *ir.Pipeline, line int) string {
	best := ""
	bestLine := 0
	for _, d := range p.Datasets {
		if d.Pos.Line <= line && d.Pos.Line > bestLine {
			best, bestLine = d.Name, d.Pos.Line
		}
	}
	return best
}

func without(p *ir.Pipeline, drop map[string][]string) *ir.Pipeline {
	q := *p
	q.Datasets, q.Flows = nil, nil
	for _, d := range p.Datasets {
		if _, ok := drop[d.Name]; !ok {
			q.Datasets = append(q.Datasets, d)
		}
	}
	for _, f := range p.Flows {
		if _, ok := drop[f.Target]; !ok {
			q.Flows = append(q.Flows, f)
		}
	}
	return &q
}

// etlCmd runs the executable.
func etlCmd(ctx context.Context, args ...string) (stdout, stderr []byte, err error) {
	cmd := exec.CommandContext(ctx, suite.etl, args...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.Bytes(), e.Bytes(), err
}

var flowInError = regexp.MustCompile(`(?m)^\s*error: flow ([a-z0-9_]+):`)

// runAndRead runs every buildable view at threadCounts[i], then reads them.
func runAndRead(i int) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	n := strconv.Itoa(threadCounts[i])
	suite.runErr[i] = map[string]string{}
	suite.out[i] = map[string][]byte{}
	var sel []string
	for _, d := range suite.views {
		if suite.refused[d.Name] == "" {
			sel = append(sel, d.Name)
		}
	}
	wh := func(attempt int) string { return filepath.Join(suite.work, fmt.Sprintf("wh-t%s-%d", n, attempt)) }
	ok := false
	var warehouse string
	for attempt := 0; attempt < 10 && len(sel) > 0; attempt++ {
		warehouse = wh(attempt)
		_, stderr, err := etlCmd(ctx, "run", "--warehouse", warehouse, "--root", suite.root, "--threads", n, "--select", strings.Join(sel, ","))
		if err == nil {
			ok = true
			break
		}
		var blamed []string
		for _, m := range flowInError.FindAllStringSubmatch(string(stderr), -1) {
			if slicesContains(sel, m[1]) && suite.runErr[i][m[1]] == "" {
				suite.runErr[i][m[1]] = "etl run --threads " + n + ": " + excerpt(stderr)
				blamed = append(blamed, m[1])
			}
		}
		if len(blamed) == 0 {
			break
		}
		sel = remove(sel, blamed)
	}
	if !ok && len(sel) > 0 {
		// isolate: one view per run
		warehouse = wh(99)
		var kept []string
		for _, name := range sel {
			_, stderr, err := etlCmd(ctx, "run", "--warehouse", warehouse, "--root", suite.root, "--threads", n, "--select", name)
			if err != nil {
				suite.runErr[i][name] = "etl run --threads " + n + " --select " + name + ": " + excerpt(stderr)
				continue
			}
			kept = append(kept, name)
		}
		sel = kept
	}
	// read, a few at a time
	var mu sync.Mutex
	jobs := make(chan string)
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			for name := range jobs {
				out, stderr, err := etlCmd(ctx, "read", name, "--format", "jsonl", "--warehouse", warehouse)
				mu.Lock()
				if err != nil {
					suite.runErr[i][name] = "etl read: " + excerpt(stderr)
				} else {
					suite.out[i][name] = out
				}
				mu.Unlock()
			}
		})
	}
	for _, name := range sel {
		jobs <- name
	}
	close(jobs)
	wg.Wait()
}

// excerpt keeps the lines of a run's stderr that are not progress.
func excerpt(b []byte) string {
	var keep []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if progressLine.MatchString(l) {
			continue
		}
		keep = append(keep, l)
	}
	s := strings.Join(keep, "\n")
	if len(s) > 1500 {
		s = s[:1500] + " ..."
	}
	return s
}

var progressLine = regexp.MustCompile(`^\S+: (stale|fresh)|^\s*flow \S+: \d+ rows in|^\s+threads \d+; rebuilt:`)

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func remove(list, drop []string) []string {
	var out []string
	for _, x := range list {
		if !slicesContains(drop, x) {
			out = append(out, x)
		}
	}
	return out
}

// outputSchema is the stored schema of a view: names and types.
func outputSchema(d *ir.Dataset) ([]string, []ir.Type) {
	var names []string
	var types []ir.Type
	for _, f := range suite.unit.Datasets[d].Visible() {
		names = append(names, f.Name)
		types = append(types, f.Type)
	}
	return names, types
}

// check collects one view's problems; finish fails the test unless the view
// is a known failure.
type check struct {
	t        *testing.T
	name     string
	problems []string
	notes    []string
}

func (c *check) fail(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

func (c *check) note(format string, args ...any) {
	c.notes = append(c.notes, fmt.Sprintf(format, args...))
}

func (c *check) finish() {
	c.t.Helper()
	why, known := knownFailures[c.t.Name()]
	switch {
	case len(c.problems) == 0 && known:
		c.t.Logf("%s is listed in knownFailures (%s) but passes now: remove it from the list", c.t.Name(), why)
	case len(c.problems) == 0:
	case known:
		c.t.Logf("KNOWN FAILURE (%s):\n%s", why, strings.Join(append(c.problems, c.notes...), "\n"))
	default:
		c.t.Errorf("%s", strings.Join(append(c.problems, c.notes...), "\n"))
	}
}

// sortedNames lists map keys in order.
func sortedNames[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
