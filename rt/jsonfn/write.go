package jsonfn

import (
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/nordisk/thund/rt/sqlfn"
)

// writer writes JSON as Jackson's generator does: it puts the commas
// between the values of an array (or the top level) itself.
type writer struct {
	buf []byte
	// open[i] is whether the i-th open array has a value already; the
	// last entry is the innermost.
	open []bool
}

// sep writes the comma a value needs before it.
func (w *writer) sep() {
	if n := len(w.open); n > 0 {
		if w.open[n-1] {
			w.buf = append(w.buf, ',')
		}
		w.open[n-1] = true
	}
}

func (w *writer) startArray() {
	w.sep()
	w.buf = append(w.buf, '[')
	w.open = append(w.open, false)
}

func (w *writer) endArray() {
	w.buf = append(w.buf, ']')
	w.open = w.open[:len(w.open)-1]
}

// rawValue writes already formatted JSON as one value.
func (w *writer) rawValue(s []byte) {
	w.sep()
	w.buf = append(w.buf, s...)
}

// copy writes v.
func (w *writer) copy(v value) {
	w.sep()
	w.buf = appendValue(w.buf, v)
}

// appendValue appends v as Jackson writes it.
func appendValue(b []byte, v value) []byte {
	switch v.kind {
	case kNull:
		return append(b, "null"...)
	case kTrue:
		return append(b, "true"...)
	case kFalse:
		return append(b, "false"...)
	case kInt:
		return append(b, v.text...)
	case kFloat:
		f, _ := strconv.ParseFloat(v.text, 64) // out of range: ±Inf, as Java's parseDouble
		if math.IsInf(f, 0) {
			b = append(b, '"')
			b = sqlfn.AppendFloat64(b, f)
			return append(b, '"') // Jackson quotes non-numeric numbers
		}
		return sqlfn.AppendFloat64(b, f)
	case kString:
		return appendQuoted(b, v.text, true)
	case kArray:
		b = append(b, '[')
		for i, e := range v.elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendValue(b, e)
		}
		return append(b, ']')
	}
	b = append(b, '{')
	for i, e := range v.elems {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendQuoted(b, v.names[i], true)
		b = append(b, ':')
		b = appendValue(b, e)
	}
	return append(b, '}')
}

// appendString appends s quoted, escaping '"', '\\' and the control
// characters (\b \t \n \f \r by letter, the others as \u00XX), as
// Jackson does.
func appendString(b []byte, s string) []byte { return appendQuoted(b, s, false) }

// appendQuoted is appendString, also escaping the characters beyond the BMP
// (as their UTF-16 surrogates) when escapeAstral is set: Spark's
// get_json_object does, its to_json does not.
func appendQuoted(b []byte, s string, escapeAstral bool) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c >= 0xF0 && escapeAstral && utf16.IsSurrogate(firstUnit(s[i:])): // beyond the BMP: as its surrogate pair
			r, n := utf8.DecodeRuneInString(s[i:])
			hi, lo := utf16.EncodeRune(r)
			b = appendEscape(appendEscape(b, uint16(hi)), uint16(lo))
			i += n - 1
		case c == 0xED && i+2 < len(s) && s[i+1]>>5 == 0b101 && s[i+2]>>6 == 0b10: // a lone surrogate (value.go's WTF-8: ED A0..BF 80..BF)
			b = appendEscape(b, 0xD000|uint16(s[i+1]&0x3F)<<6|uint16(s[i+2]&0x3F))
			i += 2
		case c >= 0x20:
			b = append(b, c)
		case c == '\b':
			b = append(b, '\\', 'b')
		case c == '\t':
			b = append(b, '\\', 't')
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\f':
			b = append(b, '\\', 'f')
		case c == '\r':
			b = append(b, '\\', 'r')
		default:
			b = appendEscape(b, uint16(c))
		}
	}
	return append(b, '"')
}

// firstUnit is the first UTF-16 unit of s's first character (U+FFFD when
// s does not start with valid UTF-8).
func firstUnit(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	hi, _ := utf16.EncodeRune(r)
	if hi == utf8.RuneError {
		return r
	}
	return hi
}

// appendEscape appends \uXXXX, in upper-case hex as Jackson writes it.
func appendEscape(b []byte, u uint16) []byte {
	const hex = "0123456789ABCDEF"
	return append(b, '\\', 'u', hex[u>>12], hex[u>>8&15], hex[u>>4&15], hex[u&15])
}
