package passes

import (
	"fmt"
	"sort"
	"strings"
)

// FunctionsMarkdown renders docs/functions.md from the catalogue: every
// function under its family's heading, with its aliases, arguments, result
// and where it runs (TestFunctionDocs keeps the file in sync).
func FunctionsMarkdown() string {
	var b strings.Builder
	names := 0
	catalogue, syntax := sparkCounts()
	byFamily := make([][]*funcSig, len(familyNames))
	for _, list := range catalogueTables {
		for i := range list {
			f := &list[i]
			byFamily[f.family] = append(byFamily[f.family], f)
			names += 1 + len(f.aliases)
		}
	}
	fmt.Fprintf(&b, "# Functions\n\n<!-- generated from passes' catalogue (passes/funcs*.go) by TestFunctionDocs: "+
		"THUNDC_UPDATE=1 go test ./passes -run TestFunctionDocs -->\n\n"+
		"Þund types these functions as Spark 4 does, with ANSI on, and gives Spark's answer on both backends. "+
		"%d functions, %d names with their aliases. A call of any other function is an `unknown-function` error at "+
		"`thundc check`; a function the native backend does not run is refused there, with its position and the reason.\n\n"+
		"Of the %d names Spark %s's SHOW FUNCTIONS lists, %d are supported as functions and %d as SQL syntax; "+
		"[the last sections](#every-spark-built-in-function) give each name's state, and the reason for the others.\n\n"+
		"Arguments: `any`, a type class, or a list per position (the last one repeats); `[..]` marks the optional ones.\n",
		len(funcIndexNames()), names, len(sparkBuiltins41), sparkVersion(sparkFunctions41), catalogue, syntax)
	for fam, list := range byFamily {
		if len(list) == 0 {
			continue
		}
		sort.Slice(list, func(i, j int) bool { return list[i].name < list[j].name })
		fmt.Fprintf(&b, "\n## %s\n\n| function | arguments | result | native | what it computes |\n|---|---|---|---|---|\n", familyNames[fam])
		for _, f := range list {
			name := "`" + f.name + "`"
			if len(f.aliases) > 0 {
				name += " (" + strings.Join(f.aliases, ", ") + ")"
			}
			native := "yes"
			if f.notNative != "" {
				native = "no: Spark targets only"
			}
			if f.sparkSince != "" {
				native += "; Spark from " + f.sparkSince
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", name, f.argsText(), f.resultText(), native, f.doc)
		}
	}
	sparkBuiltinsMarkdown(&b)
	return b.String()
}

// funcIndexNames are the catalogue's canonical names.
func funcIndexNames() []string {
	var out []string
	for _, list := range catalogueTables {
		for _, f := range list {
			out = append(out, f.name)
		}
	}
	return out
}

// argsText renders a function's arguments for the docs: one description
// per position, the optional ones in brackets, "..." for a variadic tail.
func (f *funcSig) argsText() string {
	if f.maxArgs == 0 {
		return "none"
	}
	n := f.maxArgs
	if n < 0 {
		n = max(f.minArgs, len(f.args))
	}
	parts := make([]string, n)
	for i := range parts {
		d := strings.TrimPrefix(strings.TrimPrefix(argRules[f.argAt(i)].desc, "an "), "a ")
		if i >= f.minArgs {
			d = "[" + d + "]"
		}
		parts[i] = d
	}
	s := strings.Join(parts, ", ")
	if f.maxArgs < 0 {
		s += ", ..."
	}
	return s
}

// resultText renders a function's result rule for the docs.
func (f *funcSig) resultText() string {
	switch f.result {
	case resFixed:
		return f.ret.SQL()
	case resArg0:
		return "the first argument's type"
	case resCommon:
		return "the arguments' common type"
	case resCommonTail:
		return "the common type of the results"
	case resSum:
		return "BIGINT, DECIMAL(p+10, s) or DOUBLE"
	case resAvg:
		return "DECIMAL(p+4, s+4) or DOUBLE"
	case resRound, resFloorCeil:
		return "by the argument and the scale, as Spark"
	case resMod:
		return "as the % operator"
	case resTrunc, resToTimestamp:
		return "TIMESTAMP"
	}
	if f.resultDoc != "" {
		return f.resultDoc
	}
	return "by the arguments, as Spark"
}

// sparkBuiltinsMarkdown renders the part of docs/functions.md that lists
// every name SHOW FUNCTIONS gives on the pinned Spark 4.1 server, then what
// 4.2 adds, each with its state in Þund: supported (the catalogue's
// family), supported as syntax, or the reason it is not.
func sparkBuiltinsMarkdown(b *strings.Builder) {
	in41 := map[string]bool{}
	for _, n := range sparkBuiltins41 {
		in41[n] = true
	}
	var added []string
	for _, n := range sparkBuiltins42 {
		if !in41[n] {
			added = append(added, n)
		}
	}
	fmt.Fprintf(b, "\n## Every Spark built-in function\n\nThe names `SHOW SYSTEM FUNCTIONS` lists on Spark %s "+
		"(passes/spark_functions_4.1.txt), operators included, each with what Þund does with it: supported (under the "+
		"family above where it is listed), supported as SQL syntax, or not supported and why. A call of one that is "+
		"not supported is an `unknown-function` error that gives the reason.\n", sparkVersion(sparkFunctions41))
	builtinTable(b, sparkBuiltins41)
	fmt.Fprintf(b, "\n## New in Spark %s\n\nThe names Spark %s adds to `SHOW SYSTEM FUNCTIONS` (passes/spark_functions_4.2.txt).\n",
		sparkVersion(sparkFunctions42), sparkVersion(sparkFunctions42))
	builtinTable(b, added)
}

// builtinTable renders one table of Spark built-in names and their state.
func builtinTable(b *strings.Builder, names []string) {
	b.WriteString("\n| name | in Þund |\n|---|---|\n")
	for _, n := range names {
		fmt.Fprintf(b, "| `%s` | %s |\n", strings.ReplaceAll(n, "|", `\|`), strings.ReplaceAll(builtinState(n), "|", `\|`))
	}
}

// builtinState is what Þund does with one Spark built-in, for the docs.
func builtinState(name string) string {
	if f := lookupFunc(name); f != nil {
		s := "supported (" + familyNames[f.family] + ")"
		if f.name != name {
			s = "supported, as `" + f.name + "` (" + familyNames[f.family] + ")"
		}
		if f.notNative != "" {
			s += "; Spark targets only"
		}
		return s
	}
	syntax, reason, _ := sparkBuiltin(name)
	if syntax != "" {
		return "supported as syntax: " + syntax
	}
	return "not supported: " + reason
}

// sparkCounts counts the names of SHOW FUNCTIONS on the pinned 4.1 server
// the catalogue has, and those Þund parses as syntax.
func sparkCounts() (catalogue, syntax int) {
	for _, n := range sparkBuiltins41 {
		if lookupFunc(n) != nil {
			catalogue++
		} else if s, _, _ := sparkBuiltin(n); s != "" {
			syntax++
		}
	}
	return catalogue, syntax
}

// sparkVersion is the Spark version a spark_functions_*.txt file's header
// names ("... on Spark 4.1.4 ...").
func sparkVersion(text string) string {
	_, after, _ := strings.Cut(text, "on Spark ")
	v, _, _ := strings.Cut(after, " ")
	return v
}
