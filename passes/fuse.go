package passes

import (
	"github.com/nordisk/thund/ir"
)

// Stage is one step of a flow's plan. A fused stage is a maximal chain of
// stateless operators (scan, filter, project, subquery alias, and the
// target's expectations) that codegen compiles into one typed loop; every
// stateful operator (aggregate, join, window, distinct, sort, limit, union,
// and a project computing window functions) is a stage of its own, a
// boundary between chains.
type Stage struct {
	ID         int      `json:"id"`
	Ops        []string `json:"ops"`                  // operator kind names, in execution order ("scan", "filter", ..., "expect")
	Fused      bool     `json:"fused"`                // a chain of stateless operators
	Inputs     []int    `json:"inputs,omitempty"`     // the stages whose output this one reads (join: left, right)
	Subqueries []int    `json:"subqueries,omitempty"` // the stages computing the subqueries its expressions use
	Bounded    bool     `json:"bounded"`              // its input holds no stream read
	Rels       []ir.Rel `json:"-"`                    // the operators, aligned with Ops (nil for "expect")
}

// opExpect is the op name of a dataset's expectations checked in a stage.
const opExpect = "expect"

// stateless reports the operators that fuse into chains.
func stateless(r ir.Rel) bool {
	switch r := r.(type) {
	case *ir.Project:
		// window functions: a select computing one sees its whole
		// partition, a stage of its own
		for _, it := range r.Items {
			if ir.HasOver(it.Expr) {
				return false
			}
		}
		return true
	case *ir.Scan, *ir.Range, *ir.Filter, *ir.SubqueryRel:
		return true
	}
	return false
}

// fuse plans every flow's stages.
func fuse(u *Unit) {
	for _, f := range u.Pipeline.Flows {
		fi := u.Flows[f]
		if fi == nil || f.Query == nil {
			continue
		}
		b := &stageBuilder{u: u, unbounded: map[ir.Rel]bool{}}
		root := b.build(f.Query)
		if t := fi.Target; t != nil && u.runsExpectations(t) {
			st := b.stages[root]
			if !st.Fused {
				st = b.add(&Stage{Fused: true, Inputs: []int{root}, Bounded: st.Bounded})
			}
			st.Ops = append(st.Ops, opExpect)
			st.Rels = append(st.Rels, nil)
			root = st.ID
		}
		fi.Stages = b.ordered(root)
	}
}

// runsExpectations reports whether the target checks any of a dataset's
// expectations (the capability pass dropped or refused the others).
func (u *Unit) runsExpectations(d *ir.Dataset) bool {
	for _, e := range d.Expectations {
		if u.Caps == nil {
			return true
		}
		if e.Action == ir.ActWarn && u.Caps.WarnExpectations.OK() || e.Action != ir.ActWarn && u.Caps.Expectations.OK() {
			return true
		}
	}
	return false
}

type stageBuilder struct {
	u         *Unit
	stages    []*Stage
	unbounded map[ir.Rel]bool
}

func (b *stageBuilder) add(st *Stage) *Stage {
	st.ID = len(b.stages)
	b.stages = append(b.stages, st)
	return st
}

func (b *stageBuilder) isUnbounded(r ir.Rel) bool {
	if v, ok := b.unbounded[r]; ok {
		return v
	}
	v := false
	if sc, ok := r.(*ir.Scan); ok {
		v = sc.Stream
	}
	for _, in := range ir.RelInputs(r) {
		v = b.isUnbounded(in) || v
	}
	b.unbounded[r] = v
	return v
}

// build plans an operator tree and returns the stage that yields its output.
func (b *stageBuilder) build(r ir.Rel) int {
	var ins []int
	for _, in := range ir.RelInputs(r) {
		ins = append(ins, b.build(in))
	}
	var subs []int
	for _, e := range ir.RelExprs(r) {
		ir.WalkExpr(e, func(e ir.Expr) bool {
			switch e := e.(type) {
			case *ir.ScalarSubquery:
				subs = append(subs, b.build(e.Query))
			case *ir.InSubquery:
				subs = append(subs, b.build(e.Query))
			}
			return true
		})
	}
	var st *Stage
	switch {
	case stateless(r) && len(ins) == 1 && b.stages[ins[0]].Fused:
		st = b.stages[ins[0]] // extend the chain
	case stateless(r):
		st = b.add(&Stage{Fused: true, Inputs: ins})
	default:
		st = b.add(&Stage{Inputs: ins})
	}
	st.Ops = append(st.Ops, ir.NodeKindName(r))
	st.Rels = append(st.Rels, r)
	st.Subqueries = append(st.Subqueries, subs...)
	st.Bounded = !b.isUnbounded(r)
	return st.ID
}

// ordered returns the stages reachable from root, inputs first, numbered
// in that order.
func (b *stageBuilder) ordered(root int) []*Stage {
	var out []*Stage
	seen := map[int]bool{}
	var visit func(id int)
	visit = func(id int) {
		if seen[id] {
			return
		}
		seen[id] = true
		st := b.stages[id]
		for _, s := range st.Subqueries {
			visit(s)
		}
		for _, in := range st.Inputs {
			visit(in)
		}
		out = append(out, st)
	}
	visit(root)
	renum := map[int]int{}
	for i, st := range out {
		renum[st.ID] = i
	}
	for _, st := range out {
		st.ID = renum[st.ID]
		for i, in := range st.Inputs {
			st.Inputs[i] = renum[in]
		}
		for i, s := range st.Subqueries {
			st.Subqueries[i] = renum[s]
		}
	}
	return out
}
