package passes

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Regular expressions: Spark runs java.util.regex; Go's regexp is RE2. Both
// pick the leftmost match and, at one position, the first alternative in
// Perl's priority order, so a Java pattern made only of constructs that
// mean the same in both gives the same matches. TranslateRegex rewrites the
// ones whose spelling differs and refuses, by name, the ones RE2 lacks or
// that mean something else (a *RegexError): the plan pass refuses a
// constant pattern there, and codegen hands the RE2 sources to the runtime
// (sqlfn.NewRegex).
//
// Rewritten: '.' (Java's excludes every line terminator: \n \r \u0085
// \u2028 \u2029), \s and \S (Java's include \x0B), (?i) (Java folds ASCII
// letters only), \Q...\E, and a '$' ending the pattern (Java's also matches
// before a final line terminator: a last capturing group for that
// terminator, which sqlfn.Regex keeps out of the match).

// RegexError says why a Java pattern cannot run on RE2 with the same
// meaning: Offset is the byte offset of the construct in the pattern.
type RegexError struct {
	Offset int
	Msg    string
}

func (e *RegexError) Error() string { return e.Msg }

// lineTerms are Java's line terminators as an RE2 class body.
const lineTerms = `\n\r\x{85}\x{2028}\x{2029}`

// javaSpace is Java's \s as an RE2 class body.
const javaSpace = `\t\n\x0B\f\r `

// generalCategories are the Unicode general categories \p{..} may name.
var generalCategories = map[string]bool{
	"L": true, "Lu": true, "Ll": true, "Lt": true, "Lm": true, "Lo": true,
	"M": true, "Mn": true, "Mc": true, "Me": true, "N": true, "Nd": true, "Nl": true, "No": true,
	"P": true, "Pc": true, "Pd": true, "Ps": true, "Pe": true, "Pi": true, "Pf": true, "Po": true,
	"S": true, "Sm": true, "Sc": true, "Sk": true, "So": true, "Z": true, "Zs": true, "Zl": true, "Zp": true,
	"C": true, "Cc": true, "Cf": true, "Co": true, "Cs": true, "Cn": true,
}

// regexTranslation is a translated pattern: RE2 source with the anchors
// left as placeholders for the variants Regex compiles.
type regexTranslation struct {
	src    string // with caretMark for '^' / \A and dollarMark for a final '$'
	groups int    // Java's capturing groups
	dollar bool   // the pattern ends with '$'
}

const (
	caretMark  = "\x00^\x00"
	dollarMark = "\x00$\x00"
)

// translateRegex rewrites a Java pattern into RE2 source (regexTranslation).
func translateRegex(p string) (*regexTranslation, error) {
	t := &regexTranslation{}
	var b strings.Builder
	refuse := func(i int, format string, args ...any) (*regexTranslation, error) {
		return nil, &RegexError{Offset: i, Msg: fmt.Sprintf(format, args...)}
	}
	// flags per open group: i (ASCII case folding) and s (dot matches all)
	type flags struct{ i, s bool }
	stack := []flags{{}}
	cur := func() *flags { return &stack[len(stack)-1] }
	lastAtom := false // a quantifier may follow
	for i := 0; i < len(p); {
		c := p[i]
		switch c {
		case '\\':
			body, n, err := translateEscape(p, i, false, cur().i)
			if err != nil {
				return nil, err
			}
			b.WriteString(body)
			i += n
			lastAtom = body != caretMark
		case '[':
			body, n, err := translateClass(p, i, cur().i)
			if err != nil {
				return nil, err
			}
			b.WriteString(body)
			i += n
			lastAtom = true
		case '.':
			if cur().s {
				b.WriteString(`(?s:.)`)
			} else {
				b.WriteString(`[^` + lineTerms + `]`)
			}
			i++
			lastAtom = true
		case '^':
			b.WriteString(caretMark)
			i++
			lastAtom = false
		case '$':
			if i != len(p)-1 {
				return refuse(i, "'$' before the end of the pattern (Java's $ also matches before a final line terminator; only a $ ending the pattern is supported)")
			}
			b.WriteString(dollarMark)
			t.dollar = true
			i++
			lastAtom = false
		case '(':
			f := *cur()
			rest := p[i+1:]
			switch {
			case !strings.HasPrefix(rest, "?"):
				t.groups++
				b.WriteString("(")
				i++
			case strings.HasPrefix(rest, "?:"):
				b.WriteString("(?:")
				i += 3
			case strings.HasPrefix(rest, "?<") && !strings.HasPrefix(rest, "?<=") && !strings.HasPrefix(rest, "?<!"):
				end := strings.IndexByte(rest, '>')
				if end < 0 {
					return refuse(i, "an unterminated group name")
				}
				t.groups++
				b.WriteString("(?P<" + rest[2:end] + ">")
				i += end + 2
			case strings.HasPrefix(rest, "?=") || strings.HasPrefix(rest, "?!"):
				return refuse(i, "lookahead %q (RE2 has none)", "("+rest[:2])
			case strings.HasPrefix(rest, "?<"):
				return refuse(i, "lookbehind %q (RE2 has none)", "("+rest[:3])
			case strings.HasPrefix(rest, "?>"):
				return refuse(i, "an atomic group (?> (RE2 has none)")
			default: // inline flags: (?flags) or (?flags:X)
				j := 1
				on := true
				for j < len(rest) && rest[j] != ')' && rest[j] != ':' {
					switch rest[j] {
					case '-':
						on = false
					case 'i':
						f.i = on
					case 's':
						f.s = on
					default:
						return refuse(i+1+j, "the inline flag %q (only i and s are supported)", rest[j:j+1])
					}
					j++
				}
				if j == len(rest) {
					return refuse(i, "an unterminated group")
				}
				if rest[j] == ')' { // (?i): to the end of the enclosing group
					*cur() = f
					i += j + 2
					lastAtom = false
					continue
				}
				b.WriteString("(?:")
				i += j + 2
			}
			stack = append(stack, f)
			lastAtom = false
		case ')':
			if len(stack) == 1 {
				return refuse(i, "an unmatched ')'")
			}
			stack = stack[:len(stack)-1]
			b.WriteString(")")
			i++
			lastAtom = true
		case '*', '+', '?', '{':
			n := 1
			if c == '{' {
				end := strings.IndexByte(p[i:], '}')
				if end < 0 || !validBraces(p[i+1:i+end]) {
					return refuse(i, "a '{' that does not start a repetition {n}, {n,} or {n,m}")
				}
				n = end + 1
			}
			if !lastAtom {
				return refuse(i, "a repetition %q with nothing to repeat", p[i:i+n])
			}
			b.WriteString(p[i : i+n])
			i += n
			if i < len(p) && p[i] == '+' {
				return refuse(i, "a possessive quantifier %q (RE2 has none)", p[i-n:i+1])
			}
			if i < len(p) && p[i] == '?' {
				b.WriteByte('?')
				i++
			}
			lastAtom = false
		case '|':
			b.WriteByte('|')
			i++
			lastAtom = false
		default:
			r, n := utf8.DecodeRuneInString(p[i:])
			b.WriteString(literal(r, cur().i))
			i += n
			lastAtom = true
		}
	}
	if len(stack) != 1 {
		return refuse(len(p), "an unclosed group")
	}
	t.src = b.String()
	return t, nil
}

// validBraces is the inside of a Java repetition: n, n, or n,m.
func validBraces(s string) bool {
	lo, hi, comma := strings.Cut(s, ",")
	digits := func(x string) bool {
		if x == "" {
			return false
		}
		for i := 0; i < len(x); i++ {
			if x[i] < '0' || x[i] > '9' {
				return false
			}
		}
		return true
	}
	return digits(lo) && (!comma || hi == "" || digits(hi))
}

// literal is one character matched literally: with fold (?i), an ASCII
// letter matches both of its cases, and nothing else folds.
func literal(r rune, fold bool) string {
	if fold && isASCIILetter(r) {
		return "[" + string(r|0x20) + string(r&^0x20) + "]"
	}
	return regexp.QuoteMeta(string(r))
}

func isASCIILetter(r rune) bool { return 'a' <= r|0x20 && r|0x20 <= 'z' }

// classChar is one character inside an RE2 class.
func classChar(r rune) string {
	if r < utf8.RuneSelf && !isASCIILetter(r) && !('0' <= r && r <= '9') {
		return `\x{` + strconv.FormatInt(int64(r), 16) + `}`
	}
	return string(r)
}

// translateEscape translates the escape at p[i] ('\\'), inside a class or
// not: the RE2 text and the bytes read.
func translateEscape(p string, i int, inClass, fold bool) (string, int, error) {
	refuse := func(format string, args ...any) (string, int, error) {
		return "", 0, &RegexError{Offset: i, Msg: fmt.Sprintf(format, args...)}
	}
	if i+1 >= len(p) {
		return refuse("a '\\' ending the pattern")
	}
	c := p[i+1]
	switch c {
	case 't', 'n', 'r', 'f':
		return `\` + string(c), 2, nil
	case 'a':
		return `\x07`, 2, nil
	case 'e':
		return `\x1B`, 2, nil
	case 'd', 'D', 'w', 'W':
		return `\` + string(c), 2, nil
	case 's':
		if inClass {
			return javaSpace, 2, nil
		}
		return `[` + javaSpace + `]`, 2, nil
	case 'S':
		if inClass {
			return refuse(`\S inside a class (Java's \S excludes \x0B, RE2's does not)`)
		}
		return `[^` + javaSpace + `]`, 2, nil
	case 'A':
		if inClass {
			return refuse(`\A inside a class`)
		}
		return caretMark, 2, nil
	case 'x':
		if i+2 < len(p) && p[i+2] == '{' {
			end := strings.IndexByte(p[i:], '}')
			if end < 0 {
				return refuse(`an unterminated \x{...}`)
			}
			v, err := strconv.ParseUint(p[i+3:i+end], 16, 32)
			if err != nil || v > utf8.MaxRune || v >= 0xD800 && v <= 0xDFFF {
				return refuse("a bad escape %q", p[i:i+end+1])
			}
			return codePoint(rune(v), inClass, fold), end + 1, nil
		}
		return hexEscape(p, i, 2, inClass, fold)
	case 'u':
		return hexEscape(p, i, 4, inClass, fold)
	case 'p', 'P':
		name, n := "", 0
		switch {
		case i+2 < len(p) && p[i+2] == '{':
			end := strings.IndexByte(p[i:], '}')
			if end < 0 {
				return refuse(`an unterminated \p{...}`)
			}
			name, n = p[i+3:i+end], end+1
		case i+2 < len(p):
			name, n = p[i+2:i+3], 3
		}
		if fold {
			return refuse(`the property %q under (?i) (Java folds its case its own way)`, p[i:i+max(n, 2)])
		}
		if !generalCategories[name] {
			return refuse(`the property %q (only Unicode general categories such as \p{L} or \p{Lu} are supported)`, p[i:i+max(n, 2)])
		}
		return `\` + string(c) + `{` + name + `}`, n, nil
	case 'Q':
		end := strings.Index(p[i+2:], `\E`)
		lit, n := p[i+2:], len(p)-i
		if end >= 0 {
			lit, n = p[i+2:i+2+end], end+4
		}
		var b strings.Builder
		for _, r := range lit {
			b.WriteString(codePoint(r, inClass, fold))
		}
		return b.String(), n, nil
	case 'b', 'B':
		return refuse(`the word boundary \%c (Java's words include non-ASCII letters, RE2's do not)`, c)
	case 'Z', 'z':
		return refuse(`\%c (use a $ ending the pattern)`, c)
	case 'G', 'R', 'X', 'h', 'H', 'v', 'V', 'N', 'k', 'c':
		return refuse(`the escape \%c (RE2 has no such construct with Java's meaning)`, c)
	}
	if c >= '0' && c <= '9' {
		return refuse(`the back reference or octal escape \%c (RE2 has none)`, c)
	}
	r, n := utf8.DecodeRuneInString(p[i+1:])
	if isASCIILetter(r) {
		return refuse("the unknown escape %q", p[i:i+1+n])
	}
	return codePoint(r, inClass, false), 1 + n, nil
}

// hexEscape is \xhh or \uhhhh (digits hex digits).
func hexEscape(p string, i, digits int, inClass, fold bool) (string, int, error) {
	if i+2+digits > len(p) {
		return "", 0, &RegexError{Offset: i, Msg: "a short hexadecimal escape"}
	}
	v, err := strconv.ParseUint(p[i+2:i+2+digits], 16, 32)
	if err != nil || v >= 0xD800 && v <= 0xDFFF {
		return "", 0, &RegexError{Offset: i, Msg: fmt.Sprintf("a bad escape %q (surrogates are not supported)", p[i:i+2+digits])}
	}
	return codePoint(rune(v), inClass, fold), 2 + digits, nil
}

// codePoint is the character r, in a class or not.
func codePoint(r rune, inClass, fold bool) string {
	if inClass {
		if fold && isASCIILetter(r) {
			return string(r|0x20) + string(r&^0x20)
		}
		return classChar(r)
	}
	return literal(r, fold)
}

// translateClass translates the class starting at p[i] ('['): the RE2
// text and the bytes read. Java's nested classes, intersections (&&) and
// POSIX-looking brackets are refused.
func translateClass(p string, i int, fold bool) (string, int, error) {
	refuse := func(at int, format string, args ...any) (string, int, error) {
		return "", 0, &RegexError{Offset: at, Msg: fmt.Sprintf(format, args...)}
	}
	var b strings.Builder
	b.WriteByte('[')
	j := i + 1
	if j < len(p) && p[j] == '^' {
		b.WriteByte('^')
		j++
	}
	if j < len(p) && p[j] == ']' {
		return refuse(j, "a ']' first in a class")
	}
	var folds []string // the other case of ASCII letters in ranges
	prev := rune(-1)   // the last single character, for a range
	for j < len(p) {
		c := p[j]
		switch {
		case c == ']':
			for _, f := range folds {
				b.WriteString(f)
			}
			b.WriteByte(']')
			return b.String(), j + 1 - i, nil
		case c == '[':
			return refuse(j, "a nested class or union in a class (Java's [ inside [...])")
		case c == '&' && j+1 < len(p) && p[j+1] == '&':
			return refuse(j, "a class intersection && (RE2 has none)")
		case c == '\\':
			body, n, err := translateEscape(p, j, true, fold)
			if err != nil {
				return "", 0, err
			}
			b.WriteString(body)
			prev = -1
			if r, m := utf8.DecodeRuneInString(p[j+1:]); n == 1+m && !isASCIILetter(r) {
				prev = r // an escaped punctuation character may start a range
			}
			j += n
		case c == '-' && prev >= 0 && j+1 < len(p) && p[j+1] != ']':
			hi, n := utf8.DecodeRuneInString(p[j+1:])
			if hi == '\\' || hi == '[' {
				return refuse(j, "a range ending in an escape or class")
			}
			if hi < prev {
				return refuse(j, "an empty range %q", p[j-1:j+1+n])
			}
			b.WriteString("-" + classChar(hi))
			if fold {
				folds = append(folds, foldRange(prev, hi)...)
			}
			prev = -1
			j += 1 + n
		default:
			r, n := utf8.DecodeRuneInString(p[j:])
			if fold && isASCIILetter(r) {
				folds = append(folds, string(r^0x20))
			}
			b.WriteString(classChar(r))
			prev = r
			j += n
		}
	}
	return refuse(i, "an unclosed class")
}

// foldRange is the other case of the ASCII letters in lo-hi, as ranges.
func foldRange(lo, hi rune) []string {
	var out []string
	for _, base := range []rune{'a', 'A'} {
		l, h := max(lo, base), min(hi, base+25)
		if l <= h {
			out = append(out, string(l^0x20)+"-"+string(h^0x20))
		}
	}
	return out
}

// JavaRegex is a Java pattern translated for sqlfn.NewRegex.
type JavaRegex struct {
	Groups  int       // Java's capturing groups
	Dollar  bool      // the pattern ends with '$': the last RE2 group is the final line terminator
	Sources [4]string // RE2: from the start, from inside, and both for an input ending in "\r\n"
}

// TranslateJavaRegex translates a Java pattern into RE2 (a *RegexError
// when a construct would not mean the same, or RE2 cannot compile it).
func TranslateJavaRegex(pattern string) (*JavaRegex, error) {
	t, err := translateRegex(pattern)
	if err != nil {
		return nil, err
	}
	x := &JavaRegex{Groups: t.groups, Dollar: t.dollar}
	for k := range x.Sources {
		term := `([` + lineTerms + `])?\z`
		if k >= 2 {
			term = `(\r\n|[\r\x{85}\x{2028}\x{2029}])?\z`
		}
		caret := `\A`
		if k%2 == 1 {
			caret = `[^\x00-\x{10FFFF}]`
		}
		x.Sources[k] = strings.ReplaceAll(strings.ReplaceAll(t.src, caretMark, caret), dollarMark, term)
		if _, err := regexp.Compile(x.Sources[k]); err != nil {
			return nil, &RegexError{Offset: 0, Msg: "a pattern RE2 cannot compile: " + err.Error()}
		}
	}
	return x, nil
}

// matchesEmpty says whether the pattern can match the empty string (at the
// start of an input ending there, where every anchor holds).
func (x *JavaRegex) matchesEmpty() bool { return regexp.MustCompile(x.Sources[0]).MatchString("") }
