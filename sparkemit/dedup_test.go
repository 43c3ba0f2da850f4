package sparkemit

// dedup within the watermark: the Deduplicate it lowers to.

import (
	"strings"
	"testing"

	"github.com/nordisk/thund/passes"
)

const dedupSrc = `source ev stream from csv "data/*.csv" options ("header" = "true") {
  k string, v int64, t timestamp(us, "UTC")
  watermark t delay 10s
}

streaming table by_key =
  from stream ev
  | distinct on (k, v) within watermark

streaming table by_row =
  from stream ev
  | distinct within watermark
`

// TestDedupWithinWatermark: distinct [on (...)] within watermark is a
// Deduplicate with within_watermark over a stream of the source's files
// with the watermark on it (no read of a graph dataset by name, which
// Spark could not analyze when the flow is defined).
func TestDedupWithinWatermark(t *testing.T) {
	u := compileSrc(t, "dedup.thund", dedupSrc, passes.Spark41)
	b, _, err := Emit(u, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		flow string
		keys string
		all  bool
	}{{"by_key", "k,v", false}, {"by_row", "", true}} {
		rel := flowRelation(t, b, c.flow)
		d := rel.GetDeduplicate()
		if d == nil {
			t.Fatalf("%s: top is %T, want a Deduplicate", c.flow, rel.RelType)
		}
		if !d.GetWithinWatermark() || d.GetAllColumnsAsKeys() != c.all || strings.Join(d.ColumnNames, ",") != c.keys {
			t.Errorf("%s: within_watermark %v, all_columns_as_keys %v, column_names %v; want true, %v, %q",
				c.flow, d.GetWithinWatermark(), d.GetAllColumnsAsKeys(), d.ColumnNames, c.all, c.keys)
		}
		if readsNamedTable(d.Input.ProtoReflect()) {
			t.Errorf("%s: the Deduplicate's input reads a table by name", c.flow)
		}
		in := d.Input
		if sa := in.GetSubqueryAlias(); sa != nil {
			in = sa.Input
		}
		if w := in.GetWithWatermark(); w == nil || w.EventTime != "t" || w.DelayThreshold != intervalText(10*1e9) {
			t.Errorf("%s: the Deduplicate's input is %v, want the source's stream with watermark t delay 10s", c.flow, in)
		}
	}
}
