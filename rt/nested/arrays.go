package nested

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/nordisk/thund/rt/sqlfn"
)

// The array and map library (Spark's collection functions without
// lambdas). Arguments are never NULL unless a function says so (generated
// code skips the call and makes the result NULL); elements, keys' values
// and the value arguments of array_append, array_insert and the like may
// be nil (NULL).
//
// Elements compare as Spark's ordering does (Compare): NaN equals NaN and
// is above every other number, -0.0 equals 0.0, strings and binaries
// compare by their bytes, arrays and structs element by element with NULL
// first. The set functions, array_position, array_remove and the map
// functions' keys use the same equality.

// same reports whether two values are equal, NULL equal to NULL (the set
// functions' equality).
func same(a, b any) bool { return Compare(a, b) == 0 }

// indexOf is the index of the first part of xs equal to v (same), or -1.
func indexOf(xs []any, v any) int {
	return slices.IndexFunc(xs, func(x any) bool { return same(x, v) })
}

// SortArray is sort_array(arr, asc): ascending with NULLs first, or
// descending with NULLs last.
func SortArray(arr any, asc bool) any {
	out := slices.Clone(arr.(Array))
	slices.SortStableFunc(out, func(a, b any) int {
		if asc {
			return Compare(a, b)
		}
		return Compare(b, a)
	})
	return out
}

// ArraySort is array_sort(arr): ascending with NULLs last.
func ArraySort(arr any) any {
	out := slices.Clone(arr.(Array))
	slices.SortStableFunc(out, func(a, b any) int {
		switch {
		case a == nil && b == nil:
			return 0
		case a == nil:
			return 1
		case b == nil:
			return -1
		}
		return Compare(a, b)
	})
	return out
}

// distinctInto appends to out each part of xs that keep accepts and that
// out does not hold yet, in order (-0.0 as 0.0).
func distinctInto(out Array, xs []any, keep func(any) bool) Array {
	for _, x := range xs {
		if keep(x) && indexOf(out, x) < 0 {
			out = append(out, normZero(x))
		}
	}
	return out
}

// normZero is x with -0.0 made 0.0, as Spark's set functions return it.
func normZero(x any) any {
	switch f := x.(type) {
	case float64:
		if f == 0 {
			return float64(0)
		}
	case float32:
		if f == 0 {
			return float32(0)
		}
	}
	return x
}

// all accepts every value.
func all(any) bool { return true }

// Distinct is array_distinct(arr): the first of each run of equal
// elements, in order (one NULL at most).
func Distinct(arr any) any { return distinctInto(Array{}, arr.(Array), all) }

// Union is array_union(a, b): the distinct elements of a, then those of b
// that a lacks.
func Union(a, b any) any {
	return distinctInto(distinctInto(Array{}, a.(Array), all), b.(Array), all)
}

// Intersect is array_intersect(a, b): the distinct elements of a that b
// holds, in a's order.
func Intersect(a, b any) any {
	bs := b.(Array)
	return distinctInto(Array{}, a.(Array), func(x any) bool { return indexOf(bs, x) >= 0 })
}

// Except is array_except(a, b): the distinct elements of a that b lacks.
func Except(a, b any) any {
	bs := b.(Array)
	return distinctInto(Array{}, a.(Array), func(x any) bool { return indexOf(bs, x) < 0 })
}

// Overlap is arrays_overlap(a, b): true when they share a non-NULL
// element; else NULL (false) when both are non-empty and either holds a
// NULL; else false.
func Overlap(a, b any) (bool, bool) {
	as, bs := a.(Array), b.(Array)
	sawNull := false
	for _, x := range as {
		if x == nil {
			sawNull = true
			continue
		}
		for _, y := range bs {
			if y == nil {
				sawNull = true
			} else if Compare(x, y) == 0 {
				return true, true
			}
		}
	}
	sawNull = sawNull || slices.Contains(bs, nil)
	return false, !(sawNull && len(as) > 0 && len(bs) > 0)
}

// Join is array_join(arr, sep, nullRep) of an array of strings: the
// elements joined by sep, a NULL one skipped when hasRep is false, else
// written as nullRep.
func Join(arr any, sep string, nullRep string, hasRep bool) string {
	var sb strings.Builder
	first := true
	for _, x := range arr.(Array) {
		s, ok := x.(string)
		if !ok && !hasRep {
			continue
		}
		if !ok {
			s = nullRep
		}
		if !first {
			sb.WriteString(sep)
		}
		sb.WriteString(s)
		first = false
	}
	return sb.String()
}

// Position is array_position(arr, v): the 1-based index of the first
// element equal to v, 0 when none is.
func Position(arr any, v any) int64 {
	for i, x := range arr.(Array) {
		if x != nil && Compare(x, v) == 0 {
			return int64(i + 1)
		}
	}
	return 0
}

// Remove is array_remove(arr, v): arr without the elements equal to v
// (NULL elements stay).
func Remove(arr any, v any) any {
	out := Array{}
	for _, x := range arr.(Array) {
		if x == nil || Compare(x, v) != 0 {
			out = append(out, x)
		}
	}
	return out
}

// maxArrayLength is the most elements Spark lets a function build
// (ByteArrayMethods.MAX_ROUNDED_ARRAY_LENGTH).
const maxArrayLength = math.MaxInt32 - 15

// Repeat is array_repeat(v, n): v (nil: NULL) n times, none when n <= 0;
// COLLECTION_SIZE_LIMIT_EXCEEDED.PARAMETER above Spark's limit.
func Repeat(v any, n int32) (any, *sqlfn.Error) {
	if n > maxArrayLength {
		return nil, &sqlfn.Error{Class: "COLLECTION_SIZE_LIMIT_EXCEEDED.PARAMETER", Msg: "Can't create array with " + strconv.Itoa(int(n)) +
			" elements which exceeding the array size limit " + strconv.Itoa(maxArrayLength) + ", the value of parameter(s) `count` in the function `array_repeat` is invalid."}
	}
	out := make(Array, max(n, 0))
	for i := range out {
		out[i] = v
	}
	return out, nil
}

// extreme is the greatest (sign 1) or least (sign -1) non-NULL element,
// false when there is none.
func extreme[T any](arr any, sign int) (T, bool) {
	var best any
	for _, x := range arr.(Array) {
		if x != nil && (best == nil || sign*Compare(x, best) > 0) {
			best = x
		}
	}
	return as[T](best)
}

// ArrayMax is array_max(arr): the greatest non-NULL element (NaN above
// every number), false when there is none.
func ArrayMax[T any](arr any) (T, bool) { return extreme[T](arr, 1) }

// ArrayMin is array_min(arr): the least non-NULL element.
func ArrayMin[T any](arr any) (T, bool) { return extreme[T](arr, -1) }

// Compact is array_compact(arr): arr without its NULL elements.
func Compact(arr any) any {
	out := Array{}
	for _, x := range arr.(Array) {
		if x != nil {
			out = append(out, x)
		}
	}
	return out
}

// AppendElem is array_append(arr, v): arr with v (nil: NULL) at the end.
func AppendElem(arr any, v any) any { return append(slices.Clone(arr.(Array)), v) }

// Prepend is array_prepend(arr, v): arr with v (nil: NULL) at the start.
func Prepend(arr any, v any) any { return append(Array{v}, arr.(Array)...) }

// errIndexZero is Spark's INVALID_INDEX_OF_ZERO.
func errIndexZero() *sqlfn.Error {
	return &sqlfn.Error{Class: "INVALID_INDEX_OF_ZERO", Msg: "The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1)."}
}

// Insert is array_insert(arr, pos, v): v (nil: NULL) at the 1-based
// position pos, counting from the end when pos is negative (-1 appends);
// a position past either end pads with NULLs. Position 0 is
// INVALID_INDEX_OF_ZERO.
func Insert(arr any, pos int32, v any) (any, *sqlfn.Error) {
	a := arr.(Array)
	n := int64(len(a))
	p := int64(pos) // the 1-based position of v in the result
	switch {
	case p == 0:
		return nil, errIndexZero()
	case p < 0:
		p += n + 2
	}
	if p < 1 { // before the start: v, NULLs, arr
		out := append(Array{v}, make(Array, 1-p)...)
		return append(out, a...), nil
	}
	if p > n+1 { // past the end: arr, NULLs, v
		out := append(slices.Clone(a), make(Array, p-n-1)...)
		return append(out, v), nil
	}
	return slices.Insert(slices.Clone(a), int(p-1), v), nil
}

// Flatten is flatten(arr) of an array of arrays: their elements in order,
// false (NULL) when one of the arrays is NULL.
func Flatten(arr any) (any, bool) {
	out := Array{}
	for _, x := range arr.(Array) {
		if x == nil {
			return nil, false
		}
		out = append(out, x.(Array)...)
	}
	return out, true
}

// invalidParam is Spark's INVALID_PARAMETER_VALUE.<sub> of function fn.
func invalidParam(sub, param, fn, why string) *sqlfn.Error {
	return &sqlfn.Error{Class: "INVALID_PARAMETER_VALUE." + sub, Msg: "The value of parameter(s) `" + param + "` in `" + fn + "` is invalid: " + why}
}

// Slice is slice(arr, start, length): length elements from the 1-based
// start (negative: from the end); INVALID_PARAMETER_VALUE.START for start
// 0 and INVALID_PARAMETER_VALUE.LENGTH for a negative length.
func Slice(arr any, start, length int32) (any, *sqlfn.Error) {
	a := arr.(Array)
	switch {
	case start == 0:
		return nil, invalidParam("START", "start", "slice", "Expects a positive or a negative value for `start`, but got 0.")
	case length < 0:
		return nil, invalidParam("LENGTH", "length", "slice", "Expects `length` greater than or equal to 0, but got "+strconv.Itoa(int(length))+".")
	}
	from := int64(start) - 1
	if start < 0 {
		from = int64(len(a)) + int64(start)
	}
	if from < 0 || from >= int64(len(a)) {
		return Array{}, nil
	}
	to := min(from+int64(length), int64(len(a)))
	return slices.Clone(a[from:to]), nil
}

// GetAt is get(arr, i): the element at 0-based index i, false (NULL) when i
// is out of range or the element is NULL.
func GetAt[T any](arr any, i int64) (T, bool) {
	a := arr.(Array)
	if i < 0 || i >= int64(len(a)) {
		var zero T
		return zero, false
	}
	return as[T](a[i])
}

// TryElementAt is try_element_at(arr, i): element_at, but NULL (false)
// out of range. Index 0 is still INVALID_INDEX_OF_ZERO, as in Spark.
func TryElementAt[T any](arr any, i int64) (T, bool, *sqlfn.Error) {
	var zero T
	n := int64(len(arr.(Array)))
	switch {
	case i == 0:
		return zero, false, errIndexZero()
	case i > n || -i > n:
		return zero, false, nil
	}
	return ElementAt[T](arr, i)
}

// integer are the element types sequence counts in.
type integer interface {
	~int8 | ~int16 | ~int32 | ~int64
}

// Sequence is sequence(start, stop, step) of integers: start, start+step,
// ... up to stop. A step of the wrong sign (or 0 when start != stop) is
// the Java requirement failure Spark raises; more than Spark's array limit
// is COLLECTION_SIZE_LIMIT_EXCEEDED.PARAMETER.
func Sequence[T integer](start, stop, step T) (any, *sqlfn.Error) {
	s, e, d := int64(start), int64(stop), int64(step)
	if !(d > 0 && s <= e || d < 0 && s >= e || d == 0 && s == e) {
		return nil, &sqlfn.Error{Msg: fmt.Sprintf("java.lang.IllegalArgumentException: requirement failed: Illegal sequence boundaries: %d to %d by %d", s, e, d)}
	}
	n := int64(1)
	if d != 0 {
		n = (e-s)/d + 1
	}
	if n > maxArrayLength {
		return nil, errSequenceLength(n)
	}
	out := make(Array, n)
	for i := range out {
		out[i] = T(s + int64(i)*d)
	}
	return out, nil
}

// errSequenceLength is COLLECTION_SIZE_LIMIT_EXCEEDED for a sequence of n
// elements.
func errSequenceLength(n int64) *sqlfn.Error {
	return &sqlfn.Error{Class: "COLLECTION_SIZE_LIMIT_EXCEEDED.PARAMETER", Msg: "Can't create array with " + strconv.FormatInt(n, 10) +
		" elements which exceeding the array size limit " + strconv.Itoa(maxArrayLength) + ", the value of parameter(s) `count` in the function `sequence` is invalid."}
}

// SequenceBy1 is sequence(start, stop): by 1 up, or by -1 down.
func SequenceBy1[T integer](start, stop T) (any, *sqlfn.Error) {
	if start > stop {
		return Sequence(start, stop, -1)
	}
	return Sequence(start, stop, 1)
}

// SequenceDays is sequence(start, stop) of timestamps: start, then a day
// of wall clock in zone z (nil: UTC) more each time, up to stop, or down
// when start is after stop (sqlfn.TimestampAddUnit: across a DST change a
// day is 23 or 25 hours).
func SequenceDays(start, stop int64, z *sqlfn.Zone) (any, *sqlfn.Error) {
	step := int64(1)
	if start > stop {
		step = -1
	}
	out := Array{}
	for i := int64(0); ; i++ {
		t, err := sqlfn.TimestampAddUnit("DAY", i*step, start, z)
		if err != nil {
			return nil, err
		}
		if step > 0 && t > stop || step < 0 && t < stop {
			return out, nil
		}
		if len(out) == maxArrayLength {
			return nil, errSequenceLength(int64(maxArrayLength) + 1)
		}
		out = append(out, t)
	}
}

// Zip is arrays_zip(arrs...): a struct per index up to the longest array,
// with NULL where an array is shorter.
func Zip(arrs ...any) any {
	n := 0
	for _, a := range arrs {
		n = max(n, len(a.(Array)))
	}
	out := make(Array, n)
	for i := range out {
		s := make(Struct, len(arrs))
		for j, a := range arrs {
			if a := a.(Array); i < len(a) {
				s[j] = a[i]
			}
		}
		out[i] = s
	}
	return out
}

// fromPairs builds a map from keys and values as map() does:
// NULL_MAP_KEY for a NULL key, DUPLICATED_MAP_KEY for a repeated one.
func fromPairs(keys, values []any) (any, *sqlfn.Error) {
	kv := make([]any, 0, 2*len(keys))
	for i := range keys {
		kv = append(kv, keys[i], values[i])
	}
	return MakeMap(kv...)
}

// MapFromArrays is map_from_arrays(keys, values): the keys paired with the
// values; arrays of different lengths are the Java error Spark raises.
func MapFromArrays(keys, values any) (any, *sqlfn.Error) {
	ks, vs := keys.(Array), values.(Array)
	if len(ks) != len(vs) {
		return nil, &sqlfn.Error{Msg: "java.lang.IllegalArgumentException: The key array and value array of MapData must have the same length."}
	}
	return fromPairs(ks, vs)
}

// MapFromEntries is map_from_entries(arr) of key, value structs: false
// (NULL) when an entry is NULL.
func MapFromEntries(arr any) (any, bool, *sqlfn.Error) {
	var ks, vs []any
	for _, x := range arr.(Array) {
		if x == nil {
			return nil, false, nil
		}
		s := x.(Struct)
		ks, vs = append(ks, s[0]), append(vs, s[1])
	}
	m, err := fromPairs(ks, vs)
	return m, err == nil, err
}

// MapEntries is map_entries(m): its key, value structs in order.
func MapEntries(m any) any {
	mm := m.(*Map)
	out := make(Array, len(mm.Keys))
	for i := range out {
		out[i] = Struct{mm.Keys[i], mm.Values[i]}
	}
	return out
}

// MapConcat is map_concat(ms...): the entries of every map in order;
// DUPLICATED_MAP_KEY for a key two of them hold.
func MapConcat(ms ...any) (any, *sqlfn.Error) {
	var ks, vs []any
	for _, m := range ms {
		mm := m.(*Map)
		ks, vs = append(ks, mm.Keys...), append(vs, mm.Values...)
	}
	return fromPairs(ks, vs)
}

// ContainsKey is map_contains_key(m, k).
func ContainsKey(m any, k any) bool {
	return slices.ContainsFunc(m.(*Map).Keys, func(x any) bool { return Compare(x, k) == 0 })
}

// StrToMap is str_to_map(s, pairDelim, kvDelim): s split at each match of
// the regular expression pairDelim, each piece split at the first match
// of kvDelim into a key and a value (NULL when there is no match);
// DUPLICATED_MAP_KEY for a repeated key. The plan admits only patterns
// that RE2 reads as Java does.
func StrToMap(s, pairDelim, kvDelim string) (any, *sqlfn.Error) {
	kvRe := compiled(kvDelim)
	var ks, vs []any
	for _, pair := range compiled(pairDelim).Split(s, -1) {
		kv := kvRe.Split(pair, 2)
		ks = append(ks, kv[0])
		if len(kv) == 2 {
			vs = append(vs, kv[1])
		} else {
			vs = append(vs, nil)
		}
	}
	return fromPairs(ks, vs)
}

// ConcatArrays is concat(arrs...) of arrays: their elements in order.
func ConcatArrays(arrs ...any) any {
	out := Array{}
	for _, a := range arrs {
		out = append(out, a.(Array)...)
	}
	return out
}

// ReverseArray is reverse(arr) of an array.
func ReverseArray(arr any) any {
	out := slices.Clone(arr.(Array))
	slices.Reverse(out)
	return out
}
