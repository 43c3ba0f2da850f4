package dsl

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/nordisk/thund/internal/suggest"
	"github.com/nordisk/thund/ir"
)

// Syntax errors. participle reports the deepest point a parse reached, with
// the rest of the grammar sequence it expected there, in EBNF. syntaxErrors
// turns that into "unexpected X, expected Y" in plain words, Y being the first
// set of the expected sequence, named by production where a production has a
// name for people (productionNames). To report every broken declaration, a
// file that does not parse is cut into declarations, each parsed on its own.

// productionNames describes the productions that have a name worth more than
// the list of their first tokens.
var productionNames = map[string]string{
	"Decl":       "a declaration: source, materialized view, streaming table, temporary view, view, sink or flow",
	"Stage":      "a stage: where, select, group, aggregate, join, window, union, except, intersect, distinct, order, limit or lateral view",
	"Query":      `a query: "from" ...`,
	"FromItem":   "a dataset name, range(...) or a query in parentheses",
	"TypeRef":    "a type",
	"KeyValue":   `a "key" = "value" pair`,
	"ColumnDef":  "a column: NAME TYPE",
	"SignedInt":  "an integer",
	"Expr":       "an expression",
	"AndExpr":    "an expression",
	"NotExpr":    "an expression",
	"CmpExpr":    "an expression",
	"BitOrExpr":  "an expression",
	"BitXorExpr": "an expression",
	"BitAndExpr": "an expression",
	"ShiftExpr":  "an expression",
	"ConcatExpr": "an expression",
	"AddExpr":    "an expression",
	"MulExpr":    "an expression",
	"UnaryExpr":  "an expression",
	"Primary":    "an expression",
	"NamedExpr":  "an expression",
	"SortKey":    "an expression",
}

// tokenNames describes the token classes.
var tokenNames = map[string]string{
	"ident":    "a name",
	"int":      "an integer",
	"decimal":  "a number",
	"float":    "a number",
	"duration": "a duration such as 10s",
	"size":     "a size such as 64MB",
	"string":   "a 'string'",
	"dstring":  `a "string"`,
	"eof":      "the end of the file",
	"keyword":  "a keyword",
	"punct":    "an operator",
}

// ebnfNode is a parsed piece of participle's EBNF.
type ebnfNode struct {
	op   byte // 'l' literal, 't' token class, 'p' production, 's' sequence, 'a' alternatives, 'x' lookahead; '?', '*', '+', '!', '1' groups
	text string
	kids []*ebnfNode
}

type ebnfParser struct {
	toks []string
	i    int
}

func tokenizeEBNF(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\n' || c == '\t':
			i++
		case c == '"':
			q, err := strconv.QuotedPrefix(s[i:])
			if err != nil {
				q = s[i:]
			}
			out = append(out, q)
			i += len(q)
		case c == '<':
			j := strings.IndexByte(s[i:], '>')
			if j < 0 {
				j = len(s) - i - 1
			}
			out = append(out, s[i:i+j+1])
			i += j + 1
		case isLetter(c):
			j := i
			for j < len(s) && (isLetter(s[j]) || isDigit(s[j])) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		default:
			out = append(out, s[i:i+1])
			i++
		}
	}
	return out
}

func (p *ebnfParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *ebnfParser) next() string {
	t := p.peek()
	p.i++
	return t
}

func (p *ebnfParser) alt() *ebnfNode {
	n := &ebnfNode{op: 'a', kids: []*ebnfNode{p.seq()}}
	for p.peek() == "|" {
		p.next()
		n.kids = append(n.kids, p.seq())
	}
	if len(n.kids) == 1 {
		return n.kids[0]
	}
	return n
}

func (p *ebnfParser) seq() *ebnfNode {
	n := &ebnfNode{op: 's'}
	for {
		switch p.peek() {
		case "", ")", "|", ".":
			return n
		}
		n.kids = append(n.kids, p.term())
	}
}

func (p *ebnfParser) term() *ebnfNode {
	var n *ebnfNode
	t := p.next()
	switch {
	case strings.HasPrefix(t, `"`):
		s, err := strconv.Unquote(t)
		if err != nil {
			s = t
		}
		n = &ebnfNode{op: 'l', text: s}
	case strings.HasPrefix(t, "<"):
		n = &ebnfNode{op: 't', text: strings.Trim(t, "<>")}
	case t == "(":
		if p.peek() == "?" {
			p.next()
			p.next() // = or !
			p.alt()
			p.next() // )
			return &ebnfNode{op: 'x'}
		}
		n = &ebnfNode{op: '1', kids: []*ebnfNode{p.alt()}}
		p.next() // )
	case t == "~":
		p.term()
		return &ebnfNode{op: 'x'}
	case t != "":
		n = &ebnfNode{op: 'p', text: t}
	default:
		return &ebnfNode{op: 'x'}
	}
	switch m := p.peek(); m {
	case "?", "*", "+", "!":
		p.next()
		n = &ebnfNode{op: m[0], kids: []*ebnfNode{n}}
	}
	return n
}

// ebnfGrammar holds the productions of the grammar, parsed from its EBNF.
var ebnfGrammar = func() map[string]*ebnfNode {
	out := map[string]*ebnfNode{}
	p := &ebnfParser{toks: tokenizeEBNF(grammar().String())}
	for p.peek() != "" {
		name := p.next()
		p.next() // =
		out[name] = p.alt()
		p.next() // .
	}
	return out
}()

// grammarWords are the words the grammar spells (keywords, reserved or not).
var grammarWords = func() map[string]bool {
	out := map[string]bool{}
	var walk func(n *ebnfNode)
	walk = func(n *ebnfNode) {
		if n.op == 'l' && n.text != "" && isLetter(n.text[0]) {
			out[n.text] = true
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	for _, n := range ebnfGrammar {
		walk(n)
	}
	return out
}()

// first returns the descriptions of what can start n, and whether n can be empty.
func first(n *ebnfNode, depth int) ([]string, bool) {
	if depth > 50 {
		return nil, false
	}
	switch n.op {
	case 'l':
		return []string{strconv.Quote(n.text)}, false
	case 't':
		if d, ok := tokenNames[n.text]; ok {
			return []string{d}, false
		}
		return []string{n.text}, false
	case 'p':
		body := ebnfGrammar[n.text]
		if body == nil {
			return []string{n.text}, false
		}
		items, nullable := first(body, depth+1)
		if d, ok := productionNames[n.text]; ok {
			return []string{d}, nullable
		}
		return items, nullable
	case 's':
		var out []string
		for _, k := range n.kids {
			items, nullable := first(k, depth+1)
			out = append(out, items...)
			if !nullable {
				return out, false
			}
		}
		return out, true
	case 'a':
		var out []string
		nullable := false
		for _, k := range n.kids {
			items, null := first(k, depth+1)
			out = append(out, items...)
			nullable = nullable || null
		}
		return out, nullable
	case '?', '*':
		items, _ := first(n.kids[0], depth+1)
		return items, true
	case '+', '!', '1':
		return first(n.kids[0], depth+1)
	}
	return nil, true
}

// expectedFrom describes the EBNF remainder participle says it expected.
func expectedFrom(remainder string) string {
	p := &ebnfParser{toks: tokenizeEBNF(remainder)}
	items, _ := first(p.alt(), 0)
	return suggest.OrList(dedupe(items))
}

func dedupe(items []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, it := range items {
		if !seen[it] {
			seen[it] = true
			out = append(out, it)
		}
	}
	return out
}

// describeToken names what was found.
func describeToken(t lexer.Token) string {
	v := t.Value
	if len(v) > 40 {
		v = v[:37] + "..."
	}
	switch t.Type {
	case lexer.EOF:
		return "end of file"
	case tokKeyword, tokPunct:
		return strconv.Quote(v)
	case tokIdent:
		if grammarWords[strings.ToLower(v)] {
			return strconv.Quote(v)
		}
		return "identifier " + strconv.Quote(v)
	case tokInt, tokDecimal, tokFloat:
		return "number " + v
	case tokDuration:
		return "duration " + v
	case tokSize:
		return "size " + v
	case tokString, tokDString:
		return "string " + v
	}
	return strconv.Quote(v)
}

// chunk is a run of tokens holding one declaration (or the file header).
type chunk struct{ start, end int }

// declChunks cuts the tokens (without the final EOF) before every token that
// starts a line and, with what follows, looks like the start of a declaration.
func declChunks(toks []lexer.Token) []chunk {
	n := len(toks) - 1
	var starts []int
	word := func(i int) string {
		if i < n && toks[i].Type == tokIdent {
			return strings.ToLower(toks[i].Value)
		}
		return ""
	}
	isName := func(i int) bool { return i < n && toks[i].Type == tokIdent }
	for i := 0; i < n; i++ {
		if i > 0 && toks[i-1].Pos.Line == toks[i].Pos.Line {
			continue
		}
		ok := false
		switch word(i) {
		case "source", "view", "sink":
			ok = isName(i + 1)
		case "materialized", "temporary":
			ok = word(i+1) == "view"
		case "streaming":
			ok = word(i+1) == "table"
		case "flow":
			ok = isName(i+1) && word(i+2) == "into"
		}
		if ok {
			starts = append(starts, i)
		}
	}
	var out []chunk
	prev := 0
	for _, s := range starts {
		if s > prev {
			out = append(out, chunk{prev, s})
		}
		prev = s
	}
	if prev < n || len(out) == 0 {
		out = append(out, chunk{prev, n})
	}
	return out
}

// syntaxErrors reports one syntax error per declaration that does not parse.
// A declaration holding a fatal lexical error (input the lexer had to skip)
// reports only that. whole is the error of the whole file, reported when the
// cut finds none.
func syntaxErrors(src *source, toks []lexer.Token, lexErrs []lexError, whole error) ir.Diagnostics {
	var out ir.Diagnostics
	syntax := 0
	for _, c := range declChunks(toks) {
		lo, hi := 0, len(src.text)+1
		if c.start > 0 {
			lo = toks[c.start].Pos.Offset
		}
		if c.end < len(toks)-1 {
			hi = toks[c.end].Pos.Offset
		}
		skip := false
		for _, e := range lexErrs {
			if e.fatal && e.pos.Offset >= lo && e.pos.Offset < hi {
				skip = true
			}
		}
		if skip {
			continue
		}
		ct := make([]lexer.Token, 0, c.end-c.start+1)
		ct = append(ct, toks[c.start:c.end]...)
		next := toks[c.end]
		ct = append(ct, lexer.Token{Type: lexer.EOF, Pos: next.Pos})
		ast, err := parseTokens(ct, false)
		if err != nil {
			out = append(out, diagnose(src, ct, next, err))
			syntax++
			continue
		}
		// The declaration parses: report its other errors too.
		l := &lowerer{file: toks[0].Pos.Filename, src: src}
		l.lowerFile(ast)
		out = append(out, l.diags...)
	}
	if syntax == 0 && len(lexErrs) == 0 {
		out = append(out, diagnose(src, toks, toks[len(toks)-1], whole))
	}
	return out
}

// diagnose turns a participle error on the chunk toks into a diagnostic.
// next is the token after the chunk, shown when the chunk's EOF was unexpected.
func diagnose(src *source, toks []lexer.Token, next lexer.Token, err error) *ir.Diagnostic {
	d := &ir.Diagnostic{Code: ir.CodeSyntax}
	var ute *participle.UnexpectedTokenError
	var perr participle.Error
	switch {
	case errors.As(err, &ute):
		tok := ute.Unexpected
		if tok.EOF() {
			tok = next
		}
		d.Pos = irPos(tok.Pos)
		expected, ok := expectedOf(ute)
		if !ok {
			expected = expectedAfter(toks, ute.Unexpected)
		}
		d.Msg = "unexpected " + describeToken(tok) + didYouMean(tok, expected) + ", expected " + expected + pipeNotOr(toks, tok)
	case errors.As(err, &perr):
		d.Pos = irPos(perr.Position())
		d.Msg = perr.Message()
	default:
		d.Pos = irPos(toks[0].Pos)
		d.Msg = err.Error()
	}
	if d.Pos.Line == 0 {
		d.Pos.Line, d.Pos.Col = 1, 1
	}
	d.Source = src.line(d.Pos.Offset)
	return d
}

// pipeNotOr explains a stage that does not start after a pipe that
// follows an expression: outside parentheses | is the pipe, not bitwise OR.
func pipeNotOr(toks []lexer.Token, tok lexer.Token) string {
	for i, t := range toks {
		if t.Pos.Offset != tok.Pos.Offset || i < 2 || tok.EOF() {
			continue
		}
		p, x := toks[i-1], toks[i-2]
		afterFrom := i >= 3 && strings.EqualFold(toks[i-3].Value, "from") // from t | x: t is a dataset
		if p.Type == tokPunct && p.Value == "|" && p.Pos.Line == x.Pos.Line && !afterFrom &&
			(x.Type == tokIdent || x.Type == tokInt || x.Value == ")") && (tok.Type == tokIdent || tok.Type == tokInt || tok.Value == "(") {
			return " (| between stages is the pipe; bitwise OR is written in parentheses: (a | b))"
		}
	}
	return ""
}

// didYouMean names the keyword an identifier where it is not expected is
// likely a slip of, among the words the expectation names (a stage: where,
// select, ...): " (did you mean where?)", or "".
func didYouMean(tok lexer.Token, expected string) string {
	if tok.Type != tokIdent || len(tok.Value) < 3 {
		return ""
	}
	var words []string
	for _, w := range strings.FieldsFunc(expected, func(r rune) bool { return r > 0x7f || !isLetter(byte(r)) }) {
		if grammarWords[w] && !connectives[w] && !containsWord(words, w) {
			words = append(words, w)
		}
	}
	if k, ok := suggest.Closest(tok.Value, words); ok {
		return " (did you mean " + k + "?)"
	}
	return ""
}

// connectives are the words of an expectation's wording, not keywords
// one meant.
var connectives = map[string]bool{"a": true, "an": true, "and": true, "or": true, "the": true, "of": true, "as": true}

func containsWord(list []string, w string) bool {
	for _, x := range list {
		if x == w {
			return true
		}
	}
	return false
}

// expectations caches the described expectation of a grammar node, keyed by
// the node's address: participle renders a node's EBNF (all of the grammar
// it reaches) on every Message, which costs as much as parsing.
var expectations sync.Map

// expectedOf describes what the parser expected, when it said.
func expectedOf(ute *participle.UnexpectedTokenError) (string, bool) {
	var key uintptr
	if f := reflect.ValueOf(ute).Elem().FieldByName("expectNode"); f.IsValid() && f.Kind() == reflect.Interface && !f.IsNil() && f.Elem().Kind() == reflect.Pointer {
		key = f.Elem().Pointer()
		if s, ok := expectations.Load(key); ok {
			return s.(string), true
		}
	}
	msg := ute.Message()
	prefix := fmt.Sprintf("unexpected token %q (expected ", ute.Unexpected)
	if !strings.HasPrefix(msg, prefix) || !strings.HasSuffix(msg, ")") {
		return "", false
	}
	s := expectedFrom(msg[len(prefix) : len(msg)-1])
	if key != 0 {
		expectations.Store(key, s)
	}
	return s, true
}

const (
	datasetClauseWords = "a dataset clause (id, comment, catalog, database, set, format, partitioned by, cluster by, properties, options, materialize, expect, quarantine table)"
	flowClauseWords    = "a flow clause (comment, set, apply changes, trigger, output mode, emit, late table)"
	newDecl            = "a new declaration (source, materialized view, streaming table, temporary view, view, sink, flow)"
)

// expectedAfter describes what may follow the declaration that ends just
// before tok, the first token the grammar could not take: it parses the
// tokens before tok and looks at how the last declaration ended.
func expectedAfter(toks []lexer.Token, tok lexer.Token) string {
	ast, err := parseTokens(toks, true)
	if err != nil || ast == nil || len(ast.Decls) == 0 {
		return "a header (pipeline, catalog, database, storage, set) or " + newDecl
	}
	d := ast.Decls[len(ast.Decls)-1]
	var items []string
	stages := `"|" and a stage`
	// a query that ends in group by keys may go on with aggregate
	var q *query
	var clauses int
	if d.Flow != nil {
		q, clauses = d.Flow.Query, len(d.Flow.Clauses)
	}
	for _, x := range []*datasetDecl{d.MaterializedView, d.StreamingTable, d.TemporaryView, d.View, d.Sink} {
		if x != nil && x.Body != nil {
			q, clauses = x.Body.Query, len(x.Body.Clauses)
		}
	}
	if q != nil && clauses == 0 {
		if st := q.Stages; len(st) > 0 && st[len(st)-1].Group != nil && len(st[len(st)-1].Group.Aggs) == 0 {
			stages = `"aggregate" and the aggregates, ` + stages
		}
	}
	switch {
	case d.Source != nil:
		items = []string{datasetClauseWords}
	case d.Flow != nil && d.Flow.Query == nil && len(d.Flow.Clauses) == 0:
		items = []string{`"=" and a query`, flowClauseWords}
	case d.Flow != nil && d.Flow.Query == nil:
		items = []string{flowClauseWords}
	case d.Flow != nil && len(d.Flow.Clauses) == 0:
		items = []string{stages, flowClauseWords}
	case d.Flow != nil:
		items = []string{flowClauseWords}
	default:
		dd := d.MaterializedView
		for _, x := range []*datasetDecl{d.StreamingTable, d.TemporaryView, d.View, d.Sink} {
			if x != nil {
				dd = x
			}
		}
		switch {
		case dd == nil:
		case dd.Body == nil && d.Sink != nil:
			items = []string{datasetClauseWords}
		case dd.Body == nil:
			items = []string{datasetClauseWords, `"=" and a query`}
		case len(dd.Body.Clauses) == 0:
			items = []string{stages, flowClauseWords}
		default:
			items = []string{flowClauseWords}
		}
	}
	return suggest.OrList(append(items, newDecl))
}

// sortedKeys is a small helper for deterministic output.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
