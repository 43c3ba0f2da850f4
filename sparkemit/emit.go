package sparkemit

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"
	"google.golang.org/protobuf/proto"

	"github.com/nordisk/thund/internal/iceopt"
	"github.com/nordisk/thund/internal/kafkaopt"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
	pb "github.com/nordisk/thund/sparkemit/connectpb"
)

// Options control a lowering.
type Options struct {
	// Storage is StartRun.storage, the root of the run's checkpoints and
	// metadata. "" means the pipeline's own (a spec's storage key).
	Storage string
	// DataRoot, when set, rebases a source's relative paths: DataRoot/PATH.
	DataRoot string

	FullRefresh    []string // StartRun.full_refresh_selection
	FullRefreshAll bool     // StartRun.full_refresh_all
	Refresh        []string // StartRun.refresh_selection
	Dry            bool     // StartRun.dry: validate the graph, run nothing

	// SQLFiles, when set, are sent whole as DefineSqlGraphElements (as the
	// reference CLI does) in place of the lowered DefineOutput and DefineFlow
	// commands; the server parses them itself.
	SQLFiles []SQLFile

	// Catalog and Database, when set, are the graph's default catalog and
	// database (CreateDataflowGraph), in place of the pipeline's.
	Catalog, Database string

	UserID string // user_context.user_id ("" = "thund")
}

// SQLFile is one pipeline SQL file for DefineSqlGraphElements.
type SQLFile struct {
	Path string // as the server reports it: relative to the spec's folder
	Text string
}

// Bundle is the ordered list of ExecutePlanRequests a client sends for one
// pipeline: CreateDataflowGraph, the graph elements, StartRun.
type Bundle struct {
	Target   passes.Target
	Pipeline string
	Requests []*pb.ExecutePlanRequest
}

// ClientType is what a bundle's requests say about their client.
const ClientType = "thundc"

// sessionNamespace is the UUIDv5 namespace of bundle session ids.
var sessionNamespace = uuid.MustParse("6f0d6a47-3c55-5b6e-9a1e-2c8d4b7e1f30")

// SessionID is the deterministic session id of a pipeline's bundle: the
// UUIDv5 of its name. `spark run` replaces it with a fresh one.
func SessionID(pipeline string) string {
	return uuid.NewSHA1(sessionNamespace, []byte(pipeline)).String()
}

// Error is a construct the lowering cannot express for the target. It
// names the flow (or dataset), the feature and the target.
type Error struct {
	Pos     ir.Pos
	Flow    string // "" for a dataset
	Dataset string
	Feature string
	Target  passes.Target
	Reason  string
}

func (e *Error) Error() string {
	msg := e.Message()
	if e.Pos.IsValid() || e.Pos.File != "" {
		msg = e.Pos.String() + ": " + msg
	}
	return msg
}

// Message is the error without its position.
func (e *Error) Message() string {
	who := fmt.Sprintf("dataset %q", e.Dataset)
	if e.Flow != "" {
		who = fmt.Sprintf("flow %q", e.Flow)
	}
	msg := fmt.Sprintf("%s cannot lower %s: %s", e.Target, who, e.Feature)
	if e.Reason != "" {
		msg += ": " + e.Reason
	}
	return msg
}

// Errors is every construct a lowering refused, sorted by position.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Lower lowers a unit as Emit does, for what check and explain report:
// the lowering report, and each refusal as a capability diagnostic at its
// position (the unit is not changed). An error that is not a refusal comes
// back as an internal-error diagnostic at the pipeline's position.
func Lower(u *passes.Unit, opts Options) (*passes.LoweringReport, ir.Diagnostics) {
	_, rep, err := Emit(u, opts)
	if err == nil {
		return rep, nil
	}
	return nil, Diagnostics(u, err)
}

// Diagnostics turns what Emit returned as an error into diagnostics: each
// refusal a capability diagnostic at its position, anything else an
// internal error.
func Diagnostics(u *passes.Unit, err error) ir.Diagnostics {
	var diags ir.Diagnostics
	var es Errors
	if !errors.As(err, &es) {
		diags.Add(u.Pipeline.Pos, "", "internal error: %v", err)
		return diags
	}
	for _, e := range es {
		diags.Add(e.Pos, ir.CodeCapability, "%s", e.Message())
	}
	return diags
}

// Emit lowers a resolved, capability-checked unit to a Spark Connect bundle
// for u.Opts.Target (spark-4.1 or spark-4.2). It is a pure function: it
// reads nothing and writes nothing. The report is the capability pass's
// lowering report plus what the lowering itself converted. A construct that
// cannot be lowered is an Errors value, never dropped.
func Emit(u *passes.Unit, opts Options) (Bundle, *passes.LoweringReport, error) {
	t := u.Opts.Target
	if !t.IsSpark() {
		return Bundle{}, nil, fmt.Errorf("sparkemit: target %q is not a Spark target (want spark-4.1 or spark-4.2)", t)
	}
	if u.Diags.HasErrors() {
		return Bundle{}, nil, fmt.Errorf("sparkemit: the pipeline has errors:\n%v", u.Diags.Err())
	}
	if u.Report == nil || len(u.Ran) == 0 || !contains(u.Ran, "plan") {
		return Bundle{}, nil, fmt.Errorf("sparkemit: the unit did not run the plan pass (the passes stopped early)")
	}
	p := u.Pipeline
	e := &emitter{u: u, opts: opts, target: t, session: SessionID(p.Name), catalog: p.Catalog, database: p.Database}
	if opts.Catalog != "" {
		e.catalog = opts.Catalog
	}
	if opts.Database != "" {
		e.database = opts.Database
	}
	e.report = &passes.LoweringReport{Target: t, Entries: append([]passes.ReportEntry{}, u.Report.Entries...)}
	e.plan()

	e.add(&pb.PipelineCommand{CommandType: &pb.PipelineCommand_CreateDataflowGraph_{CreateDataflowGraph: &pb.PipelineCommand_CreateDataflowGraph{
		DefaultCatalog:  optString(e.catalog),
		DefaultDatabase: optString(e.database),
		SqlConf:         kvMap(p.Conf),
	}}})
	if len(opts.SQLFiles) > 0 {
		for _, d := range p.Datasets {
			switch {
			case d.Kind == ir.KindSource && d.Source != nil && d.Source.Format == ir.FormatKafka:
				e.note(d.Pos, "", d.Name, "source", passes.ActionDropped,
					"is not sent with the SQL files: the server reads their FROM clauses as written, and open-source Spark has no read_kafka (lower without --sql-elements, which reads Spark's Kafka connector)")
			case d.Kind == ir.KindSource:
				e.note(d.Pos, "", d.Name, "source", passes.ActionDropped,
					"is not sent with the SQL files: the server reads their FROM clauses as written (bind the name to a table or view Spark knows)")
			}
		}
		for _, f := range p.Flows {
			if f.Query == nil {
				continue
			}
			for _, in := range observableIns(u, f.Query) {
				e.note(in.Pos, f.Name, f.Target, "in subquery", passes.ActionConverted,
					"is not three-valued in Spark's own plan: where it is NULL (x or the query's column is NULL and no value matches), Spark's existence join for an IN subquery outside a filter's AND and OR makes it FALSE, or its NOT TRUE (SPARK-58442); lowered without --sql-elements, the NULL is spelled out")
			}
		}
		for _, f := range opts.SQLFiles {
			e.add(&pb.PipelineCommand{CommandType: &pb.PipelineCommand_DefineSqlGraphElements_{DefineSqlGraphElements: &pb.PipelineCommand_DefineSqlGraphElements{
				SqlFilePath: proto.String(f.Path),
				SqlText:     proto.String(f.Text),
			}}})
		}
	} else {
		for _, d := range p.Datasets {
			e.dataset(d)
			for _, f := range e.ownFlows[d] {
				if !e.emitted[f] {
					e.flow(f)
				}
			}
		}
		for _, f := range p.Flows {
			if !e.emitted[f] {
				e.flow(f)
			}
		}
	}
	storage := opts.Storage
	if storage == "" {
		storage = p.Storage
	}
	e.add(&pb.PipelineCommand{CommandType: &pb.PipelineCommand_StartRun_{StartRun: &pb.PipelineCommand_StartRun{
		FullRefreshSelection: opts.FullRefresh,
		FullRefreshAll:       optBool(opts.FullRefreshAll),
		RefreshSelection:     opts.Refresh,
		Dry:                  optBool(opts.Dry),
		Storage:              optString(storage),
	}}})
	if len(e.errs) > 0 {
		sort.SliceStable(e.errs, func(i, j int) bool { return e.errs[i].Pos.Compare(e.errs[j].Pos) < 0 })
		return Bundle{}, nil, e.errs
	}
	e.report.Sort()
	return Bundle{Target: t, Pipeline: p.Name, Requests: e.reqs}, e.report, nil
}

// emitter is one lowering in progress.
type emitter struct {
	u       *passes.Unit
	opts    Options
	target  passes.Target
	session string
	// the graph's default catalog and database
	catalog, database string
	reqs              []*pb.ExecutePlanRequest
	report            *passes.LoweringReport
	errs              Errors

	ownFlows map[*ir.Dataset][]*ir.Flow // each dataset's own flow(s): flow name == dataset name
	emitted  map[*ir.Flow]bool
	// streamSources are the sources some flow reads as a stream: their
	// temporary view reads the files as a stream.
	streamSources map[*ir.Dataset]bool
	// planIDs is the last plan id given to a subquery's relation.
	planIDs int64
	// readerNoted are the sources whose reader options are in the report
	// already (a source can be read in several places).
	readerNoted map[*ir.Dataset]bool
	// badNoted: the sources whose bad-record deviation is in the report
	badNoted map[*ir.Dataset]bool
}

// plan finds each dataset's own flow and how each source is read.
func (e *emitter) plan() {
	e.ownFlows = map[*ir.Dataset][]*ir.Flow{}
	e.emitted = map[*ir.Flow]bool{}
	e.streamSources = map[*ir.Dataset]bool{}
	e.readerNoted = map[*ir.Dataset]bool{}
	e.badNoted = map[*ir.Dataset]bool{}
	for _, f := range e.u.Pipeline.Flows {
		d := e.u.Pipeline.LookupDataset(f.Target)
		if d != nil && strings.EqualFold(f.Name, d.Name) {
			e.ownFlows[d] = append(e.ownFlows[d], f)
		}
		for _, sc := range ir.Scans(f.Query) {
			if src := e.u.Pipeline.LookupDataset(sc.Name); src != nil && src.Kind == ir.KindSource && sc.Stream {
				e.streamSources[src] = true
			}
		}
	}
	for _, d := range e.u.Pipeline.Datasets {
		if d.Kind == ir.KindSource && d.Source != nil && d.Source.Unbounded {
			e.streamSources[d] = true
		}
	}
}

// add appends one request carrying cmd.
func (e *emitter) add(cmd *pb.PipelineCommand) {
	user := e.opts.UserID
	if user == "" {
		user = "thund"
	}
	e.reqs = append(e.reqs, &pb.ExecutePlanRequest{
		SessionId:   e.session,
		UserContext: &pb.UserContext{UserId: user},
		Plan:        &pb.Plan{OpType: &pb.Plan_Command{Command: &pb.Command{CommandType: &pb.Command_PipelineCommand{PipelineCommand: cmd}}}},
		ClientType:  proto.String(ClientType),
	})
}

// refuse records a construct the lowering cannot express.
func (e *emitter) refuse(pos ir.Pos, flow, dataset, feature, reason string) {
	e.errs = append(e.errs, &Error{Pos: pos, Flow: flow, Dataset: dataset, Feature: feature, Target: e.target, Reason: reason})
}

// note records a knob the lowering converted or dropped.
func (e *emitter) note(pos ir.Pos, flow, dataset, knob string, action passes.Action, reason string) {
	e.report.Entries = append(e.report.Entries, passes.ReportEntry{Flow: flow, Dataset: dataset, Knob: knob, Action: action, Reason: reason, Pos: pos})
}

// location is a SourceCodeLocation for pos, or nil.
func location(pos ir.Pos) *pb.SourceCodeLocation {
	if pos.File == "" {
		return nil
	}
	loc := &pb.SourceCodeLocation{FileName: proto.String(pos.File)}
	if pos.IsValid() {
		loc.LineNumber = proto.Int32(int32(pos.Line))
	}
	return loc
}

// outputName is the name a dataset is registered under: qualified with the
// database (and catalog) of the file that declared it when that differs
// from the graph's defaults. Temporary views are never qualified. The server
// parses it as a multipart identifier, so a part that is not a plain
// identifier (dash-one) is back-quoted.
func (e *emitter) outputName(d *ir.Dataset) string {
	if d.Kind == ir.KindTemporaryView || d.Kind == ir.KindSource {
		return quoteIdent(d.Name)
	}
	parts := []string{quoteIdent(d.Name)}
	db, cat := d.Database, d.Catalog
	if (db != "" && !strings.EqualFold(db, e.database)) || (cat != "" && !strings.EqualFold(cat, e.catalog)) {
		if db == "" {
			db = e.database
		}
		if db != "" {
			parts = append([]string{quoteIdent(db)}, parts...)
		}
		if cat != "" && !strings.EqualFold(cat, e.catalog) {
			parts = append([]string{quoteIdent(cat)}, parts...)
		}
	}
	return strings.Join(parts, ".")
}

// dataset lowers one dataset to a DefineOutput (and, for a source, the flow
// of its temporary view).
func (e *emitter) dataset(d *ir.Dataset) {
	out := &pb.PipelineCommand_DefineOutput{
		OutputName:         proto.String(e.outputName(d)),
		Comment:            optString(d.Comment),
		SourceCodeLocation: location(d.Pos),
	}
	table := func() *pb.PipelineCommand_DefineOutput_TableDetails {
		td := &pb.PipelineCommand_DefineOutput_TableDetails{
			TableProperties:   kvMap(d.Properties),
			PartitionCols:     d.PartitionBy,
			ClusteringColumns: d.ClusterBy,
			Format:            optString(tableFormat(d)),
		}
		if len(d.Columns) > 0 {
			td.Schema = &pb.PipelineCommand_DefineOutput_TableDetails_SchemaString{SchemaString: e.columnsDDL(d, partitionColumnsLast(d))}
		}
		return td
	}
	switch d.Kind {
	case ir.KindMaterializedView:
		out.OutputType = pb.OutputType_MATERIALIZED_VIEW.Enum()
		out.Details = &pb.PipelineCommand_DefineOutput_TableDetails_{TableDetails: table()}
		if d.Materialize == ir.MatIncremental {
			e.note(d.Pos, "", d.Name, "materialization", passes.ActionDropped, "is not settable in SDP: Spark decides how to refresh a materialized view")
		}
	case ir.KindStreamingTable:
		out.OutputType = pb.OutputType_TABLE.Enum()
		out.Details = &pb.PipelineCommand_DefineOutput_TableDetails_{TableDetails: table()}
		if d.Materialize == ir.MatFull {
			e.note(d.Pos, "", d.Name, "materialization", passes.ActionDropped, "is not settable in SDP: a streaming table is appended to (a full refresh recomputes it)")
		}
	case ir.KindTemporaryView:
		out.OutputType = pb.OutputType_TEMPORARY_VIEW.Enum()
	case ir.KindSink:
		out.OutputType = pb.OutputType_SINK.Enum()
		opts := d.SinkOptions
		if mode := e.u.SinkMode(d); mode != "" {
			// mode is Þund's: Spark's sinks take append flows only
			opts = slices.DeleteFunc(slices.Clone(opts), func(kv ir.KV) bool { return strings.EqualFold(kv.Key, "mode") })
			if mode == "replace" {
				e.note(d.Pos, "", d.Name, "sink mode", passes.ActionDropped,
					"mode replace is not expressible in SDP (a sink takes append flows only): Spark appends each run's rows to the sink's folder, where native replaces them (set mode append to say so)")
			}
		}
		out.Details = &pb.PipelineCommand_DefineOutput_SinkDetails_{SinkDetails: &pb.PipelineCommand_DefineOutput_SinkDetails{
			Options: kvMap(opts),
			Format:  optString(sinkFormat(d.Format)),
		}}
	case ir.KindView:
		e.persistedView(d)
		return
	case ir.KindSource:
		out.OutputType = pb.OutputType_TEMPORARY_VIEW.Enum()
		out.Comment = optString(d.Comment)
	}
	e.add(&pb.PipelineCommand{CommandType: &pb.PipelineCommand_DefineOutput_{DefineOutput: out}})
	if d.Kind == ir.KindSource {
		e.sourceFlow(d)
	}
}

// tableFormat is the format a table's DefineOutput sends: the one its
// clause names, lower-cased (iceberg or parquet: validate refuses others),
// or none without a clause, so that Spark writes its catalog's default
// format (the capability pass reports that the native build publishes such
// a table as an Iceberg table).
func tableFormat(d *ir.Dataset) string {
	return strings.ToLower(d.Format)
}

// partitionColumnsLast is a table's declared columns with its partition
// columns moved last, as its flows' output is (partitionsLast).
func partitionColumnsLast(d *ir.Dataset) []*ir.Column {
	cols, _ := partitionsLastOrder(d.PartitionBy, d.Columns, func(c *ir.Column) string { return c.Name })
	return cols
}

// sinkFormat is the Spark streaming sink format of a sink's: JSON lines
// are Spark's json, stdout its console sink; others are Spark's own names.
func sinkFormat(f string) string {
	switch strings.ToLower(f) {
	case "jsonl":
		return "json"
	case "stdout":
		return "console"
	}
	return f
}

// sourceFlow is the flow of a source's temporary view: a read of its files.
func (e *emitter) sourceFlow(d *ir.Dataset) {
	rel, ok := e.dataSource(d, e.streamSources[d])
	if !ok {
		return
	}
	if w := e.viewWatermark(d); w != nil {
		rel = withWatermark(rel, w)
	}
	e.add(&pb.PipelineCommand{CommandType: &pb.PipelineCommand_DefineFlow_{DefineFlow: &pb.PipelineCommand_DefineFlow{
		FlowName:           proto.String(e.outputName(d)),
		TargetDatasetName:  proto.String(e.outputName(d)),
		SqlConf:            kvMap(d.Conf),
		SourceCodeLocation: location(d.Pos),
		Details: &pb.PipelineCommand_DefineFlow_RelationFlowDetails{RelationFlowDetails: &pb.PipelineCommand_DefineFlow_WriteRelationFlowDetails{
			Relation: rel,
		}},
	}}})
}

// viewWatermark is the watermark a source's temporary view declares: the
// source's own, when the view streams. Stream reads of the source whose
// watermark is that one read it through the view, and declare none again:
// Spark's Connect planner analyzes withWatermark when a flow is defined,
// before the graph's datasets exist, so a watermark over a read of one of
// them fails (TABLE_OR_VIEW_NOT_FOUND), while over the files it does not.
func (e *emitter) viewWatermark(d *ir.Dataset) *ir.Watermark {
	if d.Kind != ir.KindSource || !e.streamSources[d] {
		return nil
	}
	return d.Watermark
}

// withWatermark is withWatermark(column, delay + allowed lateness).
func withWatermark(rel *pb.Relation, w *ir.Watermark) *pb.Relation {
	return &pb.Relation{RelType: &pb.Relation_WithWatermark{WithWatermark: &pb.WithWatermark{
		Input:          rel,
		EventTime:      w.Column,
		DelayThreshold: intervalText(w.Delay + w.AllowedLateness),
	}}}
}

// dataSource is a Read.DataSource of a source's files.
func (e *emitter) dataSource(d *ir.Dataset, stream bool) (*pb.Relation, bool) {
	src := d.Source
	if src == nil {
		e.refuse(d.Pos, "", d.Name, "a source without files", "")
		return nil, false
	}
	var format string
	switch {
	case src.Stdin:
		e.refuse(src.Pos, "", d.Name, "an Arrow IPC stream on stdin", "a Spark Connect server cannot read the client's stdin")
		return nil, false
	case src.Format == ir.FormatParquet:
		format = "parquet"
	case src.Format == ir.FormatCSV:
		format = "csv"
		if !e.csvColumns(d) { // nested.go
			return nil, false
		}
	case src.Format == ir.FormatJSONL:
		format = "json"
	case src.Format == ir.FormatKafka:
		return kafkaSource(d, stream), true
	case src.Format == ir.FormatIceberg:
		return icebergSource(d, stream, e.opts.DataRoot), true
	default:
		e.refuse(src.Pos, "", d.Name, fmt.Sprintf("a source of %s files", src.Format), "Spark has no reader for them")
		return nil, false
	}
	opts, note, err := readerOptions(src.Format, src.Options)
	if err != "" {
		e.refuse(src.Pos, "", d.Name, "a reader option", err)
		return nil, false
	}
	if note != "" && !e.readerNoted[d] {
		e.readerNoted[d] = true
		e.note(src.Pos, "", d.Name, "csv null option", passes.ActionConverted, note)
	}
	if why := badRecordsNote(d, opts); why != "" && !e.badNoted[d] {
		e.badNoted[d] = true
		e.note(src.Pos, "", d.Name, "bad records", passes.ActionConverted, why)
	}
	paths := make([]string, len(src.Paths))
	for i, p := range src.Paths {
		paths[i] = rebase(e.opts.DataRoot, p)
	}
	ds := &pb.Read_DataSource{
		Format:  proto.String(format),
		Options: opts,
		Paths:   paths,
	}
	if len(d.Columns) > 0 {
		ds.Schema = proto.String(e.columnsDDL(d, d.Columns))
	}
	return &pb.Relation{RelType: &pb.Relation_Read{Read: &pb.Read{
		ReadType:    &pb.Read_DataSource_{DataSource: ds},
		IsStreaming: stream,
	}}}, true
}

// kafkaSource is a Read.DataSource of Spark's Kafka connector (format
// kafka) for a Kafka source: open-source Spark has no read_kafka. Its
// options are renamed for the connector (kafkaopt.SparkSourceOptions), and
// kafka.isolation.level=read_committed is added so that Spark reads the
// records the native engine reads (Spark's default is read_uncommitted;
// check refuses the option, which native cannot honour otherwise). No
// schema is sent: the connector's is fixed (it refuses a user-specified
// one), and it is the one ir.KafkaColumns gives.
func kafkaSource(d *ir.Dataset, stream bool) *pb.Relation {
	opts := map[string]string{"kafka.isolation.level": "read_committed"}
	for _, kv := range kafkaopt.SparkSourceOptions(kvPairs(d.Source.Options)) {
		opts[kv[0]] = kv[1]
	}
	return &pb.Relation{RelType: &pb.Relation_Read{Read: &pb.Read{
		ReadType:    &pb.Read_DataSource_{DataSource: &pb.Read_DataSource{Format: proto.String("kafka"), Options: opts}},
		IsStreaming: stream,
	}}}
}

// icebergSource is a Read.DataSource of Iceberg's Spark source (format
// iceberg, from the cluster's iceberg-spark-runtime jar) for an Iceberg
// source: the table's location as the path (Iceberg's HadoopTables loads a
// table by its folder, without a catalog), rebased like other sources'
// paths, and its read options. A time travel goes as Spark's own reader
// options, which Iceberg's source takes: snapshot-id as versionAsOf, and
// as-of-timestamp as timestampAsOf, a timestamp with its offset (so that
// Spark's session time zone does not move it) to the millisecond: the
// Iceberg runtime for Spark 4.1 (1.12, the one tried) refuses its own
// snapshot-id and as-of-timestamp options ("no longer supported, use
// Spark built-in versionAsOf"), as a live Spark 4.1.4 server showed.
// streaming-skip-* go as written. thund.non-append is native only: check
// has refused any value but fail, Spark's own behaviour, so it is left
// out. No schema is sent: Iceberg's source takes the table's and refuses a
// user-specified one.
func icebergSource(d *ir.Dataset, stream bool, dataRoot string) *pb.Relation {
	opts := map[string]string{}
	for _, kv := range d.Source.Options {
		switch kv.Key {
		case iceopt.NonAppend:
		case iceopt.SnapshotID:
			opts["versionAsOf"] = kv.Value
		case iceopt.AsOfTimestamp:
			opts["timestampAsOf"] = time.UnixMilli(iceopt.Int(kv.Value)).UTC().Format("2006-01-02 15:04:05.000+00:00")
		default:
			opts[kv.Key] = kv.Value
		}
	}
	ds := &pb.Read_DataSource{Format: proto.String("iceberg"), Paths: []string{rebase(dataRoot, d.Source.Paths[0])}}
	if len(opts) > 0 {
		ds.Options = opts
	}
	return &pb.Relation{RelType: &pb.Relation_Read{Read: &pb.Read{
		ReadType:    &pb.Read_DataSource_{DataSource: ds},
		IsStreaming: stream,
	}}}
}

// kvPairs are options as kafkaopt takes them.
func kvPairs(kvs []ir.KV) [][2]string {
	out := make([][2]string, len(kvs))
	for i, kv := range kvs {
		out[i] = [2]string{kv.Key, kv.Value}
	}
	return out
}

// rebase joins a relative path onto root ("" leaves it as written).
func rebase(root, p string) string {
	if root == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "://") {
		return p
	}
	return strings.TrimRight(root, "/") + "/" + strings.TrimPrefix(p, "./")
}

// sparkNullSentinel is Spark's nullValue for a CSV source that keeps
// Þund's default NULL (the empty unquoted field). Spark's reader maps an
// empty unquoted field to nullValue and an empty quoted one to emptyValue
// (""), then reads a field equal to nullValue as NULL: with Spark's default
// nullValue "" the quoted empty string would be NULL too, where Þund reads
// the empty string. With this sentinel only a field whose whole text is
// the sentinel would read differently (as NULL).
const sparkNullSentinel = "\x00thund:null\x00"

// readerOptions maps a source's options to Spark's reader options. Þund's
// CSV conventions differ from Spark's defaults, so they are always spelled
// out: a header row, RFC 4180 doubled quotes, quoted fields that span lines
// (multiLine), a NULL only for an unquoted field (sparkNullSentinel), and
// the bad-record mode (PERMISSIVE unless the source says otherwise, as on
// both engines). mode and columnNameOfCorruptRecord go to Spark's CSV and
// JSON readers as given (the mode upper-cased; check has refused a bad
// one). note is what Spark still reads otherwise, for the lowering report.
func readerOptions(f ir.FileFormat, kvs []ir.KV) (out map[string]string, note, refusal string) {
	out = map[string]string{}
	if f != ir.FormatCSV {
		for _, kv := range kvs {
			switch strings.ToLower(kv.Key) {
			case "mode":
				out["mode"] = strings.ToUpper(kv.Value)
			case "columnnameofcorruptrecord":
				out["columnNameOfCorruptRecord"] = kv.Value
			default:
				out[kv.Key] = kv.Value
			}
		}
		return out, "", ""
	}
	out["header"] = "true"
	out["escape"] = `"`
	out["multiLine"] = "true"
	out["mode"] = "PERMISSIVE"
	out["nullValue"] = sparkNullSentinel
	nulls := 0
	for _, kv := range kvs {
		switch strings.ToLower(kv.Key) {
		case "mode":
			out["mode"] = strings.ToUpper(kv.Value)
		case "columnnameofcorruptrecord":
			out["columnNameOfCorruptRecord"] = kv.Value
		case "header":
			switch strings.ToLower(kv.Value) {
			case "true", "yes", "1":
				out["header"] = "true"
			default:
				out["header"] = "false"
			}
		case "delimiter", "sep", "separator":
			v := kv.Value
			if v == `\t` || v == "tab" {
				v = "\t"
			}
			out["sep"] = v
		case "quote":
			out["quote"] = kv.Value
		case "escape":
			out["escape"] = kv.Value
		case "null", "nullvalue":
			nulls++
			out["nullValue"] = kv.Value
		case "nulls":
			nulls += len(strings.Split(kv.Value, ","))
			out["nullValue"] = kv.Value
		default:
			return nil, "", fmt.Sprintf("csv option %q has no Spark counterpart", kv.Key)
		}
	}
	if nulls > 1 {
		return nil, "", "Spark's CSV reader takes one nullValue, and this source names several"
	}
	if v := out["nullValue"]; v != sparkNullSentinel && v != "" {
		note = fmt.Sprintf("Spark reads an empty unquoted field as NULL too (its CSV reader maps it to nullValue %q); Þund reads the empty string there (in a column of another type, a malformed value)", v)
	}
	return out, note, ""
}

// badRecordsNote is what the lowering report says of a CSV or JSON source
// whose malformed records Spark keeps where native cannot: in PERMISSIVE
// mode, a record that would hold NULL in a NOT NULL column (Spark's file
// sources read every column as nullable; native drops the record and
// counts it as dropped). "" when the source has no NOT NULL column or is
// read in another mode.
func badRecordsNote(d *ir.Dataset, opts map[string]string) string {
	src := d.Source
	if src.Format != ir.FormatCSV && src.Format != ir.FormatJSONL {
		return ""
	}
	if m := opts["mode"]; m != "" && m != "PERMISSIVE" {
		return ""
	}
	var nn []string
	for _, c := range d.Columns {
		if c.NotNull {
			nn = append(nn, c.Name)
		}
	}
	if len(nn) == 0 {
		return ""
	}
	return fmt.Sprintf("a malformed record whose NOT NULL column (%s) does not parse is kept by Spark with NULL there (its file sources read every column as nullable); native drops it and counts it as dropped. Spark counts no malformed records", strings.Join(nn, ", "))
}

// flow lowers one flow to a DefineFlow.
func (e *emitter) flow(f *ir.Flow) {
	e.emitted[f] = true
	d := e.u.Pipeline.LookupDataset(f.Target)
	conf := []ir.KV{}
	if d != nil && strings.EqualFold(f.Name, d.Name) {
		conf = append(conf, d.Conf...)
	}
	conf = append(conf, f.Conf...)
	df := &pb.PipelineCommand_DefineFlow{
		FlowName:           proto.String(quoteIdent(f.Name)),
		TargetDatasetName:  proto.String(f.Target),
		SqlConf:            kvMap(conf),
		SourceCodeLocation: location(f.Pos),
		Once:               optBool(f.Once),
	}
	if d != nil {
		df.TargetDatasetName = proto.String(e.outputName(d))
		if strings.EqualFold(f.Name, d.Name) {
			// A dataset's own flow: the server tells it from a standalone
			// flow by flow_name == target_dataset_name.
			df.FlowName = df.TargetDatasetName
		}
	}
	if f.CDC != nil {
		details, ok := e.autoCDC(f)
		if !ok {
			return
		}
		df.Details = &pb.PipelineCommand_DefineFlow_AutoCdcFlowDetails_{AutoCdcFlowDetails: details}
	} else {
		l := &lowerer{e: e, flow: f}
		rel := l.flowQuery(f, d)
		if rel == nil {
			return
		}
		if rel = l.expectFilter(d, rel); rel == nil {
			return
		}
		rel = l.partitionsLast(d, rel)
		rel = l.withRelations(rel)
		df.Details = &pb.PipelineCommand_DefineFlow_RelationFlowDetails{RelationFlowDetails: &pb.PipelineCommand_DefineFlow_WriteRelationFlowDetails{Relation: rel}}
	}
	e.add(&pb.PipelineCommand{CommandType: &pb.PipelineCommand_DefineFlow_{DefineFlow: df}})
}

// autoCDC lowers a change flow to AutoCdcFlowDetails (spark-4.2 only). Its
// source must be a plain stream read of one dataset: AUTO CDC names its
// source, it takes no query. It sets only what Spark 4.2.1's server reads
// (source, keys, sequence_by, apply_as_deletes, the column lists, SCD type
// 1); SCD type 2, track history and ignore null updates, which that server
// cannot be asked for, are refused here as in the capability pass, should a
// unit reach Emit without it.
func (e *emitter) autoCDC(f *ir.Flow) (*pb.PipelineCommand_DefineFlow_AutoCdcFlowDetails, bool) {
	c := f.CDC
	if e.target == passes.Spark41 {
		e.refuse(c.Pos, f.Name, f.Target, "CDC (AUTO CDC)", "DefineFlow.auto_cdc_flow_details arrives in spark-4.2")
		return nil, false
	}
	ok := true
	if c.SCDType == 2 {
		e.refuse(c.Pos, f.Name, f.Target, "scd type 2", "DefineFlow.SCDType has only SCD_TYPE_1 in Spark 4.2.1")
		ok = false
	}
	if len(c.TrackHistory) > 0 || len(c.TrackHistoryExcept) > 0 {
		e.refuse(c.Pos, f.Name, f.Target, "track history", "AutoCdcFlowDetails has no track history fields in Spark 4.2.1")
		ok = false
	}
	if c.IgnoreNullUpdates {
		e.refuse(c.Pos, f.Name, f.Target, "ignore null updates", "Spark 4.2.1's server does not read AutoCdcFlowDetails.ignore_null_updates_column_list")
		ok = false
	}
	sc, isScan := f.Query.(*ir.Scan)
	if !isScan || !sc.Stream {
		e.refuse(c.Pos, f.Name, f.Target, "CDC over a query", "AUTO CDC reads one named streaming source and takes no query: declare the query as a temporary view and apply changes from a stream read of it")
		return nil, false
	}
	l := &lowerer{e: e, flow: f}
	cols := func(names []string) []*pb.Expression {
		var out []*pb.Expression
		for _, n := range names {
			out = append(out, attr(n))
		}
		return out
	}
	det := &pb.PipelineCommand_DefineFlow_AutoCdcFlowDetails{
		Source:           proto.String(sc.Name),
		Keys:             cols(c.Keys),
		SequenceBy:       l.expr(c.SequenceBy),
		ColumnList:       cols(c.Columns),
		ExceptColumnList: cols(c.ExceptColumns),
		StoredAsScdType:  pb.PipelineCommand_DefineFlow_SCD_TYPE_1,
	}
	if d := e.u.Pipeline.LookupDataset(f.Target); d != nil && e.u.Opts.Expectations == passes.ExpectFilter {
		for _, x := range d.Expectations {
			if x.Action == ir.ActDrop {
				e.refuse(x.Pos, f.Name, f.Target, fmt.Sprintf("expectation %q as a filter", x.Name), "AUTO CDC takes a source name, not a relation to filter: filter the change feed in a temporary view")
			}
		}
	}
	if c.DeleteWhen != nil {
		det.ApplyAsDeletes = l.expr(c.DeleteWhen)
	}
	if sc.Watermark != nil {
		e.refuse(sc.Pos, f.Name, f.Target, "a watermark on a CDC source read", "AUTO CDC takes a source name, not a relation")
	}
	return det, ok && !l.failed
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return proto.String(s)
}

func optBool(b bool) *bool {
	if !b {
		return nil
	}
	return proto.Bool(true)
}

// kvMap is an ordered KV list as a map (a later key wins); nil when empty.
func kvMap(kvs []ir.KV) map[string]string {
	if len(kvs) == 0 {
		return nil
	}
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}
