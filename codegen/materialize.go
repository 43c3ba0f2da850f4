package codegen

import (
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
	if why := g.u.Plan.NotIncremental[d]; why != "" {
		return []field{{"NotIncremental", jen.Lit(why)}}
	}
	return []field{{"Incremental", jen.True()}}
}
