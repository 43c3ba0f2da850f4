package codegen

import (
	"fmt"
	"hash/crc32"
	"strings"

	"github.com/dave/jennifer/jen"
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
	case "current_timestamp":
		return g.runNow()
	case "current_date", "localtimestamp":
		return g.genCast(g.runNow(), t, false, e.Pos)
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
		t1, t2 := g.asInstant(args[0], e.Pos), g.asInstant(args[1], e.Pos)
		return g.strict(t, e.Pos, pure, false, []*value{t1, t2, round}, func() jen.Code {
			return jen.Qual(sqlfnPkg, "MonthsBetween").Call(V(t1), V(t2), V(round), g.zoneArg())
		})
	case "next_day":
		return sq(checked, "NextDay", date(0), args[1])
	case "trunc":
		return sq(maybe, "TruncDateText", date(0), args[1])
	case "make_timestamp":
		sec := g.genCast(args[5], ir.Decimal(16, 6), false, e.Pos)
		zone := g.zoneArg()
		if len(args) == 7 {
			zone = g.constZoneVar(e.Args[6])
		}
		f := []*value{i32(0), i32(1), i32(2), i32(3), i32(4), sec}
		return g.strict(t, e.Pos, checked, false, f, func() jen.Code {
			return jen.Qual(sqlfnPkg, "MakeTimestamp").Call(V(f[0]), V(f[1]), V(f[2]), V(f[3]), V(f[4]), V(f[5]), zone)
		})
	case "make_date":
		return sq(checked, "MakeDate", i32(0), i32(1), i32(2))
	case "unix_date":
		return retype(args[0], t) // both are int32 days
	case "date_from_unix_date":
		return retype(i32(0), t)
	case "date_format":
		us := g.asInstant(args[0], e.Pos)
		return g.strict(t, e.Pos, pure, false, []*value{us}, func() jen.Code {
			return jen.Qual(sqlfnPkg, "FormatInstant").Call(V(us), g.patternVar(e, 1, ""), g.zoneArg())
		})
	case "from_unixtime":
		sec := g.coerce(args[0], ir.Int64, e.Pos)
		return g.strict(t, e.Pos, pure, false, []*value{sec}, func() jen.Code {
			return jen.Qual(sqlfnPkg, "FromUnixTime").Call(V(sec), g.patternVar(e, 1, defaultPattern), g.zoneArg())
		})
	case "to_unix_timestamp":
		return g.genParse(name, e, args, t, false)
	case "try_to_timestamp":
		if len(args) == 1 {
			return g.genCast(args[0], t, true, e.Pos)
		}
		return g.genParse(name, e, args, t, true)
	case "timestampadd", "timestampdiff":
		return g.genUnitArith(name, e, args, t)
	case "from_utc_timestamp", "to_utc_timestamp":
		us := g.asInstant(args[0], e.Pos)
		z := g.constZoneVar(e.Args[1])
		method := map[string]string{"from_utc_timestamp": "Local", "to_utc_timestamp": "Instant"}[name]
		return g.strict(t, e.Pos, pure, false, []*value{us}, func() jen.Code {
			return jen.Add(z).Dot(method).Call(V(us), jen.Qual(sqlfnPkg, "UnitMicrosecond"))
		})
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

// defaultPattern is the datetime pattern of from_unixtime, unix_timestamp
// and to_unix_timestamp without one.
const defaultPattern = "yyyy-MM-dd HH:mm:ss"

// genParse is to_timestamp, try_to_timestamp (try), to_date, unix_timestamp
// and to_unix_timestamp of a text with a datetime pattern (the default one
// for the last two); of a date or timestamp the pattern plays no part.
func (g *flowGen) genParse(name string, e *ir.Call, args []*value, t ir.Type, try bool) *value {
	if len(args) == 0 { // unix_timestamp(): now
		return g.unixTimestamp(g.runNow(), t, e.Pos)
	}
	x := args[0]
	unix := name == "unix_timestamp" || name == "to_unix_timestamp"
	if x.t.Kind != ir.TString {
		switch {
		case unix:
			return g.unixTimestamp(x, t, e.Pos)
		case t.Kind == ir.TDate32:
			return g.asDate(x, e.Pos)
		}
		return g.genCast(x, t, try, e.Pos)
	}
	fn := map[bool]string{false: "ParseTimestamp", true: "ParseUnixSeconds"}[unix]
	if t.Kind == ir.TDate32 {
		fn = "ParseDate"
	}
	return g.strict(t, e.Pos, checked, try, []*value{x}, func() jen.Code {
		return jen.Qual(sqlfnPkg, fn).Call(V(x), g.patternVar(e, 1, defaultPattern), g.zoneArg())
	})
}

// unixTimestamp is unix_timestamp of a date or timestamp: the seconds of its
// instant (a DATE's midnight in the session zone). Spark's ToTimestamp
// divides the microseconds by 10^6 as a Java long: truncated toward zero,
// so 1969-12-31 23:59:59.5 is 0.
func (g *flowGen) unixTimestamp(x *value, t ir.Type, pos ir.Pos) *value {
	to := ir.Timestamp(ir.Micro, "")
	if x.t.Zone != "" || x.t.Kind == ir.TDate32 {
		// session confs: an instant's seconds, and a DATE's local
		// midnight (zone.go); without a session zone, the same
		to = ir.Timestamp(ir.Micro, "UTC")
	}
	us := g.genCast(x, to, false, pos)
	return g.strict(t, pos, pure, false, []*value{us}, func() jen.Code { return jen.Add(V(us)).Op("/").Lit(1000000) })
}

// patternVar is the package-level variable holding the compiled datetime
// pattern of argument i of a call (def without one), declared on first use.
// The plan pass checked that the pattern is a constant the runtime runs.
func (g *flowGen) patternVar(e *ir.Call, i int, def string) jen.Code {
	p := def
	if i < len(e.Args) {
		l, ok := e.Args[i].(*ir.Literal)
		if !ok {
			g.unplanned(e.Args[i].Position(), "%s with a datetime pattern that is not a constant is not supported yet", e.Name)
			return jen.Nil()
		}
		p = l.Text
	}
	name := fmt.Sprintf("%sPattern%08x", g.fname, crc32.ChecksumIEEE([]byte(p)))
	return g.declareOnce(name, func() jen.Code {
		return jen.Commentf("%s is the datetime pattern %q.", name, p).Line().
			Var().Id(name).Op("=").Qual(sqlfnPkg, "MustPattern").Call(jen.Lit(p))
	})
}

// zoneArg is the session zone for sqlfn's functions that take one: nil
// under UTC.
func (g *flowGen) zoneArg() jen.Code {
	if g.session().UTC() {
		return jen.Nil()
	}
	return g.zoneVar()
}

// runNow is current_timestamp(): the package-level variable holding the
// instant the run started (sqlfn.Now: the same in every flow), declared on
// first use.
func (g *flowGen) runNow() *value {
	const name = "runNow"
	v := g.declareOnce(name, func() jen.Code {
		return jen.Commentf("%s is the instant the run started: current_timestamp(), fixed once per run.", name).Line().
			Var().Id(name).Op("=").Qual(sqlfnPkg, "Now").Call()
	})
	return &value{t: ir.Timestamp(ir.Micro, "UTC"), v: v}
}

// constZoneVar is the package-level variable holding the constant time zone
// of a call (from_utc_timestamp), declared on first use; the plan pass
// checked that it is a constant, valid zone.
func (g *flowGen) constZoneVar(arg ir.Expr) jen.Code {
	l, ok := arg.(*ir.Literal)
	if !ok {
		g.unplanned(arg.Position(), "a time zone that is not a constant is not supported yet")
		return jen.Nil()
	}
	name := fmt.Sprintf("timeZone%08x", crc32.ChecksumIEEE([]byte(l.Text)))
	return g.declareOnce(name, func() jen.Code {
		return jen.Commentf("%s is the time zone %q.", name, l.Text).Line().
			Var().Id(name).Op("=").Qual(sqlfnPkg, "SessionZone").Call(jen.Lit(l.Text))
	})
}

// genUnitArith is timestampadd(unit, n, ts) and timestampdiff(unit, start,
// end): on instants in the session zone, or on TIMESTAMP_NTZ wall clocks
// (in UTC) when no argument is an instant.
func (g *flowGen) genUnitArith(name string, e *ir.Call, args []*value, t ir.Type) *value {
	unit := jen.Lit(strings.ToUpper(e.Args[0].(*ir.Literal).Text))
	ts := args[1:]
	if name == "timestampadd" {
		ts = args[2:]
	}
	ntz := true
	for _, a := range ts {
		ntz = ntz && a.t.Kind == ir.TTimestamp && a.t.Zone == ""
	}
	zone := g.zoneArg()
	conv := func(v *value) *value { return g.asInstant(v, e.Pos) }
	if ntz {
		zone = jen.Nil()
		conv = func(v *value) *value { return g.genCast(v, ir.Timestamp(ir.Micro, ""), false, e.Pos) }
	}
	if name == "timestampdiff" {
		a, b := conv(args[1]), conv(args[2])
		return g.strict(t, e.Pos, pure, false, []*value{a, b}, func() jen.Code {
			return jen.Qual(sqlfnPkg, "TimestampDiffUnit").Call(unit, V(a), V(b), zone)
		})
	}
	n, x := g.coerce(args[1], ir.Int64, e.Pos), conv(args[2])
	return g.strict(t, e.Pos, checked, false, []*value{n, x}, func() jen.Code {
		return jen.Qual(sqlfnPkg, "TimestampAddUnit").Call(unit, V(n), V(x), zone)
	})
}
