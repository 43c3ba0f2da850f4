package passes

import (
	"fmt"
	"slices"
	"strings"

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
//     (the Spark targets' reader options are sparkemit's to map).

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
	for _, col := range d.Columns {
		if col.Name != corrupt {
			continue
		}
		if col.Type.Kind != ir.TString || col.NotNull {
			p := col.Pos
			if !p.IsValid() {
				p = corruptPos
			}
			nn := ""
			if col.NotNull {
				nn = " NOT NULL"
			}
			c.u.Diags.Add(p, ir.CodeBadDataset, "source %s: column %s holds malformed records' text (columnNameOfCorruptRecord): want a nullable STRING, got %s%s (Spark: INVALID_CORRUPT_RECORD_TYPE)",
				d.Name, col.Name, col.Type, nn)
		}
	}
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
	for _, col := range d.Columns {
		if col.Name != rescued {
			continue
		}
		if col.Type.Kind != ir.TString || col.NotNull {
			p := col.Pos
			if !p.IsValid() {
				p = rescuedPos
			}
			nn := ""
			if col.NotNull {
				nn = " NOT NULL"
			}
			c.u.Diags.Add(p, ir.CodeBadDataset, "source %s: column %s holds rescued data (rescuedDataColumn): want a nullable STRING, got %s%s", d.Name, col.Name, col.Type, nn)
		}
		return
	}
	c.u.Diags.Add(rescuedPos, ir.CodeBadDataset, "source %s: %s puts rescued data in column %s, which the schema does not declare: declare it as `%s string`", d.Name, how, rescued, rescued)
}

// SourceOptionTables are the option names (lower-cased) and mode values
// check accepts, for the test that holds them equal to rt/format's.
func SourceOptionTables() (common, csvDialect, modes, evolutions []string) {
	return commonSourceOptions, csvDialectOptions, sourceModes, schemaEvolutionModes
}
