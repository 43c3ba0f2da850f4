package sql

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/nordisk/thund/ir"
)

// Generators (explode, posexplode, inline, stack, json_tuple and their
// _outer variants) become an ir.Generate: LATERAL VIEW after FROM, or a
// generator standing as a whole SELECT item.

// lateralAST is LATERAL VIEW [OUTER] f(args) alias [AS] [col, ...]: Spark
// requires the table alias (lateral refuses its absence by name).
type lateralAST struct {
	Pos   lexer.Position
	Outer bool          `parser:"'LATERAL' 'VIEW' @'OUTER'?"`
	Call  *exprAST      `parser:"@@"`
	Alias *aliasIdent   `parser:"@@?"`
	Names []*aliasIdent `parser:"'AS'? ( @@ ( ',' @@ )* )?"`
}

// generatorCall reads x as a generator call: its Generate function and
// whether it is an _outer variant; ok is false for anything else.
func generatorCall(x ir.Expr) (call *ir.Call, fn string, outer, ok bool) {
	call, isCall := x.(*ir.Call)
	if !isCall {
		return nil, "", false, false
	}
	fn, outer, ok = ir.SplitGenerator(call.Name)
	return call, fn, outer, ok
}

// lateral applies one LATERAL VIEW to the relation in.
func (c *conv) lateral(in ir.Rel, l *lateralAST) ir.Rel {
	x := c.expr(l.Call)
	if x == nil {
		return nil
	}
	call, fn, outer, ok := generatorCall(x)
	if !ok {
		c.errorf(x.Position(), ir.CodeSyntax, "LATERAL VIEW needs a generator (explode, posexplode, inline, stack, json_tuple or an _outer variant), got %s", ir.FormatExpr(x, ir.Label))
		return nil
	}
	if l.Alias == nil {
		c.errorf(x.Position(), ir.CodeSyntax, "LATERAL VIEW %s(...) needs a table alias after the call, as Spark's grammar does: LATERAL VIEW %s(...) e [AS name, ...]", call.Name, call.Name)
		return nil
	}
	g := &ir.Generate{Pos: pos(l.Pos), Input: in, Func: fn, Args: call.Args, Outer: outer || l.Outer, Alias: l.Alias.Name}
	for _, n := range l.Names {
		g.Names = append(g.Names, n.Name)
	}
	c.noteAlias(g.Alias)
	return g
}

// selectGenerator takes a generator standing as a whole SELECT item out of
// the items: it becomes a Generate over in, aliased by its function's name,
// and the item its columns: those the item's alias or AS (a, b) names,
// else a star over them (their names are the generator's defaults, which
// depend on the argument's type). A second generator in a SELECT, and one
// beside a *, an aggregate or GROUP BY, are refused with a position.
func (c *conv) selectGenerator(sel *selectAST, in ir.Rel, items []selItem) (ir.Rel, []selItem, bool) {
	var gen *ir.Generate
	var out []selItem
	for i, it := range items {
		call, fn, outer, ok := generatorCall(it.expr)
		if !ok {
			out = append(out, it)
			continue
		}
		if gen != nil {
			c.errorf(it.pos, ir.CodeSyntax, "a second generator (%s) in a SELECT is not supported in pipeline SQL: use LATERAL VIEW for the others", call.Name)
			return nil, nil, false
		}
		gen = &ir.Generate{Pos: call.Pos, Input: in, Func: fn, Args: call.Args, Outer: outer, Alias: fn}
		switch {
		case len(sel.Items[i].AsNames) > 0:
			for _, n := range sel.Items[i].AsNames {
				gen.Names = append(gen.Names, n.Name)
			}
		case it.alias != "":
			gen.Names = []string{it.alias}
		}
		for _, n := range gen.Names {
			out = append(out, selItem{pos: it.pos, expr: &ir.ColumnRef{Pos: it.pos, Qualifier: gen.Alias, Name: n}})
		}
		if len(gen.Names) == 0 {
			out = append(out, selItem{pos: it.pos, expr: &ir.Star{Pos: it.pos, Qualifier: gen.Alias}})
		}
	}
	if gen == nil {
		return in, items, true
	}
	for _, it := range out {
		if s, ok := it.expr.(*ir.Star); ok && !strings.EqualFold(s.Qualifier, gen.Alias) {
			c.errorf(it.pos, ir.CodeSyntax, "a * beside the generator %s in a SELECT is not supported in pipeline SQL: write FROM ... LATERAL VIEW %s(...) alias AS name, ... and SELECT *", gen.Func, gen.Func)
			return nil, nil, false
		}
		if containsAgg(it.expr) {
			c.errorf(it.pos, ir.CodeBadAggregate, "a generator beside an aggregate is not supported in pipeline SQL: aggregate in a subquery, and explode its result outside")
			return nil, nil, false
		}
	}
	if len(sel.GroupBy) > 0 || sel.GroupAll || sel.Having != nil {
		c.errorf(gen.Pos, ir.CodeBadAggregate, "a generator in a SELECT with GROUP BY or HAVING is not supported in pipeline SQL: group in a subquery, and explode its result outside")
		return nil, nil, false
	}
	return gen, out, true
}
