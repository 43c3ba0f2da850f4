//go:build s3

package etl

import (
	"fmt"
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

// newLaneEnv is a test environment whose warehouse is on the S3 lane's real
// server, under a fresh prefix, reached through endpoint.
func newLaneEnv(t *testing.T, endpoint string) *env {
	lane := testenv.S3(t)
	if endpoint == "" {
		endpoint = lane.Endpoint
	}
	t.Setenv(s3store.EnvEndpoint, endpoint)
	t.Setenv(s3store.EnvPathStyle, "true")
	e := newEnv(t)
	e.openS3 = s3store.Open
	e.wh = fmt.Sprintf("s3://%s/etl-test/%s-%d", lane.Bucket, t.Name(), time.Now().UnixNano())
	return e
}

func TestS3LaneVacuum(t *testing.T) {
	vacuumScenario(t, newLaneEnv(t, ""))
}

// TestS3LaneServerErrors: S3 fails mid-run (500s on every data and commit
// write): the run retries, then stops with an error naming the object;
// what was committed before is intact; a rerun completes. A stopped server
// fails the run as clearly.
func TestS3LaneServerErrors(t *testing.T) {
	lane := testenv.S3(t)
	target, err := url.Parse(lane.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	var failing atomic.Bool
	var refused atomic.Int64
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if failing.Load() && r.Method == http.MethodPut && !strings.Contains(r.URL.Path, "/_thund/lock") && !strings.Contains(r.URL.Path, "/_thund/events/") {
			refused.Add(1)
			io.Copy(io.Discard, r.Body)
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `<Error><Code>InternalError</Code><Message>injected</Message></Error>`)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	defer proxy.Close()
	e := newLaneEnv(t, proxy.URL)
	t.Setenv(s3store.EnvMaxAttempts, "2")
	p := testPipeline(pipeOpts{action: run.Drop})
	e.write("data/bids/a.csv", bidsA)
	e.mustRun(p)
	top := e.read(p, "top")

	e.write("data/bids/b.csv", "auction,price\n6,9000\n")
	failing.Store(true)
	code, _, stderr := e.etl(p, "run")
	failing.Store(false)
	t.Logf("run during S3 errors:\n%s", stderr)
	if code != 1 || !strings.Contains(stderr, "S3 PutObject "+e.wh+"/") || !strings.Contains(stderr, "gave up after 2 attempts") ||
		!strings.Contains(stderr, "StatusCode: 500") {
		t.Errorf("run during S3 errors: exit %d\n%s", code, stderr)
	}
	if refused.Load() < 2 {
		t.Errorf("only %d refused requests: no retry", refused.Load())
	}
	if got := e.read(p, "top"); got != top {
		t.Errorf("committed data changed by a failed run:\n%s\nwant:\n%s", got, top)
	}
	code, _, stderr = e.etl(p, "run")
	if code != 0 || !strings.Contains(stderr, "committed epoch 2") {
		t.Errorf("rerun: exit %d\n%s", code, stderr)
	}
	if got := e.read(p, "top"); got == top || !strings.Contains(got, "9000") {
		t.Errorf("rerun did not pick up the new input: %s", got)
	}

	// The server is gone (nothing listens): the run stops with a clear error.
	proxy.Close()
	code, _, stderr = e.etl(p, "run")
	t.Logf("run with the server stopped:\n%s", stderr)
	if code != 1 || !strings.Contains(stderr, "gave up after 2 attempts") || !strings.Contains(stderr, "connection refused") ||
		!strings.Contains(stderr, e.wh+"/_thund/lock") {
		t.Errorf("run with the server stopped: exit %d\n%s", code, stderr)
	}
}
