package sqlfn

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Regex is a compiled Java pattern (NewRegex): its RE2 variants for
// a search from the start of the input or from inside it (where '^' cannot
// match), and, with a final '$', for an input ending in "\r\n" (where
// Java's '$' does not match between the two).
type Regex struct {
	pattern string
	groups  int  // Java's capturing groups
	dollar  bool // the last RE2 group is the final line terminator
	start   [2]*regexp.Regexp
	inside  [2]*regexp.Regexp
}

// NewRegex compiles a Java pattern translated by the compiler
// (passes.JavaRegex): groups is Java's count of capturing groups, dollar
// says the pattern ends with '$' (the last RE2 group is then the final line
// terminator), and sources are the RE2 variants: from the start, from
// inside, and the same two for an input ending in "\r\n".
func NewRegex(pattern string, groups int, dollar bool, sources [4]string) (*Regex, error) {
	x := &Regex{pattern: pattern, groups: groups, dollar: dollar}
	for k, src := range sources {
		re, err := regexp.Compile(src)
		if err != nil {
			return nil, err
		}
		if k%2 == 0 {
			x.start[k/2] = re
		} else {
			x.inside[k/2] = re
		}
	}
	return x, nil
}

// ErrRegexPattern builds INVALID_PARAMETER_VALUE.PATTERN.
//
//go:noinline
func ErrRegexPattern(fn, pattern string) *Error {
	return &Error{Class: ClassInvalidParameterValue + ".PATTERN",
		Msg: "The value of parameter(s) `regexp` in `" + fn + "` is invalid: '" + pattern + "'."}
}

// ErrRegexGroupIndex builds INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX.
//
//go:noinline
func ErrRegexGroupIndex(fn string, groups int, idx int32) *Error {
	return &Error{Class: ClassInvalidParameterValue + ".REGEX_GROUP_INDEX",
		Msg: "The value of parameter(s) `idx` in `" + fn + "` is invalid: Expects group index between 0 and " +
			strconv.Itoa(groups) + ", but got " + strconv.Itoa(int(idx)) + "."}
}

// ErrRegexpReplace builds INVALID_REGEXP_REPLACE.
//
//go:noinline
func ErrRegexpReplace(source, pattern, repl string, pos int32) *Error {
	return &Error{Class: ClassInvalidRegexpReplace,
		Msg: "Could not perform regexp_replace for source = \"" + source + "\", pattern = \"" + pattern +
			"\", replacement = \"" + repl + "\" and position = " + strconv.Itoa(int(pos)) + "."}
}

// match is one Java match: the byte offsets of the whole match and of each
// group (-1: the group did not take part), in the searched string.
type match []int

// find is Java's Matcher.find from byte from of s, in a region starting at
// byte region (where '^' matches): the next match, or nil.
func (x *Regex) find(s string, from, region int) match {
	crlf := 0
	if x.dollar && strings.HasSuffix(s, "\r\n") {
		crlf = 1
	}
	re := x.start[crlf]
	if from > region {
		re = x.inside[crlf]
	}
	loc := re.FindStringSubmatchIndex(s[from:])
	if loc == nil {
		return nil
	}
	m := make(match, 2*(x.groups+1))
	for k := range m {
		m[k] = loc[k]
		if m[k] >= 0 {
			m[k] += from
		}
	}
	if x.dollar && loc[len(loc)-2] >= 0 { // the final terminator is not part of the match
		m[1] = loc[len(loc)-2] + from
	}
	return m
}

// each calls fn on every match of Java's find loop over s from byte from:
// after an empty match the next search starts one character later.
func (x *Regex) each(s string, from int, fn func(match) bool) {
	region := from
	for from <= len(s) {
		m := x.find(s, from, region)
		if m == nil || !fn(m) {
			return
		}
		from = m[1]
		if m[0] == m[1] {
			if from == len(s) {
				return
			}
			_, n := utf8.DecodeRuneInString(s[from:])
			from += n
		}
	}
}

// Like is rlike(s, pattern) / regexp_like / regexp: whether the pattern
// matches anywhere in s.
func (x *Regex) Like(s string) bool { return x.find(s, 0, 0) != nil }

// checkGroup checks a group index against the pattern's groups.
func (x *Regex) checkGroup(fn string, idx int32) *Error {
	if idx < 0 || int(idx) > x.groups {
		return ErrRegexGroupIndex(fn, x.groups, idx)
	}
	return nil
}

// Extract is regexp_extract(s, pattern, idx): group idx of the first match,
// "" when there is none or the group did not take part.
func (x *Regex) Extract(s string, idx int32) (string, *Error) {
	if err := x.checkGroup("regexp_extract", idx); err != nil {
		return "", err
	}
	m := x.find(s, 0, 0)
	if m == nil || m[2*idx] < 0 {
		return "", nil
	}
	return s[m[2*idx]:m[2*idx+1]], nil
}

// ExtractAll is regexp_extract_all(s, pattern, idx): group idx of every
// match of the find loop, in order, "" where the group did not take part.
func (x *Regex) ExtractAll(s string, idx int32) ([]string, *Error) {
	if err := x.checkGroup("regexp_extract_all", idx); err != nil {
		return nil, err
	}
	out := []string{}
	x.each(s, 0, func(m match) bool {
		if m[2*idx] < 0 {
			out = append(out, "")
		} else {
			out = append(out, s[m[2*idx]:m[2*idx+1]])
		}
		return true
	})
	return out, nil
}

// Substr is regexp_substr(s, pattern): the first match, NULL (valid false)
// when there is none or it is empty.
func (x *Regex) Substr(s string) (string, bool) {
	m := x.find(s, 0, 0)
	if m == nil || m[0] == m[1] {
		return "", false
	}
	return s[m[0]:m[1]], true
}

// Count is regexp_count(s, pattern): the number of matches of the find loop.
func (x *Regex) Count(s string) int32 {
	n := int32(0)
	x.each(s, 0, func(match) bool { n++; return true })
	return n
}

// Instr is regexp_instr(s, pattern): the 1-based character position of the
// first match, 0 when there is none.
func (x *Regex) Instr(s string) int32 {
	m := x.find(s, 0, 0)
	if m == nil {
		return 0
	}
	return charIndex(s, m[0]) + 1
}

// Replace is regexp_replace(s, pattern, repl, pos): every match from the
// pos-th character on replaced by repl, where $n is group n and a backslash
// takes the next character literally (Java's Matcher.appendReplacement); a
// bad replacement is INVALID_REGEXP_REPLACE when a match uses it.
func (x *Regex) Replace(s, repl string, pos int32) (string, *Error) {
	if pos > 1 && pos > Length(s) {
		return s, nil // Spark replaces from the start, or from a position inside s
	}
	from := len(charSlice(s, 0, int64(pos)-1))
	var b strings.Builder
	last := 0
	var err *Error
	x.each(s, from, func(m match) bool {
		b.WriteString(s[last:m[0]])
		if !x.appendReplacement(&b, s, m, repl) {
			err = ErrRegexpReplace(s, x.pattern, repl, pos)
			return false
		}
		last = m[1]
		return true
	})
	if err != nil {
		return "", err
	}
	b.WriteString(s[last:])
	return b.String(), nil
}

// appendReplacement appends repl for match m; false for a bad replacement
// (a final backslash, a $ not followed by a group number, or a group the
// pattern does not have).
func (x *Regex) appendReplacement(b *strings.Builder, s string, m match, repl string) bool {
	for i := 0; i < len(repl); {
		switch c := repl[i]; c {
		case '\\':
			if i+1 >= len(repl) {
				return false
			}
			_, n := utf8.DecodeRuneInString(repl[i+1:])
			b.WriteString(repl[i+1 : i+1+n])
			i += 1 + n
		case '$':
			i++
			if i >= len(repl) || repl[i] < '0' || repl[i] > '9' {
				return false
			}
			g := int(repl[i] - '0')
			i++
			for i < len(repl) && repl[i] >= '0' && repl[i] <= '9' {
				ng := g*10 + int(repl[i]-'0')
				if ng > x.groups {
					break
				}
				g = ng
				i++
			}
			if g > x.groups {
				return false
			}
			if m[2*g] >= 0 {
				b.WriteString(s[m[2*g]:m[2*g+1]])
			}
		default:
			b.WriteByte(c)
			i++
		}
	}
	return true
}
