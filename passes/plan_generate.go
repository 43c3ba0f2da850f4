package passes

import "github.com/nordisk/thund/ir"

// generate checks a generator (LATERAL VIEW) against what the native
// backend runs: explode, posexplode, inline and stack, over a snapshot or
// a stream read alike (a generator keeps no state). stack's values are
// converted to their column's type, which the native casts must cover;
// json_tuple is refused.
func (p *planner) generate(n *ir.Generate) {
	switch n.Func {
	case "json_tuple":
		p.refuse(n.Pos, "json_tuple is not supported yet: extract the fields on Spark (target spark-4.1 or spark-4.2)")
	case "stack":
		s := p.u.Schemas[n]
		cols := s[len(p.u.Schemas[n.Input].Visible()):]
		width := len(s) - len(p.u.Schemas[n.Input])
		for i, a := range n.Args[1:] {
			if p.refuseConversion(a, cols[i%width].Type, "a value of stack") {
				return
			}
		}
	}
}
