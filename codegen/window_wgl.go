package codegen

import (
	"github.com/dave/jennifer/jen"
)

// genGroupLimit generates a window operator's group limit (the plan's
// GroupLimits, passes/plan_wgl.go): rt/window's GroupLimit keeps, in one
// pass over the stored rows, the first lim rows of each partition in the
// spec's order (ties in input order, as the sort breaks them), so that the
// sort, the walk and the replay see only those: the same rows, order and
// row numbers as the full sort gives them, for the filter above.
func (g *flowGen) genGroupLimit(rows string, hashFn jen.Code, samePart, cmpFn string, lim int64) {
	g.emit(jen.Id(rows).Op("=").Qual(windowPkg, "GroupLimit").Call(jen.Id(rows), hashFn, jen.Id(samePart), jen.Id(cmpFn), jen.Lit(int(lim))))
}
