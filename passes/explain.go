package passes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nordisk/thund/ir"
)

// ExplainText renders the plan after the passes for `thundc explain`: per
// flow its target, inputs, boundedness, emission, watermark, stages and
// output schema, then the lowering report. Sections a pass has not filled
// (with --stop-after) are left out. The text is deterministic.
func (u *Unit) ExplainText() string {
	x := u.explain()
	var b strings.Builder
	if x.Pipeline != "" {
		fmt.Fprintf(&b, "pipeline %s\n", x.Pipeline)
	}
	fmt.Fprintf(&b, "target %s\n", x.Target)
	fmt.Fprintf(&b, "passes %s\n", strings.Join(x.Passes, ", "))
	for _, f := range x.Flows {
		fmt.Fprintf(&b, "\nflow %s into %s %s\n", f.Name, f.TargetKind, f.Target)
		if f.Bounded == nil {
			continue
		}
		b.WriteString("  inputs:\n")
		for _, in := range f.Inputs {
			how := "snapshot"
			if in.Stream {
				how = "stream"
			}
			name := in.Name
			if in.Alias != "" {
				name += " as " + in.Alias
			}
			fmt.Fprintf(&b, "    %s: %s of %s", name, how, in.Kind)
			if in.Subquery {
				b.WriteString(", in a subquery")
			}
			if w := in.Watermark; w != nil {
				fmt.Fprintf(&b, ", watermark %s", w.text())
			}
			b.WriteString("\n")
		}
		if *f.Bounded {
			b.WriteString("  bounded: yes\n")
		} else {
			b.WriteString("  bounded: no\n")
		}
		em := string(f.Emission)
		if f.OnWindowClose {
			em += ", on window close"
		}
		fmt.Fprintf(&b, "  emission: %s\n", em)
		if f.Changes != "" {
			fmt.Fprintf(&b, "  changes: %s\n", f.Changes)
		}
		switch len(f.Watermarks) {
		case 0:
			b.WriteString("  watermark: none\n")
		case 1:
			fmt.Fprintf(&b, "  watermark: %s\n", f.Watermarks[0].flowText())
		default:
			var parts []string
			for _, w := range f.Watermarks {
				if t := w.flowText(); !slices.Contains(parts, t) {
					parts = append(parts, t)
				}
			}
			fmt.Fprintf(&b, "  watermark: min(%s)\n", strings.Join(parts, ", "))
		}
		if len(f.Stages) > 0 {
			b.WriteString("  stages:\n")
			for _, st := range f.Stages {
				fused := ""
				if st.Fused {
					fused = " fused"
				}
				fmt.Fprintf(&b, "    s%d%s: %s", st.ID, fused, strings.Join(st.Detail, " | "))
				if len(st.Inputs) > 0 {
					fmt.Fprintf(&b, " <- %s", stageList(st.Inputs))
				}
				if len(st.Subqueries) > 0 {
					fmt.Fprintf(&b, " (subqueries %s)", stageList(st.Subqueries))
				}
				b.WriteString("\n")
			}
		}
		if f.Output != nil {
			b.WriteString("  output:\n")
			for _, fl := range f.Output {
				fmt.Fprintf(&b, "    %s\n", fl.text())
			}
		}
	}
	if x.Report != nil {
		fmt.Fprintf(&b, "\nlowering report for %s:", x.Report.Target)
		if len(x.Report.Entries) == 0 {
			b.WriteString(" nothing dropped, converted or refused\n")
		} else {
			b.WriteString("\n")
			for _, e := range x.Report.Entries {
				fmt.Fprintf(&b, "  %s\n", e)
			}
		}
	}
	return b.String()
}

func stageList(ids []int) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf("s%d", id)
	}
	return strings.Join(parts, ", ")
}

// ExplainJSON returns the same as ExplainText as a JSON-marshalable value
// with a stable shape (slices, not maps).
func (u *Unit) ExplainJSON() any { return u.explain() }

// Explain is the plan `thundc explain --json` prints.
type Explain struct {
	Pipeline string          `json:"pipeline,omitempty"`
	Target   Target          `json:"target"`
	Passes   []string        `json:"passes"`
	Flows    []ExplainFlow   `json:"flows"`
	Report   *LoweringReport `json:"report,omitempty"`
}

// ExplainFlow is one flow of the plan. Fields a pass has not filled are
// omitted.
type ExplainFlow struct {
	Name          string             `json:"name"`
	Target        string             `json:"target"`
	TargetKind    string             `json:"target_kind"`
	Inputs        []ExplainInput     `json:"inputs,omitempty"`
	Bounded       *bool              `json:"bounded,omitempty"`
	Emission      Emission           `json:"emission,omitempty"`
	OnWindowClose bool               `json:"on_window_close,omitempty"`
	Changes       string             `json:"changes,omitempty"` // a change flow's apply clause
	Watermarks    []ExplainWatermark `json:"watermarks,omitempty"`
	Stages        []ExplainStage     `json:"stages,omitempty"`
	Output        []ExplainField     `json:"output,omitempty"`
}

// ExplainInput is one read of a flow.
type ExplainInput struct {
	Name      string            `json:"name"`
	Alias     string            `json:"alias,omitempty"`
	Kind      string            `json:"kind"`
	Stream    bool              `json:"stream"`
	Subquery  bool              `json:"subquery,omitempty"`
	Watermark *ExplainWatermark `json:"watermark,omitempty"`
}

// ExplainWatermark is a stream read's effective watermark.
type ExplainWatermark struct {
	Input           string `json:"input"` // the read's alias, else the dataset's name
	Column          string `json:"column"`
	Delay           string `json:"delay"`
	AllowedLateness string `json:"allowed_lateness,omitempty"`
	IdleTimeout     string `json:"idle_timeout,omitempty"`
	From            string `json:"from"` // "read", "source" or "upstream"
}

func (w *ExplainWatermark) text() string {
	s := w.Column + " delay " + w.Delay
	if w.AllowedLateness != "" {
		s += " allowed lateness " + w.AllowedLateness
	}
	if w.IdleTimeout != "" {
		s += " idle timeout " + w.IdleTimeout
	}
	return s + " (from " + w.From + ")"
}

func (w *ExplainWatermark) flowText() string {
	return w.Input + "." + w.Column + " - " + w.Delay
}

// ExplainStage is one stage, with a one-line description per operator.
type ExplainStage struct {
	ID         int      `json:"id"`
	Ops        []string `json:"ops"`
	Detail     []string `json:"detail"`
	Fused      bool     `json:"fused"`
	Inputs     []int    `json:"inputs,omitempty"`
	Subqueries []int    `json:"subqueries,omitempty"`
	Bounded    bool     `json:"bounded"`
}

// ExplainField is one output column.
type ExplainField struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Nullable bool   `json:"nullable"`
	Open     bool   `json:"open,omitempty"`
}

func (f ExplainField) text() string {
	if f.Open {
		return "* (the columns of an external table)"
	}
	s := f.Name + " " + f.Type
	if !f.Nullable {
		s += " not null"
	}
	return s
}

func (u *Unit) explain() *Explain {
	x := &Explain{Pipeline: u.Pipeline.Name, Target: u.Opts.Target, Passes: append([]string{}, u.Ran...), Flows: []ExplainFlow{}}
	if x.Target == "" {
		x.Target = Native
	}
	if u.ran("capability") {
		x.Report = u.Report
	}
	for _, f := range u.Pipeline.Flows {
		ef := ExplainFlow{Name: f.Name, Target: f.Target, TargetKind: "dataset"}
		if d := u.lookup(f.Target); d != nil {
			ef.Target, ef.TargetKind = d.Name, d.Kind.String()
		}
		fi := u.Flows[f]
		if fi != nil && u.ran("resolve") {
			ef.Output = []ExplainField{}
			for _, fl := range fi.Output {
				ef.Output = append(ef.Output, ExplainField{Name: fl.Name, Type: fl.Type.String(), Nullable: fl.Nullable, Open: fl.Open})
			}
		}
		if fi != nil && u.ran("sanity") {
			bounded := fi.Bounded
			ef.Bounded = &bounded
			ef.Emission = fi.Emission
			ef.OnWindowClose = fi.OnWindowClose
			ef.Changes = describeCDC(f.CDC)
			for _, in := range fi.Inputs {
				ei := ExplainInput{Name: in.Name, Alias: in.Scan.Alias, Kind: in.Kind, Stream: in.Stream, Subquery: in.Subquery}
				if w := in.Watermark; w != nil {
					name := in.Name
					if in.Scan.Alias != "" {
						name = in.Scan.Alias
					}
					ew := &ExplainWatermark{Input: name, Column: w.Column, Delay: w.Delay.String(), From: in.WMOrigin}
					if w.AllowedLateness != 0 {
						ew.AllowedLateness = w.AllowedLateness.String()
					}
					if w.IdleTimeout != 0 {
						ew.IdleTimeout = w.IdleTimeout.String()
					}
					ei.Watermark = ew
					ef.Watermarks = append(ef.Watermarks, *ew)
				}
				ef.Inputs = append(ef.Inputs, ei)
			}
		}
		if fi != nil && u.ran("fuse") {
			for _, st := range fi.Stages {
				es := ExplainStage{ID: st.ID, Ops: st.Ops, Fused: st.Fused, Inputs: st.Inputs, Subqueries: st.Subqueries, Bounded: st.Bounded}
				for i, r := range st.Rels {
					if r == nil {
						es.Detail = append(es.Detail, describeExpect(fi.Target, u))
					} else {
						es.Detail = append(es.Detail, describeOp(r, st.Ops[i]))
					}
				}
				ef.Stages = append(ef.Stages, es)
			}
		}
		x.Flows = append(x.Flows, ef)
	}
	return x
}

// describeOp renders one operator for explain, in the DSL's words.
func describeOp(r ir.Rel, kind string) string {
	items := func(list []*ir.NamedExpr) string {
		parts := make([]string, len(list))
		for i, it := range list {
			parts[i] = exprString(it.Expr)
			if it.Alias != "" {
				parts[i] += " as " + it.Alias
			}
		}
		return strings.Join(parts, ", ")
	}
	switch n := r.(type) {
	case *ir.Scan:
		s := "scan "
		if n.Stream {
			s += "stream "
		}
		s += n.Name
		if n.Alias != "" {
			s += " as " + n.Alias
		}
		return s
	case *ir.Range:
		if n.Step != 0 && n.Step != 1 {
			return fmt.Sprintf("range(%d, %d, %d)", n.Start, n.End, n.Step)
		}
		return fmt.Sprintf("range(%d, %d)", n.Start, n.End)
	case *ir.SubqueryRel:
		return "as " + n.Alias
	case *ir.Filter:
		return "where " + exprString(n.Cond)
	case *ir.Project:
		return "select " + items(n.Items)
	case *ir.Aggregate:
		if len(n.Keys) == 0 {
			return "aggregate " + items(n.Aggs)
		}
		return "group by " + items(n.Keys) + " aggregate " + items(n.Aggs)
	case *ir.Join:
		s := n.Kind.String() + " join"
		switch {
		case len(n.Using) > 0:
			s += " using (" + strings.Join(n.Using, ", ") + ")"
		case n.On != nil:
			s += " on " + exprString(n.On)
		}
		return s
	case *ir.Window:
		t := exprString(n.Time)
		switch n.Kind {
		case ir.WindowHop:
			return fmt.Sprintf("window hop(%s, %s, %s)", t, n.Size, n.Slide)
		case ir.WindowSession:
			return fmt.Sprintf("window session(%s, %s)", t, n.Gap)
		}
		return fmt.Sprintf("window tumble(%s, %s)", t, n.Size)
	case *ir.Union:
		if n.All {
			return fmt.Sprintf("union all of %d inputs", len(n.Inputs))
		}
		return fmt.Sprintf("union of %d inputs", len(n.Inputs))
	case *ir.Distinct:
		return "distinct"
	case *ir.Sort:
		parts := make([]string, len(n.Keys))
		for i, k := range n.Keys {
			parts[i] = exprString(k.Expr)
			if k.Desc {
				parts[i] += " desc"
			}
			if k.NullsFirst != nil {
				if *k.NullsFirst {
					parts[i] += " nulls first"
				} else {
					parts[i] += " nulls last"
				}
			}
		}
		return "order by " + strings.Join(parts, ", ")
	case *ir.Limit:
		if n.Offset != 0 {
			return fmt.Sprintf("limit %d offset %d", n.N, n.Offset)
		}
		return fmt.Sprintf("limit %d", n.N)
	}
	return kind
}

// describeExpect lists the expectations a stage checks.
func describeExpect(d *ir.Dataset, u *Unit) string {
	var parts []string
	for _, e := range d.Expectations {
		if u.Caps != nil && (e.Action == ir.ActWarn && !u.Caps.WarnExpectations.OK() || e.Action != ir.ActWarn && !u.Caps.Expectations.OK()) {
			continue
		}
		parts = append(parts, e.Name+" ("+e.Action.String()+")")
	}
	return "expect " + strings.Join(parts, ", ")
}

// describeCDC renders a change flow's apply clause.
func describeCDC(c *ir.CDC) string {
	if c == nil {
		return ""
	}
	s := "apply by keys (" + strings.Join(c.Keys, ", ") + ")"
	if c.SequenceBy != nil {
		s += " sequence by " + exprString(c.SequenceBy)
	}
	if c.DeleteWhen != nil {
		s += " delete when " + exprString(c.DeleteWhen)
	}
	return s + fmt.Sprintf(", scd type %d", c.SCDType)
}
