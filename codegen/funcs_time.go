package codegen

import (
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// genTimeCall generates the date and time functions (passes/funcs_time.go); nil for a call it does not generate.
// Arguments reach sqlfn as the session zone's wall clock: a DATE (asDate) or the microseconds of a zoneless
// timestamp (asLocal); the epoch functions take the instant (asInstant).
func (g *flowGen) genTimeCall(name string, e *ir.Call, args []*value, t ir.Type) *value {
	sq := func(mode callMode, fn string, vals ...*value) *value { return g.sqlfnCall(t, e.Pos, mode, fn, vals...) }
	date := func(i int) *value { return g.asDate(args[i], e.Pos) }
	i32 := func(i int) *value { return g.asInt32(args[i], e.Pos) }
	switch name {
	case "dayofweek", "weekday", "dayofyear", "weekofyear", "quarter", "last_day":
		fn := map[string]string{"dayofweek": "DayOfWeek", "weekday": "WeekDay", "dayofyear": "DayOfYear",
			"weekofyear": "WeekOfYear", "quarter": "Quarter", "last_day": "LastDay"}[name]
		return sq(pure, fn, date(0))
	case "date_part":
		return g.genDatePart(passes.DatePartField(e), args[1], t, e.Pos)
	case "datediff":
		return sq(pure, "DateDiff", date(0), date(1))
	case "date_add":
		return sq(checked, "DateAddDays", date(0), i32(1))
	case "date_sub":
		return sq(checked, "DateSub", date(0), g.coerce(args[1], ir.Int64, e.Pos))
	case "add_months":
		return sq(checked, "DateAddMonths", date(0), i32(1))
	case "months_between":
		round := constValue(ir.Bool, &konst{b: true})
		if len(args) == 3 {
			round = args[2]
		}
		return sq(pure, "MonthsBetween", g.asLocal(args[0], e.Pos), g.asLocal(args[1], e.Pos), round)
	case "next_day":
		return sq(checked, "NextDay", date(0), args[1])
	case "trunc":
		return sq(maybe, "TruncDateText", date(0), args[1])
	case "make_date":
		return sq(checked, "MakeDate", i32(0), i32(1), i32(2))
	case "unix_date":
		return retype(args[0], t) // both are int32 days
	case "date_from_unix_date":
		return retype(i32(0), t)
	case "unix_seconds", "unix_millis", "unix_micros":
		us := g.asInstant(args[0], e.Pos)
		if name == "unix_micros" {
			return retype(us, t)
		}
		return sq(pure, map[string]string{"unix_seconds": "UnixSeconds", "unix_millis": "UnixMillis"}[name], us)
	}
	return nil
}

// genDatePart is date_part(field, x) (and EXTRACT(field FROM x)) for a
// canonical field (passes.DatePartField) of a date or timestamp x.
func (g *flowGen) genDatePart(field string, x *value, t ir.Type, pos ir.Pos) *value {
	onDate := map[string]string{"YEAR": "Year", "YEAROFWEEK": "YearOfWeek", "QUARTER": "Quarter", "MONTH": "Month",
		"WEEK": "WeekOfYear", "DAY": "Day", "DAYOFWEEK": "DayOfWeek", "DOW_ISO": "DayOfWeekISO", "DOY": "DayOfYear"}
	if fn, ok := onDate[field]; ok {
		return g.sqlfnCall(t, pos, pure, fn, g.asDate(x, pos))
	}
	fn := map[string]string{"HOUR": "Hour", "MINUTE": "Minute", "SECOND": "SecondWithFraction"}[field]
	return g.sqlfnCall(t, pos, pure, fn, g.asLocal(x, pos))
}

// asDate is a DATE argument: a DATE as is, a TIMESTAMP's date in the
// session zone, a STRING cast to DATE (ANSI: CAST_INVALID_INPUT).
func (g *flowGen) asDate(v *value, pos ir.Pos) *value { return g.genCast(v, ir.Date32, false, pos) }

// asLocal is a timestamp argument as the microseconds of its wall-clock
// time in the session zone; a STRING is read as CAST(s AS TIMESTAMP) reads
// it (an offset it carries is honoured), a DATE is its midnight.
func (g *flowGen) asLocal(v *value, pos ir.Pos) *value {
	if v.t.Kind == ir.TString {
		v = g.asInstant(v, pos)
	}
	return g.genCast(v, ir.Timestamp(ir.Micro, ""), false, pos)
}

// asInstant is a timestamp argument as the microseconds of its instant
// since 1970-01-01 00:00:00 UTC (a zoneless one read in the session zone).
func (g *flowGen) asInstant(v *value, pos ir.Pos) *value {
	return g.genCast(v, ir.Timestamp(ir.Micro, "UTC"), false, pos)
}
