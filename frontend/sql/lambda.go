package sql

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/nordisk/thund/ir"
)

// Lambdas, the function arguments of Spark's higher-order functions:
// x -> body and (a, b) -> body, only as a call's argument, as Spark's
// grammar has them. Inside the body a bare name that a lambda in scope
// declares is that lambda's variable (ir.LambdaVar), the innermost first,
// so it shadows a column of the same name, as Spark's lambda variables do;
// a qualified name (t.x) is a column.

// lambdaAST is a lambda: one parameter, or a parenthesized list, then ->.
type lambdaAST struct {
	Pos    lexer.Position
	One    *ident   `parser:"(   @@"`
	Params []*ident `parser:"  | '(' @@ ( ',' @@ )* ')' ) '->'"`
	Body   *exprAST `parser:"@@"`
}

// arg converts a call's argument: an expression or a lambda.
func (c *conv) arg(a *argAST) ir.Expr {
	if a.Lambda == nil {
		return c.expr(a.Expr)
	}
	l := a.Lambda
	params := l.Params
	if l.One != nil {
		params = []*ident{l.One}
	}
	names := make([]string, len(params))
	for i, p := range params {
		for _, prev := range names[:i] {
			if strings.EqualFold(prev, p.Name) {
				c.errorf(pos(p.Pos), ir.CodeSyntax, "the lambda's parameter %s is declared twice (Spark: INVALID_LAMBDA_FUNCTION_CALL.DUPLICATE_ARG_NAMES)", p.Name)
				return nil
			}
		}
		names[i] = p.Name
	}
	c.lambdaParams = append(c.lambdaParams, names)
	body := c.expr(l.Body)
	c.lambdaParams = c.lambdaParams[:len(c.lambdaParams)-1]
	if body == nil {
		return nil
	}
	return &ir.Lambda{Pos: pos(l.Pos), Params: names, Body: body}
}

// isLambdaParam reports whether name is a parameter of a lambda in scope
// (case-insensitively, as Spark resolves names).
func (c *conv) isLambdaParam(name string) bool {
	for _, ps := range c.lambdaParams {
		for _, p := range ps {
			if strings.EqualFold(p, name) {
				return true
			}
		}
	}
	return false
}
