package suggest

import "testing"

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"build", "build", 0},
		{"Build", "bUILD", 0},
		{"buidl", "build", 1}, // a swap is one edit
		{"GRUOP", "GROUP", 1},
		{"FORM", "FROM", 1},
		{"rlikee", "rlike", 1},
		{"lenght", "length", 1},
		{"pricee", "price", 1},
		{"kitten", "sitting", 3},
		{"", "abc", 3},
		{"abc", "", 3},
		{"ca", "abc", 3}, // optimal string alignment: no edit of a swapped pair
		{"þund", "thund", 2},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Distance(tc.b, tc.a); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (not symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestClosest(t *testing.T) {
	cmds := []string{"check", "fmt", "explain", "build", "run", "spark", "graph", "version", "help"}
	for _, tc := range []struct {
		word  string
		cands []string
		want  string
		ok    bool
	}{
		{"buidl", cmds, "build", true},
		{"chekc", cmds, "check", true},
		{"explian", cmds, "explain", true},
		{"rnu", cmds, "run", true},
		{"deploy", cmds, "", false},
		{"x", cmds, "", false},
		{"FORM", []string{"FROM", "WHERE"}, "FROM", true},
		{"from", []string{"FROM"}, "", false}, // the word itself is no suggestion
		{"abcd", []string{"abxy", "abcx"}, "abcx", true},
		{"lenght", []string{"length", "left"}, "length", true},
	} {
		got, ok := Closest(tc.word, tc.cands)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("Closest(%q) = %q, %v; want %q, %v", tc.word, got, ok, tc.want, tc.ok)
		}
	}
}

func TestOrList(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a or b"}, {[]string{"a", "b", "c"}, "a, b or c"}} {
		if got := OrList(tc.in); got != tc.want {
			t.Errorf("OrList(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
