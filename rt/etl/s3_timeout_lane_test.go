//go:build s3

package etl

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/rt/run"
	"github.com/nordisk/thund/rt/store/s3store"
)

// TestS3LaneTimeoutsAndLostAnswers: mid-run, S3 stops answering data writes
// (each request hangs past the per-attempt timeout): the run retries, then
// stops with an error naming the object; the committed data is intact; a
// rerun completes. Then the answer to the commit record's PUT is lost after
// the server applied it: the run finds its own record and reports success,
// once.
func TestS3LaneTimeoutsAndLostAnswers(t *testing.T) {
	lane := testenv.S3(t)
	target, err := url.Parse(lane.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	var hanging, loseCommit atomic.Bool
	var hung, lost atomic.Int64
	release := make(chan struct{})
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data := r.Method == http.MethodPut && !strings.Contains(r.URL.Path, "/_thund/")
		if hanging.Load() && data {
			hung.Add(1)
			io.Copy(io.Discard, r.Body)
			select { // hang until the client gives up (or the test ends)
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		if loseCommit.Load() && r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/_thund/commits/") {
			if lost.Add(1) == 1 {
				// the server applies the write; its answer never arrives
				rec := httptest.NewRecorder()
				rp.ServeHTTP(rec, r)
				if c, _, err := w.(http.Hijacker).Hijack(); err == nil {
					c.Close()
				}
				return
			}
		}
		rp.ServeHTTP(w, r)
	}))
	defer proxy.Close()
	defer close(release)
	e := newLaneEnv(t, proxy.URL)
	t.Setenv(s3store.EnvMaxAttempts, "2")
	t.Setenv(s3store.EnvTimeout, "400ms")
	p := testPipeline(pipeOpts{action: run.Drop})
	e.write("data/bids/a.csv", bidsA)
	e.mustRun(p)
	top, log := e.read(p, "top"), e.read(p, "bids_log")

	e.write("data/bids/b.csv", "auction,price\n6,9000\n")
	hanging.Store(true)
	start := time.Now()
	code, _, stderr := e.etl(p, "run")
	hanging.Store(false)
	t.Logf("run while S3 hangs (%v):\n%s", time.Since(start).Round(time.Millisecond), stderr)
	if code != 1 || !strings.Contains(stderr, "gave up after 2 attempts") || !strings.Contains(stderr, e.wh+"/") ||
		!strings.Contains(stderr, "nothing was committed") {
		t.Errorf("run while S3 hangs: exit %d\n%s", code, stderr)
	}
	if hung.Load() < 2 {
		t.Errorf("%d hung requests: no retry", hung.Load())
	}
	if got := e.read(p, "top"); got != top {
		t.Errorf("committed data changed by a failed run:\n%s\nwant:\n%s", got, top)
	}
	if got := e.read(p, "bids_log"); got != log {
		t.Errorf("committed bids_log changed by a failed run:\n%s", got)
	}

	loseCommit.Store(true)
	code, _, stderr = e.etl(p, "run")
	loseCommit.Store(false)
	if code != 0 || !strings.Contains(stderr, "committed epoch 2") {
		t.Errorf("run whose commit answer is lost: exit %d\n%s", code, stderr)
	}
	if lost.Load() < 2 {
		t.Errorf("the commit record's PUT was sent %d times: no retry after the lost answer", lost.Load())
	}
	got := e.read(p, "bids_log")
	if strings.Count(got, "6,9000") != 1 || strings.Count(got, "\n") != strings.Count(log, "\n")+1 {
		t.Errorf("bids_log after the lost answer (b.csv's row once):\n%s", got)
	}
	// the lost answer's commit stands: the rerun has nothing to do, and
	// commits nothing
	code, _, stderr = e.etl(p, "run")
	if code != 0 || !strings.Contains(stderr, "nothing committed (epoch 2 stands)") || !strings.Contains(stderr, "rebuilt: nothing") {
		t.Errorf("rerun: exit %d\n%s", code, stderr)
	}
}
