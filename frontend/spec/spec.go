package spec

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/nordisk/thund/frontend/sql"
	"github.com/nordisk/thund/ir"
)

// FileNames are the names a spec file may have, in the order Load looks.
var FileNames = []string{"spark-pipeline.yml", "spark-pipeline.yaml"}

// Project is a parsed spark-pipeline.yml.
type Project struct {
	File string // the spec file, as found (relative paths stay relative)
	Dir  string // its folder: library globs and thund.source paths are relative to it

	Pos      ir.Pos // the spec's first line
	Name     string
	Storage  string
	Catalog  string
	Database string
	// Conf is the configuration, in file order, without the
	// thund.source.<name> entries.
	Conf []ir.KV
	// Sources are the thund.source.<name> entries.
	Sources   []sql.SourceBinding
	Libraries []Library
}

// Library is one `- glob: {include: PATTERN}` entry.
type Library struct {
	Pos     ir.Pos
	Include string // as written
}

// Load reads the spec that path names: a spec file, or a folder holding
// spark-pipeline.yml or spark-pipeline.yaml. The error is ir.Diagnostics.
func Load(path string) (*Project, error) {
	file, err := find(path)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, diag(ir.Pos{File: file}, "cannot read the pipeline spec: %v", unwrapPathError(err))
	}
	return Parse(file, data)
}

func find(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", diag(ir.Pos{File: path}, "no pipeline spec: %v (Spark: PIPELINE_SPEC_FILE_NOT_FOUND)", unwrapPathError(err))
	}
	if !fi.IsDir() {
		return path, nil
	}
	var found []string
	for _, n := range FileNames {
		p := filepath.Join(path, n)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 0:
		return "", diag(ir.Pos{File: path}, "no pipeline spec in this folder: want %s (Spark: PIPELINE_SPEC_FILE_NOT_FOUND)", strings.Join(FileNames, " or "))
	case 1:
		return found[0], nil
	}
	return "", diag(ir.Pos{File: path}, "more than one pipeline spec in this folder: %s (Spark: MULTIPLE_PIPELINE_SPEC_FILES_FOUND)", strings.Join(FileNames, " and "))
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func diag(p ir.Pos, format string, args ...any) ir.Diagnostics {
	var d ir.Diagnostics
	d.Add(p, ir.CodeSyntax, format, args...)
	return d
}

// parser collects the spec's errors.
type parser struct {
	file  string
	diags ir.Diagnostics
}

func (p *parser) pos(n *yaml.Node) ir.Pos {
	return ir.Pos{File: p.file, Line: n.Line, Col: n.Column}
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	p.diags.Add(p.pos(n), ir.CodeSyntax, format, args...)
}

// yamlLine finds the line in a yaml.v3 error message.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// Parse parses the text of a spec; file names it in positions and gives the
// project's folder. The error is ir.Diagnostics.
func Parse(file string, data []byte) (*Project, error) {
	p := &parser{file: file}
	proj := &Project{File: file, Dir: filepath.Dir(file), Pos: ir.Pos{File: file, Line: 1, Col: 1}}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		pos := ir.Pos{File: file}
		msg := err.Error()
		for _, line := range strings.Split(msg, "\n") {
			if m := yamlLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
				n, _ := strconv.Atoi(m[1])
				pos = ir.Pos{File: file, Line: n, Col: 1}
				msg = m[2]
				break
			}
		}
		msg = strings.TrimPrefix(msg, "yaml: ")
		return nil, diag(pos, "the pipeline spec is not valid YAML: %s", msg)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, diag(ir.Pos{File: file}, "the pipeline spec is empty: it needs at least name and storage")
	}
	top := resolve(doc.Content[0])
	if top.Kind != yaml.MappingNode {
		return nil, diag(p.pos(top), "the pipeline spec must be a mapping of fields (name, storage, libraries, ...)")
	}
	seen := map[string]*yaml.Node{}
	var dbNode, schemaNode *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := resolve(top.Content[i]), resolve(top.Content[i+1])
		key := k.Value
		if prev, dup := seen[key]; dup {
			p.errorf(k, "field %q is given twice (first on line %d)", key, prev.Line)
			continue
		}
		seen[key] = k
		switch key {
		case "name":
			proj.Name, _ = p.str(k, v)
		case "storage":
			proj.Storage, _ = p.str(k, v)
		case "catalog":
			proj.Catalog, _ = p.optStr(k, v)
		case "database":
			proj.Database, _ = p.optStr(k, v) // database wins over schema, in any order
			dbNode = k
		case "schema":
			if s, ok := p.optStr(k, v); ok && dbNode == nil {
				proj.Database = s
			}
			schemaNode = k
		case "configuration":
			p.configuration(proj, k, v)
		case "libraries":
			p.libraries(proj, k, v)
		default:
			p.errorf(k, "unexpected field %q in the pipeline spec: the fields are name, storage, catalog, database (or schema), configuration and libraries (Spark: PIPELINE_SPEC_UNEXPECTED_FIELD)", key)
		}
	}
	if dbNode != nil && schemaNode != nil {
		p.diags.Warn(p.pos(schemaNode), ir.CodeSyntax, "both database and schema are given: database %q is used, as Spark does", proj.Database)
	}
	for _, req := range []string{"name", "storage"} {
		if seen[req] == nil {
			p.diags.Add(ir.Pos{File: file, Line: 1, Col: 1}, ir.CodeSyntax, "the pipeline spec has no %s field (Spark: PIPELINE_SPEC_MISSING_REQUIRED_FIELD)", req)
		}
	}
	p.diags.Sort()
	if p.diags.HasErrors() {
		return nil, p.diags
	}
	return proj, nil
}

// resolve follows YAML aliases.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func (p *parser) str(k, v *yaml.Node) (string, bool) {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		p.errorf(v, "field %s must be a string", k.Value)
		return "", false
	}
	return v.Value, true
}

func (p *parser) optStr(k, v *yaml.Node) (string, bool) {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return "", false
	}
	return p.str(k, v)
}

// configuration reads the configuration map: string keys, string values.
func (p *parser) configuration(proj *Project, k, v *yaml.Node) {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return
	}
	if v.Kind != yaml.MappingNode {
		p.errorf(v, "configuration must be a map of string keys to string values, not a %s (Spark: PIPELINE_SPEC_FIELD_NOT_DICT)", kindName(v))
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		ck, cv := resolve(v.Content[i]), resolve(v.Content[i+1])
		if ck.Kind != yaml.ScalarNode || ck.Tag != "!!str" {
			p.errorf(ck, "configuration key %s is a %s, not a string (Spark: PIPELINE_SPEC_DICT_KEY_NOT_STRING)", ck.Value, kindName(ck))
			continue
		}
		if cv.Kind != yaml.ScalarNode || cv.Tag != "!!str" {
			hint := ""
			if cv.Kind == yaml.ScalarNode {
				hint = fmt.Sprintf(": quote it, as in %s: %q", ck.Value, cv.Value)
			}
			p.errorf(cv, "configuration value of %s is a %s, not a string (Spark: PIPELINE_SPEC_DICT_VALUE_NOT_STRING)%s", ck.Value, kindName(cv), hint)
			continue
		}
		if seen[ck.Value] {
			p.errorf(ck, "configuration key %s is given twice", ck.Value)
			continue
		}
		seen[ck.Value] = true
		if name, ok := strings.CutPrefix(ck.Value, "thund.source."); ok {
			if name == "" {
				p.errorf(ck, "thund.source. needs a table name: thund.source.<name>")
				continue
			}
			proj.Sources = append(proj.Sources, sql.SourceBinding{Pos: p.pos(cv), Name: name, Spec: cv.Value, Dir: proj.Dir})
			continue
		}
		if strings.HasPrefix(ck.Value, "thund.") {
			p.errorf(ck, "unknown configuration key %s: the thund.* configuration keys are thund.source.<name>", ck.Value)
			continue
		}
		proj.Conf = append(proj.Conf, ir.KV{Pos: p.pos(ck), Key: ck.Value, Value: cv.Value})
	}
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "map"
	case yaml.SequenceNode:
		return "list"
	}
	switch n.Tag {
	case "!!int":
		return "number"
	case "!!float":
		return "number"
	case "!!bool":
		return "boolean"
	case "!!null":
		return "null"
	case "!!str":
		return "string"
	}
	return strings.TrimPrefix(n.Tag, "!!")
}

// libraries reads `- glob: {include: PATTERN}` entries.
func (p *parser) libraries(proj *Project, k, v *yaml.Node) {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return
	}
	if v.Kind != yaml.SequenceNode {
		p.errorf(v, "libraries must be a list of '- glob: {include: PATTERN}' entries")
		return
	}
	for _, e := range v.Content {
		e = resolve(e)
		if e.Kind != yaml.MappingNode {
			p.errorf(e, "a library must be 'glob: {include: PATTERN}'")
			continue
		}
		var glob *yaml.Node
		for i := 0; i+1 < len(e.Content); i += 2 {
			ek, ev := resolve(e.Content[i]), resolve(e.Content[i+1])
			if ek.Value != "glob" {
				p.errorf(ek, "unexpected library field %q: a library is 'glob: {include: PATTERN}'", ek.Value)
				continue
			}
			glob = ev
		}
		if glob == nil {
			if len(e.Content) == 0 {
				p.errorf(e, "a library must be 'glob: {include: PATTERN}'")
			}
			continue
		}
		if glob.Kind != yaml.MappingNode {
			p.errorf(glob, "glob must be a map with include: PATTERN")
			continue
		}
		var inc *yaml.Node
		for i := 0; i+1 < len(glob.Content); i += 2 {
			gk, gv := resolve(glob.Content[i]), resolve(glob.Content[i+1])
			if gk.Value != "include" {
				p.errorf(gk, "unexpected glob field %q: a glob has only include: PATTERN", gk.Value)
				continue
			}
			inc = gv
		}
		if inc == nil {
			p.errorf(glob, "glob has no include: PATTERN")
			continue
		}
		pattern, ok := p.str(&yaml.Node{Value: "include"}, inc)
		if !ok {
			continue
		}
		if _, err := normalizeGlob(pattern); err != nil {
			p.errorf(inc, "%v", err)
			continue
		}
		proj.Libraries = append(proj.Libraries, Library{Pos: p.pos(inc), Include: pattern})
	}
}

// hasMagic reports glob wildcards, as Python's glob.has_magic.
func hasMagic(s string) bool { return strings.ContainsAny(s, "*?[") }

// normalizeGlob applies Spark's rule (validate_patch_glob_pattern): a plain
// path, or a folder followed by /** (everything under it).
func normalizeGlob(pattern string) (string, error) {
	if !hasMagic(pattern) {
		return pattern, nil
	}
	if prefix, ok := strings.CutSuffix(pattern, "/**"); ok && !hasMagic(prefix) {
		return pattern + "/*", nil
	}
	return "", fmt.Errorf("invalid library glob %q: write a file path, or a folder followed by /** (Spark: PIPELINE_SPEC_INVALID_GLOB_PATTERN)", pattern)
}

// Files returns the definition files the libraries name, relative to the
// working directory (the project folder joined with each match), in the
// order the libraries give them, each once. Warnings name plain paths that
// match no file.
func (proj *Project) Files() ([]string, ir.Diagnostics) {
	var out []string
	var diags ir.Diagnostics
	seen := map[string]bool{}
	for _, lib := range proj.Libraries {
		var matches []string
		if folder, ok := strings.CutSuffix(lib.Include, "/**"); ok {
			root := filepath.Join(proj.Dir, filepath.FromSlash(folder))
			_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return nil
				}
				if d.IsDir() {
					if d.Name() == "__pycache__" {
						return fs.SkipDir
					}
					return nil
				}
				if d.Type().IsRegular() || d.Type()&fs.ModeSymlink != 0 {
					if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
						matches = append(matches, p)
					}
				}
				return nil
			})
			sort.Strings(matches)
			if len(matches) == 0 {
				diags.Warn(lib.Pos, ir.CodeSyntax, "library glob %q matches no file", lib.Include)
			}
		} else {
			p := filepath.Join(proj.Dir, filepath.FromSlash(lib.Include))
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				matches = []string{p}
			} else {
				diags.Warn(lib.Pos, ir.CodeSyntax, "library %q names no file", lib.Include)
			}
		}
		for _, m := range matches {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	return out, diags
}

// Pipeline parses the project's SQL files into one pipeline: Name, Storage,
// Catalog, Database and Conf from the spec. A Python file, or a file of
// another kind, among the libraries is an error naming it. On any error the
// pipeline is nil.
func (proj *Project) Pipeline() (*ir.Pipeline, ir.Diagnostics) {
	files, diags := proj.Files()
	var sqlFiles []sql.File
	for _, f := range files {
		switch strings.ToLower(filepath.Ext(f)) {
		case ".sql":
			src, err := os.ReadFile(f)
			if err != nil {
				diags.Add(ir.Pos{File: f}, ir.CodeSyntax, "cannot read: %v", unwrapPathError(err))
				continue
			}
			sqlFiles = append(sqlFiles, sql.File{Name: f, Src: src})
		case ".py":
			diags.Add(ir.Pos{File: f}, ir.CodeSyntax, "Python pipeline definitions are not supported: Thund reads SQL definitions only; write this file's datasets in a .sql file")
		default:
			diags.Add(ir.Pos{File: f}, ir.CodeSyntax, "unsupported definitions file: want .sql (Spark: PIPELINE_UNSUPPORTED_DEFINITIONS_FILE_EXTENSION)")
		}
	}
	p, sqlDiags := sql.ParseWith(sqlFiles, sql.Options{Catalog: proj.Catalog, Database: proj.Database, Sources: proj.Sources, Root: proj.Dir})
	diags = append(diags, sqlDiags...)
	diags.Sort()
	if diags.HasErrors() || p == nil {
		return nil, diags
	}
	p.Pos = proj.Pos
	p.Name = proj.Name
	p.Storage = proj.Storage
	p.Catalog = proj.Catalog
	p.Database = proj.Database
	p.Conf = append([]ir.KV(nil), proj.Conf...)
	return p, diags
}

// LoadPipeline is Load and Pipeline.
func LoadPipeline(path string) (*ir.Pipeline, ir.Diagnostics) {
	return LoadPipelineWith(path, nil)
}

// LoadPipelineWith is LoadPipeline with more source bindings after the
// spec's thund.source.<name> entries (thundc's --bind). A binding's Dir,
// when empty, is the project's folder.
func LoadPipelineWith(path string, binds []sql.SourceBinding) (*ir.Pipeline, ir.Diagnostics) {
	proj, err := Load(path)
	if err != nil {
		var d ir.Diagnostics
		if errors.As(err, &d) {
			return nil, d
		}
		return nil, diag(ir.Pos{File: path}, "%v", err)
	}
	for _, b := range binds {
		if b.Dir == "" {
			b.Dir = proj.Dir
		}
		proj.Sources = append(proj.Sources, b)
	}
	return proj.Pipeline()
}
