package nested

import (
	"reflect"
	"testing"

	"github.com/nordisk/thund/rt/sqlfn"
)

// TestRegexpExtractAll holds regexp_extract_all to the answers Spark 4.1.4
// gave for the same calls: every match of Java's find loop, the empty string for a group
// that did not take part, an empty match stepping one character on, and
// REGEX_GROUP_INDEX for a group the pattern lacks.
func TestRegexpExtractAll(t *testing.T) {
	re := func(pattern string, groups int) *sqlfn.Regex {
		// patterns without '^' or '$': the four RE2 variants are the pattern
		x, err := sqlfn.NewRegex(pattern, groups, false, [4]string{pattern, pattern, pattern, pattern})
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for _, c := range []struct {
		s, pattern string
		groups     int
		idx        int32
		want       Array
	}{
		{"100-200, 300-400", `(\d+)-(\d+)`, 2, 1, Array{"100", "300"}},
		{"100-200, 300-400", `(\d+)-(\d+)`, 2, 2, Array{"200", "400"}},
		{"ab", `(x)?(a|b)`, 2, 1, Array{"", ""}},
		{"", `(a)`, 1, 1, Array{}},
		{"abc", `z*`, 0, 0, Array{"", "", "", ""}},
		{"é😀é", `(é)`, 1, 1, Array{"é", "é"}},
	} {
		got, err := RegexpExtractAll(re(c.pattern, c.groups), c.s, c.idx)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("regexp_extract_all(%q, %q, %d) = %#v, %v; want %#v", c.s, c.pattern, c.idx, got, err, c.want)
		}
	}
	_, err := RegexpExtractAll(re(`(a)`, 1), "aa", 2)
	if err == nil || err.Class != "INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX" {
		t.Errorf("group 2 of (a): got %v, want INVALID_PARAMETER_VALUE.REGEX_GROUP_INDEX", err)
	}
}
