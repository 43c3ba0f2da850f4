package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// reservedWords are the .thund keywords that cannot be bare identifiers
// (docs/dsl.md, "Lexical structure"). It is the one table shared by the printer,
// which back-quotes them, and frontend/dsl's lexer, which refuses them as
// names. Every other word of the grammar (where, select, source, id, name,
// window, ...) is contextual and stays usable as a bare name; a word belongs
// here only when the grammar needs it to tell a name from a keyword:
//   - it can start an expression: not, null, true, false, case, cast, try_cast;
//   - it ends or continues an expression: and, or, is, in, between, like, when,
//     then, else, end, as, on, using, except;
//   - it is an optional modifier right before a name: stream (from stream x),
//     all (union all x), distinct (count(distinct x));
//   - it starts a query inside parentheses: from.
var reservedWords = []string{
	"all", "and", "as", "between", "case", "cast", "distinct", "else", "end", "except",
	"false", "from", "in", "is", "like", "not", "null", "on", "or", "stream", "then",
	"true", "try_cast", "using", "when",
}

var reservedSet = func() map[string]bool {
	m := make(map[string]bool, len(reservedWords))
	for _, w := range reservedWords {
		m[w] = true
	}
	return m
}()

// ReservedWords returns the reserved keywords of the .thund language, lower
// case. Keywords match case-insensitively.
func ReservedWords() []string { return append([]string(nil), reservedWords...) }

// lineWidth is the width up to which the printer keeps a column list on one line.
const lineWidth = 100

// Print renders the pipeline in canonical .thund form (docs/dsl.md). The
// output is deterministic and depends only on what Equal compares and on the
// comments: parsing it gives back an Equal pipeline with the same comments
// (a Doc printed before a declaration reads back as that declaration's, or
// the pipeline's before the first one), so printing is idempotent. Comment
// lines print as written: Pipeline.Doc before the first line, a dataset's
// or flow's Doc right before its declaration, Pipeline.Trailer at the end. A flow whose Name
// and Target are its dataset's name prints inline with the dataset
// ("= from ..."); every other flow prints as a flow declaration.
func Print(p *Pipeline) []byte {
	if p == nil {
		return nil
	}
	var blocks []string
	var head strings.Builder
	if p.Name != "" {
		fmt.Fprintf(&head, "pipeline %s\n", quoteIdent(p.Name))
	}
	if p.Catalog != "" {
		fmt.Fprintf(&head, "catalog %s\n", quoteIdent(p.Catalog))
	}
	if p.Database != "" {
		fmt.Fprintf(&head, "database %s\n", quoteIdent(p.Database))
	}
	if p.Storage != "" {
		fmt.Fprintf(&head, "storage %s\n", strconv.Quote(p.Storage))
	}
	for _, kv := range p.Conf {
		fmt.Fprintf(&head, "set %s\n", printKV(kv))
	}
	if head.Len() > 0 {
		blocks = append(blocks, head.String())
	}
	for _, d := range declOrder(p) {
		var b strings.Builder
		if d.dataset != nil {
			printComments(&b, d.dataset.Doc)
		}
		if d.flow != nil {
			printComments(&b, d.flow.Doc)
		}
		switch {
		case d.dataset != nil && d.dataset.Kind == KindSource:
			printSource(&b, d.dataset)
		case d.dataset != nil:
			printDataset(&b, d.dataset, d.flow)
		default:
			printFlowDecl(&b, d.flow)
		}
		blocks = append(blocks, b.String())
	}
	// The pipeline's Doc comments go right before its first line and its
	// Trailer after a blank line at the end; a file of comments alone is
	// just its lines.
	var doc, trailer strings.Builder
	printComments(&doc, p.Doc)
	printComments(&trailer, p.Trailer)
	if len(blocks) == 0 {
		return []byte(doc.String() + trailer.String())
	}
	blocks[0] = doc.String() + blocks[0]
	if trailer.Len() > 0 {
		blocks = append(blocks, trailer.String())
	}
	return []byte(strings.Join(blocks, "\n"))
}

// printComments writes comment lines, one per line. A line is printed as
// written, trailing whitespace trimmed; one that would not read back as a
// comment (it lacks the "#" or "--" marker, or spans lines) is made one.
func printComments(b *strings.Builder, cs Comments) {
	for _, c := range cs {
		for _, line := range strings.Split(c, "\n") {
			line = strings.Trim(line, " \t\r\f\v")
			if line == "" {
				continue
			}
			if !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "--") {
				line = "# " + line
			}
			b.WriteString(line)
			b.WriteString("\n")
		}
	}
}

// decl is one top-level declaration to print: a dataset (with its inline flow,
// if any) or a flow declaration.
type decl struct {
	dataset *Dataset
	flow    *Flow
}

// declOrder interleaves datasets and flows so that parsing the printed text
// declares both in their original order. Flow declarations follow the dataset
// they target; a dataset takes its inline flow when that flow is next.
func declOrder(p *Pipeline) []decl {
	var out []decl
	ds, fs := p.Datasets, p.Flows
	di, fi := 0, 0
	targetsLater := func(f *Flow) bool {
		for _, d := range ds[di:] {
			if d != nil && lower(d.Name) == lower(f.Target) {
				return true
			}
		}
		return false
	}
	for di < len(ds) || fi < len(fs) {
		if fi < len(fs) {
			f := fs[fi]
			if f == nil {
				fi++
				continue
			}
			if di < len(ds) && inlineFlow(ds[di], f) {
				out = append(out, decl{dataset: ds[di], flow: f})
				di++
				fi++
				continue
			}
			if di == len(ds) || !targetsLater(f) {
				out = append(out, decl{flow: f})
				fi++
				continue
			}
		}
		d := ds[di]
		if d == nil {
			di++
			continue
		}
		// Flows declared before d's own flow must be printed before d.
		own := -1
		for k := fi; k < len(fs); k++ {
			if fs[k] != nil && inlineFlow(d, fs[k]) {
				own = k
				break
			}
		}
		if own > fi {
			out = append(out, decl{flow: fs[fi]})
			fi++
			continue
		}
		out = append(out, decl{dataset: d})
		di++
	}
	return out
}

// inlineFlow reports whether f prints inline with d: it is d's own flow
// (named like d, into d), d takes a query, and f has no flow-only options.
func inlineFlow(d *Dataset, f *Flow) bool {
	if d == nil || f == nil || f.Query == nil || f.Once || f.ByName {
		return false
	}
	switch d.Kind {
	case KindMaterializedView, KindStreamingTable, KindTemporaryView, KindView:
	default:
		return false
	}
	return f.Name == d.Name && f.Target == d.Name
}

func kindKeyword(k DatasetKind) string {
	switch k {
	case KindSource:
		return "source"
	case KindMaterializedView:
		return "materialized view"
	case KindStreamingTable:
		return "streaming table"
	case KindTemporaryView:
		return "temporary view"
	case KindView:
		return "view"
	case KindSink:
		return "sink"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

func printSource(b *strings.Builder, d *Dataset) {
	s := d.Source
	if s == nil {
		s = &SourceSpec{}
	}
	b.WriteString("source ")
	b.WriteString(quoteIdent(d.Name))
	if s.Unbounded {
		b.WriteString(" stream")
	}
	b.WriteString(" from ")
	b.WriteString(fileFormatName(s.Format))
	var inputs []string
	if s.Stdin {
		inputs = append(inputs, "stdin")
	}
	for _, p := range s.Paths {
		inputs = append(inputs, strconv.Quote(p))
	}
	if len(inputs) > 0 {
		b.WriteString(" ")
		b.WriteString(strings.Join(inputs, ", "))
	}
	if len(s.Options) > 0 {
		b.WriteString(" options (")
		b.WriteString(printKVs(s.Options))
		b.WriteString(")")
	}
	if s.Format == FormatIceberg {
		// an Iceberg table's columns are read from its metadata: they go
		// without saying, and so do the braces unless a watermark needs them
		if d.Watermark != nil {
			b.WriteString(" {\n  ")
			b.WriteString(printWatermark(d.Watermark))
			b.WriteString("\n}")
		}
		b.WriteString("\n")
		for _, c := range datasetClauses(d) {
			b.WriteString("  ")
			b.WriteString(c)
			b.WriteString("\n")
		}
		return
	}
	b.WriteString(" {\n")
	if len(d.Columns) > 0 && !(s.Format == FormatKafka && KafkaColumnsDiffer(d.Columns, KafkaIncludeHeaders(s.Options)) == "") {
		// a Kafka source's fixed columns go without saying
		cols := make([]string, len(d.Columns))
		for i, c := range d.Columns {
			cols[i] = printColumn(c)
		}
		one := "  " + strings.Join(cols, ", ")
		if len(one) <= lineWidth {
			b.WriteString(one)
			b.WriteString("\n")
		} else {
			b.WriteString("  ")
			b.WriteString(strings.Join(cols, ",\n  "))
			b.WriteString("\n")
		}
	}
	if d.Watermark != nil {
		b.WriteString("  ")
		b.WriteString(printWatermark(d.Watermark))
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	for _, c := range datasetClauses(d) {
		b.WriteString("  ")
		b.WriteString(c)
		b.WriteString("\n")
	}
}

func printDataset(b *strings.Builder, d *Dataset, f *Flow) {
	b.WriteString(kindKeyword(d.Kind))
	b.WriteString(" ")
	b.WriteString(quoteIdent(d.Name))
	if len(d.Columns) > 0 {
		cols := make([]string, len(d.Columns))
		for i, c := range d.Columns {
			cols[i] = printColumn(c)
		}
		one := " (" + strings.Join(cols, ", ") + ")"
		if b.Len()+len(one)+2 <= lineWidth {
			b.WriteString(one)
		} else {
			b.WriteString(" (\n  ")
			b.WriteString(strings.Join(cols, ",\n  "))
			b.WriteString("\n)")
		}
	}
	clauses := datasetClauses(d)
	if f == nil {
		b.WriteString("\n")
		for _, c := range clauses {
			b.WriteString("  ")
			b.WriteString(c)
			b.WriteString("\n")
		}
		return
	}
	if len(clauses) == 0 {
		b.WriteString(" =\n")
		printQueryBlock(b, "  ", f.Query)
	} else {
		b.WriteString("\n")
		for _, c := range clauses {
			b.WriteString("  ")
			b.WriteString(c)
			b.WriteString("\n")
		}
		printQueryBlock(b, "  = ", f.Query)
	}
	for _, c := range flowClauses(f) {
		b.WriteString("  ")
		b.WriteString(c)
		b.WriteString("\n")
	}
}

func printFlowDecl(b *strings.Builder, f *Flow) {
	b.WriteString("flow ")
	b.WriteString(quoteIdent(f.Name))
	b.WriteString(" into ")
	b.WriteString(quoteIdent(f.Target))
	if f.Once {
		b.WriteString(" once")
	}
	if f.ByName {
		b.WriteString(" by name")
	}
	if f.Query != nil {
		b.WriteString(" =\n")
		printQueryBlock(b, "  ", f.Query)
	} else {
		b.WriteString("\n")
	}
	for _, c := range flowClauses(f) {
		b.WriteString("  ")
		b.WriteString(c)
		b.WriteString("\n")
	}
}

// printQueryBlock writes a query one stage per line: first+"from ITEM", then
// "  | STAGE" lines.
func printQueryBlock(b *strings.Builder, first string, r Rel) {
	from, stages := chain(r)
	b.WriteString(first)
	b.WriteString("from ")
	b.WriteString(from)
	b.WriteString("\n")
	for _, s := range stages {
		b.WriteString("  | ")
		b.WriteString(s)
		b.WriteString("\n")
	}
}

func datasetClauses(d *Dataset) []string {
	var out []string
	if d.ID != "" {
		out = append(out, "id "+strconv.Quote(d.ID))
	}
	if d.Comment != "" {
		out = append(out, "comment "+strconv.Quote(d.Comment))
	}
	if d.Catalog != "" {
		out = append(out, "catalog "+quoteIdent(d.Catalog))
	}
	if d.Database != "" {
		out = append(out, "database "+quoteIdent(d.Database))
	}
	for _, kv := range d.Conf {
		out = append(out, "set "+printKV(kv))
	}
	if d.Format != "" {
		out = append(out, "format "+quoteIdent(d.Format))
	}
	if len(d.PartitionBy) > 0 {
		out = append(out, "partitioned by ("+identList(d.PartitionBy)+")")
	}
	if len(d.ClusterBy) > 0 {
		out = append(out, "cluster by ("+identList(d.ClusterBy)+")")
	}
	if len(d.Properties) > 0 {
		out = append(out, "properties ("+printKVs(d.Properties)+")")
	}
	if len(d.SinkOptions) > 0 {
		out = append(out, "options ("+printKVs(d.SinkOptions)+")")
	}
	if d.Source != nil && d.Source.Quarantine != nil {
		out = append(out, "quarantine table "+quoteIdent(d.Source.Quarantine.Table))
	}
	switch d.Materialize {
	case MatFull:
		out = append(out, "materialize full")
	case MatIncremental:
		out = append(out, "materialize incremental")
	}
	for _, e := range d.Expectations {
		if e == nil {
			continue
		}
		s := "expect " + quoteIdent(e.Name) + ": " + printExpr(e.Cond, 0)
		switch e.Action {
		case ActDrop:
			s += " on violation drop"
		case ActFail:
			s += " on violation fail"
		}
		out = append(out, s)
	}
	return out
}

func flowClauses(f *Flow) []string {
	var out []string
	if f.Comment != "" {
		out = append(out, "comment "+strconv.Quote(f.Comment))
	}
	for _, kv := range f.Conf {
		out = append(out, "set "+printKV(kv))
	}
	if c := f.CDC; c != nil {
		// The first line names the keys and the sequence; each option
		// follows on its own line, indented under it.
		var b strings.Builder
		b.WriteString("apply changes keys (")
		b.WriteString(identList(c.Keys))
		b.WriteString(") sequence by ")
		b.WriteString(printExpr(c.SequenceBy, 0))
		opt := func(s string) { b.WriteString("\n    " + s) }
		if c.DeleteWhen != nil {
			opt("delete when " + printExpr(c.DeleteWhen, 0))
		}
		if c.IgnoreNullUpdates {
			opt("ignore null updates")
		}
		if len(c.Columns) > 0 {
			opt("columns (" + identList(c.Columns) + ")")
		} else if len(c.ExceptColumns) > 0 {
			opt("columns * except (" + identList(c.ExceptColumns) + ")")
		}
		opt(fmt.Sprintf("scd type %d", c.SCDType))
		if len(c.TrackHistory) > 0 {
			opt("track history on (" + identList(c.TrackHistory) + ")")
		} else if len(c.TrackHistoryExcept) > 0 {
			opt("track history on * except (" + identList(c.TrackHistoryExcept) + ")")
		}
		out = append(out, b.String())
	}
	if t := f.Trigger; t != nil {
		if t.Kind == TriggerAvailableNow {
			out = append(out, "trigger available now")
		} else {
			out = append(out, "trigger every "+t.Interval.String())
		}
	}
	switch f.OutputMode {
	case OutputAppend:
		out = append(out, "output mode append")
	case OutputUpdate:
		out = append(out, "output mode update")
	case OutputComplete:
		out = append(out, "output mode complete")
	}
	switch f.Emit {
	case EmitOnWindowClose:
		out = append(out, "emit on window close")
	case EmitOnUpdate:
		out = append(out, "emit on update")
	}
	if f.LateTable != "" {
		out = append(out, "late table "+quoteIdent(f.LateTable))
	}
	return out
}

func fileFormatName(f FileFormat) string {
	if f >= 0 && int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("format%d", int(f))
}

func printColumn(c *Column) string {
	if c == nil {
		return "``"
	}
	s := quoteIdent(c.Name) + " " + c.Type.String()
	if c.NotNull {
		s += " not null"
	}
	if c.Comment != "" {
		s += " comment " + strconv.Quote(c.Comment)
	}
	return s
}

func printWatermark(w *Watermark) string {
	s := "watermark " + quoteIdent(w.Column) + " delay " + w.Delay.String()
	if w.AllowedLateness != 0 {
		s += " allowed lateness " + w.AllowedLateness.String()
	}
	if w.IdleTimeout != 0 {
		s += " idle timeout " + w.IdleTimeout.String()
	}
	return s
}

func printKV(kv KV) string { return strconv.Quote(kv.Key) + " = " + strconv.Quote(kv.Value) }

func printKVs(kvs []KV) string {
	parts := make([]string, len(kvs))
	for i, kv := range kvs {
		parts[i] = printKV(kv)
	}
	return strings.Join(parts, ", ")
}

func identList(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = quoteIdent(n)
	}
	return strings.Join(parts, ", ")
}

// isPlainIdent reports [A-Za-z_][A-Za-z0-9_]*.
func isPlainIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// quoteIdent spells one identifier: bare when it is a plain identifier and not
// a reserved word, else back-quoted with inner back-quotes doubled.
func quoteIdent(s string) string {
	if isPlainIdent(s) && !reservedSet[lower(s)] {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// quoteQualified spells a dotted name (catalog.db.table, t.c's qualifier)
// part by part.
func quoteQualified(s string) string {
	parts := strings.Split(s, ".")
	for i, p := range parts {
		parts[i] = quoteIdent(p)
	}
	return strings.Join(parts, ".")
}

// quoteSQL spells an expression string literal: single quotes, a quote inside doubled.
func quoteSQL(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// --- queries

// chain splits a query into its FROM item and its stages, leaves first.
func chain(r Rel) (string, []string) {
	switch r := r.(type) {
	case *Scan, *Range, *SubqueryRel:
		return fromItem(r), nil
	case *Filter:
		from, st := chain(r.Input)
		return from, append(st, "where "+printExpr(r.Cond, 0))
	case *Project:
		from, st := chain(r.Input)
		return from, append(st, "select "+namedList(r.Items))
	case *Aggregate:
		from, st := chain(r.Input)
		var s string
		if len(r.Keys) > 0 {
			s = "group by " + namedList(r.Keys)
			if r.Sets != nil { // grouping sets: each key by its expression
				s += " grouping sets (" + groupingSets(r) + ")"
			}
			if len(r.Aggs) > 0 {
				s += " aggregate " + namedList(r.Aggs)
			}
		} else {
			s = "aggregate " + namedList(r.Aggs)
		}
		return from, append(st, s)
	case *Join:
		from, st := chain(r.Left)
		s := "join " + fromItem(r.Right)
		if r.Kind != JoinInner {
			s = joinKeyword(r.Kind) + " " + s
		}
		if r.On != nil {
			s += " on " + printExpr(r.On, 0)
		} else if len(r.Using) > 0 {
			s += " using (" + identList(r.Using) + ")"
		}
		return from, append(st, s)
	case *Window:
		from, st := chain(r.Input)
		var s string
		switch r.Kind {
		case WindowHop:
			s = fmt.Sprintf("window hop(%s, %s, %s)", printExpr(r.Time, 0), r.Size, r.Slide)
		case WindowSession:
			s = fmt.Sprintf("window session(%s, %s)", printExpr(r.Time, 0), r.Gap)
		default:
			s = fmt.Sprintf("window tumble(%s, %s)", printExpr(r.Time, 0), r.Size)
		}
		return from, append(st, s)
	case *Union:
		if len(r.Inputs) == 0 {
			return "()", nil
		}
		var from string
		var st []string
		// A first input that is itself a union of the same kind would
		// flatten into this one when parsed back: keep it in parentheses.
		if u, ok := r.Inputs[0].(*Union); ok && u.All == r.All {
			from = "(" + inlineQuery(u) + ")"
		} else {
			from, st = chain(r.Inputs[0])
		}
		kw := "union "
		if r.All {
			kw = "union all "
		}
		for _, in := range r.Inputs[1:] {
			st = append(st, kw+fromItem(in))
		}
		return from, st
	case *SetOp:
		from, st := chain(r.Left)
		kw := r.Kind.String() + " "
		if r.All {
			kw += "all "
		}
		return from, append(st, kw+fromItem(r.Right))
	case *Distinct:
		from, st := chain(r.Input)
		kw := "distinct"
		// dedup within the watermark
		if len(r.Keys) > 0 {
			kw += " on (" + identList(r.Keys) + ")"
		}
		if r.WithinWatermark {
			kw += " within watermark"
		}
		return from, append(st, kw)
	case *Sort:
		from, st := chain(r.Input)
		keys := make([]string, len(r.Keys))
		for i, k := range r.Keys {
			keys[i] = printSortKey(k)
		}
		return from, append(st, "order by "+strings.Join(keys, ", "))
	case *Generate: // generators, LATERAL VIEW
		from, st := chain(r.Input)
		return from, append(st, lateralView(r))
	case *Limit:
		from, st := chain(r.Input)
		s := fmt.Sprintf("limit %d", r.N)
		if r.Offset != 0 {
			s += fmt.Sprintf(" offset %d", r.Offset)
		}
		return from, append(st, s)
	}
	return "()", nil
}

func joinKeyword(k JoinKind) string {
	if k >= 0 && int(k) < len(joinNames) {
		return joinNames[k]
	}
	return fmt.Sprintf("join%d", int(k))
}

func printSortKey(k *SortKey) string {
	if k == nil {
		return "()"
	}
	s := printExpr(k.Expr, 0)
	if k.Desc {
		s += " desc"
	}
	if k.NullsFirst != nil {
		if *k.NullsFirst {
			s += " nulls first"
		} else {
			s += " nulls last"
		}
	}
	return s
}

// fromItem spells r where a FROM item is expected: a scan, range(...), an
// aliased subquery, or any other query in parentheses.
func fromItem(r Rel) string {
	switch r := r.(type) {
	case *Scan:
		var b strings.Builder
		if r.Stream {
			b.WriteString("stream ")
		}
		b.WriteString(quoteQualified(r.Name))
		if r.Alias != "" {
			b.WriteString(" as ")
			b.WriteString(quoteIdent(r.Alias))
		}
		if r.Watermark != nil {
			b.WriteString(" ")
			b.WriteString(printWatermark(r.Watermark))
		}
		if bd := r.Bounds; bd != nil {
			if bd.Rows != 0 || bd.Bytes == 0 {
				fmt.Fprintf(&b, " bound %d rows", bd.Rows)
			}
			if bd.Bytes != 0 {
				fmt.Fprintf(&b, " bound %s bytes", printSize(bd.Bytes))
			}
		}
		return b.String()
	case *Range:
		return printRange(r)
	case *SubqueryRel:
		if r.Alias == "" {
			return "(" + inlineQuery(r.Input) + ")"
		}
		if rg, ok := r.Input.(*Range); ok {
			return printRange(rg) + " as " + quoteIdent(r.Alias)
		}
		return "(" + inlineQuery(r.Input) + ") as " + quoteIdent(r.Alias)
	}
	return "(" + inlineQuery(r) + ")"
}

func printRange(r *Range) string {
	if r.Step != 0 {
		return fmt.Sprintf("range(%d, %d, %d)", r.Start, r.End, r.Step)
	}
	return fmt.Sprintf("range(%d, %d)", r.Start, r.End)
}

// printSize spells a byte count, with the largest KB/MB/GB suffix that is exact.
func printSize(n int64) string {
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}} {
		if n != 0 && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// inlineQuery spells a query on one line: from ITEM | STAGE | STAGE.
func inlineQuery(r Rel) string {
	from, stages := chain(r)
	s := "from " + from
	for _, st := range stages {
		s += " | " + st
	}
	return s
}

func namedList(items []*NamedExpr) string {
	parts := make([]string, len(items))
	for i, it := range items {
		if it == nil {
			parts[i] = "()"
			continue
		}
		parts[i] = printExpr(it.Expr, 0)
		if it.Alias != "" {
			parts[i] += " as " + quoteIdent(it.Alias)
		}
	}
	return strings.Join(parts, ", ")
}

// --- expressions

// ExprStyle says how FormatExpr spells an expression: the one expression
// printer serves the canonical text, the names of unaliased columns and the
// quotes in diagnostics, in DSL and in Spark SQL terms.
type ExprStyle int

const (
	// DSL is the canonical .thund text that Print writes: names back-quoted
	// where they must be, parentheses only where precedence needs them,
	// subqueries in full. It parses back to an equal expression.
	DSL ExprStyle = iota
	// Label is the short DSL text that names an unaliased output column of a
	// .thund query (sum(price), (a + b) * c) and quotes an expression in a
	// diagnostic: names as written, each operand of an operator that is
	// itself an operator in parentheses, a subquery as (subquery).
	Label
	// SparkName is the name Spark gives an unaliased column of a SQL query
	// (toPrettySQL): sum(x), count(1), (a + b), CAST(x AS INT). Keywords are
	// upper case, types are Spark's (Type.SQL), every operator is in
	// parentheses, a column has no qualifier and a string literal is its
	// bare value.
	SparkName
)

// FormatExpr spells e in style s.
func FormatExpr(e Expr, s ExprStyle) string { return exprPrinter{s}.sub(e, 0) }

// Expression precedence levels, loosest first (docs/dsl.md).
const (
	precOr = iota + 1
	precAnd
	precNot
	precCmp
	precBitOr
	precBitXor
	precBitAnd
	precShift
	precConcat
	precAdd
	precMul
	precNeg
	precPrimary
)

func binaryPrec(op BinaryOp) int {
	switch {
	case op == OpOr:
		return precOr
	case op == OpAnd:
		return precAnd
	case op.IsComparison():
		return precCmp
	case op == OpBitOr:
		return precBitOr
	case op == OpBitXor:
		return precBitXor
	case op == OpBitAnd:
		return precBitAnd
	case op.IsShift():
		return precShift
	case op == OpConcat:
		return precConcat
	case op == OpAdd || op == OpSub:
		return precAdd
	}
	return precMul
}

func exprPrec(e Expr) int {
	switch e := e.(type) {
	case *Binary:
		return binaryPrec(e.Op)
	case *Unary:
		if e.Op == OpNot {
			return precNot
		}
		return precNeg
	case *IsNull, *In, *InSubquery, *Between, *Like:
		return precCmp
	case *Exists: // correlated subqueries
		if e.Not {
			return precNot
		}
	}
	return precPrimary
}

// isBitOr reports a | b, which the DSL spells in parentheses of its own.
func isBitOr(e Expr) bool {
	b, ok := e.(*Binary)
	return ok && b.Op == OpBitOr
}

// printExpr spells e as DSL text, in parentheses when it binds looser than min.
func printExpr(e Expr, min int) string { return exprPrinter{DSL}.sub(e, min) }

// exprPrinter spells expressions in one style.
type exprPrinter struct{ style ExprStyle }

// sub spells an operand. min is the loosest precedence the operand's place
// takes without parentheses; 0 means a place that needs none (an argument,
// a list item, a whole expression). DSL parenthesizes by precedence, Label
// every operator in an operator's place, and SparkName parenthesizes every
// operator where it is spelled.
func (p exprPrinter) sub(e Expr, min int) string {
	s := p.text(e)
	switch p.style {
	case DSL:
		if exprPrec(e) < min && !isBitOr(e) { // a | b is always in its parentheses
			return "(" + s + ")"
		}
	case Label:
		if _, ok := e.(*Binary); ok && min > 0 {
			return "(" + s + ")"
		}
	}
	return s
}

// kw spells a keyword: lower case in the DSL, upper case in Spark's names.
func (p exprPrinter) kw(s string) string {
	if p.style == SparkName {
		return strings.ToUpper(s)
	}
	return s
}

// not is NOT with its space when neg, else "".
func (p exprPrinter) not(neg bool) string {
	if neg {
		return p.kw("not ")
	}
	return ""
}

// ident spells a name: back-quoted where the canonical text needs it.
func (p exprPrinter) ident(s string) string {
	if p.style == DSL {
		return quoteIdent(s)
	}
	return s
}

// qualified spells a qualifier (t, db.t).
func (p exprPrinter) qualified(s string) string {
	if p.style == DSL {
		return quoteQualified(s)
	}
	return s
}

// list spells expressions separated by commas.
func (p exprPrinter) list(xs []Expr) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = p.sub(x, 0)
	}
	return strings.Join(parts, ", ")
}

// negated wraps a SparkName predicate that NOT negates: (NOT s).
func (p exprPrinter) negated(neg bool, s string) string {
	if neg {
		return "(NOT " + s + ")"
	}
	return s
}

// query spells a subquery, in full only in the DSL.
func (p exprPrinter) query(r Rel) string {
	switch p.style {
	case DSL:
		return inlineQuery(r)
	case SparkName:
		return "listquery()"
	}
	return "subquery"
}

func (p exprPrinter) text(e Expr) string {
	spark := p.style == SparkName
	switch e := e.(type) {
	case *Literal:
		return p.literal(e)
	case *ColumnRef:
		if e.Qualifier != "" && !spark {
			return p.qualified(e.Qualifier) + "." + p.ident(e.Name)
		}
		return p.ident(e.Name)
	case *Star:
		s := "*"
		if e.Qualifier != "" {
			s = p.qualified(e.Qualifier) + ".*"
		}
		if len(e.Except) > 0 && !spark {
			parts := make([]string, len(e.Except))
			for i, n := range e.Except {
				parts[i] = p.ident(n)
			}
			s += " except (" + strings.Join(parts, ", ") + ")"
		}
		return s
	case *Unary:
		switch {
		case e.Op == OpBitNot:
			return "~" + p.sub(e.X, precNeg) // Spark's name too: ~a, ~(a & b)
		case spark && e.Op == OpNot:
			return "(NOT " + p.sub(e.X, precNot) + ")"
		case spark:
			return "(- " + p.sub(e.X, precNeg) + ")"
		case e.Op == OpNot:
			return "not " + p.sub(e.X, precNot)
		}
		x := p.sub(e.X, precNeg)
		if p.style == DSL && strings.HasPrefix(x, "-") { // "--" would start a comment
			x = "(" + x + ")"
		}
		return "-" + x
	case *Binary:
		prec := binaryPrec(e.Op)
		op := "?"
		if e.Op >= 0 && int(e.Op) < len(binaryNames) {
			op = binaryNames[e.Op]
		}
		l, r := p.sub(e.L, prec), p.sub(e.R, prec+1)
		switch {
		case spark && e.Op == OpConcat:
			return "concat(" + l + ", " + r + ")"
		case spark:
			return "(" + l + " " + strings.ToUpper(op) + " " + r + ")"
		case p.style == DSL && e.Op == OpBitOr:
			// the DSL reads | as bitwise OR only inside parentheses
			// (elsewhere it is the pipe between stages)
			return "(" + l + " " + op + " " + r + ")"
		}
		return l + " " + op + " " + r
	case *IsNull:
		s := p.sub(e.X, precCmp) + p.kw(" is ") + p.not(e.Not) + p.kw("null")
		if spark {
			return "(" + s + ")"
		}
		return s
	case *In:
		x, list := p.sub(e.X, precCmp), p.list(e.List)
		if spark {
			return p.negated(e.Not, "("+x+" IN ("+list+"))")
		}
		return x + " " + p.not(e.Not) + "in (" + list + ")"
	case *InSubquery:
		if spark {
			// Spark's name does not show NOT (toPrettySQL of a ListQuery)
			return "(" + p.sub(e.X, precCmp) + " IN (" + p.query(e.Query) + "))"
		}
		return p.sub(e.X, precCmp) + " " + p.not(e.Not) + "in (" + p.query(e.Query) + ")"
	case *Between:
		x, lo, hi := p.sub(e.X, precCmp), p.sub(e.Lo, precConcat), p.sub(e.Hi, precConcat)
		if spark {
			return p.negated(e.Not, "("+x+" BETWEEN "+lo+" AND "+hi+")")
		}
		return x + " " + p.not(e.Not) + "between " + lo + " and " + hi
	case *Like:
		x, pat := p.sub(e.X, precCmp), p.sub(e.Pattern, precConcat)
		if spark {
			return p.negated(e.Not, x+" LIKE "+pat)
		}
		return x + " " + p.not(e.Not) + "like " + pat
	case *Case:
		var b strings.Builder
		b.WriteString(p.kw("case"))
		if e.Operand != nil {
			b.WriteString(" ")
			b.WriteString(p.sub(e.Operand, precOr))
		}
		for _, w := range e.Whens {
			if w == nil {
				continue
			}
			b.WriteString(p.kw(" when "))
			b.WriteString(p.sub(w.Cond, 0))
			b.WriteString(p.kw(" then "))
			b.WriteString(p.sub(w.Then, 0))
		}
		if e.Else != nil {
			b.WriteString(p.kw(" else "))
			b.WriteString(p.sub(e.Else, 0))
		}
		b.WriteString(p.kw(" end"))
		return b.String()
	case *Cast:
		kw, to := "cast", e.To.String()
		if e.Try {
			kw = "try_cast"
		}
		if spark {
			to = e.To.SQL()
		}
		return p.kw(kw) + "(" + p.sub(e.X, 0) + p.kw(" as ") + to + ")"
	case *Call:
		if e.Filter != nil { // aggregate FILTER (WHERE ...)
			plain := *e
			plain.Filter = nil
			return p.text(&plain) + p.kw(" filter (where ") + p.sub(e.Filter, 0) + ")"
		}
		name := p.ident(e.Name)
		switch {
		case e.Star && spark:
			return name + "(1)"
		case e.Star:
			return name + "(*)"
		case e.Distinct:
			return name + "(" + p.kw("distinct ") + p.list(e.Args) + ")"
		case e.IgnoreNulls:
			return name + "(" + p.list(e.Args) + ")" + p.kw(" ignore nulls")
		}
		if spark && strings.EqualFold(e.Name, "split") && len(e.Args) == 2 {
			return name + "(" + p.list(e.Args) + ", -1)" // Spark names split's default limit (nested_expr.go)
		}
		return name + "(" + p.list(e.Args) + ")"
	case *Over:
		return p.over(e)
	case *GetField, *Subscript:
		return p.nested(e) // nested_expr.go
	case *Lambda, *LambdaVar:
		return p.lambda(e) // lambda.go
	case *ScalarSubquery:
		if spark {
			return "scalarsubquery()"
		}
		return "(" + p.query(e.Query) + ")"
	case *Exists: // correlated subqueries
		if spark {
			// Spark's name of an EXISTS (toPrettySQL of Exists)
			return p.negated(e.Not, "exists()")
		}
		return p.not(e.Not) + p.kw("exists") + " (" + p.query(e.Query) + ")"
	}
	if p.style == DSL {
		return "()"
	}
	return "?"
}

func (p exprPrinter) literal(l *Literal) string {
	spark := p.style == SparkName
	switch l.Kind {
	case LitNull:
		return p.kw("null")
	case LitBool:
		return lower(l.Text)
	case LitString:
		if spark {
			return l.Text
		}
		return quoteSQL(l.Text)
	case LitTimestamp:
		return p.kw("timestamp ") + quoteSQL(l.Text)
	case LitDate:
		return p.kw("date ") + quoteSQL(l.Text)
	case LitInterval:
		if spark {
			return "INTERVAL " + quoteSQL(l.Text)
		}
	case LitFloat:
		if spark {
			return strings.TrimSuffix(strings.TrimSuffix(l.Text, "e0"), "E0")
		}
	}
	return l.Text
}

// over spells a window function: f(args) over (partition by ... order by
// ... frame), in the style's case.
func (p exprPrinter) over(e *Over) string {
	if p.style == SparkName {
		return p.sparkOver(e) // over_print.go
	}
	var spec []string
	if len(e.Partition) > 0 {
		spec = append(spec, p.kw("partition by ")+p.list(e.Partition))
	}
	if len(e.Order) > 0 {
		keys := make([]string, len(e.Order))
		for i, k := range e.Order {
			keys[i] = p.sub(k.Expr, 0)
			if k.Desc {
				keys[i] += p.kw(" desc")
			}
			if k.NullsFirst != nil || p.style == SparkName {
				if k.EffectiveNullsFirst() {
					keys[i] += p.kw(" nulls first")
				} else {
					keys[i] += p.kw(" nulls last")
				}
			}
		}
		spec = append(spec, p.kw("order by ")+strings.Join(keys, ", "))
	}
	if f := e.Frame; f != nil {
		spec = append(spec, p.kw(f.Kind.String()+" between ")+p.bound(f.Start)+p.kw(" and ")+p.bound(f.End))
	}
	fn := "()"
	if e.Func != nil {
		fn = p.text(e.Func)
	}
	return fn + p.kw(" over ") + "(" + strings.Join(spec, " ") + ")"
}

func (p exprPrinter) bound(b FrameBound) string {
	switch b.Kind {
	case Preceding, Following:
		off := "()"
		if b.Offset != nil {
			off = p.sub(b.Offset, 0)
		}
		return off + " " + p.kw(b.Kind.String())
	}
	return p.kw(b.Kind.String())
}
