package passes

import (
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
//   - native: the option names its readers take, for CSV and JSON lines
//     (the Spark targets' reader options are sparkemit's to map).

// sourceOptionNames are the options native CSV and JSON lines sources
// take, lower-cased, as rt/format spells them.
var (
	commonSourceOptions = []string{"mode", "columnnameofcorruptrecord"}
	csvDialectOptions   = []string{"header", "delimiter", "sep", "separator", "quote", "escape", "null", "nullvalue", "nulls"}
)

// sourceModes are the values of the mode option, the default first.
var sourceModes = []string{"PERMISSIVE", "DROPMALFORMED", "FAILFAST"}

// defaultCorruptColumn is Spark's default columnNameOfCorruptRecord.
const defaultCorruptColumn = "_corrupt_record"

// sourceOptions checks one source's reader options.
func (c *capChecker) sourceOptions(d *ir.Dataset) {
	src := d.Source
	if src == nil || src.Stdin {
		return
	}
	textual := src.Format == ir.FormatCSV || src.Format == ir.FormatJSONL
	accepted := func() string {
		names := []string{"mode", "columnNameOfCorruptRecord"}
		if src.Format == ir.FormatCSV {
			names = append(names, "header", "delimiter (sep)", "quote", "escape", "null (nullValue, nulls)")
		}
		return strings.Join(names, ", ")
	}
	corrupt, corruptPos := defaultCorruptColumn, src.Pos
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
		case c.caps.Target != Native:
			// sparkemit maps (or refuses) the Spark reader's options
		case src.Format == ir.FormatCSV && slices.Contains(csvDialectOptions, key):
		default:
			c.u.Diags.Add(pos, ir.CodeBadDataset, "source %s: unknown %s option %q (want %s)", d.Name, src.Format, kv.Key, accepted())
		}
	}
	if !textual || corrupt == "" {
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

// SourceOptionTables are the option names (lower-cased) and mode values
// check accepts, for the test that holds them equal to rt/format's.
func SourceOptionTables() (common, csvDialect, modes []string) {
	return commonSourceOptions, csvDialectOptions, sourceModes
}
