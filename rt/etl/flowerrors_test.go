package etl

import (
	"errors"
	"testing"

	"github.com/nordisk/thund/rt/sqlfn"
)

func TestFlowErrors(t *testing.T) {
	div := sqlfn.ErrDivideByZero()
	err := SQLError("p.thund:3:14", "daily", div)
	if want := "p.thund:3:14: flow daily: [DIVIDE_BY_ZERO] " + div.Msg; err.Error() != want {
		t.Errorf("SQLError = %q, want %q", err, want)
	}
	var e *sqlfn.Error
	if !errors.As(err, &e) || e != div {
		t.Errorf("SQLError does not wrap the *sqlfn.Error: %v", err)
	}
	if got, want := NotNullError("p.thund:7:3", "load", "orders", "id").Error(),
		"p.thund:7:3: flow load: [NOT_NULL_CONSTRAINT_VIOLATION] column id of orders is declared not null, and the flow writes NULL into it"; got != want {
		t.Errorf("NotNullError = %q, want %q", got, want)
	}
	if got, want := TooManyRows("p.thund:9:20", "top").Error(),
		"p.thund:9:20: flow top: [SCALAR_SUBQUERY_TOO_MANY_ROWS] More than one row returned by a subquery used as an expression."; got != want {
		t.Errorf("TooManyRows = %q, want %q", got, want)
	}
}
