package passes

import (
	"github.com/nordisk/thund/ir"
)

// Column demand: for every operator of a query (and of its subqueries),
// which of its output columns its consumer needs, from the root down
// (FlowPlan.Need). Materializing operators (a join's build side, a sort)
// store only those; scans load columns lazily and so read only what the
// code they feed touches. The conditions of filters directly over a scan
// are collected on the way for its bounds.
type demand struct {
	u       *Unit
	need    map[ir.Rel][]bool
	filters map[*ir.Scan][]ir.Expr
}

// demandRoot computes the demand of the flow's query and of its subquery
// expressions' queries.
func (p *planner) demandRoot(q ir.Rel) {
	d := &demand{u: p.u, need: p.fp.Need, filters: p.filters}
	d.root(q)
	walkAll(q, func(r ir.Rel) {
		for _, e := range ir.RelExprs(r) {
			ir.WalkExpr(e, func(x ir.Expr) bool {
				switch s := x.(type) {
				case *ir.ScalarSubquery:
					d.root(s.Query)
				case *ir.InSubquery:
					d.root(s.Query)
				case *ir.Exists: // correlated subqueries
					d.root(s.Query)
				}
				return true
			})
		}
	})
}

// root marks every visible column of a query's root as needed.
func (d *demand) root(r ir.Rel) {
	s := d.u.Schemas[r]
	n := make([]bool, len(s))
	for i := range s.Visible() {
		n[i] = true
	}
	d.visit(r, n)
}

// mark adds the columns of input bound by the expressions' column
// references.
func (d *demand) refs(in ir.Rel, exprs ...ir.Expr) []bool {
	n := make([]bool, len(d.u.Schemas[in]))
	d.addRefs(n, in, exprs...)
	return n
}

// addRefs marks the columns of in that the expressions read.
func (d *demand) addRefs(n []bool, in ir.Rel, exprs ...ir.Expr) {
	for _, e := range exprs {
		ir.WalkExpr(e, func(x ir.Expr) bool {
			if c, ok := x.(*ir.ColumnRef); ok {
				if b, ok := d.u.Refs[c]; ok && b.Depth == 0 && b.Rel == in && b.Index < len(n) {
					n[b.Index] = true
				}
			}
			if q := ir.SubqueryQuery(x); q != nil {
				// a correlated subquery reads columns of in too
				walkQueryExprs(q, func(x ir.Expr) {
					if c, ok := x.(*ir.ColumnRef); ok {
						if b, ok := d.u.Refs[c]; ok && b.Depth > 0 && b.Rel == in && b.Index < len(n) {
							n[b.Index] = true
						}
					}
				})
			}
			return true
		})
	}
}

// orMarks adds the marks of b to a.
func orMarks(a, b []bool) []bool {
	for i := range a {
		if i < len(b) && b[i] {
			a[i] = true
		}
	}
	return a
}

// visit records need for r and propagates to its inputs.
func (d *demand) visit(r ir.Rel, need []bool) {
	if old, ok := d.need[r]; ok {
		need = orMarks(append([]bool(nil), need...), old)
	}
	d.need[r] = need
	switch n := r.(type) {
	case *ir.SubqueryRel:
		in := make([]bool, len(d.u.Schemas[n.Input]))
		copy(in, need)
		d.visit(n.Input, in)
	case *ir.Filter:
		if s, ok := n.Input.(*ir.Scan); ok {
			d.filters[s] = append(d.filters[s], n.Cond)
		}
		in := d.refs(n.Input, n.Cond)
		d.visit(n.Input, orMarks(in, need))
	case *ir.Project:
		in := make([]bool, len(d.u.Schemas[n.Input]))
		for j, pc := range d.u.Projections[n] {
			if j >= len(need) || !need[j] {
				continue
			}
			if pc.InputIndex >= 0 {
				in[pc.InputIndex] = true
			} else {
				d.addRefs(in, n.Input, n.Items[pc.Item].Expr)
			}
		}
		d.visit(n.Input, in)
	case *ir.Aggregate:
		var exprs []ir.Expr
		for _, k := range n.Keys {
			exprs = append(exprs, k.Expr)
		}
		for _, a := range n.Aggs {
			exprs = append(exprs, a.Expr)
		}
		d.visit(n.Input, d.refs(n.Input, exprs...))
	case *ir.Join:
		info := d.u.Joins[n]
		l := make([]bool, len(d.u.Schemas[n.Left]))
		rr := make([]bool, len(d.u.Schemas[n.Right]))
		for k, jc := range info.Output {
			if k >= len(need) || !need[k] {
				continue
			}
			if jc.Left >= 0 {
				l[jc.Left] = true
			}
			if jc.Right >= 0 {
				rr[jc.Right] = true
			}
		}
		if n.On != nil {
			d.addRefs(l, n.Left, n.On)
			d.addRefs(rr, n.Right, n.On)
		}
		for _, k := range info.LeftKeys {
			if k >= 0 {
				l[k] = true
			}
		}
		for _, k := range info.RightKeys {
			if k >= 0 {
				rr[k] = true
			}
		}
		d.visit(n.Left, l)
		d.visit(n.Right, rr)
	case *ir.Window:
		d.visit(n.Input, d.passThrough(n.Input, need, 2, n.Time))
	case *ir.Generate: // generators, LATERAL VIEW
		d.visit(n.Input, d.passThrough(n.Input, need, len(d.u.Schemas[n])-len(d.u.Schemas[n.Input]), n.Args...))
	case *ir.Union:
		for _, in := range n.Inputs {
			m := make([]bool, len(d.u.Schemas[in]))
			copy(m, need)
			if !n.All {
				for i := range d.u.Schemas[in].Visible() {
					m[i] = true
				}
			}
			d.visit(in, m)
		}
	case *ir.SetOp: // EXCEPT, INTERSECT compare whole rows
		for _, in := range []ir.Rel{n.Left, n.Right} {
			m := make([]bool, len(d.u.Schemas[in]))
			for i := range d.u.Schemas[in].Visible() {
				m[i] = true
			}
			d.visit(in, m)
		}
	case *ir.Distinct:
		in := make([]bool, len(d.u.Schemas[n.Input]))
		for i := range d.u.Schemas[n.Input].Visible() {
			in[i] = true
		}
		d.visit(n.Input, in)
	case *ir.Sort:
		var exprs []ir.Expr
		for _, k := range n.Keys {
			exprs = append(exprs, k.Expr)
		}
		in := d.refs(n.Input, exprs...)
		d.visit(n.Input, orMarks(in, need))
	case *ir.Limit:
		in := make([]bool, len(d.u.Schemas[n.Input]))
		copy(in, need)
		d.visit(n.Input, in)
	}
}

// passThrough is the demand on the input of an operator that outputs its
// input's visible columns, then added columns computed from exprs, then
// the input's hidden columns (a window, a generator).
func (d *demand) passThrough(input ir.Rel, need []bool, added int, exprs ...ir.Expr) []bool {
	in := d.refs(input, exprs...)
	vis := len(d.u.Schemas[input].Visible())
	for k, x := range need {
		switch {
		case !x:
		case k < vis:
			in[k] = true
		case k >= vis+added:
			in[k-added] = true
		}
	}
	return in
}
