package sql

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/nordisk/thund/internal/suggest"
	"github.com/nordisk/thund/ir"
)

// exprItem converts a select-list item, where * and q.* are allowed.
func (c *conv) exprItem(e *exprAST) ir.Expr {
	if s := bareStar(e); s != nil {
		return c.star(s)
	}
	return c.expr(e)
}

// bareStar returns the star of an expression that is only a star.
func bareStar(e *exprAST) *starAST {
	if len(e.Or) != 1 || len(e.Or[0].And) != 1 {
		return nil
	}
	n := e.Or[0].And[0]
	if n.Pred == nil || n.Pred.Tail != nil {
		return nil
	}
	cmp := n.Pred.Left
	or := cmp.Left
	xor := or.Left
	and := xor.Left
	shift := and.Left
	add := shift.Left
	mul := add.Left
	if len(cmp.Rest)+len(or.Rest)+len(xor.Rest)+len(and.Rest)+len(shift.Rest)+len(add.Rest)+len(mul.Rest) != 0 {
		return nil
	}
	u := mul.Left
	if u.Postfix == nil || len(u.Postfix.Ops) != 0 {
		return nil
	}
	return u.Postfix.X.Star
}

func (c *conv) star(s *starAST) ir.Expr {
	st := &ir.Star{Pos: pos(s.Pos)}
	var q []string
	for _, p := range s.Qualifier {
		q = append(q, p.Name)
	}
	st.Qualifier = strings.Join(q, ".")
	for _, e := range s.Except {
		st.Except = append(st.Except, e.Name)
	}
	return st
}

// expr converts an expression; nil means an error was reported.
func (c *conv) expr(e *exprAST) ir.Expr {
	if e == nil {
		return nil
	}
	var out ir.Expr
	for i, a := range e.Or {
		x := c.and(a)
		if x == nil {
			return nil
		}
		if i == 0 {
			out = x
		} else {
			out = &ir.Binary{Pos: out.Position(), Op: ir.OpOr, L: out, R: x}
		}
	}
	return out
}

func (c *conv) and(a *andAST) ir.Expr {
	var out ir.Expr
	for i, n := range a.And {
		x := c.not(n)
		if x == nil {
			return nil
		}
		if i == 0 {
			out = x
		} else {
			out = &ir.Binary{Pos: out.Position(), Op: ir.OpAnd, L: out, R: x}
		}
	}
	return out
}

func (c *conv) not(n *notAST) ir.Expr {
	if n.Not != nil {
		x := c.not(n.Not)
		if x == nil {
			return nil
		}
		if ex, ok := x.(*ir.Exists); ok {
			// NOT EXISTS (...) is one node, as in the DSL (correlated subqueries)
			ex.Pos, ex.Not = pos(n.Pos), !ex.Not
			return ex
		}
		return &ir.Unary{Pos: pos(n.Pos), Op: ir.OpNot, X: x}
	}
	return c.predicate(n.Pred)
}

func (c *conv) predicate(p *predicateAST) ir.Expr {
	x := c.cmp(p.Left)
	if x == nil || p.Tail == nil {
		return x
	}
	t := p.Tail
	tp := pos(t.Pos)
	neg := func(e ir.Expr) ir.Expr {
		if t.Not {
			return &ir.Unary{Pos: tp, Op: ir.OpNot, X: e}
		}
		return e
	}
	switch {
	case t.Between != nil:
		lo, hi := c.cmp(t.Between.Lo), c.cmp(t.Between.Hi)
		if lo == nil || hi == nil {
			return nil
		}
		return &ir.Between{Pos: tp, X: x, Lo: lo, Hi: hi, Not: t.Not}
	case t.InQuery != nil:
		q := c.query(t.InQuery)
		if q == nil {
			return nil
		}
		return &ir.InSubquery{Pos: tp, X: x, Query: q, Not: t.Not}
	case t.InList != nil:
		in := &ir.In{Pos: tp, X: x, Not: t.Not}
		for _, e := range t.InList {
			y := c.expr(e)
			if y == nil {
				return nil
			}
			in.List = append(in.List, y)
		}
		return in
	case t.LikeQuant != "":
		c.errorf(tp, ir.CodeSyntax, "%s %s is not supported in pipeline SQL", strings.ToUpper(t.LikeQOp), strings.ToUpper(t.LikeQuant))
		return nil
	case t.Like != nil:
		pat := c.cmp(t.Like.Pattern)
		if pat == nil {
			return nil
		}
		if t.Like.Escape != nil {
			c.errorf(pos(t.Like.Escape.Pos), ir.CodeSyntax, "LIKE ... ESCAPE is not supported in pipeline SQL")
			return nil
		}
		switch op := strings.ToUpper(t.Like.Op); op {
		case "LIKE", "ILIKE":
			return likeExpr(op, tp, x, pat, t.Not)
		default: // RLIKE, REGEXP: the function of the name written
			return neg(&ir.Call{Pos: tp, Name: strings.ToLower(t.Like.Op), Args: []ir.Expr{x, pat}})
		}
	default: // IS ...
		if t.Not {
			c.errorf(tp, ir.CodeSyntax, "NOT before IS: write IS NOT")
			return nil
		}
		isNot := t.IsNot
		wrap := func(e ir.Expr) ir.Expr {
			if isNot {
				return &ir.Unary{Pos: tp, Op: ir.OpNot, X: e}
			}
			return e
		}
		if t.IsDistinc != nil {
			y := c.cmp(t.IsDistinc)
			if y == nil {
				return nil
			}
			// a IS DISTINCT FROM b is NOT (a <=> b).
			isNot = !isNot
			return wrap(&ir.Binary{Pos: tp, Op: ir.OpEqNullSafe, L: x, R: y})
		}
		switch strings.ToUpper(t.IsWhat) {
		case "NULL", "UNKNOWN":
			return &ir.IsNull{Pos: tp, X: x, Not: t.IsNot}
		case "TRUE", "FALSE":
			// x IS TRUE is x <=> TRUE: never NULL.
			lit := &ir.Literal{Pos: tp, Kind: ir.LitBool, Text: strings.ToLower(t.IsWhat)}
			return wrap(&ir.Binary{Pos: tp, Op: ir.OpEqNullSafe, L: x, R: lit})
		}
	}
	return nil
}

var cmpOps = map[string]ir.BinaryOp{
	"=": ir.OpEq, "==": ir.OpEq, "<>": ir.OpNe, "!=": ir.OpNe, "<": ir.OpLt, "<=": ir.OpLe,
	">": ir.OpGt, ">=": ir.OpGe, "<=>": ir.OpEqNullSafe,
}

func (c *conv) cmp(a *cmpAST) ir.Expr {
	out := c.bit(a.Left)
	for _, r := range a.Rest {
		if out == nil {
			return nil
		}
		y := c.bit(r.Right)
		if y == nil {
			return nil
		}
		out = &ir.Binary{Pos: pos(r.Pos), Op: cmpOps[r.Op], L: out, R: y}
	}
	return out
}

func (c *conv) bit(a *bitAST) ir.Expr {
	out := c.bitXor(a.Left)
	for _, r := range a.Rest {
		if out == nil {
			return nil
		}
		y := c.bitXor(r.Right)
		if y == nil {
			return nil
		}
		out = &ir.Binary{Pos: pos(r.Pos), Op: ir.OpBitOr, L: out, R: y}
	}
	return out
}

func (c *conv) bitXor(a *bitXorAST) ir.Expr {
	out := c.bitAnd(a.Left)
	for _, r := range a.Rest {
		if out == nil {
			return nil
		}
		y := c.bitAnd(r.Right)
		if y == nil {
			return nil
		}
		out = &ir.Binary{Pos: pos(r.Pos), Op: ir.OpBitXor, L: out, R: y}
	}
	return out
}

func (c *conv) bitAnd(a *bitAndAST) ir.Expr {
	out := c.shift(a.Left)
	for _, r := range a.Rest {
		if out == nil {
			return nil
		}
		y := c.shift(r.Right)
		if y == nil {
			return nil
		}
		out = &ir.Binary{Pos: pos(r.Pos), Op: ir.OpBitAnd, L: out, R: y}
	}
	return out
}

var shiftOps = map[string]ir.BinaryOp{"<<": ir.OpShl, ">>": ir.OpShr, ">>>": ir.OpShrU}

func (c *conv) shift(a *shiftAST) ir.Expr {
	out := c.add(a.Left)
	for _, r := range a.Rest {
		if out == nil {
			return nil
		}
		if !adjacent(r.Tokens, len(r.Op)) {
			c.errorf(pos(r.Pos), ir.CodeSyntax, "write the shift operator %s without spaces inside it", r.Op)
			return nil
		}
		y := c.add(r.Right)
		if y == nil {
			return nil
		}
		out = &ir.Binary{Pos: pos(r.Pos), Op: shiftOps[r.Op], L: out, R: y}
	}
	return out
}

// adjacent reports whether the first n tokens that are not whitespace
// follow each other with nothing between them (<< rather than < <).
func adjacent(toks []lexer.Token, n int) bool {
	var ops []lexer.Token
	for _, t := range toks {
		if t.Type != tokSpace && len(ops) < n {
			ops = append(ops, t)
		}
	}
	if len(ops) < n {
		return false
	}
	for i := 1; i < n; i++ {
		if ops[i].Pos.Offset != ops[i-1].Pos.Offset+len(ops[i-1].Value) {
			return false
		}
	}
	return true
}

var addOps = map[string]ir.BinaryOp{"+": ir.OpAdd, "-": ir.OpSub, "||": ir.OpConcat}

func (c *conv) add(a *addAST) ir.Expr {
	out := c.mul(a.Left)
	for _, r := range a.Rest {
		if out == nil {
			return nil
		}
		y := c.mul(r.Right)
		if y == nil {
			return nil
		}
		out = &ir.Binary{Pos: pos(r.Pos), Op: addOps[r.Op], L: out, R: y}
	}
	return out
}

var mulOps = map[string]ir.BinaryOp{"*": ir.OpMul, "/": ir.OpDiv, "%": ir.OpMod}

func (c *conv) mul(a *mulAST) ir.Expr {
	out := c.unary(a.Left)
	for _, r := range a.Rest {
		if out == nil {
			return nil
		}
		y := c.unary(r.Right)
		if y == nil {
			return nil
		}
		if strings.EqualFold(r.Op, "DIV") {
			c.errorf(pos(r.Pos), ir.CodeSyntax, "DIV (integral division) is not supported in pipeline SQL")
			return nil
		}
		out = &ir.Binary{Pos: pos(r.Pos), Op: mulOps[r.Op], L: out, R: y}
	}
	return out
}

func (c *conv) unary(u *unaryAST) ir.Expr {
	if u.Postfix != nil {
		return c.postfix(u.Postfix)
	}
	switch u.Op {
	case "~":
		x := c.unary(u.X)
		if x == nil {
			return nil
		}
		return &ir.Unary{Pos: pos(u.Pos), Op: ir.OpBitNot, X: x}
	case "+":
		return c.unary(u.X)
	}
	// -N with a type suffix is a negative literal (-128Y fits a TINYINT).
	if n := u.X.number(); n != "" {
		return c.number(n, pos(u.Pos), true)
	}
	x := c.unary(u.X)
	if x == nil {
		return nil
	}
	return &ir.Unary{Pos: pos(u.Pos), Op: ir.OpNeg, X: x}
}

// number returns the text of a unary expression that is only a number
// with a type suffix, or "".
func (u *unaryAST) number() string {
	if u.Postfix == nil || len(u.Postfix.Ops) > 0 || u.Postfix.X.Number == "" {
		return ""
	}
	n := strings.ToLower(u.Postfix.X.Number)
	if strings.HasSuffix(n, "l") || strings.HasSuffix(n, "s") || strings.HasSuffix(n, "y") {
		return u.Postfix.X.Number
	}
	return ""
}

func (c *conv) postfix(p *postfixAST) ir.Expr {
	x := c.primary(p.X)
	if x == nil {
		return nil
	}
	for _, op := range p.Ops {
		switch {
		case op.Cast != nil:
			to, ok := c.sparkType(op.Cast)
			if !ok {
				return nil
			}
			x = &ir.Cast{Pos: pos(op.Cast.Pos), X: x, To: to}
		case op.Index != nil: // nested types
			i := c.expr(op.Index)
			if i == nil {
				return nil
			}
			x = &ir.Subscript{Pos: pos(op.Pos), X: x, Index: i}
		default:
			x = &ir.GetField{Pos: pos(op.Pos), X: x, Name: op.Field.Name}
		}
	}
	return x
}

// niladic are the functions Spark lets you call without parentheses.
// A bare user is left a column reference (a common column name).
var niladic = wordSet(`current_date current_timestamp current_user session_user`)

func (c *conv) primary(p *primaryAST) ir.Expr {
	pp := pos(p.Pos)
	switch {
	case p.Case != nil:
		k := &ir.Case{Pos: pp}
		if p.Case.Operand != nil {
			if k.Operand = c.expr(p.Case.Operand); k.Operand == nil {
				return nil
			}
		}
		for _, w := range p.Case.Whens {
			cond, then := c.expr(w.Cond), c.expr(w.Then)
			if cond == nil || then == nil {
				return nil
			}
			k.Whens = append(k.Whens, &ir.When{Pos: pos(w.Pos), Cond: cond, Then: then})
		}
		if p.Case.Else != nil {
			if k.Else = c.expr(p.Case.Else); k.Else == nil {
				return nil
			}
		}
		return k
	case p.Cast != nil:
		x := c.expr(p.Cast.X)
		to, ok := c.sparkType(p.Cast.To)
		if x == nil || !ok {
			return nil
		}
		return &ir.Cast{Pos: pp, X: x, To: to, Try: strings.EqualFold(p.Cast.Kind, "TRY_CAST")}
	case p.Exists != nil: // correlated subqueries
		q := c.query(p.Exists)
		if q == nil {
			return nil
		}
		return &ir.Exists{Pos: pp, Query: q}
	case p.Interval != nil:
		d, ok := c.interval(p.Interval)
		if !ok {
			return nil
		}
		return &ir.Literal{Pos: pp, Kind: ir.LitInterval, Text: d.String()}
	case p.Typed != nil:
		return c.typedLiteral(p.Typed)
	case p.Number != "":
		return c.number(p.Number, pp, false)
	case p.Str != nil:
		return &ir.Literal{Pos: pp, Kind: ir.LitString, Text: p.Str.value()}
	case p.Bool != "":
		return &ir.Literal{Pos: pp, Kind: ir.LitBool, Text: strings.ToLower(p.Bool)}
	case p.Null:
		return &ir.Literal{Pos: pp, Kind: ir.LitNull}
	case p.Paren != nil:
		if p.Paren.Query != nil {
			q := c.query(p.Paren.Query)
			if q == nil {
				return nil
			}
			return &ir.ScalarSubquery{Pos: pp, Query: q}
		}
		if len(p.Paren.Exprs) > 1 {
			c.errorf(pp, ir.CodeSyntax, "a row constructor (a, b, ...) is not supported in pipeline SQL")
			return nil
		}
		return c.expr(p.Paren.Exprs[0])
	case p.Star != nil:
		c.errorf(pp, ir.CodeSyntax, "* is only allowed as a select-list item and in count(*)")
		return nil
	case p.Extract != nil:
		x := c.expr(p.Extract.From)
		if x == nil {
			return nil
		}
		return c.extract(pp, p.Extract.Field.Name, pos(p.Extract.Field.Pos), x)
	case p.Position != nil: // POSITION(sub IN s) is position(sub, s)
		sub, in := c.cmp(p.Position.Sub), c.expr(p.Position.In)
		if sub == nil || in == nil {
			return nil
		}
		return &ir.Call{Pos: pp, Name: "position", Args: []ir.Expr{sub, in}}
	case p.Call != nil:
		return c.call(p.Call)
	case p.Column != nil:
		return c.column(p.Column)
	}
	return nil
}

// column converts a column reference. window.start and window.end (the
// struct Spark's window() yields; session_window.start and .end for
// session_window()) are the window_start and window_end columns of
// ir.Window.
func (c *conv) column(q *colRefAST) ir.Expr {
	parts := q.parts()
	p := pos(q.Pos)
	switch len(parts) {
	case 1:
		if name := strings.ToLower(parts[0]); !q.First.Quoted && niladic[name] {
			if name == "current_date" || name == "current_timestamp" {
				return &ir.Call{Pos: p, Name: name} // current_date()
			}
			c.errorf(p, ir.CodeSyntax, "%s is not supported in pipeline SQL", name)
			return nil
		}
		if c.isLambdaParam(parts[0]) { // lambda.go
			return &ir.LambdaVar{Pos: p, Name: parts[0]}
		}
		return &ir.ColumnRef{Pos: p, Name: parts[0]}
	case 2:
		if (strings.EqualFold(parts[0], "window") || strings.EqualFold(parts[0], "session_window")) && !c.aliasInScope(parts[0]) {
			switch strings.ToLower(parts[1]) {
			case "start":
				return &ir.ColumnRef{Pos: p, Name: "window_start"}
			case "end":
				return &ir.ColumnRef{Pos: p, Name: "window_end"}
			}
		}
	}
	return &ir.ColumnRef{Pos: p, Qualifier: strings.Join(parts[:len(parts)-1], "."), Name: parts[len(parts)-1]}
}

// nullsArg are the aggregates whose IGNORE NULLS is their second argument.
var nullsArg = wordSet(`first last first_value last_value any_value`)

// extractFields are the fields EXTRACT(field FROM x) takes, by each of
// Spark's spellings (DatePart.parseExtractField), and the function each is:
// Spark's EXTRACT of one of them is exactly that function of x.
var extractFields = map[string]string{
	"YEAR": "year", "Y": "year", "YEARS": "year", "YR": "year", "YRS": "year",
	"MONTH": "month", "MON": "month", "MONS": "month", "MONTHS": "month",
	"DAY": "day", "D": "day", "DAYS": "day",
	"HOUR": "hour", "H": "hour", "HOURS": "hour", "HR": "hour", "HRS": "hour",
	"MINUTE": "minute", "M": "minute", "MIN": "minute", "MINS": "minute", "MINUTES": "minute",
}

// dateFields are the other fields Spark's EXTRACT takes
// (DatePart.parseExtractField): EXTRACT(field FROM x) of one of them is
// Spark's extract('field', x), the catalogue's date_part.
var dateFields = wordSet(`SECOND S SEC SECONDS SECS YEAROFWEEK QUARTER QTR WEEK W WEEKS DAYOFWEEK DOW
	DAYOFWEEK_ISO DOW_ISO DOY`)

// extract converts EXTRACT(field FROM x) to the function of x it is:
// EXTRACT(YEAR FROM x) is year(x), EXTRACT(QUARTER FROM x) is
// extract('QUARTER', x). The call keeps EXTRACT's position, and its name
// is the field's or extract, so that no message names a function the query
// does not spell.
func (c *conv) extract(at ir.Pos, field string, fieldPos ir.Pos, x ir.Expr) ir.Expr {
	f := strings.ToUpper(field)
	if fn, ok := extractFields[f]; ok {
		return &ir.Call{Pos: at, Name: fn, Args: []ir.Expr{x}}
	}
	if dateFields[f] {
		return &ir.Call{Pos: at, Name: "extract", Args: []ir.Expr{&ir.Literal{Pos: fieldPos, Kind: ir.LitString, Text: f}, x}}
	}
	if k, ok := suggest.Closest(f, []string{"YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "QUARTER", "WEEK"}); ok {
		c.errorf(fieldPos, ir.CodeSyntax, "EXTRACT of unknown field %s (did you mean %s?)", f, k)
		return nil
	}
	c.errorf(fieldPos, ir.CodeSyntax, "EXTRACT of unknown field %s: it extracts YEAR, QUARTER, MONTH, WEEK, DAY, DAYOFWEEK, DOY, HOUR, MINUTE, SECOND, ...", f)
	return nil
}

func (c *conv) call(a *callAST) ir.Expr {
	name := a.Name.name()
	p := pos(a.Pos)
	if strings.Contains(name, ".") {
		c.errorf(p, ir.CodeSyntax, "the qualified function name %s is not supported in pipeline SQL (user-defined functions are not)", name)
		return nil
	}
	call := &ir.Call{Pos: p, Name: name, Distinct: strings.EqualFold(a.Quant, "DISTINCT")}
	if a.Star {
		if name != "count" {
			c.errorf(p, ir.CodeSyntax, "%s(*) is not supported: only count(*) takes *", name)
			return nil
		}
		call.Star = true
	}
	for _, arg := range a.Args {
		if arg.Named != nil {
			c.errorf(pos(arg.Pos), ir.CodeSyntax, "named arguments (%s => ...) are only supported in read_files(...) and read_kafka(...)", arg.Named.Key.Name)
			return nil
		}
		x := c.arg(arg)
		if x == nil {
			return nil
		}
		call.Args = append(call.Args, x)
	}
	if (name == "like" || name == "ilike") && a.Filter == nil && a.Over == nil && a.Nulls == "" && !call.Distinct && !a.Star {
		if len(call.Args) != 2 {
			c.errorf(p, ir.CodeSyntax, "%s(...) takes 2 arguments in pipeline SQL (a string and a pattern; an escape is not supported), got %d", name, len(call.Args))
			return nil
		}
		return likeExpr(strings.ToUpper(name), p, call.Args[0], call.Args[1], false)
	}
	if unitFuncs[strings.ToLower(name)] && len(call.Args) > 0 {
		// TIMESTAMPADD(HOUR, n, ts): the unit is a word, which Spark
		// Connect takes as a string; a word Spark does not know is
		// resolve's to refuse
		if u, ok := call.Args[0].(*ir.ColumnRef); ok && u.Qualifier == "" {
			call.Args[0] = &ir.Literal{Pos: u.Pos, Kind: ir.LitString, Text: strings.ToUpper(u.Name)}
		}
	}
	if a.Filter != nil {
		if call.Filter = c.expr(a.Filter); call.Filter == nil {
			return nil
		}
	}
	switch strings.ToUpper(a.Nulls) {
	case "IGNORE":
		switch {
		case nullsArg[name] && len(call.Args) == 1:
			call.Args = append(call.Args, &ir.Literal{Pos: p, Kind: ir.LitBool, Text: "true"})
		case a.Over != nil && windowIgnoreNulls[name]:
			call.IgnoreNulls = true
		default:
			c.errorf(p, ir.CodeSyntax, "IGNORE NULLS is not supported for %s(...) in pipeline SQL", name)
			return nil
		}
	case "RESPECT":
		if !nullsArg[name] && (a.Over == nil || !windowIgnoreNulls[name]) {
			c.errorf(p, ir.CodeSyntax, "RESPECT NULLS is not supported for %s(...) in pipeline SQL", name)
			return nil
		}
	}
	if a.Over != nil {
		return c.over(call, a.Over)
	}
	return call
}

// likeExpr is x LIKE pat, or x ILIKE pat, which Spark has as LIKE over
// lower-cased operands; the functions like(x, pat) and ilike(x, pat) are
// the same.
func likeExpr(op string, p ir.Pos, x, pat ir.Expr, not bool) ir.Expr {
	if op == "ILIKE" {
		x = &ir.Call{Pos: x.Position(), Name: "lower", Args: []ir.Expr{x}}
		pat = &ir.Call{Pos: pat.Position(), Name: "lower", Args: []ir.Expr{pat}}
	}
	return &ir.Like{Pos: p, X: x, Pattern: pat, Not: not}
}

// unitFuncs are the functions whose first argument is a unit written as a
// word: TIMESTAMPADD(HOUR, n, ts).
var unitFuncs = wordSet(`timestampadd timestampdiff`)

// number converts a numeric literal with Spark's typing: 1 is INT (BIGINT
// when it does not fit, DECIMAL beyond), 1.5 is DECIMAL(2,1) as written,
// 1.5e0 and 1.5D are DOUBLE, 1L BIGINT, 1S SMALLINT, 1Y TINYINT, 1.5F
// FLOAT, 1.5BD DECIMAL. The model's literal kinds are int, decimal and
// float; the other types are a cast of one of them. neg is a leading minus
// (for the suffixed integer kinds, whose range depends on it).
func (c *conv) number(text string, p ir.Pos, neg bool) ir.Expr {
	t := strings.ToLower(text)
	suffix := ""
	switch {
	case strings.HasSuffix(t, "bd"):
		suffix, t = "bd", t[:len(t)-2]
	case strings.HasSuffix(t, "l"), strings.HasSuffix(t, "s"), strings.HasSuffix(t, "y"),
		strings.HasSuffix(t, "d"), strings.HasSuffix(t, "f"):
		suffix, t = t[len(t)-1:], t[:len(t)-1]
	}
	hasExp := strings.Contains(t, "e")
	hasDot := strings.Contains(t, ".")
	mantissa := t
	if i := strings.IndexByte(t, 'e'); i >= 0 {
		mantissa = t[:i]
	}
	if strings.HasPrefix(mantissa, ".") {
		t = "0" + t
	}
	negate := func(e ir.Expr) ir.Expr {
		if neg {
			return &ir.Unary{Pos: p, Op: ir.OpNeg, X: e}
		}
		return e
	}
	bad := func(format string, args ...any) ir.Expr {
		c.errorf(p, ir.CodeBadLiteral, format, args...)
		return nil
	}
	float := func() *ir.Literal {
		s := t
		if i := strings.IndexByte(s, 'e'); i > 0 && s[i-1] == '.' {
			s = s[:i] + "0" + s[i:]
		} else if strings.HasSuffix(s, ".") {
			s += "0"
		}
		if !hasExp {
			s += "e0"
		}
		return &ir.Literal{Pos: p, Kind: ir.LitFloat, Text: s}
	}
	switch suffix {
	case "":
		switch {
		case hasExp:
			f := float()
			if _, err := strconv.ParseFloat(f.Text, 64); err != nil {
				return bad("the number %s does not fit a DOUBLE", text)
			}
			return negate(f)
		case hasDot:
			return negate(c.decimal(t, p, text))
		}
		digits := strings.TrimLeft(t, "0")
		if digits == "" {
			digits = "0"
		}
		if _, err := strconv.ParseInt(digits, 10, 64); err == nil {
			return negate(&ir.Literal{Pos: p, Kind: ir.LitInt, Text: digits})
		}
		if len(digits) > 38 {
			return bad("the integer %s has more than 38 digits", text)
		}
		// Beyond BIGINT Spark types the literal DECIMAL(p,0).
		return negate(&ir.Cast{Pos: p, X: &ir.Literal{Pos: p, Kind: ir.LitDecimal, Text: digits + ".0"}, To: ir.Decimal(len(digits), 0)})
	case "l", "s", "y":
		if hasDot || hasExp {
			return bad("%s: an integer type suffix needs an integer", text)
		}
		typ, bits := ir.Int64, 64
		switch suffix {
		case "s":
			typ, bits = ir.Int16, 16
		case "y":
			typ, bits = ir.Int8, 8
		}
		digits := strings.TrimLeft(t, "0")
		if digits == "" {
			digits = "0"
		}
		s := digits
		if neg {
			s = "-" + digits
		}
		if _, err := strconv.ParseInt(s, 10, bits); err != nil {
			return bad("%s%s does not fit a %s", map[bool]string{true: "-"}[neg], text, typ.SQL())
		}
		if neg {
			return &ir.Cast{Pos: p, X: &ir.Unary{Pos: p, Op: ir.OpNeg, X: &ir.Literal{Pos: p, Kind: ir.LitInt, Text: digits}}, To: typ}
		}
		return &ir.Cast{Pos: p, X: &ir.Literal{Pos: p, Kind: ir.LitInt, Text: digits}, To: typ}
	case "d", "f":
		f := float()
		bits := 64
		if suffix == "f" {
			bits = 32
		}
		if _, err := strconv.ParseFloat(f.Text, bits); err != nil {
			return bad("the number %s does not fit a %s", text, map[int]ir.Type{64: ir.Float64, 32: ir.Float32}[bits].SQL())
		}
		if suffix == "f" {
			return negate(&ir.Cast{Pos: p, X: f, To: ir.Float32})
		}
		return negate(f)
	default: // bd
		if hasExp {
			return bad("%s: a BD literal with an exponent is not supported; write the digits", text)
		}
		if hasDot {
			return negate(c.decimal(t, p, text))
		}
		digits := strings.TrimLeft(t, "0")
		if digits == "" {
			digits = "0"
		}
		if len(digits) > 38 {
			return bad("the decimal %s has more than 38 digits", text)
		}
		return negate(&ir.Cast{Pos: p, X: &ir.Literal{Pos: p, Kind: ir.LitInt, Text: digits}, To: ir.Decimal(len(digits), 0)})
	}
}

// decimal converts 1.50 (DECIMAL(3,2), as written); 1. is DECIMAL(1,0).
func (c *conv) decimal(t string, p ir.Pos, text string) ir.Expr {
	intPart, frac, _ := strings.Cut(t, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	prec := max(len(digits), len(frac), 1)
	if prec > 38 {
		c.errorf(p, ir.CodeBadLiteral, "the decimal %s has more than 38 digits", text)
		return nil
	}
	if frac == "" {
		ip := strings.TrimLeft(intPart, "0")
		if ip == "" {
			ip = "0"
		}
		return &ir.Cast{Pos: p, X: &ir.Literal{Pos: p, Kind: ir.LitInt, Text: ip}, To: ir.Decimal(max(len(ip), 1), 0)}
	}
	return &ir.Literal{Pos: p, Kind: ir.LitDecimal, Text: t}
}

// interval converts an INTERVAL literal to a duration.
func (c *conv) interval(iv *intervalAST) (ir.Duration, bool) {
	p := pos(iv.Pos)
	if iv.To != nil {
		c.errorf(p, ir.CodeSyntax, "INTERVAL ... TO ... is not supported in pipeline SQL: write INTERVAL 1 DAY 2 HOURS")
		return 0, false
	}
	var total ir.Duration
	for _, part := range iv.Parts {
		var d ir.Duration
		switch {
		case part.Str != nil && part.Unit == "":
			if len(iv.Parts) > 1 {
				c.errorf(pos(part.Pos), ir.CodeBadDuration, "INTERVAL %q needs a unit", part.Str.value())
				return 0, false
			}
			v, err := parseDurationText(part.Str.value())
			if err != nil {
				c.errorf(pos(part.Pos), ir.CodeBadDuration, "INTERVAL %q: %v", part.Str.value(), err)
				return 0, false
			}
			d = v
		case part.Unit == "":
			c.errorf(pos(part.Pos), ir.CodeBadDuration, "INTERVAL %s needs a unit (SECONDS, MINUTES, ...)", part.Num)
			return 0, false
		default:
			num := part.Num
			if part.Str != nil {
				num = strings.TrimSpace(part.Str.value())
			}
			unit, _, err := unitLength(part.Unit)
			if err != nil {
				c.errorf(pos(part.Pos), ir.CodeBadDuration, "INTERVAL %s %s: %v", num, part.Unit, err)
				return 0, false
			}
			v, err := scaleDecimal(num, unit)
			if err != nil {
				c.errorf(pos(part.Pos), ir.CodeBadDuration, "INTERVAL %s %s: %v", num, part.Unit, err)
				return 0, false
			}
			d = v
		}
		if part.Sign == "-" {
			d = -d
		}
		total += d
	}
	return total, true
}

// typedLiteral converts DATE '...', TIMESTAMP '...' and the like.
func (c *conv) typedLiteral(t *typedLitAST) ir.Expr {
	p := pos(t.Pos)
	v := unquoteString(t.Value)
	switch strings.ToUpper(t.Type) {
	case "DATE":
		d, err := parseDate(v)
		if err != nil {
			c.errorf(p, ir.CodeBadLiteral, "DATE %q: %v", v, err)
			return nil
		}
		return &ir.Literal{Pos: p, Kind: ir.LitDate, Text: d}
	case "TIMESTAMP", "TIMESTAMP_LTZ":
		ts, err := parseTimestamp(v, true)
		if err != nil {
			c.errorf(p, ir.CodeBadLiteral, "TIMESTAMP %q: %v", v, err)
			return nil
		}
		if timestampHasZone(v) {
			// The suffix names the instant, whatever the session zone: as
			// Spark reads it, and as CAST(string AS TIMESTAMP) keeps it on
			// both engines. A literal without one is the session zone's
			// local time (the Literal).
			typ, _ := sparkTypeOf("TIMESTAMP", nil, false)
			return &ir.Cast{Pos: p, X: &ir.Literal{Pos: p, Kind: ir.LitString, Text: v}, To: typ}
		}
		return &ir.Literal{Pos: p, Kind: ir.LitTimestamp, Text: ts}
	case "TIMESTAMP_NTZ":
		ts, err := parseTimestamp(v, false)
		if err != nil {
			c.errorf(p, ir.CodeBadLiteral, "TIMESTAMP_NTZ %q: %v", v, err)
			return nil
		}
		return &ir.Cast{Pos: p, X: &ir.Literal{Pos: p, Kind: ir.LitTimestamp, Text: ts}, To: ir.Timestamp(ir.Micro, "")}
	case "X":
		c.errorf(p, ir.CodeBadLiteral, "binary literals (X'...') are not supported in pipeline SQL")
		return nil
	case "TIME":
		c.errorf(p, ir.CodeBadLiteral, "TIME literals are not supported: the model has no time-of-day type")
		return nil
	}
	c.errorf(p, ir.CodeSyntax, "unexpected string after %s: typed literals are DATE, TIMESTAMP, TIMESTAMP_NTZ and INTERVAL", t.Type)
	return nil
}

// parseDate accepts yyyy-[m]m-[d]d (Spark's date literal) and returns YYYY-MM-DD.
func parseDate(s string) (string, error) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "T "); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, "-")
	if len(parts) != 3 {
		return "", fmt.Errorf("want YYYY-MM-DD")
	}
	y, e1 := strconv.Atoi(parts[0])
	m, e2 := strconv.Atoi(parts[1])
	d, e3 := strconv.Atoi(parts[2])
	if e1 != nil || e2 != nil || e3 != nil || len(parts[0]) != 4 {
		return "", fmt.Errorf("want YYYY-MM-DD")
	}
	tm := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if tm.Month() != time.Month(m) || tm.Day() != d {
		return "", fmt.Errorf("no such date")
	}
	return tm.Format("2006-01-02"), nil
}

// parseTimestamp accepts 'YYYY-MM-DD[( |T)HH:MM[:SS[.f...]]][zone]' and
// returns the canonical UTC text YYYY-MM-DD HH:MM:SS[.ffffff]. A timestamp
// without a zone is read in UTC (the session time zone Thund assumes).
// zoned allows a zone (Z, +HH:MM, or a name such as UTC).
func parseTimestamp(s string, zoned bool) (string, error) {
	s = strings.TrimSpace(s)
	layouts := []string{
		"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999Z07:00",
		"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999",
		"2006-01-02 15:04Z07:00", "2006-01-02T15:04Z07:00",
		"2006-01-02 15:04", "2006-01-02T15:04",
		"2006-01-02",
	}
	loc := time.UTC
	body := s
	if i := strings.LastIndexByte(s, ' '); i > 10 {
		if l, err := time.LoadLocation(s[i+1:]); err == nil {
			loc, body = l, s[:i]
		}
	}
	for _, l := range layouts {
		t, err := time.ParseInLocation(l, body, loc)
		if err != nil {
			continue
		}
		if !zoned && (strings.Contains(l, "Z07") || loc != time.UTC) {
			return "", fmt.Errorf("a TIMESTAMP_NTZ has no zone")
		}
		t = t.UTC()
		out := t.Format("2006-01-02 15:04:05")
		if t.Nanosecond()%1000 != 0 {
			return "", fmt.Errorf("timestamps have microsecond precision")
		}
		if us := t.Nanosecond() / 1000; us != 0 {
			out += fmt.Sprintf(".%06d", us)
		}
		return out, nil
	}
	return "", fmt.Errorf("want YYYY-MM-DD HH:MM:SS[.ffffff][zone]")
}

// timestampHasZone reports whether a valid TIMESTAMP literal's text ends in
// a zone: Z, an offset, or a zone name after a space.
func timestampHasZone(s string) bool {
	s = strings.TrimSpace(s)
	if _, err := parseTimestamp(s, false); err == nil {
		return false
	}
	_, err := parseTimestamp(s, true)
	return err == nil
}

// sparkType converts a Spark SQL type name (docs: doc.go).
func (c *conv) sparkType(t *typeAST) (ir.Type, bool) {
	if isNestedTypeName(t.Name.Name) {
		return c.nestedType(t) // nested.go
	}
	if t.Parts != nil || t.Empty {
		c.errorf(pos(t.Pos), ir.CodeSyntax, "type %s takes no <...>: only ARRAY, MAP and STRUCT do", strings.ToUpper(t.Name.Name))
		return ir.Type{}, false
	}
	typ, err := sparkTypeOf(t.Name.Name, t.Args, t.WithoutTZ)
	if err != nil {
		c.errorf(pos(t.Pos), ir.CodeUnknownType, "%v", err)
		return ir.Type{}, false
	}
	return typ, true
}

// sparkTypeOf maps a Spark type to the model's Arrow type.
func sparkTypeOf(name string, args []string, withoutTZ bool) (ir.Type, error) {
	n := strings.ToLower(name)
	noArgs := func(t ir.Type) (ir.Type, error) {
		if len(args) > 0 {
			return ir.Type{}, fmt.Errorf("type %s takes no arguments", strings.ToUpper(name))
		}
		return t, nil
	}
	if withoutTZ && n != "timestamp" {
		return ir.Type{}, fmt.Errorf("WITHOUT TIME ZONE applies to TIMESTAMP")
	}
	switch n {
	case "boolean", "bool":
		return noArgs(ir.Bool)
	case "tinyint", "byte":
		return noArgs(ir.Int8)
	case "smallint", "short":
		return noArgs(ir.Int16)
	case "int", "integer":
		return noArgs(ir.Int32)
	case "bigint", "long":
		return noArgs(ir.Int64)
	case "float", "real":
		return noArgs(ir.Float32)
	case "double":
		return noArgs(ir.Float64)
	case "string":
		return noArgs(ir.StringT)
	case "varchar", "char", "character":
		if len(args) > 1 {
			return ir.Type{}, fmt.Errorf("type %s takes one length", strings.ToUpper(name))
		}
		return ir.StringT, nil
	case "binary":
		return noArgs(ir.BinaryT)
	case "date":
		return noArgs(ir.Date32)
	case "timestamp", "timestamp_ltz":
		if withoutTZ {
			return noArgs(ir.Timestamp(ir.Micro, ""))
		}
		return noArgs(ir.Timestamp(ir.Micro, "UTC"))
	case "timestamp_ntz":
		return noArgs(ir.Timestamp(ir.Micro, ""))
	case "decimal", "dec", "numeric":
		p, s := 10, 0
		if len(args) > 2 {
			return ir.Type{}, fmt.Errorf("DECIMAL takes a precision and a scale")
		}
		var err error
		if len(args) >= 1 {
			if p, err = strconv.Atoi(args[0]); err != nil {
				return ir.Type{}, fmt.Errorf("DECIMAL precision %s is not an integer", args[0])
			}
		}
		if len(args) == 2 {
			if s, err = strconv.Atoi(args[1]); err != nil {
				return ir.Type{}, fmt.Errorf("DECIMAL scale %s is not an integer", args[1])
			}
		}
		if p < 1 || p > 38 || s < 0 || s > p {
			return ir.Type{}, fmt.Errorf("DECIMAL(%d,%d): want 1 <= precision <= 38 and 0 <= scale <= precision", p, s)
		}
		return ir.Decimal(p, s), nil
	case "interval", "variant", "void", "time", "geography", "geometry", "object":
		return ir.Type{}, fmt.Errorf("the type %s is not supported in pipeline SQL", strings.ToUpper(name))
	}
	want := []string{"BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL", "STRING", "BINARY", "DATE", "TIMESTAMP", "TIMESTAMP_NTZ", "ARRAY", "MAP", "STRUCT"}
	if k, ok := suggest.Closest(name, want); ok {
		return ir.Type{}, fmt.Errorf("unknown type %s (did you mean %s?)", name, k)
	}
	return ir.Type{}, fmt.Errorf("unknown type %s (want BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p,s), STRING, BINARY, DATE, TIMESTAMP, TIMESTAMP_NTZ, ARRAY<T>, MAP<K, V> or STRUCT<name: T, ...>)", name)
}
