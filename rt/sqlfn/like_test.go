package sqlfn

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

func TestLike(t *testing.T) {
	tests := []struct {
		pattern string
		s       string
		want    bool
	}{
		{"abc", "abc", true},
		{"abc", "abcd", false},
		{"", "", true},
		{"", "a", false},
		{"%", "", true},
		{"%", "anything", true},
		{"%%", "x", true},
		{"ab%", "abc", true},
		{"ab%", "ab", true},
		{"ab%", "a", false},
		{"ab%", "abcdefghijkl", true},
		{"ab%", "aXcdefghijkl", false},
		{"https://%", "https://x", true},
		{"https://%", "https://", true},
		{"https://%", "http://xx", false},
		{"abcdefghij%", "abcdefghijk", true},
		{"abcdefghij%", "abcdefghiX_", false},
		{"abcdefghij%", "abcdefgXij", false},
		{"abcdefghij%", "abcdefghi", false},
		{"%bc", "abc", true},
		{"%bc", "abcd", false},
		{"%b%", "abc", true},
		{"%b%", "ac", false},
		{"a%c", "abc", true},
		{"a%c", "ac", true},
		{"a%c", "a", false},
		{"ab%bc", "abc", false}, // prefix and suffix may not overlap
		{"ab%bc", "abbc", true},
		{"_", "a", true},
		{"_", "é", true},
		{"_", "😀", true},
		{"_", "ab", false},
		{"_", "", false},
		{"a_c", "a\nc", true}, // DOTALL: '_' matches a newline
		{"a%", "a\nb", true},
		{"a_c", "abbc", false},
		{"%a_c%", "xxabcxx", true},
		{"%a_c", "abcabd", false},
		{"%a_c", "abdabc", true},
		{"_%_", "ab", true},
		{"_%_", "a", false},
		{"%a%b%c%", "xaybzc", true},
		{"%a%b%c%", "xcybza", false},
		{"a%b%c", "abcabc", true},
		{"a%b_c", "abxc", true},
		{"%é_", "xéy", true},
		{`a\%b`, "a%b", true},
		{`a\%b`, "axb", false},
		{`a\_b`, "a_b", true},
		{`a\_b`, "axb", false},
		{`a\\b`, `a\b`, true},
		{`%\%`, "50%", true},
		{`%\%`, "50", false},
		{"ABC", "abc", false}, // case-sensitive
	}
	for _, tt := range tests {
		l, err := CompileLike(tt.pattern)
		if err != nil {
			t.Fatalf("CompileLike(%q): %v", tt.pattern, err)
		}
		if got := l.Match(tt.s); got != tt.want {
			t.Errorf("%q LIKE %q = %v, want %v", tt.s, tt.pattern, got, tt.want)
		}
		if got := l.MatchBytes([]byte(tt.s)); got != tt.want {
			t.Errorf("bytes %q LIKE %q = %v, want %v", tt.s, tt.pattern, got, tt.want)
		}
	}
}

func TestLikeShape(t *testing.T) {
	tests := []struct {
		pattern   string
		kind      LikeKind
		lit, lit2 string
	}{
		{"abc", LikeExact, "abc", ""},
		{`a\%`, LikeExact, "a%", ""},
		{"abc%", LikePrefix, "abc", ""},
		{"abc%%", LikePrefix, "abc", ""},
		{"%abc", LikeSuffix, "abc", ""},
		{"%abc%", LikeContains, "abc", ""},
		{"ab%cd", LikePrefixSuffix, "ab", "cd"},
		{"%", LikeAll, "", ""},
		{"a_c", LikeGeneral, "", ""},
		{"%a%b%", LikeGeneral, "", ""},
	}
	for _, tt := range tests {
		l, err := CompileLike(tt.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if k, a, b := l.Shape(); k != tt.kind || a != tt.lit || b != tt.lit2 {
			t.Errorf("Shape(%q) = %d %q %q, want %d %q %q", tt.pattern, k, a, b, tt.kind, tt.lit, tt.lit2)
		}
	}
}

func TestLikeEscape(t *testing.T) {
	l, err := CompileLikeEscape("a#%b##", '#')
	if err != nil || !l.Match("a%b#") || l.Match("axb#") {
		t.Errorf("custom escape: %v", err)
	}
	l, err = CompileLikeEscape(`a\b%`, '#') // '\' is literal with another escape
	if err != nil || !l.Match(`a\bc`) {
		t.Errorf("backslash literal: %v", err)
	}
	_, err = CompileLike(`abc\`)
	if e, ok := err.(*Error); !ok || e.Class != "INVALID_FORMAT.ESC_AT_THE_END" {
		t.Errorf("escape at end: %v", err)
	}
	_, err = CompileLike(`a\bc`)
	if e, ok := err.(*Error); !ok || e.Class != "INVALID_FORMAT.ESC_IN_THE_MIDDLE" || !strings.Contains(e.Msg, "'b'") {
		t.Errorf("escape in the middle: %v", err)
	}
}

// The general matcher must agree with the regex Spark builds.
func TestLikeAgainstRegexp(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	alphabet := []string{"a", "b", "é", "%", "_"}
	text := []string{"a", "b", "é", "\n"}
	for i := 0; i < 20000; i++ {
		var pb, re strings.Builder
		re.WriteString("(?s)^")
		for n := r.IntN(6); n > 0; n-- {
			c := alphabet[r.IntN(len(alphabet))]
			pb.WriteString(c)
			switch c {
			case "%":
				re.WriteString(".*")
			case "_":
				re.WriteString(".")
			default:
				re.WriteString(regexp.QuoteMeta(c))
			}
		}
		re.WriteString("$")
		var sb strings.Builder
		for n := r.IntN(7); n > 0; n-- {
			sb.WriteString(text[r.IntN(len(text))])
		}
		l, err := CompileLike(pb.String())
		if err != nil {
			t.Fatal(err)
		}
		want := regexp.MustCompile(re.String()).MatchString(sb.String())
		if got := l.Match(sb.String()); got != want {
			t.Fatalf("%q LIKE %q = %v, want %v", sb.String(), pb.String(), got, want)
		}
	}
}

func TestLikeMatch(t *testing.T) {
	tests := []struct {
		s, pattern string
		want       bool
		class      string
	}{
		{"abc", "a%", true, ""},
		{"abc", "a_c", true, ""},
		{"abbc", "a_c", false, ""},
		{"", "%", true, ""},
		{"", "_", false, ""},
		{"100%", `100\%`, true, ""},  // an escaped % is a literal
		{"1000", `100\%`, false, ""}, // ... and matches nothing else
		{"a_c", `a\_c`, true, ""},    // an escaped _ likewise
		{"abc", `a\_c`, false, ""},
		{`a\c`, `a\\c`, true, ""}, // an escaped escape is a backslash
		{"é", "_", true, ""},      // _ is one character, not one byte
		{"abc", `abc\`, false, "INVALID_FORMAT.ESC_AT_THE_END"},
		{"abc", `a\bc`, false, "INVALID_FORMAT.ESC_IN_THE_MIDDLE"},
	}
	for _, tt := range tests {
		got, err := LikeMatch(tt.s, tt.pattern)
		wantErr(t, "LikeMatch("+tt.s+", "+tt.pattern+")", err, tt.class)
		if got != tt.want {
			t.Errorf("LikeMatch(%q, %q) = %v, want %v", tt.s, tt.pattern, got, tt.want)
		}
	}
}
