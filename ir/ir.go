package ir

// Pipeline is one compilation unit: a set of datasets and the flows that fill them.
type Pipeline struct {
	Pos      Pos
	Doc      Comments // comment lines before the header
	Trailer  Comments // comment lines after the last declaration
	Name     string
	Catalog  string // default catalog ("" = the target's default)
	Database string // default database / schema
	Storage  string // storage root for Spark targets (spec "storage")
	Conf     []KV   // pipeline-wide SQL conf / configuration
	Datasets []*Dataset
	Flows    []*Flow
}

// Comments are source comment lines kept so that `thundc fmt` loses none,
// each with its marker ("# ..." or "-- ..."). They are not semantics: Equal
// ignores them, as it ignores positions.
type Comments []string

// SQLText is a query as an SQL file wrote it, with the USE state it was
// written under. Spark keeps a persisted view's query as text in its catalog,
// so a Spark target sends this text for one. Like comments it is source, not
// semantics: Equal ignores it, and the .thund printer drops it.
type SQLText struct {
	Query    string // the query, from its first token to the end of its statement
	Catalog  string // USE CATALOG in force ("" = the pipeline's)
	Database string // USE SCHEMA in force ("" = the pipeline's)
}

// KV is one ordered key/value pair (SQL conf, table properties, options).
type KV struct {
	Pos   Pos
	Key   string
	Value string
}

// DatasetKind says what a dataset is.
type DatasetKind int

const (
	KindSource           DatasetKind = iota // external files read by flows
	KindMaterializedView                    // a bounded table recomputed from snapshots
	KindStreamingTable                      // an append / update target of stream flows
	KindTemporaryView                       // a named query, not persisted
	KindView                                // a persisted view (gated per Spark target)
	KindSink                                // an external output (folder of files, stdout)
)

var kindNames = [...]string{"source", "materialized view", "streaming table", "temporary view", "view", "sink"}

func (k DatasetKind) String() string { return kindNames[k] }

// DatasetKinds lists every dataset kind.
func DatasetKinds() []DatasetKind {
	return []DatasetKind{KindSource, KindMaterializedView, KindStreamingTable, KindTemporaryView, KindView, KindSink}
}

// Materialization says how a dataset is maintained.
type Materialization int

const (
	MatDefault     Materialization = iota // full for materialized views, append for streaming tables
	MatFull                               // recompute from scratch
	MatIncremental                        // process only new input since the last version
)

var matNames = [...]string{"", "full", "incremental"}

func (m Materialization) String() string { return matNames[m] }

// Dataset is a node of the pipeline graph.
type Dataset struct {
	Pos      Pos
	Doc      Comments // comment lines before and inside the declaration
	Kind     DatasetKind
	Name     string // unqualified; the warehouse folder is its lower-case form
	ID       string // stable id for state compatibility; "" = derived from Name
	Catalog  string // per-file catalog ("" = the pipeline's)
	Database string // per-file database ("" = the pipeline's)
	Conf     []KV   // per-file SQL conf in force where the dataset was declared

	Columns      []*Column // declared schema (optional except for sources)
	Comment      string
	Format       string // table format (iceberg | parquet, tableformat.go; "" = iceberg) or, for a sink, csv | jsonl | parquet | stdout | kafka
	FormatPos    Pos    // where the format clause is (unknown when there is none)
	PartitionBy  []string
	ClusterBy    []string // clustering columns: a layout Spark keeps in the table's metadata
	Properties   []KV     // table properties
	SinkOptions  []KV     // sink options (path, ...)
	Materialize  Materialization
	Expectations []*Expectation

	Source    *SourceSpec // only for KindSource
	Watermark *Watermark  // a source's default watermark for every stream read of it
}

// StableID returns ID, or the lower-cased name when no ID was given.
func (d *Dataset) StableID() string {
	if d.ID != "" {
		return d.ID
	}
	return lower(d.Name)
}

// Column is one declared column.
type Column struct {
	Pos     Pos
	Name    string
	Type    Type
	NotNull bool
	Comment string
}

// FileFormat is the format of a source's files.
type FileFormat int

const (
	FormatParquet FileFormat = iota
	FormatCSV
	FormatJSONL
	FormatArrow // Arrow IPC (file or stream)
	FormatKafka // Kafka topics (read_kafka): no paths, a fixed schema (kafka.go)
	// FormatIceberg is an Apache Iceberg table: one path, the table's
	// folder (or s3://bucket/prefix), and the columns the frontend read
	// from the table's metadata (internal/icesource).
	FormatIceberg
)

var formatNames = [...]string{"parquet", "csv", "jsonl", "arrow", "kafka", "iceberg"}

func (f FileFormat) String() string { return formatNames[f] }

// FileFormats lists every source format.
func FileFormats() []FileFormat {
	return []FileFormat{FormatParquet, FormatCSV, FormatJSONL, FormatArrow, FormatKafka, FormatIceberg}
}

// ParseFileFormat accepts the canonical names and the aliases json and ipc.
func ParseFileFormat(s string) (FileFormat, bool) {
	switch lower(s) {
	case "parquet":
		return FormatParquet, true
	case "csv":
		return FormatCSV, true
	case "jsonl", "json":
		return FormatJSONL, true
	case "arrow", "ipc":
		return FormatArrow, true
	case "kafka":
		return FormatKafka, true
	case "iceberg":
		return FormatIceberg, true
	}
	return 0, false
}

// SourceSpec says where a source's rows come from.
type SourceSpec struct {
	Pos       Pos
	Format    FileFormat
	Paths     []string // glob patterns, relative to --root at run time
	Stdin     bool     // an Arrow IPC stream on standard input (at-most-once)
	Unbounded bool     // a watched folder (new files are picked up as they land), a Kafka source or an Iceberg table read as a stream
	Options   []KV     // reader options: header, delimiter, quote, null, ...; a Kafka source's read_kafka options; an Iceberg source's read options
	// Quarantine names the streaming table of the pipeline that receives
	// the source's malformed records (nil: none).
	Quarantine *Quarantine
}

// Quarantine is a source's quarantine table (.thund: quarantine table NAME;
// SQL: read_files(..., quarantineTable => 'NAME')).
type Quarantine struct {
	Pos   Pos
	Table string
}

// Watermark declares event time on a stream read: WM = max event time seen - Delay.
// A row is late once its window closed at end + AllowedLateness. IdleTimeout lets
// an idle input stop holding the watermark back.
type Watermark struct {
	Pos             Pos
	Column          string
	Delay           Duration
	AllowedLateness Duration
	IdleTimeout     Duration
}

// ExpectAction is what happens to a row that violates an expectation.
type ExpectAction int

const (
	ActWarn ExpectAction = iota // keep the row, count the violation
	ActDrop                     // drop the row, count it
	ActFail                     // fail the run, commit nothing
)

var actNames = [...]string{"warn", "drop", "fail"}

func (a ExpectAction) String() string { return actNames[a] }

// Expectation is a named row-level constraint on a dataset.
type Expectation struct {
	Pos    Pos
	Name   string
	Cond   Expr
	Action ExpectAction
}

// Flow is an edge: a query whose rows go into Target.
type Flow struct {
	Pos     Pos
	Doc     Comments // comment lines before and inside a flow declaration
	Name    string   // a dataset's own flow has the dataset's name
	Target  string
	Once    bool // runs once per full refresh (a backfill), not per update
	ByName  bool // insert by column name rather than position (SQL INSERT INTO ... BY NAME)
	Comment string
	Conf    []KV // per-flow SQL conf
	Query   Rel
	CDC     *CDC     // when set, the query's rows are a change feed applied to Target
	SQL     *SQLText // the query's SQL text, when a persisted view's flow was read from SQL

	Trigger    *Trigger
	OutputMode OutputMode
	Emit       EmitMode
	LateTable  string // the dataset that receives late rows ("" = none)
}

// Trigger schedules a streaming flow's micro-batches.
type Trigger struct {
	Pos      Pos
	Kind     TriggerKind
	Interval Duration // for TriggerEvery
}

// TriggerKind is a trigger's kind.
type TriggerKind int

const (
	TriggerEvery        TriggerKind = iota // processing-time micro-batches every Interval
	TriggerAvailableNow                    // process what is available, in micro-batches, then stop
)

// OutputMode is how a streaming flow writes its target.
type OutputMode int

const (
	OutputDefault  OutputMode = iota
	OutputAppend              // rows are final once written
	OutputUpdate              // rows are upserted by key
	OutputComplete            // the whole result is rewritten each epoch
)

var outputNames = [...]string{"", "append", "update", "complete"}

func (m OutputMode) String() string { return outputNames[m] }

// EmitMode is when a windowed aggregate emits.
type EmitMode int

const (
	EmitDefault       EmitMode = iota
	EmitOnWindowClose          // final rows once WM >= window end + allowed lateness
	EmitOnUpdate               // a changelog of upserts at every micro-batch
)

var emitNames = [...]string{"", "on window close", "on update"}

func (m EmitMode) String() string { return emitNames[m] }

// CDC applies a change feed to a target table (APPLY CHANGES / AUTO CDC).
type CDC struct {
	Pos                Pos
	Keys               []string
	SequenceBy         Expr
	DeleteWhen         Expr // nil = no deletes
	IgnoreNullUpdates  bool
	Columns            []string // only these columns ("" and nil = all)
	ExceptColumns      []string // all but these
	SCDType            int      // 1 or 2
	TrackHistory       []string // SCD2: history only on these columns
	TrackHistoryExcept []string // SCD2: history on all but these
}

// LookupDataset returns the dataset with the given name (case-insensitive), or nil.
func (p *Pipeline) LookupDataset(name string) *Dataset {
	n := lower(name)
	for _, d := range p.Datasets {
		if lower(d.Name) == n {
			return d
		}
	}
	return nil
}

// FlowsInto returns the flows whose target is the named dataset, in declaration order.
func (p *Pipeline) FlowsInto(name string) []*Flow {
	n := lower(name)
	var out []*Flow
	for _, f := range p.Flows {
		if lower(f.Target) == n {
			out = append(out, f)
		}
	}
	return out
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
