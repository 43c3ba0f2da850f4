package sql

import (
	"errors"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/nordisk/thund/internal/suggest"
)

// What a syntax error expected. participle says what it wanted only when a
// production it entered fails, and then in EBNF; when a statement parses but
// leaves tokens over, or when an implicit alias swallowed a misspelt keyword
// (FROM trips GRUOP BY: GRUOP is an alias, BY the error), it says nothing
// useful. So the expectation is found by asking the parser: each word and
// token the grammar knows is tried in the place of the unexpected one, and
// those it takes are what was expected, described in a few words
// (describeExpected).

// probe is one token tried where parsing stopped.
type probe struct {
	typ   lexer.TokenType
	value string
	desc  string   // how a message names it
	next  []string // the words the grammar spells right after it, tried with it when it fails alone
}

// Token classes, tried as a sample of each.
const (
	descName   = "a name"
	descNumber = "a number"
	descString = "a string"
	descEnd    = "the end of the statement"
	descExpr   = "an expression"
	descOp     = "an operator"
	descQuery  = "a query"
)

// probes are the tokens tried: a sample of each token class, then the
// grammar's words and operators, in the order the grammar first spells them.
var probes = sync.OnceValue(func() []probe {
	out := []probe{
		{typ: tokIdent, value: "thund_probe_name", desc: descName},
		{typ: tokNumber, value: "1", desc: descNumber},
		{typ: tokString, value: "'s'", desc: descString},
	}
	seen := map[string]int{}
	ebnf := parser().String()
	for _, m := range ebnfLiteral.FindAllStringSubmatchIndex(ebnf, -1) {
		lit := ebnf[m[2]:m[3]]
		key := strings.ToUpper(lit)
		i, ok := seen[key]
		if !ok {
			i = len(out)
			seen[key] = i
			if isWord(lit) {
				out = append(out, probe{typ: tokIdent, value: key, desc: key})
			} else {
				out = append(out, probe{typ: tokOperator, value: lit, desc: `"` + lit + `"`})
			}
		}
		// OR in CREATE OR REFRESH fails alone where the grammar backs out
		// of an optional group: it is tried with the word after it
		if n := ebnfNextWord.FindStringSubmatch(ebnf[m[1]:]); n != nil && !contains(out[i].next, strings.ToUpper(n[1])) {
			out[i].next = append(out[i].next, strings.ToUpper(n[1]))
		}
	}
	return out
})

// ebnfLiteral matches a quoted literal of participle's EBNF, and
// ebnfNextWord the word literal right after one (past opening parentheses).
var (
	ebnfLiteral  = regexp.MustCompile(`"((?:[^"\\]|\\.)+)"`)
	ebnfNextWord = regexp.MustCompile(`^[\s(]*"([A-Za-z_]+)"`)
)

func isWord(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// viable returns the descriptions of the probes the parser takes after
// toks[:idx], in probe order; "the end of the statement" last, when the
// statement may end there. Each probe parses the prefix again, so they run
// side by side.
func viable(toks []lexer.Token, idx int) []string {
	return viableAfter(shorten(toks[:idx]), toks[idx].Pos)
}

// clauseWord are words that are not reserved but start a clause where an
// implicit alias could stand (notAlias): probed, not taken for a name.
var clauseWord = wordSet(`offset`)

// viableAfter is viable for the tokens prefix, probed at position at.
func viableAfter(prefix []lexer.Token, at lexer.Position) []string {
	ps := probes()
	name := takes(prefix, lexer.Token{Type: ps[0].typ, Value: ps[0].value, Pos: at})
	got := make([]string, len(ps))
	if name {
		got[0] = ps[0].desc
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				got[i] = tryProbe(prefix, ps[i], at)
			}
		}()
	}
	for i, p := range ps[1:] {
		if w := strings.ToLower(p.value); name && p.typ == tokIdent && !reserved[w] && !clauseWord[w] {
			continue // a word that is not reserved is taken as a name anywhere a name is
		}
		next <- i + 1
	}
	close(next)
	wg.Wait()
	var out []string
	for _, d := range got {
		if d != "" {
			out = append(out, d)
		}
	}
	if takes(prefix, lexer.Token{}) {
		out = append(out, descEnd)
	}
	return out
}

// shorten returns a prefix of a statement that the parser leaves in the
// same state as prefix, with the parts no later token depends on cut down
// to one token, as parsing a prefix again for each probe costs time in its
// length: a query in parentheses closed before the end becomes SELECT 1, a
// select list followed by its FROM becomes 1, and so do the items of one
// before its last comma, and a WHERE or HAVING condition followed by the
// next clause.
func shorten(prefix []lexer.Token) []lexer.Token {
	out := make([]lexer.Token, 0, len(prefix))
	one := func(at lexer.Position) lexer.Token { return lexer.Token{Type: tokNumber, Value: "1", Pos: at} }
	word := func(t lexer.Token, w string) bool { return t.Type == tokIdent && strings.EqualFold(t.Value, w) }
	op := func(t lexer.Token, o string) bool { return t.Type == tokOperator && t.Value == o }
	// span[d] is where the open select list or condition at depth d starts
	// in out (-1: none)
	span := []int{-1}
	depth := 0
	for i := 0; i < len(prefix); i++ {
		t := prefix[i]
		switch {
		case op(t, "(") && i+1 < len(prefix) && (word(prefix[i+1], "SELECT") || word(prefix[i+1], "WITH")):
			if j := closing(prefix, i); j >= 0 {
				out = append(out, t, lexer.Token{Type: tokIdent, Value: "SELECT", Pos: prefix[i+1].Pos}, one(prefix[i+1].Pos), prefix[j])
				i = j
				continue
			}
			depth++
			span = append(span, -1)
		case op(t, "("):
			depth++
			span = append(span, -1)
		case op(t, ")"):
			if depth > 0 {
				depth--
				span = span[:len(span)-1]
			}
		case op(t, ",") && span[depth] >= 0:
			// the items of a select list so far are as good as one
			out = append(out[:span[depth]], one(out[span[depth]].Pos))
		case t.Type == tokIdent && clauseWords[strings.ToUpper(t.Value)] &&
			!(word(t, "FROM") && i > 0 && word(prefix[i-1], "DISTINCT")) && // IS DISTINCT FROM
			!(word(t, "EXCEPT") && i > 0 && op(prefix[i-1], "*")) && // * EXCEPT (...)
			!(i > 0 && (word(prefix[i-1], "AS") || op(prefix[i-1], "."))): // a name after AS or a dot
			if s := span[depth]; s >= 0 && len(out)-s > 1 {
				out = append(out[:s], one(out[s].Pos))
			}
			span[depth] = -1
			out = append(out, t)
			switch {
			case word(t, "SELECT"):
				if i+1 < len(prefix) && (word(prefix[i+1], "DISTINCT") || word(prefix[i+1], "ALL")) {
					i++
					out = append(out, prefix[i])
				}
				span[depth] = len(out)
			case word(t, "WHERE"), word(t, "HAVING"):
				span[depth] = len(out)
			}
			continue
		}
		out = append(out, t)
	}
	return out
}

// clauseWords start or end the clauses of a query block.
var clauseWords = wordSet(`SELECT FROM WHERE GROUP HAVING ORDER LIMIT OFFSET UNION EXCEPT INTERSECT MINUS WINDOW
	QUALIFY CLUSTER DISTRIBUTE SORT`)

// closing returns the index of the parenthesis that closes toks[open], or
// -1 when it is not closed.
func closing(toks []lexer.Token, open int) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		switch t := toks[i]; {
		case t.Type == tokOperator && t.Value == "(":
			depth++
		case t.Type == tokOperator && t.Value == ")":
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// tryProbe returns how a message names p when the parser takes it after
// prefix, alone or with a word the grammar spells after it, else "".
func tryProbe(prefix []lexer.Token, p probe, at lexer.Position) string {
	t := lexer.Token{Type: p.typ, Value: p.value, Pos: at}
	if takes(prefix, t) {
		return p.desc
	}
	for _, n := range p.next {
		nt := lexer.Token{Type: tokIdent, Value: n, Pos: at}
		nt.Pos.Offset++
		if takes(append(prefix[:len(prefix):len(prefix)], t), nt) {
			if phrases[p.desc] != "" {
				return p.desc
			}
			return p.desc + " " + n
		}
	}
	return ""
}

// takes reports whether the parser, given prefix then t (none when t is
// the zero token), gets past t: it parses, or it stops only at the end.
func takes(prefix []lexer.Token, t lexer.Token) bool {
	toks := append([]lexer.Token{}, prefix...)
	end := lexer.Position{Offset: 1 << 30}
	if len(prefix) > 0 {
		end = prefix[len(prefix)-1].Pos
		end.Offset += 1 << 20
	}
	if t.Type != 0 {
		toks = append(toks, t)
	}
	toks = append(toks, lexer.Token{Type: lexer.EOF, Pos: end})
	_, err := parser().ParseFromLexer(mustUpgrade(toks))
	if err == nil {
		return true
	}
	if t.Type == 0 {
		return false
	}
	var perr participle.Error
	return errors.As(err, &perr) && perr.Position().Offset > t.Pos.Offset
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// exprStarts are the probes that start an expression other than a name, a
// number or a string, described together as "an expression".
var exprStarts = wordSet(`( * - + ~ ! NOT CASE CAST TRY_CAST EXISTS INTERVAL DATE TIMESTAMP TIMESTAMP_LTZ
	TIMESTAMP_NTZ TIME X TRUE FALSE NULL EXTRACT POSITION LEFT RIGHT RLIKE REGEXP LIKE ILIKE FILTER`)

// binaryOps are the probes that continue an expression, described together
// as "an operator".
var binaryOps = wordSet(`OR AND NOT ! BETWEEN IN LIKE ILIKE RLIKE REGEXP IS <=> == = <> != <= >= < > & | ^
	+ - || * / % DIV :: [ .`)

// joinWords start a join, described together as JOIN.
var joinWords = wordSet(`NATURAL INNER CROSS LEFT RIGHT FULL SEMI ANTI JOIN`)

// phrases are the words that always come with the next: GROUP is GROUP BY.
var phrases = map[string]string{
	"GROUP": "GROUP BY", "ORDER": "ORDER BY", "PARTITIONED": "PARTITIONED BY", "CLUSTER": "CLUSTER BY",
	"SEQUENCE": "SEQUENCE BY", "DELAY": "DELAY OF", "MATERIALIZED": "MATERIALIZED VIEW",
	"STREAMING": "STREAMING TABLE", "TEMPORARY": "TEMPORARY VIEW", "TEMP": "TEMP VIEW", "APPLY": "APPLY CHANGES",
	"AUTO": "AUTO CDC", "LATERAL": "LATERAL VIEW",
}

// clauseOrder is the order of the clauses a message lists: as a query
// writes them. Other words and operators come before them, in grammar
// order, and the end of the statement last.
var clauseOrder = []string{"WATERMARK", "AS", `","`, "JOIN", "LATERAL VIEW", "FROM", "WHERE", "GROUP BY", "HAVING", "WINDOW", "QUALIFY", "UNION",
	"EXCEPT", "MINUS", "INTERSECT", "ORDER BY", "LIMIT", "OFFSET", descEnd}

// describeExpected names the viable probes in a few words: the classes
// they make up (an expression, an operator, a join), then single words and
// operators, then the end of the statement. Where any word is a name (a
// type name after CAST ... AS), the words are not listed.
func describeExpected(v []string) []string {
	has := map[string]bool{}
	words := 0
	for _, d := range v {
		has[strings.Trim(d, `"`)] = true
		if reserved[strings.ToLower(d)] {
			words++
		}
	}
	anyWord := words > len(reserved)/2
	expr := has[descName] && has[descNumber]
	if expr {
		// where an expression may stand, a clause word is a column's name
		v = slices.DeleteFunc(slices.Clone(v), func(d string) bool { return clauseWord[strings.ToLower(d)] })
	}
	op := has["+"] && has["AND"]
	join := has["JOIN"]
	query := has["SELECT"] && has["WITH"]
	var out []string
	add := func(s string) {
		if !contains(out, s) {
			out = append(out, s)
		}
	}
	if expr {
		add(descExpr)
	}
	if op {
		add(descOp)
	}
	if query {
		add(descQuery)
	}
	for _, d := range v {
		w := strings.Trim(d, `"`)
		switch {
		case expr && (d == descName || d == descNumber || d == descString || exprStarts[w]):
		case op && binaryOps[w]:
		case query && (w == "SELECT" || w == "WITH" || w == "TABLE" || w == "("):
		case anyWord && isWord(d) && d != descName:
		case join && joinWords[w]:
			add("JOIN")
		case phrases[w] != "":
			add(phrases[w])
		default:
			add(d)
		}
	}
	rank := func(s string) int {
		for i, c := range clauseOrder {
			if c == s {
				return i
			}
		}
		return -1
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i]) < rank(out[j]) })
	return out
}

// keywordsIn returns the words among the viable probes (as written in
// the grammar: upper case), sorted, for a did-you-mean.
func keywordsIn(v []string) []string {
	var out []string
	for _, d := range v {
		if isWord(d) && strings.ToUpper(d) == d {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out
}

// didYouMean returns the keyword viable at a place that word is likely a
// slip of, as it would be written there (GROUP BY for GROUP).
func didYouMean(word string, v []string) (string, bool) {
	if len([]rune(word)) < 3 {
		return "", false
	}
	k, ok := suggest.Closest(word, keywordsIn(v))
	if !ok {
		return "", false
	}
	if p := phrases[k]; p != "" {
		return p, true
	}
	return k, true
}

// maxProbeDepth and maxProbeTokens bound the statements whose syntax errors
// are probed: each probe parses the statement up to the error again, and
// the grammar's backtracking makes a deeply nested one slow to parse. A
// statement past them gets what participle itself says it expected.
const (
	maxProbeDepth  = 24
	maxProbeTokens = 4000
)

// probing reports whether a syntax error in toks is probed.
func probing(toks []lexer.Token) bool {
	_, deep := deeperThan(toks, maxProbeDepth)
	return !deep && len(toks) <= maxProbeTokens
}

// grammarKeywords are the words the grammar spells, as probes name them.
var grammarKeywords = sync.OnceValue(func() []string {
	var out []string
	for _, p := range probes() {
		if p.typ == tokIdent && p.desc != descName {
			out = append(out, p.desc)
		}
	}
	return out
})

// misspeltAfterAlias finds a misspelt keyword that the grammar took as an
// implicit alias just before the token idx it then stumbled on (FROM t
// GRUOP BY: GRUOP names t, and BY is unexpected). It returns the index of
// the misspelt word and the message to report there.
func misspeltAfterAlias(toks []lexer.Token, idx int) (int, string, bool) {
	at := idx - 1
	if at < 1 || !probing(toks) || toks[at].Type != tokIdent || reserved[strings.ToLower(toks[at].Value)] {
		return 0, "", false
	}
	if p := toks[at-1]; p.Type == tokOperator && p.Value == "." || p.Type == tokIdent && strings.EqualFold(p.Value, "AS") {
		return 0, "", false // a written alias, or part of a qualified name
	}
	if _, ok := didYouMean(toks[at].Value, grammarKeywords()); !ok {
		return 0, "", false // not near any keyword: no need to ask the parser
	}
	v := viable(toks, at)
	if !contains(v, descName) {
		return 0, "", false
	}
	k, ok := didYouMean(toks[at].Value, v)
	if !ok {
		return 0, "", false
	}
	var rest []string
	for _, d := range v {
		// not the name, nor what would continue it (t.x, t(...)): the
		// word was meant as a keyword
		if d != descName && d != `"."` && d != `"("` {
			rest = append(rest, d)
		}
	}
	msg := "unexpected " + describeToken(toks[at]) + " (did you mean " + k + "?)"
	if d := describeExpected(rest); len(d) > 0 {
		msg += ": expected " + suggest.OrList(d)
	}
	return at, msg, true
}

// typeExpected reports whether toks[idx] stands where a type name goes:
// after :: or after the AS of CAST(x AS, where every word is a name.
func typeExpected(toks []lexer.Token, idx int) bool {
	if idx == 0 {
		return false
	}
	prev := toks[idx-1]
	if prev.Type == tokOperator && prev.Value == "::" {
		return true
	}
	if prev.Type != tokIdent || !strings.EqualFold(prev.Value, "AS") {
		return false
	}
	depth := 0
	for i := idx - 2; i > 0; i-- {
		switch t := toks[i]; {
		case t.Type == tokOperator && t.Value == ")":
			depth++
		case t.Type == tokOperator && t.Value == "(":
			if depth == 0 {
				w := toks[i-1]
				return w.Type == tokIdent && (strings.EqualFold(w.Value, "CAST") || strings.EqualFold(w.Value, "TRY_CAST"))
			}
			depth--
		}
	}
	return false
}

// without returns list less the given items.
func without(list []string, items ...string) []string {
	var out []string
	for _, x := range list {
		if !contains(items, x) {
			out = append(out, x)
		}
	}
	return out
}
