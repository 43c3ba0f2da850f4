package sparkemit

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nordisk/thund/passes"
	pb "github.com/nordisk/thund/sparkemit/connectpb"
)

// flowRelation returns the relation of the named flow's DefineFlow.
func flowRelation(t *testing.T, b Bundle, flow string) *pb.Relation {
	t.Helper()
	for _, r := range b.Requests {
		if df := PipelineCommandOf(r).GetDefineFlow(); df != nil && df.GetFlowName() == flow {
			return df.GetRelationFlowDetails().GetRelation()
		}
	}
	t.Fatalf("no DefineFlow %s", flow)
	return nil
}

// TestWindowedAggregate: grouping by window_start / window_end groups by
// Spark's window() (or session_window()) itself, over the watermarked
// stream read of the source's view, and a projection restores the aggregate's column order.
func TestWindowedAggregate(t *testing.T) {
	u := compileFile(t, "testdata/windows.thund", passes.Spark41)
	b, _, err := Emit(u, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		flow, fn string
		args     int
		cols     []string
	}{
		{"bids_per_window", "window", 2, []string{"auction", "window_start", "window_end", "bids", "top"}},
		{"hot_items", "window", 3, []string{"auction", "window_start", "num"}},
		{"bidder_sessions", "session_window", 2, []string{"bidder", "window_start", "window_end", "bids", "spent"}},
	} {
		rel := flowRelation(t, b, c.flow)
		proj := rel.GetProject()
		if proj == nil {
			t.Fatalf("%s: top is %T, want a projection", c.flow, rel.RelType)
		}
		var names []string
		for _, e := range proj.Expressions {
			if a := e.GetAlias(); a != nil {
				names = append(names, a.Name[0])
			} else {
				names = append(names, e.GetUnresolvedAttribute().GetUnparsedIdentifier())
			}
		}
		if strings.Join(names, ",") != strings.Join(c.cols, ",") {
			t.Errorf("%s: columns %v, want %v", c.flow, names, c.cols)
		}
		agg := proj.Input.GetAggregate()
		if agg == nil {
			t.Fatalf("%s: no aggregate under the projection", c.flow)
		}
		last := agg.GroupingExpressions[len(agg.GroupingExpressions)-1].GetAlias()
		fn := last.GetExpr().GetUnresolvedFunction()
		if last.GetName()[0] != windowColumn || fn.GetFunctionName() != c.fn || len(fn.Arguments) != c.args {
			t.Errorf("%s: last grouping key %v, want %s(...) with %d arguments", c.flow, last, c.fn, c.args)
		}
		if rd := agg.Input.GetRead(); rd.GetNamedTable().GetUnparsedIdentifier() != "bids" || !rd.IsStreaming {
			t.Errorf("%s: aggregate input %v, want a stream read of bids", c.flow, agg.Input)
		}
	}
	// The source's declared watermark is its temporary view's: Spark cannot
	// declare one over a read of a graph dataset (GraphReadWatermarks).
	wm := flowRelation(t, b, "bids").GetWithWatermark()
	if wm == nil || wm.EventTime != "date_time" || wm.DelayThreshold != "15 seconds" || !wm.Input.GetRead().IsStreaming || wm.Input.GetRead().GetDataSource() == nil {
		t.Errorf("source bids: %v, want WithWatermark(date_time, 15 seconds) over a stream of its files", flowRelation(t, b, "bids"))
	}
}

// TestWindowColumns: a window whose columns are used other than as group
// by keys becomes window() into a struct column, then window_start and
// window_end beside the input's columns (and no struct column).
func TestWindowColumns(t *testing.T) {
	u := compileSrc(t, "w.thund", `pipeline w
source s stream from parquet "s/*.parquet" {
  k int64, t timestamp(us, "UTC")
  watermark t delay 5s
}
streaming table tagged = from stream s | window hop(t, 10s, 5s) | select k, window_start, window_end
`, passes.Spark42)
	b, _, err := Emit(u, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sel := flowRelation(t, b, "tagged").GetProject()
	split := sel.GetInput().GetProject()
	withStruct := split.GetInput().GetProject()
	if sel == nil || split == nil || withStruct == nil {
		t.Fatalf("want select over split over struct projections, got %v", flowRelation(t, b, "tagged"))
	}
	var names []string
	for _, e := range split.Expressions {
		if a := e.GetAlias(); a != nil {
			names = append(names, a.Name[0]+"="+a.Expr.GetUnresolvedAttribute().GetUnparsedIdentifier())
		} else {
			names = append(names, e.GetUnresolvedAttribute().GetUnparsedIdentifier())
		}
	}
	if got := strings.Join(names, ","); got != "s.k,s.t,window_start=__thund_window.start,window_end=__thund_window.end" {
		t.Errorf("split columns %s", got)
	}
	fn := withStruct.Expressions[1].GetAlias().GetExpr().GetUnresolvedFunction()
	if withStruct.Expressions[0].GetUnresolvedStar() == nil || fn.GetFunctionName() != "window" || len(fn.Arguments) != 3 {
		t.Errorf("struct projection %v", withStruct)
	}
}

// TestOnceFlowAndSink: a once flow sets DefineFlow.once; a sink is a SINK
// output with its format and options; a standalone flow keeps its own name.
func TestOnceFlowAndSink(t *testing.T) {
	u := compileSrc(t, "o.thund", `pipeline o
source s from parquet "s/*.parquet" { k int64 }
source f stream from parquet "f/*.parquet" { k int64 }
streaming table st
flow backfill into st once = from s
flow live into st = from stream f
sink out format jsonl options ("path" = "/out")
flow to_out into out = from stream f
`, passes.Spark41)
	b, _, err := Emit(u, Options{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range b.Requests {
		c := PipelineCommandOf(r)
		if df := c.GetDefineFlow(); df != nil {
			seen["flow "+df.GetFlowName()] = true
			if (df.GetFlowName() == "backfill") != df.GetOnce() {
				t.Errorf("flow %s: once = %v", df.GetFlowName(), df.GetOnce())
			}
		}
		if do := c.GetDefineOutput(); do != nil && do.GetOutputName() == "out" {
			sd := do.GetSinkDetails()
			if do.GetOutputType() != pb.OutputType_SINK || sd.GetFormat() != "json" || sd.GetOptions()["path"] != "/out" {
				t.Errorf("sink: %v", do)
			}
			seen["sink"] = true
		}
	}
	for _, w := range []string{"flow backfill", "flow live", "flow to_out", "sink"} {
		if !seen[w] {
			t.Errorf("no %s in the bundle", w)
		}
	}
}

// subqueryRefs checks that every SubqueryExpression under rel names a
// reference of the nearest WithRelations above it (and none of another
// one), and returns the plan ids of rel's references, in order, and of
// the subquery expressions directly in its queries, by type.
func subqueryRefs(t *testing.T, rel *pb.Relation, seen map[int64]bool) (refs []int64, exprs map[pb.SubqueryExpression_SubqueryType][]int64) {
	t.Helper()
	exprs = map[pb.SubqueryExpression_SubqueryType][]int64{}
	wr := rel.GetWithRelations()
	if wr == nil {
		t.Fatalf("top is %T, want a WithRelations", rel.RelType)
	}
	ids := map[int64]bool{}
	for _, r := range wr.References {
		id := r.GetCommon().GetPlanId()
		if r.GetCommon() == nil || r.Common.PlanId == nil {
			t.Errorf("a reference without a plan id: %v", r)
		}
		if seen[id] {
			t.Errorf("plan id %d given twice in the bundle", id)
		}
		seen[id], ids[id] = true, true
		refs = append(refs, id)
	}
	// Walk root and each reference: a nested WithRelations is checked on
	// its own; a subquery expression in root must name one of ids, and
	// one in a reference outside a WithRelations of its own names nothing
	// Spark could resolve (its planner does not look into references).
	var walk func(m protoreflect.Message, allowed map[int64]bool)
	walk = func(m protoreflect.Message, allowed map[int64]bool) {
		if r, ok := m.Interface().(*pb.Relation); ok && r.GetWithRelations() != nil {
			subqueryRefs(t, r, seen)
			return
		}
		if sq, ok := m.Interface().(*pb.SubqueryExpression); ok {
			if !allowed[sq.PlanId] {
				t.Errorf("subquery expression names plan id %d, not a reference of its WithRelations %v", sq.PlanId, refs)
			}
			exprs[sq.SubqueryType] = append(exprs[sq.SubqueryType], sq.PlanId)
		}
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.IsList() && fd.Message() != nil:
				for i := 0; i < v.List().Len(); i++ {
					walk(v.List().Get(i).Message(), allowed)
				}
			case fd.Message() != nil && !fd.IsMap():
				walk(v.Message(), allowed)
			}
			return true
		})
	}
	walk(wr.Root.ProtoReflect(), ids)
	for _, r := range wr.References {
		walk(r.ProtoReflect(), nil)
	}
	return refs, exprs
}

// TestSubqueries: a flow whose query holds subquery expressions is a
// WithRelations at its root, whose references carry plan ids unique in the
// bundle, each named by one SubqueryExpression; a subquery in a subquery's
// query has a WithRelations of its own. An IN subquery in a filter is
// Spark's own; in a projection, where its NULL is observable, it is the
// CASE form with its EXISTS subqueries, unless neither side can be NULL.
func TestSubqueries(t *testing.T) {
	for _, target := range []passes.Target{passes.Spark41, passes.Spark42} {
		u := compileFile(t, "testdata/subqueries.thund", target)
		b, _, err := Emit(u, Options{})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int64]bool{}

		// above: a scalar and an IN subquery in one filter, its own form.
		refs, exprs := subqueryRefs(t, flowRelation(t, b, "above"), seen)
		if len(refs) != 2 || len(exprs[pb.SubqueryExpression_SUBQUERY_TYPE_SCALAR]) != 1 || len(exprs[pb.SubqueryExpression_SUBQUERY_TYPE_IN]) != 1 {
			t.Errorf("above: references %v, subqueries %v", refs, exprs)
		}
		in := flowRelation(t, b, "above").GetWithRelations().Root.GetFilter().Condition.GetUnresolvedFunction().Arguments[1].GetSubqueryExpression()
		if len(in.GetInSubqueryValues()) != 1 || in.InSubqueryValues[0].GetUnresolvedAttribute().GetUnparsedIdentifier() != "k" {
			t.Errorf("above: the IN subquery is %v, want k IN (query)", in)
		}

		// membership: NOT IN over nullable sides is not(CASE ...) with an
		// IN and two EXISTS subqueries; IN over non-nullable sides stays IN.
		rel := flowRelation(t, b, "membership")
		refs, exprs = subqueryRefs(t, rel, seen)
		if len(refs) != 4 || len(exprs[pb.SubqueryExpression_SUBQUERY_TYPE_IN]) != 2 || len(exprs[pb.SubqueryExpression_SUBQUERY_TYPE_EXISTS]) != 2 {
			t.Errorf("membership: references %v, subqueries %v", refs, exprs)
		}
		items := rel.GetWithRelations().Root.GetProject().Expressions
		notAllowed := items[1].GetAlias().GetExpr().GetUnresolvedFunction()
		if notAllowed.GetFunctionName() != "not" || notAllowed.Arguments[0].GetUnresolvedFunction().GetFunctionName() != "when" || len(notAllowed.Arguments[0].GetUnresolvedFunction().Arguments) != 5 {
			t.Errorf("membership: not_allowed is %v, want not(when(in, true, unknown, null, false))", notAllowed)
		}
		if known := items[2].GetAlias().GetExpr().GetSubqueryExpression(); known.GetSubqueryType() != pb.SubqueryExpression_SUBQUERY_TYPE_IN {
			t.Errorf("membership: known is %v, want a plain IN subquery (neither side is nullable)", items[2])
		}

		// nested: the IN subquery's query holds a scalar subquery, carried
		// by a WithRelations of its own inside the reference.
		refs, _ = subqueryRefs(t, flowRelation(t, b, "nested"), seen)
		ref := flowRelation(t, b, "nested").GetWithRelations().References[0]
		if len(refs) != 1 || ref.GetWithRelations() == nil {
			t.Errorf("nested: references %v, the first is %T, want a WithRelations", refs, ref.GetRelType())
		}

		// latest: a correlated subquery names the enclosing query's column
		// by name; <> is not(==), as Spark has no function "!=".
		subqueryRefs(t, flowRelation(t, b, "latest"), seen)
		text := flowRelation(t, b, "latest").String()
		if !strings.Contains(text, `"o.k"`) {
			t.Errorf("latest: no reference to o.k:\n%s", text)
		}
		for _, r := range b.Requests {
			raw, _ := proto.Marshal(r)
			if strings.Contains(string(raw), "!=") {
				t.Errorf("%s sends a function named != (Spark has none)", Describe(r))
			}
		}
	}
}

// TestObservableInsReported: sent as SQL files, which Spark plans itself,
// an IN subquery whose NULL is observable is reported, being two-valued in
// Spark's plan; those in a filter's AND / OR, or over sides that cannot be
// NULL, are not.
func TestObservableInsReported(t *testing.T) {
	u := compileFile(t, "testdata/subqueries.thund", passes.Spark41)
	_, rep, err := Emit(u, Options{SQLFiles: []SQLFile{{Path: "p.sql", Text: "-- the pipeline's SQL"}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range rep.Entries {
		if e.Knob == "in subquery" {
			got = append(got, e.Flow+"@"+e.Pos.String())
			if e.Action != passes.ActionConverted || !strings.Contains(e.Reason, "SPARK-58442") {
				t.Errorf("entry %v", e)
			}
		}
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "membership@testdata/subqueries.thund:10:") {
		t.Errorf("reported IN subqueries %v, want membership's not_allowed only", got)
	}
}

// TestConformanceLowerings pins lowerings the Spark lane's conformance run
// (conformance/spark_test.go) found wrong on 4.1.4 and 4.2.1.
func TestConformanceLowerings(t *testing.T) {
	u := compileSrc(t, "c.thund", `pipeline c
source s from csv "s.csv" { k int64, v int32, d decimal(10,2), name string }
materialized view dist = from s | select k, name | distinct
materialized view ne = from s | select k <> 1 as x
materialized view wide (k int64, v int64, d decimal(20,4), name string) = from s | select k, v, d, name
materialized view neg = from s | select pmod(d, -2) as p, k * -3000000000 as l, -v as nv
`, passes.Spark41)
	b, rep, err := Emit(u, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// a batch DISTINCT is an aggregate grouped by every column (Spark
	// Connect analyzes a Deduplicate's input before the graph exists)
	agg := flowRelation(t, b, "dist").GetAggregate()
	if agg == nil || len(agg.GroupingExpressions) != 2 || len(agg.AggregateExpressions) != 0 {
		t.Errorf("batch distinct: %v, want an aggregate grouped by k and name", flowRelation(t, b, "dist"))
	}
	// <> is NOT (a == b): Spark's function registry has no "!="
	x := flowRelation(t, b, "ne").GetProject().Expressions[0].GetAlias().GetExpr().GetUnresolvedFunction()
	if x.GetFunctionName() != "not" || x.Arguments[0].GetUnresolvedFunction().GetFunctionName() != "==" {
		t.Errorf("<>: %v, want not(==)", x)
	}
	// a negated integer literal is one literal, as Spark's parser reads
	// -2 (and resolve types it): negative(2) is an INT expression, which
	// decimal arithmetic widens to DECIMAL(10,0), so pmod(d, negative(2))
	// was DECIMAL(10,2) on Spark where resolve says DECIMAL(3,2)
	negs := flowRelation(t, b, "neg").GetProject().Expressions
	if lit := negs[0].GetAlias().GetExpr().GetUnresolvedFunction().Arguments[1].GetLiteral(); lit == nil || lit.GetInteger() != -2 {
		t.Errorf("pmod(d, -2): second argument %v, want the INT literal -2", negs[0].GetAlias().GetExpr())
	}
	if lit := negs[1].GetAlias().GetExpr().GetUnresolvedFunction().Arguments[1].GetLiteral(); lit == nil || lit.GetLong() != -3000000000 {
		t.Errorf("k * -3000000000: second argument %v, want the BIGINT literal -3000000000", negs[1].GetAlias().GetExpr())
	}
	if f := negs[2].GetAlias().GetExpr().GetUnresolvedFunction(); f.GetFunctionName() != "negative" {
		t.Errorf("-v: %v, want negative(v)", negs[2].GetAlias().GetExpr())
	}
	// a declared schema: the flow casts the columns whose type differs
	// (Spark requires the flow's schema to equal the declared one)
	var casts []string
	for _, e := range flowRelation(t, b, "wide").GetProject().GetExpressions() {
		if c := e.GetAlias().GetExpr().GetCast(); c != nil {
			casts = append(casts, e.GetAlias().Name[0]+" "+c.GetTypeStr())
		}
	}
	if got := strings.Join(casts, ", "); got != "v BIGINT, d DECIMAL(20,4)" {
		t.Errorf("declared schema casts: %q, want v BIGINT, d DECIMAL(20,4)", got)
	}
	noted := 0
	for _, e := range rep.Entries {
		if e.Dataset == "wide" && e.Action == passes.ActionConverted {
			noted++
		}
	}
	if noted != 2 {
		t.Errorf("%d report entries for wide's casts, want 2", noted)
	}
	// CSV: quoted newlines, malformed records kept with NULLs (PERMISSIVE,
	// as natively), and a quoted empty string is not NULL
	var opts map[string]string
	for _, r := range b.Requests {
		if df := PipelineCommandOf(r).GetDefineFlow(); df != nil && df.GetFlowName() == "s" {
			opts = df.GetRelationFlowDetails().GetRelation().GetRead().GetDataSource().GetOptions()
		}
	}
	for k, v := range map[string]string{"header": "true", "multiLine": "true", "mode": "PERMISSIVE", "nullValue": sparkNullSentinel} {
		if opts[k] != v {
			t.Errorf("csv option %s = %q, want %q (all: %v)", k, opts[k], v, opts)
		}
	}
}

// TestPartitionsLastOrder: partition columns go last in PARTITIONED BY
// order (matched without case); nothing moves when they are last already
// or when one is not a column.
func TestPartitionsLastOrder(t *testing.T) {
	id := func(s string) string { return s }
	for _, c := range []struct {
		part, cols, want []string
		moved            bool
	}{
		{[]string{"Country", "day"}, []string{"id", "day", "country", "amount"}, []string{"id", "amount", "country", "day"}, true},
		{[]string{"day"}, []string{"id", "day"}, []string{"id", "day"}, false},
		{[]string{"nope"}, []string{"id", "day"}, []string{"id", "day"}, false},
	} {
		got, moved := partitionsLastOrder(c.part, c.cols, id)
		if moved != c.moved || strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%v of %v: %v %v, want %v %v", c.part, c.cols, got, moved, c.want, c.moved)
		}
	}
}

// TestAggFilterKeepsConstants: FILTER (WHERE c) wraps an aggregate's
// values in IF(c, x, NULL) and leaves its constant parameters as they are:
// Spark requires approx_count_distinct's relative standard deviation to be
// a literal and a percentile's percentage to fold (conformance view
// ag_hll_key failed to resolve on Spark 4.1.4 when both were wrapped).
func TestAggFilterKeepsConstants(t *testing.T) {
	u := compileSrc(t, "f.thund", `pipeline f
source s from csv "s.csv" { k int64, v int32, b bool }
materialized view agg = from s | group by k
  aggregate approx_count_distinct(v, 0.01) filter (where b) as a, percentile_approx(v, 0.5, 100) filter (where b) as p,
    max_by(v, k) filter (where b) as m
`, passes.Spark41)
	b, _, err := Emit(u, Options{})
	if err != nil {
		t.Fatal(err)
	}
	aggs := flowRelation(t, b, "agg").GetAggregate().GetAggregateExpressions()
	for i, c := range []struct {
		fn      string
		wrapped []bool
	}{
		{"approx_count_distinct", []bool{true, false}},
		{"percentile_approx", []bool{true, false, false}},
		{"max_by", []bool{true, true}},
	} {
		f := aggs[i].GetAlias().GetExpr().GetUnresolvedFunction()
		if f.GetFunctionName() != c.fn || len(f.Arguments) != len(c.wrapped) {
			t.Fatalf("aggregate %d: %v, want %s of %d arguments", i, f, c.fn, len(c.wrapped))
		}
		for j, w := range c.wrapped {
			if got := f.Arguments[j].GetUnresolvedFunction().GetFunctionName() == "if"; got != w {
				t.Errorf("%s argument %d: wrapped in if(...) %v, want %v (%v)", c.fn, j, got, w, f.Arguments[j])
			}
		}
	}
}

// TestKafkaLowering: a Kafka source is a Read.DataSource of Spark's Kafka
// connector (format kafka), streaming for a stream source and batch for a
// bounded one, with no schema and no paths, its options renamed for the
// connector (bootstrapServers is kafka.bootstrap.servers; any case) and
// kafka.isolation.level read_committed added; a Kafka sink is a SINK of
// format kafka with its options as written; the report names the connector
// and the sink's at-least-once delivery.
func TestKafkaLowering(t *testing.T) {
	u := compileSrc(t, "k.thund", `pipeline k
source live stream from kafka options ("BOOTSTRAPSERVERS" = "h:1", "subscribePattern" = "ev-.*", "kafka.security.protocol" = "SSL", "kafka.ssl.truststore.location" = "/ca.pem") {
  watermark timestamp delay 5s
}
source hist from kafka options ("bootstrapServers" = "h:1", "assign" = "{\"t\":[0]}", "endingOffsets" = "latest", "includeHeaders" = "true") { }
materialized view counts = from hist | group by topic aggregate count(*) as n
sink out format kafka options ("kafka.bootstrap.servers" = "h:2", "topic" = "o")
flow to_out into out = from stream live | select key, value
`, passes.Spark41)
	b, report, err := Emit(u, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string]*pb.Read{}
	for _, r := range b.Requests {
		c := PipelineCommandOf(r)
		if df := c.GetDefineFlow(); df != nil && (df.GetFlowName() == "live" || df.GetFlowName() == "hist") {
			rel := df.GetRelationFlowDetails().GetRelation()
			if w := rel.GetWithWatermark(); w != nil {
				rel = w.GetInput()
			}
			sources[df.GetFlowName()] = rel.GetRead()
		}
		if do := c.GetDefineOutput(); do != nil && do.GetOutputName() == "out" {
			sd := do.GetSinkDetails()
			if do.GetOutputType() != pb.OutputType_SINK || sd.GetFormat() != "kafka" || sd.GetOptions()["kafka.bootstrap.servers"] != "h:2" || sd.GetOptions()["topic"] != "o" || len(sd.GetOptions()) != 2 {
				t.Errorf("sink: %v", do)
			}
		}
	}
	want := map[string]map[string]string{
		"live": {"kafka.bootstrap.servers": "h:1", "subscribePattern": "ev-.*", "kafka.security.protocol": "SSL", "kafka.ssl.truststore.location": "/ca.pem", "kafka.isolation.level": "read_committed"},
		"hist": {"kafka.bootstrap.servers": "h:1", "assign": `{"t":[0]}`, "endingOffsets": "latest", "includeHeaders": "true", "kafka.isolation.level": "read_committed"},
	}
	for name, opts := range want {
		rd := sources[name]
		ds := rd.GetDataSource()
		if ds == nil || ds.GetFormat() != "kafka" || ds.Schema != nil || len(ds.GetPaths()) != 0 || rd.GetIsStreaming() != (name == "live") {
			t.Errorf("source %s: %v", name, rd)
			continue
		}
		if got := ds.GetOptions(); len(got) != len(opts) {
			t.Errorf("source %s options %v, want %v", name, got, opts)
		} else {
			for k, v := range opts {
				if got[k] != v {
					t.Errorf("source %s option %s = %q, want %q", name, k, got[k], v)
				}
			}
		}
	}
	var knobs []string
	for _, e := range report.Entries {
		if strings.HasPrefix(e.Knob, "kafka") {
			knobs = append(knobs, e.Dataset+" "+e.Knob)
			if e.Knob == "kafka source" && !strings.Contains(e.Reason, "spark-sql-kafka-0-10_2.13") || e.Knob == "kafka sink" && !strings.Contains(e.Reason, "at-least-once") {
				t.Errorf("report: %s", e)
			}
		}
	}
	if got := strings.Join(knobs, ", "); got != "live kafka source, hist kafka source, out kafka sink" {
		t.Errorf("report entries: %s", got)
	}
}
