package sparkemit

import (
	"github.com/nordisk/thund/ir"
	pb "github.com/nordisk/thund/sparkemit/connectpb"
)

// Lambdas lower to Spark Connect's own: an ir.Lambda to a LambdaFunction
// over UnresolvedNamedLambdaVariables named as its parameters, and an
// ir.LambdaVar to the UnresolvedNamedLambdaVariable of its name, which
// Spark binds to the innermost lambda that declares it (as the frontends
// did). The higher-order functions themselves are Spark's functions of the
// same name.

// lambdaExpr lowers a Lambda or a LambdaVar.
func (l *lowerer) lambdaExpr(x ir.Expr) *pb.Expression {
	switch n := x.(type) {
	case *ir.LambdaVar:
		return &pb.Expression{ExprType: &pb.Expression_UnresolvedNamedLambdaVariable_{
			UnresolvedNamedLambdaVariable: lambdaVar(n.Name)}}
	case *ir.Lambda:
		body := l.expr(n.Body)
		if body == nil {
			return nil
		}
		args := make([]*pb.Expression_UnresolvedNamedLambdaVariable, len(n.Params))
		for i, p := range n.Params {
			args[i] = lambdaVar(p)
		}
		return &pb.Expression{ExprType: &pb.Expression_LambdaFunction_{
			LambdaFunction: &pb.Expression_LambdaFunction{Function: body, Arguments: args}}}
	}
	return nil
}

// lambdaVar is the lambda variable named name.
func lambdaVar(name string) *pb.Expression_UnresolvedNamedLambdaVariable {
	return &pb.Expression_UnresolvedNamedLambdaVariable{NameParts: []string{name}}
}
