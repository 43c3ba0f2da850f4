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
func nestedFromDuck(v any, t ir.Type) (val, error) { return duckNested().val(v, t) }

// nestedFromJSON converts a nested value of the native JSON lines.
func nestedFromJSON(v any, t ir.Type) (val, error) { return jsonNested().val(v, t) }

// nestedSource is how one engine's nested values decode: its scalars, a
// map's entries and a struct's fields (an array is a []any in both).
type nestedSource struct {
	scalar  func(v any, t ir.Type) (val, error)
	entries func(v any, t ir.Type) (keys, values []any, ok bool)
	field   func(m map[string]any, name string) (any, error)
}

// duckNested and jsonNested are functions, not variables: fromDuck and
// fromJSON call back into them (an initialization cycle otherwise).
func duckNested() nestedSource {
	return nestedSource{
		scalar: fromDuck,
		entries: func(v any, _ ir.Type) ([]any, []any, bool) {
			m, ok := v.(duckdb.OrderedMap)
			if !ok {
				return nil, nil, false
			}
			return m.Keys(), m.Values(), true
		},
		field: func(m map[string]any, name string) (any, error) {
			fv, ok := m[name]
			if !ok {
				return nil, fmt.Errorf("no field %q in DuckDB's struct %v", name, m)
			}
			return fv, nil
		},
	}
}

func jsonNested() nestedSource {
	return nestedSource{
		scalar: fromJSON,
		entries: func(v any, t ir.Type) (keys, values []any, ok bool) {
			m, ok := v.(map[string]any)
			for k, mv := range m {
				// a JSON object's keys are text: read the key as its type
				var kv any = k
				if !t.Key().IsNested() && t.Key().Kind != ir.TString {
					kv = json.Number(k)
				}
				keys, values = append(keys, kv), append(values, mv)
			}
			return keys, values, ok
		},
		field: func(m map[string]any, name string) (any, error) { return m[name], nil },
	}
}

// val is v's canonical text as a value.
func (ns nestedSource) val(v any, t ir.Type) (val, error) {
	s, err := ns.text(v, t)
	if err != nil {
		return val{}, err
	}
	return val{k: kStr, s: s}, nil
}

// text is v's canonical text (renderMap sorts a map's entries).
func (ns nestedSource) text(v any, t ir.Type) (string, error) {
	if v == nil {
		return "null", nil
	}
	if !t.IsNested() {
		x, err := ns.scalar(v, t)
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
			s, err := ns.text(e, t.Elem())
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case ir.TMap:
		keys, values, ok := ns.entries(v, t)
		if !ok {
			return "", fmt.Errorf("unexpected %T for %s", v, t)
		}
		var ks, vs []string
		for i, k := range keys {
			ksText, err := ns.text(k, t.Key())
			if err != nil {
				return "", err
			}
			vsText, err := ns.text(values[i], t.Elem())
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
			fv, err := ns.field(m, f.Name)
			if err != nil {
				return "", fmt.Errorf("%v for %s", err, t)
			}
			s, err := ns.text(fv, f.Type)
			if err != nil {
				return "", err
			}
			vs = append(vs, s)
		}
		return renderStruct(t, vs), nil
	}
	return "", fmt.Errorf("type %s", t)
}
