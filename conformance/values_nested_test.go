package conformance

// Nested values (ARRAY, MAP, STRUCT) in results, for the nested family
// (sqlprint_nested_test.go): each engine's value is rendered as one
// canonical text, typed by the resolved Spark type, and compared as a
// string. Scalars inside are parsed by the same typed converters as
// top-level columns (fromDuck, fromJSON, fromArrow) and printed by
// val.String, floats with 12 significant digits (the comparison's
// tolerance does not reach inside a nested value). A map's entries are
// sorted by their rendered key: the native JSON lines write a map as a JSON
// object, which Go's decoder reads without its order, so map order is not
// compared (the entries are); an array's order and a struct's fields are.

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/nordisk/thund/ir"
)

// nestedText renders a converted scalar inside a nested value.
func nestedScalarText(v val) string {
	if v.k == kFloat {
		return strconv.FormatFloat(v.f, 'g', 12, 64)
	}
	return v.String()
}

func renderMap(keys, vals []string) string {
	idx := make([]int, len(keys))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
	parts := make([]string, len(idx))
	for j, i := range idx {
		parts[j] = keys[i] + " -> " + vals[i]
	}
	return "map{" + strings.Join(parts, ", ") + "}"
}

func renderStruct(t ir.Type, vals []string) string {
	parts := make([]string, len(vals))
	for i, f := range t.Fields() {
		parts[i] = strconv.Quote(f.Name) + ": " + vals[i]
	}
	return "struct{" + strings.Join(parts, ", ") + "}"
}

// nestedFromDuck converts a DuckDB LIST, MAP or STRUCT value of type t.
func nestedFromDuck(v any, t ir.Type) (val, error) {
	s, err := duckNestedText(v, t)
	if err != nil {
		return val{}, err
	}
	return val{k: kStr, s: s}, nil
}

func duckNestedText(v any, t ir.Type) (string, error) {
	if v == nil {
		return "null", nil
	}
	if !t.IsNested() {
		x, err := fromDuck(v, t)
		if err != nil {
			return "", err
		}
		return nestedScalarText(x), nil
	}
	switch t.Kind {
	case ir.TArray:
		l, ok := v.([]any)
		if !ok {
			return "", fmt.Errorf("unexpected %T for %s", v, t)
		}
		parts := make([]string, len(l))
		for i, e := range l {
			s, err := duckNestedText(e, t.Elem())
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case ir.TMap:
		m, ok := v.(duckdb.OrderedMap)
		if !ok {
			return "", fmt.Errorf("unexpected %T for %s", v, t)
		}
		var ks, vs []string
		vals := m.Values()
		for i, k := range m.Keys() {
			ksText, err := duckNestedText(k, t.Key())
			if err != nil {
				return "", err
			}
			vsText, err := duckNestedText(vals[i], t.Elem())
			if err != nil {
				return "", err
			}
			ks, vs = append(ks, ksText), append(vs, vsText)
		}
		return renderMap(ks, vs), nil
	case ir.TStruct:
		m, ok := v.(map[string]any)
		if !ok {
			return "", fmt.Errorf("unexpected %T for %s", v, t)
		}
		var vs []string
		for _, f := range t.Fields() {
			fv, ok := m[f.Name]
			if !ok {
				return "", fmt.Errorf("no field %q in DuckDB's struct %v for %s", f.Name, m, t)
			}
			s, err := duckNestedText(fv, f.Type)
			if err != nil {
				return "", err
			}
			vs = append(vs, s)
		}
		return renderStruct(t, vs), nil
	}
	return "", fmt.Errorf("type %s", t)
}

// nestedFromJSON converts a nested value of the native JSON lines.
func nestedFromJSON(v any, t ir.Type) (val, error) {
	s, err := jsonNestedText(v, t)
	if err != nil {
		return val{}, err
	}
	return val{k: kStr, s: s}, nil
}

func jsonNestedText(v any, t ir.Type) (string, error) {
	if v == nil {
		return "null", nil
	}
	if !t.IsNested() {
		x, err := fromJSON(v, t)
		if err != nil {
			return "", err
		}
		return nestedScalarText(x), nil
	}
	switch t.Kind {
	case ir.TArray:
		l, ok := v.([]any)
		if !ok {
			return "", fmt.Errorf("unexpected %T for %s", v, t)
		}
		parts := make([]string, len(l))
		for i, e := range l {
			s, err := jsonNestedText(e, t.Elem())
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case ir.TMap:
		m, ok := v.(map[string]any)
		if !ok {
			return "", fmt.Errorf("unexpected %T for %s", v, t)
		}
		var ks, vs []string
		for k, mv := range m {
			// a JSON object's keys are text: read the key as its type
			var kv any = k
			if !t.Key().IsNested() && t.Key().Kind != ir.TString {
				kv = json.Number(k)
			}
			ksText, err := jsonNestedText(kv, t.Key())
			if err != nil {
				return "", err
			}
			vsText, err := jsonNestedText(mv, t.Elem())
			if err != nil {
				return "", err
			}
			ks, vs = append(ks, ksText), append(vs, vsText)
		}
		return renderMap(ks, vs), nil
	case ir.TStruct:
		m, ok := v.(map[string]any)
		if !ok {
			return "", fmt.Errorf("unexpected %T for %s", v, t)
		}
		var vs []string
		for _, f := range t.Fields() {
			s, err := jsonNestedText(m[f.Name], f.Type)
			if err != nil {
				return "", err
			}
			vs = append(vs, s)
		}
		return renderStruct(t, vs), nil
	}
	return "", fmt.Errorf("type %s", t)
}
