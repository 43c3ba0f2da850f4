package nested

import (
	"math/big"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/nordisk/thund/rt/sqlfn"
)

// JSONTuple is json_tuple(json, fields...)'s one row: per field, the text
// of the top-level field of that name of the JSON object json, as Spark
// extracts it (JsonTuple over Jackson, with single quotes and raw control
// characters in strings allowed): a string's content without quotes or
// escapes; a number, boolean, object or array re-written compactly, numbers
// as Jackson writes them (an integer's value, a fraction as Java's
// Double.toString); NULL for a missing field, a JSON null or a NULL field
// name. A later duplicate field wins over an earlier one. A NULL json, one
// that is not an object, or one that is malformed before its object closes
// is a row of NULLs.
func JSONTuple(json any, fields ...any) []Struct {
	row := make(Struct, len(fields))
	s, ok := json.(string)
	if !ok {
		return []Struct{row}
	}
	p := &jsonScan{s: s}
	if !p.object(row, fields) {
		clear(row)
	}
	return []Struct{row}
}

// jsonScan reads JSON text at i.
type jsonScan struct {
	s string
	i int
}

func (p *jsonScan) ws() {
	for p.i < len(p.s) && strings.IndexByte(" \t\n\r", p.s[p.i]) >= 0 {
		p.i++
	}
}

// peek is the next byte after whitespace, 0 at the end.
func (p *jsonScan) peek() byte {
	p.ws()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// object reads the top-level object into row; false when it is not one or
// is malformed.
func (p *jsonScan) object(row Struct, fields []any) bool {
	if p.peek() != '{' {
		return false
	}
	p.i++
	if p.peek() == '}' {
		return true
	}
	for {
		c := p.peek()
		if c != '"' && c != '\'' {
			return false
		}
		name, ok := p.str()
		if !ok || p.peek() != ':' {
			return false
		}
		p.i++
		var b []byte
		isNull := p.peek() == 'n'
		if c := p.peek(); c == '"' || c == '\'' {
			v, ok := p.str()
			if !ok {
				return false
			}
			b = []byte(v)
		} else if b, ok = p.value(nil); !ok {
			return false
		}
		if !isNull {
			for k, f := range fields {
				if f == name {
					row[k] = string(b)
				}
			}
		}
		switch p.peek() {
		case ',':
			p.i++
		case '}':
			return true
		default:
			return false
		}
	}
}

// value appends the compact text of the value at i to dst.
func (p *jsonScan) value(dst []byte) ([]byte, bool) {
	switch c := p.peek(); {
	case c == '{' || c == '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		p.i++
		dst = append(dst, c)
		if p.peek() == end {
			p.i++
			return append(dst, end), true
		}
		for {
			var ok bool
			if c == '{' {
				if q := p.peek(); q != '"' && q != '\'' {
					return nil, false
				}
				name, ok := p.str()
				if !ok || p.peek() != ':' {
					return nil, false
				}
				p.i++
				dst = append(quote(dst, name), ':')
			}
			if dst, ok = p.value(dst); !ok {
				return nil, false
			}
			switch p.peek() {
			case ',':
				p.i++
				dst = append(dst, ',')
			case end:
				p.i++
				return append(dst, end), true
			default:
				return nil, false
			}
		}
	case c == '"' || c == '\'':
		v, ok := p.str()
		return quote(dst, v), ok
	case c == '-' || c >= '0' && c <= '9':
		return p.number(dst)
	}
	for _, lit := range []string{"true", "false", "null"} {
		if strings.HasPrefix(p.s[p.i:], lit) {
			p.i += len(lit)
			if p.i < len(p.s) && isWordByte(p.s[p.i]) {
				return nil, false
			}
			return append(dst, lit...), true
		}
	}
	return nil, false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// number appends a number as Jackson writes it back: an integer's value, a
// fraction or exponent form as Java's Double.toString.
func (p *jsonScan) number(dst []byte) ([]byte, bool) {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.s[p.i] == '-' {
		p.i++
	}
	intStart := p.i
	if n := digits(); n == 0 || n > 1 && p.s[intStart] == '0' {
		return nil, false // no digits, or leading zeros
	}
	frac := false
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, false
		}
		frac = true
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, false
		}
		frac = true
	}
	if p.i < len(p.s) && isWordByte(p.s[p.i]) {
		return nil, false
	}
	text := p.s[start:p.i]
	if frac {
		f, _ := strconv.ParseFloat(text, 64) // out of range: ±Inf, as Java's parse
		return sqlfn.AppendFloat64(dst, f), true
	}
	n, _ := new(big.Int).SetString(text, 10)
	return n.Append(dst, 10), true
}

// str reads a quoted string ("..." or '...') at i: its content, escapes
// decoded.
func (p *jsonScan) str() (string, bool) {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), true
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.s) {
			return "", false
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/', '\'':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", false
			}
			if utf16.IsSurrogate(r) && strings.HasPrefix(p.s[p.i:], `\u`) {
				p.i += 2
				r2, ok := p.hex4()
				if !ok {
					return "", false
				}
				r = utf16.DecodeRune(r, r2)
			}
			b.WriteRune(r)
		default:
			return "", false
		}
	}
	return "", false
}

func (p *jsonScan) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	v, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	p.i += 4
	return rune(v), err == nil
}

// quote appends s as Jackson writes a string: in double quotes, with \" \\
// and the short escapes \b \t \n \f \r, other control characters as
// \u00XX, and everything else as is (UTF-8).
func quote(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"' || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r == '\b':
			dst = append(dst, `\b`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\f':
			dst = append(dst, `\f`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case r < 0x20:
			dst = append(dst, `\u00`...)
			dst = append(dst, "0123456789ABCDEF"[r>>4], "0123456789ABCDEF"[r&15])
		default:
			dst = append(dst, s[i:i+n]...)
		}
		i += n
	}
	return append(dst, '"')
}
