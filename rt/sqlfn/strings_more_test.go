package sqlfn

import (
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

func fmtF(v float64, d int32) string { s, _ := FormatNumberFloat(v, d); return s }
func fmtI(v int64, d int32) string   { s, _ := FormatNumberInt(v, d); return s }
func fmtD(v int64, scale, d int32) string {
	s, _ := FormatNumberDecimal(decimal128.FromI64(v), scale, d)
	return s
}

// TestStringsMoreSpark checks the string functions against answers Spark
// 4.1.4 and 4.2.1 gave for the same calls.
func TestStringsMoreSpark(t *testing.T) {
	str := []struct{ got, want string }{
		{ConcatWs(",", []string{"a", "", "b"}, []bool{true, false, true}), "a,b"},
		{InitCap("hELLO wORLD  x"), "Hello World  X"}, {InitCap("ǆa éCole"), "ǅa École"}, {InitCap("a-b c_d"), "A-b C_d"},
		{InitCap("ﬁx ŉa ᾀb ǆ ΣΑΣ"), "Fix ʼNa ᾈb ǅ Σας"}, {InitCap("ß"), "Ss"}, {InitCap("a\tb"), "A\tb"},
		{Lpad("abc", 5, "xy"), "xyabc"}, {Lpad("abc", 2, "xy"), "ab"}, {Lpad("abc", -1, "x"), ""}, {Lpad("abc", 5, ""), "abc"},
		{Rpad("abc", 6, "xy"), "abcxyx"}, {Lpad("é", 3, "ü"), "üüé"}, {Lpad("😀", 3, "é"), "éé😀"},
		{Translate("abcabc", "ab", "x"), "xcxc"}, {Translate("abc", "aa", "xy"), "xbc"}, {Translate("abc", "", "x"), "abc"},
		{Translate("a😀c", "😀", "x"), "axc"}, {Translate("abc", "ba", "B"), "Bc"},
		{Repeat("ab", 3), "ababab"}, {Repeat("ab", -1), ""}, {Reverse("a😀c"), "c😀a"},
		{Left("abc", 2), "ab"}, {Left("abc", -1), ""}, {Right("abc", 2), "bc"}, {Right("abc", 0), ""}, {Right("abc", 9), "abc"},
		{Chr(65), "A"}, {Chr(-1), ""}, {Chr(256 + 65), "A"}, {Chr(0), "\x00"}, {Chr(233), "é"}, {Chr(1<<63 - 1), "ÿ"}, {Chr(1024), "\x00"},
		{Space(3), "   "}, {Space(-1), ""},
		{SubstringIndex("a.b.c", ".", 2), "a.b"}, {SubstringIndex("a.b.c", ".", -2), "b.c"}, {SubstringIndex("a.b.c", ".", 0), ""},
		{SubstringIndex("a.b.c", "", 1), ""}, {SubstringIndex("aaa", "aa", 1), ""}, {SubstringIndex("aaa", "aa", -1), ""},
		{SubstringIndex("a.b", ".", 5), "a.b"}, {SubstringIndex("a.b", ".", -5), "a.b"}, {SubstringIndex("aaaa", "aa", 2), "a"},
		{SubstringIndex("aaaa", "aa", -2), "a"},
		{Overlay("abcdef", "xy", 2, -1), "axydef"}, {Overlay("abcdef", "xy", 2, 0), "axybcdef"}, {Overlay("abcdef", "xy", 9, 1), "abcdefxy"},
		{Overlay("abcdef", "xy", -1, -1), "xyabcdef"}, {Overlay("abc", "xy", 0, -1), "xybc"}, {Overlay("abc", "xy", 2, -3), "axy"},
		{Overlay("abc", "xy", 1, 9), "xy"}, {Overlay("", "x", 1, -1), "x"}, {Overlay("a😀c", "x", 2, 1), "axc"},
		{Soundex("Robert"), "R163"}, {Soundex(""), ""}, {Soundex("1abc"), "1abc"}, {Soundex("Tymczak"), "T522"}, {Soundex("éa"), "éa"},
		{Soundex("AEIOU"), "A000"}, {Soundex("Ashcraft"), "A261"}, {Soundex("Pfister"), "P236"}, {Soundex("a b"), "A100"},
		{Soundex("Ab-c"), "A120"}, {Soundex("a1b"), "A100"}, {Soundex("Bébé"), "B100"},
		{Soundex("B b"), "B100"}, {Soundex("Bb"), "B000"}, {Soundex("B1b"), "B100"}, {Soundex("Bhb"), "B000"}, {Soundex("B😀b"), "B100"},
	}
	for i, c := range str {
		if c.got != c.want {
			t.Errorf("case %d: got %q, want %q", i, c.got, c.want)
		}
	}
	fmts := []struct{ got, want string }{
		{fmtF(12332.123456, 4), "12,332.1235"}, {fmtF(0.125, 2), "0.12"}, {fmtF(0.135, 2), "0.14"}, {fmtF(1.005, 2), "1.00"},
		{fmtF(math.Copysign(0, -1), 3), "-0.000"}, {fmtF(-0.001, 2), "-0.00"}, {fmtF(math.Inf(-1), 1), "-∞"}, {fmtF(math.NaN(), 2), "NaN"},
		{fmtF(1e20, 0), "100,000,000,000,000,000,000"}, {fmtF(1.5e-7, 8), "0.00000015"},
		// more decimals than the shortest digits have: those digits padded,
		// not the binary value's (Spark 4.1.4's answers)
		{fmtF(0.1, 20), "0.10000000000000000000"}, {fmtF(123.4, 20), "123.40000000000000000000"},
		{fmtF(1e300, 0), "1" + strings.Repeat(",000", 100)}, {fmtF(1e21, 2), "1,000,000,000,000,000,000,000.00"},
		{fmtF(1.5e-7, 9), "0.000000150"}, {fmtF(1.015, 2), "1.01"}, {fmtF(5e-324, 3), "0.000"},
		{fmtF(1234567.5, 0), "1,234,568"}, {fmtF(123456.1234567891, 5), "123,456.12346"}, {fmtF(0, 2), "0.00"},
		{fmtI(1234567, 2), "1,234,567.00"}, {fmtI(-128, 1), "-128.0"}, {fmtI(123456789012345678, 0), "123,456,789,012,345,678"},
		{fmtD(12345, 3, 2), "12.34"}, {fmtD(12355, 3, 2), "12.36"}, {fmtD(123325, 1, 0), "12,332"}, {fmtD(-1, 3, 2), "-0.00"},
		{Mask("AbCD123-@$#", 'X', 'x', 'n', -1), "XxXXnnn-@$#"}, {Mask("AbCD123-@$#", 'Q', 'q', 'd', 'o'), "QqQQdddoooo"},
		{Mask("ÉéÀ١", 'Y', 'x', 'n', -1), "YxYn"}, {Mask("ab", -1, 'é', 'n', -1), "éé"}, {Mask("Ⓐⅰ", 'U', 'L', 'n', -1), "Ⓐⅰ"},
		{Mask("😀 a", 'X', 'x', 'n', '_'), "___x"},
		// a replacement outside the BMP is '?' (Spark 4.1.4's answers)
		{Mask("😀x😀", 'Y', 'y', 'n', '😀'), "??y??"}, {Mask("hello world", 'Y', 'y', 'n', '😀'), "yyyyy?yyyyy"},
	}
	for i, c := range fmts {
		if c.got != c.want {
			t.Errorf("format case %d: got %q, want %q", i, c.got, c.want)
		}
	}
	if _, ok := FormatNumberInt(1, -1); ok {
		t.Error("format_number(1, -1) is not NULL")
	}
	ints := []struct{ got, want int32 }{
		{Instr("abcb", "b"), 2}, {Instr("abc", ""), 1}, {Instr("", ""), 1}, {Instr("😀ab", "b"), 3},
		{Locate("b", "abcb", 1), 2}, {Locate("b", "abcb", 3), 4}, {Locate("b", "abcb", 0), 0}, {Locate("b", "abcb", -1), 0},
		{Locate("", "abc", 2), 1}, {Locate("", "abc", 9), 1}, {Locate("b", "😀ab", 2), 3},
		{Ascii(""), 0}, {Ascii("é"), 233}, {Ascii("😀"), 128512}, {BitLength("é"), 16},
		{Levenshtein("kitten", "sitting"), 3}, {LevenshteinMax("kitten", "sitting", 2), -1}, {LevenshteinMax("kitten", "sitting", 3), 3},
		{LevenshteinMax("", "abc", 0), -1}, {LevenshteinMax("abc", "abc", 0), 0}, {LevenshteinMax("a", "a", -1), -1},
		{FindInSet("b", "a,b,c"), 2}, {FindInSet("b,", "a,b,c"), 0}, {FindInSet("", "a,,c"), 2}, {FindInSet("", ""), 1},
	}
	for i, c := range ints {
		if c.got != c.want {
			t.Errorf("int case %d: got %d, want %d", i, c.got, c.want)
		}
	}
	for _, c := range []struct {
		s, d string
		n    int32
		want string
	}{{"a,b,c", ",", 2, "b"}, {"a,b,c", ",", -1, "c"}, {"a,b,c", ",", 5, ""}, {"a,b,c", "", 1, "a,b,c"}, {"", ",", 1, ""}, {"a", "", 2, ""}, {"a", "", -1, "a"}} {
		if got, err := SplitPart(c.s, c.d, c.n); err != nil || got != c.want {
			t.Errorf("split_part(%q, %q, %d) = %q, %v, want %q", c.s, c.d, c.n, got, err, c.want)
		}
	}
	if _, err := SplitPart("a", ",", 0); err == nil || err.Class != ClassInvalidIndexOfZero {
		t.Errorf("split_part part 0: %v", err)
	}
	if v, ok, err := Elt(2, []string{"a", ""}, []bool{true, false}); err != nil || ok || v != "" {
		t.Errorf("elt of a NULL: %q %v %v", v, ok, err)
	}
	if _, _, err := Elt(3, []string{"a", "b"}, []bool{true, true}); err == nil || err.Msg != "The index 3 is out of bounds. The array has 2 elements. Use the SQL function `get()` to tolerate accessing element at invalid index and return NULL instead." {
		t.Errorf("elt out of range: %v", err)
	}
}

// TestUTF8AndChecksSpark: luhn_check, quote and the UTF-8 functions, with
// Spark's answers.
func TestUTF8AndChecksSpark(t *testing.T) {
	for s, want := range map[string]bool{"0": true, " 0": false, "00": true, "4111111111111111": true, "-0": false, "١": false, "+0": false, "": false, "79927398713": true, "79927398710": false, "12a": false} {
		if got := LuhnCheck(s); got != want {
			t.Errorf("luhn_check(%q) = %v", s, got)
		}
	}
	for _, c := range []struct{ got, want string }{
		{Quote("Don't"), `'Don\'t'`}, {Quote(`a\b`), `'a\b'`},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
