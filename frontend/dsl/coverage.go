package dsl

import (
	"reflect"
	"sort"
	"strings"
	"text/scanner"

	"github.com/alecthomas/participle/v2/lexer"
)

// Grammar coverage. A production is a grammar struct type ("Stage") or an
// optional or alternative field of one ("Stage.Where", "Literal.Date"): a
// field none of whose captures is required when its struct matches. Names
// are the struct type names as participle's EBNF spells them (capitalised).

// Productions lists every production of the grammar, sorted.
func Productions() []string { return append([]string(nil), productions...) }

// Covered parses src and returns the productions the parse used, sorted: a
// struct type when the parse made one, a field when it is set. It fails when
// src has any error.
func Covered(filename string, src []byte) ([]string, error) {
	ast, _, diags := parse(filename, src)
	if diags.HasErrors() {
		return nil, diags
	}
	used := map[string]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		case reflect.Struct:
			opt, ok := grammarStructs[v.Type()]
			if !ok {
				return
			}
			name := productionName(v.Type())
			used[name] = true
			for i := 0; i < v.NumField(); i++ {
				if opt[i] && !v.Field(i).IsZero() {
					used[name+"."+v.Type().Field(i).Name] = true
				}
				walk(v.Field(i))
			}
		}
	}
	walk(reflect.ValueOf(ast))
	return sortedKeys(used), nil
}

// grammarStructs maps every grammar struct type to which of its fields are
// optional productions.
var grammarStructs, productions = func() (map[reflect.Type][]bool, []string) {
	structs := map[reflect.Type][]bool{}
	var names []string
	var visit func(t reflect.Type)
	visit = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || t == reflect.TypeFor[lexer.Position]() {
			return
		}
		if _, ok := structs[t]; ok {
			return
		}
		opt := optionalFields(t)
		structs[t] = opt
		names = append(names, productionName(t))
		for i := 0; i < t.NumField(); i++ {
			if opt[i] {
				names = append(names, productionName(t)+"."+t.Field(i).Name)
			}
			visit(t.Field(i).Type)
		}
	}
	visit(reflect.TypeFor[file]())
	sort.Strings(names)
	return structs, names
}()

func productionName(t reflect.Type) string {
	n := t.Name()
	return strings.ToUpper(n[:1]) + n[1:]
}

// tagToken is one token of a struct's grammar, from the tag of field.
type tagToken struct {
	text  string
	field int
}

// optionalFields reads the struct tags of t the way participle does (the
// tags of all fields, in order, are one grammar expression) and marks the
// fields that some match of t can leave unset: fields that are captured,
// but not on every path through the expression.
func optionalFields(t reflect.Type) []bool {
	var toks []tagToken
	for i := 0; i < t.NumField(); i++ {
		tag := t.Field(i).Tag.Get("parser")
		if tag == "" {
			continue
		}
		var s scanner.Scanner
		s.Init(strings.NewReader(tag))
		s.Error = func(*scanner.Scanner, string) {} // 'single-quoted' literals
		for tok := s.Scan(); tok != scanner.EOF; tok = s.Scan() {
			toks = append(toks, tagToken{text: s.TokenText(), field: i})
		}
	}
	p := &tagParser{toks: toks, captured: map[int]bool{}}
	required := p.alt()
	out := make([]bool, t.NumField())
	for f := range p.captured {
		out[f] = !required[f]
	}
	return out
}

// tagParser computes, for each piece of a tag expression, the set of fields
// every match of it captures.
type tagParser struct {
	toks     []tagToken
	i        int
	captured map[int]bool
}

type fieldSet map[int]bool

func (p *tagParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i].text
	}
	return ""
}

// alt: the fields required by every branch.
func (p *tagParser) alt() fieldSet {
	req := p.seq()
	for p.peek() == "|" {
		p.i++
		other := p.seq()
		for f := range req {
			if !other[f] {
				delete(req, f)
			}
		}
	}
	return req
}

// seq: the fields required by any of its terms.
func (p *tagParser) seq() fieldSet {
	req := fieldSet{}
	for {
		switch p.peek() {
		case "", ")", "|":
			return req
		}
		for f := range p.term() {
			req[f] = true
		}
	}
}

// term parses one term and its modifier.
func (p *tagParser) term() fieldSet {
	req := p.atom()
	switch p.peek() {
	case "?", "*":
		p.i++
		return fieldSet{}
	case "+", "!":
		p.i++
	}
	return req
}

// atom parses one term without its modifier, which (as in participle)
// applies to a whole capture: @"x"? is an optional capture.
func (p *tagParser) atom() fieldSet {
	tok := p.toks[p.i]
	p.i++
	switch tok.text {
	case "@":
		if p.peek() == "@" { // @@
			p.i++
		} else {
			p.atom()
		}
		p.captured[tok.field] = true
		return fieldSet{tok.field: true}
	case "(":
		lookahead := p.peek() == "?"
		if lookahead {
			p.i += 2 // ?= or ?!
		}
		req := p.alt()
		p.i++ // )
		if lookahead {
			return fieldSet{}
		}
		return req
	case "~", "!": // negation: matches one token, captures nothing
		p.atom()
		return fieldSet{}
	}
	// A literal, "lit":Type, or a token type.
	if p.peek() == ":" {
		p.i += 2
	}
	return fieldSet{}
}
