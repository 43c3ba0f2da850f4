package ir

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

var warehouseName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// ValidName reports whether name is a valid warehouse name once lower-cased.
func ValidName(name string) bool { return warehouseName.MatchString(lower(name)) }

// IsExternalName reports whether a read names a table outside the pipeline
// (a qualified name such as catalog.db.table).
func IsExternalName(name string) bool { return strings.Contains(name, ".") }

// Inputs returns the names of the datasets a flow reads, in order, without duplicates.
func (f *Flow) Inputs() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range Scans(f.Query) {
		n := lower(s.Name)
		if !seen[n] {
			seen[n] = true
			out = append(out, s.Name)
		}
	}
	return out
}

// ValidateOptions say what Validate takes for granted about the target.
type ValidateOptions struct {
	// CatalogReads makes a read of a name the pipeline does not define an
	// external table, which the target resolves in its catalog (Spark
	// targets), rather than a dangling reference (the native engine reads
	// only what the pipeline defines or binds).
	CatalogReads bool
}

// Validate checks the structure of the pipeline: names, duplicates, dangling
// references, flow targets, dataset consistency and cycles. It does not type
// anything (that is the resolve pass).
func Validate(p *Pipeline) Diagnostics { return ValidateWith(p, ValidateOptions{}) }

// ValidateWith is Validate for a target that opts describes.
func ValidateWith(p *Pipeline, opts ValidateOptions) Diagnostics {
	var diags Diagnostics
	if p.Name != "" && !ValidName(p.Name) {
		diags.Add(p.Pos, CodeBadName, "pipeline name %q is not a valid name: want [a-z0-9][a-z0-9_-]*", p.Name)
	}
	if len(p.Datasets) == 0 {
		// An empty pipeline builds nothing and would run green: a file of
		// comments only, or one whose line ends were misread.
		diags.Add(p.Pos, CodeSyntax, "the pipeline declares no dataset: want a source, materialized view, streaming table, view or sink")
	}
	byName := map[string]*Dataset{}
	for _, d := range p.Datasets {
		n := lower(d.Name)
		if prev, ok := byName[n]; ok {
			diags.Add(d.Pos, CodeDuplicateName, "dataset %q is already declared at %s (Spark: PIPELINE_DUPLICATE_IDENTIFIERS.OUTPUT)", d.Name, prev.Pos)
			continue
		}
		byName[n] = d
		if !ValidName(d.Name) {
			reason := "want [a-z0-9][a-z0-9_-]*"
			if strings.HasPrefix(d.Name, "_") {
				reason = "names starting with _ are reserved for the engine"
			}
			diags.Add(d.Pos, CodeBadName, "dataset name %q is not a valid warehouse name: %s", d.Name, reason)
		}
		validateDataset(d, &diags)
	}
	flowNames := map[string]*Flow{}
	flowsInto := map[string][]*Flow{}
	for _, f := range p.Flows {
		n := lower(f.Name)
		if prev, ok := flowNames[n]; ok {
			diags.Add(f.Pos, CodeDuplicateName, "flow %q is already declared at %s (Spark: PIPELINE_DUPLICATE_IDENTIFIERS.FLOW)", f.Name, prev.Pos)
		} else {
			flowNames[n] = f
		}
		t, ok := byName[lower(f.Target)]
		if !ok {
			diags.Add(f.Pos, CodeDanglingRef, "flow %q targets %q, which is not declared", f.Name, f.Target)
		} else {
			flowsInto[lower(f.Target)] = append(flowsInto[lower(f.Target)], f)
			validateTarget(f, t, &diags)
		}
		if f.Query == nil {
			diags.Add(f.Pos, CodeBadDataset, "flow %q has no query", f.Name)
		}
		for _, s := range Scans(f.Query) {
			if _, ok := byName[lower(s.Name)]; !ok && !IsExternalName(s.Name) && !opts.CatalogReads {
				diags.Add(s.Pos, CodeDanglingRef, "%q is not a dataset of this pipeline (declare it: natively an external table must be bound to files, while a Spark target reads it from its catalog)", s.Name)
			}
		}
		// dedup within the watermark: keys only with within watermark
		WalkRel(f.Query, func(r Rel) bool {
			if d, ok := r.(*Distinct); ok && len(d.Keys) > 0 && !d.WithinWatermark {
				diags.Add(d.Pos, CodeSyntax, "distinct on (%s) needs within watermark: a distinct on some columns is only Spark's dropDuplicatesWithinWatermark", strings.Join(d.Keys, ", "))
			}
			return true
		})
		if f.LateTable != "" {
			if !ValidName(f.LateTable) {
				diags.Add(f.Pos, CodeBadName, "late table name %q is not a valid warehouse name: want [a-z0-9][a-z0-9_-]*", f.LateTable)
			} else if d, ok := byName[lower(f.LateTable)]; ok {
				diags.Add(f.Pos, CodeDuplicateName, "late table %q of flow %q collides with the dataset declared at %s", f.LateTable, f.Name, d.Pos)
			}
		}
	}
	for _, d := range p.Datasets {
		if byName[lower(d.Name)] != d {
			continue
		}
		fs := flowsInto[lower(d.Name)]
		switch d.Kind {
		case KindMaterializedView, KindTemporaryView, KindView:
			if len(fs) == 0 {
				diags.Add(d.Pos, CodeBadDataset, "%s %q has no query: give it one with '= from ...'", d.Kind, d.Name)
			} else if len(fs) > 1 {
				diags.Add(fs[1].Pos, CodeBadTarget, "%s %q already has flow %q: only streaming tables and sinks take several flows", d.Kind, d.Name, fs[0].Name)
			}
		}
	}
	if cyc := findCycle(p); cyc != nil {
		names := make([]string, len(cyc))
		for i, d := range cyc {
			names[i] = d.Name
		}
		names = append(names, cyc[0].Name)
		diags.Add(cyc[0].Pos, CodeCycle, "cycle: %s", strings.Join(names, " -> "))
	}
	diags.Sort()
	return diags
}

func validateDataset(d *Dataset, diags *Diagnostics) {
	cols := map[string]*Column{}
	for _, c := range d.Columns {
		n := lower(c.Name)
		if prev, ok := cols[n]; ok {
			diags.Add(c.Pos, CodeDuplicateName, "column %q is already declared at %s", c.Name, prev.Pos)
		}
		cols[n] = c
	}
	exps := map[string]*Expectation{}
	for _, e := range d.Expectations {
		if prev, ok := exps[lower(e.Name)]; ok {
			diags.Add(e.Pos, CodeDuplicateName, "expectation %q is already declared at %s", e.Name, prev.Pos)
		}
		exps[lower(e.Name)] = e
	}
	if d.Kind == KindSource {
		switch {
		case d.Source == nil:
			diags.Add(d.Pos, CodeBadDataset, "source %q says nothing of where its rows come from", d.Name)
		case d.Source.Format == FormatKafka && (d.Source.Stdin || len(d.Source.Paths) > 0):
			diags.Add(d.Source.Pos, CodeBadDataset, "source %q reads Kafka topics, named by its options (subscribe, subscribePattern or assign), not files or stdin", d.Name)
		case d.Source.Format == FormatKafka:
			if why := KafkaColumnsDiffer(d.Columns, KafkaIncludeHeaders(d.Source.Options)); why != "" && len(d.Columns) > 0 {
				p := d.Columns[0].Pos
				if !p.IsValid() {
					p = d.Source.Pos
				}
				diags.Add(p, CodeBadDataset, "source %q: %s (drop the column list: the columns come with the format)", d.Name, why)
			}
		case d.Source.Format == FormatIceberg && (d.Source.Stdin || len(d.Source.Paths) != 1):
			diags.Add(d.Source.Pos, CodeBadDataset, "source %q reads one Iceberg table, named by its location (a folder or s3://bucket/prefix), not several paths or stdin", d.Name)
		case d.Source.Stdin && len(d.Source.Paths) > 0:
			diags.Add(d.Source.Pos, CodeBadDataset, "source %q reads both stdin and files", d.Name)
		case d.Source.Stdin && d.Source.Format != FormatArrow:
			diags.Add(d.Source.Pos, CodeBadDataset, "source %q: stdin carries an Arrow IPC stream, not %s", d.Name, d.Source.Format)
		case !d.Source.Stdin && len(d.Source.Paths) == 0:
			diags.Add(d.Source.Pos, CodeBadDataset, "source %q has no paths", d.Name)
		}
		if d.Source != nil {
			for _, path := range d.Source.Paths {
				if strings.IndexByte(path, 0) >= 0 {
					diags.Add(d.Source.Pos, CodeBadDataset, "source %q: path %s contains a NUL byte, which no file path can hold", d.Name, strconv.Quote(path))
				}
			}
		}
		if len(d.Columns) == 0 {
			diags.Add(d.Pos, CodeBadDataset, "source %q declares no columns: a source needs its schema", d.Name)
		}
	} else {
		if d.Source != nil {
			diags.Add(d.Source.Pos, CodeBadDataset, "%s %q cannot have a file source", d.Kind, d.Name)
		}
		if d.Watermark != nil {
			diags.Add(d.Watermark.Pos, CodeBadDataset, "%s %q cannot declare a watermark: declare it on a source or on a stream read", d.Kind, d.Name)
		}
	}
	for _, kv := range d.SinkOptions {
		if strings.EqualFold(kv.Key, "path") && strings.IndexByte(kv.Value, 0) >= 0 {
			diags.Add(kv.Pos, CodeBadDataset, "%s %q: path %s contains a NUL byte, which no file path can hold", d.Kind, d.Name, strconv.Quote(kv.Value))
		}
	}
	validateFormat(d, diags) // tableformat.go
	if len(d.SinkOptions) > 0 && d.Kind != KindSink {
		diags.Add(d.Pos, CodeBadDataset, "%s %q has sink options: only sinks take them", d.Kind, d.Name)
	}
	if d.Materialize != MatDefault && d.Kind != KindMaterializedView && d.Kind != KindStreamingTable {
		diags.Add(d.Pos, CodeBadDataset, "%s %q cannot be materialized %s: only materialized views and streaming tables are materialized", d.Kind, d.Name, d.Materialize)
	}
	for _, pc := range d.PartitionBy {
		if len(d.Columns) > 0 && cols[lower(pc)] == nil {
			diags.Add(d.Pos, CodeUnknownColumn, "partition column %q is not a declared column of %q", pc, d.Name)
		}
	}
	if len(d.ClusterBy) > 0 {
		switch {
		case d.Kind != KindMaterializedView && d.Kind != KindStreamingTable:
			diags.Add(d.Pos, CodeBadDataset, "%s %q cannot be clustered: only materialized views and streaming tables take cluster by", d.Kind, d.Name)
		case len(d.PartitionBy) > 0:
			diags.Add(d.Pos, CodeBadDataset, "%s %q takes partitioned by or cluster by, not both (Spark: SPECIFY_CLUSTER_BY_WITH_PARTITIONED_BY_IS_NOT_ALLOWED)", d.Kind, d.Name)
		}
		for _, cc := range d.ClusterBy {
			if len(d.Columns) > 0 && cols[lower(cc)] == nil {
				diags.Add(d.Pos, CodeUnknownColumn, "clustering column %q is not a declared column of %q", cc, d.Name)
			}
		}
	}
}

func validateTarget(f *Flow, t *Dataset, diags *Diagnostics) {
	switch t.Kind {
	case KindSource:
		diags.Add(f.Pos, CodeBadTarget, "flow %q targets source %q: sources are read, not written", f.Name, t.Name)
		return
	}
	if f.Once && t.Kind != KindStreamingTable {
		diags.Add(f.Pos, CodeBadTarget, "once flow %q targets %s %q: once flows append to streaming tables", f.Name, t.Kind, t.Name)
	}
	if f.CDC != nil && t.Kind != KindStreamingTable {
		diags.Add(f.CDC.Pos, CodeBadTarget, "change flow %q targets %s %q: changes apply to streaming tables", f.Name, t.Kind, t.Name)
	}
	if f.CDC != nil {
		if len(f.CDC.Keys) == 0 {
			diags.Add(f.CDC.Pos, CodeBadDataset, "change flow %q has no keys", f.Name)
		}
		if f.CDC.SequenceBy == nil {
			diags.Add(f.CDC.Pos, CodeBadDataset, "change flow %q has no sequence by", f.Name)
		}
		if f.CDC.SCDType != 1 && f.CDC.SCDType != 2 {
			diags.Add(f.CDC.Pos, CodeBadDataset, "change flow %q: scd type %d, want 1 or 2", f.Name, f.CDC.SCDType)
		}
		if f.CDC.SCDType != 2 && (len(f.CDC.TrackHistory) > 0 || len(f.CDC.TrackHistoryExcept) > 0) {
			diags.Add(f.CDC.Pos, CodeBadDataset, "change flow %q tracks history, which needs scd type 2", f.Name)
		}
		if len(f.CDC.Columns) > 0 && len(f.CDC.ExceptColumns) > 0 {
			diags.Add(f.CDC.Pos, CodeBadDataset, "change flow %q gives both columns and columns except", f.Name)
		}
	}
}

// deps returns, per dataset, the datasets its flows read (pipeline datasets only).
func deps(p *Pipeline) map[*Dataset][]*Dataset {
	byName := make(map[string]*Dataset, len(p.Datasets))
	for _, d := range p.Datasets {
		if _, dup := byName[lower(d.Name)]; !dup {
			byName[lower(d.Name)] = d
		}
	}
	out := map[*Dataset][]*Dataset{}
	for _, f := range p.Flows {
		t := byName[lower(f.Target)]
		if t == nil {
			continue
		}
		for _, in := range f.Inputs() {
			if d := byName[lower(in)]; d != nil {
				out[t] = append(out[t], d)
			}
		}
	}
	return out
}

// findCycle returns the datasets of one dependency cycle in order, or nil.
func findCycle(p *Pipeline) []*Dataset {
	g := deps(p)
	const (
		white = iota
		grey
		black
	)
	color := map[*Dataset]int{}
	var stack []*Dataset
	var found []*Dataset
	var visit func(d *Dataset) bool
	visit = func(d *Dataset) bool {
		color[d] = grey
		stack = append(stack, d)
		for _, in := range g[d] {
			switch color[in] {
			case grey:
				for i, s := range stack {
					if s == in {
						// stack[i:] reads in dependency direction (d reads in);
						// report it in data-flow order: producer first.
						cyc := append([]*Dataset(nil), stack[i:]...)
						for l, r := 0, len(cyc)-1; l < r; l, r = l+1, r-1 {
							cyc[l], cyc[r] = cyc[r], cyc[l]
						}
						found = rotateToFirstDeclared(p, cyc)
						return true
					}
				}
			case white:
				if visit(in) {
					return true
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[d] = black
		return false
	}
	for _, d := range p.Datasets {
		if color[d] == white && visit(d) {
			return found
		}
	}
	return nil
}

// TopoOrder returns the datasets in dependency order (inputs first), keeping
// declaration order among independent datasets. It fails on a cycle.
func TopoOrder(p *Pipeline) ([]*Dataset, error) {
	if cyc := findCycle(p); cyc != nil {
		names := make([]string, len(cyc))
		for i, d := range cyc {
			names[i] = d.Name
		}
		return nil, fmt.Errorf("cycle: %s -> %s", strings.Join(names, " -> "), cyc[0].Name)
	}
	g := deps(p)
	done := map[*Dataset]bool{}
	var out []*Dataset
	var visit func(d *Dataset)
	visit = func(d *Dataset) {
		if done[d] {
			return
		}
		done[d] = true
		for _, in := range g[d] {
			visit(in)
		}
		out = append(out, d)
	}
	for _, d := range p.Datasets {
		visit(d)
	}
	return out, nil
}

// rotateToFirstDeclared rotates a cycle so that it starts at the dataset
// declared first, so that the message does not depend on traversal order.
func rotateToFirstDeclared(p *Pipeline, cyc []*Dataset) []*Dataset {
	idx := map[*Dataset]int{}
	for i, d := range p.Datasets {
		idx[d] = i
	}
	best := 0
	for i, d := range cyc {
		if idx[d] < idx[cyc[best]] {
			best = i
		}
	}
	return append(append([]*Dataset(nil), cyc[best:]...), cyc[:best]...)
}
