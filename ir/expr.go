package ir

// Expr is a scalar expression. The concrete types are the pointer types below.
type Expr interface {
	Position() Pos
	exprNode()
}

// LitKind is the kind of a literal.
type LitKind int

const (
	LitNull LitKind = iota
	LitBool
	LitInt       // Text is decimal digits; int32 when it fits, else int64 (Spark)
	LitDecimal   // Text has a point and no exponent: decimal(p,s) exactly as written
	LitFloat     // Text has an exponent: float64
	LitString    // Text is the unquoted value
	LitInterval  // Text is a canonical Duration
	LitTimestamp // Text is YYYY-MM-DD HH:MM:SS[.ffffff] (UTC)
	LitDate      // Text is YYYY-MM-DD
)

var litNames = [...]string{"null", "bool", "int", "decimal", "float", "string", "interval", "timestamp", "date"}

func (k LitKind) String() string { return litNames[k] }

// Literal is a constant. Text holds its canonical spelling (see LitKind), so
// that printing is lossless: 1.50 stays decimal(3,2).
type Literal struct {
	Pos  Pos
	Kind LitKind
	Text string
}

// ColumnRef names a column, optionally qualified by a dataset name or alias.
type ColumnRef struct {
	Pos       Pos
	Qualifier string
	Name      string
}

// Star is * or q.* in a projection (and only there).
type Star struct {
	Pos       Pos
	Qualifier string
	Except    []string // * except (a, b)
}

// UnaryOp is a prefix operator.
type UnaryOp int

const (
	OpNeg UnaryOp = iota
	OpNot
	OpBitNot // ~, Spark's BitwiseNot: integers only
)

var unaryNames = [...]string{"-", "not", "~"}

func (o UnaryOp) String() string { return unaryNames[o] }

// UnaryOps lists every prefix operator.
func UnaryOps() []UnaryOp {
	out := make([]UnaryOp, len(unaryNames))
	for i := range out {
		out[i] = UnaryOp(i)
	}
	return out
}

// Unary applies a prefix operator.
type Unary struct {
	Pos Pos
	Op  UnaryOp
	X   Expr
}

// BinaryOp is an infix operator.
type BinaryOp int

const (
	OpAdd BinaryOp = iota
	OpSub
	OpMul
	OpDiv // Spark '/': always fractional (double or decimal)
	OpMod
	OpConcat // ||
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpEqNullSafe // <=>
	OpAnd
	OpOr
	// The bitwise operators, Spark's BitwiseAnd, BitwiseOr, BitwiseXor
	// (integers of one type after widening) and ShiftLeft, ShiftRight,
	// ShiftRightUnsigned (the shiftleft ... functions: Java's shifts, the
	// count modulo the width).
	OpBitAnd // &
	OpBitOr  // | (in the DSL only inside parentheses: docs/dsl.md)
	OpBitXor // ^
	OpShl    // <<
	OpShr    // >>
	OpShrU   // >>>
)

var binaryNames = [...]string{"+", "-", "*", "/", "%", "||", "=", "<>", "<", "<=", ">", ">=", "<=>", "and", "or", "&", "|", "^", "<<", ">>", ">>>"}

func (o BinaryOp) String() string { return binaryNames[o] }

// BinaryOps lists every binary operator.
func BinaryOps() []BinaryOp {
	out := make([]BinaryOp, len(binaryNames))
	for i := range out {
		out[i] = BinaryOp(i)
	}
	return out
}

// IsComparison reports =, <>, <, <=, >, >=, <=>.
func (o BinaryOp) IsComparison() bool { return o >= OpEq && o <= OpEqNullSafe }

// IsArithmetic reports +, -, *, /, %.
func (o BinaryOp) IsArithmetic() bool { return o <= OpMod }

// IsBitwise reports &, |, ^.
func (o BinaryOp) IsBitwise() bool { return o >= OpBitAnd && o <= OpBitXor }

// IsShift reports <<, >>, >>>.
func (o BinaryOp) IsShift() bool { return o >= OpShl && o <= OpShrU }

// ShiftFunc is the function a shift operator is: shiftleft, shiftright or
// shiftrightunsigned ("" for another operator).
func (o BinaryOp) ShiftFunc() string {
	switch o {
	case OpShl:
		return "shiftleft"
	case OpShr:
		return "shiftright"
	case OpShrU:
		return "shiftrightunsigned"
	}
	return ""
}

// Binary applies an infix operator. AND / OR use SQL three-valued logic.
type Binary struct {
	Pos Pos
	Op  BinaryOp
	L   Expr
	R   Expr
}

// IsNull is X IS [NOT] NULL.
type IsNull struct {
	Pos Pos
	X   Expr
	Not bool
}

// In is X [NOT] IN (list), with SQL NULL rules.
type In struct {
	Pos  Pos
	X    Expr
	List []Expr
	Not  bool
}

// Between is X [NOT] BETWEEN Lo AND Hi.
type Between struct {
	Pos Pos
	X   Expr
	Lo  Expr
	Hi  Expr
	Not bool
}

// Like is X [NOT] LIKE Pattern (% and _ wildcards, \ escapes).
type Like struct {
	Pos     Pos
	X       Expr
	Pattern Expr
	Not     bool
}

// When is one WHEN ... THEN ... arm.
type When struct {
	Pos  Pos
	Cond Expr
	Then Expr
}

// Case is CASE [Operand] WHEN ... THEN ... [ELSE ...] END.
type Case struct {
	Pos     Pos
	Operand Expr // nil for a searched CASE
	Whens   []*When
	Else    Expr // nil = NULL
}

// Cast converts X to a type with Spark's ANSI rules; Try returns NULL
// instead of failing (try_cast).
type Cast struct {
	Pos Pos
	X   Expr
	To  Type
	Try bool
}

// Call is a scalar or aggregate function call. Star is count(*); Distinct is
// count(distinct x).
type Call struct {
	Pos      Pos
	Name     string // lower-case
	Args     []Expr
	Distinct bool
	Star     bool
	// IgnoreNulls is IGNORE NULLS of first_value, last_value, nth_value,
	// lag and lead (and first/last): NULL inputs are skipped.
	IgnoreNulls bool
	// Filter is an aggregate's FILTER (WHERE cond): only the rows where it
	// is true are aggregated. nil: every row.
	Filter Expr
}

// ScalarSubquery is a query yielding one column and at most one row.
type ScalarSubquery struct {
	Pos   Pos
	Query Rel
}

// InSubquery is X [NOT] IN (query), with Spark's NULL rules.
type InSubquery struct {
	Pos   Pos
	X     Expr
	Query Rel
	Not   bool
}

func (e *Literal) Position() Pos        { return e.Pos }
func (e *ColumnRef) Position() Pos      { return e.Pos }
func (e *Star) Position() Pos           { return e.Pos }
func (e *Unary) Position() Pos          { return e.Pos }
func (e *Binary) Position() Pos         { return e.Pos }
func (e *IsNull) Position() Pos         { return e.Pos }
func (e *In) Position() Pos             { return e.Pos }
func (e *Between) Position() Pos        { return e.Pos }
func (e *Like) Position() Pos           { return e.Pos }
func (e *Case) Position() Pos           { return e.Pos }
func (e *Cast) Position() Pos           { return e.Pos }
func (e *Call) Position() Pos           { return e.Pos }
func (e *ScalarSubquery) Position() Pos { return e.Pos }
func (e *InSubquery) Position() Pos     { return e.Pos }

func (*Literal) exprNode()        {}
func (*ColumnRef) exprNode()      {}
func (*Star) exprNode()           {}
func (*Unary) exprNode()          {}
func (*Binary) exprNode()         {}
func (*IsNull) exprNode()         {}
func (*In) exprNode()             {}
func (*Between) exprNode()        {}
func (*Like) exprNode()           {}
func (*Case) exprNode()           {}
func (*Cast) exprNode()           {}
func (*Call) exprNode()           {}
func (*ScalarSubquery) exprNode() {}
func (*InSubquery) exprNode()     {}

// ExprChildren returns the direct sub-expressions of e (not subquery bodies).
func ExprChildren(e Expr) []Expr {
	switch e := e.(type) {
	case *Unary:
		return []Expr{e.X}
	case *Binary:
		return []Expr{e.L, e.R}
	case *IsNull:
		return []Expr{e.X}
	case *In:
		return append([]Expr{e.X}, e.List...)
	case *Between:
		return []Expr{e.X, e.Lo, e.Hi}
	case *Like:
		return []Expr{e.X, e.Pattern}
	case *Case:
		var out []Expr
		if e.Operand != nil {
			out = append(out, e.Operand)
		}
		for _, w := range e.Whens {
			out = append(out, w.Cond, w.Then)
		}
		if e.Else != nil {
			out = append(out, e.Else)
		}
		return out
	case *Cast:
		return []Expr{e.X}
	case *Call:
		if e.Filter != nil { // an aggregate's FILTER (WHERE ...) comes after its arguments
			return append(append([]Expr{}, e.Args...), e.Filter)
		}
		return e.Args
	case *InSubquery:
		return []Expr{e.X}
	case *Over:
		return overChildren(e)
	case *GetField:
		return []Expr{e.X}
	case *Subscript:
		return []Expr{e.X, e.Index}
	case *Lambda: // lambda.go
		return []Expr{e.Body}
	}
	return nil
}

// WalkExpr calls fn for e and every sub-expression, parents first; fn
// returning false prunes. Subquery bodies are not entered (see WalkRel).
func WalkExpr(e Expr, fn func(Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	for _, c := range ExprChildren(e) {
		WalkExpr(c, fn)
	}
}
