package etl

import (
	"context"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/cdc"
	"github.com/nordisk/thund/rt/run"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/stream"
)

// Kind is a dataset's kind, as in the IR.
type Kind int

const (
	Source Kind = iota
	MaterializedView
	StreamingTable
	TemporaryView
	View
	Sink
)

var kindNames = [...]string{"source", "materialized view", "streaming table", "temporary view", "view", "sink"}

func (k Kind) String() string { return kindNames[k] }

// Pipeline is what a generated program describes.
type Pipeline struct {
	Name     string
	File     string // the pipeline's source file, for messages
	Compiler string // the thundc version that generated the program
	// Datasets in dependency order: a dataset's inputs come before it.
	Datasets []*Dataset
	// OpenS3 opens the store of --warehouse s3://BUCKET/PREFIX: s3store.Open
	// in a program built with S3 support (thundc build's default), nil
	// otherwise (--s3=false).
	// Without it such a warehouse is refused with a usage error that says
	// how to build the program with S3. It is a hook, not an import, so that
	// a program without S3 does not link the AWS SDK.
	OpenS3 func(ctx context.Context, url string) (store.FS, error)
	// Kafka reads and writes Kafka (rt/kafka's New()), set only in a program
	// whose pipeline has a Kafka source or sink (kafka.go).
	Kafka KafkaConnector
}

// Dataset is one node of the pipeline.
type Dataset struct {
	Name        string
	Kind        Kind
	Schema      *arrow.Schema
	PartitionBy []string
	// Format is a sink's output format (parquet, csv, jsonl, stdout).
	Format string
	// Iceberg: publish each committed version as an Apache Iceberg table
	// (rt/iceberg). The compiler sets it for each materialized view,
	// streaming table and late table whose format is iceberg (the default)
	// and whose every column has an Iceberg type (ir.IcebergType).
	Iceberg bool
	// SinkOptions are a sink's options; "path" is the folder its files go
	// to, relative to --root unless absolute (not needed for stdout).
	SinkOptions [][2]string
	// Source says where a source's rows come from (Kind Source only).
	Source       *FileSource
	Flows        []*Flow
	Expectations []Expectation
	// Incremental marks a materialized view maintained incrementally
	// (materialize incremental): a run reads only the input that is new
	// since its last version, as stream reads do, and appends what its flows
	// compute; it recomputes in full when that is impossible (never built, a
	// full refresh, its definition or the runtime changed, an input
	// rewritten rather than appended to), and says why.
	Incremental bool
	// NotIncremental says why a view declared incremental is recomputed in
	// full all the same (its query aggregates, joins, ...).
	NotIncremental string
	// Definition is the canonical text of the dataset's declaration and its
	// flows; a change of it makes the dataset stale (its fingerprint).
	Definition string
}

// FileSource is a source's files.
type FileSource struct {
	Format    string // parquet, csv, jsonl, arrow
	Patterns  []string
	Options   [][2]string // reader options (header, delimiter, quote, null, ...)
	Stdin     bool        // an Arrow IPC stream on standard input
	Unbounded bool        // a watched folder
	// QuarantineTable is the streaming table of the pipeline that receives
	// the source's malformed records (quarantine.go); "" for none.
	QuarantineTable string
}

// Expectation is one of a dataset's expectations; generated code evaluates
// its condition and counts through FlowContext.Expect.
type Expectation struct {
	Name   string
	Action run.Action
}

// Flow is one flow into a dataset.
type Flow struct {
	Name   string
	Inputs []Input
	Once   bool
	// CDC makes the flow a change flow (apply changes): Run emits change
	// rows of CDC.ChangeSchema(), which the runtime applies (rt/cdc) to the
	// target's committed state; the target's new version replaces the old.
	CDC *cdc.Spec
	// Complete (output mode complete): every run's rows replace the
	// target's, rather than append to it.
	Complete bool
	// LateTable is the dataset that receives the flow's late rows
	// (fc.EmitLate, of LateSchema); "" when the flow has none. It is a
	// streaming table of the pipeline that only this flow writes.
	LateTable  string
	LateSchema *arrow.Schema
	// Trigger schedules the flow under `run --follow` (nil: a micro-batch
	// as soon as new input lands). `--once` ignores it: one epoch runs
	// every flow that has new input.
	Trigger *Trigger
	// IdleTimeout is the smallest idle timeout of the watermarks of a
	// stateful flow's stream inputs (0: none). Under --follow, once that
	// long has passed after an epoch that ran the flow, with no new input
	// since, one epoch runs the flow without new input, so that the idle
	// inputs stop holding its watermark back and windows can close.
	IdleTimeout time.Duration
	// Run computes the flow: it reads its inputs with fc.Read and emits
	// batches of the target's schema (of CDC.ChangeSchema() for a change
	// flow) with fc.Emit.
	Run func(fc *FlowContext) error
}

// Trigger is a streaming flow's trigger (`trigger every N`, `trigger
// available now`).
type Trigger struct {
	// Every: run the flow at most once per Every (processing time).
	Every time.Duration
	// AvailableNow: run the flow once, at the start of --follow, on what is
	// available then; later input waits for the next run.
	AvailableNow bool
}

// Input is one dataset a flow reads.
type Input struct {
	Name   string
	Stream bool // a stream read: only what is new since the last commit
	// Bounds bound the edge between the input's reader and the flow (`bound
	// N rows bound M bytes`; 0 on a measure: unbounded on it). nil: the
	// run's defaults (DefaultEdgeBounds, --edge-rows, --edge-bytes).
	Bounds *EdgeBounds
}

// EdgeBounds bound one edge by rows and bytes (stream.EdgeBounds).
type EdgeBounds = stream.EdgeBounds
