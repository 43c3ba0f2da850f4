package s3store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	"github.com/nordisk/thund/rt/store"
)

// Environment variables read by ConfigFromEnv. The AWS SDK's own variables
// (AWS_REGION, AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, AWS_PROFILE,
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, ...) work as
// usual; these come first where both apply.
const (
	EnvEndpoint    = "THUND_S3_ENDPOINT"     // e.g. http://127.0.0.1:7070
	EnvRegion      = "THUND_S3_REGION"       // default: the SDK's (AWS_REGION, the profile), else us-east-1
	EnvPathStyle   = "THUND_S3_PATH_STYLE"   // true: https://host/bucket/key instead of https://bucket.host/key
	EnvMaxAttempts = "THUND_S3_MAX_ATTEMPTS" // attempts per request, retries included (default 5)
	EnvTimeout     = "THUND_S3_TIMEOUT"      // per attempt, a Go duration (default 60s)
)

// S3 defaults.
const (
	DefaultMaxAttempts = 5
	DefaultTimeout     = 60 * time.Second
	DefaultRegion      = "us-east-1"
	// s3PartSize is when a streamed writer switches to a multipart upload,
	// and the size of each part but the last (S3's minimum is 5 MiB).
	s3PartSize = 8 << 20
	// s3SmallObject: Open reads objects up to this size whole, in one GET;
	// larger ones are read with ranged GETs.
	s3SmallObject = 8 << 20
)

// Config says where an S3 store lives and how to reach it.
type Config struct {
	Bucket string
	Prefix string // the key prefix of the store's root, without slashes at either end; "" for the bucket's root
	// Endpoint is the service's base URL (an S3-compatible server); "" uses
	// the SDK's resolution: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the
	// profile's endpoint_url, else AWS's own endpoint for the region.
	Endpoint string
	// Region; "" uses the SDK's (AWS_REGION, the profile), else us-east-1.
	Region string
	// PathStyle addresses the bucket in the path, not in the host name
	// (needed by most S3-compatible servers).
	PathStyle bool
	// MaxAttempts per request, the first one included; 0 means
	// DefaultMaxAttempts. Failed attempts that may succeed later (5xx,
	// throttling, timeouts, refused or dropped connections) are retried with
	// exponential backoff and jitter.
	MaxAttempts int
	// MaxBackoff caps the delay between attempts; 0 means 20s.
	MaxBackoff time.Duration
	// Timeout bounds one attempt (a hung server); 0 means DefaultTimeout.
	Timeout time.Duration
	// Credentials, when set, replace the SDK's standard chain (environment,
	// shared config and credentials files, SSO, web identity, container and
	// instance roles). Tests use it.
	Credentials aws.CredentialsProvider
}

// ParseURL splits s3://BUCKET/PREFIX.
func ParseURL(u string) (bucket, prefix string, err error) {
	rest, ok := strings.CutPrefix(u, "s3://")
	if !ok {
		return "", "", fmt.Errorf("%q is not an s3://BUCKET/PREFIX URL", u)
	}
	bucket, prefix, _ = strings.Cut(rest, "/")
	prefix = strings.Trim(prefix, "/")
	if bucket == "" {
		return "", "", fmt.Errorf("%q: no bucket (want s3://BUCKET/PREFIX)", u)
	}
	if strings.ContainsAny(bucket, "?#") || strings.ContainsAny(prefix, "?#") {
		return "", "", fmt.Errorf("%q: '?' and '#' are not allowed (configure S3 with %s, %s, %s or the AWS_* variables)", u, EnvEndpoint, EnvRegion, EnvPathStyle)
	}
	if prefix != "" {
		if err := store.ValidName(prefix); err != nil {
			return "", "", fmt.Errorf("%q: prefix: %w", u, err)
		}
	}
	return bucket, prefix, nil
}

// ConfigFromEnv returns the configuration of s3://BUCKET/PREFIX with the
// THUND_S3_* variables applied.
func ConfigFromEnv(u string) (Config, error) {
	b, p, err := ParseURL(u)
	if err != nil {
		return Config{}, err
	}
	c := Config{Bucket: b, Prefix: p, Endpoint: os.Getenv(EnvEndpoint), Region: os.Getenv(EnvRegion)}
	if v := os.Getenv(EnvPathStyle); v != "" {
		if c.PathStyle, err = strconv.ParseBool(v); err != nil {
			return c, fmt.Errorf("%s=%q: want true or false", EnvPathStyle, v)
		}
	}
	if v := os.Getenv(EnvMaxAttempts); v != "" {
		if c.MaxAttempts, err = strconv.Atoi(v); err != nil || c.MaxAttempts < 1 {
			return c, fmt.Errorf("%s=%q: want a positive number", EnvMaxAttempts, v)
		}
	}
	if v := os.Getenv(EnvTimeout); v != "" {
		if c.Timeout, err = time.ParseDuration(v); err != nil || c.Timeout <= 0 {
			return c, fmt.Errorf("%s=%q: want a positive duration such as 30s", EnvTimeout, v)
		}
	}
	return c, nil
}

// Open opens the store of s3://BUCKET/PREFIX with the THUND_S3_* settings
// and the AWS SDK's standard configuration (credential chain, region,
// AWS_ENDPOINT_URL_S3, ...). No request is made: the first one finds out
// whether the bucket and the credentials work, and its error names the
// bucket and key. A program built with S3 support (thundc build's default) hands
// it to the runtime as etl.Pipeline.OpenS3.
func Open(ctx context.Context, url string) (store.FS, error) {
	c, err := ConfigFromEnv(url)
	if err != nil {
		return nil, err
	}
	return New(ctx, c)
}

// Store is a store.FS on an S3 bucket (or an S3-compatible server), below a
// key prefix. Whole-object PUTs are atomic on S3; create-if-absent is a
// conditional PUT (If-None-Match: *), compare-and-swap one with If-Match:
// ETAG (the tag ReadFile returns); a streamed Writer buffers and uploads in
// parts that become one object only when the upload is completed by Commit.
type Store struct {
	client  *s3.Client
	bucket  string
	prefix  string // "" or "a/b"
	timeout time.Duration
	attempt int
}

// New connects to S3 (without a request: the first request finds out
// whether the bucket and the credentials work).
func New(ctx context.Context, c Config) (*Store, error) {
	if c.Bucket == "" {
		return nil, errors.New("S3: no bucket")
	}
	if c.MaxAttempts <= 0 {
		c.MaxAttempts = DefaultMaxAttempts
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	opts := []func(*config.LoadOptions) error{
		config.WithRetryer(func() aws.Retryer {
			return retry.NewStandard(func(o *retry.StandardOptions) {
				o.MaxAttempts = c.MaxAttempts
				if c.MaxBackoff > 0 {
					o.MaxBackoff = c.MaxBackoff
				}
				// Every request gets its attempts: no client-wide quota
				// that turns a long outage into immediate failures.
				o.RateLimiter = ratelimit.None
			})
		}),
		config.WithHTTPClient(awshttp.NewBuildableClient().
			WithDialerOptions(func(d *net.Dialer) { d.Timeout = min(c.Timeout, 10*time.Second) }).
			WithTransportOptions(func(t *http.Transport) { t.ResponseHeaderTimeout = c.Timeout })),
	}
	if c.Region != "" {
		opts = append(opts, config.WithRegion(c.Region))
	}
	if c.Credentials != nil {
		opts = append(opts, config.WithCredentialsProvider(c.Credentials))
	}
	if os.Getenv("AWS_REQUEST_CHECKSUM_CALCULATION") == "" {
		// Checksums only where S3 requires them: S3-compatible servers
		// differ in the flexible-checksum headers they accept.
		opts = append(opts, config.WithRequestChecksumCalculation(aws.RequestChecksumCalculationWhenRequired))
	}
	if os.Getenv("AWS_RESPONSE_CHECKSUM_VALIDATION") == "" {
		opts = append(opts, config.WithResponseChecksumValidation(aws.ResponseChecksumValidationWhenRequired))
	}
	cfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("S3: loading the AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		cfg.Region = DefaultRegion
	}
	client := s3.NewFromConfig(cfg, func(o *s3.Options) {
		if c.Endpoint != "" {
			o.BaseEndpoint = aws.String(c.Endpoint)
		}
		o.UsePathStyle = c.PathStyle
	})
	return &Store{client: client, bucket: c.Bucket, prefix: strings.Trim(c.Prefix, "/"), timeout: c.Timeout, attempt: c.MaxAttempts}, nil
}

// Location implements FS: s3://bucket/prefix/name.
func (s *Store) Location(name string) string {
	k := s.key(name)
	if k == "" {
		return "s3://" + s.bucket
	}
	return "s3://" + s.bucket + "/" + k
}

func (s *Store) key(name string) string {
	switch {
	case s.prefix == "":
		return name
	case name == "":
		return s.prefix
	}
	return s.prefix + "/" + name
}

func (s *Store) checkedKey(name string) (string, error) {
	if err := store.ValidName(name); err != nil {
		return "", err
	}
	return s.key(name), nil
}

// attemptTimeout bounds each attempt of an operation whose response the SDK
// reads whole (every one but GetObject, whose body is read later: its
// attempts are bounded by the transport's response-header timeout). It sits
// after the retry middleware, so a timed-out attempt is retried.
func (s *Store) attemptTimeout(o *s3.Options) {
	d := s.timeout
	o.APIOptions = append(o.APIOptions, func(st *middleware.Stack) error {
		return st.Finalize.Insert(middleware.FinalizeMiddlewareFunc("thundAttemptTimeout",
			func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
				actx, cancel := context.WithTimeout(ctx, d)
				defer cancel()
				out, md, err := next.HandleFinalize(actx, in)
				if err != nil && actx.Err() != nil && ctx.Err() == nil {
					err = &attemptTimeoutError{d: d, err: err}
				}
				return out, md, err
			}), "Retry", middleware.After)
	})
}

// attemptTimeoutError is an attempt that ran out of time; the retryer sees
// a timeout and tries again.
type attemptTimeoutError struct {
	d   time.Duration
	err error
}

func (e *attemptTimeoutError) Error() string {
	return fmt.Sprintf("no answer within %s (%v)", e.d, e.err)
}
func (e *attemptTimeoutError) Timeout() bool { return true }

// RetryableError tells the SDK's retryer to try again. (The cause is not
// unwrapped: it is a cancellation, which the retryer would not retry.)
func (e *attemptTimeoutError) RetryableError() bool { return true }

// Error is a failed S3 request: the operation, the object and the cause
// (after the retries, the last attempt's error).
type Error struct {
	Op       string // the S3 operation, e.g. PutObject
	Location string // s3://bucket/key
	Err      error
}

func (e *Error) Error() string {
	return fmt.Sprintf("S3 %s %s: %v", e.Op, e.Location, e.Err)
}
func (e *Error) Unwrap() error { return e.Err }

// RemoteLocation implements store.RemoteError.
func (e *Error) RemoteLocation() string { return e.Location }

func httpStatus(err error) int {
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		return re.HTTPStatusCode()
	}
	return 0
}

func apiCode(err error) string {
	var ae smithy.APIError
	if errors.As(err, &ae) {
		return ae.ErrorCode()
	}
	return ""
}

// wrap turns an SDK error into an *Error whose cause matches the package's
// error values: store.ErrNotExist for a missing object, store.ErrExist or
// store.ErrPrecondition for a failed condition (as the caller says).
func (s *Store) wrap(op, key string, err error, failedCondition error) error {
	if err == nil {
		return nil
	}
	loc := "s3://" + s.bucket + "/" + key
	status, code := httpStatus(err), apiCode(err)
	var maxErr *retry.MaxAttemptsError
	switch {
	case code == "NoSuchBucket":
		return &Error{Op: op, Location: loc, Err: fmt.Errorf("the bucket %s does not exist: %w", s.bucket, err)}
	case status == http.StatusNotFound || code == "NoSuchKey" || code == "NotFound":
		return &Error{Op: op, Location: loc, Err: fmt.Errorf("%w (%v)", store.ErrNotExist, err)}
	case (status == http.StatusPreconditionFailed || code == "PreconditionFailed") && failedCondition != nil:
		return &Error{Op: op, Location: loc, Err: fmt.Errorf("%w (%v)", failedCondition, err)}
	case status == http.StatusForbidden || code == "AccessDenied" || code == "InvalidAccessKeyId" || code == "SignatureDoesNotMatch":
		return &Error{Op: op, Location: loc, Err: fmt.Errorf("%w: access denied: check the credentials (AWS_ACCESS_KEY_ID, AWS_PROFILE, ...) and the bucket's policy: %v", fs.ErrPermission, err)}
	case errors.As(err, &maxErr):
		return &Error{Op: op, Location: loc, Err: fmt.Errorf("gave up after %d attempts: %w", maxErr.Attempt, maxErr.Err)}
	}
	return &Error{Op: op, Location: loc, Err: err}
}

// s3Object is an open object: small ones are held in memory, larger ones
// read with ranged GETs pinned to the ETag seen at Open (a replaced object
// fails the read instead of mixing two versions).
type s3Object struct {
	s    *Store
	ctx  context.Context
	key  string
	etag string
	size int64
	data *bytes.Reader // the whole object, when small

	pos     int64
	body    io.ReadCloser // a GET from bodyPos on, for sequential reads
	bodyPos int64
}

func (o *s3Object) Size() int64 { return o.size }

func (o *s3Object) Read(p []byte) (int, error) {
	if o.data != nil {
		return o.data.Read(p)
	}
	if o.pos >= o.size {
		return 0, io.EOF
	}
	if o.body == nil || o.bodyPos != o.pos {
		if o.body != nil {
			o.body.Close()
			o.body = nil
		}
		body, err := o.get(o.pos, o.size-1)
		if err != nil {
			return 0, err
		}
		o.body, o.bodyPos = body, o.pos
	}
	n, err := o.body.Read(p)
	o.pos += int64(n)
	o.bodyPos = o.pos
	if err == io.EOF && o.pos < o.size {
		err = io.ErrUnexpectedEOF
	}
	if err != nil && err != io.EOF {
		err = &Error{Op: "GetObject", Location: "s3://" + o.s.bucket + "/" + o.key, Err: err}
	}
	return n, err
}

func (o *s3Object) get(from, to int64) (io.ReadCloser, error) {
	out, err := o.s.client.GetObject(o.ctx, &s3.GetObjectInput{Bucket: &o.s.bucket, Key: &o.key,
		Range: aws.String(fmt.Sprintf("bytes=%d-%d", from, to)), IfMatch: aws.String(o.etag)})
	if err != nil {
		return nil, o.s.wrap("GetObject", o.key, err, store.ErrPrecondition)
	}
	return out.Body, nil
}

func (o *s3Object) ReadAt(p []byte, off int64) (int, error) {
	if o.data != nil {
		return o.data.ReadAt(p, off)
	}
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if off >= o.size {
		return 0, io.EOF
	}
	want := min(int64(len(p)), o.size-off)
	if want == 0 {
		return 0, nil
	}
	body, err := o.get(off, off+want-1)
	if err != nil {
		return 0, err
	}
	defer body.Close()
	n, err := io.ReadFull(body, p[:want])
	if err != nil {
		return n, &Error{Op: "GetObject", Location: "s3://" + o.s.bucket + "/" + o.key, Err: err}
	}
	if int64(n) < int64(len(p)) {
		return n, io.EOF
	}
	return n, nil
}

func (o *s3Object) Seek(offset int64, whence int) (int64, error) {
	if o.data != nil {
		return o.data.Seek(offset, whence)
	}
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += o.pos
	case io.SeekEnd:
		offset += o.size
	default:
		return 0, errors.New("bad whence")
	}
	if offset < 0 {
		return 0, errors.New("negative position")
	}
	o.pos = offset
	return offset, nil
}

func (o *s3Object) Close() error {
	if o.body != nil {
		o.body.Close()
		o.body = nil
	}
	return nil
}

// Open implements store.FS. Objects up to 8 MiB are read whole at once.
func (s *Store) Open(ctx context.Context, name string) (store.Object, error) {
	key, err := s.checkedKey(name)
	if err != nil {
		return nil, err
	}
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: &key})
	if err != nil {
		return nil, s.wrap("GetObject", key, err, nil)
	}
	size := aws.ToInt64(out.ContentLength)
	o := &s3Object{s: s, ctx: context.WithoutCancel(ctx), key: key, etag: aws.ToString(out.ETag), size: size}
	if size <= s3SmallObject {
		data, err := io.ReadAll(out.Body)
		out.Body.Close()
		if err != nil {
			return nil, &Error{Op: "GetObject", Location: s.Location(name), Err: err}
		}
		if int64(len(data)) != size {
			return nil, &Error{Op: "GetObject", Location: s.Location(name), Err: fmt.Errorf("read %d bytes of %d", len(data), size)}
		}
		o.data = bytes.NewReader(data)
		return o, nil
	}
	o.body = out.Body
	return o, nil
}

// ReadFile implements store.FS. The tag is the object's ETag.
func (s *Store) ReadFile(ctx context.Context, name string) ([]byte, string, error) {
	key, err := s.checkedKey(name)
	if err != nil {
		return nil, "", err
	}
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: &s.bucket, Key: &key})
	if err != nil {
		return nil, "", s.wrap("GetObject", key, err, nil)
	}
	defer out.Body.Close()
	data, err := io.ReadAll(out.Body)
	if err != nil {
		return nil, "", &Error{Op: "GetObject", Location: s.Location(name), Err: err}
	}
	return data, aws.ToString(out.ETag), nil
}

// Stat implements store.FS.
func (s *Store) Stat(ctx context.Context, name string) (store.Info, error) {
	key, err := s.checkedKey(name)
	if err != nil {
		return store.Info{}, err
	}
	out, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &s.bucket, Key: &key}, s.attemptTimeout)
	if err != nil {
		return store.Info{}, s.wrap("HeadObject", key, err, nil)
	}
	return store.Info{Name: name, Size: aws.ToInt64(out.ContentLength), ModTime: aws.ToTime(out.LastModified)}, nil
}

// List implements store.FS, page by page (ListObjectsV2 returns at most 1000 keys
// a page). Keys that are not valid object names are skipped.
func (s *Store) List(ctx context.Context, prefix string) ([]store.Info, error) {
	root := ""
	if s.prefix != "" {
		root = s.prefix + "/"
	}
	in := &s3.ListObjectsV2Input{Bucket: &s.bucket, Prefix: aws.String(root + prefix)}
	var out []store.Info
	p := s3.NewListObjectsV2Paginator(s.client, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx, s.attemptTimeout)
		if err != nil {
			return nil, s.wrap("ListObjectsV2", root+prefix, err, nil)
		}
		for _, o := range page.Contents {
			name, ok := strings.CutPrefix(aws.ToString(o.Key), root)
			if !ok || store.ValidName(name) != nil {
				continue
			}
			out = append(out, store.Info{Name: name, Size: aws.ToInt64(o.Size), ModTime: aws.ToTime(o.LastModified)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// s3Writer buffers a streamed object. Up to one part it is a single PUT at
// Commit; beyond, a multipart upload whose parts are invisible until Commit
// completes it (Abort, or a crash, leaves an incomplete upload that
// CleanTemp aborts).
type s3Writer struct {
	s        *Store
	ctx      context.Context
	key      string
	buf      bytes.Buffer
	uploadID string
	parts    []types.CompletedPart
	size     int64 // bytes written
	done     bool
	err      error
}

func (w *s3Writer) Write(p []byte) (int, error) {
	if w.done {
		return 0, errors.New("store: write after commit or abort")
	}
	if w.err != nil {
		return 0, w.err
	}
	w.buf.Write(p)
	w.size += int64(len(p))
	if w.buf.Len() >= s3PartSize {
		if err := w.flushPart(); err != nil {
			w.err = err
			return len(p), err
		}
	}
	return len(p), nil
}

func (w *s3Writer) flushPart() error {
	if w.uploadID == "" {
		out, err := w.s.client.CreateMultipartUpload(w.ctx, &s3.CreateMultipartUploadInput{Bucket: &w.s.bucket, Key: &w.key}, w.s.attemptTimeout)
		if err != nil {
			return w.s.wrap("CreateMultipartUpload", w.key, err, nil)
		}
		w.uploadID = aws.ToString(out.UploadId)
	}
	n := int32(len(w.parts) + 1)
	out, err := w.s.client.UploadPart(w.ctx, &s3.UploadPartInput{Bucket: &w.s.bucket, Key: &w.key, UploadId: &w.uploadID,
		PartNumber: aws.Int32(n), Body: bytes.NewReader(w.buf.Bytes()), ContentLength: aws.Int64(int64(w.buf.Len()))}, w.s.attemptTimeout)
	if err != nil {
		return w.s.wrap("UploadPart", w.key, err, nil)
	}
	w.parts = append(w.parts, types.CompletedPart{PartNumber: aws.Int32(n), ETag: out.ETag,
		ChecksumCRC32: out.ChecksumCRC32, ChecksumCRC32C: out.ChecksumCRC32C, ChecksumCRC64NVME: out.ChecksumCRC64NVME,
		ChecksumSHA1: out.ChecksumSHA1, ChecksumSHA256: out.ChecksumSHA256})
	w.buf.Reset()
	return nil
}

func (w *s3Writer) Commit() error {
	if w.done {
		return nil
	}
	if w.err != nil {
		w.Abort()
		return w.err
	}
	w.done = true
	if w.uploadID == "" {
		return w.s.put(w.ctx, w.key, w.buf.Bytes(), "", "")
	}
	if w.buf.Len() > 0 {
		if err := w.flushPart(); err != nil {
			w.abortUpload()
			return err
		}
	}
	_, err := w.s.client.CompleteMultipartUpload(w.ctx, &s3.CompleteMultipartUploadInput{Bucket: &w.s.bucket, Key: &w.key,
		UploadId: &w.uploadID, MultipartUpload: &types.CompletedMultipartUpload{Parts: w.parts}}, w.s.attemptTimeout)
	if err != nil && apiCode(err) == "NoSuchUpload" {
		// An earlier attempt completed the upload but its answer was lost:
		// the retry finds no upload. The object is there, whole, if its
		// size is what was written.
		if out, herr := w.s.client.HeadObject(w.ctx, &s3.HeadObjectInput{Bucket: &w.s.bucket, Key: &w.key}, w.s.attemptTimeout); herr == nil && aws.ToInt64(out.ContentLength) == w.size {
			return nil
		}
	}
	if err != nil {
		w.abortUpload()
		return w.s.wrap("CompleteMultipartUpload", w.key, err, nil)
	}
	return nil
}

func (w *s3Writer) abortUpload() {
	if w.uploadID != "" {
		w.s.client.AbortMultipartUpload(w.ctx, &s3.AbortMultipartUploadInput{Bucket: &w.s.bucket, Key: &w.key, UploadId: &w.uploadID}, w.s.attemptTimeout)
	}
}

func (w *s3Writer) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	w.buf = bytes.Buffer{}
	w.abortUpload()
	return nil
}

// Create implements store.FS.
func (s *Store) Create(ctx context.Context, name string) (store.Writer, error) {
	key, err := s.checkedKey(name)
	if err != nil {
		return nil, err
	}
	return &s3Writer{s: s, ctx: context.WithoutCancel(ctx), key: key}, nil
}

// put is one PutObject, conditional when ifNoneMatch or ifMatch is set.
func (s *Store) put(ctx context.Context, key string, data []byte, ifNoneMatch, ifMatch string) error {
	in := &s3.PutObjectInput{Bucket: &s.bucket, Key: &key, Body: bytes.NewReader(data), ContentLength: aws.Int64(int64(len(data)))}
	var cond error
	if ifNoneMatch != "" {
		in.IfNoneMatch, cond = aws.String(ifNoneMatch), store.ErrExist
	}
	if ifMatch != "" {
		in.IfMatch, cond = aws.String(ifMatch), store.ErrPrecondition
	}
	var err error
	for attempt := 0; ; attempt++ {
		_, err = s.client.PutObject(ctx, in, s.attemptTimeout)
		// 409 ConditionalRequestConflict: a concurrent conditional write
		// on the same key was in flight; S3 asks to try again.
		if cond != nil && httpStatus(err) == http.StatusConflict && attempt < s.attempt {
			in.Body = bytes.NewReader(data)
			time.Sleep(time.Duration(50*(attempt+1)) * time.Millisecond)
			continue
		}
		break
	}
	return s.wrap("PutObject", key, err, cond)
}

// WriteFile implements store.FS.
func (s *Store) WriteFile(ctx context.Context, name string, data []byte) error {
	key, err := s.checkedKey(name)
	if err != nil {
		return err
	}
	return s.put(ctx, key, data, "", "")
}

// CreateIfAbsent implements store.FS with a conditional PUT (If-None-Match: *):
// S3 refuses it with 412 when the key exists, and of two concurrent ones at
// most one succeeds.
func (s *Store) CreateIfAbsent(ctx context.Context, name string, data []byte) error {
	key, err := s.checkedKey(name)
	if err != nil {
		return err
	}
	return s.put(ctx, key, data, "*", "")
}

// ReplaceIfMatch implements store.FS with a conditional PUT (If-Match: tag). When
// the condition fails, the object is read back: if it already holds data
// (an earlier attempt of this same call was applied but its answer was
// lost, and the retry saw the new ETag), the replace succeeded.
func (s *Store) ReplaceIfMatch(ctx context.Context, name string, data []byte, tag string) error {
	key, err := s.checkedKey(name)
	if err != nil {
		return err
	}
	if tag == "" {
		return &Error{Op: "PutObject", Location: s.Location(name), Err: fmt.Errorf("%w: no tag", store.ErrPrecondition)}
	}
	err = s.put(ctx, key, data, "", tag)
	if errors.Is(err, store.ErrPrecondition) {
		if cur, _, rerr := s.ReadFile(ctx, name); rerr == nil && bytes.Equal(cur, data) {
			return nil
		}
	}
	return err
}

// Remove implements store.FS. S3 deletes an absent key without complaint, so a
// HEAD first reports store.ErrNotExist as the store.FS contract says.
func (s *Store) Remove(ctx context.Context, name string) error {
	key, err := s.checkedKey(name)
	if err != nil {
		return err
	}
	if _, err := s.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &s.bucket, Key: &key}, s.attemptTimeout); err != nil {
		return s.wrap("HeadObject", key, err, nil)
	}
	_, err = s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: &s.bucket, Key: &key}, s.attemptTimeout)
	return s.wrap("DeleteObject", key, err, nil)
}

// CleanTemp implements TempCleaner: it aborts the incomplete multipart
// uploads under prefix started before cutoff of their key (a writer that
// crashed before Commit or Abort). Their parts were never visible, but they
// take space.
func (s *Store) CleanTemp(ctx context.Context, prefix string, cutoff func(name string) time.Time) (int, error) {
	root := ""
	if s.prefix != "" {
		root = s.prefix + "/"
	}
	n := 0
	in := &s3.ListMultipartUploadsInput{Bucket: &s.bucket, Prefix: aws.String(root + prefix)}
	for {
		out, err := s.client.ListMultipartUploads(ctx, in, s.attemptTimeout)
		if err != nil {
			return n, s.wrap("ListMultipartUploads", root+prefix, err, nil)
		}
		for _, u := range out.Uploads {
			name, ok := strings.CutPrefix(aws.ToString(u.Key), root)
			if !ok || u.Initiated == nil {
				continue
			}
			if before := cutoff(name); !before.IsZero() && u.Initiated.Before(before) {
				if _, err := s.client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: &s.bucket, Key: u.Key, UploadId: u.UploadId}, s.attemptTimeout); err == nil {
					n++
				}
			}
		}
		if !aws.ToBool(out.IsTruncated) {
			return n, nil
		}
		in.KeyMarker, in.UploadIdMarker = out.NextKeyMarker, out.NextUploadIdMarker
	}
}

// Bucket names the store's bucket and prefix, for messages.
func (s *Store) String() string { return s.Location("") }

var (
	_ store.FS          = (*Store)(nil)
	_ store.TempCleaner = (*Store)(nil)
	_ store.RemoteError = (*Error)(nil)
)
