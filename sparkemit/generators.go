package sparkemit

import (
	"strings"

	"github.com/nordisk/thund/ir"
	pb "github.com/nordisk/thund/sparkemit/connectpb"
)

// generate lowers a generator (LATERAL VIEW, or one in a SELECT list) as
// Spark Connect has it: a Project of the input's columns and the generator
// call, aliased to the generated columns' names (Spark's MultiAlias); an
// outer one calls the _outer variant (stack and json_tuple always make a
// row, so outer changes nothing for them).
func (l *lowerer) generate(n *ir.Generate) *pb.Relation {
	u := l.e.u
	vis := len(u.Schemas[n.Input].Visible())
	gen := u.Schemas[n][vis : vis+len(u.Schemas[n])-len(u.Schemas[n.Input])]
	name := n.Func
	if n.Outer && name != "stack" && name != "json_tuple" {
		name += "_outer"
	}
	args := make([]*pb.Expression, len(n.Args))
	for i, a := range n.Args {
		args[i] = l.expr(a)
	}
	al := &pb.Expression_Alias{Expr: call(name, args...), Name: gen.Names()}
	return project(l.rel(n.Input), []*pb.Expression{star(""), {ExprType: &pb.Expression_Alias_{Alias: al}}})
}

// qualified spells a column reference for Spark, without the qualifier of
// a generator's columns (a LATERAL VIEW alias): in Spark Connect a
// generator is a Project item, whose columns have none.
func (l *lowerer) qualified(q, name string) string {
	if l.generatorAlias(q) {
		q = ""
	}
	return qualified(q, name)
}

// generatorAlias reports whether q is the alias of a generator of the
// flow's query.
func (l *lowerer) generatorAlias(q string) bool {
	gen := false
	ir.WalkRel(l.flow.Query, func(r ir.Rel) bool {
		if g, ok := r.(*ir.Generate); ok && q != "" && strings.EqualFold(g.Alias, q) {
			gen = true
		}
		return !gen
	})
	return gen
}

// unqualifiedField is a struct field reference (q.col.f) without its
// qualifier when that is a generator's alias (see qualified).
func (l *lowerer) unqualifiedField(n *ir.ColumnRef) *ir.ColumnRef {
	parts := strings.Split(n.Qualifier, ".")
	if q := len(parts) - l.e.u.FieldRefs[n]; q == 1 && l.generatorAlias(parts[0]) {
		return &ir.ColumnRef{Pos: n.Pos, Qualifier: strings.Join(parts[1:], "."), Name: n.Name}
	}
	return n
}
