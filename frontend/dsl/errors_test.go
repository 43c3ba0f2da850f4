package dsl

import (
	"strings"
	"testing"

	"github.com/nordisk/thund/ir"
)

// errorCase is a text with errors and every diagnostic it must give, in order.
type errorCase struct {
	name string
	src  string
	want []string
}

var errorCases = []errorCase{
	// --- lexical
	{name: "bad character", src: "materialized view v =\n  from s\n  | where a > 1 @ 2\n",
		want: []string{`e.thund:3:17: unexpected character '@' [lex]`}},
	{name: "unterminated string", src: "materialized view v =\n  from s\n  | where a = 'oops\n",
		want: []string{`e.thund:3:15: unterminated string: missing closing ' [lex]`}},
	{name: "unterminated double-quoted string", src: "storage \"abc\n",
		want: []string{`e.thund:1:9: unterminated string: missing closing " [lex]`}},
	{name: "unterminated back-quote", src: "materialized view `v =\n  from s\n",
		want: []string{"e.thund:1:19: unterminated back-quoted identifier: missing closing ` [lex]"}},
	{name: "invalid UTF-8", src: "materialized view v =\n  from s\n  | where a = '\xff'\n",
		want: []string{`e.thund:3:16: invalid UTF-8 encoding [lex]`}},
	{name: "one UTF-8 error per token, one per run of bad characters",
		src:  "materialized view v =\n  from s\n  | where a = '\xe1\xe1\xe1' and b @@@ 1 # \xff\xff\n  | where !!!x\n",
		want: []string{`e.thund:3:16: invalid UTF-8 encoding [lex]`, `e.thund:3:27: unexpected character '@' [lex]`, `e.thund:3:35: invalid UTF-8 encoding [lex]`, `e.thund:4:11: unexpected character '!' [lex]`}},
	{name: "lambda parameter declared twice", src: "materialized view v =\n  from s\n  | select zip_with(a, b, (x, X) -> x)\n",
		want: []string{`e.thund:3:27: the lambda's parameter X is declared twice (Spark: INVALID_LAMBDA_FUNCTION_CALL.DUPLICATE_ARG_NAMES) [syntax]`}},
	{name: "lambda without a body", src: "materialized view v =\n  from s\n  | select transform(a, x ->)\n",
		want: []string{`e.thund:3:29: unexpected ")", expected an expression [syntax]`}},
	{name: "bad escape", src: "storage \"a\\qb\"\n",
		want: []string{`e.thund:1:9: invalid escape in string "a\qb": use Go escapes such as \" \\ \n \t \u00e9 [bad-literal]`}},
	{name: "bad durations", src: "materialized view v =\n  from s\n  | window tumble(ts, 10sec)\n  | where a > 1.5s\n",
		want: []string{
			`e.thund:3:23: malformed duration 10sec: want whole numbers of d, h, m, s, ms, us or ns, such as 10s or 1h30m [bad-duration]`,
			`e.thund:4:15: malformed duration 1.5s: want whole numbers of d, h, m, s, ms, us or ns, such as 10s or 1h30m [bad-duration]`,
		}},
	{name: "duration overflow", src: "streaming table t =\n  from s\n  trigger every 999999999d\n",
		want: []string{`e.thund:3:17: duration 999999999d does not fit in 64 bits of nanoseconds [bad-duration]`}},
	{name: "literal overflow", src: "materialized view v =\n  from s\n  | select 9223372036854775808, 1e999, 1234567890123456789012345678901234567890.5\n  | limit 99999999999999999999\n",
		want: []string{
			`e.thund:3:12: integer 9223372036854775808 does not fit in 64 bits [bad-literal]`,
			`e.thund:3:33: float 1e999 is out of the range of float64 [bad-literal]`,
			`e.thund:3:40: decimal 1234567890123456789012345678901234567890.5 has 41 digits; the maximum precision is 38 [bad-literal]`,
			`e.thund:4:11: integer 99999999999999999999 does not fit in 64 bits [bad-literal]`,
		}},
	{name: "size overflow", src: "materialized view v =\n  from s bound 99999999999GB bytes\n",
		want: []string{`e.thund:2:16: size 99999999999GB does not fit in 64 bits [bad-literal]`}},

	// --- syntax
	{name: "unknown stage", src: "materialized view v =\n  from s\n  | wher a > 1\n",
		want: []string{`e.thund:3:5: unexpected identifier "wher" (did you mean where?), expected a stage: where, select, group, aggregate, join, window, union, except, intersect, distinct, order, limit or lateral view [syntax]`}},
	{name: "misspelt from", src: "materialized view v = form s\n",
		want: []string{`e.thund:1:23: unexpected identifier "form" (did you mean from?), expected a query: "from" ... [syntax]`}},
	{name: "misspelt aggregate after group by", src: "materialized view v =\n  from s\n  | group by a agregate count(*) as n\n",
		want: []string{`e.thund:3:16: unexpected identifier "agregate" (did you mean aggregate?), expected "aggregate" and the aggregates, "|" and a stage, a flow clause (comment, set, apply changes, trigger, output mode, emit, late table) or a new declaration (source, materialized view, streaming table, temporary view, view, sink, flow) [syntax]`}},
	{name: "no did-you-mean for a far word", src: "materialized view v =\n  from s\n  | frobnicate a\n",
		want: []string{`e.thund:3:5: unexpected identifier "frobnicate", expected a stage: where, select, group, aggregate, join, window, union, except, intersect, distinct, order, limit or lateral view [syntax]`}},
	{name: "double pipe", src: "materialized view v =\n  from s\n  | | where a\n",
		want: []string{`e.thund:3:5: unexpected "|", expected a stage: where, select, group, aggregate, join, window, union, except, intersect, distinct, order, limit or lateral view [syntax]`}},
	{name: "missing expression", src: "materialized view v =\n  from s\n  | where\n",
		want: []string{`e.thund:4:1: unexpected end of file, expected an expression [syntax]`}},
	{name: "missing operand", src: "materialized view v =\n  from s\n  | where a >\n  | select b\n",
		want: []string{`e.thund:4:3: unexpected "|", expected an expression [syntax]`}},
	{name: "shift operator with a space", src: "materialized view v =\n  from s\n  | select a < < 1, b >> 1, c > >> 2\n",
		want: []string{`e.thund:3:14: write the shift operator << without spaces inside it [syntax]`, `e.thund:3:31: write the shift operator >>> without spaces inside it [syntax]`}},
	{name: "bitwise or outside parentheses is the pipe", src: "materialized view v =\n  from s\n  | where a | b > 0\n",
		want: []string{`e.thund:3:15: unexpected identifier "b", expected a stage: where, select, group, aggregate, join, window, union, except, intersect, distinct, order, limit or lateral view (| between stages is the pipe; bitwise OR is written in parentheses: (a | b)) [syntax]`}},
	{name: "missing stage pipe", src: "materialized view v =\n  from s\n  where a\n",
		want: []string{`e.thund:3:3: unexpected "where", expected "|" and a stage, a flow clause (comment, set, apply changes, trigger, output mode, emit, late table) or a new declaration (source, materialized view, streaming table, temporary view, view, sink, flow) [syntax]`}},
	{name: "missing comma", src: "materialized view v =\n  from s\n  | select a b\n",
		want: []string{`e.thund:3:14: unexpected identifier "b", expected "|" and a stage, a flow clause (comment, set, apply changes, trigger, output mode, emit, late table) or a new declaration (source, materialized view, streaming table, temporary view, view, sink, flow) [syntax]`}},
	{name: "misspelled clause", src: "materialized view v\n  coment \"x\"\n  = from s\n",
		want: []string{`e.thund:2:3: unexpected identifier "coment" (did you mean comment?), expected a dataset clause (id, comment, catalog, database, set, format, partitioned by, cluster by, properties, options, materialize, expect, quarantine table), "=" and a query or a new declaration (source, materialized view, streaming table, temporary view, view, sink, flow) [syntax]`}},
	{name: "misspelled declaration", src: "materialised view v =\n  from s\n",
		want: []string{`e.thund:1:1: unexpected identifier "materialised" (did you mean materialized?), expected a header (pipeline, catalog, database, storage, set) or a new declaration (source, materialized view, streaming table, temporary view, view, sink, flow) [syntax]`}},
	{name: "half a keyword pair", src: "materialized table v =\n  from s\n",
		want: []string{`e.thund:1:14: unexpected "table", expected "view" [syntax]`}},
	{name: "reserved word as a name", src: "materialized view from =\n  from s\n",
		want: []string{`e.thund:1:19: unexpected "from", expected a name [syntax]`}},
	{name: "late table needs a name", src: "streaming table t =\n  from s\n  late table\n",
		want: []string{`e.thund:4:1: unexpected end of file, expected a name [syntax]`}},
	{name: "bad from item", src: "materialized view v =\n  from 42\n",
		want: []string{`e.thund:2:8: unexpected number 42, expected a dataset name, range(...) or a query in parentheses [syntax]`}},
	{name: "missing query", src: "materialized view v =\n\nmaterialized view w =\n  from s\n",
		want: []string{`e.thund:3:1: unexpected "materialized", expected a query: "from" ... [syntax]`}},
	{name: "far type", src: "source s from csv \"x\" {\n  a blob\n}\n",
		want: []string{`e.thund:2:5: unknown type "blob": want one of bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64 string binary date32, decimal(p,s), timestamp(unit[, "zone"]), duration(unit), array<T>, map<K, V> or struct<name: T, ...> [unknown-type]`}},
	{name: "bad nested types", src: "source s from csv \"x\" {\n  a array<int32, int64>, b map<string not null, int32>, c struct<int32>, d int64<int32>, e array(3), f map<a: int32, int64>\n}\n",
		want: []string{
			`e.thund:2:5: array takes 1 part(s), got 2: want array<element type> [syntax]`,
			`e.thund:2:32: a map's keys are never NULL: drop not null on the key [syntax]`,
			`e.thund:2:66: a struct field needs a name: want struct<name: type, ...> [syntax]`,
			`e.thund:2:82: type int64 takes no <...>: only array, map and struct do [syntax]`,
			`e.thund:2:98: array takes its parts between < and >, not (...) [syntax]`,
			`e.thund:2:108: map parts have no names: want map<key type, value type> [syntax]`,
		}},
	{name: "bad type", src: "source s from csv \"x\" {\n  a int64, b strin, c decimal(50,2), d timestamp(minutes), e int64(3), f decimal(\"x\")\n}\n",
		want: []string{
			`e.thund:2:14: unknown type "strin" (did you mean string?) [unknown-type]`,
			`e.thund:2:23: decimal(50,2): want 1 <= precision <= 38 and 0 <= scale <= precision [unknown-type]`,
			`e.thund:2:50: unknown time unit "minutes": want s, ms, us or ns [unknown-type]`,
			`e.thund:2:68: type int64 takes no arguments [syntax]`,
			`e.thund:2:82: decimal: the precision must be an integer [syntax]`,
		}},
	{name: "bad zone", src: "source s from csv \"x\" {\n  a timestamp(us, \"a,b\")\n}\n",
		want: []string{`e.thund:2:19: time zone "a,b": a zone name cannot contain commas, quotes, backslashes or control characters [bad-literal]`}},
	{name: "bad format", src: "source s from excel \"x\" {\n  a int64\n}\n",
		want: []string{`e.thund:1:10: unknown source format "excel": want parquet, csv, jsonl, arrow, kafka or iceberg (json and ipc are aliases) [syntax]`}},
	{name: "bad literals", src: "materialized view v =\n  from s\n  | select timestamp '2024-13-01 00:00:00', date '2024-02-30', date 'yesterday', timestamp '2024-01-01 00:00:00.1234567'\n",
		want: []string{
			`e.thund:3:12: bad timestamp '2024-13-01 00:00:00': no such time [bad-literal]`,
			`e.thund:3:45: bad date '2024-02-30': no such day [bad-literal]`,
			`e.thund:3:64: bad date 'yesterday': want YYYY-MM-DD [bad-literal]`,
			`e.thund:3:82: bad timestamp '2024-01-01 00:00:00.1234567': timestamps have microsecond precision: at most 6 fractional digits [bad-literal]`,
		}},
	{name: "stars where not allowed", src: "materialized view v =\n  from s\n  | where * > 1\n  | select t.* + 1, * as x\n",
		want: []string{
			`e.thund:3:11: * is only allowed as a whole select item (or in count(*)) [syntax]`,
			`e.thund:4:12: * is only allowed as a whole select item (or in count(*)) [syntax]`,
			`e.thund:4:21: a star cannot take an alias: it stands for several columns [syntax]`,
		}},
	{name: "duplicate clauses", src: "pipeline a\npipeline b\n\nmaterialized view v\n  comment \"a\"\n  comment \"b\"\n  = from s bound 1 rows bound 2 rows\n  trigger every 1s\n  trigger available now\n",
		want: []string{
			`e.thund:2:1: "pipeline" is given twice (first at 1:1) [syntax]`,
			`e.thund:2:1: "pipeline" must come first in the file [syntax]`,
			`e.thund:6:3: "comment" is given twice (first at 5:3) [syntax]`,
			`e.thund:7:25: "bound ... rows" is given twice (first at 7:12) [syntax]`,
			`e.thund:9:3: "trigger" is given twice (first at 8:3) [syntax]`,
		}},
	{name: "sized row bound", src: "materialized view v =\n  from s bound 1KB rows\n",
		want: []string{`e.thund:2:10: a row bound is a plain number of rows, not a size: bound 1 rows [syntax]`}},
	{name: "sink with a query", src: "sink out =\n  from s\n",
		want: []string{"e.thund:1:10: a sink takes no query: fill it with a flow, as in: flow NAME into out = from ... [syntax]"}},
	{name: "too deep", src: "materialized view v =\n  from s\n  | where " + strings.Repeat("(", 300) + "a" + strings.Repeat(")", 300) + "\n",
		want: []string{`e.thund:3:211: too deeply nested: more than 200 levels of parentheses and case expressions [syntax]`}},

	// --- several errors in one file: one per broken declaration, plus the others
	{name: "every declaration reports", src: `pipeline broken

source s from csv "s.csv" {
  a int64, b strin
}

materialized view m =
  from s
  | wher a > 1

materialized view ok =
  from s

materialized view n =
  from s
  | where a > 1 @ 2

streaming table t =
  from s
  | select a,

sink k = from s
`,
		want: []string{
			`e.thund:4:14: unknown type "strin" (did you mean string?) [unknown-type]`,
			`e.thund:9:5: unexpected identifier "wher" (did you mean where?), expected a stage: where, select, group, aggregate, join, window, union, except, intersect, distinct, order, limit or lateral view [syntax]`,
			`e.thund:16:17: unexpected character '@' [lex]`,
			`e.thund:22:1: unexpected "sink", expected an expression [syntax]`,
			`e.thund:22:8: a sink takes no query: fill it with a flow, as in: flow NAME into k = from ... [syntax]`,
		}},
}

func TestErrors(t *testing.T) {
	for _, c := range errorCases {
		t.Run(c.name, func(t *testing.T) {
			p, diags := Parse("e.thund", []byte(c.src))
			if p != nil {
				t.Errorf("got a pipeline despite errors")
			}
			var got []string
			for _, d := range diags {
				got = append(got, d.Error())
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			lines := strings.Split(c.src, "\n")
			for _, d := range diags {
				if d.Pos.Line > len(lines) || d.Source != lines[d.Pos.Line-1] && !strings.Contains(c.src, "\xff") {
					t.Errorf("%s: source %q", d.Error(), d.Source)
				}
			}
		})
	}
}

// TestTooManyLexErrors: a binary file gives a bounded list.
func TestTooManyLexErrors(t *testing.T) {
	_, diags := Parse("b.bin", []byte(strings.Repeat("a @ ", 500)))
	if len(diags) != maxLexErrors+1 {
		t.Fatalf("%d diagnostics", len(diags))
	}
	if last := diags[len(diags)-1].Error(); last != "b.bin:1:403: too many lexical errors: 400 more from here on are not shown [lex]" {
		t.Errorf("last: %s", last)
	}
}

// TestErrorsSorted: diagnostics come sorted, and Err is nil only without errors.
func TestErrorsSorted(t *testing.T) {
	_, diags := Parse("e.thund", []byte("materialized view a =\n  from s | where @\n\nmaterialized view b =\n  from\n"))
	if len(diags) != 2 || diags.Err() == nil {
		t.Fatalf("diags: %v", diags)
	}
	if diags[0].Pos.Line > diags[1].Pos.Line {
		t.Errorf("not sorted: %v", diags)
	}
	if _, diags := Parse("ok.thund", []byte("sink s\n")); diags.Err() != nil {
		t.Errorf("Err on success: %v", diags)
	}
}

// TestParseNeverReturnsBoth: a pipeline comes with no diagnostics, errors with no pipeline.
func TestParseNeverReturnsBoth(t *testing.T) {
	for _, c := range errorCases {
		if p, diags := Parse("e.thund", []byte(c.src)); p != nil || !diags.HasErrors() {
			t.Errorf("%s: pipeline %v, diags %v", c.name, p != nil, diags)
		}
	}
	var _ = ir.CodeSyntax
}

// TestParseConcurrent: Parse keeps no state between calls (run with -race).
func TestParseConcurrent(t *testing.T) {
	srcs := [][]byte{[]byte("materialized view v =\n  from s\n  | where a > 1\n")}
	for _, c := range errorCases[:8] {
		srcs = append(srcs, []byte(c.src))
	}
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			for i := 0; i < 20; i++ {
				for _, src := range srcs {
					Parse("c.thund", src)
				}
			}
			done <- true
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}

// TestCROnlyLineEnds: a file whose lines end in CR alone reads as lines: a
// "#" comment ends at its CR, so the declarations after it are read, and an
// error in them is found on its own line.
func TestCROnlyLineEnds(t *testing.T) {
	lf := "# the quickstart\npipeline q\n\nsource s from csv \"s.csv\" { a int64 }\n\nmaterialized view m = from s | select a\n"
	cr := strings.ReplaceAll(lf, "\n", "\r")
	p, diags := Parse("cr.thund", []byte(cr))
	if diags.HasErrors() || p == nil || len(p.Datasets) != 2 || p.Datasets[1].Pos.Line != 6 {
		t.Fatalf("CR-only file: %v\n%v", p, diags)
	}
	_, diags = Parse("cr.thund", []byte(strings.Replace(cr, "select a", "selec a", 1)))
	if !diags.HasErrors() || !strings.HasPrefix(diags.Error(), "cr.thund:6:") {
		t.Errorf("want a syntax error on line 6, got %v", diags)
	}
}
