// This file replaces the generated main.go in codegen's end-to-end test: it
// runs the generated flows without etl.Main, over in-memory inputs.
//
// Usage: etl ROOT
//
// Sources are read from ROOT with rt/format; every other dataset is
// computed by running its flows in dependency order through
// etl.NewFlowContext, and printed as
//
//	== NAME
//	<CSV: a header row, then the rows>
//	-- expect NAME: passed=P failed=F
//	-- error: MESSAGE
//
// A dataset whose flow fails keeps the rows emitted before the error.
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/etl"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/run"
)

// memReader replays batches held in memory.
type memReader struct {
	schema *arrow.Schema
	recs   []arrow.RecordBatch
}

func (m *memReader) Schema() *arrow.Schema { return m.schema }

func (m *memReader) Next() (arrow.RecordBatch, error) {
	if len(m.recs) == 0 {
		return nil, io.EOF
	}
	r := m.recs[0]
	m.recs = m.recs[1:]
	r.Retain()
	return r, nil
}

func (m *memReader) Close() error { return nil }

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: etl ROOT")
		os.Exit(2)
	}
	root := os.Args[1]
	p := newPipeline()
	data := map[string][]arrow.RecordBatch{}
	schemas := map[string]*arrow.Schema{}
	for _, d := range p.Datasets {
		schemas[d.Name] = d.Schema
		if d.Kind == etl.Source {
			recs, err := readSource(root, d)
			if err != nil {
				fmt.Printf("== %s\n-- error: %v\n", d.Name, err)
				continue
			}
			data[d.Name] = recs
			continue
		}
		var out []arrow.RecordBatch
		var errs []error
		var exps []*run.Expectation
		for _, f := range d.Flows {
			exps = exps[:0]
			for _, e := range d.Expectations {
				exps = append(exps, &run.Expectation{Name: e.Name, Dataset: d.Name, Flow: f.Name, Action: e.Action})
			}
			read := func(name string) (format.BatchReader, error) {
				s, ok := schemas[name]
				if !ok {
					return nil, fmt.Errorf("no dataset %q", name)
				}
				return &memReader{schema: s, recs: append([]arrow.RecordBatch(nil), data[name]...)}, nil
			}
			emit := func(rec arrow.RecordBatch) error {
				if !rec.Schema().Equal(d.Schema) {
					return fmt.Errorf("flow %s emitted schema %s, want %s", f.Name, rec.Schema(), d.Schema)
				}
				rec.Retain()
				out = append(out, rec)
				return nil
			}
			fc := etl.NewFlowContext(context.Background(), nil, 1, nil, read, emit, exps)
			if err := f.Run(fc); err != nil {
				errs = append(errs, err)
			}
		}
		data[d.Name] = out
		fmt.Printf("== %s\n", d.Name)
		w, err := format.NewWriter(os.Stdout, format.CSV, d.Schema, format.WriteOptions{})
		if err != nil {
			fmt.Printf("-- error: %v\n", err)
			continue
		}
		for _, rec := range out {
			if err := w.Write(rec); err != nil {
				fmt.Printf("-- error: %v\n", err)
			}
		}
		if err := w.Close(); err != nil {
			fmt.Printf("-- error: %v\n", err)
		}
		for _, e := range exps {
			fmt.Printf("-- expect %s: passed=%d failed=%d\n", e.Name, e.Passed(), e.Failed())
		}
		for _, err := range errs {
			fmt.Printf("-- error: %v\n", err)
		}
	}
}

// readSource reads a source's files under root.
func readSource(root string, d *etl.Dataset) ([]arrow.RecordBatch, error) {
	f, err := format.ParseFormat(d.Source.Format)
	if err != nil {
		return nil, err
	}
	opts := format.Options{BatchRows: 3} // small batches: rows cross batch boundaries
	o, err := format.ParseSourceOptions(f, d.Source.Options)
	if err != nil {
		return nil, err
	}
	o.Apply(&opts)
	r, err := format.ReadGlobs(root, d.Source.Patterns, f, d.Schema, opts)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return format.ReadAll(r)
}
