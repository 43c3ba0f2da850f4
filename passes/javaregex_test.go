package passes

import (
	"errors"
	"testing"

	"github.com/nordisk/thund/rt/sqlfn"
)

// compileJava translates and compiles a Java pattern as a generated
// program does.
func compileJava(p string) (*sqlfn.Regex, error) {
	j, err := TranslateJavaRegex(p)
	if err != nil {
		return nil, err
	}
	return sqlfn.NewRegex(p, j.Groups, j.Dollar, j.Sources)
}

// TestRegexSpark checks the regular-expression functions against answers
// Spark 4.1.4 and 4.2.1 gave for the same calls.
func TestRegexSpark(t *testing.T) {
	re := func(p string) *sqlfn.Regex {
		t.Helper()
		x, err := compileJava(p)
		if err != nil {
			t.Fatalf("%q: %v", p, err)
		}
		return x
	}
	likes := []struct {
		s, p string
		want bool
	}{
		{"abc", "b", true}, {"abc", "^b", false}, {"a\nb", "a.b", false}, {"ABC", "(?i)abc", true},
		{"É", "(?i)é", false}, {"K", `(?i)\x{212A}`, false}, {"ab\n", "b$", true}, {"ab\r\n", "b$", true},
		{"ab\r\n", "b\r$", false}, {"ab\u0085", "b$", true}, {"a\rb", "a.b", false}, {"a\u0085b", "a.b", false},
		{"a1", `\d`, true}, {"١", `\d`, false}, {"\u00a0", `\s`, false}, {"\u000b", `\s`, true},
		{"é", `\w`, false}, {"é", `\p{L}`, true},
	}
	for _, c := range likes {
		if got := re(c.p).Like(c.s); got != c.want {
			t.Errorf("rlike(%q, %q) = %v, want %v", c.s, c.p, got, c.want)
		}
	}
	replaces := []struct {
		s, p, r string
		pos     int32
		want    string
	}{
		{"a1b22", "[0-9]+", "#", 1, "a#b#"}, {"abc", "(b)", "$1$1", 1, "abbc"}, {"abc", "b", `\$`, 1, "a$c"},
		{"abcabc", "b", "X", 3, "abcaXc"}, {"abc", "", "-", 1, "-a-b-c-"}, {"aaa", "a*", "X", 1, "XX"},
		{"héllo", ".", "x", 2, "hxxxx"}, {"abc", "^b", "X", 2, "aXc"}, {"ab\n", "x*$", "-", 1, "ab-\n-"},
		{"abc", "b", `a\tb`, 1, "aatbc"}, {"", "", "X", 1, "X"}, {"abc", "$", "X", 3, "abcX"}, {"abc", "c$", "X", 3, "abX"},
		{"ab", "", "X", 2, "aXbX"}, {"😀ab", "a", "X", 2, "😀Xb"},
	}
	for _, c := range replaces {
		if got, err := re(c.p).Replace(c.s, c.r, c.pos); err != nil || got != c.want {
			t.Errorf("regexp_replace(%q, %q, %q, %d) = %q, %v, want %q", c.s, c.p, c.r, c.pos, got, err, c.want)
		}
	}
	for _, r := range []string{"$2", `\`} {
		if _, err := re("b").Replace("abc", r, 1); err == nil || err.Class != sqlfn.ClassInvalidRegexpReplace {
			t.Errorf("replacement %q: got %v, want INVALID_REGEXP_REPLACE", r, err)
		}
	}
	if got, _ := re("([a-z]+)([0-9]+)").Extract("abc123", 2); got != "123" {
		t.Errorf("extract = %q", got)
	}
	if got, _ := re("(x)?abc").Extract("abc", 1); got != "" {
		t.Errorf("extract of a group not taking part = %q", got)
	}
	if _, err := re("a").Extract("abc", 1); err == nil || err.Msg != "The value of parameter(s) `idx` in `regexp_extract` is invalid: Expects group index between 0 and 0, but got 1." {
		t.Errorf("extract group 1 of none: %v", err)
	}
	if got := re("ab").Count("abab"); got != 2 {
		t.Errorf("count = %d", got)
	}
	if got := re("").Count("aaa"); got != 4 {
		t.Errorf("count empty = %d", got)
	}
	if got := re("x*$").Count("ab\n"); got != 2 {
		t.Errorf("count x*$ = %d", got)
	}
	if got := re("x*").Count(""); got != 1 {
		t.Errorf("count of '' = %d", got)
	}
	if got, _ := re(`(\s*)$`).Extract("ab\n", 1); got != "\n" {
		t.Errorf("extract (\\s*)$ = %q", got)
	}
	if got, ok := re("x*").Substr("abc"); ok {
		t.Errorf("substr of an empty match = %q, want NULL", got)
	}
	if got := re("b").Instr("a😀b"); got != 3 {
		t.Errorf("instr = %d", got)
	}
}

// TestTranslateRegexRefusals: the constructs whose meaning differs are
// refused, at their offset.
func TestTranslateRegexRefusals(t *testing.T) {
	for _, c := range []struct {
		p   string
		off int
	}{
		{`(a)\1`, 3}, {`a(?=b)`, 1}, {`a(?<!b)`, 1}, {`a*+`, 2}, {`(?>a)`, 0}, {`a\Z`, 1}, {`a\z`, 1},
		{`[a&&b]`, 2}, {`(?m)a`, 2}, {`a$b`, 1}, {`\bword`, 0}, {`[[:alpha:]]`, 1}, {`\p{Alpha}`, 0},
		{`[\S]`, 1}, {`a{`, 1}, {`(a`, 2}, {`\`, 0}, {`(?i)\p{Lu}`, 4},
	} {
		_, err := TranslateJavaRegex(c.p)
		var re *RegexError
		if !errors.As(err, &re) || re.Offset != c.off {
			t.Errorf("%q: got %v, want a refusal at %d", c.p, err, c.off)
		}
	}
}

// FuzzTranslateJavaRegex: translating never panics, and a translated
// pattern compiles in the runtime.
func FuzzTranslateJavaRegex(f *testing.F) {
	for _, s := range []string{`a.b`, `(?i)[a-z]+`, `\s*$`, `[^\d]{2,3}?`, `\Q.*\E`, `(?<n>x)|y`, `\x{41}\u00e9`, `[\p{L}-]`, `(?s:.)`, `^a|b$`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		j, err := TranslateJavaRegex(p)
		if err != nil {
			return
		}
		if _, err := sqlfn.NewRegex(p, j.Groups, j.Dollar, j.Sources); err != nil {
			t.Fatalf("%q: translated, but %v", p, err)
		}
	})
}
