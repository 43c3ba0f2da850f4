package sqlfn

import (
	"math"
	"strconv"
	"sync"
	"time"
)

// Dates are DATE values: int32 days since 1970-01-01 (Arrow date32), in the
// proleptic Gregorian calendar as Spark 3+ uses. Timestamps are TIMESTAMP
// values: int64 microseconds since 1970-01-01T00:00:00Z (Spark's unit);
// Arrow timestamps in other units convert with TimestampToMicros. The
// session time zone is UTC: a string without a zone is read as UTC, and
// fields, truncation and formatting are in UTC.

// TimeUnit is the unit of an Arrow timestamp; the values equal
// arrow.TimeUnit's (Second = 0 ... Nanosecond = 3), so TimeUnit(u) converts.
type TimeUnit uint8

// Timestamp units.
const (
	UnitSecond TimeUnit = iota
	UnitMillisecond
	UnitMicrosecond
	UnitNanosecond
)

// Microseconds per unit of time.
const (
	MicrosPerMilli  = 1000
	MicrosPerSecond = 1000 * MicrosPerMilli
	MicrosPerMinute = 60 * MicrosPerSecond
	MicrosPerHour   = 60 * MicrosPerMinute
	MicrosPerDay    = 24 * MicrosPerHour
)

// TimestampToMicros converts a timestamp in unit u to microseconds: exact
// for seconds and milliseconds (ARITHMETIC_OVERFLOW when out of range),
// flooring for nanoseconds (as Spark reads nanosecond timestamps).
func TimestampToMicros(v int64, u TimeUnit) (int64, *Error) {
	switch u {
	case UnitSecond:
		return mulExact(v, MicrosPerSecond)
	case UnitMillisecond:
		return mulExact(v, MicrosPerMilli)
	case UnitNanosecond:
		return FloorDiv(v, 1000), nil
	}
	return v, nil
}

// MicrosToTimestamp converts microseconds to a timestamp in unit u, flooring
// to seconds or milliseconds, and ARITHMETIC_OVERFLOW when nanoseconds do
// not fit.
func MicrosToTimestamp(us int64, u TimeUnit) (int64, *Error) {
	switch u {
	case UnitSecond:
		return FloorDiv(us, MicrosPerSecond), nil
	case UnitMillisecond:
		return FloorDiv(us, MicrosPerMilli), nil
	case UnitNanosecond:
		return mulExact(us, 1000)
	}
	return us, nil
}

func mulExact(a, b int64) (int64, *Error) {
	r, err := MulInt64(a, b)
	if err != nil {
		return 0, errLongOverflow(opMul)
	}
	return r, nil
}

// DateToMicros is CAST(date AS TIMESTAMP): midnight UTC.
func DateToMicros(days int32) int64 { return int64(days) * MicrosPerDay }

// MicrosToDate is CAST(timestamp AS DATE) (and to_date(timestamp)): the UTC
// calendar day.
func MicrosToDate(us int64) int32 { return int32(FloorDiv(us, MicrosPerDay)) }

// civilFromDays converts days since 1970-01-01 to a proleptic Gregorian
// date (Howard Hinnant's algorithm).
func civilFromDays(z int64) (y int64, m, d int) {
	z += 719468
	era := FloorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = int(doy - (153*mp+2)/5 + 1)
	if mp < 10 {
		m = int(mp + 3)
	} else {
		m = int(mp - 9)
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// daysFromCivil is the inverse of civilFromDays.
func daysFromCivil(y int64, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := FloorDiv(y, 400)
	yoe := y - era*400
	mm := int64(m)
	if m > 2 {
		mm -= 3
	} else {
		mm += 9
	}
	doy := (153*mm+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

func isLeap(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func monthDays(y int64, m int) int {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// Year is year(date).
func Year(days int32) int32 { y, _, _ := civilFromDays(int64(days)); return int32(y) }

// Month is month(date), 1..12.
func Month(days int32) int32 { _, m, _ := civilFromDays(int64(days)); return int32(m) }

// Day is day(date) / dayofmonth(date), 1..31.
func Day(days int32) int32 { _, _, d := civilFromDays(int64(days)); return int32(d) }

// Quarter is quarter(date), 1..4.
func Quarter(days int32) int32 { return (Month(days)-1)/3 + 1 }

// DayOfWeek is dayofweek(date): 1 = Sunday ... 7 = Saturday.
func DayOfWeek(days int32) int32 { return int32(FloorMod(int64(days)+4, 7)) + 1 }

// WeekDay is weekday(date): 0 = Monday ... 6 = Sunday.
func WeekDay(days int32) int32 { return int32(FloorMod(int64(days)+3, 7)) }

// DayOfYear is dayofyear(date), 1..366.
func DayOfYear(days int32) int32 {
	y, _, _ := civilFromDays(int64(days))
	return int32(int64(days)-daysFromCivil(y, 1, 1)) + 1
}

// Hour is hour(timestamp), 0..23 (UTC).
func Hour(us int64) int32 { return int32(FloorMod(us, MicrosPerDay) / MicrosPerHour) }

// Minute is minute(timestamp), 0..59.
func Minute(us int64) int32 { return int32(FloorMod(us, MicrosPerHour) / MicrosPerMinute) }

// Second is second(timestamp), 0..59 (whole seconds).
func Second(us int64) int32 { return int32(FloorMod(us, MicrosPerMinute) / MicrosPerSecond) }

// TruncUnit is a date_trunc / trunc level.
type TruncUnit uint8

// Truncation levels, finest first.
const (
	TruncMicrosecond TruncUnit = iota
	TruncMillisecond
	TruncSecond
	TruncMinute
	TruncHour
	TruncDay
	TruncWeek
	TruncMonth
	TruncQuarter
	TruncYear
)

// ParseTruncUnit maps a date_trunc format, case-insensitively, as Spark's
// DateTimeUtils.parseTruncLevel: YEAR/YYYY/YY, QUARTER, MONTH/MON/MM, WEEK,
// DAY/DD, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND. ok is false for
// anything else (Spark's result is then NULL).
func ParseTruncUnit(s string) (TruncUnit, bool) {
	var b [16]byte
	if len(s) > len(b) {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		b[i] = c
	}
	switch string(b[:len(s)]) {
	case "YEAR", "YYYY", "YY":
		return TruncYear, true
	case "QUARTER":
		return TruncQuarter, true
	case "MONTH", "MON", "MM":
		return TruncMonth, true
	case "WEEK":
		return TruncWeek, true
	case "DAY", "DD":
		return TruncDay, true
	case "HOUR":
		return TruncHour, true
	case "MINUTE":
		return TruncMinute, true
	case "SECOND":
		return TruncSecond, true
	case "MILLISECOND":
		return TruncMillisecond, true
	case "MICROSECOND":
		return TruncMicrosecond, true
	}
	return 0, false
}

// truncDays truncates a day number to the start of a week (Monday), month,
// quarter or year; finer units leave it unchanged.
func truncDays(days int64, u TruncUnit) int64 {
	switch u {
	case TruncWeek:
		return days - FloorMod(days+3, 7)
	case TruncMonth, TruncQuarter, TruncYear:
		y, m, _ := civilFromDays(days)
		switch u {
		case TruncQuarter:
			m = (m-1)/3*3 + 1
		case TruncYear:
			m = 1
		}
		return daysFromCivil(y, m, 1)
	}
	return days
}

// DateTrunc is date_trunc(unit, ts) on microseconds (UTC).
func DateTrunc(u TruncUnit, us int64) int64 {
	switch u {
	case TruncMicrosecond:
		return us
	case TruncMillisecond:
		return FloorDiv(us, MicrosPerMilli) * MicrosPerMilli
	case TruncSecond:
		return FloorDiv(us, MicrosPerSecond) * MicrosPerSecond
	case TruncMinute:
		return FloorDiv(us, MicrosPerMinute) * MicrosPerMinute
	case TruncHour:
		return FloorDiv(us, MicrosPerHour) * MicrosPerHour
	}
	return truncDays(FloorDiv(us, MicrosPerDay), u) * MicrosPerDay
}

// TruncDate is trunc(date, fmt): only WEEK and coarser levels are valid;
// ok is false (NULL) for finer ones, as in Spark.
func TruncDate(u TruncUnit, days int32) (int32, bool) {
	if u < TruncWeek {
		return 0, false
	}
	return int32(truncDays(int64(days), u)), true
}

// DateAddDays is date_add(date, n) / date + n: INT overflow is
// ARITHMETIC_OVERFLOW.
func DateAddDays(days, n int32) (int32, *Error) { return AddInt32(days, n) }

// DateAdd is date + n days for a BIGINT n (a date plus an integer of any
// width): ARITHMETIC_OVERFLOW when n or the result leaves INT.
func DateAdd(days int32, n int64) (int32, *Error) {
	if n < math.MinInt32 || n > math.MaxInt32 {
		return 0, errIntAdd()
	}
	return DateAddDays(days, int32(n))
}

// DateSub is date - n days for a BIGINT n: ARITHMETIC_OVERFLOW when -n or
// the result leaves INT.
func DateSub(days int32, n int64) (int32, *Error) {
	if n <= math.MinInt32 || n > math.MaxInt32 {
		return 0, errIntSub()
	}
	return DateAddDays(days, -int32(n))
}

// DurationDiv is duration / n, a day-time interval divided by an integer,
// rounded HALF_UP as Spark's DivideDTInterval: DIVIDE_BY_ZERO when n is 0,
// ARITHMETIC_OVERFLOW for MinInt64 / -1.
func DurationDiv(a, b int64) (int64, *Error) {
	if b == 0 {
		return 0, ErrDivideByZero()
	}
	if a == math.MinInt64 && b == -1 {
		return 0, errIntegralDivideOverflow()
	}
	q, r := a/b, a%b
	if r != 0 {
		ar, ab := r, b
		if ar < 0 {
			ar = -ar
		}
		if ab < 0 {
			ab = -ab
		}
		if ar >= ab-ar {
			if (a < 0) != (b < 0) {
				q--
			} else {
				q++
			}
		}
	}
	return q, nil
}

// DateToTimestamp is CAST(date AS TIMESTAMP), midnight UTC, in unit u:
// ARITHMETIC_OVERFLOW when nanoseconds do not fit.
func DateToTimestamp(days int32, u TimeUnit) (int64, *Error) {
	return MicrosToTimestamp(DateToMicros(days), u)
}

// StringToTimestamp is CAST(string AS TIMESTAMP) in unit u: the errors of
// CastStringToTimestamp and MicrosToTimestamp.
func StringToTimestamp(s string, u TimeUnit) (int64, *Error) {
	us, err := CastStringToTimestamp(s)
	if err != nil {
		return 0, err
	}
	return MicrosToTimestamp(us, u)
}

// TimestampToString is CAST(timestamp AS STRING) of a timestamp in unit u
// (AppendTimestamp's text; nanoseconds are floored to microseconds).
func TimestampToString(v int64, u TimeUnit) (string, *Error) {
	us, err := TimestampToMicros(v, u)
	if err != nil {
		return "", err
	}
	return string(AppendTimestamp(nil, us)), nil
}

// TruncTimestamp is date_trunc(level, ts) on a timestamp in unit u, the
// result in the same unit.
func TruncTimestamp(level TruncUnit, v int64, u TimeUnit) (int64, *Error) {
	us, err := TimestampToMicros(v, u)
	if err != nil {
		return 0, err
	}
	return MicrosToTimestamp(DateTrunc(level, us), u)
}

// DateDiff is datediff(end, start) in days.
func DateDiff(end, start int32) int32 { return end - start }

// addMonths is LocalDate.plusMonths: the day is clamped to the month's length.
func addMonths(days int64, months int64) int64 {
	y, m, d := civilFromDays(days)
	t := y*12 + int64(m-1) + months
	ny := FloorDiv(t, 12)
	nm := int(FloorMod(t, 12)) + 1
	return daysFromCivil(ny, nm, min(d, monthDays(ny, nm)))
}

// DateAddMonths is add_months(date, n) (and date + INTERVAL n MONTH).
func DateAddMonths(days, months int32) (int32, *Error) {
	r := addMonths(int64(days), int64(months))
	if r != int64(int32(r)) {
		return 0, errIntOverflow(opAdd)
	}
	return int32(r), nil
}

// TimestampAddMicros is ts + a day-time interval given in microseconds
// (UTC, so the duration is added as is); ARITHMETIC_OVERFLOW out of range.
func TimestampAddMicros(us, delta int64) (int64, *Error) { return AddInt64(us, delta) }

// TimestampAddMonths is ts + INTERVAL n MONTH: the UTC date moves by whole
// months (day clamped), the time of day is kept.
func TimestampAddMonths(us int64, months int32) (int64, *Error) {
	days := FloorDiv(us, MicrosPerDay)
	tod := us - days*MicrosPerDay
	nd := addMonths(days, int64(months))
	r, err := MulInt64(nd, MicrosPerDay)
	if err != nil {
		return 0, errLongOverflow(opAdd)
	}
	return AddInt64(r, tod)
}

// TimestampDiff is ts1 - ts2 as a day-time interval in microseconds
// (SubtractTimestamps); ARITHMETIC_OVERFLOW when it does not fit.
func TimestampDiff(end, start int64) (int64, *Error) { return SubInt64(end, start) }

// appendYear writes a year as java.time's ISO formatter does (SignStyle
// EXCEEDS_PAD, width 4): "0999", "2024", "+10000", "-0001".
func appendYear(dst []byte, y int64) []byte {
	switch {
	case y > 9999:
		dst = append(dst, '+')
	case y < 0:
		dst = append(dst, '-')
		y = -y
	}
	for p := int64(1000); p > 1 && y < p; p /= 10 {
		dst = append(dst, '0')
	}
	return strconv.AppendInt(dst, y, 10)
}

func append2(dst []byte, v int) []byte { return append(dst, byte('0'+v/10), byte('0'+v%10)) }

// AppendDate appends CAST(date AS STRING): yyyy-MM-dd.
func AppendDate(dst []byte, days int32) []byte { return appendDays(dst, int64(days)) }

func appendDays(dst []byte, days int64) []byte {
	y, m, d := civilFromDays(days)
	dst = appendYear(dst, y)
	dst = append(dst, '-')
	dst = append2(dst, m)
	dst = append(dst, '-')
	return append2(dst, d)
}

// AppendTimestamp appends CAST(timestamp AS STRING) in UTC:
// yyyy-MM-dd HH:mm:ss, then the fraction with trailing zeros removed, and no
// '.' when the fraction is zero (Spark's fraction formatter):
// "2024-01-02 03:04:05", "2024-01-02 03:04:05.12".
func AppendTimestamp(dst []byte, us int64) []byte {
	days := FloorDiv(us, MicrosPerDay)
	tod := us - days*MicrosPerDay
	dst = appendDays(dst, days)
	dst = append(dst, ' ')
	dst = append2(dst, int(tod/MicrosPerHour))
	dst = append(dst, ':')
	dst = append2(dst, int(tod/MicrosPerMinute%60))
	dst = append(dst, ':')
	dst = append2(dst, int(tod/MicrosPerSecond%60))
	if frac := tod % MicrosPerSecond; frac != 0 {
		var b [7]byte
		b[0] = '.'
		for i := 6; i >= 1; i-- {
			b[i] = byte('0' + frac%10)
			frac /= 10
		}
		n := 7
		for b[n-1] == '0' {
			n--
		}
		dst = append(dst, b[:n]...)
	}
	return dst
}

// CastStringToDate is CAST(string AS DATE) and to_date(string) under ANSI
// (SparkDateTimeUtils.stringToDate). After trimming whitespace and ASCII
// controls it accepts [+-]yyyy*, [+-]yyyy*-[m]m, [+-]yyyy*-[m]m-[d]d, and
// that last form followed by ' ' or 'T' and anything at all; the year has 4
// to 7 digits. Invalid dates (2023-02-29) and anything else are
// CAST_INVALID_INPUT.
func CastStringToDate(s string) (int32, *Error) {
	d, ok := parseDate(s)
	if !ok {
		return 0, ErrCastInvalidInput(s, TypeDate)
	}
	return d, nil
}

func parseDate(s string) (int32, bool) {
	t := trimAll(s)
	if len(t) == 0 {
		return 0, false
	}
	seg := [3]int64{1, 1, 1}
	sign := int64(1)
	j := 0
	if t[0] == '-' || t[0] == '+' {
		if t[0] == '-' {
			sign = -1
		}
		j++
	}
	i := 0
	var cur int64
	digits := 0
	valid := func(i, digits int) bool {
		if i == 0 {
			return digits >= 4 && digits <= 7
		}
		return digits > 0 && digits <= 2
	}
	for j < len(t) && i < 3 && t[j] != ' ' && t[j] != 'T' {
		b := t[j]
		if i < 2 && b == '-' {
			if !valid(i, digits) {
				return 0, false
			}
			seg[i] = cur
			cur, digits = 0, 0
			i++
		} else {
			if b < '0' || b > '9' {
				return 0, false
			}
			cur = cur*10 + int64(b-'0')
			digits++
		}
		j++
	}
	if !valid(i, digits) {
		return 0, false
	}
	if i < 2 && j < len(t) {
		return 0, false
	}
	seg[i] = cur
	y, m, d := sign*seg[0], int(seg[1]), int(seg[2])
	if m < 1 || m > 12 || d < 1 || d > monthDays(y, m) {
		return 0, false
	}
	days := daysFromCivil(y, m, d)
	if days != int64(int32(days)) {
		return 0, false
	}
	return int32(days), true
}

// ToDate is to_date(s) without a format: the same as CAST(s AS DATE).
func ToDate(s string) (int32, *Error) { return CastStringToDate(s) }

// ToTimestamp is to_timestamp(s) without a format: CAST(s AS TIMESTAMP).
func ToTimestamp(s string) (int64, *Error) { return CastStringToTimestamp(s) }

// CastStringToTimestamp is CAST(string AS TIMESTAMP) and
// to_timestamp(string) under ANSI (SparkDateTimeUtils.stringToTimestamp),
// with UTC as the session zone. After trimming whitespace and ASCII controls:
//
//	[+-]yyyy*[-[m]m[-[d]d]]
//	[+-]yyyy*-[m]m-[d]d( |T)[h]h[:[m]m[:[s]s[.fraction]]][zone]
//	[h]h:[m]m[:[s]s[.fraction]][zone]  and  T[h]h:...  (today's date in the zone)
//
// The year has 4 to 6 digits; fraction digits beyond the sixth are dropped.
// zone is Z, an offset (+h, +hh, +hh:mm, +hhmm, +hh:mm:ss, +hhmmss, and
// Spark's +h:mm, +hh:m), UTC/GMT/UT with or without an offset, a Java short
// id (PST, EST...), or a region id (Europe/Paris), read from the system's
// tz database. Anything else is CAST_INVALID_INPUT.
func CastStringToTimestamp(s string) (int64, *Error) {
	us, ok := parseTimestamp(s)
	if !ok {
		return 0, ErrCastInvalidInput(s, TypeTimestamp)
	}
	return us, nil
}

func parseTimestamp(s string) (int64, bool) { return parseTimestampIn(s, nil) }

// parseTimestampIn is parseTimestamp with session zone z (nil: UTC) for a
// text without a zone.
func parseTimestampIn(s string, z *Zone) (int64, bool) {
	t := trimAll(s)
	if len(t) == 0 {
		return 0, false
	}
	valid := func(seg, digits int) bool {
		switch seg {
		case 0:
			return digits >= 4 && digits <= 6
		case 6:
			return true
		case 7:
			return digits <= 2
		}
		return digits > 0 && digits <= 2
	}
	seg := [9]int64{1, 1, 1, 0, 0, 0, 0, 0, 0}
	i, j := 0, 0
	var cur int64
	digits, fracDigits := 0, 0
	justTime := false
	yearSign, hasSign := int64(1), false
	zone := ""
	hasZone := false
	if t[0] == '-' || t[0] == '+' {
		hasSign = true
		if t[0] == '-' {
			yearSign = -1
		}
		j++
	}
	for j < len(t) {
		b := t[j]
		if b >= '0' && b <= '9' {
			if i == 6 {
				fracDigits++
			}
			if i != 6 || digits < 6 {
				cur = cur*10 + int64(b-'0')
			}
			digits++
			j++
			continue
		}
		switch {
		case j == 0 && b == 'T':
			justTime = true
			i += 3
		case i < 2:
			switch {
			case b == '-':
				if !valid(i, digits) {
					return 0, false
				}
				seg[i] = cur
				cur, digits = 0, 0
				i++
			case i == 0 && b == ':' && !hasSign:
				justTime = true
				if !valid(3, digits) {
					return 0, false
				}
				seg[3] = cur
				cur, digits = 0, 0
				i = 4
			default:
				return 0, false
			}
		case i == 2:
			if b != ' ' && b != 'T' {
				return 0, false
			}
			if !valid(i, digits) {
				return 0, false
			}
			seg[i] = cur
			cur, digits = 0, 0
			i++
		case i == 3 || i == 4:
			if b != ':' || !valid(i, digits) {
				return 0, false
			}
			seg[i] = cur
			cur, digits = 0, 0
			i++
		case i == 5 || i == 6:
			if !valid(i, digits) {
				return 0, false
			}
			seg[i] = cur
			cur, digits = 0, 0
			if b == '.' && i == 5 {
				i++
			} else {
				i++
				zone, hasZone = t[j:], true
				j = len(t) - 1
				if i == 6 {
					i++
				}
			}
		default:
			if i < 9 && (b == ':' || b == ' ') {
				if !valid(i, digits) {
					return 0, false
				}
				seg[i] = cur
				cur, digits = 0, 0
				i++
			} else {
				return 0, false
			}
		}
		j++
	}
	if !valid(i, digits) {
		return 0, false
	}
	seg[i] = cur
	for k := fracDigits; k < 6; k++ {
		seg[6] *= 10
	}
	offset := int64(0)
	var loc *time.Location
	if hasZone {
		var ok bool
		if offset, loc, ok = parseZone(javaTrim(zone)); !ok {
			return 0, false
		}
	} else if z != nil {
		offset, loc = z.off, z.loc
	}
	h, mi, sec := seg[3], seg[4], seg[5]
	if h > 23 || mi > 59 || sec > 59 {
		return 0, false
	}
	var days int64
	if justTime {
		now := time.Now().Unix()
		if loc != nil {
			_, off := time.Unix(now, 0).In(loc).Zone()
			now += int64(off)
		} else {
			now += offset
		}
		days = FloorDiv(now, 86400)
	} else {
		y, m, d := yearSign*seg[0], int(seg[1]), int(seg[2])
		if m < 1 || m > 12 || d < 1 || d > monthDays(y, m) {
			return 0, false
		}
		days = daysFromCivil(y, m, d)
	}
	localSec := days*86400 + h*3600 + mi*60 + sec
	if loc != nil {
		offset = regionOffset(loc, localSec)
	}
	secs := localSec - offset
	r, err := MulInt64(secs, MicrosPerSecond)
	if err != nil {
		return 0, false
	}
	r, err = AddInt64(r, seg[6])
	if err != nil {
		return 0, false
	}
	return r, true
}

// regionOffset resolves a local time in a region the way java.time's
// ZonedDateTime.of does: in a gap the local time moves forward by the gap
// (equivalently, the offset before the transition applies); in an overlap
// the earlier offset wins.
func regionOffset(loc *time.Location, local int64) int64 {
	offAt := func(instant int64) int64 {
		_, off := time.Unix(instant, 0).In(loc).Zone()
		return int64(off)
	}
	before, after := offAt(local-86400), offAt(local+86400)
	if before == after {
		return before
	}
	if offAt(local-before) == before {
		return before
	}
	if offAt(local-after) == after {
		return after
	}
	return before
}

// parseZone is Spark's getZoneId: it first rewrites (+|-)h: to (+|-)0h: and a
// trailing (+|-)hh:m to (+|-)hh:0m, then ZoneId.of(id, SHORT_IDS). It
// returns a fixed offset in seconds, or a region.
func parseZone(z string) (int64, *time.Location, bool) {
	if len(z) == 0 || len(z) > 48 {
		return 0, nil, false
	}
	id := z
	for k := 0; k+2 < len(id); k++ { // first "(+|-)d:" only
		if (id[k] == '+' || id[k] == '-') && isDigit(id[k+1]) && id[k+2] == ':' {
			id = id[:k+1] + "0" + id[k+1:] // rare: allocates
			break
		}
	}
	if n := len(id); n >= 5 && (id[n-5] == '+' || id[n-5] == '-') && isDigit(id[n-4]) && isDigit(id[n-3]) &&
		id[n-2] == ':' && isDigit(id[n-1]) {
		id = id[:n-1] + "0" + id[n-1:]
	}
	switch {
	case id == "Z" || id == "UTC" || id == "GMT" || id == "UT":
		return 0, nil, true
	case id[0] == '+' || id[0] == '-':
		off, ok := parseOffset(id)
		return off, nil, ok
	case len(id) > 3 && (id[:3] == "UTC" || id[:3] == "GMT") && (id[3] == '+' || id[3] == '-'):
		off, ok := parseOffset(id[3:])
		return off, nil, ok
	case len(id) > 2 && id[:2] == "UT" && (id[2] == '+' || id[2] == '-'):
		off, ok := parseOffset(id[2:])
		return off, nil, ok
	}
	if r, ok := shortZoneIDs[id]; ok {
		if r[0] == '-' {
			off, ok := parseOffset(r)
			return off, nil, ok
		}
		id = r
	}
	loc, ok := loadRegion(id)
	return 0, loc, ok
}

// parseOffset is java.time.ZoneOffset.of: +h, +hh, +hh:mm, +hhmm,
// +hh:mm:ss, +hhmmss, at most 18 hours.
func parseOffset(id string) (int64, bool) {
	if len(id) < 2 || (id[0] != '+' && id[0] != '-') {
		return 0, false
	}
	num := func(p int, colon bool) (int64, bool) {
		if colon && id[p-1] != ':' {
			return 0, false
		}
		if !isDigit(id[p]) || !isDigit(id[p+1]) {
			return 0, false
		}
		return int64(id[p]-'0')*10 + int64(id[p+1]-'0'), true
	}
	var h, m, s int64
	ok1, ok2, ok3 := true, true, true
	switch len(id) {
	case 2:
		if !isDigit(id[1]) {
			return 0, false
		}
		h = int64(id[1] - '0')
	case 3:
		h, ok1 = num(1, false)
	case 5:
		h, ok1 = num(1, false)
		m, ok2 = num(3, false)
	case 6:
		h, ok1 = num(1, false)
		m, ok2 = num(4, true)
	case 7:
		h, ok1 = num(1, false)
		m, ok2 = num(3, false)
		s, ok3 = num(5, false)
	case 9:
		h, ok1 = num(1, false)
		m, ok2 = num(4, true)
		s, ok3 = num(7, true)
	default:
		return 0, false
	}
	if !ok1 || !ok2 || !ok3 || h > 18 || m > 59 || s > 59 {
		return 0, false
	}
	total := h*3600 + m*60 + s
	if total > 18*3600 {
		return 0, false
	}
	if id[0] == '-' {
		total = -total
	}
	return total, true
}

// shortZoneIDs is java.time.ZoneId.SHORT_IDS.
var shortZoneIDs = map[string]string{
	"ACT": "Australia/Darwin", "AET": "Australia/Sydney", "AGT": "America/Argentina/Buenos_Aires",
	"ART": "Africa/Cairo", "AST": "America/Anchorage", "BET": "America/Sao_Paulo",
	"BST": "Asia/Dhaka", "CAT": "Africa/Harare", "CNT": "America/St_Johns",
	"CST": "America/Chicago", "CTT": "Asia/Shanghai", "EAT": "Africa/Addis_Ababa",
	"ECT": "Europe/Paris", "IET": "America/Indiana/Indianapolis", "IST": "Asia/Kolkata",
	"JST": "Asia/Tokyo", "MIT": "Pacific/Apia", "NET": "Asia/Yerevan",
	"NST": "Pacific/Auckland", "PLT": "Asia/Karachi", "PNT": "America/Phoenix",
	"PRT": "America/Puerto_Rico", "PST": "America/Los_Angeles", "SST": "Pacific/Guadalcanal",
	"VST": "Asia/Ho_Chi_Minh", "EST": "-05:00", "MST": "-07:00", "HST": "-10:00",
}

var regionCache sync.Map // string -> *time.Location (successes only)

// loadRegion loads a region id (ZoneRegion.ofId's syntax) from the system
// tz database, caching hits.
func loadRegion(id string) (*time.Location, bool) {
	if v, ok := regionCache.Load(id); ok {
		return v.(*time.Location), true
	}
	if len(id) < 2 || !isAlpha(id[0]) || id == "Local" {
		return nil, false
	}
	for k := 1; k < len(id); k++ {
		c := id[k]
		if !isAlpha(c) && !isDigit(c) && c != '~' && c != '/' && c != '.' && c != '_' && c != '+' && c != '-' {
			return nil, false
		}
	}
	loc, err := time.LoadLocation(id)
	if err != nil {
		return nil, false
	}
	regionCache.Store(id, loc)
	return loc, true
}

func isAlpha(c byte) bool { return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }
