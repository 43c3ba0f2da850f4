package passes

import (
	"strings"

	"github.com/nordisk/thund/ir"
)

// lambdaFunctions are Spark's higher-order functions: each takes an array
// or a map and one or more lambdas (ir.Lambda), whose parameters it binds
// to the elements, their index, a map's keys and values, or an
// accumulator. lambdaCall types them (the result rule resLambda) with
// Spark 4's rules, checked on 4.1.4 and 4.2.1: a lambda variable shadows a
// column of its name; aggregate's merge must give exactly the start value's
// type (DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE otherwise: 0 with a BIGINT
// array fails, 0L does not); the index of transform and filter is an INT
// from 0; exists and forall are three-valued (NULL when no element decides
// and one gives NULL).
var lambdaFunctions = []funcSig{
	{name: "transform", minArgs: 2, maxArgs: 2, args: []argRule{argAny, argLambda}, result: resLambda, resultDoc: "ARRAY of the lambda's type", family: famLambda,
		doc: "the array of the lambda's value for each element (x -> ..., or (x, i) -> ... with the 0-based index)"},
	{name: "filter", minArgs: 2, maxArgs: 2, args: []argRule{argAny, argLambda}, result: resLambda, resultDoc: "the array's type", family: famLambda,
		doc: "the elements for which the lambda is true (x -> ..., or (x, i) -> ... with the 0-based index)"},
	{name: "exists", minArgs: 2, maxArgs: 2, args: []argRule{argAny, argLambda}, result: resLambda, resultDoc: "BOOLEAN", family: famLambda,
		doc: "whether the lambda is true for some element (NULL when for none, and NULL for one)"},
	{name: "forall", minArgs: 2, maxArgs: 2, args: []argRule{argAny, argLambda}, result: resLambda, resultDoc: "BOOLEAN", family: famLambda,
		doc: "whether the lambda is true for every element (NULL when false for none, and NULL for one)"},
	{name: "aggregate", aliases: []string{"reduce"}, minArgs: 3, maxArgs: 4, args: []argRule{argAny, argAny, argLambda}, result: resLambda, resultDoc: "the start value's type, or the finish lambda's", family: famLambda,
		doc: "folds the elements into an accumulator from a start value ((acc, x) -> ..., of exactly the start value's type), then applies the optional finish lambda"},
	{name: "zip_with", minArgs: 3, maxArgs: 3, args: []argRule{argAny, argAny, argLambda}, result: resLambda, resultDoc: "ARRAY of the lambda's type", family: famLambda,
		doc: "the lambda of the two arrays' elements pairwise ((x, y) -> ...), the shorter padded with NULLs"},
	{name: "map_filter", minArgs: 2, maxArgs: 2, args: []argRule{argAny, argLambda}, result: resLambda, resultDoc: "the map's type", family: famLambda,
		doc: "the entries for which the lambda ((k, v) -> ...) is true"},
	{name: "transform_keys", minArgs: 2, maxArgs: 2, args: []argRule{argAny, argLambda}, result: resLambda, resultDoc: "MAP of the lambda's type to the value type", family: famLambda,
		doc: "the map with each key replaced by the lambda ((k, v) -> ...; ANSI: a NULL key is NULL_MAP_KEY, a repeated one DUPLICATED_MAP_KEY)"},
	{name: "transform_values", minArgs: 2, maxArgs: 2, args: []argRule{argAny, argLambda}, result: resLambda, resultDoc: "MAP of the key type to the lambda's type", family: famLambda,
		doc: "the map with each value replaced by the lambda ((k, v) -> ...)"},
	{name: "map_zip_with", minArgs: 3, maxArgs: 3, args: []argRule{argAny, argAny, argLambda}, result: resLambda, resultDoc: "MAP of the key type to the lambda's type", family: famLambda,
		doc: "the lambda ((k, v1, v2) -> ...) for each key of either map, a missing value NULL"},
}

// lambdaScope is one lambda's parameters, their types and nullability, in
// the scope of its body; outer is the enclosing lambda's.
type lambdaScope struct {
	names []string
	types []ir.Type
	nulls []bool
	outer *lambdaScope
}

// lambdaExpr types a lambda variable, from the innermost lambda that
// declares it. A lambda anywhere but as a higher-order function's argument
// is an error.
func (r *resolver) lambdaExpr(e ir.Expr, c ectx) (ir.Type, bool) {
	switch e := e.(type) {
	case *ir.LambdaVar:
		for s := c.lambdas; s != nil; s = s.outer {
			for i, n := range s.names {
				if strings.EqualFold(n, e.Name) {
					return s.types[i], s.nulls[i]
				}
			}
		}
		r.errorf(e.Pos, ir.CodeUnknownColumn, "lambda variable %s is not a parameter of an enclosing lambda", e.Name)
	case *ir.Lambda:
		r.errorf(e.Pos, ir.CodeTypeMismatch, "a lambda (%s) is only an argument of a higher-order function (transform, filter, aggregate, ...)", exprString(e))
	}
	return invalid, true
}

// lambdaCall types a call of a higher-order function; ok is false for any
// other function.
func (r *resolver) lambdaCall(e *ir.Call, sc *scope, c ectx) (ir.Type, bool, bool) {
	f := lookupFunc(e.Name)
	if f == nil || f.result != resLambda {
		return ir.Type{}, false, false
	}
	r.u.Calls[e] = f.entry
	c.overFunc = nil
	if e.Distinct || e.Star || e.Filter != nil || e.IgnoreNulls {
		r.errorf(e.Pos, ir.CodeBadAggregate, "%s is a scalar function: distinct, *, filter and ignore nulls apply to aggregates", f.name)
		return invalid, true, true
	}
	if n := len(e.Args); n < f.minArgs || n > f.maxArgs {
		r.errorf(e.Pos, ir.CodeArity, "%s takes %s arguments, got %d", e.Name, f.arityText(), n)
		return invalid, true, true
	}
	// The value arguments first: they type the lambdas' parameters.
	nvals := f.minArgs - 1
	types := make([]ir.Type, nvals)
	nulls := make([]bool, nvals)
	for i := range nvals {
		if l, ok := e.Args[i].(*ir.Lambda); ok {
			r.errorf(l.Pos, ir.CodeTypeMismatch, "%s takes a value as argument %d, got a lambda (%s)", f.name, i+1, exprString(l))
			return invalid, true, true
		}
		types[i], nulls[i] = r.expr(e.Args[i], sc, c)
	}
	if anyInvalid(types...) {
		return invalid, true, true
	}
	for _, a := range e.Args[nvals:] {
		if _, ok := a.(*ir.Lambda); !ok {
			r.errorf(a.Position(), ir.CodeTypeMismatch, "%s takes a lambda (x -> ...) here, got %s", f.name, exprString(a))
			return invalid, true, true
		}
	}
	t, n := r.lambdaCallType(e, f.name, sc, c, types, nulls)
	return t, n, true
}

// lambda types lambda l (an argument of call fn) with its parameters bound
// to params (their types and nullability); want says what each arity
// means, for the error when l declares another number of parameters
// (Spark: INVALID_LAMBDA_FUNCTION_CALL.NUM_ARGS_MISMATCH).
func (r *resolver) lambda(fn string, l *ir.Lambda, sc *scope, c ectx, want string, types []ir.Type, nulls []bool) (ir.Type, bool, bool) {
	if len(l.Params) != len(types) {
		r.errorf(l.Pos, ir.CodeArity, "%s's lambda takes %s, got %d parameter(s) (Spark: INVALID_LAMBDA_FUNCTION_CALL.NUM_ARGS_MISMATCH)", fn, want, len(l.Params))
		return invalid, true, false
	}
	c.lambdas = &lambdaScope{names: l.Params, types: types, nulls: nulls, outer: c.lambdas}
	t, n := r.expr(l.Body, sc, c)
	r.u.Types[l], r.u.Nullable[l] = t, n
	return t, n, !isInvalid(t)
}

// lambdaCallType is the type and nullability of a higher-order function's
// call whose value arguments have types and nulls.
func (r *resolver) lambdaCallType(e *ir.Call, fn string, sc *scope, c ectx, types []ir.Type, nulls []bool) (ir.Type, bool) {
	x, xn := types[0], nulls[0]
	isArray := fn == "transform" || fn == "filter" || fn == "exists" || fn == "forall" || fn == "aggregate" || fn == "zip_with"
	want, kind := "an array", ir.TArray
	if !isArray {
		want, kind = "a map", ir.TMap
	}
	for i, t := range types {
		if i == 1 && fn == "aggregate" {
			break
		}
		if !isUnknown(t) && t.Kind != kind {
			r.errorf(e.Args[i].Position(), ir.CodeTypeMismatch, "%s takes %s, got %s (%s)", fn, want, t, exprString(e.Args[i]))
			return invalid, true
		}
		if isUnknown(t) {
			r.errorf(e.Args[i].Position(), ir.CodeTypeMismatch, "%s needs the type of %s (an external column's is not known): cast it", fn, exprString(e.Args[i]))
			return invalid, true
		}
	}
	lam := func(i int) *ir.Lambda { return e.Args[i].(*ir.Lambda) }
	boolBody := func(l *ir.Lambda, t ir.Type) bool {
		if !isUnknown(t) && t.Kind != ir.TBool {
			r.errorf(l.Body.Position(), ir.CodeTypeMismatch, "%s's lambda must give a bool, got %s (%s)", fn, t, exprString(l.Body))
			return false
		}
		return true
	}
	switch fn {
	case "transform", "filter":
		l := lam(1)
		ps, pn := []ir.Type{x.Elem()}, []bool{x.ElemNullable()}
		if len(l.Params) == 2 { // the index
			ps, pn = append(ps, ir.Int32), append(pn, false)
		}
		bt, bn, ok := r.lambda(fn, l, sc, c, "1 or 2 parameters (the element and its index)", ps, pn)
		if !ok {
			return invalid, true
		}
		if fn == "transform" {
			return ir.ArrayOf(bt, bn), xn
		}
		if !boolBody(l, bt) {
			return invalid, true
		}
		return x, xn
	case "exists", "forall":
		l := lam(1)
		bt, bn, ok := r.lambda(fn, l, sc, c, "1 parameter (the element)", []ir.Type{x.Elem()}, []bool{x.ElemNullable()})
		if !ok || !boolBody(l, bt) {
			return invalid, true
		}
		return ir.Bool, xn || bn
	case "aggregate":
		zt := types[1]
		if isUnknown(zt) {
			r.errorf(e.Args[1].Position(), ir.CodeTypeMismatch, "aggregate's start value needs a type (NULL has none): cast it")
			return invalid, true
		}
		merge := lam(2)
		mt, _, ok := r.lambda(fn, merge, sc, c, "2 parameters (the accumulator and the element)", []ir.Type{zt, x.Elem()}, []bool{true, x.ElemNullable()})
		if !ok {
			return invalid, true
		}
		if mt != zt {
			r.errorf(merge.Body.Position(), ir.CodeTypeMismatch, "aggregate's merge lambda must give the start value's type %s, got %s (%s): cast the start value or the merge (Spark: DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE)", zt.SQL(), mt.SQL(), exprString(merge.Body))
			return invalid, true
		}
		if len(e.Args) == 3 {
			return zt, true
		}
		ft, fnull, ok := r.lambda(fn, lam(3), sc, c, "1 parameter (the accumulator)", []ir.Type{zt}, []bool{true})
		if !ok {
			return invalid, true
		}
		return ft, xn || fnull
	case "zip_with":
		y := types[1]
		bt, bn, ok := r.lambda(fn, lam(2), sc, c, "2 parameters (an element of each array)", []ir.Type{x.Elem(), y.Elem()}, []bool{true, true})
		if !ok {
			return invalid, true
		}
		return ir.ArrayOf(bt, bn), xn || nulls[1]
	case "map_zip_with":
		y := types[1]
		if x.Key() != y.Key() {
			r.errorf(e.Args[1].Position(), ir.CodeTypeMismatch, "map_zip_with takes two maps of one key type, got %s and %s: cast one of them", x, y)
			return invalid, true
		}
		bt, bn, ok := r.lambda(fn, lam(2), sc, c, "3 parameters (the key and the two values)", []ir.Type{x.Key(), x.Elem(), y.Elem()}, []bool{false, true, true})
		if !ok {
			return invalid, true
		}
		return ir.MapOf(x.Key(), bt, bn), xn || nulls[1]
	}
	// map_filter, transform_keys, transform_values
	l := lam(1)
	bt, bn, ok := r.lambda(fn, l, sc, c, "2 parameters (the key and the value)", []ir.Type{x.Key(), x.Elem()}, []bool{false, x.ElemNullable()})
	if !ok {
		return invalid, true
	}
	switch fn {
	case "map_filter":
		if !boolBody(l, bt) {
			return invalid, true
		}
		return x, xn
	case "transform_keys":
		if hasMap(bt) {
			r.errorf(l.Body.Position(), ir.CodeTypeMismatch, "the key of a map cannot be or contain a map, got %s (Spark: INVALID_MAP_KEY_TYPE)", bt)
			return invalid, true
		}
		return ir.MapOf(bt, x.Elem(), x.ElemNullable()), xn
	}
	return ir.MapOf(x.Key(), bt, bn), xn
}

// refuseLambdaCall refuses aggregate's start value when it needs a cast
// the native backend does not run.
func (p *planner) refuseLambdaCall(x *ir.Call, f *funcSig) bool {
	if f.name == "aggregate" {
		return p.refuseConversion(x.Args[1], p.u.Types[x.Args[2]], "aggregate's start value")
	}
	return false
}
