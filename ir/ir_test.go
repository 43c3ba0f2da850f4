package ir

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func pos(line int) Pos { return Pos{File: "t.thund", Line: line, Col: 1} }

// sample builds a pipeline that touches most of the model.
func sample() *Pipeline {
	tru := true
	return &Pipeline{
		Pos: pos(1), Name: "demo", Catalog: "main", Database: "sales", Storage: "file:///tmp/s",
		Conf: []KV{{Pos: pos(2), Key: "spark.sql.ansi.enabled", Value: "true"}},
		Datasets: []*Dataset{
			{
				Pos: pos(3), Kind: KindSource, Name: "bids",
				Columns: []*Column{
					{Pos: pos(4), Name: "auction", Type: Int64, NotNull: true},
					{Pos: pos(4), Name: "price", Type: Decimal(10, 2)},
					{Pos: pos(4), Name: "ts", Type: Timestamp(Milli, "UTC"), Comment: "event time"},
					{Pos: pos(4), Name: "d", Type: DurationType(Nano)},
					{Pos: pos(4), Name: "tags", Type: MapOf(StringT, StructOf(StructField{Name: "n", Type: ArrayOf(Int64, false), NotNull: true}), true)},
				},
				Source:    &SourceSpec{Pos: pos(3), Format: FormatCSV, Paths: []string{"data/*.csv"}, Unbounded: true, Options: []KV{{Key: "header", Value: "true"}}},
				Watermark: &Watermark{Pos: pos(5), Column: "ts", Delay: Duration(5e9), AllowedLateness: Duration(10e9), IdleTimeout: Duration(60e9)},
			},
			{Pos: pos(6), Kind: KindStreamingTable, Name: "per_window", Materialize: MatIncremental, PartitionBy: []string{}, Properties: []KV{{Key: "k", Value: "v"}},
				Expectations: []*Expectation{{Pos: pos(7), Name: "pos", Cond: &Binary{Op: OpGe, L: &ColumnRef{Name: "n"}, R: &Literal{Kind: LitInt, Text: "0"}}, Action: ActDrop}}},
			{Pos: pos(8), Kind: KindMaterializedView, Name: "top"},
			{Pos: pos(9), Kind: KindSink, Name: "out", Format: "jsonl", SinkOptions: []KV{{Key: "path", Value: "out/"}}},
		},
		Flows: []*Flow{
			{Pos: pos(10), Name: "per_window", Target: "per_window", Emit: EmitOnWindowClose, OutputMode: OutputAppend,
				Trigger: &Trigger{Kind: TriggerEvery, Interval: Duration(1e9)}, LateTable: "per_window_late",
				Query: &Aggregate{
					Input: &Window{Input: &Scan{Name: "bids", Stream: true, Bounds: &EdgeBounds{Rows: 1000, Bytes: 1 << 20}}, Kind: WindowHop, Time: &ColumnRef{Name: "ts"}, Size: Duration(10e9), Slide: Duration(2e9)},
					Keys:  []*NamedExpr{{Expr: &ColumnRef{Name: "auction"}}, {Expr: &ColumnRef{Name: "window_start"}}},
					Aggs:  []*NamedExpr{{Expr: &Call{Name: "count", Star: true}, Alias: "n"}},
				}},
			{Pos: pos(11), Name: "top", Target: "top", Query: &Limit{N: 3, Input: &Sort{
				Input: &Filter{Input: &Scan{Name: "per_window"}, Cond: &Case{Whens: []*When{{Cond: &IsNull{X: &ColumnRef{Name: "n"}, Not: true}, Then: &Literal{Kind: LitBool, Text: "true"}}}, Else: &Literal{Kind: LitNull}}},
				Keys:  []*SortKey{{Expr: &ColumnRef{Name: "n"}, Desc: true, NullsFirst: &tru}},
			}}},
			{Pos: pos(12), Name: "to_out", Target: "out", Query: &Project{Input: &Scan{Name: "top"}, Items: []*NamedExpr{{Expr: &Star{}}}}},
		},
	}
}

// roundTripJSON marshals p, reads it back as q, and fails when q differs
// from p; b is p's JSON.
func roundTripJSON(t *testing.T, p *Pipeline) (b []byte, q *Pipeline) {
	t.Helper()
	b, err := MarshalJSON(p)
	if err != nil {
		t.Fatal(err)
	}
	q, err = UnmarshalJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	if d := Diff(p, q); d != "" {
		t.Fatalf("round trip differs: %s", d)
	}
	return b, q
}

func TestJSONRoundTrip(t *testing.T) {
	p := sample()
	b, q := roundTripJSON(t, p)
	b2, _ := MarshalJSON(q)
	if string(b) != string(b2) {
		t.Fatalf("JSON not stable:\n%s\n---\n%s", b, b2)
	}
	if got, want := q.Datasets[0].Columns[4].Type, p.Datasets[0].Columns[4].Type; got != want {
		t.Errorf("nested type %s reads back as %s", want, got)
	}
	if q.Datasets[0].Columns[0].Pos != pos(4) {
		t.Errorf("positions lost: %+v", q.Datasets[0].Columns[0].Pos)
	}
	if !strings.Contains(string(b), `"node": "aggregate"`) || !strings.Contains(string(b), `"thund_ir": 1`) {
		t.Errorf("unexpected encoding:\n%s", b)
	}
}

func TestJSONRejects(t *testing.T) {
	for _, in := range []string{
		`{"pipeline":{}}`,
		`{"thund_ir": 2, "pipeline":{}}`,
		`{"thund_ir": 1, "pipeline":{"bogus": 1}}`,
		`{"thund_ir": 1, "pipeline":{"flows":[{"query":{"kind":"nope"}}]}}`,
		`{"thund_ir": 1, "pipeline":{"flows":[{"query":{"kind":"literal"}}]}}`,
		`{"thund_ir": 1, "pipeline":{"datasets":[{"kind":"table"}]}}`,
		`{"thund_ir": 1, "pipeline":{"datasets":[{"columns":[{"type":"decimal(50,2)"}]}]}}`,
	} {
		if _, err := UnmarshalJSON([]byte(in)); err == nil {
			t.Errorf("accepted %s", in)
		}
	}
}

func TestEqualIgnoresPositions(t *testing.T) {
	a, b := sample(), sample()
	b.Datasets[0].Pos = Pos{File: "other", Line: 99, Col: 9}
	if !Equal(a, b) {
		t.Fatal("positions should not matter")
	}
	b.Flows[0].SQL = &SQLText{Query: "SELECT 1", Database: "s"}
	if !Equal(a, b) {
		t.Fatal("SQL text should not matter")
	}
	b.Datasets[0].Watermark.Delay++
	if Equal(a, b) || Diff(a, b) == "" {
		t.Fatal("a changed delay should matter")
	}
}

func TestValidateSample(t *testing.T) {
	if d := Validate(sample()); d.HasErrors() {
		t.Fatalf("unexpected diagnostics:\n%v", d)
	}
}

func TestValidateErrors(t *testing.T) {
	cases := []struct {
		name string
		edit func(p *Pipeline)
		code Code
		msg  string
	}{
		{"dup dataset", func(p *Pipeline) {
			p.Datasets = append(p.Datasets, &Dataset{Pos: pos(20), Kind: KindSink, Name: "TOP"})
		}, CodeDuplicateName, `dataset "TOP" is already declared at t.thund:8:1`},
		{"bad name", func(p *Pipeline) { p.Datasets[3].Name = "_out"; p.Flows[2].Target = "_out" }, CodeBadName, "reserved"},
		{"dangling read", func(p *Pipeline) { p.Flows[1].Query.(*Limit).Input.(*Sort).Input.(*Filter).Input.(*Scan).Name = "nope" }, CodeDanglingRef, `"nope" is not a dataset`},
		{"dangling target", func(p *Pipeline) { p.Flows[2].Target = "nowhere" }, CodeDanglingRef, `targets "nowhere"`},
		{"flow into source", func(p *Pipeline) { p.Flows[2].Target = "bids" }, CodeBadTarget, "sources are read"},
		{"two flows into mv", func(p *Pipeline) { p.Flows[2].Target = "top" }, CodeBadTarget, "only streaming tables and sinks"},
		{"mv without query", func(p *Pipeline) { p.Flows = p.Flows[:1] }, CodeBadDataset, "has no query"},
		{"cycle", func(p *Pipeline) {
			p.Flows[0].Query.(*Aggregate).Input.(*Window).Input = &Join{Left: &Scan{Name: "bids", Stream: true}, Right: &Scan{Name: "top"}}
		}, CodeCycle, "cycle: per_window -> top -> per_window"},
		{"cdc into mv", func(p *Pipeline) {
			p.Flows[1].CDC = &CDC{Keys: []string{"a"}, SequenceBy: &ColumnRef{Name: "ts"}, SCDType: 1}
		}, CodeBadTarget, "changes apply to streaming tables"},
		{"source without paths", func(p *Pipeline) { p.Datasets[0].Source.Paths = nil }, CodeBadDataset, "has no paths"},
		{"late table collides", func(p *Pipeline) { p.Flows[0].LateTable = "top" }, CodeDuplicateName, "collides"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := sample()
			c.edit(p)
			d := Validate(p)
			for _, x := range d {
				if x.Code == c.code && strings.Contains(x.Msg, c.msg) {
					return
				}
			}
			t.Fatalf("want [%s] containing %q, got:\n%v", c.code, c.msg, d)
		})
	}
}

func TestTopoOrder(t *testing.T) {
	p := sample()
	order, err := TopoOrder(p)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range order {
		names = append(names, d.Name)
	}
	if got := strings.Join(names, ","); got != "bids,per_window,top,out" {
		t.Fatalf("order %s", got)
	}
}

func TestDurationText(t *testing.T) {
	for _, s := range []string{"0s", "1d2h30m", "10s", "250ms", "1s500ms", "3us", "7ns", "-5s"} {
		d, err := ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		if d.String() != s {
			t.Errorf("%s prints as %s", s, d)
		}
	}
	for _, s := range []string{"", "5", "s", "5x", "99999999999999999999s", "9999999999d", "5s5s", "30m1h"} {
		if _, err := ParseDuration(s); err == nil {
			t.Errorf("accepted %q", s)
		}
	}
}

func TestTypeText(t *testing.T) {
	for _, s := range []string{"bool", "int8", "uint64", "float32", "decimal(38,10)", "string", "binary", "date32",
		"timestamp(ms)", `timestamp(us, "UTC")`, "duration(ns)"} {
		ty, err := ParseType(s)
		if err != nil {
			t.Fatal(err)
		}
		if ty.String() != s {
			t.Errorf("%s prints as %s", s, ty)
		}
	}
}

// TestTypeSQL pins Spark's spelling of every kind (DataType.sql).
func TestTypeSQL(t *testing.T) {
	for _, c := range []struct {
		t    Type
		want string
	}{
		{Type{}, "VOID"}, {Bool, "BOOLEAN"},
		{Int8, "TINYINT"}, {Int16, "SMALLINT"}, {Int32, "INT"}, {Int64, "BIGINT"},
		{Uint8, "TINYINT UNSIGNED"}, {Uint16, "SMALLINT UNSIGNED"}, {Uint32, "INT UNSIGNED"}, {Uint64, "BIGINT UNSIGNED"},
		{Float32, "FLOAT"}, {Float64, "DOUBLE"}, {Decimal(10, 2), "DECIMAL(10,2)"}, {Decimal(38, 0), "DECIMAL(38,0)"},
		{StringT, "STRING"}, {BinaryT, "BINARY"}, {Date32, "DATE"},
		{Timestamp(Micro, "UTC"), "TIMESTAMP"}, {Timestamp(Nano, "Europe/Oslo"), "TIMESTAMP"},
		{Timestamp(Milli, ""), "TIMESTAMP_NTZ"}, {DurationType(Micro), "INTERVAL DAY TO SECOND"},
		{Type{Kind: TStruct + 1}, ""},
	} {
		if got := c.t.SQL(); got != c.want {
			t.Errorf("%s.SQL() = %q, want %q", c.t, got, c.want)
		}
	}
}

// TestNodeKindsComplete checks that nodeKinds lists every type that
// implements Rel or Expr, by reading this package's source.
func TestNodeKindsComplete(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	var impl []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, _ := os.ReadFile(f)
		af, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || (fd.Name.Name != "relNode" && fd.Name.Name != "exprNode") {
				continue
			}
			impl = append(impl, fd.Recv.List[0].Type.(*ast.StarExpr).X.(*ast.Ident).Name)
		}
	}
	var listed []string
	for _, k := range nodeKinds {
		listed = append(listed, k.typ.Name())
	}
	sort.Strings(impl)
	sort.Strings(listed)
	if strings.Join(impl, ",") != strings.Join(listed, ",") {
		t.Fatalf("nodeKinds out of date:\nimplemented %v\nlisted      %v", impl, listed)
	}
}

// TestGenerateJSON: a generator (LATERAL VIEW) round-trips through JSON,
// and prints as the .thund stage.
func TestGenerateJSON(t *testing.T) {
	g := &Generate{Pos: pos(3), Input: &Scan{Name: "events"}, Func: "posexplode", Args: []Expr{&ColumnRef{Name: "tags"}},
		Outer: true, Alias: "t", Names: []string{"p", "tag"}}
	p := &Pipeline{Name: "g", Datasets: []*Dataset{{Pos: pos(1), Kind: KindMaterializedView, Name: "v"}},
		Flows: []*Flow{{Pos: pos(2), Name: "v", Target: "v", Query: g}}}
	b, q := roundTripJSON(t, p)
	if !strings.Contains(string(b), `"node": "generate"`) {
		t.Errorf("no generate node in:\n%s", b)
	}
	if got := Print(q); !strings.Contains(string(got), "| lateral view outer posexplode(tags) t as p, tag\n") {
		t.Errorf("printed as:\n%s", got)
	}
}

// TestJSONEveryOperator: each binary and unary operator, the bitwise ones
// included, is written by name and reads back as itself ("|" is not "||").
func TestJSONEveryOperator(t *testing.T) {
	var items []*NamedExpr
	for _, op := range BinaryOps() {
		items = append(items, &NamedExpr{Expr: &Binary{Op: op, L: &ColumnRef{Name: "a"}, R: &ColumnRef{Name: "b"}}, Alias: "b" + op.String()})
	}
	for _, op := range UnaryOps() {
		items = append(items, &NamedExpr{Expr: &Unary{Op: op, X: &ColumnRef{Name: "a"}}, Alias: "u" + op.String()})
	}
	p := &Pipeline{Name: "ops", Flows: []*Flow{{Name: "f", Target: "t", Query: &Project{Input: &Scan{Name: "s"}, Items: items}}}}
	b, _ := roundTripJSON(t, p)
	for _, op := range []string{`"op": "|"`, `"op": "||"`, `"op": ">>>"`, `"op": "~"`, `"op": "^"`} {
		if !strings.Contains(string(b), op) {
			t.Errorf("no %s in:\n%s", op, b)
		}
	}
}
