package sparkemit

import (
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/prototext"

	"github.com/nordisk/thund/frontend/sql"
	"github.com/nordisk/thund/passes"
	pb "github.com/nordisk/thund/sparkemit/connectpb"
)

// windowOf returns the window expressions of the named flow's projection,
// by output name.
func windowOf(t *testing.T, rel *pb.Relation) map[string]*pb.Expression_Window {
	t.Helper()
	out := map[string]*pb.Expression_Window{}
	for _, x := range rel.GetProject().GetExpressions() {
		a := x.GetAlias()
		if w := a.GetExpr().GetWindow(); w != nil {
			out[a.GetName()[0]] = w
		}
	}
	return out
}

// TestWindowLowering: an Over is Expression.Window with Spark's parts: the
// function (IGNORE NULLS of lag as its fourth argument true), partition and
// order specs (ASC NULLS FIRST, DESC NULLS LAST made explicit), the frame
// only where the query gives one, N PRECEDING as negative(N).
func TestWindowLowering(t *testing.T) {
	u := compileSrc(t, "p.thund", `pipeline p
source t from parquet "t/*.parquet" { k int64, v int64, d date32 }
materialized view w = from t
  | select k, rank() over (partition by k order by v desc) as r, lag(v) ignore nulls over (order by v) as l,
      sum(v) over (order by v rows between 2 preceding and 1 following) as s,
      count(*) over (order by d range between 1d preceding and current row) as c, max(v) over () as m
`, passes.Spark41)
	b, _, err := Emit(u, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ws := windowOf(t, flowRelation(t, b, "w"))
	text := func(name string) string {
		w, ok := ws[name]
		if !ok {
			t.Fatalf("no window %s among %v", name, ws)
		}
		// prototext's spacing is not stable: compare without it
		return strings.Join(strings.Fields(prototext.MarshalOptions{}.Format(w)), "")
	}
	for _, c := range []struct{ name, want string }{
		{"r", `window_function: { unresolved_function: { function_name: "rank" } } partition_spec: { unresolved_attribute: { unparsed_identifier: "k" } } order_spec: { child: { unresolved_attribute: { unparsed_identifier: "v" } } direction: SORT_DIRECTION_DESCENDING null_ordering: SORT_NULLS_LAST }`},
		{"l", `window_function: { unresolved_function: { function_name: "lag" arguments: { unresolved_attribute: { unparsed_identifier: "v" } } arguments: { literal: { integer: 1 } } arguments: { literal: { null: { null: {} } } } arguments: { literal: { boolean: true } } } } order_spec: { child: { unresolved_attribute: { unparsed_identifier: "v" } } direction: SORT_DIRECTION_ASCENDING null_ordering: SORT_NULLS_FIRST }`},
		{"s", `window_function: { unresolved_function: { function_name: "sum" arguments: { unresolved_attribute: { unparsed_identifier: "v" } } } } order_spec: { child: { unresolved_attribute: { unparsed_identifier: "v" } } direction: SORT_DIRECTION_ASCENDING null_ordering: SORT_NULLS_FIRST } frame_spec: { frame_type: FRAME_TYPE_ROW lower: { value: { unresolved_function: { function_name: "negative" arguments: { literal: { integer: 2 } } } } } upper: { value: { literal: { integer: 1 } } } }`},
		{"c", `window_function: { unresolved_function: { function_name: "count" arguments: { literal: { integer: 1 } } } } order_spec: { child: { unresolved_attribute: { unparsed_identifier: "d" } } direction: SORT_DIRECTION_ASCENDING null_ordering: SORT_NULLS_FIRST } frame_spec: { frame_type: FRAME_TYPE_RANGE lower: { value: { unresolved_function: { function_name: "negative" arguments: { literal: { day_time_interval: 86400000000 } } } } } upper: { current_row: true } }`},
		{"m", `window_function: { unresolved_function: { function_name: "max" arguments: { unresolved_attribute: { unparsed_identifier: "v" } } } }`},
	} {
		if got := text(c.name); got != strings.ReplaceAll(c.want, " ", "") {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestWindowRefusals: a window function over a stream (Spark runs only
// time-based windows on streams), and QUALIFY in a persisted view for
// spark-4.1 (its text is sent, and 4.1's parser has no QUALIFY).
func TestWindowRefusals(t *testing.T) {
	u := compileSrc(t, "p.thund", `pipeline p
source s stream from parquet "d/*.parquet" { k int64, v int64, t timestamp(us, "UTC") }
streaming table st = from stream s | select k, row_number() over (partition by k order by t) as rn
`, passes.Spark42)
	_, _, err := Emit(u, Options{})
	var es Errors
	if !errors.As(err, &es) || !strings.Contains(err.Error(), `p.thund:3:48: spark-4.2 cannot lower flow "st": a window function over a stream`) ||
		!strings.Contains(err.Error(), "NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING") {
		t.Errorf("window over a stream: %v", err)
	}

	const view = `CREATE MATERIALIZED VIEW base AS SELECT id AS k, id % 3 AS v FROM range(6);
CREATE VIEW firsts AS SELECT k, v FROM base QUALIFY row_number() OVER (PARTITION BY v ORDER BY k) = 1;
`
	for _, target := range []passes.Target{passes.Spark41, passes.Spark42} {
		p, diags := sql.Parse([]sql.File{{Name: "v.sql", Src: []byte(view)}})
		if diags.HasErrors() {
			t.Fatal(diags.Err())
		}
		u, err := passes.Run(p, passes.Options{Target: target})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = Emit(u, Options{})
		switch {
		case target == passes.Spark41 && (err == nil || !strings.Contains(err.Error(), "v.sql:2:13: spark-4.1 cannot lower dataset \"firsts\": QUALIFY in a persisted view")):
			t.Errorf("%s: %v", target, err)
		case target == passes.Spark42 && err != nil:
			t.Errorf("%s: %v", target, err)
		}
	}
}

func TestHasQualify(t *testing.T) {
	for text, want := range map[string]bool{
		"SELECT a FROM t QUALIFY rank() OVER (ORDER BY a) = 1": true,
		"SELECT a FROM t\nqualify r = 1":                       true,
		"SELECT 'QUALIFY' AS a FROM t":                         false,
		"SELECT `qualify` FROM t -- qualify\n":                 false,
		"SELECT a /* QUALIFY */ FROM t":                        false,
		"SELECT qualify_x FROM t":                              false,
	} {
		if got := hasQualify(text); got != want {
			t.Errorf("hasQualify(%q) = %v", text, got)
		}
	}
}
