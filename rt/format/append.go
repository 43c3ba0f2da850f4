package format

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// textAppender parses the text of one value and appends it to its builder.
// Its error says what was wanted and what was got; the caller adds the place.
type textAppender func(s string) error

func wantGot(dt arrow.DataType, s, why string) error {
	return fmt.Errorf("want %s, got %s%s", TypeString(dt), quoteGot(s), why)
}

// newTextAppender returns the parser for one column: the text forms in
// text.go, plus what readers also accept:
//
//   - bool: true/false in any case
//   - integers: optional sign, decimal digits (no spaces, no fraction)
//   - floats: strconv.ParseFloat (so also inf, infinity, nan in any case)
//   - decimals: exact, exponent allowed (1.5e2); never rounded
//   - timestamps: see ParseTimestamp; dates: YYYY-MM-DD
//   - durations: an integer count of the unit
//   - binary: standard base64; strings: valid UTF-8
func newTextAppender(dt arrow.DataType, b array.Builder) (textAppender, error) {
	switch t := dt.(type) {
	case *arrow.BooleanType:
		bb := b.(*array.BooleanBuilder)
		return func(s string) error {
			switch {
			case strings.EqualFold(s, "true"):
				bb.Append(true)
			case strings.EqualFold(s, "false"):
				bb.Append(false)
			default:
				return wantGot(dt, s, "")
			}
			return nil
		}, nil
	case *arrow.Int8Type:
		bb := b.(*array.Int8Builder)
		return intAppender(dt, 8, func(v int64) { bb.Append(int8(v)) }), nil
	case *arrow.Int16Type:
		bb := b.(*array.Int16Builder)
		return intAppender(dt, 16, func(v int64) { bb.Append(int16(v)) }), nil
	case *arrow.Int32Type:
		bb := b.(*array.Int32Builder)
		return intAppender(dt, 32, func(v int64) { bb.Append(int32(v)) }), nil
	case *arrow.Int64Type:
		bb := b.(*array.Int64Builder)
		return intAppender(dt, 64, bb.Append), nil
	case *arrow.Uint8Type:
		bb := b.(*array.Uint8Builder)
		return uintAppender(dt, 8, func(v uint64) { bb.Append(uint8(v)) }), nil
	case *arrow.Uint16Type:
		bb := b.(*array.Uint16Builder)
		return uintAppender(dt, 16, func(v uint64) { bb.Append(uint16(v)) }), nil
	case *arrow.Uint32Type:
		bb := b.(*array.Uint32Builder)
		return uintAppender(dt, 32, func(v uint64) { bb.Append(uint32(v)) }), nil
	case *arrow.Uint64Type:
		bb := b.(*array.Uint64Builder)
		return uintAppender(dt, 64, bb.Append), nil
	case *arrow.Float32Type:
		bb := b.(*array.Float32Builder)
		return func(s string) error {
			v, err := strconv.ParseFloat(s, 32)
			if err != nil {
				return wantGot(dt, s, rangeWhy(err))
			}
			bb.Append(float32(v))
			return nil
		}, nil
	case *arrow.Float64Type:
		bb := b.(*array.Float64Builder)
		return func(s string) error {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return wantGot(dt, s, rangeWhy(err))
			}
			bb.Append(v)
			return nil
		}, nil
	case *arrow.Decimal128Type:
		bb := b.(*array.Decimal128Builder)
		return func(s string) error {
			n, why := parseDecimal(s, t.Precision, t.Scale)
			if why != "" || s == "" {
				return wantGot(dt, s, why)
			}
			bb.Append(n)
			return nil
		}, nil
	case *arrow.StringType:
		bb := b.(*array.StringBuilder)
		return func(s string) error {
			if !utf8.ValidString(s) {
				return wantGot(dt, s, " (invalid UTF-8)")
			}
			bb.Append(s)
			return nil
		}, nil
	case *arrow.BinaryType:
		bb := b.(*array.BinaryBuilder)
		return func(s string) error {
			v, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return wantGot(dt, s, " (not base64)")
			}
			bb.Append(v)
			return nil
		}, nil
	case *arrow.Date32Type:
		bb := b.(*array.Date32Builder)
		return func(s string) error {
			d, ok := parseDatePart(s)
			if !ok || len(s) != 10 {
				return wantGot(dt, s, " (want YYYY-MM-DD)")
			}
			bb.Append(arrow.Date32(d))
			return nil
		}, nil
	case *arrow.TimestampType:
		bb := b.(*array.TimestampBuilder)
		return func(s string) error {
			v, why := parseTimestamp(s, t.Unit)
			if why != "" {
				return wantGot(dt, s, why)
			}
			bb.Append(arrow.Timestamp(v))
			return nil
		}, nil
	case *arrow.DurationType:
		bb := b.(*array.DurationBuilder)
		return func(s string) error {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return wantGot(dt, s, " (want an integer count of "+unitNames[t.Unit]+")")
			}
			bb.Append(arrow.Duration(v))
			return nil
		}, nil
	}
	return nil, fmt.Errorf("type %s is not supported", dt)
}

func rangeWhy(err error) string {
	if errors.Is(err, strconv.ErrRange) {
		return " (out of range)"
	}
	return ""
}

func intAppender(dt arrow.DataType, bits int, app func(int64)) textAppender {
	return func(s string) error {
		v, err := strconv.ParseInt(s, 10, bits)
		if err != nil {
			return wantGot(dt, s, rangeWhy(err))
		}
		app(v)
		return nil
	}
}

func uintAppender(dt arrow.DataType, bits int, app func(uint64)) textAppender {
	return func(s string) error {
		v, err := strconv.ParseUint(strings.TrimPrefix(s, "+"), 10, bits)
		if err != nil {
			if s != "" && s[0] == '-' {
				return wantGot(dt, s, " (negative)")
			}
			return wantGot(dt, s, rangeWhy(err))
		}
		app(v)
		return nil
	}
}
