package passes

import (
	"strings"
	"testing"

	"github.com/nordisk/thund/rt/sqlfn"
)

// TestJavaFormat: formats run with Spark's answers (4.1.4, 4.2.1), and
// what the native runtime refuses.
func TestJavaFormat(t *testing.T) {
	run := func(f string, args []string, oks, ints []bool) string {
		t.Helper()
		ps, err := ParseJavaFormat(f, ints)
		if err != nil {
			t.Fatalf("%q: %v", f, err)
		}
		rps := make([]sqlfn.FormatPiece, len(ps))
		for i, p := range ps {
			rps[i] = sqlfn.FormatPiece(p)
		}
		return sqlfn.FormatString(rps, args, oks)
	}
	all := func(n int) []bool { return []bool{true, true, true, true, true, true}[:n] }
	for _, c := range []struct {
		f    string
		args []string
		oks  []bool
		ints []bool
		want string
	}{
		{"%s|%d|%5s|%-5s|%05d|%%", []string{"a", "12", "b", "c", "42"}, all(5), []bool{false, true, false, false, true}, "a|12|    b|c    |00042|%"},
		{"%s %d", []string{"", ""}, []bool{false, false}, []bool{false, true}, "null null"},
		{"%2$s %1$s", []string{"a", "b"}, all(2), []bool{false, false}, "b a"},
		{"%5d|%-5d|%05d", []string{"-42", "7", "-42"}, all(3), all(3), "  -42|7    |-0042"},
		{"%05d|%-4s|%4d|%S", []string{"", "", "", ""}, []bool{false, false, false, false}, []bool{true, false, true, false}, " null|null|null|NULL"},
		{"%1$s %s %s", []string{"a", "b"}, all(2), []bool{false, false}, "a a b"},
		{"%S%n[%3s]", []string{"aé", "😀"}, all(2), []bool{false, false}, "AÉ\n[ 😀]"},
	} {
		if got := run(c.f, c.args, c.oks, c.ints); got != c.want {
			t.Errorf("format_string(%q) = %q, want %q", c.f, got, c.want)
		}
	}
	for _, c := range []struct{ f, want string }{
		{"%s %s", "no argument"}, {"%d", "not an integer"}, {"%.2f", "only %s"}, {"%x", "only %s"}, {"%-s", "flags"}, {"%0s", "flags"}, {"%", "ending"},
	} {
		if _, err := ParseJavaFormat(c.f, []bool{false}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want an error containing %q", c.f, err, c.want)
		}
	}
}
