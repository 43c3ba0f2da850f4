package sqlfn

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// ClassIntervalArithmeticOverflow is Spark's error condition for an
// interval that leaves its range (SQLSTATE 22015).
const ClassIntervalArithmeticOverflow = "INTERVAL_ARITHMETIC_OVERFLOW"

// MakeDTInterval is make_dt_interval(days, hours, mins, secs): the
// INTERVAL DAY TO SECOND days*24h + hours*1h + mins*1m + secs, in
// microseconds (secs is a DECIMAL(18,6), so its unscaled value is in
// microseconds); a result beyond a long's microseconds is
// INTERVAL_ARITHMETIC_OVERFLOW.
func MakeDTInterval(days, hours, mins int32, secs decimal128.Num) (int64, *Error) {
	const minute, hour, day = 60_000_000, 3_600_000_000, 86_400_000_000
	total := int64(secs.LowBits()) // at most 18 digits: fits a long
	for _, part := range [...]struct{ n, unit int64 }{{int64(days), day}, {int64(hours), hour}, {int64(mins), minute}} {
		hi, lo := bits.Mul64(uint64(abs64(part.n)), uint64(part.unit))
		if hi != 0 || lo > 1<<63-1 {
			return 0, errIntervalOverflow()
		}
		v := int64(lo)
		if part.n < 0 {
			v = -v
		}
		sum := total + v
		if (total >= 0) == (v >= 0) && (sum >= 0) != (total >= 0) {
			return 0, errIntervalOverflow()
		}
		total = sum
	}
	return total, nil
}

// abs64 is |n| for an n above the smallest long.
func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

//go:noinline
func errIntervalOverflow() *Error {
	return &Error{Class: ClassIntervalArithmeticOverflow + ".WITHOUT_SUGGESTION",
		Msg: "Integer overflow while operating with intervals. Try devising appropriate values for the interval parameters."}
}
