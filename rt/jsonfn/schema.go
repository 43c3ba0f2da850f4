package jsonfn

import (
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/nordisk/thund/rt/sqlfn"
)

// jtype is a type Spark infers for a JSON value (schema_of_json), with its
// default options: integers are BIGINT (DECIMAL(p,0) beyond, DOUBLE beyond
// 38 digits), other numbers DOUBLE, strings STRING (no dates inferred),
// and an object a STRUCT of its fields sorted by name.
type jtype struct {
	kind   jkind
	prec   int      // a decimal's precision (scale 0)
	elem   *jtype   // an array's element
	names  []string // a struct's field names, sorted
	fields []jtype
}

type jkind uint8

const (
	jNull jkind = iota
	jBool
	jLong
	jDecimal
	jDouble
	jString
	jArray
	jStruct
)

// infer is the type of v.
func infer(v value) jtype {
	switch v.kind {
	case kNull:
		return jtype{kind: jNull}
	case kTrue, kFalse:
		return jtype{kind: jBool}
	case kInt:
		if _, err := strconv.ParseInt(v.text, 10, 64); err == nil {
			return jtype{kind: jLong}
		}
		if p := len(strings.TrimPrefix(v.text, "-")); p <= 38 {
			return jtype{kind: jDecimal, prec: p}
		}
		return jtype{kind: jDouble}
	case kFloat:
		return jtype{kind: jDouble}
	case kString:
		return jtype{kind: jString}
	case kArray:
		e := jtype{kind: jNull}
		for _, x := range v.elems {
			e = merge(e, infer(x))
		}
		return jtype{kind: jArray, elem: &e}
	}
	idx := make([]int, len(v.names))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v.names[idx[a]] < v.names[idx[b]] })
	t := jtype{kind: jStruct}
	for _, i := range idx {
		t.names, t.fields = append(t.names, v.names[i]), append(t.fields, infer(v.elems[i]))
	}
	return t
}

// merge is the type of both a and b (Spark's compatibleType): numbers
// widen, structs take the union of their fields, arrays merge their
// elements, and anything else is STRING.
func merge(a, b jtype) jtype {
	switch {
	case a.kind == jNull:
		return b
	case b.kind == jNull:
		return a
	case a.kind == jStruct && b.kind == jStruct:
		return mergeStructs(a, b)
	case a.kind == jArray && b.kind == jArray:
		e := merge(*a.elem, *b.elem)
		return jtype{kind: jArray, elem: &e}
	case a.kind == b.kind && a.kind != jDecimal:
		return a
	case isNumber(a.kind) && isNumber(b.kind):
		if a.kind == jDouble || b.kind == jDouble {
			return jtype{kind: jDouble}
		}
		p := max(digits(a), digits(b))
		if p > 38 {
			return jtype{kind: jDouble}
		}
		return jtype{kind: jDecimal, prec: p}
	}
	return jtype{kind: jString}
}

func isNumber(k jkind) bool { return k == jLong || k == jDecimal || k == jDouble }

// digits is the integer digits a number type needs (a BIGINT is DECIMAL(20,0)).
func digits(t jtype) int {
	if t.kind == jLong {
		return 20
	}
	return t.prec
}

// mergeStructs is the union of two structs' fields, by name.
func mergeStructs(a, b jtype) jtype {
	out := jtype{kind: jStruct}
	i, j := 0, 0
	for i < len(a.names) || j < len(b.names) {
		switch {
		case j == len(b.names) || i < len(a.names) && a.names[i] < b.names[j]:
			out.names, out.fields = append(out.names, a.names[i]), append(out.fields, a.fields[i])
			i++
		case i == len(a.names) || b.names[j] < a.names[i]:
			out.names, out.fields = append(out.names, b.names[j]), append(out.fields, b.fields[j])
			j++
		default:
			out.names, out.fields = append(out.names, a.names[i]), append(out.fields, merge(a.fields[i], b.fields[j]))
			i, j = i+1, j+1
		}
	}
	return out
}

// plainName is a field name Spark writes without back-quotes.
var plainName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// canonical drops what Spark's inference drops at the end: fields with an
// empty name, and fields (or elements) of a struct type left without
// fields; ok is false when nothing is left of t.
func canonical(t jtype) (jtype, bool) {
	switch t.kind {
	case jArray:
		e, ok := canonical(*t.elem)
		return jtype{kind: jArray, elem: &e}, ok
	case jStruct:
		out := jtype{kind: jStruct}
		for i, n := range t.names {
			if f, ok := canonical(t.fields[i]); ok && n != "" {
				out.names, out.fields = append(out.names, n), append(out.fields, f)
			}
		}
		return out, len(out.names) > 0
	}
	return t, true
}

// appendType appends t's DDL spelling as Spark writes it (a NULL's type is
// STRING).
func appendType(b []byte, t jtype) []byte {
	switch t.kind {
	case jNull, jString:
		return append(b, "STRING"...)
	case jBool:
		return append(b, "BOOLEAN"...)
	case jLong:
		return append(b, "BIGINT"...)
	case jDouble:
		return append(b, "DOUBLE"...)
	case jDecimal:
		return append(b, "DECIMAL("+strconv.Itoa(t.prec)+",0)"...)
	case jArray:
		return append(appendType(append(b, "ARRAY<"...), *t.elem), '>')
	}
	b = append(b, "STRUCT<"...)
	for i, n := range t.names {
		if i > 0 {
			b = append(b, ", "...)
		}
		if plainName.MatchString(n) {
			b = append(b, n...)
		} else {
			b = append(b, "`"+strings.ReplaceAll(n, "`", "``")+"`"...)
		}
		b = appendType(append(b, ": "...), t.fields[i])
	}
	return append(b, '>')
}

// SchemaOfJSON is schema_of_json(json): the DDL type Spark infers for the
// first JSON value of the text (STRING for an empty text). Malformed text
// is an error (Spark raises Jackson's parse exception, without an error
// class, when it analyses the query).
func SchemaOfJSON(json string) (string, *sqlfn.Error) {
	if strings.TrimLeft(json, " \t\r\n") == "" {
		return "STRING", nil
	}
	v, err := parseFirst(json)
	if err != nil {
		return "", &sqlfn.Error{Msg: "schema_of_json of malformed JSON: " + strconv.Quote(json)}
	}
	t, _ := canonical(infer(v)) // a struct left without fields is STRUCT<>
	return string(appendType(nil, t)), nil
}
