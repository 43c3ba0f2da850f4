package ir

// Expressions over nested values. Their constructors and functions
// (array, map, struct, named_struct, size, element_at, ...) are Calls; the
// two forms with syntax of their own are these.
//
// A dotted column reference (s.f, t.s.f) stays a ColumnRef, as SQL writes
// it: the resolve pass decides, as Spark does, whether its first parts name
// a relation or a struct column. GetField is a field of any other
// expression: (expr).f, f(x).a.

// GetField is X.Name: the field of a struct value, matched
// case-insensitively (NULL when X is NULL).
type GetField struct {
	Pos  Pos
	X    Expr
	Name string
}

// Subscript is X[Index]: an array's element at a 0-based index (out of
// range is Spark's INVALID_ARRAY_INDEX error under ANSI), or a map's value
// at a key (NULL when the key is missing).
type Subscript struct {
	Pos   Pos
	X     Expr
	Index Expr
}

func (e *GetField) Position() Pos  { return e.Pos }
func (e *Subscript) Position() Pos { return e.Pos }
func (*GetField) exprNode()        {}
func (*Subscript) exprNode()       {}

// nested spells a GetField or a Subscript. In the DSL a field of a column
// reference is written (s).f, since s.f reads back as a dotted column
// reference, which resolve may take for a qualified column.
func (p exprPrinter) nested(e Expr) string {
	switch e := e.(type) {
	case *GetField:
		x := p.sub(e.X, precPrimary)
		if _, col := e.X.(*ColumnRef); col && p.style == DSL {
			x = "(" + x + ")"
		}
		return x + "." + p.ident(e.Name)
	case *Subscript:
		return p.sub(e.X, precPrimary) + "[" + p.sub(e.Index, 0) + "]"
	}
	return ""
}
