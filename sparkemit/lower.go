package sparkemit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/proto"

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
	// refs are the flow's subqueries, each with its plan id in common, for
	// the WithRelations around the flow's relation.
	refs []*pb.Relation
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
// renaming its columns, since Spark matches a flow's columns by name.
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
	if len(l.refs) > 0 {
		rel = &pb.Relation{RelType: &pb.Relation_WithRelations{WithRelations: &pb.WithRelations{Root: rel, References: l.refs}}}
	}
	if !f.ByName && d != nil && fi != nil {
		target, out := u.Datasets[d].Visible(), fi.Output.Visible()
		differ := false
		if len(target) == len(out) {
			for i := range out {
				if !strings.EqualFold(out[i].Name, target[i].Name) {
					differ = true
				}
			}
		}
		if differ {
			exprs := make([]*pb.Expression, len(out))
			for i, c := range out {
				exprs[i] = alias(attr(qualified(c.Qualifier, c.Name)), target[i].Name)
			}
			rel = project(rel, exprs)
		}
	}
	return rel
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
		c := l.expr(x.Cond)
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
		return &pb.Relation{RelType: &pb.Relation_Filter{Filter: &pb.Filter{Input: l.rel(n.Input), Condition: l.expr(n.Cond)}}}
	case *ir.Project:
		return project(l.rel(n.Input), l.projection(n))
	case *ir.Aggregate:
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
	case *ir.Distinct:
		return &pb.Relation{RelType: &pb.Relation_Deduplicate{Deduplicate: &pb.Deduplicate{Input: l.rel(n.Input), AllColumnsAsKeys: proto.Bool(true)}}}
	case *ir.Sort:
		s := &pb.Sort{Input: l.rel(n.Input), IsGlobal: proto.Bool(true)}
		for _, k := range n.Keys {
			so := &pb.Expression_SortOrder{Child: l.expr(k.Expr), Direction: pb.Expression_SortOrder_SORT_DIRECTION_ASCENDING, NullOrdering: pb.Expression_SortOrder_SORT_NULLS_LAST}
			if k.Desc {
				so.Direction = pb.Expression_SortOrder_SORT_DIRECTION_DESCENDING
			}
			if k.EffectiveNullsFirst() {
				so.NullOrdering = pb.Expression_SortOrder_SORT_NULLS_FIRST
			}
			s.Order = append(s.Order, so)
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
	if in, ok := l.inputs[n]; ok && in.Watermark != nil && n.Stream {
		w := in.Watermark
		rel = &pb.Relation{RelType: &pb.Relation_WithWatermark{WithWatermark: &pb.WithWatermark{
			Input:          rel,
			EventTime:      w.Column,
			DelayThreshold: intervalText(w.Delay + w.AllowedLateness),
		}}}
		if in.WMOrigin == "upstream" {
			e.note(n.Pos, l.flow.Name, l.flow.Target, "watermark", passes.ActionConverted,
				fmt.Sprintf("of %s is declared again on this read (withWatermark(%s, %s)): Spark does not carry a watermark through a table", n.Name, w.Column, intervalText(w.Delay+w.AllowedLateness)))
		}
	}
	if n.Alias != "" {
		rel = subqueryAlias(rel, n.Alias)
	}
	return rel
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
		cols = append(cols, attr(qualified(f.Qualifier, f.Name)))
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
		exprs = append(exprs, attr(qualified(f.Qualifier, f.Name)))
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

// binaryFuncs are Spark's function names for the infix operators.
var binaryFuncs = map[ir.BinaryOp]string{
	ir.OpAdd: "+", ir.OpSub: "-", ir.OpMul: "*", ir.OpDiv: "/", ir.OpMod: "%",
	ir.OpConcat: "concat",
	ir.OpEq:     "==", ir.OpNe: "!=", ir.OpLt: "<", ir.OpLe: "<=", ir.OpGt: ">", ir.OpGe: ">=",
	ir.OpEqNullSafe: "<=>", ir.OpAnd: "and", ir.OpOr: "or",
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
		return attr(qualified(n.Qualifier, n.Name))
	case *ir.Star:
		if len(n.Except) > 0 {
			l.refuse(n.Pos, "* except outside a projection", "")
		}
		return star(n.Qualifier)
	case *ir.Unary:
		if n.Op == ir.OpNeg {
			return call("negative", l.expr(n.X))
		}
		return call("not", l.expr(n.X))
	case *ir.Binary:
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
		name := n.Name
		if s, ok := funcNames[name]; ok {
			name = s
		}
		var args []*pb.Expression
		if n.Star {
			args = []*pb.Expression{intLit(1)} // count(*) is Spark's count(1)
		}
		for _, a := range n.Args {
			args = append(args, l.expr(a))
		}
		f := call(name, args...)
		f.GetUnresolvedFunction().IsDistinct = n.Distinct
		return f
	case *ir.ScalarSubquery:
		return l.subquery(n.Query, pb.SubqueryExpression_SUBQUERY_TYPE_SCALAR, nil)
	case *ir.InSubquery:
		return not(n.Not, l.subquery(n.Query, pb.SubqueryExpression_SUBQUERY_TYPE_IN, l.expr(n.X)))
	}
	l.refuse(x.Position(), fmt.Sprintf("expression %T", x), "sparkemit has no lowering for it")
	return nil
}

// subquery lowers a subquery expression: a SubqueryExpression naming, by
// plan id, its relation among the flow's references (flowQuery wraps the
// flow's relation in WithRelations over them). The capability pass refuses
// a correlated subquery, which would need outer references.
func (l *lowerer) subquery(q ir.Rel, kind pb.SubqueryExpression_SubqueryType, x *pb.Expression) *pb.Expression {
	rel := l.rel(q)
	if rel == nil {
		return nil
	}
	id := int64(len(l.refs) + 1)
	rel.Common = &pb.RelationCommon{PlanId: proto.Int64(id)}
	l.refs = append(l.refs, rel)
	s := &pb.SubqueryExpression{PlanId: id, SubqueryType: kind}
	if x != nil {
		s.InSubqueryValues = []*pb.Expression{x}
	}
	return &pb.Expression{ExprType: &pb.Expression_SubqueryExpression{SubqueryExpression: s}}
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

func intLit(v int32) *pb.Expression {
	return &pb.Expression{ExprType: &pb.Expression_Literal_{Literal: &pb.Expression_Literal{LiteralType: &pb.Expression_Literal_Integer{Integer: v}}}}
}
