package format

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Nested types (ARRAY, MAP, STRUCT) are Arrow list, map and struct columns.
// This file holds what the formats do with them:
//
//   - their DSL spelling (TypeString, ParseType): array<int32>,
//     array<int32 not null>, map<string, int64>, struct<a: int32 not null,
//     `b c`: string>, as the compiler's ir.Type.String spells them;
//   - Parquet and Arrow IPC files: a file's nested column reads as the
//     declared type when it has the same shape and names (list and map
//     entry names aside, which writers spell differently) and no part that
//     may be NULL where the declaration says NOT NULL;
//   - their text form (CSV, `read`, messages), Spark's show and cast to
//     string: [1, 2, null], {a -> 1, b -> null}, {1, x} (a struct's values
//     only), null for a NULL part, strings unquoted;
//   - JSON lines: an array is a JSON array, a map and a struct JSON
//     objects (a map's keys are strings, read through the key type's text
//     parser), each part read as a column of its type is.

// nestedTypeString spells a list, map or struct type, "" for another type.
func nestedTypeString(dt arrow.DataType) string {
	part := func(f arrow.Field) string {
		if f.Nullable {
			return TypeString(f.Type)
		}
		return TypeString(f.Type) + " not null"
	}
	switch t := dt.(type) {
	case *arrow.MapType:
		return "map<" + TypeString(t.KeyType()) + ", " + part(t.ItemField()) + ">"
	case *arrow.ListType:
		return "array<" + part(t.ElemField()) + ">"
	case *arrow.StructType:
		fs := make([]string, t.NumFields())
		for i, f := range t.Fields() {
			fs[i] = fieldName(f.Name) + ": " + part(f)
		}
		return "struct<" + strings.Join(fs, ", ") + ">"
	}
	return ""
}

// fieldName spells a struct field's name, back-quoted unless it is a plain
// identifier.
func fieldName(s string) string {
	plain := s != ""
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			plain = false
		}
	}
	if plain {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// parseNestedType parses array<...>, map<...> and struct<...>; ok is false
// for any other spelling.
func parseNestedType(s string) (arrow.DataType, bool, error) {
	name, rest, found := strings.Cut(s, "<")
	name = strings.ToLower(strings.TrimSpace(name))
	if !found || (name != "array" && name != "map" && name != "struct") {
		return nil, false, nil
	}
	rest = strings.TrimSpace(rest)
	if !strings.HasSuffix(rest, ">") {
		return nil, true, fmt.Errorf("type %q: missing >", s)
	}
	parts := splitTop(strings.TrimSuffix(rest, ">"))
	part := func(p string) (arrow.DataType, bool, error) {
		p = strings.TrimSpace(p)
		nullable := true
		if low := strings.ToLower(p); strings.HasSuffix(low, " not null") {
			p, nullable = strings.TrimSpace(p[:len(p)-len(" not null")]), false
		}
		t, err := ParseType(p)
		return t, nullable, err
	}
	switch name {
	case "array":
		if len(parts) != 1 {
			return nil, true, fmt.Errorf("type %q: want array<element>", s)
		}
		e, n, err := part(parts[0])
		if err != nil {
			return nil, true, err
		}
		return arrow.ListOfField(arrow.Field{Name: "element", Type: e, Nullable: n}), true, nil
	case "map":
		if len(parts) != 2 {
			return nil, true, fmt.Errorf("type %q: want map<key, value>", s)
		}
		k, err := ParseType(strings.TrimSpace(parts[0]))
		if err != nil {
			return nil, true, err
		}
		v, n, err := part(parts[1])
		if err != nil {
			return nil, true, err
		}
		m := arrow.MapOf(k, v)
		m.SetItemNullable(n)
		return m, true, nil
	}
	var fs []arrow.Field
	for _, p := range parts {
		if strings.TrimSpace(p) == "" && len(parts) == 1 {
			break
		}
		n, t, err := splitField(p)
		if err != nil {
			return nil, true, fmt.Errorf("type %q: %v", s, err)
		}
		ft, nullable, err := part(t)
		if err != nil {
			return nil, true, err
		}
		fs = append(fs, arrow.Field{Name: n, Type: ft, Nullable: nullable})
	}
	return arrow.StructOf(fs...), true, nil
}

// splitTop splits s at the commas outside <>, (), quotes and back-quotes.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '`':
			quote = c
		case c == '<' || c == '(':
			depth++
		case c == '>' || c == ')':
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// splitField splits "name: type" (the name bare or back-quoted).
func splitField(p string) (string, string, error) {
	p = strings.TrimSpace(p)
	if strings.HasPrefix(p, "`") {
		var b strings.Builder
		for i := 1; i < len(p); i++ {
			if p[i] != '`' {
				b.WriteByte(p[i])
				continue
			}
			if i+1 < len(p) && p[i+1] == '`' {
				b.WriteByte('`')
				i++
				continue
			}
			rest := strings.TrimSpace(p[i+1:])
			if !strings.HasPrefix(rest, ":") {
				return "", "", fmt.Errorf("want name: type, got %q", p)
			}
			return b.String(), rest[1:], nil
		}
		return "", "", fmt.Errorf("unterminated field name in %q", p)
	}
	n, t, ok := strings.Cut(p, ":")
	if !ok || strings.TrimSpace(n) == "" {
		return "", "", fmt.Errorf("want name: type, got %q", p)
	}
	return strings.TrimSpace(n), t, nil
}

// supportedNested reports a list, map or struct whose parts are all of the
// model's types.
func supportedNested(dt arrow.DataType) bool {
	switch t := dt.(type) {
	case *arrow.MapType:
		return Supported(t.KeyType()) && Supported(t.ItemType())
	case *arrow.ListType:
		return Supported(t.Elem())
	case *arrow.StructType:
		for _, f := range t.Fields() {
			if !Supported(f.Type) {
				return false
			}
		}
		return true
	}
	return false
}

// nestedConformable reports whether a file's column of type from reads as
// the declared nested type to: the same shape, struct fields named alike
// (case aside), scalar parts of equal types, and nothing that may be NULL
// in the file where to says NOT NULL.
func nestedConformable(from, to arrow.DataType) bool {
	return sameShape(from, to, false, nestedOrEqual)
}

// sameShape reports whether a column of type from has the nested shape of
// to: a map's key and item, a list's element (a large list's too, with
// large), a struct's fields in order and named alike (case aside); each
// part's types pass parts, and no part may be NULL in from where to says
// NOT NULL. nestedConformable and relayoutable differ only in parts and
// large.
func sameShape(from, to arrow.DataType, large bool, parts func(from, to arrow.DataType) bool) bool {
	part := func(f, t arrow.Field) bool {
		return (t.Nullable || !f.Nullable) && parts(f.Type, t.Type)
	}
	switch t := to.(type) {
	case *arrow.MapType:
		f, ok := from.(*arrow.MapType)
		return ok && parts(f.KeyType(), t.KeyType()) && part(f.ItemField(), t.ItemField())
	case *arrow.ListType:
		switch f := from.(type) {
		case *arrow.ListType:
			return part(f.ElemField(), t.ElemField())
		case *arrow.LargeListType:
			return large && part(f.ElemField(), t.ElemField())
		}
	case *arrow.StructType:
		f, ok := from.(*arrow.StructType)
		if !ok || f.NumFields() != t.NumFields() {
			return false
		}
		for i := range t.Fields() {
			if !strings.EqualFold(f.Field(i).Name, t.Field(i).Name) || !part(f.Field(i), t.Field(i)) {
				return false
			}
		}
		return true
	}
	return false
}

func nestedOrEqual(from, to arrow.DataType) bool {
	return arrow.TypeEqual(from, to) || nestedConformable(from, to)
}

// relabelNested gives a nested column the declared type to, which
// nestedConformable accepted, without copying its buffers.
func relabelNested(data arrow.ArrayData, to arrow.DataType) arrow.ArrayData {
	var childTypes []arrow.DataType
	switch t := to.(type) {
	case *arrow.MapType:
		childTypes = []arrow.DataType{t.Elem()}
	case *arrow.ListType:
		childTypes = []arrow.DataType{t.Elem()}
	case *arrow.StructType:
		for _, f := range t.Fields() {
			childTypes = append(childTypes, f.Type)
		}
	}
	children := make([]arrow.ArrayData, len(data.Children()))
	for i, c := range data.Children() {
		children[i] = relabelNested(c, childTypes[i])
	}
	out := array.NewData(to, data.Len(), data.Buffers(), children, data.NullN(), data.Offset())
	for _, c := range children {
		c.Release()
	}
	return out
}

// nestedConformer reads a conformable nested column as the declared type.
func nestedConformer(to arrow.DataType) conformer {
	return func(col arrow.Array) (arrow.Array, int, error) {
		d := relabelNested(col.Data(), to)
		defer d.Release()
		return array.MakeFromData(d), 0, nil
	}
}

// nestedTextFormatter is the text form of a list, map or struct column,
// nil for another column.
func nestedTextFormatter(col arrow.Array) (textFormatter, error) {
	var parts []arrow.Array
	switch a := col.(type) {
	case *array.Map:
		parts = []arrow.Array{a.Keys(), a.Items()}
	case *array.List:
		parts = []arrow.Array{a.ListValues()}
	case *array.Struct:
		for f := 0; f < a.NumField(); f++ {
			parts = append(parts, a.Field(f))
		}
	default:
		return nil, nil
	}
	fmts := make([]textFormatter, len(parts))
	for i, p := range parts {
		f, err := newTextFormatter(p)
		if err != nil {
			return nil, err
		}
		fmts[i] = f
	}
	cell := func(dst []byte, p int, j int) []byte {
		if parts[p].IsNull(j) {
			return append(dst, "null"...)
		}
		return fmts[p](dst, j)
	}
	switch a := col.(type) {
	case *array.Map:
		return func(dst []byte, i int) []byte {
			start, end := a.ValueOffsets(i)
			dst = append(dst, '{')
			for j := start; j < end; j++ {
				if j > start {
					dst = append(dst, ", "...)
				}
				dst = append(cell(dst, 0, int(j)), " -> "...)
				dst = cell(dst, 1, int(j))
			}
			return append(dst, '}')
		}, nil
	case *array.List:
		return func(dst []byte, i int) []byte {
			start, end := a.ValueOffsets(i)
			dst = append(dst, '[')
			for j := start; j < end; j++ {
				if j > start {
					dst = append(dst, ", "...)
				}
				dst = cell(dst, 0, int(j))
			}
			return append(dst, ']')
		}, nil
	}
	return func(dst []byte, i int) []byte {
		dst = append(dst, '{')
		for p := range parts {
			if p > 0 {
				dst = append(dst, ", "...)
			}
			dst = cell(dst, p, i)
		}
		return append(dst, '}')
	}, nil
}

// jsonNode reads one JSON value into a builder of a nested type, or of a
// scalar one through the column readers' scalar rules (jsonReader.value).
type jsonNode struct {
	col      jsonCol     // the builder, and for a scalar its text appender
	children []*jsonNode // a list's element, a map's key and value, a struct's fields
	exact    map[string]int
	folded   map[string]int
}

// newJSONNode builds the reader of field f's values into b.
func newJSONNode(f arrow.Field, b array.Builder) (*jsonNode, error) {
	n := &jsonNode{col: jsonCol{field: f, b: b}}
	switch t := f.Type.(type) {
	case *arrow.MapType:
		mb := b.(*array.MapBuilder)
		k, err := newJSONNode(arrow.Field{Name: "key", Type: t.KeyType()}, mb.KeyBuilder())
		if err != nil {
			return nil, err
		}
		v, err := newJSONNode(t.ItemField(), mb.ItemBuilder())
		if err != nil {
			return nil, err
		}
		n.children = []*jsonNode{k, v}
	case *arrow.ListType:
		e, err := newJSONNode(t.ElemField(), b.(*array.ListBuilder).ValueBuilder())
		if err != nil {
			return nil, err
		}
		n.children = []*jsonNode{e}
	case *arrow.StructType:
		sb := b.(*array.StructBuilder)
		n.exact, n.folded = map[string]int{}, map[string]int{}
		for i, sf := range t.Fields() {
			c, err := newJSONNode(sf, sb.FieldBuilder(i))
			if err != nil {
				return nil, err
			}
			n.children = append(n.children, c)
			n.exact[sf.Name] = i
			n.folded[strings.ToLower(sf.Name)] = i
		}
	default:
		app, err := newTextAppender(f.Type, b)
		if err != nil {
			return nil, err
		}
		n.col.app = app
	}
	return n, nil
}

// read appends one JSON value (raw, not empty) to the node's builder.
func (n *jsonNode) read(r *jsonReader, raw json.RawMessage) error {
	if n.children == nil || raw[0] == 'n' {
		return r.value(&n.col, raw)
	}
	switch b := n.col.b.(type) {
	case *array.MapBuilder:
		keys, vals, err := jsonObject(raw, n.col.field.Type)
		if err != nil {
			return err
		}
		b.Append(true)
		for i := range keys {
			if err := n.children[0].col.app(keys[i]); err != nil {
				return fmt.Errorf("map key %q: %w", keys[i], err)
			}
			if err := n.children[1].read(r, vals[i]); err != nil {
				return err
			}
		}
	case *array.ListBuilder:
		var elems []json.RawMessage
		if raw[0] != '[' || json.Unmarshal(raw, &elems) != nil {
			return jsonWantGot(n.col.field.Type, raw)
		}
		b.Append(true)
		for _, e := range elems {
			if err := n.children[0].read(r, e); err != nil {
				return err
			}
		}
	case *array.StructBuilder:
		keys, vals, err := jsonObject(raw, n.col.field.Type)
		if err != nil {
			return err
		}
		seen := make([]bool, len(n.children))
		b.Append(true)
		for i, k := range keys {
			f, ok := n.exact[k]
			if !ok {
				f, ok = n.folded[strings.ToLower(k)]
			}
			if !ok {
				continue // unknown keys are ignored, as at the top level
			}
			if seen[f] {
				return fmt.Errorf("field %q given twice", k)
			}
			seen[f] = true
			if err := n.children[f].read(r, vals[i]); err != nil {
				return err
			}
		}
		for f, c := range n.children {
			if !seen[f] {
				if !c.col.field.Nullable {
					return fmt.Errorf("field %s is missing, and NOT NULL", c.col.field.Name)
				}
				c.col.b.AppendNull()
			}
		}
	}
	return nil
}

// jsonObject splits a JSON object into its keys and raw values, in order.
func jsonObject(raw json.RawMessage, dt arrow.DataType) ([]string, []json.RawMessage, error) {
	if raw[0] != '{' {
		return nil, nil, jsonWantGot(dt, raw)
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	var keys []string
	var vals []json.RawMessage
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		keys, vals = append(keys, k.(string)), append(vals, v)
	}
	return keys, vals, nil
}

// appendNestedJSON appends row i of a nested column as JSON: an array, or
// an object for a map (keys in their text form) and a struct.
func appendNestedJSON(dst []byte, col arrow.Array, i int) ([]byte, error) {
	value := func(dst []byte, a arrow.Array, j int) ([]byte, error) {
		if a.IsNull(j) {
			return append(dst, "null"...), nil
		}
		switch a.DataType().ID() {
		case arrow.LIST, arrow.MAP, arrow.STRUCT:
			return appendNestedJSON(dst, a, j)
		}
		f, err := newTextFormatter(a)
		if err != nil {
			return nil, err
		}
		text := f(nil, j)
		switch a.DataType().ID() {
		case arrow.STRING, arrow.BINARY, arrow.DATE32, arrow.TIMESTAMP:
			return appendJSONString(dst, string(text)), nil
		}
		if len(text) > 0 && (text[0] == 'N' || text[0] == 'I' || text[0] == '-' && len(text) > 1 && text[1] == 'I') {
			return appendJSONString(dst, string(text)), nil
		}
		return append(dst, text...), nil
	}
	var err error
	switch a := col.(type) {
	case *array.Map:
		start, end := a.ValueOffsets(i)
		dst = append(dst, '{')
		kf, ferr := newTextFormatter(a.Keys())
		if ferr != nil {
			return nil, ferr
		}
		for j := start; j < end; j++ {
			if j > start {
				dst = append(dst, ',')
			}
			dst = append(appendJSONString(dst, string(kf(nil, int(j)))), ':')
			if dst, err = value(dst, a.Items(), int(j)); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	case *array.List:
		start, end := a.ValueOffsets(i)
		dst = append(dst, '[')
		for j := start; j < end; j++ {
			if j > start {
				dst = append(dst, ',')
			}
			if dst, err = value(dst, a.ListValues(), int(j)); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		dst = append(dst, '{')
		for f := 0; f < a.NumField(); f++ {
			if f > 0 {
				dst = append(dst, ',')
			}
			dst = append(appendJSONString(dst, st.Field(f).Name), ':')
			if dst, err = value(dst, a.Field(f), i); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	}
	return nil, errors.New("not a nested column")
}
