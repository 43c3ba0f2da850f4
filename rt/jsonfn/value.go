package jsonfn

import (
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// kind is the kind of a JSON value.
type kind uint8

const (
	kNull kind = iota
	kFalse
	kTrue
	kInt    // an integer: text holds its canonical digits
	kFloat  // a number with a fraction or an exponent: text holds its digits as written
	kString // text holds the decoded string
	kArray
	kObject
)

// value is one parsed JSON value. An object keeps its fields in the text's
// order, repeated names included (Jackson does not reject them).
type value struct {
	kind  kind
	text  string
	elems []value  // an array's elements, an object's field values
	names []string // an object's field names
}

// errMalformed is any malformed input: the functions answer NULL for it.
var errMalformed = errors.New("malformed JSON")

// reader parses JSON text as Spark's Jackson parser accepts it.
type reader struct {
	s string
	i int
}

// parseFirst parses the first JSON value of s; what follows it is not read
// (a top-level number or keyword must still end at a space or the end, as
// Jackson checks).
func parseFirst(s string) (value, error) {
	r := reader{s: s}
	v, err := r.value(0)
	if err != nil {
		return value{}, err
	}
	if (v.kind != kArray && v.kind != kObject && v.kind != kString) && r.i < len(s) && !isSpace(s[r.i]) {
		return value{}, errMalformed
	}
	return v, nil
}

// maxDepth bounds nesting, as Jackson's default StreamReadConstraints do.
const maxDepth = 1000

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skipSpace moves past white space and returns the next byte (0 at the end).
func (r *reader) skipSpace() byte {
	for r.i < len(r.s) && isSpace(r.s[r.i]) {
		r.i++
	}
	if r.i == len(r.s) {
		return 0
	}
	return r.s[r.i]
}

// value parses one value at depth d.
func (r *reader) value(d int) (value, error) {
	if d > maxDepth {
		return value{}, errMalformed
	}
	switch c := r.skipSpace(); {
	case c == '{':
		return r.object(d)
	case c == '[':
		return r.array(d)
	case c == '"' || c == '\'':
		s, err := r.str()
		return value{kind: kString, text: s}, err
	case c == '-' || '0' <= c && c <= '9':
		return r.number()
	case c == 't':
		return r.keyword("true", kTrue)
	case c == 'f':
		return r.keyword("false", kFalse)
	case c == 'n':
		return r.keyword("null", kNull)
	}
	return value{}, errMalformed
}

// keyword reads true, false or null, which must not run on into a name.
func (r *reader) keyword(w string, k kind) (value, error) {
	if len(r.s)-r.i < len(w) || r.s[r.i:r.i+len(w)] != w {
		return value{}, errMalformed
	}
	r.i += len(w)
	if r.i < len(r.s) {
		if c := r.s[r.i]; c == '_' || c == '$' || 'a' <= c&^0x20 && c&^0x20 <= 'Z' || '0' <= c && c <= '9' || c >= 0x80 {
			return value{}, errMalformed
		}
	}
	return value{kind: k}, nil
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func (r *reader) number() (value, error) {
	s, start := r.s, r.i
	i := r.i
	if s[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return i - j
	}
	intStart := i
	n := digits()
	if n == 0 || n > 1 && s[intStart] == '0' {
		return value{}, errMalformed // Jackson: no leading zeros
	}
	float := false
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return value{}, errMalformed
		}
		float = true
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return value{}, errMalformed
		}
		float = true
	}
	r.i = i
	text := s[start:i]
	if float {
		return value{kind: kFloat, text: text}, nil
	}
	if text == "-0" {
		text = "0" // Jackson reads it as the integer 0
	}
	return value{kind: kInt, text: text}, nil
}

// str reads a string quoted with " or ' (Spark allows single quotes): the
// escapes \" \' \\ \/ \b \f \n \r \t \uXXXX, and raw control characters.
func (r *reader) str() (string, error) {
	q := r.s[r.i]
	r.i++
	start := r.i
	for r.i < len(r.s) && r.s[r.i] != q && r.s[r.i] != '\\' {
		r.i++
	}
	if r.i < len(r.s) && r.s[r.i] == q { // no escapes: the text itself
		r.i++
		return r.s[start : r.i-1], nil
	}
	buf := []byte(r.s[start:r.i])
	for r.i < len(r.s) {
		c := r.s[r.i]
		switch {
		case c == q:
			r.i++
			return string(buf), nil
		case c != '\\':
			buf = append(buf, c)
			r.i++
			continue
		}
		if r.i+1 >= len(r.s) {
			break
		}
		e := r.s[r.i+1]
		r.i += 2
		switch e {
		case '"', '\\', '/', '\'':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			u, ok := r.hex4()
			if !ok {
				return "", errMalformed
			}
			if utf16.IsSurrogate(rune(u)) && r.i+1 < len(r.s) && r.s[r.i] == '\\' && r.s[r.i+1] == 'u' {
				save := r.i
				r.i += 2
				if lo, ok := r.hex4(); ok {
					if c := utf16.DecodeRune(rune(u), rune(lo)); c != utf8.RuneError {
						buf = utf8.AppendRune(buf, c)
						continue
					}
				}
				r.i = save
			}
			if utf16.IsSurrogate(rune(u)) {
				// a lone surrogate: kept as its three bytes (not UTF-8), which
				// Spark cannot write out (GetJSONObject answers NULL)
				buf = append(buf, 0xED, 0xA0|byte(u>>6)&0x1F, 0x80|byte(u)&0x3F)
				continue
			}
			buf = utf8.AppendRune(buf, rune(u))
		default:
			return "", errMalformed
		}
	}
	return "", errMalformed
}

// hex4 reads four hex digits.
func (r *reader) hex4() (uint16, bool) {
	if len(r.s)-r.i < 4 {
		return 0, false
	}
	u, err := strconv.ParseUint(r.s[r.i:r.i+4], 16, 16)
	if err != nil || r.s[r.i] == '+' || r.s[r.i] == '-' {
		return 0, false
	}
	r.i += 4
	return uint16(u), true
}

// array reads [v, ...].
func (r *reader) array(d int) (value, error) {
	r.i++
	v := value{kind: kArray}
	if r.skipSpace() == ']' {
		r.i++
		return v, nil
	}
	for {
		e, err := r.value(d + 1)
		if err != nil {
			return value{}, err
		}
		v.elems = append(v.elems, e)
		switch r.skipSpace() {
		case ',':
			r.i++
		case ']':
			r.i++
			return v, nil
		default:
			return value{}, errMalformed
		}
	}
}

// object reads {"name": v, ...}.
func (r *reader) object(d int) (value, error) {
	r.i++
	v := value{kind: kObject}
	if r.skipSpace() == '}' {
		r.i++
		return v, nil
	}
	for {
		if c := r.skipSpace(); c != '"' && c != '\'' {
			return value{}, errMalformed
		}
		name, err := r.str()
		if err != nil {
			return value{}, err
		}
		if r.skipSpace() != ':' {
			return value{}, errMalformed
		}
		r.i++
		e, err := r.value(d + 1)
		if err != nil {
			return value{}, err
		}
		v.names, v.elems = append(v.names, name), append(v.elems, e)
		switch r.skipSpace() {
		case ',':
			r.i++
		case '}':
			r.i++
			return v, nil
		default:
			return value{}, errMalformed
		}
	}
}
