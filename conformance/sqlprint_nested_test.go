package conformance

// The nested family against DuckDB: nested types (ARRAY, MAP, STRUCT as
// DuckDB's LIST, MAP, STRUCT), subscripts and fields, the array and map
// functions, the generators (LATERAL joins over range()), the
// higher-order functions (DuckDB's lambdas) and the JSON functions. Every
// function's Spark meaning is written out where DuckDB's differs; the
// differences, one comment at each:
//
//   - DuckDB lists are 1-based and an index out of range is NULL; Spark's
//     x[i] is 0-based, element_at 1-based, and under ANSI both raise on an
//     index out of range (INVALID_ARRAY_INDEX,
//     INVALID_ARRAY_INDEX_IN_ELEMENT_AT) and element_at on 0
//     (INVALID_INDEX_OF_ZERO).
//   - DuckDB's lambda index is 1-based and BIGINT; Spark's is 0-based INT.
//   - DuckDB's list_distinct drops NULLs and does not keep the order;
//     Spark's array_distinct / union / intersect / except keep one NULL and
//     the first occurrence's order: written with list_filter over prefixes.
//   - Three-valued results (array_contains, arrays_overlap, exists, forall)
//     are NULL in Spark where DuckDB's functions answer false.
//   - map_concat: DuckDB keeps the last value of a repeated key; Spark
//     (mapKeyDedupPolicy EXCEPTION) raises DUPLICATED_MAP_KEY.
//   - JSON: DuckDB raises on malformed text, Spark answers NULL (or a
//     struct of NULLs); only the paths that mean the same in both are
//     translated (get_json_object's $.name, ['name'] and [n]).
//
// Data of its own: ne_data (genNested), declared in
// testdata/functions/nested.thund.

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nordisk/thund/ir"
)

func init() {
	registerCalls(map[string]func(p *printer, e *ir.Call) string{
		// nestedFunctions
		"array":          neArray,
		"map":            neMap,
		"struct":         neStruct,
		"named_struct":   neStruct,
		"size":           neSize,
		"cardinality":    neSize,
		"array_size":     neSize,
		"element_at":     neElementAt,
		"try_element_at": neElementAt,
		"array_contains": neArrayContains,
		"map_keys":       func(p *printer, e *ir.Call) string { return p.cast(e, "map_keys("+p.neArg(e, 0, 1)+")") },
		"map_values":     func(p *printer, e *ir.Call) string { return p.cast(e, "map_values("+p.neArg(e, 0, 1)+")") },
		"split":          neSplit,
		// arrayFunctions
		"sort_array":       neSortArray,
		"array_sort":       neArraySort,
		"array_distinct":   neArrayDistinct,
		"array_union":      neSetOp,
		"array_intersect":  neSetOp,
		"array_except":     neSetOp,
		"arrays_overlap":   neArraysOverlap,
		"array_join":       neArrayJoin,
		"array_position":   neArrayPosition,
		"array_remove":     neArrayRemove,
		"array_repeat":     neArrayRepeat,
		"array_max":        func(p *printer, e *ir.Call) string { return p.cast(e, "list_max("+p.neArg(e, 0, 1)+")") },
		"array_min":        func(p *printer, e *ir.Call) string { return p.cast(e, "list_min("+p.neArg(e, 0, 1)+")") },
		"array_compact":    neArrayCompact,
		"array_append":     neArrayAppend,
		"array_prepend":    neArrayAppend,
		"array_insert":     neArrayInsert,
		"flatten":          neFlatten,
		"slice":            neSlice,
		"sequence":         neSequence,
		"arrays_zip":       neArraysZip,
		"get":              neGet,
		"map_from_arrays":  neMapFromArrays,
		"map_from_entries": neMapFromEntries,
		"map_entries":      neMapEntries,
		"map_concat":       neMapConcat,
		"map_contains_key": neMapContainsKey,
		"str_to_map":       neStrToMap,
		// lambdaFunctions
		"transform":        neTransform,
		"filter":           neFilter,
		"exists":           neExistsForall,
		"forall":           neExistsForall,
		"aggregate":        neAggregate,
		"reduce":           neAggregate,
		"zip_with":         neZipWith,
		"map_filter":       neMapFilter,
		"transform_keys":   neTransformMap,
		"transform_values": neTransformMap,
		"map_zip_with":     neMapZipWith,
		// jsonFunctions
		"get_json_object":   neGetJSONObject,
		"json_array_length": neJSONArrayLength,
		"json_object_keys":  neJSONObjectKeys,
		"to_json":           neToJSON,
		"from_json":         neFromJSON,
	})
	excuse(map[string]string{
		"schema_of_json": "DuckDB has no function that infers Spark's DDL schema string (json_structure prints a JSON " +
			"template with DuckDB's types, not BIGINT/DECIMAL(p,0)/DOUBLE and STRUCT<...> with sorted fields); schema_of_json " +
			"takes only a literal, folded at check time, and is checked against Spark by the Spark lane's json case " +
			"(testdata/spark/json, cmd/thundc's spark lane test)",
	})
	extraTables = append(extraTables, genNested)
}

// ---- types

// duckNestedType spells ARRAY, MAP and STRUCT as DuckDB's LIST, MAP and
// STRUCT.
func duckNestedType(pos ir.Pos, t ir.Type) (string, bool) {
	switch t.Kind {
	case ir.TArray:
		return duckType(pos, t.Elem()) + "[]", true
	case ir.TMap:
		return "MAP(" + duckType(pos, t.Key()) + ", " + duckType(pos, t.Elem()) + ")", true
	case ir.TStruct:
		var fs []string
		for _, f := range t.Fields() {
			fs = append(fs, quoteIdent(f.Name)+" "+duckType(pos, f.Type))
		}
		return "STRUCT(" + strings.Join(fs, ", ") + ")", true
	}
	return "", false
}

// ---- lambdas: each parameter of a lambda being printed is bound to the
// SQL text that stands for it (a DuckDB lambda parameter, or an expression
// over one, such as the 0-based index).

var (
	neScopesMu sync.Mutex
	neScopes   = map[*printer][]map[string]string{}
	neNames    atomic.Int64
)

// neVar is a fresh DuckDB lambda parameter name.
func neVar() string { return fmt.Sprintf("ne_v%d", neNames.Add(1)) }

// neBody prints lambda l's body with its parameters bound to texts (a
// parameter without a text is an error of the caller).
func (p *printer) neBody(l ir.Expr, texts ...string) string {
	lam, ok := l.(*ir.Lambda)
	if !ok {
		p.fail(l.Position(), "a lambda argument that is no lambda")
	}
	if len(lam.Params) > len(texts) {
		p.fail(lam.Pos, "a lambda of %d parameters where %d are bound", len(lam.Params), len(texts))
	}
	scope := map[string]string{}
	for i, n := range lam.Params {
		scope[strings.ToLower(n)] = texts[i]
	}
	neScopesMu.Lock()
	neScopes[p] = append(neScopes[p], scope)
	neScopesMu.Unlock()
	defer func() {
		neScopesMu.Lock()
		s := neScopes[p]
		if len(s) == 1 {
			delete(neScopes, p)
		} else {
			neScopes[p] = s[:len(s)-1]
		}
		neScopesMu.Unlock()
	}()
	return p.expr(lam.Body)
}

func (p *printer) neLambdaVar(v *ir.LambdaVar) string {
	neScopesMu.Lock()
	defer neScopesMu.Unlock()
	s := neScopes[p]
	for i := len(s) - 1; i >= 0; i-- {
		if t, ok := s[i][strings.ToLower(v.Name)]; ok {
			return t
		}
	}
	p.fail(v.Pos, "lambda variable %s out of scope", v.Name)
	return ""
}

// nestedExpr prints the nested expressions: subscripts, fields and lambda
// variables.
func (p *printer) nestedExpr(e ir.Expr) (string, bool) {
	switch e := e.(type) {
	case *ir.LambdaVar:
		return p.neLambdaVar(e), true
	case *ir.GetField:
		xt := p.typeOf(e.X)
		if _, i := xt.Field(e.Name); i < 0 {
			p.fail(e.Pos, "field %s of %s", e.Name, xt)
		}
		f, _ := xt.Field(e.Name)
		return p.cast(e, fmt.Sprintf("struct_extract(%s, %s)", p.expr(e.X), quoteString(f.Name))), true
	case *ir.Subscript:
		x, i := p.expr(e.X), p.expr(e.Index)
		switch p.typeOf(e.X).Kind {
		case ir.TArray:
			// Spark: 0-based, ANSI INVALID_ARRAY_INDEX out of range (a
			// negative index too); DuckDB: 1-based, NULL out of range
			return p.cast(e, fmt.Sprintf("CASE WHEN %[1]s IS NULL OR %[2]s IS NULL THEN NULL "+
				"WHEN %[2]s < 0 OR %[2]s >= len(%[1]s) THEN error('INVALID_ARRAY_INDEX') ELSE %[1]s[%[2]s + 1] END", x, i)), true
		case ir.TMap:
			return p.cast(e, fmt.Sprintf("map_extract_value(%s, %s)", x, i)), true
		}
		p.fail(e.Pos, "subscript of %s", p.typeOf(e.X))
	case *ir.Lambda:
		p.fail(e.Pos, "a lambda outside a higher-order function")
	}
	return "", false
}

// neArg prints argument i of e after checking the arity.
func (p *printer) neArg(e *ir.Call, i int, arities ...int) string {
	ok := false
	for _, n := range arities {
		ok = ok || len(e.Args) == n
	}
	if !ok {
		p.fail(e.Pos, "%s with %d arguments", e.Name, len(e.Args))
	}
	return p.expr(e.Args[i])
}

// neNullIf wraps sql in a CASE that is NULL when any of args is.
func neNullIf(sql string, args ...string) string {
	conds := make([]string, len(args))
	for i, a := range args {
		conds[i] = a + " IS NULL"
	}
	return "CASE WHEN " + strings.Join(conds, " OR ") + " THEN NULL ELSE " + sql + " END"
}

// ---- nestedFunctions

func neArray(p *printer, e *ir.Call) string {
	if len(e.Args) == 0 {
		p.fail(e.Pos, "array() (Spark's ARRAY<VOID>)")
	}
	el := p.typeOf(e).Elem()
	items := make([]string, len(e.Args))
	for i, a := range e.Args {
		items[i] = castTo(a.Position(), p.expr(a), el)
	}
	return p.cast(e, "["+strings.Join(items, ", ")+"]")
}

// neMap is map(k, v, ...): DuckDB's map() raises on a NULL or repeated key,
// as Spark does (NULL_MAP_KEY, DUPLICATED_MAP_KEY).
func neMap(p *printer, e *ir.Call) string {
	if len(e.Args) == 0 || len(e.Args)%2 != 0 {
		p.fail(e.Pos, "map with %d arguments", len(e.Args))
	}
	t := p.typeOf(e)
	var ks, vs []string
	for i := 0; i < len(e.Args); i += 2 {
		ks = append(ks, castTo(e.Pos, p.expr(e.Args[i]), t.Key()))
		vs = append(vs, castTo(e.Pos, p.expr(e.Args[i+1]), t.Elem()))
	}
	return p.cast(e, "map(["+strings.Join(ks, ", ")+"], ["+strings.Join(vs, ", ")+"])")
}

// neStruct is struct(...) and named_struct(...): the fields are the
// resolved type's.
func neStruct(p *printer, e *ir.Call) string {
	t := p.typeOf(e)
	args := e.Args
	step, off := 1, 0
	if strings.EqualFold(e.Name, "named_struct") {
		step, off = 2, 1
	}
	fs := t.Fields()
	if len(args) != len(fs)*step {
		p.fail(e.Pos, "%s: %d arguments for %d fields", e.Name, len(args), len(fs))
	}
	items := make([]string, len(fs))
	for i, f := range fs {
		items[i] = quoteIdent(f.Name) + " := " + castTo(e.Pos, p.expr(args[i*step+off]), f.Type)
	}
	return p.cast(e, "struct_pack("+strings.Join(items, ", ")+")")
}

// neSize: Spark 4 with ANSI on gives NULL for a NULL array or map
// (spark.sql.legacy.sizeOfNull applies only with ANSI off).
func neSize(p *printer, e *ir.Call) string {
	x := p.neArg(e, 0, 1)
	if p.typeOf(e.Args[0]).Kind == ir.TMap {
		return p.cast(e, "cardinality("+x+")")
	}
	return p.cast(e, "len("+x+")")
}

// neElementAt is element_at and try_element_at: 1-based, negative from the
// end, 0 is INVALID_INDEX_OF_ZERO in both; out of range is
// INVALID_ARRAY_INDEX_IN_ELEMENT_AT (ANSI) for element_at, NULL for
// try_element_at. A map's missing key is NULL.
func neElementAt(p *printer, e *ir.Call) string {
	x, i := p.neArg(e, 0, 2), p.expr(e.Args[1])
	if p.typeOf(e.Args[0]).Kind == ir.TMap {
		return p.cast(e, fmt.Sprintf("map_extract_value(%s, %s)", x, i))
	}
	out := "error('INVALID_ARRAY_INDEX_IN_ELEMENT_AT')"
	if strings.EqualFold(e.Name, "try_element_at") {
		out = "NULL"
	}
	return p.cast(e, fmt.Sprintf("CASE WHEN %[1]s IS NULL OR %[2]s IS NULL THEN NULL WHEN %[2]s = 0 THEN error('INVALID_INDEX_OF_ZERO') "+
		"WHEN abs(%[2]s) > len(%[1]s) THEN %[3]s WHEN %[2]s > 0 THEN %[1]s[%[2]s] ELSE %[1]s[len(%[1]s) + 1 + %[2]s] END", x, i, out))
}

// neHasNull is whether list x holds a NULL element.
func neHasNull(x string) string {
	v := neVar()
	return fmt.Sprintf("(len(list_filter(%s, lambda %s: %s IS NULL)) > 0)", x, v, v)
}

// neContains is whether list x holds an element equal to v (DuckDB's
// list_contains; NULLs are never equal).
func neContains(x, v string) string {
	w := neVar()
	return fmt.Sprintf("(len(list_filter(%s, lambda %s: %s = %s)) > 0)", x, w, w, v)
}

// neArrayContains: Spark is NULL when the value is not found and the array
// holds a NULL (DuckDB: false).
func neArrayContains(p *printer, e *ir.Call) string {
	x, v := p.neArg(e, 0, 2), p.expr(e.Args[1])
	return fmt.Sprintf("CASE WHEN %[1]s IS NULL OR %[2]s IS NULL THEN NULL WHEN %[3]s THEN true WHEN %[4]s THEN NULL ELSE false END",
		x, v, neContains(x, v), neHasNull(x))
}

var neLiteralSplit = regexp.MustCompile(`^[,;:|# a-zA-Z0-9]$`)

// neSplit is split(s, regex[, limit]) for a one-character pattern that is
// no regex metacharacter (Java's and RE2's meaning are then the same): all
// the parts, trailing empty strings kept (limit <= 0, Spark's default -1),
// or at most limit parts, the last holding the rest.
func neSplit(p *printer, e *ir.Call) string {
	s := p.neArg(e, 0, 2, 3)
	pat, ok := e.Args[1].(*ir.Literal)
	if !ok || pat.Kind != ir.LitString || !neLiteralSplit.MatchString(pat.Text) {
		p.fail(e.Pos, "split by a pattern other than one plain character")
	}
	parts := fmt.Sprintf("string_split(%s, %s)", s, quoteString(pat.Text))
	if len(e.Args) == 2 {
		return p.cast(e, parts)
	}
	n := p.expr(e.Args[2])
	return p.cast(e, neNullIf(fmt.Sprintf("CASE WHEN %[3]s <= 0 OR len(%[1]s) <= %[3]s THEN %[1]s "+
		"ELSE list_append(%[1]s[1:%[3]s - 1], array_to_string(%[1]s[%[3]s:], %[2]s)) END", parts, quoteString(pat.Text), n), s, n))
}

// ---- arrayFunctions

// neSortArray: ascending with NULLs first, or descending with NULLs last.
func neSortArray(p *printer, e *ir.Call) string {
	x := p.neArg(e, 0, 1, 2)
	asc := true
	if len(e.Args) == 2 {
		l, ok := e.Args[1].(*ir.Literal)
		if !ok || l.Kind != ir.LitBool {
			p.fail(e.Pos, "sort_array's order not a boolean literal")
		}
		asc = strings.EqualFold(l.Text, "true")
	}
	if asc {
		return p.cast(e, "list_sort("+x+", 'ASC', 'NULLS FIRST')")
	}
	return p.cast(e, "list_sort("+x+", 'DESC', 'NULLS LAST')")
}

func neArraySort(p *printer, e *ir.Call) string {
	if len(e.Args) != 1 {
		p.fail(e.Pos, "array_sort with a comparator")
	}
	return p.cast(e, "list_sort("+p.expr(e.Args[0])+", 'ASC', 'NULLS LAST')")
}

// neDistinct keeps the first of each element of list x (a NULL once), in
// order (DuckDB's list_distinct drops NULLs and reorders).
func neDistinct(x string) string {
	v, i, w := neVar(), neVar(), neVar()
	return fmt.Sprintf("list_filter(%[1]s, lambda %[2]s, %[3]s: len(list_filter(%[1]s[1:%[3]s - 1], lambda %[4]s: %[4]s IS NOT DISTINCT FROM %[2]s)) = 0)", x, v, i, w)
}

// neIn is whether list x holds v, NULL equal to NULL (Spark's set
// functions' equality).
func neIn(x, v string) string {
	w := neVar()
	return fmt.Sprintf("(len(list_filter(%s, lambda %s: %s IS NOT DISTINCT FROM %s)) > 0)", x, w, w, v)
}

func neArrayDistinct(p *printer, e *ir.Call) string {
	x := p.neArg(e, 0, 1)
	return p.cast(e, neDistinct(x))
}

// neSetOp is array_union, array_intersect and array_except: distinct
// elements in the first occurrence's order, a NULL equal to a NULL.
func neSetOp(p *printer, e *ir.Call) string {
	t := p.typeOf(e)
	a, b := castTo(e.Pos, p.neArg(e, 0, 2), t), castTo(e.Pos, p.expr(e.Args[1]), t)
	v := neVar()
	var sql string
	switch strings.ToLower(e.Name) {
	case "array_union":
		sql = neDistinct("list_concat(" + a + ", " + b + ")")
	case "array_intersect":
		sql = neDistinct(fmt.Sprintf("list_filter(%s, lambda %s: %s)", a, v, neIn(b, v)))
	default:
		sql = neDistinct(fmt.Sprintf("list_filter(%s, lambda %s: NOT %s)", a, v, neIn(b, v)))
	}
	return p.cast(e, neNullIf(sql, a, b))
}

// neArraysOverlap: true when a non-NULL element is shared; else NULL when
// both are non-empty and either holds a NULL (DuckDB: false).
func neArraysOverlap(p *printer, e *ir.Call) string {
	a, b := p.neArg(e, 0, 2), p.expr(e.Args[1])
	v := neVar()
	shared := fmt.Sprintf("(len(list_filter(%s, lambda %s: %s)) > 0)", a, v, neContains(b, v))
	return fmt.Sprintf("CASE WHEN %[1]s IS NULL OR %[2]s IS NULL THEN NULL WHEN %[3]s THEN true "+
		"WHEN len(%[1]s) > 0 AND len(%[2]s) > 0 AND (%[4]s OR %[5]s) THEN NULL ELSE false END", a, b, shared, neHasNull(a), neHasNull(b))
}

// neArrayJoin: NULL elements skipped, or replaced by the third argument
// (a NULL replacement makes the result NULL, as in Spark).
func neArrayJoin(p *printer, e *ir.Call) string {
	x, d := p.neArg(e, 0, 2, 3), p.expr(e.Args[1])
	v := neVar()
	if len(e.Args) == 2 {
		return p.cast(e, neNullIf(fmt.Sprintf("array_to_string(list_filter(%s, lambda %s: %s IS NOT NULL), %s)", x, v, v, d), x, d))
	}
	r := p.expr(e.Args[2])
	return p.cast(e, neNullIf(fmt.Sprintf("array_to_string(list_transform(%s, lambda %s: coalesce(%s, %s)), %s)", x, v, v, r, d), x, d, r))
}

// neArrayPosition: 0 when absent (DuckDB: NULL), BIGINT.
func neArrayPosition(p *printer, e *ir.Call) string {
	x, v := p.neArg(e, 0, 2), p.expr(e.Args[1])
	w, i := neVar(), neVar()
	first := fmt.Sprintf("list_min(list_transform(list_filter(list_transform(%s, lambda %s, %s: CASE WHEN %s = %s THEN %s END), lambda %s: %s IS NOT NULL), lambda %s: %s))",
		x, w, i, w, v, i, w, w, w, w)
	return p.cast(e, neNullIf("coalesce("+first+", 0)", x, v))
}

// neArrayRemove: NULL elements stay (NULL = v is not true); a NULL value
// makes the result NULL.
func neArrayRemove(p *printer, e *ir.Call) string {
	x, v := p.neArg(e, 0, 2), p.expr(e.Args[1])
	w := neVar()
	return p.cast(e, neNullIf(fmt.Sprintf("list_filter(%s, lambda %s: %s IS NULL OR %s <> %s)", x, w, w, w, v), x, v))
}

// neArrayRepeat: empty for a count <= 0, NULL for a NULL count.
func neArrayRepeat(p *printer, e *ir.Call) string {
	v, n := p.neArg(e, 0, 2), p.expr(e.Args[1])
	w := neVar()
	el := p.typeOf(e).Elem()
	return p.cast(e, neNullIf(fmt.Sprintf("list_transform(range(greatest(%s, 0)), lambda %s: %s)", n, w, castTo(e.Pos, v, el)), n))
}

func neArrayCompact(p *printer, e *ir.Call) string {
	x := p.neArg(e, 0, 1)
	v := neVar()
	return p.cast(e, fmt.Sprintf("list_filter(%s, lambda %s: %s IS NOT NULL)", x, v, v))
}

// neArrayAppend is array_append and array_prepend: a NULL value is added
// too; a NULL array gives NULL.
func neArrayAppend(p *printer, e *ir.Call) string {
	t := p.typeOf(e)
	x, v := castTo(e.Pos, p.neArg(e, 0, 2), t), castTo(e.Pos, p.expr(e.Args[1]), t.Elem())
	if strings.EqualFold(e.Name, "array_prepend") {
		return p.cast(e, neNullIf("list_concat(["+v+"], "+x+")", x))
	}
	return p.cast(e, neNullIf("list_concat("+x+", ["+v+"])", x))
}

// neArrayInsert: 1-based position; negative from the end, -1 after the last
// element (Spark 4); past either end the gap is NULLs; 0 is
// INVALID_INDEX_OF_ZERO.
func neArrayInsert(p *printer, e *ir.Call) string {
	t := p.typeOf(e)
	x, pos, v := castTo(e.Pos, p.neArg(e, 0, 3), t), p.expr(e.Args[1]), castTo(e.Pos, p.expr(e.Args[2]), t.Elem())
	nulls := func(n string) string {
		w := neVar()
		return fmt.Sprintf("list_transform(range(%s), lambda %s: CAST(NULL AS %s))", n, w, duckType(e.Pos, t.Elem()))
	}
	// k is the 0-based insertion point
	k := fmt.Sprintf("(CASE WHEN %[2]s > 0 THEN %[2]s - 1 ELSE len(%[1]s) + %[2]s + 1 END)", x, pos)
	sql := fmt.Sprintf("CASE WHEN %[2]s = 0 THEN error('INVALID_INDEX_OF_ZERO') "+
		"WHEN %[4]s > len(%[1]s) THEN list_concat(list_concat(%[1]s, %[5]s), [%[3]s]) "+
		"WHEN %[4]s < 0 THEN list_concat(list_concat([%[3]s], %[6]s), %[1]s) "+
		"ELSE list_concat(list_concat(%[1]s[1:%[4]s], [%[3]s]), %[1]s[%[4]s + 1:]) END",
		x, pos, v, k, nulls(k+" - len("+x+")"), nulls("-"+k))
	return p.cast(e, neNullIf(sql, x, pos))
}

// neFlatten: NULL when one of the arrays is NULL.
func neFlatten(p *printer, e *ir.Call) string {
	x := p.neArg(e, 0, 1)
	return p.cast(e, fmt.Sprintf("CASE WHEN %s IS NULL OR %s THEN NULL ELSE flatten(%s) END", x, neHasNull(x), x))
}

// neSlice: a 1-based start (negative: from the end; 0 is
// INVALID_PARAMETER_VALUE.START), a length (negative:
// INVALID_PARAMETER_VALUE.LENGTH); a start outside the array is empty.
func neSlice(p *printer, e *ir.Call) string {
	x, s, n := p.neArg(e, 0, 3), p.expr(e.Args[1]), p.expr(e.Args[2])
	st := fmt.Sprintf("(CASE WHEN %[2]s > 0 THEN %[2]s - 1 ELSE len(%[1]s) + %[2]s END)", x, s)
	sql := fmt.Sprintf("CASE WHEN %[2]s = 0 THEN error('INVALID_PARAMETER_VALUE.START') WHEN %[3]s < 0 THEN error('INVALID_PARAMETER_VALUE.LENGTH') "+
		"WHEN %[4]s < 0 OR %[4]s >= len(%[1]s) THEN %[1]s[1:0] ELSE list_slice(%[1]s, %[4]s + 1, %[4]s + %[3]s) END", x, s, n, st)
	return p.cast(e, neNullIf(sql, x, s, n))
}

// neSequence: integers from start to stop, both included, by step (default
// 1 or -1). A step away from stop is an error in Spark; refused rows are
// not in the views (DuckDB gives an empty list).
func neSequence(p *printer, e *ir.Call) string {
	a, b := p.neArg(e, 0, 2, 3), p.expr(e.Args[1])
	if !p.typeOf(e).Elem().IsInteger() {
		p.fail(e.Pos, "sequence of %s", p.typeOf(e).Elem())
	}
	step := fmt.Sprintf("CASE WHEN %s <= %s THEN 1 ELSE -1 END", a, b)
	args := []string{a, b}
	if len(e.Args) == 3 {
		step = p.expr(e.Args[2])
		args = append(args, step)
	}
	return p.cast(e, neNullIf(fmt.Sprintf("generate_series(%s, %s, %s)", a, b, step), args...))
}

// neArraysZip: a struct per index of the longest array (NULL fields where
// one is shorter), the fields named as the resolved type's.
func neArraysZip(p *printer, e *ir.Call) string {
	fs := p.typeOf(e).Elem().Fields()
	if len(fs) != len(e.Args) {
		p.fail(e.Pos, "arrays_zip: %d fields for %d arrays", len(fs), len(e.Args))
	}
	i := neVar()
	var xs, lens, items []string
	for k, a := range e.Args {
		x := p.expr(a)
		xs = append(xs, x)
		lens = append(lens, "len("+x+")")
		items = append(items, fmt.Sprintf("%s := %s[%s]", quoteIdent(fs[k].Name), x, i))
	}
	sql := fmt.Sprintf("list_transform(range(1, greatest(%s) + 1), lambda %s: struct_pack(%s))", strings.Join(lens, ", "), i, strings.Join(items, ", "))
	if len(lens) == 1 {
		sql = fmt.Sprintf("list_transform(range(1, %s + 1), lambda %s: struct_pack(%s))", lens[0], i, items[0])
	}
	return p.cast(e, neNullIf(sql, xs...))
}

// neGet: 0-based, NULL out of range (a negative index too).
func neGet(p *printer, e *ir.Call) string {
	x, i := p.neArg(e, 0, 2), p.expr(e.Args[1])
	return p.cast(e, fmt.Sprintf("CASE WHEN %[2]s < 0 OR %[2]s >= len(%[1]s) THEN NULL ELSE %[1]s[%[2]s + 1] END", x, i))
}

// neMapFromArrays: DuckDB's map(keys, values) raises on a NULL or repeated
// key and on lengths that differ, as Spark does.
func neMapFromArrays(p *printer, e *ir.Call) string {
	k, v := p.neArg(e, 0, 2), p.expr(e.Args[1])
	return p.cast(e, neNullIf("map("+k+", "+v+")", k, v))
}

// neMapFromEntries: NULL when an entry is NULL (DuckDB raises).
func neMapFromEntries(p *printer, e *ir.Call) string {
	x := p.neArg(e, 0, 1)
	fs := p.typeOf(e.Args[0]).Elem().Fields()
	if len(fs) != 2 {
		p.fail(e.Pos, "map_from_entries of %s", p.typeOf(e.Args[0]))
	}
	w := neVar()
	entries := fmt.Sprintf("list_transform(%s, lambda %s: struct_pack(key := struct_extract(%s, %s), value := struct_extract(%s, %s)))",
		x, w, w, quoteString(fs[0].Name), w, quoteString(fs[1].Name))
	return p.cast(e, fmt.Sprintf("CASE WHEN %s IS NULL OR %s THEN NULL ELSE map_from_entries(%s) END", x, neHasNull(x), entries))
}

func neMapEntries(p *printer, e *ir.Call) string {
	return p.cast(e, "map_entries("+p.neArg(e, 0, 1)+")")
}

// neMapConcat: Spark raises DUPLICATED_MAP_KEY on a key two maps hold
// (DuckDB keeps the last value); NULL when a map is.
func neMapConcat(p *printer, e *ir.Call) string {
	t := p.typeOf(e)
	var ms, ks []string
	for _, a := range e.Args {
		m := castTo(e.Pos, p.expr(a), t)
		ms = append(ms, m)
		ks = append(ks, "map_keys("+m+")")
	}
	keys := ks[0]
	for _, k := range ks[1:] {
		keys = "list_concat(" + keys + ", " + k + ")"
	}
	sql := fmt.Sprintf("CASE WHEN len(%[1]s) <> len(list_distinct(%[1]s)) THEN error('DUPLICATED_MAP_KEY') ELSE map_concat(%[2]s) END", keys, strings.Join(ms, ", "))
	if len(ms) == 1 {
		sql = ms[0]
	}
	return p.cast(e, neNullIf(sql, ms...))
}

func neMapContainsKey(p *printer, e *ir.Call) string {
	m, k := p.neArg(e, 0, 2), p.expr(e.Args[1])
	return neNullIf(fmt.Sprintf("list_contains(map_keys(%s), %s)", m, k), m, k)
}

// neStrToMap for one-character delimiters that are no regex
// metacharacters: the pairs split at every ',' (or the given), each pair at
// its first ':' (no ':': a NULL value); a repeated key is
// DUPLICATED_MAP_KEY (DuckDB's map_from_entries raises too).
func neStrToMap(p *printer, e *ir.Call) string {
	s := p.neArg(e, 0, 1, 2, 3)
	delims := []string{",", ":"}
	for i := 1; i < len(e.Args); i++ {
		l, ok := e.Args[i].(*ir.Literal)
		if !ok || l.Kind != ir.LitString || !neLiteralSplit.MatchString(l.Text) {
			p.fail(e.Pos, "str_to_map with a delimiter other than one plain character")
		}
		delims[i-1] = l.Text
	}
	w := neVar()
	parts := fmt.Sprintf("string_split(%s, %s)", w, quoteString(delims[1]))
	entry := fmt.Sprintf("struct_pack(key := %[1]s[1], value := CASE WHEN len(%[1]s) = 1 THEN NULL ELSE array_to_string(%[1]s[2:], %[2]s) END)", parts, quoteString(delims[1]))
	return p.cast(e, neNullIf(fmt.Sprintf("map_from_entries(list_transform(string_split(%s, %s), lambda %s: %s))", s, quoteString(delims[0]), w, entry), s))
}

// ---- lambdaFunctions

// neIndexText is Spark's 0-based INT index for DuckDB's 1-based one.
func neIndexText(v string) string { return "CAST(" + v + " - 1 AS INTEGER)" }

func neTransform(p *printer, e *ir.Call) string {
	x := p.neArg(e, 0, 2)
	v, i := neVar(), neVar()
	body := p.neBody(e.Args[1], v, neIndexText(i))
	return p.cast(e, fmt.Sprintf("list_transform(%s, lambda %s, %s: %s)", x, v, i, castTo(e.Pos, body, p.typeOf(e).Elem())))
}

func neFilter(p *printer, e *ir.Call) string {
	x := p.neArg(e, 0, 2)
	v, i := neVar(), neVar()
	body := p.neBody(e.Args[1], v, neIndexText(i))
	return p.cast(e, fmt.Sprintf("list_filter(%s, lambda %s, %s: %s)", x, v, i, body))
}

// neExistsForall: three-valued, as Spark's: exists is true for a true
// element, else NULL for a NULL one, else false; forall is false for a
// false element, else NULL for a NULL one, else true.
func neExistsForall(p *printer, e *ir.Call) string {
	x := p.neArg(e, 0, 2)
	v := neVar()
	bs := fmt.Sprintf("list_transform(%s, lambda %s: %s)", x, v, p.neBody(e.Args[1], v))
	decide, other := "true", "false"
	if strings.EqualFold(e.Name, "forall") {
		decide, other = "false", "true"
	}
	b := neVar()
	return fmt.Sprintf("CASE WHEN %[1]s IS NULL THEN NULL WHEN len(list_filter(%[2]s, lambda %[3]s: %[3]s = %[4]s)) > 0 THEN %[4]s "+
		"WHEN %[5]s THEN NULL ELSE %[6]s END", x, bs, b, decide, neHasNull(bs), other)
}

// neAggregate: the merge folds from the start value (list_reduce with an
// initial value), in the start value's type; the finish lambda applies to
// the result. A NULL array is NULL.
func neAggregate(p *printer, e *ir.Call) string {
	x, start := p.neArg(e, 0, 3, 4), p.expr(e.Args[1])
	accT := p.typeOf(e.Args[1])
	acc, v := neVar(), neVar()
	merge := castTo(e.Pos, p.neBody(e.Args[2], acc, v), accT)
	folded := fmt.Sprintf("CASE WHEN %[1]s IS NULL THEN NULL ELSE list_reduce(%[1]s, lambda %[2]s, %[3]s: %[4]s, %[5]s) END",
		x, acc, v, merge, castTo(e.Pos, start, accT))
	if len(e.Args) == 4 {
		// the finish lambda over the folded value, bound once
		f := neVar()
		return p.cast(e, fmt.Sprintf("list_transform([%s], lambda %s: %s)[1]", folded, f, p.neBody(e.Args[3], f)))
	}
	return p.cast(e, folded)
}

// neZipWith: the shorter array padded with NULLs; NULL when an array is.
func neZipWith(p *printer, e *ir.Call) string {
	a, b := p.neArg(e, 0, 3), p.expr(e.Args[1])
	i := neVar()
	body := p.neBody(e.Args[2], a+"["+i+"]", b+"["+i+"]")
	return p.cast(e, neNullIf(fmt.Sprintf("list_transform(range(1, greatest(len(%s), len(%s)) + 1), lambda %s: %s)",
		a, b, i, castTo(e.Pos, body, p.typeOf(e).Elem())), a, b))
}

// neEntries prints map m's entries and the text of one entry's key and
// value in a lambda over them.
func neEntry(v string) (key, value string) {
	return "struct_extract(" + v + ", 'key')", "struct_extract(" + v + ", 'value')"
}

func neMapFilter(p *printer, e *ir.Call) string {
	m := p.neArg(e, 0, 2)
	v := neVar()
	k, val := neEntry(v)
	return p.cast(e, neNullIf(fmt.Sprintf("map_from_entries(list_filter(map_entries(%s), lambda %s: %s))", m, v, p.neBody(e.Args[1], k, val)), m))
}

// neTransformMap is transform_keys and transform_values; a NULL or
// repeated new key raises in both (NULL_MAP_KEY, DUPLICATED_MAP_KEY).
func neTransformMap(p *printer, e *ir.Call) string {
	m := p.neArg(e, 0, 2)
	t := p.typeOf(e)
	v := neVar()
	k, val := neEntry(v)
	body := p.neBody(e.Args[1], k, val)
	var entry string
	if strings.EqualFold(e.Name, "transform_keys") {
		entry = fmt.Sprintf("struct_pack(key := %s, value := %s)", castTo(e.Pos, body, t.Key()), val)
	} else {
		entry = fmt.Sprintf("struct_pack(key := %s, value := %s)", k, castTo(e.Pos, body, t.Elem()))
	}
	return p.cast(e, neNullIf(fmt.Sprintf("map_from_entries(list_transform(map_entries(%s), lambda %s: %s))", m, v, entry), m))
}

// neMapZipWith: the first map's keys, then the second's that the first
// lacks; a missing value is NULL.
func neMapZipWith(p *printer, e *ir.Call) string {
	a, b := p.neArg(e, 0, 3), p.expr(e.Args[1])
	k, w := neVar(), neVar()
	keys := fmt.Sprintf("list_concat(map_keys(%[1]s), list_filter(map_keys(%[2]s), lambda %[3]s: NOT list_contains(map_keys(%[1]s), %[3]s)))", a, b, w)
	body := p.neBody(e.Args[2], k, "map_extract_value("+a+", "+k+")", "map_extract_value("+b+", "+k+")")
	return p.cast(e, neNullIf(fmt.Sprintf("map_from_entries(list_transform(%s, lambda %s: struct_pack(key := %s, value := %s)))",
		keys, k, k, castTo(e.Pos, body, p.typeOf(e).Elem())), a, b))
}

// ---- jsonFunctions

// neValidJSON is DuckDB's json_valid, guarding every JSON function: Spark
// answers NULL for malformed text where DuckDB raises.
func neValidJSON(j string) string { return "coalesce(json_valid(" + j + "), false)" }

var nePathStep = regexp.MustCompile(`^(\.[A-Za-z_][A-Za-z0-9_]*|\['[A-Za-z_ ][A-Za-z0-9_ ]*'\]|\[[0-9]+\])`)

// neGetJSONObject: a string unquoted, anything else as compact JSON; NULL
// for a JSON null, no match or malformed text. Only the literal paths made
// of $, .name, ['name'] and [n] translate (Spark's [*] and its wildcards'
// flattening do not).
func neGetJSONObject(p *printer, e *ir.Call) string {
	j := p.neArg(e, 0, 2)
	l, ok := e.Args[1].(*ir.Literal)
	if !ok || l.Kind != ir.LitString || !strings.HasPrefix(l.Text, "$") {
		p.fail(e.Pos, "get_json_object with a path that is no literal $...")
	}
	path := "$"
	for rest := l.Text[1:]; rest != ""; {
		m := nePathStep.FindString(rest)
		if m == "" {
			p.fail(e.Pos, "get_json_object path %q: only .name, ['name'] and [n] translate", l.Text)
		}
		rest = rest[len(m):]
		if strings.HasPrefix(m, "['") {
			m = `."` + m[2:len(m)-2] + `"`
		}
		path += m
	}
	return "CASE WHEN NOT " + neValidJSON(j) + " THEN NULL ELSE " + neJSONValueText(j, quoteString(path)) + " END"
}

// neJSONValueText is the text Spark gives for the JSON value at path
// (a DuckDB JSON path literal) of valid JSON j: NULL for none or a JSON
// null, a string unquoted, anything else as compact JSON whose
// supplementary-plane characters are written as \uXXXX\uXXXX surrogate
// escapes (Jackson's UTF-8 generator, which Spark's get_json_object and
// json_tuple write through; DuckDB writes the character).
func neJSONValueText(j, path string) string {
	v := fmt.Sprintf("json_extract(%s, %s)", j, path)
	return fmt.Sprintf("CASE WHEN json_type(%[1]s) = 'NULL' THEN NULL WHEN json_type(%[1]s) = 'VARCHAR' THEN json_extract_string(%[2]s, %[3]s) ELSE %[4]s END",
		v, j, path, neSurrogates("CAST("+v+" AS VARCHAR)"))
}

// neSurrogates writes each supplementary-plane character of text x as its
// UTF-16 surrogate pair's escapes, upper-case hex.
func neSurrogates(x string) string {
	c := neVar()
	return fmt.Sprintf("array_to_string(list_transform(string_split(%[1]s, ''), lambda %[2]s: CASE WHEN unicode(%[2]s) > 65535 THEN "+
		"printf('\\u%%04X\\u%%04X', 55296 + ((unicode(%[2]s) - 65536) // 1024), 56320 + ((unicode(%[2]s) - 65536) %% 1024)) ELSE %[2]s END), '')", x, c)
}

// DuckDB's AND and OR evaluate both sides: the JSON functions, which raise
// on malformed text, are guarded by nested CASEs.

func neJSONArrayLength(p *printer, e *ir.Call) string {
	j := p.neArg(e, 0, 1)
	return p.cast(e, fmt.Sprintf("CASE WHEN NOT %s THEN NULL WHEN json_type(%s) = 'ARRAY' THEN json_array_length(%s) END", neValidJSON(j), j, j))
}

func neJSONObjectKeys(p *printer, e *ir.Call) string {
	j := p.neArg(e, 0, 1)
	return p.cast(e, fmt.Sprintf("CASE WHEN NOT %s THEN NULL WHEN json_type(%s) = 'OBJECT' THEN json_keys(%s) END", neValidJSON(j), j, j))
}

// neToJSON writes Spark's JSON of a struct, array or map whose scalars are
// integers, booleans or strings: a struct's NULL fields are left out (DuckDB
// writes null), an array's NULL elements and a map's NULL values written as
// null. Floats, decimals and dates are refused (Java's number and date
// formatting).
func neToJSON(p *printer, e *ir.Call) string {
	x := p.neArg(e, 0, 1)
	return p.neJSON(e.Pos, x, p.typeOf(e.Args[0]))
}

func (p *printer) neJSON(pos ir.Pos, x string, t ir.Type) string {
	switch {
	case t.Kind == ir.TStruct:
		var items []string
		for _, f := range t.Fields() {
			fx := "struct_extract(" + x + ", " + quoteString(f.Name) + ")"
			items = append(items, fmt.Sprintf("CASE WHEN %s IS NOT NULL THEN %s || ':' || %s END", fx, quoteString(neJSONString(f.Name)), p.neJSON(pos, fx, f.Type)))
		}
		return neNullIf("'{' || concat_ws(',', "+strings.Join(items, ", ")+") || '}'", x)
	case t.Kind == ir.TArray:
		v := neVar()
		return neNullIf(fmt.Sprintf("'[' || array_to_string(list_transform(%s, lambda %s: coalesce(%s, 'null')), ',') || ']'", x, v, p.neJSON(pos, v, t.Elem())), x)
	case t.Kind == ir.TMap:
		if t.Key().Kind != ir.TString {
			p.fail(pos, "to_json of a map keyed by %s", t.Key())
		}
		v := neVar()
		k, val := neEntry(v)
		return neNullIf(fmt.Sprintf("'{' || array_to_string(list_transform(map_entries(%s), lambda %s: to_json(%s) || ':' || coalesce(%s, 'null')), ',') || '}'",
			x, v, k, p.neJSON(pos, val, t.Elem())), x)
	case t.IsInteger() || t.Kind == ir.TBool || t.Kind == ir.TString:
		return "CAST(to_json(" + x + ") AS VARCHAR)"
	}
	p.fail(pos, "to_json of %s (Java's formatting)", t)
	return ""
}

// neJSONString is s as a JSON string, for names made of plain characters.
func neJSONString(s string) string {
	return strconv.Quote(s)
}

// neFromJSON reads a struct schema of BIGINT, INT, BOOLEAN and STRING
// fields: PERMISSIVE, so malformed text (or text that is no object) is a
// struct of NULLs, an empty text NULL; a field whose JSON value is of
// another kind is NULL; a STRING field takes any value's JSON text, a
// string unquoted.
func neFromJSON(p *printer, e *ir.Call) string {
	j := p.neArg(e, 0, 2)
	t := p.typeOf(e)
	if t.Kind != ir.TStruct {
		p.fail(e.Pos, "from_json into %s", t)
	}
	var items, nulls []string
	for _, f := range t.Fields() {
		path := quoteString(`$."` + f.Name + `"`)
		v := fmt.Sprintf("json_extract(%s, %s)", j, path)
		var fx string
		switch {
		case f.Type.Kind == ir.TString:
			fx = fmt.Sprintf("CASE WHEN json_type(%[1]s) = 'NULL' THEN NULL WHEN json_type(%[1]s) = 'VARCHAR' THEN json_extract_string(%[2]s, %[3]s) ELSE CAST(%[1]s AS VARCHAR) END", v, j, path)
		case f.Type.IsInteger():
			fx = fmt.Sprintf("CASE WHEN json_type(%[1]s) IN ('BIGINT', 'UBIGINT') THEN TRY_CAST(CAST(%[1]s AS VARCHAR) AS %[2]s) END", v, duckType(e.Pos, f.Type))
		case f.Type.Kind == ir.TBool:
			fx = fmt.Sprintf("CASE WHEN json_type(%[1]s) = 'BOOLEAN' THEN CAST(CAST(%[1]s AS VARCHAR) AS BOOLEAN) END", v)
		default:
			p.fail(e.Pos, "from_json field of %s", f.Type)
		}
		items = append(items, quoteIdent(f.Name)+" := "+fx)
		nulls = append(nulls, quoteIdent(f.Name)+" := CAST(NULL AS "+duckType(e.Pos, f.Type)+")")
	}
	return p.cast(e, fmt.Sprintf("CASE WHEN %[1]s IS NULL OR %[1]s = '' THEN NULL WHEN NOT %[2]s THEN struct_pack(%[3]s) WHEN json_type(%[1]s) <> 'OBJECT' THEN struct_pack(%[3]s) ELSE struct_pack(%[4]s) END",
		j, neValidJSON(j), strings.Join(nulls, ", "), strings.Join(items, ", ")))
}

// ---- generators

// generate prints a lateral view: the input's columns, then the
// generator's, from a LATERAL subquery over range() (so that posexplode's
// 0-based position and an outer view's NULL row are spelled out).
func (p *printer) generate(n *ir.Generate) string {
	in, a := p.from(n.Input)
	schema := p.u.Schemas[n]
	nIn := len(p.u.Schemas[n.Input])
	gen := schema[nIn:]
	var cols []string
	var sub string
	i := neVar()
	arg := func(k int) string { return p.expr(n.Args[k]) }
	switch n.Func {
	case "explode", "posexplode", "inline":
		if len(n.Args) != 1 {
			p.fail(n.Pos, "%s with %d arguments", n.Func, len(n.Args))
		}
		x := arg(0)
		xt := p.typeOf(n.Args[0])
		if xt.Kind == ir.TMap {
			x = "map_entries(" + x + ")"
		}
		el := x + "[r." + i + "]"
		if n.Func == "posexplode" {
			cols = append(cols, "CAST(r."+i+" - 1 AS INTEGER)")
		}
		switch {
		case n.Func == "inline":
			for _, f := range xt.Elem().Fields() {
				cols = append(cols, "struct_extract("+el+", "+quoteString(f.Name)+")")
			}
		case xt.Kind == ir.TMap:
			k, v := neEntry(el)
			cols = append(cols, k, v)
		default:
			cols = append(cols, el)
		}
		sub = fmt.Sprintf("FROM range(1, coalesce(len(%s), 0) + 1) AS r(%s)", x, i)
	case "stack":
		rows := p.intConst(n.Args[0])
		vals := n.Args[1:]
		width := (len(vals) + rows - 1) / rows
		var sels []string
		for r := 0; r < rows; r++ {
			var items []string
			for c := 0; c < width; c++ {
				v := "NULL"
				if r*width+c < len(vals) {
					v = p.expr(vals[r*width+c])
				}
				items = append(items, fmt.Sprintf("%s AS g%d", castTo(n.Pos, v, gen[c].Type), c))
			}
			sels = append(sels, "SELECT "+strings.Join(items, ", "))
		}
		g := neVar()
		var outs []string
		for c := range width {
			outs = append(outs, fmt.Sprintf("%s.g%d AS c%d", g, c, nIn+c))
		}
		return fmt.Sprintf("SELECT %s, %s FROM %s CROSS JOIN LATERAL (%s) AS %s", colList(a, nIn), strings.Join(outs, ", "), in, strings.Join(sels, " UNION ALL "), g)
	case "json_tuple":
		j := arg(0)
		for k := 1; k < len(n.Args); k++ {
			l, ok := n.Args[k].(*ir.Literal)
			if !ok || l.Kind != ir.LitString || !regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`).MatchString(l.Text) {
				p.fail(n.Pos, "json_tuple with a field name that is no plain literal")
			}
			path := quoteString(`$."` + l.Text + `"`)
			cols = append(cols, fmt.Sprintf("CASE WHEN NOT %s THEN NULL WHEN json_type(%s) <> 'OBJECT' THEN NULL ELSE %s END", neValidJSON(j), j, neJSONValueText(j, path)))
		}
		sub = "FROM range(1, 2) AS r(" + i + ")"
	default:
		p.fail(n.Pos, "generator %s", n.Func)
	}
	if len(cols) != len(gen) {
		p.fail(n.Pos, "%s: %d columns for %d", n.Func, len(cols), len(gen))
	}
	items := make([]string, len(cols))
	outs := make([]string, len(cols))
	g := neVar()
	for k, c := range cols {
		items[k] = fmt.Sprintf("%s AS g%d", castTo(n.Pos, c, gen[k].Type), k)
		outs[k] = fmt.Sprintf("%s.g%d AS c%d", g, k, nIn+k)
	}
	join := "CROSS JOIN LATERAL"
	on := ""
	if n.Outer {
		join, on = "LEFT JOIN LATERAL", " ON true"
	}
	sel := "SELECT " + colList(a, nIn)
	if nIn == 0 {
		sel = "SELECT"
	} else {
		sel += ","
	}
	return fmt.Sprintf("%s %s FROM %s %s (SELECT %s %s) AS %s%s", sel, strings.Join(outs, ", "), in, join, strings.Join(items, ", "), sub, g, on)
}

// ---- data

// genNested is ne_data: arrays, maps and JSON are built from its columns by
// the views. Small integers (a, b, c) for arithmetic, the int64 extremes
// only in m, a signed int32 n for indexes and counts, strings with the
// empty string, NULL, multi-byte, combining and supplementary-plane
// characters, delimited text u for split and str_to_map, and JSON text js
// (objects, arrays, scalars, null fields, malformed, empty).
func genNested() *table {
	t := &table{name: "ne_data", cols: []string{"id", "a", "b", "c", "m", "n", "s", "t", "u", "js"},
		quoted: []bool{false, false, false, false, false, false, true, true, true, true}}
	fixed := [][]string{
		{"1", "1", "2", "3", "1", "1", "a", "b", "a,b,,c", `{"a":1,"b":"x","c":[1,2,{"d":"e"}],"e":{"f":null}}`},
		{"2", null, "2", "2", "9223372036854775807", "0", "", "é", "", `{"a":-5,"b":"é\u00e9","c":[]}`},
		{"3", "3", null, "3", "-9223372036854775808", "-1", "é", "e\u0301", "k1:v1,k2:v2", `[1,2,3]`},
		{"4", "-4", "4", null, "0", "2", "😀", "😀", "k:v:w,x", `{"a":null}`},
		{"5", "5", "5", "5", null, null, null, "x", "x,y,z", `not json`},
		{"6", "0", "1", "-2", "-1", "3", "ß", null, null, ``},
		{"7", "0", "0", "0", "7", "-3", "a", "a", "a", null},
		{"8", "7", "8", "7", "8", "5", "Ω", "b", ",,", `{"b":"q\"uote","a":2}`},
		{"9", null, null, null, null, "1", null, null, "k:", `{}`},
		{"10", "2", "2", null, "2", "4", "b", "a", ":v", `"str"`},
		{"11", "1", "1", "1", "1", "-2", "a", "a", "k:1,k:2", `{"a":true,"b":null,"c":{"x":[true,false]}}`},
		{"12", "-1", "3", "2", "3", "6", "e\u0301", "é", "a:1", `{"a":12345678901,"b":"😀"}`},
	}
	t.rows = append(t.rows, fixed...)
	g := rand.New(rand.NewPCG(19, 1900))
	small := func() string {
		if g.IntN(7) == 0 {
			return null
		}
		return strconv.Itoa(g.IntN(11) - 5)
	}
	strs := []string{"a", "b", "é", "", "😀", "Ω", null, "ab"}
	us := []string{"a,b", "k:v", "x", "", null, "p:1,q:2", "é:ü"}
	jss := []string{`{"a":1}`, `{"a":2,"b":"y"}`, `[]`, `{"b":"z"}`, `[1,{"a":3}]`, null, `{"a":`, `{"c":[4,5]}`}
	for id := 13; id <= 40; id++ {
		pick := func(xs []string) string { return xs[g.IntN(len(xs))] }
		t.rows = append(t.rows, []string{strconv.Itoa(id), small(), small(), small(), small(), small(), pick(strs), pick(strs), pick(us), pick(jss)})
	}
	return t
}
