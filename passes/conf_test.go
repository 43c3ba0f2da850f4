package passes

import (
	"os"
	"strings"
	"testing"

	"github.com/nordisk/thund/frontend/dsl"
	"github.com/nordisk/thund/ir"
)

// confUnit runs the passes over a DSL pipeline on a target.
func confUnit(t *testing.T, target Target, src string) *Unit {
	t.Helper()
	p, diags := dsl.Parse("p.thund", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("parse:\n%v", diags)
	}
	u, _ := Run(p, Options{Target: target})
	return u
}

func diagTexts(u *Unit) string {
	var out []string
	for _, d := range u.Diags {
		out = append(out, d.Error())
	}
	return strings.Join(out, "\n")
}

// TestValidZone holds the zone check to Spark's getZoneId (what Spark
// 4.1.4 accepts for spark.sql.session.timeZone, and what it refuses with
// INVALID_CONF_VALUE.TIME_ZONE).
func TestValidZone(t *testing.T) {
	for _, z := range []string{"UTC", "GMT", "UT", "Z", "America/New_York", "Europe/Paris", "Asia/Kolkata", "Etc/UTC",
		"US/Eastern", "EST", "PST", "+05:30", "-08:00", "+5:30", "+05", "+5", "+0530", "+05:30:15", "UTC+01:00", "GMT-8", "UT+3",
		"+18:00", "-18"} {
		if !ValidZone(z) {
			t.Errorf("ValidZone(%q) = false, Spark accepts it", z)
		}
	}
	for _, z := range []string{"Foo/Bar", "", "america/new_york", "Local", "+19:00", "+18:01", "+5:3:", "UTC+", "New York", "../etc/passwd", "/etc/localtime", "+05:60"} {
		if ValidZone(z) {
			t.Errorf("ValidZone(%q) = true, Spark refuses it", z)
		}
	}
}

// TestSessionLayers checks which zone each flow runs under: the pipeline's,
// overridden by its target's own-flow conf, overridden by its own, plus the
// conf of the views it reads; and that a conflict with a view's conf is
// Spark's DUPLICATE_FLOW_SQL_CONF on every target.
func TestSessionLayers(t *testing.T) {
	src := `pipeline p
set "spark.sql.session.timeZone" = "America/New_York"

source s from csv "s.csv" { x int64 }

materialized view base = from s | select x

temporary view paris_view
  set "spark.sql.session.timeZone" = "Europe/Paris"
  = from base | select x

materialized view inherits = from base | select x

materialized view own
  set "spark.sql.session.timeZone" = "+05:30"
  = from base | select x

materialized view through_view = from paris_view | select x

streaming table st (x int64)
  set "spark.sql.session.timeZone" = "Asia/Tokyo"

flow f1 into st = from stream s | select x
  set "spark.sql.session.timeZone" = "UTC"
`
	for _, target := range Targets() {
		u := confUnit(t, target, src)
		want := map[string]string{
			"base": "America/New_York", "paris_view": "Europe/Paris", "inherits": "America/New_York",
			"own": "+05:30", "f1": "UTC",
		}
		for _, f := range u.Pipeline.Flows {
			if w, ok := want[f.Name]; ok && u.Sessions[f].Zone != w {
				t.Errorf("%s: flow %s runs in %q, want %q", target, f.Name, u.Sessions[f].Zone, w)
			}
		}
		got := diagTexts(u)
		for _, want := range []string{
			`p.thund:18:39: [DUPLICATE_FLOW_SQL_CONF] Found duplicate sql conf for dataset 'through_view': 'spark.sql.session.timeZone' is defined by both 'through_view' and 'paris_view' ("America/New_York" and "Europe/Paris")`,
			// a source is a view on Spark, which takes the pipeline's conf
			`p.thund:23:24: [DUPLICATE_FLOW_SQL_CONF] Found duplicate sql conf for dataset 'st': 'spark.sql.session.timeZone' is defined by both 'f1' and 's' ("UTC" and "America/New_York")`,
		} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: missing %s in\n%s", target, want, got)
			}
		}
	}
}

// TestConfDropped checks that a dataset's conf with no flow of its own to
// apply to is reported as dropped on every target, not ignored.
func TestConfDropped(t *testing.T) {
	src := `pipeline p
source s from csv "s.csv" { x int64 }
streaming table st (x int64)
  set "spark.sql.session.timeZone" = "Asia/Tokyo"
flow f1 into st = from stream s | select x
`
	for _, target := range Targets() {
		u := confUnit(t, target, src)
		if u.Diags.HasErrors() {
			t.Fatalf("%s: %s", target, diagTexts(u))
		}
		if u.Sessions[u.Pipeline.Flows[0]].Zone != "" {
			t.Errorf("%s: f1 runs in %q, want UTC", target, u.Sessions[u.Pipeline.Flows[0]].Zone)
		}
		var dropped bool
		for _, e := range u.Report.Entries {
			dropped = dropped || e.Dataset == "st" && e.Knob == "conf spark.sql.session.timeZone" && e.Action == ActionDropped
		}
		if !dropped {
			t.Errorf("%s: the report does not say st's conf is dropped: %v", target, u.Report.Entries)
		}
	}
}

// TestConfErrors checks Spark's refusals of conf values, on every target.
func TestConfErrors(t *testing.T) {
	src := `pipeline p
set "spark.sql.session.timeZone" = "Mars/Olympus"
set "spark.sql.ansi.enabled" = "maybe"
source s from csv "s.csv" { x int64 }
materialized view m = from s | select x
`
	for _, target := range Targets() {
		got := diagTexts(confUnit(t, target, src))
		for _, want := range []string{
			`p.thund:2:5: [INVALID_CONF_VALUE.TIME_ZONE] The value 'Mars/Olympus' in the config "spark.sql.session.timeZone" is invalid. Cannot resolve the given timezone`,
			`p.thund:3:5: [INVALID_CONF_VALUE.TYPE_MISMATCH] The value 'maybe' in the config "spark.sql.ansi.enabled" is invalid. It should be a/an 'boolean' value`,
		} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: missing %q in\n%s", target, want, got)
			}
		}
	}
}

// TestConfWarnings checks that an unknown spark.sql.* conf is a positioned
// warning natively (and a dropped knob in the report), and neither on a
// Spark target, which carries it; known ones and other keys are silent.
func TestConfWarnings(t *testing.T) {
	src := `pipeline p
set "spark.sql.shuffle.partitions" = "8"
set "spark.sql.adaptive.coalescePartitions.enabled" = "false"
set "spark.sql.legacy.timeParserPolicy" = "LEGACY"
set "pipelines.trigger.interval" = "1 minute"
source s from csv "s.csv" { x int64 }
materialized view m format parquet = from s | select x
`
	u := confUnit(t, Native, src)
	if u.Diags.HasErrors() || len(u.Diags) != 1 || u.Diags[0].Severity != ir.Warning ||
		!strings.HasPrefix(u.Diags[0].Error(), "p.thund:4:5: warning: native backend: conf spark.sql.legacy.timeParserPolicy is not one the native backend knows") {
		t.Errorf("native: want one warning at 4:5, got:\n%s", diagTexts(u))
	}
	if n := len(u.Report.Entries); n != 1 || u.Report.Entries[0].Knob != "conf spark.sql.legacy.timeParserPolicy" {
		t.Errorf("native report: %v", u.Report.Entries)
	}
	for _, target := range []Target{Spark41, Spark42} {
		u := confUnit(t, target, src)
		if len(u.Diags) != 0 || len(u.Report.Entries) != 0 {
			t.Errorf("%s: want nothing, got %s %v", target, diagTexts(u), u.Report.Entries)
		}
	}
}

// TestShifts checks which conversions cross the session zone.
func TestShifts(t *testing.T) {
	ltz, ntz := ir.Timestamp(ir.Micro, "UTC"), ir.Timestamp(ir.Milli, "")
	ny := Session{Zone: "America/New_York"}
	for _, tc := range []struct {
		from, to ir.Type
		want     bool
	}{
		{ltz, ir.Date32, true}, {ir.Date32, ltz, true}, {ltz, ir.StringT, true}, {ir.StringT, ltz, true},
		{ltz, ntz, true}, {ntz, ltz, true}, {ltz, ir.Timestamp(ir.Nano, "Europe/Paris"), false},
		{ntz, ir.Date32, false}, {ir.StringT, ntz, false}, {ltz, ir.Int64, false}, {ir.Int64, ltz, false},
	} {
		if got := ny.Shifts(tc.from, tc.to); got != tc.want {
			t.Errorf("Shifts(%s, %s) = %v, want %v", tc.from, tc.to, got, tc.want)
		}
		for _, utc := range []string{"", "UTC", "Z", "+00:00"} {
			if (Session{Zone: utc}).Shifts(tc.from, tc.to) {
				t.Errorf("under %q, Shifts(%s, %s) is true", utc, tc.from, tc.to)
			}
		}
	}
}

// TestConfDocs checks docs/sql.md's table of confs against SQLConfs, the
// table the passes read.
func TestConfDocs(t *testing.T) {
	data, err := os.ReadFile("../docs/sql.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	const begin, end = "<!-- confs: generated from passes.SQLConfs -->\n", "<!-- end of confs -->"
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("docs/sql.md has no conf table between %q and %q", begin, end)
	}
	if got, want := doc[i+len(begin):j], ConfTableMarkdown(); got != want {
		t.Errorf("docs/sql.md's conf table is stale; want:\n%s", want)
	}
}
