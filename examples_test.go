package thund

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nordisk/thund/frontend/dsl"
	"github.com/nordisk/thund/frontend/spec"
	"github.com/nordisk/thund/ir"
)

// goOnlyExamples are the examples whose pipeline is written in Go with the ir
// builder rather than as text; they have neither form to compare.
var goOnlyExamples = map[string]bool{"gobuilder": true}

// TestExamplesSQLEqualsDSL: every example exists both as pipeline.thund and
// as a spark-pipeline.yml project of SQL files in the same folder, and both
// forms compile to the same IR (positions and comments aside), less the
// sinks of the .thund form and the flows into them, which SQL cannot
// declare (it has no CREATE SINK). An example added with one form only
// fails here.
func TestExamplesSQLEqualsDSL(t *testing.T) {
	dirs, err := os.ReadDir("examples")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range dirs {
		if !d.IsDir() || goOnlyExamples[d.Name()] {
			continue
		}
		n++
		dir := filepath.Join("examples", d.Name())
		t.Run(d.Name(), func(t *testing.T) {
			thundPath := filepath.Join(dir, "pipeline.thund")
			src, err := os.ReadFile(thundPath)
			if err != nil {
				t.Fatalf("the example has no DSL form: %v", err)
			}
			want, diags := dsl.Parse(thundPath, src)
			if diags.HasErrors() {
				t.Fatalf("DSL form:\n%v", diags)
			}
			if _, err := os.Stat(filepath.Join(dir, "spark-pipeline.yml")); err != nil {
				t.Fatalf("the example has no SQL form (spark-pipeline.yml + transformations/*.sql): %v", err)
			}
			got, diags := spec.LoadPipeline(dir)
			if diags.HasErrors() {
				t.Fatalf("SQL form:\n%v", diags)
			}
			want = withoutSinks(want)
			if d := ir.Diff(want, got); d != "" {
				t.Errorf("the SQL form differs from pipeline.thund:\n%s\nSQL form printed as .thund:\n%s", d, ir.Print(got))
			}
		})
	}
	if n == 0 {
		t.Fatal("no examples found")
	}
}

// withoutSinks is p less its sinks and the flows into them.
func withoutSinks(p *ir.Pipeline) *ir.Pipeline {
	sinks := map[string]bool{}
	out := *p
	out.Datasets, out.Flows = nil, nil
	for _, d := range p.Datasets {
		if d.Kind == ir.KindSink {
			sinks[d.Name] = true
			continue
		}
		out.Datasets = append(out.Datasets, d)
	}
	for _, f := range p.Flows {
		if !sinks[f.Target] {
			out.Flows = append(out.Flows, f)
		}
	}
	return &out
}
