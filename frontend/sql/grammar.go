package sql

import (
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The grammar of one pipeline SQL statement (SET and USE aside, see
// parse.go), as participle structs. It follows Spark 4.1's SqlBaseParser for
// the pipeline statements and the SELECT subset, plus the Lakeflow
// (Databricks) forms: CREATE OR REFRESH, CONSTRAINT ... EXPECT, AUTO CDC /
// APPLY CHANGES, STREAM read_files(...). Every node keeps its position.
//
// Keywords are matched case-insensitively. Words listed in reserved cannot be
// bare column names or aliases (back-quote them); every other keyword can.
// Dataset, flow and table names follow Spark's own rule (nameIdent): any
// word but the strict-non-reserved ones.

var parser = sync.OnceValue(func() *participle.Parser[stmtAST] {
	return participle.MustBuild[stmtAST](
		participle.Lexer(sqlLexer),
		participle.CaseInsensitive("Ident"),
		participle.Elide("Whitespace"),
		participle.UseLookahead(participle.MaxLookahead),
	)
})

// reserved words cannot be bare identifiers: they start or continue clauses
// where an identifier (an implicit alias above all) would be ambiguous.
var reserved = wordSet(`all and anti as asc between by case cast cluster cross desc distinct distribute
	else end escape except exists false filter from full group having ilike in inner intersect interval is
	join lateral left like limit minus natural not null nulls on or order outer over pivot qualify
	right rlike regexp select semi sort table tablesample then true union unpivot using values watermark when
	where with within`)

// notAlias words are identifiers, but not implicit (AS-less) aliases:
// offset is a column of Kafka sources (Spark takes it as a name where it
// does not start an OFFSET clause), so it is not reserved, but `FROM t
// OFFSET 5` must stay the clause.
var notAlias = wordSet(`window keys sequence delay offset`)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// ident is an identifier: a word that is not reserved, or a back-quoted name.
type ident struct {
	Pos    lexer.Position
	Name   string
	Quoted bool
}

func (i *ident) Parse(lex *lexer.PeekingLexer) error { return parseIdent(i, lex, reserved, nil) }

// anyIdent is any word or back-quoted name: after AS, after a dot, as a type
// or property key.
type anyIdent struct{ ident }

func (i *anyIdent) Parse(lex *lexer.PeekingLexer) error { return parseIdent(&i.ident, lex, nil, nil) }

// typeIdent is a type name: a word that cannot start a column option.
type typeIdent struct{ ident }

var notType = wordSet(`as check collate comment constraint default generated mask not null primary references unique`)

func (i *typeIdent) Parse(lex *lexer.PeekingLexer) error {
	return parseIdent(&i.ident, lex, notType, nil)
}

// aliasIdent is an implicit alias: an ident that is not in notAlias.
type aliasIdent struct{ ident }

func (i *aliasIdent) Parse(lex *lexer.PeekingLexer) error {
	return parseIdent(&i.ident, lex, reserved, notAlias)
}

func parseIdent(i *ident, lex *lexer.PeekingLexer, deny1, deny2 map[string]bool) error {
	t := lex.Peek()
	switch t.Type {
	case tokIdent:
		w := strings.ToLower(t.Value)
		if deny1[w] || deny2[w] {
			return participle.NextMatch
		}
		i.Name = t.Value
	case tokQIdent:
		i.Name = unquoteIdent(t.Value)
		i.Quoted = true
	default:
		return participle.NextMatch
	}
	i.Pos = t.Pos
	lex.Next()
	return nil
}

// nameIdent is the first part of a dataset, flow or table name. Spark, with
// spark.sql.ansi.enforceReservedKeywords off (its default), takes every
// keyword as such a name (CREATE STREAMING TABLE table); a name here refuses
// only the words Spark calls strict-non-reserved (joins and set operators),
// which would make a FROM clause ambiguous.
type nameIdent struct{ ident }

// strictNonReserved are Spark's strict-non-reserved keywords
// (SqlBaseParser's strictNonReserved).
var strictNonReserved = wordSet(`anti cross except full inner intersect join lateral left minus natural on right
	semi setminus union using`)

func (i *nameIdent) Parse(lex *lexer.PeekingLexer) error {
	return parseIdent(&i.ident, lex, strictNonReserved, nil)
}

// qnameAST is a possibly qualified dataset, flow or table name: a, db.a,
// cat.db.a.
type qnameAST struct {
	Pos   lexer.Position
	First *nameIdent  `parser:"@@"`
	Rest  []*anyIdent `parser:"( '.' @@ )*"`
}

// colRefAST is a possibly qualified column: c, t.c. Its first part is an
// ident, as a bare keyword in an expression would be ambiguous.
type colRefAST struct {
	Pos   lexer.Position
	First *ident      `parser:"@@"`
	Rest  []*anyIdent `parser:"( '.' @@ )*"`
}

// parts returns the reference's parts.
func (q *colRefAST) parts() []string {
	out := []string{q.First.Name}
	for _, r := range q.Rest {
		out = append(out, r.Name)
	}
	return out
}

// parts returns the name's parts.
func (q *qnameAST) parts() []string {
	out := []string{q.First.Name}
	for _, r := range q.Rest {
		out = append(out, r.Name)
	}
	return out
}

// strLit is one or more adjacent string literals, which Spark concatenates.
type strLit struct {
	Pos   lexer.Position
	Parts []string `parser:"( @String | @RawString )+"`
}

func (s *strLit) value() string {
	var b strings.Builder
	for _, p := range s.Parts {
		b.WriteString(unquoteString(p))
	}
	return b.String()
}

// stmtAST is one statement other than SET (handled before parsing).
type stmtAST struct {
	Pos    lexer.Position
	Create *createAST  `parser:"  'CREATE' @@"`
	CDC    *cdcBodyAST `parser:"| ( 'APPLY' 'CHANGES' | 'AUTO' 'CDC' ) @@"`
	Use    *useAST     `parser:"| 'USE' @@"`
}

// useAST is USE CATALOG c | USE [SCHEMA | DATABASE | NAMESPACE] [c.]db.
type useAST struct {
	Pos     lexer.Position
	Catalog *ident    `parser:"( 'CATALOG' @@"`
	Schema  *qnameAST `parser:"| ( 'SCHEMA' | 'DATABASE' | 'NAMESPACE' )? @@ )"`
}

// createAST is every CREATE form a pipeline accepts.
type createAST struct {
	Pos      lexer.Position
	Or       string      `parser:"( 'OR' @( 'REFRESH' | 'REPLACE' ) )?"`
	MV       *datasetAST `parser:"( 'MATERIALIZED' 'VIEW' @@"`
	ST       *datasetAST `parser:"| 'STREAMING' 'TABLE' @@"`
	TempView *datasetAST `parser:"| ( 'TEMPORARY' | 'TEMP' ) 'VIEW' @@"`
	View     *datasetAST `parser:"| 'VIEW' @@"`
	Flow     *flowAST    `parser:"| 'FLOW' @@ )"`
}

// datasetAST is the body of CREATE MATERIALIZED VIEW / STREAMING TABLE /
// [TEMPORARY] VIEW after the keywords.
type datasetAST struct {
	Pos         lexer.Position
	IfNotExists bool            `parser:"@( 'IF' 'NOT' 'EXISTS' )?"`
	Name        *qnameAST       `parser:"@@"`
	Elements    []*tableElemAST `parser:"( '(' @@ ( ',' @@ )* ')' )?"`
	Clauses     []*dsClauseAST  `parser:"@@*"`
	Query       *queryAST       `parser:"( 'AS' @@"`
	AutoCDC     *cdcBodyAST     `parser:"| 'FLOW' ( 'AUTO' 'CDC' | 'APPLY' 'CHANGES' ) @@ )?"`
}

// tableElemAST is a column definition or a table constraint.
type tableElemAST struct {
	Constraint *constraintAST `parser:"  @@"`
	Column     *colDefAST     `parser:"| @@"`
}

// constraintAST is CONSTRAINT name EXPECT (cond) [ON VIOLATION DROP ROW | FAIL UPDATE].
type constraintAST struct {
	Pos    lexer.Position
	Name   *ident   `parser:"'CONSTRAINT' @@"`
	Cond   *exprAST `parser:"'EXPECT' '(' @@ ')'"`
	Action string   `parser:"( 'ON' 'VIOLATION' @( 'DROP' 'ROW' | 'FAIL' 'UPDATE' ) )?"`
}

// colDefAST is name [type] [NOT NULL] [COMMENT '...'] (the type is optional
// only in a view's column list, which Spark writes without types).
type colDefAST struct {
	Pos  lexer.Position
	Name *ident       `parser:"@@"`
	Type *typeAST     `parser:"@@?"`
	Opts []*colOptAST `parser:"@@*"`
}

type colOptAST struct {
	Pos     lexer.Position
	NotNull bool    `parser:"  @( 'NOT' 'NULL' )"`
	Comment *strLit `parser:"| 'COMMENT' @@"`
}

// typeAST is a Spark type name: INT, DECIMAL(10,2), TIMESTAMP_NTZ, ..., or
// a nested type with its parts between < and >: ARRAY<INT>,
// MAP<STRING, BIGINT>, STRUCT<a: INT NOT NULL, b STRING> (STRUCT<> lexes
// as the operator <>).
type typeAST struct {
	Pos       lexer.Position
	Name      *typeIdent     `parser:"@@"`
	Parts     []*typePartAST `parser:"( '<' ( @@ ( ',' @@ )* )? '>'"`
	Empty     bool           `parser:"  | @'<>' )?"`
	Args      []string       `parser:"( '(' @Number ( ',' @Number )* ')' )?"`
	WithoutTZ bool           `parser:"@( 'WITHOUT' 'TIME' 'ZONE' )?"`
}

// typePartAST is one part of a nested type: a type (an array's element, a
// map's key or value), or a struct field, "name: type" or "name type",
// which parses as the name in Type and the field's type in FieldType.
type typePartAST struct {
	Pos       lexer.Position
	Type      *typeAST `parser:"@@"`
	FieldType *typeAST `parser:"( ':'? @@ )?"`
	NotNull   bool     `parser:"@( 'NOT' 'NULL' )?"`
	Comment   *strLit  `parser:"( 'COMMENT' @@ )?"`
}

// dsClauseAST is one clause of a dataset definition, in any order.
type dsClauseAST struct {
	Pos       lexer.Position
	Comment   *strLit    `parser:"  'COMMENT' @@"`
	Partition []*exprAST `parser:"| 'PARTITIONED' 'BY' '(' @@ ( ',' @@ )* ')'"`
	Cluster   []*exprAST `parser:"| 'CLUSTER' 'BY' '(' @@ ( ',' @@ )* ')'"`
	Using     *qnameAST  `parser:"| 'USING' @@"`
	Props     []*propAST `parser:"| 'TBLPROPERTIES' '(' @@ ( ',' @@ )* ')'"`
}

// propAST is one table property: key [=] value.
type propAST struct {
	Pos      lexer.Position
	KeyStr   *strLit     `parser:"( @@"`
	KeyParts []*anyIdent `parser:"| @@ ( '.' @@ )* )"`
	Value    *propValAST `parser:"'='? @@"`
}

type propValAST struct {
	Pos  lexer.Position
	Str  *strLit `parser:"  @@"`
	Num  string  `parser:"| @'-'? @Number"`
	Bool string  `parser:"| @( 'TRUE' | 'FALSE' )"`
}

// flowAST is CREATE FLOW name [COMMENT '...'] AS INSERT INTO ... | AUTO CDC INTO ...
type flowAST struct {
	Pos     lexer.Position
	Name    *qnameAST   `parser:"@@"`
	Comment *strLit     `parser:"( 'COMMENT' @@ )?"`
	Insert  *insertAST  `parser:"'AS' ( 'INSERT' @@"`
	CDC     *cdcBodyAST `parser:"| ( 'AUTO' 'CDC' | 'APPLY' 'CHANGES' ) @@ )"`
}

// insertAST is INTO [TABLE] target ... : TABLE is the keyword unless a
// query (or BY NAME, or a column list) follows it, when it is the target's
// name (INSERT INTO table SELECT ...).
type insertAST struct {
	Pos    lexer.Position
	Target *qnameAST `parser:"'INTO' ( 'TABLE' (?! 'SELECT' | 'WITH' | 'FROM' | 'VALUES' | 'BY' | '(' ) )? @@"`
	Cols   []*ident  `parser:"( '(' @@ ( ',' @@ )* ')' )?"`
	ByName bool      `parser:"@( 'BY' 'NAME' )?"`
	Query  *queryAST `parser:"@@"`
}

// cdcBodyAST is what follows AUTO CDC / APPLY CHANGES: [INTO target] FROM
// source KEYS (...) ... (the Lakeflow order of clauses).
type cdcBodyAST struct {
	Pos          lexer.Position
	Target       *qnameAST      `parser:"( 'INTO' @@ )?"`
	Source       *cdcSourceAST  `parser:"'FROM' @@"`
	Keys         []*ident       `parser:"'KEYS' '(' @@ ( ',' @@ )* ')'"`
	IgnoreNull   *ignoreNullAST `parser:"@@?"`
	DeleteWhen   *exprAST       `parser:"( 'APPLY' 'AS' 'DELETE' 'WHEN' @@ )?"`
	TruncateWhen *exprAST       `parser:"( 'APPLY' 'AS' 'TRUNCATE' 'WHEN' @@ )?"`
	SequenceBy   *exprAST       `parser:"'SEQUENCE' 'BY' @@"`
	SystemSeq    *exprAST       `parser:"( 'SYSTEM' 'SEQUENCE' 'BY' @@ )?"`
	Columns      *colSelAST     `parser:"( 'COLUMNS' @@ )?"`
	StoredAs     *storedAsAST   `parser:"( 'STORED' 'AS' @@ )?"`
	Track        *colSelAST     `parser:"( 'TRACK' 'HISTORY' 'ON' @@ )?"`
	ColsToUpdate *ident         `parser:"( 'COLUMNS' 'TO' 'UPDATE' @@ )?"`
}

type ignoreNullAST struct {
	Pos lexer.Position
	On  *colSelAST `parser:"'IGNORE' 'NULL' 'UPDATES' ( 'ON' @@ )?"`
}

type storedAsAST struct {
	Pos        lexer.Position
	SCD        string `parser:"  'SCD' 'TYPE' @Number"`
	Bitemporal bool   `parser:"| @'BITEMPORAL'"`
}

// cdcSourceAST is the change feed: STREAM(name) | STREAM name | name.
type cdcSourceAST struct {
	Pos    lexer.Position
	Stream bool      `parser:"@'STREAM'?"`
	Paren  *qnameAST `parser:"( '(' @@ ')'"`
	Name   *qnameAST `parser:"| @@ )"`
}

// colSelAST is a column list, or * EXCEPT (list).
type colSelAST struct {
	Pos    lexer.Position
	Except []*ident `parser:"( '*' 'EXCEPT' '(' @@ ( ',' @@ )* ')'"`
	Cols   []*ident `parser:"| '('? @@ ( ',' @@ )* ')'? )"`
}

// queryAST is a full query: [WITH ctes] set-expression [ORDER BY] [LIMIT] [OFFSET].
type queryAST struct {
	Pos     lexer.Position
	With    []*cteAST       `parser:"( 'WITH' @@ ( ',' @@ )* )?"`
	Body    *setExprAST     `parser:"@@"`
	OrderBy []*orderItemAST `parser:"( 'ORDER' 'BY' @@ ( ',' @@ )* )?"`
	Limit   *limitAST       `parser:"( 'LIMIT' @@ )?"`
	Offset  *numAST         `parser:"( 'OFFSET' @@ )?"`
}

type cteAST struct {
	Pos       lexer.Position
	Recursive bool      `parser:"@'RECURSIVE'?"`
	Name      *ident    `parser:"@@"`
	Cols      []*ident  `parser:"( '(' @@ ( ',' @@ )* ')' )?"`
	Query     *queryAST `parser:"'AS'? '(' @@ ')'"`
}

type limitAST struct {
	Pos lexer.Position
	All bool    `parser:"  @'ALL'"`
	N   *numAST `parser:"| @@"`
}

type numAST struct {
	Pos lexer.Position
	Neg bool   `parser:"@'-'?"`
	N   string `parser:"@Number"`
}

type setExprAST struct {
	Pos  lexer.Position
	Left *queryTermAST `parser:"@@"`
	Rest []*setOpAST   `parser:"@@*"`
}

type setOpAST struct {
	Pos   lexer.Position
	Op    string        `parser:"@( 'UNION' | 'EXCEPT' | 'MINUS' | 'INTERSECT' )"`
	Quant string        `parser:"@( 'ALL' | 'DISTINCT' )?"`
	Right *queryTermAST `parser:"@@"`
}

type queryTermAST struct {
	Pos    lexer.Position
	Select *selectAST `parser:"  @@"`
	Paren  *queryAST  `parser:"| '(' @@ ')'"`
	Table  *qnameAST  `parser:"| 'TABLE' @@"`
}

type selectAST struct {
	Pos      lexer.Position
	Quant    string          `parser:"'SELECT' @( 'DISTINCT' | 'ALL' )?"`
	Items    []*selItemAST   `parser:"@@ ( ',' @@ )*"`
	From     []*relationAST  `parser:"( 'FROM' @@ ( ',' @@ )*"`
	Laterals []*lateralAST   `parser:"  @@* )?"` // LATERAL VIEW (generate.go)
	Where    *exprAST        `parser:"( 'WHERE' @@ )?"`
	GroupAll bool            `parser:"( 'GROUP' 'BY' ( @'ALL'"`
	GroupBy  []*groupItemAST `parser:"| @@ ( ',' @@ )*"`
	// GroupWith is GROUP BY ... WITH ROLLUP or WITH CUBE
	GroupWith string   `parser:"( 'WITH' @( 'ROLLUP' | 'CUBE' ) )? ) )?"`
	Having    *exprAST `parser:"( 'HAVING' @@ )?"`
	// window functions: the WINDOW clause and QUALIFY (window.go)
	Windows []*namedWindowAST `parser:"( 'WINDOW' @@ ( ',' @@ )* )?"`
	Qualify *exprAST          `parser:"( 'QUALIFY' @@ )?"`
}

// groupItemAST is one GROUP BY item: an expression (ROLLUP(...) and
// CUBE(...) parse as calls), or GROUPING SETS (...).
type groupItemAST struct {
	Pos  lexer.Position
	Sets []*groupSetAST `parser:"  'GROUPING' 'SETS' '(' @@ ( ',' @@ )* ')'"`
	Expr *exprAST       `parser:"| @@"`
}

// groupSetAST is one set of GROUPING SETS: (a, b), (), or a.
type groupSetAST struct {
	Pos  lexer.Position
	List []*exprAST `parser:"  '(' ( @@ ( ',' @@ )* )? ')'"`
	Expr *exprAST   `parser:"| @@"`
}

type selItemAST struct {
	Pos     lexer.Position
	Expr    *exprAST    `parser:"@@"`
	AsNames []*anyIdent `parser:"( 'AS' ( '(' @@ ( ',' @@ )* ')'"` // a generator's columns: AS (a, b)
	AsAlias *anyIdent   `parser:"        | @@ )"`
	Alias   *aliasIdent `parser:"| @@ )?"`
}

func (s *selItemAST) alias() string {
	switch {
	case s.AsAlias != nil:
		return s.AsAlias.Name
	case s.Alias != nil:
		return s.Alias.Name
	}
	return ""
}

type orderItemAST struct {
	Pos   lexer.Position
	Expr  *exprAST `parser:"@@"`
	Dir   string   `parser:"@( 'ASC' | 'DESC' )?"`
	Nulls string   `parser:"( 'NULLS' @( 'FIRST' | 'LAST' ) )?"`
}

// relationAST is a FROM item: a primary relation and its joins.
type relationAST struct {
	Pos     lexer.Position
	Primary *primaryRelAST `parser:"@@"`
	Joins   []*joinAST     `parser:"@@*"`
}

type joinAST struct {
	Pos     lexer.Position
	Natural bool           `parser:"@'NATURAL'?"`
	Kind    string         `parser:"@( 'INNER' | 'CROSS' | 'LEFT' ( 'OUTER' | 'SEMI' | 'ANTI' )? | 'RIGHT' 'OUTER'? | 'FULL' 'OUTER'? | 'SEMI' | 'ANTI' )?"`
	Lateral bool           `parser:"'JOIN' @'LATERAL'?"`
	Right   *primaryRelAST `parser:"@@"`
	On      *exprAST       `parser:"( 'ON' @@"`
	Using   []*ident       `parser:"| 'USING' '(' @@ ( ',' @@ )* ')' )?"`
}

// primaryRelAST is one relation in FROM, with its read-level watermark and alias.
type primaryRelAST struct {
	Pos       lexer.Position
	Stream    *streamRefAST `parser:"(   'STREAM' @@"`
	TableFn   *funcRelAST   `parser:"  | 'TABLE' '(' @@ ')'"`
	Func      *funcRelAST   `parser:"  | @@"`
	Sub       *queryAST     `parser:"  | '(' @@ ')'"`
	Name      *qnameAST     `parser:"  | @@ )"`
	Travel    *temporalAST  `parser:"@@?"`
	Options   []*propAST    `parser:"( 'WITH' '(' @@ ( ',' @@ )* ')' )?"`
	Watermark *watermarkAST `parser:"@@?"`
	Alias     *aliasAST     `parser:"@@?"`
}

// temporalAST is Spark's time travel on a table read (temporalClause):
// [FOR] VERSION AS OF id | [FOR] TIMESTAMP AS OF 'time' (SYSTEM_VERSION
// and SYSTEM_TIME are synonyms).
type temporalAST struct {
	Pos       lexer.Position
	Version   *versionAST `parser:"'FOR'? ( ( 'VERSION' | 'SYSTEM_VERSION' ) 'AS' 'OF' @@"`
	Timestamp *exprAST    `parser:"| ( 'TIMESTAMP' | 'SYSTEM_TIME' ) 'AS' 'OF' @@ )"`
}

// versionAST is the snapshot id of VERSION AS OF: a number or a string.
type versionAST struct {
	Pos lexer.Position
	Num string  `parser:"  @Number"`
	Str *strLit `parser:"| @@"`
}

// streamRefAST is what follows STREAM: (name) | name | read_files(...) | (read_files(...)).
type streamRefAST struct {
	Pos       lexer.Position
	ParenFunc *funcRelAST `parser:"(   '(' @@ ')'"`
	ParenName *qnameAST   `parser:"  | '(' @@ ')'"`
	Func      *funcRelAST `parser:"  | @@"`
	Name      *qnameAST   `parser:"  | @@ )"`
}

// funcRelAST is a table-valued function call: read_files(...), range(...),
// TUMBLE(TABLE t, DESCRIPTOR(ts), ...).
type funcRelAST struct {
	Pos  lexer.Position
	Name *ident       `parser:"@@"`
	Args []*relArgAST `parser:"'(' ( @@ ( ',' @@ )* )? ')'"`
}

type relArgAST struct {
	Pos        lexer.Position
	Table      *primaryRelAST `parser:"  'TABLE' @@"`
	Descriptor []*ident       `parser:"| 'DESCRIPTOR' '(' @@ ( ',' @@ )* ')'"`
	Named      *namedArgAST   `parser:"| @@"`
	Expr       *exprAST       `parser:"| @@"`
}

type namedArgAST struct {
	Pos   lexer.Position
	Key   *ident   `parser:"@@ '=>'"`
	Value *exprAST `parser:"@@"`
}

type watermarkAST struct {
	Pos   lexer.Position
	Col   *exprAST     `parser:"'WATERMARK' @@"`
	As    *anyIdent    `parser:"( 'AS' @@ )?"`
	Delay *intervalAST `parser:"'DELAY' 'OF' @@"`
}

type aliasAST struct {
	Pos     lexer.Position
	AsName  *anyIdent   `parser:"( 'AS' @@"`
	Name    *aliasIdent `parser:"| @@ )"`
	Columns []*ident    `parser:"( '(' @@ ( ',' @@ )* ')' )?"`
}

func (a *aliasAST) name() string {
	if a == nil {
		return ""
	}
	if a.AsName != nil {
		return a.AsName.Name
	}
	return a.Name.Name
}

// Expressions, loosest first: OR, AND, NOT, predicate, comparison, |, ^, &,
// shift (<< >> >>>), additive (+ - ||), multiplicative (* / % DIV), unary,
// :: cast, primary. This is Spark's precedence (SqlBaseParser's
// valueExpression: || binds like + and -).

type exprAST struct {
	Pos lexer.Position
	Or  []*andAST `parser:"@@ ( 'OR' @@ )*"`
}

type andAST struct {
	Pos lexer.Position
	And []*notAST `parser:"@@ ( 'AND' @@ )*"`
}

type notAST struct {
	Pos  lexer.Position
	Not  *notAST       `parser:"  ( 'NOT' | '!' ) @@"`
	Pred *predicateAST `parser:"| @@"`
}

type predicateAST struct {
	Pos  lexer.Position
	Left *cmpAST   `parser:"@@"`
	Tail *predTail `parser:"@@?"`
}

type predTail struct {
	Pos       lexer.Position
	Not       bool        `parser:"@( 'NOT' | '!' )?"`
	Between   *betweenAST `parser:"(   'BETWEEN' @@"`
	InQuery   *queryAST   `parser:"  | 'IN' '(' @@ ')'"`
	InList    []*exprAST  `parser:"  | 'IN' '(' @@ ( ',' @@ )* ')'"`
	LikeQOp   string      `parser:"  | @( 'LIKE' | 'ILIKE' )"`
	LikeQuant string      `parser:"    @( 'ANY' | 'ALL' | 'SOME' )"`
	LikeList  []*exprAST  `parser:"    '(' ( @@ ( ',' @@ )* )? ')'"`
	Like      *likeAST    `parser:"  | @@"`
	IsNot     bool        `parser:"  | 'IS' @( 'NOT' | '!' )?"`
	IsWhat    string      `parser:"    ( @( 'NULL' | 'TRUE' | 'FALSE' | 'UNKNOWN' )"`
	IsDistinc *cmpAST     `parser:"    | 'DISTINCT' 'FROM' @@ ) )"`
}

type betweenAST struct {
	Pos lexer.Position
	Lo  *cmpAST `parser:"@@ 'AND'"`
	Hi  *cmpAST `parser:"@@"`
}

type likeAST struct {
	Pos     lexer.Position
	Op      string  `parser:"@( 'LIKE' | 'ILIKE' | 'RLIKE' | 'REGEXP' )"`
	Pattern *cmpAST `parser:"@@"`
	Escape  *strLit `parser:"( 'ESCAPE' @@ )?"`
}

type cmpAST struct {
	Pos  lexer.Position
	Left *bitAST  `parser:"@@"`
	Rest []*cmpOp `parser:"@@*"`
}

type cmpOp struct {
	Pos   lexer.Position
	Op    string  `parser:"@( '<=>' | '==' | '=' | '<>' | '!=' | '<=' | '>=' | '<' | '>' )"`
	Right *bitAST `parser:"@@"`
}

// bitAST is a | b | ...
type bitAST struct {
	Pos  lexer.Position
	Left *bitXorAST `parser:"@@"`
	Rest []*bitOp   `parser:"@@*"`
}

type bitOp struct {
	Pos   lexer.Position
	Op    string     `parser:"@'|'"`
	Right *bitXorAST `parser:"@@"`
}

type bitXorAST struct {
	Pos  lexer.Position
	Left *bitAndAST `parser:"@@"`
	Rest []*bitOp2  `parser:"@@*"`
}

// bitOp2 is ^ x (in a bitXorAST) or & x (in a bitAndAST).
type bitOp2 struct {
	Pos   lexer.Position
	Op    string     `parser:"@'^'"`
	Right *bitAndAST `parser:"@@"`
}

type bitAndAST struct {
	Pos  lexer.Position
	Left *shiftAST   `parser:"@@"`
	Rest []*bitAndOp `parser:"@@*"`
}

type bitAndOp struct {
	Pos   lexer.Position
	Op    string    `parser:"@'&'"`
	Right *shiftAST `parser:"@@"`
}

type shiftAST struct {
	Pos  lexer.Position
	Left *addAST    `parser:"@@"`
	Rest []*shiftOp `parser:"@@*"`
}

// shiftOp is << x, >> x or >>> x. The lexer makes no << or >> token (a
// nested type ends in >>), so the operator is adjacent < or > tokens; the
// lowering checks that nothing is between them, as Spark's lexer reads
// them as one token.
type shiftOp struct {
	Pos    lexer.Position
	Tokens []lexer.Token
	Op     string  `parser:"(?= '<' '<' | '>' '>') @( '<' '<' | '>' '>' '>' | '>' '>' )"`
	Right  *addAST `parser:"@@"`
}

type addAST struct {
	Pos  lexer.Position
	Left *mulAST  `parser:"@@"`
	Rest []*addOp `parser:"@@*"`
}

type addOp struct {
	Pos   lexer.Position
	Op    string  `parser:"@( '+' | '-' | '||' )"`
	Right *mulAST `parser:"@@"`
}

type mulAST struct {
	Pos  lexer.Position
	Left *unaryAST `parser:"@@"`
	Rest []*mulOp  `parser:"@@*"`
}

type mulOp struct {
	Pos   lexer.Position
	Op    string    `parser:"@( '*' | '/' | '%' | 'DIV' )"`
	Right *unaryAST `parser:"@@"`
}

type unaryAST struct {
	Pos     lexer.Position
	Op      string      `parser:"  @( '-' | '+' | '~' )"`
	X       *unaryAST   `parser:"  @@"`
	Postfix *postfixAST `parser:"| @@"`
}

type postfixAST struct {
	Pos lexer.Position
	X   *primaryAST  `parser:"@@"`
	Ops []*postOpAST `parser:"@@*"`
}

// postOpAST is one postfix operator, applied left to right: x::type, a
// subscript x[i] (an array's index or a map's key), or a struct field
// x.f of an expression that is not a column reference (whose dotted parts
// colRefAST reads).
type postOpAST struct {
	Pos   lexer.Position
	Cast  *typeAST  `parser:"  '::' @@"`
	Index *exprAST  `parser:"| '[' @@ ']'"`
	Field *anyIdent `parser:"| '.' @@"`
}

type primaryAST struct {
	Pos      lexer.Position
	Case     *caseAST     `parser:"(   'CASE' @@"`
	Cast     *castAST     `parser:"  | @@"`
	Exists   *queryAST    `parser:"  | 'EXISTS' '(' @@ ')'"`
	Interval *intervalAST `parser:"  | @@"`
	Typed    *typedLitAST `parser:"  | @@"`
	Number   string       `parser:"  | @Number"`
	Str      *strLit      `parser:"  | @@"`
	Bool     string       `parser:"  | @( 'TRUE' | 'FALSE' )"`
	Null     bool         `parser:"  | @'NULL'"`
	Paren    *parenAST    `parser:"  | '(' @@ ')'"`
	Star     *starAST     `parser:"  | @@"`
	Extract  *extractAST  `parser:"  | @@"`
	Position *positionAST `parser:"  | @@"`
	Call     *callAST     `parser:"  | @@"`
	Column   *colRefAST   `parser:"  | @@ )"`
}

// parenAST is ( query ) or ( expr [, expr ...] ).
type parenAST struct {
	Pos   lexer.Position
	Query *queryAST  `parser:"  @@"`
	Exprs []*exprAST `parser:"| @@ ( ',' @@ )*"`
}

type caseAST struct {
	Pos     lexer.Position
	Operand *exprAST   `parser:"@@?"`
	Whens   []*whenAST `parser:"@@+"`
	Else    *exprAST   `parser:"( 'ELSE' @@ )? 'END'"`
}

type whenAST struct {
	Pos  lexer.Position
	Cond *exprAST `parser:"'WHEN' @@"`
	Then *exprAST `parser:"'THEN' @@"`
}

type castAST struct {
	Pos  lexer.Position
	Kind string   `parser:"@( 'CAST' | 'TRY_CAST' )"`
	X    *exprAST `parser:"'(' @@"`
	To   *typeAST `parser:"'AS' @@ ')'"`
}

// intervalAST is INTERVAL value unit [value unit ...], INTERVAL 'text' [unit],
// INTERVAL value unit TO unit.
type intervalAST struct {
	Pos   lexer.Position
	Parts []*intervalPartAST `parser:"'INTERVAL' @@+"`
	To    *ident             `parser:"( 'TO' @@ )?"`
}

type intervalPartAST struct {
	Pos  lexer.Position
	Sign string  `parser:"@( '-' | '+' )?"`
	Num  string  `parser:"( @Number"`
	Str  *strLit `parser:"| @@ )"`
	Unit string  `parser:"@( 'NANOSECOND' | 'NANOSECONDS' | 'MICROSECOND' | 'MICROSECONDS' | 'MILLISECOND' | 'MILLISECONDS' | 'SECOND' | 'SECONDS' | 'MINUTE' | 'MINUTES' | 'HOUR' | 'HOURS' | 'DAY' | 'DAYS' | 'WEEK' | 'WEEKS' | 'MONTH' | 'MONTHS' | 'YEAR' | 'YEARS' )?"`
}

// typedLitAST is DATE '...', TIMESTAMP '...', TIMESTAMP_NTZ '...', X'..'.
type typedLitAST struct {
	Pos   lexer.Position
	Type  string `parser:"@( 'DATE' | 'TIMESTAMP' | 'TIMESTAMP_LTZ' | 'TIMESTAMP_NTZ' | 'TIME' | 'X' )"`
	Value string `parser:"@String"`
}

type starAST struct {
	Pos       lexer.Position
	Qualifier []*ident `parser:"( @@ '.' ( @@ '.' )* )? '*'"`
	Except    []*ident `parser:"( 'EXCEPT' '(' @@ ( ',' @@ )* ')' )?"`
}

type extractAST struct {
	Pos   lexer.Position
	Field *anyIdent `parser:"'EXTRACT' '(' @@"`
	From  *exprAST  `parser:"'FROM' @@ ')'"`
}

type positionAST struct {
	Pos lexer.Position
	Sub *cmpAST  `parser:"'POSITION' '(' @@"`
	In  *exprAST `parser:"'IN' @@ ')'"`
}

type callAST struct {
	Pos    lexer.Position
	Name   *funcNameAST `parser:"@@ '('"`
	Quant  string       `parser:"@( 'DISTINCT' | 'ALL' )?"`
	Star   bool         `parser:"( @'*'"`
	Args   []*argAST    `parser:"| @@ ( ',' @@ )* )? ')'"`
	Filter *exprAST     `parser:"( 'FILTER' '(' 'WHERE' @@ ')' )?"`
	Nulls  string       `parser:"( @( 'IGNORE' | 'RESPECT' ) 'NULLS' )?"`
	Over   *overAST     `parser:"( 'OVER' @@ )?"`
}

// funcNameAST is a function name: an identifier, or a reserved word that
// also names a function (LEFT / RIGHT, RLIKE / REGEXP, LIKE / ILIKE, and
// the higher-order FILTER and EXISTS of lambda.go), possibly qualified.
type funcNameAST struct {
	Pos   lexer.Position
	Left  string   `parser:"(   @( 'LEFT' | 'RIGHT' | 'RLIKE' | 'REGEXP' | 'LIKE' | 'ILIKE' | 'FILTER' | 'EXISTS' )"`
	Parts []*ident `parser:"  | @@ ( '.' @@ )* )"`
}

func (f *funcNameAST) name() string {
	if f.Left != "" {
		return strings.ToLower(f.Left)
	}
	var ps []string
	for _, p := range f.Parts {
		ps = append(ps, p.Name)
	}
	return strings.ToLower(strings.Join(ps, "."))
}

type argAST struct {
	Pos    lexer.Position
	Named  *namedArgAST `parser:"  @@"`
	Lambda *lambdaAST   `parser:"| @@"` // lambda.go
	Expr   *exprAST     `parser:"| @@"`
}

// Window functions (window.go): f(...) OVER w | OVER (spec), and the WINDOW
// clause's named specs. Spark's windowSpec: a name, a parenthesized name, or
// [PARTITION | DISTRIBUTE BY ...] [ORDER | SORT BY ...] [frame].
type overAST struct {
	Pos   lexer.Position
	Name  *ident         `parser:"(   @@"`
	Paren *ident         `parser:"  | '(' @@ ')'"`
	Spec  *windowSpecAST `parser:"  | '(' @@ ')' )"`
}

type windowSpecAST struct {
	Pos       lexer.Position
	Partition []*exprAST      `parser:"( ( 'PARTITION' | 'DISTRIBUTE' ) 'BY' @@ ( ',' @@ )* )?"`
	Order     []*orderItemAST `parser:"( ( 'ORDER' | 'SORT' ) 'BY' @@ ( ',' @@ )* )?"`
	Frame     *frameAST       `parser:"@@?"`
}

// frameAST is ROWS | RANGE BETWEEN start AND end, or the short form ROWS
// start (BETWEEN start AND CURRENT ROW).
type frameAST struct {
	Pos    lexer.Position
	Kind   string         `parser:"@( 'ROWS' | 'RANGE' )"`
	Start  *frameBoundAST `parser:"( 'BETWEEN' @@"`
	End    *frameBoundAST `parser:"  'AND' @@"`
	Single *frameBoundAST `parser:"| @@ )"`
}

type frameBoundAST struct {
	Pos       lexer.Position
	Unbounded string  `parser:"(   'UNBOUNDED' @( 'PRECEDING' | 'FOLLOWING' )"`
	Current   bool    `parser:"  | @( 'CURRENT' 'ROW' )"`
	Offset    *addAST `parser:"  | @@"`
	Dir       string  `parser:"    @( 'PRECEDING' | 'FOLLOWING' ) )"`
}

// namedWindowAST is one definition of the WINDOW clause: name AS spec.
type namedWindowAST struct {
	Pos  lexer.Position
	Name *ident   `parser:"@@ 'AS'"`
	Spec *overAST `parser:"@@"`
}
