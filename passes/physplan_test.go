package passes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nordisk/thund/frontend/dsl"
	"github.com/nordisk/thund/ir"
)

// planOf parses a .thund source and runs every pass for the native target.
func planOf(t *testing.T, src string) *Unit {
	t.Helper()
	p, diags := dsl.Parse("p.thund", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("parse:\n%v", diags)
	}
	u, _ := Run(p, Options{})
	return u
}

// TestScanBounds checks the bounds the plan gives a scan's reader: integer
// comparisons with integer literals, either way round, and string
// equalities with string literals; nothing else.
func TestScanBounds(t *testing.T) {
	u := planOf(t, `pipeline p

source t from parquet "t/*.parquet" {
  n int64 not null, m int32, s string, u string
}

materialized view v =
  from t
  | where n > 5 and 3 >= m and s = 'apple' and 'x' = u and s <> 'pear' and s = u and n + 1 < 9 and s < 'q'
  | select n, s
`)
	if u.Diags.HasErrors() {
		t.Fatal(u.Diags)
	}
	fp := u.Plan.Flows[u.Pipeline.Flows[0]]
	var got []string
	for _, bs := range fp.Bounds {
		for _, b := range bs {
			got = append(got, b.String())
		}
	}
	want := []string{`#0 > 5`, `#1 <= 3`, `#2 = "apple"`, `#3 = "x"`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("bounds:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// every column is decoded: the residual conditions read them all
	scan := ir.Scans(u.Pipeline.Flows[0].Query)[0]
	if need := fp.Need[scan]; len(need) != 4 || !need[0] || !need[1] || !need[2] || !need[3] {
		t.Errorf("need %v, want every column", need)
	}
}

// TestColumnDemand checks that a scan decodes only the columns its
// consumers read, through a join and an aggregate.
func TestColumnDemand(t *testing.T) {
	u := planOf(t, `pipeline p
source a from parquet "a/*.parquet" { k int64, x string, y int64, z double }
source b from parquet "b/*.parquet" { k int64, name string, unused string }
materialized view v =
  from a
  | join b using (k)
  | group by name aggregate sum(y) as s
`)
	if u.Diags.HasErrors() {
		t.Fatal(u.Diags)
	}
	fp := u.Plan.Flows[u.Pipeline.Flows[0]]
	var got []string
	for _, s := range ir.Scans(u.Pipeline.Flows[0].Query) {
		var cols []string
		for i, f := range u.Schemas[s] {
			if fp.Need[s][i] {
				cols = append(cols, f.Name)
			}
		}
		got = append(got, s.Name+": "+strings.Join(cols, ","))
	}
	if want := "a: k,y\nb: k,name"; strings.Join(got, "\n") != want {
		t.Errorf("demand:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

// nativeRefusals is one pipeline per refusal of the native backend; the
// message of each is one refusal's format (TestNativeRefusalsCovered).
var nativeRefusals = []struct{ name, src, want string }{
	{"nested column in csv", `source s from csv "s.csv" { id int64, m map<string, int32> }
materialized view v = from s | select id`,
		`p.thund:1:39: native backend: a csv source cannot hold the nested column m (map<string, int32>): read it from parquet, jsonl or arrow`},
	{"nested value of a function", `source s from jsonl "s.jsonl" { id int64, tags array<string> }
materialized view v = from s | select coalesce(tags, array('x')) as t`,
		`p.thund:2:39: native backend: coalesce(tags, array('x')), of the nested type array<string>, is not supported yet: target spark-4.1 or spark-4.2`},
	{"operator over a nested value", `source s from jsonl "s.jsonl" { id int64, tags array<string> }
materialized view v = from s | where tags in (array('x'))`,
		`p.thund:2:43: native backend: tags in (array('x')) over the nested value tags is not supported yet: target spark-4.1 or spark-4.2`},
	{"array_contains widening", `source s from jsonl "s.jsonl" { id int64, ns array<int32> }
materialized view v = from s | select array_contains(ns, 5000000000) as big`,
		`p.thund:2:39: native backend: array_contains(array<int32>, int64) compares as int64, which is not supported yet: cast the array to array<int64>`},
	{"nested key cast", `source s from jsonl "s.jsonl" { id int64, m map<string, int64> }
materialized view v = from s | select m[5s] as five`,
		`p.thund:2:41: native backend: 5s as a key of map<string, int64> (a cast from duration(s) to string) is not supported yet`},
	{"split by a column", `source s from jsonl "s.jsonl" { id int64, line string, sep string }
materialized view v = from s | select split(line, sep) as parts, split(line, '(?<=,)') as ahead`,
		`p.thund:2:51: native backend: split with a pattern that is not a string literal (sep) is not supported yet: split by a string literal whose regex reads the same in Java and Go's RE2 (no lookaround, possessive quantifiers, back-references, \p{...}, \Q...\E or class intersections), or target spark-4.1 or spark-4.2`},
	{"join over a nested column of a stream", `source s from jsonl "s/*.jsonl" { t timestamp(ms), id int64, tags array<string> watermark t delay 5s }
source d from jsonl "d.jsonl" { k int64 }
streaming table v = from stream s | join d on id = k`,
		`p.thund:3:37: native backend: join over the nested column tags (array<string>) is not supported yet: target spark-4.1 or spark-4.2`},
	{"grouping sets over a stream", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table g = from stream s | window tumble(t, 1m) | group by window_start, k grouping sets ((window_start, k), (window_start)) aggregate count(*) as n`,
		`p.thund:2:60: native backend: group by ... grouping sets (rollup, cube) over a stream is not supported (neither is it on Spark): read the input as a snapshot (from x)`},
	{"a datetime pattern letter the runtime does not run", `source u from csv "u.csv" { d string }
materialized view m = from u | select to_date(d, 'yyyy-MM-dd G') as day`,
		`p.thund:2:50: native backend: to_date with pattern letter 'G' (in 'yyyy-MM-dd G') is not supported yet`},
	{"a datetime pattern that is not a constant", `source u from csv "u.csv" { d string, f string }
materialized view m = from u | select to_timestamp(d, f) as t`,
		`p.thund:2:55: native backend: to_timestamp with a datetime pattern that is not a constant is not supported yet`},
	{"a time zone that is not a constant", `source u from csv "u.csv" { d string, z string }
materialized view m = from u | select from_utc_timestamp(d, z) as t`,
		`p.thund:2:61: native backend: from_utc_timestamp with a time zone that is not a constant is not supported yet`},
	{"semi join of two streams", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
source r from csv "r/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table j = from stream s | semi join (from stream r) as r2 on s.k = r2.k and r2.t between s.t and s.t + 10s | select s.k`,
		`p.thund:3:37: native backend: a semi join of two streams is not supported yet (inner, left, right and full outer joins are)`},
	{"count distinct of several columns over a stream", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table c = from stream s | window tumble(t, 1m) | group by window_start aggregate count(distinct k, t) as n`,
		`p.thund:2:92: native backend: count(distinct ...) of several columns over a stream is not supported yet`},
	{"distinct over a stream", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table d = from stream s | select k, t | distinct`,
		`p.thund:2:51: native backend: distinct over a stream is not supported yet (streaming state): compute it in a materialized view over a snapshot read, or target spark-4.1`},
	{"limit over a stream", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table l = from stream s | group by k aggregate count(*) as n | order by n desc | limit 5
  output mode complete`,
		`p.thund:2:92: native backend: limit over a stream is not supported yet (streaming state): compute it in a materialized view over a snapshot read, or target spark-4.1`},
	{"unwindowed aggregate in append mode", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table a = from stream s | group by t aggregate count(*) as n`,
		`p.thund:2:37: native backend: an aggregate over a stream in append mode needs an event-time window under it (window tumble|hop|session(...) | group by window_start, ... aggregate ...); unwindowed streaming aggregates run in output mode update or complete`},
	{"unwindowed global aggregate in update mode", `source s from csv "s/*.csv" { t timestamp(ms), k int64 }
streaming table a = from stream s | aggregate count(*) as n
  output mode update`,
		`p.thund:2:37: native backend: output mode update of an aggregate without group keys into a is not supported yet (its one row has no key to be upserted by): use output mode complete`},
	{"late table of an unwindowed aggregate", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table a = from stream s | group by k aggregate count(*) as n
  output mode update
  late table lt`,
		`p.thund:2:19: native backend: a late table of an aggregate without a window is not supported (no row of it is ever late)`},
	// dedup within the watermark: what its native state does not hold
	{"distinct within watermark over two watermarked reads", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
source r from csv "r/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table u = from stream s | union all (from stream r) as r2 | distinct on (k) within watermark`,
		`p.thund:3:71: native backend: distinct within watermark in a flow with 2 watermarked stream reads is not supported yet (Spark takes the delay of one event-time column, the flow's watermark from all): dedup each stream in a flow of its own`},
	{"distinct within watermark under a windowed aggregate", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table two = from stream s | distinct on (k) within watermark | window tumble(t, 1m) | group by window_start aggregate count(*) as n`,
		`p.thund:2:39: native backend: a flow with more than one stateful streaming operator is not supported yet: split it through a streaming table`},
	{"distinct within watermark on a decimal", `source s from csv "s/*.csv" { t timestamp(ms), k int64, d decimal(10, 2) watermark t delay 5s }
streaming table dk = from stream s | distinct on (d) within watermark`,
		`p.thund:2:38: native backend: distinct within watermark on a column of type decimal(10,2) (d) is not supported yet`},
	{"distinct within watermark without the event-time column", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table w = from stream s | window tumble(t, 1m) | select window_start, k | distinct within watermark`,
		`p.thund:2:85: native backend: distinct within watermark: its input does not keep the event-time column t of s`},
	{"session windows over bounded input", `source s from csv "s.csv" { t timestamp(ms), k int64 }
materialized view w = from s | window session(t, 10s) | group by window_start aggregate count(*) as n`,
		`p.thund:2:32: native backend: session windows over bounded input are not supported yet (over a stream they are)`},
	// correlated subqueries: the shapes the plan does not decorrelate
	{"exists subquery over a stream", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table q = from stream s | where exists (from stream s | where k = 1)`,
		`an exists subquery over a stream is not supported (neither is it on Spark): read the input as a snapshot in the subquery`},
	{"subquery correlated with an enclosing subquery", `source u from csv "u.csv" { k int64, v int64 }
source s from csv "s.csv" { k int64, v int64 }
materialized view c = from u | where exists (from s | where exists (from u as t | where t.k = s.k))`,
		`p.thund:3:95: native backend: a subquery correlated with an enclosing subquery (s.k) is not supported yet: correlate it with the flow's query`},
	{"correlated subquery in a join", `source u from csv "u.csv" { k int64, v int64 }
source s from csv "s.csv" { k int64, v int64 }
materialized view c = from u | join s on u.k = s.k and exists (from s as t | where t.v = u.v) | select u.k`,
		`p.thund:3:56: native backend: a correlated exists subquery in a join is not supported yet: use it in a where or a select`},
	{"correlated subquery over a stream read", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
source u from csv "u.csv" { k int64 }
streaming table q = from stream s | where exists (from u | where u.k = s.k)`,
		`p.thund:3:43: native backend: a correlated exists subquery over a stream read is not supported yet: compute it in a materialized view over a snapshot read, or target spark-4.1`},
	{"correlated select without a where", `source u from csv "u.csv" { k int64, v int64 }
source s from csv "s.csv" { k int64, v int64 }
materialized view c = from u | select (from s | select s.v + u.v) as x`,
		`p.thund:3:39: native backend: a correlated scalar subquery is supported when its correlation is in a where over its input, not in a select`},
	{"exists over a global aggregate", `source u from csv "u.csv" { k int64, v int64 }
source s from csv "s.csv" { k int64, v int64 }
materialized view c = from u | where exists (from s | where s.k = u.k | aggregate count(*) as n)`,
		`p.thund:3:73: native backend: an exists subquery over an aggregate without group by is always TRUE: not supported yet`},
	{"correlated in over an aggregate", `source u from csv "u.csv" { k int64, v int64 }
source s from csv "s.csv" { k int64, v int64 }
materialized view c = from u | where v in (from s | where s.k = u.k | aggregate max(s.v) as m)`,
		`p.thund:3:71: native backend: a correlated in subquery over an aggregate is not supported yet`},
	{"correlated reference under a limit", `source u from csv "u.csv" { k int64, v int64 }
source s from csv "s.csv" { k int64, v int64 }
materialized view c = from u | where exists (from s | where s.k = u.k | limit 1)`,
		`p.thund:3:67: native backend: a correlated reference (u.k) below the subquery's where is not supported yet: correlate the subquery in a where over its input`},
	{"correlated reference in an aggregate", `source u from csv "u.csv" { k int64, v int64 }
source s from csv "s.csv" { k int64, v int64 }
materialized view c = from u | select (from s | where s.k = u.k | aggregate max(s.v + u.v) as m) as m`,
		`p.thund:3:87: native backend: a correlated reference (u.v) in an aggregate (Spark refuses it too: AGGREGATE_FUNCTION_MIXED_OUTER_LOCAL_REFERENCES) is not supported yet: correlate the subquery in a where over its input`},
	{"build side reads a stream", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
source u from csv "u.csv" { k int64 }
streaming table b = from u | join (from stream s) as w on u.k = w.k | select u.k`,
		`p.thund:3:30: native backend: a join whose right input (the build side) reads a stream is not supported yet (streaming state): compute it in a materialized view over a snapshot read, or target spark-4.1`},
	{"cast the native backend lacks", `source u from csv "u.csv" { d double }
materialized view c = from u | select cast(d as int) as i, cast(cast(d as float) as uint8) as b`,
		`p.thund:2:60: native backend: cast from float32 to uint8 is not supported yet`},
	{"store cast of a duration to string", `source u from csv "u.csv" { a timestamp(ms), b timestamp(ms) }
materialized view c (gap string) = from u | select a - b as gap`,
		`p.thund:2:52: native backend: cast from duration(ms) to string is not supported yet`},
	{"round of an unsigned", `source u from csv "u.csv" { x uint32 }
materialized view c = from u | select round(x) as r`,
		`p.thund:2:39: native backend: round(uint32) is not supported yet with these arguments`},
	{"avg of a duration", `source u from csv "u.csv" { a timestamp(ms), b timestamp(ms), k int64 }
materialized view c = from u | group by k aggregate avg(a - b) as g`,
		`p.thund:2:53: native backend: avg of a duration is not supported yet`},
	{"stream and snapshot of one dataset", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table b = from stream s | join (from s) as w on s.k = w.k | select s.k`,
		`p.thund:2:48: native backend: a flow that reads s both as a stream and as a snapshot is not supported yet`},
	{"change flow beside other flows", `source c from csv "c/*.csv" { k int64, v int64, seq int64 }
streaming table t (k int64, v int64, seq int64)
flow a into t = from stream c apply changes keys (k) sequence by seq scd type 1
flow b into t = from stream c | select k, v, seq`,
		`p.thund:3:31: native backend: a streaming table with a change flow and other flows (t has 2) is not supported yet`},
	{"scd 2 without its period columns last", `source c from csv "c/*.csv" { k int64, v int64, seq int64 }
streaming table t (k int64, v int64, __START_AT int64, __END_AT int64, seq int64)
flow a into t = from stream c apply changes keys (k) sequence by seq scd type 2`,
		`p.thund:3:31: native backend: a SCD type 2 table whose __START_AT and __END_AT are not its last two columns is not supported yet`},
	{"watermarks in different units", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
source r from csv "r/*.csv" { t timestamp(us), k int64 watermark t delay 5s }
streaming table j = from stream s | join (from stream r) as r2 on s.k = r2.k and r2.t between s.t and s.t + 10s | select s.k`,
		`p.thund:3:48: native backend: the event-time columns of this flow's stream inputs have different units (ms and us): cast them to one timestamp unit upstream`},
	{"update mode under a select", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table a = from stream s | window tumble(t, 1m) | group by k, window_start aggregate count(*) as n | select k, n, window_start
  output mode update`,
		`p.thund:2:19: native backend: output mode update needs the windowed aggregate at the top of the flow's query, and the flow alone in its target (its rows are upserted by the group keys): move the select or filter downstream`},
	{"union distinct over a stream", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
source r from csv "r/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table u = from stream s | select k, t | union (from stream r | select k, t)`,
		`p.thund:3:51: native backend: union (distinct) over a stream is not supported yet (streaming state): compute it in a materialized view over a snapshot read, or target spark-4.1`},
	{"scalar subquery over a stream", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
source u from csv "u.csv" { k int64 }
streaming table q = from stream s | where k > (from stream s | where k = 1 | select k)`,
		`a scalar subquery over a stream is not supported (neither is it on Spark): read the input as a snapshot in the subquery`},
	{"in subquery over a stream", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
source u from csv "u.csv" { k int64 }
streaming table q = from stream s | where k in (from stream s | select k)`,
		`an in subquery over a stream is not supported (neither is it on Spark): read the input as a snapshot in the subquery`},
	{"window finer than its column", `source s from csv "s.csv" { t timestamp(s), k int64 }
materialized view w = from s | window tumble(t, 1500ms) | group by window_start aggregate count(*) as n`,
		`window tumble(1s500ms) is finer than its time column's unit (timestamp(s)): cast the column to a finer timestamp`},
	{"stream window finer than its column", `source s from csv "s/*.csv" { t timestamp(s), k int64 watermark t delay 5s }
streaming table w = from stream s | window tumble(t, 1500ms) | group by window_start aggregate count(*) as n`,
		`window tumble(1s500ms) is finer than its time column's unit (s): cast the column to a finer timestamp`},
	{"two stateful operators", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
source r from csv "r/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table j = from stream s | join (from stream r) as r2 on s.k = r2.k and r2.t between s.t and s.t + 10s | window tumble(s.t, 1m) | group by window_start aggregate count(*) as n`,
		`a flow with more than one stateful streaming operator is not supported yet: split it through a streaming table`},
	{"decimal group key over a stream", `source s from csv "s/*.csv" { t timestamp(ms), k decimal(10,2) watermark t delay 5s }
streaming table a = from stream s | window tumble(t, 1m) | group by k, window_start aggregate count(*) as n`,
		`a group key of type decimal(10,2) over a stream is not supported yet`},
	{"window_end as an aggregate argument", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table a = from stream s | window tumble(t, 1m) | group by window_start aggregate max(window_end) as e`,
		`window_end of a window over a stream can only be a group key of the aggregate over it`},
	{"ignore nulls not a constant", `source u from csv "u.csv" { k int64, v int64, b boolean }
materialized view f = from u | group by k aggregate first(v, b) as x`,
		`first with an ignore-nulls argument that is not true or false is not supported yet`},
	{"join of two streams without a time bound", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
source r from csv "r/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table j = from stream s | join (from stream r) as r2 on s.k = r2.k and r2.t between s.t and s.t + 1500us | select s.k`,
		`the time bound of this join of two streams must compare the two sides' event-time columns (in the watermarks' unit) plus constant intervals, e.g. b.t between a.t and a.t + 10s`},
	{"join of two streams without a key", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
source r from csv "r/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table j = from stream s | join (from stream r) as r2 on r2.t between s.t and s.t + 10s | select s.k`,
		`a join of two streams needs an equality of the two sides (a key) besides its time bound`},
	{"join of two streams keeping a decimal", `source s from csv "s/*.csv" { t timestamp(ms), k int64, d decimal(10,2) watermark t delay 5s }
source r from csv "r/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table j = from stream s | join (from stream r) as r2 on s.k = r2.k and r2.t between s.t and s.t + 10s | select s.k, s.d`,
		`a join of two streams that keeps a decimal(10,2) column (d) is not supported yet`},
	{"late table of a join of two streams", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
source r from csv "r/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table j = from stream s | join (from stream r) as r2 on s.k = r2.k and r2.t between s.t and s.t + 10s | select s.k
  late table late`,
		`a late table of a join of two streams is not supported yet (late rows are counted)`},
	{"null-safe key of a join of two streams", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
source r from csv "r/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table j = from stream s | join (from stream r) as r2 on s.k <=> r2.k and r2.t between s.t and s.t + 10s | select s.k`,
		`a join of two streams on a key of type int64 (or with <=>) is not supported yet`},
	{"stream aggregate without window_start", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table a = from stream s | window tumble(t, 1m) | group by k, window_end aggregate count(*) as n`,
		`a windowed aggregate over a stream must group by window_start`},
	{"session windows updated into a sink", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
sink out format stdout
flow f into out = from stream s | window session(t, 10s) | group by window_start, k aggregate count(*) as n
  output mode update`,
		`output mode update of session windows into sink out is not supported yet (sessions that merge delete rows a sink cannot take back): write a streaming table, or emit on window close`},
	// session confs
	{"ansi mode off", `source u from csv "u.csv" { k int64 }
materialized view m
  set "spark.sql.ansi.enabled" = "false"
  = from u | select k / 0 as q`,
		`p.thund:3:7: native backend: spark.sql.ansi.enabled = false (Spark's legacy results: NULL instead of an error for overflow, invalid casts and division by zero, and its legacy casts) is not supported yet: remove the SET to run with ANSI semantics, or target spark-4.1`},
	// window functions
	// window functions (wnative): what the native backend does not compute
	{"window first_value ignore nulls not constant", `source u from csv "u.csv" { k int64, v int64, b bool }
materialized view w = from u | select k, first_value(v, b) over (order by k) as r`,
		`p.thund:2:57: native backend: first_value over a window with an ignore-nulls argument that is not true or false is not supported yet`},
	{"window lag offset not constant", `source u from csv "u.csv" { k int64, v int64 }
materialized view w = from u | select k, lag(v, k) over (order by k) as r`,
		`p.thund:2:49: native backend: the offset of lag must be an integer constant natively`},
	{"window count of two arguments", `source u from csv "u.csv" { k int64, v int64 }
materialized view w = from u | select k, count(k, v) over (order by k) as r`,
		`p.thund:2:42: native backend: count of 2 arguments over a window is not supported yet`},
	{"window sum of decimal", `source u from csv "u.csv" { k int64, d decimal(10,2) }
materialized view w = from u | select k, sum(d) over (order by k) as r`,
		`p.thund:2:42: native backend: sum of decimal(10,2) over a window is not supported yet (the native backend sums integers and floating-point numbers over windows)`},
	{"window range over decimal", `source u from csv "u.csv" { k int64, v int64, d decimal(10,2) }
materialized view w = from u | select k, sum(v) over (order by d range between 1 preceding and current row) as r`,
		`p.thund:2:66: native backend: a RANGE frame with offsets over decimal(10,2) is not supported yet (the native backend measures them over integers, floating-point numbers, dates and timestamps)`},
	{"window range offset not an integer", `source u from csv "u.csv" { k int64, v int64 }
materialized view w = from u | select k, sum(v) over (order by k range between 1.5 preceding and current row) as r`,
		`p.thund:2:80: native backend: a RANGE frame's offset over int64 must be a non-negative integer natively`},
	{"window function over a stream", `source s from csv "s/*.csv" { t timestamp(ms), k int64 watermark t delay 5s }
streaming table w = from stream s | select k, row_number() over (partition by k order by t) as r`,
		`p.thund:2:47: native backend: window functions over a stream are not supported (neither are they on Spark: non-time-based windows are not supported on streaming DataFrames): read the input as a snapshot`},
	// the aggregate family (funcs_agg.go, plan_agg.go)
	{"family aggregate over a stream", `source s from csv "s/*.csv" { t timestamp(ms), k int64, x float64 watermark t delay 5s }
streaming table g = from stream s | window tumble(t, 1m) | group by window_start aggregate stddev(x) as sd`,
		`p.thund:2:92: native backend: stddev over a stream is not supported yet: aggregate a snapshot of the input (from x)`},
	{"family aggregate distinct of two arguments", `source u from csv "u.csv" { k int64, x float64, y float64 }
materialized view m = from u | group by k aggregate corr(distinct x, y) as r`,
		`p.thund:2:53: native backend: corr(distinct ...) of two columns is not supported yet`},
	{"percentile distinct", `source u from csv "u.csv" { k int64, x float64 }
materialized view m = from u | group by k aggregate percentile(distinct x, 0.5, k) as p`,
		`p.thund:2:53: native backend: percentile(distinct ...) with a frequency is not supported yet`},
	{"family aggregate over a window", `source u from csv "u.csv" { k int64, x float64 }
materialized view w = from u | select k, max_by(x, k) over (order by k) as v`,
		`p.thund:2:42: native backend: max_by over a window is not supported yet: aggregate with group by and join the result back`},
	{"family moment of a decimal over a window", `source u from csv "u.csv" { k int64, d decimal(10,2) }
materialized view w = from u | select k, stddev(d) over (order by k) as v`,
		`p.thund:2:42: native backend: stddev of decimal(10,2) over a window is not supported yet (the native backend computes it over integers and floating-point numbers)`},
	{"regr_avgx of a decimal", `source u from csv "u.csv" { k int64, y float64, d decimal(10,2) }
materialized view m = from u | group by k aggregate regr_avgx(y, d) as a`,
		`p.thund:2:66: native backend: regr_avgx of a decimal is not supported yet: cast it to double`},
	{"percentile_approx of a decimal", `source u from csv "u.csv" { k int64, d decimal(10,2) }
materialized view m = from u | group by k aggregate percentile_approx(d, 0.5) as a`,
		`p.thund:2:71: native backend: percentile_approx of a decimal is not supported yet: cast it to double`},
	{"max_by ordered by binary", `source u from csv "u.csv" { k int64, s string, b binary }
materialized view m = from u | group by k aggregate max_by(s, b) as a`,
		`p.thund:2:63: native backend: max_by ordered by binary is not supported yet`},
	// collect_list and collect_set (funcs_collect.go)
	{"collect_set of a nested value", `source u from jsonl "u.jsonl" { k int64, a array<int32> }
materialized view m = from u | group by k aggregate collect_set(a) as s`,
		`p.thund:2:65: native backend: collect_set of the nested type array<int32> is not supported yet: target spark-4.1 or spark-4.2`},
	{"collect_list distinct of a nested value", `source u from jsonl "u.jsonl" { k int64, s struct<x: int32> }
materialized view m = from u | group by k aggregate collect_list(distinct s) as l`,
		`p.thund:2:75: native backend: collect_list(distinct ...) of the nested type struct<x: int32> is not supported yet: target spark-4.1 or spark-4.2`},
	{"collect_list over a stream", `source s from csv "s/*.csv" { t timestamp(ms), k int64, x float64 watermark t delay 5s }
streaming table g = from stream s | window tumble(t, 1m) | group by window_start aggregate collect_list(x) as xs`,
		`p.thund:2:92: native backend: collect_list over a stream is not supported yet: aggregate a snapshot of the input (from x)`},
	{"collect_set over a window", `source u from csv "u.csv" { k int64, x float64 }
materialized view w = from u | select k, collect_set(x) over (order by k) as v`,
		`p.thund:2:42: native backend: collect_set over a window is not supported yet: aggregate with group by and join the result back`},
	{"group by a map key", `source u from jsonl "u.jsonl" { k int64, a array<map<string, int32>> }
materialized view m = from u | group by a aggregate count(*) as n`,
		`p.thund:2:32: native backend: aggregate over the nested column a (array<map<string, int32>>) is not supported yet: target spark-4.1 or spark-4.2`},
}

// preempted are the refusals of the plan pass that an earlier pass always
// makes first (they guard codegen's invariants), with that pass's reason.
var preempted = map[string]string{
	"change flow %q: the type of its sequence is unknown":                                                               "resolve types every sequence by",
	"change flow %q: column %q is not a column of %s":                                                                   "resolve checks keys and history columns against the target",
	"the watermark column %q of %s is not a timestamp column of it":                                                     "resolve checks a watermark's column",
	"flow %q keeps streaming state but none of its stream reads has a watermark: declare one on the source or the read": "sanity refuses stateful operators over streams without a watermark",
	"output mode update: group key %s is not a column of %s":                                                            "resolve matches the flow's columns to its target's",
	"a %s window over a stream must feed an aggregate (window ... | group by window_start ... aggregate ...)":           "sanity refuses a stream window no aggregate groups",
	"the window's time column must be a timestamp in the unit of the flow's watermarks (%s), not %s":                    "sanity traces a stream window's time to the watermarked column",
	"a join of two streams with USING is not supported yet: write the condition with ON":                                "sanity refuses a join of two streams without a time bound, which USING cannot state",
}

// TestNativeRefusals checks each refusal's position and message.
func TestNativeRefusals(t *testing.T) {
	for _, tc := range nativeRefusals {
		t.Run(tc.name, func(t *testing.T) {
			u := planOf(t, "pipeline p\n"+tc.src+"\n")
			var got []string
			for _, d := range u.Diags {
				got = append(got, d.Error())
			}
			want := shiftLine(tc.want) + " [capability]"
			if !strings.HasPrefix(want, "p.thund:") {
				want = "native backend: " + want // a message without its position
			}
			if !containsStr(got, want) {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
			}
			if !u.ran("plan") {
				t.Errorf("the refusal came before the plan pass: %v", u.Ran)
			}
		})
	}
}

// shiftLine moves a "p.thund:L:C:" position down one line: the cases are
// written without their "pipeline p" header line.
func shiftLine(s string) string {
	m := regexp.MustCompile(`^p\.thund:(\d+):`).FindStringSubmatch(s)
	if m == nil {
		return s
	}
	n, _ := strconv.Atoi(m[1])
	return "p.thund:" + strconv.Itoa(n+1) + ":" + s[len(m[0]):]
}

// selectDiag is a select expression and one diagnostic it must give.
type selectDiag struct{ expr, want string }

// checkSelectDiags plans each expression as the one item of a select over
// the source's table u, and fails when its diagnostics lack the wanted one.
func checkSelectDiags(t *testing.T, source string, cases []selectDiag) {
	t.Helper()
	for _, c := range cases {
		u := planOf(t, "pipeline p\n"+source+"materialized view m = from u | select "+c.expr+" as x\n")
		var got []string
		for _, d := range u.Diags {
			got = append(got, d.Error())
		}
		if !containsStr(got, c.want) {
			t.Errorf("%s:\ngot  %s\nwant %s", c.expr, strings.Join(got, "\n     "), c.want)
		}
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s || !strings.HasPrefix(s, "p.thund:") && strings.HasSuffix(x, ": "+s) {
			return true
		}
	}
	return false
}

// TestRefusalsOnlyInPasses checks that codegen makes no refusal of its own:
// every construct the native backend cannot run is refused by a pass, so
// `check` gives `build`'s verdict. Codegen's only way out is an internal
// error (unplanned).
func TestRefusalsOnlyInPasses(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, "../codegen", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range pkgs {
		for name, f := range pkg.Files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if ok && (sel.Sel.Name == "refuse" || sel.Sel.Name == "Add" && isDiags(sel.X)) {
					t.Errorf("%s: codegen refuses; refuse in the plan pass instead", fset.Position(sel.Pos()))
				}
				return true
			})
		}
	}
}

func isDiags(x ast.Expr) bool {
	s, ok := x.(*ast.SelectorExpr)
	return ok && s.Sel.Name == "diags"
}

// TestNativeRefusalsCovered checks that every refusal the plan pass can
// make has a case in nativeRefusals or in the script tests: each format
// string of a refuse call in plan*.go and native.go matches some case.
func TestNativeRefusalsCovered(t *testing.T) {
	fset := token.NewFileSet()
	var formats []string
	files, _ := filepath.Glob("plan*.go")
	files = append(files, "native.go")
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "refuse" && sel.Sel.Name != "refuseStreaming") || len(call.Args) < 2 {
				return true
			}
			if lit, ok := call.Args[1].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, _ := strconv.Unquote(lit.Value)
				if s != "%s" {
					formats = append(formats, s)
				}
			}
			return true
		})
	}
	var corpus []string
	for _, tc := range nativeRefusals {
		corpus = append(corpus, tc.want)
	}
	covered := strings.Join(corpus, "\n") + "\n" + scriptCorpus(t)
	for _, f := range formats {
		re := "(?s)" + regexp.MustCompile(`%[a-zA-Z]`).ReplaceAllString(regexp.QuoteMeta(f), ".*?")
		made := regexp.MustCompile(re).MatchString(covered)
		switch why, pre := preempted[f]; {
		case !made && !pre:
			t.Errorf("no test makes this refusal: %q", f)
		case made && pre:
			t.Errorf("a test makes this refusal, listed as preempted (%s): %q", why, f)
		}
	}
}

// scriptCorpus is the text of the script tests, whose goldens hold the
// refusals they make.
func scriptCorpus(t *testing.T) string {
	t.Helper()
	files, err := filepath.Glob("../testdata/scripts/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

// flowPlan is the plan of the flow into the named dataset.
func flowPlan(t *testing.T, u *Unit, name string) *FlowPlan {
	t.Helper()
	for f, fp := range u.Plan.Flows {
		if f.Target == name {
			return fp
		}
	}
	t.Fatalf("no flow into %s", name)
	return nil
}

// firstOf is the first operator of type T in a flow's query.
func firstOf[T ir.Rel](fp *FlowPlan) T {
	var out T
	found := false
	walkAll(fp.Flow.Query, func(r ir.Rel) {
		if x, ok := r.(T); ok && !found {
			out, found = x, true
		}
	})
	return out
}

// TestPlanStrategies checks the plan's choice of memoized groups (every
// group key a column of one join's build row), deferred accumulators (a
// hash aggregate over a scan's rows whose arguments are the scan's
// columns) and top-N bars (a first key never NULL with Go's order).
// codegen's tests check that the generated code follows them.
func TestPlanStrategies(t *testing.T) {
	u := planOf(t, `pipeline p
source f from parquet "f/*.parquet" { k int64, s string, v int64 }
source d from parquet "d/*.parquet" { dk int64, ds string, name string }
source g from parquet "g/*.parquet" { k int64 not null, s string not null, x float64 not null, n int64 }

materialized view by_dim = from f | join d on f.k = d.dk | group by d.ds, d.name aggregate count(*) as n
materialized view by_dim_left = from f | left join d on f.k = d.dk | group by d.name aggregate sum(v) as sv
materialized view by_mixed = from f | join d on f.k = d.dk | group by f.s, d.name aggregate count(*) as n
materialized view by_expr = from f | join d on f.k = d.dk | group by upper(d.name) as u aggregate count(*) as n
materialized view by_fact = from f | join d on f.k = d.dk | group by f.s aggregate count(*) as n
materialized view by_dim_proj = from f | join d on f.k = d.dk | select d.name as nm, v | group by nm aggregate sum(v) as sv

materialized view by_k = from f | where v > 0 | select k, v, upper(s) as u | group by k aggregate sum(v) as sv, count(*) as c
materialized view computed = from f | select k, v * 2 as w | group by k aggregate sum(w) as sw

materialized view desc_int = from g | order by k desc, s | limit 5
materialized view by_float = from g | order by x desc | limit 5
materialized view by_nullable = from g | order by n | limit 5
`)
	if u.Diags.HasErrors() {
		t.Fatal(u.Diags)
	}
	for view, want := range map[string]bool{"by_dim": true, "by_dim_left": true, "by_mixed": false, "by_expr": false, "by_fact": false, "by_dim_proj": true} {
		fp := flowPlan(t, u, view)
		if got := len(fp.Memo[firstOf[*ir.Aggregate](fp)]) > 0; got != want {
			t.Errorf("%s: memoized groups %v, want %v", view, got, want)
		}
	}
	for view, want := range map[string]bool{"by_k": true, "computed": false, "by_fact": false} {
		fp := flowPlan(t, u, view)
		if got := fp.Defer[firstOf[*ir.Aggregate](fp)]; got != want {
			t.Errorf("%s: deferred accumulators %v, want %v", view, got, want)
		}
	}
	for view, want := range map[string]bool{"desc_int": true, "by_float": false, "by_nullable": false} {
		fp := flowPlan(t, u, view)
		s := firstOf[*ir.Sort](fp)
		if fp.TopN[s] != 5 {
			t.Errorf("%s: top %d, want 5", view, fp.TopN[s])
		}
		if got := fp.TopNBar[s]; got != want {
			t.Errorf("%s: bar %v, want %v", view, got, want)
		}
	}
}
