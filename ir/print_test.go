package ir

import (
	"strings"
	"testing"
)

func col(name string) *ColumnRef { return &ColumnRef{Name: name} }

func intLit(s string) *Literal { return &Literal{Kind: LitInt, Text: s} }

// TestPrintPipeline prints IR built through the API.
func TestPrintPipeline(t *testing.T) {
	first := true
	p := &Pipeline{
		Name: "demo", Catalog: "main", Storage: "s3://b/r",
		Conf: []KV{{Key: "spark.sql.shuffle.partitions", Value: "8"}},
		Datasets: []*Dataset{
			{Kind: KindSource, Name: "bids",
				Source:    &SourceSpec{Format: FormatParquet, Paths: []string{"data/*.parquet"}, Unbounded: true},
				Columns:   []*Column{{Name: "auction", Type: Int64, NotNull: true}, {Name: "ts", Type: Timestamp(Milli, "")}},
				Watermark: &Watermark{Column: "ts", Delay: Duration(5e9)}},
			{Kind: KindMaterializedView, Name: "top", Comment: "best bids", Materialize: MatIncremental},
			{Kind: KindStreamingTable, Name: "events", PartitionBy: []string{"day"}},
			{Kind: KindSink, Name: "out", Format: "csv", SinkOptions: []KV{{Key: "path", Value: "out"}}},
		},
		Flows: []*Flow{
			{Name: "top", Target: "top", Query: &Sort{
				Input: &Filter{Input: &Scan{Name: "bids"}, Cond: &Binary{Op: OpGt, L: col("price"), R: intLit("10")}},
				Keys:  []*SortKey{{Expr: col("price"), Desc: true, NullsFirst: &first}}}},
			{Name: "events", Target: "events", Query: &Scan{Name: "bids", Stream: true}, Trigger: &Trigger{Kind: TriggerEvery, Interval: Duration(30e9)}},
			{Name: "backfill", Target: "events", Once: true, Query: &Scan{Name: "old"}},
			{Name: "to_out", Target: "out", Query: &Scan{Name: "top"}},
		},
	}
	want := `pipeline demo
catalog main
storage "s3://b/r"
set "spark.sql.shuffle.partitions" = "8"

source bids stream from parquet "data/*.parquet" {
  auction int64 not null, ts timestamp(ms)
  watermark ts delay 5s
}

materialized view top
  comment "best bids"
  materialize incremental
  = from bids
  | where price > 10
  | order by price desc nulls first

streaming table events
  partitioned by (day)
  = from stream bids
  trigger every 30s

flow backfill into events once =
  from old

sink out
  format csv
  options ("path" = "out")

flow to_out into out =
  from top
`
	if got := string(Print(p)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestPrintFlowsNotInline: a dataset's own flow prints inline only when it
// is named like the dataset, targets it, and has no flow-only options.
func TestPrintFlowsNotInline(t *testing.T) {
	q := &Scan{Name: "s"}
	p := &Pipeline{
		Datasets: []*Dataset{
			{Kind: KindMaterializedView, Name: "a"},
			{Kind: KindStreamingTable, Name: "b"},
			{Kind: KindStreamingTable, Name: "c"},
			{Kind: KindTemporaryView, Name: "d"},
		},
		Flows: []*Flow{
			{Name: "other", Target: "a", Query: q},
			{Name: "b", Target: "b", ByName: true, Query: q},
			{Name: "c", Target: "c", Query: q},
			{Name: "early", Target: "d", Query: q},
			{Name: "d", Target: "d", Query: q},
			{Name: "x", Target: "nowhere"},
		},
	}
	want := `materialized view a

flow other into a =
  from s

streaming table b

flow b into b by name =
  from s

streaming table c =
  from s

flow early into d =
  from s

temporary view d =
  from s

flow x into nowhere
`
	if got := string(Print(p)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestPrintExprParens: parentheses exactly where precedence needs them.
func TestPrintExprParens(t *testing.T) {
	a, b, c := col("a"), col("b"), col("c")
	bin := func(op BinaryOp, l, r Expr) Expr { return &Binary{Op: op, L: l, R: r} }
	not := func(x Expr) Expr { return &Unary{Op: OpNot, X: x} }
	neg := func(x Expr) Expr { return &Unary{Op: OpNeg, X: x} }
	cases := []struct {
		e    Expr
		want string
	}{
		{bin(OpAdd, bin(OpAdd, a, b), c), "a + b + c"},
		{bin(OpAdd, a, bin(OpAdd, b, c)), "a + (b + c)"},
		{bin(OpMul, bin(OpAdd, a, b), c), "(a + b) * c"},
		{bin(OpAdd, a, bin(OpMul, b, c)), "a + b * c"},
		{bin(OpOr, bin(OpAnd, a, b), c), "a and b or c"},
		{bin(OpAnd, bin(OpOr, a, b), c), "(a or b) and c"},
		{bin(OpAnd, a, not(b)), "a and not b"},
		{not(bin(OpEq, a, b)), "not a = b"},
		{bin(OpEq, not(a), b), "(not a) = b"},
		{bin(OpEq, a, bin(OpEq, b, c)), "a = (b = c)"},
		{bin(OpEq, bin(OpEq, a, b), c), "a = b = c"},
		{bin(OpNe, a, b), "a <> b"},
		{bin(OpConcat, a, bin(OpAdd, b, c)), "a || b + c"},
		{bin(OpAdd, bin(OpConcat, a, b), c), "(a || b) + c"},
		// bitwise: | < ^ < & < shifts < ||, and | always in parentheses
		{bin(OpBitOr, a, bin(OpBitXor, b, bin(OpBitAnd, c, bin(OpShl, a, bin(OpConcat, b, c))))), "(a | b ^ c & a << b || c)"},
		{bin(OpBitAnd, bin(OpBitOr, a, b), c), "(a | b) & c"},
		{bin(OpBitOr, bin(OpBitOr, a, b), c), "((a | b) | c)"},
		{bin(OpBitOr, a, bin(OpBitOr, b, c)), "(a | (b | c))"},
		{bin(OpShr, bin(OpShrU, a, b), c), "a >>> b >> c"},
		{bin(OpShl, a, bin(OpShl, b, c)), "a << (b << c)"},
		{bin(OpEq, bin(OpBitXor, a, b), c), "a ^ b = c"},
		{bin(OpBitXor, a, bin(OpEq, b, c)), "a ^ (b = c)"},
		{bin(OpAdd, a, bin(OpBitAnd, b, c)), "a + (b & c)"},
		{&Unary{Op: OpBitNot, X: bin(OpBitAnd, a, b)}, "~(a & b)"},
		{&Unary{Op: OpBitNot, X: neg(a)}, "~-a"},
		{neg(&Unary{Op: OpBitNot, X: a}), "-~a"},
		{&Between{X: a, Lo: bin(OpBitAnd, b, c), Hi: bin(OpBitOr, b, c)}, "a between (b & c) and (b | c)"},
		{neg(neg(a)), "-(-a)"},
		{neg(intLit("1")), "-1"},
		{bin(OpSub, a, neg(b)), "a - -b"},
		{neg(bin(OpAdd, a, b)), "-(a + b)"},
		{&Between{X: a, Lo: bin(OpAnd, b, c), Hi: c}, "a between (b and c) and c"},
		{&Between{X: a, Lo: b, Hi: c, Not: true}, "a not between b and c"},
		{&IsNull{X: &IsNull{X: a}}, "a is null is null"},
		{&IsNull{X: bin(OpOr, a, b), Not: true}, "(a or b) is not null"},
		{&Like{X: a, Pattern: bin(OpConcat, b, c)}, "a like b || c"},
		{&In{X: a, List: []Expr{bin(OpOr, b, c), intLit("1")}, Not: true}, "a not in (b or c, 1)"},
		{&Cast{X: bin(OpAdd, a, b), To: Decimal(10, 2), Try: true}, "try_cast(a + b as decimal(10,2))"},
		{&Case{Whens: []*When{{Cond: a, Then: b}}, Else: c}, "case when a then b else c end"},
		{&Call{Name: "count", Star: true}, "count(*)"},
		{&Call{Name: "count", Distinct: true, Args: []Expr{a, b}}, "count(distinct a, b)"},
		{&Call{Name: "cast", Args: []Expr{a}}, "`cast`(a)"},
		{&Star{Qualifier: "t", Except: []string{"x"}}, "t.* except (x)"},
		{&ColumnRef{Qualifier: "db.t", Name: "end"}, "db.t.`end`"},
		{&Literal{Kind: LitString, Text: "it's"}, "'it''s'"},
		{&Literal{Kind: LitTimestamp, Text: "2024-01-01 00:00:00"}, "timestamp '2024-01-01 00:00:00'"},
		{&Literal{Kind: LitDate, Text: "2024-01-01"}, "date '2024-01-01'"},
		{&Literal{Kind: LitNull}, "null"},
		{&Literal{Kind: LitBool, Text: "TRUE"}, "true"},
		{&ScalarSubquery{Query: &Limit{Input: &Scan{Name: "t"}, N: 1}}, "(from t | limit 1)"},
		{&InSubquery{X: a, Query: &Scan{Name: "t"}}, "a in (from t)"},
		{&Exists{Query: &Scan{Name: "t"}}, "exists (from t)"},
		{&Binary{Op: OpAnd, L: &Exists{Query: &Scan{Name: "t"}, Not: true}, R: a}, "not exists (from t) and a"},
		{&IsNull{X: &Exists{Query: &Scan{Name: "t"}, Not: true}}, "(not exists (from t)) is null"},
	}
	for _, c := range cases {
		if got := printExpr(c.e, 0); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
}

// TestFormatExprStyles pins what sets the three styles apart: quoting,
// parentheses, subqueries, keywords, types and Spark's naming.
func TestFormatExprStyles(t *testing.T) {
	a, b, c := col("a"), col("b"), col("c")
	bin := func(op BinaryOp, l, r Expr) Expr { return &Binary{Op: op, L: l, R: r} }
	cases := []struct {
		e                 Expr
		dsl, label, spark string
	}{
		{bin(OpMul, bin(OpAdd, a, b), c), "(a + b) * c", "(a + b) * c", "((a + b) * c)"},
		{bin(OpAdd, bin(OpMul, a, b), c), "a * b + c", "(a * b) + c", "((a * b) + c)"},
		{bin(OpConcat, a, b), "a || b", "a || b", "concat(a, b)"},
		{&Unary{Op: OpNeg, X: &Unary{Op: OpNeg, X: a}}, "-(-a)", "--a", "(- (- a))"},
		{&Unary{Op: OpNot, X: a}, "not a", "not a", "(NOT a)"},
		{bin(OpBitAnd, bin(OpBitOr, a, b), c), "(a | b) & c", "(a | b) & c", "((a | b) & c)"},
		{bin(OpShrU, a, b), "a >>> b", "a >>> b", "(a >>> b)"},
		{&Unary{Op: OpBitNot, X: bin(OpBitXor, a, b)}, "~(a ^ b)", "~(a ^ b)", "~(a ^ b)"},

		{&ColumnRef{Qualifier: "t", Name: "end"}, "t.`end`", "t.end", "end"},
		{&Star{Qualifier: "t", Except: []string{"end"}}, "t.* except (`end`)", "t.* except (end)", "t.*"},
		{&IsNull{X: a, Not: true}, "a is not null", "a is not null", "(a IS NOT NULL)"},
		{&In{X: a, List: []Expr{b, c}, Not: true}, "a not in (b, c)", "a not in (b, c)", "(NOT (a IN (b, c)))"},
		{&Between{X: a, Lo: bin(OpAdd, b, c), Hi: c}, "a between b + c and c", "a between (b + c) and c", "(a BETWEEN (b + c) AND c)"},
		{&Like{X: a, Pattern: b, Not: true}, "a not like b", "a not like b", "(NOT a LIKE b)"},
		{&Case{Operand: bin(OpAdd, a, b), Whens: []*When{{Cond: c, Then: b}}, Else: a},
			"case a + b when c then b else a end", "case (a + b) when c then b else a end", "CASE (a + b) WHEN c THEN b ELSE a END"},
		{&Cast{X: a, To: Timestamp(Micro, ""), Try: true}, "try_cast(a as timestamp(us))", "try_cast(a as timestamp(us))", "TRY_CAST(a AS TIMESTAMP_NTZ)"},
		{&Call{Name: "count", Star: true}, "count(*)", "count(*)", "count(1)"},
		{&Call{Name: "sum", Distinct: true, Args: []Expr{a}}, "sum(distinct a)", "sum(distinct a)", "sum(DISTINCT a)"},
		{&Literal{Kind: LitString, Text: "it's"}, "'it''s'", "'it''s'", "it's"},
		{&Literal{Kind: LitNull}, "null", "null", "NULL"},
		{&Literal{Kind: LitFloat, Text: "1.5e0"}, "1.5e0", "1.5e0", "1.5"},
		{&Literal{Kind: LitInterval, Text: "10s"}, "10s", "10s", "INTERVAL '10s'"},
		{&Literal{Kind: LitDate, Text: "2024-01-01"}, "date '2024-01-01'", "date '2024-01-01'", "DATE '2024-01-01'"},
		{&ScalarSubquery{Query: &Scan{Name: "t"}}, "(from t)", "(subquery)", "scalarsubquery()"},
		{&InSubquery{X: a, Query: &Scan{Name: "t"}, Not: true}, "a not in (from t)", "a not in (subquery)", "(a IN (listquery()))"},
		{&Exists{Query: &Scan{Name: "t"}, Not: true}, "not exists (from t)", "not exists (subquery)", "(NOT exists())"},
		{nil, "()", "?", "?"},
	}
	for _, c := range cases {
		for _, s := range []struct {
			style ExprStyle
			want  string
		}{{DSL, c.dsl}, {Label, c.label}, {SparkName, c.spark}} {
			if got := FormatExpr(c.e, s.style); got != s.want {
				t.Errorf("style %d: got %s, want %s", s.style, got, s.want)
			}
		}
	}
}

// TestPrintQueries covers FROM items and stage chains.
func TestPrintQueries(t *testing.T) {
	s := func(n string) *Scan { return &Scan{Name: n} }
	cases := []struct {
		r    Rel
		want string
	}{
		{&Union{All: true, Inputs: []Rel{s("a"), s("b"), s("c")}}, "from a | union all b | union all c"},
		{&Union{All: true, Inputs: []Rel{&Union{All: true, Inputs: []Rel{s("a"), s("b")}}, s("c")}}, "from (from a | union all b) | union all c"},
		{&Union{Inputs: []Rel{&Union{All: true, Inputs: []Rel{s("a"), s("b")}}, s("c")}}, "from a | union all b | union c"},
		{&Union{All: true, Inputs: []Rel{s("a"), &Filter{Input: s("b"), Cond: col("x")}}}, "from a | union all (from b | where x)"},
		{&SubqueryRel{Input: &Range{Start: -1, End: 5, Step: 2}, Alias: "r"}, "from range(-1, 5, 2) as r"},
		{&SubqueryRel{Input: &Filter{Input: s("t"), Cond: col("x")}, Alias: "q"}, "from (from t | where x) as q"},
		{&Join{Kind: JoinLeft, Left: s("a"), Right: &Aggregate{Input: s("b"), Aggs: []*NamedExpr{{Expr: col("x")}}}, Using: []string{"id"}},
			"from a | left join (from b | aggregate x) using (id)"},
		{&Join{Kind: JoinCross, Left: s("a"), Right: s("b")}, "from a | cross join b"},
		{&Scan{Name: "cat.db.t", Alias: "x", Stream: true, Bounds: &EdgeBounds{Rows: 5, Bytes: 3 << 20}}, "from stream cat.db.t as x bound 5 rows bound 3MB bytes"},
		{&Scan{Name: "t", Bounds: &EdgeBounds{Bytes: 1000}}, "from t bound 1000 bytes"},
		{&Scan{Name: "t", Bounds: &EdgeBounds{}}, "from t bound 0 rows"},
		{&Scan{Name: "t", Watermark: &Watermark{Column: "ts", Delay: Duration(1e9), AllowedLateness: Duration(2e9), IdleTimeout: Duration(60e9)}},
			"from t watermark ts delay 1s allowed lateness 2s idle timeout 1m"},
		{&Window{Input: s("t"), Kind: WindowHop, Time: col("ts"), Size: Duration(10e9), Slide: Duration(5e9)}, "from t | window hop(ts, 10s, 5s)"},
		{&Aggregate{Input: s("t"), Keys: []*NamedExpr{{Expr: col("k"), Alias: "kk"}}}, "from t | group by k as kk"},
		{&Limit{Input: &Distinct{Input: s("t")}, N: 3, Offset: 1}, "from t | distinct | limit 3 offset 1"},
	}
	for _, c := range cases {
		if got := inlineQuery(c.r); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

// TestQuoteIdent: bare only for plain, non-reserved identifiers.
func TestQuoteIdent(t *testing.T) {
	for in, want := range map[string]string{
		"a": "a", "_x1": "_x1", "where": "where", "select": "select", "FROM": "`FROM`", "end": "`end`",
		"": "``", "a b": "`a b`", "a`b": "`a``b`", "1a": "`1a`", "é": "`é`", "a.b": "`a.b`",
	} {
		if got := quoteIdent(in); got != want {
			t.Errorf("quoteIdent(%q) = %s, want %s", in, got, want)
		}
	}
	if got := quoteQualified("a.b.end"); got != "a.b.`end`" {
		t.Errorf("quoteQualified: %s", got)
	}
	if !strings.Contains(strings.Join(ReservedWords(), " "), "try_cast") {
		t.Error("ReservedWords lacks try_cast")
	}
}

// TestPrintOddIR: IR that no parser makes still prints without panicking.
func TestPrintOddIR(t *testing.T) {
	p := &Pipeline{
		Datasets: []*Dataset{
			nil,
			{Kind: KindSource, Name: "s"},
			{Kind: DatasetKind(42), Name: "k", Columns: []*Column{nil}},
		},
		Flows: []*Flow{
			nil,
			{Name: "f", Target: "t", Query: &Union{}},
			{Name: "g", Target: "t", Query: &Filter{}},
			{Name: "h", Target: "t", Query: &Project{Items: []*NamedExpr{nil, {Expr: &Binary{Op: BinaryOp(99)}}}}},
			{Name: "i", Target: "t", Query: &Sort{Keys: []*SortKey{nil}}, CDC: &CDC{}},
			{Name: "j", Target: "t", Query: &Join{Kind: JoinKind(9)}},
		},
	}
	if out := Print(p); len(out) == 0 {
		t.Error("nothing printed")
	}
	if Print(nil) != nil {
		t.Error("Print(nil) is not nil")
	}
	if got := Print(&Pipeline{}); len(got) != 0 {
		t.Errorf("empty pipeline printed %q", got)
	}
}

// TestPrintComments: Doc lines print right before their declaration (an
// inline flow's with its dataset's), the pipeline's before the header, the
// Trailer after a blank line at the end; a line that would not read back as
// one comment line is made one.
func TestPrintComments(t *testing.T) {
	q := &Scan{Name: "s"}
	p := &Pipeline{
		Name:    "p",
		Doc:     Comments{"# file doc", "-- more  "},
		Trailer: Comments{"# the end"},
		Datasets: []*Dataset{
			{Kind: KindSource, Name: "s", Doc: Comments{"# a source"},
				Source: &SourceSpec{Format: FormatCSV, Stdin: true}, Columns: []*Column{{Name: "a", Type: Int64}}},
			{Kind: KindMaterializedView, Name: "v", Doc: Comments{"# the view"}},
		},
		Flows: []*Flow{
			{Name: "v", Target: "v", Query: q, Doc: Comments{"-- its query"}},
			{Name: "f", Target: "v", Once: true, Query: q, Doc: Comments{"no marker", "# two\n# lines", "", "  # indented"}},
		},
	}
	want := `# file doc
-- more
pipeline p

# a source
source s from csv stdin {
  a int64
}

# the view
-- its query
materialized view v =
  from s

# no marker
# two
# lines
# indented
flow f into v once =
  from s

# the end
`
	if got := string(Print(p)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// Without a header the pipeline's Doc runs into the first declaration's.
	p = &Pipeline{Doc: Comments{"# doc"}, Datasets: []*Dataset{{Kind: KindView, Name: "w", Doc: Comments{"# w"}}}}
	if got, want := string(Print(p)), "# doc\n# w\nview w\n"; got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// A file of comments alone is its lines.
	p = &Pipeline{Doc: Comments{"# a"}, Trailer: Comments{"-- b"}}
	if got, want := string(Print(p)), "# a\n-- b\n"; got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
