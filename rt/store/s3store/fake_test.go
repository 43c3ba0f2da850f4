package s3store

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// fakeS3 is an in-process S3 server for unit tests: path-style addressing,
// the object calls the store makes (GET with Range and If-Match, HEAD, PUT
// with If-None-Match and If-Match, DELETE, ListObjectsV2 with paging,
// multipart uploads) and fault injection. The s3 lane tests the store
// against a real server instead.
type fakeS3 struct {
	mu       sync.Mutex
	objects  map[string]fakeObject // "bucket/key"
	uploads  map[string]*fakeUpload
	nextID   int
	pageSize int // ListObjectsV2 page size (S3: 1000)

	requests atomic.Int64
	// fault, when set, decides per request: 0 serves it; an HTTP status
	// answers with that error; faultHang waits until the client gives up;
	// faultDrop closes the connection without an answer.
	fault func(r *http.Request) int
}

const (
	faultHang         = -1
	faultDrop         = -2
	faultApplyThen500 = -3 // serve the request, then answer 500 (the answer is lost)
)

type fakeObject struct {
	data []byte
	etag string
	mod  time.Time
}

type fakeUpload struct {
	key     string
	parts   map[int][]byte
	started time.Time
}

func newFakeS3(t *testing.T) (*fakeS3, *httptest.Server) {
	f := &fakeS3{objects: map[string]fakeObject{}, uploads: map[string]*fakeUpload{}, pageSize: 1000}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

// newFakeStore is an S3 store on a fake server, with quick retries.
func newFakeStore(t *testing.T, srv *httptest.Server, mod func(*Config)) *Store {
	t.Helper()
	c := Config{Bucket: "bkt", Prefix: "wh/root", Endpoint: srv.URL, PathStyle: true, Region: "us-east-1",
		MaxAttempts: 3, MaxBackoff: 20 * time.Millisecond, Timeout: 10 * time.Second,
		Credentials: credentials.NewStaticCredentialsProvider("key", "secret", "")}
	if mod != nil {
		mod(&c)
	}
	s, err := New(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var _ aws.CredentialsProvider = credentials.StaticCredentialsProvider{}

func etagOf(b []byte) string {
	h := md5.Sum(b)
	return `"` + hex.EncodeToString(h[:]) + `"`
}

func s3err(w http.ResponseWriter, status int, code string) {
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(status)
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>%s</Message><RequestId>fake</RequestId></Error>`, code, code)
}

func (f *fakeS3) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	if f.fault != nil {
		switch a := f.fault(r); {
		case a == faultHang:
			<-r.Context().Done()
			return
		case a == faultApplyThen500:
			f.serve(httptest.NewRecorder(), r)
			s3err(w, 500, "InternalError")
			return
		case a == faultDrop:
			if hj, ok := w.(http.Hijacker); ok {
				if c, _, err := hj.Hijack(); err == nil {
					c.Close()
					return
				}
			}
		case a > 0:
			io.Copy(io.Discard, r.Body)
			s3err(w, a, "InternalError")
			return
		}
	}
	f.serve(w, r)
}

func (f *fakeS3) serve(w http.ResponseWriter, r *http.Request) {
	bucket, key, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	q := r.URL.Query()
	if bucket != "bkt" {
		s3err(w, 404, "NoSuchBucket")
		return
	}
	id := bucket + "/" + key
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case key == "" && r.Method == http.MethodGet && q.Has("uploads"):
		f.listUploads(w, q)
	case key == "" && r.Method == http.MethodGet:
		f.list(w, q)
	case r.Method == http.MethodPost && q.Has("uploads"):
		f.nextID++
		uid := fmt.Sprintf("upload-%d", f.nextID)
		f.uploads[uid] = &fakeUpload{key: key, parts: map[int][]byte{}, started: time.Now()}
		fmt.Fprintf(w, `<InitiateMultipartUploadResult><Bucket>%s</Bucket><Key>%s</Key><UploadId>%s</UploadId></InitiateMultipartUploadResult>`, bucket, key, uid)
	case r.Method == http.MethodPut && q.Has("uploadId"):
		u := f.uploads[q.Get("uploadId")]
		if u == nil {
			s3err(w, 404, "NoSuchUpload")
			return
		}
		n, _ := strconv.Atoi(q.Get("partNumber"))
		data, _ := io.ReadAll(r.Body)
		u.parts[n] = data
		w.Header().Set("ETag", etagOf(data))
	case r.Method == http.MethodPost && q.Has("uploadId"):
		u := f.uploads[q.Get("uploadId")]
		if u == nil {
			s3err(w, 404, "NoSuchUpload")
			return
		}
		var nums []int
		for n := range u.parts {
			nums = append(nums, n)
		}
		sort.Ints(nums)
		var all []byte
		for _, n := range nums {
			all = append(all, u.parts[n]...)
		}
		delete(f.uploads, q.Get("uploadId"))
		o := fakeObject{data: all, etag: etagOf(all), mod: time.Now()}
		f.objects[id] = o
		fmt.Fprintf(w, `<CompleteMultipartUploadResult><Bucket>%s</Bucket><Key>%s</Key><ETag>%s</ETag></CompleteMultipartUploadResult>`, bucket, key, o.etag)
	case r.Method == http.MethodDelete && q.Has("uploadId"):
		delete(f.uploads, q.Get("uploadId"))
		w.WriteHeader(204)
	case r.Method == http.MethodPut:
		data, _ := io.ReadAll(r.Body)
		cur, exists := f.objects[id]
		if r.Header.Get("If-None-Match") == "*" && exists {
			s3err(w, 412, "PreconditionFailed")
			return
		}
		if m := r.Header.Get("If-Match"); m != "" {
			if !exists {
				s3err(w, 404, "NoSuchKey")
				return
			}
			if m != cur.etag {
				s3err(w, 412, "PreconditionFailed")
				return
			}
		}
		o := fakeObject{data: data, etag: etagOf(data), mod: time.Now()}
		f.objects[id] = o
		w.Header().Set("ETag", o.etag)
	case r.Method == http.MethodGet || r.Method == http.MethodHead:
		o, ok := f.objects[id]
		if !ok {
			if r.Method == http.MethodHead {
				w.WriteHeader(404)
				return
			}
			s3err(w, 404, "NoSuchKey")
			return
		}
		if m := r.Header.Get("If-Match"); m != "" && m != o.etag {
			s3err(w, 412, "PreconditionFailed")
			return
		}
		data, status := o.data, 200
		if rg := r.Header.Get("Range"); rg != "" {
			var from, to int
			if _, err := fmt.Sscanf(rg, "bytes=%d-%d", &from, &to); err != nil || from > to || from >= len(data) {
				s3err(w, 416, "InvalidRange")
				return
			}
			to = min(to, len(data)-1)
			w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", from, to, len(data)))
			data, status = data[from:to+1], 206
		}
		w.Header().Set("ETag", o.etag)
		w.Header().Set("Last-Modified", o.mod.UTC().Format(http.TimeFormat))
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		w.WriteHeader(status)
		if r.Method == http.MethodGet {
			w.Write(data)
		}
	case r.Method == http.MethodDelete:
		delete(f.objects, id)
		w.WriteHeader(204)
	default:
		s3err(w, 501, "NotImplemented")
	}
}

type listContent struct {
	Key          string `xml:"Key"`
	LastModified string `xml:"LastModified"`
	ETag         string `xml:"ETag"`
	Size         int    `xml:"Size"`
}

func (f *fakeS3) list(w http.ResponseWriter, q map[string][]string) {
	get := func(k string) string {
		if v := q[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	prefix, after := "bkt/"+get("prefix"), get("continuation-token")
	var keys []string
	for id := range f.objects {
		if strings.HasPrefix(id, prefix) && strings.TrimPrefix(id, "bkt/") > after {
			keys = append(keys, strings.TrimPrefix(id, "bkt/"))
		}
	}
	sort.Strings(keys)
	truncated := len(keys) > f.pageSize
	if truncated {
		keys = keys[:f.pageSize]
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, `<ListBucketResult><Name>bkt</Name><Prefix>%s</Prefix><KeyCount>%d</KeyCount><MaxKeys>%d</MaxKeys><IsTruncated>%v</IsTruncated>`,
		get("prefix"), len(keys), f.pageSize, truncated)
	enc := xml.NewEncoder(&buf)
	for _, k := range keys {
		o := f.objects["bkt/"+k]
		enc.EncodeElement(listContent{Key: k, LastModified: o.mod.UTC().Format(time.RFC3339), ETag: o.etag, Size: len(o.data)}, xml.StartElement{Name: xml.Name{Local: "Contents"}})
	}
	enc.Flush()
	if truncated {
		fmt.Fprintf(&buf, `<NextContinuationToken>%s</NextContinuationToken>`, keys[len(keys)-1])
	}
	buf.WriteString(`</ListBucketResult>`)
	w.Header().Set("Content-Type", "application/xml")
	w.Write(buf.Bytes())
}

func (f *fakeS3) listUploads(w http.ResponseWriter, q map[string][]string) {
	var buf bytes.Buffer
	buf.WriteString(`<ListMultipartUploadsResult><Bucket>bkt</Bucket><IsTruncated>false</IsTruncated>`)
	for uid, u := range f.uploads {
		fmt.Fprintf(&buf, `<Upload><Key>%s</Key><UploadId>%s</UploadId><Initiated>%s</Initiated></Upload>`, u.key, uid, u.started.UTC().Format(time.RFC3339))
	}
	buf.WriteString(`</ListMultipartUploadsResult>`)
	w.Write(buf.Bytes())
}

// objectCount counts the fake's objects and open uploads.
func (f *fakeS3) counts() (objects, uploads int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.objects), len(f.uploads)
}
