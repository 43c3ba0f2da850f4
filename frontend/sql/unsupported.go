package sql

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/nordisk/thund/internal/suggest"
)

// Spark SQL that pipeline SQL refuses is named, never skipped. Statements
// are recognised by their first words before parsing (unsupportedStatement);
// clauses and expression forms by the words where parsing stopped
// (unsupportedConstruct).

// createForms are the CREATE statements the grammar accepts.
var createForms = [][]string{
	{"MATERIALIZED", "VIEW"}, {"STREAMING", "TABLE"}, {"TEMPORARY", "VIEW"}, {"TEMP", "VIEW"},
	{"VIEW"}, {"FLOW"},
}

// createRefusals name the CREATE forms a pipeline refuses, longest first.
var createRefusals = []struct {
	words []string
	name  string
	hint  string // what to write instead, or why
}{
	{[]string{"TEMPORARY", "FUNCTION"}, "CREATE TEMPORARY FUNCTION", ""},
	{[]string{"TEMP", "FUNCTION"}, "CREATE TEMPORARY FUNCTION", ""},
	{[]string{"GLOBAL", "TEMPORARY", "VIEW"}, "CREATE GLOBAL TEMPORARY VIEW", ""},
	{[]string{"GLOBAL", "TEMP", "VIEW"}, "CREATE GLOBAL TEMPORARY VIEW", ""},
	{[]string{"LIVE", "TABLE"}, "CREATE LIVE TABLE", "legacy DLT syntax: use CREATE MATERIALIZED VIEW"},
	{[]string{"LIVE", "VIEW"}, "CREATE LIVE VIEW", "legacy DLT syntax: use CREATE TEMPORARY VIEW"},
	{[]string{"STREAMING", "LIVE", "TABLE"}, "CREATE STREAMING LIVE TABLE", "legacy DLT syntax: use CREATE STREAMING TABLE"},
	{[]string{"EXTERNAL", "TABLE"}, "CREATE EXTERNAL TABLE", ""},
	{[]string{"FUNCTION"}, "CREATE FUNCTION", ""},
	{[]string{"TABLE"}, "CREATE TABLE", "use CREATE MATERIALIZED VIEW or CREATE STREAMING TABLE"},
	{[]string{"SINK"}, "CREATE SINK", ""},
	{[]string{"SCHEMA"}, "CREATE SCHEMA", ""},
	{[]string{"DATABASE"}, "CREATE DATABASE", ""},
	{[]string{"NAMESPACE"}, "CREATE NAMESPACE", ""},
	{[]string{"CATALOG"}, "CREATE CATALOG", ""},
	{[]string{"INDEX"}, "CREATE INDEX", ""},
	{[]string{"ROLE"}, "CREATE ROLE", ""},
	{[]string{"PROCEDURE"}, "CREATE PROCEDURE", ""},
}

// unsupportedStatement returns the name of a statement kind that pipeline
// SQL refuses, or "" when the grammar should parse it.
func unsupportedStatement(toks []lexer.Token) string {
	words := leadingWords(toks, 5)
	if len(words) == 0 {
		return "a statement that does not start with a keyword"
	}
	switch words[0] {
	case "USE":
		return ""
	case "APPLY":
		if len(words) > 1 && words[1] == "CHANGES" {
			return ""
		}
		return strings.Join(words[:min(2, len(words))], " ")
	case "AUTO":
		if len(words) > 1 && words[1] == "CDC" {
			return ""
		}
		return strings.Join(words[:min(2, len(words))], " ")
	case "CREATE":
		rest := words[1:]
		if len(rest) >= 2 && rest[0] == "OR" && (rest[1] == "REFRESH" || rest[1] == "REPLACE") {
			rest = rest[2:]
		}
		for _, f := range createForms {
			if hasPrefix(rest, f) {
				return ""
			}
		}
		for _, r := range createRefusals {
			if hasPrefix(rest, r.words) {
				return withHint(r.name, r.hint)
			}
		}
		if len(rest) == 0 || misspelt(rest[0], "OR", "MATERIALIZED", "STREAMING", "TEMPORARY", "VIEW", "FLOW") {
			return "" // the parser says what it expected
		}
		return "CREATE " + rest[0]
	case "SELECT", "WITH", "VALUES", "FROM", "TABLE":
		return "a bare query (" + words[0] + " ...) outside CREATE"
	case "INSERT":
		return "INSERT outside CREATE FLOW ... AS INSERT INTO"
	case "MERGE":
		return "MERGE INTO"
	case "ALTER", "DROP", "DELETE", "UPDATE", "TRUNCATE", "EXPLAIN", "DESCRIBE", "DESC", "SHOW", "CACHE",
		"UNCACHE", "CLEAR", "REFRESH", "ANALYZE", "LOAD", "ADD", "LIST", "RESET", "DECLARE", "EXECUTE",
		"CALL", "REPAIR", "MSCK", "GRANT", "REVOKE", "OPTIMIZE", "VACUUM", "COPY", "BEGIN", "COMMIT",
		"ROLLBACK", "START", "RESTORE", "COMMENT", "REPLACE", "EXPORT", "IMPORT", "LOCK", "UNLOCK":
		if len(words) > 1 && (words[0] == "ALTER" || words[0] == "DROP" || words[0] == "SHOW" ||
			words[0] == "DESCRIBE" || words[0] == "COPY") {
			return words[0] + " " + words[1]
		}
		return words[0]
	}
	if misspelt(words[0], statementStarts...) {
		return ""
	}
	return words[0]
}

// statementStarts are the words a statement can start with.
var statementStarts = []string{"CREATE", "USE", "SET", "APPLY", "AUTO"}

// misspelt reports whether word is likely a slip of one of the keywords:
// then the parser reports it, with a did-you-mean, rather than a refusal
// that names a statement nobody meant.
func misspelt(word string, keywords ...string) bool {
	_, ok := suggest.Closest(word, keywords)
	return ok && len(word) >= 3
}

func leadingWords(toks []lexer.Token, n int) []string {
	var out []string
	for _, t := range toks {
		if len(out) == n || t.Type != tokIdent {
			break
		}
		out = append(out, strings.ToUpper(t.Value))
	}
	return out
}

func hasPrefix(words, prefix []string) bool {
	if len(words) < len(prefix) {
		return false
	}
	for i, p := range prefix {
		if words[i] != p {
			return false
		}
	}
	return true
}

// constructs are Spark constructs refused inside a statement, recognised by
// the words at which parsing stopped. A pattern may start one or two tokens
// before the offending token. "(" and other operators match their token.
var constructs = []struct {
	words []string
	name  string
	hint  string // what to write instead, or why
}{
	{[]string{"LATERAL", "VIEW"}, "LATERAL VIEW after WHERE or GROUP BY", "write each LATERAL VIEW right after FROM's relations (FROM t LATERAL VIEW explode(xs) e AS x WHERE ...)"},
	{[]string{"LATERAL"}, "a LATERAL subquery", ""},
	{[]string{"PIVOT"}, "PIVOT", ""},
	{[]string{"UNPIVOT"}, "UNPIVOT", ""},
	{[]string{"TABLESAMPLE"}, "TABLESAMPLE", ""},
	{[]string{"CLUSTER", "BY"}, "CLUSTER BY", ""},
	{[]string{"DISTRIBUTE", "BY"}, "DISTRIBUTE BY", ""},
	{[]string{"SORT", "BY"}, "SORT BY", ""},
	{[]string{"NATURAL"}, "NATURAL JOIN", ""},
	{[]string{"WITHIN", "GROUP"}, "WITHIN GROUP", ""},
	{[]string{"ESCAPE"}, "LIKE ... ESCAPE", ""},
	{[]string{"LOCATION"}, "LOCATION", "Spark refuses it (specifying location is not supported: the pipeline manages a dataset's storage)"},
	{[]string{"OPTIONS"}, "OPTIONS on a dataset", ""},
	{[]string{"CLUSTERED", "BY"}, "CLUSTERED BY (bucketing)", ""},
	{[]string{"SKEWED", "BY"}, "SKEWED BY", ""},
	{[]string{"ROW", "FORMAT"}, "ROW FORMAT", ""},
	{[]string{"STORED", "AS"}, "STORED AS (a Hive file format)", ""},
	{[]string{"STORED", "BY"}, "STORED BY", ""},
	{[]string{"DEFAULT", "COLLATION"}, "DEFAULT COLLATION", ""},
	{[]string{"COLLATE"}, "COLLATE", ""},
	{[]string{"DEFAULT"}, "a column DEFAULT value", ""},
	{[]string{"GENERATED"}, "a generated column", ""},
	{[]string{"MASK"}, "a column MASK", ""},
	{[]string{"PRIMARY", "KEY"}, "a PRIMARY KEY constraint", ""},
	{[]string{"FOREIGN", "KEY"}, "a FOREIGN KEY constraint", ""},
	{[]string{"REFERENCES"}, "a REFERENCES constraint", ""},
	{[]string{"UNIQUE"}, "a UNIQUE constraint", ""},
	{[]string{"CHECK"}, "a CHECK constraint", "write CONSTRAINT name EXPECT (condition)"},
	{[]string{"VALUES"}, "an inline table (VALUES ...)", ""},
	{[]string{"TIMESTAMP", "AS", "OF"}, "time travel (TIMESTAMP AS OF)", ""},
	{[]string{"VERSION", "AS", "OF"}, "time travel (VERSION AS OF)", ""},
	{[]string{"FOR", "SYSTEM_TIME"}, "time travel (FOR SYSTEM_TIME)", ""},
	{[]string{"FOR", "SYSTEM_VERSION"}, "time travel (FOR SYSTEM_VERSION)", ""},
	{[]string{"->"}, "a lambda function (x -> ...)", ""},
	{[]string{":"}, "a semi-structured path (a:b)", ""},
	{[]string{"?"}, "a parameter marker (?)", ""},
	{[]string{"IDENTIFIER", "("}, "IDENTIFIER(...)", ""},
	{[]string{"INSERT", "OVERWRITE"}, "INSERT OVERWRITE", "a flow appends (Spark refuses INSERT OVERWRITE flows)"},
	{[]string{"PARTITION"}, "a PARTITION spec", "Spark refuses a partition spec on a flow target"},
	{[]string{"IF", "NOT", "EXISTS"}, "IF NOT EXISTS on a flow target", ""},
	{[]string{"REPLACE", "WHERE"}, "INSERT ... REPLACE WHERE", ""},
	{[]string{"RECURSIVE"}, "WITH RECURSIVE", ""},
	{[]string{"|", ">"}, "the pipe operator |>", ""},
	{[]string{"SYSTEM", "SEQUENCE"}, "SYSTEM SEQUENCE BY", ""},
	{[]string{"CONSTRAINT"}, "a column constraint", "write CONSTRAINT name EXPECT (condition) as a table element"},
}

// withHint appends a hint to a refusal: "X is not supported in pipeline
// SQL: hint" is how the callers print it.
func withHint(name, hint string) string {
	if hint == "" {
		return name
	}
	return name + "\x00" + hint
}

// refusal renders "NAME is not supported in pipeline SQL[: HINT]".
func refusal(nameHint string) string {
	name, hint, _ := strings.Cut(nameHint, "\x00")
	if hint != "" {
		return name + " is not supported in pipeline SQL: " + hint
	}
	return name + " is not supported in pipeline SQL"
}

// unsupportedConstruct looks for a refused construct covering toks[idx]. It
// returns its name (with its hint) and the index of its first token.
func unsupportedConstruct(toks []lexer.Token, idx int) (string, int) {
	best, bestAt, bestLen := "", 0, 0
	for start := max(0, idx-2); start <= idx; start++ {
		for _, c := range constructs {
			if start+len(c.words) <= idx && start != idx {
				continue // the pattern must cover the offending token
			}
			if c.words[0] == "EXCEPT" && start > 0 && toks[start-1].Value == "*" {
				continue // * EXCEPT (...) is a select-list form
			}
			if matchWords(toks, start, c.words) && len(c.words) > bestLen {
				best, bestAt, bestLen = withHint(c.name, c.hint), start, len(c.words)
			}
		}
	}
	return best, bestAt
}

func matchWords(toks []lexer.Token, at int, words []string) bool {
	if at+len(words) > len(toks) {
		return false
	}
	for i, w := range words {
		t := toks[at+i]
		if t.EOF() || !strings.EqualFold(t.Value, w) {
			return false
		}
		if t.Type != tokIdent && t.Type != tokOperator {
			return false
		}
	}
	return true
}
