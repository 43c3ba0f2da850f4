package sqlfn

import "testing"

func TestLength(t *testing.T) {
	tests := []struct {
		in   string
		want int32
	}{
		{"", 0},
		{"abc", 3},
		{"héllo", 5},
		{"日本語", 3},
		{"😀a", 2},
		{"\xe2\x82", 1},      // truncated 3-byte sequence: one character, as numChars counts
		{"\x80\x80a", 3},     // stray continuation bytes count one each
		{"a\xf0\x9f\x98", 2}, // truncated 4-byte sequence
	}
	for _, tt := range tests {
		if got := Length(tt.in); got != tt.want {
			t.Errorf("Length(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
	if OctetLength("héllo") != 6 {
		t.Error("octet_length")
	}
}

func TestSubstring(t *testing.T) {
	tests := []struct {
		s        string
		pos, len int32
		want     string
	}{
		{"Spark SQL", 5, 1, "k"},
		{"Spark SQL", -3, 2, "SQ"},
		{"Spark SQL", 1, 5, "Spark"},
		{"Spark SQL", 0, 5, "Spark"}, // 0 is the first character
		{"abc", -5, 3, "a"},          // window [-2, 1) clipped
		{"abc", -5, 2, ""},
		{"abc", -3, 100, "abc"},
		{"abc", 4, 1, ""},
		{"abc", 3, 1, "c"},
		{"abc", 1, -1, ""},
		{"abc", 2, 0, ""},
		{"héllo", 2, 2, "él"},
		{"日本語テキスト", -2, 1, "ス"},
		{"", 1, 1, ""},
		{"abc", math32Min, 3, ""},
		{"abc", 1, math32Max, "abc"},
	}
	for _, tt := range tests {
		if got := Substring(tt.s, tt.pos, tt.len); got != tt.want {
			t.Errorf("substring(%q, %d, %d) = %q, want %q", tt.s, tt.pos, tt.len, got, tt.want)
		}
	}
	for _, c := range []struct {
		s    string
		pos  int32
		want string
	}{{"Spark SQL", 5, "k SQL"}, {"Spark SQL", -3, "SQL"}, {"Spark SQL", 0, "Spark SQL"}, {"héllo", -4, "éllo"}} {
		if got := SubstringFrom(c.s, c.pos); got != c.want {
			t.Errorf("substring(%q, %d) = %q, want %q", c.s, c.pos, got, c.want)
		}
	}
}

const (
	math32Min = -1 << 31
	math32Max = 1<<31 - 1
)

func TestCase(t *testing.T) {
	upper := []struct{ in, want string }{
		{"", ""},
		{"abc-XYZ 123", "ABC-XYZ 123"},
		{"straße", "STRASSE"},
		{"ﬁne", "FINE"},
		{"héllo wörld", "HÉLLO WÖRLD"},
		{"ǆ", "Ǆ"},
		{"ŉ", "ʼN"},
		{"a\xffb", "A\uFFFDB"},
	}
	for _, tt := range upper {
		if got := string(Upper(nil, tt.in)); got != tt.want {
			t.Errorf("upper(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	lower := []struct{ in, want string }{
		{"ABC-xyz", "abc-xyz"},
		{"HÉLLO", "héllo"},
		{"İ", "i\u0307"},
		{"ΟΔΟΣ", "οδος"},         // final sigma
		{"ΟΔΟΣ ΣΟΦ", "οδος σοφ"}, // medial sigma stays σ
		{"Σ", "σ"},               // no preceding letter: not final
		{"ΑΣ.", "ας."},
	}
	for _, tt := range lower {
		if got := string(Lower(nil, tt.in)); got != tt.want {
			t.Errorf("lower(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := string(Upper([]byte("x:"), "y")); got != "x:Y" {
		t.Errorf("append: %q", got)
	}
}

func TestTrimAndFriends(t *testing.T) {
	if got := Trim("  a b  "); got != "a b" {
		t.Errorf("trim = %q", got)
	}
	if got := Trim("\t a \n"); got != "\t a \n" {
		t.Errorf("trim removes only spaces: %q", got)
	}
	if got := LTrim("  a  "); got != "a  " {
		t.Errorf("ltrim = %q", got)
	}
	if got := RTrim("  a  "); got != "  a" {
		t.Errorf("rtrim = %q", got)
	}
	if got := Trim("    "); got != "" {
		t.Errorf("trim all = %q", got)
	}
	if got := TrimChars("xyaxbyx", "xy"); got != "axb" {
		t.Errorf("trim chars = %q", got)
	}
	if got := LTrimChars("ééaé", "é"); got != "aé" {
		t.Errorf("ltrim chars = %q", got)
	}
	if got := RTrimChars("ééaé", "é"); got != "ééa" {
		t.Errorf("rtrim chars = %q", got)
	}
	if got := RTrimChars("éé", "é"); got != "" {
		t.Errorf("rtrim chars all = %q", got)
	}
	if got := string(Replace(nil, "ABCabc", "abc", "DEF")); got != "ABCDEF" {
		t.Errorf("replace = %q", got)
	}
	if got := string(Replace(nil, "aaa", "aa", "b")); got != "ba" {
		t.Errorf("replace overlapping = %q", got)
	}
	if got := string(Replace(nil, "abc", "", "x")); got != "abc" {
		t.Errorf("replace empty = %q", got)
	}
	if got := string(Replace(nil, "abc", "b", "")); got != "ac" {
		t.Errorf("replace delete = %q", got)
	}
	if got := string(Concat(nil, "a", "", "ü", "c")); got != "aüc" {
		t.Errorf("concat = %q", got)
	}
	if !StartsWith("Spark", "Sp") || StartsWith("Spark", "sp") || !StartsWith("x", "") {
		t.Error("startswith")
	}
	if !EndsWith("Spark", "rk") || EndsWith("a", "ba") || !EndsWith("", "") {
		t.Error("endswith")
	}
	if !Contains("Spark SQL", "k S") || Contains("abc", "d") || !Contains("abc", "") {
		t.Error("contains")
	}
	if CompareString("a", "b") != -1 || CompareString("b", "a") != 1 || CompareString("a", "a") != 0 ||
		CompareString("a", "ab") != -1 || CompareString("\xff", "a") != 1 || CompareString("é", "z") != 1 {
		t.Error("compare")
	}
}
