package sparkemit

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
	pb "github.com/nordisk/thund/sparkemit/connectpb"
)

// lowerer lowers one flow's query to a Spark Connect relation tree.
type lowerer struct {
	e      *emitter
	flow   *ir.Flow
	inputs map[*ir.Scan]passes.Input
	failed bool
	// refs are the relations of the subquery expressions lowered so far
	// in the query being lowered (not those inside their bodies), each
	// with its plan id: withRelations carries them beside the query.
	refs []*pb.Relation
	// safe are the IN subqueries in a filter's safe positions (filterSafe).
	safe map[*ir.InSubquery]bool
	// groupingKeys lowers the arguments of grouping() and grouping_id()
	// in an aggregate with grouping sets (groupingsets.go); nil elsewhere.
	groupingKeys func(ir.Expr) *pb.Expression
	// dedupDirect: a stream read of a source under a distinct within
	// watermark reads the source's files directly, with the watermark
	// (dedup.go)
	dedupDirect bool
}

// refuse records a construct of the flow the lowering cannot express.
func (l *lowerer) refuse(pos ir.Pos, feature, reason string) {
	l.failed = true
	if !pos.IsValid() {
		pos = l.flow.Pos
	}
	l.e.refuse(pos, l.flow.Name, l.flow.Target, feature, reason)
}

// windowColumn is the struct column window() / session_window() fill
// before window_start and window_end are taken out of it.
const windowColumn = "__thund_window"

// flowQuery lowers a flow's query. A flow that inserts by position (not by
// name) into a dataset whose column names differ gets a final projection
// renaming its columns, since Spark matches a flow's columns by name. A
// column whose Spark type is not the one its dataset declares is cast to
// it there (the store assignment the native backend does as it writes):
// Spark requires a flow's schema to equal a declared one, even where it
// only widens (USER_SPECIFIED_AND_INFERRED_SCHEMA_NOT_COMPATIBLE on 4.1.4
// and 4.2.1, for the whole run); under ANSI the cast fails where the store
// assignment does (CAST_OVERFLOW).
func (l *lowerer) flowQuery(f *ir.Flow, d *ir.Dataset) *pb.Relation {
	u := l.e.u
	fi := u.Flows[f]
	l.inputs = map[*ir.Scan]passes.Input{}
	if fi != nil {
		for _, in := range fi.Inputs {
			if in.Scan != nil {
				l.inputs[in.Scan] = in
			}
		}
	}
	rel := l.rel(f.Query)
	if l.failed {
		return nil
	}
	if d == nil || fi == nil {
		return rel
	}
	target, out := u.Datasets[d].Visible(), fi.Output.Visible()
	if target.IsOpen() || out.IsOpen() {
		return rel
	}
	// the target column each output column is stored in, or -1: the
	// plan's store assignment, read backwards
	into := make([]int, len(out))
	for i := range into {
		into[i] = -1
	}
	if fp := u.Plan.Flows[f]; fp != nil {
		for j, sc := range fp.Store {
			if sc.Source >= 0 && sc.Source < len(into) && into[sc.Source] < 0 {
				into[sc.Source] = j
			}
		}
	}
	changed := false
	exprs := make([]*pb.Expression, len(out))
	for i, c := range out {
		x := attr(l.qualified(c.Qualifier, c.Name))
		j := into[i]
		if j < 0 {
			exprs[i] = x
			continue
		}
		name := c.Name
		if !f.ByName && !strings.EqualFold(c.Name, target[j].Name) {
			name, changed = target[j].Name, true
		}
		if len(d.Columns) > 0 {
			from, _ := sparkType(c.Type)
			to, ok := sparkType(target[j].Type)
			if ok && from != to {
				x = &pb.Expression{ExprType: &pb.Expression_Cast_{Cast: &pb.Expression_Cast{Expr: x, CastToType: &pb.Expression_Cast_TypeStr{TypeStr: to}}}}
				l.e.note(f.Pos, f.Name, d.Name, "column "+target[j].Name, passes.ActionConverted,
					fmt.Sprintf("is cast from %s to its declared %s in the flow (store assignment): Spark requires a flow's schema to equal the declared one", from, to))
				changed = true
			}
		}
		if x.GetUnresolvedAttribute() == nil || name != c.Name {
			x = alias(x, name)
		}
		exprs[i] = x
	}
	if changed {
		rel = project(rel, exprs)
	}
	return rel
}

// partitionsLast moves a partitioned table's partition columns to the end
// of its flow's output, in PARTITIONED BY order, as Spark keeps them in a
// partitioned table's schema: a 4.1 pipeline server that creates the table
// with them elsewhere then fails to read its own metadata
// (INTERNAL_ERROR "Corrupted table metadata detected"). The lowering report
// says so when the order changes.
func (l *lowerer) partitionsLast(d *ir.Dataset, rel *pb.Relation) *pb.Relation {
	if d == nil || len(d.PartitionBy) == 0 || (d.Kind != ir.KindMaterializedView && d.Kind != ir.KindStreamingTable) {
		return rel
	}
	fields, moved := partitionsLastOrder(d.PartitionBy, l.e.u.Datasets[d].Visible(), func(f passes.Field) string { return f.Name })
	if !moved {
		return rel
	}
	exprs := make([]*pb.Expression, len(fields))
	names := make([]string, len(fields))
	for i, f := range fields {
		exprs[i], names[i] = attr(quoteIdent(f.Name)), f.Name
	}
	l.e.note(d.Pos, l.flow.Name, d.Name, "partition columns", passes.ActionConverted,
		fmt.Sprintf("are moved to the end of the table's columns (%s), where Spark keeps a partitioned table's partition columns", strings.Join(names, ", ")))
	return project(rel, exprs)
}

// partitionsLastOrder is items (a table's columns, by name) with the
// partition columns part moved last, in PARTITIONED BY order; moved is
// false when they are last already, or when one of them is not among the
// items (then items come back as they are).
func partitionsLastOrder[T any](part []string, items []T, name func(T) string) (out []T, moved bool) {
	var rest, parts []T
	for _, it := range items {
		if !slices.ContainsFunc(part, func(p string) bool { return strings.EqualFold(p, name(it)) }) {
			rest = append(rest, it)
		}
	}
	for _, p := range part {
		for _, it := range items {
			if strings.EqualFold(name(it), p) {
				parts = append(parts, it)
			}
		}
	}
	out = append(rest, parts...)
	if len(out) != len(items) {
		return items, false
	}
	for i := range items {
		if name(items[i]) != name(out[i]) {
			return out, true
		}
	}
	return items, false
}

// expectFilter wraps a flow's relation in a filter on each drop expectation
// of its target when the unit lowers them to filters (--expectations
// filter): a row is kept when every condition is TRUE, as natively, where
// FALSE and NULL are violations. Nil when a condition failed to lower.
func (l *lowerer) expectFilter(d *ir.Dataset, rel *pb.Relation) *pb.Relation {
	if d == nil || l.e.u.Opts.Expectations != passes.ExpectFilter {
		return rel
	}
	var cond *pb.Expression
	for _, x := range d.Expectations {
		if x.Action != ir.ActDrop {
			continue
		}
		c := l.cond(x.Cond)
		if cond == nil {
			cond = c
		} else {
			cond = call("and", cond, c)
		}
	}
	if l.failed {
		return nil
	}
	if cond == nil {
		return rel
	}
	return &pb.Relation{RelType: &pb.Relation_Filter{Filter: &pb.Filter{Input: rel, Condition: cond}}}
}

func project(in *pb.Relation, exprs []*pb.Expression) *pb.Relation {
	return &pb.Relation{RelType: &pb.Relation_Project{Project: &pb.Project{Input: in, Expressions: exprs}}}
}

func subqueryAlias(in *pb.Relation, name string) *pb.Relation {
	return &pb.Relation{RelType: &pb.Relation_SubqueryAlias{SubqueryAlias: &pb.SubqueryAlias{Input: in, Alias: name}}}
}

// rel lowers one operator and its inputs.
func (l *lowerer) rel(r ir.Rel) *pb.Relation {
	u := l.e.u
	switch n := r.(type) {
	case *ir.Scan:
		return l.scan(n)
	case *ir.Range:
		step := n.Step
		if step == 0 {
			step = 1
		}
		return &pb.Relation{RelType: &pb.Relation_Range{Range: &pb.Range{Start: proto.Int64(n.Start), End: n.End, Step: step}}}
	case *ir.SubqueryRel:
		return subqueryAlias(l.rel(n.Input), n.Alias)
	case *ir.Filter:
		return &pb.Relation{RelType: &pb.Relation_Filter{Filter: &pb.Filter{Input: l.rel(n.Input), Condition: l.cond(n.Cond)}}}
	case *ir.Project:
		if l.streamWindows(n) { // window functions (window.go)
			return nil
		}
		return project(l.rel(n.Input), l.projection(n))
	case *ir.Aggregate:
		// stream: distinct aggregates over a stream (sparkemit/stream.go)
		if !l.streamDistinctAgg(n) {
			return nil
		}
		if n.Sets != nil { // setgroup: groupingsets.go
			return l.groupingSetsAggregate(n)
		}
		if r := l.windowedAggregate(n); r != nil {
			return r
		}
		out := u.Schemas[n]
		agg := &pb.Aggregate{Input: l.rel(n.Input), GroupType: pb.Aggregate_GROUP_TYPE_GROUPBY}
		for i, k := range n.Keys {
			agg.GroupingExpressions = append(agg.GroupingExpressions, l.named(k, fieldName(out, i)))
		}
		for i, a := range n.Aggs {
			agg.AggregateExpressions = append(agg.AggregateExpressions, l.named(a, fieldName(out, len(n.Keys)+i)))
		}
		return &pb.Relation{RelType: &pb.Relation_Aggregate{Aggregate: agg}}
	case *ir.Join:
		j := &pb.Join{Left: l.rel(n.Left), Right: l.rel(n.Right), JoinType: joinType(n.Kind), UsingColumns: n.Using}
		if n.On != nil {
			j.JoinCondition = l.expr(n.On)
		}
		return &pb.Relation{RelType: &pb.Relation_Join{Join: j}}
	case *ir.Window:
		return l.window(n)
	case *ir.Union:
		if len(n.Inputs) == 0 {
			l.refuse(n.Pos, "an empty union", "")
			return nil
		}
		acc := l.rel(n.Inputs[0])
		for _, in := range n.Inputs[1:] {
			acc = &pb.Relation{RelType: &pb.Relation_SetOp{SetOp: &pb.SetOperation{
				LeftInput:  acc,
				RightInput: l.rel(in),
				SetOpType:  pb.SetOperation_SET_OP_TYPE_UNION,
				IsAll:      proto.Bool(n.All),
			}}}
		}
		return acc
	case *ir.Generate: // generators, LATERAL VIEW (generate.go)
		return l.generate(n)
	case *ir.SetOp: // EXCEPT, INTERSECT: Spark's own Except and Intersect, by position
		typ := pb.SetOperation_SET_OP_TYPE_EXCEPT
		if n.Kind == ir.SetIntersect {
			typ = pb.SetOperation_SET_OP_TYPE_INTERSECT
		}
		return &pb.Relation{RelType: &pb.Relation_SetOp{SetOp: &pb.SetOperation{
			LeftInput:  l.rel(n.Left),
			RightInput: l.rel(n.Right),
			SetOpType:  typ,
			IsAll:      proto.Bool(n.All),
			ByName:     proto.Bool(false),
		}}}
	case *ir.Distinct:
		return l.distinct(n)
	case *ir.Sort:
		s := &pb.Sort{Input: l.rel(n.Input), IsGlobal: proto.Bool(true)}
		for _, k := range n.Keys {
			s.Order = append(s.Order, l.sortOrder(k))
		}
		return &pb.Relation{RelType: &pb.Relation_Sort{Sort: s}}
	case *ir.Limit:
		in := l.rel(n.Input)
		if n.N > math.MaxInt32 || n.Offset > math.MaxInt32 {
			l.refuse(n.Pos, fmt.Sprintf("limit %d offset %d", n.N, n.Offset), "Spark Connect's Limit and Offset are 32-bit")
			return nil
		}
		if n.Offset > 0 {
			in = &pb.Relation{RelType: &pb.Relation_Offset{Offset: &pb.Offset{Input: in, Offset: int32(n.Offset)}}}
		}
		return &pb.Relation{RelType: &pb.Relation_Limit{Limit: &pb.Limit{Input: in, Limit: int32(n.N)}}}
	}
	l.refuse(r.Position(), fmt.Sprintf("operator %T", r), "sparkemit has no lowering for it")
	return nil
}

// scan lowers a read: a named table (is_streaming for a stream read), with
// its effective watermark as WithWatermark (delay plus allowed lateness),
// under its alias.
func (l *lowerer) scan(n *ir.Scan) *pb.Relation {
	e := l.e
	name := n.Name
	d := e.u.Pipeline.LookupDataset(n.Name)
	var rel *pb.Relation
	if d != nil && d.Kind == ir.KindSource && !n.Stream && e.streamSources[d] {
		// The source's temporary view streams, and a streaming view cannot
		// be read as a snapshot: read the files directly.
		ds, ok := e.dataSource(d, false)
		if !ok {
			l.failed = true
			return nil
		}
		rel = subqueryAlias(ds, d.Name)
		e.note(n.Pos, l.flow.Name, l.flow.Target, "snapshot read", passes.ActionConverted,
			fmt.Sprintf("of source %s reads its files directly: its temporary view is a stream, which Spark cannot read as a snapshot", d.Name))
	} else {
		if d != nil {
			name = e.outputName(d)
		}
		rel = &pb.Relation{RelType: &pb.Relation_Read{Read: &pb.Read{
			ReadType:    &pb.Read_NamedTable_{NamedTable: &pb.Read_NamedTable{UnparsedIdentifier: name}},
			IsStreaming: n.Stream,
		}}}
	}
	// A source's own watermark comes with its temporary view; one carried
	// from upstream into a stateless flow does nothing there, and is left
	// out. Any other the capability pass refused (GraphReadWatermarks).
	if in, ok := l.inputs[n]; ok && in.Watermark != nil && n.Stream && (in.WMOrigin == "read" || l.dedupDirect && d != nil && d.Kind == ir.KindSource) {
		if d == nil || d.Kind != ir.KindSource {
			l.refuse(n.Pos, "a watermark on a read of "+n.Name, "Spark's Connect planner resolves withWatermark before the graph's datasets exist")
			return nil
		}
		// The read's own watermark, over a stream of the source's files.
		ds, ok := e.dataSource(d, true)
		if !ok {
			l.failed = true
			return nil
		}
		rel = subqueryAlias(withWatermark(ds, in.Watermark), d.Name)
		e.note(n.Pos, l.flow.Name, l.flow.Target, "watermark", passes.ActionConverted,
			fmt.Sprintf("of this read of source %s reads its files directly: a watermark over a read of its temporary view cannot be declared before the graph's datasets exist", d.Name))
	}
	if n.Alias != "" {
		rel = subqueryAlias(rel, n.Alias)
	}
	return rel
}

// distinct lowers DISTINCT. Over a batch input it is an aggregate grouped
// by every column, which is what Spark's optimizer makes of a Distinct
// (ReplaceDistinctWithAggregate): Spark Connect's planner analyzes a
// Deduplicate's input when the flow is defined, before the graph's datasets
// exist, so a Deduplicate over a read of one of them fails
// (TABLE_OR_VIEW_NOT_FOUND, on 4.1.4 and 4.2.1), while an aggregate is
// analyzed with the graph. Over a stream it must stay a Deduplicate, Spark's
// stateful operator (an aggregate needs an output mode a streaming table
// does not run in), which is refused when its input reads a dataset of the
// graph by name.
func (l *lowerer) distinct(n *ir.Distinct) *pb.Relation {
	if n.WithinWatermark {
		return l.dedupWithinWatermark(n)
	}
	in := l.rel(n.Input)
	if in == nil {
		return nil
	}
	streams := false
	for _, s := range ir.Scans(n.Input) {
		streams = streams || s.Stream
	}
	schema := l.e.u.Schemas[n.Input].Visible()
	if streams || schema.IsOpen() {
		if readsNamedTable(in.ProtoReflect()) {
			l.refuse(n.Pos, "distinct over a stream of a pipeline dataset",
				"Spark Connect analyzes a Deduplicate's input when the flow is defined, before the graph's datasets exist (TABLE_OR_VIEW_NOT_FOUND on 4.1.4 and 4.2.1)")
			return nil
		}
		return &pb.Relation{RelType: &pb.Relation_Deduplicate{Deduplicate: &pb.Deduplicate{Input: in, AllColumnsAsKeys: proto.Bool(true)}}}
	}
	agg := &pb.Aggregate{Input: in, GroupType: pb.Aggregate_GROUP_TYPE_GROUPBY}
	for _, f := range schema {
		agg.GroupingExpressions = append(agg.GroupingExpressions, alias(attr(l.qualified(f.Qualifier, f.Name)), f.Name))
	}
	return &pb.Relation{RelType: &pb.Relation_Aggregate{Aggregate: agg}}
}

// readsNamedTable reports whether a relation tree reads a table by name.
func readsNamedTable(m protoreflect.Message) bool {
	if _, ok := m.Interface().(*pb.Read_NamedTable); ok {
		return true
	}
	found := false
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			for i := 0; i < v.List().Len() && !found; i++ {
				found = readsNamedTable(v.List().Get(i).Message())
			}
		case fd.IsMap():
		case fd.Message() != nil:
			found = readsNamedTable(v.Message())
		}
		return !found
	})
	return found
}

// windowFunc is window(t, size[, slide]) or session_window(t, gap).
func (l *lowerer) windowFunc(n *ir.Window) *pb.Expression {
	t := l.expr(n.Time)
	switch n.Kind {
	case ir.WindowHop:
		return call("window", t, strLit(intervalText(n.Size)), strLit(intervalText(n.Slide)))
	case ir.WindowSession:
		return call("session_window", t, strLit(intervalText(n.Gap)))
	}
	return call("window", t, strLit(intervalText(n.Size)))
}

// windowedAggregate lowers the common shape "window, then group by
// window_start and/or window_end" as Spark's own windowed aggregation:
// group by window(...) (or session_window(...)) itself, so that the
// grouping key is the watermarked window, then take window_start and
// window_end out of it in the aggregate's column order. It returns nil for
// any other shape, which the general lowering handles.
func (l *lowerer) windowedAggregate(n *ir.Aggregate) *pb.Relation {
	w, ok := n.Input.(*ir.Window)
	if !ok {
		return nil
	}
	isWindowCol := func(e ir.Expr) (string, bool) {
		c, ok := e.(*ir.ColumnRef)
		if ok && c.Qualifier == "" && (c.Name == "window_start" || c.Name == "window_end") {
			return c.Name, true
		}
		return "", false
	}
	uses := false
	for _, k := range n.Keys {
		if _, ok := isWindowCol(k.Expr); ok {
			uses = true
		}
	}
	if !uses {
		return nil
	}
	// Every other mention of the window's columns needs the general form.
	mentions := 0
	for _, e := range ir.RelExprs(n) {
		ir.WalkExpr(e, func(e ir.Expr) bool {
			if c, ok := e.(*ir.ColumnRef); ok && (c.Name == "window_start" || c.Name == "window_end") {
				mentions++
			}
			return true
		})
	}
	windowKeys := 0
	for _, k := range n.Keys {
		if _, ok := isWindowCol(k.Expr); ok {
			windowKeys++
		}
	}
	if mentions != windowKeys {
		return nil
	}
	out := l.e.u.Schemas[n]
	agg := &pb.Aggregate{Input: l.rel(w.Input), GroupType: pb.Aggregate_GROUP_TYPE_GROUPBY}
	var cols []*pb.Expression
	for i, k := range n.Keys {
		name := fieldName(out, i)
		if col, ok := isWindowCol(k.Expr); ok {
			field := strings.TrimPrefix(col, "window_")
			cols = append(cols, alias(attr(windowColumn+"."+field), name))
			continue
		}
		agg.GroupingExpressions = append(agg.GroupingExpressions, l.named(k, name))
		cols = append(cols, attr(quoteIdent(name)))
	}
	agg.GroupingExpressions = append(agg.GroupingExpressions, alias(l.windowFunc(w), windowColumn))
	for i, a := range n.Aggs {
		name := fieldName(out, len(n.Keys)+i)
		agg.AggregateExpressions = append(agg.AggregateExpressions, l.named(a, name))
		cols = append(cols, attr(quoteIdent(name)))
	}
	return project(&pb.Relation{RelType: &pb.Relation_Aggregate{Aggregate: agg}}, cols)
}

// window lowers an event-time window: window() (tumble, hop) or
// session_window() into a struct column, then window_start and window_end
// taken out of it beside the input's columns.
func (l *lowerer) window(n *ir.Window) *pb.Relation {
	u := l.e.u
	in := l.rel(n.Input)
	inSchema := u.Schemas[n.Input].Visible()
	if inSchema.IsOpen() {
		l.refuse(n.Pos, "a window over an external table", "its columns are unknown to the compiler, so window_start and window_end cannot be placed beside them")
		return nil
	}
	withStruct := project(in, []*pb.Expression{star(""), alias(l.windowFunc(n), windowColumn)})
	var cols []*pb.Expression
	for _, f := range inSchema {
		cols = append(cols, attr(l.qualified(f.Qualifier, f.Name)))
	}
	cols = append(cols,
		alias(attr(windowColumn+".start"), "window_start"),
		alias(attr(windowColumn+".end"), "window_end"))
	return project(withStruct, cols)
}

// projection lowers a projection's items, one expression per output column
// for a star with a qualifier or an except list (expanded from the resolved
// input), and each item named as the compiler named it.
func (l *lowerer) projection(p *ir.Project) []*pb.Expression {
	u := l.e.u
	out := u.Schemas[p]
	in := u.Schemas[p.Input]
	cols := u.Projections[p]
	var exprs []*pb.Expression
	done := map[int]bool{}
	for i, pc := range cols {
		item := p.Items[pc.Item]
		st, isStar := item.Expr.(*ir.Star)
		if !isStar {
			exprs = append(exprs, l.named(item, fieldName(out, i)))
			continue
		}
		if done[pc.Item] {
			continue
		}
		if st.Qualifier == "" && len(st.Except) == 0 {
			done[pc.Item] = true
			exprs = append(exprs, star(""))
			continue
		}
		if pc.InputIndex < 0 || pc.InputIndex >= len(in) {
			l.refuse(st.Pos, "a star", "internal error: no input column for it")
			return nil
		}
		f := in[pc.InputIndex]
		if f.Open {
			if len(st.Except) > 0 {
				l.refuse(st.Pos, "* except over an external table", "its columns are unknown to the compiler")
				return nil
			}
			done[pc.Item] = true
			exprs = append(exprs, star(st.Qualifier))
			continue
		}
		exprs = append(exprs, attr(l.qualified(f.Qualifier, f.Name)))
	}
	// A star that expanded to no columns still has its item (none).
	return exprs
}

// named lowers a named item, aliased to name unless it is a column of that
// name already.
func (l *lowerer) named(n *ir.NamedExpr, name string) *pb.Expression {
	x := l.expr(n.Expr)
	if c, ok := n.Expr.(*ir.ColumnRef); ok && n.Alias == "" && c.Name == name {
		return x
	}
	if name == "" {
		return x
	}
	return alias(x, name)
}

func fieldName(s passes.Schema, i int) string {
	if i < len(s) {
		return s[i].Name
	}
	return ""
}

func joinType(k ir.JoinKind) pb.Join_JoinType {
	switch k {
	case ir.JoinInner:
		return pb.Join_JOIN_TYPE_INNER
	case ir.JoinLeft:
		return pb.Join_JOIN_TYPE_LEFT_OUTER
	case ir.JoinRight:
		return pb.Join_JOIN_TYPE_RIGHT_OUTER
	case ir.JoinFull:
		return pb.Join_JOIN_TYPE_FULL_OUTER
	case ir.JoinSemi:
		return pb.Join_JOIN_TYPE_LEFT_SEMI
	case ir.JoinAnti:
		return pb.Join_JOIN_TYPE_LEFT_ANTI
	case ir.JoinCross:
		return pb.Join_JOIN_TYPE_CROSS
	}
	return pb.Join_JOIN_TYPE_UNSPECIFIED
}

// binaryFuncs are Spark's function names for the infix operators. <> has
// none: Spark's parser makes NOT (a = b) of it, and its function registry
// has no "!=" (ROUTINE_NOT_FOUND on 4.1.4 and 4.2.1), so it lowers to that.
var binaryFuncs = map[ir.BinaryOp]string{
	ir.OpAdd: "+", ir.OpSub: "-", ir.OpMul: "*", ir.OpDiv: "/", ir.OpMod: "%",
	ir.OpConcat: "concat",
	ir.OpEq:     "==", ir.OpLt: "<", ir.OpLe: "<=", ir.OpGt: ">", ir.OpGe: ">=",
	ir.OpEqNullSafe: "<=>", ir.OpAnd: "and", ir.OpOr: "or",
	// the bitwise operators' names in Spark's function registry (4.1.4
	// and 4.2.1 both plan them, named as Spark's parser names them:
	// "(a & b)", "(a << b)"; "shiftleft" would name the column
	// "shiftleft(a, b)")
	ir.OpBitAnd: "&", ir.OpBitOr: "|", ir.OpBitXor: "^",
	ir.OpShl: "<<", ir.OpShr: ">>", ir.OpShrU: ">>>",
}

// funcNames maps the compiler's function names to Spark's where they differ.
var funcNames = map[string]string{
	"starts_with": "startswith",
	"ends_with":   "endswith",
}

// expr lowers an expression.
func (l *lowerer) expr(x ir.Expr) *pb.Expression {
	switch n := x.(type) {
	case *ir.Literal:
		return l.literal(n)
	case *ir.ColumnRef:
		if l.e.u.FieldRefs[n] > 0 { // a struct's field (nested.go)
			return fieldRefAttr(l.unqualifiedField(n)) // generators.go
		}
		return attr(l.qualified(n.Qualifier, n.Name))
	case *ir.GetField, *ir.Subscript: // nested.go
		return l.nestedExpr(n)
	case *ir.Lambda, *ir.LambdaVar: // lambda.go
		return l.lambdaExpr(n)
	case *ir.Star:
		if len(n.Except) > 0 {
			l.refuse(n.Pos, "* except outside a projection", "")
		}
		return star(n.Qualifier)
	case *ir.Unary:
		switch n.Op {
		case ir.OpNeg:
			if lit := l.negativeLiteral(n); lit != nil {
				return lit
			}
			return call("negative", l.expr(n.X))
		case ir.OpBitNot:
			return call("~", l.expr(n.X))
		}
		return call("not", l.expr(n.X))
	case *ir.Binary:
		if n.Op == ir.OpNe {
			return call("not", call("==", l.expr(n.L), l.expr(n.R)))
		}
		return call(binaryFuncs[n.Op], l.expr(n.L), l.expr(n.R))
	case *ir.IsNull:
		if n.Not {
			return call("isnotnull", l.expr(n.X))
		}
		return call("isnull", l.expr(n.X))
	case *ir.In:
		args := []*pb.Expression{l.expr(n.X)}
		for _, v := range n.List {
			args = append(args, l.expr(v))
		}
		return not(n.Not, call("in", args...))
	case *ir.Between:
		x := l.expr(n.X)
		return not(n.Not, call("and", call(">=", x, l.expr(n.Lo)), call("<=", x, l.expr(n.Hi))))
	case *ir.Like:
		return not(n.Not, call("like", l.expr(n.X), l.expr(n.Pattern)))
	case *ir.Case:
		var args []*pb.Expression
		for _, w := range n.Whens {
			cond := l.expr(w.Cond)
			if n.Operand != nil {
				cond = call("==", l.expr(n.Operand), cond)
			}
			args = append(args, cond, l.expr(w.Then))
		}
		if n.Else != nil {
			args = append(args, l.expr(n.Else))
		}
		return call("when", args...)
	case *ir.Cast:
		st, ok := sparkType(n.To)
		if !ok {
			l.refuse(n.Pos, "a cast to "+n.To.String(), "Spark has no such type")
			return nil
		}
		c := &pb.Expression_Cast{Expr: l.expr(n.X), CastToType: &pb.Expression_Cast_TypeStr{TypeStr: st}}
		if n.Try {
			c.EvalMode = pb.Expression_Cast_EVAL_MODE_TRY
		}
		return &pb.Expression{ExprType: &pb.Expression_Cast_{Cast: c}}
	case *ir.Call:
		if f := l.e.u.Calls[n]; f != nil && f.SparkSince != "" && string(l.e.target) < f.SparkSince {
			l.refuse(n.Pos, "function "+n.Name, "it is new in "+f.SparkSince)
			return nil
		}
		name := n.Name
		if s, ok := funcNames[name]; ok {
			name = s
		}
		var args []*pb.Expression
		if n.Star {
			args = []*pb.Expression{intLit(1)} // count(*) is Spark's count(1)
		}
		for _, a := range n.Args {
			if l.groupingKeys != nil && (name == "grouping" || name == "grouping_id") {
				args = append(args, l.groupingKeys(a)) // setgroup: a key by its column
				continue
			}
			args = append(args, l.expr(a))
		}
		if n.Filter != nil {
			args = l.aggFilter(n, args)
			if args == nil {
				return nil
			}
		}
		f := call(name, args...)
		f.GetUnresolvedFunction().IsDistinct = n.Distinct
		return f
	case *ir.ScalarSubquery:
		return l.subquery(n.Query, pb.SubqueryExpression_SUBQUERY_TYPE_SCALAR)
	case *ir.Over: // window functions (window.go)
		return l.over(n)
	case *ir.InSubquery:
		if l.safe[n] || !l.e.u.Nullable[n] {
			return l.inSubquery(n, n.Not)
		}
		return l.inSubqueryValue(n)
	case *ir.Exists: // correlated subqueries: Spark's EXISTS is never NULL
		return not(n.Not, l.subquery(n.Query, pb.SubqueryExpression_SUBQUERY_TYPE_EXISTS))
	}
	l.refuse(x.Position(), fmt.Sprintf("expression %T", x), "sparkemit has no lowering for it")
	return nil
}

// cond lowers a filter's condition, its filter-safe IN subqueries first
// marked as such (see filterSafe).
func (l *lowerer) cond(x ir.Expr) *pb.Expression {
	if l.safe == nil {
		l.safe = map[*ir.InSubquery]bool{}
	}
	filterSafe(x, l.safe)
	return l.expr(x)
}

// filterSafe adds to safe the IN subqueries a filter's condition reaches
// through AND and OR only, negated or not. There Spark's semi and
// null-aware anti joins keep exactly the rows whose condition is TRUE, and
// a NULL result drops a row as FALSE does, so an IN subquery lowers as
// Spark's own. Anywhere else its NULL is observable (see inSubqueryValue).
func filterSafe(x ir.Expr, safe map[*ir.InSubquery]bool) {
	switch n := x.(type) {
	case *ir.Binary:
		if n.Op == ir.OpAnd || n.Op == ir.OpOr {
			filterSafe(n.L, safe)
			filterSafe(n.R, safe)
		}
	case *ir.InSubquery:
		safe[n] = true
	case *ir.Unary:
		if in, ok := n.X.(*ir.InSubquery); ok && n.Op == ir.OpNot {
			safe[in] = true
		}
	}
}

// observableIns returns the IN subqueries of a query (subqueries' queries
// included) whose NULL is observable: outside a filter's safe positions
// (filterSafe), where x or the query's column can be NULL. Lowered, each
// is the CASE form of inSubqueryValue; in SQL that Spark plans itself,
// each is two-valued where it should be NULL.
func observableIns(u *passes.Unit, q ir.Rel) []*ir.InSubquery {
	safe := map[*ir.InSubquery]bool{}
	var out []*ir.InSubquery
	ir.WalkRel(q, func(r ir.Rel) bool {
		if f, ok := r.(*ir.Filter); ok {
			filterSafe(f.Cond, safe)
		}
		for _, e := range ir.RelExprs(r) {
			ir.WalkExpr(e, func(x ir.Expr) bool {
				if in, ok := x.(*ir.InSubquery); ok && !safe[in] && u.Nullable[in] {
					out = append(out, in)
				}
				return true
			})
		}
		return true
	})
	return out
}

// inSubquery is x [NOT] IN (query) as Spark's IN subquery expression.
func (l *lowerer) inSubquery(n *ir.InSubquery, neg bool) *pb.Expression {
	return not(neg, l.subquery(n.Query, pb.SubqueryExpression_SUBQUERY_TYPE_IN, l.expr(n.X)))
}

// inSubqueryValue lowers x [NOT] IN (query) where its value is observable
// (a projection, an aggregate, a join condition, under NOT or a function)
// and may be NULL. Spark 4.1 and 4.2 rewrite an IN subquery there into an
// existence join whose flag is never NULL, so where SQL's three-valued IN
// is NULL (x is NULL, or the query holds a NULL, and no value matches)
// Spark's x IN (query) is FALSE in a projection, and its NOT IN in an
// outer join's condition TRUE (SPARK-58442). The lowering spells the NULL
// out with Spark's subqueries that are exact there (an IN that is TRUE
// only on a match, and EXISTS):
//
//	CASE WHEN x IN (query) THEN TRUE          -- a value matches
//	     WHEN EXISTS (query WHERE its column IS NULL)
//	       OR (x IS NULL AND EXISTS (query)) THEN NULL
//	     ELSE FALSE END
//
// with the branches a non-nullable x or column cannot take left out. The
// query's one column is named by coalesce(*), which needs no name.
func (l *lowerer) inSubqueryValue(n *ir.InSubquery) *pb.Expression {
	u := l.e.u
	colNullable := true
	if s := u.Schemas[n.Query].Visible(); len(s) == 1 && !s[0].Open {
		colNullable = s[0].Nullable
	}
	match := l.subquery(n.Query, pb.SubqueryExpression_SUBQUERY_TYPE_IN, l.expr(n.X))
	var unknown *pb.Expression
	if colNullable {
		unknown = l.subqueryOf(n.Query, pb.SubqueryExpression_SUBQUERY_TYPE_EXISTS, func(q *pb.Relation) *pb.Relation {
			return &pb.Relation{RelType: &pb.Relation_Filter{Filter: &pb.Filter{Input: q, Condition: call("isnull", call("coalesce", star("")))}}}
		})
	}
	if u.Nullable[n.X] {
		xNull := call("and", call("isnull", l.expr(n.X)), l.subquery(n.Query, pb.SubqueryExpression_SUBQUERY_TYPE_EXISTS))
		if unknown == nil {
			unknown = xNull
		} else {
			unknown = call("or", unknown, xNull)
		}
	}
	if match == nil || unknown == nil {
		return nil
	}
	value := call("when", match, boolLit(true), unknown, nullLit(), boolLit(false))
	return not(n.Not, value)
}

// subquery lowers a subquery expression: its query becomes a relation of
// its own, numbered with a plan id unique in the bundle and kept in l.refs
// for withRelations, and the expression names it by that id (Spark
// Connect's SubqueryExpression, as DataFrame.scalar() and isin(df) send
// it). A query that holds subqueries itself carries them in a
// WithRelations of its own. Column references in the body that name the
// enclosing query's columns (correlated subqueries) stay references by
// name, which Spark's analyzer resolves against the enclosing query as it
// does in SQL.
func (l *lowerer) subquery(q ir.Rel, typ pb.SubqueryExpression_SubqueryType, values ...*pb.Expression) *pb.Expression {
	return l.subqueryOf(q, typ, nil, values...)
}

// subqueryOf is subquery with the query's relation passed through wrap
// (when not nil) first.
func (l *lowerer) subqueryOf(q ir.Rel, typ pb.SubqueryExpression_SubqueryType, wrap func(*pb.Relation) *pb.Relation, values ...*pb.Expression) *pb.Expression {
	l.checkCorrelated(q) // correlated subqueries Spark refuses
	outer := l.refs
	l.refs = nil
	rel := l.rel(q)
	if rel != nil && wrap != nil {
		rel = wrap(rel)
	}
	rel = l.withRelations(rel)
	l.refs = outer
	if rel == nil {
		return nil
	}
	l.e.planIDs++
	id := l.e.planIDs
	rel.Common = &pb.RelationCommon{PlanId: proto.Int64(id)}
	l.refs = append(l.refs, rel)
	return &pb.Expression{ExprType: &pb.Expression_SubqueryExpression{SubqueryExpression: &pb.SubqueryExpression{
		PlanId:           id,
		SubqueryType:     typ,
		InSubqueryValues: values,
	}}}
}

// withRelations wraps a query whose expressions hold subquery expressions
// in a WithRelations carrying their relations: Spark's planner replaces
// every subquery expression in the plan under root by the reference of its
// plan id. It sits at the root of the query (the flow's relation, or a
// subquery's body) rather than at each operator (as pyspark places it), so
// that the projection of all columns the planner puts around the root
// comes after every operator of the query.
func (l *lowerer) withRelations(rel *pb.Relation) *pb.Relation {
	if rel == nil || len(l.refs) == 0 {
		return rel
	}
	refs := l.refs
	l.refs = nil
	return &pb.Relation{RelType: &pb.Relation_WithRelations{WithRelations: &pb.WithRelations{Root: rel, References: refs}}}
}

// literal lowers a constant with the type the compiler gave it.
func (l *lowerer) literal(n *ir.Literal) *pb.Expression {
	t := l.e.u.Types[n]
	lit := &pb.Expression_Literal{}
	bad := func(err error) *pb.Expression {
		l.refuse(n.Pos, fmt.Sprintf("the %s literal %q", n.Kind, n.Text), err.Error())
		return nil
	}
	switch n.Kind {
	case ir.LitNull:
		lit.LiteralType = &pb.Expression_Literal_Null{Null: &pb.DataType{Kind: &pb.DataType_Null{Null: &pb.DataType_NULL{}}}}
	case ir.LitBool:
		lit.LiteralType = &pb.Expression_Literal_Boolean{Boolean: strings.EqualFold(n.Text, "true")}
	case ir.LitInt:
		v, err := strconv.ParseInt(n.Text, 10, 64)
		if err != nil {
			return bad(err)
		}
		if t.Kind == ir.TInt32 || (t.Kind == ir.TUnknown && v >= math.MinInt32 && v <= math.MaxInt32) {
			lit.LiteralType = &pb.Expression_Literal_Integer{Integer: int32(v)}
		} else {
			lit.LiteralType = &pb.Expression_Literal_Long{Long: v}
		}
	case ir.LitDecimal:
		dec := &pb.Expression_Literal_Decimal{Value: n.Text}
		if t.Kind == ir.TDecimal {
			dec.Precision, dec.Scale = proto.Int32(int32(t.Precision)), proto.Int32(int32(t.Scale))
		}
		lit.LiteralType = &pb.Expression_Literal_Decimal_{Decimal: dec}
	case ir.LitFloat:
		v, err := strconv.ParseFloat(n.Text, 64)
		if err != nil {
			return bad(err)
		}
		lit.LiteralType = &pb.Expression_Literal_Double{Double: v}
	case ir.LitString:
		lit.LiteralType = &pb.Expression_Literal_String_{String_: n.Text}
	case ir.LitInterval:
		d, err := ir.ParseDuration(n.Text)
		if err != nil {
			return bad(err)
		}
		if int64(d)%1000 != 0 {
			return bad(fmt.Errorf("Spark intervals have microsecond precision"))
		}
		lit.LiteralType = &pb.Expression_Literal_DayTimeInterval{DayTimeInterval: int64(d) / 1000}
	case ir.LitTimestamp:
		var ts time.Time
		var err error
		for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02 15:04:05", "2006-01-02T15:04:05.999999999"} {
			if ts, err = time.ParseInLocation(layout, n.Text, time.UTC); err == nil {
				break
			}
		}
		if err != nil {
			return bad(err)
		}
		if t.Kind == ir.TTimestamp && t.Zone == "" {
			lit.LiteralType = &pb.Expression_Literal_TimestampNtz{TimestampNtz: ts.UnixMicro()}
		} else {
			lit.LiteralType = &pb.Expression_Literal_Timestamp{Timestamp: ts.UnixMicro()}
		}
	case ir.LitDate:
		ts, err := time.ParseInLocation("2006-01-02", n.Text, time.UTC)
		if err != nil {
			return bad(err)
		}
		lit.LiteralType = &pb.Expression_Literal_Date{Date: int32(ts.Unix() / 86400)}
	default:
		return bad(fmt.Errorf("no Spark literal for it"))
	}
	return &pb.Expression{ExprType: &pb.Expression_Literal_{Literal: lit}}
}

// negativeLiteral lowers -N of an integer literal N as the literal -N, as
// Spark's SQL parser reads it (MINUS? INTEGER_VALUE is one literal) and as
// resolve types it: a literal operand of decimal arithmetic takes the
// fewest digits that hold it (DecimalType.fromLiteral: d % -2 is
// DECIMAL(3,2) for a DECIMAL(10,2) d), where negative(2) is an INT
// expression widened to DECIMAL(10,0) (DECIMAL(10,2) on 4.1.4 and 4.2.1).
// nil when n is not a negated integer literal.
func (l *lowerer) negativeLiteral(n *ir.Unary) *pb.Expression {
	x, ok := n.X.(*ir.Literal)
	if !ok || x.Kind != ir.LitInt {
		return nil
	}
	v, err := strconv.ParseInt("-"+x.Text, 10, 64)
	if err != nil {
		return nil
	}
	lit := &pb.Expression_Literal{}
	switch t := l.e.u.Types[n]; {
	case t.Kind == ir.TInt32:
		lit.LiteralType = &pb.Expression_Literal_Integer{Integer: int32(v)}
	case t.Kind == ir.TInt64:
		lit.LiteralType = &pb.Expression_Literal_Long{Long: v}
	default:
		return nil
	}
	return &pb.Expression{ExprType: &pb.Expression_Literal_{Literal: lit}}
}

// qualified is q.name with each part quoted as needed.
func qualified(q, name string) string {
	if q == "" {
		return quoteIdent(name)
	}
	return quoteIdent(q) + "." + quoteIdent(name)
}

func attr(id string) *pb.Expression {
	return &pb.Expression{ExprType: &pb.Expression_UnresolvedAttribute_{UnresolvedAttribute: &pb.Expression_UnresolvedAttribute{UnparsedIdentifier: id}}}
}

func star(q string) *pb.Expression {
	s := &pb.Expression_UnresolvedStar{}
	if q != "" {
		s.UnparsedTarget = proto.String(quoteIdent(q) + ".*")
	}
	return &pb.Expression{ExprType: &pb.Expression_UnresolvedStar_{UnresolvedStar: s}}
}

func alias(x *pb.Expression, name string) *pb.Expression {
	return &pb.Expression{ExprType: &pb.Expression_Alias_{Alias: &pb.Expression_Alias{Expr: x, Name: []string{name}}}}
}

func call(name string, args ...*pb.Expression) *pb.Expression {
	return &pb.Expression{ExprType: &pb.Expression_UnresolvedFunction_{UnresolvedFunction: &pb.Expression_UnresolvedFunction{FunctionName: name, Arguments: args}}}
}

func not(neg bool, x *pb.Expression) *pb.Expression {
	if neg {
		return call("not", x)
	}
	return x
}

func strLit(s string) *pb.Expression {
	return &pb.Expression{ExprType: &pb.Expression_Literal_{Literal: &pb.Expression_Literal{LiteralType: &pb.Expression_Literal_String_{String_: s}}}}
}

func boolLit(v bool) *pb.Expression {
	return &pb.Expression{ExprType: &pb.Expression_Literal_{Literal: &pb.Expression_Literal{LiteralType: &pb.Expression_Literal_Boolean{Boolean: v}}}}
}

// nullLit is an untyped NULL (Spark's NullType, which CASE coerces).
func nullLit() *pb.Expression {
	return &pb.Expression{ExprType: &pb.Expression_Literal_{Literal: &pb.Expression_Literal{LiteralType: &pb.Expression_Literal_Null{Null: &pb.DataType{Kind: &pb.DataType_Null{Null: &pb.DataType_NULL{}}}}}}}
}

func intLit(v int32) *pb.Expression {
	return &pb.Expression{ExprType: &pb.Expression_Literal_{Literal: &pb.Expression_Literal{LiteralType: &pb.Expression_Literal_Integer{Integer: v}}}}
}
