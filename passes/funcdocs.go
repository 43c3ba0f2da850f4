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
		"Arguments: `any`, a type class, or a list per position (the last one repeats); `[..]` marks the optional ones.\n",
		len(funcIndexNames()), names)
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
