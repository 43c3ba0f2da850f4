package sparkemit

import (
	"errors"
	"strings"
	"testing"

	"github.com/nordisk/thund/frontend/dsl"
	"github.com/nordisk/thund/passes"
)

// TestRefusals: what the capability pass lets through but the lowering
// cannot express is an error naming the flow (or dataset), the feature and
// the target, never a silent drop.
func TestRefusals(t *testing.T) {
	const head = `pipeline p

source s stream from parquet "d/*.parquet" { k int64, v int64, t timestamp(us, "UTC") }
source b from parquet "b/*.parquet" { k int64 }
`
	for _, c := range []struct {
		name, src string
		target    passes.Target
		want      []string
	}{
		{"cdc over a query", head + "streaming table st = from stream s | where v > 0\n  apply changes keys (k) sequence by v scd type 1\n", passes.Spark42,
			[]string{`spark-4.2 cannot lower flow "st": CDC over a query`}},
		{"streaming distinct", "pipeline p\nsource w stream from parquet \"w/*.parquet\" {\n  k int64, t timestamp(us, \"UTC\")\n  watermark t delay 5s\n}\n" +
			"streaming table sd = from stream w | select k, t | distinct\n", passes.Spark41,
			[]string{`spark-4.1 cannot lower flow "sd": distinct over a stream of a pipeline dataset`, "TABLE_OR_VIEW_NOT_FOUND"}},
		// stream: Spark rejects distinct aggregates over a stream
		{"distinct aggregate over a stream", "pipeline p\nsource w stream from parquet \"w/*.parquet\" {\n  k int64, t timestamp(us, \"UTC\")\n  watermark t delay 5s\n}\n" +
			"streaming table cd = from stream w | window tumble(t, 10s) | group by window_start aggregate count(distinct k) as n\n", passes.Spark42,
			[]string{`spark-4.2 cannot lower flow "cd": a distinct aggregate over a stream`, "Distinct aggregations are not supported on streaming DataFrames/Datasets"}},
		// correlated subqueries: Spark's analyzer refuses an aggregate over outer and local columns
		{"aggregate mixing outer and local columns", head + "materialized view m = from b | select (from b as i | where i.k = b.k | aggregate max(i.k + b.k) as m) as m\n", passes.Spark42,
			[]string{`spark-4.2 cannot lower flow "m": an aggregate over both a correlated subquery's columns and the enclosing query's`, "AGGREGATE_FUNCTION_MIXED_OUTER_LOCAL_REFERENCES"}},
		// nested types: Spark's CSV reader has no nested column
		{"nested column of a csv source", "pipeline p\nsource c from csv \"c.csv\" { k int64, tags array<string> }\nmaterialized view m = from c | select k\n", passes.Spark41,
			[]string{`p.thund:2:38: spark-4.1 cannot lower dataset "c": the nested column tags (array<string>) of a csv source`, "UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := compileSrc(t, "p.thund", c.src, c.target)
			_, _, err := Emit(u, Options{})
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("err = %v, want a refusal", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if !strings.HasPrefix(err.Error(), "p.thund:") {
				t.Errorf("error %q has no position", err)
			}
		})
	}
}

// TestPositionalInsertRenames: a flow that inserts by position into a
// table with other column names gets a projection onto the table's names.
func TestPositionalInsertRenames(t *testing.T) {
	u := compileSrc(t, "p.thund", `pipeline p
source s stream from parquet "d/*.parquet" { k int64, v int64 }
streaming table st (key int64, val int64)
flow f into st = from stream s | select k, v
`, passes.Spark41)
	b, _, err := Emit(u, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var flow string
	for _, r := range b.Requests {
		if Describe(r) == "define_flow f -> st" {
			flow, _ = textOf(r)
		}
	}
	if !strings.Contains(flow, `name: "key"`) || !strings.Contains(flow, `name: "val"`) {
		t.Errorf("flow f does not rename k, v to key, val:\n%s", flow)
	}
}

// TestExpectationsFilter: with --expectations filter a drop expectation
// is a filter on its condition over the flow's output, converted in the
// report; a fail expectation stays refused by the capability pass, and a
// drop expectation on an AUTO CDC target (which takes no relation) is
// refused by the lowering.
func TestExpectationsFilter(t *testing.T) {
	compile := func(src string, target passes.Target) *passes.Unit {
		t.Helper()
		p, diags := dsl.Parse("p.thund", []byte(src))
		if diags.HasErrors() {
			t.Fatal(diags.Err())
		}
		u, err := passes.Run(p, passes.Options{Target: target, Expectations: passes.ExpectFilter})
		if u == nil {
			t.Fatal(err)
		}
		return u
	}
	const head = "pipeline p\nsource b from parquet \"b/*.parquet\" { k int64, v int64 }\n"
	u := compile(head+"materialized view m\n  expect pos: v > 0 on violation drop\n  expect small: k < 10 on violation drop\n  = from b | select k, v\n", passes.Spark41)
	b, rep, err := Emit(u, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := flowRelation(t, b, "m").GetFilter()
	if f == nil || f.Input.GetProject() == nil {
		t.Fatalf("m: %v, want a filter over the flow's projection", flowRelation(t, b, "m"))
	}
	if fn := f.Condition.GetUnresolvedFunction(); fn.GetFunctionName() != "and" || len(fn.Arguments) != 2 {
		t.Errorf("condition %v, want the two expectations and-ed", f.Condition)
	}
	converted := 0
	for _, e := range rep.Entries {
		if e.Knob == "expectation" && e.Action == passes.ActionConverted {
			converted++
		}
	}
	if converted != 2 {
		t.Errorf("%d converted expectations in the report, want 2", converted)
	}

	u = compile(head+"materialized view m\n  expect pos: v > 0 on violation fail\n  = from b | select k, v\n", passes.Spark41)
	if !u.Diags.HasErrors() || !strings.Contains(u.Diags.Err().Error(), `expectation "pos" (on violation fail) is not part of OSS Spark`) {
		t.Errorf("a fail expectation: %v, want the capability refusal", u.Diags.Err())
	}

	u = compile("pipeline p\nsource s stream from parquet \"s/*.parquet\" { k int64, v int64 }\n"+
		"streaming table st\n  expect pos: v > 0 on violation drop\n  = from stream s\n  apply changes keys (k) sequence by v scd type 1\n", passes.Spark42)
	if _, _, err := Emit(u, Options{}); err == nil || !strings.Contains(err.Error(), `cannot lower flow "st": expectation "pos" as a filter`) {
		t.Errorf("a drop expectation on an AUTO CDC target: %v", err)
	}
}
