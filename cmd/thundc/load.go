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
	read   func(path string) (p *ir.Pipeline, text []byte, diags ir.Diagnostics)
	isText bool // the input is one .thund file that fmt -w may rewrite
}

// frontends is every kind of input thundc reads.
//
// SQL plugs in here: a frontend matching ".sql" paths (one or more, once the
// commands take several PATHs) that calls frontend/sql, and one matching a
// folder that holds spark-pipeline.yml that calls frontend/spec. Neither is
// isText: fmt prints their canonical .thund form but -w and -d refuse them.
var frontends = []*frontend{
	{what: "a .thund file", match: hasExt(".thund"), read: readThund, isText: true},
	{what: "a .sql file", match: hasExt(".sql"), read: readSQL},
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

// readSQL reads one pipeline SQL file; relative read_files paths resolve
// against its folder.
func readSQL(path string) (*ir.Pipeline, []byte, ir.Diagnostics) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, readFailure(path, err)
	}
	p, diags := sql.Parse([]sql.File{{Name: path, Src: src}})
	return p, nil, diags
}

// readSpec reads a spark-pipeline.yml project and its SQL libraries.
func readSpec(path string) (*ir.Pipeline, []byte, ir.Diagnostics) {
	p, diags := spec.LoadPipeline(path)
	return p, nil, diags
}

func hasExt(ext string) func(string) bool {
	return func(path string) bool { return strings.EqualFold(filepath.Ext(path), ext) }
}

// input is a PATH whose frontend is known.
type input struct {
	path string // as given on the command line: positions and messages show it so
	fe   *frontend
	text []byte // set by load for isText inputs
}

// openInput picks the frontend for path. It reads nothing; a path no
// frontend accepts is a usage error.
func openInput(path string) (*input, error) {
	for _, fe := range frontends {
		if fe.match(path) {
			return &input{path: path, fe: fe}, nil
		}
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
	p, text, diags := in.fe.read(in.path)
	in.text = text
	if diags.HasErrors() {
		p = nil
	} else if p == nil {
		diags.Add(ir.Pos{File: in.path}, "", "internal error: the frontend returned no pipeline and no error")
	}
	return p, diags
}

// readThund reads one .thund file.
func readThund(path string) (*ir.Pipeline, []byte, ir.Diagnostics) {
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
