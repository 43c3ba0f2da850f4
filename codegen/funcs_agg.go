package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// The aggregate family of the catalogue (passes/funcs_agg.go): their
// accumulators in a group's state, their update per row and their result.
// The statistics and percentiles keep an rt/sqlfn accumulator (Moments,
// CoMoments, Percentile, Quantile) whose methods give the result; the
// others keep plain fields. None merges across workers (the plan's
// mergeable leaves their aggregates sequential), and the plan refuses them
// over streams and windows.

// familyAggs are the family's functions by accumulator: the rt/sqlfn
// type (or "" for plain fields) and, for an rt/sqlfn one, the result
// method and its call mode.
var familyAggs = map[string]struct {
	state, result string
	mode          callMode
}{
	"stddev_samp": {"Moments", "StddevSamp", maybe}, "stddev_pop": {"Moments", "StddevPop", maybe},
	"var_samp": {"Moments", "VarSamp", maybe}, "var_pop": {"Moments", "VarPop", maybe},
	"skewness": {"Moments", "Skewness", maybe}, "kurtosis": {"Moments", "Kurtosis", maybe},
	"corr": {"CoMoments", "Corr", checkedMaybe}, "covar_samp": {"CoMoments", "CovarSamp", maybe}, "covar_pop": {"CoMoments", "CovarPop", maybe},
	"regr_count": {"CoMoments", "RegrCount", maybe}, "regr_avgx": {"CoMoments", "RegrAvgX", maybe}, "regr_avgy": {"CoMoments", "RegrAvgY", maybe},
	"regr_sxx": {"CoMoments", "RegrSXX", maybe}, "regr_syy": {"CoMoments", "RegrSYY", maybe}, "regr_sxy": {"CoMoments", "RegrSXY", maybe},
	"regr_slope": {"CoMoments", "RegrSlope", maybe}, "regr_intercept": {"CoMoments", "RegrIntercept", maybe}, "regr_r2": {"CoMoments", "RegrR2", maybe},
	"median": {"Percentile", "Result", maybe}, "percentile": {"Percentile", "Result", maybe},
	"percentile_approx": {"Quantile", "Result", maybe},
	"count_if":          {}, "bool_and": {}, "bool_or": {}, "bit_and": {}, "bit_or": {}, "bit_xor": {}, "max_by": {}, "min_by": {},
	"approx_count_distinct": {}, // funcs_hll.go
}

// windowMoments are the family's functions the native backend computes
// over a window's frames: the moments' sqlfn.Moments result method
// (rt/window.Moments), the percentiles' rt/window.Percentile, and the
// pairs' sqlfn.CoMoments result method (rt/window.CoMoments).
var windowMoments = map[string]string{
	"stddev_samp": "StddevSamp", "stddev_pop": "StddevPop", "var_samp": "VarSamp", "var_pop": "VarPop",
	"skewness": "Skewness", "kurtosis": "Kurtosis", "median": "Percentile", "percentile": "Percentile",
	"corr": "Corr", "covar_samp": "CovarSamp", "covar_pop": "CovarPop", "regr_sxx": "RegrSXX", "regr_syy": "RegrSYY",
	"regr_sxy": "RegrSXY", "regr_slope": "RegrSlope", "regr_intercept": "RegrIntercept", "regr_r2": "RegrR2",
}

// windowFamilyCall is the rt/window call computing f (a windowMoments
// function, stat its entry) over the partition's gathered values into
// out and outok (window.go's winFunc).
func (g *flowGen) windowFamilyCall(f *passes.WindowFunc, stat string, ok, frames jen.Code) jen.Code {
	args := []jen.Code{jen.Id("out"), jen.Id("outok"), jen.Id("vals"), ok, frames}
	if f.Arg2 != nil {
		return g.windowPairCall(f, stat, ok, frames)
	}
	switch f.Name {
	case "median":
		return jen.Qual(windowPkg, stat).Call(append(args, jen.Lit(0.5))...)
	case "percentile":
		p, _ := passes.Percentage(f.Over.Func.Args[1])
		return jen.Qual(windowPkg, stat).Call(append(args, jen.Lit(p))...)
	}
	return jen.Qual(windowPkg, "Moments").Call(append(args, jen.Parens(jen.Op("*").Qual(sqlfnPkg, "Moments")).Dot(stat))...)
}

// tryAggs are try_sum and try_avg: sum and avg whose overflow makes the
// result NULL (accum.try) instead of failing the flow.
var tryAggs = map[string]string{"try_sum": "sum", "try_avg": "avg"}

// planFamilyAccum declares the accumulator fields of a family aggregate;
// false when a is not one.
func (g *flowGen) planFamilyAccum(st *structDecl, a *accum) bool {
	k, ok := familyAggs[a.name]
	if !ok {
		return false
	}
	f := a.field
	if a.call.Distinct && a.argT.Kind != ir.TUnknown { // one argument (the plan refuses more): its values seen (aggfilter.go)
		a.distinct = g.newKeyType("aggDistinct", []ir.Type{a.argT}, false)
		st.add(f+"d", jen.Map(a.distinct.goType()).Struct())
	}
	if k.state == "Percentile" || k.state == "Quantile" { // they keep every value (percentileBytes)
		a.mem = g.newMemAccount(fmt.Sprintf("%s at %s", a.call.Name, posText(a.call.Pos)))
		g.emit(jen.Id("_").Op("=").Id(a.mem.pending)) // used only where a row can give a value
	}
	switch {
	case k.state == "Quantile":
		st.add(f, jen.Qual(sqlfnPkg, k.state).Types(goType(a.resT)))
	case k.state != "":
		st.add(f, jen.Qual(sqlfnPkg, k.state))
	case a.name == "count_if":
		st.add(f, jen.Int64())
	case a.name == "approx_count_distinct":
		g.hllRegisters(st, a)
	case a.name == "max_by" || a.name == "min_by":
		st.add(f, goType(a.resT))
		st.add(f+"ok", jen.Bool())
		if ot := g.typeOf(a.call.Args[1]); ot.Kind != ir.TUnknown { // a NULL ordering never sets it
			st.add(f+"o", goType(ot))
		}
		st.add(f+"set", jen.Bool())
	default: // bool_*, bit_*: the value so far, valid once a row counted
		st.add(f, goType(a.resT))
		st.add(f+"ok", jen.Bool())
	}
	return true
}

// accumulateFamily generates the update of a family aggregate's
// accumulator for the current row from its arguments' values: a row
// whose arguments (max_by's and min_by's ordering) are NULL is skipped.
func (g *flowGen) accumulateFamily(a *accum, gs *jen.Statement, args []*value) {
	f := func(suffix string) *jen.Statement { return gs.Clone().Dot(a.field + suffix) }
	pos := a.call.Pos
	needed := args
	if a.name == "max_by" || a.name == "min_by" {
		needed = args[1:]
	}
	if anyNull(needed...) {
		// always NULL: the row changes nothing, but the group's state it
		// was given is still read
		g.emit(jen.Id("_").Op("=").Add(gs.Clone()))
		return
	}
	when := func(stmts ...jen.Code) {
		if ok := and(oksOf(needed...)...); ok != nil {
			g.emit(jen.If(ok).Block(stmts...))
		} else {
			g.emit(stmts...)
		}
	}
	double := func(i int) jen.Code { return V(g.coerce(args[i], ir.Float64, pos)) }
	x := args[0]
	switch k := familyAggs[a.name]; {
	case k.state == "Moments":
		when(f("").Dot("Add").Call(double(0)))
	case a.name == "corr" || a.name == "covar_samp" || a.name == "covar_pop":
		when(f("").Dot("Add").Call(double(0), double(1)))
	case k.state == "CoMoments": // regr_*(y, x): added as (x, y)
		when(f("").Dot("Add").Call(double(1), double(0)))
	case a.name == "median":
		when(append([]jen.Code{f("").Dot("Add").Call(double(0), jen.Lit(1))}, a.mem.growStmts(percentileBytes(x.t, true))...)...)
	case a.name == "percentile":
		if len(args) < 3 {
			when(append([]jen.Code{f("").Dot("Add").Call(double(0), jen.Lit(1))}, a.mem.growStmts(percentileBytes(x.t, true))...)...)
			return
		}
		fr := g.bind(g.coerce(args[2], ir.Int64, pos), "freq")
		en := g.name("e")
		when(append([]jen.Code{jen.If(jen.Id(en).Op(":=").Qual(sqlfnPkg, "PercentileFrequency").Call(V(fr), jen.Lit(ir.FormatExpr(a.call.Args[2], ir.Label))), jen.Id(en).Op("!=").Nil()).Block(g.fail(pos, jen.Id(en))),
			f("").Dot("Add").Call(double(0), V(fr))}, a.mem.growStmts(percentileBytes(x.t, true))...)...)
	case k.state == "Quantile":
		when(append([]jen.Code{f("").Dot("Add").Call(V(x))}, a.mem.growStmts(percentileBytes(x.t, false))...)...)
	case a.name == "count_if":
		when(jen.If(V(x)).Block(f("").Op("++")))
	case a.name == "approx_count_distinct":
		g.hllAdd(a, f(""), x)
	case a.name == "bool_and": // true until a false (the zero state is false)
		when(f("").Op("=").Parens(jen.Op("!").Add(f("ok")).Op("||").Add(f(""))).Op("&&").Add(V(x)), f("ok").Op("=").True())
	case a.name == "bool_or":
		when(f("").Op("=").Add(f("")).Op("||").Add(V(x)), f("ok").Op("=").True())
	case a.name == "bit_and" || a.name == "bit_or" || a.name == "bit_xor":
		op := map[string]string{"bit_and": "&", "bit_or": "|", "bit_xor": "^"}[a.name]
		// the first value is the accumulator's
		when(jen.If(f("ok")).Block(f("").Op(op+"=").Add(V(x))).Else().Block(f("").Op("=").Add(V(x)), f("ok").Op("=").True()))
	case a.name == "max_by" || a.name == "min_by":
		g.accumulateBy(a, f, args[0], args[1], when)
	default:
		g.unplanned(pos, "aggregate %s has no accumulator", a.name)
	}
}

// percentileBytes is what a percentile accumulator keeps per row, for
// --memory-limit: sqlfn.Percentile (exact) a float64 value and an int64
// frequency, sqlfn.Quantile a value of x's type t, each in a slice grown
// by doubling (memSliceTimes).
func percentileBytes(t ir.Type, exact bool) jen.Code {
	if exact {
		return jen.Lit(int64(memSliceTimes * 16))
	}
	return jen.Lit(memSliceTimes).Op("*").Int64().Call(jen.Qual(unsafePkg, "Sizeof").Call(zeroCode(t)))
}

// accumulateBy updates max_by's or min_by's accumulator: the row's value
// and ordering replace the kept ones when none is kept or its ordering is
// at least as large (max_by) or small (min_by): of tied rows the last
// wins, as on Spark.
func (g *flowGen) accumulateBy(a *accum, f func(string) *jen.Statement, x, o *value, when func(...jen.Code)) {
	op := ir.OpGe
	if a.name == "min_by" {
		op = ir.OpLe
	}
	cur := &value{t: o.t, v: f("o")}
	set := []jen.Code{f("o").Op("=").Add(cloneValue(o.t, V(o))), f("set").Op("=").True()}
	switch {
	case x.null:
		set = append(set, f("ok").Op("=").False())
	case x.nullable():
		set = append(set, jen.If(OK(x)).Block(f("").Op("=").Add(cloneValue(x.t, V(x)))), f("ok").Op("=").Add(OK(x)))
	default:
		set = append(set, f("").Op("=").Add(cloneValue(x.t, V(x))), f("ok").Op("=").True())
	}
	when(jen.If(jen.Op("!").Add(f("set")).Op("||").Add(cmpExpr(op, o, cur))).Block(set...))
}

// familyAccumResult is the value of a family aggregate for the group gs;
// nil when a is not one.
func (g *flowGen) familyAccumResult(a *accum, gs *jen.Statement) *value {
	k, ok := familyAggs[a.name]
	if !ok {
		return nil
	}
	f := func(suffix string) *jen.Statement { return gs.Clone().Dot(a.field + suffix) }
	t := a.resT
	switch {
	case k.state != "":
		var args []jen.Code
		switch a.name {
		case "median":
			args = []jen.Code{jen.Lit(0.5)}
		case "percentile", "percentile_approx":
			p, _ := passes.Percentage(a.call.Args[1])
			args = []jen.Code{jen.Lit(p)}
		}
		return g.strict(t, a.call.Pos, k.mode, false, nil, func() jen.Code { return f("").Dot(k.result).Call(args...) })
	case a.name == "count_if":
		return plainValue(t, f(""))
	case a.name == "approx_count_distinct":
		return hllResult(f(""))
	}
	return &value{t: t, v: f(""), ok: f("ok")}
}

// windowPairCall is the rt/window.CoMoments call computing the pair
// statistic f (stat its sqlfn.CoMoments method) into out and outok, and
// failing the flow with corr's error.
func (g *flowGen) windowPairCall(f *passes.WindowFunc, stat string, ok, frames jen.Code) jen.Code {
	co := jen.Op("*").Qual(sqlfnPkg, "CoMoments")
	fn := jen.Parens(co.Clone()).Dot(stat) // corr: (value, valid, error)
	if f.Name != "corr" {
		fn = jen.Func().Params(jen.Id("c").Add(co.Clone())).Params(jen.Float64(), jen.Bool(), jen.Op("*").Qual(sqlfnPkg, "Error")).Block(
			jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Id("c").Dot(stat).Call(),
			jen.Return(jen.Id("v"), jen.Id("ok"), jen.Nil()))
	}
	regr := f.Name != "corr" && f.Name != "covar_samp" && f.Name != "covar_pop"
	return jen.If(jen.Id("e").Op(":=").Qual(windowPkg, "CoMoments").Call(jen.Id("out"), jen.Id("outok"), jen.Id("vals"), jen.Id("vals2"), ok, frames, jen.Lit(regr), fn),
		jen.Id("e").Op("!=").Nil()).Block(g.fail(f.Over.Pos, jen.Id("e")))
}
