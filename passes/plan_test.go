package passes

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nordisk/thund/ir"
)

// stagesOf renders a flow's stages as "s0 fused scan,filter; s1 aggregate<-0".
func stagesOf(u *Unit, f *ir.Flow) string {
	var parts []string
	for _, st := range u.Flows[f].Stages {
		s := fmt.Sprintf("s%d", st.ID)
		if st.Fused {
			s += " fused"
		}
		s += " " + strings.Join(st.Ops, ",")
		for _, in := range st.Inputs {
			s += fmt.Sprintf("<-%d", in)
		}
		for _, in := range st.Subqueries {
			s += fmt.Sprintf("<~%d", in)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

func TestFuse(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(b *pb) *ir.Flow
		want  string
	}{
		{"one chain", func(b *pb) *ir.Flow {
			_, f := b.mv("m", sel(where(scan("bids"), gt(c("price"), i("1"))), "auction"))
			return f
		}, "s0 fused scan,filter,project"},
		{"aggregate splits chains", func(b *pb) *ir.Flow {
			_, f := b.mv("m", sel(where(groupBy(where(scan("bids"), gt(c("price"), i("1"))), items("auction"), as(countStar(), "n")), gt(c("n"), i("2"))), "auction"))
			return f
		}, "s0 fused scan,filter; s1 aggregate<-0; s2 fused filter,project<-1"},
		{"join of two chains", func(b *pb) *ir.Flow {
			b.source("auctions", false, nil, "id int64 not null", "seller string")
			_, f := b.mv("m", sel(join(ir.JoinInner, where(scan("bids"), gt(c("price"), i("1"))), scan("auctions"), eq(c("auction"), c("id"))), "seller", "price"))
			return f
		}, "s0 fused scan,filter; s1 fused scan; s2 join<-0<-1; s3 fused project<-2"},
		{"window, aggregate and expectations", func(b *pb) *ir.Flow {
			d, f := b.st("w", groupBy(tumble(stream("bids"), c("date_time"), "1m"), items("window_start"), as(countStar(), "n")))
			d.Expectations = []*ir.Expectation{{Pos: at(), Name: "e", Cond: gt(c("n"), i("0"))}}
			return f
		}, "s0 fused scan; s1 window<-0; s2 aggregate<-1; s3 fused expect<-2"},
		{"stateful chain: distinct, sort, limit", func(b *pb) *ir.Flow {
			_, f := b.mv("m", &ir.Limit{Pos: at(), N: 3, Input: orderBy(&ir.Distinct{Pos: at(), Input: sel(scan("bids"), "auction")}, c("auction"))})
			return f
		}, "s0 fused scan,project; s1 distinct<-0; s2 sort<-1; s3 limit<-2"},
		{"union and subquery alias", func(b *pb) *ir.Flow {
			_, f := b.mv("m", sel(&ir.SubqueryRel{Pos: at(), Alias: "u", Input: &ir.Union{Pos: at(), All: true, Inputs: []ir.Rel{sel(scan("bids"), "auction"), sel(&ir.Range{Pos: at(), End: 3}, "id")}}}, "u.auction"))
			return f
		}, "s0 fused scan,project; s1 fused range,project; s2 union<-0<-1; s3 fused subquery,project<-2"},
		{"subquery stages come first", func(b *pb) *ir.Flow {
			sub := &ir.ScalarSubquery{Pos: at(), Query: groupBy(scan("bids"), nil, call("max", c("price")))}
			_, f := b.mv("m", sel(where(scan("bids"), eq(c("price"), sub)), "auction"))
			return f
		}, "s0 fused scan; s1 aggregate<-0; s2 fused scan,filter,project<~1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newPipeline("p")
			bids(b)
			f := tc.build(b)
			u := mustRun(t, b.p, Options{})
			if got := stagesOf(u, f); got != tc.want {
				t.Errorf("stages\n\tgot  %s\n\twant %s", got, tc.want)
			}
		})
	}
}

// TestExpectationsLeaveStagesOnSpark: a target that drops warn
// expectations does not check them in a stage.
func TestExpectationsLeaveStagesOnSpark(t *testing.T) {
	b := newPipeline("p")
	bids(b)
	d, f := b.mv("m", scan("bids"))
	d.Format = "parquet" // sent as written: no report entry
	d.Expectations = []*ir.Expectation{{Pos: at(), Name: "e", Cond: gt(c("price"), i("0"))}}
	u := mustRun(t, b.p, Options{Target: Spark41})
	if got := stagesOf(u, f); got != "s0 fused scan" {
		t.Errorf("stages: %s", got)
	}
	if e := u.Report.Entries; len(e) != 1 || e[0].Knob != "expectation" || e[0].Action != ActionDropped {
		t.Errorf("report: %+v", e)
	}
}

func TestFlowInfo(t *testing.T) {
	b := newPipeline("p")
	bids(b)
	b.source("auctions", false, nil, "id int64 not null", "seller string")
	_, fBatch := b.mv("m", sel(join(ir.JoinLeft, scan("bids"), scan("auctions"), eq(c("auction"), c("id"))), "seller", "price"))
	_, fAppend := b.st("s", sel(stream("bids"), "auction", "date_time"))
	_, fUpdate := b.st("u", groupBy(stream("bids"), items("auction"), countStar()))
	fUpdate.Emit = ir.EmitOnUpdate
	// two streams: the flow's watermark is the minimum of both
	r2 := stream("s")
	r2.Watermark = wm("date_time", "1m")
	_, fTwo := b.st("two", &ir.Union{Pos: at(), All: true, Inputs: []ir.Rel{sel(stream("bids"), "auction", "date_time"), r2}})
	u := mustRun(t, b.p, Options{StopAfter: "fuse"}) // the native plan refuses fUpdate (unwindowed)

	check := func(f *ir.Flow, bounded bool, em Emission, wms string) {
		t.Helper()
		fi := u.Flows[f]
		var got []string
		for _, in := range fi.Watermarks() {
			got = append(got, in.Name+"."+in.Watermark.Column+"-"+in.Watermark.Delay.String()+"/"+in.WMOrigin)
		}
		if fi.Bounded != bounded || fi.Emission != em || strings.Join(got, ",") != wms {
			t.Errorf("flow %s: bounded %v emission %s watermarks %v; want %v %s %s", f.Name, fi.Bounded, fi.Emission, got, bounded, em, wms)
		}
	}
	check(fBatch, true, EmissionBatch, "")
	check(fAppend, false, EmissionAppend, "bids.date_time-5s/source")
	check(fUpdate, false, EmissionUpdate, "bids.date_time-5s/source")
	check(fTwo, false, EmissionAppend, "bids.date_time-5s/source,s.date_time-1m/read")

	// s carries bids' watermark through: date_time passes unchanged.
	if w := u.Watermarks[u.Pipeline.LookupDataset("s")]; w == nil || w.Column != "date_time" || w.Delay != mustDur("5s") {
		t.Errorf("derived watermark of s: %+v", w)
	}
	// the left join makes the right side nullable
	if got := u.Flows[fBatch].Output[0]; !got.Nullable {
		t.Errorf("seller after a left join: %v", got)
	}
}

func TestDerivedWatermarkTakesLargestDelay(t *testing.T) {
	b := newPipeline("p")
	bids(b)
	b.source("asks", true, wm("date_time", "30s"), "auction int64 not null", "date_time timestamp(ms) not null")
	b.st("both", &ir.Union{Pos: at(), All: true, Inputs: []ir.Rel{sel(stream("bids"), "auction", "date_time"), stream("asks")}})
	b.st("w", groupBy(tumble(stream("both"), c("date_time"), "1m"), items("window_start"), countStar()))
	u := mustRun(t, b.p, Options{})
	if w := u.Watermarks[u.lookup("both")]; w == nil || w.Delay != mustDur("30s") {
		t.Errorf("derived watermark of both: %+v", w)
	}
}

func TestDerivedWatermarkNeedsPassThrough(t *testing.T) {
	b := newPipeline("p")
	bids(b)
	b.st("s", sel(stream("bids"), "auction", as(cast(c("date_time"), "timestamp(us)"), "t")))
	b.st("w", groupBy(tumble(stream("s"), c("t"), "1m"), items("window_start"), countStar()))
	u := run(t, b.p, Options{})
	if len(u.Diags) != 1 || u.Diags[0].Code != ir.CodeNoWatermark {
		t.Errorf("want window-without-watermark, got:\n%s", u.Diags.Error())
	}
}

func TestLoweringReport(t *testing.T) {
	b := newPipeline("p")
	src := b.source("raw", true, nil, "id uint32", "at timestamp(ns)", "v int64")
	src.Watermark = wm("at", "5s")
	src.Watermark.IdleTimeout = mustDur("1m")
	r := stream("raw")
	r.Bounds = &ir.EdgeBounds{Pos: at(), Rows: 1000}
	_, f := b.st("s", sel(r, "id", "at", "v"))
	f.OutputMode = ir.OutputUpdate // stateless: dropped, not refused
	f.Trigger = &ir.Trigger{Pos: at(), Kind: ir.TriggerAvailableNow}

	u := mustRun(t, b.p, Options{Target: Spark41})
	var got []string
	for _, e := range u.Report.Entries {
		got = append(got, e.Dataset+"/"+e.Flow+" "+e.Knob+" "+string(e.Action))
	}
	want := []string{
		"raw/ unsigned ints converted",
		"raw/ nanosecond precision converted",
		"raw/ idle timeout dropped",
		"s/s output mode update dropped",
		"s/ unsigned ints converted",
		"s/ nanosecond precision converted",
		"s/ format dropped", // no format is sent: Spark writes its default
		"s/s edge bounds dropped",
		"s/s trigger dropped",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("report entries:\n\tgot  %q\n\twant %q", got, want)
	}
	js, err := json.Marshal(u.Report)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`"target":"spark-4.1"`, `"knob":"edge bounds"`, `"action":"dropped"`, `"pos":"t.thund:`} {
		if !strings.Contains(string(js), w) {
			t.Errorf("report JSON lacks %s:\n%s", w, js)
		}
	}
	// native runs all of it, but publishes s as plain Parquet: Iceberg
	// holds neither uint32 nor timestamp(ns) (tableformat.go)
	u = run(t, b.p, Options{Target: Native})
	if e := u.Report.Entries; len(e) != 1 || e[0].Dataset != "s" || e[0].Knob != "format" || e[0].Action != ActionDropped {
		t.Errorf("native report: %+v", u.Report.Entries)
	}
	if u.Diags.HasErrors() || len(u.Diags) != 2 || u.Diags[0].Code != ir.CodeIcebergType || u.Diags[1].Code != ir.CodeIcebergType {
		t.Errorf("native: want two iceberg-type warnings, got:\n%s", u.Diags.Error())
	}
	if u.IcebergTable("s") {
		t.Errorf("native: s is published as an Iceberg table")
	}
}

func TestSchemasAndBindings(t *testing.T) {
	b := newPipeline("p")
	b.source("l", false, nil, "k int32 not null", "a string")
	b.source("r", false, nil, "k int64 not null", "b string")
	j := join(ir.JoinRight, scan("l"), scan("r"), nil, "k")
	lk := c("l.k")
	p := sel(j, star(), as(lk, "lk"))
	_, f := b.mv("m", p)
	u := mustRun(t, b.p, Options{})
	var names []string
	for _, fl := range u.Schemas[j] {
		s := fl.Qualifier + "." + fl.String()
		if fl.Hidden {
			s += " (hidden)"
		}
		names = append(names, s)
	}
	want := []string{".k int64 not null", "l.a string", "r.b string", "l.k int32 (hidden)", "r.k int64 not null (hidden)"}
	if !slices.Equal(names, want) {
		t.Errorf("using join schema:\n\tgot  %q\n\twant %q", names, want)
	}
	if info := u.Joins[j]; !slices.Equal(info.LeftKeys, []int{0}) || info.Output[0] != (JoinCol{Left: -1, Right: 0}) {
		t.Errorf("join info: %+v", info)
	}
	if b := u.Refs[lk]; b.Rel != j || b.Index != 3 {
		t.Errorf("l.k binds to %+v", b)
	}
	if got := strings.Join(u.Flows[f].Output.Names(), ","); got != "k,a,b,lk" {
		t.Errorf("output %s", got)
	}
	if cols := u.Projections[p]; len(cols) != 4 || cols[0].InputIndex != 0 || cols[3].InputIndex != -1 {
		t.Errorf("projection: %+v", cols)
	}
}
