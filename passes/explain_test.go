package passes

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/ir"
)

// clicks is the pipeline of testdata/scripts/explain_plan.txtar, built with
// the ir API, plus a windowed aggregate with expectations and knobs Spark
// treats differently.
func clicks() *ir.Pipeline {
	nextLine = 0
	b := newPipeline("clicks")
	b.source("clicks", true, wm("at", "5s"), "user_id int64 not null", "url string", "at timestamp(ms)")
	users := b.source("users", false, nil, "user_id int64 not null", "country string")
	users.Source.Format = ir.FormatCSV
	b.st("clean_clicks", sel(where(stream("clicks"), &ir.IsNull{Pos: at(), X: c("url"), Not: true}),
		"user_id", as(call("lower", c("url")), "url"), "at"))
	_, f := b.st("clicks_per_minute", groupBy(tumble(stream("clean_clicks"), c("at"), "1m"),
		items("window_start", "window_end"), as(countStar(), "clicks")))
	f.Emit = ir.EmitOnWindowClose
	b.mv("clicks_by_country", &ir.Sort{Pos: at(), Input: groupBy(
		join(ir.JoinInner, aliased(scan("clean_clicks"), "c"), aliased(scan("users"), "u"), nil, "user_id"),
		items("country"), as(countStar(), "clicks")),
		Keys: []*ir.SortKey{{Pos: at(), Expr: c("clicks"), Desc: true}}})

	// a windowed aggregate with an expectation, allowed lateness and a trigger
	w := wm("at", "10s")
	w.AllowedLateness = mustDur("30s")
	read := stream("clicks")
	read.Watermark = w
	d, f2 := b.st("busy_users", where(
		groupBy(tumble(read, c("at"), "5m"), items("user_id", "window_start"), as(countStar(), "n")),
		gt(c("n"), i("10"))))
	d.Expectations = []*ir.Expectation{{Pos: at(), Name: "positive", Cond: gt(c("n"), i("0")), Action: ir.ActDrop}}
	f2.Trigger = &ir.Trigger{Pos: at(), Kind: ir.TriggerEvery, Interval: mustDur("1m")}
	return b.p
}

func TestExplainGolden(t *testing.T) {
	for _, tc := range []struct {
		file string
		opts Options
		json bool
	}{
		{"explain_native.txt", Options{}, false},
		{"explain_native.json", Options{}, true},
		{"explain_spark41.txt", Options{Target: Spark41, StopAfter: "sanity"}, false},
		{"explain_spark42.txt", Options{Target: Spark42}, false},
		{"explain_validate.txt", Options{StopAfter: "validate"}, false},
		{"explain_resolve.json", Options{StopAfter: "resolve"}, true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			u := run(t, clicks(), tc.opts)
			var got []byte
			if len(u.Diags) > 0 {
				got = []byte("# diagnostics\n" + u.Diags.Error() + "\n# plan\n")
			}
			if tc.json {
				var buf bytes.Buffer
				enc := json.NewEncoder(&buf)
				enc.SetIndent("", "  ")
				if err := enc.Encode(u.ExplainJSON()); err != nil {
					t.Fatal(err)
				}
				got = append(got, buf.Bytes()...)
			} else {
				got = append(got, u.ExplainText()...)
			}
			golden(t, tc.file, got)
		})
	}
}

// golden compares got with testdata/NAME, or rewrites it with -update
// (THUNDC_UPDATE=1).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if testenv.Update() {
		if err := os.MkdirAll("testdata", 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run with -update to accept):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestExplainDeterministic(t *testing.T) {
	a := run(t, clicks(), Options{Target: Spark42}).ExplainText()
	for range 5 {
		if b := run(t, clicks(), Options{Target: Spark42}).ExplainText(); a != b {
			t.Fatalf("explain differs between runs:\n%s\n---\n%s", a, b)
		}
	}
}
