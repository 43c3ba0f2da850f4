package dsl

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nordisk/thund/ir"
)

// sourceComments lists the comment lines of src without scanComments: it
// blanks every token of the lexer out of src, and what is left on each line
// is whitespace and at most one comment, which runs to the end of the line.
func sourceComments(src []byte) []string {
	src = ir.NormalizeLineEnds(src) // a lone CR ends a line, as Parse reads it
	toks, _ := lex("c.thund", src)
	b := []byte(string(src))
	for _, t := range toks {
		for i := t.Pos.Offset; i < t.Pos.Offset+len(t.Value); i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	text := strings.TrimPrefix(string(b), "\xef\xbb\xbf")
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if line = strings.Trim(line, " \t\r\f\v"); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// allComments lists the comments of p in print order.
func allComments(p *ir.Pipeline) []string {
	out := append([]string(nil), p.Doc...)
	for _, d := range p.Datasets {
		out = append(out, d.Doc...)
	}
	for _, f := range p.Flows {
		out = append(out, f.Doc...)
	}
	return append(out, p.Trailer...)
}

// checkComments checks that p, parsed from src, holds every comment of src
// and that each of them is a line of Print(p) (as multisets), that
// printing is idempotent byte for byte, and that the printed text parses
// to an Equal pipeline with the same number of comments.
func checkComments(src []byte, p *ir.Pipeline) error {
	want := sourceComments(src)
	for _, c := range want {
		if !strings.HasPrefix(c, "#") && !strings.HasPrefix(c, "--") {
			return fmt.Errorf("not a comment between tokens: %q", c)
		}
	}
	if got := allComments(p); len(got) != len(want) {
		return fmt.Errorf("the IR holds %d comments, the source %d:\n%q\n%q", len(got), len(want), got, want)
	}
	text := ir.Print(p)
	lines := map[string]int{}
	for _, l := range strings.Split(string(text), "\n") {
		lines[l]++
	}
	for _, c := range want {
		if lines[c] == 0 {
			return fmt.Errorf("comment %q is lost:\n%s", c, text)
		}
		lines[c]--
	}
	p2, diags := Parse("c.thund", text)
	if diags != nil {
		return fmt.Errorf("printed text does not parse: %v\n%s", diags, text)
	}
	if !ir.Equal(p, p2) {
		return fmt.Errorf("Parse(Print(p)) differs from p: %s", ir.Diff(p, p2))
	}
	if n, n2 := len(allComments(p)), len(allComments(p2)); n != n2 {
		return fmt.Errorf("%d comments, %d after printing:\n%s", n, n2, text)
	}
	if text2 := ir.Print(p2); string(text2) != string(text) {
		return fmt.Errorf("printing is not idempotent:\n%s\n----\n%s", text, text2)
	}
	return nil
}

// TestCommentsKept: fmt keeps every comment of the examples, the canonical
// corpus and the table tests, and stays idempotent.
func TestCommentsKept(t *testing.T) {
	files := canonicalFiles(t)
	examples, _ := filepath.Glob("../../examples/*/pipeline.thund")
	if len(examples) == 0 {
		t.Fatal("no examples")
	}
	for _, e := range examples {
		src, err := os.ReadFile(e)
		if err != nil {
			t.Fatal(err)
		}
		files[e] = src
	}
	for _, c := range constructCases {
		files["case "+c.name] = []byte(c.src)
	}
	for _, c := range commentCases {
		files["comments "+c.name] = []byte(c.src)
	}
	n := 0
	for name, src := range files {
		p, diags := Parse("c.thund", src)
		if diags != nil {
			t.Fatalf("%s: %v", name, diags)
		}
		n += len(sourceComments(src))
		if err := checkComments(src, p); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n < 20 {
		t.Errorf("only %d comments in the corpus", n)
	}
}

type docs struct {
	Doc, Trailer ir.Comments
	Datasets     map[string]ir.Comments
	Flows        map[string]ir.Comments
}

var commentCases = []struct {
	name string
	src  string
	want docs
}{
	{name: "only comments", src: "# a\n\n-- b   \n",
		want: docs{Doc: ir.Comments{"# a", "-- b"}}},
	{name: "header", src: "# file\n\npipeline p # on p\n# inside\ncatalog c -- on c\n\n# first\nsink s\n",
		want: docs{Doc: ir.Comments{"# file", "# on p", "# inside", "-- on c"}, Datasets: map[string]ir.Comments{"s": {"# first"}}}},
	{name: "header only", src: "pipeline p\n# after\n",
		want: docs{Trailer: ir.Comments{"# after"}}},
	{name: "no header", src: "# before\nsink s\n# between\nsink t # on t\n  format csv\n  # after t\n\n# end\n-- end too",
		want: docs{Doc: ir.Comments{"# before"}, Trailer: ir.Comments{"# after t", "# end", "-- end too"},
			Datasets: map[string]ir.Comments{"t": {"# between", "# on t"}}}},
	{name: "inline flow", src: "pipeline p\n\n# v\nmaterialized view v\n  -- clause\n  comment \"# not -- one\"\n  = from s # src\n  | where a = '# no' -- yes\n  | select a--b\n  trigger every 1m # last\n# f\nflow f into v = from s\n",
		want: docs{Datasets: map[string]ir.Comments{"v": {"# v", "-- clause", "# src", "-- yes", "--b", "# last"}},
			Flows: map[string]ir.Comments{"f": {"# f"}}}},
	{name: "multi-line string", src: "materialized view v =\n  from s\n  | where a = 'x\n# not\n-- a comment' # but this\n",
		want: docs{Doc: nil, Datasets: map[string]ir.Comments{"v": {"# but this"}}}},
	{name: "byte order mark and CRLF", src: "\xef\xbb\xbf# bom\r\nsink s\r\n# end\r\n",
		want: docs{Doc: ir.Comments{"# bom"}, Trailer: ir.Comments{"# end"}}},
}

// TestCommentsAttach: where each comment goes.
func TestCommentsAttach(t *testing.T) {
	for _, c := range commentCases {
		t.Run(c.name, func(t *testing.T) {
			p, diags := Parse("c.thund", []byte(c.src))
			if diags != nil {
				t.Fatal(diags)
			}
			got := docs{Doc: p.Doc, Trailer: p.Trailer, Datasets: map[string]ir.Comments{}, Flows: map[string]ir.Comments{}}
			for _, d := range p.Datasets {
				if d.Doc != nil {
					got.Datasets[d.Name] = d.Doc
				}
			}
			for _, f := range p.Flows {
				if f.Doc != nil {
					got.Flows[f.Name] = f.Doc
				}
			}
			want := c.want
			if want.Datasets == nil {
				want.Datasets = map[string]ir.Comments{}
			}
			if want.Flows == nil {
				want.Flows = map[string]ir.Comments{}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
			if err := checkComments([]byte(c.src), p); err != nil {
				t.Error(err)
			}
		})
	}
}
