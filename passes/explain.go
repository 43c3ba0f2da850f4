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
func (u *Unit) ExplainText() string { return u.explain().Text() }

// Text renders the plan as ExplainText does.
func (x *Explain) Text() string {
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
		if ph := f.Physical; ph != nil {
			b.WriteString("  physical plan:\n")
			for _, line := range ph.Lines {
				fmt.Fprintf(&b, "    %s\n", line)
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

// Explain returns the plan ExplainText renders, for a caller that adds
// what a backend's lowering reports (its Report) without changing the
// Unit.
func (u *Unit) Explain() *Explain { return u.explain() }

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
	Physical      *ExplainPhysical   `json:"physical,omitempty"`
	Output        []ExplainField     `json:"output,omitempty"`
}

// ExplainPhysical is a flow's physical plan (the plan pass), one decision
// per line: what each scan decodes and the bounds it hands its reader, each
// join's hash keys, the stream plan, a change flow's layout, the casts of
// store assignment, and whether the target is maintained by appending.
type ExplainPhysical struct {
	Lines []string `json:"lines"`
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
		if fp := u.physical(f); fp != nil {
			ef.Physical = fp
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
		if n.Sets != nil { // setgroup
			sets := make([]string, len(n.Sets))
			for i, s := range n.Sets {
				sets[i] = setText(n, s)
			}
			return "group by " + items(n.Keys) + " grouping sets (" + strings.Join(sets, ", ") + ") aggregate " + items(n.Aggs)
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
	case *ir.SetOp:
		if n.All {
			return n.Kind.String() + " all"
		}
		return n.Kind.String()
	case *ir.Generate: // generators, LATERAL VIEW
		return "generate " + exprString(&ir.Call{Name: n.Func, Args: n.Args}) + map[bool]string{true: " outer"}[n.Outer]
	case *ir.Distinct:
		// dedup within the watermark: the state it keeps
		if n.WithinWatermark {
			keys := "every column"
			if len(n.Keys) > 0 {
				keys = strings.Join(n.Keys, ", ")
			}
			return "distinct within watermark on (" + keys + "); state: the first event time per key, dropped when the watermark reaches it plus the delay"
		}
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

// physical renders a flow's physical plan for explain; nil before the plan
// pass, or for a target whose backend plans itself (Spark).
func (u *Unit) physical(f *ir.Flow) *ExplainPhysical {
	if u.Plan == nil || u.Opts.Target.IsSpark() {
		return nil
	}
	fp := u.Plan.Flows[f]
	if fp == nil {
		return nil
	}
	ph := &ExplainPhysical{Lines: []string{}}
	add := func(format string, args ...any) { ph.Lines = append(ph.Lines, fmt.Sprintf(format, args...)) }
	if s := u.Sessions[f]; !s.UTC() {
		add("session time zone %s (spark.sql.session.timeZone)", s.Zone) // session confs (conf.go)
	}
	walkAll(f.Query, func(r ir.Rel) {
		switch n := r.(type) {
		case *ir.Scan:
			schema := u.Schemas[n]
			need := fp.Need[n]
			var cols []string
			for i, fl := range schema {
				if i < len(need) && need[i] && !fl.Open {
					cols = append(cols, fl.Name)
				}
			}
			s := fmt.Sprintf("scan %s at %s: decodes %d of %d columns (%s)", n.Name, posText(n.Pos), len(cols), len(schema.Visible()), strings.Join(cols, ", "))
			if len(cols) == 0 {
				s = fmt.Sprintf("scan %s at %s: decodes no column (counts rows)", n.Name, posText(n.Pos))
			}
			if bs := fp.Bounds[n]; len(bs) > 0 {
				parts := make([]string, len(bs))
				for i, bd := range bs {
					parts[i] = strings.Replace(bd.String(), fmt.Sprintf("#%d", bd.Col), schema[bd.Col].Name, 1)
				}
				s += "; prunes row groups by " + strings.Join(parts, " and ")
			}
			add("%s", s)
		case *ir.Join:
			jp := fp.Joins[n]
			if jp == nil {
				return
			}
			var keys []string
			for _, k := range jp.Keys {
				op := "="
				if k.NullSafe {
					op = "<=>"
				}
				switch {
				case k.L != nil:
					keys = append(keys, fmt.Sprintf("%s %s %s", exprString(k.L), op, exprString(k.R)))
				default:
					keys = append(keys, fmt.Sprintf("%s (using)", u.Schemas[n.Left][k.LCol].Name))
				}
			}
			s := fmt.Sprintf("%s join at %s: ", n.Kind, posText(n.Pos))
			if len(keys) == 0 {
				s += "nested loop"
			} else {
				s += "hash on " + strings.Join(keys, ", ")
			}
			if len(jp.Residual) > 0 {
				parts := make([]string, len(jp.Residual))
				for i, e := range jp.Residual {
					parts[i] = exprString(e)
				}
				s += "; residual " + strings.Join(parts, " and ")
			}
			if tb := jp.Time; tb != nil {
				per := fp.Stream.Per
				s += fmt.Sprintf("; state keeps rows while %s - %s is in [%s, %s]", exprString(tb.R), exprString(tb.L), ir.Duration(tb.Lower*per), ir.Duration(tb.Upper*per))
			}
			add("%s", s)
		}
	})
	ph.Lines = append(ph.Lines, subqueryLines(fp)...) // correlated subqueries
	walkAll(f.Query, func(r ir.Rel) {
		switch n := r.(type) {
		case *ir.Aggregate:
			var how []string
			if fp.Parallel[n] {
				how = append(how, "its input runs on the workers, each with partial groups merged at the end")
			}
			for _, j := range fp.Memo[n] {
				how = append(how, fmt.Sprintf("its group is memoized per build row of the join at %s", posText(j.Pos)))
			}
			if fp.Defer[n] {
				how = append(how, "finds each batch's groups first, then updates their accumulators")
			}
			if n.Sets != nil { // setgroup
				how = append(how, fmt.Sprintf("one pass feeds its %d grouping sets, the grouping id an extra key", len(n.Sets)))
			}
			if len(how) > 0 {
				add("aggregate at %s: %s", posText(n.Pos), strings.Join(how, "; "))
			}
		case *ir.Project:
			// window functions (wnative)
			if wp := fp.Windows[n]; wp != nil {
				line := wp.explain(n)
				if k, ok := fp.GroupLimits[n]; ok { // wgl
					line = groupLimitExplain(line, k)
				}
				add("%s", line)
			}
		case *ir.Sort:
			if k, ok := fp.TopN[n]; ok {
				s := fmt.Sprintf("order by at %s: keeps the top %d rows as it collects", posText(n.Pos), k)
				if fp.TopNBar[n] {
					s += ", dropping a row whose first key is worse than the last kept before reading the rest"
				}
				if fp.Parallel[n] {
					s += ", its input on the workers"
				}
				add("%s", s)
			}
		}
	})
	if fp.ParallelOutput {
		add("output: the pipeline into %s runs on the workers", fp.Target.Name)
	}
	if sp := fp.Stream; sp != nil {
		var ins []string
		for _, in := range sp.Inputs {
			ins = append(ins, fmt.Sprintf("%s delay %s", in.Name, ir.Duration(in.Delay*sp.Per)))
		}
		op := "a join of two streams"
		// stream outer joins
		if sp.Join != nil && sp.Join.Kind != ir.JoinInner {
			op = fmt.Sprintf("a %s outer join of two streams (a row nothing matched is emitted NULL-padded when the watermark passes its time bound)", sp.Join.Kind)
		}
		// stream: unwindowed aggregates
		if sp.Aggregate != nil && sp.Window == nil {
			op = "an aggregate without a window (one accumulator per group key, kept while the flow runs)"
		}
		if sp.Window != nil {
			op = fmt.Sprintf("a windowed aggregate (%s window at %s)", sp.Window.Kind, posText(sp.Window.Pos))
		}
		bounded := "unbounded"
		if sp.Bounded {
			bounded = "bounded (every run ends its input and closes every window)"
		}
		// dedup within the watermark: the end of the input drops no key
		if dp := sp.Dedup; dp != nil {
			op = fmt.Sprintf("a distinct within watermark (per key, its first event time plus %s; late at or below the watermark, less the allowed lateness)", ir.Duration(dp.Delay*sp.Per))
			if sp.Bounded {
				bounded = "bounded"
			}
		}
		add("stream state: %s; event time in %s, allowed lateness %s; watermarked inputs %s; input %s", op, sp.Unit, ir.Duration(sp.Lateness*sp.Per), strings.Join(ins, ", "), bounded)
	}
	if cp := fp.CDC; cp != nil {
		ts := u.Datasets[fp.Target].Visible()
		names := func(list []int) string {
			var out []string
			for _, i := range list {
				out = append(out, ts[i].Name)
			}
			return strings.Join(out, ", ")
		}
		s := fmt.Sprintf("apply changes: keys (%s), sequence %s, scd type %d", names(cp.Keys), cp.Seq, cp.SCD)
		if cp.Update {
			s = fmt.Sprintf("upsert by group keys (%s): output mode update, applied as scd type 1", names(cp.Keys))
		}
		if cp.Tracked != nil {
			s += "; history of (" + names(cp.Tracked) + ")"
		}
		add("%s", s)
	}
	for _, sc := range fp.Store {
		switch {
		case sc.Source < 0:
			add("store %s: NULL (no query column)", sc.Name)
		case sc.Cast:
			add("store %s: cast from %s to %s", sc.Name, sc.From, sc.To)
		}
	}
	if why, ok := u.Plan.NotIncremental[fp.Target]; ok {
		if why == "" {
			add("materialize incremental: appends what new input computes")
		} else {
			add("materialize incremental: recomputed in full (%s)", why)
		}
	}
	return ph
}
