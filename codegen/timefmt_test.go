package codegen

import (
	"math/rand"
	"testing"

	"github.com/nordisk/thund/passes"
	"github.com/nordisk/thund/rt/sqlfn"
)

// TestDatetimePatternsAgree: the plan pass accepts exactly the datetime
// patterns the runtime compiles (passes.DatetimePatternProblem, which
// cannot import rt, and sqlfn.CompilePattern), for formatting and for
// parsing, over the patterns of the lane and random ones of letters,
// quotes, reserved characters and punctuation.
func TestDatetimePatternsAgree(t *testing.T) {
	patterns := []string{
		"yyyy-MM-dd HH:mm:ss.SSS", "yyyy'T'HH ''", "'unterminated", "''", "'''", "a''b", "EEEE, d MMM yyyy",
		"X XX XXX x xx xxx Z ZZ ZZZ", "yyyyyyyyyy", "MMMMM", "[x]", "G", "QQQQ", "'it''s' HH",
	}
	const alphabet = "yMLdDHhkKmsSaEQqXxZGuewVzOnABT'-:. []{}#/,"
	r := rand.New(rand.NewSource(19))
	for range 20000 {
		b := make([]byte, r.Intn(12))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		patterns = append(patterns, string(b))
	}
	for _, p := range patterns {
		pat, ok := sqlfn.CompilePattern(p)
		if plan := passes.DatetimePatternProblem(p, false) == ""; plan != ok {
			t.Errorf("format %q: the plan accepts it: %v, the runtime compiles it: %v", p, plan, ok)
			continue
		}
		if plan := passes.DatetimePatternProblem(p, true) == ""; plan != (ok && pat.Parses()) {
			t.Errorf("parse %q: the plan accepts it: %v, the runtime parses with it: %v", p, plan, ok && pat.Parses())
		}
	}
}
