package passes

import (
	"slices"
	"strings"
	"testing"
)

// TestSparkNamesAccounted: every name SHOW FUNCTIONS lists on either pinned
// server is in exactly one state (the catalogue, sparkSyntax or sparkLacks),
// and sparkSyntax and sparkLacks hold only such names: a reason kept for a
// name the catalogue now has is stale, as is one for a name Spark does not
// list.
func TestSparkNamesAccounted(t *testing.T) {
	listed := map[string]bool{}
	for _, n := range append(slices.Clone(sparkBuiltins41), sparkBuiltins42...) {
		listed[n] = true
	}
	if len(sparkBuiltins41) < 500 || len(sparkBuiltins42) < len(sparkBuiltins41) {
		t.Fatalf("SHOW FUNCTIONS lists %d names on 4.1 and %d on 4.2: the data files are damaged", len(sparkBuiltins41), len(sparkBuiltins42))
	}
	seen := map[string]string{}
	note := func(name, where string) {
		if !listed[name] {
			t.Errorf("%s names %q, which SHOW FUNCTIONS does not list on either server", where, name)
		}
		if lookupFunc(name) != nil {
			t.Errorf("%s names %q, which the catalogue has: drop it there (stale)", where, name)
		}
		if seen[name] != "" {
			t.Errorf("%q is in %s and in %s", name, seen[name], where)
		}
		seen[name] = where
	}
	for _, s := range sparkSyntax {
		for _, n := range s.names {
			note(n, "sparkSyntax")
		}
	}
	for _, g := range sparkLacks {
		if g.reason == "" {
			t.Errorf("sparkLacks: the group of %v has no reason", g.names)
		}
		for _, n := range g.names {
			note(n, "sparkLacks")
		}
	}
	for n := range listed {
		if lookupFunc(n) == nil && seen[n] == "" {
			t.Errorf("Spark built-in %q is neither in the catalogue nor in sparkSyntax nor in sparkLacks: support it or give the reason", n)
		}
	}
}

// notListed are the catalogue's names that SHOW FUNCTIONS lists under no
// name or alias of theirs, each with why Spark still runs the call.
var notListed = map[string]string{
	"timestampadd":  "Spark's parser reads TIMESTAMPADD as syntax",
	"timestampdiff": "Spark's parser reads TIMESTAMPDIFF as syntax",
}

// TestSparkSince: a function the catalogue marks new in a Spark version
// (sparkSince) is in that server's SHOW FUNCTIONS and not in the older
// one's, and every other function is in the 4.1 server's, so that
// sparkemit refuses exactly the calls Spark 4.1 lacks.
func TestSparkSince(t *testing.T) {
	in := func(list []string, f *funcSig) bool {
		for _, n := range append([]string{f.name}, f.aliases...) {
			if slices.Contains(list, n) {
				return true
			}
		}
		return false
	}
	for _, list := range catalogueTables {
		for i := range list {
			f := &list[i]
			switch f.sparkSince {
			case "":
				if !in(sparkBuiltins41, f) && notListed[f.name] == "" {
					t.Errorf("function %s: Spark 4.1's SHOW FUNCTIONS does not list it (nor an alias): set sparkSince, or say why in notListed", f.name)
				}
			case "spark-4.2":
				if in(sparkBuiltins41, f) || !in(sparkBuiltins42, f) {
					t.Errorf("function %s: sparkSince %s, but 4.1 lists it: %v, 4.2 lists it: %v", f.name, f.sparkSince, in(sparkBuiltins41, f), in(sparkBuiltins42, f))
				}
			default:
				t.Errorf("function %s: sparkSince %q is no target this test knows", f.name, f.sparkSince)
			}
		}
	}
	for n := range notListed {
		if f := lookupFunc(n); f == nil || in(sparkBuiltins42, f) {
			t.Errorf("notListed names %s, which the catalogue lacks or SHOW FUNCTIONS lists (stale)", n)
		}
	}
}

// TestUnknownFuncText: the unknown-function error for a Spark built-in Þund
// lacks gives its reason, for one Þund parses as syntax the form to write,
// and for any other name a did-you-mean when one is close.
func TestUnknownFuncText(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"xpath", `function "xpath" is a Spark built-in that Þund does not support: XML functions are not built`},
		{"XPATH", `function "XPATH" is a Spark built-in that Þund does not support: XML functions are not built`},
		{"between", `function "between" is a Spark built-in that Þund supports as syntax: write a BETWEEN lo AND hi`},
		{"int", `function "int" is a Spark built-in that Þund does not support: a cast written as a function is not built: write CAST(x AS type)`},
		{"rlikee", `unknown function "rlikee" (did you mean "rlike"?)`},
		{"frobnicate", `unknown function "frobnicate"`},
	} {
		if got := unknownFuncText(c.name); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

// TestFunctionDocsListSpark: docs/functions.md's rendering gives every name
// of the pinned 4.1 server's SHOW FUNCTIONS a row, and the 4.2 additions.
func TestFunctionDocsListSpark(t *testing.T) {
	md := FunctionsMarkdown()
	for _, n := range sparkBuiltins42 {
		if !strings.Contains(md, "\n| `"+strings.ReplaceAll(n, "|", `\|`)+"` | ") {
			t.Errorf("docs/functions.md has no row for Spark built-in %q", n)
		}
	}
}
