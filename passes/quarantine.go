package passes

import (
	"fmt"
	"strings"

	"github.com/nordisk/thund/ir"
)

// Quarantine tables: a CSV or JSON lines source may name a streaming table
// of the pipeline that receives its malformed records (`quarantine table
// NAME` in .thund, quarantineTable => 'NAME' in SQL's read_files). The
// runtime appends to it in the commit of the flows that read the source
// (rt/etl/quarantine.go). Check refuses, positioned at the clause:
//
//   - a source that is not CSV or JSON lines (no other reader has malformed
//     records), or whose mode is FAILFAST (it fails at the first one, so the
//     table would never get a row);
//   - a name that is not a dataset of the pipeline, or not a streaming
//     table, or one that a flow writes, or whose columns are not
//     QuarantineColumns;
//   - for Spark targets, the table itself (Capabilities.QuarantineTables).

// QuarantineColumns are the columns a quarantine table declares, in this
// order; each may be NOT NULL but record, which is NULL when the record's
// text is not valid UTF-8. rt/etl.QuarantineSchema is the same list (a test
// holds them equal).
var QuarantineColumns = []struct {
	Name string
	Type ir.Type
}{
	{"source", ir.StringT}, // the source's name
	{"file", ir.StringT},   // the file, as the source's pattern names it
	{"line", ir.Int64},     // the line the record starts on, from 1
	{"reason", ir.StringT}, // what FAILFAST would say after file:line:col
	{"record", ir.StringT}, // the record's text as written
	{"epoch", ir.Int64},    // the epoch that quarantined it
}

// quarantineCols spells QuarantineColumns as a column list, for messages
// (in SQL's spelling when sql).
func quarantineCols(sql bool) string {
	cols := make([]string, len(QuarantineColumns))
	for i, c := range QuarantineColumns {
		cols[i] = c.Name + " " + typeSpelling(c.Type, sql)
	}
	return strings.Join(cols, ", ")
}

// quarantineDDL spells QuarantineColumns as a declaration, for messages.
func quarantineDDL(name string, sql bool) string {
	if sql {
		return fmt.Sprintf("CREATE STREAMING TABLE %s (%s)", name, quarantineCols(sql))
	}
	return fmt.Sprintf("streaming table %s (%s)", name, quarantineCols(sql))
}

// typeSpelling spells t as .thund does, or as SQL does.
func typeSpelling(t ir.Type, sql bool) string {
	if sql {
		return t.SQL()
	}
	return t.String()
}

// quarantine checks the quarantine table of source d, if it names one.
func (c *capChecker) quarantine(d *ir.Dataset) {
	src := d.Source
	if src == nil || src.Quarantine == nil {
		return
	}
	name := src.Quarantine.Table
	pos := src.Quarantine.Pos
	if !pos.IsValid() {
		pos = src.Pos
	}
	sql := strings.HasSuffix(pos.File, ".sql")
	errorf := func(format string, args ...any) {
		c.u.Diags.Add(pos, ir.CodeBadDataset, "source %s: quarantine table %s: "+format, append([]any{d.Name, name}, args...)...)
	}
	if c.caps.Target.IsSpark() {
		c.note(c.caps.QuarantineTables, use{pos: pos, dataset: d.Name, what: fmt.Sprintf("source %q", d.Name),
			knob: "quarantine table", subject: fmt.Sprintf("quarantine table %q", name)})
		return
	}
	if src.Stdin || src.Format != ir.FormatCSV && src.Format != ir.FormatJSONL {
		errorf("only CSV and JSON lines sources have malformed records, and this one reads %s", sourceInput(src))
		return
	}
	for _, kv := range src.Options {
		if strings.EqualFold(kv.Key, "mode") && strings.EqualFold(kv.Value, "FAILFAST") {
			errorf("mode FAILFAST fails the run at the first malformed record, so nothing would ever reach the table: use PERMISSIVE (keep the record with NULLs, and quarantine it) or DROPMALFORMED (drop it, and quarantine it)")
			return
		}
	}
	if !ir.ValidName(name) {
		errorf("not a valid warehouse name: want [a-z0-9][a-z0-9_-]*")
		return
	}
	t := c.u.lookup(name)
	switch {
	case t == nil:
		errorf("not a dataset of the pipeline: declare it, as %s", quarantineDDL(name, sql))
		return
	case t.Kind != ir.KindStreamingTable:
		errorf("%s %s is not a streaming table: a quarantine table is appended to, as %s", t.Kind, t.Name, quarantineDDL(name, sql))
		return
	}
	if flows := c.u.flowsInto(t); len(flows) > 0 {
		errorf("flow %s writes it (at %s): only the runtime writes a quarantine table, so declare it without a query and no flow into it", flows[0].Name, flows[0].Pos)
	}
	if !quarantineShape(t) {
		var got []string
		for _, col := range t.Columns {
			s := col.Name + " " + typeSpelling(col.Type, sql)
			if col.NotNull && sql {
				s += " NOT NULL"
			} else if col.NotNull {
				s += " not null"
			}
			got = append(got, s)
		}
		errorf("want the columns (%s), in this order (record nullable), got (%s) (declared at %s)", quarantineCols(sql),
			strings.Join(got, ", "), t.Pos)
	}
}

// quarantineShape reports whether t declares QuarantineColumns.
func quarantineShape(t *ir.Dataset) bool {
	if len(t.Columns) != len(QuarantineColumns) {
		return false
	}
	for i, want := range QuarantineColumns {
		col := t.Columns[i]
		if !strings.EqualFold(col.Name, want.Name) || col.Type.Kind != want.Type.Kind || col.NotNull && want.Name == "record" {
			return false
		}
	}
	return true
}

// sourceInput names what a source reads, for messages.
func sourceInput(src *ir.SourceSpec) string {
	if src.Stdin {
		return "an Arrow IPC stream on stdin"
	}
	return src.Format.String() + " files"
}
