package passes

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/nordisk/thund/ir"
)

// This file is the driver's invariant checker (Options.Verify), in the
// manner of the Go compiler's checkFunc: after every pass it checks that the
// pass left the IR unchanged and well formed, and that what the pass
// recorded in the Unit is complete and consistent. A broken invariant is a
// compiler bug, reported as an internal error, not a diagnostic.

// snapshot encodes the pipeline, positions included, to detect a pass that
// modifies it.
func snapshot(p *ir.Pipeline) []byte {
	b, err := ir.MarshalJSON(p)
	if err != nil {
		return []byte("unencodable: " + err.Error())
	}
	return b
}

// verify checks the invariants after the named pass. before is the
// snapshot taken before it; failed says the pass reported errors (its
// results may then be partial, and only the IR itself is checked).
func (u *Unit) verify(name string, before []byte, failed bool) error {
	var probs []string
	if !bytes.Equal(before, snapshot(u.Pipeline)) {
		probs = append(probs, "the pass modified the IR (passes record their results in the Unit)")
	}
	if !failed {
		probs = append(probs, checkIR(u.Pipeline)...)
		for _, c := range resultChecks {
			if u.ran(c.pass) {
				probs = append(probs, c.check(u)...)
			}
		}
	}
	if len(probs) == 0 {
		return nil
	}
	if len(probs) > 10 {
		probs = append(probs[:10], fmt.Sprintf("and %d more", len(probs)-10))
	}
	return fmt.Errorf("internal error: verify after pass %s: %s", name, strings.Join(probs, "; "))
}

// resultChecks lists, per pass, the checks of what it recorded; each runs
// once its pass has run.
var resultChecks = []struct {
	pass  string
	check func(*Unit) []string
}{
	{"resolve", checkResolve},
	{"sanity", checkSanity},
	{"capability", checkCapability},
	{"fuse", checkFuse},
}

// checkIR checks the structure of the IR: no nil nodes where one is
// required, * only as a select item, and no node shared by two parents
// (the passes key their results by node).
func checkIR(p *ir.Pipeline) []string {
	c := &irChecker{seen: map[any]bool{}}
	for i, d := range p.Datasets {
		if d == nil {
			c.bad("dataset %d is nil", i)
			continue
		}
		for _, e := range d.Expectations {
			if e == nil || e.Cond == nil {
				c.bad("dataset %s: an expectation without a condition", d.Name)
				continue
			}
			c.expr(e.Cond, false)
		}
	}
	for i, f := range p.Flows {
		if f == nil {
			c.bad("flow %d is nil", i)
			continue
		}
		if f.Query == nil {
			c.bad("flow %s has no query", f.Name)
			continue
		}
		c.rel(f.Query)
		if f.CDC != nil {
			c.expr(f.CDC.SequenceBy, true)
			c.expr(f.CDC.DeleteWhen, true)
		}
	}
	return c.probs
}

type irChecker struct {
	seen  map[any]bool
	probs []string
}

func (c *irChecker) bad(format string, args ...any) {
	c.probs = append(c.probs, fmt.Sprintf(format, args...))
}

func (c *irChecker) once(n any, what string) bool {
	if c.seen[n] {
		c.bad("%s at %s is shared by two parents", what, posOf(n))
		return false
	}
	c.seen[n] = true
	return true
}

func posOf(n any) ir.Pos {
	switch n := n.(type) {
	case ir.Rel:
		return n.Position()
	case ir.Expr:
		return n.Position()
	}
	return ir.Pos{}
}

func (c *irChecker) rel(r ir.Rel) {
	if r == nil {
		c.bad("a nil operator")
		return
	}
	kind := ir.NodeKindName(r)
	if !c.once(r, kind) {
		return
	}
	need := func(e ir.Expr, what string) {
		if e == nil {
			c.bad("%s at %s has no %s", kind, r.Position(), what)
		}
	}
	items := func(list []*ir.NamedExpr, star bool) {
		for _, it := range list {
			if it == nil || it.Expr == nil {
				c.bad("%s at %s has an empty item", kind, r.Position())
				continue
			}
			if _, ok := it.Expr.(*ir.Star); ok && star {
				c.once(it.Expr, "star")
				continue
			}
			c.expr(it.Expr, false)
		}
	}
	switch n := r.(type) {
	case *ir.Scan:
		if n.Name == "" {
			c.bad("scan at %s names no dataset", n.Pos)
		}
	case *ir.Filter:
		need(n.Cond, "condition")
		c.expr(n.Cond, true)
	case *ir.Project:
		if len(n.Items) == 0 {
			c.bad("project at %s has no items", n.Pos)
		}
		items(n.Items, true)
	case *ir.Aggregate:
		items(n.Keys, false)
		items(n.Aggs, false)
	case *ir.Join:
		if n.Left == nil || n.Right == nil {
			c.bad("join at %s lacks an input", n.Pos)
		}
		if n.On != nil && len(n.Using) > 0 {
			c.bad("join at %s has both on and using", n.Pos)
		}
		c.expr(n.On, true)
	case *ir.Window:
		need(n.Time, "time column")
		c.expr(n.Time, true)
	case *ir.Union:
		if len(n.Inputs) == 0 {
			c.bad("union at %s has no inputs", n.Pos)
		}
	case *ir.SetOp:
		if n.Left == nil || n.Right == nil {
			c.bad("%s at %s lacks an input", n.Kind, n.Pos)
		}
	case *ir.Generate: // generators, LATERAL VIEW
		if !ir.GeneratorFuncs[n.Func] {
			c.bad("generate at %s runs %q, which is no generator", n.Pos, n.Func)
		}
		for _, a := range n.Args {
			need(a, "generator argument")
			c.expr(a, false)
		}
	case *ir.Sort:
		for _, k := range n.Keys {
			if k == nil || k.Expr == nil {
				c.bad("sort at %s has an empty key", n.Pos)
				continue
			}
			c.expr(k.Expr, false)
		}
	}
	for _, in := range ir.RelInputs(r) {
		c.rel(in)
	}
}

// expr checks an expression tree; optional allows a nil root.
func (c *irChecker) expr(e ir.Expr, optional bool) {
	if e == nil {
		if !optional {
			c.bad("a nil expression")
		}
		return
	}
	if !c.once(e, ir.NodeKindName(e)) {
		return
	}
	switch n := e.(type) {
	case *ir.Star:
		c.bad("* at %s outside a select item", n.Pos)
	case *ir.Case:
		if len(n.Whens) == 0 {
			c.bad("case at %s has no when", n.Pos)
		}
		for _, w := range n.Whens {
			if w == nil || w.Cond == nil || w.Then == nil {
				c.bad("case at %s has an empty when", n.Pos)
				return
			}
		}
	case *ir.ScalarSubquery:
		c.rel(n.Query)
	case *ir.InSubquery:
		c.rel(n.Query)
	case *ir.Exists: // correlated subqueries
		c.rel(n.Query)
	}
	for _, ch := range ir.ExprChildren(e) {
		c.expr(ch, false)
	}
}

// flowExprs calls fn for every expression of every flow (subqueries
// included), and for every operator.
func flowNodes(p *ir.Pipeline, rel func(*ir.Flow, ir.Rel), expr func(ir.Expr)) {
	for _, f := range p.Flows {
		ir.WalkRel(f.Query, func(r ir.Rel) bool {
			if rel != nil {
				rel(f, r)
			}
			for _, e := range ir.RelExprs(r) {
				ir.WalkExpr(e, func(e ir.Expr) bool {
					if expr != nil {
						expr(e)
					}
					return true
				})
			}
			return true
		})
	}
}

func checkResolve(u *Unit) []string {
	var probs []string
	for _, d := range u.Pipeline.Datasets {
		if _, ok := u.Datasets[d]; !ok {
			probs = append(probs, fmt.Sprintf("dataset %s has no resolved schema", d.Name))
		}
	}
	for _, f := range u.Pipeline.Flows {
		if u.Flows[f] == nil {
			probs = append(probs, fmt.Sprintf("flow %s has no FlowInfo", f.Name))
		}
	}
	flowNodes(u.Pipeline, func(f *ir.Flow, r ir.Rel) {
		s, ok := u.Schemas[r]
		if !ok {
			probs = append(probs, fmt.Sprintf("%s at %s has no schema", ir.NodeKindName(r), r.Position()))
			return
		}
		switch n := r.(type) {
		case *ir.Project:
			if len(u.Projections[n]) != len(s) {
				probs = append(probs, fmt.Sprintf("project at %s: %d projection columns for %d fields", n.Pos, len(u.Projections[n]), len(s)))
			}
		case *ir.Join:
			if info := u.Joins[n]; info == nil || len(info.Output) != len(s) {
				probs = append(probs, fmt.Sprintf("join at %s: join columns do not match its schema", n.Pos))
			}
		case *ir.Aggregate:
			if len(s) != len(n.Keys)+len(n.Aggs) {
				probs = append(probs, fmt.Sprintf("aggregate at %s: %d fields for %d items", n.Pos, len(s), len(n.Keys)+len(n.Aggs)))
			}
		}
	}, func(e ir.Expr) {
		if _, ok := e.(*ir.Star); ok {
			return
		}
		if _, ok := u.Types[e]; !ok {
			probs = append(probs, fmt.Sprintf("%s at %s has no type", exprString(e), e.Position()))
		}
		if c, ok := e.(*ir.ColumnRef); ok {
			b, ok := u.Refs[c]
			switch {
			case !ok:
				probs = append(probs, fmt.Sprintf("column %s at %s is not bound", exprString(c), c.Pos))
			case b.Rel != nil && (b.Index < 0 || b.Index >= len(u.Schemas[b.Rel])):
				probs = append(probs, fmt.Sprintf("column %s at %s is bound outside its input's schema", exprString(c), c.Pos))
			}
		}
	})
	return probs
}

func checkSanity(u *Unit) []string {
	var probs []string
	for _, f := range u.Pipeline.Flows {
		fi := u.Flows[f]
		switch {
		case fi == nil || fi.Emission == "":
			probs = append(probs, fmt.Sprintf("flow %s has no emission", f.Name))
		case fi.Bounded != (fi.Emission == EmissionBatch):
			probs = append(probs, fmt.Sprintf("flow %s is bounded=%v with emission %s", f.Name, fi.Bounded, fi.Emission))
		}
	}
	return probs
}

func checkCapability(u *Unit) []string {
	if u.Caps == nil || u.Report == nil {
		return []string{"no capabilities or lowering report"}
	}
	if u.Report.Target != u.Opts.Target {
		return []string{fmt.Sprintf("report for %s, compiling for %s", u.Report.Target, u.Opts.Target)}
	}
	return nil
}

func checkFuse(u *Unit) []string {
	var probs []string
	for _, f := range u.Pipeline.Flows {
		fi := u.Flows[f]
		if fi == nil || len(fi.Stages) == 0 {
			probs = append(probs, fmt.Sprintf("flow %s has no stages", f.Name))
			continue
		}
		count := map[ir.Rel]int{}
		for i, st := range fi.Stages {
			if st.ID != i {
				probs = append(probs, fmt.Sprintf("flow %s: stage %d has id %d", f.Name, i, st.ID))
			}
			if len(st.Ops) != len(st.Rels) {
				probs = append(probs, fmt.Sprintf("flow %s: stage %d ops and operators differ", f.Name, i))
			}
			for _, in := range append(append([]int{}, st.Inputs...), st.Subqueries...) {
				if in >= i {
					probs = append(probs, fmt.Sprintf("flow %s: stage %d reads stage %d, which is not before it", f.Name, i, in))
				}
			}
			for _, r := range st.Rels {
				if r != nil {
					count[r]++
				}
			}
		}
		ir.WalkRel(f.Query, func(r ir.Rel) bool {
			if count[r] != 1 {
				probs = append(probs, fmt.Sprintf("flow %s: %s at %s is in %d stages", f.Name, ir.NodeKindName(r), r.Position(), count[r]))
			}
			return true
		})
	}
	return probs
}
