package sqlfn

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// The answers below are Spark 4.1.4's and 4.2.1's for the same calls.

func TestWeekFields(t *testing.T) {
	for _, c := range []struct {
		y         int64
		m, d      int
		week, yow int32
	}{
		{2024, 1, 1, 1, 2024}, {2024, 12, 30, 1, 2025}, {2021, 1, 3, 53, 2020}, {2020, 12, 31, 53, 2020}, {1970, 1, 1, 1, 1970},
	} {
		days := int32(daysFromCivil(c.y, c.m, c.d))
		if w, y := WeekOfYear(days), YearOfWeek(days); w != c.week || y != c.yow {
			t.Errorf("%d-%d-%d: week %d of %d, want %d of %d", c.y, c.m, c.d, w, y, c.week, c.yow)
		}
	}
}

func TestNextDayAndLastDay(t *testing.T) {
	mon := int32(daysFromCivil(2024, 1, 1))
	for _, c := range []struct {
		name string
		want int32
	}{{"MO", mon + 7}, {"monday", mon + 7}, {"Sun", mon + 6}, {"tu", mon + 1}} {
		if got, err := NextDay(mon, c.name); err != nil || got != c.want {
			t.Errorf("NextDay(2024-01-01, %s) = %d, %v; want %d", c.name, got, err, c.want)
		}
	}
	if _, err := NextDay(mon, "mo "); err == nil || err.Class != ClassIllegalDayOfWeek || err.Msg != "Illegal input for day of week: mo ." {
		t.Errorf("NextDay(mo ): %v", err)
	}
	if got := LastDay(int32(daysFromCivil(2023, 2, 11))); got != int32(daysFromCivil(2023, 2, 28)) {
		t.Errorf("LastDay(2023-02-11) = %d", got)
	}
}

func TestMakeDate(t *testing.T) {
	for _, c := range []struct {
		y, m, d int32
		msg     string
	}{
		{2024, 13, 1, "Invalid value for MonthOfYear (valid values 1 - 12): 13"},
		{2024, 4, 31, "Invalid date 'APRIL 31'"},
		{2023, 2, 29, "Invalid date 'February 29' as '2023' is not a leap year"},
		{2024, 1, 0, "Invalid value for DayOfMonth (valid values 1 - 28/31): 0"},
		{1000000000, 1, 1, "Invalid value for Year (valid values -999999999 - 999999999): 1000000000"},
	} {
		_, err := MakeDate(c.y, c.m, c.d)
		want := c.msg + `. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`
		if err == nil || err.Class != "DATETIME_FIELD_OUT_OF_BOUNDS.WITH_SUGGESTION" || err.Msg != want {
			t.Errorf("MakeDate(%d, %d, %d): %v", c.y, c.m, c.d, err)
		}
	}
	if got, err := MakeDate(2024, 2, 29); err != nil || got != int32(daysFromCivil(2024, 2, 29)) {
		t.Errorf("MakeDate(2024, 2, 29) = %d, %v", got, err)
	}
}

func TestMonthsBetween(t *testing.T) {
	ts := func(y int64, m, d int, h int64) int64 { return daysFromCivil(y, m, d)*MicrosPerDay + h*MicrosPerHour }
	for _, c := range []struct {
		a, b  int64
		round bool
		want  float64
	}{
		{ts(1997, 2, 28, 10) + 30*MicrosPerMinute, ts(1996, 10, 30, 0), true, 3.94959677},
		{ts(1997, 2, 28, 10) + 30*MicrosPerMinute, ts(1996, 10, 30, 0), false, 3.9495967741935485},
		{ts(2024, 3, 31, 0), ts(2024, 2, 29, 0), true, 1},
		{ts(2024, 1, 15, 0), ts(2024, 3, 15, 0), true, -2},
		{ts(2024, 1, 15, 23), ts(2024, 3, 14, 1), true, -1.93817204},
	} {
		if got := MonthsBetween(c.a, c.b, c.round, nil); got != c.want {
			t.Errorf("MonthsBetween = %v, want %v", got, c.want)
		}
	}
	// New York's 2024-03-10 lost 02:00-03:00: 03:30 is 2.5 hours into it
	ny := SessionZone("America/New_York")
	a := ny.Instant(ts(2024, 3, 10, 3)+30*MicrosPerMinute, UnitMicrosecond)
	b := ny.Instant(ts(1970, 1, 1, 0), UnitMicrosecond)
	if got := MonthsBetween(a, b, true, ny); got != 650.2936828 {
		t.Errorf("MonthsBetween in New York = %v, want 650.2936828", got)
	}
}

func TestMakeTimestamp(t *testing.T) {
	sec := func(micros int64) decimal128.Num { return decimal128.FromI64(micros) }
	for _, c := range []struct {
		micros int64
		msg    string
	}{
		{-250000, `[DATETIME_FIELD_OUT_OF_BOUNDS.WITH_SUGGESTION] Invalid value for SecondOfMinute (valid values 0 - 59): -1. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`},
		{60500000, "[INVALID_FRACTION_OF_SECOND] Valid range for seconds is [0, 60] (inclusive), but the provided value is 60.5. To avoid this error, use `try_make_timestamp`, which returns NULL on error."},
	} {
		if _, err := MakeTimestamp(2024, 1, 1, 0, 0, sec(c.micros), nil); err == nil || err.Error() != c.msg {
			t.Errorf("MakeTimestamp(..., %d µs): %v, want %s", c.micros, err, c.msg)
		}
	}
	if got, err := MakeTimestamp(2024, 12, 31, 23, 59, sec(60000000), nil); err != nil || got != daysFromCivil(2025, 1, 1)*MicrosPerDay {
		t.Errorf("MakeTimestamp(2024-12-31 23:59:60) = %d, %v", got, err)
	}
	// New York skipped 2024-03-10 02:30: it is 03:30 EDT, 07:30 UTC
	ny := SessionZone("America/New_York")
	if got, _ := MakeTimestamp(2024, 3, 10, 2, 30, sec(0), ny); got != daysFromCivil(2024, 3, 10)*MicrosPerDay+7*MicrosPerHour+30*MicrosPerMinute {
		t.Errorf("MakeTimestamp in the gap = %d", got)
	}
}

// TestNowFixedPerRun: current_timestamp() is read in each flow's package;
// every read in a process gives the instant of the first.
func TestNowFixedPerRun(t *testing.T) {
	first := Now()
	time.Sleep(2 * time.Millisecond)
	if again := Now(); again != first {
		t.Fatalf("Now() moved from %d to %d within a run", first, again)
	}
}
