package sqlfn

import (
	"math"
	"strings"
	"testing"
)

func TestCastStringToInt(t *testing.T) {
	const inv = ClassCastInvalidInput
	tests := []struct {
		in    string
		want  int64
		class string
	}{
		{"0", 0, ""},
		{"123", 123, ""},
		{"-123", -123, ""},
		{"+7", 7, ""},
		{" \t42\n", 42, ""},
		{"\x00\x7f42\x01", 42, ""},
		{"9223372036854775807", math.MaxInt64, ""},
		{"-9223372036854775808", math.MinInt64, ""},
		{"0000000000000000000000000000001", 1, ""},
		{"9223372036854775808", 0, inv}, // out of range is invalid input, not CAST_OVERFLOW
		{"-9223372036854775809", 0, inv},
		{"1.0", 0, inv}, // ANSI toLongExact allows no decimal point
		{"1.", 0, inv},
		{"", 0, inv},
		{"   ", 0, inv},
		{"+", 0, inv},
		{"-", 0, inv},
		{"1 2", 0, inv},
		{"12a", 0, inv},
		{"1e3", 0, inv},
		{"\u00a012", 0, inv}, // NBSP is not trimmed
		{"١٢", 0, inv},       // non-ASCII digits
	}
	for _, tt := range tests {
		got, err := CastStringToInt64(tt.in)
		wantErr(t, "bigint "+tt.in, err, tt.class)
		if err == nil && got != tt.want {
			t.Errorf("CAST(%q AS BIGINT) = %d, want %d", tt.in, got, tt.want)
		}
	}
	if v, err := CastStringToInt32(" -2147483648 "); err != nil || v != math.MinInt32 {
		t.Errorf("int min: %d %v", v, err)
	}
	if _, err := CastStringToInt32("2147483648"); err == nil || err.Class != inv {
		t.Errorf("int overflow: %v", err)
	}
	if v, err := CastStringToInt16("-32768"); err != nil || v != math.MinInt16 {
		t.Errorf("smallint min: %d %v", v, err)
	}
	if _, err := CastStringToInt16("32768"); err == nil {
		t.Error("smallint overflow")
	}
	if v, err := CastStringToInt8("127"); err != nil || v != 127 {
		t.Errorf("tinyint max: %d %v", v, err)
	}
	if _, err := CastStringToInt8("128"); err == nil {
		t.Error("tinyint overflow")
	}
	_, err := CastStringToInt32("1.5")
	want := `[CAST_INVALID_INPUT] The value '1.5' of the type "STRING" cannot be cast to "INT" because it is malformed. ` +
		"Correct the value as per the syntax, or change its target type. Use `try_cast` to tolerate malformed input and return NULL instead."
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	if err.SQLState() != "22018" {
		t.Errorf("SQLState %q", err.SQLState())
	}
	_, err = CastStringToInt64("it's")
	if err == nil || !strings.Contains(err.Msg, `The value 'it\'s' of the type`) {
		t.Errorf("quoting: %v", err)
	}
}

func TestCastStringToBool(t *testing.T) {
	for _, s := range []string{"t", "true", "TRUE", "True", "y", "YES", "yes", "1", " true ", "\ttrue\n"} {
		if v, err := CastStringToBool(s); err != nil || !v {
			t.Errorf("CAST(%q AS BOOLEAN) = %v %v", s, v, err)
		}
	}
	for _, s := range []string{"f", "false", "FALSE", "n", "No", "0", " f"} {
		if v, err := CastStringToBool(s); err != nil || v {
			t.Errorf("CAST(%q AS BOOLEAN) = %v %v", s, v, err)
		}
	}
	for _, s := range []string{"", "2", "tru", "yess", "on", "off", "truefalse", "ｔrue"} {
		if _, err := CastStringToBool(s); err == nil || err.Class != ClassCastInvalidInput ||
			!strings.Contains(err.Msg, `"BOOLEAN"`) {
			t.Errorf("CAST(%q AS BOOLEAN): %v", s, err)
		}
	}
}

func TestCastStringToFloat(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"1.5", 1.5, true},
		{" -2.5e3 ", -2500, true},
		{".5", 0.5, true},
		{"5.", 5, true},
		{"1.5d", 1.5, true},
		{"1.5F", 1.5, true},
		{"NaN", nan, true},
		{"-Infinity", math.Inf(-1), true},
		{"+Infinity", math.Inf(1), true},
		{"nan", nan, true},
		{" INF ", math.Inf(1), true},
		{"-inf", math.Inf(-1), true},
		{"infinity", math.Inf(1), true},
		{"1e400", math.Inf(1), true},
		{"-1e400", math.Inf(-1), true},
		{"1e-400", 0, true},
		{"0x1p3", 8, true},
		{"0x1.8P1", 3, true},
		{"0.1", 0.1, true},
		{"", 0, false},
		{".", 0, false},
		{"1e", 0, false},
		{"1_0", 0, false},
		{"0x10", 0, false}, // Java needs the binary exponent
		{"abc", 0, false},
		{"NaNd", 0, false},
		{"1.5 d", 0, false},
		{"--1", 0, false},
	}
	for _, tt := range tests {
		got, err := CastStringToFloat64(tt.in)
		if tt.ok != (err == nil) {
			t.Errorf("CAST(%q AS DOUBLE) error %v", tt.in, err)
			continue
		}
		if tt.ok && !(got == tt.want || (got != got && tt.want != tt.want)) {
			t.Errorf("CAST(%q AS DOUBLE) = %v, want %v", tt.in, got, tt.want)
		}
	}
	// FLOAT parses straight to float32 (one rounding).
	if v, err := CastStringToFloat32("16777217"); err != nil || v != 16777216 {
		t.Errorf("float: %v %v", v, err)
	}
	if v, err := CastStringToFloat32("1.00000017881393432617187499"); err != nil || v != 1.0000001 {
		t.Errorf("float: %v %v", v, err)
	}
	if _, err := CastStringToFloat32("x"); err == nil || !strings.Contains(err.Msg, `"FLOAT"`) {
		t.Errorf("float: %v", err)
	}
}

func TestNarrowingCasts(t *testing.T) {
	if v, err := CastInt64ToInt32(-2147483648); err != nil || v != math.MinInt32 {
		t.Errorf("%d %v", v, err)
	}
	_, err := CastInt64ToInt32(2147483648)
	want := `[CAST_OVERFLOW] The value 2147483648L of the type "BIGINT" cannot be cast to "INT" due to an overflow. ` +
		"Use `try_cast` to tolerate overflow and return NULL instead."
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	if _, err := CastInt64ToInt16(40000); err == nil {
		t.Error("bigint->smallint")
	}
	if _, err := CastInt64ToInt8(-129); err == nil {
		t.Error("bigint->tinyint")
	}
	if v, err := CastInt32ToInt16(-32768); err != nil || v != -32768 {
		t.Errorf("int->smallint %d %v", v, err)
	}
	_, err = CastInt32ToInt8(300)
	if err == nil || !strings.Contains(err.Msg, `The value 300 of the type "INT" cannot be cast to "TINYINT"`) {
		t.Errorf("int->tinyint: %v", err)
	}
	_, err = CastInt16ToInt8(300)
	if err == nil || !strings.Contains(err.Msg, `The value 300S of the type "SMALLINT"`) {
		t.Errorf("smallint->tinyint: %v", err)
	}
}

func TestFloatToIntCasts(t *testing.T) {
	const ovf = ClassCastOverflow
	tests := []struct {
		in    float64
		want  int64
		class string
	}{
		{1.9, 1, ""},
		{-1.9, -1, ""},
		{0.5, 0, ""},
		{math.Copysign(0, -1), 0, ""},
		{9.223372036854775807e18, math.MaxInt64, ""}, // 2^63 passes Spark's check and saturates
		{-9.223372036854775808e18, math.MinInt64, ""},
		{1e19, 0, ovf},
		{-1e19, 0, ovf},
		{math.NaN(), 0, ovf},
		{math.Inf(1), 0, ovf},
	}
	for _, tt := range tests {
		got, err := CastFloat64ToInt64(tt.in)
		wantErr(t, "double->bigint", err, tt.class)
		if err == nil && got != tt.want {
			t.Errorf("CAST(%v AS BIGINT) = %d, want %d", tt.in, got, tt.want)
		}
	}
	if v, err := CastFloat64ToInt32(2147483647.9); err != nil || v != math.MaxInt32 {
		t.Errorf("double->int %d %v", v, err)
	}
	if v, err := CastFloat64ToInt32(-2147483648.9); err != nil || v != math.MinInt32 {
		t.Errorf("double->int %d %v", v, err)
	}
	_, err := CastFloat64ToInt32(2147483648)
	want := `The value 2.147483648E9D of the type "DOUBLE" cannot be cast to "INT" due to an overflow.`
	if err == nil || !strings.HasPrefix(err.Msg, want) {
		t.Errorf("got %v", err)
	}
	_, err = CastFloat64ToInt32(math.NaN())
	if err == nil || !strings.HasPrefix(err.Msg, `The value NaN of the type "DOUBLE"`) {
		t.Errorf("got %v", err)
	}
	if v, err := CastFloat64ToInt16(-32768.7); err != nil || v != -32768 {
		t.Errorf("double->smallint %d %v", v, err)
	}
	if _, err := CastFloat64ToInt16(32768); err == nil {
		t.Error("double->smallint overflow")
	}
	if v, err := CastFloat64ToInt8(127.9); err != nil || v != 127 {
		t.Errorf("double->tinyint %d %v", v, err)
	}
	if _, err := CastFloat64ToInt8(-129); err == nil {
		t.Error("double->tinyint overflow")
	}
	if v, err := CastFloat32ToInt64(-1.5); err != nil || v != -1 {
		t.Errorf("float->bigint %d %v", v, err)
	}
	if v, err := CastFloat32ToInt64(9.223372e18); err != nil || v != math.MaxInt64 {
		t.Errorf("float->bigint 2^63 %d %v", v, err)
	}
	_, err = CastFloat32ToInt32(3e9)
	if err == nil || !strings.HasPrefix(err.Msg, `The value 3.0E9 of the type "FLOAT"`) {
		t.Errorf("float->int %v", err)
	}
	if v, err := CastFloat32ToInt16(1e4); err != nil || v != 10000 {
		t.Errorf("float->smallint %d %v", v, err)
	}
	if _, err := CastFloat32ToInt8(float32(math.NaN())); err == nil {
		t.Error("float NaN->tinyint")
	}
}

func TestToStringBasics(t *testing.T) {
	if s := string(AppendInt64(nil, -42)); s != "-42" {
		t.Error(s)
	}
	if s := string(AppendBool([]byte("x="), true)); s != "x=true" {
		t.Error(s)
	}
	if s := string(AppendBool(nil, false)); s != "false" {
		t.Error(s)
	}
}

func TestBoolTo(t *testing.T) {
	if BoolTo[int8](true) != 1 || BoolTo[int8](false) != 0 || BoolTo[uint64](true) != 1 ||
		BoolTo[float64](true) != 1 || BoolTo[float64](false) != 0 || BoolTo[float32](true) != 1 || BoolTo[int64](false) != 0 {
		t.Error("BoolTo: want 1 for true and 0 for false in every width")
	}
}

func TestCastInt(t *testing.T) {
	const ovf = ClassCastOverflow
	check := func(name string, got, want int64, err *Error, class, value string) {
		t.Helper()
		wantErr(t, name, err, class)
		if class == "" && got != want {
			t.Errorf("%s = %d, want %d", name, got, want)
		}
		if err != nil && !strings.HasPrefix(err.Msg, "The value "+value+" of the type ") {
			t.Errorf("%s: message %q, want the value %s", name, err.Msg, value)
		}
	}
	u16, err := CastInt[uint16](int8(-1), "TINYINT", "SMALLINT")
	check("int8 -1 to uint16", int64(u16), 0, err, ovf, "-1")
	if err != nil && !strings.Contains(err.Msg, `"TINYINT" cannot be cast to "SMALLINT"`) {
		t.Errorf("the message names the SQL types: %q", err.Msg)
	}
	i32, err := CastInt[int32](uint64(math.MaxUint64), "BIGINT", "INT")
	check("uint64 max to int32", int64(i32), 0, err, ovf, "18446744073709551615")
	i32, err = CastInt[int32](uint64(5), "BIGINT", "INT")
	check("uint64 5 to int32", int64(i32), 5, err, "", "")
	i32, err = CastInt[int32](uint32(1<<31), "INT", "INT")
	check("uint32 2^31 to int32 (sign flips)", int64(i32), 0, err, ovf, "2147483648")
	u32, err := CastInt[uint32](int32(math.MaxInt32), "INT", "INT")
	check("int32 max to uint32", int64(u32), math.MaxInt32, err, "", "")
	i8, err := CastInt[int8](int64(-128), "BIGINT", "TINYINT")
	check("int64 -128 to int8", int64(i8), -128, err, "", "")
	i8, err = CastInt[int8](int64(-129), "BIGINT", "TINYINT")
	check("int64 -129 to int8", int64(i8), 0, err, ovf, "-129")
	i8, err = CastInt[int8](uint8(255), "SMALLINT", "TINYINT")
	check("uint8 255 to int8", int64(i8), 0, err, ovf, "255")
	u64, err := CastInt[uint64](int16(-5), "SMALLINT", "BIGINT")
	check("int16 -5 to uint64 (round-trips, but the sign flips)", int64(u64), 0, err, ovf, "-5")
	u64, err = CastInt[uint64](int64(math.MaxInt64), "BIGINT", "BIGINT")
	check("int64 max to uint64", int64(u64), math.MaxInt64, err, "", "")
	i64, err := CastInt[int64](uint64(1<<63), "BIGINT", "BIGINT")
	check("uint64 2^63 to int64", i64, 0, err, ovf, "9223372036854775808")
}
