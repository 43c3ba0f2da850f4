package jsonfn

import (
	"math"
	"strconv"
	"strings"

	"github.com/nordisk/thund/rt/nested"
)

// FromJSON is from_json(json, schema) for a STRUCT schema t, with Spark's
// default PERMISSIVE mode and its partial results: NULL for an empty text;
// a struct of NULL fields for malformed JSON or a value that is not an
// object; otherwise each field (matched by its exact name, the last of a
// repeated one winning) converted to its type, or NULL where it does not
// convert.
//
// Generated code calls a Parser (parse.go), which also takes from_json's
// options and counts what it meets; FromJSON is its answer without options.
func FromJSON(json string, t *Type) (any, bool) {
	x, ok, _ := NewParser(t, "", Options{Corrupt: -1, Rescued: -1}).Parse(json) // PERMISSIVE never fails
	return x, ok
}

// structOf converts an object to struct type t, field by field; *partial
// (when partial is not nil) is set when a field does not convert, which
// makes the value malformed for Spark (its partial result is kept).
func structOf(v value, t *Type, partial *bool) nested.Struct {
	out := make(nested.Struct, len(t.Fields))
	for i, f := range t.Fields {
		for j, n := range v.names {
			if n == f.Name {
				if x, ok := convert(v.elems[j], f.Type, partial); ok { // the last one wins
					out[i] = x
				} else {
					out[i] = nil // NULL where it does not convert
					if partial != nil {
						*partial = true
					}
				}
			}
		}
	}
	return out
}

// convert converts v to type t: ok is false when it does not convert (an
// array or a map with an element that does not is not converted either);
// partial as structOf's.
func convert(v value, t *Type, partial *bool) (any, bool) {
	if v.kind == kNull {
		return nil, true
	}
	switch t.Kind {
	case String:
		switch v.kind {
		case kString:
			return javaString(v.text), true
		case kInt, kFloat:
			return v.text, true
		case kTrue, kFalse:
			return strconv.FormatBool(v.kind == kTrue), true
		}
		return string(appendValue(nil, v)), true
	case Bool:
		if v.kind == kTrue || v.kind == kFalse {
			return v.kind == kTrue, true
		}
	case Int:
		if v.kind == kInt {
			return intOf(v.text, t.Bits)
		}
	case Float32, Float64:
		f, ok := floatOf(v)
		switch {
		case !ok:
			return nil, false
		case t.Kind == Float32:
			return float32(f), true
		}
		return f, true
	case Struct:
		if v.kind == kObject {
			return structOf(v, t, partial), true
		}
	case Array:
		if v.kind == kArray {
			out := make(nested.Array, len(v.elems))
			for i, e := range v.elems {
				x, ok := convert(e, t.Elem, partial)
				if !ok {
					return nil, false
				}
				out[i] = x
			}
			return out, true
		}
	case Map:
		if v.kind == kObject {
			m := &nested.Map{Keys: make([]any, len(v.names)), Values: make([]any, len(v.names))}
			for i, e := range v.elems {
				x, ok := convert(e, t.Elem, partial)
				if !ok {
					return nil, false
				}
				m.Keys[i], m.Values[i] = v.names[i], x
			}
			return m, true
		}
	}
	return nil, false
}

// intOf is an integer of bits bits (8, 16, 32 or 64), as the Go type
// generated code gives it; ok is false when it does not fit.
func intOf(text string, bits int) (any, bool) {
	n, err := strconv.ParseInt(text, 10, bits)
	if err != nil {
		return nil, false
	}
	switch bits {
	case 8:
		return int8(n), true
	case 16:
		return int16(n), true
	case 32:
		return int32(n), true
	}
	return n, true
}

// floatOf is a number, or one of the strings Jackson reads as a
// non-numeric number (NaN, Infinity, -Infinity, +INF, ...).
func floatOf(v value) (float64, bool) {
	switch v.kind {
	case kInt, kFloat:
		f, _ := strconv.ParseFloat(v.text, 64) // out of range: ±Inf, as Java's parseDouble
		return f, true
	case kString:
		switch v.text {
		case "NaN":
			return math.NaN(), true
		case "Infinity", "+Infinity", "+INF", "INF":
			return math.Inf(1), true
		case "-Infinity", "-INF":
			return math.Inf(-1), true
		}
	}
	return 0, false
}

// javaString is a decoded JSON string as Spark stores it: a lone UTF-16
// surrogate (kept as its three bytes by the reader, value.go) becomes '?',
// as Java's UTF-8 encoder writes it.
func javaString(s string) string {
	if !strings.Contains(s, "\xED") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 {
			b = append(b, '?')
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}
