package ir

// Exists is [NOT] EXISTS (query): TRUE when the query returns a row (never
// NULL). Its query may read columns of the enclosing query (a correlated
// subquery); the passes decide how it runs, the IR keeps the user's form.
// The DSL spells it exists (from … | where …), SQL EXISTS (SELECT …).
type Exists struct {
	Pos   Pos
	Query Rel
	Not   bool
}

func (e *Exists) Position() Pos { return e.Pos }
func (*Exists) exprNode()       {}

// SubqueryQuery returns the query of a subquery expression (scalar, IN or
// EXISTS), nil for any other expression.
func SubqueryQuery(e Expr) Rel {
	switch e := e.(type) {
	case *ScalarSubquery:
		return e.Query
	case *InSubquery:
		return e.Query
	case *Exists:
		return e.Query
	}
	return nil
}
