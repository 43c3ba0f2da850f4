package sql_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nordisk/thund/frontend/sql"
	"github.com/nordisk/thund/ir"
)

func col(name string) *ir.ColumnRef { return &ir.ColumnRef{Name: name} }

func lit(k ir.LitKind, text string) *ir.Literal { return &ir.Literal{Kind: k, Text: text} }

func scan(name string) *ir.Scan { return &ir.Scan{Name: name} }

func mv(name string, q ir.Rel) ([]*ir.Dataset, []*ir.Flow) {
	return []*ir.Dataset{{Kind: ir.KindMaterializedView, Name: name}},
		[]*ir.Flow{{Name: name, Target: name, Query: q}}
}

// irCases are the forms whose IR is best stated with the ir API: what the
// DSL has no text for, or what depends on several files.
var irCases = []struct {
	name string
	sql  string
	want func() *ir.Pipeline
}{
	{
		name: "nested types, subscripts, fields of expressions and dotted references",
		sql: `CREATE MATERIALIZED VIEW m (a ARRAY<INT>, s STRUCT<x: BIGINT NOT NULL, y MAP<STRING, DOUBLE>>) AS
			SELECT CAST(a AS ARRAY<INT>) AS a, named_struct('x', 1)['x'] AS s, t.s.y, f(a)[0].z[1], a[0]::STRUCT<> AS e FROM t`,
		want: func() *ir.Pipeline {
			st := ir.StructOf(ir.StructField{Name: "x", Type: ir.Int64, NotNull: true}, ir.StructField{Name: "y", Type: ir.MapOf(ir.StringT, ir.Float64, true)})
			arr := ir.ArrayOf(ir.Int32, true)
			ns := &ir.Call{Name: "named_struct", Args: []ir.Expr{lit(ir.LitString, "x"), lit(ir.LitInt, "1")}}
			f := &ir.Call{Name: "f", Args: []ir.Expr{col("a")}}
			ds, fs := mv("m", &ir.Project{Input: scan("t"), Items: []*ir.NamedExpr{
				{Expr: &ir.Cast{X: col("a"), To: arr}, Alias: "a"},
				{Expr: &ir.Subscript{X: ns, Index: lit(ir.LitString, "x")}, Alias: "s"},
				{Expr: &ir.ColumnRef{Qualifier: "t.s", Name: "y"}},
				{Expr: &ir.Subscript{X: &ir.GetField{X: &ir.Subscript{X: f, Index: lit(ir.LitInt, "0")}, Name: "z"}, Index: lit(ir.LitInt, "1")}},
				{Expr: &ir.Cast{X: &ir.Subscript{X: col("a"), Index: lit(ir.LitInt, "0")}, To: ir.StructOf()}, Alias: "e"},
			}})
			ds[0].Columns = []*ir.Column{{Name: "a", Type: arr}, {Name: "s", Type: st}}
			return &ir.Pipeline{Datasets: ds, Flows: fs}
		},
	},
	{
		name: "group by without aggregates is an Aggregate without Aggs",
		sql:  `CREATE MATERIALIZED VIEW m AS SELECT k FROM t GROUP BY k`,
		want: func() *ir.Pipeline {
			ds, fs := mv("m", &ir.Aggregate{Input: scan("t"), Keys: []*ir.NamedExpr{{Expr: col("k")}}})
			return &ir.Pipeline{Datasets: ds, Flows: fs}
		},
	},
	{
		name: "a non-reserved keyword names a dataset, a flow and a read, as in Spark",
		sql: `CREATE STREAMING TABLE table;
			CREATE FLOW stream AS INSERT INTO table SELECT * FROM STREAM view;
			CREATE MATERIALIZED VIEW select AS SELECT * FROM table`,
		want: func() *ir.Pipeline {
			return &ir.Pipeline{
				Datasets: []*ir.Dataset{{Kind: ir.KindStreamingTable, Name: "table"}, {Kind: ir.KindMaterializedView, Name: "select"}},
				Flows: []*ir.Flow{
					{Name: "stream", Target: "table", ByName: true, Query: &ir.Scan{Name: "view", Stream: true}},
					{Name: "select", Target: "select", Query: scan("table")},
				},
			}
		},
	},
	{
		name: "a SELECT without FROM reads one row of range(0, 1)",
		sql:  `CREATE MATERIALIZED VIEW m AS SELECT 1 AS one`,
		want: func() *ir.Pipeline {
			ds, fs := mv("m", &ir.Project{Input: &ir.Range{Start: 0, End: 1}, Items: []*ir.NamedExpr{{Expr: lit(ir.LitInt, "1"), Alias: "one"}}})
			return &ir.Pipeline{Datasets: ds, Flows: fs}
		},
	},
	{
		name: "unaliased aggregates used by HAVING get Spark's column names",
		sql:  `CREATE MATERIALIZED VIEW m AS SELECT k, sum(v) FROM t GROUP BY k HAVING sum(v) > 1`,
		want: func() *ir.Pipeline {
			sum := &ir.Call{Name: "sum", Args: []ir.Expr{col("v")}}
			agg := &ir.Aggregate{Input: scan("t"), Keys: []*ir.NamedExpr{{Expr: col("k")}}, Aggs: []*ir.NamedExpr{{Expr: sum, Alias: "sum(v)"}}}
			ds, fs := mv("m", &ir.Filter{Input: agg, Cond: &ir.Binary{Op: ir.OpGt, L: col("sum(v)"), R: lit(ir.LitInt, "1")}})
			return &ir.Pipeline{Datasets: ds, Flows: fs}
		},
	},
	{
		name: "ORDER BY an aggregate outside the select list sorts below the Project",
		sql:  `CREATE MATERIALIZED VIEW m AS SELECT k FROM t GROUP BY k ORDER BY count(*) DESC`,
		want: func() *ir.Pipeline {
			cnt := &ir.Call{Name: "count", Star: true}
			agg := &ir.Aggregate{Input: scan("t"), Keys: []*ir.NamedExpr{{Expr: col("k")}}, Aggs: []*ir.NamedExpr{{Expr: cnt, Alias: "count(1)"}}}
			sort := &ir.Sort{Input: agg, Keys: []*ir.SortKey{{Expr: col("count(1)"), Desc: true}}}
			ds, fs := mv("m", &ir.Project{Input: sort, Items: []*ir.NamedExpr{{Expr: col("k")}}})
			return &ir.Pipeline{Datasets: ds, Flows: fs}
		},
	},
	{
		name: "an expression over a grouping key is computed by the Project",
		sql:  `CREATE MATERIALIZED VIEW m AS SELECT k + 1 AS k1, max(v) AS mx FROM t GROUP BY k`,
		want: func() *ir.Pipeline {
			agg := &ir.Aggregate{Input: scan("t"), Keys: []*ir.NamedExpr{{Expr: col("k")}},
				Aggs: []*ir.NamedExpr{{Expr: &ir.Call{Name: "max", Args: []ir.Expr{col("v")}}, Alias: "mx"}}}
			ds, fs := mv("m", &ir.Project{Input: agg, Items: []*ir.NamedExpr{
				{Expr: &ir.Binary{Op: ir.OpAdd, L: col("k"), R: lit(ir.LitInt, "1")}, Alias: "k1"},
				{Expr: col("mx")},
			}})
			return &ir.Pipeline{Datasets: ds, Flows: fs}
		},
	},
	{
		name: "Spark literal types that are casts",
		sql:  `CREATE MATERIALIZED VIEW m AS SELECT 2S AS s, -128Y AS y, 1.5F AS f, 12BD AS bd, 1. AS d, 9223372036854775808 AS big, TIMESTAMP_NTZ '2024-01-01 00:00:00' AS ntz`,
		want: func() *ir.Pipeline {
			ds, fs := mv("m", &ir.Project{Input: &ir.Range{End: 1}, Items: []*ir.NamedExpr{
				{Expr: &ir.Cast{X: lit(ir.LitInt, "2"), To: ir.Int16}, Alias: "s"},
				{Expr: &ir.Cast{X: &ir.Unary{Op: ir.OpNeg, X: lit(ir.LitInt, "128")}, To: ir.Int8}, Alias: "y"},
				{Expr: &ir.Cast{X: lit(ir.LitFloat, "1.5e0"), To: ir.Float32}, Alias: "f"},
				{Expr: &ir.Cast{X: lit(ir.LitInt, "12"), To: ir.Decimal(2, 0)}, Alias: "bd"},
				{Expr: &ir.Cast{X: lit(ir.LitInt, "1"), To: ir.Decimal(1, 0)}, Alias: "d"},
				{Expr: &ir.Cast{X: lit(ir.LitDecimal, "9223372036854775808.0"), To: ir.Decimal(19, 0)}, Alias: "big"},
				{Expr: &ir.Cast{X: lit(ir.LitTimestamp, "2024-01-01 00:00:00"), To: ir.Timestamp(ir.Micro, "")}, Alias: "ntz"},
			}})
			return &ir.Pipeline{Datasets: ds, Flows: fs}
		},
	},
	{
		name: "a qualified read of a pipeline dataset is its plain name; external reads under USE are qualified",
		sql: `USE SCHEMA s;
			CREATE MATERIALIZED VIEW a AS SELECT 1 AS x;
			CREATE MATERIALIZED VIEW b AS SELECT * FROM s.a JOIN ext USING (x) JOIN other.y USING (x)`,
		want: func() *ir.Pipeline {
			one := &ir.Project{Input: &ir.Range{End: 1}, Items: []*ir.NamedExpr{{Expr: lit(ir.LitInt, "1"), Alias: "x"}}}
			j1 := &ir.Join{Kind: ir.JoinInner, Left: scan("a"), Right: scan("s.ext"), Using: []string{"x"}}
			j2 := &ir.Join{Kind: ir.JoinInner, Left: j1, Right: scan("other.y"), Using: []string{"x"}}
			return &ir.Pipeline{
				Datasets: []*ir.Dataset{
					{Kind: ir.KindMaterializedView, Name: "a", Database: "s"},
					{Kind: ir.KindMaterializedView, Name: "b", Database: "s"},
				},
				Flows: []*ir.Flow{{Name: "a", Target: "a", Query: one}, {Name: "b", Target: "b", Query: j2}},
			}
		},
	},
	{
		name: "a flow's conf is the SET in force where it is written; a flow into a qualified target",
		sql: `CREATE STREAMING TABLE st;
			SET k = v;
			SET k = w;
			SET spark.x = 'quoted';
			CREATE FLOW f AS INSERT INTO default.st SELECT * FROM STREAM(src)`,
		want: func() *ir.Pipeline {
			return &ir.Pipeline{
				Datasets: []*ir.Dataset{{Kind: ir.KindStreamingTable, Name: "st"}},
				Flows: []*ir.Flow{{Name: "f", Target: "default.st", ByName: true,
					Conf:  []ir.KV{{Key: "k", Value: "w"}, {Key: "spark.x", Value: "'quoted'"}},
					Query: &ir.Scan{Name: "src", Stream: true}}},
			}
		},
	},
	{
		name: "generators: chained LATERAL VIEWs before WHERE, OUTER, a SELECT-list generator by its names or as a star",
		sql: `CREATE MATERIALIZED VIEW a AS SELECT e.id, t.x FROM ev e LATERAL VIEW OUTER explode(e.xs) t AS x LATERAL VIEW posexplode_outer(m) p WHERE t.x > 1;
			CREATE MATERIALIZED VIEW b AS SELECT id, posexplode(xs) AS (i, x) FROM ev;
			CREATE MATERIALIZED VIEW c AS SELECT inline(items) FROM ev`,
		want: func() *ir.Pipeline {
			t := &ir.Generate{Input: &ir.Scan{Name: "ev", Alias: "e"}, Func: "explode", Args: []ir.Expr{&ir.ColumnRef{Qualifier: "e", Name: "xs"}}, Outer: true, Alias: "t", Names: []string{"x"}}
			p := &ir.Generate{Input: t, Func: "posexplode", Args: []ir.Expr{col("m")}, Outer: true, Alias: "p"}
			a := &ir.Project{Input: &ir.Filter{Input: p, Cond: &ir.Binary{Op: ir.OpGt, L: &ir.ColumnRef{Qualifier: "t", Name: "x"}, R: lit(ir.LitInt, "1")}},
				Items: []*ir.NamedExpr{{Expr: &ir.ColumnRef{Qualifier: "e", Name: "id"}}, {Expr: &ir.ColumnRef{Qualifier: "t", Name: "x"}}}}
			b := &ir.Project{Input: &ir.Generate{Input: scan("ev"), Func: "posexplode", Args: []ir.Expr{col("xs")}, Alias: "posexplode", Names: []string{"i", "x"}},
				Items: []*ir.NamedExpr{{Expr: col("id")}, {Expr: &ir.ColumnRef{Qualifier: "posexplode", Name: "i"}}, {Expr: &ir.ColumnRef{Qualifier: "posexplode", Name: "x"}}}}
			c := &ir.Project{Input: &ir.Generate{Input: scan("ev"), Func: "inline", Args: []ir.Expr{col("items")}, Alias: "inline"},
				Items: []*ir.NamedExpr{{Expr: &ir.Star{Qualifier: "inline"}}}}
			return &ir.Pipeline{
				Datasets: []*ir.Dataset{{Kind: ir.KindMaterializedView, Name: "a"}, {Kind: ir.KindMaterializedView, Name: "b"}, {Kind: ir.KindMaterializedView, Name: "c"}},
				Flows:    []*ir.Flow{{Name: "a", Target: "a", Query: a}, {Name: "b", Target: "b", Query: b}, {Name: "c", Target: "c", Query: c}},
			}
		},
	},
}

func TestIR(t *testing.T) {
	for _, c := range irCases {
		t.Run(c.name, func(t *testing.T) {
			got := parseSQL(t, c.sql)
			if d := ir.Diff(got, c.want()); d != "" {
				t.Errorf("%s\ngot:\n%s", d, ir.Print(got))
			}
		})
	}
}

// TestPositions: datasets, flows and reads carry their source positions.
func TestPositions(t *testing.T) {
	src := "SET a = b;\n\nCREATE MATERIALIZED VIEW\n  m AS\n    SELECT x FROM t"
	p := parseSQL(t, src)
	d, f := p.Datasets[0], p.Flows[0]
	if got := d.Pos.String(); got != "test.sql:4:3" {
		t.Errorf("dataset at %s", got)
	}
	if got := f.Pos.String(); got != "test.sql:5:5" {
		t.Errorf("flow at %s", got)
	}
	s := ir.Scans(f.Query)[0]
	if got := s.Pos.String(); got != "test.sql:5:19" || s.Pos.Offset != len(src)-1 {
		t.Errorf("scan at %s (offset %d)", got, s.Pos.Offset)
	}
	if got := d.Conf[0].Pos.String(); got != "test.sql:1:1" {
		t.Errorf("conf at %s", got)
	}
}

// TestFilesScopeSetAndUse: each file starts from the graph defaults.
func TestFilesScopeSetAndUse(t *testing.T) {
	p, diags := sql.ParseWith([]sql.File{
		{Name: "a.sql", Src: []byte("SET k = 1; USE SCHEMA s2; CREATE MATERIALIZED VIEW a AS SELECT 1 AS x")},
		{Name: "b.sql", Src: []byte("CREATE MATERIALIZED VIEW b AS SELECT * FROM a; CREATE MATERIALIZED VIEW c AS SELECT * FROM s2.a; CREATE MATERIALIZED VIEW d AS SELECT * FROM cat.s1.b")},
	}, sql.Options{Catalog: "cat", Database: "s1"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	a, b := p.Datasets[0], p.Datasets[1]
	if a.Database != "s2" || len(a.Conf) != 1 || a.Catalog != "" {
		t.Errorf("a: database %q catalog %q conf %v", a.Database, a.Catalog, a.Conf)
	}
	if b.Database != "" || b.Conf != nil {
		t.Errorf("b: database %q conf %v", b.Database, b.Conf)
	}
	for i, want := range []string{"a", "a", "b"} {
		if got := ir.Scans(p.Flows[i+1].Query)[0].Name; got != want {
			t.Errorf("flow %s reads %q, want %q", p.Flows[i+1].Name, got, want)
		}
	}
	if p.Catalog != "cat" || p.Database != "s1" {
		t.Errorf("pipeline defaults %q %q", p.Catalog, p.Database)
	}
}

// TestSourceBinding: a spec's thund.source.<name> turns reads of an
// external table into reads of a source.
func TestSourceBinding(t *testing.T) {
	withFixtures(t)
	p, diags := sql.ParseWith([]sql.File{
		{Name: "t.sql", Src: []byte("CREATE STREAMING TABLE s AS SELECT * FROM STREAM(landing.events)")},
	}, sql.Options{Sources: []sql.SourceBinding{{
		Pos:  ir.Pos{File: "spark-pipeline.yml", Line: 5, Col: 3},
		Name: "landing.events",
		Spec: "read_files('in/', format => 'parquet') WATERMARK ts DELAY OF INTERVAL 3 SECONDS",
		Dir:  ".",
	}}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := parseDSL(t, `streaming table s = from stream events
		source events stream from parquet "in/" { ts timestamp(us, "UTC"), v int64 watermark ts delay 3s }`)
	// Declaration order differs (the binding comes last); compare per name.
	if len(p.Datasets) != 2 || p.Datasets[1].Name != "events" {
		t.Fatalf("datasets %v", p.Datasets)
	}
	p.Datasets[0], p.Datasets[1] = p.Datasets[1], p.Datasets[0]
	want.Datasets[0], want.Datasets[1] = want.Datasets[1], want.Datasets[0]
	if d := ir.Diff(p, want); d != "" {
		t.Errorf("%s\n%s", d, ir.Print(p))
	}
}

// TestKafkaSourceBinding: thund.source.<name> binds a read_kafka too; a
// stream read makes the source a stream.
func TestKafkaSourceBinding(t *testing.T) {
	p, diags := sql.ParseWith([]sql.File{
		{Name: "t.sql", Src: []byte("CREATE STREAMING TABLE s AS SELECT CAST(value AS STRING) AS v FROM STREAM(landing.clicks)")},
	}, sql.Options{Sources: []sql.SourceBinding{{
		Pos:  ir.Pos{File: "spark-pipeline.yml", Line: 5, Col: 3},
		Name: "landing.clicks",
		Spec: "read_kafka(bootstrapServers => 'h:1', subscribe => 'clicks', `kafka.client.id` => 'me') WATERMARK timestamp DELAY OF INTERVAL 3 SECONDS",
		Dir:  ".",
	}}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := parseDSL(t, `streaming table s = from stream clicks | select cast(value as string) as v
		source clicks stream from kafka options ("bootstrapServers" = "h:1", "subscribe" = "clicks", "kafka.client.id" = "me") { watermark timestamp delay 3s }`)
	if len(p.Datasets) != 2 || p.Datasets[1].Name != "clicks" {
		t.Fatalf("datasets %v", p.Datasets)
	}
	p.Datasets[0], p.Datasets[1] = p.Datasets[1], p.Datasets[0]
	want.Datasets[0], want.Datasets[1] = want.Datasets[1], want.Datasets[0]
	if d := ir.Diff(p, want); d != "" {
		t.Errorf("%s\n%s", d, ir.Print(p))
	}
	if got := p.Datasets[0].Source.Options[2].Pos; got.File != "spark-pipeline.yml" {
		t.Errorf("option position %v", got)
	}
}

// TestSynthesizedNames: inline file reads are named <flow>_files_<n>, in
// source order, and never take a declared name.
func TestSynthesizedNames(t *testing.T) {
	withFixtures(t)
	p := parseSQL(t, "CREATE MATERIALIZED VIEW `My Flow` AS SELECT * FROM parquet.`in/` UNION ALL SELECT * FROM parquet.`in/`;"+
		"CREATE MATERIALIZED VIEW my_flow_files_2 AS SELECT 1 AS x")
	var names []string
	for _, d := range p.Datasets {
		names = append(names, d.Name)
	}
	if got := strings.Join(names, " "); got != "my_flow_files_1 my_flow_files_2_2 My Flow my_flow_files_2" {
		t.Errorf("datasets %s", got)
	}
	var reads []string
	for _, s := range ir.Scans(p.Flows[0].Query) {
		reads = append(reads, s.Name)
	}
	if got := strings.Join(reads, " "); got != "my_flow_files_1 my_flow_files_2_2" {
		t.Errorf("reads %s", got)
	}
	// A WITH query read twice reads one source.
	p = parseSQL(t, "CREATE MATERIALIZED VIEW m AS WITH src AS (SELECT * FROM parquet.`in/`) SELECT * FROM src AS a JOIN src AS b USING (v)")
	if len(p.Datasets) != 2 || p.Datasets[0].Name != "m_files_1" {
		t.Errorf("datasets %s", ir.Print(p))
	}
}

// TestInference: schemas of Parquet, Arrow IPC (file and stream), CSV and
// JSON-lines files, read relative to the SQL file's folder.
func TestInference(t *testing.T) {
	dir := t.TempDir()
	writeParquet(t, filepath.Join(dir, "data", "p", "a.parquet"))
	writeArrowFile(t, filepath.Join(dir, "data", "f.arrow"), false)
	writeArrowFile(t, filepath.Join(dir, "data", "s.arrows"), true)
	writeText(t, filepath.Join(dir, "data", "c.csv"), "id,name,score,ok,day,ts,big\n"+
		"1,a,1.5,true,2024-01-01,2024-01-01 10:00:00,3000000000\n"+
		"2,,2,false,2024-01-02,2024-01-01T11:00:00Z,1\n")
	writeText(t, filepath.Join(dir, "data", "nh.csv"), "1;x\n2;y\n")
	writeText(t, filepath.Join(dir, "data", "j.json"), `{"b": 1, "a": "x", "c": 1.5, "d": true, "e": null}`+"\n"+
		`{"b": 2.5, "a": "y", "c": 2, "d": false, "e": null}`+"\n")
	src := `CREATE TEMPORARY VIEW p AS SELECT * FROM read_files('data/p/*.parquet');
CREATE TEMPORARY VIEW f AS SELECT * FROM read_files('data/f.arrow');
CREATE TEMPORARY VIEW s AS SELECT * FROM read_files('data/s.arrows');
CREATE TEMPORARY VIEW c AS SELECT * FROM read_files('data/c.csv', header => true);
CREATE TEMPORARY VIEW nh AS SELECT * FROM read_files('data/nh.csv', format => 'csv', sep => ';');
CREATE TEMPORARY VIEW ns AS SELECT * FROM read_files('data/nh.csv', format => 'csv', sep => ';', inferColumnTypes => false);
CREATE TEMPORARY VIEW j AS SELECT * FROM json.` + "`data/j.json`"
	p, diags := sql.Parse([]sql.File{{Name: filepath.Join(dir, "pipe.sql"), Src: []byte(src)}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := map[string]string{
		"p":  `ts timestamp(us, "UTC"), v int64`,
		"f":  `ts timestamp(us, "UTC"), v int64`,
		"s":  `ts timestamp(us, "UTC"), v int64`,
		"c":  `id int32, name string, score float64, ok bool, day date32, ts timestamp(us, "UTC"), big int64`,
		"nh": `_c0 int32, _c1 string`,
		"ns": `_c0 string, _c1 string`,
		"j":  `a string, b float64, c float64, d bool, e string`,
	}
	for _, d := range p.Datasets {
		var cols []string
		for _, c := range d.Columns {
			cols = append(cols, c.Name+" "+c.Type.String())
		}
		if got := strings.Join(cols, ", "); got != want[d.Name] {
			t.Errorf("%s: %s, want %s", d.Name, got, want[d.Name])
		}
		if d.Kind != ir.KindSource {
			t.Errorf("%s is a %s", d.Name, d.Kind)
		}
	}
	if got := p.Datasets[3].Source.Options; len(got) != 1 || got[0].Key != "header" || got[0].Value != "true" {
		t.Errorf("csv options %v", got)
	}
}

// TestInferenceErrors: nested JSON and unreadable files are named.
func TestInferenceErrors(t *testing.T) {
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "n.json"), `{"a": {"b": 1}}`+"\n")
	writeText(t, filepath.Join(dir, "bad.parquet"), "not parquet")
	_, diags := sql.Parse([]sql.File{{Name: filepath.Join(dir, "x.sql"), Src: []byte(
		"CREATE TEMPORARY VIEW n AS SELECT * FROM read_files('n.json');\n" +
			"CREATE TEMPORARY VIEW b AS SELECT * FROM read_files('bad.parquet');\n" +
			"CREATE TEMPORARY VIEW r AS SELECT * FROM read_files('s3://bucket/x/', format => 'csv')")}})
	got := diags.Error()
	for _, want := range []string{
		`x.sql:1:42: cannot infer the schema of read_files('n.json'): n.json:1: field "a" is a nested object, which the model has no type for; declare it with schema => 'col TYPE, ...' [bad-dataset]`,
		`x.sql:2:42: cannot infer the schema of read_files('bad.parquet'): bad.parquet:`,
		`x.sql:3:42: cannot infer the schema of read_files('s3://bucket/x/'): s3://bucket/x/ is not a local path; declare it with schema => 'col TYPE, ...' [bad-dataset]`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

// TestKnobKeys: the documented keys are the checked ones.
func TestKnobKeys(t *testing.T) {
	keys := sql.KnobKeys()
	if len(keys) != 11 || keys[0] != "thund.id" {
		t.Errorf("%v", keys)
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if !strings.Contains(string(doc), "\t"+k+" ") {
			t.Errorf("the knob table of doc.go does not document %s", k)
		}
	}
}

// TestComments: the comments before a statement are its dataset's Doc
// (kept by fmt, ignored by Equal); a comment after a ';' on the same line
// belongs to the statement before.
func TestComments(t *testing.T) {
	p := parseSQL(t, `-- The bronze layer.
/* Raw clicks,
 * as they arrive. */
CREATE STREAMING TABLE a AS SELECT * FROM STREAM(t); -- about a, not b
-- About b
CREATE MATERIALIZED VIEW b AS SELECT * FROM a`)
	want := [][]string{{"-- The bronze layer.", "-- Raw clicks,", "-- as they arrive."}, {"-- About b"}}
	for i, d := range p.Datasets {
		if strings.Join(d.Doc, "|") != strings.Join(want[i], "|") {
			t.Errorf("%s: doc %q, want %q", d.Name, d.Doc, want[i])
		}
	}
}
