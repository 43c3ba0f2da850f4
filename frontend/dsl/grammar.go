package dsl

import (
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar of docs/dsl.md. Every struct carries Pos (its first
// token), which the lowering copies into the IR. Conventions that keep the
// error messages precise:
//   - an alternative of a disjunction never starts with an optional element,
//     so that a disjunction that does not match at all says "no match" and
//     the parent reports the whole production as expected ("a stage: ...");
//   - an alternative never matches the empty input;
//   - alternatives are told apart by their first token or two, so that the
//     parser, which may back off from any failed alternative (unlimited
//     lookahead), rarely needs to and never re-parses much. A file that does
//     not parse reports the farthest point any alternative reached: after
//     "a int64," that is the missing column, not the comma.

// ident is a name: a bare identifier or a back-quoted one, unquoted on capture.
type ident string

func (i *ident) Capture(values []string) error {
	*i = ident(unquoteIdent(strings.Join(values, "")))
	return nil
}

func unquoteIdent(s string) string {
	if len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`' {
		return strings.ReplaceAll(s[1:len(s)-1], "``", "`")
	}
	return s
}

type file struct {
	Pos     lexer.Position
	Headers []*header `parser:"@@*"`
	Decls   []*decl   `parser:"@@*"`
}

type header struct {
	Pos      lexer.Position
	Pipeline *ident    `parser:"  'pipeline' @Ident"`
	Catalog  *ident    `parser:"| 'catalog' @Ident"`
	Database *ident    `parser:"| 'database' @Ident"`
	Storage  *string   `parser:"| 'storage' @DString"`
	Set      *keyValue `parser:"| 'set' @@"`
}

type keyValue struct {
	Pos   lexer.Position
	Key   string `parser:"@DString '='"`
	Value string `parser:"@DString"`
}

type decl struct {
	Pos              lexer.Position
	Source           *sourceDecl  `parser:"  'source' @@"`
	MaterializedView *datasetDecl `parser:"| 'materialized' 'view' @@"`
	StreamingTable   *datasetDecl `parser:"| 'streaming' 'table' @@"`
	TemporaryView    *datasetDecl `parser:"| 'temporary' 'view' @@"`
	View             *datasetDecl `parser:"| 'view' @@"`
	Sink             *datasetDecl `parser:"| 'sink' @@"`
	Flow             *flowDecl    `parser:"| 'flow' @@"`
}

type sourceDecl struct {
	Pos     lexer.Position
	Name    ident            `parser:"@Ident"`
	Spec    *sourceSpec      `parser:"@@"`
	Body    *sourceBody      `parser:"@@?"`
	Clauses []*datasetClause `parser:"@@*"`
}

// sourceBody is a source's braces: its columns and watermark. An Iceberg
// source, whose columns come from the table's metadata, may leave it out.
type sourceBody struct {
	Pos       lexer.Position
	Columns   []*columnDef `parser:"'{' ( (?! 'watermark' Ident 'delay') @@ ( ',' @@ )* )?"`
	Watermark *watermark   `parser:"@@? '}'"`
}

type sourceSpec struct {
	Pos     lexer.Position
	Stream  bool           `parser:"@'stream'?"`
	Format  ident          `parser:"'from' @Ident"`
	Inputs  []*sourceInput `parser:"( @@ ( ',' @@ )* )?"`
	Options []*keyValue    `parser:"( 'options' '(' @@ ( ',' @@ )* ')' )?"`
}

type sourceInput struct {
	Pos   lexer.Position
	Stdin bool    `parser:"  @'stdin'"`
	Path  *string `parser:"| @DString"`
}

type columnDef struct {
	Pos     lexer.Position
	Name    ident    `parser:"@Ident"`
	Type    *typeRef `parser:"@@"`
	NotNull bool     `parser:"@( 'not' 'null' )?"`
	Comment *string  `parser:"( 'comment' @DString )?"`
}

type typeRef struct {
	Pos   lexer.Position
	Name  ident       `parser:"@( Ident | 'null' )"`
	Args  []*typeArg  `parser:"( '(' @@ ( ',' @@ )* ')' )?"`
	Parts []*typePart `parser:"( '<' ( @@ ( ',' @@ )* )? '>' )?"`
}

// typePart is one part of a nested type between < and >: an array's
// element, a map's key or value, or a struct's "name: type" field, each
// with an optional not null.
type typePart struct {
	Pos     lexer.Position
	Field   *ident   `parser:"( @Ident ':' )?"`
	Type    *typeRef `parser:"@@"`
	NotNull bool     `parser:"@( 'not' 'null' )?"`
}

type typeArg struct {
	Pos  lexer.Position
	Int  *string `parser:"  @Int"`
	Unit *ident  `parser:"| @Ident"`
	Zone *string `parser:"| @DString"`
}

type watermark struct {
	Pos             lexer.Position
	Column          ident   `parser:"'watermark' @Ident"`
	Delay           string  `parser:"'delay' @Duration"`
	AllowedLateness *string `parser:"( 'allowed' 'lateness' @Duration )?"`
	IdleTimeout     *string `parser:"( 'idle' 'timeout' @Duration )?"`
}

type datasetDecl struct {
	Pos     lexer.Position
	Name    ident            `parser:"@Ident"`
	Columns []*columnDef     `parser:"( '(' @@ ( ',' @@ )* ')' )?"`
	Clauses []*datasetClause `parser:"@@*"`
	Body    *flowBody        `parser:"@@?"`
}

type flowBody struct {
	Pos     lexer.Position
	Query   *query        `parser:"'=' @@"`
	Clauses []*flowClause `parser:"@@*"`
}

type datasetClause struct {
	Pos         lexer.Position
	ID          *string      `parser:"  'id' @DString"`
	Comment     *string      `parser:"| 'comment' @DString"`
	Catalog     *ident       `parser:"| 'catalog' @Ident"`
	Database    *ident       `parser:"| 'database' @Ident"`
	Set         *keyValue    `parser:"| 'set' @@"`
	Format      *ident       `parser:"| 'format' @Ident"`
	PartitionBy []ident      `parser:"| 'partitioned' 'by' '(' @Ident ( ',' @Ident )* ')'"`
	ClusterBy   []ident      `parser:"| 'cluster' 'by' '(' @Ident ( ',' @Ident )* ')'"`
	Properties  []*keyValue  `parser:"| 'properties' '(' @@ ( ',' @@ )* ')'"`
	Options     []*keyValue  `parser:"| 'options' '(' @@ ( ',' @@ )* ')'"`
	Materialize *string      `parser:"| 'materialize' @( 'full' | 'incremental' )"`
	Expect      *expectation `parser:"| 'expect' @@"`
	Quarantine  *ident       `parser:"| 'quarantine' 'table' @Ident"`
}

type expectation struct {
	Pos    lexer.Position
	Name   ident   `parser:"@Ident ':'"`
	Cond   *expr   `parser:"@@"`
	Action *string `parser:"( 'on' 'violation' @( 'warn' | 'drop' | 'fail' ) )?"`
}

type flowDecl struct {
	Pos     lexer.Position
	Name    ident         `parser:"@Ident"`
	Target  ident         `parser:"'into' @Ident"`
	Once    bool          `parser:"@'once'?"`
	ByName  bool          `parser:"@( 'by' 'name' )?"`
	Query   *query        `parser:"( '=' @@ )?"`
	Clauses []*flowClause `parser:"@@*"`
}

type flowClause struct {
	Pos       lexer.Position
	Comment   *string       `parser:"  'comment' @DString"`
	Set       *keyValue     `parser:"| 'set' @@"`
	Apply     *applyChanges `parser:"| 'apply' 'changes' @@"`
	Trigger   *trigger      `parser:"| 'trigger' @@"`
	Output    *string       `parser:"| 'output' 'mode' @( 'append' | 'update' | 'complete' )"`
	Emit      *emit         `parser:"| 'emit' 'on' @@"`
	LateTable *ident        `parser:"| 'late' 'table' @Ident"`
}

type applyChanges struct {
	Pos               lexer.Position
	Keys              []ident    `parser:"'keys' '(' @Ident ( ',' @Ident )* ')'"`
	SequenceBy        *expr      `parser:"'sequence' 'by' @@"`
	DeleteWhen        *expr      `parser:"( 'delete' 'when' @@ )?"`
	IgnoreNullUpdates bool       `parser:"@( 'ignore' 'null' 'updates' )?"`
	Columns           *columnSet `parser:"( 'columns' @@ )?"`
	SCDType           *string    `parser:"( 'scd' 'type' @Int )?"`
	TrackHistory      *columnSet `parser:"( 'track' 'history' 'on' @@ )?"`
}

type columnSet struct {
	Pos    lexer.Position
	Only   []ident `parser:"  '(' @Ident ( ',' @Ident )* ')'"`
	Except []ident `parser:"| '*' 'except' '(' @Ident ( ',' @Ident )* ')'"`
}

type trigger struct {
	Pos          lexer.Position
	Every        *string `parser:"  'every' @Duration"`
	AvailableNow bool    `parser:"| @( 'available' 'now' )"`
}

type emit struct {
	Pos         lexer.Position
	WindowClose bool `parser:"  @( 'window' 'close' )"`
	Update      bool `parser:"| @'update'"`
}

// --- queries

type query struct {
	Pos    lexer.Position
	From   *fromItem `parser:"'from' @@"`
	Stages []*stage  `parser:"( '|' @@ )*"`
}

type fromItem struct {
	Pos      lexer.Position
	Range    *rangeItem    `parser:"  'range' @@"`
	Subquery *subqueryItem `parser:"| '(' @@"`
	Scan     *scanItem     `parser:"| @@"`
}

type rangeItem struct {
	Pos   lexer.Position
	Start *signedInt `parser:"'(' @@"`
	End   *signedInt `parser:"',' @@"`
	Step  *signedInt `parser:"( ',' @@ )? ')'"`
	Alias *ident     `parser:"( 'as' @Ident )?"`
}

type signedInt struct {
	Pos    lexer.Position
	Neg    bool   `parser:"@'-'?"`
	Digits string `parser:"@Int"`
}

type subqueryItem struct {
	Pos   lexer.Position
	Query *query `parser:"@@ ')'"`
	Alias *ident `parser:"( 'as' @Ident )?"`
}

type scanItem struct {
	Pos       lexer.Position
	Stream    bool       `parser:"( @'stream'"`
	Name      []ident    `parser:"  @Ident ( '.' @Ident )* | @Ident ( '.' @Ident )* )"`
	Alias     *ident     `parser:"( 'as' @Ident )?"`
	Watermark *watermark `parser:"@@?"`
	Bounds    []*bound   `parser:"@@*"`
}

type bound struct {
	Pos    lexer.Position
	Amount string `parser:"'bound' @( Int | Size )"`
	Unit   string `parser:"@( 'rows' | 'bytes' )"`
}

type stage struct {
	Pos       lexer.Position
	Where     *expr          `parser:"  'where' @@"`
	Select    []*namedExpr   `parser:"| 'select' @@ ( ',' @@ )*"`
	Group     *groupStage    `parser:"| 'group' 'by' @@"`
	Aggregate []*namedExpr   `parser:"| 'aggregate' @@ ( ',' @@ )*"`
	Join      *joinStage     `parser:"| @@"`
	Window    *windowStage   `parser:"| 'window' @@"`
	Union     *unionStage    `parser:"| 'union' @@"`
	SetOp     *setOpStage    `parser:"| @@"` // except, intersect
	Distinct  *distinctStage `parser:"| @@"`
	Order     []*sortKey     `parser:"| 'order' 'by' @@ ( ',' @@ )*"`
	Limit     *limitStage    `parser:"| 'limit' @@"`
	Lateral   *lateralStage  `parser:"| @@"` // generators (generate.go)
}

// distinctStage is distinct, or (dedup feature) distinct [on (k, ...)]
// within watermark: Spark's dropDuplicatesWithinWatermark.
type distinctStage struct {
	Pos    lexer.Position
	Kw     string  `parser:"@'distinct'"`
	On     []ident `parser:"( 'on' '(' @Ident ( ',' @Ident )* ')' )?"`
	Within bool    `parser:"@( 'within' 'watermark' )?"`
}

type groupStage struct {
	Pos  lexer.Position
	Keys []*namedExpr   `parser:"@@ ( ',' @@ )*"`
	Sets []*groupingSet `parser:"( 'grouping' 'sets' '(' @@ ( ',' @@ )* ')' )?"`
	Aggs []*namedExpr   `parser:"( 'aggregate' @@ ( ',' @@ )* )?"`
}

// groupingSet is one set of group by ... grouping sets: keys by expression
// (or alias), possibly none.
type groupingSet struct {
	Pos   lexer.Position
	Items []*expr `parser:"'(' ( @@ ( ',' @@ )* )? ')'"`
}

type joinStage struct {
	Pos   lexer.Position
	Kind  string    `parser:"( @( 'inner' | 'left' | 'right' | 'full' | 'semi' | 'anti' | 'cross' ) 'join' | 'join' )"`
	Right *fromItem `parser:"@@"`
	On    *expr     `parser:"( 'on' @@"`
	Using []ident   `parser:"| 'using' '(' @Ident ( ',' @Ident )* ')' )?"`
}

type windowStage struct {
	Pos     lexer.Position
	Tumble  *tumbleWindow  `parser:"  'tumble' @@"`
	Hop     *hopWindow     `parser:"| 'hop' @@"`
	Session *sessionWindow `parser:"| 'session' @@"`
}

type tumbleWindow struct {
	Pos  lexer.Position
	Time *expr  `parser:"'(' @@"`
	Size string `parser:"',' @Duration ')'"`
}

type hopWindow struct {
	Pos   lexer.Position
	Time  *expr  `parser:"'(' @@"`
	Size  string `parser:"',' @Duration"`
	Slide string `parser:"',' @Duration ')'"`
}

type sessionWindow struct {
	Pos  lexer.Position
	Time *expr  `parser:"'(' @@"`
	Gap  string `parser:"',' @Duration ')'"`
}

type unionStage struct {
	Pos   lexer.Position
	All   bool      `parser:"@'all'?"`
	Right *fromItem `parser:"@@"`
}

// setOpStage is except [all] X or intersect [all] X.
type setOpStage struct {
	Pos   lexer.Position
	Kind  string    `parser:"@( 'except' | 'intersect' )"`
	All   bool      `parser:"@'all'?"`
	Right *fromItem `parser:"@@"`
}

type sortKey struct {
	Pos   lexer.Position
	Expr  *expr   `parser:"@@"`
	Dir   *string `parser:"@( 'asc' | 'desc' )?"`
	Nulls *string `parser:"( 'nulls' @( 'first' | 'last' ) )?"`
}

type limitStage struct {
	Pos    lexer.Position
	N      string  `parser:"@Int"`
	Offset *string `parser:"( 'offset' @Int )?"`
}

type namedExpr struct {
	Pos   lexer.Position
	Expr  *expr  `parser:"@@"`
	Alias *ident `parser:"( 'as' @Ident )?"`
}

// --- expressions, loosest first

type expr struct {
	Pos  lexer.Position
	Left *andExpr     `parser:"@@"`
	Or   []*orOperand `parser:"@@*"`
}

type orOperand struct {
	Pos lexer.Position
	X   *andExpr `parser:"'or' @@"`
}

type andExpr struct {
	Pos  lexer.Position
	Left *notExpr      `parser:"@@"`
	And  []*andOperand `parser:"@@*"`
}

type andOperand struct {
	Pos lexer.Position
	X   *notExpr `parser:"'and' @@"`
}

type notExpr struct {
	Pos  lexer.Position
	Nots []*notOp `parser:"@@*"`
	X    *cmpExpr `parser:"@@"`
}

type notOp struct {
	Pos lexer.Position
	Not bool `parser:"@'not'"`
}

type cmpExpr struct {
	Pos  lexer.Position
	Left *bitOrExpr `parser:"@@"`
	Ops  []*cmpOp   `parser:"@@*"`
}

type cmpOp struct {
	Pos       lexer.Position
	Compare   *comparison `parser:"  @@"`
	IsNull    *isNullOp   `parser:"| 'is' @@"`
	Negated   *predicate  `parser:"| 'not' @@"`
	Predicate *predicate  `parser:"| @@"`
}

type comparison struct {
	Pos lexer.Position
	Op  string     `parser:"@( '=' | '<>' | '!=' | '<=>' | '<=' | '>=' | '<' | '>' )"`
	X   *bitOrExpr `parser:"@@"`
}

type isNullOp struct {
	Pos lexer.Position
	Not bool `parser:"@'not'? 'null'"`
}

type predicate struct {
	Pos     lexer.Position
	In      *inList     `parser:"  'in' '(' @@ ')'"`
	Between *betweenOp  `parser:"| 'between' @@"`
	Like    *concatExpr `parser:"| 'like' @@"`
}

type inList struct {
	Pos   lexer.Position
	Query *query  `parser:"  @@"`
	List  []*expr `parser:"| @@ ( ',' @@ )*"`
}

type betweenOp struct {
	Pos lexer.Position
	Lo  *concatExpr `parser:"@@ 'and'"`
	Hi  *concatExpr `parser:"@@"`
}

// The bitwise operators bind as in Spark's grammar: | loosest, then ^,
// &, and the shifts, all between comparison and ||. | is a BitOr token
// only inside an expression's parentheses or brackets (the lexer's
// markBitOr); elsewhere it is the pipe between stages.

type bitOrExpr struct {
	Pos  lexer.Position
	Left *bitXorExpr     `parser:"@@"`
	Ops  []*bitOrOperand `parser:"@@*"`
}

type bitOrOperand struct {
	Pos lexer.Position
	X   *bitXorExpr `parser:"BitOr @@"`
}

type bitXorExpr struct {
	Pos  lexer.Position
	Left *bitAndExpr      `parser:"@@"`
	Ops  []*bitXorOperand `parser:"@@*"`
}

type bitXorOperand struct {
	Pos lexer.Position
	X   *bitAndExpr `parser:"'^' @@"`
}

type bitAndExpr struct {
	Pos  lexer.Position
	Left *shiftExpr       `parser:"@@"`
	Ops  []*bitAndOperand `parser:"@@*"`
}

type bitAndOperand struct {
	Pos lexer.Position
	X   *shiftExpr `parser:"'&' @@"`
}

type shiftExpr struct {
	Pos  lexer.Position
	Left *concatExpr     `parser:"@@"`
	Ops  []*shiftOperand `parser:"@@*"`
}

// shiftOperand is << x, >> x or >>> x. The lexer makes no << or >> token
// (a nested type ends in >>), so the operator is two or three adjacent
// < or > tokens, which the lowering checks are adjacent.
type shiftOperand struct {
	Pos    lexer.Position
	Tokens []lexer.Token
	Op     string      `parser:"(?= '<' '<' | '>' '>') @( '<' '<' | '>' '>' '>' | '>' '>' )"`
	X      *concatExpr `parser:"@@"`
}

type concatExpr struct {
	Pos  lexer.Position
	Left *addExpr         `parser:"@@"`
	Ops  []*concatOperand `parser:"@@*"`
}

type concatOperand struct {
	Pos lexer.Position
	X   *addExpr `parser:"'||' @@"`
}

type addExpr struct {
	Pos  lexer.Position
	Left *mulExpr      `parser:"@@"`
	Ops  []*addOperand `parser:"@@*"`
}

type addOperand struct {
	Pos lexer.Position
	Op  string   `parser:"@( '+' | '-' )"`
	X   *mulExpr `parser:"@@"`
}

type mulExpr struct {
	Pos  lexer.Position
	Left *unaryExpr    `parser:"@@"`
	Ops  []*mulOperand `parser:"@@*"`
}

type mulOperand struct {
	Pos lexer.Position
	Op  string     `parser:"@( '*' | '/' | '%' )"`
	X   *unaryExpr `parser:"@@"`
}

type unaryExpr struct {
	Pos  lexer.Position
	Negs []*negOp   `parser:"@@*"`
	X    *primary   `parser:"@@"`
	Post []*postfix `parser:"@@*"`
}

// postfix is a subscript x[i] (an array's index, a map's key) or a struct
// field x.f after a primary that is not a column reference (whose dotted
// parts columnExpr reads): (s).f, f(x).a.
type postfix struct {
	Pos   lexer.Position
	Index *expr  `parser:"  '[' @@ ']'"`
	Field *ident `parser:"| '.' @Ident"`
}

type negOp struct {
	Pos   lexer.Position
	Minus bool `parser:"  @'-'"`
	Tilde bool `parser:"| @'~'"` // bitwise NOT
}

type primary struct {
	Pos      lexer.Position
	Subquery *query      `parser:"  '(' ( @@"`
	Paren    *expr       `parser:"    | @@ ) ')'"`
	Case     *caseExpr   `parser:"| 'case' @@"`
	Exists   *query      `parser:"| 'exists' '(' @@ ')'"` // correlated subqueries
	Cast     *castExpr   `parser:"| @@"`
	Literal  *literal    `parser:"| @@"`
	Call     *callExpr   `parser:"| @@"`
	Column   *columnExpr `parser:"| @@"`
	Star     *starExpr   `parser:"| @@"`
}

type caseExpr struct {
	Pos     lexer.Position
	Operand *expr      `parser:"@@?"`
	Whens   []*whenArm `parser:"@@+"`
	Else    *expr      `parser:"( 'else' @@ )? 'end'"`
}

type whenArm struct {
	Pos  lexer.Position
	Cond *expr `parser:"'when' @@"`
	Then *expr `parser:"'then' @@"`
}

type castExpr struct {
	Pos lexer.Position
	Try bool     `parser:"( 'cast' | @'try_cast' ) '('"`
	X   *expr    `parser:"@@ 'as'"`
	To  *typeRef `parser:"@@ ')'"`
}

type literal struct {
	Pos       lexer.Position
	Null      bool    `parser:"  @'null'"`
	True      bool    `parser:"| @'true'"`
	False     bool    `parser:"| @'false'"`
	Int       *string `parser:"| @Int"`
	Decimal   *string `parser:"| @Decimal"`
	Float     *string `parser:"| @Float"`
	String    *string `parser:"| @String"`
	Interval  *string `parser:"| @Duration"`
	Timestamp *string `parser:"| 'timestamp' @String"`
	Date      *string `parser:"| 'date' @String"`
}

type callExpr struct {
	Pos      lexer.Position
	Name     ident      `parser:"@Ident '('"`
	Star     bool       `parser:"( @'*'"`
	Distinct bool       `parser:"| @'distinct'?"`
	Args     []*callArg `parser:"  @@ ( ',' @@ )* )? ')'"`
	Filter   *expr      `parser:"( 'filter' '(' 'where' @@ ')' )?"` // an aggregate's FILTER (WHERE ...)
	// window functions: f(...) [ignore nulls] over (spec)
	IgnoreNulls bool        `parser:"@( 'ignore' 'nulls' )?"`
	Over        *windowSpec `parser:"( 'over' '(' @@ ')' )?"`
}

// windowSpec is what a window function's over (...) holds: every part
// optional, as in SQL.
type windowSpec struct {
	Pos       lexer.Position
	Partition []*expr      `parser:"( 'partition' 'by' @@ ( ',' @@ )* )?"`
	Order     []*sortKey   `parser:"( 'order' 'by' @@ ( ',' @@ )* )?"`
	Frame     *windowFrame `parser:"@@?"`
}

// windowFrame is rows | range between start and end.
type windowFrame struct {
	Pos   lexer.Position
	Kind  string      `parser:"@( 'rows' | 'range' ) 'between'"`
	Start *frameBound `parser:"@@ 'and'"`
	End   *frameBound `parser:"@@"`
}

type frameBound struct {
	Pos       lexer.Position
	Unbounded string   `parser:"(   'unbounded' @( 'preceding' | 'following' )"`
	Current   bool     `parser:"  | @( 'current' 'row' )"`
	Offset    *literal `parser:"  | @@"`
	Dir       string   `parser:"    @( 'preceding' | 'following' ) )"`
}

type columnExpr struct {
	Pos    lexer.Position
	Parts  []ident `parser:"@Ident ( '.' @Ident )*"`
	Star   bool    `parser:"( '.' @'*'"`
	Except []ident `parser:"  ( 'except' '(' @Ident ( ',' @Ident )* ')' )? )?"`
}

type starExpr struct {
	Pos    lexer.Position
	Star   bool    `parser:"@'*'"`
	Except []ident `parser:"( 'except' '(' @Ident ( ',' @Ident )* ')' )?"`
}

// grammar is the parser of whole files (and of the declaration-sized chunks
// that error recovery cuts a file into).
var grammar = sync.OnceValue(func() *participle.Parser[file] {
	return participle.MustBuild[file](
		participle.Lexer(lexDef{symbols: symbols}),
		participle.CaseInsensitive("Keyword", "Ident"),
		participle.UseLookahead(participle.MaxLookahead),
	)
})
