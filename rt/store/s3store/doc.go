// Package s3store is the warehouse's storage on an S3 bucket (or an
// S3-compatible server) through aws-sdk-go-v2: a store.FS whose
// create-if-absent is a PUT with If-None-Match: *, whose compare-and-swap is
// a PUT with If-Match: ETAG, and whose streamed Writer is one PUT or a
// multipart upload completed only by Commit; the SDK's standard retryer with
// a bounded attempt count and a per-attempt timeout; errors are *Error,
// naming the operation and s3://bucket/key.
//
// It is a package of its own so that only the programs that can use S3
// link the AWS SDK (docs/performance.md says what that costs a build):
// generated code imports it when the pipeline is built with
// S3 support (thundc build's default, or --s3), and passes Open to the runtime as
// etl.Pipeline.OpenS3.
//
// It passes the store contract test (internal/storetest) against an
// in-process fake server always, and against a real server in the s3 test
// lane (-tags s3, see internal/testenv).
//
// It must not: know about datasets, versions, commit records or formats
// (that is rt/warehouse), nor import anything outside the standard library,
// rt/store and the AWS SDK (aws-sdk-go-v2: aws, config, credentials,
// service/s3, and smithy-go).
package s3store
