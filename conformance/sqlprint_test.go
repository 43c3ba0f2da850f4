package conformance

// The DuckDB side of the oracle is derived, not written: each flow's IR (as
// frontend/dsl parsed it and passes resolved it) is printed here as one
// DuckDB SELECT. Where DuckDB's SQL means something else than Spark 4 with
// ANSI on, the printer writes Spark's meaning out explicitly, and where it
// cannot do that faithfully it refuses (panics with unsupported), so that a
// query the oracle would get wrong fails loudly instead of passing silently.
//
// The differences made explicit:
//
//   - Types. Every literal, arithmetic result, function call, aggregate,
//     CASE and union column is cast to the DuckDB spelling of the type the
//     resolve pass computed (u.Types), so DuckDB computes in Spark's types:
//     int32 arithmetic overflows where Spark's does, sum(bigint) (HUGEINT in
//     DuckDB) is cast back to BIGINT and fails on overflow as ANSI Spark
//     does. Decimal results of + - * / %, sum and avg are typed by the
//     printer itself from Spark's DecimalPrecision rules (precision loss
//     included), not read from u.Types; where the resolve pass disagrees,
//     the view fails with a note.
//   - Division. '/' is fractional: DOUBLE operands, or exact decimal
//     division rounded HALF_UP to Spark's result scale (computed on HUGEINT
//     unscaled values, never through DOUBLE as DuckDB's decimal '/' does).
//     avg(decimal) is the same exact division of sum by count. A zero
//     divisor raises DIVIDE_BY_ZERO (DuckDB gives Inf or NULL); a NULL
//     dividend with a zero divisor is NULL, as in Spark's DivModLike.
//   - '%': DIVIDE_BY_ZERO on zero; MinValue % -1 is 0 (DuckDB overflows).
//   - NULL ordering: every ORDER BY key gets NULLS FIRST or NULLS LAST from
//     ir.SortKey.EffectiveNullsFirst (DuckDB's default is NULLS LAST).
//   - LIKE: ESCAPE '\' (Spark's default escape; DuckDB has none).
//   - Strings compare byte-wise in both (UTF8_BINARY; DuckDB's default
//     collation is binary); the session time zone is UTC in both.
//   - Casts: fractional to integral truncates (DuckDB rounds); string to
//     integral/bool/decimal/double/date follows Spark's grammar (trimming,
//     accepted spellings, CAST_INVALID_INPUT or NULL for try_cast) through
//     explicit regular expressions; double to string is Java's
//     Double.toString (a Go UDF, spark_double_str); timestamp to string
//     drops the zone.
//   - Functions: concat is NULL when an argument is (DuckDB skips NULLs);
//     substring follows UTF8String.substringSQL (position 0, negative
//     positions); sqrt of a negative is NaN and ln/log10 of x <= 0 NULL
//     (DuckDB raises); round of a double is HALF_UP on the shortest decimal
//     (Spark's BigDecimal(Double.toString)); floor/ceil of a double are
//     BIGINT; trim trims only ' '; date_trunc units are Spark's aliases;
//     unix_timestamp floors.
//
// Every operator prints as a SELECT whose columns are named c0, c1, ... in
// the order of passes' Schemas[rel] (hidden USING-join columns included),
// so a column reference, bound by resolve to (input operator, index),
// prints as alias.cINDEX.

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// unsupported is what the printer panics with on IR it cannot translate
// faithfully.
type unsupported struct {
	pos ir.Pos
	msg string
}

func (e unsupported) Error() string { return fmt.Sprintf("%s: conformance printer: %s", e.pos, e.msg) }

type printer struct {
	u       *passes.Unit
	aliases map[ir.Rel]string
	n       int
	skip    ir.Rel        // a Limit printed as its input: the unlimited variant of a query
	notes   []string      // disagreements with the resolve pass's types
	agg     *ir.Aggregate // the aggregate whose items are printed (grouping_id() names its keys)
}

func newPrinter(u *passes.Unit) *printer { return &printer{u: u, aliases: map[ir.Rel]string{}} }

func (p *printer) fail(pos ir.Pos, format string, args ...any) {
	panic(unsupported{pos, fmt.Sprintf(format, args...)})
}

// flowSQL prints the query of the flow into d as one statement whose
// columns are d's stored columns, cast to their types (Spark's store
// assignment), ordered by orderBy (output column indexes) when given.
//
// notes lists where the resolve pass typed a decimal expression otherwise
// than Spark's DecimalPrecision rules, which the printer applies on its own
// (see sparkDecimal): each is a finding.
func flowSQL(u *passes.Unit, d *ir.Dataset, skip ir.Rel, orderBy []orderKey) (sql string, notes []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(unsupported); ok {
				err = e
				return
			}
			panic(r)
		}
	}()
	p := newPrinter(u)
	p.skip = skip
	sql = p.flow(d, orderBy)
	return sql, p.notes, nil
}

// orderKey is one output ordering key: an output column index and its
// direction.
type orderKey struct {
	col        int
	desc       bool
	nullsFirst bool
}

func (p *printer) flow(d *ir.Dataset, orderBy []orderKey) string {
	flows := p.u.Pipeline.FlowsInto(d.Name)
	if len(flows) != 1 || flows[0].Query == nil || flows[0].CDC != nil || flows[0].ByName {
		p.fail(d.Pos, "dataset %s: only one plain flow per dataset is supported", d.Name)
	}
	// session confs: the printer spells Spark's semantics in UTC with ANSI
	// on; a flow under another zone (or ANSI off) would be compared with a
	// DuckDB query that ignores its conf, so it is refused, not guessed.
	if s := p.u.Sessions[flows[0]]; !s.UTC() || s.NonANSI {
		p.fail(d.Pos, "dataset %s: a session time zone or ANSI mode other than UTC and on is not translated", d.Name)
	}
	out := p.u.Datasets[d].Visible()
	from, a := p.from(flows[0].Query)
	if got := len(p.u.Schemas[flows[0].Query].Visible()); got != len(out) {
		p.fail(d.Pos, "dataset %s: the query has %d columns, the dataset %d", d.Name, got, len(out))
	}
	items := make([]string, len(out))
	for i, f := range out {
		items[i] = fmt.Sprintf("CAST(%s.c%d AS %s) AS %s", a, i, duckType(d.Pos, f.Type), quoteIdent(f.Name))
	}
	sql := "SELECT " + strings.Join(items, ", ") + " FROM " + from
	if len(orderBy) > 0 {
		var keys []string
		for _, k := range orderBy {
			keys = append(keys, fmt.Sprintf("%s.c%d%s", a, k.col, orderSuffix(k.desc, k.nullsFirst)))
		}
		sql += " ORDER BY " + strings.Join(keys, ", ")
	}
	return sql
}

func orderSuffix(desc, nullsFirst bool) string {
	s := " ASC"
	if desc {
		s = " DESC"
	}
	if nullsFirst {
		return s + " NULLS FIRST"
	}
	return s + " NULLS LAST"
}

// from prints r as a derived table "(SELECT ...) AS tN" and binds r to tN
// for the column references of the operator that reads it.
func (p *printer) from(r ir.Rel) (string, string) {
	sub := p.rel(r)
	p.n++
	a := "t" + strconv.Itoa(p.n)
	p.aliases[r] = a
	return "(" + sub + ") AS " + a, a
}

func colList(a string, n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf("%s.c%d", a, i)
	}
	return strings.Join(items, ", ")
}

func (p *printer) rel(r ir.Rel) string {
	switch n := r.(type) {
	case *ir.Scan:
		return p.scan(n)
	case *ir.Range:
		step := n.Step
		if step == 0 {
			step = 1
		}
		return fmt.Sprintf("SELECT range AS c0 FROM range(CAST(%d AS BIGINT), CAST(%d AS BIGINT), CAST(%d AS BIGINT))", n.Start, n.End, step)
	case *ir.SubqueryRel:
		in, a := p.from(n.Input)
		return fmt.Sprintf("SELECT %s FROM %s", colList(a, len(p.u.Schemas[n])), in)
	case *ir.Filter:
		in, _ := p.from(n.Input)
		return fmt.Sprintf("SELECT * FROM %s WHERE %s", in, p.expr(n.Cond))
	case *ir.Project:
		in, a := p.from(n.Input)
		var items []string
		for i, pc := range p.u.Projections[n] {
			if pc.InputIndex >= 0 {
				items = append(items, fmt.Sprintf("%s.c%d AS c%d", a, pc.InputIndex, i))
			} else {
				items = append(items, fmt.Sprintf("%s AS c%d", p.expr(n.Items[pc.Item].Expr), i))
			}
		}
		return "SELECT " + strings.Join(items, ", ") + " FROM " + in
	case *ir.Aggregate:
		in, _ := p.from(n.Input)
		var items, keys []string
		for _, k := range n.Keys {
			s := p.expr(k.Expr)
			keys = append(keys, s)
			items = append(items, fmt.Sprintf("%s AS c%d", s, len(items)))
		}
		outer := p.agg
		p.agg = n
		for _, a := range n.Aggs {
			items = append(items, fmt.Sprintf("%s AS c%d", p.expr(a.Expr), len(items)))
		}
		p.agg = outer
		sql := "SELECT " + strings.Join(items, ", ") + " FROM " + in
		if n.Sets != nil { // grouping sets (setgroup): DuckDB's own
			sets := make([]string, len(n.Sets))
			for i, s := range n.Sets {
				ks := make([]string, len(s))
				for j, k := range s {
					ks[j] = keys[k]
				}
				sets[i] = "(" + strings.Join(ks, ", ") + ")"
			}
			// Spark's grouping sets give no row over empty input, not even
			// the () set's (its Expand feeds an aggregate with a key, the
			// grouping id); DuckDB gives the () set its row: HAVING drops it
			return sql + " GROUP BY GROUPING SETS (" + strings.Join(sets, ", ") + ") HAVING count(*) > 0"
		}
		if len(keys) > 0 {
			sql += " GROUP BY " + strings.Join(keys, ", ")
		}
		return sql
	case *ir.Join:
		return p.join(n)
	case *ir.Generate: // sqlprint_nested_test.go
		return p.generate(n)
	case *ir.Union:
		return p.union(n)
	case *ir.SetOp: // setgroup
		return p.setOp(n)
	case *ir.Distinct:
		in, a := p.from(n.Input)
		return fmt.Sprintf("SELECT DISTINCT %s FROM %s", colList(a, len(p.u.Schemas[n])), in)
	case *ir.Sort:
		in, _ := p.from(n.Input)
		return fmt.Sprintf("SELECT * FROM %s ORDER BY %s", in, p.sortKeys(n))
	case *ir.Limit:
		if p.skip == n {
			return p.rel(n.Input)
		}
		if s, ok := n.Input.(*ir.Sort); ok {
			in, _ := p.from(s.Input)
			return fmt.Sprintf("SELECT * FROM %s ORDER BY %s LIMIT %d OFFSET %d", in, p.sortKeys(s), n.N, n.Offset)
		}
		in, _ := p.from(n.Input)
		return fmt.Sprintf("SELECT * FROM %s LIMIT %d OFFSET %d", in, n.N, n.Offset)
	}
	p.fail(r.Position(), "operator %T", r)
	return ""
}

func (p *printer) sortKeys(s *ir.Sort) string {
	var keys []string
	for _, k := range s.Keys {
		keys = append(keys, p.expr(k.Expr)+orderSuffix(k.Desc, k.EffectiveNullsFirst()))
	}
	return strings.Join(keys, ", ")
}

func srcTable(name string) string { return quoteIdent("src_" + strings.ToLower(name)) }

func (p *printer) scan(n *ir.Scan) string {
	if n.Stream || ir.IsExternalName(n.Name) {
		p.fail(n.Pos, "stream or external read of %s", n.Name)
	}
	d := p.u.Pipeline.LookupDataset(n.Name)
	if d == nil {
		p.fail(n.Pos, "unknown dataset %s", n.Name)
	}
	s := p.u.Datasets[d].Visible()
	if d.Kind == ir.KindSource {
		items := make([]string, len(s))
		for i, f := range s {
			items[i] = fmt.Sprintf("%s AS c%d", quoteIdent(f.Name), i)
		}
		return "SELECT " + strings.Join(items, ", ") + " FROM " + srcTable(d.Name)
	}
	// a view read as a snapshot: its own query, inlined
	sql := p.flow(d, nil)
	items := make([]string, len(s))
	for i, f := range s {
		items[i] = fmt.Sprintf("%s AS c%d", quoteIdent(f.Name), i)
	}
	return "SELECT " + strings.Join(items, ", ") + " FROM (" + sql + ")"
}

func (p *printer) join(n *ir.Join) string {
	info := p.u.Joins[n]
	l, la := p.from(n.Left)
	r, ra := p.from(n.Right)
	var cond string
	switch {
	case len(n.Using) > 0:
		var cs []string
		for i := range n.Using {
			if info.LeftKeys[i] < 0 || info.RightKeys[i] < 0 {
				p.fail(n.Pos, "using column %s not found", n.Using[i])
			}
			cs = append(cs, fmt.Sprintf("%s.c%d = %s.c%d", la, info.LeftKeys[i], ra, info.RightKeys[i]))
		}
		cond = strings.Join(cs, " AND ")
	case n.On != nil:
		cond = p.expr(n.On)
	case n.Kind != ir.JoinCross:
		cond = "true"
	}
	var items []string
	for i, c := range info.Output {
		var s string
		switch {
		case c.Left >= 0 && c.Right >= 0:
			s = fmt.Sprintf("COALESCE(%s.c%d, %s.c%d)", la, c.Left, ra, c.Right)
		case c.Left >= 0:
			s = fmt.Sprintf("%s.c%d", la, c.Left)
		default:
			s = fmt.Sprintf("%s.c%d", ra, c.Right)
		}
		items = append(items, fmt.Sprintf("%s AS c%d", s, i))
	}
	sel := "SELECT " + strings.Join(items, ", ")
	switch n.Kind {
	case ir.JoinSemi:
		return fmt.Sprintf("%s FROM %s WHERE EXISTS (SELECT 1 FROM %s WHERE %s)", sel, l, r, cond)
	case ir.JoinAnti:
		return fmt.Sprintf("%s FROM %s WHERE NOT EXISTS (SELECT 1 FROM %s WHERE %s)", sel, l, r, cond)
	case ir.JoinCross:
		if n.On != nil || len(n.Using) > 0 {
			p.fail(n.Pos, "cross join with a condition")
		}
		return fmt.Sprintf("%s FROM %s CROSS JOIN %s", sel, l, r)
	}
	kw := map[ir.JoinKind]string{ir.JoinInner: "INNER", ir.JoinLeft: "LEFT", ir.JoinRight: "RIGHT", ir.JoinFull: "FULL"}[n.Kind]
	return fmt.Sprintf("%s FROM %s %s JOIN %s ON %s", sel, l, kw, r, cond)
}

func (p *printer) union(n *ir.Union) string {
	s := p.u.Schemas[n]
	var parts []string
	for _, in := range n.Inputs {
		sub, a := p.from(in)
		items := make([]string, len(s))
		for i, f := range s {
			items[i] = fmt.Sprintf("CAST(%s.c%d AS %s) AS c%d", a, i, duckType(n.Pos, f.Type), i)
		}
		parts = append(parts, "SELECT "+strings.Join(items, ", ")+" FROM "+sub)
	}
	op := " UNION "
	if n.All {
		op = " UNION ALL "
	}
	p.n++
	return fmt.Sprintf("SELECT * FROM (%s) AS t%d", strings.Join(parts, op), p.n)
}

// setOp prints EXCEPT and INTERSECT [ALL]: DuckDB's set operations compare
// rows with NULLs equal and keep multiplicities with ALL, as Spark's do;
// each input is cast to the widened types.
func (p *printer) setOp(n *ir.SetOp) string {
	s := p.u.Schemas[n]
	var parts []string
	for _, in := range []ir.Rel{n.Left, n.Right} {
		sub, a := p.from(in)
		items := make([]string, len(s))
		for i, f := range s {
			items[i] = fmt.Sprintf("CAST(%s.c%d AS %s) AS c%d", a, i, duckType(n.Pos, f.Type), i)
		}
		parts = append(parts, "SELECT "+strings.Join(items, ", ")+" FROM "+sub)
	}
	op := map[ir.SetOpKind]string{ir.SetExcept: " EXCEPT ", ir.SetIntersect: " INTERSECT "}[n.Kind]
	if n.All {
		op += "ALL "
	}
	p.n++
	return fmt.Sprintf("SELECT * FROM ((%s)%s(%s)) AS t%d", parts[0], op, parts[1], p.n)
}

// duckType spells a Thund type in DuckDB. Timestamps of every unit map to
// microsecond TIMESTAMP (the comparison is in microseconds); a zone means
// Spark's TIMESTAMP (LTZ), DuckDB's TIMESTAMPTZ.
func duckType(pos ir.Pos, t ir.Type) string {
	switch t.Kind {
	case ir.TBool:
		return "BOOLEAN"
	case ir.TInt8:
		return "TINYINT"
	case ir.TInt16:
		return "SMALLINT"
	case ir.TInt32:
		return "INTEGER"
	case ir.TInt64:
		return "BIGINT"
	case ir.TFloat64:
		return "DOUBLE"
	case ir.TDecimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", t.Precision, t.Scale)
	case ir.TString:
		return "VARCHAR"
	case ir.TArray: // aggregate family (collect_list, collect_set)
		return duckType(pos, t.Elem()) + "[]"
	case ir.TDate32:
		return "DATE"
	case ir.TTimestamp:
		if t.Zone != "" {
			if t.Zone != "UTC" {
				panic(unsupported{pos, "timestamp zone " + t.Zone})
			}
			return "TIMESTAMPTZ"
		}
		return "TIMESTAMP"
	}
	if s, ok := duckNestedType(pos, t); ok { // sqlprint_nested_test.go
		return s
	}
	panic(unsupported{pos, "type " + t.String()})
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func (p *printer) typeOf(e ir.Expr) ir.Type { return p.u.Types[e] }

// cast wraps sql in a cast to e's resolved type (when it has one).
func (p *printer) cast(e ir.Expr, sql string) string {
	t := p.typeOf(e)
	if t.Kind == ir.TUnknown {
		return sql
	}
	return castTo(e.Position(), sql, t)
}

func castTo(pos ir.Pos, sql string, t ir.Type) string {
	return fmt.Sprintf("CAST(%s AS %s)", sql, duckType(pos, t))
}

func (p *printer) expr(e ir.Expr) string {
	switch e := e.(type) {
	case *ir.Literal:
		return p.literal(e)
	case *ir.ColumnRef:
		b, ok := p.u.Refs[e]
		if !ok || b.Open || b.Rel == nil {
			p.fail(e.Pos, "unbound column %s", e.Name)
		}
		a, ok := p.aliases[b.Rel]
		if !ok {
			p.fail(e.Pos, "column %s: its input has no alias in scope", e.Name)
		}
		return fmt.Sprintf("%s.c%d", a, b.Index)
	case *ir.Unary:
		if e.Op == ir.OpNot {
			return "(NOT " + p.expr(e.X) + ")"
		}
		if e.Op == ir.OpBitNot {
			return p.bitNot(e) // sqlprint_bitwise_test.go
		}
		if !p.typeOf(e).IsNumeric() {
			p.fail(e.Pos, "unary - of %s", p.typeOf(e))
		}
		return p.cast(e, "(- "+p.expr(e.X)+")")
	case *ir.Binary:
		return p.binary(e)
	case *ir.IsNull:
		if e.Not {
			return "(" + p.expr(e.X) + " IS NOT NULL)"
		}
		return "(" + p.expr(e.X) + " IS NULL)"
	case *ir.In:
		var items []string
		for _, it := range e.List {
			items = append(items, p.expr(it))
		}
		op := " IN "
		if e.Not {
			op = " NOT IN "
		}
		return "(" + p.expr(e.X) + op + "(" + strings.Join(items, ", ") + "))"
	case *ir.Between:
		s := fmt.Sprintf("(%s BETWEEN %s AND %s)", p.expr(e.X), p.expr(e.Lo), p.expr(e.Hi))
		if e.Not {
			return "(NOT " + s + ")"
		}
		return s
	case *ir.Like:
		s := fmt.Sprintf("(%s LIKE %s ESCAPE '\\')", p.expr(e.X), p.expr(e.Pattern))
		if e.Not {
			return "(NOT " + s + ")"
		}
		return s
	case *ir.Case:
		var b strings.Builder
		b.WriteString("CASE")
		if e.Operand != nil {
			b.WriteString(" " + p.expr(e.Operand))
		}
		for _, w := range e.Whens {
			fmt.Fprintf(&b, " WHEN %s THEN %s", p.expr(w.Cond), p.expr(w.Then))
		}
		if e.Else != nil {
			b.WriteString(" ELSE " + p.expr(e.Else))
		}
		b.WriteString(" END")
		return p.cast(e, b.String())
	case *ir.Cast:
		return p.castExpr(e)
	case *ir.Call:
		return p.call(e)
	case *ir.Over:
		return p.over(e) // window functions (wnative)
	case *ir.ScalarSubquery:
		sub, a := p.from(e.Query)
		return p.cast(e, fmt.Sprintf("(SELECT %s.c0 FROM %s)", a, sub))
	case *ir.InSubquery:
		sub, a := p.from(e.Query)
		op := " IN "
		if e.Not {
			op = " NOT IN "
		}
		return fmt.Sprintf("(%s%s(SELECT %s.c0 FROM %s))", p.expr(e.X), op, a, sub)
	case *ir.Exists: // correlated subqueries
		sub, _ := p.from(e.Query)
		s := fmt.Sprintf("(EXISTS (SELECT 1 FROM %s))", sub)
		if e.Not {
			s = "(NOT " + s + ")"
		}
		return s
	}
	if s, ok := p.nestedExpr(e); ok { // sqlprint_nested_test.go
		return s
	}
	p.fail(e.Position(), "expression %T", e)
	return ""
}

func (p *printer) literal(l *ir.Literal) string {
	t := p.typeOf(l)
	switch l.Kind {
	case ir.LitNull:
		if t.Kind == ir.TUnknown {
			return "NULL"
		}
		return p.cast(l, "NULL")
	case ir.LitBool:
		return strings.ToLower(l.Text)
	case ir.LitInt:
		return p.cast(l, l.Text)
	case ir.LitDecimal, ir.LitFloat:
		return p.cast(l, quoteString(l.Text))
	case ir.LitString:
		return quoteString(l.Text)
	case ir.LitInterval:
		d, err := ir.ParseDuration(l.Text)
		if err != nil || d%1000 != 0 {
			p.fail(l.Pos, "interval %s", l.Text)
		}
		return fmt.Sprintf("to_microseconds(CAST(%d AS BIGINT))", int64(d)/1000)
	case ir.LitTimestamp:
		return "CAST(" + quoteString(l.Text) + " AS TIMESTAMP)"
	case ir.LitDate:
		return "CAST(" + quoteString(l.Text) + " AS DATE)"
	}
	p.fail(l.Pos, "literal kind %s", l.Kind)
	return ""
}

func (p *printer) binary(e *ir.Binary) string {
	l, r := p.expr(e.L), p.expr(e.R)
	switch e.Op {
	case ir.OpAnd:
		return "(" + l + " AND " + r + ")"
	case ir.OpOr:
		return "(" + l + " OR " + r + ")"
	case ir.OpEqNullSafe:
		return "(" + l + " IS NOT DISTINCT FROM " + r + ")"
	case ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
		return "(" + l + " " + e.Op.String() + " " + r + ")"
	case ir.OpConcat:
		return "(" + l + " || " + r + ")"
	case ir.OpAdd, ir.OpSub, ir.OpMul:
		t := p.typeOf(e)
		if !t.IsNumeric() && t.Kind != ir.TDate32 && t.Kind != ir.TTimestamp {
			p.fail(e.Pos, "%s yielding %s", e.Op, t)
		}
		if d, ok := p.sparkDecimal(e); ok {
			return castTo(e.Pos, "("+l+" "+e.Op.String()+" "+r+")", d)
		}
		return p.cast(e, "("+l+" "+e.Op.String()+" "+r+")")
	case ir.OpDiv:
		return p.divide(e, l, r)
	case ir.OpBitAnd, ir.OpBitOr, ir.OpBitXor, ir.OpShl, ir.OpShr, ir.OpShrU:
		return p.bitwise(e, l, r) // sqlprint_bitwise_test.go
	case ir.OpMod:
		t := p.typeOf(e)
		switch {
		case t.IsInteger():
			return p.cast(e, fmt.Sprintf("spark_imod(%s, %s)", l, r))
		case t.IsFloat():
			return p.cast(e, fmt.Sprintf("spark_mod(%s, %s)", l, r))
		case t.Kind == ir.TDecimal:
			d, _ := p.sparkDecimal(e)
			return castTo(e.Pos, fmt.Sprintf("spark_mod(%s, %s)", l, r), d)
		}
		p.fail(e.Pos, "%% yielding %s", t)
	}
	p.fail(e.Pos, "operator %s", e.Op)
	return ""
}

// divide is Spark's '/': DOUBLE, or exact decimal division.
func (p *printer) divide(e *ir.Binary, l, r string) string {
	t := p.typeOf(e)
	switch {
	case t.Kind == ir.TFloat64:
		return fmt.Sprintf("spark_fdiv(CAST(%s AS DOUBLE), CAST(%s AS DOUBLE))", l, r)
	case t.Kind == ir.TDecimal:
		s1 := p.scaleOf(e.L)
		s2 := p.scaleOf(e.R)
		d, _ := p.sparkDecimal(e)
		return decimalDivide(p.unscaled(e.L, l, s1), p.unscaled(e.R, r, s2), s1, s2, d)
	}
	p.fail(e.Pos, "/ yielding %s", t)
	return ""
}

// decimalDivide divides two unscaled values (scales s1, s2) into Spark's
// decimal(P,S) with HALF_UP rounding.
func decimalDivide(num, den string, s1, s2 int, t ir.Type) string {
	k := t.Scale + s2 - s1
	if k >= 0 {
		num = fmt.Sprintf("(%s * %s)", num, pow10(k))
	} else {
		den = fmt.Sprintf("(%s * %s)", den, pow10(-k))
	}
	return fmt.Sprintf("CAST(spark_dec_text(spark_rdiv(%s, %s), %s, %d) AS DECIMAL(%d,%d))",
		num, den, pow10(t.Scale), t.Scale, t.Precision, t.Scale)
}

func pow10(k int) string {
	return "CAST('" + new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil).String() + "' AS HUGEINT)"
}

// scaleOf is the decimal scale of an operand of decimal arithmetic
// (integers have scale 0).
func (p *printer) scaleOf(e ir.Expr) int {
	t := p.typeOf(e)
	switch {
	case t.Kind == ir.TDecimal:
		return t.Scale
	case t.IsInteger() || t.Kind == ir.TUnknown:
		return 0
	}
	p.fail(e.Position(), "decimal operand of type %s", t)
	return 0
}

// unscaled is the HUGEINT unscaled value of a decimal (or integer) operand.
func (p *printer) unscaled(e ir.Expr, sql string, scale int) string {
	if t := p.typeOf(e); t.Kind != ir.TDecimal {
		return "CAST(" + sql + " AS HUGEINT)"
	}
	return fmt.Sprintf("CAST(replace(CAST(CAST(%s AS DECIMAL(38,%d)) AS VARCHAR), '.', '') AS HUGEINT)", sql, scale)
}

var aggregates = map[string]bool{"count": true, "sum": true, "avg": true, "mean": true, "min": true, "max": true}

func (p *printer) call(e *ir.Call) string {
	name := strings.ToLower(e.Name)
	if f := familyCalls[name]; f != nil {
		return f(p, e)
	}
	if aggregates[name] {
		return p.aggregate(e, name)
	}
	if e.Distinct || e.Star {
		p.fail(e.Pos, "%s(distinct or *)", name)
	}
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = p.expr(a)
	}
	argT := func(i int) ir.Type { return p.typeOf(e.Args[i]) }
	arity := func(ns ...int) {
		for _, n := range ns {
			if len(args) == n {
				return
			}
		}
		p.fail(e.Pos, "%s with %d arguments", name, len(args))
	}
	switch name {
	case "grouping": // setgroup: Spark's tinyint
		arity(1)
		return "CAST(grouping(" + args[0] + ") AS TINYINT)"
	case "grouping_id": // setgroup: bigint, the first key the most significant bit
		if len(args) == 0 && p.agg != nil {
			for _, k := range p.agg.Keys {
				args = append(args, p.expr(k.Expr))
			}
		}
		return "CAST(grouping(" + strings.Join(args, ", ") + ") AS BIGINT)"
	case "abs":
		arity(1)
		return p.cast(e, "abs("+args[0]+")")
	case "round":
		arity(1, 2)
		d := 0
		if len(args) == 2 {
			d = p.intConst(e.Args[1])
		}
		t := argT(0)
		switch {
		case t.Kind == ir.TDecimal:
			return p.cast(e, fmt.Sprintf("round(%s, %d)", args[0], d))
		case t.IsFloat():
			return fmt.Sprintf("CAST(round(CAST(CAST(CAST(%s AS DOUBLE) AS VARCHAR) AS DECIMAL(38,18)), %d) AS DOUBLE)", args[0], d)
		case t.IsInteger():
			if d >= 0 {
				return p.cast(e, args[0])
			}
			m := pow10(-d)
			return p.cast(e, fmt.Sprintf("(sign(%[1]s) * ((abs(CAST(%[1]s AS HUGEINT)) + %[2]s // 2) // %[2]s) * %[2]s)", args[0], m))
		}
	case "floor", "ceil", "ceiling":
		arity(1)
		fn := map[string]string{"floor": "floor", "ceil": "ceil", "ceiling": "ceil"}[name]
		if argT(0).IsInteger() {
			return p.cast(e, args[0])
		}
		return p.cast(e, fn+"("+args[0]+")")
	case "sqrt":
		arity(1)
		return fmt.Sprintf("CASE WHEN %[1]s < 0 THEN CAST('NaN' AS DOUBLE) ELSE sqrt(CAST(%[1]s AS DOUBLE)) END", args[0])
	case "power", "pow":
		arity(2)
		return fmt.Sprintf("pow(CAST(%s AS DOUBLE), CAST(%s AS DOUBLE))", args[0], args[1])
	case "exp":
		arity(1)
		return "exp(CAST(" + args[0] + " AS DOUBLE))"
	case "ln", "log10":
		arity(1)
		return fmt.Sprintf("CASE WHEN %[1]s <= 0 THEN NULL ELSE %[2]s(CAST(%[1]s AS DOUBLE)) END", args[0], name)
	case "mod":
		arity(2)
		t := p.typeOf(e)
		if t.IsInteger() {
			return p.cast(e, fmt.Sprintf("spark_imod(%s, %s)", args[0], args[1]))
		}
		return p.cast(e, fmt.Sprintf("spark_mod(%s, %s)", args[0], args[1]))
	case "greatest", "least", "coalesce":
		return p.cast(e, name+"("+strings.Join(args, ", ")+")")
	case "nullif":
		arity(2)
		return p.cast(e, "nullif("+args[0]+", "+args[1]+")")
	case "if":
		arity(3)
		return p.cast(e, fmt.Sprintf("CASE WHEN %s THEN %s ELSE %s END", args[0], args[1], args[2]))
	case "lower", "lcase", "upper", "ucase":
		arity(1)
		fn := map[string]string{"lower": "lower", "lcase": "lower", "upper": "upper", "ucase": "upper"}[name]
		return fn + "(" + args[0] + ")"
	case "length", "char_length", "character_length":
		arity(1)
		if argT(0).Kind != ir.TString {
			p.fail(e.Pos, "length of %s", argT(0))
		}
		return p.cast(e, "length("+args[0]+")")
	case "substring", "substr":
		arity(2, 3)
		n := "CAST(2147483647 AS BIGINT)"
		if len(args) == 3 {
			n = args[2]
		}
		return fmt.Sprintf("spark_substr(%s, %s, %s)", args[0], args[1], n)
	case "concat":
		if len(args) == 1 {
			return "CAST(" + args[0] + " AS VARCHAR)"
		}
		return "(" + strings.Join(args, " || ") + ")"
	case "trim", "ltrim", "rtrim":
		arity(1, 2)
		// Spark's two-argument form is trim(trimStr, str): the characters
		// to remove come first
		str, chars := args[0], "' '"
		if len(args) == 2 {
			str, chars = args[1], args[0]
		}
		return fmt.Sprintf("%s(%s, %s)", name, str, chars)
	case "replace":
		arity(2, 3)
		repl := "''"
		if len(args) == 3 {
			repl = args[2]
		}
		return fmt.Sprintf("CASE WHEN %[2]s = '' THEN %[1]s ELSE replace(%[1]s, %[2]s, %[3]s) END", args[0], args[1], repl)
	case "starts_with", "startswith", "ends_with", "endswith", "contains":
		arity(2)
		if argT(0).Kind != ir.TString {
			p.fail(e.Pos, "%s of %s", name, argT(0))
		}
		fn := map[string]string{"starts_with": "starts_with", "startswith": "starts_with", "ends_with": "ends_with",
			"endswith": "ends_with", "contains": "contains"}[name]
		return fn + "(" + args[0] + ", " + args[1] + ")"
	case "date_trunc":
		arity(2)
		unit := p.truncUnit(e.Args[0])
		return p.cast(e, fmt.Sprintf("date_trunc('%s', %s)", unit, p.asTimestamp(e.Args[1], args[1])))
	case "to_date":
		arity(1)
		if argT(0).Kind == ir.TString {
			return castFromString(p, e.Pos, args[0], ir.Date32, false)
		}
		return "CAST(" + args[0] + " AS DATE)"
	case "to_timestamp":
		arity(1)
		if argT(0).Kind == ir.TString {
			return p.cast(e, p.timestampLiteral(e.Args[0]))
		}
		return p.cast(e, args[0])
	case "year", "month", "day", "dayofmonth", "hour", "minute", "second":
		arity(1)
		fn := name
		if fn == "dayofmonth" {
			fn = "day"
		}
		return p.cast(e, fmt.Sprintf("%s(%s)", fn, args[0]))
	case "unix_timestamp":
		arity(1)
		if t := argT(0); t.Kind != ir.TTimestamp && t.Kind != ir.TDate32 {
			p.fail(e.Pos, "unix_timestamp of %s", t)
		}
		// ToTimestamp divides the microseconds by 10^6 as a Java long:
		// truncated toward zero (1969-12-31 23:59:59.5 is 0)
		return fmt.Sprintf("spark_quot(epoch_us(%s), CAST(1000000 AS BIGINT))", p.asTimestamp(e.Args[0], args[0]))
	case "timestamp_seconds", "timestamp_millis", "timestamp_micros":
		arity(1)
		if !argT(0).IsInteger() {
			p.fail(e.Pos, "%s of %s", name, argT(0))
		}
		per := map[string]string{"timestamp_seconds": "1000000", "timestamp_millis": "1000", "timestamp_micros": "1"}[name]
		return p.cast(e, fmt.Sprintf("make_timestamp(CAST(%s AS BIGINT) * CAST(%s AS BIGINT))", args[0], per))
	}
	p.fail(e.Pos, "function %s", name)
	return ""
}

// asTimestamp converts a date argument to TIMESTAMP (Spark's implicit cast);
// timestamps stay as they are.
func (p *printer) asTimestamp(e ir.Expr, sql string) string {
	if p.typeOf(e).Kind == ir.TDate32 {
		return "CAST(" + sql + " AS TIMESTAMP)"
	}
	return sql
}

// truncUnits maps Spark's date_trunc formats to DuckDB's parts.
var truncUnits = map[string]string{
	"year": "year", "yyyy": "year", "yy": "year", "quarter": "quarter", "month": "month", "mon": "month",
	"mm": "month", "week": "week", "day": "day", "dd": "day", "hour": "hour", "minute": "minute",
	"second": "second", "millisecond": "millisecond", "microsecond": "microsecond",
}

func (p *printer) truncUnit(e ir.Expr) string {
	l, ok := e.(*ir.Literal)
	if !ok || l.Kind != ir.LitString {
		p.fail(e.Position(), "date_trunc with a unit that is not a string literal")
	}
	u, ok := truncUnits[strings.ToLower(l.Text)]
	if !ok {
		p.fail(e.Position(), "date_trunc unit %q", l.Text)
	}
	return u
}

func (p *printer) timestampLiteral(e ir.Expr) string {
	l, ok := e.(*ir.Literal)
	if !ok || l.Kind != ir.LitString || !simpleTimestamp.MatchString(l.Text) {
		p.fail(e.Position(), "string to timestamp is supported only for a literal YYYY-MM-DD[ HH:MM:SS[.ffffff]]")
	}
	return "CAST(" + quoteString(l.Text) + " AS TIMESTAMP)"
}

// intConst is the value of an integer literal, possibly negated.
func (p *printer) intConst(e ir.Expr) int {
	neg := false
	if u, ok := e.(*ir.Unary); ok && u.Op == ir.OpNeg {
		neg, e = true, u.X
	}
	l, ok := e.(*ir.Literal)
	if !ok || l.Kind != ir.LitInt {
		p.fail(e.Position(), "want an integer constant")
	}
	v, err := strconv.Atoi(l.Text)
	if err != nil {
		p.fail(e.Position(), "integer constant %s", l.Text)
	}
	if neg {
		v = -v
	}
	return v
}

func (p *printer) aggregate(e *ir.Call, name string) string {
	flt := "" // an aggregate FILTER (WHERE ...): DuckDB's own (setgroup)
	if e.Filter != nil {
		flt = " FILTER (WHERE " + p.expr(e.Filter) + ")"
	}
	if e.Star {
		if name != "count" {
			p.fail(e.Pos, "%s(*)", name)
		}
		return "count(*)" + flt
	}
	distinct := ""
	if e.Distinct {
		distinct = "DISTINCT "
	}
	if name == "count" && len(e.Args) > 1 {
		// count(a, b, ...): rows where every argument is non-NULL; with
		// distinct, the distinct tuples of such rows
		var args, conds []string
		for _, a := range e.Args {
			x := p.expr(a)
			args = append(args, x)
			conds = append(conds, x+" IS NOT NULL")
		}
		what := "1"
		if e.Distinct {
			what = "row(" + strings.Join(args, ", ") + ")"
		}
		return fmt.Sprintf("count(%sCASE WHEN %s THEN %s END)%s", distinct, strings.Join(conds, " AND "), what, flt)
	}
	if len(e.Args) != 1 {
		p.fail(e.Pos, "%s with %d arguments", name, len(e.Args))
	}
	x := p.expr(e.Args[0])
	switch name {
	case "count":
		return "count(" + distinct + x + ")" + flt
	case "sum":
		if at := p.typeOf(e.Args[0]); at.Kind == ir.TDecimal {
			t := boundedDecimal(at.Precision+10, at.Scale)
			p.agree(e, t)
			return castTo(e.Pos, "sum("+distinct+x+")"+flt, t)
		}
		return p.cast(e, "sum("+distinct+x+")"+flt)
	case "min", "max":
		return p.cast(e, name+"("+distinct+x+")"+flt)
	case "avg", "mean":
		at := p.typeOf(e.Args[0])
		switch {
		case at.Kind == ir.TDecimal:
			// Spark's Average: DecimalDivideWithOverflowCheck, the sum
			// divided by the count at the result scale of decimal(p+4,s+4),
			// one HALF_UP rounding (Spark 4.1.4 and 4.2.1; not Divide's
			// result type and a cast, which rounds twice)
			t := boundedDecimal(at.Precision+4, at.Scale+4)
			p.agree(e, t)
			return decimalDivide(p.unscaled(e.Args[0], "sum("+distinct+x+")"+flt, at.Scale), "count("+distinct+x+")"+flt, at.Scale, 0, t)
		case at.IsNumeric():
			return "CAST(avg(" + distinct + "CAST(" + x + " AS DOUBLE))" + flt + " AS DOUBLE)"
		}
		p.fail(e.Pos, "avg of %s", at)
	}
	p.fail(e.Pos, "aggregate %s", name)
	return ""
}

func (p *printer) castExpr(e *ir.Cast) string {
	from := p.typeOf(e.X)
	x := p.expr(e.X)
	to := e.To
	op := "CAST"
	if e.Try {
		op = "TRY_CAST"
	}
	switch {
	case from.Kind == ir.TUnknown:
		return fmt.Sprintf("CAST(%s AS %s)", x, duckType(e.Pos, to))
	case from == to:
		return x
	case from.Kind == ir.TString && to.Kind != ir.TString:
		return castFromString(p, e.Pos, x, to, e.Try)
	case to.Kind == ir.TString:
		switch {
		case from.Kind == ir.TFloat64:
			return "spark_double_str(" + x + ")"
		case from.Kind == ir.TTimestamp:
			return "CAST(CAST(" + x + " AS TIMESTAMP) AS VARCHAR)"
		case from.Kind == ir.TBool || from.IsInteger() || from.Kind == ir.TDecimal || from.Kind == ir.TDate32:
			return "CAST(" + x + " AS VARCHAR)"
		}
	case (from.IsFloat() || from.Kind == ir.TDecimal) && to.IsInteger():
		return fmt.Sprintf("%s(trunc(%s) AS %s)", op, x, duckType(e.Pos, to))
	case from.IsNumeric() && (to.IsNumeric() || to.Kind == ir.TBool),
		from.Kind == ir.TBool && to.IsNumeric(),
		from.Kind == ir.TDate32 && to.Kind == ir.TTimestamp,
		from.Kind == ir.TTimestamp && (to.Kind == ir.TDate32 || to.Kind == ir.TTimestamp):
		return fmt.Sprintf("%s(%s AS %s)", op, x, duckType(e.Pos, to))
	}
	p.fail(e.Pos, "cast from %s to %s", from, to)
	return ""
}

// simpleTimestamp is the string form the printer casts to TIMESTAMP itself
// (a literal argument of to_timestamp), where both engines agree.
var simpleTimestamp = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2}(\.\d{1,6})?)?$`)

// Spark's string grammars, as DuckDB regular expressions (RE2).
const (
	reInteger = `[+-]?[0-9]+`
	reDecimal = `[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?`
	reDouble  = `[+-]?(NaN|Infinity)|[+-]?(([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?)[fFdD]?`
	reDate    = `(?s)^([+-]?[0-9]{4,7})(-([0-9]{1,2})(-([0-9]{1,2})([ T].*)?)?)?$`
)

// castFromString is Spark's ANSI CAST(string AS to) (or try_cast): the text
// is trimmed as Spark trims it (UTF8String.trimAll, or Java's String.trim
// for decimals and doubles), must match Spark's grammar for the type, and
// is otherwise CAST_INVALID_INPUT (NULL for try_cast).
func castFromString(p *printer, pos ir.Pos, x string, to ir.Type, try bool) string {
	bad, op := "error('CAST_INVALID_INPUT')", "CAST"
	if try {
		bad, op = "NULL", "TRY_CAST"
	}
	t := "spark_trim_all(" + x + ")"
	jt := "spark_java_trim(" + x + ")"
	d := duckType(pos, to)
	switch {
	case to.IsInteger():
		return fmt.Sprintf("CASE WHEN %s IS NULL THEN NULL WHEN regexp_full_match(%s, '%s') THEN %s(%s AS %s) ELSE %s END",
			x, t, reInteger, op, t, d, bad)
	case to.Kind == ir.TBool:
		return fmt.Sprintf("CASE WHEN %[1]s IS NULL THEN NULL WHEN lower(%[2]s) IN ('t', 'true', 'y', 'yes', '1') THEN true "+
			"WHEN lower(%[2]s) IN ('f', 'false', 'n', 'no', '0') THEN false ELSE %[3]s END", x, t, bad)
	case to.Kind == ir.TDecimal:
		return fmt.Sprintf("CASE WHEN %s IS NULL THEN NULL WHEN regexp_full_match(%s, '%s') THEN %s(%s AS %s) ELSE %s END",
			x, jt, reDecimal, op, jt, d, bad)
	case to.Kind == ir.TFloat64:
		return fmt.Sprintf("CASE WHEN %[1]s IS NULL THEN NULL "+
			"WHEN regexp_full_match(%[2]s, '%[3]s') THEN CAST(regexp_replace(%[2]s, '[fFdD]$', '') AS DOUBLE) "+
			"WHEN lower(%[4]s) IN ('inf', '+inf', 'infinity', '+infinity') THEN CAST('inf' AS DOUBLE) "+
			"WHEN lower(%[4]s) IN ('-inf', '-infinity') THEN CAST('-inf' AS DOUBLE) "+
			"WHEN lower(%[4]s) = 'nan' THEN CAST('nan' AS DOUBLE) ELSE %[5]s END", x, jt, reDouble, t, bad)
	case to.Kind == ir.TDate32:
		part := func(i int) string { return fmt.Sprintf("regexp_extract(%s, '%s', %d)", t, reDate, i) }
		pad := func(s string) string {
			return fmt.Sprintf("CASE WHEN %[1]s = '' THEN '01' ELSE lpad(%[1]s, 2, '0') END", s)
		}
		return fmt.Sprintf("CASE WHEN %s IS NULL THEN NULL WHEN regexp_full_match(%s, '%s') THEN %s((%s || '-' || %s || '-' || %s) AS DATE) ELSE %s END",
			x, t, reDate, op, part(1), pad(part(3)), pad(part(5)), bad)
	}
	p.fail(pos, "cast from string to %s", to)
	return ""
}

// Spark's DecimalPrecision rules (allowPrecisionLoss, the default), applied
// by the printer on its own rather than read from the resolve pass.

const maxPrecision = 38

func boundedDecimal(p, s int) ir.Type { return ir.Decimal(min(p, maxPrecision), min(s, maxPrecision)) }

// adjustPrecisionScale is DecimalType.adjustPrecisionScale.
func adjustPrecisionScale(p, s int) ir.Type {
	if p <= maxPrecision {
		return ir.Decimal(p, s)
	}
	intDigits := p - s
	minScale := min(s, 6)
	return ir.Decimal(maxPrecision, max(maxPrecision-intDigits, minScale))
}

// decimalResult is the result type of a decimal operator.
func decimalResult(op ir.BinaryOp, a, b ir.Type) ir.Type {
	p1, s1, p2, s2 := a.Precision, a.Scale, b.Precision, b.Scale
	switch op {
	case ir.OpAdd, ir.OpSub:
		s := max(s1, s2)
		return adjustPrecisionScale(max(p1-s1, p2-s2)+s+1, s)
	case ir.OpMul:
		return adjustPrecisionScale(p1+p2+1, s1+s2)
	case ir.OpDiv:
		s := max(6, s1+p2+1)
		return adjustPrecisionScale(p1-s1+s2+s, s)
	case ir.OpMod:
		return adjustPrecisionScale(min(p1-s1, p2-s2)+max(s1, s2), max(s1, s2))
	}
	panic(fmt.Sprintf("decimal operator %s", op))
}

// integralDigits is the decimal precision of each integer type.
var integralDigits = map[ir.TypeKind]int{ir.TInt8: 3, ir.TInt16: 5, ir.TInt32: 10, ir.TInt64: 20}

// decimalOperand is the decimal type an operand takes in decimal
// arithmetic: its own, decimal(10,0) for an int column, and for an integer
// literal (possibly negated) the fewest digits that hold it
// (DecimalType.fromLiteral).
func (p *printer) decimalOperand(e ir.Expr) (ir.Type, bool) {
	t := p.typeOf(e)
	if t.Kind == ir.TDecimal {
		return t, true
	}
	x := e
	if u, ok := x.(*ir.Unary); ok && u.Op == ir.OpNeg {
		x = u.X
	}
	if l, ok := x.(*ir.Literal); ok && l.Kind == ir.LitInt {
		return ir.Decimal(max(len(strings.TrimLeft(l.Text, "0")), 1), 0), true
	}
	if n, ok := integralDigits[t.Kind]; ok {
		return ir.Decimal(n, 0), true
	}
	return ir.Type{}, false
}

// sparkDecimal is Spark's type for decimal arithmetic e (false when e is
// not decimal arithmetic). A different type from the resolve pass is noted.
func (p *printer) sparkDecimal(e *ir.Binary) (ir.Type, bool) {
	if p.typeOf(e).Kind != ir.TDecimal {
		return ir.Type{}, false
	}
	a, ok1 := p.decimalOperand(e.L)
	b, ok2 := p.decimalOperand(e.R)
	if !ok1 || !ok2 {
		p.fail(e.Pos, "decimal %s with operands %s and %s", e.Op, p.typeOf(e.L), p.typeOf(e.R))
	}
	t := decimalResult(e.Op, a, b)
	p.agree(e, t)
	return t, true
}

// agree notes a resolve-pass type that differs from Spark's.
func (p *printer) agree(e ir.Expr, spark ir.Type) {
	if got := p.typeOf(e); got != spark {
		p.notes = append(p.notes, fmt.Sprintf("%s: %s is typed %s; Spark types it %s", e.Position(), exprText(e), got, spark))
	}
}

// exprText is a short rendering of an expression for messages.
func exprText(e ir.Expr) string {
	switch e := e.(type) {
	case *ir.Literal:
		return e.Text
	case *ir.ColumnRef:
		return e.Name
	case *ir.Binary:
		return "(" + exprText(e.L) + " " + e.Op.String() + " " + exprText(e.R) + ")"
	case *ir.Unary:
		return e.Op.String() + " " + exprText(e.X)
	case *ir.Call:
		var args []string
		for _, a := range e.Args {
			args = append(args, exprText(a))
		}
		return e.Name + "(" + strings.Join(args, ", ") + ")"
	}
	return fmt.Sprintf("%T", e)
}
