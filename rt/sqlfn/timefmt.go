package sqlfn

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Spark's datetime patterns (date_format, from_unixtime, to_timestamp,
// to_date, unix_timestamp with a format): the subset the native runtime
// runs. The compiler's plan pass refuses every other pattern letter by name
// before a pattern gets here (passes/funcs_time.go keeps the same list).
//
// Letters: y (year; yy its last two digits), M and L (month: 1, 01, Jan,
// January), d, D (day of year), H, h, k, K, m, s, S (fraction: 1 to 9
// digits, parsed as 1 to n), a (AM/PM), E (day name, formatting only), Q
// and q (quarter, formatting only), X, x and Z (offsets). Text between
// single quotes is literal, two quotes are one; other characters are
// literal, except the reserved [ ] { } #.

// Pattern is a compiled datetime pattern.
type Pattern struct {
	items []patItem
}

// patItem is a run of one pattern letter, or literal text (letter 0).
type patItem struct {
	letter byte
	count  int
	lit    string
}

// patternMax are the letters the runtime runs, each with its longest run.
var patternMax = map[byte]int{
	'y': 9, 'M': 4, 'L': 4, 'd': 2, 'D': 3, 'H': 2, 'h': 2, 'k': 2, 'K': 2, 'm': 2, 's': 2,
	'S': 9, 'a': 1, 'E': 4, 'Q': 4, 'q': 4, 'X': 3, 'x': 3, 'Z': 3,
}

// CompilePattern compiles a pattern; ok is false for one the runtime does
// not run.
func CompilePattern(p string) (*Pattern, bool) {
	var items []patItem
	lit := func(s string) {
		if n := len(items); n > 0 && items[n-1].letter == 0 {
			items[n-1].lit += s
			return
		}
		items = append(items, patItem{lit: s})
	}
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\'':
			j := i + 1
			var b strings.Builder
			for {
				if j >= len(p) {
					return nil, false // an unterminated quote
				}
				if p[j] == '\'' {
					if j+1 < len(p) && p[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(p[j])
				j++
			}
			if j == i+1 {
				lit("'") // '' outside a quote
			} else {
				lit(b.String())
			}
			i = j + 1
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			j := i
			for j < len(p) && p[j] == c {
				j++
			}
			if m, ok := patternMax[c]; !ok || j-i > m {
				return nil, false
			}
			items = append(items, patItem{letter: c, count: j - i})
			i = j
		case c == '[' || c == ']' || c == '{' || c == '}' || c == '#':
			return nil, false
		default:
			lit(p[i : i+1])
			i++
		}
	}
	return &Pattern{items: items}, true
}

// MustPattern compiles a pattern the plan pass checked; it panics on one
// the runtime does not run.
func MustPattern(p string) *Pattern {
	pat, ok := CompilePattern(p)
	if !ok {
		panic("sqlfn: datetime pattern " + strconv.Quote(p) + " is not supported")
	}
	return pat
}

// Parses reports whether the pattern can parse (E, Q and q only format).
func (p *Pattern) Parses() bool {
	for _, it := range p.items {
		switch it.letter {
		case 'E', 'Q', 'q':
			return false
		}
	}
	return true
}

var monthShort = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
var monthLong = [...]string{"January", "February", "March", "April", "May", "June", "July", "August",
	"September", "October", "November", "December"}
var dayShort = [...]string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
var dayLong = [...]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
var quarterLong = [...]string{"1st quarter", "2nd quarter", "3rd quarter", "4th quarter"}

// appendPadded appends v with at least width digits (v >= 0).
func appendPadded(dst []byte, v int64, width int) []byte {
	s := strconv.FormatInt(v, 10)
	for n := len(s); n < width; n++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

// Format renders the wall-clock time local (microseconds) whose offset
// from UTC is off seconds.
func (p *Pattern) Format(local, off int64) string {
	days := FloorDiv(local, MicrosPerDay)
	tod := local - days*MicrosPerDay
	y, mo, d := civilFromDays(days)
	hour := tod / MicrosPerHour
	var b []byte
	for _, it := range p.items {
		n := it.count
		switch it.letter {
		case 0:
			b = append(b, it.lit...)
		case 'y':
			b = appendYearPattern(b, y, n)
		case 'M', 'L':
			switch n {
			case 3:
				b = append(b, monthShort[mo-1]...)
			case 4:
				b = append(b, monthLong[mo-1]...)
			default:
				b = appendPadded(b, int64(mo), n)
			}
		case 'd':
			b = appendPadded(b, int64(d), n)
		case 'D':
			b = appendPadded(b, int64(DayOfYear(int32(days))), n)
		case 'H':
			b = appendPadded(b, hour, n)
		case 'k':
			b = appendPadded(b, (hour+23)%24+1, n)
		case 'K':
			b = appendPadded(b, hour%12, n)
		case 'h':
			b = appendPadded(b, (hour+11)%12+1, n)
		case 'm':
			b = appendPadded(b, tod/MicrosPerMinute%60, n)
		case 's':
			b = appendPadded(b, tod/MicrosPerSecond%60, n)
		case 'S':
			frac := appendPadded(nil, tod%MicrosPerSecond*1000, 9)
			b = append(b, frac[:n]...)
		case 'a':
			if hour < 12 {
				b = append(b, "AM"...)
			} else {
				b = append(b, "PM"...)
			}
		case 'E':
			wd := WeekDay(int32(days))
			if n == 4 {
				b = append(b, dayLong[wd]...)
			} else {
				b = append(b, dayShort[wd]...)
			}
		case 'Q', 'q':
			q := (mo-1)/3 + 1
			switch n {
			case 3:
				b = append(b, 'Q', byte('0'+q))
			case 4:
				b = append(b, quarterLong[q-1]...)
			default:
				b = appendPadded(b, int64(q), n)
			}
		case 'X', 'x', 'Z':
			b = appendOffset(b, it.letter, n, off)
		}
	}
	return string(b)
}

// appendYearPattern renders a year as y, yy, yyy, yyyy... do (Spark reads
// y as java.time's u, the proleptic year): yy is the last two digits; y
// and yyy the year with a minus sign; four or more pad to the width and
// sign a year that exceeds it.
func appendYearPattern(b []byte, y int64, n int) []byte {
	abs := y
	if abs < 0 {
		abs = -abs
	}
	switch {
	case n == 2:
		return appendPadded(b, abs%100, 2)
	case n < 4:
		if y < 0 {
			b = append(b, '-')
		}
		return appendPadded(b, abs, n)
	}
	if y < 0 {
		b = append(b, '-')
	} else if len(strconv.FormatInt(abs, 10)) > n {
		b = append(b, '+')
	}
	return appendPadded(b, abs, n)
}

// appendOffset renders an offset (seconds) as X, x (1: +HH or +HHmm, 2:
// +HHMM, 3: +HH:MM; X writes Z for zero) or Z (1 to 3: +HHMM).
func appendOffset(b []byte, letter byte, n int, off int64) []byte {
	if letter == 'X' && off/60 == 0 {
		return append(b, 'Z')
	}
	if letter == 'Z' {
		n = 2
	}
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	hh, mm := off/3600, off/60%60
	b = appendPadded(append(b, sign), hh, 2)
	switch {
	case n == 1 && mm == 0:
	case n == 3:
		b = appendPadded(append(b, ':'), mm, 2)
	default:
		b = appendPadded(b, mm, 2)
	}
	return b
}

// ClassCannotParseTimestamp is the error of the parsing functions under
// ANSI.
const ClassCannotParseTimestamp = "CANNOT_PARSE_TIMESTAMP"

// errCannotParse is CANNOT_PARSE_TIMESTAMP with java.time's message about
// text s (cut at 64 characters as java.time cuts it) and the try_ function
// to suggest.
//
//go:noinline
func errCannotParse(s, why, try string) *Error {
	if utf8.RuneCountInString(s) > 64 {
		s = string([]rune(s)[:64]) + "..."
	}
	return &Error{Class: ClassCannotParseTimestamp, Msg: "Text '" + s + "' could not be parsed" + why +
		". Use `" + try + "` to tolerate invalid input string and return NULL instead."}
}

// parsed are the fields a parse found; -1 is absent.
type parsed struct {
	year, month, day, doy, hour, hour12, ampm, minute, second int64
	nanos                                                     int64
	off                                                       int64
	hasOff                                                    bool
}

// parseFail is where and why a parse failed: at index at, or (at < 0) a
// resolve error's text.
type parseFail struct {
	at  int
	why string
}

// fixedWidth is the width of a numeric item that parses exactly that many
// digits, else 0.
func fixedWidth(it patItem) int {
	switch it.letter {
	case 'M', 'L':
		if it.count == 2 {
			return 2
		}
	case 'd', 'H', 'h', 'k', 'K', 'm', 's':
		if it.count == 2 {
			return 2
		}
	case 'D':
		if it.count == 3 {
			return 3
		}
	case 'y':
		if it.count == 2 {
			return 2
		}
	}
	return 0
}

// numeric reports whether an item parses digits.
func numeric(it patItem) bool {
	switch it.letter {
	case 'y', 'd', 'D', 'H', 'h', 'k', 'K', 'm', 's':
		return true
	case 'M', 'L':
		return it.count <= 2
	}
	return false
}

// scan parses s with the pattern into its fields (java.time's
// DateTimeFormatter.parse, case-insensitive, the whole text).
func (p *Pattern) scan(s string) (parsed, *parseFail) {
	f := parsed{year: -1 << 62, month: -1, day: -1, doy: -1, hour: -1, hour12: -1, ampm: -1, minute: -1, second: -1}
	pos := 0
	digits := func(from int) int {
		j := from
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		return j - from
	}
	num := func(from, n int) int64 {
		v, _ := strconv.ParseInt(s[from:from+n], 10, 64)
		return v
	}
	for i, it := range p.items {
		start := pos
		fail := &parseFail{at: start}
		if it.letter == 0 {
			if len(s)-pos < len(it.lit) || !strings.EqualFold(s[pos:pos+len(it.lit)], it.lit) {
				return f, fail
			}
			pos += len(it.lit)
			continue
		}
		if numeric(it) {
			// adjacent value parsing: a variable-width field leaves the
			// digits of the fixed-width fields right after it
			reserve := 0
			for _, nx := range p.items[i+1:] {
				w := fixedWidth(nx)
				if w == 0 {
					break
				}
				reserve += w
			}
			neg := false
			if it.letter == 'y' && it.count != 2 && pos < len(s) && (s[pos] == '-' || s[pos] == '+' && it.count >= 4) {
				neg = s[pos] == '-'
				pos++
			}
			avail := digits(pos)
			w := fixedWidth(it)
			minW, maxW := max(1, w), 19
			if w > 0 {
				maxW = w
			}
			if it.letter == 'y' && it.count != 2 {
				minW = it.count
			}
			if it.letter == 'D' && it.count == 2 {
				minW, maxW = 2, 3
			}
			n := min(avail-reserve, maxW)
			if n < minW {
				n = min(avail, maxW)
			}
			if n < minW || n > 18 {
				return f, fail
			}
			if it.letter == 'y' && it.count >= 4 {
				signed := pos > start
				if signed && s[start] == '+' && n <= it.count || !signed && n > it.count {
					return f, fail
				}
			}
			v := num(pos, n)
			pos += n
			if neg {
				v = -v
			}
			switch it.letter {
			case 'y':
				if it.count == 2 {
					v += 2000
				}
				f.year = v
			case 'M', 'L':
				f.month = v
			case 'd':
				f.day = v
			case 'D':
				f.doy = v
			case 'H':
				f.hour = v
			case 'k':
				f.hour = v % 24 // clock-hour-of-day: 24 is midnight
				if v < 1 || v > 24 {
					return f, &parseFail{at: -1, why: ": Invalid value for ClockHourOfDay (valid values 1 - 24): " + strconv.FormatInt(v, 10)}
				}
			case 'K':
				f.hour12 = v
				if v > 11 {
					return f, &parseFail{at: -1, why: ": Invalid value for HourOfAmPm (valid values 0 - 11): " + strconv.FormatInt(v, 10)}
				}
			case 'h':
				if v < 1 || v > 12 {
					return f, &parseFail{at: -1, why: ": Invalid value for ClockHourOfAmPm (valid values 1 - 12): " + strconv.FormatInt(v, 10)}
				}
				f.hour12 = v % 12
			case 'm':
				f.minute = v
			case 's':
				f.second = v
			}
			continue
		}
		switch it.letter {
		case 'M', 'L':
			names := monthShort[:]
			if it.count == 4 {
				names = monthLong[:]
			}
			k := matchName(s[pos:], names)
			if k < 0 {
				return f, fail
			}
			f.month = int64(k + 1)
			pos += len(names[k])
		case 'a':
			k := matchName(s[pos:], []string{"AM", "PM"})
			if k < 0 {
				return f, fail
			}
			f.ampm = int64(k)
			pos += 2
		case 'S':
			n := min(digits(pos), it.count)
			if n == 0 {
				return f, fail
			}
			v := num(pos, n)
			for k := n; k < 9; k++ {
				v *= 10
			}
			f.nanos = v
			pos += n
		case 'X', 'x', 'Z':
			off, n, ok := scanOffset(s[pos:], it)
			if !ok {
				return f, fail
			}
			f.off, f.hasOff = off, true
			pos += n
		}
	}
	if pos < len(s) {
		return f, &parseFail{at: -1, why: ", unparsed text found at index " + strconv.Itoa(pos)}
	}
	return f, nil
}

// matchName is the index of the name s starts with, case-insensitively,
// or -1.
func matchName(s string, names []string) int {
	for k, n := range names {
		if len(s) >= len(n) && strings.EqualFold(s[:len(n)], n) {
			return k
		}
	}
	return -1
}

// scanOffset parses an offset as item it writes one (appendOffset): X
// also takes Z; its length in s.
func scanOffset(s string, it patItem) (int64, int, bool) {
	if it.letter == 'X' && len(s) > 0 && (s[0] == 'Z' || s[0] == 'z') {
		return 0, 1, true
	}
	if len(s) < 3 || s[0] != '+' && s[0] != '-' {
		return 0, 0, false
	}
	two := func(t string) (int64, bool) {
		if len(t) < 2 || t[0] < '0' || t[0] > '9' || t[1] < '0' || t[1] > '9' {
			return 0, false
		}
		return int64(t[0]-'0')*10 + int64(t[1]-'0'), true
	}
	hh, ok := two(s[1:])
	if !ok {
		return 0, 0, false
	}
	n, mm := 3, int64(0)
	colon := it.count == 3 && it.letter != 'Z'
	switch {
	case colon:
		if len(s) < 6 || s[3] != ':' {
			return 0, 0, false
		}
		if mm, ok = two(s[4:]); !ok {
			return 0, 0, false
		}
		n = 6
	case it.letter == 'Z' || it.count == 2:
		if mm, ok = two(s[3:]); !ok {
			return 0, 0, false
		}
		n = 5
	default: // X or x: +HH, optionally mm
		if v, ok2 := two(s[3:]); ok2 {
			mm, n = v, 5
		}
	}
	if hh > 18 || mm > 59 {
		return 0, 0, false
	}
	off := hh*3600 + mm*60
	if s[0] == '-' {
		off = -off
	}
	return off, n, true
}

// resolve turns the fields into a wall-clock time in microseconds (Spark's
// defaults: 1970-01-01 00:00:00 for what the pattern lacks), checking each
// as java.time's strict resolver does.
func (f *parsed) resolve() (int64, string) {
	bad := func(name, rng string, v int64) string {
		return ": Invalid value for " + name + " (valid values " + rng + "): " + strconv.FormatInt(v, 10)
	}
	y := f.year
	if y == -1<<62 {
		y = 1970
	}
	if y < -999999999 || y > 999999999 {
		return 0, bad("Year", "-999999999 - 999999999", y)
	}
	var days int64
	if f.doy >= 0 && f.month < 0 && f.day < 0 {
		switch {
		case f.doy < 1 || f.doy > 366:
			return 0, bad("DayOfYear", "1 - 365/366", f.doy)
		case f.doy == 366 && !isLeap(y):
			return 0, ": Invalid date 'DayOfYear 366' as '" + strconv.FormatInt(y, 10) + "' is not a leap year"
		}
		days = daysFromCivil(y, 1, 1) + f.doy - 1
	} else {
		m, d := f.month, f.day
		if m < 0 {
			m = 1
		}
		if d < 0 {
			d = 1
		}
		switch {
		case f.month >= 0 && (m < 1 || m > 12):
			return 0, bad("MonthOfYear", "1 - 12", f.month)
		case f.day >= 0 && (f.day < 1 || f.day > 31):
			return 0, bad("DayOfMonth", "1 - 28/31", f.day)
		case m == 2 && d == 29 && !isLeap(y):
			return 0, ": Invalid date 'February 29' as '" + strconv.FormatInt(y, 10) + "' is not a leap year"
		case int(d) > monthDays(y, int(m)):
			return 0, ": Invalid date '" + monthNames[m-1] + " " + strconv.FormatInt(d, 10) + "'"
		}
		days = daysFromCivil(y, int(m), int(d))
	}
	h := f.hour
	switch {
	case h >= 0:
		if h > 23 {
			return 0, bad("HourOfDay", "0 - 23", h)
		}
	case f.hour12 >= 0:
		h = f.hour12
		if f.ampm == 1 {
			h += 12
		}
	default:
		h = 0
	}
	mi, se := max(f.minute, 0), max(f.second, 0)
	if mi > 59 {
		return 0, bad("MinuteOfHour", "0 - 59", mi)
	}
	if se > 59 {
		return 0, bad("SecondOfMinute", "0 - 59", se)
	}
	return days*MicrosPerDay + h*MicrosPerHour + mi*MicrosPerMinute + se*MicrosPerSecond + f.nanos/1000, ""
}

// parseLocal parses s into a wall-clock time (microseconds) and, when the
// text carries one, its offset; the error names the try_ function to
// suggest.
func (p *Pattern) parseLocal(s, try string) (local int64, off int64, hasOff bool, err *Error) {
	f, fail := p.scan(s)
	if fail != nil {
		if fail.at >= 0 {
			return 0, 0, false, errCannotParse(s, " at index "+strconv.Itoa(fail.at), try)
		}
		return 0, 0, false, errCannotParse(s, fail.why, try)
	}
	local, why := f.resolve()
	if why != "" {
		return 0, 0, false, errCannotParse(s, why, try)
	}
	return local, f.off, f.hasOff, nil
}

// ParseTimestamp is to_timestamp(s, pattern) (and unix_timestamp's and
// to_unix_timestamp's parse): the instant, in microseconds, of the text's
// wall-clock time at its offset, or in zone z (nil: UTC) without one.
func ParseTimestamp(s string, p *Pattern, z *Zone) (int64, *Error) {
	return p.parseInstant(s, z, "try_to_timestamp")
}

func (p *Pattern) parseInstant(s string, z *Zone, try string) (int64, *Error) {
	local, off, hasOff, err := p.parseLocal(s, try)
	if err != nil {
		return 0, err
	}
	switch {
	case hasOff:
		return local - off*MicrosPerSecond, nil
	case z != nil:
		return z.Instant(local, UnitMicrosecond), nil
	}
	return local, nil
}

// ParseDate is to_date(s, pattern): the date in zone z (nil: UTC) of
// ParseTimestamp's instant, as Spark casts to_timestamp's result.
func ParseDate(s string, p *Pattern, z *Zone) (int32, *Error) {
	us, err := p.parseInstant(s, z, "try_to_date")
	if err != nil {
		return 0, err
	}
	if z != nil {
		us = z.Local(us, UnitMicrosecond)
	}
	return MicrosToDate(us), nil
}

// ParseUnixSeconds is unix_timestamp(s, pattern): the seconds of
// ParseTimestamp's instant, truncated toward zero as Spark divides (a Java
// long division: 1969-12-31 23:59:59.5 is 0).
func ParseUnixSeconds(s string, p *Pattern, z *Zone) (int64, *Error) {
	us, err := ParseTimestamp(s, p, z)
	return us / MicrosPerSecond, err
}

// FormatInstant is date_format(ts, pattern) of an instant (microseconds)
// in zone z (nil: UTC).
func FormatInstant(us int64, p *Pattern, z *Zone) string {
	if z == nil {
		return p.Format(us, 0)
	}
	local := z.Local(us, UnitMicrosecond)
	return p.Format(local, (local-us)/MicrosPerSecond)
}

// FromUnixTime is from_unixtime(seconds, pattern): the instant that many
// seconds after 1970-01-01 00:00:00 UTC, formatted in zone z. Spark
// multiplies to microseconds without a check: beyond about 292,000 years
// the product wraps, as a Java long does (and a Go int64).
func FromUnixTime(sec int64, p *Pattern, z *Zone) string {
	return FormatInstant(sec*MicrosPerSecond, p, z)
}
