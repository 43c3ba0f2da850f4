package codegen

import (
	"time"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// The array and map library without lambdas (passes/funcs_arrays.go),
// generated as calls of rt/nested. Every argument is strict (a NULL one
// makes the call NULL) except the value array_repeat repeats and the one
// array_append, array_prepend and array_insert add, which may be NULL.

// arrayFuncs are the functions genArrayCall generates; for those that take
// their arguments as they are, the rt/nested function and its call mode.
var arrayFuncs = map[string]struct {
	fn   string
	mode callMode
}{
	"array_sort": {"ArraySort", pure}, "array_distinct": {"Distinct", pure}, "array_compact": {"Compact", pure},
	"array_union": {"Union", pure}, "array_intersect": {"Intersect", pure}, "array_except": {"Except", pure},
	"arrays_overlap": {"Overlap", maybe}, "flatten": {"Flatten", maybe}, "cardinality": {"Size", pure}, "array_size": {"Size", pure},
	"map_from_arrays": {"MapFromArrays", checked}, "map_from_entries": {"MapFromEntries", checkedMaybe},
	"map_entries": {"MapEntries", pure}, "map_concat": {"MapConcat", checked}, "arrays_zip": {"Zip", pure},
	// the ones below convert their arguments first (genArrayCall)
	"sort_array": {}, "array_join": {}, "array_position": {}, "array_remove": {}, "array_repeat": {},
	"array_max": {}, "array_min": {}, "array_append": {}, "array_prepend": {}, "array_insert": {},
	"slice": {}, "sequence": {}, "try_element_at": {}, "get": {}, "map_contains_key": {}, "str_to_map": {},
}

// arrayForms are the string functions that genArrayCall generates when
// their arguments are arrays.
var arrayForms = map[string]bool{"concat": true, "reverse": true}

// genArrayCall generates a call of arrayFuncs of type t, or of concat or
// reverse of arrays.
func (g *flowGen) genArrayCall(e *ir.Call, en *env, t ir.Type) *value {
	args := make([]*value, len(e.Args))
	for i, a := range e.Args {
		args[i] = g.genExpr(a, en)
	}
	call := func(mode callMode, fn jen.Code, strict []*value, extra ...jen.Code) *value {
		return g.strict(t, e.Pos, mode, false, strict, func() jen.Code {
			cs := make([]jen.Code, 0, len(strict)+len(extra))
			for _, v := range strict {
				cs = append(cs, V(v))
			}
			return jen.Add(fn).Call(append(cs, extra...)...)
		})
	}
	nested := func(fn string) *jen.Statement { return jen.Qual(nestedPkg, fn) }
	generic := func(fn string, typ ir.Type) *jen.Statement { return nested(fn).Types(goType(typ)) }
	int32Of := func(v *value) jen.Code { return jen.Int32().Call(V(v)) }
	x := args[0]
	if f := arrayFuncs[e.Name]; f.fn != "" {
		return call(f.mode, nested(f.fn), args)
	}
	switch e.Name {
	case "sort_array":
		asc := len(e.Args) == 1 || e.Args[1].(*ir.Literal).Text == "true"
		return call(pure, nested("SortArray"), args[:1], jen.Lit(asc))
	case "array_join":
		if len(args) == 3 {
			return call(pure, nested("Join"), args, jen.True())
		}
		return call(pure, nested("Join"), args, jen.Lit(""), jen.False())
	case "array_position", "array_remove":
		fn := map[string]string{"array_position": "Position", "array_remove": "Remove"}[e.Name]
		return call(pure, nested(fn), []*value{x, g.as(args[1], x.t.Elem(), e.Pos)})
	case "array_repeat":
		return g.strict(t, e.Pos, checked, false, args[1:], func() jen.Code {
			return nested("Repeat").Call(anyOf(g.as(x, t.Elem(), e.Pos)), int32Of(args[1]))
		})
	case "array_max", "array_min":
		fn := map[string]string{"array_max": "ArrayMax", "array_min": "ArrayMin"}[e.Name]
		return call(maybe, generic(fn, t), args)
	case "array_append", "array_prepend":
		fn := map[string]string{"array_append": "AppendElem", "array_prepend": "Prepend"}[e.Name]
		return call(pure, nested(fn), args[:1], anyOf(g.as(args[1], t.Elem(), e.Pos)))
	case "array_insert":
		return g.strict(t, e.Pos, checked, false, args[:2], func() jen.Code {
			return nested("Insert").Call(V(x), int32Of(args[1]), anyOf(g.as(args[2], t.Elem(), e.Pos)))
		})
	case "slice":
		return g.strict(t, e.Pos, checked, false, args, func() jen.Code {
			return nested("Slice").Call(V(x), int32Of(args[1]), int32Of(args[2]))
		})
	case "sequence":
		return g.genSequence(e, args, t)
	case "try_element_at", "get":
		if x.t.Kind == ir.TMap {
			return call(maybe, generic("Lookup", t), []*value{x, g.as(args[1], x.t.Key(), e.Pos)})
		}
		fn, mode := map[string]string{"try_element_at": "TryElementAt", "get": "GetAt"}[e.Name], map[string]callMode{"try_element_at": checkedMaybe, "get": maybe}[e.Name]
		return g.strict(t, e.Pos, mode, false, args, func() jen.Code {
			return generic(fn, t).Call(V(x), jen.Int64().Call(V(args[1])))
		})
	case "concat":
		return call(pure, nested("ConcatArrays"), args)
	case "reverse":
		return call(pure, nested("ReverseArray"), args)
	case "map_contains_key":
		return call(pure, nested("ContainsKey"), []*value{x, g.as(args[1], x.t.Key(), e.Pos)})
	}
	// str_to_map
	delims := []*value{plainValue(ir.StringT, jen.Lit(",")), plainValue(ir.StringT, jen.Lit(":"))}
	copy(delims, args[1:])
	return call(checked, nested("StrToMap"), append(args[:1:1], delims...))
}

// genSequence generates sequence(start, stop[, step]): of integers by
// their step; of dates by whole days (the plan admits no other step); of
// timestamps by a constant interval's microseconds, or by the default
// step, a day of wall clock in the session zone.
func (g *flowGen) genSequence(e *ir.Call, args []*value, t ir.Type) *value {
	elem := t.Elem()
	bounds := []*value{g.as(args[0], elem, e.Pos), g.as(args[1], elem, e.Pos)}
	seq := func(fn string, extra ...jen.Code) *value {
		return g.strict(t, e.Pos, checked, false, bounds, func() jen.Code {
			return jen.Qual(nestedPkg, fn).Types(goType(elem)).Call(append([]jen.Code{V(bounds[0]), V(bounds[1])}, extra...)...)
		})
	}
	switch {
	case elem.Kind == ir.TTimestamp && len(args) == 2:
		return g.strict(t, e.Pos, checked, false, bounds, func() jen.Code {
			return jen.Qual(nestedPkg, "SequenceDays").Call(V(bounds[0]), V(bounds[1]), g.zoneArg())
		})
	case elem.Kind == ir.TDate32 || elem.Kind == ir.TTimestamp:
		if len(args) == 2 {
			return seq("SequenceBy1")
		}
		d, _ := passes.IntervalConstant(e.Args[2])
		if elem.Kind == ir.TDate32 {
			return seq("Sequence", jen.Lit(int32(d/ir.Duration(24*time.Hour))))
		}
		return seq("Sequence", jen.Lit(int64(d/ir.Duration(time.Microsecond))))
	}
	if len(args) == 3 {
		bounds = append(bounds, g.as(args[2], elem, e.Pos))
		return g.strict(t, e.Pos, checked, false, bounds, func() jen.Code {
			return jen.Qual(nestedPkg, "Sequence").Types(goType(elem)).Call(V(bounds[0]), V(bounds[1]), V(bounds[2]))
		})
	}
	return seq("SequenceBy1")
}
