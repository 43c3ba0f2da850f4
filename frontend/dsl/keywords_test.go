package dsl

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/nordisk/thund/ir"
)

// slotPipeline builds, through the IR API, a pipeline that uses w in every
// place a name can stand.
func slotPipeline(w string) *ir.Pipeline {
	col := func(name string) *ir.ColumnRef { return &ir.ColumnRef{Name: name} }
	qcol := func(q, name string) *ir.ColumnRef { return &ir.ColumnRef{Qualifier: q, Name: name} }
	wm := &ir.Watermark{Column: w, Delay: ir.Duration(5e9)}
	scan := &ir.Scan{Name: w, Alias: w, Stream: true, Watermark: wm, Bounds: &ir.EdgeBounds{Rows: 10}}
	var q ir.Rel = scan
	q = &ir.Join{Kind: ir.JoinLeft, Left: q, Right: &ir.Scan{Name: w + "." + w + "." + w}, Using: []string{w, w}}
	q = &ir.Join{Kind: ir.JoinInner, Left: q, Right: &ir.SubqueryRel{Input: &ir.Range{End: 3}, Alias: w},
		On: &ir.Binary{Op: ir.OpEq, L: qcol(w, w), R: qcol(w+"."+w, w)}}
	q = &ir.Join{Kind: ir.JoinInner, Left: q, Right: &ir.SubqueryRel{Input: &ir.Filter{Input: &ir.Scan{Name: w}, Cond: col(w)}, Alias: w}}
	q = &ir.Filter{Input: q, Cond: &ir.Binary{Op: ir.OpAnd, L: col(w), R: &ir.Unary{Op: ir.OpNot, X: col(w)}}}
	q = &ir.Window{Input: q, Kind: ir.WindowTumble, Time: col(w), Size: ir.Duration(1e9)}
	q = &ir.Project{Input: q, Items: []*ir.NamedExpr{
		{Expr: col(w), Alias: w},
		{Expr: &ir.Star{Qualifier: w, Except: []string{w}}},
		{Expr: &ir.Star{Except: []string{w, w}}},
		{Expr: &ir.Call{Name: lowerASCII(w), Args: []ir.Expr{col(w)}}},
		{Expr: &ir.Call{Name: lowerASCII(w), Star: true}},
		{Expr: &ir.Case{Operand: col(w), Whens: []*ir.When{{Cond: col(w), Then: col(w)}}, Else: col(w)}},
		{Expr: &ir.Between{X: col(w), Lo: col(w), Hi: col(w)}},
		{Expr: &ir.In{X: col(w), List: []ir.Expr{col(w)}}},
		{Expr: &ir.IsNull{X: col(w), Not: true}},
		{Expr: &ir.Like{X: col(w), Pattern: col(w)}},
		{Expr: &ir.Cast{X: col(w), To: ir.Int64}},
		{Expr: &ir.Binary{Op: ir.OpConcat, L: col(w), R: &ir.Unary{Op: ir.OpNeg, X: col(w)}}},
	}}
	q = &ir.Aggregate{Input: q, Keys: []*ir.NamedExpr{{Expr: col(w), Alias: w}}, Aggs: []*ir.NamedExpr{{Expr: col(w), Alias: w}}}
	q = &ir.Union{All: true, Inputs: []ir.Rel{q, &ir.Scan{Name: w}, &ir.Scan{Name: w, Alias: w}}}
	q = &ir.Sort{Input: q, Keys: []*ir.SortKey{{Expr: col(w)}, {Expr: col(w), Desc: true}}}
	q = &ir.Limit{Input: q, N: 1}
	kv := []ir.KV{{Key: w, Value: w}}
	cols := []*ir.Column{{Name: w, Type: ir.StringT, Comment: w}, {Name: w, Type: ir.Int64, NotNull: true}}
	return &ir.Pipeline{
		Name: w, Catalog: w, Database: w, Storage: w, Conf: kv,
		Datasets: []*ir.Dataset{
			{Kind: ir.KindSource, Name: w, ID: w, Catalog: w, Database: w, Conf: kv, Columns: cols, Comment: w,
				Source:    &ir.SourceSpec{Format: ir.FormatCSV, Paths: []string{w}, Options: kv},
				Watermark: wm, Expectations: []*ir.Expectation{{Name: w, Cond: col(w)}}},
			{Kind: ir.KindSource, Name: w, Columns: cols[:1],
				Source: &ir.SourceSpec{Format: ir.FormatArrow, Stdin: true}},
			{Kind: ir.KindMaterializedView, Name: w, Columns: cols, Format: w, PartitionBy: []string{w, w}, Properties: kv},
			{Kind: ir.KindStreamingTable, Name: w},
			{Kind: ir.KindTemporaryView, Name: w},
			{Kind: ir.KindView, Name: w},
			{Kind: ir.KindSink, Name: w, Format: w, SinkOptions: kv},
		},
		Flows: []*ir.Flow{
			{Name: w, Target: w, Query: q, Comment: w, Conf: kv, LateTable: w},
			{Name: w, Target: w, Once: true, ByName: true, Query: &ir.Scan{Name: w},
				CDC: &ir.CDC{Keys: []string{w}, SequenceBy: col(w), DeleteWhen: col(w), Columns: []string{w}, SCDType: 2, TrackHistory: []string{w}}},
			{Name: w, Target: w, Query: &ir.Scan{Name: w},
				CDC: &ir.CDC{Keys: []string{w, w}, SequenceBy: col(w), ExceptColumns: []string{w}, SCDType: 2, TrackHistoryExcept: []string{w}}},
			{Name: w + "x", Target: w, Query: &ir.Scan{Name: w}, Trigger: &ir.Trigger{Kind: ir.TriggerAvailableNow}},
		},
	}
}

// slotWords are every word of the grammar, every reserved word, type and
// format names, units, and some case variants. Not "": an empty alias or
// name means "none" in the IR.
func slotWords() []string {
	set := map[string]bool{}
	for w := range grammarWords {
		set[w] = true
		set[strings.ToUpper(w)] = true
	}
	for _, w := range ir.ReservedWords() {
		set[w] = true
		set[strings.ToUpper(w[:1])+w[1:]] = true
	}
	for _, w := range ir.TypeNames() {
		set[w] = true
	}
	for _, w := range []string{"parquet", "csv", "jsonl", "json", "arrow", "ipc", "stdout", "delta",
		"s", "ms", "us", "ns", "d", "h", "m", "KB", "MB", "GB", "kb", "count", "max", "x", "_", "a1",
		" ", "`", "``", "a.b", ".", "1", "1s", "a b", "é", "--", "#", "'", "\"", "\n", "|", "*"} {
		set[w] = true
	}
	out := make([]string, 0, len(set))
	for w := range set {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

// TestEveryWordInEveryNameSlot prints IR that uses each word as every kind
// of name and parses it back: quoting in the printer and the contextual
// keywords of the grammar must agree.
func TestEveryWordInEveryNameSlot(t *testing.T) {
	for i, w := range slotWords() {
		if testing.Short() && i%10 != 0 {
			continue
		}
		t.Run(fmt.Sprintf("%q", w), func(t *testing.T) {
			p := slotPipeline(w)
			text := ir.Print(p)
			p2, diags := Parse("w.thund", text)
			if diags != nil {
				t.Fatalf("%v\n%s", diags, text)
			}
			if !ir.Equal(p, p2) {
				t.Fatalf("%s\n%s", ir.Diff(p, p2), text)
			}
			if text2 := ir.Print(p2); string(text2) != string(text) {
				t.Fatalf("not idempotent:\n%s\n%s", text, text2)
			}
		})
	}
}
