package passes

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/nordisk/thund/ir"
)

// Action is what the compiler does with a feature a target does not run as
// written.
type Action string

const (
	ActionRefused   Action = "refused"   // the pipeline cannot be compiled for the target (a capability error)
	ActionDropped   Action = "dropped"   // the target ignores the knob and runs on its own defaults
	ActionConverted Action = "converted" // the target runs an equivalent or nearest form
)

// Support says whether a target runs a feature. The zero value runs it as
// written; otherwise Action says what happens instead, and Reason (a
// predicate: "arrives in spark-4.2") says why.
type Support struct {
	Action Action
	Reason string
}

// OK reports that the target runs the feature as written.
func (s Support) OK() bool { return s.Action == "" }

func refused(why string) Support   { return Support{Action: ActionRefused, Reason: why} }
func dropped(why string) Support   { return Support{Action: ActionDropped, Reason: why} }
func converted(why string) Support { return Support{Action: ActionConverted, Reason: why} }

// Capabilities is what one backend runs. Every feature of the IR that some
// target does not run as written has a field here.
type Capabilities struct {
	Target Target

	// datasets and reads
	Sinks            Support // sink datasets
	PersistedViews   Support // view (persisted), as opposed to temporary view
	StdinSources     Support // a source reading an Arrow IPC stream on stdin
	WatchedFolders   Support // a stream source (an unbounded watched folder)
	ArrowFiles       Support // a source of Arrow IPC files
	KafkaSources     Support // a source reading Kafka topics (read_kafka)
	KafkaSinks       Support // a sink writing a Kafka topic (format kafka)
	IcebergSources   Support // a source reading an Apache Iceberg table
	IcebergNonAppend Support // an Iceberg stream read's thund.non-append other than fail
	ExternalTables   Support // reads of tables outside the pipeline (Spark resolves them in its catalog)
	WarnExpectations Support // expectations that only count violations
	Expectations     Support // expectations that drop rows or fail the run
	Clustering       Support // clustering columns (cluster by) of a table
	RescuedData      Support // rescuedDataColumn of a CSV or JSON lines source
	SchemaEvolution  Support // schemaEvolutionMode of a CSV or JSON lines source
	QuarantineTables Support // a source's quarantine table of malformed records
	// from_json's rescuedDataColumn and schemaEvolutionMode options
	// (Lakeflow's, for Kafka and other JSON text)
	JSONRescuedData     Support
	JSONSchemaEvolution Support

	// flows
	CDC                 Support // apply changes (keys, sequence by, SCD 1)
	SCD2                Support // apply changes stored as SCD type 2
	TrackHistory        Support // SCD type 2 history on some columns only
	IgnoreNullUpdates   Support // apply changes keeping a value an update sets to NULL
	OnceFlows           Support
	OutputUpdate        Support // output mode update on a flow with a streaming aggregate
	OutputComplete      Support
	EmitOnWindowClose   Support
	EmitOnUpdate        Support // on a flow with a streaming aggregate
	TriggerEvery        Support
	TriggerAvailableNow Support
	LateTables          Support
	EdgeBounds          Support // per-edge row and byte bounds
	IdleTimeout         Support
	AllowedLateness     Support
	SessionWindows      Support
	// a watermark on a stream read of a dataset the pipeline defines, other
	// than a source's own declared one
	GraphReadWatermarks Support

	// subquery expressions
	StreamSubqueries Support // a stream read inside a scalar or IN subquery
	SortSubqueries   Support // an IN subquery in an order by key
	CDCSubqueries    Support // a subquery in a change flow's sequence by or delete when

	// types
	UnsignedInts   Support
	NanoTimestamps Support // nanosecond timestamps and durations
	Durations      Support
	ZonedTimes     Support // timestamps in a zone other than UTC
}

// Reasons shared by the Spark targets, with what they rest on.
const (
	whyNoExpect      = "is not part of OSS Spark (expectations are a Databricks Lakeflow feature): filter with a where stage, or target native"
	whyFilterExpect  = "is lowered to a filter on its condition (--expectations filter): the rows it drops are those the native backend drops, but Spark counts none of them"
	whyWarnExpect    = "is not part of OSS Spark: the rows are kept, but violations are not counted"
	whyStdin         = "is not readable by a Spark Connect server (it cannot see the client's stdin): land the stream in files and read them with a source"
	whyArrow         = "has no Spark file reader: convert the files to parquet"
	whyOutputMode    = "is not settable in SDP, whose streaming tables are appended to (DefineFlow has no output mode): aggregate over a window with a watermark, or target native"
	whyStatelessMode = "is not settable in SDP; without a streaming aggregate, append writes the same rows"
	whyEmitClose     = "is Spark's append mode over a watermarked window, which emits each window once the watermark passes its end"
	whyTrigger       = "is not settable per flow in SDP: a pipeline run triggers its flows"
	whyAvailableNow  = "is how a triggered SDP run already processes its input (what is available, then stop)"
	whyLateTable     = "has no Spark counterpart: Spark drops late rows without a side output; remove it, or target native"
	whyQuarantine    = "has no Spark counterpart: open-source Spark's file sources keep (PERMISSIVE) or drop (DROPMALFORMED) a malformed record without a side output; keep its text with columnNameOfCorruptRecord, remove the table, or target native"
	whyEdgeBounds    = "have no Spark counterpart: Spark sizes micro-batches itself (maxFilesPerTrigger, maxBytesPerTrigger)"
	whyIdle          = "has no Spark counterpart: an idle input holds the watermark back"
	whyLateness      = "is folded into the watermark delay (withWatermark(col, delay + lateness)): windows close, and rows count as late, at the same points"
	whyUnsigned      = "are converted to a wider signed type (uint8 to smallint, uint16 to int, uint32 to bigint, uint64 to decimal(20,0)): Spark has no unsigned types"
	whyNano          = "is truncated to microseconds, Spark's timestamp and interval precision"
	whyCDC41         = "arrives in spark-4.2"
	// What Spark 4.2.1 (the release spark-4.2 is pinned to) runs of AUTO CDC:
	// its DefineFlow.SCDType has only SCD_TYPE_1, AutoCdcFlowDetails has no
	// track history lists, and its server (PipelinesHandler.buildAutoCdcFlow)
	// does not read ignore_null_updates_column_list, though the proto has it.
	// See sparkemit/proto/spark/connect/README.md.
	whySCD2on42       = "is not in Spark 4.2.1's AUTO CDC (DefineFlow.SCDType has only SCD_TYPE_1): store as scd type 1, or target native"
	whyTrackHistory42 = "is SCD type 2 history, which Spark 4.2.1's AUTO CDC lacks (AutoCdcFlowDetails has no track history fields): target native"
	whyIgnoreNulls42  = "is not applied by Spark 4.2.1's server, which does not read AutoCdcFlowDetails.ignore_null_updates_column_list, so an update's NULL would overwrite the stored value: remove it (NULLs then overwrite), or target native"
	whyGraphWatermark = "cannot be declared on a read of a dataset of the pipeline: Spark's Connect planner resolves withWatermark when a flow is defined, before the graph's datasets exist (TABLE_OR_VIEW_NOT_FOUND, shown on Spark 4.1.4 and 4.2.1); declare the watermark on a source, which its temporary view carries, or target native"
	whyDuration       = "are Spark's INTERVAL DAY TO SECOND, with microsecond precision"
	whyZone           = "is not kept by Spark's TIMESTAMP, an instant shown in the session time zone (a zoneless timestamp is TIMESTAMP_NTZ)"
	whyStreamSubq     = "is not allowed by Spark (INVALID_SUBQUERY_EXPRESSION.STREAMING_QUERY): read the input as a snapshot in the subquery"
	whySortSubq       = "is not allowed by Spark, which runs IN subqueries only in filters, joins, aggregates and projections (UNSUPPORTED_IN_EXISTS_SUBQUERY): compute it as a column in a select before the order by"
	whyCDCSubq        = "has no Spark Connect form: AUTO CDC's clauses are column expressions of its source, with no relation beside them for a subquery: compute the column in a temporary view of the change feed"
	whyNoClustering   = "has no native counterpart: the warehouse lays a dataset out by partition columns only; use partitioned by, or target spark-4.1 or spark-4.2 (DefineOutput.TableDetails.clustering_columns)"
)

// Spark's file sources ignore a reader option they do not know, so
// lowering these two would change answers in silence.
const (
	whyRescued   = "is a Databricks reader option that open-source Spark's CSV and JSON readers lack, and they ignore an option they do not know: the values it would rescue would be lost without a word. Remove it (such values are then malformed, as mode says), or target native"
	whyEvolution = "is a Databricks Auto Loader option that open-source Spark's file sources lack, and they ignore an option they do not know: new columns would be dropped without a word. Remove it (Spark reads the declared columns), or target native"
)

// Spark's from_json ignores an option it does not know, so lowering these
// two would change answers in silence.
const (
	whyJSONRescued   = "is a Databricks (Lakeflow) option of from_json that open-source Spark's from_json ignores: the values it would rescue would be NULL without a word. Remove it (such values are then malformed, as mode says: keep their text with columnNameOfCorruptRecord), or target native"
	whyJSONEvolution = "is a Databricks (Lakeflow) option of from_json that open-source Spark's from_json ignores: keys not in the schema would be dropped without a word. Remove it (Spark reads the schema's fields), or target native"
)

// capabilities is the one table of targets and what they run.
var capabilities = []Capabilities{
	{
		Target:         Native,
		Clustering:     refused(whyNoClustering),
		ExternalTables: refused("is outside the pipeline, and the native engine reads only the pipeline's own datasets: bind it to files with thundc --bind NAME=\"read_files('PATH', format => 'parquet')\" (or to an Iceberg table: NAME='iceberg.`LOCATION`') or spark-pipeline.yml's configuration thund.source.NAME, or (in .thund) declare a source and read that"),
	},
	{
		Target:              Spark41,
		StdinSources:        refused(whyStdin),
		KafkaSources:        converted(fmt.Sprintf(whyKafkaSource, "4.1.x")),
		KafkaSinks:          converted(fmt.Sprintf(whyKafkaSink, "4.1.x")),
		IcebergSources:      converted(whyIceberg41),
		IcebergNonAppend:    refused(whyNonAppend),
		ArrowFiles:          refused(whyArrow),
		WarnExpectations:    dropped(whyWarnExpect),
		Expectations:        refused(whyNoExpect),
		CDC:                 refused(whyCDC41),
		SCD2:                refused(whyCDC41),
		TrackHistory:        refused(whyCDC41),
		IgnoreNullUpdates:   refused(whyCDC41),
		OutputUpdate:        refused(whyOutputMode),
		OutputComplete:      refused(whyOutputMode),
		EmitOnWindowClose:   converted(whyEmitClose),
		EmitOnUpdate:        refused(whyOutputMode),
		TriggerEvery:        dropped(whyTrigger),
		TriggerAvailableNow: dropped(whyAvailableNow),
		LateTables:          refused(whyLateTable),
		QuarantineTables:    refused(whyQuarantine),
		EdgeBounds:          dropped(whyEdgeBounds),
		IdleTimeout:         dropped(whyIdle),
		AllowedLateness:     converted(whyLateness),
		UnsignedInts:        converted(whyUnsigned),
		NanoTimestamps:      converted(whyNano),
		Durations:           converted(whyDuration),
		ZonedTimes:          converted(whyZone),
		GraphReadWatermarks: refused(whyGraphWatermark),
		StreamSubqueries:    refused(whyStreamSubq),
		SortSubqueries:      refused(whySortSubq),
		CDCSubqueries:       refused(whyCDCSubq),
		RescuedData:         refused(whyRescued),
		SchemaEvolution:     refused(whyEvolution),
		JSONRescuedData:     refused(whyJSONRescued),
		JSONSchemaEvolution: refused(whyJSONEvolution),
	},
	{
		Target:              Spark42,
		SCD2:                refused(whySCD2on42),
		TrackHistory:        refused(whyTrackHistory42),
		IgnoreNullUpdates:   refused(whyIgnoreNulls42),
		StdinSources:        refused(whyStdin),
		KafkaSources:        converted(fmt.Sprintf(whyKafkaSource, "4.2.x")),
		KafkaSinks:          converted(fmt.Sprintf(whyKafkaSink, "4.2.x")),
		IcebergSources:      converted(whyIceberg42),
		IcebergNonAppend:    refused(whyNonAppend),
		ArrowFiles:          refused(whyArrow),
		WarnExpectations:    dropped(whyWarnExpect),
		Expectations:        refused(whyNoExpect),
		OutputUpdate:        refused(whyOutputMode),
		OutputComplete:      refused(whyOutputMode),
		EmitOnWindowClose:   converted(whyEmitClose),
		EmitOnUpdate:        refused(whyOutputMode),
		TriggerEvery:        dropped(whyTrigger),
		TriggerAvailableNow: dropped(whyAvailableNow),
		LateTables:          refused(whyLateTable),
		QuarantineTables:    refused(whyQuarantine),
		EdgeBounds:          dropped(whyEdgeBounds),
		IdleTimeout:         dropped(whyIdle),
		AllowedLateness:     converted(whyLateness),
		UnsignedInts:        converted(whyUnsigned),
		NanoTimestamps:      converted(whyNano),
		Durations:           converted(whyDuration),
		ZonedTimes:          converted(whyZone),
		GraphReadWatermarks: refused(whyGraphWatermark),
		StreamSubqueries:    refused(whyStreamSubq),
		SortSubqueries:      refused(whySortSubq),
		CDCSubqueries:       refused(whyCDCSubq),
		RescuedData:         refused(whyRescued),
		SchemaEvolution:     refused(whyEvolution),
		JSONRescuedData:     refused(whyJSONRescued),
		JSONSchemaEvolution: refused(whyJSONEvolution),
	},
}

// The Kafka connector of the Spark targets: Spark has no read_kafka, and
// sparkemit reads and writes with Spark's Kafka connector.
const (
	whyKafkaSource = "is read with Spark's Kafka connector (format kafka; open-source Spark has no read_kafka), which the cluster needs: org.apache.spark:spark-sql-kafka-0-10_2.13 at its Spark version (%s). " +
		"The options are renamed for it (bootstrapServers is kafka.bootstrap.servers), and kafka.isolation.level=read_committed is added: Spark reads read_uncommitted by default, and native reads only committed records. " +
		"Spark sends no schema (the connector's is fixed) and reads every column as nullable; files named by kafka.ssl.*.location options must exist on the cluster"
	whyKafkaSink = "is written by Spark's Kafka sink (the connector org.apache.spark:spark-sql-kafka-0-10_2.13 at the cluster's Spark version, %s), which is at-least-once: a micro-batch Spark retries may write its records again, " +
		"where the native sink writes each epoch in one Kafka transaction (exactly once for read_committed readers)"
)

// Iceberg's Spark source: open-source Spark reads Iceberg only through
// the iceberg-spark-runtime jar of the cluster's Spark version, and
// Iceberg publishes none for Spark 4.2 yet.
const (
	whyIcebergSource = "is read with Iceberg's Spark source (format iceberg, the table's location as the path, HadoopTables: no catalog is needed), which the cluster needs: "
	whyIcebergOpts   = ". A time travel is sent as Spark's own reader options, versionAsOf (snapshot-id) and timestampAsOf (as-of-timestamp, as a UTC time to the millisecond), which Iceberg's runtime takes (its 1.12 refuses its own snapshot-id and as-of-timestamp); the streaming-skip options are sent as written"
	whyIceberg41     = whyIcebergSource + "org.apache.iceberg:iceberg-spark-runtime-4.1_2.13 on its classpath (spark.jars.packages)" + whyIcebergOpts
	whyIceberg42     = whyIcebergSource + "an iceberg-spark-runtime jar for Spark 4.2, which Iceberg does not publish yet (there is no iceberg-spark-runtime-4.2_2.13): build one from Iceberg's source, or target spark-4.1" + whyIcebergOpts
	whyNonAppend     = "is Þund's own option, which Spark's Iceberg source lacks (it fails on an overwrite or delete snapshot unless streaming-skip-overwrite-snapshots or streaming-skip-delete-snapshots skips it): use those options, remove it, or target native"
)

// CapabilitiesOf returns a target's capabilities.
func CapabilitiesOf(t Target) (Capabilities, bool) {
	for _, c := range capabilities {
		if c.Target == t {
			return c, true
		}
	}
	return Capabilities{}, false
}

// LoweringReport records, per flow and dataset, each knob the target does
// not run as written. sparkemit writes it beside a bundle as
// BUNDLE.report.json.
type LoweringReport struct {
	Target  Target        `json:"target"`
	Entries []ReportEntry `json:"entries"`
}

// ReportEntry is one knob of one flow or dataset.
type ReportEntry struct {
	Flow    string `json:"flow,omitempty"`
	Dataset string `json:"dataset,omitempty"`
	Knob    string `json:"knob"`
	Action  Action `json:"action"`
	Reason  string `json:"reason"`
	Pos     ir.Pos `json:"pos"`
}

// MarshalJSON writes Pos as "file:line:col".
func (e ReportEntry) MarshalJSON() ([]byte, error) {
	type plain ReportEntry
	return json.Marshal(struct {
		plain
		Pos string `json:"pos,omitempty"`
	}{plain(e), posText(e.Pos)})
}

func posText(p ir.Pos) string {
	if !p.IsValid() && p.File == "" {
		return ""
	}
	return p.String()
}

// String renders one line of the report: "flow f into t: trigger
// [dropped] is not settable per flow in SDP: ...".
func (e ReportEntry) String() string {
	who := "dataset " + e.Dataset
	if e.Flow == "" && e.Dataset == "" {
		who = "pipeline" // a pipeline-wide conf (conf.go)
	}
	if e.Flow != "" {
		who = "flow " + e.Flow + " into " + e.Dataset
	}
	return fmt.Sprintf("%s: %s [%s] %s", who, e.Knob, e.Action, e.Reason)
}

// capability checks every dataset and flow against the target's
// capabilities: refusals are diagnostics (and report entries); knobs the
// target drops or converts are report entries only.
func capability(u *Unit) {
	caps, _ := CapabilitiesOf(u.Opts.Target)
	u.Caps = &caps
	u.Report = &LoweringReport{Target: caps.Target, Entries: []ReportEntry{}}
	c := &capChecker{u: u, caps: &caps}
	for _, d := range u.Pipeline.Datasets {
		c.dataset(d)
	}
	for _, f := range u.Pipeline.Flows {
		c.flow(f)
	}
	confReport(u) // session confs (conf.go)
	u.Report.Entries = sortEntries(u.Report.Entries)
}

type capChecker struct {
	u    *Unit
	caps *Capabilities
}

// use is one use of a feature: by which flow (or "") of which dataset, in
// which construct (what: `change flow "x"`), as which knob (the report's
// stable name: "cdc") and subject (the message's words: "CDC (AUTO CDC)";
// "" means the knob).
type use struct {
	pos           ir.Pos
	flow, dataset string
	what          string
	knob, subject string
	detail        string
}

// note records one use of a feature: nothing when the target runs it, a
// report entry otherwise, and a diagnostic for a refusal.
func (c *capChecker) note(s Support, u use) {
	if s.OK() {
		return
	}
	reason := s.Reason
	if u.detail != "" {
		reason += " (" + u.detail + ")"
	}
	if u.subject == "" {
		u.subject = u.knob
	}
	c.u.Report.Entries = append(c.u.Report.Entries, ReportEntry{Flow: u.flow, Dataset: u.dataset, Knob: u.knob, Action: s.Action, Reason: reason, Pos: u.pos})
	if s.Action == ActionRefused {
		c.u.Diags.Add(u.pos, ir.CodeCapability, "%s cannot run %s: %s %s", c.caps.Target, u.what, u.subject, reason)
	}
}

func (c *capChecker) dataset(d *ir.Dataset) {
	on := use{pos: d.Pos, dataset: d.Name, what: fmt.Sprintf("%s %q", d.Kind, d.Name)}
	with := func(pos ir.Pos, knob, subject, detail string) use {
		u := on
		if pos.IsValid() {
			u.pos = pos
		}
		u.knob, u.subject, u.detail = knob, subject, detail
		return u
	}
	switch d.Kind {
	case ir.KindSink:
		c.note(c.caps.Sinks, with(d.Pos, "sink", "a sink", ""))
		if strings.EqualFold(d.Format, "kafka") {
			c.note(c.caps.KafkaSinks, with(d.Pos, "kafka sink", "a Kafka sink", ""))
			c.kafkaSink(d)
		} else {
			c.fileSink(d)
		}
	case ir.KindStreamingTable:
		if c.caps.Target.IsSpark() && len(c.u.flowsInto(d)) == 0 {
			c.note(refused("has no flow, which Spark refuses (Spark: PIPELINE_DATASET_WITHOUT_FLOW): give it a query (AS SELECT ...), or a flow into it"),
				with(d.Pos, "flowless table", "it", ""))
		}
	case ir.KindView:
		c.note(c.caps.PersistedViews, with(d.Pos, "persisted view", "a persisted view", ""))
		if c.caps.Target.IsSpark() {
			c.persistedView(d, on)
		}
	case ir.KindSource:
		c.sourceOptions(d)
		c.quarantine(d)
		if src := d.Source; src != nil {
			switch {
			case src.Stdin:
				c.note(c.caps.StdinSources, with(src.Pos, "stdin", "an Arrow IPC stream on stdin", ""))
			case src.Format == ir.FormatArrow:
				c.note(c.caps.ArrowFiles, with(src.Pos, "arrow files", "a source of Arrow IPC files", ""))
			case src.Format == ir.FormatKafka:
				c.note(c.caps.KafkaSources, with(src.Pos, "kafka source", "a Kafka source", ""))
			case src.Format == ir.FormatIceberg:
				c.note(c.caps.IcebergSources, with(src.Pos, "iceberg source", "an Iceberg source", ""))
			}
			if src.Unbounded && src.Format != ir.FormatKafka && src.Format != ir.FormatIceberg {
				c.note(c.caps.WatchedFolders, with(src.Pos, "watched folder", "a watched folder", ""))
			}
		}
		if w := d.Watermark; w != nil {
			c.watermark(w, on)
		}
	}
	if len(d.ClusterBy) > 0 {
		c.note(c.caps.Clustering, with(d.Pos, "cluster by", "cluster by ("+strings.Join(d.ClusterBy, ", ")+")", ""))
	}
	for _, e := range d.Expectations {
		u := with(e.Pos, "expectation", fmt.Sprintf("expectation %q (on violation %s)", e.Name, e.Action), "")
		u.what = fmt.Sprintf("%s %q", d.Kind, d.Name)
		switch {
		case e.Action == ir.ActWarn:
			c.note(c.caps.WarnExpectations, u)
		case e.Action == ir.ActDrop && c.u.Opts.Expectations == ExpectFilter && !c.caps.Expectations.OK():
			c.note(converted(whyFilterExpect), u)
		default:
			c.note(c.caps.Expectations, u)
		}
	}
	c.types(c.u.Datasets[d], on)
	c.tableFormat(d) // tableformat.go
}

// persistedView refuses what Spark's CREATE VIEW cannot say. Spark keeps a
// persisted view's query as SQL text (sparkemit sends it in a
// DefineSqlGraphElements, as DefineOutput has no output type for a
// persisted view), so the query must come from an SQL file; and a persisted
// object cannot read a temporary one.
func (c *capChecker) persistedView(d *ir.Dataset, on use) {
	refuse := func(pos ir.Pos, subject, reason string) {
		u := on
		if pos.IsValid() {
			u.pos = pos
		}
		u.knob, u.subject = "persisted view", subject
		c.note(refused(reason), u)
	}
	if len(d.Columns) > 0 {
		refuse(d.Columns[0].Pos, "a persisted view with declared column types", "is not Spark SQL: CREATE VIEW names its columns without types; drop the column list, or cast in the query")
	}
	if len(d.Expectations) > 0 {
		refuse(d.Expectations[0].Pos, "an expectation on a persisted view", "has no place in Spark's CREATE VIEW: put it on a table the view reads, or make the view a materialized view")
	}
	for _, f := range c.u.flowsInto(d) {
		if f.SQL == nil {
			refuse(f.Pos, "a persisted view declared in .thund", "needs its query as SQL text, which Spark keeps in its catalog: declare the view in an SQL file, or make it a temporary view")
		}
		for _, sc := range ir.Scans(f.Query) {
			if in := c.u.lookup(sc.Name); in != nil && (in.Kind == ir.KindTemporaryView || in.Kind == ir.KindSource) {
				refuse(sc.Pos, fmt.Sprintf("a read of %s %q", in.Kind, in.Name), "by a persisted view is refused by Spark, as a persistent object cannot reference a temporary one (Spark: INVALID_TEMP_OBJ_REFERENCE): read a materialized view or a table, or make the view a temporary view")
			}
		}
	}
}

// watermark notes the knobs of a watermark declaration.
func (c *capChecker) watermark(w *ir.Watermark, on use) {
	if w.Pos.IsValid() {
		on.pos = w.Pos
	}
	if w.AllowedLateness > 0 {
		u := on
		u.knob, u.detail = "allowed lateness", "allowed lateness "+w.AllowedLateness.String()
		c.note(c.caps.AllowedLateness, u)
	}
	if w.IdleTimeout > 0 {
		u := on
		u.knob, u.detail = "idle timeout", "idle timeout "+w.IdleTimeout.String()
		c.note(c.caps.IdleTimeout, u)
	}
}

// types notes unsigned, nanosecond and duration columns of a schema.
func (c *capChecker) types(s Schema, on use) {
	var unsigned, nano, dur, zoned []string
	for _, f := range s.Visible() {
		t := f.Type
		switch {
		case t.IsUnsigned():
			unsigned = append(unsigned, f.Name+" "+t.String())
		case (t.Kind == ir.TTimestamp || t.Kind == ir.TDuration) && t.Unit == ir.Nano:
			nano = append(nano, f.Name+" "+t.String())
		}
		if t.Kind == ir.TDuration {
			dur = append(dur, f.Name+" "+t.String())
		}
		if t.Kind == ir.TTimestamp && t.Zone != "" && !strings.EqualFold(t.Zone, "UTC") {
			zoned = append(zoned, f.Name+" "+t.String())
		}
	}
	note := func(s Support, knob string, cols []string) {
		if len(cols) > 0 {
			u := on
			u.knob, u.detail = knob, strings.Join(cols, ", ")
			c.note(s, u)
		}
	}
	note(c.caps.UnsignedInts, "unsigned ints", unsigned)
	note(c.caps.NanoTimestamps, "nanosecond precision", nano)
	note(c.caps.Durations, "durations", dur)
	note(c.caps.ZonedTimes, "time zone", zoned)
}

func (c *capChecker) flow(f *ir.Flow) {
	fi := c.u.Flows[f]
	if fi == nil || f.Query == nil {
		return
	}
	on := use{pos: f.Pos, flow: f.Name, dataset: f.Target, what: fmt.Sprintf("flow %q", f.Name)}
	if f.CDC != nil {
		on.what = fmt.Sprintf("change flow %q", f.Name)
	}
	at := func(pos ir.Pos, knob, subject, detail string) use {
		u := on
		if pos.IsValid() {
			u.pos = pos
		}
		u.knob, u.subject, u.detail = knob, subject, detail
		return u
	}
	if f.CDC != nil {
		c.note(c.caps.CDC, at(f.CDC.Pos, "cdc", "CDC (AUTO CDC)", ""))
		// Where the target runs no CDC at all, its one refusal says so.
		if c.caps.CDC.OK() {
			if f.CDC.SCDType == 2 {
				c.note(c.caps.SCD2, at(f.CDC.Pos, "scd type 2", "", ""))
			}
			switch {
			case len(f.CDC.TrackHistory) > 0:
				c.note(c.caps.TrackHistory, at(f.CDC.Pos, "track history", "track history on ("+strings.Join(f.CDC.TrackHistory, ", ")+")", ""))
			case len(f.CDC.TrackHistoryExcept) > 0:
				c.note(c.caps.TrackHistory, at(f.CDC.Pos, "track history", "track history on * except ("+strings.Join(f.CDC.TrackHistoryExcept, ", ")+")", ""))
			}
			if f.CDC.IgnoreNullUpdates {
				c.note(c.caps.IgnoreNullUpdates, at(f.CDC.Pos, "ignore null updates", "", ""))
			}
		}
		if c.caps.CDC.OK() {
			for _, e := range []ir.Expr{f.CDC.SequenceBy, f.CDC.DeleteWhen} {
				if sq := firstSubquery(e); sq != nil {
					c.note(c.caps.CDCSubqueries, at(sq.Position(), "cdc subquery", "a subquery in AUTO CDC", ""))
				}
			}
		}
	}
	for _, in := range fi.Inputs {
		if in.Subquery && in.Stream && in.Scan != nil {
			c.note(c.caps.StreamSubqueries, at(in.Scan.Pos, "stream subquery", fmt.Sprintf("the stream read of %s in a subquery", in.Name), ""))
		}
	}
	if f.Once {
		c.note(c.caps.OnceFlows, at(f.Pos, "once", "a once flow", ""))
	}
	c.fromJSONOptions(f.Query, at)
	// Dropping update mode is harmless when no aggregate would upsert.
	stateless := func(s Support) Support {
		if s.Action == ActionRefused && !fi.Aggregating {
			return dropped(whyStatelessMode)
		}
		return s
	}
	switch {
	case f.Emit == ir.EmitOnUpdate:
		c.note(stateless(c.caps.EmitOnUpdate), at(f.Pos, "emit on update", "", ""))
	case f.OutputMode == ir.OutputUpdate:
		c.note(stateless(c.caps.OutputUpdate), at(f.Pos, "output mode update", "", ""))
	}
	if f.OutputMode == ir.OutputComplete {
		c.note(c.caps.OutputComplete, at(f.Pos, "output mode complete", "", ""))
	}
	if f.Emit == ir.EmitOnWindowClose {
		c.note(c.caps.EmitOnWindowClose, at(f.Pos, "emit on window close", "", ""))
	}
	if t := f.Trigger; t != nil {
		if t.Kind == ir.TriggerEvery {
			c.note(c.caps.TriggerEvery, at(t.Pos, "trigger", "trigger every "+t.Interval.String(), ""))
		} else {
			c.note(c.caps.TriggerAvailableNow, at(t.Pos, "trigger", "trigger available now", ""))
		}
	}
	if f.LateTable != "" {
		c.note(c.caps.LateTables, at(f.Pos, "late table", fmt.Sprintf("late table %q", f.LateTable), ""))
	}
	for _, in := range fi.Inputs {
		// A source read with a watermark of its own reads the source's
		// files; a stateless flow needs no watermark, and the lowering
		// leaves out one carried from upstream (sparkemit's scan).
		if in.Stream && in.Watermark != nil && in.Scan != nil && (in.WMOrigin == "read" && in.Kind != ir.KindSource.String() || in.WMOrigin == "upstream" && fi.Stateful) {
			pos := in.Scan.Pos
			if w := in.Scan.Watermark; w != nil && w.Pos.IsValid() {
				pos = w.Pos
			}
			c.note(c.caps.GraphReadWatermarks, at(pos, "watermark", fmt.Sprintf("a watermark on %s (on %s)", in.Name, in.Watermark.Column), ""))
		}
	}
	ir.WalkRel(f.Query, func(r ir.Rel) bool {
		switch n := r.(type) {
		case *ir.Scan:
			if c.u.lookup(n.Name) == nil {
				c.note(c.caps.ExternalTables, at(n.Pos, "external table", fmt.Sprintf("external table %q", n.Name), ""))
			}
			if b := n.Bounds; b != nil && (b.Rows > 0 || b.Bytes > 0) {
				c.note(c.caps.EdgeBounds, at(b.Pos, "edge bounds", "edge bounds", "on the read of "+n.Name))
			}
			if n.Watermark != nil {
				c.watermark(n.Watermark, on)
			}
		case *ir.Window:
			if n.Kind == ir.WindowSession {
				c.note(c.caps.SessionWindows, at(n.Pos, "session windows", "", ""))
			}
		case *ir.Sort:
			for _, k := range n.Keys {
				ir.WalkExpr(k.Expr, func(e ir.Expr) bool {
					if in, ok := e.(*ir.InSubquery); ok {
						c.note(c.caps.SortSubqueries, at(in.Pos, "order by subquery", "an IN subquery in an order by key", ""))
					}
					if ex, ok := e.(*ir.Exists); ok { // correlated subqueries: Spark refuses EXISTS there too
						c.note(c.caps.SortSubqueries, at(ex.Pos, "order by subquery", "an EXISTS subquery in an order by key", ""))
					}
					return true
				})
			}
		}
		for _, e := range ir.RelExprs(r) {
			ir.WalkExpr(e, func(e ir.Expr) bool {
				switch k := e.(type) {
				case *ir.Cast:
					c.types(Schema{{Name: exprString(k), Type: k.To}}, at(k.Pos, "", "", ""))
				}
				return true
			})
		}
		return true
	})
}

// firstSubquery returns the first subquery expression in e (nil for none).
func firstSubquery(e ir.Expr) ir.Expr {
	var found ir.Expr
	ir.WalkExpr(e, func(x ir.Expr) bool {
		switch x.(type) {
		case *ir.ScalarSubquery, *ir.InSubquery, *ir.Exists:
			if found == nil {
				found = x
			}
			return false
		}
		return found == nil
	})
	return found
}

// Sort orders the report by position, then flow, dataset and knob, and
// removes exact duplicates. A backend that adds entries of its own
// (sparkemit) sorts again.
func (r *LoweringReport) Sort() { r.Entries = sortEntries(r.Entries) }

// sortEntries orders report entries as LoweringReport.Sort does.
func sortEntries(es []ReportEntry) []ReportEntry {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if c := a.Pos.Compare(b.Pos); c != 0 {
			return c < 0
		}
		if a.Flow != b.Flow {
			return a.Flow < b.Flow
		}
		if a.Dataset != b.Dataset {
			return a.Dataset < b.Dataset
		}
		if a.Knob != b.Knob {
			return a.Knob < b.Knob
		}
		return a.Reason < b.Reason
	})
	out := es[:0]
	for i, e := range es {
		if i > 0 && e == es[i-1] {
			continue
		}
		out = append(out, e)
	}
	return out
}

// fromJSONOptions notes the Lakeflow options of the from_json calls of a
// flow's query: rescuedDataColumn and schemaEvolutionMode.
func (c *capChecker) fromJSONOptions(q ir.Rel, at func(pos ir.Pos, knob, subject, detail string) use) {
	ir.WalkRel(q, func(r ir.Rel) bool {
		for _, x := range ir.RelExprs(r) {
			ir.WalkExpr(x, func(e ir.Expr) bool {
				call, ok := e.(*ir.Call)
				if !ok || call.Name != "from_json" {
					return true
				}
				opts, _, _ := fromJSONOptionList(call)
				for _, kv := range opts {
					switch strings.ToLower(kv.key) {
					case "rescueddatacolumn":
						c.note(c.caps.JSONRescuedData, at(kv.pos, "from_json rescueddatacolumn", "from_json option rescuedDataColumn", ""))
					case "schemaevolutionmode":
						c.note(c.caps.JSONSchemaEvolution, at(kv.pos, "from_json schemaevolutionmode", "from_json option schemaEvolutionMode", ""))
					}
				}
				return true
			})
		}
		return true
	})
}
