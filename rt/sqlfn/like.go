package sqlfn

import (
	"encoding/binary"
	"errors"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// Like is a compiled SQL LIKE pattern. Spark (StringUtils.escapeLikeRegex)
// turns '_' into "." and '%' into ".*" in a DOTALL regex matched against the
// whole string, with every other character literal; the escape character
// (default '\') may precede only '_', '%' or itself, and may not end the
// pattern. '_' matches exactly one character (code point), including a
// newline. Matching is case-sensitive and byte-wise on the literals.
type Like struct {
	kind    LikeKind
	lit     string // exact / prefix / suffix / contains literal
	lit2    string // suffix for LikePrefixSuffix
	minLen  int    // bytes a match needs at least
	prefix  string // the literal when kind is LikePrefix
	pword   uint64 // first min(8, len(prefix)) bytes of prefix, little-endian
	pmask   uint64 // which bytes of pword count
	pattern []likeTok
}

// LikeKind is the shape of a compiled pattern.
type LikeKind uint8

// Pattern shapes with a fast path. A code generator that knows the pattern
// at compile time can read the shape with (*Like).Shape and emit the test
// inline with a constant literal (strings.HasPrefix(s, "abc")), which the Go
// compiler turns into a few word compares; Match does the same at run time
// with one call.
const (
	LikeExact        LikeKind = iota // "abc": s == lit
	LikePrefix                       // "abc%": strings.HasPrefix(s, lit)
	LikeSuffix                       // "%abc": strings.HasSuffix(s, lit)
	LikeContains                     // "%abc%": strings.Contains(s, lit)
	LikePrefixSuffix                 // "ab%cd": len(s) >= len(lit)+len(lit2) && HasPrefix(s, lit) && HasSuffix(s, lit2)
	LikeAll                          // "%": always true
	LikeGeneral                      // anything else: use Match
)

// Shape returns the pattern's shape and its literal parts (unescaped): lit
// for Exact, Prefix, Suffix and Contains; lit and lit2 (the suffix) for
// PrefixSuffix.
func (l *Like) Shape() (kind LikeKind, lit, lit2 string) { return l.kind, l.lit, l.lit2 }

// likeTok is a run of the general pattern: a literal, a number of '_', or '%'.
type likeTok struct {
	lit   string
	any   int  // number of '_' (characters to skip)
	star  bool // '%'
	isLit bool
}

// CompileLike compiles pattern with the default escape character '\'.
// Compilation happens once per pattern, not per row, so it returns a plain
// error (always a *Error when not nil).
func CompileLike(pattern string) (*Like, error) { return CompileLikeEscape(pattern, '\\') }

// CompileLikeEscape compiles pattern with the given escape character
// (LIKE ... ESCAPE 'c'). Invalid escapes are INVALID_FORMAT errors, raised by
// Spark at analysis time for a literal pattern.
func CompileLikeEscape(pattern string, escape rune) (*Like, error) {
	var toks []likeTok
	var lit []byte
	flush := func() {
		if len(lit) > 0 {
			toks = append(toks, likeTok{lit: string(lit), isLit: true})
			lit = lit[:0]
		}
	}
	for i := 0; i < len(pattern); {
		r, n := utf8.DecodeRuneInString(pattern[i:])
		raw := pattern[i : i+n]
		i += n
		switch {
		case r == escape:
			if i >= len(pattern) {
				return nil, errLikeEscapeAtEnd(pattern)
			}
			r2, n2 := utf8.DecodeRuneInString(pattern[i:])
			if r2 != '_' && r2 != '%' && r2 != escape {
				return nil, errLikeEscapeInMiddle(pattern, pattern[i:i+n2])
			}
			lit = append(lit, pattern[i:i+n2]...)
			i += n2
		case r == '_':
			flush()
			if k := len(toks); k > 0 && toks[k-1].any > 0 {
				toks[k-1].any++
			} else {
				toks = append(toks, likeTok{any: 1})
			}
		case r == '%':
			flush()
			if k := len(toks); k == 0 || !toks[k-1].star {
				toks = append(toks, likeTok{star: true})
			}
		default:
			lit = append(lit, raw...)
		}
	}
	flush()
	l := &Like{pattern: toks, kind: LikeGeneral}
	for _, t := range toks {
		l.minLen += len(t.lit) + t.any
	}
	// Fast paths for the common shapes.
	switch {
	case len(toks) == 0:
		l.kind, l.lit = LikeExact, ""
	case len(toks) == 1 && toks[0].isLit:
		l.kind, l.lit = LikeExact, toks[0].lit
	case len(toks) == 1 && toks[0].star:
		l.kind = LikeAll
	case len(toks) == 2 && toks[0].isLit && toks[1].star:
		l.kind, l.lit, l.prefix = LikePrefix, toks[0].lit, toks[0].lit
		var w [8]byte
		n := copy(w[:], l.prefix)
		l.pword = binary.LittleEndian.Uint64(w[:])
		l.pmask = ^uint64(0) >> (64 - 8*n)
	case len(toks) == 2 && toks[0].star && toks[1].isLit:
		l.kind, l.lit = LikeSuffix, toks[1].lit
	case len(toks) == 3 && toks[0].star && toks[1].isLit && toks[2].star:
		l.kind, l.lit = LikeContains, toks[1].lit
	case len(toks) == 3 && toks[0].isLit && toks[1].star && toks[2].isLit:
		l.kind, l.lit, l.lit2 = LikePrefixSuffix, toks[0].lit, toks[2].lit
	}
	return l, nil
}

//go:noinline
func errLikeEscapeAtEnd(pattern string) *Error {
	return &Error{Class: ClassInvalidFormat + ".ESC_AT_THE_END",
		Msg: "The format is invalid: " + sqlString(pattern) + ". The escape character is not allowed to end with."}
}

//go:noinline
func errLikeEscapeInMiddle(pattern, c string) *Error {
	return &Error{Class: ClassInvalidFormat + ".ESC_IN_THE_MIDDLE",
		Msg: "The format is invalid: " + sqlString(pattern) + ". The escape character is not allowed to precede " +
			sqlString(c) + "."}
}

// Match reports whether s matches the whole pattern.
func (l *Like) Match(s string) bool {
	if p := l.prefix; p != "" {
		if len(s) < len(p) {
			return false
		}
		if len(s) >= 8 { // compare the first 8 bytes as one word
			w := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
			return w&l.pmask == l.pword && (len(p) <= 8 || s[8:len(p)] == p[8:])
		}
		return s[:len(p)] == p
	}
	switch l.kind {
	case LikeExact:
		return s == l.lit
	case LikePrefix:
		return strings.HasPrefix(s, l.lit)
	case LikeSuffix:
		return strings.HasSuffix(s, l.lit)
	case LikeContains:
		return strings.Contains(s, l.lit)
	case LikePrefixSuffix:
		return len(s) >= len(l.lit)+len(l.lit2) && strings.HasPrefix(s, l.lit) && strings.HasSuffix(s, l.lit2)
	case LikeAll:
		return true
	}
	if len(s) < l.minLen {
		return false
	}
	return matchGeneral(l.pattern, s)
}

// MatchBytes is Match on a byte slice (no copy).
func (l *Like) MatchBytes(b []byte) bool { return l.Match(unsafeString(b)) }

// skipChars advances over n characters; ok is false if s is too short.
func skipChars(s string, i, n int) (int, bool) {
	for ; n > 0; n-- {
		if i >= len(s) {
			return i, false
		}
		if s[i] < utf8.RuneSelf {
			i++
		} else {
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
		}
	}
	return i, true
}

// matchGeneral matches tokens against s. Between two '%', the segment of
// literals and '_' is matched at the leftmost position where it fits, which
// is enough for full-string wildcard matching (the classic greedy algorithm
// with a single backtrack point), so the cost is O(len(s) * len(segment)).
func matchGeneral(toks []likeTok, s string) bool {
	i := 0
	// Leading segment (before the first '%') is anchored at 0.
	k := 0
	for k < len(toks) && !toks[k].star {
		var ok bool
		if i, ok = matchTok(toks[k], s, i); !ok {
			return false
		}
		k++
	}
	if k == len(toks) {
		return i == len(s)
	}
	// Trailing segment (after the last '%') is anchored at the end; match it
	// backwards over a copy of the character boundaries.
	last := len(toks)
	for last > 0 && !toks[last-1].star {
		last--
	}
	tail := toks[last:]
	// Middle segments, each after a '%', leftmost-first.
	for k < last {
		if toks[k].star {
			k++
			continue
		}
		end := k
		for end < last && !toks[end].star {
			end++
		}
		seg := toks[k:end]
		found := false
		for start := i; start <= len(s); {
			if j, ok := matchSeg(seg, s, start); ok {
				i, found = j, true
				break
			}
			if start == len(s) {
				break
			}
			start = nextChar(s, start, seg)
		}
		if !found {
			return false
		}
		k = end
	}
	if len(tail) == 0 {
		return true
	}
	// The tail must match a suffix of s[i:]; try each character boundary
	// from the right-most feasible start.
	for start := i; start <= len(s); start = advance(s, start) {
		if j, ok := matchSeg(tail, s, start); ok && j == len(s) {
			return true
		}
		if start == len(s) {
			break
		}
	}
	return false
}

// nextChar moves start to where the segment could next begin: past one
// character, or straight to the next occurrence of a leading literal.
func nextChar(s string, start int, seg []likeTok) int {
	if seg[0].isLit {
		if j := strings.Index(s[start+1:], seg[0].lit); j >= 0 {
			return start + 1 + j
		}
		return len(s) + 1
	}
	return advance(s, start)
}

func advance(s string, i int) int {
	if i >= len(s) {
		return i + 1
	}
	if s[i] < utf8.RuneSelf {
		return i + 1
	}
	_, w := utf8.DecodeRuneInString(s[i:])
	return i + w
}

func matchSeg(seg []likeTok, s string, i int) (int, bool) {
	for _, t := range seg {
		var ok bool
		if i, ok = matchTok(t, s, i); !ok {
			return i, false
		}
	}
	return i, true
}

func matchTok(t likeTok, s string, i int) (int, bool) {
	if t.isLit {
		if i > len(s) || !strings.HasPrefix(s[i:], t.lit) {
			return i, false
		}
		return i + len(t.lit), true
	}
	return skipChars(s, i, t.any)
}

// unsafeString views b as a string without copying; b must not change while
// the string is in use (it is only read during the call).
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// LikeMatch is s LIKE pattern for a pattern known only per row (not a
// constant): it compiles the pattern on every call. An invalid pattern (an
// escape at its end, or before a character other than _, % or the escape)
// is its INVALID_FORMAT error.
func LikeMatch(s, pattern string) (bool, *Error) {
	l, err := CompileLike(pattern)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return false, e
		}
		return false, &Error{Class: ClassInvalidFormat, Msg: err.Error()}
	}
	return l.Match(s), nil
}
