package sqlfn

import (
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// The date and time functions of the catalogue's time family
// (passes/funcs_time.go): days are DATE values, microseconds TIMESTAMP
// values; generated code converts them to the session zone's wall clock
// first, so that everything here computes on wall-clock values.

// ClassDatetimeFieldOutOfBounds and ClassIllegalDayOfWeek are the errors of
// make_date and next_day under ANSI.
const (
	ClassDatetimeFieldOutOfBounds = "DATETIME_FIELD_OUT_OF_BOUNDS"
	ClassIllegalDayOfWeek         = "ILLEGAL_DAY_OF_WEEK"
)

// errDatetimeField is DATETIME_FIELD_OUT_OF_BOUNDS.WITH_SUGGESTION with
// java.time's exception text (msg).
//
//go:noinline
func errDatetimeField(msg string) *Error {
	return &Error{Class: ClassDatetimeFieldOutOfBounds + ".WITH_SUGGESTION",
		Msg: msg + ". If necessary set " + ansiConf + " to \"false\" to bypass this error."}
}

// errIllegalDayOfWeek is next_day's ILLEGAL_DAY_OF_WEEK.
//
//go:noinline
func errIllegalDayOfWeek(s string) *Error {
	return &Error{Class: ClassIllegalDayOfWeek, Msg: "Illegal input for day of week: " + s + "."}
}

// WeekOfYear is weekofyear(date): the ISO-8601 week, 1..53 (weeks start on
// Monday; week 1 holds the year's first Thursday).
func WeekOfYear(days int32) int32 {
	thursday := int64(days) - FloorMod(int64(days)+3, 7) + 3
	y, _, _ := civilFromDays(thursday)
	return int32((thursday-daysFromCivil(y, 1, 1))/7) + 1
}

// YearOfWeek is the ISO-8601 week-based year of a date (date_part's
// YEAROFWEEK).
func YearOfWeek(days int32) int32 {
	y, _, _ := civilFromDays(int64(days) - FloorMod(int64(days)+3, 7) + 3)
	return int32(y)
}

// DayOfWeekISO is date_part's DOW_ISO: 1 = Monday ... 7 = Sunday.
func DayOfWeekISO(days int32) int32 { return WeekDay(days) + 1 }

// LastDay is last_day(date): the last day of its month.
func LastDay(days int32) int32 {
	y, m, d := civilFromDays(int64(days))
	return days + int32(monthDays(y, m)-d)
}

// dayOfWeekNames are next_day's day names (Spark's getDayOfWeekFromString),
// upper-cased, each with its WeekDay (0 = Monday).
var dayOfWeekNames = map[string]int32{
	"MO": 0, "MON": 0, "MONDAY": 0, "TU": 1, "TUE": 1, "TUESDAY": 1, "WE": 2, "WED": 2, "WEDNESDAY": 2,
	"TH": 3, "THU": 3, "THURSDAY": 3, "FR": 4, "FRI": 4, "FRIDAY": 4, "SA": 5, "SAT": 5, "SATURDAY": 5,
	"SU": 6, "SUN": 6, "SUNDAY": 6,
}

// NextDay is next_day(date, dayOfWeek): the first date after the given one
// that falls on the named day (two letters, three, or the full English
// name, in any case); ILLEGAL_DAY_OF_WEEK for any other text (ANSI).
func NextDay(days int32, name string) (int32, *Error) {
	want, ok := dayOfWeekNames[strings.ToUpper(name)]
	if !ok {
		return 0, errIllegalDayOfWeek(name)
	}
	delta := FloorMod(int64(want-WeekDay(days)), 7)
	if delta == 0 {
		delta = 7
	}
	return DateAdd(days, delta)
}

// TruncDateText is trunc(date, fmt) with fmt a text: NULL for a level finer
// than WEEK or an unknown one (TruncDate).
func TruncDateText(days int32, format string) (int32, bool) {
	u, ok := ParseTruncUnit(format)
	if !ok {
		return 0, false
	}
	return TruncDate(u, days)
}

// monthNames are java.time's Month names, for make_date's messages.
var monthNames = [...]string{"JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST",
	"SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER"}

// MakeDate is make_date(year, month, day) under ANSI (LocalDate.of):
// DATETIME_FIELD_OUT_OF_BOUNDS with java.time's words for a field out of
// its range or a day the month does not have.
func MakeDate(y, m, d int32) (int32, *Error) {
	it := func(v int32) string { return strconv.Itoa(int(v)) }
	switch {
	case y < -999999999 || y > 999999999:
		return 0, errDatetimeField("Invalid value for Year (valid values -999999999 - 999999999): " + it(y))
	case m < 1 || m > 12:
		return 0, errDatetimeField("Invalid value for MonthOfYear (valid values 1 - 12): " + it(m))
	case d < 1 || d > 31:
		return 0, errDatetimeField("Invalid value for DayOfMonth (valid values 1 - 28/31): " + it(d))
	case m == 2 && d == 29 && !isLeap(int64(y)):
		return 0, errDatetimeField("Invalid date 'February 29' as '" + it(y) + "' is not a leap year")
	case int(d) > monthDays(int64(y), int(m)):
		return 0, errDatetimeField("Invalid date '" + monthNames[m-1] + " " + it(d) + "'")
	}
	r := daysFromCivil(int64(y), int(m), int(d))
	if r != int64(int32(r)) {
		return 0, errIntOverflow(opAdd)
	}
	return int32(r), nil
}

// MonthsBetween is months_between(t1, t2, roundOff) of two instants
// (microseconds) in zone z (nil: UTC), as Spark's
// DateTimeUtils.monthsBetween: whole months when the days of month are
// equal or both are their month's last, else the month difference plus the
// difference of the rest over 31-day months, in whole seconds (a time of
// day is the time elapsed since the local midnight: 03:30 is 2.5 hours
// into a day whose 02:00 was skipped); rounded to 8 digits with roundOff.
func MonthsBetween(t1, t2 int64, roundOff bool, z *Zone) float64 {
	day := func(t int64) (days, secs int64) {
		local := t
		if z != nil {
			local = z.Local(t, UnitMicrosecond)
		}
		days = FloorDiv(local, MicrosPerDay)
		midnight := days * MicrosPerDay
		if z != nil {
			midnight = z.Instant(midnight, UnitMicrosecond)
		}
		return days, (t - midnight) / MicrosPerSecond
	}
	d1, s1 := day(t1)
	d2, s2 := day(t2)
	y1, m1, dd1 := civilFromDays(d1)
	y2, m2, dd2 := civilFromDays(d2)
	diff := float64((y1*12 + int64(m1)) - (y2*12 + int64(m2)))
	if dd1 == dd2 || dd1 == monthDays(y1, m1) && dd2 == monthDays(y2, m2) {
		return diff
	}
	secs := int64(dd1-dd2)*86400 + s1 - s2
	diff += float64(secs) / float64(31*86400)
	if roundOff {
		return javaRound(diff*1e8) / 1e8
	}
	return diff
}

// javaRound is Java's Math.round(double) as a double: floor(x + 0.5).
func javaRound(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	return math.Floor(x + 0.5)
}

// UnixSeconds, UnixMillis and UnixMicros are unix_seconds, unix_millis and
// unix_micros of an instant in microseconds: floored to the unit.
func UnixSeconds(us int64) int64 { return FloorDiv(us, MicrosPerSecond) }

// UnixMillis is unix_millis (see UnixSeconds).
func UnixMillis(us int64) int64 { return FloorDiv(us, MicrosPerMilli) }

// SecondWithFraction is date_part's SECOND of wall-clock microseconds: the
// seconds of the minute with their fraction, a DECIMAL(8,6) (its unscaled
// value is the microseconds of the minute).
func SecondWithFraction(us int64) decimal128.Num {
	return decimal128.FromI64(FloorMod(us, MicrosPerMinute))
}

// Now is the instant of its first call in the process, in microseconds:
// generated code reads it once per run, in each flow's package, as Spark
// fixes current_timestamp() once per query, and every flow of a run sees the
// same instant.
func Now() int64 { return runStart() }

// runStart is the instant Now first ran.
var runStart = sync.OnceValue(func() int64 { return time.Now().UnixMicro() })

// ClassDatetimeOverflow is timestampadd's error when the result leaves the
// range of a TIMESTAMP.
const ClassDatetimeOverflow = "DATETIME_OVERFLOW"

// errTimestampAdd is DATETIME_OVERFLOW for timestampadd(unit, n, ts), the
// timestamp written as a literal of its wall-clock time.
//
//go:noinline
func errTimestampAdd(unit string, n, local int64) *Error {
	return &Error{Class: ClassDatetimeOverflow, Msg: "Datetime operation overflow: add " + strconv.FormatInt(n, 10) + "L " + unit +
		" to TIMESTAMP '" + string(AppendTimestamp(nil, local)) + "'."}
}

// unitMicros are the microseconds of timestampadd's units of fixed length.
var unitMicros = map[string]int64{"MICROSECOND": 1, "MILLISECOND": MicrosPerMilli, "SECOND": MicrosPerSecond,
	"MINUTE": MicrosPerMinute, "HOUR": MicrosPerHour}

// unitMonths and unitDays are the months and days of its calendar units.
var (
	unitMonths = map[string]int64{"MONTH": 1, "QUARTER": 3, "YEAR": 12}
	unitDays   = map[string]int64{"DAY": 1, "DAYOFYEAR": 1, "WEEK": 7}
)

// wallClock and instantOf are the wall-clock time of an instant in zone z
// (nil: UTC), and back.
func wallClock(us int64, z *Zone) int64 {
	if z == nil {
		return us
	}
	return z.Local(us, UnitMicrosecond)
}

func instantOf(l int64, z *Zone) int64 {
	if z == nil {
		return l
	}
	return z.Instant(l, UnitMicrosecond)
}

// TimestampAddUnit is timestampadd(unit, n, ts) of an instant in zone z
// (nil: UTC, and a TIMESTAMP_NTZ): units of fixed length add to the
// instant; DAY, WEEK, MONTH, QUARTER and YEAR to the wall-clock date (the
// day clamped to the month's last), whose instant in z is the result (in a
// gap the time moves forward, in an overlap the earlier offset wins).
// DATETIME_OVERFLOW out of range.
func TimestampAddUnit(unit string, n, us int64, z *Zone) (int64, *Error) {
	if per, ok := unitMicros[unit]; ok {
		d, err := MulInt64(n, per)
		if err == nil {
			if r, err := AddInt64(us, d); err == nil {
				return r, nil
			}
		}
		return 0, errTimestampAdd(unit, n, wallClock(us, z))
	}
	l := wallClock(us, z)
	days := FloorDiv(l, MicrosPerDay)
	tod := l - days*MicrosPerDay
	var nd int64
	if m, ok := unitMonths[unit]; ok {
		months := n * m
		if n != 0 && (months/m != n || months != int64(int32(months))) {
			return 0, errTimestampAdd(unit, n, l)
		}
		nd = addMonths(days, months)
	} else {
		k := unitDays[unit]
		if n > math.MaxInt32 || n < math.MinInt32 {
			return 0, errTimestampAdd(unit, n, l)
		}
		nd = days + n*k
	}
	if nd < -106751991 || nd > 106751990 { // beyond the microseconds of an int64
		return 0, errTimestampAdd(unit, n, l)
	}
	return instantOf(nd*MicrosPerDay+tod, z), nil
}

// TimestampDiffUnit is timestampdiff(unit, start, end) of two instants in
// zone z (nil: UTC): the whole units between their wall-clock times, as
// java.time's ChronoUnit.between counts them (truncated toward zero), in
// every unit: across New York's spring DST change a day of wall clock is
// 24 hours where the instants are 23 apart.
func TimestampDiffUnit(unit string, start, end int64, z *Zone) int64 {
	l1, l2 := wallClock(start, z), wallClock(end, z)
	if per, ok := unitMicros[unit]; ok {
		return (l2 - l1) / per
	}
	d1, d2 := FloorDiv(l1, MicrosPerDay), FloorDiv(l2, MicrosPerDay)
	t1, t2 := l1-d1*MicrosPerDay, l2-d2*MicrosPerDay
	switch {
	case d2 > d1 && t2 < t1:
		d2--
	case d2 < d1 && t2 > t1:
		d2++
	}
	if k, ok := unitDays[unit]; ok {
		return (d2 - d1) / k
	}
	y1, m1, dd1 := civilFromDays(d1)
	y2, m2, dd2 := civilFromDays(d2)
	packed1 := (y1*12+int64(m1-1))*32 + int64(dd1)
	packed2 := (y2*12+int64(m2-1))*32 + int64(dd2)
	return (packed2 - packed1) / 32 / unitMonths[unit]
}

// errFractionOfSecond is make_timestamp's INVALID_FRACTION_OF_SECOND: 60
// seconds with a fraction.
//
//go:noinline
func errFractionOfSecond(micros int64) *Error {
	text := strings.TrimRight(string(AppendDecimal(nil, decimal128.FromI64(micros), 6)), "0")
	return &Error{Class: "INVALID_FRACTION_OF_SECOND", Msg: "Valid range for seconds is [0, 60] (inclusive), but the provided value is " +
		strings.TrimSuffix(text, ".") + ". To avoid this error, use `try_make_timestamp`, which returns NULL on error."}
}

// MakeTimestamp is make_timestamp(year, month, day, hour, min, sec) under
// ANSI (LocalDateTime.of), sec a DECIMAL(16,6), the wall-clock time read in
// zone z (nil: UTC): 60 seconds are the next minute's start (with a
// fraction, INVALID_FRACTION_OF_SECOND); a field out of its range, or a
// date that does not exist, is DATETIME_FIELD_OUT_OF_BOUNDS in java.time's
// words, the date's fields first.
func MakeTimestamp(y, mo, d, h, mi int32, sec decimal128.Num, z *Zone) (int64, *Error) {
	micros := int64(sec.LowBits())
	secs, frac := FloorDiv(micros, MicrosPerSecond), FloorMod(micros, MicrosPerSecond) // -0.25 is second -1
	carry := int64(0)
	if secs == 60 {
		if frac != 0 {
			return 0, errFractionOfSecond(micros)
		}
		secs, carry = 0, MicrosPerMinute
	}
	days, err := MakeDate(y, mo, d)
	if err != nil {
		return 0, err
	}
	it := func(v int64) string { return strconv.FormatInt(v, 10) }
	switch {
	case h < 0 || h > 23:
		return 0, errDatetimeField("Invalid value for HourOfDay (valid values 0 - 23): " + it(int64(h)))
	case mi < 0 || mi > 59:
		return 0, errDatetimeField("Invalid value for MinuteOfHour (valid values 0 - 59): " + it(int64(mi)))
	case secs < 0 || secs > 59:
		return 0, errDatetimeField("Invalid value for SecondOfMinute (valid values 0 - 59): " + it(secs))
	}
	l := int64(days)*MicrosPerDay + int64(h)*MicrosPerHour + int64(mi)*MicrosPerMinute + secs*MicrosPerSecond + frac + carry
	return instantOf(l, z), nil
}
