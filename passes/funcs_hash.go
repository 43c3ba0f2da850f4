package passes

import (
	"strings"

	"github.com/nordisk/thund/ir"
)

// hashFunctions are hashing and encoding (famHash) whose answers the Spark lane checks
// (testdata/spark/fn_*): digests, Spark's row hashes, base64, hex, url and
// charset coding, and the bit functions. Types are Spark 4's (ANSI): where
// Spark would cast an argument implicitly and this catalogue does not say
// so, the call is a positioned type error at resolve.
var hashFunctions = []funcSig{
	{name: "md5", minArgs: 1, maxArgs: 1, args: []argRule{argStringOrBinary}, ret: ir.StringT, result: resFixed, family: famHash,
		doc: "the MD5 digest of the bytes (a string's UTF-8), as 32 lower-case hex digits"},
	{name: "sha1", aliases: []string{"sha"}, minArgs: 1, maxArgs: 1, args: []argRule{argStringOrBinary}, ret: ir.StringT, result: resFixed, family: famHash,
		doc: "the SHA-1 digest of the bytes, as 40 lower-case hex digits"},
	{name: "sha2", minArgs: 2, maxArgs: 2, args: []argRule{argStringOrBinary, argInteger}, ret: ir.StringT, result: resFixed, nulls: nullAlways, family: famHash,
		doc: "the SHA-2 digest of the bytes with the given bit length (224, 256, 384, 512; 0 is 256), as lower-case hex digits; NULL for any other length"},
	{name: "crc32", minArgs: 1, maxArgs: 1, args: []argRule{argStringOrBinary}, ret: ir.Int64, result: resFixed, family: famHash,
		doc: "the CRC-32 checksum of the bytes"},
	{name: "hash", minArgs: 1, maxArgs: -1, args: []argRule{argAny}, ret: ir.Int32, result: resFixed, nulls: nullNever, family: famHash,
		doc: "Spark's Murmur3 (x86, 32 bits) of the arguments, seed 42, each value by its own representation; a NULL is skipped"},
	{name: "xxhash64", minArgs: 1, maxArgs: -1, args: []argRule{argAny}, ret: ir.Int64, result: resFixed, nulls: nullNever, family: famHash,
		doc: "the 64-bit xxHash of the arguments, seed 42, each value by its own representation; a NULL is skipped"},
	{name: "base64", minArgs: 1, maxArgs: 1, args: []argRule{argStringOrBinary}, ret: ir.StringT, result: resFixed, family: famHash,
		doc: "the bytes as padded base64, in lines of 76 characters separated by CRLF (Java's MIME encoder)"},
	{name: "unbase64", minArgs: 1, maxArgs: 1, args: []argRule{argString}, ret: ir.BinaryT, result: resFixed, family: famHash,
		doc: "the bytes of base64 text (Java's MIME decoder: other characters are skipped; a malformed end is an IllegalArgumentException)"},
	{name: "hex", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resCustom, typeFn: hexType, resultDoc: "STRING", family: famHash,
		doc: "a number (cast to BIGINT) in upper-case hex, two's complement when negative; a string's or binary's bytes as two hex digits each"},
	{name: "unhex", minArgs: 1, maxArgs: 1, args: []argRule{argString}, ret: ir.BinaryT, result: resFixed, nulls: nullAlways, family: famHash,
		doc: "the bytes of hex digits (an odd count has a leading 0); NULL when the text is not hex"},
	{name: "bin", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resCustom, typeFn: binType, resultDoc: "STRING", family: famHash,
		doc: "the argument (cast to BIGINT) in binary digits, two's complement when negative"},
	{name: "conv", minArgs: 3, maxArgs: 3, args: []argRule{argAny, argInteger}, result: resCustom, typeFn: convType, resultDoc: "STRING", nulls: nullAlways, family: famHash,
		doc: "the number (a string, or an integer as its decimal text) in base from (digits up to the first other character) written in base to (negative: signed), through 64 bits; ANSI: overflow is an error"},
	{name: "to_binary", minArgs: 1, maxArgs: 2, args: []argRule{argString}, result: resCustom, typeFn: toBinaryType, resultDoc: "BINARY", family: famHash,
		doc: "the bytes of the text in the constant format 'hex' (the default), 'utf-8' or 'base64'; malformed text is CONVERSION_INVALID_INPUT"},
	{name: "try_to_binary", minArgs: 1, maxArgs: 2, args: []argRule{argString}, result: resCustom, typeFn: toBinaryType, resultDoc: "BINARY", nulls: nullAlways, family: famHash,
		doc: "to_binary, but NULL for malformed text or an unknown format"},
	{name: "url_encode", minArgs: 1, maxArgs: 1, args: []argRule{argString}, ret: ir.StringT, result: resFixed, family: famHash,
		doc: "the string in application/x-www-form-urlencoded form, UTF-8 (Java's URLEncoder)"},
	{name: "url_decode", minArgs: 1, maxArgs: 1, args: []argRule{argString}, ret: ir.StringT, result: resFixed, family: famHash,
		doc: "decodes application/x-www-form-urlencoded text, UTF-8 (Java's URLDecoder); a malformed escape is CANNOT_DECODE_URL"},
	{name: "try_url_decode", minArgs: 1, maxArgs: 1, args: []argRule{argString}, ret: ir.StringT, result: resFixed, nulls: nullAlways, family: famHash,
		doc: "url_decode, but NULL for a malformed escape"},
	{name: "encode", minArgs: 2, maxArgs: 2, args: []argRule{argString}, ret: ir.BinaryT, result: resFixed, family: famHash,
		doc: "the string in a charset (us-ascii, iso-8859-1, utf-8, utf-16, utf-16be, utf-16le, utf-32); a character it cannot hold is MALFORMED_CHARACTER_CODING"},
	{name: "decode", minArgs: 2, maxArgs: -1, args: []argRule{argAny}, result: resCustom, typeFn: decodeType, resultDoc: "STRING; with more arguments, the results' common type",
		nulls: nullAlways, native: decodeNative, family: famHash,
		doc: "the bytes read in a charset (as encode; malformed bytes are MALFORMED_CHARACTER_CODING); decode(x, search, result, ..., default) is the result of the first search that x equals null-safely (Spark targets only, yet)"},
	{name: "aes_encrypt", minArgs: 2, maxArgs: 6, args: []argRule{argStringOrBinary, argStringOrBinary, argString, argString, argStringOrBinary, argStringOrBinary},
		ret: ir.BinaryT, result: resFixed, family: famHash,
		doc: "AES of the bytes with a 16, 24 or 32-byte key, in mode GCM (the default), CBC or ECB, with an IV (GCM: 12 bytes, CBC: 16; random when not given, so not deterministic) and GCM's AAD; GCM and CBC write the IV first"},
	{name: "aes_decrypt", minArgs: 2, maxArgs: 5, args: []argRule{argStringOrBinary, argStringOrBinary, argString, argString, argStringOrBinary},
		ret: ir.BinaryT, result: resFixed, family: famHash,
		doc: "the bytes aes_encrypt encrypted with the key, mode and AAD; a failure is INVALID_PARAMETER_VALUE.AES_CRYPTO_ERROR"},
	{name: "try_aes_decrypt", minArgs: 2, maxArgs: 5, args: []argRule{argStringOrBinary, argStringOrBinary, argString, argString, argStringOrBinary},
		ret: ir.BinaryT, result: resFixed, nulls: nullAlways, family: famHash,
		doc: "aes_decrypt, but NULL where it fails"},
	{name: "is_valid_utf8", minArgs: 1, maxArgs: 1, args: []argRule{argStringOrBinary}, ret: ir.Bool, result: resFixed, family: famHash,
		doc: "whether the string's bytes are valid UTF-8"},
	{name: "make_valid_utf8", minArgs: 1, maxArgs: 1, args: []argRule{argStringOrBinary}, ret: ir.StringT, result: resFixed, family: famHash,
		doc: "the string with each maximal invalid UTF-8 subpart replaced by U+FFFD"},
	{name: "validate_utf8", minArgs: 1, maxArgs: 1, args: []argRule{argStringOrBinary}, ret: ir.StringT, result: resFixed, family: famHash,
		doc: "the string, when it is valid UTF-8; otherwise INVALID_UTF8_STRING"},
	{name: "try_validate_utf8", minArgs: 1, maxArgs: 1, args: []argRule{argStringOrBinary}, ret: ir.StringT, result: resFixed, nulls: nullAlways, family: famHash,
		doc: "the string, when it is valid UTF-8; otherwise NULL"},
	{name: "bitmap_bucket_number", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resCustom, typeFn: bitmapPositionType, resultDoc: "BIGINT", family: famHash,
		doc: "the 1-based number of the 32768-bit bitmap that holds a positive value (value / 32768 for the others)"},
	{name: "bitmap_bit_position", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resCustom, typeFn: bitmapPositionType, resultDoc: "BIGINT", family: famHash,
		doc: "the 0-based bit of a value in its 32768-bit bitmap ((value - 1) % 32768 when positive, -value % 32768 otherwise)"},
	{name: "bitmap_count", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resCustom, typeFn: bitmapCountType, resultDoc: "BIGINT", family: famHash,
		doc: "the number of bits set in a bitmap (a binary)"},
	{name: "bit_count", minArgs: 1, maxArgs: 1, args: []argRule{argAny}, result: resCustom, typeFn: bitCountType, resultDoc: "INT", family: famHash,
		doc: "the number of bits set in an integer (as a two's complement BIGINT) or a boolean"},
	{name: "bit_get", aliases: []string{"getbit"}, minArgs: 2, maxArgs: 2, args: []argRule{argInteger}, result: resCustom, typeFn: bitGetType, resultDoc: "TINYINT", family: famHash,
		doc: "bit pos (0 is the lowest) of an integer; a pos outside the type's width is INVALID_PARAMETER_VALUE.BIT_POSITION_RANGE"},
	{name: "shiftleft", minArgs: 2, maxArgs: 2, args: []argRule{argInteger}, result: resCustom, typeFn: shiftType, resultDoc: "INT, or BIGINT for a BIGINT", family: famHash,
		doc: "a << n (Java's: n modulo the width)"},
	{name: "shiftright", minArgs: 2, maxArgs: 2, args: []argRule{argInteger}, result: resCustom, typeFn: shiftType, resultDoc: "INT, or BIGINT for a BIGINT", family: famHash,
		doc: "a >> n, keeping the sign (Java's: n modulo the width)"},
	{name: "shiftrightunsigned", minArgs: 2, maxArgs: 2, args: []argRule{argInteger}, result: resCustom, typeFn: shiftType, resultDoc: "INT, or BIGINT for a BIGINT", family: famHash,
		doc: "a >>> n, shifting in zeros (Java's: n modulo the width)"},
}

// hashArgError reports that argument i of a call is not what the function
// takes (want), and fails the call's typing.
func hashArgError(r *resolver, e *ir.Call, i int, want string, t ir.Type) (ir.Type, bool) {
	r.errorf(e.Args[i].Position(), ir.CodeTypeMismatch, "%s needs %s as argument %d, got %s", e.Name, want, i+1, t)
	return ir.Type{}, false
}

// sparkIntegral is an integer type Spark has (an unsigned 64-bit integer
// is Spark's DECIMAL(20,0), which the bit functions do not take).
func sparkIntegral(t ir.Type) bool { return t.IsInteger() && t.Kind != ir.TUint64 }

// hexType: hex takes a number (Spark casts it to BIGINT), a string or a
// binary.
func hexType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	if t := types[0]; !(isUnknown(t) || t.IsNumeric() || t.Kind == ir.TString || t.Kind == ir.TBinary) {
		return hashArgError(r, e, 0, "a number, a string or a binary", t)
	}
	return ir.StringT, true
}

// binType: bin takes a number or a string, which Spark casts to BIGINT.
func binType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	if t := types[0]; !(isUnknown(t) || t.IsNumeric() || t.Kind == ir.TString) {
		return hashArgError(r, e, 0, "a number or a string", t)
	}
	return ir.StringT, true
}

// convType: conv reads a string, or an integer Spark casts to its text.
func convType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	if t := types[0]; !(isUnknown(t) || t.Kind == ir.TString || t.IsInteger()) {
		return hashArgError(r, e, 0, "a string or an integer", t)
	}
	return ir.StringT, true
}

// bitmapPositionType: the bitmap positions take a number or a string,
// which Spark casts to BIGINT.
func bitmapPositionType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	if _, ok := binType(r, e, types); !ok {
		return ir.Type{}, false
	}
	return ir.Int64, true
}

// bitmapCountType: bitmap_count takes a binary (not a string).
func bitmapCountType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	if t := types[0]; !(isUnknown(t) || t.Kind == ir.TBinary) {
		return hashArgError(r, e, 0, "a binary", t)
	}
	return ir.Int64, true
}

// bitCountType: bit_count takes an integer or a boolean.
func bitCountType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	if t := types[0]; !(isUnknown(t) || sparkIntegral(t) || t.Kind == ir.TBool) {
		return hashArgError(r, e, 0, "an integer or a bool", t)
	}
	return ir.Int32, true
}

// bitGetType: bit_get takes an integer Spark has and a position.
func bitGetType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	if t := types[0]; !(isUnknown(t) || sparkIntegral(t)) {
		return hashArgError(r, e, 0, "an integer of at most 64 signed bits", t)
	}
	return ir.Int8, true
}

// shiftType: the shifts take an INT (a narrower integer widens to it) or a
// BIGINT, and give that type.
func shiftType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	if t := types[0]; !isUnknown(t) && !sparkIntegral(t) {
		return hashArgError(r, e, 0, "an integer of at most 64 signed bits", t)
	}
	return shiftResult(types[0]), true
}

// shiftResult is the type of a shift of a value of type t (an integer
// Spark has, or NULL's): BIGINT for a BIGINT (a uint32 is one), INT
// otherwise.
func shiftResult(t ir.Type) ir.Type {
	if t.Kind == ir.TInt64 || t.Kind == ir.TUint32 {
		return ir.Int64
	}
	return ir.Int32
}

// binaryFormats are the formats to_binary takes (case-insensitive).
var binaryFormats = []string{"hex", "utf-8", "utf8", "base64"}

// BinaryFormat is the format of a to_binary or try_to_binary call,
// lower-case ("hex" without one); ok is false for a format to_binary does
// not take (try_to_binary is NULL then).
func BinaryFormat(e *ir.Call) (string, bool) {
	if len(e.Args) < 2 {
		return "hex", true
	}
	l, _ := e.Args[1].(*ir.Literal)
	f := strings.ToLower(l.Text)
	return f, containsFold(binaryFormats, f)
}

// toBinaryType: the format of to_binary and try_to_binary is a string
// constant (Spark's NON_FOLDABLE_INPUT otherwise), one of binaryFormats
// for to_binary (try_to_binary is NULL for another).
func toBinaryType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	if len(e.Args) < 2 {
		return ir.BinaryT, true
	}
	l, ok := e.Args[1].(*ir.Literal)
	if !ok || l.Kind != ir.LitString {
		r.errorf(e.Args[1].Position(), ir.CodeTypeMismatch, "%s needs a constant format ('hex', 'utf-8', 'utf8' or 'base64') as argument 2, got %s", e.Name, exprString(e.Args[1]))
		return ir.Type{}, false
	}
	if _, ok := BinaryFormat(e); !ok && strings.EqualFold(e.Name, "to_binary") {
		r.errorf(l.Pos, ir.CodeTypeMismatch, "to_binary's format must be 'hex', 'utf-8', 'utf8' or 'base64', got '%s'", l.Text)
		return ir.Type{}, false
	}
	return ir.BinaryT, true
}

// decodeType: decode(bytes, charset) reads a binary (or a string's bytes)
// in a charset; with more arguments, decode(x, search, result, ...,
// default) compares x with each search and gives the results' common type.
func decodeType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	if len(types) == 2 {
		if t := types[0]; !(isUnknown(t) || t.Kind == ir.TBinary || t.Kind == ir.TString) {
			return hashArgError(r, e, 0, "a binary or a string", t)
		}
		if t := types[1]; !(isUnknown(t) || t.Kind == ir.TString) {
			return hashArgError(r, e, 1, "a string (the charset)", t)
		}
		return ir.StringT, true
	}
	var res ir.Type
	for i := 1; i < len(types); i++ {
		isResult := i%2 == 0 || i == len(types)-1
		if !isResult {
			if !r.compare(e.Args[i].Position(), "=", types[0], types[i], e.Args[0], e.Args[i]) {
				return ir.Type{}, false
			}
			continue
		}
		ct, ok := commonType(res, types[i])
		if !ok {
			r.errorf(e.Args[i].Position(), ir.CodeTypeMismatch, "decode's results have no common type: %s and %s (%s): cast one of them", res, types[i], exprString(e.Args[i]))
			return ir.Type{}, false
		}
		res = ct
	}
	return res, true
}

// decodeNative: the native backend runs the two-argument decode only.
func decodeNative(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	if len(e.Args) > 2 {
		return e.Pos, "decode(x, search, result, ...) is not supported yet: write CASE WHEN x <=> search THEN result ... END"
	}
	return ir.Pos{}, ""
}
