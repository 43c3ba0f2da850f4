package passes

import (
	"slices"
	"strings"
	"testing"

	"github.com/nordisk/thund/ir"
)

// TestIcebergTables: which tables the native build publishes as Iceberg
// tables, and what check says of the others (tableformat.go).
func TestIcebergTables(t *testing.T) {
	const src = `pipeline p
source clicks stream from csv "c/*.csv" {
  user string, n uint32, t timestamp(ms, "UTC")
  watermark t delay 2s
}
source ev from parquet "e/*.parquet" { id int64, big uint64, at timestamp(ns) }
materialized view plain = from ev | select id
materialized view wide = from ev | select id, big
materialized view said_parquet format parquet = from ev | select id, big
streaming table said_iceberg format iceberg = from stream ev | select id
streaming table per10
  = from stream clicks
  | window tumble(t, 10s)
  | group by user, window_start aggregate count(*) as c
  emit on window close
  late table per10_late
streaming table narrow
  = from stream clicks
  | select user, cast(n as int64) as n, t
  | window tumble(t, 10s)
  | group by user, window_start aggregate sum(n) as s
  emit on window close
  late table narrow_late
sink out options ("path" = "out")
flow f into out = from ev | select id
temporary view tv = from ev | select big
`
	u := planOf(t, src)
	if u.Diags.HasErrors() {
		t.Fatalf("errors:\n%s", u.Diags.Error())
	}
	var published []string
	for _, name := range []string{"clicks", "ev", "plain", "wide", "said_parquet", "said_iceberg", "per10", "per10_late", "narrow", "narrow_late", "out", "tv"} {
		if u.IcebergTable(name) {
			published = append(published, name)
		}
	}
	// per10_late holds the rows of clicks (n uint32); narrow_late those of
	// the select that casts it
	want := []string{"plain", "said_iceberg", "per10", "narrow", "narrow_late"}
	if !slices.Equal(published, want) {
		t.Errorf("Iceberg tables %v, want %v", published, want)
	}
	var warnings []string
	for _, d := range u.Diags {
		if d.Severity == ir.Warning && d.Code == ir.CodeIcebergType {
			warnings = append(warnings, d.Error())
		}
	}
	wantWarn := []string{
		"p.thund:8:1: warning: materialized view wide stays plain Parquet, not an Iceberg table: column big of type uint64 has no Iceberg type (Iceberg has no unsigned integers, and a Java reader of a Parquet UINT_32 or UINT_64 column sign-extends it): cast it to decimal(20,0), or write format parquet to say so and silence this warning [iceberg-type]",
		"p.thund:12:3: warning: late table per10_late of flow per10 stays plain Parquet, not an Iceberg table: its column n of type uint32 has no Iceberg type (Iceberg has no unsigned integers, and a Java reader of a Parquet UINT_32 or UINT_64 column sign-extends it): cast it to int64 in the flow, before the operator that finds rows late [iceberg-type]",
	}
	if !slices.Equal(warnings, wantWarn) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(warnings, "\n"), strings.Join(wantWarn, "\n"))
	}
	if e := u.Report.Entries; len(e) != 1 || e[0].Dataset != "wide" || e[0].Knob != "format" || e[0].Action != ActionDropped {
		t.Errorf("native report: %v", e)
	}
}

// TestIcebergTablesOnSpark: a Spark target publishes nothing itself, warns
// of nothing, and reports per table what the cluster writes; an explicit
// iceberg table is refused there too when Iceberg cannot hold a column.
func TestIcebergTablesOnSpark(t *testing.T) {
	const src = `pipeline p
source ev from parquet "e/*.parquet" { id int64, big uint64 }
materialized view plain = from ev | select id
materialized view wide = from ev | select id, big
materialized view said_parquet format parquet = from ev | select id
materialized view said_iceberg format iceberg = from ev | select id
`
	for _, target := range []Target{Spark41, Spark42} {
		u := confUnit(t, target, src)
		if len(u.Diags) != 0 {
			t.Errorf("%s: %s", target, diagTexts(u))
		}
		if len(u.Iceberg) != 0 {
			t.Errorf("%s: Iceberg tables %v", target, u.Iceberg)
		}
		var got []string
		for _, e := range u.Report.Entries {
			if e.Knob == "format" {
				got = append(got, e.Dataset+" "+string(e.Action)+" "+e.Reason)
			}
		}
		if len(got) != 3 ||
			!strings.HasPrefix(got[0], "plain dropped iceberg (the default) is not sent: Spark writes its catalog's default format, where the native build publishes an Iceberg table") ||
			!strings.HasPrefix(got[1], "wide dropped iceberg (the default) is not sent: Spark writes its catalog's default format, where the native build keeps plain Parquet") ||
			!strings.HasPrefix(got[2], "said_iceberg converted iceberg is sent as the table's format: the cluster needs Iceberg's Spark runtime") {
			t.Errorf("%s: format entries:\n%s", target, strings.Join(got, "\n"))
		}
	}
	u := confUnit(t, Spark41, strings.Replace(src, "said_iceberg format iceberg = from ev | select id", "said_iceberg format iceberg = from ev | select id, big", 1))
	if len(u.Diags) != 1 || u.Diags[0].Code != ir.CodeIcebergType || u.Diags[0].Pos.Line != 6 {
		t.Errorf("explicit iceberg of uint64 on spark-4.1: %s", diagTexts(u))
	}
}
