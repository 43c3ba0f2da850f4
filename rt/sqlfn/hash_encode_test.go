package sqlfn

import (
	"strings"
	"testing"
)

// Expected values are Spark 4.1.4's answers to the same calls (NULL and
// errors included: the error class is the one Spark raised).

func TestBase64Spark(t *testing.T) {
	if got := Base64("héllo"); got != "aMOpbGxv" {
		t.Errorf("base64('héllo') = %q", got)
	}
	if got := Base64([]byte{0, 0xff}); got != "AP8=" {
		t.Errorf("base64(X'00FF') = %q", got)
	}
	want := strings.Repeat("eHh4", 19) + "\r\n" + strings.Repeat("eHh4", 14) + "eA=="
	if got := Base64(strings.Repeat("x", 100)); got != want {
		t.Errorf("base64(repeat('x', 100)) = %q, want %q", got, want)
	}
	for _, c := range []struct{ in, want, err string }{
		{"aOk=", "h\xe9", ""},
		{"aGVsbG8", "hello", ""},
		{"a GVs bG8=", "hello", ""},
		{"@@@", "", ""},
		{"", "", ""},
		{"aGVsbG8===", "hello", ""},
		{"YWJ==", "ab", ""},
		{"YQ", "a", ""},
		{"YQ==\r\n", "a", ""},
		{"Y*Q", "a", ""},
		{"aGVsbG8=x", "", "Input byte array has incorrect ending byte at 9"},
		{"YQ=", "", "Input byte array has wrong 4-byte ending unit"},
		{"Y", "", "Last unit does not have enough valid bits"},
		{"YQ==YQ==", "", "Input byte array has incorrect ending byte at 5"},
		{"YWJj=", "", "Input byte array has wrong 4-byte ending unit"},
		{"=", "", "Input byte array has wrong 4-byte ending unit"},
		{"YQ= =", "", "Input byte array has wrong 4-byte ending unit"},
	} {
		got, err := UnBase64(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.HasSuffix(err.Error(), c.err)):
			t.Errorf("unbase64(%q): got %q, %v; want error %q", c.in, got, err, c.err)
		case c.err == "" && (err != nil || string(got) != c.want):
			t.Errorf("unbase64(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		want string // "NULL": try_to_binary is NULL (to_binary fails)
	}{
		{"YWJj=", "NULL"}, {"YWI=", "ab"}, {"YQ===", "NULL"}, {"Y=", "NULL"}, {"=", "NULL"}, {"    ", ""},
		{"YW JjZA ==", "abcd"}, {"YWJjZ", "NULL"}, {"YWJjZA", "abcd"}, {"YQ==YQ==", "NULL"}, {"Y=Q=", "NULL"},
		{"YQ= =", "NULL"}, {"YWJ==", "NULL"}, {"==", "NULL"}, {"YW Jj", "abc"}, {"YWJjZ A==", "abcd"},
		{"YW\tJj", "abc"}, {"YW\nJj", "abc"}, {"YWJj\n", "abc"}, {"YQ\n==", "a"}, {"YW\x0bJj", "abc"},
		{"YW\u00a0Jj", "NULL"}, {"\tYWJj", "abc"}, {"YQ==\t", "NULL"}, {"Y\x00Q", "NULL"}, {"YW\x1cJj", "abc"},
		{"YW\u2028Jj", "abc"}, {"YW\u3000Jj", "abc"}, {"YW\u0085Jj", "NULL"}, {"YW\u2007Jj", "NULL"},
		{"YQ", "a"}, {"YR==", "a"}, {"a", "NULL"}, {"a!b=", "NULL"}, {"YQ== ", "NULL"},
	} {
		got, err := ToBinaryBase64(c.in)
		if s := string(got); err != nil && err.Class == ClassConversionInvalidInput {
			s = "NULL"
		} else if err != nil {
			t.Errorf("to_binary(%q, 'base64'): %v", c.in, err)
		} else if s != c.want {
			t.Errorf("to_binary(%q, 'base64') = %q, want %q", c.in, s, c.want)
		}
		if (err != nil) != (c.want == "NULL") {
			t.Errorf("to_binary(%q, 'base64'): error %v, want %q", c.in, err, c.want)
		}
	}
}

func TestHexSpark(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{HexInt64(17), "11"}, {HexInt64(-1), "FFFFFFFFFFFFFFFF"}, {HexInt64(0), "0"},
		{HexBytes("héllo"), "68C3A96C6C6F"}, {HexBytes([]byte{0, 0xff}), "00FF"},
		{Bin(5), "101"}, {Bin(0), "0"}, {Bin(-1), strings.Repeat("1", 64)},
	} {
		if c.got != c.want {
			t.Errorf("got %q, Spark gives %q", c.got, c.want)
		}
	}
	for _, c := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"4a4B", "JK", true}, {"abc", "\n\xbc", true}, {"zz", "", false}, {"", "", true}, {" 4a", "", false},
		{"4g", "", false}, {"a", "\n", true}, {"é", "", false}, {"0x4a", "", false},
	} {
		got, ok := Unhex(c.in)
		if ok != c.ok || string(got) != c.want {
			t.Errorf("unhex(%q) = %q, %v; Spark gives %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestURLSpark(t *testing.T) {
	if got := URLEncode("a b&c=d/é~*-_.!()'+%😀"); got != "a+b%26c%3Dd%2F%C3%A9%7E*-_.%21%28%29%27%2B%25%F0%9F%98%80" {
		t.Errorf("url_encode = %q", got)
	}
	for _, c := range []struct{ in, want string }{
		{"a+b%26c%C3%A9", "a b&cé"}, {"%41%4a", "AJ"}, {"%e9x", "\uFFFDx"}, {"100%25", "100%"},
		{"%2B%2b%C3%A9%e9x", "++é\uFFFDx"}, {"%+1", "\x01"}, {"%C3", "\uFFFD"}, {"%FF%FE", "\uFFFD\uFFFD"},
		{"%zz", "error"}, {"%", "error"}, {"a%2", "error"}, {"%-1", "error"}, {"%C3%A9%", "error"}, {"%%41", "error"},
	} {
		got, err := URLDecode(c.in)
		if err != nil {
			if err.Class != ClassCannotDecodeURL {
				t.Errorf("url_decode(%q): %v", c.in, err)
			}
			got = "error"
		}
		if got != c.want {
			t.Errorf("url_decode(%q) = %q, Spark gives %q", c.in, got, c.want)
		}
	}
}

func TestCharsetsSpark(t *testing.T) {
	for _, c := range []struct{ s, cs, want string }{
		{"héllo", "utf-8", "68C3A96C6C6F"}, {"héllo", "ISO-8859-1", "68E96C6C6F"},
		{"héllo", "UTF-16", "FEFF006800E9006C006C006F"}, {"héllo", "UTF-16BE", "006800E9006C006C006F"},
		{"héllo", "utf-16le", "6800E9006C006C006F00"}, {"h", "UTF-32", "00000068"},
		{"😀", "UTF-16", "FEFFD83DDE00"}, {"😀", "UTF-32", "0001F600"}, {"", "UTF-16", ""},
		{"a€", "UTF-16LE", "6100AC20"},
		{"héllo", "US-ASCII", "MALFORMED_CHARACTER_CODING"}, {"€", "ISO-8859-1", "MALFORMED_CHARACTER_CODING"},
		{"a", "latin1", "INVALID_PARAMETER_VALUE.CHARSET"}, {"a", "UTF-32BE", "INVALID_PARAMETER_VALUE.CHARSET"},
		{"a", " utf-8", "INVALID_PARAMETER_VALUE.CHARSET"}, {"a", "Utf8", "INVALID_PARAMETER_VALUE.CHARSET"},
	} {
		b, err := Encode(c.s, c.cs)
		got := HexBytes(b)
		if err != nil {
			got = err.Class
		}
		if got != c.want {
			t.Errorf("encode(%q, %q) = %s, Spark gives %s", c.s, c.cs, got, c.want)
		}
	}
	for _, c := range []struct{ hex, cs, want string }{
		{"68C3A96C6C6F", "utf-8", "héllo"}, {"68E9", "ISO-8859-1", "hé"}, {"68", "US-ASCII", "h"},
		{"FEFF0068", "UTF-16", "h"}, {"0068", "UTF-16", "h"}, {"FFFE6800", "UTF-16", "h"}, {"6800", "UTF-16LE", "h"},
		{"FEFF0068", "UTF-16BE", "\ufeffh"}, {"", "UTF-16", ""}, {"00000068", "UTF-32", "h"},
		{"0000FEFF00000068", "UTF-32", "h"}, {"FFFE000068000000", "UTF-32", "h"}, {"0000D800", "UTF-32", "?"},
		{"FFFE", "UTF-16", ""}, {"FEFF", "UTF-16", ""}, {"FFFE", "UTF-16LE", "\ufeff"},
		{"D83DDE00", "UTF-16", "😀"}, {"3DD800DE", "UTF-16LE", "😀"},
		{"FF", "utf-8", "MALFORMED_CHARACTER_CODING"}, {"C3", "utf-8", "MALFORMED_CHARACTER_CODING"},
		{"C0AF", "utf-8", "MALFORMED_CHARACTER_CODING"}, {"E9", "US-ASCII", "MALFORMED_CHARACTER_CODING"},
		{"00", "UTF-16", "MALFORMED_CHARACTER_CODING"}, {"D800", "UTF-16BE", "MALFORMED_CHARACTER_CODING"},
		{"DE00", "UTF-16", "MALFORMED_CHARACTER_CODING"}, {"00110000", "UTF-32", "MALFORMED_CHARACTER_CODING"},
		{"000000", "UTF-32", "MALFORMED_CHARACTER_CODING"},
	} {
		b, _ := Unhex(c.hex)
		got, err := Decode(b, c.cs)
		if err != nil {
			got = err.Class
		}
		if got != c.want {
			t.Errorf("decode(X'%s', %q) = %q, Spark gives %q", c.hex, c.cs, got, c.want)
		}
	}
}

func TestBitsSpark(t *testing.T) {
	for _, c := range []struct {
		got, want int64
	}{
		{int64(BitCount(7)), 3}, {int64(BitCount(-1)), 64},
		{int64(ShiftLeftInt32(1, 31)), -2147483648}, {int64(ShiftLeftInt32(1, 32)), 1}, {int64(ShiftLeftInt32(1, 33)), 2},
		{ShiftLeftInt64(1, 63), -9223372036854775808}, {ShiftLeftInt64(1, 64), 1}, {int64(ShiftLeftInt32(1, -1)), -2147483648},
		{int64(ShiftRightInt32(-8, 1)), -4}, {ShiftRightInt64(-8, 70), -1},
		{int64(ShiftRightUnsignedInt32(-8, 1)), 2147483644}, {ShiftRightUnsignedInt64(-8, 1), 9223372036854775804},
	} {
		if c.got != c.want {
			t.Errorf("got %d, Spark gives %d", c.got, c.want)
		}
	}
	if v, err := BitGet(-1, 63, 64, "bit_get"); v != 1 || err != nil {
		t.Errorf("bit_get(-1L, 63) = %d, %v", v, err)
	}
	if _, err := BitGet(5, 32, 32, "getbit"); err == nil || err.Msg != "The value of parameter(s) `pos` in `getbit` is invalid: expects an integer value in [0, 32), but got 32." {
		t.Errorf("getbit(5, 32): %v", err)
	}
	for _, c := range []struct {
		s        string
		from, to int32
		want     string
	}{
		{"100", 2, 10, "4"}, {"-10", 16, -10, "-16"}, {"ff", 16, 10, "255"}, {"FF", 16, 2, "11111111"}, {"z", 36, 10, "35"},
		{"12abc", 10, 16, "C"}, {"abc", 10, 16, "0"}, {"", 10, 16, "NULL"}, {" 12", 10, 16, "C"}, {"-1", 10, 16, "FFFFFFFFFFFFFFFF"},
		{"-1", 10, -16, "-1"}, {"1", 1, 10, "NULL"}, {"1", 37, 10, "NULL"}, {"1", 10, -37, "NULL"},
		{"-9223372036854775809", 10, -10, "-9223372036854775807"}, {"ffffffffffffffff", 16, -10, "-1"},
		{"8000000000000000", 16, -10, "-9223372036854775808"}, {"-", 10, 10, "0"}, {"+5", 10, 10, "0"}, {"1.5", 10, 10, "1"},
		{strings.Repeat("1", 64), 2, 10, "18446744073709551615"}, {"18446744073709551615", 10, 10, "18446744073709551615"},
		{"\t12", 10, 10, "0"}, {"12 ", 10, 10, "12"}, {"   ", 10, 10, "NULL"}, {"１２", 10, 10, "0"}, {"-", 10, -10, "-0"},
		{"--1", 10, 10, "0"}, {"0", 10, -10, "0"}, {"-0", 10, -10, "-0"}, {"-0", 10, 10, "0"}, {"Ab", 16, 36, "4R"},
		{"-ff", 16, -2, "-11111111"}, {"-8000000000000000", 16, 10, "18446744073709551615"},
		{"-8000000000000000", 16, -10, "-9223372036854775808"}, {"-8000000000000001", 16, -10, "-9223372036854775807"},
		{"18446744073709551616", 10, 16, "ARITHMETIC_OVERFLOW"}, {strings.Repeat("1", 65), 2, 10, "ARITHMETIC_OVERFLOW"},
		{"184467440737095516150", 10, 10, "ARITHMETIC_OVERFLOW"}, {"-18446744073709551616", 10, 10, "ARITHMETIC_OVERFLOW"},
	} {
		got, ok, err := Conv(c.s, c.from, c.to)
		switch {
		case err != nil:
			got = err.Class
		case !ok:
			got = "NULL"
		}
		if got != c.want {
			t.Errorf("conv(%q, %d, %d) = %s, Spark gives %s", c.s, c.from, c.to, got, c.want)
		}
	}
}

func TestAESSpark(t *testing.T) {
	const key = "0000111122223333"
	hexOf := func(b []byte, err *Error) string {
		if err != nil {
			return err.Class + ": " + err.Msg
		}
		return HexBytes(b)
	}
	zero12, zero16 := make([]byte, 12), make([]byte, 16)
	for _, c := range []struct{ name, got, want string }{
		{"ECB", hexOf(AESEncrypt("Spark", key, "ECB", "DEFAULT", "", "")), "348FF37EBDE05B7880BA339068FBDA5E"},
		{"ecb pkcs, 24-byte key", hexOf(AESEncrypt("Spark", "abcdefghijklmnop12345678", "ecb", "pkcs", "", "")), "35E4D836003E3C2401379D0303FFCEDB"},
		{"ECB of ''", hexOf(AESEncrypt("", key, "ECB", "DEFAULT", "", "")), "A2B86E759170DE0DDA876438211908C0"},
		{"GCM, zero IV", hexOf(AESEncrypt("Spark", key, "GCM", "DEFAULT", zero12, "")), "00000000000000000000000046C4EF1C6A7041A6BEAD289645459AF972E4153D03"},
		{"GCM, zero IV, aad", hexOf(AESEncrypt("Spark", key, "GCM", "DEFAULT", zero12, "aad")), "00000000000000000000000046C4EF1C6A58C82E08A2D6B5AA23225CD5DAB67E32"},
		{"CBC, zero IV", hexOf(AESEncrypt("Spark", key, "CBC", "DEFAULT", zero16, "")), "00000000000000000000000000000000348FF37EBDE05B7880BA339068FBDA5E"},
		{"key length", hexOf(AESEncrypt("a", "short", "ctr", "DEFAULT", "", "")), "INVALID_PARAMETER_VALUE.AES_KEY_LENGTH: The value of parameter(s) `key` in `aes_encrypt`/`aes_decrypt` is invalid: expects a binary value with 16, 24 or 32 bytes, but got 5 bytes."},
		{"mode", hexOf(AESEncrypt("a", key, "ctr", "DEFAULT", []byte{0}, "")), "UNSUPPORTED_FEATURE.AES_MODE: The feature is not supported: AES-ctr with the padding DEFAULT by the `aes_encrypt`/`aes_decrypt` function."},
		{"ECB NONE", hexOf(AESEncrypt("a", key, "ECB", "NONE", "", "")), "UNSUPPORTED_FEATURE.AES_MODE: The feature is not supported: AES-ECB with the padding NONE by the `aes_encrypt`/`aes_decrypt` function."},
		{"iv length", hexOf(AESEncrypt("a", key, "gcm", "DEFAULT", []byte{0}, "")), "INVALID_PARAMETER_VALUE.AES_IV_LENGTH: The value of parameter(s) `iv` in `aes_encrypt`/`aes_decrypt` is invalid: supports 16-byte CBC IVs and 12-byte GCM IVs, but got 1 bytes for gcm."},
		{"ECB iv", hexOf(AESEncrypt("a", key, "ecb", "DEFAULT", []byte{0}, "")), "UNSUPPORTED_FEATURE.AES_MODE_IV: The feature is not supported: `aes_encrypt` with AES-ecb does not support initialization vectors (IVs)."},
		{"CBC aad", hexOf(AESEncrypt("a", key, "CBC", "DEFAULT", "", "aad")), "UNSUPPORTED_FEATURE.AES_MODE_AAD: The feature is not supported: `aes_encrypt` with AES-CBC does not support additional authenticate data (AAD)."},
	} {
		if c.got != c.want {
			t.Errorf("aes_encrypt %s:\ngot  %s\nwant %s", c.name, c.got, c.want)
		}
	}
	unhex := func(s string) []byte { b, _ := Unhex(s); return b }
	for _, c := range []struct {
		in, mode, want string
	}{
		{"6E7CA17BBB468D3084B5744BCA729FB7B2B7BCB8E4472847D02670489D95FA97DBBA7D3210", "GCM", "537061726B2053514C"},
		{"00", "GCM", "INVALID_PARAMETER_VALUE.AES_CRYPTO_ERROR: The value of parameter(s) `expr`, `key` in `aes_encrypt`/`aes_decrypt` is invalid: detail message: Invalid buffer arguments"},
		{strings.Repeat("00", 28), "GCM", "INVALID_PARAMETER_VALUE.AES_CRYPTO_ERROR: The value of parameter(s) `expr`, `key` in `aes_encrypt`/`aes_decrypt` is invalid: detail message: Tag mismatch!"},
		{strings.Repeat("00", 20), "GCM", ": java.security.ProviderException: javax.crypto.ShortBufferException: Output buffer invalid"},
		{strings.Repeat("00", 16), "ECB", "INVALID_PARAMETER_VALUE.AES_CRYPTO_ERROR: The value of parameter(s) `expr`, `key` in `aes_encrypt`/`aes_decrypt` is invalid: detail message: Given final block not properly padded. Such issues can arise if a bad key is used during decryption."},
		{"0000", "ECB", "INVALID_PARAMETER_VALUE.AES_CRYPTO_ERROR: The value of parameter(s) `expr`, `key` in `aes_encrypt`/`aes_decrypt` is invalid: detail message: Input length must be multiple of 16 when decrypting with padded cipher"},
		{strings.Repeat("00", 16), "CBC", ""},
		{"", "ECB", ""},
		{"0000", "CBC", "INVALID_PARAMETER_VALUE.AES_CRYPTO_ERROR: The value of parameter(s) `expr`, `key` in `aes_encrypt`/`aes_decrypt` is invalid: detail message: IV buffer too short for given offset/length combination"},
		{strings.Repeat("00", 17), "CBC", "INVALID_PARAMETER_VALUE.AES_CRYPTO_ERROR: The value of parameter(s) `expr`, `key` in `aes_encrypt`/`aes_decrypt` is invalid: detail message: Input length must be multiple of 16 when decrypting with padded cipher"},
		{"A2B86E759170DE0DDA876438211908C0", "ECB", ""},
	} {
		if got := hexOf(AESDecrypt(unhex(c.in), key, c.mode, "DEFAULT", "")); got != c.want {
			t.Errorf("aes_decrypt(X'%s', %s):\ngot  %s\nwant %s", c.in, c.mode, got, c.want)
		}
	}
	for _, mode := range []string{"GCM", "CBC", "ECB"} {
		ct, err := AESEncrypt("héllo", key, mode, "DEFAULT", "", "")
		if err != nil {
			t.Fatal(err)
		}
		if pt, err := AESDecrypt(ct, key, mode, "DEFAULT", ""); err != nil || string(pt) != "héllo" {
			t.Errorf("%s round trip: %q, %v", mode, pt, err)
		}
	}
}

func TestBitmapSpark(t *testing.T) {
	for _, c := range []struct{ got, want int64 }{
		{BitmapBucketNumber(1), 1}, {BitmapBucketNumber(32768), 1}, {BitmapBucketNumber(32769), 2}, {BitmapBucketNumber(0), 0},
		{BitmapBucketNumber(-1), 0}, {BitmapBucketNumber(-32768), -1}, {BitmapBucketNumber(-32769), -1},
		{BitmapBucketNumber(9223372036854775807), 281474976710656}, {BitmapBucketNumber(-9223372036854775808), -281474976710656},
		{BitmapBitPosition(1), 0}, {BitmapBitPosition(32768), 32767}, {BitmapBitPosition(32769), 0}, {BitmapBitPosition(0), 0},
		{BitmapBitPosition(-1), 1}, {BitmapBitPosition(-32769), 1}, {BitmapBitPosition(-9223372036854775808), 0},
		{BitmapBitPosition(9223372036854775807), 32766},
		{BitmapCount([]byte{0x0f}), 4}, {BitmapCount(nil), 0}, {BitmapCount([]byte{0xff, 0xff, 1}), 17},
	} {
		if c.got != c.want {
			t.Errorf("got %d, Spark gives %d", c.got, c.want)
		}
	}
}

func TestUTF8Spark(t *testing.T) {
	unhex := func(s string) string { b, _ := Unhex(s); return string(b) }
	for _, c := range []struct{ in, want string }{
		{"61C3", "61EFBFBD"}, {"61E282", "61EFBFBD"},
		{"61FF80C0AFEDA080F4908080", "61" + strings.Repeat("EFBFBD", 11)}, {"68C3A96C6C6F", "68C3A96C6C6F"},
	} {
		if got := HexBytes(MakeValidUTF8(unhex(c.in))); got != c.want {
			t.Errorf("make_valid_utf8(X'%s') = %s, Spark gives %s", c.in, got, c.want)
		}
	}
	if IsValidUTF8(unhex("61C3")) || !IsValidUTF8("héllo") {
		t.Error("is_valid_utf8")
	}
	if _, err := ValidateUTF8(unhex("61C3")); err == nil || err.Error() != `[INVALID_UTF8_STRING] Invalid UTF8 byte sequence found in string: \x61\xC3.` {
		t.Errorf("validate_utf8(X'61C3'): %v", err)
	}
}
