package dsl

import (
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/nordisk/thund/ir"
)

// lateralStage is the generator stage, SQL's LATERAL VIEW:
// lateral view [outer] f(args) [alias] [as name, ...], where f is explode,
// posexplode, inline, stack or json_tuple (or an _outer variant).
type lateralStage struct {
	Pos   lexer.Position
	Outer bool      `parser:"'lateral' 'view' @'outer'?"`
	Call  *callExpr `parser:"@@"`
	Alias *ident    `parser:"@Ident?"`
	Names []ident   `parser:"( 'as' @Ident ( ',' @Ident )* )?"`
}

// lateral lowers a lateral view stage over rel to an ir.Generate.
func (l *lowerer) lateral(rel ir.Rel, st *lateralStage, pos ir.Pos) ir.Rel {
	name := lowerASCII(string(st.Call.Name))
	fn, outer, ok := ir.SplitGenerator(name)
	if !ok {
		l.errorf(st.Call.Pos, ir.CodeSyntax, "lateral view needs a generator (explode, posexplode, inline, stack, json_tuple or an _outer variant), got %s", name)
		return rel
	}
	g := &ir.Generate{Pos: pos, Input: rel, Func: fn, Outer: outer || st.Outer}
	for _, a := range st.Call.Args {
		g.Args = append(g.Args, l.arg(a))
	}
	if st.Alias != nil {
		g.Alias = string(*st.Alias)
	}
	for _, n := range st.Names {
		g.Names = append(g.Names, string(n))
	}
	return g
}
