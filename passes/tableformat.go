package passes

import (
	"fmt"
	"strings"

	"github.com/nordisk/thund/ir"
)

// Table formats: which tables the native build publishes as Apache Iceberg
// tables (rt/iceberg), over the Parquet files of each committed version.
// validate has refused formats other than iceberg and parquet
// (ir/tableformat.go); here, with the resolved schemas:
//
//   - a materialized view or streaming table of format parquet is plain
//     Parquet;
//   - one of format iceberg, written out, whose columns (nested parts
//     included) have a type Iceberg cannot hold (ir.IcebergType) is an
//     error, on every target, at the column's declaration (else at the
//     dataset): a dataset that says it is an Iceberg table is one;
//   - one without a format clause is an Iceberg table when every column
//     has an Iceberg type; otherwise the native target warns, and the table
//     is plain Parquet (the lowering report says so too);
//   - a flow's late table (not a declared dataset) follows the default
//     rule with the columns of its rows (plan: lateTableFormats).
//
// Spark targets publish nothing themselves: the lowering report says what
// the cluster writes for each table (formatReport).

// IcebergTable reports whether the native build publishes the dataset or
// late table of that name as an Iceberg table.
func (u *Unit) IcebergTable(name string) bool { return u.Iceberg[strings.ToLower(name)] }

// tableFormat settles one table's format (capability).
func (c *capChecker) tableFormat(d *ir.Dataset) {
	if !d.IsTable() || d.TableFormat() != ir.TableIceberg || c.caps.Target == Native && c.readsExternal(d) {
		return // natively, a read of a table outside the pipeline is refused
	}
	explicit := d.Format != ""
	unheld := c.u.unheldColumns(c.u.Datasets[d].Visible())
	native := c.caps.Target == Native
	switch {
	case len(unheld) == 0:
		if native {
			c.u.Iceberg[strings.ToLower(d.Name)] = true
		}
	case explicit:
		sql := strings.HasSuffix(d.FormatClausePos().File, ".sql")
		for _, col := range unheld {
			c.u.Diags.Add(columnPos(d, col.name), ir.CodeIcebergType, "%s %s is an Iceberg table (%s): column %s: %s, or write %s (plain Parquet files)",
				d.Kind, d.Name, ir.FormatClause(d.FormatClausePos(), d.Format), col.describe(sql), col.remedy(sql), ir.FormatClause(d.FormatClausePos(), ir.TableParquet))
		}
		return
	case native:
		sql := strings.HasSuffix(d.Pos.File, ".sql")
		for _, col := range unheld {
			c.u.Diags.Warn(columnPos(d, col.name), ir.CodeIcebergType, "%s %s stays plain Parquet, not an Iceberg table: column %s: %s, or write %s to say so and silence this warning",
				d.Kind, d.Name, col.describe(sql), col.remedy(sql), ir.FormatClause(d.Pos, ir.TableParquet))
		}
		c.u.Report.Entries = append(c.u.Report.Entries, ReportEntry{Dataset: d.Name, Knob: "format", Action: ActionDropped, Pos: d.Pos,
			Reason: fmt.Sprintf("iceberg (the default) is not published: the table stays plain Parquet, as column %s", unheld[0].describe(sql))})
	}
	c.formatReport(d, len(unheld) == 0)
}

// readsExternal reports whether a flow into d reads a table the pipeline
// does not define, whose columns the compiler does not know.
func (c *capChecker) readsExternal(d *ir.Dataset) bool {
	for _, f := range c.u.flowsInto(d) {
		for _, s := range ir.Scans(f.Query) {
			if c.u.lookup(s.Name) == nil {
				return true
			}
		}
	}
	return false
}

// formatReport says, on a Spark target, what the cluster writes for a table
// whose format is iceberg: a table without a clause gets no format (the
// catalog's default), and USING iceberg needs Iceberg on the cluster.
func (c *capChecker) formatReport(d *ir.Dataset, held bool) {
	if !c.caps.Target.IsSpark() {
		return
	}
	on := use{pos: d.Pos, dataset: d.Name, what: fmt.Sprintf("%s %q", d.Kind, d.Name), knob: "format"}
	if d.Format == "" {
		native := "publishes an Iceberg table"
		if !held {
			native = "keeps plain Parquet (a column has no Iceberg type)"
		}
		c.note(dropped("iceberg (the default) is not sent: Spark writes its catalog's default format, where the native build "+native+
			"; write "+ir.FormatClause(d.Pos, ir.TableIceberg)+" or "+ir.FormatClause(d.Pos, ir.TableParquet)+" to have one format on both"), on)
		return
	}
	on.pos = d.FormatClausePos()
	c.note(converted(whyIcebergSpark), on)
}

// whyIcebergSpark is what a Spark cluster needs for a table sent with
// format iceberg.
const whyIcebergSpark = "iceberg is sent as the table's format: the cluster needs Iceberg's Spark runtime (org.apache.iceberg:iceberg-spark-runtime-<Spark major.minor>_2.13) " +
	"and a catalog that creates Iceberg tables (spark_catalog as org.apache.iceberg.spark.SparkSessionCatalog, or the pipeline's catalog an org.apache.iceberg.spark.SparkCatalog)"

// unheldColumn is a column whose type, or a part of it, Iceberg cannot hold.
type unheldColumn struct {
	name string
	typ  ir.Type
	err  *ir.UnheldTypeError
}

// remedy says what to do about the column: cast it (the whole column, to
// the type whose every part Iceberg holds, for a nested one), or what the
// error says when no cast does it.
func (u unheldColumn) remedy(sql bool) string {
	if u.err.Path == "" || u.err.Cast.Kind == ir.TUnknown {
		return u.err.Remedy(spell(sql))
	}
	if to, ok := ir.IcebergCast(u.typ); ok {
		return fmt.Sprintf("cast %s to %s", u.name, typeSpelling(to, sql))
	}
	return u.err.Remedy(spell(sql))
}

// describe names the column's path (a.b[]) and the type found there.
func (u unheldColumn) describe(sql bool) string {
	return fmt.Sprintf("%s%s of type %s has no Iceberg type (%s)", u.name, u.err.Path, typeSpelling(u.err.Type, sql), u.err.Why)
}

// unheldColumns returns the columns whose type Iceberg cannot hold. The
// columns of an external table are skipped: a * over one is open, and a
// Spark target types a named column of one as unknown, the type of NULL,
// so only on the native target (where every table read is bound to files)
// is an unknown type a column of NULLs.
func (u *Unit) unheldColumns(s Schema) []unheldColumn {
	var out []unheldColumn
	for _, f := range s {
		if f.Open || f.Poisoned {
			continue
		}
		_, err := ir.IcebergType(f.Type)
		if err == nil {
			continue
		}
		ue := err.(*ir.UnheldTypeError)
		if ue.Type.Kind == ir.TUnknown && u.Opts.Target != Native {
			continue
		}
		out = append(out, unheldColumn{name: f.Name, typ: f.Type, err: ue})
	}
	return out
}

// columnPos is the position of the column's declaration in d, or d's.
func columnPos(d *ir.Dataset, name string) ir.Pos {
	for _, c := range d.Columns {
		if strings.EqualFold(c.Name, name) && c.Pos.IsValid() {
			return c.Pos
		}
	}
	return d.Pos
}

// spell spells types as .thund does, or as SQL does.
func spell(sql bool) func(ir.Type) string {
	if sql {
		return ir.Type.SQL
	}
	return ir.Type.String
}

// lateTableFormats settles the format of each flow's late table (plan, on
// the native target): an Iceberg table when every column of its rows (the
// input of the operator that finds them late) has an Iceberg type, else
// plain Parquet, with a warning at the flow.
func lateTableFormats(u *Unit) {
	for _, f := range u.Pipeline.Flows {
		in := u.LateInput(f)
		if in == nil {
			continue
		}
		unheld := u.unheldColumns(u.Schemas[in].Visible())
		if len(unheld) == 0 {
			u.Iceberg[strings.ToLower(f.LateTable)] = true
			continue
		}
		sql := strings.HasSuffix(f.Pos.File, ".sql")
		for _, col := range unheld {
			u.Diags.Warn(f.Pos, ir.CodeIcebergType, "late table %s of flow %s stays plain Parquet, not an Iceberg table: its column %s: %s in the flow, before the operator that finds rows late",
				f.LateTable, f.Name, col.describe(sql), col.remedy(sql))
		}
	}
}

// LateInput is the relation whose rows a flow's late table receives: the
// input of its window, or of its distinct within watermark (codegen's
// genLateTable takes the same); nil when the flow has no late table, or the
// plan has no such operator.
func (u *Unit) LateInput(f *ir.Flow) ir.Rel {
	if f.LateTable == "" || u.Plan == nil {
		return nil
	}
	fp := u.Plan.Flows[f]
	if fp == nil || fp.Stream == nil {
		return nil
	}
	switch sp := fp.Stream; {
	case sp.Window != nil:
		return sp.Window.Input
	case sp.Dedup != nil:
		return sp.Dedup.Distinct.Input
	}
	return nil
}
