//go:build s3

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/rt/store/s3store"
)

// buildQuickstart builds thundc and, with it, examples/quickstart's
// executable with S3 support (--s3); it returns the executable's path.
func buildQuickstart(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	thundc, err := testenv.Thundc("../..")
	if err != nil {
		t.Fatal(err)
	}
	etl := filepath.Join(dir, "etl")
	cmd := exec.Command(thundc, "build", "--s3", "pipeline.thund", "-o", etl)
	cmd.Dir = filepath.Join("..", "..", "examples", "quickstart")
	cmd.Env = append(os.Environ(), "THUND_CACHE="+testenv.ThundCache())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("thundc build examples/quickstart: %v\n%s", err, out)
	}
	return etl
}

// TestS3Lane builds examples/quickstart once and runs it against the lane's
// real S3 server.
func TestS3Lane(t *testing.T) {
	testenv.S3(t)
	bin := buildQuickstart(t)
	t.Run("quickstart", func(t *testing.T) { laneQuickstart(t, bin) })
	t.Run("server stops mid-run", func(t *testing.T) { laneServerStops(t, bin) })
}

// laneServerStops: the S3 server goes away in the middle of a
// run (every connection is dropped after the run took the lock): the
// executable retries, then stops with a clear error and exit status 1,
// nothing is committed; a rerun (another process) takes over the dead
// run's lock and completes, with the same data as a local run.
func laneServerStops(t *testing.T, bin string) {
	lane := testenv.S3(t)
	target, err := url.Parse(lane.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	var requests atomic.Int64
	var sawLock atomic.Bool
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		if strings.HasSuffix(r.URL.Path, "/_thund/lock") && r.Method == http.MethodPut {
			sawLock.Store(true)
		}
		if sawLock.Load() && n > 4 { // stopped: connections die unanswered
			if c, _, err := w.(http.Hijacker).Hijack(); err == nil {
				c.Close()
			}
			return
		}
		rp.ServeHTTP(w, r)
	}))
	defer proxy.Close()
	prefix := fmt.Sprintf("e2e/stop-%d", time.Now().UnixNano())
	s3wh := "s3://" + lane.Bucket + "/" + prefix
	down := etlRunner{t: t, bin: bin, env: []string{"THUND_S3_ENDPOINT=" + proxy.URL, "THUND_S3_PATH_STYLE=true", "THUND_S3_MAX_ATTEMPTS=3"}}
	out := down.run(1, "run", "--warehouse", s3wh)
	t.Logf("run while the server stops:\n%s", out)
	if !strings.Contains(out, "gave up after 3 attempts") || !strings.Contains(out, s3wh+"/") {
		t.Errorf("run while the server stops: no clear error:\n%s", out)
	}
	up := etlRunner{t: t, bin: bin, env: []string{"THUND_S3_ENDPOINT=" + lane.Endpoint, "THUND_S3_PATH_STYLE=true"}}
	var plan struct {
		HeadEpoch int64 `json:"head_epoch"`
	}
	if err := json.Unmarshal([]byte(up.stdout("plan", "--json", "--warehouse", s3wh)), &plan); err != nil || plan.HeadEpoch != 0 {
		t.Errorf("after the failed run: head epoch %d (%v), want nothing committed", plan.HeadEpoch, err)
	}
	out = up.run(0, "run", "--warehouse", s3wh)
	if !strings.Contains(out, "committed epoch 1") {
		t.Errorf("rerun after the server came back:\n%s", out)
	}
	local := t.TempDir()
	up.run(0, "run", "--warehouse", local)
	for _, ds := range []string{"clean_sales", "daily_revenue", "top_products"} {
		if !slices.Equal(sortedLines(up.stdout("read", ds, "--warehouse", s3wh)), sortedLines(up.stdout("read", ds, "--warehouse", local))) {
			t.Errorf("read %s after the rerun: S3 and local differ", ds)
		}
	}
}

// etlRunner runs the quickstart executable from the example's folder, with
// the lane's S3 settings in its environment.
type etlRunner struct {
	t   *testing.T
	bin string
	env []string
}

func (e etlRunner) run(wantCode int, args ...string) string {
	e.t.Helper()
	cmd := exec.Command(e.bin, args...)
	cmd.Dir = filepath.Join("..", "..", "examples", "quickstart")
	cmd.Env = append(os.Environ(), e.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatal(err)
	}
	if code != wantCode {
		e.t.Fatalf("etl %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, wantCode, stdout.String(), stderr.String())
	}
	return stdout.String() + stderr.String()
}

func (e etlRunner) stdout(args ...string) string {
	e.t.Helper()
	cmd := exec.Command(e.bin, args...)
	cmd.Dir = filepath.Join("..", "..", "examples", "quickstart")
	cmd.Env = append(os.Environ(), e.env...)
	out, err := cmd.Output()
	if err != nil {
		e.t.Fatalf("etl %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

func sortedLines(s string) []string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	slices.Sort(lines)
	return lines
}

// laneQuickstart runs examples/quickstart against a real S3 server and
// against a local folder: the datasets read back equal; a second run on S3
// rebuilds nothing; plan and history work on S3.
func laneQuickstart(t *testing.T, bin string) {
	lane := testenv.S3(t)
	prefix := fmt.Sprintf("e2e/quickstart-%d", time.Now().UnixNano())
	s3wh := "s3://" + lane.Bucket + "/" + prefix
	e := etlRunner{t: t, bin: bin, env: []string{"THUND_S3_ENDPOINT=" + lane.Endpoint, "THUND_S3_PATH_STYLE=true"}}
	local := t.TempDir()

	// run, on a folder and on S3
	e.run(0, "run", "--warehouse", local)
	out := e.run(0, "run", "--warehouse", s3wh)
	if !strings.Contains(out, "committed epoch 1") {
		t.Errorf("first S3 run:\n%s", out)
	}

	// read back: S3 and local agree
	for _, ds := range []string{"clean_sales", "daily_revenue", "top_products"} {
		fromS3 := e.stdout("read", ds, "--warehouse", s3wh)
		fromLocal := e.stdout("read", ds, "--warehouse", local)
		if len(sortedLines(fromS3)) < 2 {
			t.Errorf("read %s from S3: only %q", ds, fromS3)
		}
		if !slices.Equal(sortedLines(fromS3), sortedLines(fromLocal)) {
			t.Errorf("read %s: S3 and local differ\nS3:\n%s\nlocal:\n%s", ds, fromS3, fromLocal)
		}
	}

	// plan: everything fresh
	var plan struct {
		HeadEpoch int64 `json:"head_epoch"`
		Datasets  []struct {
			Name     string `json:"name"`
			Decision string `json:"decision"`
			Build    bool   `json:"build"`
		} `json:"datasets"`
	}
	if err := json.Unmarshal([]byte(e.stdout("plan", "--json", "--warehouse", s3wh)), &plan); err != nil {
		t.Fatal(err)
	}
	if plan.HeadEpoch != 1 || len(plan.Datasets) == 0 {
		t.Errorf("plan: %+v", plan)
	}
	for _, d := range plan.Datasets {
		if d.Decision != "fresh" || d.Build {
			t.Errorf("plan after a run: %s is %s (build %v)", d.Name, d.Decision, d.Build)
		}
	}

	// rerun is a no-op: no data object is written
	fs, err := s3store.New(context.Background(), s3store.Config{Bucket: lane.Bucket, Prefix: prefix, Endpoint: lane.Endpoint, PathStyle: true})
	if err != nil {
		t.Fatal(err)
	}
	dataObjects := func() []string {
		infos, err := fs.List(context.Background(), "")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, i := range infos {
			if !strings.HasPrefix(i.Name, "_thund/") {
				out = append(out, i.Name)
			}
		}
		return out
	}
	before := dataObjects()
	if len(before) < 3 {
		t.Fatalf("data objects on S3 after a run: %v", before)
	}
	if out := e.run(0, "run", "--warehouse", s3wh); !strings.Contains(out, "nothing committed (epoch 1 stands)") {
		t.Errorf("a rerun with nothing to do:\n%s", out)
	}
	if after := dataObjects(); !slices.Equal(before, after) {
		t.Errorf("a rerun wrote data objects:\nbefore %v\nafter  %v", before, after)
	}
	// a full refresh of the root recomputes every dataset: a second commit
	e.run(0, "run", "--full-refresh", "clean_sales", "--warehouse", s3wh)

	// history: two runs, the second a full refresh of clean_sales alone
	// (its rows are the same, so what reads it stays fresh)
	var runs []struct {
		Status  string            `json:"status"`
		Epoch   int64             `json:"epoch"`
		Rebuilt []json.RawMessage `json:"rebuilt"`
	}
	dec := json.NewDecoder(strings.NewReader(e.stdout("history", "--json", "--warehouse", s3wh)))
	for dec.More() {
		var r struct {
			Status  string            `json:"status"`
			Epoch   int64             `json:"epoch"`
			Rebuilt []json.RawMessage `json:"rebuilt"`
		}
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	if len(runs) != 2 || runs[0].Status != "completed" || runs[0].Epoch != 2 || len(runs[0].Rebuilt) != 1 ||
		runs[1].Epoch != 1 || len(runs[1].Rebuilt) != 3 {
		t.Errorf("history (newest first): %+v", runs)
	}

	// vacuum on S3 keeps what the latest commit references: it removes the
	// first commit record and event log, and the versions only it listed
	if out := e.run(0, "vacuum", "--keep", "1", "--warehouse", s3wh); !strings.Contains(out, "1 commit records") || strings.Contains(out, " 0 data files") {
		t.Errorf("vacuum --keep 1 (the first commit's record, event log and data files):\n%s", out)
	}
	for _, ds := range []string{"clean_sales", "daily_revenue", "top_products"} {
		if !slices.Equal(sortedLines(e.stdout("read", ds, "--warehouse", s3wh)), sortedLines(e.stdout("read", ds, "--warehouse", local))) {
			t.Errorf("read %s after vacuum: S3 and local differ", ds)
		}
	}
}
