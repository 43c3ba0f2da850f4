package passes

import (
	"strings"
	"testing"

	"github.com/nordisk/thund/ir"
)

// This file builds IR for the tests with the ir API directly, tersely. Every
// node gets a distinct position (line n of t.thund, in construction order)
// so that diagnostics sort and print as they would from a parse.

var nextLine int

func at() ir.Pos {
	nextLine++
	return ir.Pos{File: "t.thund", Line: nextLine, Col: 1}
}

// Expressions.

// c is a column reference: "x" or "q.x".
func c(name string) *ir.ColumnRef {
	q, n, ok := strings.Cut(name, ".")
	if !ok {
		return &ir.ColumnRef{Pos: at(), Name: name}
	}
	return &ir.ColumnRef{Pos: at(), Qualifier: q, Name: n}
}

func lit(k ir.LitKind, text string) *ir.Literal { return &ir.Literal{Pos: at(), Kind: k, Text: text} }
func i(text string) *ir.Literal                 { return lit(ir.LitInt, text) }
func dec(text string) *ir.Literal               { return lit(ir.LitDecimal, text) }
func str(text string) *ir.Literal               { return lit(ir.LitString, text) }
func dur(text string) *ir.Literal               { return lit(ir.LitInterval, text) }
func tsLit(text string) *ir.Literal             { return lit(ir.LitTimestamp, text) }
func null() *ir.Literal                         { return lit(ir.LitNull, "") }
func boolLit(v bool) *ir.Literal {
	if v {
		return lit(ir.LitBool, "true")
	}
	return lit(ir.LitBool, "false")
}

func bin(op ir.BinaryOp, l, r ir.Expr) *ir.Binary { return &ir.Binary{Pos: at(), Op: op, L: l, R: r} }
func eq(l, r ir.Expr) *ir.Binary                  { return bin(ir.OpEq, l, r) }
func gt(l, r ir.Expr) *ir.Binary                  { return bin(ir.OpGt, l, r) }
func and(l, r ir.Expr) *ir.Binary                 { return bin(ir.OpAnd, l, r) }
func call(name string, args ...ir.Expr) *ir.Call {
	return &ir.Call{Pos: at(), Name: name, Args: args}
}
func countStar() *ir.Call { return &ir.Call{Pos: at(), Name: "count", Star: true} }
func cast(x ir.Expr, to string) *ir.Cast {
	t, err := ir.ParseType(to)
	if err != nil {
		panic(err)
	}
	return &ir.Cast{Pos: at(), X: x, To: t}
}
func star() *ir.Star { return &ir.Star{Pos: at()} }

// as names an expression; "" keeps it unaliased.
func as(e ir.Expr, alias string) *ir.NamedExpr {
	return &ir.NamedExpr{Pos: at(), Expr: e, Alias: alias}
}

// items turns expressions into unaliased items (a *ir.NamedExpr passes through).
func items(es ...any) []*ir.NamedExpr {
	var out []*ir.NamedExpr
	for _, e := range es {
		switch e := e.(type) {
		case *ir.NamedExpr:
			out = append(out, e)
		case ir.Expr:
			out = append(out, as(e, ""))
		case string:
			out = append(out, as(c(e), ""))
		default:
			panic("items: want an expression, a named expression or a column name")
		}
	}
	return out
}

// Operators.

func scan(name string) *ir.Scan   { return &ir.Scan{Pos: at(), Name: name} }
func stream(name string) *ir.Scan { return &ir.Scan{Pos: at(), Name: name, Stream: true} }

func aliased(s *ir.Scan, alias string) *ir.Scan { s.Alias = alias; return s }

func where(in ir.Rel, cond ir.Expr) *ir.Filter { return &ir.Filter{Pos: at(), Input: in, Cond: cond} }
func sel(in ir.Rel, es ...any) *ir.Project {
	return &ir.Project{Pos: at(), Input: in, Items: items(es...)}
}
func groupBy(in ir.Rel, keys []*ir.NamedExpr, aggs ...any) *ir.Aggregate {
	return &ir.Aggregate{Pos: at(), Input: in, Keys: keys, Aggs: items(aggs...)}
}
func join(kind ir.JoinKind, l, r ir.Rel, on ir.Expr, using ...string) *ir.Join {
	return &ir.Join{Pos: at(), Kind: kind, Left: l, Right: r, On: on, Using: using}
}
func tumble(in ir.Rel, time ir.Expr, size string) *ir.Window {
	return &ir.Window{Pos: at(), Input: in, Kind: ir.WindowTumble, Time: time, Size: mustDur(size)}
}
func orderBy(in ir.Rel, keys ...ir.Expr) *ir.Sort {
	s := &ir.Sort{Pos: at(), Input: in}
	for _, k := range keys {
		s.Keys = append(s.Keys, &ir.SortKey{Pos: at(), Expr: k})
	}
	return s
}

func mustDur(s string) ir.Duration {
	d, err := ir.ParseDuration(s)
	if err != nil {
		panic(err)
	}
	return d
}

func wm(col, delay string) *ir.Watermark {
	return &ir.Watermark{Pos: at(), Column: col, Delay: mustDur(delay)}
}

// Pipelines.

type pb struct{ p *ir.Pipeline }

func newPipeline(name string) *pb {
	return &pb{p: &ir.Pipeline{Pos: at(), Name: name}}
}

// cols parses "name type[ not null]" column declarations.
func cols(decls ...string) []*ir.Column {
	var out []*ir.Column
	for _, d := range decls {
		name, typ, _ := strings.Cut(d, " ")
		notNull := strings.HasSuffix(typ, " not null")
		typ = strings.TrimSuffix(typ, " not null")
		t, err := ir.ParseType(typ)
		if err != nil {
			panic(err)
		}
		out = append(out, &ir.Column{Pos: at(), Name: name, Type: t, NotNull: notNull})
	}
	return out
}

// source declares a file source; stream makes it a watched folder.
func (b *pb) source(name string, stream bool, w *ir.Watermark, columns ...string) *ir.Dataset {
	d := &ir.Dataset{Pos: at(), Kind: ir.KindSource, Name: name, Columns: cols(columns...), Watermark: w,
		Source: &ir.SourceSpec{Pos: at(), Format: ir.FormatParquet, Paths: []string{"data/" + name + "/*.parquet"}, Unbounded: stream}}
	b.p.Datasets = append(b.p.Datasets, d)
	return d
}

// dataset declares a non-source dataset; with a query, its own flow too.
func (b *pb) dataset(kind ir.DatasetKind, name string, q ir.Rel) (*ir.Dataset, *ir.Flow) {
	d := &ir.Dataset{Pos: at(), Kind: kind, Name: name}
	b.p.Datasets = append(b.p.Datasets, d)
	if q == nil {
		return d, nil
	}
	return d, b.flow(name, name, q)
}

func (b *pb) mv(name string, q ir.Rel) (*ir.Dataset, *ir.Flow) {
	return b.dataset(ir.KindMaterializedView, name, q)
}

func (b *pb) st(name string, q ir.Rel) (*ir.Dataset, *ir.Flow) {
	return b.dataset(ir.KindStreamingTable, name, q)
}

func (b *pb) flow(name, target string, q ir.Rel) *ir.Flow {
	f := &ir.Flow{Pos: at(), Name: name, Target: target, Query: q}
	b.p.Flows = append(b.p.Flows, f)
	return f
}

// bids is the running example: a watermarked stream source.
func bids(b *pb) *ir.Dataset {
	return b.source("bids", true, wm("date_time", "5s"),
		"auction int64 not null", "bidder int64", "price int64", "channel string", "date_time timestamp(ms) not null")
}

// run runs the passes and fails the test on an error other than diagnostics.
func run(t *testing.T, p *ir.Pipeline, opts Options) *Unit {
	t.Helper()
	opts.Verify = true
	u, err := Run(p, opts)
	if u == nil {
		t.Fatalf("Run: %v", err)
	}
	if _, ok := err.(ir.Diagnostics); err != nil && !ok {
		t.Fatalf("Run: %v", err)
	}
	return u
}

// mustRun runs every pass and fails the test on any diagnostic.
func mustRun(t *testing.T, p *ir.Pipeline, opts Options) *Unit {
	t.Helper()
	u := run(t, p, opts)
	if len(u.Diags) > 0 {
		t.Fatalf("unexpected diagnostics:\n%s", u.Diags.Error())
	}
	return u
}
