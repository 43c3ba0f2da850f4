package conformance

// The date and time family (passes/funcs_time.go: timeFunctions) against
// DuckDB. Where DuckDB's own function means something else than Spark 4's,
// the printer spells Spark's meaning out (each case says what differs):
//
//   - dayofweek is 1 = Sunday (DuckDB's 0 = Sunday); weekday is 0 = Monday
//     (DuckDB's isodow - 1); weekofyear and date_part('week') are ISO weeks,
//     as DuckDB's week.
//   - A STRING argument of a function on dates is Spark's ANSI CAST(s AS
//     DATE) (castFromString: trimming, Spark's grammar, CAST_INVALID_INPUT);
//     a STRING where Spark wants a TIMESTAMP is printed only for a literal
//     YYYY-MM-DD[ HH:MM:SS[.ffffff]] (Spark's string-to-timestamp grammar
//     is not translated).
//   - timestampdiff in MONTH, QUARTER and YEAR is Java's
//     LocalDateTime.until (whole months: the end's date moved by a day
//     when its time of day is on the other side of the start's, then
//     (month * 32 + day) differences divided toward zero); DuckDB's
//     date_sub('month', 2024-01-31, 2024-02-29) is 1 where Spark's is 0.
//   - to_utc_timestamp (and make_timestamp with a zone) of a wall clock in
//     an autumn overlap is the earlier instant (java.time's
//     LocalDateTime.atZone keeps the summer offset); DuckDB's ICU takes the
//     later one (2024-11-03 01:30 in New York is 05:30 UTC in Spark, 06:30
//     in DuckDB): tm_to_utc picks the earlier valid instant. In a spring
//     gap both move the wall clock forward by the gap.
//   - An offset zone ('+05:30') is arithmetic (DuckDB's ICU has no such
//     zone).
//   - months_between is written out from Spark's definition (whole months
//     when the days of month are equal or both last; else the rest in
//     whole seconds over 31-day months; Java's Math.round to 8 digits).
//   - make_timestamp: seconds as DECIMAL(16,6); 60 is the next minute, a
//     fraction on 60 is INVALID_FRACTION_OF_SECOND; a field out of range is
//     DATETIME_FIELD_OUT_OF_BOUNDS (DuckDB's make_timestamp rolls 24:00 and
//     61 seconds over instead).
//   - next_day's day names are Spark's (SU, SUN, SUNDAY, ..., any case);
//     another is ILLEGAL_DAY_OF_WEEK. trunc's units are Spark's; another is
//     NULL (DuckDB raises).
//   - add_months of a BIGINT beyond INT is CAST_OVERFLOW (Spark's implicit
//     cast); the day is clamped to the month's last in both.
//   - unix_seconds and unix_millis floor (DuckDB's // truncates);
//     to_unix_timestamp truncates toward zero as unix_timestamp does.
//   - date_format and from_unixtime: a constant Spark datetime pattern is
//     translated to strftime only letter by letter where the meaning is
//     the same (tmFormatCodes); any other letter or width refuses. Years
//     are 1 to 9999 (Spark writes a sign on a year past 9999).
//   - to_unix_timestamp, try_to_timestamp, and the pattern forms of
//     to_date, to_timestamp and unix_timestamp (passes/funcs.go; printed
//     here, their one-argument forms as sqlprint_test.go prints them)
//     parse a string with a constant pattern of fixed-width numeric
//     fields only (yyyy, MM, dd, HH, mm, ss and literals): the text must
//     match those widths exactly (java.time's strict fields; DuckDB's
//     strptime also takes one digit for %m) and then be a valid date and
//     time, else CANNOT_PARSE_TIMESTAMP (NULL for try_). Years are four
//     digits (java.time's yyyy would take more).
//
// current_date, current_timestamp and localtimestamp are compared only
// through facts that hold in any run (a date after 2026, the date of the
// timestamp): each engine fixes them once per query.

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/nordisk/thund/ir"
)

func init() {
	registerCalls(map[string]func(p *printer, e *ir.Call) string{
		"current_date":        tmNow("current_date"),
		"curdate":             tmNow("current_date"),
		"current_timestamp":   tmNow("current_timestamp"),
		"now":                 tmNow("current_timestamp"),
		"localtimestamp":      tmNow("localtimestamp"),
		"dayofweek":           tmDateField("(dayofweek(%s) + 1)"),
		"weekday":             tmDateField("(isodow(%s) - 1)"),
		"dayofyear":           tmDateField("dayofyear(%s)"),
		"weekofyear":          tmDateField("week(%s)"),
		"quarter":             tmDateField("quarter(%s)"),
		"date_part":           tmDatePart,
		"datepart":            tmDatePart,
		"extract":             tmDatePart,
		"datediff":            tmDatediff,
		"date_diff":           tmDatediff,
		"date_add":            tmDateAdd("+"),
		"dateadd":             tmDateAdd("+"),
		"date_sub":            tmDateAdd("-"),
		"add_months":          tmAddMonths,
		"months_between":      tmMonthsBetween,
		"last_day":            tmDateField("last_day(%s)"),
		"next_day":            tmNextDay,
		"trunc":               tmTrunc,
		"make_date":           tmMakeDate,
		"make_timestamp":      tmMakeTimestamp,
		"date_format":         tmDateFormat,
		"from_unixtime":       tmFromUnixtime,
		"to_unix_timestamp":   tmToUnixTimestamp,
		"try_to_timestamp":    tmTryToTimestamp,
		"timestampadd":        tmTimestampAdd,
		"timestampdiff":       tmTimestampDiff,
		"from_utc_timestamp":  tmZone(true),
		"to_utc_timestamp":    tmZone(false),
		"unix_date":           tmDateField("(%s - DATE '1970-01-01')"),
		"date_from_unix_date": tmFromUnixDate,
		"unix_seconds":        tmEpoch("tm_floordiv(epoch_us(%s), 1000000)"),
		"unix_millis":         tmEpoch("tm_floordiv(epoch_us(%s), 1000)"),
		"unix_micros":         tmEpoch("epoch_us(%s)"),
		// the catalogue's first functions (passes/funcs.go), printed here
		// to add their pattern forms
		"to_date":        tmToDate,
		"to_timestamp":   tmToTimestamp,
		"unix_timestamp": tmToUnixTimestamp,
	})
	sparkMacros = append(sparkMacros,
		// a // b floored (b > 0): DuckDB's // truncates toward zero
		`CREATE MACRO tm_floordiv(a, b) AS CASE WHEN a % b < 0 THEN a // b - 1 ELSE a // b END`,
		// the microseconds of the day of a TIMESTAMP
		`CREATE MACRO tm_day_us(x) AS epoch_us(x) - epoch_us(date_trunc('day', x))`,
		// java.time's LocalDateTime.until(end, MONTHS): the end's date
		// moves a day toward the start when its time of day is on the
		// other side of the start's; then (month * 32 + day) differences
		// divided toward zero
		`CREATE MACRO tm_months_packed(d) AS (year(d) * 12 + month(d)) * 32 + day(d)`,
		`CREATE MACRO tm_months_until(s, e) AS spark_quot(tm_months_packed(
			CASE WHEN CAST(e AS DATE) > CAST(s AS DATE) AND tm_day_us(e) < tm_day_us(s) THEN CAST(e AS DATE) - 1
				WHEN CAST(e AS DATE) < CAST(s AS DATE) AND tm_day_us(e) > tm_day_us(s) THEN CAST(e AS DATE) + 1
				ELSE CAST(e AS DATE) END) - tm_months_packed(CAST(s AS DATE)), 32)`,
		// Spark's months_between of two TIMESTAMPs (UTC wall clocks)
		`CREATE MACRO tm_mb_diff(a, b) AS CASE
			WHEN day(a) = day(b) OR (CAST(a AS DATE) = last_day(a) AND CAST(b AS DATE) = last_day(b))
			THEN CAST((year(a) * 12 + month(a)) - (year(b) * 12 + month(b)) AS DOUBLE)
			ELSE CAST((year(a) * 12 + month(a)) - (year(b) * 12 + month(b)) AS DOUBLE) +
				CAST((day(a) - day(b)) * 86400 + tm_day_us(a) // 1000000 - tm_day_us(b) // 1000000 AS DOUBLE) / 2678400.0 END`,
		`CREATE MACRO tm_months_between(a, b, r) AS CASE WHEN a IS NULL OR b IS NULL OR r IS NULL THEN NULL
			WHEN r THEN floor(tm_mb_diff(a, b) * 1e8 + 0.5) / 1e8 ELSE tm_mb_diff(a, b) END`,
		// the wall clock (as UTC microseconds) in zone z of the instant us
		`CREATE MACRO tm_wall(us, z) AS epoch_us(timezone(z, CAST(make_timestamp(us) AS TIMESTAMPTZ)))`,
		// the instant (microseconds) of wall clock l in zone z, i1 being
		// ICU's: the earlier one when the offset a day before also reads l
		`CREATE MACRO tm_to_utc_pick(l, i1, z) AS CASE
			WHEN l - (tm_wall(i1 - 86400000000, z) - (i1 - 86400000000)) < i1
				AND tm_wall(l - (tm_wall(i1 - 86400000000, z) - (i1 - 86400000000)), z) = l
			THEN l - (tm_wall(i1 - 86400000000, z) - (i1 - 86400000000)) ELSE i1 END`,
		`CREATE MACRO tm_to_utc(ldt, z) AS make_timestamp(tm_to_utc_pick(epoch_us(ldt), epoch_us(timezone(z, ldt)), z))`,
		// Spark's day-of-week names (DateTimeUtils.getDayOfWeekFromString),
		// as ISO day numbers; NULL for another text
		`CREATE MACRO tm_dow_iso(s) AS CASE upper(s)
			WHEN 'MO' THEN 1 WHEN 'MON' THEN 1 WHEN 'MONDAY' THEN 1 WHEN 'TU' THEN 2 WHEN 'TUE' THEN 2 WHEN 'TUESDAY' THEN 2
			WHEN 'WE' THEN 3 WHEN 'WED' THEN 3 WHEN 'WEDNESDAY' THEN 3 WHEN 'TH' THEN 4 WHEN 'THU' THEN 4 WHEN 'THURSDAY' THEN 4
			WHEN 'FR' THEN 5 WHEN 'FRI' THEN 5 WHEN 'FRIDAY' THEN 5 WHEN 'SA' THEN 6 WHEN 'SAT' THEN 6 WHEN 'SATURDAY' THEN 6
			WHEN 'SU' THEN 7 WHEN 'SUN' THEN 7 WHEN 'SUNDAY' THEN 7 END`,
		`CREATE MACRO tm_next_day(d, s) AS CASE WHEN d IS NULL OR s IS NULL THEN NULL
			WHEN tm_dow_iso(s) IS NULL THEN error('ILLEGAL_DAY_OF_WEEK: ' || s)
			ELSE d + CAST((tm_dow_iso(s) - isodow(d) + 6) % 7 + 1 AS INTEGER) END`,
		// Spark's trunc units (TruncDate: YEAR, QUARTER, MONTH, WEEK);
		// another is NULL
		`CREATE MACRO tm_trunc(d, u) AS CASE upper(u)
			WHEN 'YEAR' THEN date_trunc('year', d) WHEN 'YYYY' THEN date_trunc('year', d) WHEN 'YY' THEN date_trunc('year', d)
			WHEN 'QUARTER' THEN date_trunc('quarter', d)
			WHEN 'MONTH' THEN date_trunc('month', d) WHEN 'MON' THEN date_trunc('month', d) WHEN 'MM' THEN date_trunc('month', d)
			WHEN 'WEEK' THEN date_trunc('week', d) END`,
	)
	extraTables = append(extraTables, genTimeEdge, genTimeBad)
}

// tmNow prints the run's time: DuckDB's is fixed per transaction, as
// Spark's per query and native's per run; the views compare only facts
// that hold for any such instant.
func tmNow(fn string) func(p *printer, e *ir.Call) string {
	return func(p *printer, e *ir.Call) string {
		if len(e.Args) != 0 {
			p.fail(e.Pos, "%s with arguments", e.Name)
		}
		switch fn {
		case "current_date":
			return "current_date"
		case "current_timestamp":
			return "CAST(get_current_timestamp() AS TIMESTAMPTZ)"
		}
		// the session zone is UTC: the wall clock is the instant's
		return "CAST(get_current_timestamp() AS TIMESTAMP)"
	}
}

// tmArity refuses a call with another number of arguments.
func tmArity(p *printer, e *ir.Call, ns ...int) {
	for _, n := range ns {
		if len(e.Args) == n {
			return
		}
	}
	p.fail(e.Pos, "%s with %d arguments", e.Name, len(e.Args))
}

// tmDate prints an argument Spark takes as a DATE: a timestamp's date in
// the session zone (UTC), a string through Spark's ANSI CAST(s AS DATE).
func tmDate(p *printer, x ir.Expr) string {
	s := p.expr(x)
	switch t := p.typeOf(x); t.Kind {
	case ir.TDate32:
		return s
	case ir.TTimestamp:
		return "CAST(CAST(" + s + " AS TIMESTAMP) AS DATE)"
	case ir.TString:
		return castFromString(p, x.Position(), s, ir.Date32, false)
	case ir.TUnknown:
		return "CAST(" + s + " AS DATE)"
	default:
		p.fail(x.Position(), "a DATE argument of type %s", t)
	}
	return ""
}

// tmTS prints an argument Spark takes as a TIMESTAMP, as a DuckDB
// TIMESTAMP holding the UTC wall clock (the session zone is UTC, so an
// instant's and a TIMESTAMP_NTZ's are the same): a date at midnight; a
// string only as a literal of the simple form both engines read alike.
func tmTS(p *printer, x ir.Expr) string {
	switch t := p.typeOf(x); t.Kind {
	case ir.TDate32, ir.TTimestamp, ir.TUnknown:
		return "CAST(" + p.expr(x) + " AS TIMESTAMP)"
	case ir.TString:
		return p.timestampLiteral(x)
	default:
		p.fail(x.Position(), "a TIMESTAMP argument of type %s", t)
	}
	return ""
}

// tmDateField prints a function of one DATE argument.
func tmDateField(format string) func(p *printer, e *ir.Call) string {
	return func(p *printer, e *ir.Call) string {
		tmArity(p, e, 1)
		return p.cast(e, fmt.Sprintf(format, tmDate(p, e.Args[0])))
	}
}

// tmEpoch prints a function of one TIMESTAMP argument.
func tmEpoch(format string) func(p *printer, e *ir.Call) string {
	return func(p *printer, e *ir.Call) string {
		tmArity(p, e, 1)
		return p.cast(e, fmt.Sprintf(format, tmTS(p, e.Args[0])))
	}
}

// tmDatePart prints date_part(field, x) (and extract): the canonical
// field passes resolved, as DuckDB's part; SECOND keeps its fraction as
// DECIMAL(8,6).
func tmDatePart(p *printer, e *ir.Call) string {
	tmArity(p, e, 2)
	l, ok := e.Args[0].(*ir.Literal)
	if !ok || l.Kind != ir.LitString {
		p.fail(e.Pos, "%s with a field that is not a string literal", e.Name)
	}
	field := map[string]string{
		"YEAR": "YEAR", "Y": "YEAR", "YEARS": "YEAR", "YR": "YEAR", "YRS": "YEAR", "YEAROFWEEK": "YEAROFWEEK",
		"QUARTER": "QUARTER", "QTR": "QUARTER", "MONTH": "MONTH", "MON": "MONTH", "MONS": "MONTH", "MONTHS": "MONTH",
		"WEEK": "WEEK", "W": "WEEK", "WEEKS": "WEEK", "DAY": "DAY", "D": "DAY", "DAYS": "DAY",
		"DAYOFWEEK": "DAYOFWEEK", "DOW": "DAYOFWEEK", "DAYOFWEEK_ISO": "DOW_ISO", "DOW_ISO": "DOW_ISO", "DOY": "DOY",
		"HOUR": "HOUR", "H": "HOUR", "HOURS": "HOUR", "HR": "HOUR", "HRS": "HOUR",
		"MINUTE": "MINUTE", "M": "MINUTE", "MIN": "MINUTE", "MINS": "MINUTE", "MINUTES": "MINUTE",
		"SECOND": "SECOND", "S": "SECOND", "SEC": "SECOND", "SECONDS": "SECOND", "SECS": "SECOND",
	}[strings.ToUpper(l.Text)]
	x := e.Args[1]
	var sql string
	switch field {
	case "YEAR", "QUARTER", "MONTH", "DAY":
		sql = fmt.Sprintf("%s(%s)", strings.ToLower(field), tmDate(p, x))
	case "YEAROFWEEK":
		sql = "isoyear(" + tmDate(p, x) + ")"
	case "WEEK":
		sql = "week(" + tmDate(p, x) + ")"
	case "DAYOFWEEK":
		sql = "(dayofweek(" + tmDate(p, x) + ") + 1)"
	case "DOW_ISO":
		sql = "isodow(" + tmDate(p, x) + ")"
	case "DOY":
		sql = "dayofyear(" + tmDate(p, x) + ")"
	case "HOUR", "MINUTE":
		sql = fmt.Sprintf("%s(%s)", strings.ToLower(field), tmTS(p, x))
	case "SECOND":
		// DuckDB's microsecond() is the seconds' microseconds
		return castTo(e.Pos, "CAST(microsecond("+tmTS(p, x)+") AS DECIMAL(18,0)) / 1000000", ir.Decimal(8, 6))
	default:
		p.fail(l.Pos, "date_part field %q", l.Text)
	}
	return p.cast(e, sql)
}

func tmDatediff(p *printer, e *ir.Call) string {
	tmArity(p, e, 2)
	return p.cast(e, fmt.Sprintf("(%s - %s)", tmDate(p, e.Args[0]), tmDate(p, e.Args[1])))
}

// tmDateAdd prints date_add and date_sub: a whole number of days.
func tmDateAdd(op string) func(p *printer, e *ir.Call) string {
	return func(p *printer, e *ir.Call) string {
		tmArity(p, e, 2)
		return p.cast(e, fmt.Sprintf("(%s %s CAST(%s AS INTEGER))", tmDate(p, e.Args[0]), op, p.expr(e.Args[1])))
	}
}

// tmAddMonths: DuckDB's month interval clamps the day as Spark's
// plusMonths does; a BIGINT count beyond INT is Spark's implicit cast's
// CAST_OVERFLOW (once the date is known not to be NULL).
func tmAddMonths(p *printer, e *ir.Call) string {
	tmArity(p, e, 2)
	d, n := tmDate(p, e.Args[0]), p.expr(e.Args[1])
	return p.cast(e, fmt.Sprintf("CASE WHEN %[1]s IS NULL OR %[2]s IS NULL THEN NULL "+
		"WHEN %[2]s NOT BETWEEN -2147483648 AND 2147483647 THEN error('CAST_OVERFLOW') "+
		"ELSE CAST(%[1]s + to_months(CAST(%[2]s AS INTEGER)) AS DATE) END", d, n))
}

func tmMonthsBetween(p *printer, e *ir.Call) string {
	tmArity(p, e, 2, 3)
	r := "true"
	if len(e.Args) == 3 {
		r = p.expr(e.Args[2])
	}
	return p.cast(e, fmt.Sprintf("tm_months_between(%s, %s, %s)", tmTS(p, e.Args[0]), tmTS(p, e.Args[1]), r))
}

func tmNextDay(p *printer, e *ir.Call) string {
	tmArity(p, e, 2)
	return p.cast(e, fmt.Sprintf("tm_next_day(%s, %s)", tmDate(p, e.Args[0]), p.expr(e.Args[1])))
}

func tmTrunc(p *printer, e *ir.Call) string {
	tmArity(p, e, 2)
	return p.cast(e, fmt.Sprintf("tm_trunc(%s, %s)", tmDate(p, e.Args[0]), p.expr(e.Args[1])))
}

func tmFromUnixDate(p *printer, e *ir.Call) string {
	tmArity(p, e, 1)
	return p.cast(e, fmt.Sprintf("(DATE '1970-01-01' + CAST(%s AS INTEGER))", p.expr(e.Args[0])))
}

// tmMakeDate: DuckDB's make_date raises for a date that does not exist,
// as Spark's does (DATETIME_FIELD_OUT_OF_BOUNDS); arguments are Spark's
// INT (a BIGINT beyond it fails the cast in both).
func tmMakeDate(p *printer, e *ir.Call) string {
	tmArity(p, e, 3)
	var as []string
	for _, a := range e.Args {
		as = append(as, "CAST("+p.expr(a)+" AS INTEGER)")
	}
	return p.cast(e, fmt.Sprintf("make_date(%s)", strings.Join(as, ", ")))
}

// tmMakeTimestamp: Spark's MakeTimestamp. The seconds are DECIMAL(16,6)
// (Spark's implicit cast); 60 with no fraction is the next minute, with
// one INVALID_FRACTION_OF_SECOND; an hour, minute or second out of range
// DATETIME_FIELD_OUT_OF_BOUNDS (DuckDB would roll them over); a date that
// does not exist fails DuckDB's make_date as Spark's LocalDateTime.of.
func tmMakeTimestamp(p *printer, e *ir.Call) string {
	tmArity(p, e, 6, 7)
	var as []string
	for _, a := range e.Args[:5] {
		as = append(as, "CAST("+p.expr(a)+" AS INTEGER)")
	}
	sec := "CAST(" + p.expr(e.Args[5]) + " AS DECIMAL(16,6))"
	var nulls []string
	for _, a := range append(as, sec) {
		nulls = append(nulls, a+" IS NULL")
	}
	local := fmt.Sprintf("(CAST(make_date(%s, %s, %s) AS TIMESTAMP) + to_hours(%s) + to_minutes(%s) + to_microseconds(CAST(%s * 1000000 AS BIGINT)))",
		as[0], as[1], as[2], as[3], as[4], sec)
	if len(e.Args) == 7 {
		local = tmToUTC(p, e.Args[6], local)
	}
	return p.cast(e, fmt.Sprintf("CASE WHEN %[1]s THEN NULL "+
		"WHEN %[2]s > 60 AND %[2]s < 61 THEN error('INVALID_FRACTION_OF_SECOND') "+
		"WHEN %[3]s NOT BETWEEN 0 AND 23 OR %[4]s NOT BETWEEN 0 AND 59 OR %[2]s < 0 OR %[2]s >= 61 THEN error('DATETIME_FIELD_OUT_OF_BOUNDS') "+
		"ELSE %[5]s END", strings.Join(nulls, " OR "), sec, as[3], as[4], local))
}

// tmOffset matches the offset zones the printer turns into arithmetic.
var tmOffset = regexp.MustCompile(`^([+-])(\d{2}):(\d{2})$`)

// tmZoneName is the constant zone of a call: a region ICU knows by the
// same name, UTC, or an offset (its microseconds east of UTC, ok).
func tmZoneName(p *printer, z ir.Expr) (region string, offsetUS int64, isOffset bool) {
	l, ok := z.(*ir.Literal)
	if !ok || l.Kind != ir.LitString {
		p.fail(z.Position(), "a time zone that is not a string literal")
	}
	if m := tmOffset.FindStringSubmatch(l.Text); m != nil {
		h, _ := strconv.Atoi(m[2])
		mi, _ := strconv.Atoi(m[3])
		us := int64(h*3600+mi*60) * 1_000_000
		if m[1] == "-" {
			us = -us
		}
		return "", us, true
	}
	if l.Text == "UTC" || regexp.MustCompile(`^[A-Z][A-Za-z_]+/[A-Z][A-Za-z_/]+$`).MatchString(l.Text) {
		return l.Text, 0, false
	}
	p.fail(l.Pos, "time zone %q (a region, UTC or ±HH:MM is translated)", l.Text)
	return "", 0, false
}

// tmToUTC is the instant (a UTC TIMESTAMP) of the wall clock local in
// zone z.
func tmToUTC(p *printer, z ir.Expr, local string) string {
	region, off, isOff := tmZoneName(p, z)
	if isOff {
		return fmt.Sprintf("(%s - to_microseconds(CAST(%d AS BIGINT)))", local, off)
	}
	return fmt.Sprintf("tm_to_utc(%s, %s)", local, quoteString(region))
}

// tmZone prints from_utc_timestamp (the instant's wall clock in the zone,
// read as UTC) and to_utc_timestamp (tmToUTC).
func tmZone(from bool) func(p *printer, e *ir.Call) string {
	return func(p *printer, e *ir.Call) string {
		tmArity(p, e, 2)
		ts := tmTS(p, e.Args[0])
		if !from {
			return p.cast(e, tmToUTC(p, e.Args[1], ts))
		}
		region, off, isOff := tmZoneName(p, e.Args[1])
		if isOff {
			return p.cast(e, fmt.Sprintf("(%s + to_microseconds(CAST(%d AS BIGINT)))", ts, off))
		}
		return p.cast(e, fmt.Sprintf("CAST(timezone(%s, CAST(%s AS TIMESTAMPTZ)) AS TIMESTAMP)", quoteString(region), ts))
	}
}

// tmTimestampAdd: calendar units on the UTC wall clock (DuckDB's month
// interval clamps the day as java.time's plusMonths), time units on the
// instant.
func tmTimestampAdd(p *printer, e *ir.Call) string {
	tmArity(p, e, 3)
	unit := tmUnit(p, e.Args[0])
	n := "CAST(" + p.expr(e.Args[1]) + " AS BIGINT)"
	ts := tmTS(p, e.Args[2])
	var iv string
	switch unit {
	case "YEAR":
		iv = "to_months(" + n + " * 12)"
	case "QUARTER":
		iv = "to_months(" + n + " * 3)"
	case "MONTH":
		iv = "to_months(" + n + ")"
	case "WEEK":
		iv = "to_days(" + n + " * 7)"
	case "DAY", "DAYOFYEAR":
		iv = "to_days(" + n + ")"
	case "HOUR":
		iv = "to_microseconds(" + n + " * 3600000000)"
	case "MINUTE":
		iv = "to_microseconds(" + n + " * 60000000)"
	case "SECOND":
		iv = "to_microseconds(" + n + " * 1000000)"
	case "MILLISECOND":
		iv = "to_microseconds(" + n + " * 1000)"
	case "MICROSECOND":
		iv = "to_microseconds(" + n + ")"
	default:
		p.fail(e.Pos, "timestampadd unit %s", unit)
	}
	return p.cast(e, "("+ts+" + "+iv+")")
}

// tmTimestampDiff: whole units from the start to the end, truncated. In
// UTC the date-based DAY and WEEK of java.time's LocalDateTime.until are
// the truncated quotient of the microseconds; MONTH, QUARTER and YEAR are
// tm_months_until's.
func tmTimestampDiff(p *printer, e *ir.Call) string {
	tmArity(p, e, 3)
	unit := tmUnit(p, e.Args[0])
	s, t := tmTS(p, e.Args[1]), tmTS(p, e.Args[2])
	per := map[string]int64{"WEEK": 604800000000, "DAY": 86400000000, "HOUR": 3600000000, "MINUTE": 60000000,
		"SECOND": 1000000, "MILLISECOND": 1000, "MICROSECOND": 1}
	months := map[string]int{"MONTH": 1, "QUARTER": 3, "YEAR": 12}
	switch {
	case per[unit] > 0:
		return p.cast(e, fmt.Sprintf("spark_quot(epoch_us(%s) - epoch_us(%s), CAST(%d AS BIGINT))", t, s, per[unit]))
	case months[unit] > 0:
		return p.cast(e, fmt.Sprintf("spark_quot(tm_months_until(%s, %s), %d)", s, t, months[unit]))
	}
	p.fail(e.Pos, "timestampdiff unit %s", unit)
	return ""
}

func tmUnit(p *printer, x ir.Expr) string {
	l, ok := x.(*ir.Literal)
	if !ok || l.Kind != ir.LitString {
		p.fail(x.Position(), "a unit that is not a string literal")
	}
	return strings.ToUpper(l.Text)
}

// tmFormatCodes are the datetime pattern letters (a run of one letter)
// whose strftime code means the same: Spark's text in Locale.US, numbers
// zero-padded to the run's width. Another run refuses.
var tmFormatCodes = map[string]string{
	"yyyy": "%Y", "yy": "%y", "MM": "%m", "M": "%-m", "MMM": "%b", "MMMM": "%B", "dd": "%d", "d": "%-d",
	"DDD": "%j", "D": "%-j", "HH": "%H", "H": "%-H", "hh": "%I", "h": "%-I", "mm": "%M", "m": "%-M",
	"ss": "%S", "s": "%-S", "SSS": "%g", "SSSSSS": "%f", "a": "%p", "E": "%a", "EEE": "%a", "EEEE": "%A",
}

// tmPattern is argument i of a call: a constant datetime pattern.
func tmPattern(p *printer, e *ir.Call, i int) string {
	l, ok := e.Args[i].(*ir.Literal)
	if !ok || l.Kind != ir.LitString {
		p.fail(e.Args[i].Position(), "%s with a pattern that is not a string literal", e.Name)
	}
	return l.Text
}

// tmStrftime translates a Spark datetime pattern to a strftime format:
// letter runs by tmFormatCodes, quoted text (” is a quote) and other
// characters as themselves (% doubled).
func tmStrftime(p *printer, pos ir.Pos, pat string) string {
	var b strings.Builder
	lit := func(s string) { b.WriteString(strings.ReplaceAll(s, "%", "%%")) }
	for i := 0; i < len(pat); {
		c := pat[i]
		switch {
		case c == '\'':
			j := i + 1
			var q strings.Builder
			for ; j < len(pat); j++ {
				if pat[j] == '\'' {
					if j+1 < len(pat) && pat[j+1] == '\'' {
						q.WriteByte('\'')
						j++
						continue
					}
					break
				}
				q.WriteByte(pat[j])
			}
			if j >= len(pat) {
				p.fail(pos, "pattern %q: an unterminated quote", pat)
			}
			if j == i+1 {
				lit("'") // '' outside a quote is a quote
			}
			lit(q.String())
			i = j + 1
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			j := i
			for j < len(pat) && pat[j] == c {
				j++
			}
			code, ok := tmFormatCodes[pat[i:j]]
			if !ok {
				p.fail(pos, "pattern %q: %q has no strftime code of the same meaning", pat, pat[i:j])
			}
			b.WriteString(code)
			i = j
		case strings.IndexByte("[]{}#", c) >= 0:
			p.fail(pos, "pattern %q: the reserved character %q", pat, c)
		default:
			lit(string(c))
			i++
		}
	}
	return b.String()
}

func tmDateFormat(p *printer, e *ir.Call) string {
	tmArity(p, e, 2)
	f := tmStrftime(p, e.Args[1].Position(), tmPattern(p, e, 1))
	return fmt.Sprintf("strftime(%s, %s)", tmTS(p, e.Args[0]), quoteString(f))
}

func tmFromUnixtime(p *printer, e *ir.Call) string {
	tmArity(p, e, 1, 2)
	pat := "yyyy-MM-dd HH:mm:ss"
	if len(e.Args) == 2 {
		pat = tmPattern(p, e, 1)
	}
	f := tmStrftime(p, e.Pos, pat)
	return fmt.Sprintf("strftime(make_timestamp(CAST(%s AS BIGINT) * 1000000), %s)", p.expr(e.Args[0]), quoteString(f))
}

// tmParseCodes are the fixed-width numeric fields a parse is translated
// for: the digits they take exactly, and strptime's code.
var tmParseCodes = map[string][2]string{
	"yyyy": {`[0-9]{4}`, "%Y"}, "MM": {`[0-9]{2}`, "%m"}, "dd": {`[0-9]{2}`, "%d"},
	"HH": {`[0-9]{2}`, "%H"}, "mm": {`[0-9]{2}`, "%M"}, "ss": {`[0-9]{2}`, "%S"},
}

// tmParse prints the parse of string x with a constant pattern as a
// TIMESTAMP (UTC wall clock), or bad when it does not parse.
func tmParse(p *printer, e *ir.Call, x, pat, bad string) string {
	var re, f strings.Builder
	for i := 0; i < len(pat); {
		c := pat[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			j := i
			for j < len(pat) && pat[j] == c {
				j++
			}
			code, ok := tmParseCodes[pat[i:j]]
			if !ok {
				p.fail(e.Pos, "parsing pattern %q: %q is not a fixed-width number", pat, pat[i:j])
			}
			re.WriteString(code[0])
			f.WriteString(code[1])
			i = j
		case c == '\'' || c == '%' || strings.IndexByte("[]{}#", c) >= 0:
			p.fail(e.Pos, "parsing pattern %q: %q is not translated", pat, c)
		default:
			re.WriteString(regexp.QuoteMeta(string(c)))
			f.WriteByte(c)
			i++
		}
	}
	return fmt.Sprintf("CASE WHEN %[1]s IS NULL THEN NULL WHEN regexp_full_match(%[1]s, %[2]s) AND try_strptime(%[1]s, %[3]s) IS NOT NULL "+
		"THEN strptime(%[1]s, %[3]s) ELSE %[4]s END", x, quoteString(re.String()), quoteString(f.String()), bad)
}

func tmToUnixTimestamp(p *printer, e *ir.Call) string {
	tmArity(p, e, 1, 2)
	var ts string
	if p.typeOf(e.Args[0]).Kind == ir.TString {
		pat := "yyyy-MM-dd HH:mm:ss"
		if len(e.Args) == 2 {
			pat = tmPattern(p, e, 1)
		}
		ts = tmParse(p, e, p.expr(e.Args[0]), pat, "error('CANNOT_PARSE_TIMESTAMP')")
	} else {
		ts = tmTS(p, e.Args[0])
	}
	// ToUnixTimestamp divides the microseconds as a Java long: toward zero
	return p.cast(e, fmt.Sprintf("spark_quot(epoch_us(%s), CAST(1000000 AS BIGINT))", ts))
}

// tmToDate: one argument as CAST(x AS DATE) (Spark's string grammar for a
// string); with a pattern, the string parsed (tmParse) and its date.
func tmToDate(p *printer, e *ir.Call) string {
	tmArity(p, e, 1, 2)
	x := p.expr(e.Args[0])
	switch {
	case p.typeOf(e.Args[0]).Kind != ir.TString:
		if len(e.Args) == 2 {
			p.fail(e.Pos, "to_date of a %s with a pattern", p.typeOf(e.Args[0]))
		}
		return "CAST(CAST(" + x + " AS TIMESTAMP) AS DATE)"
	case len(e.Args) == 1:
		return castFromString(p, e.Pos, x, ir.Date32, false)
	}
	return p.cast(e, tmParse(p, e, x, tmPattern(p, e, 1), "error('CANNOT_PARSE_TIMESTAMP')"))
}

// tmToTimestamp: one argument cast (a string only as a simple literal);
// with a pattern, the string parsed (tmParse).
func tmToTimestamp(p *printer, e *ir.Call) string {
	tmArity(p, e, 1, 2)
	switch {
	case p.typeOf(e.Args[0]).Kind != ir.TString:
		if len(e.Args) == 2 {
			p.fail(e.Pos, "to_timestamp of a %s with a pattern", p.typeOf(e.Args[0]))
		}
		return p.cast(e, p.expr(e.Args[0]))
	case len(e.Args) == 1:
		return p.cast(e, p.timestampLiteral(e.Args[0]))
	}
	return p.cast(e, tmParse(p, e, p.expr(e.Args[0]), tmPattern(p, e, 1), "error('CANNOT_PARSE_TIMESTAMP')"))
}

func tmTryToTimestamp(p *printer, e *ir.Call) string {
	tmArity(p, e, 1, 2)
	if p.typeOf(e.Args[0]).Kind != ir.TString {
		return p.cast(e, tmTS(p, e.Args[0]))
	}
	if len(e.Args) != 2 {
		p.fail(e.Pos, "try_to_timestamp of a string without a pattern (Spark's timestamp grammar is not translated)")
	}
	return p.cast(e, tmParse(p, e, p.expr(e.Args[0]), tmPattern(p, e, 1), "NULL"))
}

// genTimeEdge is tm_edge: dates and times at the edges (leap days, month
// and year ends, ISO weeks across years, before 1970 and before 1582, the
// 2024 DST changes of New York and Berlin as wall clocks and as instants)
// and the other arguments (day counts, months, day names, units, fields of
// make_date and make_timestamp), then seeded random rows.
func genTimeEdge() *table {
	t := &table{name: "tm_edge", cols: []string{"id", "d", "ts", "tz", "ds", "n", "m", "dow", "unit", "y", "mo", "dd", "h", "mi", "sec"},
		quoted: []bool{false, false, false, false, true, false, false, true, true, false, false, false, false, false, false}}
	fixed := [][]string{
		// d, ts, ds, n, m, dow, unit, y, mo, dd, h, mi, sec
		{"2024-02-29", "2024-02-29 23:59:59.999999", "2024-02-29", "365", "12", "MO", "YEAR", "2024", "2", "29", "23", "59", "59.999999"},
		{"2023-02-28", "2024-03-10 02:30:00", "2024-2-9", "1", "1", "mon", "yyyy", "2023", "2", "28", "23", "59", "60"},
		{"2024-01-31", "2024-11-03 01:30:00", "2024-01-01 12:34:56", "-1", "1", "Monday", "yy", "2000", "2", "29", "0", "0", "0"},
		{"2024-03-31", "2024-03-31 02:30:00", " 2024-03-10 ", "0", "-1", "tu", "quarter", "1900", "2", "28", "12", "30", "60"},
		{"2023-12-31", "2024-10-27 02:30:00", "2024-03-10T10:00:00", "-366", "-12", "WED", "MONTH", "1582", "10", "10", "1", "30", "0.5"},
		{"2024-01-01", "2024-03-10 07:00:00", "1969-12-31", "28", "13", "thursday", "mon", "1970", "1", "1", "0", "0", "0.000001"},
		{"2021-01-01", "2024-11-03 05:30:00", "2021-01-03", "29", "0", "Fr", "mm", "1", "1", "1", "6", "7", "8"},
		{"2020-12-31", "2024-11-03 06:30:00", "2024-02-29 ", "30", "1200", "sat", "week", "9999", "12", "31", "18", "0", "59"},
		{"2019-12-30", "1969-12-31 23:59:59.5", "2019-12-30", "31", "-25", "SUN", "Q", "2024", "12", "31", "10", "10", "10.5"},
		{"2026-12-31", "1970-01-01 00:00:00", "1900-03-01", "59", "11", "su", "day", "2023", "12", "31", "0", "59", "0"},
		{"1969-12-31", "1900-01-01 00:00:00.000001", "1582-10-04", "60", "-1", "sunday", "dd", "1600", "2", "29", "13", "45", "30.25"},
		{"1900-03-01", "1582-10-15 12:00:00", "2024-12-30", "-29", "2", "TH", "", "1582", "10", "4", "0", "0", "0"},
		{"1582-10-04", "1582-10-04 00:00:00", "2027-01-03", "1000", "-2", "TUESDAY", null, "2024", "1", "31", "22", "15", "45"},
		{"1000-03-01", "1000-03-01 12:34:56.789", "1000-03-01", "-1000", "3", "we", "Year", "1000", "3", "1", "5", "5", "5"},
		{"0001-01-01", "2024-12-31 23:59:59", "0001-01-01", "366", "24", "fri", "WEEK ", "1", "12", "31", "23", "59", "60"},
		{"2024-12-30", "2027-01-01 00:00:00", "2024-01-31", "-10000", "-24", "Saturday", "hour", "2020", "2", "29", "0", "0", "59.5"},
		{"2027-01-03", "2024-03-30 23:59:59.999999", "2026-12-31", "7", "6", "MON", "month", "2100", "2", "28", "11", "11", "11.111111"},
		{"2999-12-31", "2024-01-31 12:00:00", null, "-7", "-6", null, "quarter", "2024", "2", "29", "2", "30", "0"},
		{null, null, null, null, null, null, null, null, null, null, null, null, null},
		{"2024-02-28", "2024-02-29 00:00:00", "2024-02-28", null, null, "Tu", "YYYY", null, "6", "15", "12", "0", "0"},
		{"2024-04-30", "2024-05-31 10:00:00", "2024-04-30", "1", "1", "wednesday", "MON", "2024", "4", "30", "18", "30", null},
		{"2023-03-31", "2023-02-28 23:00:00", "2023-03-31", "2", "-1", "THU", "yy", "2023", "3", "31", "0", "0", "0"},
	}
	zones := []int{0, 7200, -19800, 0}
	for i, r := range fixed {
		ts, tz := r[1], null
		if ts != null {
			t0, err := time.Parse("2006-01-02 15:04:05.999999", ts)
			if err != nil {
				panic(err)
			}
			tz = tsText(t0.UnixMicro(), zones[i%len(zones)])
		}
		t.rows = append(t.rows, append([]string{strconv.Itoa(i + 1), r[0], ts, tz}, r[2:]...))
	}
	g := &gen{r: rand.New(rand.NewPCG(20261204, 19))}
	dows := []string{"MO", "Tue", "wednesday", "th", "FRI", "sa", "Sunday"}
	units := []string{"year", "QUARTER", "Month", "week", "mm", "x"}
	for id := len(fixed) + 1; id <= len(fixed)+60; id++ {
		days := g.r.IntN(200*366) - 100*366 // 1870 to 2070
		us := int64(days)*86_400_000_000 + g.r.Int64N(86_400_000_000)
		if g.r.IntN(3) == 0 {
			us -= us % 1_000_000
		}
		y, mo := 1900+g.r.IntN(200), 1+g.r.IntN(12)
		dd := 1 + g.r.IntN(time.Date(y, time.Month(mo+1), 0, 0, 0, 0, 0, time.UTC).Day())
		t.rows = append(t.rows, []string{
			strconv.Itoa(id),
			g.maybe(0.05, dateText(days)),
			g.maybe(0.05, tsText(us, 0)),
			g.maybe(0.05, tsText(us+g.r.Int64N(86_400_000_000)*40, zones[g.r.IntN(len(zones))])),
			g.maybe(0.05, dateText(days+g.r.IntN(1000)-500)),
			g.maybe(0.05, strconv.Itoa(g.r.IntN(4001)-2000)),
			g.maybe(0.05, strconv.Itoa(g.r.IntN(241)-120)),
			g.maybe(0.05, g.pick(dows)),
			g.maybe(0.05, g.pick(units)),
			g.maybe(0.05, strconv.Itoa(y)),
			strconv.Itoa(mo),
			strconv.Itoa(dd),
			strconv.Itoa(g.r.IntN(24)),
			strconv.Itoa(g.r.IntN(60)),
			decText(g.r.Int64N(60_000_000), 6),
		})
	}
	return t
}

// genTimeBad is tm_bad: arguments that make ANSI errors, one row per
// err_tm_* view (which selects it by id): a date text that does not exist
// or is not a date (fullwidth digits, empty), a day name Spark does not
// know (a fullwidth one, a German one, a plural), a month count beyond
// INT, a leap day of a year that has none in the proleptic Gregorian
// calendar (1500, 1900), seconds of 60.5 and 61, a text that does not
// parse.
func genTimeBad() *table {
	t := &table{name: "tm_bad", cols: []string{"id", "xs", "xdow", "xm", "y", "mo", "dd", "sec", "ptxt"},
		quoted: []bool{false, true, true, false, false, false, false, false, true}}
	for i, r := range [][]string{
		{"2023-02-30", "xx", "4000000000", "1500", "2", "29", "60.5", "2024-02-30 00:00:00"},
		{"２０２４-01-01", "ＭＯ", "-2147483649", "1900", "2", "29", "61", "2024/01/01 00:00:00"},
		{"", "Mondays", "9223372036854775807", "2024", "13", "1", "-1", "2024-01-01 24:00:00"},
		{"2024-13-01", "mö", "2147483648", "2024", "4", "31", "60.000001", "2024-1-01 00:00:00"},
	} {
		t.rows = append(t.rows, append([]string{strconv.Itoa(i + 1)}, r...))
	}
	return t
}
