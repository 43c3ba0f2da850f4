package passes

import (
	"fmt"
	"strings"

	"github.com/nordisk/thund/internal/suggest"
	"github.com/nordisk/thund/ir"
)

// Typing of nested values (ARRAY, MAP, STRUCT): struct field references
// (s.f, t.s.f), GetField, Subscript, and the functions that build and read
// nested values, with the types and nullability Spark 4 gives them.

// fieldRef types a dotted column reference that names a struct column and
// then its fields (s.f, t.s.f, s.f.g), when it is not a qualified column:
// as in Spark, t.c is first table t's column c. ok is false when the
// reference is not a field reference, and lookup goes on as for any
// column.
func (r *resolver) fieldRef(sc *scope, e *ir.ColumnRef) (ir.Type, bool, bool) {
	if e.Qualifier == "" || r.peek(sc, e) {
		return ir.Type{}, false, false
	}
	parts := append(strings.Split(e.Qualifier, "."), e.Name)
	for q := 0; q+1 < len(parts) && q <= 1; q++ { // the column is parts[q], qualified by parts[:q]
		col := &ir.ColumnRef{Pos: e.Pos, Qualifier: strings.Join(parts[:q], "."), Name: parts[q]}
		if !r.peek(sc, col) {
			continue
		}
		f, b, ok := r.lookup(sc, col)
		if !ok {
			return invalid, true, true
		}
		t, n := f.Type, f.Nullable
		for _, name := range parts[q+1:] {
			if t, n, ok = r.field(e.Pos, t, n, name, e); !ok {
				return invalid, true, true
			}
		}
		r.u.Refs[e] = b
		r.u.FieldRefs[e] = len(parts) - q - 1
		return t, n, true
	}
	return ir.Type{}, false, false
}

// peek reports whether ref names a column in scope, open (external)
// columns included, without reporting anything.
func (r *resolver) peek(sc *scope, ref *ir.ColumnRef) bool {
	for s := sc; s != nil; s = s.outer {
		for _, p := range s.parts {
			for _, f := range p.schema {
				qualOK := ref.Qualifier == "" && !f.Hidden || ref.Qualifier != "" && qualMatch(ref.Qualifier, f.Qualifier)
				if qualOK && (f.Open || strings.EqualFold(f.Name, ref.Name)) {
					return true
				}
			}
		}
	}
	return false
}

// field types field name of a value of type t (nullable n) that expression
// of reports in messages. A field of NULL (or of an external column) is
// NULL.
func (r *resolver) field(pos ir.Pos, t ir.Type, n bool, name string, of ir.Expr) (ir.Type, bool, bool) {
	switch {
	case isInvalid(t):
		return invalid, true, false
	case isUnknown(t):
		return ir.Type{}, true, true
	case t.Kind != ir.TStruct:
		r.errorf(pos, ir.CodeTypeMismatch, "cannot take field %q of %s (%s): only a struct has fields", name, t, exprString(of))
		return invalid, true, false
	}
	var hits []ir.StructField
	var names []string
	for _, f := range t.Fields() {
		names = append(names, f.Name)
		if strings.EqualFold(f.Name, name) {
			hits = append(hits, f)
		}
	}
	switch {
	case len(hits) > 1:
		r.errorf(pos, ir.CodeAmbiguous, "field %q of %s is ambiguous: it appears %d times (Spark: AMBIGUOUS_REFERENCE_TO_FIELDS)", name, t, len(hits))
		return invalid, true, false
	case len(hits) == 0:
		hint := "its fields are " + strings.Join(names, ", ")
		if s, ok := suggest.Closest(name, names); ok {
			hint = "did you mean " + s + "?"
		}
		r.errorf(pos, ir.CodeUnknownColumn, "no field %q in %s (%s): %s", name, t, exprString(of), hint)
		return invalid, true, false
	}
	return hits[0].Type, n || !hits[0].NotNull, true
}

// nestedExpr types a GetField or a Subscript.
func (r *resolver) nestedExpr(e ir.Expr, sc *scope, c ectx) (ir.Type, bool) {
	switch e := e.(type) {
	case *ir.GetField:
		xt, xn := r.expr(e.X, sc, c)
		t, n, _ := r.field(e.Pos, xt, xn, e.Name, e.X)
		return t, n
	case *ir.Subscript:
		xt, xn := r.expr(e.X, sc, c)
		it, in := r.expr(e.Index, sc, c)
		switch {
		case anyInvalid(xt, it):
			return invalid, true
		case isUnknown(xt):
			return ir.Type{}, true
		case xt.Kind == ir.TArray:
			if !isUnknown(it) && !it.IsInteger() {
				r.errorf(e.Index.Position(), ir.CodeTypeMismatch, "an array's index must be an integer, got %s (%s)", it, exprString(e.Index))
			}
			return xt.Elem(), xn || in || xt.ElemNullable()
		case xt.Kind == ir.TMap:
			r.mapKey(e.Index, xt, it, "a key of")
			return xt.Elem(), true // a missing key is NULL
		}
		r.errorf(e.Pos, ir.CodeTypeMismatch, "cannot subscript %s (%s): only an array (by a 0-based index) or a map (by a key) can be", xt, exprString(e.X))
		return invalid, true
	}
	return invalid, true
}

// mapKey checks that a key of type kt fits map m, as Spark's implicit cast
// of the key to the map's key type allows.
func (r *resolver) mapKey(key ir.Expr, m, kt ir.Type, what string) {
	if _, ok := commonType(m.Key(), kt); ok || m.Key().Kind == ir.TString && canCast(kt, ir.StringT) && !kt.IsNested() {
		return
	}
	r.errorf(key.Position(), ir.CodeTypeMismatch, "%s is %s (%s), which is not %s %s", exprString(key), kt, exprString(key), what, m)
}

// nestedCall types a call of a nested-type function; ok is false for any
// other function.
func (r *resolver) nestedCall(e *ir.Call, sc *scope, c ectx) (ir.Type, bool, bool) {
	name := strings.ToLower(e.Name)
	if _, _, ok := ir.SplitGenerator(name); ok {
		r.errorf(e.Pos, ir.CodeUnknownFunc, "%s is a generator (it makes rows): it stands only in a lateral view (SQL: LATERAL VIEW, or a whole SELECT item), not inside an expression (Spark: UNSUPPORTED_GENERATOR)", name)
		return invalid, true, true
	}
	if !isNestedFunc(name) {
		return ir.Type{}, false, false
	}
	r.u.Calls[e] = lookupFunc(name).entry
	c.overFunc = nil
	types := make([]ir.Type, len(e.Args))
	nulls := make([]bool, len(e.Args))
	for i, a := range e.Args {
		types[i], nulls[i] = r.expr(a, sc, c)
	}
	if e.Distinct || e.Star || e.Filter != nil || e.IgnoreNulls {
		r.errorf(e.Pos, ir.CodeBadAggregate, "%s is a scalar function: distinct, *, filter and ignore nulls apply to aggregates", name)
		return invalid, true, true
	}
	if anyInvalid(types...) {
		return invalid, true, true
	}
	t, n := r.nestedCallType(e, name, types, nulls)
	return t, n, true
}

// arity checks a nested function's argument count.
func (r *resolver) arity(e *ir.Call, name string, ok bool, want string) bool {
	if !ok {
		r.errorf(e.Pos, ir.CodeArity, "%s takes %s, got %d argument(s)", name, want, len(e.Args))
	}
	return ok
}

// nestedCallType is the type and nullability of a nested function's call.
func (r *resolver) nestedCallType(e *ir.Call, name string, types []ir.Type, nulls []bool) (ir.Type, bool) {
	if t, null, ok := r.arrayCallType(e, name, types, nulls); ok { // funcs_arrays.go
		return t, null
	}
	n := len(types)
	common := func(idx []int) (ir.Type, bool, bool) {
		var t ir.Type
		anyNull := false
		for _, i := range idx {
			ct, ok := commonType(t, types[i])
			if !ok {
				r.errorf(e.Args[i].Position(), ir.CodeTypeMismatch, "%s arguments have no common type: %s and %s (%s): cast one of them", name, t, types[i], exprString(e.Args[i]))
				return ir.Type{}, false, false
			}
			t, anyNull = ct, anyNull || nulls[i]
		}
		return t, anyNull, true
	}
	switch name {
	case "array":
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		t, null, ok := common(idx)
		if !ok {
			return invalid, true
		}
		return ir.ArrayOf(t, null), false
	case "map":
		if !r.arity(e, name, n%2 == 0, "key, value pairs") {
			return invalid, true
		}
		var ks, vs []int
		for i := 0; i < n; i += 2 {
			ks, vs = append(ks, i), append(vs, i+1)
			if l, ok := e.Args[i].(*ir.Literal); ok && l.Kind == ir.LitNull {
				r.errorf(l.Pos, ir.CodeTypeMismatch, "a map key cannot be NULL (Spark: NULL_MAP_KEY)")
				return invalid, true
			}
		}
		kt, _, ok1 := common(ks)
		vt, vnull, ok2 := common(vs)
		if !ok1 || !ok2 {
			return invalid, true
		}
		if hasMap(kt) {
			r.errorf(e.Pos, ir.CodeTypeMismatch, "the key of a map cannot be or contain a map, got %s (Spark: INVALID_MAP_KEY_TYPE)", kt)
			return invalid, true
		}
		return ir.MapOf(kt, vt, vnull), false
	case "struct":
		fields := make([]ir.StructField, n)
		for i, a := range e.Args {
			fn := fmt.Sprintf("col%d", i+1)
			switch a := a.(type) {
			case *ir.ColumnRef:
				fn = a.Name
			case *ir.GetField:
				fn = a.Name
			}
			fields[i] = ir.StructField{Name: fn, Type: types[i], NotNull: !nulls[i]}
		}
		return ir.StructOf(fields...), false
	case "split":
		if !r.arity(e, name, n == 2 || n == 3, "2 or 3 arguments (string, regex[, limit])") {
			return invalid, true
		}
		for i, want := range []func(ir.Type) bool{func(t ir.Type) bool { return t.Kind == ir.TString }, func(t ir.Type) bool { return t.Kind == ir.TString }, ir.Type.IsInteger}[:n] {
			if !isUnknown(types[i]) && !want(types[i]) {
				r.errorf(e.Args[i].Position(), ir.CodeTypeMismatch, "split takes a string, a regex (string) and a limit (integer); argument %d is %s (%s)", i+1, types[i], exprString(e.Args[i]))
				return invalid, true
			}
		}
		null := false
		for _, x := range nulls {
			null = null || x
		}
		return ir.ArrayOf(ir.StringT, false), null
	case "named_struct":
		if !r.arity(e, name, n > 0 && n%2 == 0, "name, value pairs") {
			return invalid, true
		}
		var fields []ir.StructField
		for i := 0; i < n; i += 2 {
			l, ok := e.Args[i].(*ir.Literal)
			if !ok || l.Kind != ir.LitString {
				r.errorf(e.Args[i].Position(), ir.CodeTypeMismatch, "named_struct's field names must be string literals, got %s", exprString(e.Args[i]))
				return invalid, true
			}
			fields = append(fields, ir.StructField{Name: l.Text, Type: types[i+1], NotNull: !nulls[i+1]})
		}
		return ir.StructOf(fields...), false
	}
	// The readers take a nested value first.
	arity := map[string]int{"size": 1, "map_keys": 1, "map_values": 1, "element_at": 2, "array_contains": 2}[name]
	if !r.arity(e, name, n == arity, fmt.Sprintf("%d argument(s)", arity)) {
		return invalid, true
	}
	x, xn := types[0], nulls[0]
	want := map[string]string{"size": "an array or a map", "map_keys": "a map", "map_values": "a map", "element_at": "an array or a map", "array_contains": "an array"}[name]
	okKind := isUnknown(x) || x.Kind == ir.TArray && name != "map_keys" && name != "map_values" ||
		x.Kind == ir.TMap && (name != "array_contains")
	if !okKind {
		r.errorf(e.Args[0].Position(), ir.CodeTypeMismatch, "%s takes %s, got %s (%s)", name, want, x, exprString(e.Args[0]))
		return invalid, true
	}
	if isUnknown(x) {
		return map[string]ir.Type{"size": ir.Int32, "array_contains": ir.Bool}[name], true
	}
	switch name {
	case "size":
		return ir.Int32, xn
	case "map_keys":
		return ir.ArrayOf(x.Key(), true), xn
	case "map_values":
		return ir.ArrayOf(x.Elem(), x.ElemNullable()), xn
	case "element_at":
		if x.Kind == ir.TMap {
			r.mapKey(e.Args[1], x, types[1], "a key of")
			return x.Elem(), true
		}
		if it := types[1]; !isUnknown(it) && !(it.IsSigned() && it.Kind != ir.TInt64) {
			r.errorf(e.Args[1].Position(), ir.CodeTypeMismatch, "element_at's index must be an int (1-based; negative counts from the end), got %s (%s)", it, exprString(e.Args[1]))
			return invalid, true
		}
		return x.Elem(), xn || nulls[1] || x.ElemNullable()
	}
	// array_contains
	vt := types[1]
	if l, ok := e.Args[1].(*ir.Literal); ok && l.Kind == ir.LitNull {
		r.errorf(l.Pos, ir.CodeTypeMismatch, "array_contains cannot look for NULL (Spark: DATATYPE_MISMATCH.NULL_TYPE): use exists or a filter on the elements")
		return invalid, true
	}
	if _, ok := commonType(x.Elem(), vt); !ok {
		r.errorf(e.Args[1].Position(), ir.CodeTypeMismatch, "array_contains looks for a value of the array's element type %s, got %s (%s)", x.Elem(), vt, exprString(e.Args[1]))
		return invalid, true
	}
	return ir.Bool, xn || nulls[1] || x.ElemNullable()
}

// hasMap reports whether t is or contains a map.
func hasMap(t ir.Type) bool {
	switch t.Kind {
	case ir.TMap:
		return true
	case ir.TArray:
		return hasMap(t.Elem())
	case ir.TStruct:
		for _, f := range t.Fields() {
			if hasMap(f.Type) {
				return true
			}
		}
	}
	return false
}

// noMapColumns refuses a map column that a set operation (distinct, union,
// except, intersect) compares: one of keys, or any when there are none (Spark:
// UNSUPPORTED_FEATURE.SET_OPERATION_ON_MAP_TYPE).
func (r *resolver) noMapColumns(pos ir.Pos, s Schema, keys []string, op string) {
	for _, f := range s {
		compared := len(keys) == 0
		for _, k := range keys {
			compared = compared || strings.EqualFold(k, f.Name)
		}
		if compared && hasMap(f.Type) {
			r.errorf(pos, ir.CodeTypeMismatch, "%s over the column %s, of type %s: Spark cannot compare maps (UNSUPPORTED_FEATURE.SET_OPERATION_ON_MAP_TYPE)", op, f.Name, f.Type)
			return
		}
	}
}
