package sqlfn

import "github.com/apache/arrow-go/v18/arrow/decimal128"

// avg's result from the sum and the count its generated accumulator keeps.

// AvgFloat64 is avg's DOUBLE result: sum / n, NULL (valid false) over no
// rows.
func AvgFloat64(sum float64, n int64) (float64, bool) {
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// AvgDecimal is avg's DECIMAL(p, s) result as Spark computes it: the sum, a
// DECIMAL(sp, ss), divided by the count at scale s and rounded HALF_UP once
// (DecimalDivideWithOverflowCheck, see DecimalDivScale), NULL (valid
// false) over no rows; NUMERIC_VALUE_OUT_OF_RANGE when the result does not
// fit DECIMAL(p, s).
func AvgDecimal(sum decimal128.Num, sp, ss int32, n int64, p, s int32) (decimal128.Num, bool, *Error) {
	if n == 0 {
		return decimal128.Num{}, false, nil
	}
	r, err := DecimalDivScale(sum, ss, decimal128.FromI64(n), 0, p, s)
	return r, true, err
}
