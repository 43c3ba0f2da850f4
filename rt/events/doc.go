// Package events is the event log: records in the Lakeflow shape
// {id, sequence, timestamp, level, event_type, origin: {pipeline, dataset,
// flow, run_id}, details}, with details holding one key, the event type, and
// that type's payload. A run collects its events in a Log (which also feeds
// live subscribers: --json, the progress display) and writes them once, at
// the end of the run, successful or not, as _thund/events/<run id>.jsonl;
// run ids sort by start time. ListRuns and LoadRun read them back for
// `history`.
//
// It owns the record shape, the event type names and their payloads. It must
// not: append to or rewrite a written log (object stores cannot append),
// decide what a run emits (rt/run does), or know the warehouse beyond its
// events folder.
package events
