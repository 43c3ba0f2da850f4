package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nordisk/thund/ir"
)

func TestCommandTable(t *testing.T) {
	for _, c := range commands {
		if runners[c.name] == nil {
			t.Errorf("command %q is in the help table but has no runner", c.name)
		}
		if c.lookupFlag("json") == nil {
			t.Errorf("command %q has no --json flag", c.name)
		}
		if c.summary == "" || c.text == "" || c.example == "" {
			t.Errorf("command %q lacks a summary, text or example", c.name)
		}
		for _, f := range c.flags {
			if f.def != "" && f.values != nil && !contains(f.values, f.def) {
				t.Errorf("%s %s: default %q is not one of its values", c.name, flagName(f.name), f.def)
			}
		}
	}
	for name := range runners {
		if lookupCommand(name) == nil {
			t.Errorf("runner %q has no entry in the help table", name)
		}
	}
	// Every node kind has a style, and the graph help's legend names it.
	graphHelp := lookupCommand("graph").text
	kinds := []string{kindExternal}
	for _, k := range ir.DatasetKinds() {
		kinds = append(kinds, k.String())
	}
	for _, k := range kinds {
		st, ok := nodeStyles[k]
		if !ok {
			t.Errorf("node kind %q has no style", k)
			continue
		}
		shape := strings.TrimPrefix(strings.SplitN(st.dot, ",", 2)[0], "shape=")
		if !strings.Contains(graphHelp, "\n    "+k+" ") || !strings.Contains(graphHelp, st.mermaidL+" "+st.mermaidR) {
			t.Errorf("graph help does not document node kind %q (%s, %s %s)", k, shape, st.mermaidL, st.mermaidR)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestParseArgs(t *testing.T) {
	explain := lookupCommand("explain")
	fmtCmd := lookupCommand("fmt")
	build := lookupCommand("build")
	for _, tc := range []struct {
		cmd   *command
		args  []string
		pos   []string
		flags map[string]string
		help  bool
		err   string
	}{
		{cmd: explain, args: []string{"p.thund", "--json"}, pos: []string{"p.thund"}, flags: map[string]string{"json": "true"}},
		{cmd: explain, args: []string{"--json", "p.thund"}, pos: []string{"p.thund"}, flags: map[string]string{"json": "true"}},
		{cmd: explain, args: []string{"-target", "spark-4.1", "p.thund", "--stop-after=resolve"}, pos: []string{"p.thund"},
			flags: map[string]string{"target": "spark-4.1", "stop-after": "resolve"}},
		{cmd: explain, args: []string{"--target=native", "--target", "spark-4.2", "p.thund"}, pos: []string{"p.thund"},
			flags: map[string]string{"target": "spark-4.2"}},
		{cmd: explain, args: []string{"--json=false", "p.thund"}, pos: []string{"p.thund"}, flags: map[string]string{"json": "false"}},
		{cmd: explain, args: []string{"--", "--json"}, pos: []string{"--json"}, flags: map[string]string{}},
		{cmd: explain, args: []string{"-"}, pos: []string{"-"}, flags: map[string]string{}},
		{cmd: fmtCmd, args: []string{"-w", "p.thund", "-d"}, pos: []string{"p.thund"}, flags: map[string]string{"w": "true", "d": "true"}},
		{cmd: fmtCmd, args: []string{"p.thund", "-h", "--bogus"}, help: true},
		// a one-letter alias sets its flag, with one dash or two
		{cmd: build, args: []string{"-q", "p.thund"}, pos: []string{"p.thund"}, flags: map[string]string{"quiet": "true"}},
		{cmd: build, args: []string{"p.thund", "--quiet=false"}, pos: []string{"p.thund"}, flags: map[string]string{"quiet": "false"}},
		{cmd: explain, args: []string{"p.thund", "-q"}, err: "unknown flag -q"},
		{cmd: explain, args: []string{"p.thund", "--bogus"}, err: "unknown flag --bogus"},
		{cmd: explain, args: []string{"p.thund", "--bogus=1"}, err: "unknown flag --bogus"},
		{cmd: explain, args: []string{"p.thund", "--target"}, err: "--target needs a value: want native, spark-4.1 or spark-4.2"},
		{cmd: explain, args: []string{"p.thund", "--target", "spark"}, err: `bad --target "spark": want native, spark-4.1 or spark-4.2`},
		{cmd: explain, args: []string{"p.thund", "--json=maybe"}, err: `--json takes no value, or true or false; got "maybe"`},
		{cmd: explain, args: []string{}, err: "missing PATH"},
		{cmd: explain, args: []string{"a.thund", "b.thund"}, err: `unexpected argument "b.thund"`},
	} {
		inv, err := parseArgs(tc.cmd, tc.args)
		name := tc.cmd.name + " " + strings.Join(tc.args, " ")
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %q", name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if tc.help {
			if !inv.help {
				t.Errorf("%s: help not recognised", name)
			}
			continue
		}
		if !reflect.DeepEqual(inv.args, tc.pos) || !reflect.DeepEqual(inv.flags, tc.flags) {
			t.Errorf("%s: got args %q flags %v, want %q %v", name, inv.args, inv.flags, tc.pos, tc.flags)
		}
	}
}

// TestWantS3: S3 support is linked as --s3 says; without it, by build as
// s3Default says, and by run when its ETL arguments give an s3://
// warehouse (before a "--" of their own).
func TestWantS3(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		args []string
		want bool
	}{
		{"build", []string{"p.thund", "-o", "etl"}, s3Default},
		{"build", []string{"p.thund", "-o", "etl", "--s3"}, true},
		{"build", []string{"p.thund", "-o", "etl", "--s3=false"}, false},
		{"run", []string{"--s3", "p.thund"}, true},
		{"run", []string{"p.thund"}, false},
		{"run", []string{"p.thund", "--", "run", "--warehouse", "./wh"}, false},
		{"run", []string{"p.thund", "--", "run", "--warehouse", "s3://bkt/wh"}, true},
		{"run", []string{"p.thund", "--", "history", "--warehouse=s3://bkt/wh"}, true},
		{"run", []string{"p.thund", "--", "read", "x", "--", "--warehouse", "s3://bkt/wh"}, false},
		{"run", []string{"p.thund", "--s3=false", "--", "run", "--warehouse", "s3://bkt/wh"}, false},
	} {
		inv, err := parseArgs(lookupCommand(tc.cmd), tc.args)
		if err != nil {
			t.Fatal(err)
		}
		if got := wantS3(inv); got != tc.want {
			t.Errorf("%s %v: S3 %v, want %v", tc.cmd, tc.args, got, tc.want)
		}
	}
}

func TestWriteDiags(t *testing.T) {
	diags := ir.Diagnostics{
		{Pos: ir.Pos{File: "p.thund", Line: 12, Col: 3}, Code: ir.CodeDanglingRef, Msg: "second", Source: "\tx  yz  "},
		{Pos: ir.Pos{File: "p.thund", Line: 2, Col: 6}, Code: ir.CodeSyntax, Msg: "first", Source: "from é, y"},
		{Pos: ir.Pos{File: "p.thund"}, Msg: "cannot read: no such file or directory"},
		{Pos: ir.Pos{File: "p.thund", Line: 3, Col: 1}, Severity: ir.Warning, Code: ir.CodeBadEmit, Msg: "no caret"},
	}
	var b bytes.Buffer
	writeDiags(&b, diags)
	want := "p.thund: cannot read: no such file or directory\n" +
		"p.thund:2:6: first [syntax]\n" +
		"    2 | from é, y\n" +
		"      |      ^\n" +
		"p.thund:3:1: warning: no caret [bad-emit]\n" +
		"p.thund:12:3: second [dangling-ref]\n" +
		"    12 | \tx  yz\n" +
		"       | \t ^\n"
	if b.String() != want {
		t.Errorf("writeDiags:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestAddSource(t *testing.T) {
	d := ir.Diagnostics{
		{Pos: ir.Pos{File: "p.thund", Line: 2, Col: 1}},
		{Pos: ir.Pos{File: "q.thund", Line: 2, Col: 1}},
		{Pos: ir.Pos{File: "p.thund", Line: 9, Col: 1}},
		{Pos: ir.Pos{File: "p.thund", Line: 1, Col: 1}, Source: "kept"},
	}
	addSource(d, "p.thund", []byte("one\ntwo\n"))
	got := []string{d[0].Source, d[1].Source, d[2].Source, d[3].Source}
	if want := []string{"two", "", "", "kept"}; !reflect.DeepEqual(got, want) {
		t.Errorf("addSource: %q, want %q", got, want)
	}
}

// graphPipeline has every dataset kind, an external table, stream and
// snapshot reads, a named flow and a flow reading one input both ways.
func graphPipeline() *ir.Pipeline {
	scan := func(name string, stream bool) *ir.Scan { return &ir.Scan{Name: name, Stream: stream} }
	ds := func(kind ir.DatasetKind, name string) *ir.Dataset { return &ir.Dataset{Kind: kind, Name: name} }
	return &ir.Pipeline{
		Name: "shop",
		Datasets: []*ir.Dataset{
			ds(ir.KindSource, "orders"),
			ds(ir.KindStreamingTable, "clean"),
			ds(ir.KindMaterializedView, "Revenue"),
			ds(ir.KindTemporaryView, "big"),
			ds(ir.KindView, "top"),
			ds(ir.KindSink, "alerts"),
		},
		Flows: []*ir.Flow{
			{Name: "clean", Target: "clean", Query: &ir.Filter{Input: scan("orders", true)}},
			{Name: "revenue", Target: "revenue", Query: &ir.Join{
				Left: scan("CLEAN", false), Right: scan("main.ref.fx", false)}},
			{Name: "big", Target: "big", Query: &ir.Union{Inputs: []ir.Rel{scan("clean", true), scan("clean", false), scan("clean", true)}}},
			{Name: "top", Target: "top", Query: scan("big", false)},
			{Name: "alert \"big\"", Target: "alerts", Query: scan("big", true)},
		},
	}
}

func TestBuildGraph(t *testing.T) {
	g := buildGraph(graphPipeline())
	wantNodes := []graphNode{
		{"orders", "source"}, {"clean", "streaming table"}, {"Revenue", "materialized view"},
		{"big", "temporary view"}, {"top", "view"}, {"alerts", "sink"}, {"main.ref.fx", "external table"},
	}
	wantEdges := []graphEdge{
		{"orders", "clean", "clean", true},
		{"clean", "Revenue", "revenue", false},
		{"main.ref.fx", "Revenue", "revenue", false},
		{"clean", "big", "big", true},
		{"clean", "big", "big", false},
		{"big", "top", "top", false},
		{"big", "alerts", "alert \"big\"", true},
	}
	if !reflect.DeepEqual(g.Nodes, wantNodes) {
		t.Errorf("nodes:\n%v\nwant\n%v", g.Nodes, wantNodes)
	}
	if !reflect.DeepEqual(g.Edges, wantEdges) {
		t.Errorf("edges:\n%v\nwant\n%v", g.Edges, wantEdges)
	}
}

func TestRenderGraph(t *testing.T) {
	p := graphPipeline()
	for _, tc := range []struct {
		format string
		lines  []string
	}{
		{"dot", []string{
			`digraph "shop" {`,
			`  "orders" [shape=parallelogram, label="orders\n(source)"];`,
			`  "clean" [shape=box, peripheries=2, label="clean\n(streaming table)"];`,
			`  "main.ref.fx" [shape=cylinder, label="main.ref.fx\n(external table)"];`,
			`  "orders" -> "clean";`,
			`  "clean" -> "Revenue" [style=dashed];`,
			`  "big" -> "alerts" [label="alert \"big\""];`,
		}},
		{"mermaid", []string{
			"flowchart LR",
			`  n0[/"orders<br/>(source)"/]`,
			`  n1[["clean<br/>(streaming table)"]]`,
			`  n5[\"alerts<br/>(sink)"/]`,
			`  n6[("main.ref.fx<br/>(external table)")]`,
			`  n0 --> n1`,
			`  n1 -.-> n2`,
			`  n3 -->|"alert #quot;big#quot;"| n5`,
		}},
		{"json", []string{
			`  "pipeline": "shop",`,
			`      "kind": "external table"`,
			`      "flow": "alert \"big\"",`,
		}},
	} {
		out, err := renderGraph(p, tc.format)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := renderGraph(p, tc.format)
		if !bytes.Equal(out, again) {
			t.Errorf("%s: not deterministic", tc.format)
		}
		have := map[string]bool{}
		for _, l := range strings.Split(string(out), "\n") {
			have[l] = true
		}
		for _, l := range tc.lines {
			if !have[l] {
				t.Errorf("%s: no line %q in\n%s", tc.format, l, out)
			}
		}
	}
}

func TestRunExitCodes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{nil, exitUsage},
		{[]string{"frob"}, exitUsage},
		{[]string{"--json", "check"}, exitUsage},
		{[]string{"help"}, exitOK},
		{[]string{"--help"}, exitOK},
		{[]string{"version", "--json"}, exitOK},
		{[]string{"check"}, exitUsage},
		{[]string{"check", "p.txt"}, exitUsage},
		{[]string{"check", "-h"}, exitOK},
		{[]string{"check", "testdata-does-not-exist.thund"}, exitDiags},
		{[]string{"graph", "--json", "--format", "dot", "p.thund"}, exitUsage},
	} {
		var stdout, stderr bytes.Buffer
		if got := run(tc.args, strings.NewReader(""), &stdout, &stderr); got != tc.code {
			t.Errorf("thundc %s: exit %d, want %d\nstderr:\n%s", strings.Join(tc.args, " "), got, tc.code, stderr.String())
		}
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.thund")
	if err := os.WriteFile(path, []byte("old\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.thund")
	if err := os.Symlink("p.thund", link); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(link, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new\n" {
		t.Errorf("target holds %q, want %q", b, "new\n")
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symbolic link was replaced: %v, %v", fi.Mode(), err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

// TestFmtWriteUnchanged checks that fmt -w leaves a canonical file alone:
// not rewritten, so its modification time stays.
func TestFmtWriteUnchanged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.thund")
	src := "pipeline   p\nsource s from csv \"s.csv\" { a bigint }\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if st := run([]string{"fmt", "-w", path}, nil, &stdout, &stderr); st != exitOK {
		t.Fatalf("fmt -w: exit %d\n%s", st, stderr.String())
	}
	canon, _ := os.ReadFile(path)
	if string(canon) == src {
		t.Fatalf("fmt -w did not rewrite non-canonical text %q", src)
	}
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	if st := run([]string{"fmt", "-w", path}, nil, &stdout, &stderr); st != exitOK {
		t.Fatalf("fmt -w: exit %d\n%s", st, stderr.String())
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !fi.ModTime().Equal(old) {
		t.Errorf("fmt -w rewrote a canonical file (mtime %v)", fi.ModTime())
	}
	if stdout.Len() != 0 {
		t.Errorf("fmt -w printed %q", stdout.String())
	}
}

// TestRunPanic checks that a compiler bug exits 1 with the panic on stderr,
// not 2 (usage), which is what an unrecovered panic would exit with.
func TestRunPanic(t *testing.T) {
	saved := runners["version"]
	defer func() { runners["version"] = saved }()
	runners["version"] = func(*cli, *invocation) int { panic("pass fuse: boom") }
	var stdout, stderr bytes.Buffer
	if st := run([]string{"version"}, nil, &stdout, &stderr); st != exitDiags {
		t.Errorf("exit %d, want %d", st, exitDiags)
	}
	if !strings.HasPrefix(stderr.String(), "thundc: internal error: pass fuse: boom\n") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}
