package dsl

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/nordisk/thund/ir"
)

// Lambdas, the function arguments of Spark's higher-order functions, as
// SQL writes them (frontend/sql/lambda.go) and ir.Print prints them:
// x -> body and (a, b) -> body, only as a call's argument. Inside the body
// a bare name that a lambda in scope declares is that lambda's variable
// (ir.LambdaVar), the innermost first, so it shadows a column of the same
// name, as Spark's lambda variables do; a qualified name (t.x) is a column.

// callArg is a call's argument: a lambda or an expression. The lambda is
// tried first; it is told apart by its second token (->) or by the ) ->
// after a parenthesized name list, so an expression is never re-parsed much.
type callArg struct {
	Pos    lexer.Position
	Lambda *lambdaExpr `parser:"  @@"`
	Expr   *expr       `parser:"| @@"`
}

// lambdaExpr is one parameter, or a parenthesized list, then -> and the body.
type lambdaExpr struct {
	Pos    lexer.Position
	One    *ident  `parser:"(   @Ident"`
	Params []ident `parser:"  | '(' @Ident ( ',' @Ident )* ')' ) '->'"`
	Body   *expr   `parser:"@@"`
}

// arg lowers a call's argument: an expression or a lambda.
func (l *lowerer) arg(a *callArg) ir.Expr {
	if a.Lambda == nil {
		return l.expr(a.Expr)
	}
	lam := a.Lambda
	params := lam.Params
	if lam.One != nil {
		params = []ident{*lam.One}
	}
	names := make([]string, len(params))
	for i, p := range params {
		for _, prev := range names[:i] {
			if strings.EqualFold(prev, string(p)) {
				l.errorf(lam.Pos, ir.CodeSyntax, "the lambda's parameter %s is declared twice (Spark: INVALID_LAMBDA_FUNCTION_CALL.DUPLICATE_ARG_NAMES)", p)
				return nil
			}
		}
		names[i] = string(p)
	}
	l.lambdaParams = append(l.lambdaParams, names)
	body := l.expr(lam.Body)
	l.lambdaParams = l.lambdaParams[:len(l.lambdaParams)-1]
	if body == nil {
		return nil
	}
	return &ir.Lambda{Pos: l.pos(lam.Pos), Params: names, Body: body}
}

// isLambdaParam reports whether name is a parameter of a lambda in scope
// (case-insensitively, as Spark resolves names).
func (l *lowerer) isLambdaParam(name string) bool {
	for _, ps := range l.lambdaParams {
		for _, p := range ps {
			if strings.EqualFold(p, name) {
				return true
			}
		}
	}
	return false
}
