package main

import (
	"fmt"
	"strings"

	"github.com/nordisk/thund/ir"
)

// This file renders `thundc graph`: pure functions from the IR to text.
//
// Nodes are the datasets, in declaration order, then the external tables
// flows read (qualified names), in order of first read. Edges go from each
// dataset a flow reads to the flow's target, in flow order and, within a
// flow, in the query's scan order; a flow that reads one input both as a
// stream and as a snapshot draws two edges. A stream read is drawn solid, a
// snapshot read dashed (dotted in Mermaid, which has no dashes). An edge is
// labelled with its flow's name when that differs from the target's (the
// dataset's own flow, declared with `= QUERY`, needs no label).

// kindExternal is the node kind of a table outside the pipeline.
const kindExternal = "external table"

// graph is a pipeline's dataflow graph; it is also the JSON form.
type graph struct {
	Pipeline string      `json:"pipeline"`
	Nodes    []graphNode `json:"nodes"`
	Edges    []graphEdge `json:"edges"`
}

type graphNode struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // ir.DatasetKind.String(), or "external table"
}

type graphEdge struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Flow   string `json:"flow"`   // always set in JSON; drawn only when it differs from To
	Stream bool   `json:"stream"` // a stream read; false for a snapshot read
}

// nodeStyle is how a node kind is drawn.
type nodeStyle struct {
	dot                string // Graphviz node attributes
	mermaidL, mermaidR string // Mermaid shape delimiters
}

var nodeStyles = map[string]nodeStyle{
	ir.KindSource.String():           {`shape=parallelogram`, `[/`, `/]`},
	ir.KindMaterializedView.String(): {`shape=box`, `[`, `]`},
	ir.KindStreamingTable.String():   {`shape=box, peripheries=2`, `[[`, `]]`},
	ir.KindTemporaryView.String():    {`shape=box, style="rounded,dashed"`, `(`, `)`},
	ir.KindView.String():             {`shape=ellipse`, `([`, `])`},
	ir.KindSink.String():             {`shape=invtrapezium`, `[\`, `/]`},
	kindExternal:                     {`shape=cylinder`, `[(`, `)]`},
}

// buildGraph collects the nodes and edges of p. It expects a validated
// pipeline; a name that resolves to no dataset is drawn as an external table.
func buildGraph(p *ir.Pipeline) *graph {
	g := &graph{Pipeline: p.Name, Nodes: []graphNode{}, Edges: []graphEdge{}}
	known := map[string]string{} // lower-case name -> name as declared or first written
	for _, d := range p.Datasets {
		if _, dup := known[strings.ToLower(d.Name)]; dup {
			continue
		}
		known[strings.ToLower(d.Name)] = d.Name
		g.Nodes = append(g.Nodes, graphNode{Name: d.Name, Kind: d.Kind.String()})
	}
	node := func(name string) string {
		if n, ok := known[strings.ToLower(name)]; ok {
			return n
		}
		known[strings.ToLower(name)] = name
		g.Nodes = append(g.Nodes, graphNode{Name: name, Kind: kindExternal})
		return name
	}
	for _, f := range p.Flows {
		to := node(f.Target)
		type read struct {
			from   string
			stream bool
		}
		seen := map[read]bool{}
		for _, s := range ir.Scans(f.Query) {
			r := read{node(s.Name), s.Stream}
			if seen[r] {
				continue
			}
			seen[r] = true
			g.Edges = append(g.Edges, graphEdge{From: r.from, To: to, Flow: f.Name, Stream: s.Stream})
		}
	}
	return g
}

// renderGraph draws p in the format: "dot", "mermaid" or "json".
func renderGraph(p *ir.Pipeline, format string) ([]byte, error) {
	g := buildGraph(p)
	switch format {
	case "dot":
		return g.dot(), nil
	case "mermaid":
		return g.mermaid(), nil
	case "json":
		return marshalJSON(g)
	}
	return nil, usagef("unknown graph format %q", format)
}

// label is the edge's label: its flow's name, or "" for the target's own flow.
func (e *graphEdge) label() string {
	if strings.EqualFold(e.Flow, e.To) {
		return ""
	}
	return e.Flow
}

// dot renders the graph for Graphviz.
func (g *graph) dot() []byte {
	var b strings.Builder
	if g.Pipeline != "" {
		fmt.Fprintf(&b, "digraph %s {\n", dotQuote(g.Pipeline))
	} else {
		b.WriteString("digraph {\n")
	}
	b.WriteString("  rankdir=LR;\n")
	b.WriteString("  node [fontname=\"Helvetica\"];\n")
	b.WriteString("  edge [fontname=\"Helvetica\"];\n")
	if len(g.Nodes) > 0 {
		b.WriteString("\n")
	}
	for _, n := range g.Nodes {
		fmt.Fprintf(&b, "  %s [%s, label=%s];\n", dotQuote(n.Name), nodeStyles[n.Kind].dot,
			dotQuote(n.Name+"\n("+n.Kind+")"))
	}
	if len(g.Edges) > 0 {
		b.WriteString("\n")
	}
	for _, e := range g.Edges {
		var attrs []string
		if l := e.label(); l != "" {
			attrs = append(attrs, "label="+dotQuote(l))
		}
		if !e.Stream {
			attrs = append(attrs, "style=dashed")
		}
		fmt.Fprintf(&b, "  %s -> %s", dotQuote(e.From), dotQuote(e.To))
		if len(attrs) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(attrs, ", "))
		}
		b.WriteString(";\n")
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// dotQuote quotes s as a Graphviz ID; a newline becomes the \n line break.
func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// mermaid renders the graph as a Mermaid flowchart. Node ids are n0, n1, ...
// in node order, since dataset names may be Mermaid keywords (end) or hold
// characters its ids cannot.
func (g *graph) mermaid() []byte {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	if g.Pipeline != "" {
		fmt.Fprintf(&b, "  %%%% pipeline %s\n", g.Pipeline)
	}
	id := map[string]string{}
	for i, n := range g.Nodes {
		id[n.Name] = fmt.Sprintf("n%d", i)
		st := nodeStyles[n.Kind]
		fmt.Fprintf(&b, "  %s%s%s%s\n", id[n.Name], st.mermaidL, mermaidQuote(n.Name+"\n("+n.Kind+")"), st.mermaidR)
	}
	for _, e := range g.Edges {
		arrow := "-->"
		if !e.Stream {
			arrow = "-.->"
		}
		if l := e.label(); l != "" {
			arrow += "|" + mermaidQuote(l) + "|"
		}
		fmt.Fprintf(&b, "  %s %s %s\n", id[e.From], arrow, id[e.To])
	}
	return []byte(b.String())
}

// mermaidQuote quotes s as a Mermaid label, escaping with entity codes; a
// newline becomes a line break.
func mermaidQuote(s string) string {
	r := strings.NewReplacer(`#`, `#35;`, `"`, `#quot;`, `<`, `#lt;`, `>`, `#gt;`, "\n", `<br/>`)
	return `"` + r.Replace(s) + `"`
}
