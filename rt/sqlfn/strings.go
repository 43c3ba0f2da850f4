package sqlfn

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// String functions with Spark's UTF8String semantics (UTF8_BINARY collation).
//
// Characters are counted the way UTF8String.numChars counts them: each lead
// byte claims as many bytes as it announces (numBytesForFirstByte), and a
// stray continuation or invalid byte counts as one character. On valid
// UTF-8 that is the code point count. Functions returning a part of their
// input return a substring of it (no copy); functions building a new string
// append to a caller-provided []byte.

// utf8Len is UTF8String.numBytesForFirstByte.
func utf8Len(b byte) int {
	switch {
	case b < 0xC2:
		return 1 // ASCII, continuation bytes, and C0/C1 (disallowed)
	case b < 0xE0:
		return 2
	case b < 0xF0:
		return 3
	case b < 0xF5:
		return 4
	}
	return 1
}

// Length is length(s) / char_length(s): the number of characters.
func Length(s string) int32 {
	n := int32(0)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
		} else {
			i += utf8Len(c)
		}
		n++
	}
	return n
}

// OctetLength is octet_length(s): the number of bytes.
func OctetLength(s string) int32 { return int32(len(s)) }

// charSlice is UTF8String.substring(start, until): characters [start, until)
// by character index, clamped to the string.
func charSlice(s string, start, until int64) string {
	if until <= start || start >= int64(len(s)) {
		return ""
	}
	i, c := 0, int64(0)
	for i < len(s) && c < start {
		i += utf8Len(s[i])
		c++
	}
	j := i
	for i < len(s) && c < until {
		i += utf8Len(s[i])
		c++
	}
	if i > len(s) {
		i = len(s)
	}
	if j > len(s) {
		j = len(s)
	}
	return s[j:i]
}

// Substring is substring(s, pos, len) (UTF8String.substringSQL): pos is
// 1-based; 0 means the first character; a negative pos counts from the end
// (-1 is the last character). The window [start, start+len) is clipped to the
// string, so substring('abc', -5, 3) is "a". A negative len gives "".
func Substring(s string, pos, length int32) string {
	n := int64(0)
	if pos <= 0 {
		n = int64(Length(s))
	}
	var start int64
	switch {
	case pos > 0:
		start = int64(pos) - 1
	case pos < 0:
		start = n + int64(pos)
	}
	end := start + int64(length)
	return charSlice(s, start, end)
}

// SubstringFrom is substring(s, pos) (length defaults to Integer.MAX_VALUE).
func SubstringFrom(s string, pos int32) string { return Substring(s, pos, 1<<31-1) }

// Concat appends the concatenation of parts to dst (concat and ||). In Spark
// a NULL argument makes the result NULL; the caller checks that.
func Concat(dst []byte, parts ...string) []byte {
	for _, p := range parts {
		dst = append(dst, p...)
	}
	return dst
}

// Trim is trim(s): removes ASCII spaces (0x20 only, as UTF8String.trim) from
// both ends.
func Trim(s string) string { return strings.Trim(s, " ") }

// LTrim is ltrim(s): leading spaces only.
func LTrim(s string) string { return strings.TrimLeft(s, " ") }

// RTrim is rtrim(s): trailing spaces only.
func RTrim(s string) string { return strings.TrimRight(s, " ") }

// charAt returns the character (as UTF8String splits them) at byte i.
func charAt(s string, i int) string {
	j := i + utf8Len(s[i])
	if j > len(s) {
		j = len(s)
	}
	return s[i:j]
}

// TrimChars is trim(BOTH chars FROM s): removes from both ends every
// character that occurs in chars (UTF8String.trim(trimString)).
func TrimChars(s, chars string) string { return RTrimChars(LTrimChars(s, chars), chars) }

// LTrimChars is trim(LEADING chars FROM s) / ltrim(chars, s).
func LTrimChars(s, chars string) string {
	i := 0
	for i < len(s) {
		c := charAt(s, i)
		if !strings.Contains(chars, c) {
			break
		}
		i += len(c)
	}
	return s[i:]
}

// RTrimChars is trim(TRAILING chars FROM s) / rtrim(chars, s).
func RTrimChars(s, chars string) string {
	// Characters are found from the left, as Spark does, so invalid UTF-8
	// splits the same way.
	end, i := 0, 0
	for i < len(s) {
		c := charAt(s, i)
		i += len(c)
		if !strings.Contains(chars, c) {
			end = i
		}
	}
	return s[:end]
}

// Replace is replace(s, search, repl): every non-overlapping occurrence,
// left to right, appended to dst. An empty search leaves s unchanged.
func Replace(dst []byte, s, search, repl string) []byte {
	if len(search) == 0 {
		return append(dst, s...)
	}
	for {
		i := strings.Index(s, search)
		if i < 0 {
			return append(dst, s...)
		}
		dst = append(dst, s[:i]...)
		dst = append(dst, repl...)
		s = s[i+len(search):]
	}
}

// StartsWith is startswith(s, prefix), byte-wise; an empty prefix is true.
func StartsWith(s, prefix string) bool { return strings.HasPrefix(s, prefix) }

// EndsWith is endswith(s, suffix), byte-wise.
func EndsWith(s, suffix string) bool { return strings.HasSuffix(s, suffix) }

// Contains is contains(s, sub), byte-wise; an empty sub is true.
func Contains(s, sub string) bool { return strings.Contains(s, sub) }

// CompareString orders strings as Spark's UTF8_BINARY collation does
// (unsigned byte-wise, a prefix first): -1, 0 or +1.
func CompareString(a, b string) int { return strings.Compare(a, b) }

// isASCII reports whether s has no byte >= 0x80.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Upper is upper(s), appended to dst. ASCII strings map byte-wise; others
// use full Unicode case mapping as Java/ICU String.toUpperCase does with the
// root locale, including the one-to-many mappings ('ß' -> "SS"). Invalid
// UTF-8 bytes become U+FFFD, as Spark's decoding does.
func Upper(dst []byte, s string) []byte {
	if isASCII(s) {
		for i := 0; i < len(s); i++ {
			c := s[i]
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
		}
		return dst
	}
	for _, r := range s {
		if r >= 0xDF && r <= 0xFB17 {
			if m, ok := specialUpper[r]; ok {
				dst = append(dst, m...)
				continue
			}
		}
		dst = utf8.AppendRune(dst, unicode.ToUpper(r))
	}
	return dst
}

// Lower is lower(s), appended to dst: full Unicode lowercase mapping as
// String.toLowerCase with the root locale, including 'İ' (U+0130) -> "i̇"
// and the final-sigma rule (Σ -> ς at the end of a word).
func Lower(dst []byte, s string) []byte {
	if isASCII(s) {
		for i := 0; i < len(s); i++ {
			c := s[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
		}
		return dst
	}
	for i, r := range s {
		switch r {
		case 0x130:
			dst = append(dst, "i\u0307"...)
			continue
		case 0x3A3:
			if isFinalSigma(s, i) {
				dst = append(dst, "ς"...)
				continue
			}
		}
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
	}
	return dst
}

// isFinalSigma is the Final_Sigma condition: preceded by a cased letter and
// not followed by one (case-ignorable characters skipped, approximated by
// nonspacing marks and the apostrophe/period family).
func isFinalSigma(s string, i int) bool {
	before := false
	for j := i; j > 0; {
		r, n := utf8.DecodeLastRuneInString(s[:j])
		j -= n
		if caseIgnorable(r) {
			continue
		}
		before = isCased(r)
		break
	}
	if !before {
		return false
	}
	for j := i + len("Σ"); j < len(s); {
		r, n := utf8.DecodeRuneInString(s[j:])
		j += n
		if caseIgnorable(r) {
			continue
		}
		return !isCased(r)
	}
	return true
}

func isCased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r)
}

func caseIgnorable(r rune) bool {
	return unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Lm, r) || unicode.Is(unicode.Sk, r) ||
		r == '\'' || r == '.' || r == ':' || r == '\u00B7' || r == '\u2019'
}
