package dsl

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/nordisk/thund/ir"
)

// Token types. Keyword is a reserved word (ir.ReservedWords); every other
// word, contextual keywords included, is an Ident, and a back-quoted
// identifier is an Ident too (its Value keeps the back-quotes, so that no
// grammar literal ever matches it). String and DString values keep their
// quotes for the same reason; the lowering unquotes them.
const (
	tokKeyword lexer.TokenType = -2 - iota
	tokIdent
	tokInt
	tokDecimal
	tokFloat
	tokDuration
	tokSize
	tokString  // 'single-quoted', a quote inside doubled
	tokDString // "double-quoted", Go escapes
	tokPunct
	tokBitOr // | inside an expression's parentheses or brackets (markBitOr)
)

var symbols = map[string]lexer.TokenType{
	"EOF":      lexer.EOF,
	"Keyword":  tokKeyword,
	"Ident":    tokIdent,
	"Int":      tokInt,
	"Decimal":  tokDecimal,
	"Float":    tokFloat,
	"Duration": tokDuration,
	"Size":     tokSize,
	"String":   tokString,
	"DString":  tokDString,
	"Punct":    tokPunct,
	"BitOr":    tokBitOr,
}

var reserved = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range ir.ReservedWords() {
		m[w] = true
	}
	return m
}()

// lexDef makes the lexer a participle lexer.Definition. Parse does not use
// Lex (it lexes once and hands token slices to the parser), but participle
// needs the symbol table.
type lexDef struct{ symbols map[string]lexer.TokenType }

func (d lexDef) Symbols() map[string]lexer.TokenType { return d.symbols }

func (lexDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	toks, errs := lex(filename, src)
	if len(errs) > 0 {
		e := errs[0]
		return nil, fmt.Errorf("%s:%d:%d: %s", filename, e.pos.Line, e.pos.Column, e.msg)
	}
	return &sliceLexer{toks: toks}, nil
}

// sliceLexer replays a token slice that ends with EOF.
type sliceLexer struct {
	toks []lexer.Token
	i    int
}

func (s *sliceLexer) Next() (lexer.Token, error) {
	t := s.toks[s.i]
	if s.i < len(s.toks)-1 {
		s.i++
	}
	return t, nil
}

// lexError is one lexical problem. A fatal one lost input (a character that
// starts no token, or an unterminated quote that swallowed the rest), so the
// syntax errors of its declaration are not worth reporting.
type lexError struct {
	pos   lexer.Position
	code  ir.Code
	msg   string
	fatal bool
}

type lexScanner struct {
	src     []byte
	file    string
	off     int
	line    int
	col     int
	toks    []lexer.Token
	errs    []lexError
	dropped int            // errors beyond maxLexErrors
	dropPos lexer.Position // where the first of them is
	fatal   bool           // a dropped error was fatal
}

// maxLexErrors bounds the lexical errors reported for one file: a binary
// file would otherwise give one per byte.
const maxLexErrors = 100

func (s *lexScanner) pos() lexer.Position {
	return lexer.Position{Filename: s.file, Offset: s.off, Line: s.line, Column: s.col}
}

// advance moves over n bytes, counting lines; columns count bytes, as in go/scanner.
func (s *lexScanner) advance(n int) {
	for ; n > 0 && s.off < len(s.src); n-- {
		if s.src[s.off] == '\n' {
			s.line++
			s.col = 1
		} else {
			s.col++
		}
		s.off++
	}
}

func (s *lexScanner) errorf(p lexer.Position, code ir.Code, fatal bool, format string, args ...any) {
	if len(s.errs) >= maxLexErrors {
		if s.dropped == 0 {
			s.dropPos = p
		}
		s.dropped++
		s.fatal = s.fatal || fatal
		return
	}
	s.errs = append(s.errs, lexError{pos: p, code: code, msg: fmt.Sprintf(format, args...), fatal: fatal})
}

func (s *lexScanner) emit(t lexer.TokenType, start lexer.Position) {
	s.toks = append(s.toks, lexer.Token{Type: t, Value: string(s.src[start.Offset:s.off]), Pos: start})
}

// stepRune moves over one rune of a comment or a quoted token, reporting
// the first invalid encoding of the token (reported tracks that).
func (s *lexScanner) stepRune(reported *bool) {
	r, size := utf8.DecodeRune(s.src[s.off:])
	if r == utf8.RuneError && size == 1 && !*reported {
		s.errorf(s.pos(), ir.CodeLex, false, "invalid UTF-8 encoding")
		*reported = true
	}
	s.advance(size)
}

// startsToken reports whether a token, whitespace or a comment starts at rest.
func startsToken(rest []byte) bool {
	if c := rest[0]; isLetter(c) || isDigit(c) || strings.IndexByte(" \t\n\r\f\v#`'\"", c) >= 0 {
		return true
	}
	for _, p := range puncts {
		if bytes.HasPrefix(rest, []byte(p)) {
			return true
		}
	}
	return false
}

func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

var (
	durationRE = regexp.MustCompile(`^([0-9]+(d|h|ms|m|s|us|ns))+$`)
	sizeRE     = regexp.MustCompile(`^([0-9]+)([kKmMgG][bB])$`)
)

// puncts lists the operators and delimiters, longest first.
var puncts = []string{
	"<=>", "<=", "<>", ">=", "!=", "||", "->",
	"<", ">", "=", "+", "-", "*", "/", "%", "|", "(", ")", "{", "}", "[", "]", ",", ".", ":",
	"&", "^", "~", // bitwise operators
}

// lex splits src into tokens ending with EOF. It never fails: problems are
// returned as lexErrors and the scan goes on, so that every error of a file
// is reported.
func lex(filename string, src []byte) ([]lexer.Token, []lexError) {
	s := &lexScanner{src: src, file: filename, line: 1, col: 1}
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) { // a byte order mark
		s.off = 3
	}
	for s.off < len(s.src) {
		c := s.src[s.off]
		start := s.pos()
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			s.advance(1)
		case c == '#' || c == '-' && s.off+1 < len(s.src) && s.src[s.off+1] == '-':
			reported := false
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.stepRune(&reported)
			}
		case isLetter(c):
			for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
				s.advance(1)
			}
			typ := tokIdent
			if reserved[strings.ToLower(string(s.src[start.Offset:s.off]))] {
				typ = tokKeyword
			}
			s.emit(typ, start)
		case c == '`':
			s.quoted('`', start)
		case c == '\'':
			s.quoted('\'', start)
		case c == '"':
			s.dstring(start)
		case isDigit(c):
			s.number(start)
		default:
			matched := false
			for _, p := range puncts {
				if bytes.HasPrefix(s.src[s.off:], []byte(p)) {
					s.advance(len(p))
					s.emit(tokPunct, start)
					matched = true
					break
				}
			}
			if matched {
				break
			}
			// One error for a run of characters that start no token.
			r, size := utf8.DecodeRune(s.src[s.off:])
			if r == utf8.RuneError && size == 1 {
				s.errorf(start, ir.CodeLex, true, "invalid UTF-8 encoding")
			} else {
				s.errorf(start, ir.CodeLex, true, "unexpected character %q", r)
			}
			s.advance(size)
			for s.off < len(s.src) && !startsToken(s.src[s.off:]) {
				_, size := utf8.DecodeRune(s.src[s.off:])
				s.advance(size)
			}
		}
	}
	s.toks = append(s.toks, lexer.Token{Type: lexer.EOF, Pos: s.pos()})
	markBitOr(s.toks)
	if s.dropped > 0 {
		s.errs = append(s.errs, lexError{pos: s.dropPos, code: ir.CodeLex, fatal: s.fatal,
			msg: fmt.Sprintf("too many lexical errors: %d more from here on are not shown", s.dropped)})
	}
	return s.toks, s.errs
}

// quoted scans a back-quoted identifier or a single-quoted string, in which
// the quote is escaped by doubling it. Both may span lines.
func (s *lexScanner) quoted(q byte, start lexer.Position) {
	s.advance(1)
	reported := false
	for {
		if s.off >= len(s.src) {
			what := "string"
			if q == '`' {
				what = "back-quoted identifier"
			}
			s.errorf(start, ir.CodeLex, true, "unterminated %s: missing closing %c", what, q)
			return
		}
		if s.src[s.off] == q {
			if s.off+1 < len(s.src) && s.src[s.off+1] == q {
				s.advance(2)
				continue
			}
			s.advance(1)
			break
		}
		s.stepRune(&reported)
	}
	if q == '`' {
		s.emit(tokIdent, start)
	} else {
		s.emit(tokString, start)
	}
}

// dstring scans a double-quoted string with Go escapes, on one line.
func (s *lexScanner) dstring(start lexer.Position) {
	s.advance(1)
	reported := false
	for {
		if s.off >= len(s.src) || s.src[s.off] == '\n' {
			s.errorf(start, ir.CodeLex, true, `unterminated string: missing closing "`)
			return
		}
		c := s.src[s.off]
		if c == '"' {
			s.advance(1)
			break
		}
		if c == '\\' && s.off+1 < len(s.src) && s.src[s.off+1] != '\n' {
			s.advance(1)
		}
		s.stepRune(&reported)
	}
	s.emit(tokDString, start)
	raw := s.toks[len(s.toks)-1].Value
	v, err := strconv.Unquote(raw)
	switch {
	case err != nil:
		s.errorf(start, ir.CodeBadLiteral, false, "invalid escape in string %s: use Go escapes such as \\\" \\\\ \\n \\t \\u00e9", raw)
	case !utf8.ValidString(v) && !reported: // \x escapes
		s.errorf(start, ir.CodeBadLiteral, false, "string %s is not valid UTF-8", raw)
	}
}

// number scans an integer, a decimal (1.50), a float (1.5e3), a duration
// (10s, 1h30m) or a size (64MB), and checks that its value is representable.
func (s *lexScanner) number(start lexer.Position) {
	for s.off < len(s.src) && isDigit(s.src[s.off]) {
		s.advance(1)
	}
	typ := tokInt
	if s.off+1 < len(s.src) && s.src[s.off] == '.' && isDigit(s.src[s.off+1]) {
		s.advance(1)
		for s.off < len(s.src) && isDigit(s.src[s.off]) {
			s.advance(1)
		}
		typ = tokDecimal
	}
	if s.off < len(s.src) && (s.src[s.off] == 'e' || s.src[s.off] == 'E') {
		n := 1
		if s.off+n < len(s.src) && (s.src[s.off+n] == '+' || s.src[s.off+n] == '-') {
			n++
		}
		if s.off+n < len(s.src) && isDigit(s.src[s.off+n]) {
			s.advance(n)
			for s.off < len(s.src) && isDigit(s.src[s.off]) {
				s.advance(1)
			}
			typ = tokFloat
		}
	}
	if s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
		for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
			s.advance(1)
		}
		text := string(s.src[start.Offset:s.off])
		if m := sizeRE.FindStringSubmatch(text); m != nil {
			s.emit(tokSize, start)
			if _, ok := sizeBytes(text); !ok {
				s.errorf(start, ir.CodeBadLiteral, false, "size %s does not fit in 64 bits", text)
			}
			return
		}
		s.emit(tokDuration, start)
		if !durationRE.MatchString(text) {
			s.errorf(start, ir.CodeBadDuration, false, "malformed duration %s: want whole numbers of d, h, m, s, ms, us or ns, such as 10s or 1h30m", text)
		} else if _, err := ir.ParseDuration(text); err != nil {
			s.errorf(start, ir.CodeBadDuration, false, "duration %s does not fit in 64 bits of nanoseconds", text)
		}
		return
	}
	s.emit(typ, start)
	text := string(s.src[start.Offset:s.off])
	switch typ {
	case tokInt:
		if _, err := strconv.ParseInt(text, 10, 64); err != nil {
			s.errorf(start, ir.CodeBadLiteral, false, "integer %s does not fit in 64 bits", text)
		}
	case tokDecimal:
		if p := decimalPrecision(text); p > 38 {
			s.errorf(start, ir.CodeBadLiteral, false, "decimal %s has %d digits; the maximum precision is 38", text, p)
		}
	case tokFloat:
		if f, err := strconv.ParseFloat(text, 64); err != nil || math.IsInf(f, 0) {
			s.errorf(start, ir.CodeBadLiteral, false, "float %s is out of the range of float64", text)
		}
	}
}

// decimalPrecision is the precision of a decimal literal, as Spark counts it.
func decimalPrecision(text string) int {
	ip, fp, _ := strings.Cut(text, ".")
	ip = strings.TrimLeft(ip, "0")
	return len(ip) + len(fp)
}

// sizeBytes converts 64MB to bytes (KB, MB and GB are powers of 1024).
func sizeBytes(text string) (int64, bool) {
	m := sizeRE.FindStringSubmatch(text)
	if m == nil {
		n, err := strconv.ParseInt(text, 10, 64)
		return n, err == nil
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return 0, false
	}
	shift := map[byte]uint{'k': 10, 'm': 20, 'g': 30}[m[2][0]|0x20]
	if n > math.MaxInt64>>shift {
		return 0, false
	}
	return n << shift, true
}

// markBitOr makes BitOr tokens of the | that are bitwise OR: those whose
// innermost open bracket is an expression's ( or [ (a parenthesized
// expression, a call's arguments, a subscript). A ( whose next token is
// from opens a subquery, and every other | is the pipe between stages:
// a query is never inside an expression's brackets without its own (from.
func markBitOr(toks []lexer.Token) {
	var open []bool // per open bracket: true for an expression's
	for i, t := range toks {
		if t.Type != tokPunct {
			continue
		}
		switch t.Value {
		case "(":
			next := ""
			if i+1 < len(toks) {
				next = strings.ToLower(toks[i+1].Value)
			}
			open = append(open, next != "from")
		case "[":
			open = append(open, true)
		case "{":
			open = append(open, false)
		case ")", "]", "}":
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case "|":
			if len(open) > 0 && open[len(open)-1] {
				toks[i].Type = tokBitOr
			}
		}
	}
}
