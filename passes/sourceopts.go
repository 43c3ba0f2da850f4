package passes

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nordisk/thund/internal/iceopt"
	"github.com/nordisk/thund/internal/kafkaopt"
	"github.com/nordisk/thund/internal/suggest"
	"github.com/nordisk/thund/ir"
)

// Source reader options, checked where the pipeline names them, so that
// check gives the verdict the runtime would (rt/format.ParseSourceOptions,
// which stays as the safety net; TestSourceOptionTables holds the two
// lists equal):
//
//   - every target: the mode option's value (PERMISSIVE, DROPMALFORMED or
//     FAILFAST, in any case; Spark would silently read another value as
//     PERMISSIVE), and the corrupt-record column (columnNameOfCorruptRecord,
//     default _corrupt_record), which when declared must be a nullable
//     STRING (Spark: INVALID_CORRUPT_RECORD_TYPE; a NOT NULL one could not
//     hold a good record's NULL in native);
//   - every target: schemaEvolutionMode's value (none, addNewColumns,
//     rescue or failOnNewColumns, in any case), and the rescued-data
//     column (rescuedDataColumn, or _rescued_data under schemaEvolutionMode
//     rescue), which the schema must declare as a nullable STRING other
//     than the corrupt-record column; a CSV source with header = false
//     cannot take schemaEvolutionMode (it has no names to tell a new
//     column by);
//   - Spark targets: rescuedDataColumn and schemaEvolutionMode are refused
//     (capabilities RescuedData and SchemaEvolution: open-source Spark's
//     readers lack them and ignore an unknown option in silence);
//   - native: the option names its readers take, for CSV and JSON lines
//     (the Spark targets' reader options are sparkemit's to map);
//   - every target: a Kafka source's read_kafka options and a Kafka sink's
//     options, through internal/kafkaopt, which rt/kafka parses again (the
//     two engines take the same options: sparkemit renames them for Spark's
//     connector), and a Kafka sink's columns.

// sourceOptionNames are the options native CSV and JSON lines sources
// take, lower-cased, as rt/format spells them.
var (
	commonSourceOptions = []string{"mode", "columnnameofcorruptrecord", "rescueddatacolumn", "schemaevolutionmode"}
	csvDialectOptions   = []string{"header", "delimiter", "sep", "separator", "quote", "escape", "null", "nullvalue", "nulls"}
)

// sourceModes are the values of the mode option, the default first.
var sourceModes = []string{"PERMISSIVE", "DROPMALFORMED", "FAILFAST"}

// schemaEvolutionModes are the values of schemaEvolutionMode, the default
// first.
var schemaEvolutionModes = []string{"none", "addNewColumns", "rescue", "failOnNewColumns"}

// defaultCorruptColumn is Spark's default columnNameOfCorruptRecord;
// defaultRescuedColumn is Lakeflow's rescued-data column under
// schemaEvolutionMode rescue.
const (
	defaultCorruptColumn = "_corrupt_record"
	defaultRescuedColumn = "_rescued_data"
)

// sourceOptions checks one source's reader options.
func (c *capChecker) sourceOptions(d *ir.Dataset) {
	src := d.Source
	if src == nil || src.Stdin {
		return
	}
	switch src.Format {
	case ir.FormatKafka:
		c.kafkaSourceOptions(d)
		return
	case ir.FormatIceberg:
		c.icebergSource(d)
		return
	}
	textual := src.Format == ir.FormatCSV || src.Format == ir.FormatJSONL
	accepted := func() string {
		names := []string{"mode", "columnNameOfCorruptRecord", "rescuedDataColumn", "schemaEvolutionMode"}
		if src.Format == ir.FormatCSV {
			names = append(names, "header", "delimiter (sep)", "quote", "escape", "null (nullValue, nulls)")
		}
		return strings.Join(names, ", ")
	}
	corrupt, corruptPos := defaultCorruptColumn, src.Pos
	rescued, rescuedPos, evolution, evolutionPos := "", src.Pos, "", src.Pos
	noHeader := false
	refuse := func(s Support, pos ir.Pos, subject string) {
		c.note(s, use{pos: pos, dataset: d.Name, what: fmt.Sprintf("%s %q", d.Kind, d.Name), knob: strings.ToLower(subject[len("option "):]), subject: subject})
	}
	for _, kv := range src.Options {
		pos := kv.Pos
		if !pos.IsValid() {
			pos = src.Pos
		}
		key := strings.ToLower(kv.Key)
		switch {
		case !textual:
			if c.caps.Target == Native {
				c.u.Diags.Add(pos, ir.CodeBadDataset, "source %s: option %q is not read for %s files, which take no reader options", d.Name, kv.Key, src.Format)
			}
		case key == "mode":
			if !containsFold(sourceModes, kv.Value) {
				c.u.Diags.Add(pos, ir.CodeBadDataset, "source %s: option mode: want %s, got %q", d.Name, strings.Join(sourceModes, ", "), kv.Value)
			}
		case key == "columnnameofcorruptrecord":
			if kv.Value == "" {
				c.u.Diags.Add(pos, ir.CodeBadDataset, "source %s: option columnNameOfCorruptRecord: want a column name, got \"\"", d.Name)
			}
			corrupt, corruptPos = kv.Value, pos
		case key == "rescueddatacolumn":
			if kv.Value == "" {
				c.u.Diags.Add(pos, ir.CodeBadDataset, "source %s: option rescuedDataColumn: want a column name, got \"\"", d.Name)
			}
			rescued, rescuedPos = kv.Value, pos
			refuse(c.caps.RescuedData, pos, "option rescuedDataColumn")
		case key == "schemaevolutionmode":
			if !containsFold(schemaEvolutionModes, kv.Value) {
				c.u.Diags.Add(pos, ir.CodeBadDataset, "source %s: option schemaEvolutionMode: want %s, got %q", d.Name, strings.Join(schemaEvolutionModes, ", "), kv.Value)
			}
			evolution, evolutionPos = kv.Value, pos
			refuse(c.caps.SchemaEvolution, pos, "option schemaEvolutionMode")
		case key == "header" && src.Format == ir.FormatCSV && containsFold([]string{"false", "no", "0"}, kv.Value):
			noHeader = true
		case c.caps.Target != Native:
			// sparkemit maps (or refuses) the Spark reader's options
		case src.Format == ir.FormatCSV && slices.Contains(csvDialectOptions, key):
		default:
			c.u.Diags.Add(pos, ir.CodeBadDataset, "source %s: unknown %s option %q (want %s)", d.Name, src.Format, kv.Key, accepted())
		}
	}
	if !textual {
		return
	}
	c.rescuedColumn(d, rescued, rescuedPos, evolution, evolutionPos, corrupt, noHeader)
	if corrupt == "" {
		return
	}
	c.textColumn(d, corrupt, corruptPos, "malformed records' text (columnNameOfCorruptRecord)", " (Spark: INVALID_CORRUPT_RECORD_TYPE)")
}

// textColumn reports column name of d, a column the reader fills with text
// (holds says what; suffix ends the message), when it is not a nullable
// STRING, at the column (at pos when it has no position). It says whether
// d declares the column.
func (c *capChecker) textColumn(d *ir.Dataset, name string, pos ir.Pos, holds, suffix string) bool {
	for _, col := range d.Columns {
		if col.Name != name {
			continue
		}
		if col.Type.Kind != ir.TString || col.NotNull {
			p := col.Pos
			if !p.IsValid() {
				p = pos
			}
			nn := ""
			if col.NotNull {
				nn = " NOT NULL"
			}
			c.u.Diags.Add(p, ir.CodeBadDataset, "source %s: column %s holds %s: want a nullable STRING, got %s%s%s", d.Name, col.Name, holds, col.Type, nn, suffix)
		}
		return true
	}
	return false
}

// rescuedColumn checks the rescued-data column and schemaEvolutionMode of a
// CSV or JSON lines source (rt/format's rescue.go): the column must be
// declared, as a nullable STRING, and not be the corrupt-record column;
// schemaEvolutionMode rescue without rescuedDataColumn uses _rescued_data,
// as Lakeflow does; a CSV source without a header cannot tell new columns.
func (c *capChecker) rescuedColumn(d *ir.Dataset, rescued string, rescuedPos ir.Pos, evolution string, evolutionPos ir.Pos, corrupt string, noHeader bool) {
	if evolution != "" && noHeader {
		c.u.Diags.Add(evolutionPos, ir.CodeBadDataset, "source %s: option schemaEvolutionMode needs a header row (header = false reads columns by position, and an extra field makes a record malformed)", d.Name)
	}
	how := "option rescuedDataColumn"
	if rescued == "" {
		if !strings.EqualFold(evolution, "rescue") {
			return
		}
		rescued, rescuedPos, how = defaultRescuedColumn, evolutionPos, "schemaEvolutionMode rescue, without rescuedDataColumn,"
	}
	if rescued == corrupt {
		c.u.Diags.Add(rescuedPos, ir.CodeBadDataset, "source %s: column %s cannot be both the rescued-data column (rescuedDataColumn) and the corrupt-record column (columnNameOfCorruptRecord)", d.Name, rescued)
		return
	}
	if c.textColumn(d, rescued, rescuedPos, "rescued data (rescuedDataColumn)", "") {
		return
	}
	c.u.Diags.Add(rescuedPos, ir.CodeBadDataset, "source %s: %s puts rescued data in column %s, which the schema does not declare: declare it as `%s string`", d.Name, how, rescued, rescued)
}

// SourceOptionTables are the option names (lower-cased) and mode values
// check accepts, for the test that holds them equal to rt/format's.
func SourceOptionTables() (common, csvDialect, modes, evolutions []string) {
	return commonSourceOptions, csvDialectOptions, sourceModes, schemaEvolutionModes
}

// kafkaSourceOptions checks a Kafka source's options, as rt/kafka will
// read them (kafkaopt.CheckSource: files the options name are not read).
// A bounded Kafka source (read_kafka without STREAM) reads from
// startingOffsets to endingOffsets, and a stream one reads on as records
// arrive: a stream read of the first, and a snapshot read of the second,
// are refused, as the engines would read different records (Spark reads
// the first as a stream, and the second as a batch read of its options,
// which a stream's startingOffsets latest makes empty or refused).
func (c *capChecker) kafkaSourceOptions(d *ir.Dataset) {
	src := d.Source
	c.kafkaError(d, src.Pos, src.Options, kafkaopt.SourceOptions, kafkaopt.CheckSource(kvPairs(src.Options), src.Unbounded))
	for _, kv := range src.Options {
		// Spark's connector matches subscribePattern with java.util.regex,
		// native with Go's regexp: refuse what means something else in one
		// (topic names are ASCII letters, digits, '.', '_' and '-', so the
		// rewrites translateRegex makes for line terminators, \s and (?i)
		// do not change which topics match).
		if strings.EqualFold(kv.Key, "subscribePattern") {
			if _, err := translateRegex(kv.Value); err != nil {
				c.u.Diags.Add(kv.Pos, ir.CodeBadDataset, "Kafka source %s: option subscribePattern: %v (Spark's connector reads it as a Java regular expression, native as an RE2 one)", d.Name, err)
			}
		}
	}
	for _, f := range c.u.Pipeline.Flows {
		for _, sc := range ir.Scans(f.Query) {
			switch {
			case !strings.EqualFold(sc.Name, d.Name) || sc.Stream == src.Unbounded:
			case sc.Stream:
				c.u.Diags.Add(sc.Pos, ir.CodeBadDataset, "Kafka source %s is a bounded read (from startingOffsets to endingOffsets), so it cannot be read as a stream: declare it as one (STREAM read_kafka(...) in SQL, source %s stream from kafka in .thund), or read it without stream",
					d.Name, d.Name)
				return
			default:
				c.u.Diags.Add(sc.Pos, ir.CodeBadDataset, "Kafka source %s is a stream, so it cannot be read as a snapshot: read it with from stream (FROM STREAM in SQL), or declare a bounded Kafka source (read_kafka(...) without STREAM, source NAME from kafka in .thund) for a batch read",
					d.Name)
				return
			}
		}
	}
}

// kafkaSinkColumn is a column a Kafka sink takes, and the types it may have.
type kafkaSinkColumn struct {
	name  string
	types string
	ok    func(ir.Type) bool
}

// kafkaSinkColumns are the columns a Kafka sink takes, by name, as Spark's
// Kafka sink does.
var kafkaSinkColumns = []kafkaSinkColumn{
	{"key", "string or binary", func(t ir.Type) bool { return t.Kind == ir.TString || t.Kind == ir.TBinary }},
	{"value", "string or binary", func(t ir.Type) bool { return t.Kind == ir.TString || t.Kind == ir.TBinary }},
	{"topic", "string", func(t ir.Type) bool { return t.Kind == ir.TString }},
	{"partition", "int32", func(t ir.Type) bool { return t.Kind == ir.TInt32 }},
	{"headers", ir.KafkaHeadersType().String(), func(t ir.Type) bool {
		f := t.Elem().Fields()
		return t.Kind == ir.TArray && len(f) == 2 && f[0].Name == "key" && f[0].Type.Kind == ir.TString &&
			f[1].Name == "value" && f[1].Type.Kind == ir.TBinary
	}},
}

// kafkaSink checks a Kafka sink (format kafka): its options, and its
// columns, which must be among key, value (required), topic, partition and
// headers, with the types Spark's Kafka sink takes.
func (c *capChecker) kafkaSink(d *ir.Dataset) {
	declared := map[string]ir.Pos{}
	for _, col := range d.Columns {
		declared[col.Name] = col.Pos
	}
	at := func(name string) ir.Pos {
		if p, ok := declared[name]; ok && p.IsValid() {
			return p
		}
		return d.Pos
	}
	var accepted []string
	for _, k := range kafkaSinkColumns {
		accepted = append(accepted, k.name)
	}
	hasTopic, hasValue, known := false, false, true
	for _, f := range c.u.Datasets[d].Visible() {
		if f.Open {
			known = false
			continue
		}
		i := slices.IndexFunc(kafkaSinkColumns, func(k kafkaSinkColumn) bool { return k.name == f.Name })
		if i < 0 {
			hint := ""
			if near, ok := suggest.Closest(f.Name, accepted); ok {
				hint = fmt.Sprintf(" (did you mean %s?)", near)
			}
			c.u.Diags.Add(at(f.Name), ir.CodeBadDataset, "Kafka sink %s: column %s%s is not one a Kafka record has: want key, value, topic, partition and headers (value required), as Spark's Kafka sink takes them",
				d.Name, f.Name, hint)
			continue
		}
		k := kafkaSinkColumns[i]
		if !k.ok(f.Type) {
			c.u.Diags.Add(at(f.Name), ir.CodeBadDataset, "Kafka sink %s: column %s is %s: want %s", d.Name, f.Name, f.Type, k.types)
		}
		switch f.Name {
		case "topic":
			hasTopic = true
		case "value":
			hasValue = true
		}
	}
	if known && !hasValue {
		c.u.Diags.Add(d.Pos, ir.CodeBadDataset, "Kafka sink %s has no value column: want a value column (string or binary), and optionally key, topic, partition and headers", d.Name)
	}
	c.kafkaError(d, d.Pos, d.SinkOptions, kafkaopt.SinkOptions, kafkaopt.CheckSink(kvPairs(d.SinkOptions), hasTopic))
	if hasTopic {
		// Spark's Kafka sink lets the topic option override a topic
		// column: with both, the engines could write different topics
		for _, kv := range d.SinkOptions {
			if strings.EqualFold(kv.Key, "topic") {
				c.u.Diags.Add(kv.Pos, ir.CodeBadDataset, "Kafka sink %s: give the topic option or a topic column, not both (Spark's Kafka sink lets the option override the column)", d.Name)
			}
		}
	}
}

// kafkaError reports err, from kafkaopt, at the option it names (at pos
// when it names none), with a suggestion for a misspelt option.
func (c *capChecker) kafkaError(d *ir.Dataset, pos ir.Pos, kvs []ir.KV, table []kafkaopt.Option, err error) {
	if err == nil {
		return
	}
	var oe *kafkaopt.Error
	msg := err.Error()
	if errors.As(err, &oe) && oe.Key != "" {
		for _, kv := range kvs {
			if strings.EqualFold(kv.Key, oe.Key) && kv.Pos.IsValid() {
				pos = kv.Pos
				break
			}
		}
		if strings.HasPrefix(oe.Msg, "unknown Kafka option") {
			var names []string
			for _, o := range table {
				names = append(names, o.Name)
			}
			near, ok := suggest.Closest(oe.Key, names)
			if !strings.HasPrefix(strings.ToLower(oe.Key), "kafka.") && slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, "kafka."+oe.Key) }) {
				near, ok = "kafka."+oe.Key, true // Spark's spelling of a Kafka client option
			}
			if ok {
				msg = fmt.Sprintf("option %s: unknown Kafka option (did you mean %s?)", oe.Key, near)
			}
		}
	}
	what := "source"
	if d.Kind == ir.KindSink {
		what = "sink"
	}
	c.u.Diags.Add(pos, ir.CodeBadDataset, "Kafka %s %s: %s", what, d.Name, msg)
}

// kvPairs are options as kafkaopt takes them.
func kvPairs(kvs []ir.KV) [][2]string {
	out := make([][2]string, len(kvs))
	for i, kv := range kvs {
		out[i] = [2]string{kv.Key, kv.Value}
	}
	return out
}

// icebergSource checks what the frontend (frontend/icetable, which read the
// table's metadata and judged the option names and values) leaves to the
// target: a native-only option (thund.non-append) other than its default
// is refused by the Spark targets; and, as for
// Kafka, a bounded Iceberg source (a snapshot read of one snapshot) is not
// read as a stream, nor a stream one (an incremental append scan) as a
// snapshot: the two engines would read different rows.
func (c *capChecker) icebergSource(d *ir.Dataset) {
	src := d.Source
	for _, kv := range src.Options {
		if o, ok := iceopt.Lookup(kv.Key); ok && o.Native && !strings.EqualFold(kv.Value, o.Values[0]) {
			pos := kv.Pos
			if !pos.IsValid() {
				pos = src.Pos
			}
			c.note(c.caps.IcebergNonAppend, use{pos: pos, dataset: d.Name, what: fmt.Sprintf("%s %q", d.Kind, d.Name),
				knob: "iceberg non-append", subject: fmt.Sprintf("option %s = %s", kv.Key, kv.Value)})
		}
	}
	for _, f := range c.u.Pipeline.Flows {
		for _, sc := range ir.Scans(f.Query) {
			switch {
			case !strings.EqualFold(sc.Name, d.Name) || sc.Stream == src.Unbounded:
			case sc.Stream:
				c.u.Diags.Add(sc.Pos, ir.CodeBadDataset, "Iceberg source %s is a snapshot read (of one snapshot), so it cannot be read as a stream: declare it as one (source %s stream from iceberg in .thund, STREAM in SQL), or read it without stream",
					d.Name, d.Name)
				return
			default:
				c.u.Diags.Add(sc.Pos, ir.CodeBadDataset, "Iceberg source %s is a stream (an incremental read of the snapshots appended), so it cannot be read as a snapshot: read it with from stream (FROM STREAM in SQL), or declare a second source without stream for a snapshot read",
					d.Name)
				return
			}
		}
	}
}
