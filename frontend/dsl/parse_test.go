package dsl

import (
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/nordisk/thund/ir"
)

// constructCase is one construct of docs/dsl.md: src parses, prints as want
// (src itself when want is empty), and round-trips; check looks at the IR.
type constructCase struct {
	name  string
	src   string
	want  string
	check func(t *testing.T, p *ir.Pipeline)
}

// mv wraps a query into a materialized view, the shortest declaration with one.
func mv(query string) string { return "materialized view v =\n  " + query + "\n" }

var constructCases = []constructCase{
	// --- file header
	{name: "empty file", src: ""},
	{name: "comments", src: "# a comment\n-- another\nsink s # trailing\n  format csv -- also trailing\n", want: "# a comment\n-- another\n# trailing\n-- also trailing\nsink s\n  format csv\n"},
	{name: "header", src: "pipeline p\ncatalog c\ndatabase d\nstorage \"s3://b/root\"\nset \"k\" = \"v\"\nset \"k2\" = \"v2\"\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			if p.Name != "p" || p.Catalog != "c" || p.Database != "d" || p.Storage != "s3://b/root" || len(p.Conf) != 2 || p.Conf[1].Key != "k2" {
				t.Errorf("header: %+v", p)
			}
		}},
	{name: "header any order after pipeline", src: "PIPELINE p\nset \"k\" = \"v\"\nStorage \"x\"\ndatabase d\ncatalog c\n",
		want: "pipeline p\ncatalog c\ndatabase d\nstorage \"x\"\nset \"k\" = \"v\"\n"},
	{name: "header quoted names", src: "pipeline `my pipeline`\ncatalog `from`\n"},
	{name: "strings with escapes", src: "storage \"a\\\"b\\\\c\\n\\u00e9\\x41\"\n", want: "storage \"a\\\"b\\\\c\\né\x41\"\n"},

	// --- sources
	{name: "source minimal", src: "source s from parquet \"a/*.parquet\" {\n  a int64\n}\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			d := p.Datasets[0]
			if d.Kind != ir.KindSource || d.Source.Format != ir.FormatParquet || d.Source.Paths[0] != "a/*.parquet" || d.Columns[0].Type != ir.Int64 {
				t.Errorf("source: %+v %+v", d, d.Source)
			}
		}},
	{name: "source formats and aliases", src: "source a from csv \"x\" {\n  a int64\n}\n\nsource b from JSON \"x\" {\n  a int64\n}\n\nsource c from jsonl \"x\" {\n  a int64\n}\n\nsource d from ipc \"x\" {\n  a int64\n}\n\nsource e from arrow \"x\" {\n  a int64\n}\n",
		want: "source a from csv \"x\" {\n  a int64\n}\n\nsource b from jsonl \"x\" {\n  a int64\n}\n\nsource c from jsonl \"x\" {\n  a int64\n}\n\nsource d from arrow \"x\" {\n  a int64\n}\n\nsource e from arrow \"x\" {\n  a int64\n}\n"},
	{name: "source stream, globs, options", src: "source s stream from csv \"a/*.csv\", \"b/**/*.csv\" options (\"header\" = \"true\", \"delimiter\" = \"|\") {\n  a int64\n}\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			s := p.Datasets[0].Source
			if !s.Unbounded || len(s.Paths) != 2 || len(s.Options) != 2 || s.Options[1].Value != "|" {
				t.Errorf("spec: %+v", s)
			}
		}},
	{name: "source quarantine table", src: "source s from csv \"a.csv\" { a int64 } QUARANTINE TABLE `Bad Rows`\n",
		want: "source s from csv \"a.csv\" {\n  a int64\n}\n  quarantine table `Bad Rows`\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			q := p.Datasets[0].Source.Quarantine
			if q == nil || q.Table != "Bad Rows" || q.Pos.Line != 1 || q.Pos.Col != 39 {
				t.Errorf("quarantine: %+v", q)
			}
		}},
	{name: "source stdin", src: "source s from arrow stdin {\n  a int64\n}\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			if !p.Datasets[0].Source.Stdin {
				t.Error("not stdin")
			}
		}},
	{name: "source stdin and paths", src: "source s from arrow \"x\", stdin {\n  a int64\n}\n", want: "source s from arrow stdin, \"x\" {\n  a int64\n}\n"},
	{name: "source no inputs no columns", src: "source s from csv {\n}\n"},
	{name: "source watermark only", src: "source s from csv \"x\" {\n  watermark ts delay 5s\n}\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			if w := p.Datasets[0].Watermark; w == nil || w.Column != "ts" || w.Delay != ir.Duration(5e9) || len(p.Datasets[0].Columns) != 0 {
				t.Errorf("watermark: %+v", w)
			}
		}},
	{name: "source column named watermark", src: "source s from csv \"x\" {\n  watermark int64\n  watermark watermark delay 1s\n}\n"},
	{name: "source watermark full", src: "source s stream from csv \"x\" {\n  ts timestamp(ms)\n  watermark ts delay 5s allowed lateness 1m idle timeout 2h\n}\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			w := p.Datasets[0].Watermark
			if w.AllowedLateness != ir.Duration(60e9) || w.IdleTimeout != ir.Duration(7200e9) {
				t.Errorf("watermark: %+v", w)
			}
		}},
	{name: "source clauses", src: "source s from csv \"x\" {\n  a int64\n}\n  id \"s1\"\n  comment \"c\"\n  expect e: a > 0\n"},
	{name: "column types canonical", src: "source s from csv \"x\" {\n  a bool, b int8, c int16, d int32, e int64, f uint8, g uint16, h uint32, i uint64\n}\n"},
	{name: "column types aliases", src: "source s from csv \"x\" {\n  a boolean, b tinyint, c smallint, d int, e bigint, f float, g double, h varchar, i date, j INTEGER, k Long\n}\n",
		want: "source s from csv \"x\" {\n  a bool,\n  b int8,\n  c int16,\n  d int32,\n  e int64,\n  f float32,\n  g float64,\n  h string,\n  i date32,\n  j int32,\n  k int64\n}\n"},
	{name: "column types parameterised", src: "source s from csv \"x\" {\n  a decimal(38,10), b decimal, c decimal(5), d numeric(7, 2), e timestamp, f timestamp(s), g timestamp(ns, \"UTC\"), h duration, i duration(ms), j timestamp_ntz(ms)\n}\n",
		want: "source s from csv \"x\" {\n  a decimal(38,10),\n  b decimal(10,0),\n  c decimal(5,0),\n  d decimal(7,2),\n  e timestamp(us),\n  f timestamp(s),\n  g timestamp(ns, \"UTC\"),\n  h duration(us),\n  i duration(ms),\n  j timestamp(ms)\n}\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			c := p.Datasets[0].Columns
			if c[0].Type != ir.Decimal(38, 10) || c[6].Type != ir.Timestamp(ir.Nano, "UTC") || c[8].Type != ir.DurationType(ir.Milli) {
				t.Errorf("types: %v %v %v", c[0].Type, c[6].Type, c[8].Type)
			}
		}},
	{name: "column not null and comment", src: "source s from csv \"x\" {\n  a int64 not null comment \"the key\", b string comment \"\"\n}\n",
		want: "source s from csv \"x\" {\n  a int64 not null comment \"the key\", b string\n}\n"},

	// --- datasets
	{name: "materialized view", src: "materialized view v =\n  from s\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			if len(p.Flows) != 1 || p.Flows[0].Name != "v" || p.Flows[0].Target != "v" || p.Datasets[0].Kind != ir.KindMaterializedView {
				t.Errorf("inline flow: %+v", p.Flows)
			}
		}},
	{name: "dataset kinds", src: "streaming table a =\n  from s\n\ntemporary view b =\n  from s\n\nview c =\n  from s\n\nsink d\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			kinds := []ir.DatasetKind{ir.KindStreamingTable, ir.KindTemporaryView, ir.KindView, ir.KindSink}
			for i, k := range kinds {
				if p.Datasets[i].Kind != k {
					t.Errorf("dataset %d: %v, want %v", i, p.Datasets[i].Kind, k)
				}
			}
			if len(p.Flows) != 3 {
				t.Errorf("flows: %d", len(p.Flows))
			}
		}},
	{name: "keywords case-insensitive", src: "MATERIALIZED VIEW v =\n  FROM s\n  | WHERE a IS NOT NULL AND b IN (1) AND NOT c\n  | Select Count(*) AS n\n",
		want: "materialized view v =\n  from s\n  | where a is not null and b in (1) and not c\n  | select count(*) as n\n"},
	{name: "dataset columns", src: "streaming table t (a int64 not null, b string comment \"x\")\n"},
	{name: "dataset columns wrap", src: "streaming table t (aaaaaaaaaaaaaaaa int64, bbbbbbbbbbbbbbbbbbb string, ccccccccccccccccc string, ddddddddd int64)\n",
		want: "streaming table t (\n  aaaaaaaaaaaaaaaa int64,\n  bbbbbbbbbbbbbbbbbbb string,\n  ccccccccccccccccc string,\n  ddddddddd int64\n)\n"},
	{name: "dataset clauses canonical order", src: "materialized view v expect e1: a > 0 on violation warn materialize full options (\"k\" = \"v\") properties (\"p\" = \"q\") partitioned by (a, b) format delta set \"s\" = \"t\" database d catalog c comment \"x\" id \"i\" expect e2: b on violation fail = from s\n",
		want: "materialized view v\n  id \"i\"\n  comment \"x\"\n  catalog c\n  database d\n  set \"s\" = \"t\"\n  format delta\n  partitioned by (a, b)\n  properties (\"p\" = \"q\")\n  options (\"k\" = \"v\")\n  materialize full\n  expect e1: a > 0\n  expect e2: b on violation fail\n  = from s\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			d := p.Datasets[0]
			if d.Materialize != ir.MatFull || d.Expectations[0].Action != ir.ActWarn || d.Expectations[1].Action != ir.ActFail || d.SinkOptions[0].Key != "k" {
				t.Errorf("clauses: %+v", d)
			}
		}},
	{name: "materialize incremental and drop", src: "streaming table t\n  materialize incremental\n  expect e: x on violation drop\n"},
	{name: "view without query parses", src: "materialized view v\n  comment \"query comes from a flow\"\n"},
	{name: "sink", src: "sink out\n  format parquet\n  options (\"path\" = \"out\")\n"},

	// --- flows
	{name: "flow declaration", src: "flow f into t =\n  from s\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			f := p.Flows[0]
			if f.Name != "f" || f.Target != "t" || f.Once || f.ByName {
				t.Errorf("flow: %+v", f)
			}
		}},
	{name: "flow once by name", src: "flow f into t once by name =\n  from s\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			if !p.Flows[0].Once || !p.Flows[0].ByName {
				t.Errorf("flow: %+v", p.Flows[0])
			}
		}},
	{name: "flow without query", src: "flow f into t\n  comment \"later\"\n"},
	{name: "flow named like its target", src: "streaming table t\n\nflow t into t once =\n  from s\n"},
	{name: "flows in declaration order", src: "flow a into t =\n  from s\n\nstreaming table t =\n  from s\n\nflow b into t =\n  from s\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			var names []string
			for _, f := range p.Flows {
				names = append(names, f.Name)
			}
			if strings.Join(names, ",") != "a,t,b" {
				t.Errorf("flow order %v", names)
			}
		}},
	{name: "flow clauses canonical order", src: "streaming table t =\n  from s\n  late table lt\n  emit on window close\n  output mode update\n  trigger every 1m30s\n  set \"a\" = \"b\"\n  comment \"c\"\n  set \"c\" = \"d\"\n",
		want: "streaming table t =\n  from s\n  comment \"c\"\n  set \"a\" = \"b\"\n  set \"c\" = \"d\"\n  trigger every 1m30s\n  output mode update\n  emit on window close\n  late table lt\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			f := p.Flows[0]
			if f.Trigger.Kind != ir.TriggerEvery || f.Trigger.Interval != ir.Duration(90e9) || f.OutputMode != ir.OutputUpdate || f.Emit != ir.EmitOnWindowClose || f.LateTable != "lt" {
				t.Errorf("flow: %+v", f)
			}
		}},
	{name: "trigger available now, output modes, emit on update", src: "streaming table t =\n  from s\n  trigger available now\n  output mode complete\n  emit on update\n\nstreaming table u =\n  from s\n  output mode append\n"},
	{name: "apply changes minimal", src: "streaming table t =\n  from stream s\n  apply changes keys (id) sequence by seq\n",
		want: "streaming table t =\n  from stream s\n  apply changes keys (id) sequence by seq\n    scd type 1\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			c := p.Flows[0].CDC
			if c == nil || c.SCDType != 1 || c.Keys[0] != "id" || c.DeleteWhen != nil {
				t.Errorf("cdc: %+v", c)
			}
		}},
	{name: "apply changes everything", src: "streaming table t =\n  from stream s\n  apply changes keys (a, b) sequence by seq delete when op = 'D' ignore null updates columns * except (op) scd type 2 track history on * except (ts)\n",
		want: "streaming table t =\n  from stream s\n  apply changes keys (a, b) sequence by seq\n    delete when op = 'D'\n    ignore null updates\n    columns * except (op)\n    scd type 2\n    track history on * except (ts)\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			c := p.Flows[0].CDC
			if c.SCDType != 2 || !c.IgnoreNullUpdates || c.ExceptColumns[0] != "op" || c.TrackHistoryExcept[0] != "ts" {
				t.Errorf("cdc: %+v", c)
			}
		}},
	{name: "apply changes columns and history lists", src: "streaming table t =\n  from stream s\n  apply changes keys (a) sequence by seq\n    columns (a, b)\n    scd type 2\n    track history on (b)\n"},

	// --- queries: from items
	{name: "scan stream alias", src: mv("from stream s as x")},
	{name: "scan qualified external", src: mv("from cat.db.tbl as t"),
		check: func(t *testing.T, p *ir.Pipeline) {
			if s := p.Flows[0].Query.(*ir.Scan); s.Name != "cat.db.tbl" || s.Alias != "t" {
				t.Errorf("scan: %+v", s)
			}
		}},
	{name: "scan watermark and bounds", src: mv("from stream s watermark ts delay 2s allowed lateness 3s idle timeout 4s bound 10 rows bound 1MB bytes"),
		check: func(t *testing.T, p *ir.Pipeline) {
			s := p.Flows[0].Query.(*ir.Scan)
			if s.Watermark.Delay != ir.Duration(2e9) || s.Bounds.Rows != 10 || s.Bounds.Bytes != 1<<20 {
				t.Errorf("scan: %+v %+v", s.Watermark, s.Bounds)
			}
		}},
	{name: "bounds any order and suffixes", src: mv("from s bound 2gb bytes bound 5 rows"), want: mv("from s bound 5 rows bound 2GB bytes")},
	{name: "bounds exact suffix", src: mv("from s bound 2048 bytes"), want: mv("from s bound 2KB bytes")},
	{name: "bounds inexact stays", src: mv("from s bound 1500 bytes")},
	{name: "bounds zero", src: mv("from s bound 0 rows bound 0 bytes"), want: mv("from s bound 0 rows")},
	{name: "range", src: mv("from range(0, 10)")},
	{name: "range step and negatives", src: mv("from range(-10, -1, 3)"),
		check: func(t *testing.T, p *ir.Pipeline) {
			if r := p.Flows[0].Query.(*ir.Range); r.Start != -10 || r.End != -1 || r.Step != 3 {
				t.Errorf("range: %+v", r)
			}
		}},
	{name: "range alias is a subquery", src: mv("from range(0, 10) as r"),
		check: func(t *testing.T, p *ir.Pipeline) {
			sq, ok := p.Flows[0].Query.(*ir.SubqueryRel)
			if !ok || sq.Alias != "r" {
				t.Fatalf("got %T", p.Flows[0].Query)
			}
			if _, ok := sq.Input.(*ir.Range); !ok {
				t.Errorf("input %T", sq.Input)
			}
		}},
	{name: "subquery with alias", src: mv("from (from s | where a) as q\n  | select q.a")},
	{name: "subquery of a range", src: mv("from (from range(1, 2)) as r"), want: mv("from range(1, 2) as r")},
	{name: "parentheses without alias group", src: mv("from (from s | where a)\n  | select b"), want: mv("from s\n  | where a\n  | select b")},
	{name: "table named like soft keywords", src: mv("from range\n  | join source using (id)\n  | join window as where using (id)")},

	// --- stages
	{name: "where", src: mv("from s\n  | where a > 1"),
		check: func(t *testing.T, p *ir.Pipeline) {
			if _, ok := p.Flows[0].Query.(*ir.Filter); !ok {
				t.Errorf("got %T", p.Flows[0].Query)
			}
		}},
	{name: "select items and stars", src: mv("from s\n  | select a, b as c, *, * except (x, y), t.*, t.* except (z), db.t.*")},
	{name: "group by aggregate is one Aggregate", src: mv("from s\n  | group by a, b as bb aggregate sum(c) as total, count(*)"),
		check: func(t *testing.T, p *ir.Pipeline) {
			a, ok := p.Flows[0].Query.(*ir.Aggregate)
			if !ok || len(a.Keys) != 2 || len(a.Aggs) != 2 || a.Keys[1].Alias != "bb" {
				t.Errorf("aggregate: %#v", p.Flows[0].Query)
			}
		}},
	{name: "group by without aggregates", src: mv("from s\n  | group by a")},
	{name: "global aggregate", src: mv("from s\n  | aggregate count(*) as n"),
		check: func(t *testing.T, p *ir.Pipeline) {
			if a := p.Flows[0].Query.(*ir.Aggregate); len(a.Keys) != 0 || len(a.Aggs) != 1 {
				t.Errorf("aggregate: %+v", a)
			}
		}},
	{name: "where after aggregate is a filter over it", src: mv("from s\n  | group by a aggregate count(*) as n\n  | where n > 1"),
		check: func(t *testing.T, p *ir.Pipeline) {
			f, ok := p.Flows[0].Query.(*ir.Filter)
			if !ok {
				t.Fatalf("got %T", p.Flows[0].Query)
			}
			if _, ok := f.Input.(*ir.Aggregate); !ok {
				t.Errorf("filter input %T", f.Input)
			}
		}},
	{name: "joins", src: mv("from a\n  | join b on a.id = b.id\n  | inner join c using (id)\n  | left join d using (id, k)\n  | right join e on true\n  | full join f on a.x = f.x\n  | semi join g using (id)\n  | anti join h using (id)\n  | cross join i"),
		want: mv("from a\n  | join b on a.id = b.id\n  | join c using (id)\n  | left join d using (id, k)\n  | right join e on true\n  | full join f on a.x = f.x\n  | semi join g using (id)\n  | anti join h using (id)\n  | cross join i"),
		check: func(t *testing.T, p *ir.Pipeline) {
			want := []ir.JoinKind{ir.JoinCross, ir.JoinAnti, ir.JoinSemi, ir.JoinFull, ir.JoinRight, ir.JoinLeft, ir.JoinInner, ir.JoinInner}
			r := p.Flows[0].Query
			for _, k := range want {
				j := r.(*ir.Join)
				if j.Kind != k {
					t.Errorf("join kind %v, want %v", j.Kind, k)
				}
				r = j.Left
			}
		}},
	{name: "join subquery and range", src: mv("from a\n  | join (from b | where x) as b on a.id = b.id\n  | join range(0, 3) as r on r.id = a.id")},
	{name: "join stream with watermark", src: mv("from stream a\n  | join stream b watermark t delay 1s on a.id = b.id and b.t between a.t and a.t + 10s")},
	{name: "windows", src: mv("from s\n  | window tumble(ts, 10s)\n  | window hop(ts, 1m, 10s)\n  | window session(ts, 30m)"),
		check: func(t *testing.T, p *ir.Pipeline) {
			w := p.Flows[0].Query.(*ir.Window)
			h := w.Input.(*ir.Window)
			if w.Kind != ir.WindowSession || w.Gap != ir.Duration(1800e9) || h.Kind != ir.WindowHop || h.Size != ir.Duration(60e9) || h.Slide != ir.Duration(10e9) {
				t.Errorf("windows: %+v %+v", w, h)
			}
		}},
	{name: "union all flattens", src: mv("from a\n  | union all b\n  | union all c\n  | union all d"),
		check: func(t *testing.T, p *ir.Pipeline) {
			u, ok := p.Flows[0].Query.(*ir.Union)
			if !ok || !u.All || len(u.Inputs) != 4 {
				t.Errorf("union: %#v", p.Flows[0].Query)
			}
		}},
	{name: "union distinct flattens, mixed kinds nest", src: mv("from a\n  | union b\n  | union c\n  | union all d"),
		check: func(t *testing.T, p *ir.Pipeline) {
			u := p.Flows[0].Query.(*ir.Union)
			in := u.Inputs[0].(*ir.Union)
			if !u.All || len(u.Inputs) != 2 || in.All || len(in.Inputs) != 3 {
				t.Errorf("union: %+v / %+v", u, in)
			}
		}},
	{name: "union after another stage does not flatten", src: mv("from a\n  | union all b\n  | where x\n  | union all c"),
		check: func(t *testing.T, p *ir.Pipeline) {
			u := p.Flows[0].Query.(*ir.Union)
			if len(u.Inputs) != 2 {
				t.Errorf("union: %+v", u)
			}
		}},
	// set operations and grouping sets (setgroup)
	{name: "except and intersect nest left to right", src: mv("from a\n  | union all b\n  | except c\n  | intersect all (from d | select x)"),
		check: func(t *testing.T, p *ir.Pipeline) {
			it, ok := p.Flows[0].Query.(*ir.SetOp)
			if !ok || it.Kind != ir.SetIntersect || !it.All {
				t.Fatalf("intersect: %#v", p.Flows[0].Query)
			}
			ex, ok := it.Left.(*ir.SetOp)
			if !ok || ex.Kind != ir.SetExcept || ex.All {
				t.Fatalf("except: %#v", it.Left)
			}
			if _, ok := ex.Left.(*ir.Union); !ok {
				t.Errorf("union under except: %#v", ex.Left)
			}
		}},
	{name: "grouping sets name keys by expression or alias", src: mv("from t\n  | group by k, x + 1 as y grouping sets ((y, k), (x + 1), ()) aggregate grouping_id() as g"),
		want: mv("from t\n  | group by k, x + 1 as y grouping sets ((x + 1, k), (x + 1), ()) aggregate grouping_id() as g"),
		check: func(t *testing.T, p *ir.Pipeline) {
			a := p.Flows[0].Query.(*ir.Aggregate)
			if len(a.Sets) != 3 || len(a.Sets[0]) != 2 || a.Sets[0][0] != 1 || a.Sets[0][1] != 0 || len(a.Sets[2]) != 0 {
				t.Errorf("sets: %v", a.Sets)
			}
		}},
	{name: "aggregate filter", src: mv("from t\n  | aggregate count(*) filter (where x > 1) as n, sum(distinct x) filter (where y) as s")},
	{name: "union of a parenthesised union", src: mv("from (from a | union all b)\n  | union all c"),
		check: func(t *testing.T, p *ir.Pipeline) {
			u := p.Flows[0].Query.(*ir.Union)
			if len(u.Inputs) != 2 {
				t.Errorf("union: %+v", u)
			}
		}},
	{name: "union of query items", src: mv("from a\n  | union all (from b | select x) as q\n  | union all range(0, 1)\n  | union all (from c | where y)")},
	{name: "distinct", src: mv("from s\n  | distinct")},
	// dedup within the watermark
	{name: "distinct within watermark", src: "streaming table v =\n  from stream s\n  | distinct within watermark\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			if d, ok := p.Flows[0].Query.(*ir.Distinct); !ok || !d.WithinWatermark || len(d.Keys) != 0 {
				t.Errorf("distinct within watermark: %+v", p.Flows[0].Query)
			}
		}},
	{name: "distinct on within watermark", src: "streaming table v =\n  from stream s\n  | distinct ON (k, `two words`) Within Watermark\n",
		want: "streaming table v =\n  from stream s\n  | distinct on (k, `two words`) within watermark\n",
		check: func(t *testing.T, p *ir.Pipeline) {
			if d, ok := p.Flows[0].Query.(*ir.Distinct); !ok || !d.WithinWatermark || strings.Join(d.Keys, "|") != "k|two words" {
				t.Errorf("distinct on within watermark: %+v", p.Flows[0].Query)
			}
		}},
	{name: "order by", src: mv("from s\n  | order by a, b desc, c nulls first, d desc nulls last, e asc nulls last"),
		want: mv("from s\n  | order by a, b desc, c nulls first, d desc nulls last, e nulls last"),
		check: func(t *testing.T, p *ir.Pipeline) {
			k := p.Flows[0].Query.(*ir.Sort).Keys
			if k[0].Desc || k[0].NullsFirst != nil || !k[1].Desc || !*k[2].NullsFirst || !k[3].Desc || *k[3].NullsFirst {
				t.Errorf("sort keys wrong")
			}
		}},
	{name: "limit offset", src: mv("from s\n  | limit 10 offset 5\n  | limit 0")},

	// --- expressions
	{name: "precedence", src: mv("from s\n  | where a or b and c or not d and e"),
		check: func(t *testing.T, p *ir.Pipeline) {
			or := p.Flows[0].Query.(*ir.Filter).Cond.(*ir.Binary)
			if or.Op != ir.OpOr {
				t.Fatalf("root %v", or.Op)
			}
			if l := or.L.(*ir.Binary); l.Op != ir.OpOr || l.R.(*ir.Binary).Op != ir.OpAnd {
				t.Errorf("left: %v", l.Op)
			}
			if r := or.R.(*ir.Binary); r.Op != ir.OpAnd || r.L.(*ir.Unary).Op != ir.OpNot {
				t.Errorf("right: %v", r.Op)
			}
		}},
	{name: "arithmetic precedence", src: mv("from s\n  | select a + b * c - d / e % f, (a + b) * c, a - (b + c), -a * b, -(a * b), a || b + c"),
		check: func(t *testing.T, p *ir.Pipeline) {
			items := p.Flows[0].Query.(*ir.Project).Items
			if e := items[0].Expr.(*ir.Binary); e.Op != ir.OpSub || e.L.(*ir.Binary).R.(*ir.Binary).Op != ir.OpMul {
				t.Errorf("item 0: %v", e.Op)
			}
			if e := items[5].Expr.(*ir.Binary); e.Op != ir.OpConcat {
				t.Errorf("item 5: %v", e.Op)
			}
		}},
	// bitwise operators: Spark's precedence, | only inside parentheses
	{name: "bitwise precedence", src: mv("from s\n  | select (a | b ^ c & d << 1 || e), (a ^ b | c), a & b = c, ~a + ~-b, a >>> 2 >> 1, a & (b | c), (x | (from t | select max(y)))"),
		check: func(t *testing.T, p *ir.Pipeline) {
			items := p.Flows[0].Query.(*ir.Project).Items
			or := items[0].Expr.(*ir.Binary) // a | ((b ^ (c & (d << (1 || e)))))
			xor := or.R.(*ir.Binary)
			and := xor.R.(*ir.Binary)
			shl := and.R.(*ir.Binary)
			if or.Op != ir.OpBitOr || xor.Op != ir.OpBitXor || and.Op != ir.OpBitAnd || shl.Op != ir.OpShl || shl.R.(*ir.Binary).Op != ir.OpConcat {
				t.Errorf("item 0: %s", ir.FormatExpr(or, ir.SparkName))
			}
			if e := items[1].Expr.(*ir.Binary); e.Op != ir.OpBitOr || e.L.(*ir.Binary).Op != ir.OpBitXor {
				t.Errorf("item 1: %v", e.Op)
			}
			if e := items[2].Expr.(*ir.Binary); e.Op != ir.OpEq || e.L.(*ir.Binary).Op != ir.OpBitAnd {
				t.Errorf("item 2: %v", e.Op)
			}
			if e := items[3].Expr.(*ir.Binary); e.Op != ir.OpAdd || e.L.(*ir.Unary).Op != ir.OpBitNot || e.R.(*ir.Unary).X.(*ir.Unary).Op != ir.OpNeg {
				t.Errorf("item 3: %v", e.Op)
			}
			if e := items[4].Expr.(*ir.Binary); e.Op != ir.OpShr || e.L.(*ir.Binary).Op != ir.OpShrU {
				t.Errorf("item 4: %v", e.Op)
			}
			if e := items[6].Expr.(*ir.Binary); e.Op != ir.OpBitOr {
				t.Errorf("item 6: %v", e.Op)
			} else if _, ok := e.R.(*ir.ScalarSubquery); !ok {
				t.Errorf("item 6: the subquery's | is a pipe, got %T", e.R)
			}
		}},
	{name: "bitwise or prints in parentheses", src: mv("from s\n  | where ((a | b)) > 0 and f((a | b), arr[(0 | 0)]) = 1"),
		want: mv("from s\n  | where (a | b) > 0 and f((a | b), arr[(0 | 0)]) = 1")},
	{name: "redundant parentheses dropped", src: mv("from s\n  | where ((a)) and (b = c) and (not d)"), want: mv("from s\n  | where a and b = c and not d")},
	{name: "!= prints as <>", src: mv("from s\n  | where a != b"), want: mv("from s\n  | where a <> b"),
		check: func(t *testing.T, p *ir.Pipeline) {
			if p.Flows[0].Query.(*ir.Filter).Cond.(*ir.Binary).Op != ir.OpNe {
				t.Error("not OpNe")
			}
		}},
	{name: "comparisons", src: mv("from s\n  | where a = b and a <> b and a < b and a <= b and a > b and a >= b and a <=> b")},
	{name: "predicates", src: mv("from s\n  | where a is null and a is not null and a in (1, 2) and a not in ('x') and a between 1 and 2 and a not between 1 and 2 and s like 'a%' and s not like 'b'")},
	{name: "in subquery", src: mv("from s\n  | where a in (from t | select a) and b not in (from u)"),
		check: func(t *testing.T, p *ir.Pipeline) {
			and := p.Flows[0].Query.(*ir.Filter).Cond.(*ir.Binary)
			if in := and.L.(*ir.InSubquery); in.Not {
				t.Error("first is not in")
			}
			if in := and.R.(*ir.InSubquery); !in.Not {
				t.Error("second is in")
			}
		}},
	// correlated subqueries
	{name: "exists subquery", src: mv("from s as o\n  | where exists (from t | where t.k = o.k) and not exists (from u)\n  | select a, not exists (from t | where t.k = o.k and t.v > o.v) as none"),
		want: mv("from s as o\n  | where exists (from t | where t.k = o.k) and not exists (from u)\n  | select a, not exists (from t | where t.k = o.k and t.v > o.v) as none"),
		check: func(t *testing.T, p *ir.Pipeline) {
			and := p.Flows[0].Query.(*ir.Project).Input.(*ir.Filter).Cond.(*ir.Binary)
			if ex := and.L.(*ir.Exists); ex.Not {
				t.Error("first is not exists")
			}
			if ex := and.R.(*ir.Exists); !ex.Not {
				t.Error("second is exists")
			}
		}},
	{name: "not not exists folds", src: mv("from s\n  | where not (not exists (from t))"), want: mv("from s\n  | where exists (from t)")},
	{name: "in list holding a scalar subquery", src: mv("from s\n  | where a in ((from t | select a), 2)")},
	{name: "scalar subquery", src: mv("from s\n  | select (from t | aggregate max(x)) as m, a + (from u | aggregate min(y))")},
	{name: "case", src: mv("from s\n  | select case when a then 1 when b then 2 else 3 end, case x when 1 then 'a' end")},
	{name: "cast", src: mv("from s\n  | select cast(a as int64), try_cast(b as decimal(9,3)), cast(c as timestamp(ms, \"Europe/Oslo\")), CAST(d AS bigint)"),
		want: mv("from s\n  | select cast(a as int64), try_cast(b as decimal(9,3)), cast(c as timestamp(ms, \"Europe/Oslo\")), cast(d as int64)")},
	{name: "calls", src: mv("from s\n  | select COUNT(*), count(DISTINCT a), Coalesce(a, 0), now(), f(g(h(1)))"),
		want: mv("from s\n  | select count(*), count(distinct a), coalesce(a, 0), now(), f(g(h(1)))"),
		check: func(t *testing.T, p *ir.Pipeline) {
			items := p.Flows[0].Query.(*ir.Project).Items
			if c := items[0].Expr.(*ir.Call); c.Name != "count" || !c.Star {
				t.Errorf("count(*): %+v", c)
			}
			if c := items[1].Expr.(*ir.Call); !c.Distinct || len(c.Args) != 1 {
				t.Errorf("count(distinct): %+v", c)
			}
		}},
	// lambdas (lambda.go): a parameter shadows a column, a qualified name stays a column
	{name: "lambdas", src: mv("from s\n  | select transform(xs, x -> x + 1) as a, filter(xs, (x, i) -> x > i and t.x > 0) as b, aggregate(xs, 0, (acc, x) -> acc + x, acc -> acc * 2) as c, transform(xs, x -> transform(ys, y -> x + y)) as d"),
		check: func(t *testing.T, p *ir.Pipeline) {
			items := p.Flows[0].Query.(*ir.Project).Items
			l := items[0].Expr.(*ir.Call).Args[1].(*ir.Lambda)
			if len(l.Params) != 1 || l.Params[0] != "x" {
				t.Errorf("x -> x + 1: %+v", l)
			}
			if v, ok := l.Body.(*ir.Binary).L.(*ir.LambdaVar); !ok || v.Name != "x" {
				t.Errorf("x in the body is not the lambda's variable: %#v", l.Body.(*ir.Binary).L)
			}
			l = items[1].Expr.(*ir.Call).Args[1].(*ir.Lambda)
			and := l.Body.(*ir.Binary)
			if len(l.Params) != 2 || l.Params[1] != "i" {
				t.Errorf("(x, i): %+v", l)
			}
			if c, ok := and.R.(*ir.Binary).L.(*ir.ColumnRef); !ok || c.Qualifier != "t" || c.Name != "x" {
				t.Errorf("t.x is not a column: %#v", and.R.(*ir.Binary).L)
			}
			if c := items[2].Expr.(*ir.Call); len(c.Args) != 4 {
				t.Errorf("aggregate with finish: %d args", len(c.Args))
			}
			inner := items[3].Expr.(*ir.Call).Args[1].(*ir.Lambda).Body.(*ir.Call).Args[1].(*ir.Lambda).Body.(*ir.Binary)
			if _, ok := inner.L.(*ir.LambdaVar); !ok {
				t.Errorf("the outer lambda's x is not a variable in the inner body: %#v", inner.L)
			}
			if _, ok := inner.R.(*ir.LambdaVar); !ok {
				t.Errorf("y is not a variable: %#v", inner.R)
			}
		}},
	{name: "lambda spacing and case", src: mv("from s\n  | select TRANSFORM(xs, X->x+1), exists(xs,(a,b)->a=b), map_filter(m, (k, v) -> v is not null)"),
		want: mv("from s\n  | select transform(xs, X -> x + 1), exists(xs, (a, b) -> a = b), map_filter(m, (k, v) -> v is not null)"),
		check: func(t *testing.T, p *ir.Pipeline) {
			body := p.Flows[0].Query.(*ir.Project).Items[0].Expr.(*ir.Call).Args[1].(*ir.Lambda).Body.(*ir.Binary)
			if _, ok := body.L.(*ir.LambdaVar); !ok {
				t.Errorf("x does not resolve to the parameter X case-insensitively: %#v", body.L)
			}
		}},
	{name: "lambda in a generator's argument", src: mv("from s\n  | lateral view explode(filter(xs, x -> x > 0)) as v")},
	{name: "column refs", src: mv("from s\n  | select a, t.a, db.t.a, `a b`.`c d`, `weird``name`"),
		check: func(t *testing.T, p *ir.Pipeline) {
			items := p.Flows[0].Query.(*ir.Project).Items
			if c := items[2].Expr.(*ir.ColumnRef); c.Qualifier != "db.t" || c.Name != "a" {
				t.Errorf("db.t.a: %+v", c)
			}
			if c := items[4].Expr.(*ir.ColumnRef); c.Name != "weird`name" {
				t.Errorf("quoted: %+v", c)
			}
		}},
	{name: "unary minus", src: mv("from s\n  | select -a, -(-a), - - a, a - -b, -1, -(a + b)"),
		want: mv("from s\n  | select -a, -(-a), -(-a), a - -b, -1, -(a + b)")},
	{name: "literals", src: mv("from s\n  | select null, TRUE, False, 0, 007, 2147483648, 1.50, 00.5, 1.5E3, 1e-2, 'a''b', '', 90m, 0s, 1d2h, timestamp '2024-01-01 12:00:00', date '2024-01-31'"),
		want: mv("from s\n  | select null, true, false, 0, 7, 2147483648, 1.50, 00.5, 1.5e3, 1e-2, 'a''b', '', 1h30m, 0s, 1d2h, timestamp '2024-01-01 12:00:00', date '2024-01-31'"),
		check: func(t *testing.T, p *ir.Pipeline) {
			items := p.Flows[0].Query.(*ir.Project).Items
			want := []struct {
				kind ir.LitKind
				text string
			}{{ir.LitNull, ""}, {ir.LitBool, "true"}, {ir.LitBool, "false"}, {ir.LitInt, "0"}, {ir.LitInt, "7"}, {ir.LitInt, "2147483648"},
				{ir.LitDecimal, "1.50"}, {ir.LitDecimal, "00.5"}, {ir.LitFloat, "1.5e3"}, {ir.LitFloat, "1e-2"}, {ir.LitString, "a'b"}, {ir.LitString, ""},
				{ir.LitInterval, "1h30m"}, {ir.LitInterval, "0s"}, {ir.LitInterval, "1d2h"}, {ir.LitTimestamp, "2024-01-01 12:00:00"}, {ir.LitDate, "2024-01-31"}}
			for i, w := range want {
				l := items[i].Expr.(*ir.Literal)
				if l.Kind != w.kind || l.Text != w.text {
					t.Errorf("literal %d: %v %q, want %v %q", i, l.Kind, l.Text, w.kind, w.text)
				}
			}
		}},
	{name: "timestamp canonical UTC", src: mv("from s\n  | select timestamp '2024-01-01T12:00:00Z', timestamp '2024-01-01 12:00', timestamp '2024-01-01', timestamp '2024-01-01 01:30:00+02:00', timestamp '2024-01-01 00:00:00.5', timestamp '2024-12-31 23:00:00-01:30'"),
		want: mv("from s\n  | select timestamp '2024-01-01 12:00:00', timestamp '2024-01-01 12:00:00', timestamp '2024-01-01 00:00:00', timestamp '2023-12-31 23:30:00', timestamp '2024-01-01 00:00:00.500000', timestamp '2025-01-01 00:30:00'")},
	{name: "strings keep everything", src: mv("from s\n  | where a = 'multi\nline' and b = '\"' and c = '#not a comment' and d = '-- nor this'")},
	{name: "identifiers that need quotes", src: mv("from `from`\n  | select `select` as `as`, `null`, `1x`, `a-b`, ``, `é`"), want: mv("from `from`\n  | select select as `as`, `null`, `1x`, `a-b`, ``, `é`")},
	{name: "soft keywords as names", src: mv("from source\n  | select date, timestamp, window, name, id, type, first, last, rows, bytes, source, view, flow, where, select, asc, desc, nulls, session")},
	{name: "soft keywords in their places", src: mv("from s\n  | order by desc desc, asc, nulls nulls first")},
	{name: "expectations with expressions", src: "streaming table t\n  expect a: x > 0 and y is not null on violation drop\n  expect b: z in (1, 2, 3)\n"},
}

func TestConstructs(t *testing.T) {
	for _, c := range constructCases {
		t.Run(c.name, func(t *testing.T) {
			p, diags := Parse("t.thund", []byte(c.src))
			if diags != nil {
				t.Fatalf("parse: %v", diags)
			}
			want := c.want
			if want == "" {
				want = c.src
			}
			if got := string(ir.Print(p)); got != want {
				t.Errorf("print:\n%s", diff.Diff("want", []byte(want), "got", []byte(got)))
			}
			checkRoundTrip(t, "t.thund", p)
			if c.check != nil {
				c.check(t, p)
			}
		})
	}
}

// TestPositions checks where a few nodes point.
func TestPositions(t *testing.T) {
	src := "pipeline p\n\nmaterialized view v =\n  from s\n  | where a + b > 1\n"
	p, diags := Parse("pos.thund", []byte(src))
	if diags != nil {
		t.Fatal(diags)
	}
	at := func(what string, pos ir.Pos, line, col int) {
		t.Helper()
		if pos.Line != line || pos.Col != col || pos.File != "pos.thund" {
			t.Errorf("%s at %v, want %d:%d", what, pos, line, col)
		}
		if off := strings.Index(src, strings.Split(src, "\n")[line-1]) + col - 1; pos.Offset != off {
			t.Errorf("%s offset %d, want %d", what, pos.Offset, off)
		}
	}
	at("pipeline", p.Pos, 1, 1)
	at("dataset", p.Datasets[0].Pos, 3, 1)
	at("flow", p.Flows[0].Pos, 3, 21)
	f := p.Flows[0].Query.(*ir.Filter)
	at("filter", f.Pos, 5, 5)
	at("scan", f.Input.Position(), 4, 8)
	gt := f.Cond.(*ir.Binary)
	at(">", gt.Pos, 5, 17)
	at("+", gt.L.Position(), 5, 13)
	at("a", gt.L.(*ir.Binary).L.Position(), 5, 11)
	at("1", gt.R.Position(), 5, 19)
}
