package sqlfn

import (
	"encoding/base64"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Encodings with Spark's answers: base64 (Java's MIME encoder and
// decoder), hex and unhex, to_binary, url_encode and url_decode (Java's
// URLEncoder and URLDecoder, UTF-8), encode and decode with the charsets
// Spark 4 allows. Each allocates its result.

// base64Line is the line length of Java's MIME encoder, which Spark's
// base64 uses (spark.sql.chunkBase64String.enabled, on by default): lines
// of 76 characters, separated by CRLF.
const base64Line = 76

// Base64 is base64(x): the padded base64 text of the bytes, in lines of 76
// characters separated by "\r\n".
func Base64[T ~string | ~[]byte](x T) string {
	enc := base64.StdEncoding.EncodeToString([]byte(x))
	if len(enc) <= base64Line {
		return enc
	}
	var b strings.Builder
	b.Grow(len(enc) + 2*(len(enc)/base64Line))
	for i := 0; i < len(enc); i += base64Line {
		if i > 0 {
			b.WriteString("\r\n")
		}
		b.WriteString(enc[i:min(i+base64Line, len(enc))])
	}
	return b.String()
}

// base64Value is the value of a base64 digit, -1 for any other byte.
func base64Value(c byte) int {
	switch {
	case c >= 'A' && c <= 'Z':
		return int(c - 'A')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 26
	case c >= '0' && c <= '9':
		return int(c-'0') + 52
	case c == '+':
		return 62
	case c == '/':
		return 63
	}
	return -1
}

// UnBase64 is unbase64(s), Java's MIME decoder: bytes that are not base64
// digits are skipped, decoding stops at the padding, and a malformed end
// is Java's IllegalArgumentException, which Spark raises as it is (no
// error condition).
func UnBase64(s string) ([]byte, *Error) {
	out := make([]byte, 0, len(s)*3/4)
	bitsAcc, shift := 0, 18
	i := 0
	for i < len(s) {
		c := s[i]
		i++
		if c == '=' {
			// a '=' where a unit cannot end, or a lone '=' after two
			// digits, is a wrong ending
			if shift == 6 && (i == len(s) || s[i] != '=') || shift == 18 {
				return nil, errJavaIllegalArgument("Input byte array has wrong 4-byte ending unit")
			}
			if shift == 6 {
				i++
			}
			break
		}
		v := base64Value(c)
		if v < 0 {
			continue
		}
		bitsAcc |= v << shift
		shift -= 6
		if shift < 0 {
			out = append(out, byte(bitsAcc>>16), byte(bitsAcc>>8), byte(bitsAcc))
			bitsAcc, shift = 0, 18
		}
	}
	switch shift {
	case 6:
		out = append(out, byte(bitsAcc>>16))
	case 0:
		out = append(out, byte(bitsAcc>>16), byte(bitsAcc>>8))
	case 12:
		return nil, errJavaIllegalArgument("Last unit does not have enough valid bits")
	}
	for ; i < len(s); i++ {
		if base64Value(s[i]) >= 0 {
			return nil, errJavaIllegalArgument("Input byte array has incorrect ending byte at " + strconv.Itoa(i+1))
		}
	}
	return out, nil
}

// isJavaWhitespace is Java's Character.isWhitespace.
func isJavaWhitespace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f:
		return true
	case 0xa0, 0x2007, 0x202f:
		return false
	}
	return unicode.Is(unicode.Zs, r) || r == 0x2028 || r == 0x2029
}

// validBase64 is what to_binary(s, 'base64') accepts (RFC 4648 with
// whitespace): base64 digits and whitespace, then at most two '=' and
// nothing after them; without padding the digits do not leave a single
// one over, with it they fill whole units.
func validBase64(s string) bool {
	digits, pad := 0, 0
	for _, r := range s {
		switch {
		case pad > 0 && r != '=':
			return false
		case r == '=':
			pad++
		case r < utf8.RuneSelf && base64Value(byte(r)) >= 0:
			digits++
		case !isJavaWhitespace(r):
			return false
		}
	}
	if pad == 0 {
		return digits%4 != 1
	}
	return pad <= 2 && (digits+pad)%4 == 0
}

// hexDigits are the upper-case hex digits Spark's hex writes.
const hexDigits = "0123456789ABCDEF"

// HexInt64 is hex(n) of an integer: Java's Long.toHexString, upper-case
// (two's complement for a negative n).
func HexInt64(n int64) string {
	return strings.ToUpper(strconv.FormatUint(uint64(n), 16))
}

// HexBytes is hex(x) of a STRING or BINARY: two upper-case hex digits per
// byte.
func HexBytes[T ~string | ~[]byte](x T) string {
	out := make([]byte, 2*len(x))
	for i := 0; i < len(x); i++ {
		out[2*i], out[2*i+1] = hexDigits[x[i]>>4], hexDigits[x[i]&15]
	}
	return string(out)
}

// hexValue is the value of a hex digit, -1 for any other byte.
func hexValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// Unhex is unhex(s): the bytes of the hex digits (an odd count has a
// leading zero digit); NULL when s holds anything else.
func Unhex(s string) ([]byte, bool) {
	out := make([]byte, (len(s)+1)/2)
	j := 0
	if len(s)%2 == 1 {
		v := hexValue(s[0])
		if v < 0 {
			return nil, false
		}
		out[0] = byte(v)
		j = 1
	}
	for i := len(s) % 2; i < len(s); i += 2 {
		hi, lo := hexValue(s[i]), hexValue(s[i+1])
		if hi < 0 || lo < 0 {
			return nil, false
		}
		out[j] = byte(hi<<4 | lo)
		j++
	}
	return out, true
}

// Bin is bin(n): Java's Long.toBinaryString (two's complement for a
// negative n).
func Bin(n int64) string { return strconv.FormatUint(uint64(n), 2) }

// ToBinaryHex is to_binary(s, 'hex'): unhex, with CONVERSION_INVALID_INPUT
// for text that is not hex.
func ToBinaryHex(s string) ([]byte, *Error) {
	b, ok := Unhex(s)
	if !ok {
		return nil, errConversionInvalidInput(s, "HEX")
	}
	return b, nil
}

// ToBinaryBase64 is to_binary(s, 'base64'): base64 as RFC 4648 has it,
// with whitespace before any padding (validBase64), decoded; anything else
// is CONVERSION_INVALID_INPUT.
func ToBinaryBase64(s string) ([]byte, *Error) {
	if !validBase64(s) {
		return nil, errConversionInvalidInput(s, "BASE64")
	}
	b, err := UnBase64(s)
	if err != nil {
		return nil, errConversionInvalidInput(s, "BASE64")
	}
	return b, nil
}

// StringBytes is to_binary(s, 'utf-8'): the string's bytes.
func StringBytes(s string) []byte { return []byte(s) }

// urlSafe reports the bytes Java's URLEncoder leaves as they are.
func urlSafe(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '.' || c == '-' || c == '*' || c == '_'
}

// URLEncode is url_encode(s), Java's URLEncoder with UTF-8: letters,
// digits and ".-*_" stay, a space is '+', every other byte is %XX.
func URLEncode(s string) string {
	s = javaString(s)
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case urlSafe(c):
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
		}
	}
	return b.String()
}

// javaString is s as a Java String sees it (Spark's UTF8String.toString):
// each maximal invalid subpart is U+FFFD (MakeValidUTF8).
func javaString(s string) string { return MakeValidUTF8(s) }

// escapeValue is the value of a %XY escape as Java's Integer.parseInt(XY,
// 16) reads it (a sign is allowed), or false when it is not a number.
func escapeValue(x, y byte) (int, bool) {
	if x == '+' || x == '-' {
		v := hexValue(y)
		if v < 0 {
			return 0, false
		}
		if x == '-' {
			v = -v
		}
		return v, true
	}
	hi, lo := hexValue(x), hexValue(y)
	return hi<<4 | lo, hi >= 0 && lo >= 0
}

// URLDecode is url_decode(s), Java's URLDecoder with UTF-8: '+' is a
// space, and each run of %XY escapes is bytes decoded as UTF-8 (a
// malformed byte is U+FFFD). A malformed escape is CANNOT_DECODE_URL.
func URLDecode(s string) (string, *Error) {
	if strings.IndexByte(s, '%') < 0 && strings.IndexByte(s, '+') < 0 {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	var run []byte
	for i := 0; i < len(s); {
		switch s[i] {
		case '+':
			b.WriteByte(' ')
			i++
		case '%':
			run = run[:0]
			for i+2 < len(s) && s[i] == '%' {
				v, ok := escapeValue(s[i+1], s[i+2])
				if !ok || v < 0 {
					return "", errCannotDecodeURL(s)
				}
				run = append(run, byte(v))
				i += 3
			}
			if i < len(s) && s[i] == '%' {
				return "", errCannotDecodeURL(s)
			}
			b.WriteString(javaString(string(run)))
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String(), nil
}

// Charsets are the charsets encode and decode accept (Spark 4, without
// spark.sql.legacy.javaCharsets), lower-case, as its error lists them.
var Charsets = []string{"iso-8859-1", "us-ascii", "utf-16", "utf-16be", "utf-16le", "utf-32", "utf-8"}

// Encode is encode(s, charset): the string's characters in the charset;
// a character the charset cannot hold is MALFORMED_CHARACTER_CODING, and a
// charset Spark does not allow is INVALID_PARAMETER_VALUE.CHARSET. "utf-16"
// writes a big-endian byte-order mark first (not for an empty string).
func Encode(s, charset string) ([]byte, *Error) {
	cs := strings.ToLower(charset)
	s = javaString(s)
	switch cs {
	case "utf-8":
		return []byte(s), nil
	case "us-ascii", "iso-8859-1":
		limit := rune(0x7f)
		if cs == "iso-8859-1" {
			limit = 0xff
		}
		out := make([]byte, 0, len(s))
		for _, r := range s {
			if r > limit {
				return nil, errMalformedCoding("encode", charset)
			}
			out = append(out, byte(r))
		}
		return out, nil
	case "utf-16", "utf-16be", "utf-16le":
		units := utf16.Encode([]rune(s))
		out := make([]byte, 0, 2*len(units)+2)
		if cs == "utf-16" && len(units) > 0 {
			out = append(out, 0xfe, 0xff)
		}
		for _, u := range units {
			if cs == "utf-16le" {
				out = append(out, byte(u), byte(u>>8))
			} else {
				out = append(out, byte(u>>8), byte(u))
			}
		}
		return out, nil
	case "utf-32":
		out := make([]byte, 0, 4*len(s))
		for _, r := range s {
			out = append(out, byte(r>>24), byte(r>>16), byte(r>>8), byte(r))
		}
		return out, nil
	}
	return nil, errInvalidCharset("encode", charset)
}

// Decode is decode(x, charset): the bytes (a string's UTF-8) read in the charset; bytes that
// are not valid in it are MALFORMED_CHARACTER_CODING, and a charset Spark
// does not allow is INVALID_PARAMETER_VALUE.CHARSET. "utf-16" and "utf-32"
// read a byte-order mark (and drop it); without one they are big-endian.
// A UTF-32 surrogate code point becomes '?', as Spark writes a lone
// surrogate of a Java string.
func Decode[T ~string | ~[]byte](x T, charset string) (string, *Error) {
	b := []byte(x)
	cs := strings.ToLower(charset)
	bad := func() (string, *Error) { return "", errMalformedCoding("decode", charset) }
	switch cs {
	case "utf-8":
		if !utf8.Valid(b) {
			return bad()
		}
		return string(b), nil
	case "us-ascii", "iso-8859-1":
		var sb strings.Builder
		for _, c := range b {
			if c >= 0x80 && cs == "us-ascii" {
				return bad()
			}
			sb.WriteRune(rune(c))
		}
		return sb.String(), nil
	case "utf-16", "utf-16be", "utf-16le":
		le := cs == "utf-16le"
		if cs == "utf-16" && len(b) >= 2 {
			switch {
			case b[0] == 0xfe && b[1] == 0xff:
				b = b[2:]
			case b[0] == 0xff && b[1] == 0xfe:
				b, le = b[2:], true
			}
		}
		if len(b)%2 != 0 {
			return bad()
		}
		units := make([]uint16, len(b)/2)
		for i := range units {
			if le {
				units[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
			} else {
				units[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
			}
		}
		var sb strings.Builder
		for i := 0; i < len(units); i++ {
			u := rune(units[i])
			switch {
			case utf16.IsSurrogate(u) && u < 0xdc00 && i+1 < len(units) && units[i+1] >= 0xdc00 && units[i+1] < 0xe000:
				sb.WriteRune(utf16.DecodeRune(u, rune(units[i+1])))
				i++
			case utf16.IsSurrogate(u):
				return bad()
			default:
				sb.WriteRune(u)
			}
		}
		return sb.String(), nil
	case "utf-32":
		le := false
		if len(b) >= 4 {
			switch {
			case b[0] == 0 && b[1] == 0 && b[2] == 0xfe && b[3] == 0xff:
				b = b[4:]
			case b[0] == 0xff && b[1] == 0xfe && b[2] == 0 && b[3] == 0:
				b, le = b[4:], true
			}
		}
		if len(b)%4 != 0 {
			return bad()
		}
		var sb strings.Builder
		for i := 0; i < len(b); i += 4 {
			var r uint32
			if le {
				r = uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16 | uint32(b[i+3])<<24
			} else {
				r = uint32(b[i])<<24 | uint32(b[i+1])<<16 | uint32(b[i+2])<<8 | uint32(b[i+3])
			}
			switch {
			case r > unicode.MaxRune:
				return bad()
			case r >= 0xd800 && r < 0xe000:
				sb.WriteByte('?')
			default:
				sb.WriteRune(rune(r))
			}
		}
		return sb.String(), nil
	}
	return "", errInvalidCharset("decode", charset)
}

// errJavaIllegalArgument is a Java IllegalArgumentException that Spark
// raises without an error condition (unbase64's decoder).
//
//go:noinline
func errJavaIllegalArgument(msg string) *Error {
	return &Error{Msg: "java.lang.IllegalArgumentException: " + msg}
}

//go:noinline
func errConversionInvalidInput(s, format string) *Error {
	return &Error{Class: ClassConversionInvalidInput,
		Msg: "The value " + sqlString(s) + " ('" + format + "') cannot be converted to \"BINARY\" because it is malformed. " +
			"Correct the value as per the syntax, or change its format. Use `try_to_binary` to tolerate malformed input and return NULL instead."}
}

//go:noinline
func errCannotDecodeURL(s string) *Error {
	return &Error{Class: ClassCannotDecodeURL,
		Msg: "The provided URL cannot be decoded: " + s + ". Please ensure that the URL is properly formatted and try again."}
}

//go:noinline
func errMalformedCoding(fn, charset string) *Error {
	return &Error{Class: ClassMalformedCharacterCoding,
		Msg: "Invalid value found when performing `" + fn + "` with " + charset}
}

//go:noinline
func errInvalidCharset(fn, charset string) *Error {
	return &Error{Class: ClassInvalidParameterValue + ".CHARSET",
		Msg: "The value of parameter(s) `charset` in `" + fn + "` is invalid: expects one of the " +
			strings.Join(Charsets, ", ") + ", but got " + charset + "."}
}

// utf8Valid is the length of the valid UTF-8 sequence at the start of s
// (0 when there is none), and the length of its longest valid prefix,
// the "maximal subpart" one U+FFFD replaces (at least 1).
func utf8Valid[T ~string | ~[]byte](s T) (full, prefix int) {
	c := s[0]
	if c < utf8.RuneSelf {
		return 1, 1
	}
	var n int
	lo, hi := byte(0x80), byte(0xbf) // the second byte's range
	switch {
	case c >= 0xc2 && c <= 0xdf:
		n = 2
	case c == 0xe0:
		n, lo = 3, 0xa0
	case c == 0xed:
		n, hi = 3, 0x9f
	case c >= 0xe1 && c <= 0xef:
		n = 3
	case c == 0xf0:
		n, lo = 4, 0x90
	case c == 0xf4:
		n, hi = 4, 0x8f
	case c >= 0xf1 && c <= 0xf3:
		n = 4
	default:
		return 0, 1
	}
	i := 1
	for ; i < n && i < len(s); i++ {
		b := s[i]
		if i == 1 && (b < lo || b > hi) || i > 1 && (b < 0x80 || b > 0xbf) {
			return 0, i
		}
	}
	if i < n {
		return 0, i
	}
	return n, n
}

// MakeValidUTF8 is make_valid_utf8(s): s with each maximal invalid
// subpart (Unicode's recommended practice, which Spark and Java's decoder
// follow) replaced by U+FFFD. Valid UTF-8 is returned as it is.
func MakeValidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		full, prefix := utf8Valid(s[i:])
		if full > 0 {
			b.WriteString(s[i : i+full])
			i += full
			continue
		}
		b.WriteRune(utf8.RuneError)
		i += prefix
	}
	return b.String()
}

// IsValidUTF8 is is_valid_utf8(s).
func IsValidUTF8[T ~string | ~[]byte](s T) bool { return utf8.Valid([]byte(s)) }

// ValidateUTF8 is validate_utf8(s): s, or INVALID_UTF8_STRING when it is
// not valid UTF-8 (try_validate_utf8 is NULL then).
func ValidateUTF8(s string) (string, *Error) {
	if utf8.ValidString(s) {
		return s, nil
	}
	return "", errInvalidUTF8(s)
}

//go:noinline
func errInvalidUTF8(s string) *Error {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteString(`\x`)
		b.WriteByte(hexDigits[s[i]>>4])
		b.WriteByte(hexDigits[s[i]&15])
	}
	return &Error{Class: ClassInvalidUTF8String, Msg: "Invalid UTF8 byte sequence found in string: " + b.String() + "."}
}
