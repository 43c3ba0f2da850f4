package sqlfn

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// TestMakeDTInterval checks make_dt_interval against Spark 4.2's answers
// (in microseconds) and its INTERVAL_ARITHMETIC_OVERFLOW.
func TestMakeDTInterval(t *testing.T) {
	cases := []struct {
		days, hours, mins int32
		secs              int64 // microseconds
		want              int64
		overflow          bool
	}{
		{1, 12, 30, 1_001_001, 86400e6 + 45001e6 + 1001, false},   // make_dt_interval(1, 12, 30, 01.001001)
		{-1, 25, -61, 1_500_000, -86400e6 + 86341e6 + 5e5, false}, // make_dt_interval(-1, 25, -61, 1.5)
		{106751991, 0, 0, 0, 106751991 * 86400e6, false},
		{106751992, 0, 0, 0, 0, true},
		{2147483647, 2147483647, 0, 0, 0, true},
		{0, 0, 0, 0, 0, false},
		{106751991, 4, 0, 54_775_807, 1<<63 - 1, false}, // the largest: INTERVAL '106751991 04:00:54.775807'
		{106751991, 4, 0, 54_775_808, 0, true},
		{-106751991, -4, 0, -54_775_808, -1 << 63, false}, // the smallest
	}
	for _, c := range cases {
		got, err := MakeDTInterval(c.days, c.hours, c.mins, decimal128.FromI64(c.secs))
		switch {
		case c.overflow && (err == nil || err.Class != "INTERVAL_ARITHMETIC_OVERFLOW.WITHOUT_SUGGESTION"):
			t.Errorf("make_dt_interval(%d, %d, %d, %d us): got %d, %v; want INTERVAL_ARITHMETIC_OVERFLOW", c.days, c.hours, c.mins, c.secs, got, err)
		case !c.overflow && (err != nil || got != c.want):
			t.Errorf("make_dt_interval(%d, %d, %d, %d us) = %d, %v; want %d", c.days, c.hours, c.mins, c.secs, got, err, c.want)
		}
	}
	if e := errIntervalOverflow(); e.SQLState() != "22015" {
		t.Errorf("SQLSTATE %q, want 22015", e.SQLState())
	}
}
