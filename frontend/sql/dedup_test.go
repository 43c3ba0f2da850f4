package sql_test

// dedup within the watermark: the thund.dedupWithinWatermark knob.

import (
	"strings"
	"testing"

	"github.com/nordisk/thund/frontend/sql"
	"github.com/nordisk/thund/ir"
)

func TestDedupWithinWatermarkKnob(t *testing.T) {
	for _, c := range []struct {
		value string
		keys  string
	}{
		{"k, v", "k|v"},
		{" `two words` ,k", "two words|k"},
		{"*", ""},
	} {
		src := "CREATE STREAMING TABLE s (k STRING, v BIGINT, t TIMESTAMP) TBLPROPERTIES ('thund.dedupWithinWatermark' = '" + c.value + "')\n" +
			"AS SELECT * FROM STREAM read_files('data/*.csv', format => 'csv', schema => 'k STRING, v BIGINT, t TIMESTAMP') WATERMARK t DELAY OF INTERVAL 5 SECONDS"
		t.Chdir(t.TempDir())
		p, diags := sql.Parse([]sql.File{{Name: "d.sql", Src: []byte(src)}})
		if p == nil {
			t.Fatalf("%q: %v", c.value, diags)
		}
		d, ok := p.Flows[0].Query.(*ir.Distinct)
		if !ok || !d.WithinWatermark || strings.Join(d.Keys, "|") != c.keys {
			t.Errorf("%q: the flow's query is %#v, want a Distinct within watermark on %q", c.value, p.Flows[0].Query, c.keys)
			continue
		}
		if d.Pos.Line != 1 || d.Pos.Col != 75 {
			t.Errorf("%q: the Distinct is at %d:%d, want the property's position 1:75", c.value, d.Pos.Line, d.Pos.Col)
		}
		if len(p.Datasets[0].Properties) != 0 {
			t.Errorf("%q: the knob stayed a table property: %v", c.value, p.Datasets[0].Properties)
		}
	}
	t.Chdir(t.TempDir())
	_, diags := sql.Parse([]sql.File{{Name: "d.sql", Src: []byte("CREATE STREAMING TABLE s TBLPROPERTIES ('thund.dedupWithinWatermark' = 'k,,v') AS SELECT 1 AS k")}})
	want := `d.sql:1:41: table property thund.dedupWithinWatermark = "k,,v": want a comma-separated list of column names, or * [syntax]`
	if len(diags) != 1 || diags[0].Error() != want {
		t.Errorf("got %v, want %s", diags, want)
	}
}
