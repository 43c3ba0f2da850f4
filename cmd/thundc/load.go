package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nordisk/thund/frontend/dsl"
	"github.com/nordisk/thund/frontend/spec"
	"github.com/nordisk/thund/frontend/sql"
	"github.com/nordisk/thund/ir"
)

// A frontend reads one kind of PATH. The table is tried in order and the
// first frontend whose match accepts the path reads it.
type frontend struct {
	what  string // what it reads, for messages: "a .thund file"
	match func(path string) bool
	// read loads the pipeline. A file that cannot be read is a diagnostic
	// positioned at the path alone. text is the input's .thund source when
	// isText, for fmt -d and -w.
	read   func(paths []string, binds []sql.SourceBinding) (p *ir.Pipeline, text []byte, diags ir.Diagnostics)
	isText bool // the input is one .thund file that fmt -w may rewrite
	many   bool // PATH may be several files of this kind
}

// frontends is every kind of input thundc reads.
//
// SQL files (one or more: together they are one pipeline) go to
// frontend/sql, and a folder that holds spark-pipeline.yml to frontend/spec.
// Neither is isText: fmt prints their canonical .thund form but -w and -d
// refuse them.
var frontends = []*frontend{
	{what: "a .thund file", match: hasExt(".thund"), read: readThund, isText: true},
	{what: "one or more .sql files", match: hasExt(".sql"), read: readSQL, many: true},
	{what: "a folder holding spark-pipeline.yml", match: isSpecProject, read: readSpec},
}

// isSpecProject accepts a spark-pipeline.yml / .yaml file, or a folder that
// holds one.
func isSpecProject(path string) bool {
	base := filepath.Base(path)
	for _, n := range spec.FileNames {
		if base == n {
			return true
		}
	}
	st, err := os.Stat(path)
	if err != nil || !st.IsDir() {
		return false
	}
	for _, n := range spec.FileNames {
		if _, err := os.Stat(filepath.Join(path, n)); err == nil {
			return true
		}
	}
	return false
}

// readSQL reads the SQL files of one pipeline, in the order given; relative
// read_files paths resolve against each file's folder.
func readSQL(paths []string, binds []sql.SourceBinding) (*ir.Pipeline, []byte, ir.Diagnostics) {
	var files []sql.File
	var diags ir.Diagnostics
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			diags = append(diags, readFailure(path, err)...)
			continue
		}
		files = append(files, sql.File{Name: path, Src: src})
	}
	if diags.HasErrors() {
		return nil, nil, diags
	}
	for i := range binds {
		binds[i].Dir = filepath.Dir(paths[0]) // the folder the pipeline runs from
	}
	p, diags := sql.ParseWith(files, sql.Options{Sources: binds})
	return p, nil, diags
}

// readSpec reads a spark-pipeline.yml project and its SQL libraries.
func readSpec(paths []string, binds []sql.SourceBinding) (*ir.Pipeline, []byte, ir.Diagnostics) {
	p, diags := spec.LoadPipelineWith(paths[0], binds)
	return p, nil, diags
}

func hasExt(ext string) func(string) bool {
	return func(path string) bool { return strings.EqualFold(filepath.Ext(path), ext) }
}

// input is a PATH whose frontend is known.
type input struct {
	path  string              // the first of paths
	paths []string            // as given on the command line: positions and messages show them so
	binds []sql.SourceBinding // --bind NAME=SOURCE
	fe    *frontend
	text  []byte // set by load for isText inputs
}

// openInput picks the frontend for a PATH: one path, or several files that
// one frontend reads together (.sql files). It reads nothing; a path no
// frontend accepts is a usage error.
func openInput(paths ...string) (*input, error) {
	path := paths[0]
	for _, fe := range frontends {
		if !fe.match(path) {
			continue
		}
		if len(paths) > 1 && !fe.many {
			return nil, usagef("unexpected argument %q: PATH is %s", paths[1], fe.what)
		}
		for _, p := range paths[1:] {
			if !fe.match(p) {
				return nil, usagef("%q: PATH is %s, and every file must be one", p, fe.what)
			}
		}
		return &input{path: path, paths: paths, fe: fe}, nil
	}
	var want []string
	for _, fe := range frontends {
		want = append(want, fe.what)
	}
	return nil, usagef("unsupported input %q: want %s", path, strings.Join(want, " or "))
}

// load reads and parses the input. The pipeline is nil when the
// diagnostics hold an error.
func (in *input) load() (*ir.Pipeline, ir.Diagnostics) {
	p, text, diags := in.fe.read(in.paths, in.binds)
	in.text = text
	if diags.HasErrors() {
		p = nil
	} else if p == nil {
		diags.Add(ir.Pos{File: in.path}, "", "internal error: the frontend returned no pipeline and no error")
	}
	return p, diags
}

// readThund reads one .thund file.
func readThund(paths []string, binds []sql.SourceBinding) (*ir.Pipeline, []byte, ir.Diagnostics) {
	path := paths[0]
	if len(binds) > 0 {
		var d ir.Diagnostics
		d.Add(binds[0].Pos, ir.CodeSyntax, "--bind %s: a .thund pipeline has no external tables to bind: declare a source (source NAME from parquet \"PATH\" { COLUMNS })", binds[0].Name)
		return nil, nil, d
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, readFailure(path, err)
	}
	p, diags := dsl.Parse(path, src)
	return p, src, diags
}

// readFailure is the diagnostic for an input that cannot be read:
// "PATH: cannot read: no such file or directory".
func readFailure(path string, err error) ir.Diagnostics {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var d ir.Diagnostics
	d.Add(ir.Pos{File: path}, "", "cannot read: %v", err)
	return d
}

// parseBinds reads --bind NAME=SOURCE values. SOURCE is the text of a
// read_files(...) or read_kafka(...) call, or an Iceberg table's
// iceberg.`LOCATION` (optionally STREAM before it and a WATERMARK clause
// after it), as in spark-pipeline.yml's thund.source.<name> entries, or a
// bare path, which is read_files('PATH') with the format told from the
// extension.
func parseBinds(values []string) ([]sql.SourceBinding, error) {
	var out []sql.SourceBinding
	for _, v := range values {
		name, src, ok := strings.Cut(v, "=")
		name, src = strings.TrimSpace(name), strings.TrimSpace(src)
		if !ok || name == "" || src == "" {
			return nil, usagef("bad --bind %q: want NAME=SOURCE, as in --bind landing.events=\"read_files('data/events/*.json', format => 'json')\"", v)
		}
		low := strings.ToLower(src)
		if !strings.HasPrefix(low, "read_files") && !strings.HasPrefix(low, "read_kafka") && !strings.HasPrefix(low, "stream") && !strings.HasPrefix(low, "iceberg.`") {
			src = "read_files('" + strings.ReplaceAll(src, "'", "\\'") + "')"
		}
		out = append(out, sql.SourceBinding{Pos: ir.Pos{File: "--bind " + name}, Name: name, Spec: src})
	}
	return out, nil
}
