// Package cdc applies change feeds to a table (APPLY CHANGES / AUTO CDC):
// keys, sequence by, apply as delete when, ignore null updates, SCD type 1
// (an upsert) and SCD type 2 (history rows with __START_AT / __END_AT typed
// like the sequence, history tracked on all or some columns).
//
// The engine is generic over Arrow arrays; generated code only projects each
// change row into the change schema (the target's data columns, then the
// sequence value, then the delete flag) and hands batches to an Applier.
//
// Semantics: for every key, the result is that of applying the key's changes
// in ascending sequence order, whatever order they arrive in, within one
// batch or across runs. Among changes of one key with equal sequence values,
// the one that arrived later wins (state first, then a run's changes in read
// order).
//
//   - SCD 1: an upsert makes the row (with ignore null updates, a NULL in an
//     update keeps the row's value; an insert, of a key without a row, stores
//     NULLs as they are); a delete removes it.
//   - SCD 2: the first upsert of a key (or the first after a delete) opens a
//     version with __START_AT = its sequence; an upsert that changes a
//     tracked column (NULL-safe) ends the open version (__END_AT = its
//     sequence) and opens a new one; an upsert that changes only untracked
//     columns updates the open version in place; a delete ends the open
//     version. History is tracked on every non-key column unless a subset is
//     given.
//
// State: the result alone cannot take a late change (one older than what was
// applied) right, so an Applier keeps a log of changes per key, which the
// runtime stores beside the dataset's version in the same commit (a state
// snapshot under _thund/checkpoints/), never as rows of the dataset. Deletes
// stay in it as tombstones. The log is compacted where that loses nothing:
// SCD 1 keeps only each key's latest change (with ignore null updates, the
// latest delete and the changes after it); SCD 2 keeps every change, since a
// late change can split any version.
//
// Each apply recomputes the target from the log (the committed log plus the
// run's new changes): the cost of a run grows with the log, not only with
// the new changes.
//
// It must not: import anything of the compiler, or read or write the
// warehouse (rt/etl does both).
package cdc
