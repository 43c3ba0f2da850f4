package events

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nordisk/thund/rt/store"
)

// Dir is where event logs live in the warehouse (warehouse.EventsDir).
const Dir = "_thund/events"

// TimeFormat is the timestamps' format: RFC 3339, UTC, microseconds.
const TimeFormat = "2006-01-02T15:04:05.000000Z07:00"

// Level is an event's severity, as in the Lakeflow event log.
type Level string

const (
	Info    Level = "INFO"
	Warn    Level = "WARN"
	Error   Level = "ERROR"
	Metrics Level = "METRICS"
)

// Event types. Later parts of the runtime add types, never new shapes.
const (
	TypeRunStart            = "run_start"
	TypeRunEnd              = "run_end"
	TypeFlowStart           = "flow_start"
	TypeFlowProgress        = "flow_progress"
	TypeFlowEnd             = "flow_end"
	TypeRows                = "rows"
	TypeLateRowsDropped     = "late_rows_dropped"
	TypeMalformedRecords    = "malformed_records"
	TypeRescuedRecords      = "rescued_records"
	TypeNewColumns          = "new_columns"
	TypeExpectation         = "expectation"
	TypeStaleness           = "staleness"
	TypeCheckpointCommitted = "checkpoint_committed"
	TypeResumeFromEpoch     = "resume_from_epoch"
	TypeError               = "error"
	TypeLockTakenOver       = "lock_taken_over"
	TypeWarning             = "warning"
	TypeDatasetOutcome      = "dataset_outcome"
	TypeTablePublished      = "table_published"
	TypeIcebergRead         = "iceberg_read"
)

// Origin says where an event comes from; Dataset and Flow are "" for
// run-level events.
type Origin struct {
	Pipeline string `json:"pipeline"`
	Dataset  string `json:"dataset"`
	Flow     string `json:"flow"`
	RunID    string `json:"run_id"`
}

// Event is one record of the event log, in the Lakeflow shape. Details is an
// object with one key, the event type, holding that type's payload (as in
// Lakeflow: details.flow_progress.status), so one record shape serves every
// type.
type Event struct {
	ID        string          `json:"id"`
	Sequence  int64           `json:"sequence"`
	Timestamp string          `json:"timestamp"`
	Level     Level           `json:"level"`
	EventType string          `json:"event_type"`
	Origin    Origin          `json:"origin"`
	Details   json.RawMessage `json:"details"`
}

// Payload decodes the event's payload (details[event_type]) into v.
func (e *Event) Payload(v any) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(e.Details, &m); err != nil {
		return err
	}
	raw, ok := m[e.EventType]
	if !ok {
		return fmt.Errorf("event %s: no %q in details", e.ID, e.EventType)
	}
	return json.Unmarshal(raw, v)
}

// Payloads of the event types.
type (
	RunStart struct {
		Warehouse string   `json:"warehouse"`
		Epoch     int64    `json:"epoch"`      // the epoch this run commits if it succeeds
		HeadEpoch int64    `json:"head_epoch"` // the latest commit when it started (0: none)
		Args      []string `json:"args,omitempty"`
		Threads   int      `json:"threads,omitempty"`
		Runtime   string   `json:"runtime,omitempty"` // the runtime's version
		Collected int      `json:"garbage_collected"` // staged and temporary files of failed runs removed
	}
	RunEnd struct {
		// Status is completed, failed, or partial: some datasets failed
		// (or were skipped downstream of a failure), the others were
		// committed in Epoch (see DatasetOutcome).
		Status string `json:"status"`
		Epoch  int64  `json:"epoch"` // committed epoch; 0 when nothing was committed
		// NothingToDo: the run completed without changing anything, so it
		// committed nothing (and wrote no event log unless it warned).
		NothingToDo bool  `json:"nothing_to_do,omitempty"`
		DurationMS  int64 `json:"duration_ms"`
		RowsIn      int64 `json:"rows_in"`
		RowsOut     int64 `json:"rows_out"`
		// SpilledBytes: what the flows' operators wrote to spill files
		// because it did not fit under --memory-limit.
		SpilledBytes int64  `json:"spilled_bytes,omitempty"`
		Error        string `json:"error,omitempty"`
	}
	FlowStart struct {
		Target string `json:"target"`
	}
	// DatasetOutcome is what a run did to a dataset it meant to build
	// (origin.dataset), emitted at its end: updated (committed in Epoch),
	// not_committed (built, but the run committed nothing), failed (its
	// flows failed; its previous version stays current) or skipped (not
	// built because Upstream, a dataset it reads, failed or was skipped).
	DatasetOutcome struct {
		Status   string `json:"status"`
		Epoch    int64  `json:"epoch,omitempty"`
		Error    string `json:"error,omitempty"`
		Upstream string `json:"upstream,omitempty"`
	}
	// TablePublished: a dataset's Apache Iceberg table was brought up to
	// the commit (rt/iceberg): the snapshots added (their ids are the
	// dataset's versions) and the new metadata file, or its metadata
	// removed (a dropped dataset, or one no longer published).
	TablePublished struct {
		Snapshots []int64 `json:"snapshots,omitempty"`
		Metadata  string  `json:"metadata,omitempty"`
		Removed   bool    `json:"removed,omitempty"`
	}
	// IcebergRead: a flow (origin) read an Iceberg source: a snapshot
	// read of Snapshot, or a stream read (an incremental append scan)
	// after From up to To, of the append snapshots Snapshots (Base read
	// whole by a first read), passing over Skipped; Files data files of
	// Rows rows. Recompute says why a stream read took the current
	// snapshot whole (thund.non-append = recompute).
	IcebergRead struct {
		Source    string   `json:"source"`
		Table     string   `json:"table"`
		Stream    bool     `json:"stream"`
		Snapshot  int64    `json:"snapshot,omitempty"`
		From      int64    `json:"from,omitempty"`
		To        int64    `json:"to,omitempty"`
		Base      int64    `json:"base,omitempty"`
		Snapshots []int64  `json:"snapshots,omitempty"`
		Skipped   []string `json:"skipped,omitempty"`
		Recompute string   `json:"recompute,omitempty"`
		Files     int      `json:"files"`
		Rows      int64    `json:"rows"`
	}
	FlowProgress struct {
		Status  string `json:"status"` // running | completed | failed | skipped
		RowsIn  int64  `json:"rows_in"`
		RowsOut int64  `json:"rows_out"`
		Edges   []Edge `json:"edges,omitempty"`
	}
	FlowEnd struct {
		Status     string `json:"status"`
		RowsIn     int64  `json:"rows_in"`
		RowsOut    int64  `json:"rows_out"`
		DurationMS int64  `json:"duration_ms"`
		Edges      []Edge `json:"edges,omitempty"`
		// SpilledBytes: what the flow's operators wrote to spill files
		// (--memory-limit; rt/spill).
		SpilledBytes int64 `json:"spilled_bytes,omitempty"`
	}
	// Edge is the occupancy of one bounded edge between stages that run
	// concurrently (a source's reader and its flow, a flow and its
	// target's writer): its bounds (0: unbounded on that measure), the most
	// rows and bytes it ever held, the batches that passed, how many sends
	// had to wait for room, and how many batches were larger than a bound on
	// their own (let through an empty edge; only they can make a peak exceed
	// a bound).
	Edge struct {
		Edge            string `json:"edge"` // "INPUT -> FLOW" (its reader) or "FLOW -> writer TARGET"
		BoundRows       int64  `json:"bound_rows"`
		BoundBytes      int64  `json:"bound_bytes"`
		PeakRows        int64  `json:"peak_rows"`
		PeakBytes       int64  `json:"peak_bytes"`
		Batches         int64  `json:"batches"`
		BlockedSends    int64  `json:"blocked_sends"`
		OversizeBatches int64  `json:"oversize_batches,omitempty"`
	}
	Rows struct {
		In  int64 `json:"in"`
		Out int64 `json:"out"`
	}
	LateRowsDropped struct {
		Count     int64  `json:"count"`
		Watermark string `json:"watermark,omitempty"`
		LateTable string `json:"late_table,omitempty"`
	}
	// MalformedRecords are the malformed records a flow's read of a CSV or
	// JSON lines source met (its mode option): kept with NULLs
	// (PERMISSIVE) or dropped (DROPMALFORMED, or PERMISSIVE where a NOT
	// NULL column cannot hold the NULL).
	MalformedRecords struct {
		Source  string `json:"source"`
		Kept    int64  `json:"kept"`
		Dropped int64  `json:"dropped"`
		// Quarantined: how many of them the flow put in the source's
		// quarantine table, QuarantineTable (records already there are
		// not counted again).
		Quarantined     int64  `json:"quarantined,omitempty"`
		QuarantineTable string `json:"quarantine_table,omitempty"`
	}
	// RescuedRecords are the records of a CSV or JSON lines source a flow
	// read that were kept with a rescued-data value (its
	// rescuedDataColumn): values that did not parse, new columns, names in
	// another case.
	RescuedRecords struct {
		Source string `json:"source"`
		Column string `json:"column"` // the rescued-data column
		Count  int64  `json:"count"`
	}
	// NewColumns are the columns a source's files hold that its declared
	// schema lacks, met under schemaEvolutionMode none or rescue (the other
	// modes fail the run): ignored, or rescued into RescuedColumn.
	NewColumns struct {
		Source        string   `json:"source"`
		Columns       []string `json:"columns"`
		Action        string   `json:"action"` // ignored | rescued
		RescuedColumn string   `json:"rescued_column,omitempty"`
	}
	Expectation struct {
		Name    string `json:"name"`
		Action  string `json:"action"` // warn | drop | fail
		Passed  int64  `json:"passed"`
		Failed  int64  `json:"failed"`  // rows that violated it
		Dropped int64  `json:"dropped"` // of those, dropped (action drop)
	}
	Staleness struct {
		Decision string `json:"decision"` // fresh | stale
		Reason   string `json:"reason"`
	}
	CheckpointCommitted struct {
		Epoch   int64    `json:"epoch"`
		Objects []string `json:"objects,omitempty"`
	}
	ResumeFromEpoch struct {
		Epoch int64 `json:"epoch"` // the commit the run resumes from
		// Skipped names the newer commits passed over (with
		// --allow-older-checkpoint) and why; empty when resuming from the
		// latest.
		Skipped []string `json:"skipped,omitempty"`
	}
	ErrorDetails struct {
		Message string `json:"message"`
		Kind    string `json:"kind,omitempty"` // data | schema | expectation | lock | conflict | checkpoint | storage | internal
		File    string `json:"file,omitempty"`
		Row     int64  `json:"row,omitempty"`
		Col     int    `json:"col,omitempty"`
		Column  string `json:"column,omitempty"`
	}
	LockTakenOver struct {
		PreviousRun string `json:"previous_run"`
		Host        string `json:"host"`
		PID         int    `json:"pid"`
		Reason      string `json:"reason"`
	}
	Warning struct {
		Message string `json:"message"`
	}
)

// NewRunID returns a run id that sorts by start time, to the nanosecond:
// 20060102T150405.000000000Z-<8 hex>. (Whole seconds were not enough: two
// runs in one second sorted by their random part, and vacuum and history
// rely on the order.)
func NewRunID(start time.Time) string {
	var b [4]byte
	rand.Read(b[:])
	return start.UTC().Format(runIDTime) + "-" + hex.EncodeToString(b[:])
}

// runIDTime is the time part of a run id; fixed width, so ids sort as text.
const runIDTime = "20060102T150405.000000000Z"

func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // variant
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// Log collects one run's events in memory; Write stores them once, at the
// end of the run (object stores cannot append). It is safe for concurrent
// use.
type Log struct {
	pipeline, runID string
	// Now is the clock (tests set it); nil means time.Now.
	Now func() time.Time

	mu      sync.Mutex
	events  []Event
	subs    []func(Event)
	written bool
}

// NewLog starts the log of one run.
func NewLog(pipeline, runID string) *Log { return &Log{pipeline: pipeline, runID: runID} }

// RunID is the run's id.
func (l *Log) RunID() string { return l.runID }

// Subscribe calls fn with every event as it is emitted (the --json stream,
// the progress display). fn runs under the log's lock: keep it quick.
func (l *Log) Subscribe(fn func(Event)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.subs = append(l.subs, fn)
}

// Emit records an event. payload is the type's payload struct.
func (l *Log) Emit(level Level, eventType, dataset, flow string, payload any) Event {
	raw, err := json.Marshal(map[string]any{eventType: payload})
	if err != nil {
		raw, _ = json.Marshal(map[string]any{eventType: map[string]string{"unencodable": err.Error()}})
	}
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	e := Event{ID: newUUID(), Sequence: int64(len(l.events)) + 1, Timestamp: now().UTC().Format(TimeFormat),
		Level: level, EventType: eventType,
		Origin:  Origin{Pipeline: l.pipeline, Dataset: dataset, Flow: flow, RunID: l.runID},
		Details: raw}
	l.events = append(l.events, e)
	for _, fn := range l.subs {
		fn(e)
	}
	return e
}

// Events returns a copy of the events so far.
func (l *Log) Events() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Event(nil), l.events...)
}

// Marshal renders events as JSON lines.
func Marshal(evs []Event) []byte {
	var buf bytes.Buffer
	for _, e := range evs {
		b, _ := json.Marshal(e)
		buf.Write(b)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

// FileName is the object name of a run's event log.
func FileName(runID string) string { return Dir + "/" + runID + ".jsonl" }

// Write stores the log as _thund/events/<run id>.jsonl, created-if-absent:
// it is written once, and never appended to or rewritten.
func (l *Log) Write(ctx context.Context, fs store.FS) error {
	l.mu.Lock()
	if l.written {
		l.mu.Unlock()
		return errors.New("event log already written")
	}
	l.written = true
	data := Marshal(l.events)
	l.mu.Unlock()
	if err := fs.CreateIfAbsent(ctx, FileName(l.runID), data); err != nil {
		return fmt.Errorf("writing the event log: %w", err)
	}
	return nil
}

// Parse reads JSON lines of events.
func Parse(data []byte) ([]Event, error) {
	var out []Event
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	line := 0
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return out, fmt.Errorf("line %d: %w", line, err)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// RunInfo summarizes one run for `history`.
type RunInfo struct {
	RunID    string
	Pipeline string
	Start    time.Time
	End      time.Time // zero when the log has no run_end
	Status   string    // completed | failed | unknown
	Epoch    int64     // committed epoch, 0 if none
	Error    string
	Events   int
}

// ListRuns reads every run's log and summarizes it, oldest first.
func ListRuns(ctx context.Context, fs store.FS) ([]RunInfo, error) {
	infos, err := fs.List(ctx, Dir+"/")
	if err != nil {
		return nil, err
	}
	var out []RunInfo
	for _, o := range infos {
		id, ok := strings.CutSuffix(strings.TrimPrefix(o.Name, Dir+"/"), ".jsonl")
		if !ok || strings.Contains(id, "/") {
			continue
		}
		evs, err := LoadRun(ctx, fs, id)
		ri := RunInfo{RunID: id, Status: "unknown", Events: len(evs)}
		if err != nil {
			ri.Error = err.Error()
		}
		for _, e := range evs {
			ts, _ := time.Parse(time.RFC3339Nano, e.Timestamp)
			switch e.EventType {
			case TypeRunStart:
				ri.Start, ri.Pipeline = ts, e.Origin.Pipeline
			case TypeRunEnd:
				var p RunEnd
				if e.Payload(&p) == nil {
					ri.End, ri.Status, ri.Epoch, ri.Error = ts, p.Status, p.Epoch, p.Error
				}
			}
		}
		out = append(out, ri)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Start.Equal(out[j].Start) {
			return out[i].Start.Before(out[j].Start)
		}
		return out[i].RunID < out[j].RunID
	})
	return out, nil
}

// LoadRun reads one run's events.
func LoadRun(ctx context.Context, fs store.FS, runID string) ([]Event, error) {
	data, _, err := fs.ReadFile(ctx, FileName(runID))
	if err != nil {
		return nil, err
	}
	evs, err := Parse(data)
	if err != nil {
		return evs, fmt.Errorf("%s: %w", fs.Location(FileName(runID)), err)
	}
	return evs, nil
}
