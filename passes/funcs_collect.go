package passes

import "github.com/nordisk/thund/ir"

// collectFunctions are the aggregates that collect their input's values
// into an ARRAY (famAggregate): Spark's Collect, whose array holds no NULL
// (a NULL input is skipped) and is empty, not NULL, for a group with no
// value. The native backend computes them in batch aggregates (group by,
// global, grouping sets, FILTER, DISTINCT), sequentially (the values'
// order is the input's); the plan pass refuses them over streams and
// windows (plan_agg.go), as the aggregate family's.
var collectFunctions = []funcSig{
	{name: "collect_list", aliases: []string{"array_agg"}, agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resCustom, nulls: nullNever, nativeNested: true, family: famAggregate,
		typeFn: collectType(false), resultDoc: "ARRAY of x's type, without NULL elements", native: collectNative(false),
		doc: "the non-NULL values of x, in the input's order (Spark does not define the order across partitions)"},
	{name: "collect_set", agg: true, minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resCustom, nulls: nullNever, nativeNested: true, family: famAggregate,
		typeFn: collectType(true), resultDoc: "ARRAY of x's type, without NULL elements", native: collectNative(true),
		doc: "the distinct non-NULL values of x, in no defined order (floats normalized as Spark's are: -0.0 is 0.0, and every NaN one value); a MAP is refused"},
}

// collectType types collect_list and collect_set (set): an ARRAY of the
// argument's type whose elements are never NULL; collect_set refuses a
// type that holds a MAP at any depth, as Spark does
// (DATATYPE_MISMATCH.UNSUPPORTED_INPUT_TYPE).
func collectType(set bool) func(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	return func(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
		t := types[0]
		if set && holdsMap(t) {
			r.errorf(e.Args[0].Position(), ir.CodeTypeMismatch, "the input of %s cannot be or hold a MAP, got %s", e.Name, t)
			return ir.Type{}, false
		}
		return ir.ArrayOf(t, false), true
	}
}

// holdsMap reports whether t is a MAP or holds one in an element or field.
func holdsMap(t ir.Type) bool {
	switch t.Kind {
	case ir.TMap:
		return true
	case ir.TArray:
		return holdsMap(t.Elem())
	case ir.TStruct:
		for _, f := range t.Fields() {
			if holdsMap(f.Type) {
				return true
			}
		}
	}
	return false
}

// collectNative refuses what the native accumulators do not keep: a
// nested value in collect_set (set: its set hashes scalars) or under
// DISTINCT.
func collectNative(set bool) func(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	return func(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
		switch {
		case !args[0].IsNested():
			return ir.Pos{}, ""
		case e.Distinct:
			return e.Args[0].Position(), e.Name + "(distinct ...) of the nested type " + args[0].String() + " is not supported yet: target spark-4.1 or spark-4.2"
		case set:
			return e.Args[0].Position(), e.Name + " of the nested type " + args[0].String() + " is not supported yet: target spark-4.1 or spark-4.2"
		}
		return ir.Pos{}, ""
	}
}

// IsCollectAgg reports whether name (canonical) is collect_list or
// collect_set.
func IsCollectAgg(name string) bool { return name == "collect_list" || name == "collect_set" }
