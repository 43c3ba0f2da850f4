package conformance

// Canonical values: both engines' results are parsed into these, typed by
// the dataset's resolved (Spark) schema, before any comparison. Integers are
// int64; decimals are the unscaled integer at the column's scale (exact);
// floats are float64 (compared within a relative 1e-9, NaN equal to NaN,
// -0.0 equal to 0.0); dates are days since the epoch; timestamps are UTC
// microseconds since the epoch, whatever their unit or zone.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/nordisk/thund/ir"
)

type kind uint8

const (
	kNull kind = iota
	kBool
	kInt   // ints, dates (days), timestamps (micros)
	kFloat // float32/64
	kDec   // s: unscaled integer text
	kStr
	kList // l: an ARRAY's elements (listVal)
)

type val struct {
	k kind
	i int64
	f float64
	s string
	l []val
}

type row []val

const floatTol = 1e-9

func (v val) String() string {
	switch v.k {
	case kNull:
		return "NULL"
	case kBool:
		return strconv.FormatBool(v.i != 0)
	case kInt:
		return strconv.FormatInt(v.i, 10)
	case kFloat:
		return strconv.FormatFloat(v.f, 'g', -1, 64)
	case kDec:
		return v.s + "(unscaled)"
	case kList:
		return row(v.l).String()
	}
	return strconv.Quote(v.s)
}

func (r row) String() string {
	parts := make([]string, len(r))
	for i, v := range r {
		parts[i] = v.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// display renders a value for a report, decimals with their point.
func display(v val, t ir.Type) string {
	switch {
	case v.k == kNull:
		return "NULL"
	case v.k == kList:
		return displayList(v, t)
	case v.k == kDec:
		n, _ := new(big.Int).SetString(v.s, 10)
		return decString(n, t.Scale)
	case t.Kind == ir.TDate32:
		return epochDay.AddDate(0, 0, int(v.i)).Format("2006-01-02")
	case t.Kind == ir.TTimestamp:
		return time.UnixMicro(v.i).UTC().Format("2006-01-02 15:04:05.999999")
	}
	return v.String()
}

func displayRow(r row, types []ir.Type) string {
	parts := make([]string, len(r))
	for i, v := range r {
		parts[i] = display(v, types[i])
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func decString(n *big.Int, scale int) string {
	s := new(big.Int).Abs(n).String()
	for len(s) <= scale {
		s = "0" + s
	}
	if scale > 0 {
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if n.Sign() < 0 {
		s = "-" + s
	}
	return s
}

func cmpVal(a, b val) int {
	if a.k != b.k {
		return int(a.k) - int(b.k)
	}
	switch a.k {
	case kNull:
		return 0
	case kBool, kInt:
		return cmpInt(a.i, b.i)
	case kFloat:
		an, bn := math.IsNaN(a.f), math.IsNaN(b.f)
		switch {
		case an && bn:
			return 0
		case an:
			return 1
		case bn:
			return -1
		case a.f < b.f:
			return -1
		case a.f > b.f:
			return 1
		}
		return 0
	case kDec:
		x, _ := new(big.Int).SetString(a.s, 10)
		y, _ := new(big.Int).SetString(b.s, 10)
		return x.Cmp(y)
	case kList:
		return cmpRow(a.l, b.l)
	}
	return strings.Compare(a.s, b.s)
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpRow(a, b row) int {
	for i := range a {
		if c := cmpVal(a[i], b[i]); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

// sameVal is equality, with floats within the relative tolerance.
func sameVal(a, b val) bool {
	if a.k != b.k {
		return false
	}
	if a.k == kList {
		return sameRow(a.l, b.l)
	}
	if a.k != kFloat {
		return cmpVal(a, b) == 0
	}
	if math.IsNaN(a.f) || math.IsNaN(b.f) {
		return math.IsNaN(a.f) && math.IsNaN(b.f)
	}
	if a.f == b.f {
		return true
	}
	if math.IsInf(a.f, 0) || math.IsInf(b.f, 0) {
		return false
	}
	return math.Abs(a.f-b.f) <= floatTol*math.Max(math.Abs(a.f), math.Abs(b.f))
}

func sameRow(a, b row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameVal(a[i], b[i]) {
			return false
		}
	}
	return true
}

func sortedRows(rs []row) []row {
	out := slices.Clone(rs)
	slices.SortStableFunc(out, cmpRow)
	return out
}

// multisetDiff compares two multisets of rows (floats within tolerance) and
// returns the rows only in a and only in b.
func multisetDiff(a, b []row) (onlyA, onlyB []row) {
	x, y := sortedRows(a), sortedRows(b)
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		switch {
		case sameRow(x[i], y[j]):
			i++
			j++
		case cmpRow(x[i], y[j]) < 0:
			onlyA = append(onlyA, x[i])
			i++
		default:
			onlyB = append(onlyB, y[j])
			j++
		}
	}
	return append(onlyA, x[i:]...), append(onlyB, y[j:]...)
}

// fromDuck converts a value DuckDB returned for a column the printer cast
// to the DuckDB spelling of t.
func fromDuck(v any, t ir.Type) (val, error) {
	if v == nil {
		return val{k: kNull}, nil
	}
	if t.IsNested() {
		return nestedFromDuck(v, t) // values_nested_test.go
	}
	bad := func() (val, error) { return val{}, fmt.Errorf("unexpected %T %v for %s", v, v, t) }
	switch {
	case t.Kind == ir.TArray:
		return listVal(v, t, fromDuck)
	case t.IsInteger():
		switch x := v.(type) {
		case int8:
			return val{k: kInt, i: int64(x)}, nil
		case int16:
			return val{k: kInt, i: int64(x)}, nil
		case int32:
			return val{k: kInt, i: int64(x)}, nil
		case int64:
			return val{k: kInt, i: x}, nil
		}
	case t.IsFloat():
		switch x := v.(type) {
		case float32:
			return val{k: kFloat, f: float64(x)}, nil
		case float64:
			return val{k: kFloat, f: x}, nil
		}
	case t.Kind == ir.TDecimal:
		if x, ok := v.(duckdb.Decimal); ok {
			n := new(big.Int).Set(x.Value)
			if d := t.Scale - int(x.Scale); d != 0 {
				return val{}, fmt.Errorf("decimal of scale %d for %s", x.Scale, t)
			}
			return val{k: kDec, s: n.String()}, nil
		}
	case t.Kind == ir.TString:
		if x, ok := v.(string); ok {
			return val{k: kStr, s: x}, nil
		}
	case t.Kind == ir.TBool:
		if x, ok := v.(bool); ok {
			return boolVal(x), nil
		}
	case t.Kind == ir.TDate32:
		if x, ok := v.(time.Time); ok {
			return val{k: kInt, i: floorDiv(x.Unix(), 86400)}, nil
		}
	case t.Kind == ir.TTimestamp:
		if x, ok := v.(time.Time); ok {
			return val{k: kInt, i: x.UnixMicro()}, nil
		}
	}
	return bad()
}

func boolVal(b bool) val {
	if b {
		return val{k: kBool, i: 1}
	}
	return val{k: kBool}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// parseJSONL parses `read --format jsonl` output: one object per row, keys
// the column names in schema order.
func parseJSONL(data []byte, names []string, types []ir.Type) ([]row, error) {
	var out []row
	for n, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.UseNumber()
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			return nil, fmt.Errorf("line %d: %v", n+1, err)
		}
		if len(obj) != len(names) {
			return nil, fmt.Errorf("line %d: %d keys, want %d (%s)", n+1, len(obj), len(names), line)
		}
		r := make(row, len(names))
		for i, name := range names {
			v, ok := obj[name]
			if !ok {
				return nil, fmt.Errorf("line %d: no key %q", n+1, name)
			}
			var err error
			if r[i], err = fromJSON(v, types[i]); err != nil {
				return nil, fmt.Errorf("line %d, column %s: %v", n+1, name, err)
			}
		}
		out = append(out, r)
	}
	return out, nil
}

func fromJSON(v any, t ir.Type) (val, error) {
	if v == nil {
		return val{k: kNull}, nil
	}
	if t.IsNested() {
		return nestedFromJSON(v, t) // values_nested_test.go
	}
	bad := func() (val, error) { return val{}, fmt.Errorf("unexpected %T %v for %s", v, v, t) }
	switch {
	case t.Kind == ir.TArray:
		return listVal(v, t, fromJSON)
	case t.IsInteger():
		if x, ok := v.(json.Number); ok {
			n, err := strconv.ParseInt(string(x), 10, 64)
			return val{k: kInt, i: n}, err
		}
	case t.IsFloat():
		switch x := v.(type) {
		case json.Number:
			f, err := strconv.ParseFloat(string(x), 64)
			return val{k: kFloat, f: f}, err
		case string:
			switch x {
			case "NaN":
				return val{k: kFloat, f: math.NaN()}, nil
			case "Infinity":
				return val{k: kFloat, f: math.Inf(1)}, nil
			case "-Infinity":
				return val{k: kFloat, f: math.Inf(-1)}, nil
			}
		}
	case t.Kind == ir.TDecimal:
		if x, ok := v.(json.Number); ok {
			r, ok := new(big.Rat).SetString(string(x))
			if !ok {
				return bad()
			}
			r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.Scale)), nil)))
			if !r.IsInt() {
				return val{}, fmt.Errorf("decimal %s has more than %d fraction digits", x, t.Scale)
			}
			return val{k: kDec, s: r.Num().String()}, nil
		}
	case t.Kind == ir.TString:
		if x, ok := v.(string); ok {
			return val{k: kStr, s: x}, nil
		}
	case t.Kind == ir.TBool:
		if x, ok := v.(bool); ok {
			return boolVal(x), nil
		}
	case t.Kind == ir.TDate32:
		if x, ok := v.(string); ok {
			d, err := time.Parse("2006-01-02", x)
			if err != nil {
				return val{}, err
			}
			return val{k: kInt, i: floorDiv(d.Unix(), 86400)}, nil
		}
	case t.Kind == ir.TTimestamp:
		if x, ok := v.(string); ok {
			ts, err := time.Parse("2006-01-02 15:04:05.999999999", x)
			if err != nil {
				return val{}, err
			}
			return val{k: kInt, i: ts.UnixMicro()}, nil
		}
	}
	return bad()
}

// listVal converts an ARRAY value (DuckDB's LIST and JSON's array both
// arrive as []any) with elem converting each element: the elements compare
// in order, as a row (aggregate family; the nested types may widen this).
func listVal(v any, t ir.Type, elem func(any, ir.Type) (val, error)) (val, error) {
	xs, ok := v.([]any)
	if !ok {
		return val{}, fmt.Errorf("unexpected %T %v for %s", v, v, t)
	}
	out := val{k: kList, l: make([]val, len(xs))}
	for i, x := range xs {
		e, err := elem(x, t.Elem())
		if err != nil {
			return val{}, fmt.Errorf("element %d: %v", i, err)
		}
		out.l[i] = e
	}
	return out, nil
}

// displayList renders an ARRAY value for a report.
func displayList(v val, t ir.Type) string {
	parts := make([]string, len(v.l))
	for i, e := range v.l {
		parts[i] = display(e, t.Elem())
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
