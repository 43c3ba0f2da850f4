package passes

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nordisk/thund/ir"
)

// arrayFunctions are Spark's array and map library without lambdas
// (famNested), typed by arrayCallType (nestedCall), computed natively by
// codegen/arrays.go over rt/nested. Their answers the Spark lane checks
// (testdata/spark/arrays). Elements compare as Spark's ordering does: NaN
// equals NaN, -0.0 equals 0.0, and the set functions keep one NULL.
var arrayFunctions = []funcSig{
	{name: "sort_array", minArgs: 1, maxArgs: 2, args: []argRule{argAny, argBool}, result: resNested, resultDoc: "the array's type", family: famNested,
		doc: "the array sorted ascending with NULLs first (the default, true), or descending with NULLs last (false, a constant)"},
	{name: "array_sort", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resNested, resultDoc: "the array's type", family: famNested,
		doc: "the array sorted ascending, NULLs last"},
	{name: "array_distinct", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resNested, resultDoc: "the array's type", family: famNested,
		doc: "the array without repeated elements (the first of each kept, in order)"},
	{name: "array_union", native: sameElements, minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resNested, resultDoc: "ARRAY of the elements' common type", family: famNested,
		doc: "the distinct elements of a, then those of b that a lacks"},
	{name: "array_intersect", native: sameElements, minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resNested, resultDoc: "ARRAY of the elements' common type", family: famNested,
		doc: "the distinct elements of a that b holds, in a's order"},
	{name: "array_except", native: sameElements, minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resNested, resultDoc: "ARRAY of the elements' common type", family: famNested,
		doc: "the distinct elements of a that b lacks, in a's order"},
	{name: "arrays_overlap", native: sameElements, minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resNested, resultDoc: "BOOLEAN", family: famNested,
		doc: "whether a and b share a non-NULL element (NULL when not, both are non-empty and either holds a NULL)"},
	{name: "array_join", minArgs: 2, maxArgs: 3, args: []argRule{argAny, argString}, result: resNested, resultDoc: "STRING", family: famNested,
		native: stringElements, doc: "the elements joined by the delimiter, NULLs skipped or written as the third argument"},
	{name: "array_position", native: valueAsElement, minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resNested, resultDoc: "BIGINT", family: famNested,
		doc: "the 1-based index of the first element equal to the value, 0 when none is"},
	{name: "array_remove", native: valueAsElement, minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resNested, resultDoc: "the array's type", family: famNested,
		doc: "the array without the elements equal to the value"},
	{name: "array_repeat", minArgs: 2, maxArgs: 2, args: []argRule{argAny, argInt32}, result: resNested, resultDoc: "ARRAY of the value's type", family: famNested,
		doc: "an array of the value (NULL too) n times, empty when n <= 0"},
	{name: "array_max", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resNested, resultDoc: "the element type", family: famNested,
		doc: "the greatest non-NULL element (NaN above every number), NULL when there is none"},
	{name: "array_min", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resNested, resultDoc: "the element type", family: famNested,
		doc: "the least non-NULL element, NULL when there is none"},
	{name: "array_compact", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resNested, resultDoc: "the array's type", family: famNested,
		doc: "the array without its NULL elements"},
	{name: "array_append", native: valueAsElement, minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resNested, resultDoc: "ARRAY of the elements' and the value's common type", family: famNested,
		doc: "the array with the value (NULL too) at the end"},
	{name: "array_prepend", native: valueAsElement, minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resNested, resultDoc: "ARRAY of the elements' and the value's common type", family: famNested,
		doc: "the array with the value (NULL too) at the start"},
	{name: "array_insert", native: valueAsElement, minArgs: 3, maxArgs: 3, args: []argRule{argAny, argInt32, argAny}, result: resNested, resultDoc: "ARRAY of the elements' and the value's common type", family: famNested,
		doc: "the array with the value at a 1-based position (negative: from the end, -1 appends; past an end: NULLs between; ANSI: 0 is INVALID_INDEX_OF_ZERO)"},
	{name: "flatten", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resNested, resultDoc: "the inner array type", family: famNested,
		doc: "the elements of an array of arrays, in order (NULL when one of the arrays is)"},
	{name: "slice", minArgs: 3, maxArgs: 3, args: []argRule{argAny, argInt32}, result: resNested, resultDoc: "the array's type", family: famNested,
		doc: "length elements from a 1-based start (negative: from the end; ANSI: start 0 or a negative length is INVALID_PARAMETER_VALUE)"},
	{name: "sequence", minArgs: 2, maxArgs: 3, args: []argRule{argAny}, result: resNested, resultDoc: "ARRAY of the arguments' common type", native: nativeSequence, family: famNested,
		doc: "the integers, dates or timestamps from start to stop (both included) by step (default 1 or -1; a day of wall clock for dates and timestamps, and an interval of whole days for dates); a step away from stop is an error"},
	{name: "arrays_zip", minArgs: 1, maxArgs: -1, args: []argRule{argAny}, result: resNested, resultDoc: "ARRAY of STRUCT, a field per array", family: famNested,
		doc: "a struct per index of the longest array, NULL where an array is shorter; a field is named as its column, else by its 0-based argument index"},
	{name: "cardinality", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resNested, resultDoc: "INT", family: famNested,
		doc: "the number of elements of an array or entries of a map (size)"},
	{name: "array_size", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resNested, resultDoc: "INT", family: famNested,
		doc: "the number of elements of an array"},
	{name: "try_element_at", native: keyAsMapKey, minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resNested, resultDoc: "the element type", family: famNested,
		doc: "element_at, but NULL when the index is out of range (index 0 is still INVALID_INDEX_OF_ZERO, as in Spark)"},
	{name: "get", minArgs: 2, maxArgs: 2, args: []argRule{argAny, argInt32}, result: resNested, resultDoc: "the element type", family: famNested,
		doc: "the array's element at a 0-based index, NULL when it is out of range"},
	{name: "map_from_arrays", minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resNested, resultDoc: "MAP of the two arrays' element types", family: famNested,
		doc: "a map of the keys' array paired with the values' (ANSI: NULL_MAP_KEY, DUPLICATED_MAP_KEY; arrays of different lengths are an error)"},
	{name: "map_from_entries", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resNested, resultDoc: "MAP of the entries' two field types", family: famNested,
		doc: "a map of an array of key, value structs (NULL when an entry is; ANSI: NULL_MAP_KEY, DUPLICATED_MAP_KEY)"},
	{name: "map_entries", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resNested, resultDoc: "ARRAY<STRUCT<key, value>>", family: famNested,
		doc: "a map's entries as key, value structs, in the map's order"},
	{name: "map_concat", native: sameElements, minArgs: 1, maxArgs: -1, args: []argRule{argAny}, result: resNested, resultDoc: "MAP of the maps' common key and value types", family: famNested,
		doc: "the entries of every map, in order (ANSI: a key two maps hold is DUPLICATED_MAP_KEY)"},
	{name: "map_contains_key", native: keyAsMapKey, minArgs: 2, maxArgs: 2, args: []argRule{argAny}, result: resNested, resultDoc: "BOOLEAN", family: famNested,
		doc: "whether the map has the key"},
	{name: "str_to_map", minArgs: 1, maxArgs: 3, args: []argRule{argString}, result: resNested, resultDoc: "MAP<STRING, STRING>", family: famNested,
		native: strToMapPatterns, doc: "a map of the text split into pairs at a regex (default ',') and each pair at the first match of another (default ':'; no match: a NULL value; ANSI: DUPLICATED_MAP_KEY)"},
}

// arrayTyping types each function of arrayFunctions, its arguments'
// count checked: the result type and whether it can be NULL, false after
// an error it reported.
var arrayTyping = map[string]func(a *arrayArgs) (ir.Type, bool, bool){
	"sort_array":       typeSortArray,
	"array_sort":       typeArraySort,
	"array_distinct":   sameArray,
	"array_remove":     typeArrayRemove,
	"array_compact":    typeArrayCompact,
	"shuffle":          sameArray,
	"array_union":      typeSetOp,
	"array_intersect":  typeSetOp,
	"array_except":     typeSetOp,
	"arrays_overlap":   typeOverlap,
	"array_join":       typeArrayJoin,
	"array_position":   typeArrayPosition,
	"array_repeat":     typeArrayRepeat,
	"array_max":        typeArrayExtreme,
	"array_min":        typeArrayExtreme,
	"array_append":     typeArrayAdd,
	"array_prepend":    typeArrayAdd,
	"array_insert":     typeArrayAdd,
	"flatten":          typeFlatten,
	"slice":            typeSlice,
	"sequence":         typeSequence,
	"arrays_zip":       typeArraysZip,
	"cardinality":      typeCardinality,
	"array_size":       typeArraySize,
	"try_element_at":   typeTryElementAt,
	"get":              typeGet,
	"map_from_arrays":  typeMapFromArrays,
	"map_from_entries": typeMapFromEntries,
	"map_entries":      typeMapEntries,
	"map_concat":       typeMapConcat,
	"map_contains_key": typeMapContainsKey,
	"str_to_map":       typeStrToMap,
}

// arrayArgs is a call of arrayFunctions being typed.
type arrayArgs struct {
	r     *resolver
	e     *ir.Call
	name  string
	types []ir.Type
	nulls []bool
}

// anyNull reports whether an argument can be NULL.
func (a *arrayArgs) anyNull() bool {
	for _, n := range a.nulls {
		if n {
			return true
		}
	}
	return false
}

// want reports an error at argument i unless its type (unknown aside) is
// of kind k, described as desc.
func (a *arrayArgs) want(i int, k ir.TypeKind, desc string) bool {
	t := a.types[i]
	if isUnknown(t) || t.Kind == k {
		return true
	}
	a.r.errorf(a.e.Args[i].Position(), ir.CodeTypeMismatch, "%s takes %s as argument %d, got %s (%s)", a.name, desc, i+1, t, exprString(a.e.Args[i]))
	return false
}

// wantInt reports an error at argument i unless it is an INT, SMALLINT or
// TINYINT, which Spark's index and count arguments take.
func (a *arrayArgs) wantInt(i int) bool {
	t := a.types[i]
	if isUnknown(t) || argRules[argInt32].ok(t) {
		return true
	}
	a.r.errorf(a.e.Args[i].Position(), ir.CodeTypeMismatch, "%s takes an INT as argument %d, got %s (%s): cast it to int", a.name, i+1, t, exprString(a.e.Args[i]))
	return false
}

// comparable reports an error unless the elements of array argument i
// can be compared (no map: Spark cannot compare maps).
func (a *arrayArgs) comparable(i int) bool {
	if t := a.types[i]; t.Kind == ir.TArray && hasMap(t.Elem()) {
		a.r.errorf(a.e.Args[i].Position(), ir.CodeTypeMismatch, "%s compares the elements of %s, and Spark cannot compare maps", a.name, t)
		return false
	}
	return true
}

// tightestType is Spark's tightest common type of a and b, which its
// array functions compare and add elements in: one of them NULL, the same
// type, or two numbers neither of which is a decimal (no string
// promotion, no decimal widening).
func tightestType(a, b ir.Type) (ir.Type, bool) {
	switch {
	case isUnknown(a):
		return b, true
	case isUnknown(b), SameType(a, b):
		return a, true
	case a.IsNumeric() && b.IsNumeric() && a.Kind != ir.TDecimal && b.Kind != ir.TDecimal:
		return commonType(a, b)
	}
	return ir.Type{}, false
}

// elemWith is the tightest common type of array argument i's elements and
// value argument j (the element type a value is looked for as, or added
// as).
func (a *arrayArgs) elemWith(i, j int) (ir.Type, bool) {
	arr := a.types[i]
	if l, ok := a.e.Args[j].(*ir.Literal); ok && l.Kind == ir.LitNull || isUnknown(arr) {
		return arr.Elem(), true
	}
	c, ok := tightestType(arr.Elem(), a.types[j])
	if !ok {
		a.r.errorf(a.e.Args[j].Position(), ir.CodeTypeMismatch, "%s takes a value of the array's element type %s, got %s (%s): cast one of them (Spark: DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES)", a.name, arr.Elem(), a.types[j], exprString(a.e.Args[j]))
	}
	return c, ok
}

// arrayCallType types a call of arrayFunctions; handled is false for any
// other function.
func (r *resolver) arrayCallType(e *ir.Call, name string, types []ir.Type, nulls []bool) (t ir.Type, null, handled bool) {
	typing, ok := arrayTyping[name]
	if !ok {
		return ir.Type{}, false, false
	}
	f := lookupFunc(name)
	if name == "array_sort" && len(types) == 2 { // the comparator form (a lambda) types elsewhere
		r.errorf(e.Args[1].Position(), ir.CodeArity, "array_sort with a comparator is not supported yet: array_sort(arr) sorts ascending with NULLs last; sort_array(arr, false) descending")
		return invalid, true, true
	}
	if n := len(types); !r.arity(e, name, n >= f.minArgs && (f.maxArgs < 0 || n <= f.maxArgs), f.arityText()+" argument(s)") {
		return invalid, true, true
	}
	t, null, ok = typing(&arrayArgs{r: r, e: e, name: name, types: types, nulls: nulls})
	if !ok {
		return invalid, true, true
	}
	return t, null, true
}

// sameArray types f(arr): the array's type.
func sameArray(a *arrayArgs) (ir.Type, bool, bool) {
	return a.types[0], a.nulls[0], a.want(0, ir.TArray, "an array") && a.comparable(0)
}

// typeSortArray types sort_array(arr[, asc]): asc a boolean constant, as
// Spark requires (DATATYPE_MISMATCH.NON_FOLDABLE_INPUT).
func typeSortArray(a *arrayArgs) (ir.Type, bool, bool) {
	if len(a.types) == 2 {
		if l, ok := a.e.Args[1].(*ir.Literal); !ok || l.Kind != ir.LitBool {
			a.r.errorf(a.e.Args[1].Position(), ir.CodeTypeMismatch, "sort_array's order must be the constant true or false, got %s (Spark: DATATYPE_MISMATCH.NON_FOLDABLE_INPUT)", exprString(a.e.Args[1]))
			return ir.Type{}, false, false
		}
	}
	return sameArray(a)
}

// typeArraySort types array_sort(arr), the form without a comparator.
func typeArraySort(a *arrayArgs) (ir.Type, bool, bool) { return sameArray(a) }

// typeArrayRemove types array_remove(arr, v).
func typeArrayRemove(a *arrayArgs) (ir.Type, bool, bool) {
	if !a.want(0, ir.TArray, "an array") || !a.comparable(0) {
		return ir.Type{}, false, false
	}
	_, ok := a.elemWith(0, 1)
	return a.types[0], a.anyNull(), ok
}

// typeArrayCompact types array_compact(arr): its elements are never NULL.
func typeArrayCompact(a *arrayArgs) (ir.Type, bool, bool) {
	if !a.want(0, ir.TArray, "an array") {
		return ir.Type{}, false, false
	}
	if isUnknown(a.types[0]) {
		return ir.Type{}, true, true
	}
	return ir.ArrayOf(a.types[0].Elem(), false), a.nulls[0], true
}

// commonArrays is the common type of two array arguments (ok false after
// an error).
func (a *arrayArgs) commonArrays() (ir.Type, bool) {
	if !a.want(0, ir.TArray, "an array") || !a.want(1, ir.TArray, "an array") || !a.comparable(0) || !a.comparable(1) {
		return ir.Type{}, false
	}
	x, y := a.types[0], a.types[1]
	switch {
	case isUnknown(x):
		return y, true
	case isUnknown(y):
		return x, true
	}
	c, ok := tightestType(x.Elem(), y.Elem())
	if !ok {
		a.r.errorf(a.e.Args[1].Position(), ir.CodeTypeMismatch, "%s takes two arrays of one element type, got %s and %s: cast one of them (Spark: DATATYPE_MISMATCH.BINARY_ARRAY_DIFF_TYPES)", a.name, x, y)
		return ir.Type{}, false
	}
	null := x.ElemNullable() || y.ElemNullable()
	switch a.name {
	case "array_intersect":
		null = x.ElemNullable() && y.ElemNullable()
	case "array_except":
		null = x.ElemNullable()
	}
	return ir.ArrayOf(c, null), true
}

// typeSetOp types array_union, array_intersect and array_except.
func typeSetOp(a *arrayArgs) (ir.Type, bool, bool) {
	t, ok := a.commonArrays()
	return t, a.anyNull(), ok
}

// typeOverlap types arrays_overlap(a, b).
func typeOverlap(a *arrayArgs) (ir.Type, bool, bool) {
	_, ok := a.commonArrays()
	return ir.Bool, true, ok
}

// typeArrayJoin types array_join(arr, sep[, nullRep]).
func typeArrayJoin(a *arrayArgs) (ir.Type, bool, bool) {
	ok := a.want(0, ir.TArray, "an array") && a.want(1, ir.TString, "a string")
	if len(a.types) == 3 {
		ok = ok && a.want(2, ir.TString, "a string")
	}
	return ir.StringT, a.anyNull(), ok
}

// typeArrayPosition types array_position(arr, v).
func typeArrayPosition(a *arrayArgs) (ir.Type, bool, bool) {
	if !a.want(0, ir.TArray, "an array") || !a.comparable(0) {
		return ir.Type{}, false, false
	}
	_, ok := a.elemWith(0, 1)
	return ir.Int64, a.anyNull(), ok
}

// typeArrayRepeat types array_repeat(v, n).
func typeArrayRepeat(a *arrayArgs) (ir.Type, bool, bool) {
	if isUnknown(a.types[0]) {
		a.r.errorf(a.e.Args[0].Position(), ir.CodeTypeMismatch, "array_repeat of an untyped NULL (an array of Spark's VOID) is not supported: cast it, cast(null as int)")
		return ir.Type{}, false, false
	}
	return ir.ArrayOf(a.types[0], a.nulls[0]), a.nulls[1], a.wantInt(1)
}

// typeArrayExtreme types array_max and array_min: the element type.
func typeArrayExtreme(a *arrayArgs) (ir.Type, bool, bool) {
	if !a.want(0, ir.TArray, "an array") || !a.comparable(0) {
		return ir.Type{}, false, false
	}
	return a.types[0].Elem(), true, true
}

// typeArrayAdd types array_append(arr, v), array_prepend(arr, v) and
// array_insert(arr, pos, v): an array of the elements' and v's common type.
func typeArrayAdd(a *arrayArgs) (ir.Type, bool, bool) {
	v := len(a.types) - 1
	if !a.want(0, ir.TArray, "an array") || v == 2 && !a.wantInt(1) {
		return ir.Type{}, false, false
	}
	c, ok := a.elemWith(0, v)
	if !ok || isUnknown(a.types[0]) {
		return ir.Type{}, true, ok
	}
	null := a.nulls[0] || v == 2 && a.nulls[1]
	return ir.ArrayOf(c, a.types[0].ElemNullable() || a.nulls[v] || v == 2), null, true
}

// typeFlatten types flatten(arr) of an array of arrays.
func typeFlatten(a *arrayArgs) (ir.Type, bool, bool) {
	t := a.types[0]
	if isUnknown(t) {
		return ir.Type{}, true, true
	}
	if t.Kind != ir.TArray || t.Elem().Kind != ir.TArray && !isUnknown(t.Elem()) {
		a.r.errorf(a.e.Args[0].Position(), ir.CodeTypeMismatch, "flatten takes an array of arrays, got %s (%s)", t, exprString(a.e.Args[0]))
		return ir.Type{}, false, false
	}
	return t.Elem(), a.nulls[0] || t.ElemNullable(), true
}

// typeSlice types slice(arr, start, length).
func typeSlice(a *arrayArgs) (ir.Type, bool, bool) {
	return a.types[0], a.anyNull(), a.want(0, ir.TArray, "an array") && a.wantInt(1) && a.wantInt(2)
}

// typeSequence types sequence(start, stop[, step]): an array of start's
// and stop's common type, integers with an integer step, or dates and
// timestamps (a timestamp when either is one) with an interval step. A
// constant step of dates shorter than a day is the error Spark raises when
// it runs the call.
func typeSequence(a *arrayArgs) (ir.Type, bool, bool) {
	var t ir.Type
	temporal, integral := -1, -1
	for i, at := range a.types[:2] {
		switch {
		case isUnknown(at):
			continue
		case at.Kind == ir.TDate32 || at.Kind == ir.TTimestamp:
			temporal = i
		case at.IsSigned():
			integral = i
		default:
			a.r.errorf(a.e.Args[i].Position(), ir.CodeTypeMismatch, "sequence takes integers, dates or timestamps, got %s (%s)", at, exprString(a.e.Args[i]))
			return ir.Type{}, false, false
		}
		t, _ = commonType(t, at)
	}
	if temporal >= 0 && integral >= 0 {
		a.r.errorf(a.e.Args[integral].Position(), ir.CodeTypeMismatch, "sequence's start and stop must be of one type (DATATYPE_MISMATCH.SEQUENCE_WRONG_INPUT_TYPES), got %s and %s", a.types[0], a.types[1])
		return ir.Type{}, false, false
	}
	if len(a.types) == 3 && !isUnknown(a.types[2]) {
		st := a.types[2]
		switch {
		case temporal >= 0 && st.Kind != ir.TDuration:
			a.r.errorf(a.e.Args[2].Position(), ir.CodeTypeMismatch, "sequence of %s steps by an INTERVAL (DATATYPE_MISMATCH.SEQUENCE_WRONG_INPUT_TYPES), got %s (%s)", t, st, exprString(a.e.Args[2]))
			return ir.Type{}, false, false
		case temporal < 0 && !st.IsSigned():
			a.r.errorf(a.e.Args[2].Position(), ir.CodeTypeMismatch, "sequence of integers steps by an integer (DATATYPE_MISMATCH.SEQUENCE_WRONG_INPUT_TYPES), got %s (%s)", st, exprString(a.e.Args[2]))
			return ir.Type{}, false, false
		case temporal < 0:
			t, _ = commonType(t, st)
		}
		if d, ok := IntervalConstant(a.e.Args[2]); ok && t.Kind == ir.TDate32 && (d < ir.Duration(24*time.Hour) && d > -ir.Duration(24*time.Hour)) {
			a.r.errorf(a.e.Args[2].Position(), ir.CodeTypeMismatch, "sequence step must be an interval day to second of day granularity if start and end values are dates, got %s", exprString(a.e.Args[2]))
			return ir.Type{}, false, false
		}
	}
	if isUnknown(t) {
		t = ir.Int32
	}
	return ir.ArrayOf(t, false), a.anyNull(), true
}

// IntervalConstant is an INTERVAL literal's duration, or its negation's.
func IntervalConstant(e ir.Expr) (ir.Duration, bool) {
	if n, ok := e.(*ir.Unary); ok && n.Op == ir.OpNeg {
		d, ok := IntervalConstant(n.X)
		return -d, ok
	}
	l, ok := e.(*ir.Literal)
	if !ok || l.Kind != ir.LitInterval {
		return 0, false
	}
	d, err := ir.ParseDuration(l.Text)
	return d, err == nil
}

// nativeSequence: sequence of dates by a constant step of whole days, of
// microsecond timestamps by a constant step, or of either by the default
// day.
func nativeSequence(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	t := u.Types[e].Elem()
	if t.Kind != ir.TDate32 && t.Kind != ir.TTimestamp {
		return ir.Pos{}, ""
	}
	if t.Kind == ir.TTimestamp && t.Unit != ir.Micro {
		return e.Pos, fmt.Sprintf("sequence of %s is not supported yet: cast start and stop to timestamp(us)", t)
	}
	if len(e.Args) < 3 {
		return ir.Pos{}, ""
	}
	d, ok := IntervalConstant(e.Args[2])
	switch {
	case !ok:
		return e.Args[2].Position(), "sequence with a step that is not an INTERVAL literal is not supported yet"
	case t.Kind == ir.TDate32 && d%ir.Duration(24*time.Hour) != 0:
		return e.Args[2].Position(), fmt.Sprintf("sequence of dates by %s, not whole days, is not supported yet", exprString(e.Args[2]))
	}
	return ir.Pos{}, ""
}

// typeArraysZip types arrays_zip(arrs...): an array of structs whose
// fields are named as Spark names them, a column's name or else the
// argument's 0-based index.
func typeArraysZip(a *arrayArgs) (ir.Type, bool, bool) {
	fields := make([]ir.StructField, len(a.types))
	for i, t := range a.types {
		if !a.want(i, ir.TArray, "an array") {
			return ir.Type{}, false, false
		}
		name := strconv.Itoa(i)
		switch x := a.e.Args[i].(type) {
		case *ir.ColumnRef:
			name = x.Name
		case *ir.GetField:
			name = x.Name
		}
		fields[i] = ir.StructField{Name: name, Type: t.Elem()}
	}
	return ir.ArrayOf(ir.StructOf(fields...), false), a.anyNull(), true
}

// typeCardinality types cardinality(x), which is size(x).
func typeCardinality(a *arrayArgs) (ir.Type, bool, bool) {
	if t := a.types[0]; !isUnknown(t) && t.Kind != ir.TArray && t.Kind != ir.TMap {
		a.r.errorf(a.e.Args[0].Position(), ir.CodeTypeMismatch, "cardinality takes an array or a map, got %s (%s)", t, exprString(a.e.Args[0]))
		return ir.Type{}, false, false
	}
	return ir.Int32, a.nulls[0], true
}

// typeArraySize types array_size(arr), size of an array only.
func typeArraySize(a *arrayArgs) (ir.Type, bool, bool) {
	return ir.Int32, a.nulls[0], a.want(0, ir.TArray, "an array")
}

// typeTryElementAt types try_element_at(x, i) as element_at, always
// nullable.
func typeTryElementAt(a *arrayArgs) (ir.Type, bool, bool) {
	x := a.types[0]
	switch {
	case isUnknown(x):
		return ir.Type{}, true, true
	case x.Kind == ir.TMap:
		a.r.mapKey(a.e.Args[1], x, a.types[1], "a key of")
		return x.Elem(), true, true
	}
	return x.Elem(), true, a.want(0, ir.TArray, "an array or a map") && a.wantInt(1)
}

// typeGet types get(arr, i).
func typeGet(a *arrayArgs) (ir.Type, bool, bool) {
	if isUnknown(a.types[0]) {
		return ir.Type{}, true, a.wantInt(1)
	}
	return a.types[0].Elem(), true, a.want(0, ir.TArray, "an array") && a.wantInt(1)
}

// typeMapFromArrays types map_from_arrays(keys, values).
func typeMapFromArrays(a *arrayArgs) (ir.Type, bool, bool) {
	if !a.want(0, ir.TArray, "an array") || !a.want(1, ir.TArray, "an array") {
		return ir.Type{}, false, false
	}
	k, v := a.types[0], a.types[1]
	if isUnknown(k) || isUnknown(v) {
		return ir.Type{}, true, true
	}
	if hasMap(k.Elem()) {
		a.r.errorf(a.e.Args[0].Position(), ir.CodeTypeMismatch, "the key of a map cannot be or contain a map, got %s (Spark: INVALID_MAP_KEY_TYPE)", k.Elem())
		return ir.Type{}, false, false
	}
	return ir.MapOf(k.Elem(), v.Elem(), v.ElemNullable()), a.anyNull(), true
}

// typeMapFromEntries types map_from_entries(arr) of two-field structs.
func typeMapFromEntries(a *arrayArgs) (ir.Type, bool, bool) {
	t := a.types[0]
	if isUnknown(t) {
		return ir.Type{}, true, true
	}
	if t.Kind != ir.TArray || t.Elem().Kind != ir.TStruct || len(t.Elem().Fields()) != 2 {
		a.r.errorf(a.e.Args[0].Position(), ir.CodeTypeMismatch, "map_from_entries takes an array of key, value structs, got %s (%s)", t, exprString(a.e.Args[0]))
		return ir.Type{}, false, false
	}
	fs := t.Elem().Fields()
	return ir.MapOf(fs[0].Type, fs[1].Type, !fs[1].NotNull), true, true
}

// typeMapEntries types map_entries(m).
func typeMapEntries(a *arrayArgs) (ir.Type, bool, bool) {
	m := a.types[0]
	if !a.want(0, ir.TMap, "a map") {
		return ir.Type{}, false, false
	}
	if isUnknown(m) {
		return ir.Type{}, true, true
	}
	entry := ir.StructOf(ir.StructField{Name: "key", Type: m.Key(), NotNull: true}, ir.StructField{Name: "value", Type: m.Elem(), NotNull: !m.ElemNullable()})
	return ir.ArrayOf(entry, false), a.nulls[0], true
}

// typeMapConcat types map_concat(ms...): the maps' common type.
func typeMapConcat(a *arrayArgs) (ir.Type, bool, bool) {
	var t ir.Type
	for i, m := range a.types {
		if !a.want(i, ir.TMap, "a map") {
			return ir.Type{}, false, false
		}
		c, ok := commonType(t, m)
		if !ok {
			a.r.errorf(a.e.Args[i].Position(), ir.CodeTypeMismatch, "map_concat takes maps of one type, got %s and %s (%s): cast one of them", t, m, exprString(a.e.Args[i]))
			return ir.Type{}, false, false
		}
		t = c
	}
	return t, a.anyNull(), true
}

// typeMapContainsKey types map_contains_key(m, k).
func typeMapContainsKey(a *arrayArgs) (ir.Type, bool, bool) {
	if !a.want(0, ir.TMap, "a map") {
		return ir.Type{}, false, false
	}
	if l, ok := a.e.Args[1].(*ir.Literal); ok && l.Kind == ir.LitNull {
		a.r.errorf(l.Pos, ir.CodeTypeMismatch, "map_contains_key cannot look for NULL (Spark: DATATYPE_MISMATCH.NULL_TYPE)")
		return ir.Type{}, false, false
	}
	if m := a.types[0]; !isUnknown(m) {
		a.r.mapKey(a.e.Args[1], m, a.types[1], "a key of")
	}
	return ir.Bool, a.anyNull(), true
}

// typeStrToMap types str_to_map(text[, pairDelim[, kvDelim]]).
func typeStrToMap(a *arrayArgs) (ir.Type, bool, bool) {
	for i := range a.types {
		if !a.want(i, ir.TString, "a string") {
			return ir.Type{}, false, false
		}
	}
	return ir.MapOf(ir.StringT, ir.StringT, true), a.anyNull(), true
}

// stringElements refuses array_join natively over an array whose
// elements are not strings (Spark casts them to strings first).
func stringElements(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	if t := args[0]; t.Elem().Kind != ir.TString && !isUnknown(t.Elem()) {
		return e.Args[0].Position(), "array_join of " + t.String() + " is not supported yet: cast the array to array<string>"
	}
	return ir.Pos{}, ""
}

// strToMapPatterns refuses str_to_map natively unless its delimiters are
// string literals that RE2 reads as Java does (they are regexes).
func strToMapPatterns(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	for _, d := range e.Args[1:] {
		if pos, why := nativeSplitPattern(d); why != "" {
			return pos, "str_to_map with " + why + " is not supported yet: delimit by string literals whose regex reads the same in Java and Go's RE2"
		}
	}
	return ir.Pos{}, ""
}

// sameElements refuses a call whose arrays (or maps) the native backend
// would have to cast to a common type: the arguments' types must already
// be the first's (names and nullability aside), or hold only NULLs.
func sameElements(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	for i, t := range args {
		if isUnknown(t) || t.Kind == ir.TArray && isUnknown(t.Elem()) { // NULL, or array(NULL, ...)
			continue
		}
		if !sameNestedRep(t, args[0]) {
			return e.Args[i].Position(), strings.ToLower(e.Name) + " over " + args[0].String() + " and " + t.String() + " is not supported yet: cast one of them to the other's type"
		}
	}
	return ir.Pos{}, ""
}

// valueAsElement refuses a call whose value argument (the last) the native
// backend would have to compare or store as a type other than the
// array's element type, or cast to it by a cast it does not run.
func valueAsElement(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	arr, v := args[0], args[len(args)-1]
	last := e.Args[len(args)-1]
	if c, ok := commonType(arr.Elem(), v); ok && !SameType(c, arr.Elem()) {
		return e.Pos, strings.ToLower(e.Name) + "(" + arr.String() + ", " + v.String() + ") works in " + c.String() + ", which is not supported yet: cast the array to array<" + c.String() + ">"
	}
	if !NativeCast(v, arr.Elem()) {
		return last.Position(), exprString(last) + " as an element of " + arr.String() + " (a cast from " + v.String() + ") is not supported yet"
	}
	return ir.Pos{}, ""
}

// keyAsMapKey refuses a map lookup whose key the native backend would
// have to cast to the map's key type by a cast it does not run.
func keyAsMapKey(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	if m, k := args[0], args[1]; m.Kind == ir.TMap && !NativeCast(k, m.Key()) {
		return e.Args[1].Position(), exprString(e.Args[1]) + " as a key of " + m.String() + " (a cast from " + k.String() + ") is not supported yet"
	}
	return ir.Pos{}, ""
}

// arrayForms are the string functions Spark applies to arrays too: concat
// joins arrays and reverse reverses one (codegen/arrays.go computes them
// when the call's type is an array).
var arrayForms = map[string]bool{"concat": true, "reverse": true}

// arrayForm types concat and reverse of arrays: an array of the
// arguments' common element type, NULL when any argument is. handled is
// false when no argument is an array (the string forms type as usual).
func (r *resolver) arrayForm(e *ir.Call, f *funcSig, types []ir.Type, nulls []bool) (t ir.Type, null, handled bool) {
	if !arrayForms[f.name] || !slices.ContainsFunc(types, func(t ir.Type) bool { return t.Kind == ir.TArray }) {
		return ir.Type{}, false, false
	}
	a := &arrayArgs{r: r, e: e, name: f.name, types: types, nulls: nulls}
	var elem ir.Type
	elemNull := false
	for i, at := range types {
		if !a.want(i, ir.TArray, "an array (Spark: DATATYPE_MISMATCH.DATA_DIFF_TYPES)") {
			return invalid, true, true
		}
		if isUnknown(at) {
			elemNull = true
			continue
		}
		c, ok := commonType(elem, at.Elem())
		if !ok || (elem.Kind == ir.TString) != (at.Elem().Kind == ir.TString) && !isUnknown(elem) {
			r.errorf(e.Args[i].Position(), ir.CodeTypeMismatch, "%s of arrays takes arrays of one element type, got %s and %s (%s): cast one of them", f.name, ir.ArrayOf(elem, elemNull), at, exprString(e.Args[i]))
			return invalid, true, true
		}
		elem, elemNull = c, elemNull || at.ElemNullable()
	}
	return ir.ArrayOf(elem, elemNull), a.anyNull(), true
}

// refuseArrayForm refuses concat of arrays whose types the native backend
// would have to cast to the result's, and reports whether it did.
func (p *planner) refuseArrayForm(x *ir.Call) bool {
	args := make([]ir.Type, len(x.Args))
	for i, a := range x.Args {
		args[i] = p.u.Types[a]
	}
	if pos, why := sameElements(p.u, x, args); why != "" {
		p.refuse(pos, "%s", why)
		return true
	}
	return false
}
