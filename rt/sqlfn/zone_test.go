package sqlfn

import "testing"

// TestZone checks the session zone's conversions against java.time's
// answers (as Spark 4.1.4 gives them with spark.sql.session.timeZone set):
// New York's 2024 gap (02:00 -> 03:00 on March 10) and overlap (01:00-02:00
// twice on November 3), and fixed offsets.
func TestZone(t *testing.T) {
	ny := SessionZone("America/New_York")
	us := func(s string) int64 {
		v, err := CastStringToTimestamp(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		return v
	}
	for _, tc := range []struct {
		local, instant string
	}{
		{"2024-03-10 01:59:59", "2024-03-10 06:59:59Z"},
		{"2024-03-10 02:30:00", "2024-03-10 07:30:00Z"}, // the gap: moved forward by an hour
		{"2024-03-10 03:30:00", "2024-03-10 07:30:00Z"},
		{"2024-11-03 01:30:00", "2024-11-03 05:30:00Z"}, // the overlap: the earlier offset
		{"2024-11-03 02:00:00", "2024-11-03 07:00:00Z"},
		{"1969-12-31 19:00:00", "1970-01-01 00:00:00Z"},
	} {
		if got, want := ny.Instant(us(tc.local), UnitMicrosecond), us(tc.instant); got != want {
			t.Errorf("Instant(%s) = %d, want %d (%s)", tc.local, got, want, tc.instant)
		}
		got, err := StringToTimestampIn(tc.local, UnitMillisecond, ny)
		if want := us(tc.instant) / 1000; err != nil || got != want {
			t.Errorf("StringToTimestampIn(%s, ms) = %d, %v; want %d", tc.local, got, err, want)
		}
	}
	for _, tc := range []struct {
		instant, local string
	}{
		{"2024-03-10 06:30:00Z", "2024-03-10 01:30:00"},
		{"2024-03-10 07:30:00Z", "2024-03-10 03:30:00"},
		{"2024-11-03 05:30:00Z", "2024-11-03 01:30:00"},
		{"2024-11-03 06:30:00Z", "2024-11-03 01:30:00"},
	} {
		if got, want := ny.Local(us(tc.instant), UnitMicrosecond), us(tc.local); got != want {
			t.Errorf("Local(%s) = %d, want %d", tc.instant, got, want)
		}
		if got, want := ny.Local(us(tc.instant)/1e6, UnitSecond), us(tc.local)/1e6; got != want {
			t.Errorf("Local(%s, s) = %d, want %d", tc.instant, got, want)
		}
	}
	// date_trunc to the hour in the overlap keeps the instant's offset
	second := us("2024-11-03 06:30:00Z") // 01:30 EST
	if got, want := ny.InstantNear(us("2024-11-03 01:00:00"), UnitMicrosecond, second), us("2024-11-03 06:00:00Z"); got != want {
		t.Errorf("InstantNear in the overlap = %d, want %d", got, want)
	}
	first := us("2024-11-03 05:30:00Z") // 01:30 EDT
	if got, want := ny.InstantNear(us("2024-11-03 01:00:00"), UnitMicrosecond, first), us("2024-11-03 05:00:00Z"); got != want {
		t.Errorf("InstantNear in the overlap = %d, want %d", got, want)
	}
	// fixed offsets, in Spark's spellings
	for _, z := range []string{"+05:30", "+5:30", "UTC+05:30", "GMT+0530"} {
		k := SessionZone(z)
		if got, want := k.Local(0, UnitMicrosecond), int64(5*3600+1800)*MicrosPerSecond; got != want {
			t.Errorf("%s: Local(0) = %d, want %d", z, got, want)
		}
	}
	if got := SessionZone("EST").Local(0, UnitNanosecond); got != -5*3600*1e9 {
		t.Errorf("EST: Local(0, ns) = %d", got)
	}
}
