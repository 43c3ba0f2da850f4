package format

import (
	"fmt"
	"github.com/nordisk/thund/rt/sqlfn"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// This file holds the text forms of values: how CSV and JSON lines spell each
// type, in both directions. The output forms are the `read` contract:
//
//   - bool: true, false
//   - integers: decimal
//   - floats: Spark's (Java's) Double.toString / Float.toString: the shortest
//     digits that round-trip, always with a '.', in plain notation when
//     1e-3 <= |x| < 1e7 and as d.dddE±n otherwise: 1.0, 0.5, 1234567.0,
//     1.0E7, 1.0E-4, NaN, Infinity, -Infinity, -0.0
//   - decimal(p,s): exact, with exactly s fractional digits: 1.50
//   - date32: YYYY-MM-DD
//   - timestamp: YYYY-MM-DD HH:MM:SS[.fffffffff] in UTC, the fraction with
//     trailing zeros trimmed (so at most 3/6/9 digits for ms/us/ns), as Spark
//     casts a timestamp to string
//   - duration: the integer count of the column's unit
//   - binary: standard base64
//   - string: as is
//
// Inputs accept those forms and a few more (see each parser).

// unitMult is the number of units per second.
func unitMult(u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Second:
		return 1
	case arrow.Millisecond:
		return 1e3
	case arrow.Microsecond:
		return 1e6
	}
	return 1e9
}

// daysFromCivil returns days since 1970-01-01 of a proleptic Gregorian date
// (Howard Hinnant's algorithm).
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y
	if era < 0 {
		era -= 399
	}
	era /= 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the inverse of daysFromCivil.
func civilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := z
	if era < 0 {
		era -= 146096
	}
	era /= 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	if mp < 10 {
		m = mp + 3
	} else {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return
}

func daysIn(y, m int64) int64 {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// digits parses s[i:i+n] as a decimal number.
func digits(s string, i, n int) (int64, bool) {
	if i+n > len(s) {
		return 0, false
	}
	var v int64
	for _, c := range []byte(s[i : i+n]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// parseDatePart parses YYYY-MM-DD at the start of s.
func parseDatePart(s string) (days int64, ok bool) {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return 0, false
	}
	y, ok1 := digits(s, 0, 4)
	m, ok2 := digits(s, 5, 2)
	d, ok3 := digits(s, 8, 2)
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return 0, false
	}
	return daysFromCivil(y, m, d), true
}

// ParseDate parses YYYY-MM-DD into days since the epoch.
func ParseDate(s string) (int32, error) {
	d, ok := parseDatePart(s)
	if !ok || len(s) != 10 {
		return 0, fmt.Errorf("want date32 (YYYY-MM-DD), got %s", quoteGot(s))
	}
	return int32(d), nil
}

// ParseTimestamp parses YYYY-MM-DD[( |T)HH:MM[:SS[.f{1,9}]]][ ][Z|±HH[:MM]]
// into a count of unit since the epoch. Text without an offset is UTC, for
// every column whatever its zone label (the `read` output is UTC, so output
// reads back unchanged; Þund's session time zone is UTC). A value finer than
// unit, or out of int64 range, is an error: a reader never rounds silently.
func ParseTimestamp(s string, unit arrow.TimeUnit) (int64, error) {
	v, msg := parseTimestamp(s, unit)
	if msg != "" {
		return 0, fmt.Errorf("want timestamp(%s), got %s%s", unitNames[unit], quoteGot(s), msg)
	}
	return v, nil
}

func parseTimestamp(s string, unit arrow.TimeUnit) (int64, string) {
	const bad = " (want YYYY-MM-DD HH:MM:SS[.fraction][Z|±HH:MM])"
	days, ok := parseDatePart(s)
	if !ok {
		return 0, bad
	}
	var h, mi, sec, nanos int64
	i := 10
	if i < len(s) && (s[i] == ' ' || s[i] == 'T' || s[i] == 't') && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
		i++
		var ok1, ok2 bool
		h, ok1 = digits(s, i, 2)
		if !ok1 || i+2 >= len(s) || s[i+2] != ':' {
			return 0, bad
		}
		mi, ok2 = digits(s, i+3, 2)
		if !ok2 || h > 23 || mi > 59 {
			return 0, bad
		}
		i += 5
		if i < len(s) && s[i] == ':' {
			var ok3 bool
			sec, ok3 = digits(s, i+1, 2)
			if !ok3 || sec > 59 {
				return 0, bad
			}
			i += 3
			if i < len(s) && s[i] == '.' {
				i++
				n := 0
				for i < len(s) && s[i] >= '0' && s[i] <= '9' {
					if n == 9 {
						return 0, " (more than 9 fractional digits)"
					}
					nanos = nanos*10 + int64(s[i]-'0')
					n++
					i++
				}
				if n == 0 {
					return 0, bad
				}
				for ; n < 9; n++ {
					nanos *= 10
				}
			}
		}
	}
	// Offset.
	var off int64
	if i < len(s) && s[i] == ' ' {
		i++
		if i == len(s) {
			return 0, bad
		}
	}
	if i < len(s) {
		switch c := s[i]; {
		case c == 'Z' || c == 'z':
			i++
		case c == '+' || c == '-':
			oh, ok := digits(s, i+1, 2)
			if !ok || oh > 18 {
				return 0, bad
			}
			i += 3
			var om int64
			if i < len(s) && s[i] == ':' {
				i++
			}
			if i < len(s) {
				om, ok = digits(s, i, 2)
				if !ok || om > 59 {
					return 0, bad
				}
				i += 2
			}
			off = oh*3600 + om*60
			if c == '-' {
				off = -off
			}
		case s[i:] == "UTC":
			i += 3
		}
	}
	if i != len(s) {
		return 0, bad
	}
	secs := days*86400 + h*3600 + mi*60 + sec - off
	mult := unitMult(unit)
	div := 1e9 / mult
	if nanos%div != 0 {
		return 0, fmt.Sprintf(" (finer than %s)", unitNames[unit])
	}
	f := nanos / div
	if limit := math.MaxInt64 / mult; secs <= -limit || secs >= limit {
		// Near the ends of the int64 range: compute exactly.
		v := new(big.Int).Mul(big.NewInt(secs), big.NewInt(mult))
		v.Add(v, big.NewInt(f))
		if !v.IsInt64() {
			return 0, " (out of range)"
		}
		return v.Int64(), ""
	}
	return secs*mult + f, ""
}

// ParseDecimal parses [+-]digits[.digits][(e|E)[+-]digits] exactly into a
// decimal(prec, scale). A value that would need rounding (nonzero digits beyond
// scale) or that has more than prec digits is an error.
func ParseDecimal(s string, prec, scale int32) (decimal128.Num, error) {
	n, msg := parseDecimal(s, prec, scale)
	if msg != "" {
		return n, fmt.Errorf("want decimal(%d,%d), got %s%s", prec, scale, quoteGot(s), msg)
	}
	return n, nil
}

func parseDecimal(s string, prec, scale int32) (decimal128.Num, string) {
	const bad = ""
	t := s
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	mant, exp := t, int64(0)
	if i := strings.IndexAny(t, "eE"); i >= 0 {
		mant = t[:i]
		e, err := strconv.ParseInt(t[i+1:], 10, 32)
		if err != nil {
			return decimal128.Num{}, " (not a number)"
		}
		exp = e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart == "" && frac == "" {
		return decimal128.Num{}, " (not a number)"
	}
	ds := make([]byte, 0, len(intPart)+len(frac)+int(scale))
	for _, p := range []string{intPart, frac} {
		for _, c := range []byte(p) {
			if c < '0' || c > '9' {
				return decimal128.Num{}, " (not a number)"
			}
			ds = append(ds, c)
		}
	}
	// The text's value is ds × 10^-(len(frac)-exp); bring it to scale.
	shift := int64(scale) - (int64(len(frac)) - exp)
	switch {
	case shift < 0:
		k := -shift
		if k > int64(len(ds)) {
			k = int64(len(ds))
			shift = -k
			for _, c := range ds {
				if c != '0' {
					return decimal128.Num{}, fmt.Sprintf(" (more than %d fractional digits)", scale)
				}
			}
			ds = ds[:0]
		} else {
			for _, c := range ds[int64(len(ds))-k:] {
				if c != '0' {
					return decimal128.Num{}, fmt.Sprintf(" (more than %d fractional digits)", scale)
				}
			}
			ds = ds[:int64(len(ds))-k]
		}
	case shift > 0:
		if shift > 80 {
			// Only zero survives such a shift within 38 digits.
			allZero := true
			for _, c := range ds {
				allZero = allZero && c == '0'
			}
			if !allZero {
				return decimal128.Num{}, fmt.Sprintf(" (more than %d digits)", prec)
			}
			ds = ds[:0]
		} else {
			for range shift {
				ds = append(ds, '0')
			}
		}
	}
	for len(ds) > 0 && ds[0] == '0' {
		ds = ds[1:]
	}
	if int32(len(ds)) > prec {
		return decimal128.Num{}, fmt.Sprintf(" (more than %d digits)", prec)
	}
	var n decimal128.Num
	if len(ds) <= 18 {
		var u int64
		for _, c := range ds {
			u = u*10 + int64(c-'0')
		}
		n = decimal128.FromI64(u)
	} else {
		b, _ := new(big.Int).SetString(string(ds), 10)
		n = decimal128.FromBigInt(b)
	}
	if neg {
		n = n.Negate()
	}
	return n, bad
}

// AppendDecimal appends n at scale exactly, with scale fractional digits:
// the text of CAST(decimal AS STRING) (sqlfn.AppendDecimal), so that read
// and SQL agree.
func AppendDecimal(dst []byte, n decimal128.Num, scale int32) []byte {
	return sqlfn.AppendDecimal(dst, n, scale)
}

// AppendFloat appends v in Java's Double.toString (bits 64) or Float.toString
// (bits 32) layout, with the shortest digits that round-trip at that width,
// as DESIGN.md's read contract says. It differs from CAST(double AS STRING)
// (sqlfn.AppendFloat64, Java's exact digit rules) only where Java prints more
// digits than round-tripping needs, e.g. 5.0E-324 here, 4.9E-324 there.
func AppendFloat(dst []byte, v float64, bits int) []byte {
	switch {
	case math.IsNaN(v):
		return append(dst, "NaN"...)
	case math.IsInf(v, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(v, -1):
		return append(dst, "-Infinity"...)
	case v == 0:
		if math.Signbit(v) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], v, 'e', -1, bits) // -d.ddde±XX
	if e[0] == '-' {
		dst = append(dst, '-')
		e = e[1:]
	}
	ei := 0
	for e[ei] != 'e' {
		ei++
	}
	mant := e[:ei]
	exp, _ := strconv.Atoi(string(e[ei+1:]))
	ds := make([]byte, 0, len(mant))
	for _, c := range mant {
		if c != '.' {
			ds = append(ds, c)
		}
	}
	abs := math.Abs(v)
	if abs >= 1e-3 && abs < 1e7 {
		// Plain: the point goes after digit exp (0-based) of ds.
		if exp < 0 {
			dst = append(dst, '0', '.')
			for range -exp - 1 {
				dst = append(dst, '0')
			}
			return append(dst, ds...)
		}
		for len(ds) <= exp {
			ds = append(ds, '0')
		}
		dst = append(dst, ds[:exp+1]...)
		dst = append(dst, '.')
		if len(ds) == exp+1 {
			return append(dst, '0')
		}
		return append(dst, ds[exp+1:]...)
	}
	dst = append(dst, ds[0], '.')
	if len(ds) == 1 {
		dst = append(dst, '0')
	} else {
		dst = append(dst, ds[1:]...)
	}
	dst = append(dst, 'E')
	return strconv.AppendInt(dst, int64(exp), 10)
}

// AppendDate appends days since the epoch as YYYY-MM-DD.
func AppendDate(dst []byte, days int64) []byte {
	y, m, d := civilFromDays(days)
	dst = appendYear(dst, y)
	dst = append(dst, '-', byte('0'+m/10), byte('0'+m%10), '-', byte('0'+d/10), byte('0'+d%10))
	return dst
}

func appendYear(dst []byte, y int64) []byte {
	if y < 0 {
		dst = append(dst, '-')
		y = -y
	}
	if y > 9999 {
		return strconv.AppendInt(dst, y, 10)
	}
	return append(dst, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10))
}

func floorDiv(a, b int64) (q, r int64) {
	q, r = a/b, a%b
	if r < 0 {
		q--
		r += b
	}
	return
}

// AppendTimestamp appends v (a count of unit since the epoch) as
// YYYY-MM-DD HH:MM:SS[.f], in UTC, fraction trimmed of trailing zeros.
func AppendTimestamp(dst []byte, v int64, unit arrow.TimeUnit) []byte {
	mult := unitMult(unit)
	secs, sub := floorDiv(v, mult)
	nanos := sub * (1e9 / mult)
	days, sod := floorDiv(secs, 86400)
	dst = AppendDate(dst, days)
	h, mi, s := sod/3600, sod/60%60, sod%60
	dst = append(dst, ' ', byte('0'+h/10), byte('0'+h%10), ':', byte('0'+mi/10), byte('0'+mi%10), ':', byte('0'+s/10), byte('0'+s%10))
	if nanos != 0 {
		var f [9]byte
		for i := 8; i >= 0; i-- {
			f[i] = byte('0' + nanos%10)
			nanos /= 10
		}
		n := 9
		for f[n-1] == '0' {
			n--
		}
		dst = append(dst, '.')
		dst = append(dst, f[:n]...)
	}
	return dst
}
