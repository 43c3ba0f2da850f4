package passes

import (
	"fmt"
	"strings"

	"github.com/nordisk/thund/internal/suggest"
	"github.com/nordisk/thund/ir"
)

// resolve names and types every column and expression. Datasets are
// processed in dependency order (ir.TopoOrder), so that a scan of a dataset
// reads its resolved schema: a source's declared columns; otherwise its
// flows' output, checked against declared columns if any.
func resolve(u *Unit) {
	order, err := ir.TopoOrder(u.Pipeline)
	if err != nil {
		u.Diags.Add(u.Pipeline.Pos, ir.CodeCycle, "%v", err)
		return
	}
	checkConf(u) // session confs (conf.go)
	r := &resolver{u: u, p: u.Pipeline, empty: map[*ir.Dataset]bool{}, lenient: map[*ir.Dataset]bool{}}
	for _, d := range order {
		r.dataset(d)
	}
}

// resolver holds the state of one resolve pass.
//
// One mistake is reported once. Whatever failed is poisoned rather than
// dropped: an expression that failed has the invalid type, a relation that
// failed (q.* naming no alias) a poisoned open field, and a dataset whose
// flow failed a poisoned schema. Checks skip invalid operands, and a
// reference through a poisoned field resolves silently, so the errors that
// would only follow from the first are never reported.
type resolver struct {
	u       *Unit
	p       *ir.Pipeline
	empty   map[*ir.Dataset]bool // no declared columns and no flow: nothing to read (true once reported)
	lenient map[*ir.Dataset]bool // its schema comes (in part) from an external table's unknown columns
	site    string               // what is being resolved, for a capability refusal: flow "f"
}

func (r *resolver) errorf(pos ir.Pos, code ir.Code, format string, args ...any) {
	r.u.Diags.Add(pos, code, format, args...)
}

func (r *resolver) nerrs() int { return len(r.u.Diags) }

// declared returns a dataset's declared columns as a schema.
func declared(d *ir.Dataset) Schema {
	s := make(Schema, len(d.Columns))
	for i, c := range d.Columns {
		s[i] = Field{Name: c.Name, Type: c.Type, Nullable: !c.NotNull}
	}
	return s
}

// dataset resolves one dataset: its flows, its schema, watermark,
// expectations and partition columns.
func (r *resolver) dataset(d *ir.Dataset) {
	var s Schema
	if d.Kind == ir.KindSource {
		s = declared(d)
		if d.Watermark != nil {
			r.watermark(d.Watermark, s, d.Name)
		}
	} else {
		flows := r.u.flowsInto(d)
		outs := make([]Schema, len(flows))
		ok := make([]bool, len(flows))
		for i, f := range flows {
			outs[i], ok[i] = r.flow(f, d)
		}
		s = r.datasetSchema(d, flows, outs, ok)
		if len(d.Columns) == 0 && (d.Kind == ir.KindMaterializedView || d.Kind == ir.KindStreamingTable) {
			s = storedNested(s) // nested.go
		}
		for i, f := range flows {
			if !ok[i] && (len(d.Columns) == 0 || f.CDC != nil) {
				s = poisoned(s, outs[i])
				break
			}
		}
	}
	r.u.Datasets[d] = s
	for _, pc := range d.PartitionBy {
		if len(d.Columns) == 0 && !s.IsOpen() && s.Lookup(pc) < 0 {
			r.unknownName(d.Pos, "partition column", pc, d.Name, s.Names())
		}
	}
	for _, cc := range d.ClusterBy {
		if len(d.Columns) == 0 && !s.IsOpen() && s.Lookup(cc) < 0 {
			r.unknownName(d.Pos, "clustering column", cc, d.Name, s.Names())
		}
	}
	if reported, ok := r.empty[d]; ok && !reported && len(d.Expectations) > 0 {
		e := d.Expectations[0]
		r.errorf(e.Pos, ir.CodeSchemaMismatch, "%s %q has no columns for expectation %q to check: it declares none and no flow writes it", d.Kind, d.Name, e.Name)
		r.empty[d] = true
		s = poisoned(nil, nil)
	}
	for _, e := range d.Expectations {
		r.site = fmt.Sprintf("expectation %q of %s %q", e.Name, d.Kind, d.Name)
		sc := &scope{parts: []scopePart{{schema: s.qualified(d.Name)}}}
		t, _ := r.expr(e.Cond, sc, ectx{clause: "an expectation"})
		if !isUnknown(t) && t.Kind != ir.TBool {
			r.errorf(e.Cond.Position(), ir.CodeTypeMismatch, "expectation %q needs a bool condition, got %s", e.Name, t)
		}
	}
}

// poisoned is the schema of a dataset that a failed flow writes: the
// columns known (those of a flow that resolved, else those the failed one
// names, each once), then a poisoned open field through which any other name
// resolves silently. Readers of the dataset report only their own mistakes.
func poisoned(s, failed Schema) Schema {
	if isPoisoned(s) {
		return s
	}
	known := s
	if len(known) == 0 {
		known = failed
	}
	var out Schema
	for _, f := range known.Visible() {
		if f.Open || out.Lookup(f.Name) >= 0 {
			continue
		}
		if isUnknown(f.Type) {
			f.Type = invalid
		}
		f.Qualifier = ""
		out = append(out, f)
	}
	return append(out, Field{Name: "*", Nullable: true, Open: true, Poisoned: true})
}

// unknownName reports a name that is not a column of a dataset or flow output.
func (r *resolver) unknownName(pos ir.Pos, what, name, of string, have []string) {
	if s, ok := suggest.Closest(name, have); ok {
		r.errorf(pos, ir.CodeUnknownColumn, "%s %q is not a column of %q (did you mean %q?)", what, name, of, s)
		return
	}
	r.errorf(pos, ir.CodeUnknownColumn, "%s %q is not a column of %q (it has %s)", what, name, of, quoteList(have, 12))
}

// watermark checks a watermark declaration against the schema it reads.
func (r *resolver) watermark(w *ir.Watermark, s Schema, of string) {
	if w.Delay < 0 || w.AllowedLateness < 0 || w.IdleTimeout < 0 {
		r.errorf(w.Pos, ir.CodeBadDuration, "watermark of %q: delay, allowed lateness and idle timeout cannot be negative", of)
	}
	if s.IsOpen() {
		return
	}
	i := s.Lookup(w.Column)
	if i < 0 {
		r.unknownName(w.Pos, "watermark column", w.Column, of, s.Names())
		return
	}
	if t := s[i].Type; t.Kind != ir.TTimestamp {
		r.errorf(w.Pos, ir.CodeTypeMismatch, "watermark column %q of %q is %s: event time must be a timestamp (cast it in a flow, or declare it as timestamp(ms))", w.Column, of, t)
	}
}

// flow resolves one flow's query; it reports whether the output is usable.
func (r *resolver) flow(f *ir.Flow, target *ir.Dataset) (Schema, bool) {
	before := r.nerrs()
	r.site = fmt.Sprintf("flow %q", f.Name)
	if f.CDC != nil {
		r.site = fmt.Sprintf("change flow %q", f.Name)
	}
	fi := &FlowInfo{Flow: f, Target: target}
	r.u.Flows[f] = fi
	if f.Query == nil {
		return nil, false
	}
	q := r.rel(f.Query, nil)
	out := q.unqualified()
	fi.Output = out
	if f.CDC != nil {
		r.cdc(f, q)
	}
	if r.nerrs() > before {
		return out, false
	}
	seen := map[string]bool{}
	external := false
	for _, s := range ir.Scans(f.Query) {
		if d := r.u.lookup(s.Name); d == nil || r.lenient[d] {
			external = true
		}
	}
	if external && len(target.Columns) == 0 {
		r.lenient[target] = true
	}
	for i, fl := range out {
		if fl.Open {
			continue
		}
		n := strings.ToLower(fl.Name)
		if seen[n] {
			r.errorf(r.outputPos(f, i), ir.CodeSchemaMismatch, "flow %q writes two columns named %q: alias one of them", f.Name, fl.Name)
		}
		seen[n] = true
		if isUnknown(fl.Type) && !isInvalid(fl.Type) && !external {
			r.errorf(r.outputPos(f, i), ir.CodeTypeMismatch, "column %q of flow %q has no type (it is always NULL): cast it, e.g. cast(null as string)", fl.Name, f.Name)
		}
	}
	return out, r.nerrs() == before
}

// outputPos is the position of output column i of a flow: its select or
// aggregate item when the query ends in one, else the flow's.
func (r *resolver) outputPos(f *ir.Flow, i int) ir.Pos {
	switch q := f.Query.(type) {
	case *ir.Project:
		if cols := r.u.Projections[q]; i < len(cols) {
			if it := q.Items[cols[i].Item]; it.Pos.IsValid() {
				return it.Pos
			}
		}
	case *ir.Aggregate:
		items := append(append([]*ir.NamedExpr{}, q.Keys...), q.Aggs...)
		if i < len(items) && items[i].Pos.IsValid() {
			return items[i].Pos
		}
	}
	if f.Pos.IsValid() {
		return f.Pos
	}
	return f.Query.Position()
}

// cdc resolves a change flow's clauses against the flow's output and
// returns the stored schema: the selected columns, plus __START_AT and
// __END_AT for SCD type 2.
func (r *resolver) cdc(f *ir.Flow, q Schema) {
	c := f.CDC
	out := q.unqualified()
	if out.IsOpen() {
		return
	}
	check := func(what string, names []string) {
		for _, n := range names {
			if out.Lookup(n) < 0 {
				r.unknownName(c.Pos, what, n, "the output of flow "+f.Name, out.Names())
			}
		}
	}
	check("key", c.Keys)
	check("column", c.Columns)
	check("except column", c.ExceptColumns)
	check("track history column", c.TrackHistory)
	check("track history except column", c.TrackHistoryExcept)
	if len(c.Columns) > 0 {
		for _, k := range c.Keys {
			if !containsFold(c.Columns, k) {
				r.errorf(c.Pos, ir.CodeSchemaMismatch, "change flow %q stores columns (%s), which leave out key %q", f.Name, strings.Join(c.Columns, ", "), k)
			}
		}
	}
	for _, k := range c.Keys {
		if containsFold(c.ExceptColumns, k) {
			r.errorf(c.Pos, ir.CodeSchemaMismatch, "change flow %q excepts key %q from its stored columns", f.Name, k)
		}
	}
	sc := &scope{parts: []scopePart{{rel: f.Query, schema: q}}}
	if c.SequenceBy != nil {
		t, _ := r.expr(c.SequenceBy, sc, ectx{clause: "sequence by"})
		if !isUnknown(t) && !t.IsNumeric() && !isTime(t) && t.Kind != ir.TString {
			r.errorf(c.SequenceBy.Position(), ir.CodeTypeMismatch, "sequence by needs a numeric, date, timestamp or string value to order changes by, got %s", t)
		}
	}
	if c.DeleteWhen != nil {
		t, _ := r.expr(c.DeleteWhen, sc, ectx{clause: "delete when"})
		if !isUnknown(t) && t.Kind != ir.TBool {
			r.errorf(c.DeleteWhen.Position(), ir.CodeTypeMismatch, "delete when needs a bool condition, got %s", t)
		}
	}
}

// cdcStored is the schema a change flow stores in its target.
func (r *resolver) cdcStored(f *ir.Flow, out Schema) Schema {
	c := f.CDC
	if out.IsOpen() {
		return out
	}
	var s Schema
	for _, fl := range out {
		switch {
		case len(c.Columns) > 0 && !containsFold(c.Columns, fl.Name):
		case containsFold(c.ExceptColumns, fl.Name):
		default:
			if containsFold(c.Keys, fl.Name) {
				fl.Nullable = false
			}
			s = append(s, fl)
		}
	}
	if c.SCDType == 2 {
		t := ir.Type{}
		if c.SequenceBy != nil {
			t = r.u.Types[c.SequenceBy]
		}
		s = append(s, Field{Name: "__START_AT", Type: t, Nullable: true}, Field{Name: "__END_AT", Type: t, Nullable: true})
	}
	return s
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// datasetSchema is a non-source dataset's schema: its declared columns, which
// every flow must fit; otherwise the first flow's output, which every other
// flow must agree with by position (or by name, per Flow.ByName), columns
// widening to their common type.
func (r *resolver) datasetSchema(d *ir.Dataset, flows []*ir.Flow, outs []Schema, ok []bool) Schema {
	stored := make([]Schema, len(flows))
	for i, f := range flows {
		stored[i] = outs[i]
		if f.CDC != nil && ok[i] {
			stored[i] = r.cdcStored(f, outs[i])
		}
	}
	if len(d.Columns) > 0 {
		decl := declared(d)
		for i, f := range flows {
			if !ok[i] {
				continue
			}
			st := stored[i]
			if f.CDC != nil && f.CDC.SCDType == 2 && decl.Lookup("__START_AT") < 0 && !st.IsOpen() {
				st = st[:len(st)-2] // the history columns need not be declared
			}
			r.fits(f, d, st, decl)
		}
		if len(flows) == 1 && flows[0].CDC != nil && flows[0].CDC.SCDType == 2 && decl.Lookup("__START_AT") < 0 && ok[0] {
			n := len(stored[0])
			decl = append(decl, stored[0][n-2:]...)
		}
		return decl
	}
	anchor := -1
	for i := range flows {
		if ok[i] {
			anchor = i
			break
		}
	}
	if anchor < 0 {
		if len(flows) == 0 {
			r.empty[d] = false
		}
		return nil
	}
	s := append(Schema{}, stored[anchor]...)
	if s.IsOpen() {
		return s
	}
	for i := anchor + 1; i < len(flows); i++ {
		if !ok[i] || stored[i].IsOpen() {
			continue
		}
		r.agree(flows[anchor], flows[i], d, s, stored[i])
	}
	return s
}

// fits checks one flow's output against a dataset's declared columns.
func (r *resolver) fits(f *ir.Flow, d *ir.Dataset, out, decl Schema) {
	if out.IsOpen() {
		return
	}
	if f.ByName {
		for i, fl := range out {
			j := decl.Lookup(fl.Name)
			if j < 0 {
				r.unknownName(r.outputPos(f, i), "flow "+f.Name+" writes column", fl.Name, d.Name, decl.Names())
				continue
			}
			r.storable(f, d, i, fl, decl[j])
		}
		for _, dc := range decl {
			if !dc.Nullable && out.Lookup(dc.Name) < 0 {
				r.errorf(f.Pos, ir.CodeSchemaMismatch, "flow %q does not write column %q, which %s %q declares not null", f.Name, dc.Name, d.Kind, d.Name)
			}
		}
		return
	}
	if len(out) != len(decl) {
		r.errorf(f.Pos, ir.CodeSchemaMismatch, "flow %q writes %d columns (%s), but %s %q declares %d (%s)", f.Name, len(out), strings.Join(out.Names(), ", "), d.Kind, d.Name, len(decl), strings.Join(decl.Names(), ", "))
		return
	}
	for i := range out {
		r.storable(f, d, i, out[i], decl[i])
		if !strings.EqualFold(out[i].Name, decl[i].Name) && !out[i].Open {
			if j := decl.Lookup(out[i].Name); j >= 0 {
				r.u.Diags.Warn(r.outputPos(f, i), ir.CodeSchemaMismatch, "flow %q writes %s into column %q of %q by position, but %q declares %s as column %d: reorder the select, or give the flow 'by name'", f.Name, out[i].Name, decl[i].Name, d.Name, d.Name, decl[j].Name, j+1)
			}
		}
	}
}

func (r *resolver) storable(f *ir.Flow, d *ir.Dataset, i int, from, to Field) {
	if !canStore(from.Type, to.Type) {
		r.errorf(r.outputPos(f, i), ir.CodeSchemaMismatch, "flow %q writes %s %s into column %q of %q, declared %s: cast it, cast(%s as %s)", f.Name, from.Name, from.Type, to.Name, d.Name, to.Type, from.Name, to.Type)
	}
}

// agree checks that another flow into a dataset without declared columns
// writes the same columns as the first, and widens s to the common types.
func (r *resolver) agree(first, f *ir.Flow, d *ir.Dataset, s, out Schema) {
	if f.ByName {
		for i, fl := range out {
			if s.Lookup(fl.Name) < 0 {
				r.errorf(r.outputPos(f, i), ir.CodeSchemaMismatch, "flow %q writes column %q, which flow %q into %q does not (it writes %s)", f.Name, fl.Name, first.Name, d.Name, quoteList(s.Names(), 12))
			}
		}
		for _, sf := range s {
			if out.Lookup(sf.Name) < 0 {
				r.errorf(f.Pos, ir.CodeSchemaMismatch, "flow %q does not write column %q, which flow %q into %q writes", f.Name, sf.Name, first.Name, d.Name)
			}
		}
	} else if len(out) != len(s) {
		r.errorf(f.Pos, ir.CodeSchemaMismatch, "flow %q writes %d columns into %q, but flow %q writes %d: flows into one table agree by position (or give the flow 'by name')", f.Name, len(out), d.Name, first.Name, len(s))
		return
	}
	for i := range s {
		j := i
		if f.ByName {
			if j = out.Lookup(s[i].Name); j < 0 {
				continue
			}
		}
		t, ok := commonType(s[i].Type, out[j].Type)
		if !ok {
			r.errorf(r.outputPos(f, j), ir.CodeSchemaMismatch, "flow %q writes %s %s into column %q of %q, which flow %q writes as %s", f.Name, out[j].Name, out[j].Type, s[i].Name, d.Name, first.Name, s[i].Type)
			continue
		}
		s[i].Type = t
		s[i].Nullable = s[i].Nullable || out[j].Nullable
	}
}

// scope is what column references in one operator's expressions can see:
// its input(s), then the enclosing queries' (for correlated subqueries).
type scope struct {
	parts []scopePart
	outer *scope
}

type scopePart struct {
	rel    ir.Rel // the input whose output the part is (nil for an expectation's dataset)
	schema Schema
}

func single(rel ir.Rel, s Schema, outer *scope) *scope {
	return &scope{parts: []scopePart{{rel: rel, schema: s}}, outer: outer}
}

// qualMatch reports whether a reference's qualifier q names a field
// qualified fq: equal, or a suffix on a dot boundary (t for cat.db.t).
func qualMatch(q, fq string) bool {
	if strings.EqualFold(q, fq) {
		return true
	}
	return len(fq) > len(q) && fq[len(fq)-len(q)-1] == '.' && strings.EqualFold(fq[len(fq)-len(q):], q)
}

// rel resolves an operator and its inputs and records its output schema.
func (r *resolver) rel(rel ir.Rel, outer *scope) Schema {
	var s Schema
	switch n := rel.(type) {
	case *ir.Scan:
		s = r.scan(n)
	case *ir.Range:
		s = Schema{{Name: "id", Type: ir.Int64}}
	case *ir.SubqueryRel:
		in := r.rel(n.Input, outer)
		if n.Alias != "" {
			s = in.qualified(n.Alias)
		} else {
			s = in.Visible()
		}
	case *ir.Filter:
		in := r.rel(n.Input, outer)
		clause := "where"
		if _, ok := n.Input.(*ir.Aggregate); ok {
			clause = "a where after an aggregate"
		}
		t, _ := r.expr(n.Cond, single(n.Input, in, outer), ectx{clause: clause})
		if !isUnknown(t) && t.Kind != ir.TBool {
			r.errorf(n.Cond.Position(), ir.CodeTypeMismatch, "where needs a bool condition, got %s", t)
		}
		s = in
	case *ir.Project:
		s = r.project(n, outer)
	case *ir.Aggregate:
		s = r.aggregate(n, outer)
	case *ir.Join:
		s = r.join(n, outer)
	case *ir.Window:
		s = r.window(n, outer)
	case *ir.Union:
		s = r.union(n, outer)
		if !n.All {
			r.noMapColumns(n.Pos, s, nil, "union") // resolve_nested.go
		}
	case *ir.Generate: // generators, LATERAL VIEW (generate.go)
		s = r.generate(n, outer)
	case *ir.SetOp: // EXCEPT, INTERSECT
		s = r.setOp(n, outer)
		r.noMapColumns(n.Pos, s, nil, "except or intersect")
	case *ir.Distinct:
		s = r.rel(n.Input, outer).Visible()
		r.noMapColumns(n.Pos, s, n.Keys, "distinct")
		// dedup within the watermark: the keys are columns of the input
		for _, k := range n.Keys {
			if !s.IsOpen() && s.Lookup(k) < 0 {
				r.errorf(n.Pos, ir.CodeUnknownColumn, "distinct on (%s): its input has no column %q (have %s)", strings.Join(n.Keys, ", "), k, strings.Join(s.Names(), ", "))
			}
		}
	case *ir.Sort:
		in := r.rel(n.Input, outer)
		sc := single(n.Input, in, outer)
		for _, k := range n.Keys {
			if t, _ := r.expr(k.Expr, sc, ectx{clause: "order by"}); hasMap(t) { // resolve_nested.go
				r.errorf(k.Expr.Position(), ir.CodeTypeMismatch, "cannot order by %s, of type %s: a map has no order (Spark: INVALID_ORDERING_TYPE)", exprString(k.Expr), t)
			}
		}
		s = in
	case *ir.Limit:
		s = r.rel(n.Input, outer)
		if n.N < 0 || n.Offset < 0 {
			r.errorf(n.Pos, ir.CodeBadLiteral, "limit %d offset %d: both must be >= 0", n.N, n.Offset)
		}
	default:
		panic(fmt.Sprintf("resolve: unknown operator %T", rel))
	}
	r.u.Schemas[rel] = s
	return s
}

// scan reads a dataset's resolved schema (or, for an external table, an
// open schema that resolves any column leniently).
func (r *resolver) scan(n *ir.Scan) Schema {
	q := n.Alias
	if q == "" {
		q = n.Name
	}
	openSchema := func(known Schema) Schema {
		s := known.qualified(q)
		return append(s, Field{Qualifier: q, Name: "*", Nullable: true, Open: true})
	}
	poison := func() Schema {
		return Schema{{Qualifier: q, Name: "*", Nullable: true, Open: true, Poisoned: true}}
	}
	if ir.IsExternalName(n.Name) {
		return openSchema(nil)
	}
	d := r.u.lookup(n.Name)
	if d == nil {
		return openSchema(nil) // validate reported it
	}
	if d.Kind == ir.KindSink {
		r.errorf(n.Pos, ir.CodeBadTarget, "sink %q cannot be read: a sink is an external output; read the dataset that feeds it", d.Name)
		return poison()
	}
	if done, ok := r.empty[d]; ok {
		if !done {
			r.errorf(n.Pos, ir.CodeSchemaMismatch, "%s %q has no columns to read: it declares none and no flow writes it", d.Kind, d.Name)
			r.empty[d] = true
		}
		return poison()
	}
	s := r.u.Datasets[d]
	if n.Watermark != nil {
		r.watermark(n.Watermark, s, d.Name)
	}
	return s.qualified(q)
}

// project resolves a select: items and * expansions.
func (r *resolver) project(n *ir.Project, outer *scope) Schema {
	in := r.rel(n.Input, outer)
	sc := single(n.Input, in, outer)
	var s Schema
	var cols []ProjCol
	for i, it := range n.Items {
		if st, ok := it.Expr.(*ir.Star); ok {
			idx, ok := r.expandStar(st, in)
			if !ok {
				// q.* named nothing: the columns it meant are unknown, and
				// no reader should report them missing
				s = append(s, Field{Qualifier: st.Qualifier, Name: "*", Nullable: true, Open: true, Poisoned: true})
				cols = append(cols, ProjCol{Item: i, InputIndex: -1})
				continue
			}
			for _, j := range idx {
				s = append(s, in[j])
				cols = append(cols, ProjCol{Item: i, InputIndex: j})
			}
			continue
		}
		t, nl := r.expr(it.Expr, sc, ectx{clause: "select"})
		f := Field{Name: outputName(it), Type: t, Nullable: nl}
		if c, ok := it.Expr.(*ir.ColumnRef); ok && it.Alias == "" {
			if b, ok := r.u.Refs[c]; ok && b.Depth == 0 {
				f.Qualifier = r.u.Schemas[b.Rel][b.Index].Qualifier
			}
		}
		s = append(s, f)
		cols = append(cols, ProjCol{Item: i, InputIndex: -1})
	}
	r.u.Projections[n] = cols
	return s
}

// expandStar returns the input fields * (or q.*) stands for, minus except;
// false when q names no input.
func (r *resolver) expandStar(st *ir.Star, in Schema) ([]int, bool) {
	var idx []int
	open := false
	for i, f := range in.Visible() {
		if st.Qualifier != "" && !qualMatch(st.Qualifier, f.Qualifier) {
			continue
		}
		open = open || f.Open
		idx = append(idx, i)
	}
	if st.Qualifier != "" && len(idx) == 0 {
		r.errorf(st.Pos, ir.CodeUnknownColumn, "unknown table or alias %q in %s.* %s", st.Qualifier, st.Qualifier, inScope(qualifiers(in)))
		return nil, false
	}
	if len(st.Except) == 0 {
		return idx, true
	}
	var names []string
	for _, i := range idx {
		if !in[i].Open {
			names = append(names, in[i].Name)
		}
	}
	for _, x := range st.Except {
		if !containsFold(names, x) && !open {
			if s, ok := suggest.Closest(x, names); ok {
				r.errorf(st.Pos, ir.CodeUnknownColumn, "* except names unknown column %q (did you mean %q?)", x, s)
			} else {
				r.errorf(st.Pos, ir.CodeUnknownColumn, "* except names unknown column %q (the input has %s)", x, quoteList(names, 12))
			}
		}
	}
	out := idx[:0:0]
	for _, i := range idx {
		if in[i].Open || !containsFold(st.Except, in[i].Name) {
			out = append(out, i)
		}
	}
	return out, true
}

// inScope says which tables or aliases a qualified name could have used.
func inScope(quals []string) string {
	if len(quals) == 0 {
		return "(no table or alias is in scope here: qualify by the name of a from or join input)"
	}
	return "(the input has " + quoteList(quals, 12) + ")"
}

// qualifiers lists the distinct qualifiers of a schema's fields.
func qualifiers(s Schema) []string {
	var out []string
	for _, f := range s {
		if f.Qualifier != "" && !containsFold(out, f.Qualifier) {
			out = append(out, f.Qualifier)
		}
	}
	return out
}

// aggregate resolves group by keys and aggregate items; its output is the
// keys followed by the aggregates.
func (r *resolver) aggregate(n *ir.Aggregate, outer *scope) Schema {
	in := r.rel(n.Input, outer)
	sc := single(n.Input, in, outer)
	var s Schema
	for i, k := range n.Keys {
		t, nl := r.expr(k.Expr, sc, ectx{clause: "group by"})
		f := Field{Name: outputName(k), Type: t, Nullable: nl || !inEverySet(n, i)}
		if c, ok := k.Expr.(*ir.ColumnRef); ok && k.Alias == "" {
			if b, ok := r.u.Refs[c]; ok && b.Depth == 0 {
				f.Qualifier = r.u.Schemas[b.Rel][b.Index].Qualifier
			}
		}
		s = append(s, f)
	}
	var calls []*ir.Call
	for _, a := range n.Aggs {
		t, nl := r.expr(a.Expr, sc, ectx{clause: "aggregate", agg: true, global: len(n.Keys) == 0, calls: &calls})
		s = append(s, Field{Name: outputName(a), Type: t, Nullable: nl || n.Sets != nil && readsKey(a.Expr)})
		r.checkGrouped(a.Expr, n.Keys)
	}
	r.groupingSets(n) // setgroup: groupingsets.go
	if len(n.Aggs) == 0 && len(n.Keys) == 0 {
		r.errorf(n.Pos, ir.CodeBadAggregate, "an aggregate needs group by keys or aggregate items")
	}
	r.u.AggCalls[n] = calls
	return s
}

// checkGrouped reports columns of an aggregate item that are neither inside
// an aggregate call nor part of a group by key.
func (r *resolver) checkGrouped(e ir.Expr, keys []*ir.NamedExpr) {
	for _, k := range keys {
		if r.sameExpr(e, k.Expr) {
			return
		}
	}
	switch e := e.(type) {
	case *ir.Call:
		if f := lookupFunc(e.Name); f != nil && (f.agg || isGroupingCall(f.name)) { // grouping's argument: groupingSets checks it
			return
		}
	case *ir.ColumnRef:
		if b, ok := r.u.Refs[e]; ok && b.Depth == 0 {
			r.errorf(e.Pos, ir.CodeBadAggregate, "column %q is neither grouped nor aggregated: add it to group by, or aggregate it, e.g. any_value(%s)", exprString(e), exprString(e))
		}
		return
	}
	for _, c := range ir.ExprChildren(e) {
		r.checkGrouped(c, keys)
	}
}

// join resolves a join: ON conditions see both inputs; USING merges the
// key columns; semi and anti joins keep the left input only.
func (r *resolver) join(n *ir.Join, outer *scope) Schema {
	ls := r.rel(n.Left, outer)
	rs := r.rel(n.Right, outer)
	info := &JoinInfo{}
	r.u.Joins[n] = info
	leftNull := n.Kind == ir.JoinRight || n.Kind == ir.JoinFull
	rightNull := n.Kind == ir.JoinLeft || n.Kind == ir.JoinFull
	keepRight := n.Kind != ir.JoinSemi && n.Kind != ir.JoinAnti
	if n.On != nil {
		sc := &scope{parts: []scopePart{{rel: n.Left, schema: ls}, {rel: n.Right, schema: rs}}, outer: outer}
		t, _ := r.expr(n.On, sc, ectx{clause: "a join condition"})
		if !isUnknown(t) && t.Kind != ir.TBool {
			r.errorf(n.On.Position(), ir.CodeTypeMismatch, "join condition needs a bool, got %s", t)
		}
	}
	var s Schema
	add := func(f Field, nullable bool, col JoinCol) {
		f.Nullable = f.Nullable || nullable
		s = append(s, f)
		info.Output = append(info.Output, col)
	}
	if len(n.Using) == 0 {
		for i, f := range ls.Visible() {
			add(f, leftNull, JoinCol{Left: i, Right: -1})
		}
		if keepRight {
			for i, f := range rs.Visible() {
				add(f, rightNull, JoinCol{Left: -1, Right: i})
			}
		}
		for i := len(ls.Visible()); i < len(ls); i++ {
			add(ls[i], leftNull, JoinCol{Left: i, Right: -1})
		}
		if keepRight {
			for i := len(rs.Visible()); i < len(rs); i++ {
				add(rs[i], rightNull, JoinCol{Left: -1, Right: i})
			}
		}
		return s
	}
	// USING: merged keys, then the other columns of each side, then each
	// side's own key columns, hidden (reachable as l.k and r.k).
	lk, rk := r.usingSide(n, ls, "left"), r.usingSide(n, rs, "right")
	info.LeftKeys, info.RightKeys = lk, rk
	for i, name := range n.Using {
		var lf, rf Field
		if lk[i] >= 0 {
			lf = ls[lk[i]]
		}
		if rk[i] >= 0 {
			rf = rs[rk[i]]
		}
		t, ok := commonType(lf.Type, rf.Type)
		if !ok || (lk[i] >= 0 && rk[i] >= 0 && !comparable(lf.Type, rf.Type)) {
			r.errorf(n.Pos, ir.CodeTypeMismatch, "using column %q is %s on the left and %s on the right: cast one side in a select", name, lf.Type, rf.Type)
		}
		f := Field{Name: name, Type: t}
		if lk[i] >= 0 {
			f.Name = lf.Name
		}
		col := JoinCol{Left: lk[i], Right: -1}
		switch n.Kind {
		case ir.JoinLeft, ir.JoinSemi, ir.JoinAnti:
			f.Nullable = lf.Nullable
		case ir.JoinRight:
			f.Nullable, col = rf.Nullable, JoinCol{Left: -1, Right: rk[i]}
		case ir.JoinFull:
			f.Nullable, col = lf.Nullable || rf.Nullable, JoinCol{Left: lk[i], Right: rk[i]}
		}
		if !keepRight {
			f.Qualifier = lf.Qualifier
		}
		s = append(s, f)
		info.Output = append(info.Output, col)
	}
	isKey := func(keys []int, i int) bool {
		for _, k := range keys {
			if k == i {
				return true
			}
		}
		return false
	}
	for i, f := range ls.Visible() {
		if !isKey(lk, i) {
			add(f, leftNull, JoinCol{Left: i, Right: -1})
		}
	}
	if !keepRight {
		return s
	}
	for i, f := range rs.Visible() {
		if !isKey(rk, i) {
			add(f, rightNull, JoinCol{Left: -1, Right: i})
		}
	}
	for _, i := range lk {
		if i >= 0 {
			f := ls[i]
			f.Hidden = true
			add(f, leftNull, JoinCol{Left: i, Right: -1})
		}
	}
	for _, i := range rk {
		if i >= 0 {
			f := rs[i]
			f.Hidden = true
			add(f, rightNull, JoinCol{Left: -1, Right: i})
		}
	}
	return s
}

// usingSide finds each USING column in one input (-1 when missing or open).
func (r *resolver) usingSide(n *ir.Join, s Schema, side string) []int {
	out := make([]int, len(n.Using))
	for i, name := range n.Using {
		out[i] = -1
		var hits []int
		for j, f := range s.Visible() {
			if !f.Open && strings.EqualFold(f.Name, name) {
				hits = append(hits, j)
			}
		}
		switch {
		case len(hits) == 1:
			out[i] = hits[0]
		case len(hits) > 1:
			r.errorf(n.Pos, ir.CodeAmbiguous, "using column %q is ambiguous in the %s input: it has %d columns of that name", name, side, len(hits))
			out[i] = hits[0]
		case !s.IsOpen():
			r.unknownName(n.Pos, "using column", name, "the "+side+" input", s.Names())
		}
	}
	return out
}

// window resolves an event-time window: the time column must be a
// timestamp; window_start and window_end are typed like it.
func (r *resolver) window(n *ir.Window, outer *scope) Schema {
	in := r.rel(n.Input, outer)
	t, nl := r.expr(n.Time, single(n.Input, in, outer), ectx{clause: "a window"})
	wt := t
	if t.Kind != ir.TTimestamp {
		if !isUnknown(t) {
			r.errorf(n.Time.Position(), ir.CodeTypeMismatch, "window %s needs a timestamp time column, got %s %s: cast it, cast(%s as timestamp(us))", n.Kind, exprString(n.Time), t, exprString(n.Time))
		}
		wt = ir.Timestamp(ir.Micro, "")
	}
	switch n.Kind {
	case ir.WindowTumble:
		if n.Size <= 0 {
			r.errorf(n.Pos, ir.CodeBadDuration, "window tumble size must be positive, got %s", n.Size)
		}
	case ir.WindowHop:
		if n.Size <= 0 || n.Slide <= 0 {
			r.errorf(n.Pos, ir.CodeBadDuration, "window hop size and slide must be positive, got %s and %s", n.Size, n.Slide)
		} else if n.Slide > n.Size {
			r.errorf(n.Pos, ir.CodeBadDuration, "window hop slide %s is longer than its size %s: rows between windows would be lost", n.Slide, n.Size)
		}
	case ir.WindowSession:
		if n.Gap <= 0 {
			r.errorf(n.Pos, ir.CodeBadDuration, "window session gap must be positive, got %s", n.Gap)
		}
	}
	// the input's visible columns, window_start, window_end, then the
	// input's hidden ones (still reachable as l.k after a USING join)
	vis := in.Visible()
	s := append(Schema{}, vis...)
	s = append(s, Field{Name: "window_start", Type: wt, Nullable: nl}, Field{Name: "window_end", Type: wt, Nullable: nl})
	return append(s, in[len(vis):]...)
}

// union resolves a union: inputs agree by position; names come from the
// first input; types widen to the common type.
func (r *resolver) union(n *ir.Union, outer *scope) Schema {
	var ins []Schema
	for _, in := range n.Inputs {
		ins = append(ins, r.rel(in, outer).Visible())
	}
	if len(ins) == 0 {
		return nil
	}
	s := append(Schema{}, ins[0]...)
	if s.IsOpen() {
		return s
	}
	for k := 1; k < len(ins); k++ {
		in := ins[k]
		if in.IsOpen() {
			continue
		}
		if len(in) != len(s) {
			r.errorf(n.Inputs[k].Position(), ir.CodeSchemaMismatch, "union input %d has %d columns (%s), the first has %d (%s)", k+1, len(in), strings.Join(in.Names(), ", "), len(s), strings.Join(s.Names(), ", "))
			continue
		}
		for i := range s {
			t, ok := commonType(s[i].Type, in[i].Type)
			if !ok {
				r.errorf(n.Inputs[k].Position(), ir.CodeTypeMismatch, "union column %d (%s) is %s in the first input and %s in input %d: cast one of them", i+1, s[i].Name, s[i].Type, in[i].Type, k+1)
				continue
			}
			s[i].Type = t
			s[i].Nullable = s[i].Nullable || in[i].Nullable
		}
	}
	return s
}

// lookup resolves a column reference in a scope and its enclosing scopes.
func (r *resolver) lookup(sc *scope, ref *ir.ColumnRef) (Field, ColumnBinding, bool) {
	depth := 0
	for s := sc; s != nil; s, depth = s.outer, depth+1 {
		type hit struct {
			part, idx int
		}
		var hits []hit
		for pi, p := range s.parts {
			for i, f := range p.schema {
				if f.Open || !strings.EqualFold(f.Name, ref.Name) {
					continue
				}
				if ref.Qualifier == "" && f.Hidden || ref.Qualifier != "" && !qualMatch(ref.Qualifier, f.Qualifier) {
					continue
				}
				hits = append(hits, hit{pi, i})
			}
		}
		if len(hits) > 1 {
			var names []string
			for _, h := range hits {
				f := s.parts[h.part].schema[h.idx]
				if f.Qualifier != "" {
					names = append(names, f.Qualifier+"."+f.Name)
				} else {
					names = append(names, f.Name)
				}
			}
			r.errorf(ref.Pos, ir.CodeAmbiguous, "column %q is ambiguous: it could be %s; qualify it", exprString(ref), strings.Join(names, " or "))
		}
		if len(hits) > 0 {
			h := hits[0]
			p := s.parts[h.part]
			return p.schema[h.idx], ColumnBinding{Rel: p.rel, Index: h.idx, Depth: depth}, true
		}
		for _, p := range s.parts {
			for i, f := range p.schema {
				if f.Open && (ref.Qualifier == "" || qualMatch(ref.Qualifier, f.Qualifier)) {
					of := Field{Qualifier: f.Qualifier, Name: ref.Name, Nullable: true}
					if f.Poisoned {
						of.Type = invalid
					}
					return of, ColumnBinding{Rel: p.rel, Index: i, Depth: depth, Open: true}, true
				}
			}
		}
	}
	r.unknownColumn(sc, ref)
	return Field{}, ColumnBinding{}, false
}

// unknownColumn reports a reference that resolves nowhere, suggesting a
// close name when there is one.
func (r *resolver) unknownColumn(sc *scope, ref *ir.ColumnRef) {
	var names, quals []string
	for s := sc; s != nil; s = s.outer {
		for _, p := range s.parts {
			for _, f := range p.schema {
				if f.Open {
					continue
				}
				switch {
				case ref.Qualifier == "" && !f.Hidden:
					names = append(names, f.Name)
				case ref.Qualifier != "" && qualMatch(ref.Qualifier, f.Qualifier):
					names = append(names, f.Qualifier+"."+f.Name)
				}
			}
			quals = append(quals, qualifiers(p.schema)...)
		}
		if len(names) > 0 && s == sc {
			break
		}
	}
	if ref.Qualifier != "" && !containsQual(quals, ref.Qualifier) {
		r.errorf(ref.Pos, ir.CodeUnknownColumn, "unknown table or alias %q in %q %s", ref.Qualifier, exprString(ref), inScope(dedupFold(quals)))
		return
	}
	if s, ok := suggest.Closest(exprString(ref), names); ok {
		r.errorf(ref.Pos, ir.CodeUnknownColumn, "unknown column %q (did you mean %q?)", exprString(ref), s)
		return
	}
	if len(names) == 0 {
		r.errorf(ref.Pos, ir.CodeUnknownColumn, "unknown column %q: the input has no columns", exprString(ref))
		return
	}
	r.errorf(ref.Pos, ir.CodeUnknownColumn, "unknown column %q (the input has %s)", exprString(ref), quoteList(dedupFold(names), 12))
}

func containsQual(quals []string, q string) bool {
	for _, x := range quals {
		if qualMatch(q, x) {
			return true
		}
	}
	return false
}

func dedupFold(list []string) []string {
	var out []string
	for _, x := range list {
		if !containsFold(out, x) {
			out = append(out, x)
		}
	}
	return out
}
