package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
)

// Incremental materialization. A materialized view declared `materialize
// incremental` is maintained by appending, each run, what its flows compute
// from the input that is new since its last version; the runtime (rt/etl)
// decides per run whether that is possible or a full recompute is needed.
// That is exact only for queries where every output row depends on one input
// row: scans, where, select and union all, without subqueries or once
// flows. For any other query the view is recomputed in full every run, and
// the runtime says why (etl.Dataset.NotIncremental).

// incrementalFields are the fields of a dataset's etl.Dataset literal that
// say how it is maintained.
func (g *generator) incrementalFields(d *ir.Dataset) []field {
	if d.Kind != ir.KindMaterializedView || d.Materialize != ir.MatIncremental {
		return nil
	}
	if why := g.notIncremental(d); why != "" {
		return []field{{"NotIncremental", jen.Lit(why)}}
	}
	return []field{{"Incremental", jen.True()}}
}

// notIncremental says why the flows into d cannot be maintained by
// appending ("" when they can).
func (g *generator) notIncremental(d *ir.Dataset) string {
	for _, f := range g.u.Pipeline.FlowsInto(d.Name) {
		if f.Once {
			return fmt.Sprintf("flow %s is a once flow", f.Name)
		}
		why := ""
		ir.WalkRel(f.Query, func(r ir.Rel) bool {
			if why != "" {
				return false
			}
			switch n := r.(type) {
			case *ir.Scan, *ir.Filter, *ir.Project, *ir.SubqueryRel:
			case *ir.Union:
				if !n.All {
					why = "union (distinct)"
				}
			case *ir.Aggregate:
				why = "an aggregate"
			case *ir.Join:
				why = "a join"
			case *ir.Window:
				why = "a window"
			case *ir.Distinct:
				why = "distinct"
			case *ir.Sort:
				why = "order by"
			case *ir.Limit:
				why = "a limit"
			default:
				why = fmt.Sprintf("%T", r)
			}
			for _, e := range ir.RelExprs(r) {
				ir.WalkExpr(e, func(x ir.Expr) bool {
					switch x.(type) {
					case *ir.ScalarSubquery, *ir.InSubquery:
						why = "a subquery"
					}
					return why == ""
				})
			}
			return why == ""
		})
		if why != "" {
			return fmt.Sprintf("flow %s's query has %s, which appending new input cannot maintain", f.Name, why)
		}
	}
	return ""
}
