package ir

import "strings"

// Lambdas: the function arguments of Spark's higher-order functions
// (transform, filter, aggregate, exists, ...), x -> body or (acc, x) ->
// body. A lambda is only ever an argument of a Call; its parameters are
// bound by that call (an array's element, its index, a map's key and
// value, an accumulator), and the resolve pass types them from the call's
// other arguments.
//
// A frontend turns a name that a lambda in scope declares into a LambdaVar
// (the innermost lambda wins), so a lambda parameter shadows a column of
// the same name, as in Spark; a qualified name (t.x) stays a column.

// Lambda is (Params...) -> Body.
type Lambda struct {
	Pos    Pos
	Params []string
	Body   Expr
}

// LambdaVar reads the parameter Name of the innermost enclosing lambda
// that declares it.
type LambdaVar struct {
	Pos  Pos
	Name string
}

func (e *Lambda) Position() Pos    { return e.Pos }
func (e *LambdaVar) Position() Pos { return e.Pos }
func (*Lambda) exprNode()          {}
func (*LambdaVar) exprNode()       {}

// lambda spells a Lambda or a LambdaVar: x -> body, (a, x) -> body, as SQL
// and the DSL write them, or Spark's names for them (lambdafunction(body,
// namedlambdavariable(), ...), namedlambdavariable()).
func (p exprPrinter) lambda(e Expr) string {
	switch e := e.(type) {
	case *LambdaVar:
		if p.style == SparkName {
			return "namedlambdavariable()"
		}
		return p.ident(e.Name)
	case *Lambda:
		if p.style == SparkName {
			s := "lambdafunction(" + p.sub(e.Body, 0)
			for range e.Params {
				s += ", namedlambdavariable()"
			}
			return s + ")"
		}
		ps := make([]string, len(e.Params))
		for i, n := range e.Params {
			ps[i] = p.ident(n)
		}
		head := ps[0]
		if len(ps) != 1 {
			head = "(" + strings.Join(ps, ", ") + ")"
		}
		return head + " -> " + p.sub(e.Body, 0)
	}
	return ""
}
