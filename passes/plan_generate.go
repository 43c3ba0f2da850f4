package passes

import "github.com/nordisk/thund/ir"

// generate checks a generator (LATERAL VIEW) against what the native
// backend runs: every generator, over a snapshot or a stream read alike (a
// generator keeps no state). stack's values are converted to their
// column's type (from NULL), which the native casts must cover.
func (p *planner) generate(n *ir.Generate) {
	switch n.Func {
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
