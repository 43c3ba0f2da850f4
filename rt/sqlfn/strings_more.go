package sqlfn

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// More string functions with Spark's UTF8String semantics (see strings.go):
// positions and lengths count characters (code points), searches are
// byte-wise.

// ErrInvalidIndexOfZero builds INVALID_INDEX_OF_ZERO (split_part with part 0).
//
//go:noinline
func ErrInvalidIndexOfZero() *Error {
	return &Error{Class: ClassInvalidIndexOfZero,
		Msg: "The index 0 is invalid. An index shall be either < 0 or > 0 (the first element has index 1)."}
}

// ErrInvalidArrayIndex builds INVALID_ARRAY_INDEX (elt out of range).
//
//go:noinline
func ErrInvalidArrayIndex(index int64, n int) *Error {
	return &Error{Class: ClassInvalidArrayIndex,
		Msg: "The index " + strconv.FormatInt(index, 10) + " is out of bounds. The array has " + strconv.Itoa(n) +
			" elements. Use the SQL function `get()` to tolerate accessing element at invalid index and return NULL instead."}
}

// ConcatWs is concat_ws(sep, parts...): the non-NULL parts (oks[i] false:
// NULL) joined by sep.
func ConcatWs(sep string, parts []string, oks []bool) string {
	var b strings.Builder
	first := true
	for i, p := range parts {
		if !oks[i] {
			continue
		}
		if !first {
			b.WriteString(sep)
		}
		b.WriteString(p)
		first = false
	}
	return b.String()
}

// Elt is elt(n, values...): the n-th value (1-based), NULL (valid false)
// when it is; n outside 1..len(values) is INVALID_ARRAY_INDEX (ANSI).
func Elt(n int64, values []string, oks []bool) (string, bool, *Error) {
	if n < 1 || n > int64(len(values)) {
		return "", false, ErrInvalidArrayIndex(n, len(values))
	}
	return values[n-1], oks[n-1], nil
}

// SplitPart is split_part(s, delim, n): the n-th part (1-based; negative:
// from the end) of s split at delim, "" beyond the parts; an empty delim
// leaves s one part. n = 0 is INVALID_INDEX_OF_ZERO.
func SplitPart(s, delim string, n int32) (string, *Error) {
	if n == 0 {
		return "", ErrInvalidIndexOfZero()
	}
	parts := []string{s}
	if delim != "" {
		parts = strings.Split(s, delim)
	}
	i := int(n) - 1
	if n < 0 {
		i = len(parts) + int(n)
	}
	if i < 0 || i >= len(parts) {
		return "", nil
	}
	return parts[i], nil
}

// InitCap is initcap(s): s lower-cased (as Lower), then the first character
// of every word (words are separated by spaces only) in title case, with
// the full mappings ('ß' -> "Ss", 'ﬁ' -> "Fi").
func InitCap(s string) string {
	low := string(Lower(nil, s))
	var b strings.Builder
	start := true
	for _, r := range low {
		if start && r != ' ' {
			b.WriteString(titleCase(r))
		} else {
			b.WriteRune(r)
		}
		start = r == ' '
	}
	return b.String()
}

// titleCase is r's full title-case mapping (SpecialCasing.txt): its simple
// title case when that is a title-case letter (ǆ -> ǅ, ᾀ -> ᾈ), else for
// the characters whose upper case is several, that upper case with the
// characters after its first cased one lower-cased ('ß' -> "Ss", 'ŉ' ->
// "ʼN"), a final capital iota becoming the ypogegrammeni (U+0345).
func titleCase(r rune) string {
	if t := unicode.ToTitle(r); unicode.IsTitle(t) {
		return string(t)
	}
	up, ok := specialUpper[r]
	if !ok {
		return string(unicode.ToTitle(r))
	}
	rs := []rune(up)
	cased := false
	for i, c := range rs {
		if cased {
			if c == 0x399 && i == len(rs)-1 && r >= 0x1F80 {
				rs[i] = 0x345
			} else {
				rs[i] = unicode.ToLower(c)
			}
		}
		cased = cased || isCased(c)
	}
	return string(rs)
}

// chars splits s into its characters as UTF8String does (utf8Len).
func chars(s string) []string {
	out := make([]string, 0, len(s))
	for i := 0; i < len(s); {
		c := charAt(s, i)
		out = append(out, c)
		i += len(c)
	}
	return out
}

// Lpad is lpad(s, n, pad): s cut or left-padded with repetitions of pad to
// n characters; "" for n <= 0; s unchanged when pad is empty and s shorter.
func Lpad(s string, n int32, pad string) string { return padString(s, n, pad, true) }

// Rpad is rpad(s, n, pad): as Lpad, padded on the right.
func Rpad(s string, n int32, pad string) string { return padString(s, n, pad, false) }

func padString(s string, n int32, pad string, left bool) string {
	if n <= 0 {
		return ""
	}
	l := Length(s)
	if l >= n || pad == "" {
		return charSlice(s, 0, int64(n))
	}
	pc := chars(pad)
	var b strings.Builder
	if !left {
		b.WriteString(s)
	}
	for i := 0; i < int(n-l); i++ {
		b.WriteString(pc[i%len(pc)])
	}
	if left {
		b.WriteString(s)
	}
	return b.String()
}

// Translate is translate(s, from, to): every character of s found in from
// replaced by the character at the same index of to, or removed when to is
// shorter; a character repeated in from keeps its first index.
func Translate(s, from, to string) string {
	tc := chars(to)
	m := map[string]int{}
	for i, c := range chars(from) {
		if _, ok := m[c]; !ok {
			m[c] = i
		}
	}
	var b strings.Builder
	for _, c := range chars(s) {
		i, ok := m[c]
		switch {
		case !ok:
			b.WriteString(c)
		case i < len(tc):
			b.WriteString(tc[i])
		}
	}
	return b.String()
}

// charIndex is the number of characters of s before byte i.
func charIndex(s string, i int) int32 { return Length(s[:i]) }

// Instr is instr(s, sub): the 1-based character position of sub's first
// occurrence in s, 0 when there is none (1 for an empty sub).
func Instr(s, sub string) int32 {
	i := strings.Index(s, sub)
	if i < 0 {
		return 0
	}
	return charIndex(s, i) + 1
}

// Locate is locate(sub, s, pos) / position(sub, s, pos): the 1-based
// character position of sub's first occurrence in s at or after character
// pos, 0 when there is none or pos < 1; an empty sub is at 1.
func Locate(sub, s string, pos int32) int32 {
	if pos < 1 {
		return 0
	}
	if sub == "" {
		return 1
	}
	start := len(charSlice(s, 0, int64(pos)-1))
	i := strings.Index(s[start:], sub)
	if i < 0 {
		return 0
	}
	return charIndex(s, start+i) + 1
}

// Repeat is repeat(s, n): s n times, "" for n <= 0.
func Repeat(s string, n int32) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(s, int(n))
}

// Reverse is reverse(s): its characters in reverse order.
func Reverse(s string) string {
	cs := chars(s)
	var b strings.Builder
	b.Grow(len(s))
	for i := len(cs) - 1; i >= 0; i-- {
		b.WriteString(cs[i])
	}
	return b.String()
}

// Left is left(s, n): the first n characters, "" for n <= 0.
func Left(s string, n int32) string {
	if n <= 0 {
		return ""
	}
	return charSlice(s, 0, int64(n))
}

// Right is right(s, n): the last n characters, "" for n <= 0.
func Right(s string, n int32) string {
	if n <= 0 {
		return ""
	}
	l := int64(Length(s))
	return charSlice(s, max(l-int64(n), 0), l)
}

// Ascii is ascii(s): the code point of the first character, 0 for "".
func Ascii(s string) int32 {
	if s == "" {
		return 0
	}
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// Chr is chr(n) / char(n): the character whose code point is n mod 256, ""
// for a negative n.
func Chr(n int64) string {
	if n < 0 {
		return ""
	}
	return string(rune(n & 0xFF))
}

// BitLength is bit_length(s): the number of bits of its UTF-8 bytes.
func BitLength(s string) int32 { return int32(len(s)) * 8 }

// Space is space(n): n spaces, "" for n <= 0.
func Space(n int32) string { return Repeat(" ", n) }

// SubstringIndex is substring_index(s, delim, count): the part of s before
// the count-th occurrence of delim (count > 0, searched from the left, an
// occurrence may overlap the previous one), or after the -count-th from the
// right (count < 0); all of s when there are fewer; "" for count 0 or an
// empty delim.
func SubstringIndex(s, delim string, count int32) string {
	if count == 0 || delim == "" {
		return ""
	}
	if count > 0 {
		idx := -1
		for ; count > 0; count-- {
			j := strings.Index(s[idx+1:], delim)
			if j < 0 {
				return s
			}
			idx += 1 + j
		}
		return s[:idx]
	}
	idx := len(s)
	for ; count < 0; count++ {
		// the last occurrence starting at or before idx-1
		end := min(len(s), idx-1+len(delim))
		if end < 0 {
			return s
		}
		j := strings.LastIndex(s[:end], delim)
		if j < 0 {
			return s
		}
		idx = j
	}
	return s[idx+len(delim):]
}

// Overlay is overlay(s PLACING repl FROM pos FOR n): the characters before
// pos, repl, then the characters from pos + n on (n < 0: repl's length),
// with Spark's int arithmetic (it wraps).
func Overlay(s, repl string, pos, n int32) string {
	if n < 0 {
		n = Length(repl)
	}
	return Substring(s, 1, pos-1) + repl + SubstringFrom(s, pos+n)
}

// Levenshtein is levenshtein(a, b): the edit distance in characters.
func Levenshtein(a, b string) int32 { return levenshtein(chars(a), chars(b)) }

// LevenshteinMax is levenshtein(a, b, threshold): the distance, or -1 when
// it is above threshold (always for a negative threshold).
func LevenshteinMax(a, b string, threshold int32) int32 {
	if threshold < 0 {
		return -1
	}
	if d := Levenshtein(a, b); d <= threshold {
		return d
	}
	return -1
}

func levenshtein(a, b []string) int32 {
	prev := make([]int32, len(b)+1)
	cur := make([]int32, len(b)+1)
	for j := range prev {
		prev[j] = int32(j)
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = int32(i)
		for j := 1; j <= len(b); j++ {
			cost := int32(1)
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// soundexCodes are the American Soundex digits of A to Z ('7': H and W,
// which do not separate equal codes; '0': vowels, which do, as every byte
// that is not an ASCII letter does).
const soundexCodes = "01230127022455012623017202"

// Soundex is soundex(s): the letter and three digits of American Soundex;
// s unchanged when it does not start with an ASCII letter.
func Soundex(s string) string {
	if s == "" {
		return ""
	}
	up := func(c byte) byte {
		if 'a' <= c && c <= 'z' {
			return c - ('a' - 'A')
		}
		return c
	}
	first := up(s[0])
	if first < 'A' || first > 'Z' {
		return s
	}
	out := []byte{first, '0', '0', '0'}
	n := 1
	last := soundexCodes[first-'A']
	for i := 1; i < len(s) && n < 4; i++ {
		c := up(s[i])
		code := byte('0') // any other byte separates equal codes, as a vowel does
		if 'A' <= c && c <= 'Z' {
			code = soundexCodes[c-'A']
		}
		if code == '7' {
			continue
		}
		if code != '0' && code != last {
			out[n] = code
			n++
		}
		last = code
	}
	return string(out)
}

// FindInSet is find_in_set(s, list): the 1-based index of s among list's
// comma-separated items, 0 when absent or when s holds a comma.
func FindInSet(s, list string) int32 {
	if strings.Contains(s, ",") {
		return 0
	}
	for i, item := range strings.Split(list, ",") {
		if item == s {
			return int32(i + 1)
		}
	}
	return 0
}

// Mask is mask(s, upper, lower, digit, other): each upper-case letter (Lu)
// of s replaced by upper, lower-case (Ll) by lower, decimal digit (Nd) by
// digit, any other character by other; a negative replacement keeps the
// characters of its class (Spark's NULL). A character outside the BMP is
// two others, as Spark's UTF-16 units. A replacement outside the BMP is
// '?': Spark keeps its first UTF-16 unit, a lone surrogate, which Java's
// UTF-8 encoder writes as '?'.
func Mask(s string, upper, lower, digit, other rune) string {
	bmp := func(r rune) rune {
		if r > 0xFFFF {
			return '?'
		}
		return r
	}
	upper, lower, digit, other = bmp(upper), bmp(lower), bmp(digit), bmp(other)
	var b strings.Builder
	for _, r := range s {
		if r > 0xFFFF && other >= 0 {
			// Spark masks UTF-16 units: two surrogates, neither a letter
			// nor a digit
			b.WriteRune(other)
			b.WriteRune(other)
			continue
		}
		with := other
		switch {
		case unicode.IsUpper(r):
			with = upper
		case unicode.IsLower(r):
			with = lower
		case unicode.IsDigit(r):
			with = digit
		}
		if with < 0 {
			with = r
		}
		b.WriteRune(with)
	}
	return b.String()
}

// groupThousands writes the integer digits ds with a comma every three,
// as the pattern #,##0 does.
func groupThousands(b *strings.Builder, ds string) {
	for i := 0; i < len(ds); i++ {
		if i > 0 && (len(ds)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(ds[i])
	}
}

// formatDigits renders the non-negative number whose digits (no sign)
// are abs, with its fraction after '.', as #,##0.00..: a minus sign when
// neg.
func formatDigits(abs string, neg bool) string {
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	whole, frac, dot := strings.Cut(abs, ".")
	groupThousands(&b, whole)
	if dot {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// FormatNumberInt is format_number(v, d) of an integer: v grouped by
// thousands with d zeros after the point; NULL (valid false) for d < 0.
func FormatNumberInt(v int64, d int32) (string, bool) {
	if d < 0 {
		return "", false
	}
	abs := strconv.FormatUint(uint64(v), 10)
	if v < 0 {
		abs = strconv.FormatUint(uint64(-v), 10)
	}
	if d > 0 {
		abs += "." + strings.Repeat("0", int(d))
	}
	return formatDigits(abs, v < 0), true
}

// FormatNumberFloat is format_number(v, d) of a double (a float is
// widened), as java.text.DecimalFormat formats it: from the shortest
// digits that identify v (Double.toString's), padded with zeros to d
// decimals ("0.10000000000000000000" for 0.1 at 20, where v's exact binary
// value has other digits; 1e300 is a 1 and 300 zeros); with fewer decimals
// than those digits have, v's exact binary value rounded half to even
// (1.015 is 1.01: its binary value is below the tie); grouped by thousands
// ("NaN", "∞"); the sign shows for a negative v even when it rounds to
// zero ("-0.00"), and for -0.0.
func FormatNumberFloat(v float64, d int32) (string, bool) {
	switch {
	case d < 0:
		return "", false
	case math.IsNaN(v):
		return "NaN", true
	case math.IsInf(v, 1):
		return "∞", true
	case math.IsInf(v, -1):
		return "-∞", true
	}
	abs := math.Abs(v)
	digits, point := shortestDigits(abs)
	if frac := len(digits) - point; int64(d) < int64(frac) {
		return formatDigits(strconv.FormatFloat(abs, 'f', int(d), 64), math.Signbit(v)), true
	}
	// the shortest digits in plain notation, zeros appended to d decimals
	var b strings.Builder
	switch {
	case point <= 0:
		b.WriteByte('0')
	case point >= len(digits):
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", point-len(digits)))
	default:
		b.WriteString(digits[:point])
	}
	if d > 0 {
		b.WriteByte('.')
		n := 0
		if point < 0 {
			b.WriteString(strings.Repeat("0", -point))
			n = -point
		}
		if point < len(digits) {
			rest := digits[max(point, 0):]
			b.WriteString(rest)
			n += len(rest)
		}
		b.WriteString(strings.Repeat("0", int(d)-n))
	}
	return formatDigits(b.String(), math.Signbit(v)), true
}

// shortestDigits are the shortest decimal digits that identify the
// non-negative finite v, without trailing zeros ("0" for 0), and the
// place of the decimal point: v = 0.digits × 10^point.
func shortestDigits(v float64) (string, int) {
	if v == 0 {
		return "0", 1
	}
	mant, exp, _ := strings.Cut(strconv.FormatFloat(v, 'e', -1, 64), "e")
	e, _ := strconv.Atoi(exp)
	digits := strings.TrimRight(strings.Replace(mant, ".", "", 1), "0")
	return digits, e + 1
}

// FormatNumberDecimal is format_number(v, d) of a decimal of the given
// scale: rounded half to even at d decimals, grouped by thousands, the
// sign kept when a negative value rounds to zero.
func FormatNumberDecimal(v decimal128.Num, scale, d int32) (string, bool) {
	if d < 0 {
		return "", false
	}
	u := v.BigInt()
	neg := u.Sign() < 0
	u.Abs(u)
	r := new(big.Rat).SetFrac(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
	return formatDigits(roundHalfEven(r, int(d)), neg), true
}

// roundHalfEven renders the non-negative r with d decimals, rounded half
// to even.
func roundHalfEven(r *big.Rat, d int) string {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d)), nil)
	x := new(big.Rat).Mul(r, new(big.Rat).SetInt(p))
	q, m := new(big.Int).QuoRem(x.Num(), x.Denom(), new(big.Int))
	switch c := new(big.Int).Mul(m, big.NewInt(2)).Cmp(x.Denom()); {
	case c > 0, c == 0 && q.Bit(0) == 1:
		q.Add(q, big.NewInt(1))
	}
	s := q.String()
	if d == 0 {
		return s
	}
	if len(s) <= d {
		s = strings.Repeat("0", d-len(s)+1) + s
	}
	return s[:len(s)-d] + "." + s[len(s)-d:]
}

// LuhnCheck is luhn_check(s): whether s is a non-empty string of ASCII
// digits passing the Luhn checksum.
func LuhnCheck(s string) bool {
	if s == "" {
		return false
	}
	sum := 0
	for i := 0; i < len(s); i++ {
		c := s[len(s)-1-i]
		if c < '0' || c > '9' {
			return false
		}
		d := int(c - '0')
		if i%2 == 1 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}

// Quote is quote(s): s between single quotes, its quotes escaped by a
// backslash.
func Quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

// FormatPiece is one piece of a format_string format, parsed by the
// compiler (passes.FormatPiece): literal text (Arg < 0), or argument Arg
// as Conv ('s', 'S' upper-cased, 'd'), padded to Width (on the right with
// Left; with zeros after the sign with Zero).
type FormatPiece struct {
	Text  string
	Arg   int
	Left  bool
	Zero  bool
	Width int
	Conv  byte
}

// utf16Len is the number of UTF-16 units of s.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// FormatString is format_string(format, args...) / printf: the pieces with
// the arguments, rendered as text already (an integer in decimal); a NULL
// argument (oks[i] false) is "null" ("NULL" for %S), padded with spaces.
func FormatString(pieces []FormatPiece, args []string, oks []bool) string {
	var b strings.Builder
	for _, p := range pieces {
		if p.Arg < 0 {
			b.WriteString(p.Text)
			continue
		}
		v, zero := args[p.Arg], p.Zero
		if !oks[p.Arg] {
			v, zero = "null", false
		}
		if p.Conv == 'S' {
			v = string(Upper(nil, v))
		}
		pad := p.Width - utf16Len(v) // Java pads to a width in UTF-16 units
		switch {
		case pad <= 0:
			b.WriteString(v)
		case p.Left:
			b.WriteString(v)
			b.WriteString(strings.Repeat(" ", pad))
		case zero:
			sign := v[:len(v)-len(strings.TrimLeft(v, "-"))]
			b.WriteString(sign)
			b.WriteString(strings.Repeat("0", pad))
			b.WriteString(v[len(sign):])
		default:
			b.WriteString(strings.Repeat(" ", pad))
			b.WriteString(v)
		}
	}
	return b.String()
}
