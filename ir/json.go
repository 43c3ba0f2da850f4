package ir

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode"
)

// JSONVersion is the version of the JSON encoding written by MarshalJSON.
// Readers refuse other versions.
const JSONVersion = 1

// nodeKinds is the one table of Rel and Expr implementations and their JSON
// kind names. A test checks that it lists every type with a relNode or
// exprNode method.
var nodeKinds = []struct {
	name string
	typ  reflect.Type
}{
	{"scan", reflect.TypeFor[Scan]()},
	{"range", reflect.TypeFor[Range]()},
	{"subquery", reflect.TypeFor[SubqueryRel]()},
	{"filter", reflect.TypeFor[Filter]()},
	{"project", reflect.TypeFor[Project]()},
	{"aggregate", reflect.TypeFor[Aggregate]()},
	{"join", reflect.TypeFor[Join]()},
	{"window", reflect.TypeFor[Window]()},
	{"union", reflect.TypeFor[Union]()},
	{"set_op", reflect.TypeFor[SetOp]()}, // EXCEPT, INTERSECT
	{"distinct", reflect.TypeFor[Distinct]()},
	{"sort", reflect.TypeFor[Sort]()},
	{"limit", reflect.TypeFor[Limit]()},
	{"generate", reflect.TypeFor[Generate]()}, // generators, LATERAL VIEW
	{"literal", reflect.TypeFor[Literal]()},
	{"column", reflect.TypeFor[ColumnRef]()},
	{"star", reflect.TypeFor[Star]()},
	{"unary", reflect.TypeFor[Unary]()},
	{"binary", reflect.TypeFor[Binary]()},
	{"is_null", reflect.TypeFor[IsNull]()},
	{"in", reflect.TypeFor[In]()},
	{"between", reflect.TypeFor[Between]()},
	{"like", reflect.TypeFor[Like]()},
	{"case", reflect.TypeFor[Case]()},
	{"cast", reflect.TypeFor[Cast]()},
	{"call", reflect.TypeFor[Call]()},
	{"scalar_subquery", reflect.TypeFor[ScalarSubquery]()},
	{"in_subquery", reflect.TypeFor[InSubquery]()},
	{"exists", reflect.TypeFor[Exists]()}, // correlated subqueries
	{"over", reflect.TypeFor[Over]()},
	{"get_field", reflect.TypeFor[GetField]()}, // nested types
	{"subscript", reflect.TypeFor[Subscript]()},
	{"lambda", reflect.TypeFor[Lambda]()}, // higher-order functions
	{"lambda_var", reflect.TypeFor[LambdaVar]()},
}

// NodeKindNames returns the JSON kind names of every Rel and Expr type, the
// list the coverage tests enumerate.
func NodeKindNames() []string {
	out := make([]string, len(nodeKinds))
	for i, k := range nodeKinds {
		out[i] = k.name
	}
	return out
}

// NodeKindName returns the kind name of a Rel or Expr value.
func NodeKindName(n any) string {
	t := reflect.TypeOf(n)
	if t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for _, k := range nodeKinds {
		if k.typ == t {
			return k.name
		}
	}
	return ""
}

var (
	posType      = reflect.TypeFor[Pos]()
	commentsType = reflect.TypeFor[Comments]()
	sqlTextType  = reflect.TypeFor[*SQLText]()
	typeType     = reflect.TypeFor[Type]()
	relType      = reflect.TypeFor[Rel]()
	exprType     = reflect.TypeFor[Expr]()
	textMarshal  = reflect.TypeFor[encoding.TextMarshaler]()
	stringerType = reflect.TypeFor[fmt.Stringer]()
)

type codec struct{ positions bool }

// MarshalJSON encodes the pipeline, positions included, as versioned JSON.
func MarshalJSON(p *Pipeline) ([]byte, error) {
	tree := map[string]any{"thund_ir": JSONVersion, "pipeline": codec{positions: true}.encode(reflect.ValueOf(p))}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(tree); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// UnmarshalJSON decodes what MarshalJSON wrote.
func UnmarshalJSON(data []byte) (*Pipeline, error) {
	var top struct {
		Version  *int            `json:"thund_ir"`
		Pipeline json.RawMessage `json:"pipeline"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&top); err != nil {
		return nil, fmt.Errorf("ir json: %v", err)
	}
	if top.Version == nil {
		return nil, fmt.Errorf("ir json: missing \"thund_ir\" version")
	}
	if *top.Version != JSONVersion {
		return nil, fmt.Errorf("ir json: version %d, this build reads version %d", *top.Version, JSONVersion)
	}
	var tree any
	d2 := json.NewDecoder(bytes.NewReader(top.Pipeline))
	d2.UseNumber()
	if err := d2.Decode(&tree); err != nil {
		return nil, fmt.Errorf("ir json: %v", err)
	}
	p := new(Pipeline)
	if err := decode(tree, reflect.ValueOf(p).Elem(), "pipeline"); err != nil {
		return nil, err
	}
	return p, nil
}

// Equal reports whether two pipelines are the same IR, positions, comments
// and SQL text aside.
func Equal(a, b *Pipeline) bool {
	c := codec{}
	return reflect.DeepEqual(c.encode(reflect.ValueOf(a)), c.encode(reflect.ValueOf(b)))
}

// Diff returns a short description of the first difference between two
// pipelines, positions aside, or "" when they are Equal.
func Diff(a, b *Pipeline) string {
	c := codec{}
	return diffTree("pipeline", c.encode(reflect.ValueOf(a)), c.encode(reflect.ValueOf(b)))
}

func diffTree(path string, a, b any) string {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: %v vs %v", path, a, b)
		}
		keys := map[string]bool{}
		for k := range av {
			keys[k] = true
		}
		for k := range bv {
			keys[k] = true
		}
		for _, k := range sortedKeys(keys) {
			if d := diffTree(path+"."+k, av[k], bv[k]); d != "" {
				return d
			}
		}
		return ""
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return fmt.Sprintf("%s: %v vs %v", path, a, b)
		}
		for i := range av {
			if d := diffTree(fmt.Sprintf("%s[%d]", path, i), av[i], bv[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Sprintf("%s: %v vs %v", path, a, b)
	}
	return ""
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 && !unicode.IsUpper(rune(s[i-1])) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// encode turns an IR value into a tree of maps, slices and scalars. Zero
// fields are omitted; enums are written by name; interface values carry "node".
func (c codec) encode(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		if v.Kind() == reflect.Interface {
			m := c.encode(v.Elem()).(map[string]any)
			m["node"] = NodeKindName(v.Elem().Interface())
			return m
		}
		if v.Elem().Kind() != reflect.Struct {
			return c.encode(v.Elem())
		}
		return c.encode(v.Elem())
	case reflect.Struct:
		if v.Type() == posType {
			p := v.Interface().(Pos)
			if !p.IsValid() && p.File == "" {
				return nil
			}
			return map[string]any{"file": p.File, "offset": p.Offset, "line": p.Line, "col": p.Col}
		}
		if v.Type() == typeType {
			return v.Interface().(Type).String()
		}
		m := map[string]any{}
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			fv := v.Field(i)
			if fv.IsZero() || ((f.Type == posType || f.Type == commentsType || f.Type == sqlTextType) && !c.positions) {
				continue
			}
			m[snake(f.Name)] = c.encode(fv)
		}
		return m
	case reflect.Slice:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = c.encode(v.Index(i))
		}
		return out
	case reflect.Bool:
		return v.Bool()
	case reflect.String:
		return v.String()
	case reflect.Int, reflect.Int64, reflect.Int32:
		if v.Type().Implements(textMarshal) {
			b, _ := v.Interface().(encoding.TextMarshaler).MarshalText()
			return string(b)
		}
		if v.Type().Implements(stringerType) && v.Type().Kind() == reflect.Int {
			return v.Interface().(fmt.Stringer).String()
		}
		return json.Number(fmt.Sprint(v.Int()))
	}
	panic(fmt.Sprintf("ir json: cannot encode %s", v.Type()))
}

func decode(tree any, v reflect.Value, path string) error {
	if tree == nil {
		return nil
	}
	t := v.Type()
	switch {
	case t == relType || t == exprType:
		m, ok := tree.(map[string]any)
		if !ok {
			return fmt.Errorf("ir json: %s: want an object", path)
		}
		kind, _ := m["node"].(string)
		for _, k := range nodeKinds {
			if k.name == kind {
				n := reflect.New(k.typ)
				if !n.Type().Implements(t) {
					return fmt.Errorf("ir json: %s: %q is not a %s", path, kind, t.Name())
				}
				if err := decode(tree, n.Elem(), path); err != nil {
					return err
				}
				v.Set(n)
				return nil
			}
		}
		return fmt.Errorf("ir json: %s: unknown node kind %q", path, kind)
	case t == posType:
		m, ok := tree.(map[string]any)
		if !ok {
			return fmt.Errorf("ir json: %s: want a position object", path)
		}
		p := Pos{}
		p.File, _ = m["file"].(string)
		p.Offset = jsonInt(m["offset"])
		p.Line = jsonInt(m["line"])
		p.Col = jsonInt(m["col"])
		v.Set(reflect.ValueOf(p))
		return nil
	case t == typeType:
		s, ok := tree.(string)
		if !ok {
			return fmt.Errorf("ir json: %s: want a type string", path)
		}
		ty, err := ParseType(s)
		if err != nil {
			return fmt.Errorf("ir json: %s: %v", path, err)
		}
		v.Set(reflect.ValueOf(ty))
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		n := reflect.New(t.Elem())
		if err := decode(tree, n.Elem(), path); err != nil {
			return err
		}
		v.Set(n)
		return nil
	case reflect.Struct:
		m, ok := tree.(map[string]any)
		if !ok {
			return fmt.Errorf("ir json: %s: want an object", path)
		}
		known := map[string]bool{"node": true}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name := snake(f.Name)
			known[name] = true
			if sub, ok := m[name]; ok {
				if err := decode(sub, v.Field(i), path+"."+name); err != nil {
					return err
				}
			}
		}
		for k := range m {
			if !known[k] {
				return fmt.Errorf("ir json: %s: unknown field %q", path, k)
			}
		}
		return nil
	case reflect.Slice:
		a, ok := tree.([]any)
		if !ok {
			return fmt.Errorf("ir json: %s: want an array", path)
		}
		s := reflect.MakeSlice(t, len(a), len(a))
		for i := range a {
			if err := decode(a[i], s.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	case reflect.Bool:
		b, ok := tree.(bool)
		if !ok {
			return fmt.Errorf("ir json: %s: want a boolean", path)
		}
		v.SetBool(b)
		return nil
	case reflect.String:
		s, ok := tree.(string)
		if !ok {
			return fmt.Errorf("ir json: %s: want a string", path)
		}
		v.SetString(s)
		return nil
	case reflect.Int, reflect.Int64, reflect.Int32:
		if s, ok := tree.(string); ok {
			if reflect.PointerTo(t).Implements(reflect.TypeFor[encoding.TextUnmarshaler]()) {
				return v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s))
			}
			if t.Implements(stringerType) {
				for i := 0; i < 64; i++ {
					e := reflect.New(t).Elem()
					e.SetInt(int64(i))
					if safeString(e.Interface().(fmt.Stringer)) == s {
						v.SetInt(int64(i))
						return nil
					}
				}
			}
			return fmt.Errorf("ir json: %s: unknown %s %q", path, t.Name(), s)
		}
		n, ok := tree.(json.Number)
		if !ok {
			return fmt.Errorf("ir json: %s: want a number", path)
		}
		i, err := n.Int64()
		if err != nil {
			return fmt.Errorf("ir json: %s: %v", path, err)
		}
		v.SetInt(i)
		return nil
	}
	return fmt.Errorf("ir json: %s: cannot decode into %s", path, t)
}

func jsonInt(v any) int {
	if n, ok := v.(json.Number); ok {
		i, _ := n.Int64()
		return int(i)
	}
	return 0
}

// parseScalarType parses the canonical spelling of a type that is not nested
// (and the aliases in the type name table): int64, decimal(10,2),
// timestamp(ms), timestamp(us, "UTC"), duration(ns). ParseType (nested.go)
// reads nested types and calls it for their scalar parts.
func parseScalarType(s string) (Type, error) {
	s = strings.TrimSpace(s)
	name, args, hasArgs := strings.Cut(s, "(")
	name = strings.TrimSpace(name)
	kind, ok := LookupTypeName(name)
	if !ok {
		return Type{}, fmt.Errorf("unknown type %q", name)
	}
	var parts []string
	if hasArgs {
		if !strings.HasSuffix(args, ")") {
			return Type{}, fmt.Errorf("type %q: missing )", s)
		}
		for _, p := range strings.Split(strings.TrimSuffix(args, ")"), ",") {
			parts = append(parts, strings.TrimSpace(p))
		}
	}
	t := Type{Kind: kind}
	switch kind {
	case TDecimal:
		t.Precision, t.Scale = 10, 0 // Spark's default decimal
		if len(parts) >= 1 {
			if _, err := fmt.Sscan(parts[0], &t.Precision); err != nil {
				return Type{}, fmt.Errorf("type %q: bad precision", s)
			}
		}
		if len(parts) == 2 {
			if _, err := fmt.Sscan(parts[1], &t.Scale); err != nil {
				return Type{}, fmt.Errorf("type %q: bad scale", s)
			}
		}
		if len(parts) > 2 || t.Precision < 1 || t.Precision > 38 || t.Scale < 0 || t.Scale > t.Precision {
			return Type{}, fmt.Errorf("type %q: want decimal(p,s) with 1 <= p <= 38 and 0 <= s <= p", s)
		}
	case TTimestamp, TDuration:
		t.Unit = Micro // Spark's precision
		if name == "timestamp" && !hasArgs {
			t.Zone = "" // a bare timestamp is NTZ-free Arrow timestamp(us)
		}
		if len(parts) >= 1 {
			u, ok := ParseTimeUnit(parts[0])
			if !ok {
				return Type{}, fmt.Errorf("type %q: unknown time unit %q (want s, ms, us or ns)", s, parts[0])
			}
			t.Unit = u
		}
		if len(parts) == 2 && kind == TTimestamp {
			z := parts[1]
			if len(z) < 2 || z[0] != '"' || z[len(z)-1] != '"' {
				return Type{}, fmt.Errorf("type %q: the zone must be a quoted string", s)
			}
			t.Zone = z[1 : len(z)-1]
		} else if len(parts) > 1 {
			return Type{}, fmt.Errorf("type %q: too many arguments", s)
		}
	default:
		if hasArgs {
			return Type{}, fmt.Errorf("type %q takes no arguments", name)
		}
	}
	return t, nil
}

// safeString calls String, treating a panic (an enum value out of its name
// table) as no name.
func safeString(s fmt.Stringer) (out string) {
	defer func() {
		if recover() != nil {
			out = "\x00"
		}
	}()
	return s.String()
}
