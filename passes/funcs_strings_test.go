package passes

import "testing"

// stringSource is a table of the integer types format_number's decimals
// can have.
const stringSource = `source u from parquet "u.parquet" { x float64, i8 int8, i16 int16, i32 int32, i64 int64, s string }
`

// TestStringFamilyErrors: format_number's decimals must be an int32 (or a
// pattern string): Spark 4.1.4 and 4.2.1 refuse a tinyint, smallint or
// bigint with DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE (FormatNumber casts
// nothing), so resolve refuses them at check time, with a position.
func TestStringFamilyErrors(t *testing.T) {
	checkSelectDiags(t, stringSource, []selectDiag{
		{"format_number(x, i64)", "p.thund:3:56: format_number needs an int32 (decimals) or a string (a pattern) as argument 2, got int64 (Spark casts nothing to them: cast it to int32) [type-mismatch]"},
		{"format_number(x, i16)", "p.thund:3:56: format_number needs an int32 (decimals) or a string (a pattern) as argument 2, got int16 (Spark casts nothing to them: cast it to int32) [type-mismatch]"},
		{"format_number(i64, i8)", "p.thund:3:58: format_number needs an int32 (decimals) or a string (a pattern) as argument 2, got int8 (Spark casts nothing to them: cast it to int32) [type-mismatch]"},
	})
	// an int32, a literal and a cast to int32 are accepted
	for _, expr := range []string{"format_number(x, i32)", "format_number(i64, 2)", "format_number(x, cast(i64 as int32))"} {
		u := planOf(t, "pipeline p\n"+stringSource+"materialized view m = from u | select "+expr+" as x\n")
		for _, d := range u.Diags {
			t.Errorf("%s: %v", expr, d)
		}
	}
}
