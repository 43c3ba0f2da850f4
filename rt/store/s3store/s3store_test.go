package s3store

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/storetest"
	"github.com/nordisk/thund/rt/store"
)

func TestS3FakeContract(t *testing.T) {
	_, srv := newFakeS3(t)
	storetest.Contract(t, newFakeStore(t, srv, nil), 3*s3PartSize/2)
}

func TestParseS3URL(t *testing.T) {
	for _, tc := range []struct{ in, bucket, prefix, err string }{
		{"s3://b/p/q", "b", "p/q", ""},
		{"s3://b", "b", "", ""},
		{"s3://b/p/", "b", "p", ""},
		{"s3:///p", "", "", "no bucket"},
		{"s3://b/a/../c", "", "", "invalid object name"},
		{"s3://b/p?region=x", "", "", "not allowed"},
		{"/tmp/x", "", "", "not an s3://"},
	} {
		b, p, err := ParseURL(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || b != tc.bucket || p != tc.prefix {
			t.Errorf("%s = %q %q %v", tc.in, b, p, err)
		}
	}
}

func TestS3ConfigFromEnv(t *testing.T) {
	t.Setenv(EnvEndpoint, "http://127.0.0.1:9")
	t.Setenv(EnvPathStyle, "true")
	t.Setenv(EnvMaxAttempts, "7")
	t.Setenv(EnvTimeout, "3s")
	t.Setenv(EnvRegion, "eu-north-1")
	c, err := ConfigFromEnv("s3://bk/pre/fix")
	if err != nil || c.Bucket != "bk" || c.Prefix != "pre/fix" || c.Endpoint != "http://127.0.0.1:9" || !c.PathStyle ||
		c.MaxAttempts != 7 || c.Timeout != 3*time.Second || c.Region != "eu-north-1" {
		t.Errorf("config %+v %v", c, err)
	}
	t.Setenv(EnvMaxAttempts, "0")
	if _, err := ConfigFromEnv("s3://bk"); err == nil || !strings.Contains(err.Error(), EnvMaxAttempts) {
		t.Errorf("bad max attempts: %v", err)
	}
}

func TestS3ListPaging(t *testing.T) {
	f, srv := newFakeS3(t)
	f.pageSize = 7
	s := newFakeStore(t, srv, nil)
	ctx := context.Background()
	for i := range 23 {
		if err := s.WriteFile(ctx, fmt.Sprintf("p/k%02d", i), []byte{1}); err != nil {
			t.Fatal(err)
		}
	}
	s.WriteFile(ctx, "q", nil)
	got, err := s.List(ctx, "p/")
	if err != nil || len(got) != 23 || got[0].Name != "p/k00" || got[22].Name != "p/k22" {
		t.Fatalf("List over 4 pages: %d names, %v", len(got), err)
	}
}

// TestS3RetriesThenSucceeds: transient 500s and a dropped connection are
// retried with backoff.
func TestS3RetriesThenSucceeds(t *testing.T) {
	for _, fault := range []int{500, 503, faultDrop} {
		f, srv := newFakeS3(t)
		s := newFakeStore(t, srv, nil)
		var n atomic.Int32
		f.fault = func(r *http.Request) int {
			if n.Add(1) <= 2 {
				return fault
			}
			return 0
		}
		if err := s.WriteFile(context.Background(), "a", []byte("x")); err != nil {
			t.Errorf("fault %d twice, then fine: %v", fault, err)
		}
		if got := f.requests.Load(); got != 3 {
			t.Errorf("fault %d: %d requests, want 3", fault, got)
		}
	}
}

// TestS3GivesUpWithClearError: after the attempts, an error that names the
// operation, the object and the cause.
func TestS3GivesUpWithClearError(t *testing.T) {
	ctx := context.Background()
	t.Run("500", func(t *testing.T) {
		f, srv := newFakeS3(t)
		s := newFakeStore(t, srv, nil)
		f.fault = func(*http.Request) int { return 500 }
		err := s.CreateIfAbsent(ctx, "_thund/commits/000000000001.json", []byte("{}"))
		var se *Error
		if !errors.As(err, &se) || se.Op != "PutObject" || se.Location != "s3://bkt/wh/root/_thund/commits/000000000001.json" {
			t.Fatalf("err = %#v", err)
		}
		for _, want := range []string{"S3 PutObject s3://bkt/wh/root/_thund/commits/000000000001.json: gave up after 3 attempts", "StatusCode: 500"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q lacks %q", err, want)
			}
		}
		if errors.Is(err, store.ErrExist) {
			t.Error("a 500 reads as store.ErrExist")
		}
		if f.requests.Load() != 3 {
			t.Errorf("%d requests, want 3", f.requests.Load())
		}
	})
	t.Run("hang", func(t *testing.T) {
		f, srv := newFakeS3(t)
		s := newFakeStore(t, srv, func(c *Config) { c.Timeout = 150 * time.Millisecond; c.MaxAttempts = 2 })
		f.fault = func(*http.Request) int { return faultHang }
		start := time.Now()
		_, err := s.Stat(ctx, "x")
		if err == nil || !strings.Contains(err.Error(), "S3 HeadObject s3://bkt/wh/root/x: gave up after 2 attempts") {
			t.Errorf("hung server: %v", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("a hung server took %s to give up on", d)
		}
		start = time.Now()
		if _, _, err := s.ReadFile(ctx, "x"); err == nil || !strings.Contains(err.Error(), "gave up after 2 attempts") {
			t.Errorf("hung server, GetObject: %v", err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("a hung server took %s to give up on (GetObject)", d)
		}
	})
	t.Run("stopped", func(t *testing.T) {
		_, srv := newFakeS3(t)
		s := newFakeStore(t, srv, nil)
		srv.Close()
		err := s.WriteFile(ctx, "x", []byte("x"))
		if err == nil || !strings.Contains(err.Error(), "S3 PutObject s3://bkt/wh/root/x: gave up after 3 attempts") || !strings.Contains(err.Error(), "connection refused") {
			t.Errorf("stopped server: %v", err)
		}
	})
}

// TestS3AnswerLost: a conditional write applied by the server whose answer
// was lost is retried; the retry's 412 must not hide that it succeeded.
func TestS3AnswerLost(t *testing.T) {
	ctx := context.Background()
	f, srv := newFakeS3(t)
	s := newFakeStore(t, srv, nil)
	if err := s.CreateIfAbsent(ctx, "lock", []byte("v1")); err != nil {
		t.Fatal(err)
	}
	_, tag, _ := s.ReadFile(ctx, "lock")
	var n atomic.Int32
	f.fault = func(r *http.Request) int {
		if r.Method == http.MethodPut && n.Add(1) == 1 {
			return faultApplyThen500
		}
		return 0
	}
	if err := s.ReplaceIfMatch(ctx, "lock", []byte("v2"), tag); err != nil {
		t.Errorf("ReplaceIfMatch whose first answer was lost: %v", err)
	}
	if data, _, _ := s.ReadFile(ctx, "lock"); string(data) != "v2" {
		t.Errorf("lock = %q", data)
	}
	// Someone else's change is still a failed precondition.
	if err := s.ReplaceIfMatch(ctx, "lock", []byte("v3"), tag); !errors.Is(err, store.ErrPrecondition) {
		t.Errorf("stale tag: %v", err)
	}
}

// TestS3AbandonedUpload: a streamed writer that never commits leaves only
// an incomplete upload, invisible, which CleanTemp aborts.
func TestS3AbandonedUpload(t *testing.T) {
	ctx := context.Background()
	f, srv := newFakeS3(t)
	s := newFakeStore(t, srv, nil)
	w, err := s.Create(ctx, "big")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(make([]byte, s3PartSize+1)); err != nil {
		t.Fatal(err)
	}
	if objs, ups := f.counts(); objs != 0 || ups != 1 {
		t.Fatalf("mid-upload: %d objects, %d uploads", objs, ups)
	}
	if infos, _ := s.List(ctx, ""); len(infos) != 0 {
		t.Errorf("an uncommitted upload is listed: %v", infos)
	}
	if _, err := s.CleanTemp(ctx, "", func(string) time.Time { return time.Now().Add(time.Second) }); err != nil {
		t.Fatal(err)
	}
	if _, ups := f.counts(); ups != 0 {
		t.Errorf("CleanTemp left %d uploads", ups)
	}
}

// TestS3CompleteAnswerLost: the completion of a multipart upload is applied
// but its answer lost; the retry's NoSuchUpload must not fail the commit.
func TestS3CompleteAnswerLost(t *testing.T) {
	ctx := context.Background()
	f, srv := newFakeS3(t)
	s := newFakeStore(t, srv, nil)
	var n atomic.Int32
	f.fault = func(r *http.Request) int {
		if r.Method == http.MethodPost && r.URL.Query().Has("uploadId") && n.Add(1) == 1 {
			return faultApplyThen500
		}
		return 0
	}
	w, _ := s.Create(ctx, "big")
	w.Write(make([]byte, s3PartSize+10))
	if err := w.Commit(); err != nil {
		t.Fatalf("Commit whose completion answer was lost: %v", err)
	}
	if st, err := s.Stat(ctx, "big"); err != nil || st.Size != s3PartSize+10 {
		t.Errorf("after Commit: %+v %v", st, err)
	}
}
