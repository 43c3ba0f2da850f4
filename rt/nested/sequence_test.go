package nested

import (
	"reflect"
	"testing"
	"time"

	"github.com/nordisk/thund/rt/sqlfn"
)

// TestSequenceDays holds sequence(t, u) of timestamps to Spark 4.2.1's
// answer in New York across the spring DST change (a day of wall clock is
// 23 hours there), and in UTC, up and down.
func TestSequenceDays(t *testing.T) {
	us := func(s string) int64 {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v.UnixMicro()
	}
	arr := func(ss ...string) Array {
		out := Array{}
		for _, s := range ss {
			out = append(out, us(s))
		}
		return out
	}
	ny := sqlfn.SessionZone("America/New_York")
	for _, c := range []struct {
		start, stop string
		z           *sqlfn.Zone
		want        Array
	}{
		{"2024-03-09T17:00:00Z", "2024-03-12T17:00:00Z", ny, arr("2024-03-09T17:00:00Z", "2024-03-10T16:00:00Z", "2024-03-11T16:00:00Z", "2024-03-12T16:00:00Z")},
		{"2024-03-09T17:00:00Z", "2024-03-12T17:00:00Z", nil, arr("2024-03-09T17:00:00Z", "2024-03-10T17:00:00Z", "2024-03-11T17:00:00Z", "2024-03-12T17:00:00Z")},
		{"2024-03-30T00:00:00Z", "2024-04-01T00:00:00Z", nil, arr("2024-03-30T00:00:00Z", "2024-03-31T00:00:00Z", "2024-04-01T00:00:00Z")},
		{"2024-03-09T12:00:00Z", "2024-03-08T06:00:00Z", nil, arr("2024-03-09T12:00:00Z", "2024-03-08T12:00:00Z")},
		{"2024-01-01T10:00:00Z", "2024-01-01T10:00:00Z", ny, arr("2024-01-01T10:00:00Z")},
	} {
		got, err := SequenceDays(us(c.start), us(c.stop), c.z)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("sequence(%s, %s) in %v = %v, %v; want %v", c.start, c.stop, c.z, got, err, c.want)
		}
	}
}
