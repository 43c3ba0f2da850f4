package sqlfn

import (
	"time"
	_ "time/tzdata" // the zone database travels with the executable: the same answer without /usr/share/zoneinfo
)

// Zone is a session time zone (spark.sql.session.timeZone): a fixed
// offset or a region of the tz database. A TIMESTAMP is an instant; its
// fields, its date, its text and the instant of a local time written
// without an offset are those of the session zone. Generated code converts
// at those edges only: Local turns an instant into the wall-clock time of
// the zone (a zoneless value, as TIMESTAMP_NTZ is), Instant turns one back,
// and everything between (Hour, DateTrunc, AppendTimestamp, ...) computes
// on wall-clock values as it does for UTC.
type Zone struct {
	name string
	off  int64          // seconds east of UTC, for a fixed offset
	loc  *time.Location // a region; nil for a fixed offset
}

// SessionZone parses a session time zone as Spark's getZoneId does (the
// syntax of CAST's zone suffix). The plan pass checked it; an invalid one
// panics.
func SessionZone(id string) *Zone {
	off, loc, ok := parseZone(id)
	if !ok {
		panic("sqlfn: invalid session time zone " + id)
	}
	return &Zone{name: id, off: off, loc: loc}
}

// String is the zone as written.
func (z *Zone) String() string { return z.name }

// offsetAt is the zone's offset (seconds) at an instant (seconds).
func (z *Zone) offsetAt(sec int64) int64 {
	if z.loc == nil {
		return z.off
	}
	_, off := time.Unix(sec, 0).In(z.loc).Zone()
	return int64(off)
}

// offsetOfLocal is the offset (seconds) of a local time (seconds) as
// java.time's ZonedDateTime.of resolves it: in a gap the local time moves
// forward by the gap; in an overlap the earlier offset wins.
func (z *Zone) offsetOfLocal(local int64) int64 {
	if z.loc == nil {
		return z.off
	}
	return regionOffset(z.loc, local)
}

// perSecond is the number of units of u in a second.
func perSecond(u TimeUnit) int64 {
	switch u {
	case UnitSecond:
		return 1
	case UnitMillisecond:
		return 1000
	case UnitNanosecond:
		return 1000000000
	}
	return MicrosPerSecond
}

// Local is the wall-clock time in z of the instant v (unit u), in unit u.
func (z *Zone) Local(v int64, u TimeUnit) int64 {
	ps := perSecond(u)
	return v + z.offsetAt(FloorDiv(v, ps))*ps
}

// Instant is the instant of the wall-clock time v in z (unit u), in unit u.
func (z *Zone) Instant(v int64, u TimeUnit) int64 {
	ps := perSecond(u)
	return v - z.offsetOfLocal(FloorDiv(v, ps))*ps
}

// StringToTimestampIn is CAST(string AS TIMESTAMP) in unit u under session
// zone z: a text without a zone is a local time of z.
func StringToTimestampIn(s string, u TimeUnit, z *Zone) (int64, *Error) {
	us, ok := parseTimestampIn(s, z)
	if !ok {
		return 0, ErrCastInvalidInput(s, TypeTimestamp)
	}
	return MicrosToTimestamp(us, u)
}

// InstantNear is the instant of the wall-clock time v in z (unit u),
// keeping the offset z has at instant near when it is valid at v, as
// java.time's ZonedDateTime.truncatedTo does (date_trunc to a minute, an
// hour or a day): in an overlap, the instant's own offset wins.
func (z *Zone) InstantNear(v int64, u TimeUnit, near int64) int64 {
	ps := perSecond(u)
	if z.loc != nil {
		pref := z.offsetAt(FloorDiv(near, ps))
		if z.offsetAt(FloorDiv(v, ps)-pref) == pref {
			return v - pref*ps
		}
	}
	return z.Instant(v, u)
}
