package sql

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/nordisk/thund/internal/suggest"
	"github.com/nordisk/thund/ir"
)

// File is one pipeline SQL file. Name is used in positions and, through its
// folder, to find the files a read_files(...) without a schema reads to infer
// one.
type File struct {
	Name string
	Src  []byte
}

// Options are the graph defaults a pipeline spec gives (spark-pipeline.yml's
// catalog and database), and the external tables it binds to sources.
type Options struct {
	// Catalog and Database are the pipeline's defaults. Every file starts
	// from them, as Spark's SqlGraphRegistrationContext does; a dataset
	// declared where they are in force keeps Catalog and Database "".
	Catalog  string
	Database string
	// Sources binds names the pipeline reads but does not define to file
	// sources (the spec's thund.source.<name> entries).
	Sources []SourceBinding
	// Root is the folder relative file paths are read from to infer a
	// schema: the pipeline's folder, where it runs. "" means each SQL
	// file's own folder (right for SQL files given alone).
	Root string
}

// SourceBinding binds an external table name to a source: Spec is the text
// of a read_files(...) call, optionally preceded by STREAM and followed by a
// WATERMARK clause. Dir is the folder that relative paths are read from
// when the schema is inferred; Pos is where the binding was written.
type SourceBinding struct {
	Pos  ir.Pos
	Name string
	Spec string
	Dir  string
}

// Parse parses the SQL files of one pipeline. Statements are split on
// top-level semicolons and each is parsed and converted on its own, so that
// every statement's errors are reported. SET and USE apply to the later
// statements of their own file only. On any error the pipeline is nil.
func Parse(files []File) (*ir.Pipeline, ir.Diagnostics) {
	return ParseWith(files, Options{})
}

// ParseWith is Parse with graph defaults and source bindings.
func ParseWith(files []File, opts Options) (p *ir.Pipeline, diags ir.Diagnostics) {
	b := newBuilder(opts)
	defer func() {
		// A panic is a bug in this package; report it as a diagnostic rather
		// than take the compiler down (FuzzParseSQL fails on it).
		if r := recover(); r != nil {
			at := ir.Pos{File: "<sql>"}
			if len(files) > 0 {
				at.File = files[0].Name
			}
			b.internalError(at, r)
			b.diags.Sort()
			p, diags = nil, b.diags
		}
	}()
	for _, f := range files {
		b.parseFile(f)
	}
	b.bindSources()
	b.finish()
	b.noDatasets(files)
	b.diags.Sort()
	if b.diags.HasErrors() {
		return nil, b.diags
	}
	return b.p, b.diags
}

// noDatasets refuses a pipeline that declares no dataset at all (a file
// whose line ends its lexer misread, or one of comments only, would
// otherwise build an empty pipeline), and warns of each file among several
// that declares nothing.
func (b *builder) noDatasets(files []File) {
	if b.diags.HasErrors() {
		return
	}
	if len(b.p.Datasets) == 0 && len(files) > 0 {
		names := make([]string, len(files))
		for i, f := range files {
			names[i] = f.Name
		}
		b.diags.Add(ir.Pos{File: files[0].Name, Line: 1, Col: 1}, ir.CodeSyntax,
			"the pipeline declares no dataset: %s holds no CREATE MATERIALIZED VIEW, STREAMING TABLE, VIEW, TEMPORARY VIEW or SINK", strings.Join(names, ", "))
		return
	}
	if len(files) > 1 {
		for _, name := range b.empty {
			b.diags.Warn(ir.Pos{File: name, Line: 1, Col: 1}, ir.CodeSyntax, "%s declares no dataset and no flow", name)
		}
	}
}

// fileState is the USE / SET state of one file, as Spark keeps it per
// DefineSqlGraphElements call.
type fileState struct {
	name     string
	dir      string
	catalog  string // "" = the pipeline's
	database string // "" = the pipeline's
	conf     []ir.KV
}

func (fs *fileState) setConf(kv ir.KV) {
	for i := range fs.conf {
		if fs.conf[i].Key == kv.Key {
			fs.conf[i].Value, fs.conf[i].Pos = kv.Value, kv.Pos // the SET in force, for positioned conf errors
			return
		}
	}
	fs.conf = append(fs.conf, kv)
}

func (fs *fileState) confCopy() []ir.KV {
	if len(fs.conf) == 0 {
		return nil
	}
	return append([]ir.KV(nil), fs.conf...)
}

// builder accumulates the pipeline across files.
type builder struct {
	opts  Options
	p     *ir.Pipeline
	diags ir.Diagnostics
	empty []string // the files that declared no dataset and no flow

	// scans records, per Scan of a pipeline or external name, the USE
	// state in force where it was written (for qualified-name resolution).
	scans []scanRef
	// knobs are the flow knobs of each dataset, applied to every flow into
	// it once all files are read.
	knobs map[string]*flowKnobs
	// synth counts the synthesized sources per flow name.
	synth map[string]int
	// synthesized are the sources made for inline file reads, and
	// synthMemo finds them by the read's AST node.
	synthesized []*synthSource
	synthMemo   map[synthKey]*synthSource
}

type scanRef struct {
	scan     *ir.Scan
	catalog  string
	database string
	// extra are the read's time travel and WITH options, which only a
	// name bound to an Iceberg table takes (bindSources), and flow the
	// flow whose query reads it (to name the source such a read gets)
	extra []ir.KV
	flow  string
	bound bool // a binding took extra
}

func newBuilder(opts Options) *builder {
	return &builder{
		opts:      opts,
		p:         &ir.Pipeline{Catalog: opts.Catalog, Database: opts.Database},
		knobs:     map[string]*flowKnobs{},
		synth:     map[string]int{},
		synthMemo: map[synthKey]*synthSource{},
	}
}

func (b *builder) parseFile(f File) {
	dir := b.opts.Root
	if dir == "" {
		dir = filepath.Dir(f.Name)
	}
	fs := &fileState{name: f.Name, dir: dir}
	datasets, flows := len(b.p.Datasets), len(b.p.Flows)
	stmts := splitStatements(f.Name, ir.NormalizeLineEnds(f.Src))
	// parsed a window at a time, so that only a window's trees are held
	for lo := 0; lo < len(stmts); lo += parseWindow {
		window := stmts[lo:min(lo+parseWindow, len(stmts))]
		ahead := parseAhead(window)
		for i, st := range window {
			b.statement(fs, st, ahead[i])
		}
	}
	if len(b.p.Datasets) == datasets && len(b.p.Flows) == flows {
		b.empty = append(b.empty, f.Name)
	}
}

// lexerPos converts an IR position back.
func lexerPos(p ir.Pos) lexer.Position {
	line, col := p.Line, p.Col
	if line == 0 {
		line, col = 1, 1
	}
	return lexer.Position{Filename: p.File, Offset: p.Offset, Line: line, Column: col}
}

// pos converts a participle position.
func pos(p lexer.Position) ir.Pos {
	return ir.Pos{File: p.Filename, Offset: p.Offset, Line: p.Line, Col: p.Column}
}

// internalErrorMsg starts the message of a diagnostic for a bug in this
// package (a recovered panic).
const internalErrorMsg = "internal error in the SQL frontend"

func (b *builder) internalError(p ir.Pos, r any) {
	b.diags.Add(p, ir.CodeSyntax, "%s: %v", internalErrorMsg, r)
}

// parseWindow is how many statements are parsed ahead of their
// conversion at a time.
const parseWindow = 256

// parsed is one statement lexed, and parsed when it is a statement the
// grammar takes (not SET, not refused by name, not too deep).
type parsed struct {
	toks   []lexer.Token
	lexErr error
	ast    *stmtAST
	err    error // the parser's
}

// parseAhead lexes and parses a file's statements on every processor: each
// statement parses on its own (conversion, which carries the file's USE and
// SET state, comes after, in order), so a file's parse time divides by the
// cores.
func parseAhead(stmts []statement) []parsed {
	out := make([]parsed, len(stmts))
	workers := min(runtime.GOMAXPROCS(0), len(stmts))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { _ = recover() }() // a panic here is found again, and reported, by statement
			for {
				i := int(next.Add(1) - 1)
				if i >= len(stmts) {
					return
				}
				out[i] = parseOne(stmts[i])
			}
		}()
	}
	wg.Wait()
	return out
}

// parseOne lexes and parses one statement.
func parseOne(st statement) (p parsed) {
	p.toks, p.lexErr = lexStatement(st)
	toks := p.toks
	if p.lexErr != nil || len(toks) == 0 || toks[0].EOF() {
		return p
	}
	if strings.EqualFold(toks[0].Value, "SET") && toks[0].Type == tokIdent || unsupportedStatement(toks) != "" {
		return p
	}
	if _, deep := tooDeep(toks); deep {
		return p
	}
	p.ast, p.err = parser().ParseFromLexer(mustUpgrade(toks))
	return p
}

// statement converts one statement, parsed ahead (or, after a panic there,
// now).
func (b *builder) statement(fs *fileState, st statement, ahead parsed) {
	before := len(b.diags)
	defer func() {
		if r := recover(); r != nil {
			b.internalError(pos(st.base), r)
		}
		if len(b.diags) > before {
		suspects:
			for _, off := range st.suspects {
				p := pos(advance(st.base, st.text[:off]))
				for _, d := range b.diags[before:] {
					if d.Pos == p {
						continue suspects
					}
				}
				b.diags.Add(p, ir.CodeSyntax, "this string runs on past a ';' and a line break, into the statements after it: is its closing quote missing?")
			}
		}
	}()
	if ahead.toks == nil && ahead.lexErr == nil {
		ahead = parseOne(st)
	}
	toks, err := ahead.toks, ahead.lexErr
	if err != nil {
		var le *lexer.Error
		if errors.As(err, &le) {
			b.diags.Add(pos(le.Pos), ir.CodeLex, "invalid character %s", describeLexError(st, le))
		} else {
			b.diags.Add(pos(st.base), ir.CodeLex, "%v", err)
		}
		return
	}
	if len(toks) == 0 || toks[0].EOF() {
		return
	}
	first := strings.ToUpper(toks[0].Value)
	switch {
	case first == "SET" && toks[0].Type == tokIdent:
		b.setStatement(fs, st, toks)
		return
	}
	if name := unsupportedStatement(toks); name != "" {
		b.add(pos(toks[0].Pos), st, "%s", refusal(name))
		return
	}
	if t, ok := tooDeep(toks); ok {
		b.add(pos(t.Pos), st, "too deeply nested: more than %d levels of parentheses and CASE expressions", maxNesting)
		return
	}
	ast, err := ahead.ast, ahead.err
	if err != nil {
		b.syntaxError(st, toks, err)
		return
	}
	c := &conv{b: b, fs: fs, st: st}
	c.stmt(ast, st.doc)
}

// maxNesting is how deep a statement's parentheses and CASE expressions
// may nest, as in the DSL: the parser's time and memory grow faster than
// the depth, and no real query comes near it.
const maxNesting = 200

// tooDeep finds the token that opens a level past maxNesting.
func tooDeep(toks []lexer.Token) (lexer.Token, bool) {
	return deeperThan(toks, maxNesting)
}

// deeperThan finds the token that opens a level of parentheses and CASE
// expressions past limit.
func deeperThan(toks []lexer.Token, limit int) (lexer.Token, bool) {
	depth := 0
	for _, t := range toks {
		switch {
		case t.Type == tokOperator && t.Value == "(" || t.Type == tokIdent && strings.EqualFold(t.Value, "case"):
			if depth++; depth > limit {
				return t, true
			}
		case t.Type == tokOperator && t.Value == ")" || t.Type == tokIdent && strings.EqualFold(t.Value, "end"):
			if depth > 0 {
				depth--
			}
		}
	}
	return lexer.Token{}, false
}

func mustUpgrade(toks []lexer.Token) *lexer.PeekingLexer {
	pl, err := lexer.Upgrade(&sliceLexer{toks: toks})
	if err != nil {
		panic(err) // sliceLexer never fails
	}
	return pl
}

func describeLexError(st statement, le *lexer.Error) string {
	off := le.Pos.Offset - st.base.Offset
	if off >= 0 && off < len(st.text) {
		_, size := utf8.DecodeRuneInString(st.text[off:])
		c := st.text[off : off+size] // a byte that is not UTF-8 stays itself: %q shows it as \xfe
		if c == "'" || c == `"` {
			return fmt.Sprintf("%q: unterminated string literal", c)
		}
		if c == "`" {
			return fmt.Sprintf("%q: unterminated quoted identifier", c)
		}
		return fmt.Sprintf("%q", c)
	}
	return le.Msg
}

// syntaxError reports a participle error, naming the unsupported Spark
// construct found where parsing stopped when there is one.
func (b *builder) syntaxError(st statement, toks []lexer.Token, err error) {
	var perr participle.Error
	if !errors.As(err, &perr) {
		b.diags.Add(pos(st.base), ir.CodeSyntax, "%v", err)
		return
	}
	p := perr.Position()
	idx := -1
	for i, t := range toks {
		if t.Pos.Offset == p.Offset {
			idx = i
			break
		}
	}
	if idx >= 0 {
		if name, at := unsupportedConstruct(toks, idx); name != "" {
			b.add(pos(toks[at].Pos), st, "%s", refusal(name))
			return
		}
		if at, msg, ok := misspeltAfterAlias(toks, idx); ok {
			b.add(pos(toks[at].Pos), st, "%s", msg)
			return
		}
		t := toks[idx]
		var v []string
		hint := ""
		if probing(toks) {
			v = viable(toks, idx)
			if idx == 0 {
				v = append(v, "SET") // read before parsing, see setStatement
			}
			d := v
			switch prev := toks[max(idx-1, 0)].Value; {
			case strings.EqualFold(prev, "SELECT"):
				d = without(v, "DISTINCT", "ALL") // SELECT's quantifier is no help to one who left out the list
			case prev == "<" || prev == ">":
				d = without(v, `"<"`, `">"`) // a shift's second character is no help after a comparison
			}
			if d := describeExpected(d); len(d) > 0 {
				hint = ": expected " + suggest.OrList(d)
			}
		} else {
			hint = expecting(perr.Message())
		}
		if hint == ": expected "+descExpr && idx > 0 {
			hint += " after " + strings.ToUpper(toks[idx-1].Value)
		}
		if typeExpected(toks, idx) {
			hint = ": expected a type"
		}
		if strings.EqualFold(t.Value, "WATERMARK") && t.Type == tokIdent {
			hint = ": WATERMARK col DELAY OF INTERVAL ... comes right after the table it reads, before AS alias"
		}
		if t.EOF() {
			b.add(pos(t.Pos), st, "unexpected end of statement%s", hint)
			return
		}
		if t.Type == tokIdent {
			if k, ok := didYouMean(t.Value, v); ok {
				b.add(pos(t.Pos), st, "unexpected %s (did you mean %s?)%s", describeToken(t), k, hint)
				return
			}
		}
		b.add(pos(t.Pos), st, "unexpected %s%s", describeToken(t), hint)
		return
	}
	b.add(pos(p), st, "%s", perr.Message())
}

// exprIntro are the tokens an expression follows.
var exprIntro = wordSet(`SELECT WHERE HAVING ON AND OR NOT BY WHEN THEN ELSE = <> != < <= > >= + - * / % || , ( DISTINCT EXPECT`)

// add reports a syntax error with the offending line as Source.
func (b *builder) add(p ir.Pos, st statement, format string, args ...any) {
	b.diags.Add(p, ir.CodeSyntax, format, args...)
	b.diags[len(b.diags)-1].Source = lineAt(st, p)
}

func lineAt(st statement, p ir.Pos) string {
	off := p.Offset - st.base.Offset
	if off < 0 || off > len(st.text) {
		return ""
	}
	start := strings.LastIndexByte(st.text[:off], '\n') + 1
	end := strings.IndexByte(st.text[off:], '\n')
	if end < 0 {
		end = len(st.text)
	} else {
		end += off
	}
	if start == 0 && st.base.Column > 1 {
		return "" // the line starts before the statement; do not guess
	}
	return strings.TrimRight(st.text[start:end], " \t\r")
}

func describeToken(t lexer.Token) string {
	switch t.Type {
	case tokIdent:
		return fmt.Sprintf("%q", t.Value)
	case tokString, tokRawStr:
		return "string " + t.Value
	case tokNumber:
		return "number " + t.Value
	case tokQIdent:
		return "identifier " + t.Value
	}
	return fmt.Sprintf("%q", t.Value)
}

// expectedHead matches the start of participle's "expected" grammar: its
// first token, a literal or a token class.
var expectedHead = regexp.MustCompile(`^("[^"]+"|<[a-z]+>)`)

// expecting turns participle's "(expected ...)" into a hint naming the
// first token that would have fitted, when the grammar starts with one.
func expecting(msg string) string {
	i := strings.Index(msg, "(expected ")
	if i < 0 {
		return ""
	}
	m := expectedHead.FindString(msg[i+len("(expected "):])
	switch m {
	case "", `"*"`: // "*" is the select-list star: the grammar wanted an expression
		return ""
	case "<number>":
		return ": expected a number"
	case "<string>":
		return ": expected a string"
	case "<ident>":
		return ": expected a name"
	}
	return ": expected " + m
}

// setKey is the form of an unquoted SET key (Spark's configKeyValueDef).
var setKey = regexp.MustCompile(`^[A-Za-z0-9_.:]+$`)

// setStatement handles SET key = value, SET CATALOG c and SET TIME ZONE 'z'.
// As in Spark, the value is the raw text after '=' (trimmed).
func (b *builder) setStatement(fs *fileState, st statement, toks []lexer.Token) {
	if len(toks) >= 3 && strings.EqualFold(toks[1].Value, "CATALOG") && toks[1].Type == tokIdent {
		c := &conv{b: b, fs: fs}
		name := unquoteIdent(toks[2].Value)
		if toks[2].Type == tokString {
			name = unquoteString(toks[2].Value)
		}
		if len(toks) != 4 || !(toks[2].Type == tokIdent || toks[2].Type == tokQIdent || toks[2].Type == tokString) {
			b.add(pos(toks[0].Pos), st, "SET CATALOG takes one catalog name")
			return
		}
		c.useCatalog(name)
		return
	}
	if len(toks) >= 3 && strings.EqualFold(toks[1].Value, "TIME") && strings.EqualFold(toks[2].Value, "ZONE") {
		if len(toks) != 5 || toks[3].Type != tokString {
			b.add(pos(toks[0].Pos), st, "SET TIME ZONE takes one zone name in quotes")
			return
		}
		fs.setConf(ir.KV{Pos: pos(toks[0].Pos), Key: "spark.sql.session.timeZone", Value: unquoteString(toks[3].Value)})
		return
	}
	// Find the first '=' token; the key is the text before it.
	eq := -1
	for i, t := range toks {
		if t.Type == tokOperator && t.Value == "=" {
			eq = i
			break
		}
	}
	if eq < 0 {
		if len(toks) <= 2 {
			b.add(pos(toks[0].Pos), st, "SET without a key and value is not supported in pipeline SQL: write SET key = value")
		} else {
			b.add(pos(toks[0].Pos), st, "SET without a value is not supported in pipeline SQL: write SET key = value")
		}
		return
	}
	if eq == 1 {
		b.add(pos(toks[1].Pos), st, "SET needs a key before '='")
		return
	}
	keyStart := toks[1].Pos.Offset - st.base.Offset
	keyEnd := toks[eq].Pos.Offset - st.base.Offset
	key := strings.TrimSpace(st.text[keyStart:keyEnd])
	if eq == 2 {
		switch toks[1].Type {
		case tokQIdent:
			key = unquoteIdent(toks[1].Value)
		case tokString, tokRawStr:
			key = unquoteString(toks[1].Value)
		}
	}
	if quotedKey := eq == 2 && toks[1].Type != tokIdent; !quotedKey && !setKey.MatchString(key) {
		b.add(pos(toks[1].Pos), st, "invalid SET key %q: quote a key with other characters than letters, digits, _ . and : in back-quotes", key)
		return
	}
	valStart := toks[eq].Pos.Offset - st.base.Offset + 1
	value := strings.TrimSpace(st.text[valStart:])
	if len(toks) == eq+3 && toks[eq+1].Type == tokQIdent {
		value = unquoteIdent(toks[eq+1].Value)
	}
	if value == "" {
		b.add(pos(toks[eq].Pos), st, "SET %s has no value after '='", key)
		return
	}
	fs.setConf(ir.KV{Pos: pos(toks[0].Pos), Key: key, Value: value})
}
