package thund

// Coverage is enforced, not counted: these tests enumerate the IR's node
// kinds, the DSL grammar's productions and the catalogue of named
// diagnostics, and fail for any of them that no script in testdata/scripts
// (or example under examples/) exercises.

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/nordisk/thund/frontend/dsl"
	"github.com/nordisk/thund/frontend/sql"
	"github.com/nordisk/thund/ir"
	"github.com/rogpeppe/go-internal/txtar"
)

type thundFile struct {
	name string
	src  []byte
}

// corpus returns every .thund file in the script archives and examples, and
// the full text of every script archive.
func corpus(t *testing.T) (files []thundFile, scripts map[string]string) {
	t.Helper()
	scripts = map[string]string{}
	archives, err := filepath.Glob("testdata/scripts/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(archives) == 0 {
		t.Fatal("no scripts in testdata/scripts")
	}
	for _, a := range archives {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(a)
		scripts[a] = string(data)
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".thund") {
				files = append(files, thundFile{a + ":" + f.Name, f.Data})
			}
		}
	}
	err = filepath.WalkDir("examples", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".thund") {
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files = append(files, thundFile{path, src})
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, scripts
}

// sqlScripts are the .sql files of testdata/scripts, each archive's own.
func sqlScripts(t *testing.T) []sql.File {
	t.Helper()
	archives, err := filepath.Glob("testdata/scripts/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var out []sql.File
	for _, a := range archives {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".sql") && !strings.Contains(f.Name, "/") {
				out = append(out, sql.File{Name: f.Name, Src: f.Data})
			}
		}
	}
	return out
}

func missing(all []string, seen map[string]bool) []string {
	var out []string
	for _, a := range all {
		if !seen[a] {
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}

// TestGrammarCoverage fails for a grammar production that no script or
// example uses.
func TestGrammarCoverage(t *testing.T) {
	files, _ := corpus(t)
	seen := map[string]bool{}
	for _, f := range files {
		used, err := dsl.Covered(f.name, f.src)
		if err != nil {
			continue // error scripts hold invalid text on purpose
		}
		for _, u := range used {
			seen[u] = true
		}
	}
	all := dsl.Productions()
	if m := missing(all, seen); len(m) > 0 {
		t.Errorf("%d of %d grammar productions are exercised by no script or example:\n  %s",
			len(all)-len(m), len(all), strings.Join(m, "\n  "))
	} else {
		t.Logf("all %d grammar productions are exercised", len(all))
	}
}

// TestIRCoverage fails for an IR node kind or enum value that no script or
// example produces.
func TestIRCoverage(t *testing.T) {
	files, _ := corpus(t)
	seen := map[string]bool{}
	mark := func(k string) { seen[k] = true }
	var pipelines []*ir.Pipeline
	for _, f := range files {
		if p, diags := dsl.Parse(f.name, f.src); !diags.HasErrors() && p != nil {
			pipelines = append(pipelines, p)
		}
	}
	// the SQL surface's scripts too: some IR (lambdas) has no DSL spelling yet
	for _, f := range sqlScripts(t) {
		if p, diags := sql.Parse([]sql.File{f}); !diags.HasErrors() && p != nil {
			pipelines = append(pipelines, p)
		}
	}
	for _, p := range pipelines {
		for _, d := range p.Datasets {
			mark("dataset:" + d.Kind.String())
			if d.Source != nil {
				mark("format:" + d.Source.Format.String())
			}
			for _, e := range d.Expectations {
				mark("expect:" + e.Action.String())
				markExpr(e.Cond, mark)
			}
		}
		for _, fl := range p.Flows {
			ir.WalkRel(fl.Query, func(r ir.Rel) bool {
				mark("node:" + ir.NodeKindName(r))
				switch r := r.(type) {
				case *ir.Join:
					mark("join:" + r.Kind.String())
				case *ir.Window:
					mark("window:" + r.Kind.String())
				}
				for _, e := range ir.RelExprs(r) {
					markExpr(e, mark)
				}
				return true
			})
			if fl.CDC != nil {
				markExpr(fl.CDC.SequenceBy, mark)
			}
		}
	}
	var all []string
	for _, k := range ir.NodeKindNames() {
		all = append(all, "node:"+k)
	}
	for _, k := range ir.DatasetKinds() {
		all = append(all, "dataset:"+k.String())
	}
	for _, k := range ir.FileFormats() {
		all = append(all, "format:"+k.String())
	}
	for _, k := range ir.JoinKinds() {
		all = append(all, "join:"+k.String())
	}
	for _, k := range ir.WindowKinds() {
		all = append(all, "window:"+k.String())
	}
	for _, k := range ir.BinaryOps() {
		all = append(all, "op:"+k.String())
	}
	for _, a := range []ir.ExpectAction{ir.ActWarn, ir.ActDrop, ir.ActFail} {
		all = append(all, "expect:"+a.String())
	}
	for k := ir.LitNull; k <= ir.LitDate; k++ {
		all = append(all, "literal:"+k.String())
	}
	if m := missing(all, seen); len(m) > 0 {
		t.Errorf("IR kinds that no script or example produces:\n  %s", strings.Join(m, "\n  "))
	}
}

func markExpr(e ir.Expr, mark func(string)) {
	ir.WalkExpr(e, func(e ir.Expr) bool {
		mark("node:" + ir.NodeKindName(e))
		switch e := e.(type) {
		case *ir.Binary:
			mark("op:" + e.Op.String())
		case *ir.Literal:
			mark("literal:" + e.Kind.String())
		case *ir.ScalarSubquery:
			ir.WalkRel(e.Query, func(r ir.Rel) bool { mark("node:" + ir.NodeKindName(r)); return true })
		case *ir.InSubquery:
			ir.WalkRel(e.Query, func(r ir.Rel) bool { mark("node:" + ir.NodeKindName(r)); return true })
		}
		return true
	})
}

// TestDiagnosticCoverage fails for a diagnostic class without a golden
// script: every code must appear as "[code]" in some script's expected output.
func TestDiagnosticCoverage(t *testing.T) {
	_, scripts := corpus(t)
	var all []string
	seen := map[string]bool{}
	for _, c := range ir.Codes {
		all = append(all, string(c.Code))
		for _, s := range scripts {
			if strings.Contains(s, "["+string(c.Code)+"]") {
				seen[string(c.Code)] = true
			}
		}
	}
	if m := missing(all, seen); len(m) > 0 {
		t.Errorf("diagnostic classes with no golden script:\n  %s", strings.Join(m, "\n  "))
	}
}
