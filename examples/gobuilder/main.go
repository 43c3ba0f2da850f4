// Command gobuilder builds a pipeline through the ir API, the programmatic
// surface of Þund, validates it, and prints it as .thund text on stdout.
//
//	go run ./examples/gobuilder > clicks.thund && thundc check clicks.thund
package main

import (
	"fmt"
	"os"

	"github.com/nordisk/thund/ir"
)

func col(name string) ir.Expr { return &ir.ColumnRef{Name: name} }

func lit(kind ir.LitKind, text string) ir.Expr { return &ir.Literal{Kind: kind, Text: text} }

func main() {
	p := build()
	if diags := ir.Validate(p); diags.HasErrors() {
		fmt.Fprintln(os.Stderr, diags)
		os.Exit(1)
	}
	os.Stdout.Write(ir.Print(p))
}

// build constructs the pipeline.
func build() *ir.Pipeline {
	p := &ir.Pipeline{Name: "clicks"}

	// A watched folder of JSON-lines click events with an event-time watermark.
	p.Datasets = append(p.Datasets, &ir.Dataset{
		Kind: ir.KindSource,
		Name: "clicks",
		Columns: []*ir.Column{
			{Name: "user_id", Type: ir.Int64, NotNull: true},
			{Name: "url", Type: ir.StringT},
			{Name: "ts", Type: ir.Timestamp(ir.Milli, "UTC")},
		},
		Source:    &ir.SourceSpec{Format: ir.FormatJSONL, Paths: []string{"data/clicks/*.jsonl"}, Unbounded: true},
		Watermark: &ir.Watermark{Column: "ts", Delay: ir.Duration(5e9)},
	})

	// Clicks per user per minute, emitted when each window closes.
	p.Datasets = append(p.Datasets, &ir.Dataset{
		Kind: ir.KindStreamingTable,
		Name: "clicks_per_minute",
		Expectations: []*ir.Expectation{{
			Name:   "has_user",
			Cond:   &ir.IsNull{X: col("user_id"), Not: true},
			Action: ir.ActDrop,
		}},
	})
	p.Flows = append(p.Flows, &ir.Flow{
		Name:   "clicks_per_minute",
		Target: "clicks_per_minute",
		Emit:   ir.EmitOnWindowClose,
		Query: &ir.Aggregate{
			Input: &ir.Window{
				Input: &ir.Filter{
					Input: &ir.Scan{Name: "clicks", Stream: true},
					Cond:  &ir.Like{X: col("url"), Pattern: lit(ir.LitString, "https://%")},
				},
				Kind: ir.WindowTumble,
				Time: col("ts"),
				Size: ir.Duration(60e9),
			},
			Keys: []*ir.NamedExpr{{Expr: col("user_id")}, {Expr: col("window_start")}},
			Aggs: []*ir.NamedExpr{{Expr: &ir.Call{Name: "count", Star: true}, Alias: "clicks"}},
		},
	})

	return p
}
