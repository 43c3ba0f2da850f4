package sql

import (
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/nordisk/thund/internal/testenv"
)

// TestShortenKeepsExpectations: at every point of statements that use the
// forms shorten cuts (select lists, conditions, queries in parentheses,
// and the words that look like clauses but are not), the shortened prefix
// leaves the parser expecting exactly what the whole one does.
func TestShortenKeepsExpectations(t *testing.T) {
	stmts := []string{
		"CREATE MATERIALIZED VIEW a AS SELECT x, y + 1 AS z, count(*) AS n FROM t AS s JOIN u ON s.k = u.k WHERE x > 1 AND y IS DISTINCT FROM 2 GROUP BY x, y HAVING count(*) > 1 ORDER BY x LIMIT 3",
		"CREATE MATERIALIZED VIEW b AS WITH q AS (SELECT a FROM t WHERE a IN (SELECT b FROM u)) SELECT * EXCEPT (a), 1 AS from FROM (SELECT a FROM q) AS r UNION ALL SELECT t.from, 2 FROM t",
		"CREATE STREAMING TABLE c AS SELECT CASE WHEN a THEN 1 ELSE 2 END AS k, EXTRACT(YEAR FROM ts) AS y FROM STREAM(t) WATERMARK ts DELAY OF INTERVAL 5 SECONDS AS s WHERE a BETWEEN 1 AND 2",
	}
	// Every prefix under THUND_TEST_FULL=1 (CI); by default one in 3, a
	// different third for each statement.
	stride := testenv.Size(t, "one prefix in", 3, 1)
	for i, src := range stmts {
		st := splitStatements("s.sql", []byte(src))[0]
		toks, err := lexStatement(st)
		if err != nil {
			t.Fatal(err)
		}
		for idx := 1 + i%stride; idx < len(toks); idx += stride {
			at := toks[idx].Pos
			sh := shorten(toks[:idx])
			if same(sh, toks[:idx]) {
				continue // nothing cut
			}
			whole := viableAfter(toks[:idx], at)
			short := viableAfter(sh, at)
			if strings.Join(whole, "|") != strings.Join(short, "|") {
				t.Errorf("%s\n  after %q:\n  whole prefix expects %q\n  shortened expects    %q", src, st.text[:at.Offset-st.base.Offset], whole, short)
			}
		}
	}
}

func same(a, b []lexer.Token) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Value != b[i].Value {
			return false
		}
	}
	return true
}
