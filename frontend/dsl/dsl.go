package dsl

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/nordisk/thund/ir"
)

// Limits that keep hostile input from exhausting the stack: the parser
// recurses once per parenthesis or case, the printer and the JSON codec once
// per level of the IR.
const (
	maxNesting = 200
	maxDepth   = 1000
)

// Parse parses one .thund file. On any error it returns a nil pipeline and
// every error it could find, positioned file:line:col (columns count bytes),
// sorted: all lexical errors, one syntax error per broken declaration, and
// the errors of literals, types and clauses.
func Parse(filename string, src []byte) (*ir.Pipeline, ir.Diagnostics) {
	_, p, diags := parse(filename, src)
	return p, diags
}

// parse returns the syntax tree too, for Covered.
func parse(filename string, src []byte) (*file, *ir.Pipeline, ir.Diagnostics) {
	src = ir.NormalizeLineEnds(src) // a CR alone ends a line too
	toks, lexErrs := lex(filename, src)
	text := newSource(src)
	var diags ir.Diagnostics
	for _, e := range lexErrs {
		diags = append(diags, &ir.Diagnostic{Pos: irPos(e.pos), Code: e.code, Msg: e.msg, Source: text.line(e.pos.Offset)})
	}
	if t, ok := tooDeep(toks); ok {
		diags = append(diags, &ir.Diagnostic{
			Pos: irPos(t.Pos), Code: ir.CodeSyntax, Source: text.line(t.Pos.Offset),
			Msg: "too deeply nested: more than 200 levels of parentheses and case expressions",
		})
		diags.Sort()
		return nil, nil, diags
	}
	ast, err := parseFile(toks)
	if err != nil {
		diags = append(diags, syntaxErrors(text, toks, lexErrs, err)...)
		diags.Sort()
		return nil, nil, diags
	}
	l := &lowerer{file: filename, src: text}
	p := l.lowerFile(ast)
	attachComments(p, ast, l.owners, src, toks)
	diags = append(diags, l.diags...)
	if pos, ok := irTooDeep(p); ok {
		diags = append(diags, &ir.Diagnostic{
			Pos: pos, Code: ir.CodeSyntax, Source: text.line(pos.Offset),
			Msg: "expression or query too deeply nested: more than 1000 levels",
		})
	}
	if diags.HasErrors() {
		diags.Sort()
		return ast, nil, diags
	}
	return ast, p, nil
}

func irPos(p lexer.Position) ir.Pos {
	return ir.Pos{File: p.Filename, Offset: p.Offset, Line: p.Line, Col: p.Column}
}

// parseTokens runs the grammar over a token slice that ends with EOF.
func parseTokens(toks []lexer.Token, allowTrailing bool) (*file, error) {
	pl, err := lexer.Upgrade(&sliceLexer{toks: toks})
	if err != nil {
		return nil, err
	}
	return grammar().ParseFromLexer(pl, participle.AllowTrailing(allowTrailing))
}

// tooDeep finds the first token nested more than maxNesting levels deep.
func tooDeep(toks []lexer.Token) (lexer.Token, bool) {
	depth := 0
	for _, t := range toks {
		switch {
		case t.Type == tokPunct && t.Value == "(" || t.Type == tokKeyword && equalFold(t.Value, "case"):
			depth++
			if depth > maxNesting {
				return t, true
			}
		case t.Type == tokPunct && t.Value == ")" || t.Type == tokKeyword && equalFold(t.Value, "end"):
			if depth > 0 {
				depth--
			}
		}
	}
	return lexer.Token{}, false
}

// irTooDeep finds a node of p more than maxDepth levels deep.
func irTooDeep(p *ir.Pipeline) (ir.Pos, bool) {
	var found ir.Pos
	var rel func(r ir.Rel, d int) bool
	var exp func(e ir.Expr, d int) bool
	exp = func(e ir.Expr, d int) bool {
		if e == nil {
			return false
		}
		if d > maxDepth {
			found = e.Position()
			return true
		}
		switch e := e.(type) {
		case *ir.ScalarSubquery:
			return rel(e.Query, d+1)
		case *ir.InSubquery:
			if rel(e.Query, d+1) {
				return true
			}
		case *ir.Exists: // correlated subqueries
			return rel(e.Query, d+1)
		}
		for _, c := range ir.ExprChildren(e) {
			if exp(c, d+1) {
				return true
			}
		}
		return false
	}
	rel = func(r ir.Rel, d int) bool {
		if r == nil {
			return false
		}
		if d > maxDepth {
			found = r.Position()
			return true
		}
		for _, e := range ir.RelExprs(r) {
			if exp(e, d+1) {
				return true
			}
		}
		for _, in := range ir.RelInputs(r) {
			if rel(in, d+1) {
				return true
			}
		}
		return false
	}
	for _, f := range p.Flows {
		if rel(f.Query, 0) {
			return found, true
		}
		if f.CDC != nil && (exp(f.CDC.SequenceBy, 0) || exp(f.CDC.DeleteWhen, 0)) {
			return found, true
		}
	}
	for _, d := range p.Datasets {
		for _, e := range d.Expectations {
			if exp(e.Cond, 0) {
				return found, true
			}
		}
	}
	return ir.Pos{}, false
}

func equalFold(a, b string) bool { return lowerASCII(a) == lowerASCII(b) }
