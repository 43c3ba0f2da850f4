// Package run is what a generated main calls to run a pipeline: one Run
// bundles the warehouse transaction, the run lock, the event log and the
// summary, so that generated code stays small:
//
//	r, err := run.Begin(ctx, cfg)          // lock, load, collect garbage, run_start
//	f := r.Flow("high_bids", "high_bids")  // per flow: Start, counters, End
//	e := f.Expect("positive", run.Drop)    // per expectation: Add(passed, failed)
//	src, _ := r.Source(globs, format.CSV, schema, opts)
//	w, _ := r.Write(ctx, "high_bids", schema, warehouse.WriteOptions{})
//	...
//	err = r.Commit(ctx)                    // or r.Fail(ctx, err)
//
// (or run.Execute, which also turns a panic into a failed run). Commit fails
// the run instead when a "fail" expectation saw a violation, the lock was
// lost, or the commit write failed; a failed run commits nothing. Either way
// the event log is written and the lock released.
//
// Begin resumes from the latest commit (resume.go): it verifies the state
// objects that commit references and refuses, with a *CheckpointError naming
// each problem, when one is missing or corrupt or a newer record is corrupt;
// with Config.AllowOlderCheckpoint it resumes from the newest older commit
// that verifies instead. A run that resumes from a commit with state or
// offsets records its epoch (resume_from_epoch, with the commits skipped).
//
// It owns the run's life cycle, the expectation counters (warn / drop / fail)
// and the Summary (rows in/out per flow, expectation counts, late drops) with
// its human form. It must not: hold per-pipeline logic (generated code does),
// write files other than through rt/warehouse and rt/events, or print on its
// own (the CLI prints the Summary and events).
package run
