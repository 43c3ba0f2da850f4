package ir

import (
	"fmt"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// Nested types: ARRAY<T>, MAP<K, V> and STRUCT<name: T, ...>, Spark's
// complex types, held in Arrow as list, map and struct.
//
// Nullability follows Spark's model: an array says whether its elements may
// be NULL (Spark's containsNull), a map whether its values may be (its keys
// never are), and each struct field whether it may be. Element and value
// nullability has no spelling in Spark's DDL (ARRAY<INT NOT NULL> is a parse
// error there): SQL prints only the struct fields' NOT NULL, while the DSL's
// canonical spelling shows every one: array<int32 not null>.

// StructField is one field of a struct type.
type StructField struct {
	Name    string
	Type    Type
	NotNull bool
}

// nested holds the parts of a nested type. Values are interned (intern), so
// a pointer stands for one type and Type's == compares structurally.
type nested struct {
	elem     Type // an array's element, a map's value
	elemNull bool // whether elem may be NULL
	key      Type // a map's key
	fields   []StructField
}

// nestedKindNames spells the nested kinds, as the DSL and Spark's typeof do.
var nestedKindNames = map[TypeKind]string{TArray: "array", TMap: "map", TStruct: "struct"}

// interned maps a nested type's canonical spelling to its one *nested.
var interned sync.Map

// intern returns t with its parts replaced by the one shared copy of them.
func intern(t Type) Type {
	n, _ := interned.LoadOrStore(t.String(), t.nest)
	t.nest = n.(*nested)
	return t
}

// ArrayOf returns ARRAY<elem>; elemNullable says whether elements may be NULL.
func ArrayOf(elem Type, elemNullable bool) Type {
	return intern(Type{Kind: TArray, nest: &nested{elem: elem, elemNull: elemNullable}})
}

// MapOf returns MAP<key, value>; valueNullable says whether values may be
// NULL. Keys never are.
func MapOf(key, value Type, valueNullable bool) Type {
	return intern(Type{Kind: TMap, nest: &nested{key: key, elem: value, elemNull: valueNullable}})
}

// StructOf returns STRUCT<fields...>. Field names keep their case.
func StructOf(fields ...StructField) Type {
	return intern(Type{Kind: TStruct, nest: &nested{fields: append([]StructField(nil), fields...)}})
}

// IsNested reports array, map and struct types.
func (t Type) IsNested() bool { return t.Kind == TArray || t.Kind == TMap || t.Kind == TStruct }

// Elem returns an array's element type or a map's value type, and the zero
// Type for any other kind.
func (t Type) Elem() Type {
	if t.nest == nil {
		return Type{}
	}
	return t.nest.elem
}

// ElemNullable reports whether an array's elements, or a map's values, may
// be NULL.
func (t Type) ElemNullable() bool { return t.nest != nil && t.nest.elemNull }

// Key returns a map's key type, and the zero Type for any other kind.
func (t Type) Key() Type {
	if t.nest == nil {
		return Type{}
	}
	return t.nest.key
}

// Fields returns a struct's fields (shared: do not modify), nil for any
// other kind.
func (t Type) Fields() []StructField {
	if t.nest == nil {
		return nil
	}
	return t.nest.fields
}

// Field returns the struct field named name, matched case-insensitively as
// Spark does, and its index; -1 when there is none.
func (t Type) Field(name string) (StructField, int) {
	for i, f := range t.Fields() {
		if strings.EqualFold(f.Name, name) {
			return f, i
		}
	}
	return StructField{}, -1
}

// nestedString spells a nested type with part spelling each part and
// notNull marking a part that cannot be NULL: String's array<int32>,
// map<string, int64>, struct<a: int32 not null, b: string>, and SQL's
// ARRAY<INT>, MAP<STRING, BIGINT>, STRUCT<a: INT NOT NULL, b: STRING>
// (Spark's DataType.sql, which cannot spell an element's nullability).
func (t Type) nestedString(part func(Type) string, notNull string) string {
	sql := notNull == " NOT NULL"
	elem := func() string {
		s := part(t.nest.elem)
		if !t.nest.elemNull && !sql {
			s += notNull
		}
		return s
	}
	name := nestedKindNames[t.Kind]
	if sql {
		name = strings.ToUpper(name)
	}
	switch t.Kind {
	case TArray:
		return name + "<" + elem() + ">"
	case TMap:
		return name + "<" + part(t.nest.key) + ", " + elem() + ">"
	}
	fs := make([]string, len(t.nest.fields))
	for i, f := range t.nest.fields {
		fs[i] = typeFieldName(f.Name) + ": " + part(f.Type)
		if f.NotNull {
			fs[i] += notNull
		}
	}
	return name + "<" + strings.Join(fs, ", ") + ">"
}

// typeFieldName spells a struct field's name: bare when it is a plain
// identifier, else back-quoted with inner back-quotes doubled.
func typeFieldName(s string) string {
	if isPlainIdent(s) {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// ParseType parses a type's canonical spelling (Type.String), and the
// aliases in the type name table: int64, decimal(10,2), timestamp(us,
// "UTC"), array<int32 not null>, map<string, int64>, struct<a: int32, `b c`:
// string not null>. Names are case-insensitive.
func ParseType(s string) (Type, error) {
	p := &typeParser{s: s}
	t, err := p.typ()
	if err == nil {
		p.space()
		if p.i < len(p.s) {
			err = fmt.Errorf("type %q: unexpected %q", s, p.s[p.i:])
		}
	}
	return t, err
}

// typeParser reads a type spelling left to right.
type typeParser struct {
	s string
	i int
}

func (p *typeParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// eat consumes tok (after spaces) if it comes next.
func (p *typeParser) eat(tok string) bool {
	p.space()
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *typeParser) expect(tok string) error {
	if !p.eat(tok) {
		return fmt.Errorf("type %q: expected %q at offset %d", p.s, tok, p.i)
	}
	return nil
}

// word reads an identifier.
func (p *typeParser) word() string {
	p.space()
	j := p.i
	for j < len(p.s) && (p.s[j] == '_' || p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= 'A' && p.s[j] <= 'Z' || p.s[j] >= '0' && p.s[j] <= '9') {
		j++
	}
	w := p.s[p.i:j]
	p.i = j
	return w
}

// notNull reads an optional "not null".
func (p *typeParser) notNull() bool {
	save := p.i
	if strings.EqualFold(p.word(), "not") && strings.EqualFold(p.word(), "null") {
		return true
	}
	p.i = save
	return false
}

// fieldName reads a bare or back-quoted struct field name.
func (p *typeParser) fieldName() (string, error) {
	p.space()
	if !strings.HasPrefix(p.s[p.i:], "`") {
		if w := p.word(); w != "" {
			return w, nil
		}
		return "", fmt.Errorf("type %q: expected a field name at offset %d", p.s, p.i)
	}
	var b strings.Builder
	for j := p.i + 1; j < len(p.s); j++ {
		if p.s[j] != '`' {
			b.WriteByte(p.s[j])
			continue
		}
		if j+1 < len(p.s) && p.s[j+1] == '`' {
			b.WriteByte('`')
			j++
			continue
		}
		p.i = j + 1
		return b.String(), nil
	}
	return "", fmt.Errorf("type %q: unterminated field name", p.s)
}

// typ reads one type.
func (p *typeParser) typ() (Type, error) {
	start := p.i
	name := p.word()
	switch strings.ToLower(name) {
	case "array":
		if err := p.expect("<"); err != nil {
			return Type{}, err
		}
		elem, err := p.typ()
		if err != nil {
			return Type{}, err
		}
		nn := p.notNull()
		return ArrayOf(elem, !nn), p.expect(">")
	case "map":
		if err := p.expect("<"); err != nil {
			return Type{}, err
		}
		key, err := p.typ()
		if err != nil {
			return Type{}, err
		}
		if err := p.expect(","); err != nil {
			return Type{}, err
		}
		val, err := p.typ()
		if err != nil {
			return Type{}, err
		}
		nn := p.notNull()
		return MapOf(key, val, !nn), p.expect(">")
	case "struct":
		if err := p.expect("<"); err != nil {
			return Type{}, err
		}
		var fields []StructField
		for !p.eat(">") {
			if len(fields) > 0 {
				if err := p.expect(","); err != nil {
					return Type{}, err
				}
			}
			n, err := p.fieldName()
			if err != nil {
				return Type{}, err
			}
			if err := p.expect(":"); err != nil {
				return Type{}, err
			}
			ft, err := p.typ()
			if err != nil {
				return Type{}, err
			}
			fields = append(fields, StructField{Name: n, Type: ft, NotNull: p.notNull()})
		}
		return StructOf(fields...), nil
	}
	// A scalar type: its name and any parenthesized arguments, which may
	// hold a quoted zone.
	p.space()
	if p.eat("(") {
		quoted := false
		for p.i < len(p.s) && (quoted || p.s[p.i] != ')') {
			if p.s[p.i] == '"' {
				quoted = !quoted
			}
			p.i++
		}
		if err := p.expect(")"); err != nil {
			return Type{}, err
		}
	}
	return parseScalarType(p.s[start:p.i])
}

// nestedArrow maps a nested type to Arrow: a list whose element field is
// "element" (the name Parquet's LIST layout and Spark use), a map with
// "key" and "value", and a struct with one field per struct field.
func (t Type) nestedArrow() arrow.DataType {
	switch t.Kind {
	case TArray:
		return arrow.ListOfField(arrow.Field{Name: "element", Type: t.nest.elem.Arrow(), Nullable: t.nest.elemNull})
	case TMap:
		m := arrow.MapOf(t.nest.key.Arrow(), t.nest.elem.Arrow())
		m.SetItemNullable(t.nest.elemNull)
		return m
	}
	fs := make([]arrow.Field, len(t.nest.fields))
	for i, f := range t.nest.fields {
		fs[i] = arrow.Field{Name: f.Name, Type: f.Type.Arrow(), Nullable: !f.NotNull}
	}
	return arrow.StructOf(fs...)
}

// fromArrowNested maps an Arrow list, map or struct to the
// model's nested type, refusing parts outside the model.
func fromArrowNested(dt arrow.DataType) (Type, error) {
	switch t := dt.(type) {
	case *arrow.MapType:
		k, err := FromArrow(t.KeyType())
		if err != nil {
			return Type{}, err
		}
		v, err := FromArrow(t.ItemType())
		if err != nil {
			return Type{}, err
		}
		return MapOf(k, v, t.ItemField().Nullable), nil
	case *arrow.ListType:
		f := t.ElemField()
		e, err := FromArrow(f.Type)
		if err != nil {
			return Type{}, err
		}
		return ArrayOf(e, f.Nullable), nil
	case *arrow.StructType:
		fs := make([]StructField, t.NumFields())
		for i, f := range t.Fields() {
			ft, err := FromArrow(f.Type)
			if err != nil {
				return Type{}, err
			}
			fs[i] = StructField{Name: f.Name, Type: ft, NotNull: !f.Nullable}
		}
		return StructOf(fs...), nil
	}
	return Type{}, fmt.Errorf("type %s is not one of the model's types", dt)
}
