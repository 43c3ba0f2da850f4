package codegen

import (
	"testing"

	"github.com/nordisk/thund/passes"
	"github.com/nordisk/thund/rt/sqlfn"
)

// TestZonesAgree holds the plan's zone check (passes.ValidZone, which makes
// an unknown zone a check-time error) to the runtime's parser
// (sqlfn.SessionZone, which a generated flow calls once): every zone the
// check accepts loads, and every one it refuses does not.
func TestZonesAgree(t *testing.T) {
	for _, z := range []string{"UTC", "GMT", "UT", "Z", "America/New_York", "Europe/Paris", "Asia/Kolkata", "Etc/UTC",
		"US/Eastern", "EST", "PST", "MST", "HST", "+05:30", "-08:00", "+5:30", "+05", "+5", "+0530", "+05:30:15",
		"UTC+01:00", "GMT-8", "UT+3", "UTC+1:00", "+18:00", "-18", "Foo/Bar", "", "america/new_york", "Local", "+19:00",
		"+18:01", "UTC+", "New York", "../etc/passwd", "/etc/localtime", "+05:60", "GMT+5:3"} {
		loads := func() (ok bool) {
			defer func() { ok = recover() == nil }()
			sqlfn.SessionZone(z)
			return
		}()
		if valid := passes.ValidZone(z); valid != loads {
			t.Errorf("zone %q: passes.ValidZone = %v, sqlfn.SessionZone loads it: %v", z, valid, loads)
		}
	}
}
