package passes

import "github.com/nordisk/thund/ir"

// What the native backend computes of the aggregate family
// (funcs_agg.go): batch aggregates only.

// familyAccum checks a call of an aggregate of aggFunctions (name is its
// canonical name; messages say it as written): false, refused, where the native accumulators do not
// compute it.
func (p *planner) familyAccum(call *ir.Call, name string, stream bool) bool {
	switch {
	case stream:
		// their state is not in rt/stream's checkpointed window state
		p.refuse(call.Pos, "%s over a stream is not supported yet: aggregate a snapshot of the input (from x)", call.Name)
		return false
	case call.Distinct && name == "percentile" && len(call.Args) == 3:
		p.refuse(call.Pos, "percentile(distinct ...) with a frequency is not supported yet")
		return false
	case call.Distinct && len(call.Args) == 2 && name != "percentile" && name != "percentile_approx":
		// the distinct set keeps one column (a percentage is a constant)
		p.refuse(call.Pos, "%s(distinct ...) of two columns is not supported yet", call.Name)
		return false
	}
	if pos, why := nativeCall(p.u, call, p.u.Calls[call]); why != "" {
		p.refuse(pos, "%s", why)
		return false
	}
	return true
}

// IsFamilyAgg reports whether name (canonical) is an aggregate of
// aggFunctions or hllFunctions. Each skips a row whose arguments are all
// NULL, so that sparkemit lowers its FILTER (WHERE ...) as IF(cond, x,
// NULL).
func IsFamilyAgg(name string) bool {
	for _, table := range [][]funcSig{aggFunctions, hllFunctions} {
		for i := range table {
			if table[i].name == name {
				return true
			}
		}
	}
	return IsCollectAgg(name) // funcs_collect.go
}

// windowMoments are the family's functions the native backend computes
// over a window (codegen's windowMoments): the moments and percentiles of
// one numeric argument, and the pair statistics of two.
var windowMoments = map[string]bool{
	"stddev_samp": true, "stddev_pop": true, "var_samp": true, "var_pop": true, "skewness": true, "kurtosis": true,
	"median": true, "percentile": true, // without a frequency
	// of two numeric arguments (WindowFunc.Arg2)
	"corr": true, "covar_samp": true, "covar_pop": true, "regr_sxx": true, "regr_syy": true, "regr_sxy": true,
	"regr_slope": true, "regr_intercept": true, "regr_r2": true,
}

// familyWindowFunc plans a family aggregate over a window (name is its
// canonical name), or refuses it (nil).
func (p *planner) familyWindowFunc(o *ir.Over, name string) *WindowFunc {
	c := o.Func
	pair := len(c.Args) == 2 && name != "percentile"
	if !windowMoments[name] || c.Distinct || len(c.Args) != 1 && name != "percentile" && !pair || len(c.Args) > 2 {
		p.refuse(c.Pos, "%s over a window is not supported yet: aggregate with group by and join the result back", c.Name)
		return nil
	}
	wf := &WindowFunc{Over: o, Name: name, Arg: c.Args[0]}
	if pair {
		wf.Arg2 = c.Args[1]
	}
	for _, a := range []ir.Expr{wf.Arg, wf.Arg2} {
		if t := p.u.Types[a]; a != nil && (!t.IsInteger() && !t.IsFloat() || t.Kind == ir.TUint64) {
			p.refuse(c.Pos, "%s of %s over a window is not supported yet (the native backend computes it over integers and floating-point numbers)", c.Name, t)
			return nil
		}
	}
	return p.frame(o, wf)
}
