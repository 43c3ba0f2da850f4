package passes

import "testing"

// timeSource is a table of each type the time functions' errors name.
const timeSource = `source u from parquet "u.parquet" { d date32, ntz timestamp(us), ltz timestamp(us, "UTC") }
`

// TestTimeFamilyErrors: arguments Spark refuses are positioned type errors
// at resolve. unix_seconds, unix_millis and unix_micros take Spark's
// TIMESTAMP only: Spark 4.1.4 and 4.2.1 refuse a TIMESTAMP_NTZ
// (DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE, found by the conformance
// corpus's tm_format view), and a DATE.
func TestTimeFamilyErrors(t *testing.T) {
	checkSelectDiags(t, timeSource, []selectDiag{
		{"unix_seconds(ntz)", "p.thund:3:52: unix_seconds needs a zoned timestamp argument, got timestamp(us) [type-mismatch]"},
		{"unix_millis(ntz)", "p.thund:3:51: unix_millis needs a zoned timestamp argument, got timestamp(us) [type-mismatch]"},
		{"unix_micros(ntz)", "p.thund:3:51: unix_micros needs a zoned timestamp argument, got timestamp(us) [type-mismatch]"},
		{"unix_seconds(d)", "p.thund:3:52: unix_seconds needs a zoned timestamp argument, got date32 [type-mismatch]"},
	})
	for _, ok := range []string{"unix_seconds(ltz)", "unix_millis(ltz)", "unix_micros(ltz)", "unix_seconds(cast(ntz as timestamp(us, \"UTC\")))"} {
		u := planOf(t, "pipeline p\n"+timeSource+"materialized view m = from u | select "+ok+" as x\n")
		if len(u.Diags) > 0 {
			t.Errorf("%s: %v", ok, u.Diags)
		}
	}
}
