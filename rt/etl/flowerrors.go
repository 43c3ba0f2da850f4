package etl

import "fmt"

// The runtime errors of a flow's generated code, placed at the source
// position of the expression, column or subquery that raised them: pos is
// "FILE:LINE:COL", flow the flow's name.

// SQLError places a Spark runtime error (an *sqlfn.Error, which prints as
// "[CLASS] message") at the expression that raised it:
// "FILE:LINE:COL: flow NAME: [CLASS] message". It wraps err.
func SQLError(pos, flow string, err error) error {
	return fmt.Errorf("%s: flow %s: %w", pos, flow, err)
}

// NotNullError is NOT_NULL_CONSTRAINT_VIOLATION: the flow writes NULL into
// column of dataset, which is declared not null.
func NotNullError(pos, flow, dataset, column string) error {
	return fmt.Errorf("%s: flow %s: [NOT_NULL_CONSTRAINT_VIOLATION] column %s of %s is declared not null, and the flow writes NULL into it", pos, flow, column, dataset)
}

// TooManyRows is Spark's SCALAR_SUBQUERY_TOO_MANY_ROWS: a subquery used as
// an expression returned more than one row.
func TooManyRows(pos, flow string) error {
	return fmt.Errorf("%s: flow %s: [SCALAR_SUBQUERY_TOO_MANY_ROWS] More than one row returned by a subquery used as an expression.", pos, flow)
}
