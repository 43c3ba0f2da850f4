package sql

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// sqlLexer tokenises one statement. Comments never reach it: splitStatements
// blanks them out first (Spark's bracketed comments nest, which a regular
// expression cannot follow), so positions stay those of the file.
//
// Words are all Ident tokens; keywords are matched case-insensitively by the
// grammar, and the identifier productions (ident, anyIdent) decide which
// words may name things.
var sqlLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Whitespace", Pattern: `\s+`},
	// Spark string literals: single or double quotes, backslash escapes.
	// A quote doubled inside is the quote itself ('it''s'), as Spark 4's
	// lexer reads it; two literals apart are concatenated ('a' 'b').
	{Name: "String", Pattern: `'(?:\\.|''|[^'\\])*'|"(?:\\.|""|[^"\\])*"`},
	// r'...' raw strings: no escapes.
	{Name: "RawString", Pattern: `[rR](?:'[^']*'|"[^"]*")`},
	{Name: "QIdent", Pattern: "`(?:[^`]|``)*`"},
	// Numbers with Spark's type suffixes: 1L 1S 1Y 1.5D 1.5F 1.5BD 1e3.
	{Name: "Number", Pattern: `(?i)(?:\d+\.\d*|\.\d+|\d+)(?:e[+-]?\d+)?(?:bd|[lsydf])?`},
	{Name: "Ident", Pattern: `[\p{L}_][\p{L}\p{N}_]*`},
	{Name: "Op", Pattern: `<=>|<>|!=|>=|<=|==|=>|->|\|\||::|[-+*/%=<>(),.;\[\]:!~&|^?{}$@#]`},
})

var (
	tokIdent    = sqlLexer.Symbols()["Ident"]
	tokQIdent   = sqlLexer.Symbols()["QIdent"]
	tokString   = sqlLexer.Symbols()["String"]
	tokRawStr   = sqlLexer.Symbols()["RawString"]
	tokNumber   = sqlLexer.Symbols()["Number"]
	tokSpace    = sqlLexer.Symbols()["Whitespace"]
	tokOperator = sqlLexer.Symbols()["Op"]
)

// statement is one ;-separated statement of a file: its text with comments
// blanked out, and the position of its first byte in the file.
type statement struct {
	text string
	base lexer.Position // position of text[0]
	// suspects are the offsets in text of quoted strings that run on past a
	// ';' and a line break: likely a missing closing quote.
	suspects []int
	// doc are the comment lines before the statement's first token, each
	// with its "--" marker (a block comment's lines get one).
	doc []string
}

// splitStatements splits a file on the semicolons that are outside quotes and
// comments, as Spark's splitSemiColonWithIndex does (SQL scripting off): a
// statement that holds only whitespace and comments is dropped. Comments
// (--, and /* */ which nest) are replaced by spaces, newlines kept, so that
// offsets, lines and columns are unchanged.
func splitStatements(filename string, src []byte) []statement {
	clean := make([]byte, len(src))
	copy(clean, src)
	blank := func(from, to int) {
		for i := from; i < to; i++ {
			if clean[i] != '\n' {
				clean[i] = ' '
			}
		}
	}
	var cuts []int     // indexes of the splitting semicolons
	var suspects []int // offsets of strings that swallow a ';' and a line break
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' && c != '`' {
					j++
				}
				j++
			}
			if body := src[i:min(j, len(src))]; bytes.IndexByte(body, ';') >= 0 && bytes.IndexByte(body, '\n') >= 0 {
				suspects = append(suspects, i)
			}
			i = j + 1
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			j := i
			for j < len(src) && src[j] != '\n' {
				j++
			}
			blank(i, j)
			i = j
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := blockCommentEnd(src, i)
			blank(i, min(j, len(src)))
			i = j
		case c == ';':
			cuts = append(cuts, i)
			i++
		default:
			i++
		}
	}
	var out []statement
	start := 0
	pos := lexer.Position{Filename: filename, Line: 1, Column: 1}
	emit := func(end int) {
		text := string(clean[start:end])
		if strings.TrimSpace(text) != "" {
			st := statement{text: text, base: pos, doc: leadingComments(src[start:end], clean[start:end], start > 0)}
			for _, s := range suspects {
				if s >= start && s < end {
					st.suspects = append(st.suspects, s-start)
				}
			}
			out = append(out, st)
		}
	}
	for _, cut := range cuts {
		emit(cut)
		pos = advance(pos, string(src[start:cut+1]))
		start = cut + 1
	}
	emit(len(src))
	return out
}

// blockCommentEnd returns the offset just past the block comment that
// starts at b[i] ("/*"), counting nested comments as Spark does; len(b) when
// it is not closed.
func blockCommentEnd(b []byte, i int) int {
	depth, j := 0, i
	for j < len(b) {
		switch {
		case b[j] == '/' && j+1 < len(b) && b[j+1] == '*':
			depth++
			j += 2
		case b[j] == '*' && j+1 < len(b) && b[j+1] == '/':
			depth--
			j += 2
			if depth == 0 {
				return j
			}
		default:
			j++
		}
	}
	return j
}

// leadingComments returns the comments of a statement's text before its
// first token (clean is the text with comments blanked), each line with a
// "--" marker. After a ';' (afterSemi), comments on the rest of that line
// belong to the statement before and are left out.
func leadingComments(orig, clean []byte, afterSemi bool) []string {
	first := len(clean) - len(bytes.TrimLeft(clean, " \t\r\n"))
	head := orig[:first]
	var out []string
	line := 0
	for i := 0; i < len(head); {
		switch {
		case head[i] == '\n':
			line++
			i++
		case head[i] == '-' && i+1 < len(head) && head[i+1] == '-':
			j := i
			for j < len(head) && head[j] != '\n' {
				j++
			}
			if !afterSemi || line > 0 {
				out = append(out, strings.TrimRight(string(head[i:j]), " \t\r"))
			}
			i = j
		case head[i] == '/' && i+1 < len(head) && head[i+1] == '*':
			j := blockCommentEnd(head, i)
			body := string(head[i:j])
			if !afterSemi || line > 0 {
				body = strings.TrimSuffix(strings.TrimPrefix(body, "/*"), "*/")
				for _, l := range strings.Split(body, "\n") {
					l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "*"))
					if l != "" {
						out = append(out, "-- "+l)
					}
				}
			}
			line += strings.Count(body, "\n")
			i = j
		default:
			i++
		}
	}
	return out
}

// advance moves pos over span, counting columns in runes as participle does.
func advance(pos lexer.Position, span string) lexer.Position {
	pos.Offset += len(span)
	if n := strings.Count(span, "\n"); n > 0 {
		pos.Line += n
		pos.Column = utf8.RuneCountInString(span[strings.LastIndexByte(span, '\n'):])
	} else {
		pos.Column += utf8.RuneCountInString(span)
	}
	return pos
}

// shiftedLexer moves the positions of a statement's tokens (and of its
// lexing errors) from the statement to the file.
type shiftedLexer struct {
	inner lexer.Lexer
	base  lexer.Position
}

func (s *shiftedLexer) Next() (lexer.Token, error) {
	t, err := s.inner.Next()
	if err != nil {
		if le, ok := err.(*lexer.Error); ok {
			le.Pos = s.base.Add(le.Pos)
			le.Pos.Filename = s.base.Filename
		}
		return t, err
	}
	t.Pos = s.base.Add(t.Pos)
	t.Pos.Filename = s.base.Filename
	return t, nil
}

// lexStatement returns every token of a statement (whitespace dropped), with
// file positions, ending with EOF.
func lexStatement(st statement) ([]lexer.Token, error) {
	l, err := sqlLexer.LexString(st.base.Filename, st.text)
	if err != nil {
		return nil, err
	}
	sl := &shiftedLexer{inner: l, base: st.base}
	var toks []lexer.Token
	for {
		t, err := sl.Next()
		if err != nil {
			return toks, err
		}
		if t.Type == tokSpace {
			continue
		}
		toks = append(toks, t)
		if t.EOF() {
			return toks, nil
		}
	}
}

// sliceLexer replays tokens lexed earlier.
type sliceLexer struct {
	toks []lexer.Token
	i    int
}

func (s *sliceLexer) Next() (lexer.Token, error) {
	if s.i >= len(s.toks) {
		return s.toks[len(s.toks)-1], nil
	}
	t := s.toks[s.i]
	s.i++
	return t, nil
}

// unquoteIdent strips the back-quotes of `name` (a doubled back-quote is one).
func unquoteIdent(s string) string {
	if len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`' {
		return strings.ReplaceAll(s[1:len(s)-1], "``", "`")
	}
	return s
}

// unquoteString decodes one Spark string literal token: 'text' or "text"
// with backslash escapes (\n \t \r \b \0 \Z \\ \' \" \uXXXX \UXXXXXXXX, and
// octal \NNN); \% and \_ keep their backslash (they are LIKE escapes);
// any other escaped character stands for itself; the quote doubled is the
// quote. r'text' is raw.
func unquoteString(tok string) string {
	if len(tok) >= 3 && (tok[0] == 'r' || tok[0] == 'R') {
		return tok[2 : len(tok)-1]
	}
	if len(tok) < 2 {
		return ""
	}
	q, s := tok[0], tok[1:len(tok)-1]
	if !strings.Contains(s, `\`) && !strings.Contains(s, string([]byte{q, q})) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == q && i+1 < len(s) && s[i+1] == q {
			b.WriteByte(q)
			i++
			continue
		}
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		e := s[i]
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'Z':
			b.WriteByte(26)
		case '%', '_':
			b.WriteByte('\\')
			b.WriteByte(e)
		case 'u', 'U':
			n := 4
			if e == 'U' {
				n = 8
			}
			if i+1+n <= len(s) {
				if r, ok := hexRune(s[i+1 : i+1+n]); ok {
					b.WriteRune(r)
					i += n
					continue
				}
			}
			b.WriteByte(e)
		default:
			if e >= '0' && e <= '7' && i+2 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]) {
				v := int(e-'0')*64 + int(s[i+1]-'0')*8 + int(s[i+2]-'0')
				b.WriteRune(rune(v))
				i += 2
				continue
			}
			if e == '0' {
				b.WriteByte(0)
				continue
			}
			b.WriteByte(e)
		}
	}
	return b.String()
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

func hexRune(s string) (rune, bool) {
	var r rune
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			r = r*16 + rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r*16 + rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r*16 + rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	if !utf8.ValidRune(r) {
		return 0, false
	}
	return r, true
}
