//go:build spark

package conformance

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/nordisk/thund/ir"
)

// nestedFromArrow converts a nested value of Spark's Arrow result.
func nestedFromArrow(col arrow.Array, i int, t ir.Type) (val, error) {
	s, err := arrowNestedText(col, i, t)
	if err != nil {
		return val{}, err
	}
	return val{k: kStr, s: s}, nil
}

func arrowNestedText(col arrow.Array, i int, t ir.Type) (string, error) {
	if col.IsNull(i) {
		return "null", nil
	}
	if !t.IsNested() {
		x, err := fromArrow(col, i, t)
		if err != nil {
			return "", err
		}
		return nestedScalarText(x), nil
	}
	switch a := col.(type) {
	case *array.Map: // before *array.List: a Map is a List of entries
		if t.Kind != ir.TMap {
			break
		}
		start, end := a.ValueOffsets(i)
		var ks, vs []string
		for j := int(start); j < int(end); j++ {
			k, err := arrowNestedText(a.Keys(), j, t.Key())
			if err != nil {
				return "", err
			}
			v, err := arrowNestedText(a.Items(), j, t.Elem())
			if err != nil {
				return "", err
			}
			ks, vs = append(ks, k), append(vs, v)
		}
		return renderMap(ks, vs), nil
	case *array.List:
		if t.Kind != ir.TArray {
			break
		}
		start, end := a.ValueOffsets(i)
		var parts []string
		for j := int(start); j < int(end); j++ {
			s, err := arrowNestedText(a.ListValues(), j, t.Elem())
			if err != nil {
				return "", err
			}
			parts = append(parts, s)
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case *array.Struct:
		if t.Kind != ir.TStruct || a.NumField() != len(t.Fields()) {
			break
		}
		var vs []string
		for j, f := range t.Fields() {
			s, err := arrowNestedText(a.Field(j), i, f.Type)
			if err != nil {
				return "", err
			}
			vs = append(vs, s)
		}
		return renderStruct(t, vs), nil
	}
	return "", fmt.Errorf("unexpected Arrow %s for %s", col.DataType(), t)
}
