package sparkemit

import (
	"strings"
	"testing"

	"github.com/nordisk/thund/passes"
)

// TestTableFormatSent: a table's DefineOutput carries the format its clause
// names, lower-cased, and none without a clause (Spark's catalog default);
// the report says what that means for each table with format iceberg, and
// a table of format parquet runs as written.
func TestTableFormatSent(t *testing.T) {
	const src = `pipeline p
source s from parquet "s/*.parquet" { id int64 }
materialized view plain = from s | select id
materialized view said_iceberg format ICEBERG = from s | select id
streaming table said_parquet format Parquet = from stream s | select id
`
	for _, target := range []passes.Target{passes.Spark41, passes.Spark42} {
		u := compileSrc(t, "p.thund", src, target)
		b, rep, err := Emit(u, Options{})
		if err != nil {
			t.Fatal(err)
		}
		formats := map[string]string{}
		for _, r := range b.Requests {
			if do := PipelineCommandOf(r).GetDefineOutput(); do != nil && do.GetTableDetails() != nil {
				f := "(none)"
				if td := do.GetTableDetails(); td.Format != nil {
					f = td.GetFormat()
				}
				formats[do.GetOutputName()] = f
			}
		}
		if len(formats) != 3 || formats["plain"] != "(none)" || formats["said_iceberg"] != "iceberg" || formats["said_parquet"] != "parquet" {
			t.Errorf("%s: formats sent %v", target, formats)
		}
		entries := map[string]string{}
		for _, e := range rep.Entries {
			if e.Knob == "format" {
				entries[e.Dataset] = string(e.Action) + ": " + e.Reason
			}
		}
		if len(entries) != 2 ||
			!strings.HasPrefix(entries["plain"], "dropped: iceberg (the default) is not sent: Spark writes its catalog's default format") ||
			!strings.HasPrefix(entries["said_iceberg"], "converted: iceberg is sent as the table's format: the cluster needs Iceberg's Spark runtime") {
			t.Errorf("%s: report entries %v", target, entries)
		}
	}
}
