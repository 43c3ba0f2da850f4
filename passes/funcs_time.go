package passes

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nordisk/thund/ir"
)

// timeFunctions are the date and time functions (famTime) whose answers the Spark lane checks
// (testdata/spark/fn_*). A DATE argument may be written as a DATE, a TIMESTAMP (its date in the
// session zone) or a STRING (cast as CAST(s AS DATE) does, ANSI errors included), as Spark's
// implicit casts take them.
var timeFunctions = []funcSig{
	// the time of the run: fixed once per run (a process of the built
	// executable), as Spark fixes it once per query
	{name: "current_date", aliases: []string{"curdate"}, minArgs: 0, maxArgs: 0, args: []argRule{argAny}, ret: ir.Date32, result: resFixed, nulls: nullNever, family: famTime, doc: "the date of the run's start in the session zone"},
	{name: "current_timestamp", aliases: []string{"now"}, minArgs: 0, maxArgs: 0, args: []argRule{argAny}, ret: ir.Timestamp(ir.Micro, "UTC"), result: resFixed, nulls: nullNever, family: famTime, doc: "the instant of the run's start"},
	{name: "localtimestamp", minArgs: 0, maxArgs: 0, args: []argRule{argAny}, ret: ir.Timestamp(ir.Micro, ""), result: resFixed, nulls: nullNever, family: famTime, doc: "the wall-clock time of the run's start in the session zone, a TIMESTAMP_NTZ"},

	// fields of a date
	{name: "dayofweek", minArgs: 1, maxArgs: 1, args: []argRule{argTimeOrString}, ret: ir.Int32, result: resFixed, family: famTime, doc: "the day of the week, 1 = Sunday ... 7 = Saturday"},
	{name: "weekday", minArgs: 1, maxArgs: 1, args: []argRule{argTimeOrString}, ret: ir.Int32, result: resFixed, family: famTime, doc: "the day of the week, 0 = Monday ... 6 = Sunday"},
	{name: "dayofyear", minArgs: 1, maxArgs: 1, args: []argRule{argTimeOrString}, ret: ir.Int32, result: resFixed, family: famTime, doc: "the day of the year, 1 to 366"},
	{name: "weekofyear", minArgs: 1, maxArgs: 1, args: []argRule{argTimeOrString}, ret: ir.Int32, result: resFixed, family: famTime, doc: "the ISO-8601 week of the year, 1 to 53 (weeks start on Monday; week 1 holds the first Thursday)"},
	{name: "quarter", minArgs: 1, maxArgs: 1, args: []argRule{argTimeOrString}, ret: ir.Int32, result: resFixed, family: famTime, doc: "the quarter of the year, 1 to 4"},
	{name: "date_part", aliases: []string{"datepart", "extract"}, minArgs: 2, maxArgs: 2, args: []argRule{argString, argTime}, result: resCustom, typeFn: datePartType,
		resultDoc: "INT; DECIMAL(8,6) for SECOND", family: famTime,
		doc: "the field named by a constant (YEAR, QUARTER, MONTH, WEEK, DAY, DAYOFWEEK, DOW_ISO, DOY, HOUR, MINUTE, SECOND with its fraction), as EXTRACT(field FROM x)"},

	// date arithmetic
	{name: "datediff", aliases: []string{"date_diff"}, minArgs: 2, maxArgs: 2, args: []argRule{argTimeOrString}, ret: ir.Int32, result: resFixed, family: famTime, doc: "the number of days from the second date to the first"},
	{name: "date_add", aliases: []string{"dateadd"}, minArgs: 2, maxArgs: 2, args: []argRule{argTimeOrString, argInt32}, ret: ir.Date32, result: resFixed, family: famTime, doc: "the date that many days later"},
	{name: "date_sub", minArgs: 2, maxArgs: 2, args: []argRule{argTimeOrString, argInt32}, ret: ir.Date32, result: resFixed, family: famTime, doc: "the date that many days earlier"},
	{name: "add_months", minArgs: 2, maxArgs: 2, args: []argRule{argTimeOrString, argInteger}, ret: ir.Date32, result: resFixed, family: famTime, doc: "the date that many months later, the day clamped to the month's last (ANSI: a BIGINT beyond INT is CAST_OVERFLOW)"},
	{name: "months_between", minArgs: 2, maxArgs: 3, args: []argRule{argTimeOrString, argTimeOrString, argBool}, ret: ir.Float64, result: resFixed, family: famTime,
		doc: "the months from the second timestamp to the first: whole when the days of month are equal or both last, else with the rest over 31-day months; rounded to 8 digits unless the third argument is false"},
	{name: "last_day", minArgs: 1, maxArgs: 1, args: []argRule{argTimeOrString}, ret: ir.Date32, result: resFixed, family: famTime, doc: "the last day of the date's month"},
	{name: "next_day", minArgs: 2, maxArgs: 2, args: []argRule{argTimeOrString, argString}, ret: ir.Date32, result: resFixed, family: famTime, doc: "the first later date on the named day of the week (MO, MON, MONDAY, ...; ANSI: ILLEGAL_DAY_OF_WEEK for another text)"},
	{name: "trunc", minArgs: 2, maxArgs: 2, args: []argRule{argTimeOrString, argString}, ret: ir.Date32, result: resFixed, nulls: nullAlways, family: famTime, doc: "the date truncated to the unit (YEAR/YYYY/YY, QUARTER, MONTH/MON/MM, WEEK); NULL for another unit"},
	{name: "make_timestamp", minArgs: 6, maxArgs: 7, args: []argRule{argInteger, argInteger, argInteger, argInteger, argInteger, argNumeric, argString}, ret: ir.Timestamp(ir.Micro, "UTC"), result: resFixed, native: makeTimestampNative, family: famTime,
		doc: "the instant of a wall-clock time (seconds with a fraction; 60 is the next minute) in the session zone or the given one (ANSI: DATETIME_FIELD_OUT_OF_BOUNDS, INVALID_FRACTION_OF_SECOND)"},
	{name: "make_date", minArgs: 3, maxArgs: 3, args: []argRule{argInteger}, ret: ir.Date32, result: resFixed, family: famTime, doc: "the date of a year, month and day (ANSI: DATETIME_FIELD_OUT_OF_BOUNDS for a date that does not exist)"},

	// datetime patterns (DatetimePatternProblem)
	{name: "date_format", minArgs: 2, maxArgs: 2, args: []argRule{argTimeOrString, argString}, ret: ir.StringT, result: resFixed, native: formatNative(1, false), family: famTime,
		doc: "the timestamp as text in Spark's datetime pattern (yyyy-MM-dd HH:mm:ss.SSS, MMM, EEEE, a, XXX, ...), in the session zone"},
	{name: "from_unixtime", minArgs: 1, maxArgs: 2, args: []argRule{argInteger, argString}, ret: ir.StringT, result: resFixed, native: formatNative(1, false), family: famTime,
		doc: "the instant that many seconds after 1970-01-01 00:00:00 UTC as text in a datetime pattern (default yyyy-MM-dd HH:mm:ss), in the session zone"},
	{name: "to_unix_timestamp", minArgs: 1, maxArgs: 2, args: []argRule{argTimeOrString, argString}, ret: ir.Int64, result: resFixed, native: formatNative(1, true), family: famTime,
		doc: "the whole seconds since 1970-01-01 00:00:00 UTC of a timestamp, or of a text parsed with a datetime pattern (default yyyy-MM-dd HH:mm:ss; ANSI: CANNOT_PARSE_TIMESTAMP)"},
	{name: "try_to_timestamp", minArgs: 1, maxArgs: 2, args: []argRule{argTimeOrString, argString}, result: resToTimestamp, nulls: nullAlways, native: formatNative(1, true), family: famTime,
		doc: "to_timestamp, NULL where the text does not parse"},

	// arithmetic in a unit (TIMESTAMPADD(HOUR, n, ts): the unit is a word)
	{name: "timestampadd", minArgs: 3, maxArgs: 3, args: []argRule{argString, argInteger, argTimeOrString}, result: resCustom, typeFn: timestampAddType, resultDoc: "TIMESTAMP (TIMESTAMP_NTZ for one)", family: famTime,
		doc: "the timestamp n units later (YEAR, QUARTER, MONTH, WEEK, DAY, DAYOFYEAR: on the session zone's calendar; HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND: on the instant; ANSI: DATETIME_OVERFLOW)"},
	{name: "timestampdiff", minArgs: 3, maxArgs: 3, args: []argRule{argString, argTimeOrString, argTimeOrString}, ret: ir.Int64, result: resCustom, typeFn: timestampDiffType, resultDoc: "BIGINT", family: famTime,
		doc: "the whole units (truncated) from the second timestamp to the third, in the units of timestampadd but DAYOFYEAR"},

	// time zones
	{name: "from_utc_timestamp", minArgs: 2, maxArgs: 2, args: []argRule{argTimeOrString, argString}, ret: ir.Timestamp(ir.Micro, "UTC"), result: resFixed, native: zoneNative, family: famTime,
		doc: "the instant whose UTC wall clock is the timestamp's wall clock in the zone (a UTC time shown in the zone)"},
	{name: "to_utc_timestamp", minArgs: 2, maxArgs: 2, args: []argRule{argTimeOrString, argString}, ret: ir.Timestamp(ir.Micro, "UTC"), result: resFixed, native: zoneNative, family: famTime,
		doc: "the instant of the timestamp's UTC wall clock read as a wall-clock time in the zone"},

	// epoch numbers
	{name: "unix_date", minArgs: 1, maxArgs: 1, args: []argRule{argDate}, ret: ir.Int32, result: resFixed, family: famTime, doc: "the days since 1970-01-01"},
	{name: "date_from_unix_date", minArgs: 1, maxArgs: 1, args: []argRule{argInt32}, ret: ir.Date32, result: resFixed, family: famTime, doc: "the date that many days after 1970-01-01"},
	{name: "unix_seconds", minArgs: 1, maxArgs: 1, args: []argRule{argTimestamp}, ret: ir.Int64, result: resFixed, family: famTime, doc: "the whole seconds since 1970-01-01 00:00:00 UTC (floored)"},
	{name: "unix_millis", minArgs: 1, maxArgs: 1, args: []argRule{argTimestamp}, ret: ir.Int64, result: resFixed, family: famTime, doc: "the whole milliseconds since 1970-01-01 00:00:00 UTC (floored)"},
	{name: "unix_micros", minArgs: 1, maxArgs: 1, args: []argRule{argTimestamp}, ret: ir.Int64, result: resFixed, family: famTime, doc: "the microseconds since 1970-01-01 00:00:00 UTC"},
}

// datePartFields are the fields date_part (and EXTRACT) take, by each of
// Spark's spellings (DatePart.parseExtractField), upper-cased, and the
// canonical field each names. (Spark 4.1 and 4.2 refuse MILLISECONDS,
// MICROSECONDS and EPOCH of a date or timestamp: INVALID_EXTRACT_FIELD.)
var datePartFields = map[string]string{
	"YEAR": "YEAR", "Y": "YEAR", "YEARS": "YEAR", "YR": "YEAR", "YRS": "YEAR",
	"YEAROFWEEK": "YEAROFWEEK",
	"QUARTER":    "QUARTER", "QTR": "QUARTER",
	"MONTH": "MONTH", "MON": "MONTH", "MONS": "MONTH", "MONTHS": "MONTH",
	"WEEK": "WEEK", "W": "WEEK", "WEEKS": "WEEK",
	"DAY": "DAY", "D": "DAY", "DAYS": "DAY",
	"DAYOFWEEK": "DAYOFWEEK", "DOW": "DAYOFWEEK",
	"DAYOFWEEK_ISO": "DOW_ISO", "DOW_ISO": "DOW_ISO",
	"DOY":  "DOY",
	"HOUR": "HOUR", "H": "HOUR", "HOURS": "HOUR", "HR": "HOUR", "HRS": "HOUR",
	"MINUTE": "MINUTE", "M": "MINUTE", "MIN": "MINUTE", "MINS": "MINUTE", "MINUTES": "MINUTE",
	"SECOND": "SECOND", "S": "SECOND", "SEC": "SECOND", "SECONDS": "SECOND", "SECS": "SECOND",
}

// DatePartField is the canonical field (datePartFields) of a date_part
// call whose field resolve checked: a constant string.
func DatePartField(e *ir.Call) string {
	l := e.Args[0].(*ir.Literal)
	return datePartFields[strings.ToUpper(l.Text)]
}

// datePartType types date_part(field, x): the field is a constant string
// naming one of datePartFields; the result is Spark's for the field.
func datePartType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	l, ok := e.Args[0].(*ir.Literal)
	if !ok || l.Kind != ir.LitString {
		r.errorf(e.Args[0].Position(), ir.CodeTypeMismatch, "%s needs a constant string as its field (YEAR, MONTH, DAY, HOUR, ...), got %s", e.Name, exprString(e.Args[0]))
		return ir.Type{}, false
	}
	f, ok := datePartFields[strings.ToUpper(l.Text)]
	if !ok {
		r.errorf(l.Pos, ir.CodeTypeMismatch, "%s of unknown field '%s': it takes YEAR, YEAROFWEEK, QUARTER, MONTH, WEEK, DAY, DAYOFWEEK, DOW_ISO, DOY, HOUR, MINUTE or SECOND", e.Name, l.Text)
		return ir.Type{}, false
	}
	if f == "SECOND" {
		return ir.Decimal(8, 6), true
	}
	return ir.Int32, true
}

// patternLetters are the datetime pattern letters the native runtime runs,
// with the longest run of each: rt/sqlfn's patternMax, which the compiler
// cannot import (codegen's TestDatetimePatternsAgree holds the two equal).
// E, Q and q only format.
var patternLetters = map[byte]int{
	'y': 9, 'M': 4, 'L': 4, 'd': 2, 'D': 3, 'H': 2, 'h': 2, 'k': 2, 'K': 2, 'm': 2, 's': 2,
	'S': 9, 'a': 1, 'E': 4, 'Q': 4, 'q': 4, 'X': 3, 'x': 3, 'Z': 3,
}

// DatetimePatternProblem says why the native runtime does not run a Spark
// datetime pattern ("" when it does): a letter it does not know, a run too
// long, an unterminated quote, a reserved character, or (parse) a letter
// that only formats.
func DatetimePatternProblem(p string, parse bool) string {
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\'': // as rt/sqlfn's CompilePattern: '' in a quote is a quote
			j := i + 1
			for ; j < len(p) && (p[j] != '\'' || j+1 < len(p) && p[j+1] == '\''); j++ {
				if p[j] == '\'' {
					j++
				}
			}
			if j >= len(p) {
				return "an unterminated quote"
			}
			i = j + 1
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			j := i
			for j < len(p) && p[j] == c {
				j++
			}
			m, ok := patternLetters[c]
			switch {
			case !ok:
				return fmt.Sprintf("pattern letter '%c'", c)
			case j-i > m:
				return fmt.Sprintf("pattern '%s'", p[i:j])
			case parse && strings.IndexByte("EQq", c) >= 0:
				return fmt.Sprintf("parsing pattern letter '%c'", c)
			}
			i = j
		case strings.IndexByte("[]{}#", c) >= 0:
			return fmt.Sprintf("the reserved character '%c'", c)
		default:
			i++
		}
	}
	return ""
}

// formatNative checks the datetime pattern of argument i of a call (to
// parse with, or to format): the native runtime runs a constant pattern
// of the letters it knows; without argument i the default pattern is one.
func formatNative(i int, parse bool) func(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	return func(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
		if i >= len(e.Args) || parse && args[0].Kind != ir.TString {
			return ir.Pos{}, "" // the default pattern, or nothing to parse
		}
		l, ok := e.Args[i].(*ir.Literal)
		if !ok || l.Kind != ir.LitString {
			return e.Args[i].Position(), fmt.Sprintf("%s with a datetime pattern that is not a constant is not supported yet", e.Name)
		}
		if why := DatetimePatternProblem(l.Text, parse); why != "" {
			return l.Pos, fmt.Sprintf("%s with %s (in '%s') is not supported yet", e.Name, why, l.Text)
		}
		return ir.Pos{}, ""
	}
}

// zoneNative checks the time zone of from_utc_timestamp and
// to_utc_timestamp: the native runtime runs a constant, valid one (Spark
// raises INVALID_TIMEZONE for another when the row is computed).
func zoneNative(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) { return zoneArgNative(u, e, 1) }

// zoneArgNative checks the time zone that is argument i of a call.
func zoneArgNative(u *Unit, e *ir.Call, i int) (ir.Pos, string) {
	l, ok := e.Args[i].(*ir.Literal)
	switch {
	case !ok || l.Kind != ir.LitString:
		return e.Args[i].Position(), fmt.Sprintf("%s with a time zone that is not a constant is not supported yet", e.Name)
	case !ValidZone(l.Text):
		return l.Pos, fmt.Sprintf("%s with the time zone '%s' is not supported: it is not a region (area/city) or an offset (Spark: INVALID_TIMEZONE)", e.Name, l.Text)
	}
	return ir.Pos{}, ""
}

// timestampUnits are the units of timestampadd; timestampdiff takes them
// but DAYOFYEAR (Spark 4.1.4 and 4.2.1: INVALID_PARAMETER_VALUE.DATETIME_UNIT).
var timestampUnits = []string{"YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "DAYOFYEAR", "HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND"}

// timestampUnit checks the unit of timestampadd and timestampdiff: a word
// (a constant string) naming one of timestampUnits.
func timestampUnit(r *resolver, e *ir.Call) bool {
	units := timestampUnits
	if strings.EqualFold(e.Name, "timestampdiff") {
		units = slices.DeleteFunc(slices.Clone(units), func(u string) bool { return u == "DAYOFYEAR" })
	}
	l, ok := e.Args[0].(*ir.Literal)
	if !ok || l.Kind != ir.LitString || !containsFold(units, l.Text) {
		r.errorf(e.Args[0].Position(), ir.CodeTypeMismatch, "%s needs a unit as its first argument: one of %s, got %s", e.Name, strings.Join(units, ", "), exprString(e.Args[0]))
		return false
	}
	return true
}

// timestampAddType types timestampadd(unit, n, ts): the timestamp's type in
// microseconds (a TIMESTAMP_NTZ stays one); a DATE or STRING gives a
// TIMESTAMP.
func timestampAddType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	if !timestampUnit(r, e) {
		return ir.Type{}, false
	}
	if t := types[2]; t.Kind == ir.TTimestamp && t.Zone == "" {
		return ir.Timestamp(ir.Micro, ""), true
	}
	return ir.Timestamp(ir.Micro, "UTC"), true
}

// timestampDiffType types timestampdiff(unit, start, end): BIGINT.
func timestampDiffType(r *resolver, e *ir.Call, types []ir.Type) (ir.Type, bool) {
	return ir.Int64, timestampUnit(r, e)
}

// makeTimestampNative checks make_timestamp's time zone, when it has one
// (zoneNative).
func makeTimestampNative(u *Unit, e *ir.Call, args []ir.Type) (ir.Pos, string) {
	if len(e.Args) < 7 {
		return ir.Pos{}, ""
	}
	return zoneArgNative(u, e, 6)
}
