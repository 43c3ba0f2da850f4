package icetable

import (
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
)

// s3Objects is a minimal S3 server (path-style ListObjectsV2 and GetObject,
// nothing else) holding objects by bucket/key: enough for the compiler's
// reading of a table's metadata on S3, which the S3 lane exercises against
// a real server.
func s3Objects(t *testing.T, objects map[string]string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			http.Error(w, "only GET", http.StatusMethodNotAllowed)
			return
		}
		path := strings.TrimPrefix(r.URL.Path, "/")
		if bucket, ok := strings.CutSuffix(path, "/"); ok || !strings.Contains(path, "/") {
			if !ok {
				bucket = path
			}
			prefix := bucket + "/" + r.URL.Query().Get("prefix")
			var keys []string
			for k := range objects {
				if strings.HasPrefix(k, prefix) {
					keys = append(keys, k)
				}
			}
			sort.Strings(keys)
			var b strings.Builder
			fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>%s</Name><KeyCount>%d</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>`, bucket, len(keys))
			for _, k := range keys {
				fmt.Fprintf(&b, `<Contents><Key>%s</Key><Size>%d</Size><LastModified>2026-01-02T03:04:05.000Z</LastModified><ETag>"e"</ETag></Contents>`,
					html.EscapeString(strings.TrimPrefix(k, bucket+"/")), len(objects[k]))
			}
			b.WriteString(`</ListBucketResult>`)
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprint(w, b.String())
			return
		}
		body, ok := objects[path]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>no such key</Message></Error>`)
			return
		}
		w.Header().Set("ETag", `"e"`)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestColumnsOnS3(t *testing.T) {
	srv := s3Objects(t, map[string]string{"lake/tables/evolved/metadata/v1.metadata.json": evolved})
	t.Setenv("THUND_S3_ENDPOINT", srv.URL)
	t.Setenv("THUND_S3_PATH_STYLE", "true")
	t.Setenv("THUND_S3_REGION", "us-east-1")
	t.Setenv("THUND_S3_MAX_ATTEMPTS", "1")
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")

	s := spec(false, "snapshot-id", "10")
	s.Paths = []string{"s3://lake/tables/evolved"}
	cols, diags := Columns(t.TempDir(), "src", s)
	if diags.HasErrors() {
		t.Fatalf("diagnostics:\n%s", diags)
	}
	if got, want := columnText(cols), "id int64 not null, name string"; got != want {
		t.Errorf("columns: %s, want %s", got, want)
	}

	s = spec(false)
	s.Paths = []string{"s3://lake/tables/nothing"}
	_, diags = Columns(t.TempDir(), "src", s)
	if got, want := diags.Error(), `Iceberg source src: no Iceberg table at "s3://lake/tables/nothing": no metadata/*.metadata.json there`; !strings.Contains(got, want) {
		t.Errorf("diagnostics:\n%s\nwant one containing %q", got, want)
	}
}
