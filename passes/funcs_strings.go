package passes

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/nordisk/thund/ir"
)

// stringFunctions are the string functions (famString) whose answers the Spark lane checks
// (testdata/spark/fn_*). Arguments are typed strictly: where Spark would
// cast a number to a string argument, resolve asks for the cast.
var stringFunctions = []funcSig{
	{name: "concat_ws", minArgs: 1, maxArgs: -1, args: []argRule{argString}, ret: ir.StringT, result: resFixed, family: famString, doc: "the arguments after the first joined by the first, NULLs skipped (NULL when the separator is)"},
	{name: "elt", minArgs: 2, maxArgs: -1, args: []argRule{argInteger, argString}, ret: ir.StringT, result: resFixed, family: famString, doc: "the n-th of the other arguments (ANSI: n outside 1 to their count is an INVALID_ARRAY_INDEX error)"},
	{name: "split_part", minArgs: 3, maxArgs: 3, args: []argRule{argString, argString, argInteger}, ret: ir.StringT, result: resFixed, family: famString, doc: "the n-th part (negative: from the end) of the string split at the delimiter, '' beyond the parts (0 is an INVALID_INDEX_OF_ZERO error)"},
	{name: "initcap", minArgs: 1, maxArgs: 1, args: []argRule{argString}, ret: ir.StringT, result: resFixed, family: famString, doc: "lower-cases the string and title-cases the first letter of each space-separated word"},
	{name: "lpad", minArgs: 2, maxArgs: 3, args: []argRule{argString, argInteger, argString}, ret: ir.StringT, result: resFixed, family: famString, doc: "the string cut or left-padded with the pad (default a space) to n characters"},
	{name: "rpad", minArgs: 2, maxArgs: 3, args: []argRule{argString, argInteger, argString}, ret: ir.StringT, result: resFixed, family: famString, doc: "the string cut or right-padded with the pad (default a space) to n characters"},
	{name: "translate", minArgs: 3, maxArgs: 3, args: []argRule{argString}, ret: ir.StringT, result: resFixed, family: famString, doc: "replaces each character found in the second argument by the one at the same place in the third (removed when there is none)"},
	{name: "instr", minArgs: 2, maxArgs: 2, args: []argRule{argString}, ret: ir.Int32, result: resFixed, family: famString, doc: "the 1-based position of the second argument in the first, 0 when absent"},
	{name: "locate", aliases: []string{"position"}, minArgs: 2, maxArgs: 3, args: []argRule{argString, argString, argInteger}, ret: ir.Int32, result: resFixed, family: famString, doc: "the 1-based position of the first argument in the second, searched from position pos (default 1), 0 when absent"},
	{name: "repeat", minArgs: 2, maxArgs: 2, args: []argRule{argString, argInteger}, ret: ir.StringT, result: resFixed, family: famString, doc: "the string repeated n times ('' for n <= 0)"},
	{name: "reverse", minArgs: 1, maxArgs: 1, args: []argRule{argString}, ret: ir.StringT, result: resFixed, family: famString, doc: "the string's characters in reverse order"},
	{name: "left", minArgs: 2, maxArgs: 2, args: []argRule{argString, argInteger}, ret: ir.StringT, result: resFixed, family: famString, doc: "the first n characters"},
	{name: "right", minArgs: 2, maxArgs: 2, args: []argRule{argString, argInteger}, ret: ir.StringT, result: resFixed, family: famString, doc: "the last n characters"},
	{name: "btrim", minArgs: 1, maxArgs: 2, args: []argRule{argString}, ret: ir.StringT, result: resFixed, family: famString, doc: "removes spaces (or the characters of the second argument) at both ends"},
	{name: "ascii", minArgs: 1, maxArgs: 1, args: []argRule{argString}, ret: ir.Int32, result: resFixed, family: famString, doc: "the code point of the first character, 0 for ''"},
	{name: "chr", aliases: []string{"char"}, minArgs: 1, maxArgs: 1, args: []argRule{argInteger}, ret: ir.StringT, result: resFixed, family: famString, doc: "the character whose code point is n mod 256 ('' for a negative n)"},
	{name: "bit_length", minArgs: 1, maxArgs: 1, args: []argRule{argStringOrBinary}, ret: ir.Int32, result: resFixed, family: famString, doc: "the number of bits of a string's UTF-8 bytes, or of a binary"},
	{name: "octet_length", minArgs: 1, maxArgs: 1, args: []argRule{argStringOrBinary}, ret: ir.Int32, result: resFixed, family: famString, doc: "the number of bytes of a string's UTF-8, or of a binary"},
	{name: "len", minArgs: 1, maxArgs: 1, args: []argRule{argStringOrBinary}, ret: ir.Int32, result: resFixed, family: famString, doc: "length: the number of characters of a string, or bytes of a binary"},
	{name: "space", minArgs: 1, maxArgs: 1, args: []argRule{argInteger}, ret: ir.StringT, result: resFixed, family: famString, doc: "n spaces"},
	{name: "substring_index", minArgs: 3, maxArgs: 3, args: []argRule{argString, argString, argInteger}, ret: ir.StringT, result: resFixed, family: famString, doc: "the part before the count-th occurrence of the delimiter (negative: after the count-th from the end)"},
	{name: "overlay", minArgs: 3, maxArgs: 4, args: []argRule{argString, argString, argInteger, argInteger}, ret: ir.StringT, result: resFixed, family: famString, doc: "the string with len characters (default: the replacement's length) from pos replaced by the replacement"},
	{name: "levenshtein", minArgs: 2, maxArgs: 3, args: []argRule{argString, argString, argInteger}, ret: ir.Int32, result: resFixed, family: famString, doc: "the edit distance in characters (with a threshold: -1 when above it)"},
	{name: "soundex", minArgs: 1, maxArgs: 1, args: []argRule{argString}, ret: ir.StringT, result: resFixed, family: famString, doc: "the American Soundex code (the string itself when it does not start with an ASCII letter)"},
	{name: "find_in_set", minArgs: 2, maxArgs: 2, args: []argRule{argString}, ret: ir.Int32, result: resFixed, family: famString, doc: "the 1-based index of the first argument among the comma-separated items of the second, 0 when absent"},
	{name: "mask", minArgs: 1, maxArgs: 5, args: []argRule{argString}, ret: ir.StringT, result: resCustom, typeFn: typeMask, resultDoc: "string", native: nativeMask, family: famString, doc: "upper-case letters replaced by the second argument (default 'X'), lower-case by the third ('x'), digits by the fourth ('n'), others by the fifth (default NULL: kept); a NULL replacement keeps its class"},
	{name: "format_number", minArgs: 2, maxArgs: 2, args: []argRule{argNumeric, argAny}, ret: ir.StringT, result: resCustom, typeFn: typeFormatNumber, resultDoc: "string", native: nativeFormatNumber, family: famString, doc: "the number rounded half to even to d decimals and grouped by thousands ('12,332.1235'), NULL for d < 0; or formatted by a DecimalFormat pattern"},
	{name: "luhn_check", minArgs: 1, maxArgs: 1, args: []argRule{argString}, ret: ir.Bool, result: resFixed, family: famString, doc: "whether the string is ASCII digits passing the Luhn checksum"},
	{name: "quote", minArgs: 1, maxArgs: 1, args: []argRule{argString}, ret: ir.StringT, result: resFixed, family: famString, doc: "the string between single quotes, its quotes escaped by a backslash"},
	{name: "format_string", aliases: []string{"printf"}, minArgs: 1, maxArgs: -1, args: []argRule{argString, argAny}, ret: ir.StringT, result: resFixed, native: nativeFormatString, family: famString, doc: "the arguments formatted by a java.util.Formatter format ('%s', '%5d', '%2$s'); a NULL argument prints null"},

	// regular expressions: Java's (java.util.regex), run natively through
	// a translation to RE2 that refuses what would mean something else
	// (javaregex.go); the pattern must be a constant natively
	{name: "rlike", aliases: []string{"regexp", "regexp_like"}, minArgs: 2, maxArgs: 2, args: []argRule{argString}, ret: ir.Bool, result: resFixed, native: nativeRegex, family: famString, doc: "whether the string matches the regular expression anywhere"},
	{name: "regexp_extract", minArgs: 2, maxArgs: 3, args: []argRule{argString, argString, argInteger}, ret: ir.StringT, result: resFixed, native: nativeRegex, family: famString, doc: "group idx (default 1) of the first match, '' when none (a group the pattern lacks is an INVALID_PARAMETER_VALUE error)"},
	{name: "regexp_extract_all", minArgs: 2, maxArgs: 3, args: []argRule{argString, argString, argInteger}, ret: ir.ArrayOf(ir.StringT, true), result: resFixed, native: nativeRegexLoop, nativeNested: true, family: famString, doc: "group idx (default 1) of every match, in order, '' where the group did not take part (a group the pattern lacks is an INVALID_PARAMETER_VALUE error)"},
	{name: "regexp_replace", minArgs: 3, maxArgs: 4, args: []argRule{argString, argString, argString, argInteger}, ret: ir.StringT, result: resCustom, typeFn: typeRegexpReplace, resultDoc: "string", native: nativeRegexpReplace, family: famString, doc: "every match from position pos (default 1) replaced, $n in the replacement being group n (Java's syntax)"},
	{name: "regexp_count", minArgs: 2, maxArgs: 2, args: []argRule{argString}, ret: ir.Int32, result: resFixed, native: nativeRegexLoop, family: famString, doc: "the number of matches"},
	{name: "regexp_substr", minArgs: 2, maxArgs: 2, args: []argRule{argString}, ret: ir.StringT, result: resFixed, nulls: nullAlways, native: nativeRegex, family: famString, doc: "the first match, NULL when there is none or it is empty"},
	{name: "regexp_instr", minArgs: 2, maxArgs: 3, args: []argRule{argString, argString, argInteger}, ret: ir.Int32, result: resFixed, native: nativeRegex, family: famString, doc: "the 1-based position of the first match, 0 when none (Spark ignores the group index)"},
}

// typeRegexpReplace checks regexp_replace's position: Spark refuses a
// constant below 1 when it analyses the call.
func typeRegexpReplace(r *resolver, e *ir.Call, _ []ir.Type) (ir.Type, bool) {
	if len(e.Args) == 4 {
		if v, ok := IntConstant(e.Args[3]); ok && v < 1 {
			r.errorf(e.Args[3].Position(), ir.CodeTypeMismatch, "%s's position must be at least 1, got %d", e.Name, v)
			return ir.Type{}, false
		}
	}
	return ir.StringT, true
}

// StringConstant is the value of a string literal.
func StringConstant(e ir.Expr) (string, bool) {
	l, ok := e.(*ir.Literal)
	if !ok || l.Kind != ir.LitString {
		return "", false
	}
	return l.Text, true
}

// nativeRegex: the native backend runs a regular expression given as a
// constant that translates to RE2 with the same meaning (javaregex.go).
func nativeRegex(u *Unit, e *ir.Call, _ []ir.Type) (ir.Pos, string) {
	p := e.Args[1]
	pat, ok := StringConstant(p)
	if !ok {
		return p.Position(), fmt.Sprintf("%s with a pattern that is not a constant is not supported yet", e.Name)
	}
	if _, err := TranslateJavaRegex(pat); err != nil {
		var re *RegexError
		at := ""
		if errors.As(err, &re) && re.Offset > 0 {
			at = fmt.Sprintf(" at offset %d", re.Offset)
		}
		return p.Position(), fmt.Sprintf("%s's pattern has %s%s: the native runtime runs Java's regular expressions through RE2 only where they mean the same; target spark-4.1 or spark-4.2", e.Name, err, at)
	}
	return ir.Pos{}, ""
}

// nativeRegexLoop: as nativeRegex, for the functions that walk every
// match (regexp_count, regexp_replace), with a pattern that cannot match
// the empty string: after an empty match Java steps one UTF-16 unit, into
// the middle of a character outside the BMP, where RE2 cannot follow it.
func nativeRegexLoop(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	if pos, why := nativeRegex(u, e, args); why != "" {
		return pos, why
	}
	pat, _ := StringConstant(e.Args[1])
	if j, _ := TranslateJavaRegex(pat); j.matchesEmpty() {
		return e.Args[1].Position(), fmt.Sprintf("%s with a pattern that matches the empty string is not supported yet (Java steps through UTF-16 units after an empty match)", e.Name)
	}
	return ir.Pos{}, ""
}

// nativeRegexpReplace: as nativeRegexLoop, with a constant replacement without
// Java's named references (${name}) and a constant position.
func nativeRegexpReplace(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	if pos, why := nativeRegexLoop(u, e, args); why != "" {
		return pos, why
	}
	repl, ok := StringConstant(e.Args[2])
	if !ok {
		return e.Args[2].Position(), "regexp_replace with a replacement that is not a constant is not supported yet"
	}
	if strings.Contains(repl, "${") {
		return e.Args[2].Position(), "regexp_replace with a named group reference ${...} in the replacement is not supported yet"
	}
	if len(e.Args) == 4 {
		if _, ok := IntConstant(e.Args[3]); !ok {
			return e.Args[3].Position(), "regexp_replace with a position that is not a constant is not supported yet"
		}
	}
	return ir.Pos{}, ""
}

// typeMask checks mask's replacements: Spark refuses a constant that is
// not one character when it analyses the call.
func typeMask(r *resolver, e *ir.Call, _ []ir.Type) (ir.Type, bool) {
	for _, a := range e.Args[1:] {
		if c, ok := StringConstant(a); ok && utf8.RuneCountInString(c) != 1 {
			r.errorf(a.Position(), ir.CodeTypeMismatch, "%s's replacement must be one character, got '%s'", e.Name, c)
			return ir.Type{}, false
		}
	}
	return ir.StringT, true
}

// nativeMask: the native backend takes mask's replacements as constants
// (a character or NULL).
func nativeMask(u *Unit, e *ir.Call, _ []ir.Type) (ir.Pos, string) {
	for _, a := range e.Args[1:] {
		if _, ok := StringConstant(a); !ok && !isNullLiteral(a) {
			return a.Position(), "mask with a replacement that is not a constant is not supported yet"
		}
	}
	return ir.Pos{}, ""
}

// isNullLiteral says whether e is the literal NULL.
func isNullLiteral(e ir.Expr) bool {
	l, ok := e.(*ir.Literal)
	return ok && l.Kind == ir.LitNull
}

// typeFormatNumber checks format_number's second argument: a number of
// decimals (an int32) or a DecimalFormat pattern (a string). Spark's
// FormatNumber expects exactly INT or STRING and casts nothing to them
// (ExpectsInputTypes, not ImplicitCastInputTypes): a bigint, smallint or
// tinyint is DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE.
func typeFormatNumber(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	if t := types[1]; !isUnknown(t) && t.Kind != ir.TInt32 && t.Kind != ir.TString {
		r.errorf(e.Args[1].Position(), ir.CodeTypeMismatch, "%s needs an int32 (decimals) or a string (a pattern) as argument 2, got %s (Spark casts nothing to them: cast it to int32)", e.Name, t)
		return ir.Type{}, false
	}
	return ir.StringT, true
}

// nativeFormatNumber: the native backend formats to a number of decimals,
// not by a DecimalFormat pattern, and not an unsigned 64-bit integer.
func nativeFormatNumber(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	if args[1].Kind == ir.TString {
		return e.Args[1].Position(), "format_number with a pattern (DecimalFormat) is not supported yet: give the number of decimals"
	}
	if args[0].Kind == ir.TUint64 {
		return e.Args[0].Position(), "format_number of a uint64 is not supported yet: cast it to a decimal"
	}
	return ir.Pos{}, ""
}

// nativeFormatString: the native backend runs a constant format of %s,
// %S and %d (ParseJavaFormat), %s and %S of strings, integers and bools.
func nativeFormatString(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	f, ok := StringConstant(e.Args[0])
	if !ok {
		return e.Args[0].Position(), e.Name + " with a format that is not a constant is not supported yet"
	}
	ints := make([]bool, len(args)-1)
	for i, t := range args[1:] {
		ints[i] = t.IsInteger() && t.Kind != ir.TUint64 || isUnknown(t)
	}
	pieces, err := ParseJavaFormat(f, ints)
	if err != nil {
		return e.Args[0].Position(), fmt.Sprintf("%s's format has %v", e.Name, err)
	}
	for _, p := range pieces {
		if p.Arg < 0 {
			continue
		}
		if t := args[p.Arg+1]; !(t.Kind == ir.TString || ints[p.Arg] || t.Kind == ir.TBool) {
			return e.Args[p.Arg+1].Position(), fmt.Sprintf("%s of a %s is not supported yet (Java prints it its own way): cast it to a string", e.Name, t)
		}
	}
	return ir.Pos{}, ""
}
