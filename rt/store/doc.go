// Package store is the storage interface the warehouse lives on, shaped like
// an object store so that S3 (with conditional PUTs) implements it:
// flat slash-separated names, whole-object reads, atomic whole-object writes
// (a streamed Writer publishes on Commit), create-if-absent for commit records
// and the lock, compare-and-swap replace for lease renewal and takeover,
// prefix listing, stat and remove. There are no appends and no directory
// renames.
//
// It owns: the FS interface and its error values, Local (a directory on the
// local disk; temp+fsync+rename, link(2) for create-if-absent, flock(2)
// guarded compare-and-swap), S3 (s3.go: a bucket and key prefix through
// aws-sdk-go-v2; create-if-absent is a PUT with If-None-Match: *,
// compare-and-swap a PUT with If-Match: ETAG, a streamed Writer is one PUT or
// a multipart upload completed only by Commit; the SDK's standard retryer
// with a bounded attempt count and a per-attempt timeout; errors are
// *S3Error naming the operation and s3://bucket/key), and Faulty, a wrapper
// that fails chosen calls (the Nth write with ENOSPC, a torn temporary file,
// a write applied but reported failed) for crash-safety tests.
//
// Every implementation passes one contract test (contract_test.go): Local
// and S3 against an in-process fake server always, S3 against a real server
// in the s3 test lane (-tags s3, see internal/testenv).
//
// It must not: know about datasets, versions, commit records or formats (that
// is rt/warehouse), nor import anything outside the standard library and the
// AWS SDK for S3 (aws-sdk-go-v2: aws, config, credentials, service/s3, and
// smithy-go).
package store
