package sqlfn

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
)

func days(y, m, d int) int32 { return int32(daysFromCivil(int64(y), m, d)) }

func micros(y, m, d, h, mi, s, us int) int64 {
	return int64(days(y, m, d))*MicrosPerDay + int64(h)*MicrosPerHour + int64(mi)*MicrosPerMinute +
		int64(s)*MicrosPerSecond + int64(us)
}

func TestCivil(t *testing.T) {
	for _, d := range []int64{-1000000, -719468, -1, 0, 1, 59, 365, 11016, 2932896, 1000000} {
		y, m, dd := civilFromDays(d)
		if back := daysFromCivil(y, m, dd); back != d {
			t.Errorf("civil round trip %d -> %d-%d-%d -> %d", d, y, m, dd, back)
		}
		tm := time.Unix(d*86400, 0).UTC()
		if int(y) != tm.Year() || m != int(tm.Month()) || dd != tm.Day() {
			t.Errorf("civil(%d) = %d-%d-%d, time says %v", d, y, m, dd, tm)
		}
	}
	if days(1970, 1, 1) != 0 || days(2000, 3, 1) != 11017 {
		t.Error("epoch")
	}
}

func TestCastStringToDate(t *testing.T) {
	tests := []struct {
		in   string
		want int32
		ok   bool
	}{
		{"2020-01-01", days(2020, 1, 1), true},
		{"2020-1-1", days(2020, 1, 1), true},
		{"2020-02", days(2020, 2, 1), true},
		{"2020", days(2020, 1, 1), true},
		{" 2020-01-01 ", days(2020, 1, 1), true},
		{"\t2020-01-01\n", days(2020, 1, 1), true},
		{"2020-01-01T12:00:00", days(2020, 1, 1), true},
		{"2020-01-01 anything goes", days(2020, 1, 1), true},
		{"2020-01-01T", days(2020, 1, 1), true},
		{"2020-02-29", days(2020, 2, 29), true},
		{"+12345-01-01", days(12345, 1, 1), true},
		{"-0044-03-15", days(-44, 3, 15), true},
		{"0000-01-01", days(0, 1, 1), true},
		{"2023-02-29", 0, false},
		{"2020-13-01", 0, false},
		{"2020-00-01", 0, false},
		{"2020-01-32", 0, false},
		{"20-01-01", 0, false},
		{"12345678-01-01", 0, false},
		{"2020-001-01", 0, false},
		{"2020-01-01x", 0, false},
		{"2020 01", 0, false},
		{"2020-01 x", 0, false},
		{"2020/01/01", 0, false},
		{"", 0, false},
		{"   ", 0, false},
		{"-", 0, false},
		{"T2020", 0, false},
	}
	for _, tt := range tests {
		got, err := CastStringToDate(tt.in)
		if tt.ok != (err == nil) {
			t.Errorf("CAST(%q AS DATE) error %v", tt.in, err)
			continue
		}
		if tt.ok && got != tt.want {
			t.Errorf("CAST(%q AS DATE) = %d, want %d", tt.in, got, tt.want)
		}
		if !tt.ok && err.Class != ClassCastInvalidInput {
			t.Errorf("class %s", err.Class)
		}
	}
	_, err := CastStringToDate("x")
	want := `The value 'x' of the type "STRING" cannot be cast to "DATE" because it is malformed.`
	if err == nil || err.Msg[:len(want)] != want {
		t.Errorf("message: %v", err)
	}
}

func TestCastStringToTimestamp(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"2020-01-01", micros(2020, 1, 1, 0, 0, 0, 0), true},
		{"2020-01", micros(2020, 1, 1, 0, 0, 0, 0), true},
		{"2020", micros(2020, 1, 1, 0, 0, 0, 0), true},
		{"2020-01-01 12:34:56", micros(2020, 1, 1, 12, 34, 56, 0), true},
		{"2020-01-01T12:34:56", micros(2020, 1, 1, 12, 34, 56, 0), true},
		{"2020-01-01 12:34:56.123456", micros(2020, 1, 1, 12, 34, 56, 123456), true},
		{"2020-01-01 12:34:56.1", micros(2020, 1, 1, 12, 34, 56, 100000), true},
		{"2020-01-01 12:34:56.123456789", micros(2020, 1, 1, 12, 34, 56, 123456), true},
		{"2020-01-01 12:34", micros(2020, 1, 1, 12, 34, 0, 0), true},
		{"2020-01-01 12", micros(2020, 1, 1, 12, 0, 0, 0), true},
		{"2020-1-2 3:4:5", micros(2020, 1, 2, 3, 4, 5, 0), true},
		{" 2020-01-01 12:34:56 ", micros(2020, 1, 1, 12, 34, 56, 0), true},
		{"2020-01-01 12:34:56Z", micros(2020, 1, 1, 12, 34, 56, 0), true},
		{"2020-01-01T12:34:56.5Z", micros(2020, 1, 1, 12, 34, 56, 500000), true},
		{"2020-01-01 12:34:56+01:00", micros(2020, 1, 1, 11, 34, 56, 0), true},
		{"2020-01-01 12:34:56-0130", micros(2020, 1, 1, 14, 4, 56, 0), true},
		{"2020-01-01 12:34:56+1:00", micros(2020, 1, 1, 11, 34, 56, 0), true},
		{"2020-01-01 12:34:56+01:3", micros(2020, 1, 1, 11, 31, 56, 0), true}, // +hh:m is +hh:0m
		{"2020-01-01 12:34:56+01", micros(2020, 1, 1, 11, 34, 56, 0), true},
		{"2020-01-01 12:34:56 UTC", micros(2020, 1, 1, 12, 34, 56, 0), true},
		{"2020-01-01 12:34:56 GMT+02:00", micros(2020, 1, 1, 10, 34, 56, 0), true},
		{"2020-01-01 12:34:56UT-1", micros(2020, 1, 1, 13, 34, 56, 0), true},
		{"2020-01-01 12:34:56 EST", micros(2020, 1, 1, 17, 34, 56, 0), true},
		{"1969-12-31 23:59:59.999999", -1, true},
		{"+10000-01-01 00:00:00", micros(10000, 1, 1, 0, 0, 0, 0), true},
		{"2020-01-01 24:00:00", 0, false},
		{"2020-01-01 12:60:00", 0, false},
		{"2020-01-01 12:00:60", 0, false},
		{"2020-02-30 00:00:00", 0, false},
		{"2020-01-01 12:34Z", 0, false},
		{"2020-01-01 12:34:56 +19:00", 0, false},
		{"2020-01-01 12:34:56 Nowhere/Land", 0, false},
		{"2020-01-01 12:34:56.1.2", 0, false},
		{"2020-01-01X12:34:56", 0, false},
		{"2020-01-01T", 0, false},
		{"1234567-01-01", 0, false},
		{"", 0, false},
		{"abc", 0, false},
	}
	for _, tt := range tests {
		got, err := CastStringToTimestamp(tt.in)
		if tt.ok != (err == nil) {
			t.Errorf("CAST(%q AS TIMESTAMP) = %d, error %v", tt.in, got, err)
			continue
		}
		if tt.ok && got != tt.want {
			t.Errorf("CAST(%q AS TIMESTAMP) = %s, want %s", tt.in, AppendTimestamp(nil, got), AppendTimestamp(nil, tt.want))
		}
	}
	// Time only: today's date (UTC).
	got, err := CastStringToTimestamp("12:30:45")
	today := int64(MicrosToDate(time.Now().UnixMicro()))
	if err != nil || FloorDiv(got, MicrosPerDay) != today || FloorMod(got, MicrosPerDay) != 45045*MicrosPerSecond {
		t.Errorf("time only: %s %v", AppendTimestamp(nil, got), err)
	}
	if _, err := CastStringToTimestamp("T12:30"); err != nil {
		t.Errorf("T time: %v", err)
	}
	// Region zones need the system tz database.
	if _, err := time.LoadLocation("Europe/Paris"); err == nil {
		got, err := CastStringToTimestamp("2020-07-01 12:00:00 Europe/Paris")
		if err != nil || got != micros(2020, 7, 1, 10, 0, 0, 0) {
			t.Errorf("Europe/Paris summer: %s %v", AppendTimestamp(nil, got), err)
		}
		// Gap: 02:30 does not exist on 2020-03-29; java.time moves it to 03:30 CEST = 01:30Z.
		got, _ = CastStringToTimestamp("2020-03-29 02:30:00 Europe/Paris")
		if got != micros(2020, 3, 29, 1, 30, 0, 0) {
			t.Errorf("gap: %s", AppendTimestamp(nil, got))
		}
		// Overlap: 02:30 happens twice on 2020-10-25; java.time takes the earlier (CEST) = 00:30Z.
		got, _ = CastStringToTimestamp("2020-10-25 02:30:00 Europe/Paris")
		if got != micros(2020, 10, 25, 0, 30, 0, 0) {
			t.Errorf("overlap: %s", AppendTimestamp(nil, got))
		}
		got, _ = CastStringToTimestamp("2020-01-01 00:00:00 PST")
		if got != micros(2020, 1, 1, 8, 0, 0, 0) {
			t.Errorf("PST: %s", AppendTimestamp(nil, got))
		}
	}
}

func TestFormatDateTime(t *testing.T) {
	dates := []struct {
		d    int32
		want string
	}{
		{0, "1970-01-01"},
		{days(2024, 2, 29), "2024-02-29"},
		{days(999, 12, 31), "0999-12-31"},
		{days(10000, 1, 1), "+10000-01-01"},
		{days(-1, 1, 1), "-0001-01-01"},
		{days(0, 6, 5), "0000-06-05"},
		{math.MinInt32, "-5877641-06-23"},
	}
	for _, tt := range dates {
		if got := string(AppendDate(nil, tt.d)); got != tt.want {
			t.Errorf("date %d = %s, want %s", tt.d, got, tt.want)
		}
	}
	stamps := []struct {
		us   int64
		want string
	}{
		{0, "1970-01-01 00:00:00"},
		{micros(2024, 1, 2, 3, 4, 5, 0), "2024-01-02 03:04:05"},
		{micros(2024, 1, 2, 3, 4, 5, 120000), "2024-01-02 03:04:05.12"},
		{micros(2024, 1, 2, 3, 4, 5, 1), "2024-01-02 03:04:05.000001"},
		{micros(2024, 1, 2, 3, 4, 5, 123456), "2024-01-02 03:04:05.123456"},
		{-1, "1969-12-31 23:59:59.999999"},
		{micros(12345, 1, 1, 0, 0, 0, 0), "+12345-01-01 00:00:00"},
	}
	for _, tt := range stamps {
		if got := string(AppendTimestamp(nil, tt.us)); got != tt.want {
			t.Errorf("timestamp %d = %s, want %s", tt.us, got, tt.want)
		}
	}
}

func TestDateFields(t *testing.T) {
	d := days(2024, 2, 29) // a Thursday
	if Year(d) != 2024 || Month(d) != 2 || Day(d) != 29 || Quarter(d) != 1 || DayOfYear(d) != 60 {
		t.Error("fields")
	}
	if DayOfWeek(d) != 5 || WeekDay(d) != 3 {
		t.Errorf("day of week %d weekday %d", DayOfWeek(d), WeekDay(d))
	}
	if DayOfWeek(days(2024, 3, 3)) != 1 { // Sunday
		t.Error("sunday")
	}
	if Year(days(-44, 3, 15)) != -44 || Quarter(days(2024, 12, 31)) != 4 {
		t.Error("year/quarter")
	}
	us := micros(1969, 12, 31, 23, 59, 58, 500000)
	if Hour(us) != 23 || Minute(us) != 59 || Second(us) != 58 || MicrosToDate(us) != -1 {
		t.Error("negative timestamp fields")
	}
	if DateToMicros(-1) != -MicrosPerDay {
		t.Error("date to micros")
	}
}

func TestTrunc(t *testing.T) {
	ts := micros(2024, 5, 15, 13, 45, 30, 123456) // Wednesday
	tests := []struct {
		unit string
		want int64
	}{
		{"year", micros(2024, 1, 1, 0, 0, 0, 0)},
		{"YYYY", micros(2024, 1, 1, 0, 0, 0, 0)},
		{"yy", micros(2024, 1, 1, 0, 0, 0, 0)},
		{"quarter", micros(2024, 4, 1, 0, 0, 0, 0)},
		{"month", micros(2024, 5, 1, 0, 0, 0, 0)},
		{"MON", micros(2024, 5, 1, 0, 0, 0, 0)},
		{"mm", micros(2024, 5, 1, 0, 0, 0, 0)},
		{"week", micros(2024, 5, 13, 0, 0, 0, 0)},
		{"day", micros(2024, 5, 15, 0, 0, 0, 0)},
		{"DD", micros(2024, 5, 15, 0, 0, 0, 0)},
		{"hour", micros(2024, 5, 15, 13, 0, 0, 0)},
		{"minute", micros(2024, 5, 15, 13, 45, 0, 0)},
		{"second", micros(2024, 5, 15, 13, 45, 30, 0)},
		{"millisecond", micros(2024, 5, 15, 13, 45, 30, 123000)},
		{"microsecond", ts},
	}
	for _, tt := range tests {
		u, ok := ParseTruncUnit(tt.unit)
		if !ok {
			t.Fatalf("unit %q", tt.unit)
		}
		if got := DateTrunc(u, ts); got != tt.want {
			t.Errorf("date_trunc(%s) = %s, want %s", tt.unit, AppendTimestamp(nil, got), AppendTimestamp(nil, tt.want))
		}
	}
	if _, ok := ParseTruncUnit("fortnight"); ok {
		t.Error("bad unit")
	}
	if _, ok := ParseTruncUnit("averyveryverylongunitname"); ok {
		t.Error("long unit")
	}
	neg := micros(1969, 12, 31, 23, 59, 59, 999999)
	if u, _ := ParseTruncUnit("second"); DateTrunc(u, neg) != micros(1969, 12, 31, 23, 59, 59, 0) {
		t.Error("floor for negative timestamps")
	}
	if u, _ := ParseTruncUnit("week"); DateTrunc(u, 0) != micros(1969, 12, 29, 0, 0, 0, 0) {
		t.Error("week of the epoch starts on Monday 1969-12-29")
	}
	u, _ := ParseTruncUnit("quarter")
	if d, ok := TruncDate(u, days(2024, 8, 20)); !ok || d != days(2024, 7, 1) {
		t.Error("trunc date quarter")
	}
	u, _ = ParseTruncUnit("day")
	if _, ok := TruncDate(u, 0); ok {
		t.Error("trunc(date, 'day') is NULL")
	}
}

func TestDateTimeArithmetic(t *testing.T) {
	if d, err := DateAddDays(days(2024, 2, 28), 2); err != nil || d != days(2024, 3, 1) {
		t.Error("date_add")
	}
	if _, err := DateAddDays(math.MaxInt32, 1); err == nil {
		t.Error("date_add overflow")
	}
	if DateDiff(days(2024, 3, 1), days(2024, 2, 1)) != 29 {
		t.Error("datediff")
	}
	if d, err := DateAddMonths(days(2024, 1, 31), 1); err != nil || d != days(2024, 2, 29) {
		t.Errorf("add_months clamp: %s", AppendDate(nil, d))
	}
	if d, _ := DateAddMonths(days(2024, 3, 31), -13); d != days(2023, 2, 28) {
		t.Errorf("add_months back: %s", AppendDate(nil, d))
	}
	ts := micros(2024, 1, 31, 10, 0, 0, 5)
	if r, err := TimestampAddMonths(ts, 1); err != nil || r != micros(2024, 2, 29, 10, 0, 0, 5) {
		t.Errorf("ts + 1 month: %s", AppendTimestamp(nil, r))
	}
	if r, err := TimestampAddMicros(ts, MicrosPerDay+1); err != nil || r != micros(2024, 2, 1, 10, 0, 0, 6) {
		t.Errorf("ts + interval: %s", AppendTimestamp(nil, r))
	}
	if _, err := TimestampAddMicros(math.MaxInt64, 1); err == nil || err.Class != ClassArithmeticOverflow {
		t.Error("ts + interval overflow")
	}
	if d, err := TimestampDiff(micros(2024, 1, 2, 0, 0, 0, 0), micros(2024, 1, 1, 12, 0, 0, 0)); err != nil ||
		d != 12*MicrosPerHour {
		t.Error("ts diff")
	}
	if _, err := TimestampDiff(math.MaxInt64, -1); err == nil {
		t.Error("ts diff overflow")
	}
}

func TestTimestampUnits(t *testing.T) {
	tests := []struct {
		v    int64
		u    TimeUnit
		want int64
	}{
		{1, UnitSecond, 1_000_000},
		{-1, UnitMillisecond, -1000},
		{7, UnitMicrosecond, 7},
		{1999, UnitNanosecond, 1},
		{-1, UnitNanosecond, -1},
	}
	for _, tt := range tests {
		if got, err := TimestampToMicros(tt.v, tt.u); err != nil || got != tt.want {
			t.Errorf("to micros(%d, %d) = %d %v", tt.v, tt.u, got, err)
		}
	}
	if _, err := TimestampToMicros(math.MaxInt64/10, UnitSecond); err == nil {
		t.Error("seconds overflow")
	}
	back := []struct {
		us   int64
		u    TimeUnit
		want int64
	}{
		{1_500_000, UnitSecond, 1},
		{-1, UnitSecond, -1},
		{-1, UnitMillisecond, -1},
		{5, UnitNanosecond, 5000},
		{5, UnitMicrosecond, 5},
	}
	for _, tt := range back {
		if got, err := MicrosToTimestamp(tt.us, tt.u); err != nil || got != tt.want {
			t.Errorf("from micros(%d, %d) = %d %v", tt.us, tt.u, got, err)
		}
	}
	if _, err := MicrosToTimestamp(math.MaxInt64/10, UnitNanosecond); err == nil {
		t.Error("nanos overflow")
	}
}

func TestTimeUnitMatchesArrow(t *testing.T) {
	if TimeUnit(arrow.Second) != UnitSecond || TimeUnit(arrow.Millisecond) != UnitMillisecond ||
		TimeUnit(arrow.Microsecond) != UnitMicrosecond || TimeUnit(arrow.Nanosecond) != UnitNanosecond {
		t.Error("TimeUnit values must equal arrow.TimeUnit's")
	}
}

func TestDateAddSub(t *testing.T) {
	const (
		max = math.MaxInt32
		min = math.MinInt32
		ovf = ClassArithmeticOverflow
	)
	tests := []struct {
		name  string
		f     func(int32, int64) (int32, *Error)
		d     int32
		n     int64
		want  int32
		class string
		hint  string
	}{
		{"add", DateAdd, 0, 1, 1, "", ""},
		{"add negative", DateAdd, 0, -1, -1, "", ""},
		{"add max", DateAdd, 0, max, max, "", ""},
		{"add min", DateAdd, 0, min, min, "", ""},
		{"add result overflows", DateAdd, max, 1, 0, ovf, "try_add"},
		{"add result underflows", DateAdd, min, -1, 0, ovf, "try_add"},
		{"add n beyond INT", DateAdd, 0, max + 1, 0, ovf, "try_add"},
		{"add n below INT", DateAdd, 0, min - 1, 0, ovf, "try_add"},
		{"add n huge, result in range", DateAdd, -1, math.MaxInt64, 0, ovf, "try_add"},
		{"sub", DateSub, 5, 3, 2, "", ""},
		{"sub negative", DateSub, 0, -max, max, "", ""},
		{"sub min (its negation is not an INT)", DateSub, 0, min, 0, ovf, "try_subtract"},
		{"sub result underflows", DateSub, min, 1, 0, ovf, "try_add"}, // DateAddDays(d, -n) fails, with its hint
		{"sub n beyond INT", DateSub, 0, max + 1, 0, ovf, "try_subtract"},
	}
	for _, tt := range tests {
		got, err := tt.f(tt.d, tt.n)
		wantErr(t, tt.name, err, tt.class)
		if tt.class == "" && got != tt.want {
			t.Errorf("%s: %d, %d = %d, want %d", tt.name, tt.d, tt.n, got, tt.want)
		}
		if err != nil && !strings.HasPrefix(err.Msg, "integer overflow. Use '"+tt.hint+"'") {
			t.Errorf("%s: message %q, want integer overflow with hint %s", tt.name, err.Msg, tt.hint)
		}
	}
}

func TestDurationDiv(t *testing.T) {
	const (
		max = math.MaxInt64
		min = math.MinInt64
	)
	tests := []struct {
		a, b, want int64
		class      string
	}{
		{6, 2, 3, ""},
		{7, 2, 4, ""},   // 3.5 rounds half up (away from zero)
		{-7, 2, -4, ""}, // -3.5
		{7, -2, -4, ""},
		{-7, -2, 4, ""},
		{5, 3, 2, ""},   // 1.67
		{4, 3, 1, ""},   // 1.33
		{-5, 3, -2, ""}, // -1.67
		{-4, 3, -1, ""},
		{1, 3, 0, ""},
		{0, -7, 0, ""},
		{max, 2, 1 << 62, ""},    // (2^63-1)/2 = 2^62 - 0.5
		{min, 2, -(1 << 62), ""}, // exact
		{min, 3, -3074457345618258603, ""},
		{min, min, 1, ""},
		{-(1 << 62), min, 1, ""}, // exactly 0.5, where |b| does not fit int64
		{max, min, -1, ""},
		{1, min, 0, ""},
		{min, -1, 0, ClassArithmeticOverflow},
		{1, 0, 0, ClassDivideByZero},
		{0, 0, 0, ClassDivideByZero},
	}
	for _, tt := range tests {
		got, err := DurationDiv(tt.a, tt.b)
		wantErr(t, "DurationDiv", err, tt.class)
		if tt.class == "" && got != tt.want {
			t.Errorf("DurationDiv(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
	// Against math/big: a/b rounded half away from zero.
	r := rand.New(rand.NewPCG(16, 9))
	for range 10000 {
		a, b := int64(r.Uint64())>>r.IntN(63), int64(r.Uint64())>>r.IntN(63)
		if b == 0 || (a == min && b == -1) {
			continue
		}
		q, m := new(big.Int).QuoRem(big.NewInt(a), big.NewInt(b), new(big.Int))
		if new(big.Int).Lsh(new(big.Int).Abs(m), 1).CmpAbs(big.NewInt(b)) >= 0 {
			q.Add(q, big.NewInt(int64(m.Sign()*big.NewInt(b).Sign())))
		}
		if got, err := DurationDiv(a, b); err != nil || got != q.Int64() {
			t.Fatalf("DurationDiv(%d, %d) = %d, %v, want %v", a, b, got, err, q)
		}
	}
}

func TestTimestampCasts(t *testing.T) {
	const ovf = ClassArithmeticOverflow
	type result = func() (int64, *Error)
	tests := []struct {
		name  string
		f     result
		want  int64
		class string
	}{
		{"date 1 in µs", func() (int64, *Error) { return DateToTimestamp(1, UnitMicrosecond) }, 86400e6, ""},
		{"date 1 in s", func() (int64, *Error) { return DateToTimestamp(1, UnitSecond) }, 86400, ""},
		{"date -1 in ms", func() (int64, *Error) { return DateToTimestamp(-1, UnitMillisecond) }, -86400e3, ""},
		{"date 1 in ns", func() (int64, *Error) { return DateToTimestamp(1, UnitNanosecond) }, 86400e9, ""},
		{"date beyond the ns range", func() (int64, *Error) { return DateToTimestamp(200000, UnitNanosecond) }, 0, ovf},
		{"string in s", func() (int64, *Error) { return StringToTimestamp("1970-01-02 00:00:00", UnitSecond) }, 86400, ""},
		{"string in µs", func() (int64, *Error) { return StringToTimestamp("1970-01-01 00:00:01.5", UnitMicrosecond) }, 1500000, ""},
		{"string before 1970 floors to ms", func() (int64, *Error) { return StringToTimestamp("1969-12-31 23:59:59.9995", UnitMillisecond) }, -1, ""},
		{"string not a timestamp", func() (int64, *Error) { return StringToTimestamp("yesterday", UnitSecond) }, 0, ClassCastInvalidInput},
		{"string beyond the ns range", func() (int64, *Error) { return StringToTimestamp("2262-04-12", UnitNanosecond) }, 0, ovf},
		{"trunc hour in s", func() (int64, *Error) { return TruncTimestamp(TruncHour, 5400, UnitSecond) }, 3600, ""},
		{"trunc day before 1970 floors", func() (int64, *Error) { return TruncTimestamp(TruncDay, -1, UnitSecond) }, -86400, ""},
		{"trunc second in ns", func() (int64, *Error) { return TruncTimestamp(TruncSecond, 1.5e9, UnitNanosecond) }, 1e9, ""},
		{"trunc month in ms", func() (int64, *Error) { return TruncTimestamp(TruncMonth, 40*86400e3, UnitMillisecond) }, 31 * 86400e3, ""},
		{"trunc of seconds beyond the µs range", func() (int64, *Error) { return TruncTimestamp(TruncDay, math.MaxInt64, UnitSecond) }, 0, ovf},
	}
	for _, tt := range tests {
		got, err := tt.f()
		wantErr(t, tt.name, err, tt.class)
		if tt.class == "" && got != tt.want {
			t.Errorf("%s = %d, want %d", tt.name, got, tt.want)
		}
	}
	strs := []struct {
		v     int64
		u     TimeUnit
		want  string
		class string
	}{
		{86400, UnitSecond, "1970-01-02 00:00:00", ""},
		{1500, UnitMillisecond, "1970-01-01 00:00:01.5", ""},
		{-1, UnitNanosecond, "1969-12-31 23:59:59.999999", ""}, // floored to µs
		{1, UnitMicrosecond, "1970-01-01 00:00:00.000001", ""},
		{math.MaxInt64, UnitSecond, "", ovf},
	}
	for _, tt := range strs {
		got, err := TimestampToString(tt.v, tt.u)
		wantErr(t, "TimestampToString", err, tt.class)
		if got != tt.want {
			t.Errorf("TimestampToString(%d, %d) = %q, want %q", tt.v, tt.u, got, tt.want)
		}
	}
}
