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
// guarded compare-and-swap), Faulty, a wrapper that fails chosen calls (the
// Nth write with ENOSPC, a torn temporary file, a write applied but
// reported failed) for crash-safety tests, and the hints added to errors a
// user can fix. The S3 implementation is the package s3store below it, apart
// so that a program without S3 does not link the AWS SDK.
//
// Every implementation passes one contract test (internal/storetest): Local
// here, S3 in s3store against an in-process fake server always and against
// a real server in the s3 test lane (-tags s3, see internal/testenv).
//
// It must not: know about datasets, versions, commit records or formats (that
// is rt/warehouse), nor import anything outside the standard library.
package store
