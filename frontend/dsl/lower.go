package dsl

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/nordisk/thund/frontend/icetable"
	"github.com/nordisk/thund/internal/suggest"
	"github.com/nordisk/thund/ir"
)

// lowerer turns the syntax tree of a file into IR, collecting the errors the
// grammar cannot express (duplicate clauses, bad literals, unknown types).
type lowerer struct {
	file  string
	src   *source
	diags ir.Diagnostics
	// owners[i] is the node that file.Decls[i] lowered to (a *ir.Dataset,
	// a *ir.Flow, or nil), for attachComments.
	owners []any
	// lambdaParams holds the parameters of the lambdas being lowered, the
	// innermost last (lambda.go).
	lambdaParams [][]string
}

func (l *lowerer) pos(p lexer.Position) ir.Pos {
	return ir.Pos{File: l.file, Offset: p.Offset, Line: p.Line, Col: p.Column}
}

func (l *lowerer) errorf(p lexer.Position, code ir.Code, format string, args ...any) {
	l.diags = append(l.diags, &ir.Diagnostic{
		Pos:    l.pos(p),
		Code:   code,
		Msg:    fmt.Sprintf(format, args...),
		Source: l.src.line(p.Offset),
	})
}

// once reports the second occurrence of a single-valued clause.
type once map[string]lexer.Position

func (o once) first(l *lowerer, what string, p lexer.Position) bool {
	if prev, ok := o[what]; ok {
		l.errorf(p, ir.CodeSyntax, "%s is given twice (first at %d:%d)", what, prev.Line, prev.Column)
		return false
	}
	o[what] = p
	return true
}

func (l *lowerer) lowerFile(f *file) *ir.Pipeline {
	p := &ir.Pipeline{Pos: ir.Pos{File: l.file, Line: 1, Col: 1}}
	seen := once{}
	for i, h := range f.Headers {
		switch {
		case h.Pipeline != nil:
			if i > 0 {
				l.errorf(h.Pos, ir.CodeSyntax, `"pipeline" must come first in the file`)
			}
			if seen.first(l, `"pipeline"`, h.Pos) {
				p.Name = string(*h.Pipeline)
				p.Pos = l.pos(h.Pos)
			}
		case h.Catalog != nil:
			if seen.first(l, `"catalog"`, h.Pos) {
				p.Catalog = string(*h.Catalog)
			}
		case h.Database != nil:
			if seen.first(l, `"database"`, h.Pos) {
				p.Database = string(*h.Database)
			}
		case h.Storage != nil:
			if seen.first(l, `"storage"`, h.Pos) {
				p.Storage = unquoteD(*h.Storage)
			}
		case h.Set != nil:
			p.Conf = append(p.Conf, l.kv(h.Set))
		}
	}
	if !p.Pos.IsValid() {
		p.Pos = ir.Pos{File: l.file, Line: 1, Col: 1} // no header: the file
	}
	for _, d := range f.Decls {
		nd, nf := len(p.Datasets), len(p.Flows)
		l.decl(p, d)
		var owner any
		switch {
		case len(p.Datasets) > nd:
			owner = p.Datasets[nd]
		case len(p.Flows) > nf:
			owner = p.Flows[nf]
		}
		l.owners = append(l.owners, owner)
	}
	return p
}

func (l *lowerer) kv(k *keyValue) ir.KV {
	return ir.KV{Pos: l.pos(k.Pos), Key: unquoteD(k.Key), Value: unquoteD(k.Value)}
}

func (l *lowerer) kvs(ks []*keyValue) []ir.KV {
	var out []ir.KV
	for _, k := range ks {
		out = append(out, l.kv(k))
	}
	return out
}

func names(ids []ident) []string {
	var out []string
	for _, id := range ids {
		out = append(out, string(id))
	}
	return out
}

func (l *lowerer) decl(p *ir.Pipeline, d *decl) {
	switch {
	case d.Source != nil:
		p.Datasets = append(p.Datasets, l.source(d.Pos, d.Source))
	case d.MaterializedView != nil:
		l.dataset(p, d.Pos, ir.KindMaterializedView, d.MaterializedView)
	case d.StreamingTable != nil:
		l.dataset(p, d.Pos, ir.KindStreamingTable, d.StreamingTable)
	case d.TemporaryView != nil:
		l.dataset(p, d.Pos, ir.KindTemporaryView, d.TemporaryView)
	case d.View != nil:
		l.dataset(p, d.Pos, ir.KindView, d.View)
	case d.Sink != nil:
		if d.Sink.Body != nil {
			l.errorf(d.Sink.Body.Pos, ir.CodeSyntax, "a sink takes no query: fill it with a flow, as in: flow NAME into %s = from ...", quoteName(string(d.Sink.Name)))
			return
		}
		l.dataset(p, d.Pos, ir.KindSink, d.Sink)
	case d.Flow != nil:
		fd := d.Flow
		f := &ir.Flow{
			Pos:    l.pos(d.Pos),
			Name:   string(fd.Name),
			Target: string(fd.Target),
			Once:   fd.Once,
			ByName: fd.ByName,
		}
		if fd.Query != nil {
			f.Query = l.query(fd.Query)
		}
		l.flowClauses(f, fd.Clauses)
		p.Flows = append(p.Flows, f)
	}
}

func (l *lowerer) source(pos lexer.Position, sd *sourceDecl) *ir.Dataset {
	d := &ir.Dataset{Pos: l.pos(pos), Kind: ir.KindSource, Name: string(sd.Name)}
	errs := len(l.diags)
	sp := sd.Spec
	spec := &ir.SourceSpec{Pos: l.pos(sp.Pos), Unbounded: sp.Stream, Options: l.kvs(sp.Options)}
	if f, ok := ir.ParseFileFormat(string(sp.Format)); ok {
		spec.Format = f
	} else {
		var known []string
		for _, f := range ir.FileFormats() {
			known = append(known, f.String())
		}
		l.errorf(sp.Pos, ir.CodeSyntax, "unknown source format %q: want %s (json and ipc are aliases)", string(sp.Format), suggest.OrList(known))
	}
	for _, in := range sp.Inputs {
		if in.Stdin {
			spec.Stdin = true
		} else {
			spec.Paths = append(spec.Paths, unquoteD(*in.Path))
		}
	}
	d.Source = spec
	body := sd.Body
	switch {
	case body == nil && spec.Format != ir.FormatIceberg:
		l.errorf(sd.Pos, ir.CodeSyntax, "source %s needs its columns in braces: source %s from %s ... { name type, ... } (only an Iceberg source, whose columns come from the table, may leave them out)", quoteName(d.Name), quoteName(d.Name), spec.Format)
	case body == nil:
	case spec.Format == ir.FormatIceberg && len(body.Columns) > 0:
		l.errorf(body.Columns[0].Pos, ir.CodeSyntax, "Iceberg source %s takes no column list: its columns are the table's, read from its metadata (only a watermark goes in the braces)", quoteName(d.Name))
	default:
		d.Columns = l.columns(body.Columns)
	}
	if spec.Format == ir.FormatKafka && len(d.Columns) == 0 {
		// Spark's Kafka source schema; a column list, if given, must be
		// that (ir.Validate)
		d.Columns = ir.KafkaColumns(spec.Pos, ir.KafkaIncludeHeaders(spec.Options))
	}
	if spec.Format == ir.FormatIceberg && len(l.diags) == errs {
		// the table's columns, read from its metadata at compile time
		// (relative to the pipeline's folder, where it runs)
		cols, diags := icetable.Columns(filepath.Dir(l.file), d.Name, spec)
		d.Columns = cols
		for _, dg := range diags {
			dg.Source = l.src.line(dg.Pos.Offset)
		}
		l.diags = append(l.diags, diags...)
	}
	if body != nil && body.Watermark != nil {
		d.Watermark = l.watermark(body.Watermark)
	}
	l.datasetClauses(d, sd.Clauses)
	return d
}

func (l *lowerer) dataset(p *ir.Pipeline, pos lexer.Position, kind ir.DatasetKind, dd *datasetDecl) {
	d := &ir.Dataset{Pos: l.pos(pos), Kind: kind, Name: string(dd.Name)}
	d.Columns = l.columns(dd.Columns)
	l.datasetClauses(d, dd.Clauses)
	p.Datasets = append(p.Datasets, d)
	if dd.Body != nil {
		f := &ir.Flow{Pos: l.pos(dd.Body.Pos), Name: d.Name, Target: d.Name, Query: l.query(dd.Body.Query)}
		l.flowClauses(f, dd.Body.Clauses)
		p.Flows = append(p.Flows, f)
	}
}

func (l *lowerer) columns(cs []*columnDef) []*ir.Column {
	var out []*ir.Column
	for _, c := range cs {
		col := &ir.Column{Pos: l.pos(c.Pos), Name: string(c.Name), Type: l.typ(c.Type), NotNull: c.NotNull}
		if c.Comment != nil {
			col.Comment = unquoteD(*c.Comment)
		}
		out = append(out, col)
	}
	return out
}

func (l *lowerer) watermark(w *watermark) *ir.Watermark {
	out := &ir.Watermark{Pos: l.pos(w.Pos), Column: string(w.Column), Delay: duration(w.Delay)}
	if w.AllowedLateness != nil {
		out.AllowedLateness = duration(*w.AllowedLateness)
	}
	if w.IdleTimeout != nil {
		out.IdleTimeout = duration(*w.IdleTimeout)
	}
	return out
}

func (l *lowerer) datasetClauses(d *ir.Dataset, cs []*datasetClause) {
	seen := once{}
	for _, c := range cs {
		switch {
		case c.ID != nil:
			if seen.first(l, `"id"`, c.Pos) {
				d.ID = unquoteD(*c.ID)
			}
		case c.Comment != nil:
			if seen.first(l, `"comment"`, c.Pos) {
				d.Comment = unquoteD(*c.Comment)
			}
		case c.Catalog != nil:
			if seen.first(l, `"catalog"`, c.Pos) {
				d.Catalog = string(*c.Catalog)
			}
		case c.Database != nil:
			if seen.first(l, `"database"`, c.Pos) {
				d.Database = string(*c.Database)
			}
		case c.Set != nil:
			d.Conf = append(d.Conf, l.kv(c.Set))
		case c.Format != nil:
			if seen.first(l, `"format"`, c.Pos) {
				d.Format = string(*c.Format)
				d.FormatPos = l.pos(c.Pos)
			}
		case c.PartitionBy != nil:
			if seen.first(l, `"partitioned by"`, c.Pos) {
				d.PartitionBy = names(c.PartitionBy)
			}
		case c.ClusterBy != nil:
			if seen.first(l, `"cluster by"`, c.Pos) {
				d.ClusterBy = names(c.ClusterBy)
			}
		case c.Properties != nil:
			if seen.first(l, `"properties"`, c.Pos) {
				d.Properties = l.kvs(c.Properties)
			}
		case c.Options != nil:
			if seen.first(l, `"options"`, c.Pos) {
				d.SinkOptions = l.kvs(c.Options)
			}
		case c.Materialize != nil:
			if seen.first(l, `"materialize"`, c.Pos) {
				d.Materialize = ir.MatFull
				if strings.EqualFold(*c.Materialize, "incremental") {
					d.Materialize = ir.MatIncremental
				}
			}
		case c.Expect != nil:
			e := &ir.Expectation{Pos: l.pos(c.Pos), Name: string(c.Expect.Name), Cond: l.scalar(c.Expect.Cond)}
			if c.Expect.Action != nil {
				switch strings.ToLower(*c.Expect.Action) {
				case "drop":
					e.Action = ir.ActDrop
				case "fail":
					e.Action = ir.ActFail
				}
			}
			d.Expectations = append(d.Expectations, e)
		case c.Quarantine != nil:
			switch {
			case d.Source == nil:
				l.errorf(c.Pos, ir.CodeSyntax, "quarantine table is a clause of a source (it names where the source's malformed records go), not of a %s", d.Kind)
			case seen.first(l, `"quarantine table"`, c.Pos):
				d.Source.Quarantine = &ir.Quarantine{Pos: l.pos(c.Pos), Table: string(*c.Quarantine)}
			}
		}
	}
}

func (l *lowerer) flowClauses(f *ir.Flow, cs []*flowClause) {
	seen := once{}
	for _, c := range cs {
		switch {
		case c.Comment != nil:
			if seen.first(l, `"comment"`, c.Pos) {
				f.Comment = unquoteD(*c.Comment)
			}
		case c.Set != nil:
			f.Conf = append(f.Conf, l.kv(c.Set))
		case c.Apply != nil:
			if seen.first(l, `"apply changes"`, c.Pos) {
				f.CDC = l.cdc(c.Pos, c.Apply)
			}
		case c.Trigger != nil:
			if seen.first(l, `"trigger"`, c.Pos) {
				t := &ir.Trigger{Pos: l.pos(c.Pos)}
				if c.Trigger.AvailableNow {
					t.Kind = ir.TriggerAvailableNow
				} else {
					t.Kind = ir.TriggerEvery
					t.Interval = duration(*c.Trigger.Every)
				}
				f.Trigger = t
			}
		case c.Output != nil:
			if seen.first(l, `"output mode"`, c.Pos) {
				switch strings.ToLower(*c.Output) {
				case "append":
					f.OutputMode = ir.OutputAppend
				case "update":
					f.OutputMode = ir.OutputUpdate
				default:
					f.OutputMode = ir.OutputComplete
				}
			}
		case c.Emit != nil:
			if seen.first(l, `"emit"`, c.Pos) {
				f.Emit = ir.EmitOnUpdate
				if c.Emit.WindowClose {
					f.Emit = ir.EmitOnWindowClose
				}
			}
		case c.LateTable != nil:
			if seen.first(l, `"late table"`, c.Pos) {
				f.LateTable = string(*c.LateTable)
			}
		}
	}
}

func (l *lowerer) cdc(pos lexer.Position, a *applyChanges) *ir.CDC {
	c := &ir.CDC{
		Pos:               l.pos(pos),
		Keys:              names(a.Keys),
		SequenceBy:        l.scalar(a.SequenceBy),
		IgnoreNullUpdates: a.IgnoreNullUpdates,
		SCDType:           1,
	}
	if a.DeleteWhen != nil {
		c.DeleteWhen = l.scalar(a.DeleteWhen)
	}
	if a.Columns != nil {
		c.Columns, c.ExceptColumns = names(a.Columns.Only), names(a.Columns.Except)
	}
	if a.SCDType != nil {
		n, _ := strconv.ParseInt(*a.SCDType, 10, 64)
		if n > 1<<31-1 {
			l.errorf(a.Pos, ir.CodeBadLiteral, "scd type %s is out of range: want 1 or 2", *a.SCDType)
		}
		c.SCDType = int(n)
	}
	if a.TrackHistory != nil {
		c.TrackHistory, c.TrackHistoryExcept = names(a.TrackHistory.Only), names(a.TrackHistory.Except)
	}
	return c
}

// --- types

var unitNames = "s, ms, us or ns"

func (l *lowerer) typ(t *typeRef) ir.Type {
	name := string(t.Name)
	if isNestedTypeName(name) {
		return l.nestedType(t)
	}
	if len(t.Parts) > 0 {
		l.errorf(t.Parts[0].Pos, ir.CodeSyntax, "type %s takes no <...>: only array, map and struct do", strings.ToLower(name))
		return ir.Type{}
	}
	kind, ok := ir.LookupTypeName(name)
	if !ok {
		if k, ok := suggest.Closest(name, append(simpleTypeNames(), "decimal", "timestamp", "duration", "array", "map", "struct")); ok {
			l.errorf(t.Pos, ir.CodeUnknownType, "unknown type %q (did you mean %s?)", name, k)
			return ir.Type{}
		}
		l.errorf(t.Pos, ir.CodeUnknownType, "unknown type %q: want one of %s, decimal(p,s), timestamp(unit[, \"zone\"]), duration(unit), array<T>, map<K, V> or struct<name: T, ...>", name, strings.Join(simpleTypeNames(), " "))
		return ir.Type{}
	}
	out := ir.Type{Kind: kind}
	args := t.Args
	intArg := func(a *typeArg, what string) (int, bool) {
		if a.Int == nil {
			l.errorf(a.Pos, ir.CodeSyntax, "%s: the %s must be an integer", strings.ToLower(name), what)
			return 0, false
		}
		n, err := strconv.Atoi(*a.Int)
		if err != nil {
			n = 1 << 30
		}
		return n, true
	}
	unitArg := func(a *typeArg) ir.TimeUnit {
		if a.Unit == nil {
			l.errorf(a.Pos, ir.CodeSyntax, "%s: the unit must be one of %s", strings.ToLower(name), unitNames)
			return ir.Micro
		}
		u, ok := ir.ParseTimeUnit(string(*a.Unit))
		if !ok {
			l.errorf(a.Pos, ir.CodeUnknownType, "unknown time unit %q: want %s", string(*a.Unit), unitNames)
		}
		return u
	}
	switch kind {
	case ir.TDecimal:
		out.Precision, out.Scale = 10, 0 // Spark's default decimal
		if len(args) > 2 {
			l.errorf(args[2].Pos, ir.CodeSyntax, "decimal takes at most two arguments: decimal(precision, scale)")
			break
		}
		if len(args) >= 1 {
			if p, ok := intArg(args[0], "precision"); ok {
				out.Precision = p
			}
		}
		if len(args) == 2 {
			if s, ok := intArg(args[1], "scale"); ok {
				out.Scale = s
			}
		}
		if out.Precision < 1 || out.Precision > 38 || out.Scale > out.Precision {
			l.errorf(t.Pos, ir.CodeUnknownType, "decimal(%d,%d): want 1 <= precision <= 38 and 0 <= scale <= precision", out.Precision, out.Scale)
		}
	case ir.TTimestamp, ir.TDuration:
		out.Unit = ir.Micro // Spark's precision
		max := 1
		if kind == ir.TTimestamp {
			max = 2
		}
		if len(args) > max {
			l.errorf(args[max].Pos, ir.CodeSyntax, "%s takes at most %d argument(s)", strings.ToLower(name), max)
			break
		}
		if len(args) >= 1 {
			out.Unit = unitArg(args[0])
		}
		if len(args) == 2 {
			if args[1].Zone == nil {
				l.errorf(args[1].Pos, ir.CodeSyntax, "timestamp: the time zone must be a quoted string, as in timestamp(us, \"UTC\")")
				break
			}
			out.Zone = unquoteD(*args[1].Zone)
			// ir.ParseType, which reads types back from JSON, splits on
			// commas and does not unescape: keep zones to what it reads.
			if strings.ContainsAny(out.Zone, ",\"\\") || strings.IndexFunc(out.Zone, func(r rune) bool { return !strconv.IsPrint(r) }) >= 0 {
				l.errorf(args[1].Pos, ir.CodeBadLiteral, "time zone %s: a zone name cannot contain commas, quotes, backslashes or control characters", *args[1].Zone)
			}
		}
	default:
		if len(args) > 0 {
			l.errorf(args[0].Pos, ir.CodeSyntax, "type %s takes no arguments", strings.ToLower(name))
		}
	}
	return out
}

// simpleTypeNames lists the canonical names of the argument-less types.
func simpleTypeNames() []string {
	var out []string
	seen := map[ir.TypeKind]bool{ir.TDecimal: true, ir.TTimestamp: true, ir.TDuration: true, ir.TUnknown: true}
	for _, n := range ir.TypeNames() {
		k, _ := ir.LookupTypeName(n)
		if !seen[k] {
			seen[k] = true
			out = append(out, n)
		}
	}
	return out
}

// --- queries

func (l *lowerer) query(q *query) ir.Rel {
	rel := l.fromItem(q.From)
	var prevUnion *ir.Union // the union the previous stage made, which a union of the same kind extends
	for _, st := range q.Stages {
		pos := l.pos(st.Pos)
		var union *ir.Union
		switch {
		case st.Where != nil:
			rel = &ir.Filter{Pos: pos, Input: rel, Cond: l.scalar(st.Where)}
		case st.Select != nil:
			rel = &ir.Project{Pos: pos, Input: rel, Items: l.selectItems(st.Select)}
		case st.Group != nil:
			agg := &ir.Aggregate{Pos: pos, Input: rel, Keys: l.namedExprs(st.Group.Keys), Aggs: l.namedExprs(st.Group.Aggs)}
			if st.Group.Sets != nil {
				agg.Sets = l.groupingSets(agg.Keys, st.Group.Sets)
			}
			rel = agg
		case st.Aggregate != nil:
			rel = &ir.Aggregate{Pos: pos, Input: rel, Aggs: l.namedExprs(st.Aggregate)}
		case st.Join != nil:
			j := &ir.Join{Pos: pos, Kind: ir.JoinInner, Left: rel, Right: l.fromItem(st.Join.Right)}
			for _, k := range ir.JoinKinds() {
				if strings.EqualFold(st.Join.Kind, k.String()) {
					j.Kind = k
				}
			}
			if st.Join.On != nil {
				j.On = l.scalar(st.Join.On)
			}
			j.Using = names(st.Join.Using)
			rel = j
		case st.Window != nil:
			w := &ir.Window{Pos: pos, Input: rel}
			switch ws := st.Window; {
			case ws.Tumble != nil:
				w.Kind, w.Time, w.Size = ir.WindowTumble, l.scalar(ws.Tumble.Time), duration(ws.Tumble.Size)
			case ws.Hop != nil:
				w.Kind, w.Time, w.Size, w.Slide = ir.WindowHop, l.scalar(ws.Hop.Time), duration(ws.Hop.Size), duration(ws.Hop.Slide)
			case ws.Session != nil:
				w.Kind, w.Time, w.Gap = ir.WindowSession, l.scalar(ws.Session.Time), duration(ws.Session.Gap)
			}
			rel = w
		case st.Union != nil:
			right := l.fromItem(st.Union.Right)
			if prevUnion != nil && prevUnion.All == st.Union.All {
				prevUnion.Inputs = append(prevUnion.Inputs, right)
				union = prevUnion
			} else {
				union = &ir.Union{Pos: pos, Inputs: []ir.Rel{rel, right}, All: st.Union.All}
				rel = union
			}
		case st.SetOp != nil:
			so := &ir.SetOp{Pos: pos, Kind: ir.SetExcept, All: st.SetOp.All, Left: rel, Right: l.fromItem(st.SetOp.Right)}
			if strings.EqualFold(st.SetOp.Kind, "intersect") {
				so.Kind = ir.SetIntersect
			}
			rel = so
		case st.Distinct != nil:
			d := &ir.Distinct{Pos: pos, Input: rel, WithinWatermark: st.Distinct.Within}
			for _, k := range st.Distinct.On {
				d.Keys = append(d.Keys, string(k))
			}
			rel = d
		case st.Order != nil:
			rel = &ir.Sort{Pos: pos, Input: rel, Keys: l.sortKeys(st.Order)}
		case st.Lateral != nil: // generators (generate.go)
			rel = l.lateral(rel, st.Lateral, pos)
		case st.Limit != nil:
			lim := &ir.Limit{Pos: pos, Input: rel}
			lim.N, _ = strconv.ParseInt(st.Limit.N, 10, 64)
			if st.Limit.Offset != nil {
				lim.Offset, _ = strconv.ParseInt(*st.Limit.Offset, 10, 64)
			}
			rel = lim
		}
		prevUnion = union
	}
	return rel
}

func (l *lowerer) fromItem(fi *fromItem) ir.Rel {
	switch {
	case fi.Range != nil:
		ri := fi.Range
		r := &ir.Range{Pos: l.pos(fi.Pos), Start: signed(ri.Start), End: signed(ri.End)}
		if ri.Step != nil {
			r.Step = signed(ri.Step)
		}
		if ri.Alias != nil {
			// ir.Range has no alias: an aliased range is a subquery, which
			// prints back as range(...) as ALIAS.
			return &ir.SubqueryRel{Pos: l.pos(fi.Pos), Input: r, Alias: string(*ri.Alias)}
		}
		return r
	case fi.Subquery != nil:
		inner := l.query(fi.Subquery.Query)
		if fi.Subquery.Alias == nil {
			return inner // parentheses without an alias only group
		}
		return &ir.SubqueryRel{Pos: l.pos(fi.Pos), Input: inner, Alias: string(*fi.Subquery.Alias)}
	}
	sc := fi.Scan
	s := &ir.Scan{Pos: l.pos(sc.Pos), Name: strings.Join(names(sc.Name), "."), Stream: sc.Stream}
	if sc.Alias != nil {
		s.Alias = string(*sc.Alias)
	}
	if sc.Watermark != nil {
		s.Watermark = l.watermark(sc.Watermark)
	}
	if len(sc.Bounds) > 0 {
		eb := &ir.EdgeBounds{Pos: l.pos(sc.Bounds[0].Pos)}
		seen := once{}
		for _, b := range sc.Bounds {
			n, _ := sizeBytes(b.Amount)
			if strings.EqualFold(b.Unit, "rows") {
				if sizeRE.MatchString(b.Amount) {
					l.errorf(b.Pos, ir.CodeSyntax, "a row bound is a plain number of rows, not a size: bound %s rows", strings.TrimRight(b.Amount, "kKmMgGbB"))
				}
				if seen.first(l, `"bound ... rows"`, b.Pos) {
					eb.Rows = n
				}
			} else if seen.first(l, `"bound ... bytes"`, b.Pos) {
				eb.Bytes = n
			}
		}
		s.Bounds = eb
	}
	return s
}

func signed(s *signedInt) int64 {
	n, _ := strconv.ParseInt(s.Digits, 10, 64)
	if s.Neg {
		return -n
	}
	return n
}

func (l *lowerer) namedExprs(ns []*namedExpr) []*ir.NamedExpr {
	var out []*ir.NamedExpr
	for _, n := range ns {
		ne := &ir.NamedExpr{Pos: l.pos(n.Pos), Expr: l.scalar(n.Expr)}
		if n.Alias != nil {
			ne.Alias = string(*n.Alias)
		}
		out = append(out, ne)
	}
	return out
}

// selectItems lowers a select list, where (and only where) a star may stand
// as a whole item.
func (l *lowerer) selectItems(ns []*namedExpr) []*ir.NamedExpr {
	var out []*ir.NamedExpr
	for _, n := range ns {
		e := l.expr(n.Expr)
		ne := &ir.NamedExpr{Pos: l.pos(n.Pos), Expr: e}
		if n.Alias != nil {
			ne.Alias = string(*n.Alias)
		}
		if _, ok := e.(*ir.Star); !ok {
			l.noStars(e)
		} else if n.Alias != nil {
			l.errorf(n.Pos, ir.CodeSyntax, "a star cannot take an alias: it stands for several columns")
		}
		out = append(out, ne)
	}
	return out
}

// scalar lowers an expression where no star may appear.
func (l *lowerer) scalar(e *expr) ir.Expr {
	x := l.expr(e)
	l.noStars(x)
	return x
}

func (l *lowerer) noStars(e ir.Expr) {
	ir.WalkExpr(e, func(e ir.Expr) bool {
		if s, ok := e.(*ir.Star); ok {
			p := s.Pos
			l.diags = append(l.diags, &ir.Diagnostic{
				Pos:    p,
				Code:   ir.CodeSyntax,
				Msg:    "* is only allowed as a whole select item (or in count(*))",
				Source: l.src.line(p.Offset),
			})
		}
		return true
	})
}

// --- expressions

var compareOps = map[string]ir.BinaryOp{
	"=": ir.OpEq, "<>": ir.OpNe, "!=": ir.OpNe, "<": ir.OpLt, "<=": ir.OpLe, ">": ir.OpGt, ">=": ir.OpGe, "<=>": ir.OpEqNullSafe,
	"+": ir.OpAdd, "-": ir.OpSub, "*": ir.OpMul, "/": ir.OpDiv, "%": ir.OpMod,
}

func (l *lowerer) expr(e *expr) ir.Expr {
	x := l.andExpr(e.Left)
	for _, o := range e.Or {
		x = &ir.Binary{Pos: l.pos(o.Pos), Op: ir.OpOr, L: x, R: l.andExpr(o.X)}
	}
	return x
}

func (l *lowerer) andExpr(e *andExpr) ir.Expr {
	x := l.notExpr(e.Left)
	for _, o := range e.And {
		x = &ir.Binary{Pos: l.pos(o.Pos), Op: ir.OpAnd, L: x, R: l.notExpr(o.X)}
	}
	return x
}

func (l *lowerer) notExpr(e *notExpr) ir.Expr {
	x := l.cmpExpr(e.X)
	for i := len(e.Nots) - 1; i >= 0; i-- {
		if ex, ok := x.(*ir.Exists); ok {
			// not exists (...) is one node (correlated subqueries)
			ex.Pos, ex.Not = l.pos(e.Nots[i].Pos), !ex.Not
			continue
		}
		x = &ir.Unary{Pos: l.pos(e.Nots[i].Pos), Op: ir.OpNot, X: x}
	}
	return x
}

func (l *lowerer) cmpExpr(e *cmpExpr) ir.Expr {
	x := l.bitOrExpr(e.Left)
	for _, op := range e.Ops {
		pos := l.pos(op.Pos)
		switch {
		case op.Compare != nil:
			x = &ir.Binary{Pos: pos, Op: compareOps[op.Compare.Op], L: x, R: l.bitOrExpr(op.Compare.X)}
		case op.IsNull != nil:
			x = &ir.IsNull{Pos: pos, X: x, Not: op.IsNull.Not}
		default:
			p, not := op.Predicate, false
			if op.Negated != nil {
				p, not = op.Negated, true
			}
			switch {
			case p.In != nil && p.In.Query != nil:
				x = &ir.InSubquery{Pos: pos, X: x, Query: l.query(p.In.Query), Not: not}
			case p.In != nil:
				in := &ir.In{Pos: pos, X: x, Not: not}
				for _, item := range p.In.List {
					in.List = append(in.List, l.expr(item))
				}
				x = in
			case p.Between != nil:
				x = &ir.Between{Pos: pos, X: x, Lo: l.concatExpr(p.Between.Lo), Hi: l.concatExpr(p.Between.Hi), Not: not}
			case p.Like != nil:
				x = &ir.Like{Pos: pos, X: x, Pattern: l.concatExpr(p.Like), Not: not}
			}
		}
	}
	return x
}

func (l *lowerer) bitOrExpr(e *bitOrExpr) ir.Expr {
	x := l.bitXorExpr(e.Left)
	for _, o := range e.Ops {
		x = &ir.Binary{Pos: l.pos(o.Pos), Op: ir.OpBitOr, L: x, R: l.bitXorExpr(o.X)}
	}
	return x
}

func (l *lowerer) bitXorExpr(e *bitXorExpr) ir.Expr {
	x := l.bitAndExpr(e.Left)
	for _, o := range e.Ops {
		x = &ir.Binary{Pos: l.pos(o.Pos), Op: ir.OpBitXor, L: x, R: l.bitAndExpr(o.X)}
	}
	return x
}

func (l *lowerer) bitAndExpr(e *bitAndExpr) ir.Expr {
	x := l.shiftExpr(e.Left)
	for _, o := range e.Ops {
		x = &ir.Binary{Pos: l.pos(o.Pos), Op: ir.OpBitAnd, L: x, R: l.shiftExpr(o.X)}
	}
	return x
}

var shiftOps = map[string]ir.BinaryOp{"<<": ir.OpShl, ">>": ir.OpShr, ">>>": ir.OpShrU}

func (l *lowerer) shiftExpr(e *shiftExpr) ir.Expr {
	x := l.concatExpr(e.Left)
	for _, o := range e.Ops {
		if !adjacent(o.Tokens, len(o.Op)) {
			l.errorf(o.Pos, ir.CodeSyntax, "write the shift operator %s without spaces inside it", o.Op)
		}
		x = &ir.Binary{Pos: l.pos(o.Pos), Op: shiftOps[o.Op], L: x, R: l.concatExpr(o.X)}
	}
	return x
}

// adjacent reports whether the first n tokens follow each other with
// nothing between them (<< rather than < <).
func adjacent(toks []lexer.Token, n int) bool {
	if len(toks) < n {
		return false
	}
	for i := 1; i < n; i++ {
		if toks[i].Pos.Offset != toks[i-1].Pos.Offset+len(toks[i-1].Value) {
			return false
		}
	}
	return true
}

func (l *lowerer) concatExpr(e *concatExpr) ir.Expr {
	x := l.addExpr(e.Left)
	for _, o := range e.Ops {
		x = &ir.Binary{Pos: l.pos(o.Pos), Op: ir.OpConcat, L: x, R: l.addExpr(o.X)}
	}
	return x
}

func (l *lowerer) addExpr(e *addExpr) ir.Expr {
	x := l.mulExpr(e.Left)
	for _, o := range e.Ops {
		x = &ir.Binary{Pos: l.pos(o.Pos), Op: compareOps[o.Op], L: x, R: l.mulExpr(o.X)}
	}
	return x
}

func (l *lowerer) mulExpr(e *mulExpr) ir.Expr {
	x := l.unaryExpr(e.Left)
	for _, o := range e.Ops {
		x = &ir.Binary{Pos: l.pos(o.Pos), Op: compareOps[o.Op], L: x, R: l.unaryExpr(o.X)}
	}
	return x
}

func (l *lowerer) unaryExpr(e *unaryExpr) ir.Expr {
	x := l.primary(e.X)
	for _, p := range e.Post { // nested types
		if p.Index != nil {
			x = &ir.Subscript{Pos: l.pos(p.Pos), X: x, Index: l.expr(p.Index)}
		} else {
			x = &ir.GetField{Pos: l.pos(p.Pos), X: x, Name: string(*p.Field)}
		}
	}
	for i := len(e.Negs) - 1; i >= 0; i-- {
		op := ir.OpNeg
		if e.Negs[i].Tilde {
			op = ir.OpBitNot
		}
		x = &ir.Unary{Pos: l.pos(e.Negs[i].Pos), Op: op, X: x}
	}
	return x
}

func (l *lowerer) primary(p *primary) ir.Expr {
	pos := l.pos(p.Pos)
	switch {
	case p.Subquery != nil:
		return &ir.ScalarSubquery{Pos: pos, Query: l.query(p.Subquery)}
	case p.Exists != nil: // correlated subqueries
		return &ir.Exists{Pos: pos, Query: l.query(p.Exists)}
	case p.Paren != nil:
		return l.expr(p.Paren)
	case p.Case != nil:
		c := &ir.Case{Pos: pos}
		if p.Case.Operand != nil {
			c.Operand = l.expr(p.Case.Operand)
		}
		for _, w := range p.Case.Whens {
			c.Whens = append(c.Whens, &ir.When{Pos: l.pos(w.Pos), Cond: l.expr(w.Cond), Then: l.expr(w.Then)})
		}
		if p.Case.Else != nil {
			c.Else = l.expr(p.Case.Else)
		}
		return c
	case p.Cast != nil:
		return &ir.Cast{Pos: pos, X: l.expr(p.Cast.X), To: l.typ(p.Cast.To), Try: p.Cast.Try}
	case p.Literal != nil:
		return l.literal(p.Literal)
	case p.Call != nil:
		c := &ir.Call{Pos: pos, Name: lowerASCII(string(p.Call.Name)), Star: p.Call.Star, Distinct: p.Call.Distinct}
		for _, a := range p.Call.Args {
			c.Args = append(c.Args, l.arg(a)) // lambda.go
		}
		if p.Call.Filter != nil {
			c.Filter = l.expr(p.Call.Filter)
		}
		c.IgnoreNulls = p.Call.IgnoreNulls
		if p.Call.Over != nil { // window functions
			return l.over(c, p.Call.Over)
		}
		return c
	case p.Column != nil:
		parts := names(p.Column.Parts)
		if p.Column.Star {
			return &ir.Star{Pos: pos, Qualifier: strings.Join(parts, "."), Except: names(p.Column.Except)}
		}
		if len(parts) == 1 && l.isLambdaParam(parts[0]) { // lambda.go
			return &ir.LambdaVar{Pos: pos, Name: parts[0]}
		}
		return &ir.ColumnRef{Pos: pos, Qualifier: strings.Join(parts[:len(parts)-1], "."), Name: parts[len(parts)-1]}
	case p.Star != nil:
		return &ir.Star{Pos: pos, Except: names(p.Star.Except)}
	}
	return nil
}

func (l *lowerer) literal(lit *literal) ir.Expr {
	out := &ir.Literal{Pos: l.pos(lit.Pos)}
	switch {
	case lit.Null:
		out.Kind = ir.LitNull
	case lit.True:
		out.Kind, out.Text = ir.LitBool, "true"
	case lit.False:
		out.Kind, out.Text = ir.LitBool, "false"
	case lit.Int != nil:
		out.Kind, out.Text = ir.LitInt, strings.TrimLeft(*lit.Int, "0")
		if out.Text == "" {
			out.Text = "0"
		}
	case lit.Decimal != nil:
		out.Kind, out.Text = ir.LitDecimal, *lit.Decimal
	case lit.Float != nil:
		out.Kind, out.Text = ir.LitFloat, strings.ReplaceAll(*lit.Float, "E", "e")
	case lit.String != nil:
		out.Kind, out.Text = ir.LitString, unquoteSQL(*lit.String)
	case lit.Interval != nil:
		out.Kind, out.Text = ir.LitInterval, duration(*lit.Interval).String()
	case lit.Timestamp != nil:
		out.Kind = ir.LitTimestamp
		text, err := canonicalTimestamp(unquoteSQL(*lit.Timestamp))
		if err != "" {
			l.errorf(lit.Pos, ir.CodeBadLiteral, "bad timestamp %s: %s", *lit.Timestamp, err)
		}
		out.Text = text
	case lit.Date != nil:
		out.Kind = ir.LitDate
		text, err := canonicalDate(unquoteSQL(*lit.Date))
		if err != "" {
			l.errorf(lit.Pos, ir.CodeBadLiteral, "bad date %s: %s", *lit.Date, err)
		}
		out.Text = text
	}
	return out
}

// --- literal helpers

// unquoteD unquotes a double-quoted string; the lexer has checked it.
func unquoteD(raw string) string {
	s, err := strconv.Unquote(raw)
	if err != nil {
		return raw
	}
	return s
}

func unquoteSQL(raw string) string {
	if len(raw) < 2 {
		return raw
	}
	return strings.ReplaceAll(raw[1:len(raw)-1], "''", "'")
}

// duration parses a Duration token; the lexer has checked it.
func duration(raw string) ir.Duration {
	d, _ := ir.ParseDuration(raw)
	return d
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

var (
	dateRE      = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})$`)
	timestampRE = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:\d{2})?$`)
)

// canonicalDate checks YYYY-MM-DD.
func canonicalDate(s string) (string, string) {
	m := dateRE.FindStringSubmatch(s)
	if m == nil {
		return s, "want YYYY-MM-DD"
	}
	if _, err := time.Parse("2006-01-02", s); err != nil || m[1] == "0000" {
		return s, "no such day"
	}
	return s, ""
}

// canonicalTimestamp accepts YYYY-MM-DD[( |T)HH:MM[:SS[.fraction]]][Z|±HH:MM]
// and returns the canonical UTC spelling YYYY-MM-DD HH:MM:SS[.ffffff].
func canonicalTimestamp(s string) (string, string) {
	m := timestampRE.FindStringSubmatch(s)
	if m == nil {
		return s, "want YYYY-MM-DD HH:MM:SS[.ffffff], optionally with Z or a ±HH:MM offset"
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	year, month, day := atoi(m[1]), atoi(m[2]), atoi(m[3])
	hour, min, sec := atoi(m[4]), atoi(m[5]), atoi(m[6])
	frac := m[7]
	if len(frac) > 6 {
		if strings.Trim(frac[6:], "0") != "" {
			return s, "timestamps have microsecond precision: at most 6 fractional digits"
		}
		frac = frac[:6]
	}
	micros := 0
	if frac != "" {
		micros = atoi((frac + "000000")[:6])
	}
	t := time.Date(year, time.Month(month), day, hour, min, sec, micros*1000, time.UTC)
	if t.Year() != year || int(t.Month()) != month || t.Day() != day || t.Hour() != hour || t.Minute() != min || t.Second() != sec || year == 0 {
		return s, "no such time"
	}
	if z := m[8]; z != "" && z != "Z" {
		oh, om := atoi(z[1:3]), atoi(z[4:6])
		if oh > 18 || om > 59 {
			return s, "bad zone offset " + z
		}
		off := time.Duration(oh)*time.Hour + time.Duration(om)*time.Minute
		if z[0] == '+' {
			t = t.Add(-off)
		} else {
			t = t.Add(off)
		}
		if t.Year() < 1 || t.Year() > 9999 {
			return s, "out of range once converted to UTC"
		}
	}
	out := t.Format("2006-01-02 15:04:05")
	if us := t.Nanosecond() / 1000; us != 0 {
		out += fmt.Sprintf(".%06d", us)
	}
	return out, ""
}

// source hands out the text of source lines for Diagnostic.Source. Lines are
// substrings of one copy of the file, each made once, so that many
// diagnostics on one long line do not copy it many times.
type source struct {
	text  string
	lines map[int]string // by the offset where the line starts
}

func newSource(src []byte) *source { return &source{text: string(src), lines: map[int]string{}} }

// line returns the text of the line holding offset, for the caret.
func (s *source) line(offset int) string {
	offset = max(0, min(offset, len(s.text)))
	start := strings.LastIndexByte(s.text[:offset], '\n') + 1
	if l, ok := s.lines[start]; ok {
		return l
	}
	end := strings.IndexByte(s.text[start:], '\n')
	if end < 0 {
		end = len(s.text) - start
	}
	// Bytes that are not UTF-8 stay as they are: whoever prints the line
	// escapes them (thundc's writeDiags), and the caret's column counts
	// each of them as one character, as the lexer does.
	l := strings.TrimSuffix(s.text[start:start+end], "\r")
	s.lines[start] = l
	return l
}

// quoteName spells a name as the printer does, for messages.
func quoteName(s string) string {
	plain := s != ""
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) && !(i > 0 && isDigit(s[i])) {
			plain = false
		}
	}
	if plain && !reserved[strings.ToLower(s)] {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

func (l *lowerer) sortKeys(ks []*sortKey) []*ir.SortKey {
	var out []*ir.SortKey
	for _, k := range ks {
		key := &ir.SortKey{Pos: l.pos(k.Pos), Expr: l.scalar(k.Expr)}
		if k.Dir != nil && strings.EqualFold(*k.Dir, "desc") {
			key.Desc = true
		}
		if k.Nulls != nil {
			first := strings.EqualFold(*k.Nulls, "first")
			key.NullsFirst = &first
		}
		out = append(out, key)
	}
	return out
}

// over lowers a window function: call over (spec).
func (l *lowerer) over(call *ir.Call, w *windowSpec) ir.Expr {
	ov := &ir.Over{Pos: call.Pos, Func: call}
	for _, p := range w.Partition {
		ov.Partition = append(ov.Partition, l.scalar(p))
	}
	ov.Order = l.sortKeys(w.Order)
	if f := w.Frame; f != nil {
		fr := &ir.Frame{Pos: l.pos(f.Pos), Kind: ir.FrameRows}
		if strings.EqualFold(f.Kind, "range") {
			fr.Kind = ir.FrameRange
		}
		fr.Start, fr.End = l.frameBound(f.Start), l.frameBound(f.End)
		ov.Frame = fr
	}
	return ov
}

func (l *lowerer) frameBound(b *frameBound) ir.FrameBound {
	switch {
	case strings.EqualFold(b.Unbounded, "preceding"):
		return ir.FrameBound{Kind: ir.UnboundedPreceding}
	case b.Unbounded != "":
		return ir.FrameBound{Kind: ir.UnboundedFollowing}
	case b.Current:
		return ir.FrameBound{Kind: ir.CurrentRow}
	}
	k := ir.Preceding
	if strings.EqualFold(b.Dir, "following") {
		k = ir.Following
	}
	return ir.FrameBound{Kind: k, Offset: l.literal(b.Offset)}
}
