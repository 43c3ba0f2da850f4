package sqlfn

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// Error is a Spark-style runtime error. Class is Spark's error condition
// name, with the sub-condition after a dot where Spark has one
// (NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION); Msg is the rendered message
// without the "[CLASS] " prefix, worded as Spark 4 words it
// (common/utils/src/main/resources/error/error-conditions.json).
//
// Errors are built only on the failing path, by the non-inlined constructors
// below, so the functions that return them stay small enough to inline.
type Error struct {
	Class string
	Msg   string
}

// Error renders the error the way Spark prints it: "[CLASS] message". A
// Java exception that Spark raises without an error condition has no
// Class, and its Msg names the exception.
func (e *Error) Error() string {
	if e.Class == "" {
		return e.Msg
	}
	return "[" + e.Class + "] " + e.Msg
}

// SQLState is the SQLSTATE Spark attaches to the error's condition, or ""
// for a condition this package does not know.
func (e *Error) SQLState() string {
	class, _, _ := strings.Cut(e.Class, ".")
	switch class {
	case ClassArithmeticOverflow, ClassBinaryArithmeticOverflow, ClassCastOverflow,
		ClassNumericValueOutOfRange, ClassNumericOutOfSupportedRange, ClassNegativeFrequency,
		ClassInvalidIndexOfZero, ClassInvalidArrayIndex:
		return "22003"
	case ClassDivideByZero, ClassRemainderByZero:
		return "22012"
	case ClassCastInvalidInput, ClassConversionInvalidInput:
		return "22018"
	case ClassCannotDecodeURL:
		return "22546"
	case ClassMalformedCharacterCoding:
		return "22000"
	case ClassUnsupportedFeature:
		return "0A000"
	case ClassInvalidUTF8String:
		return "22029"
	case ClassInvalidFormat:
		return "42601"
	case ClassInvalidParameterValue, ClassInvalidRegexpReplace, ClassDatetimeFieldOutOfBounds:
		return "22023"
	case ClassUserRaisedException:
		return "P0001"
	case ClassIllegalDayOfWeek:
		return "22009"
	case ClassDatetimeOverflow:
		return "22008"
	case ClassCannotParseTimestamp:
		return "22007"
	case ClassIntervalArithmeticOverflow: // interval_make.go
		return "22015"
	}
	return ""
}

// Spark error condition names used by this package.
const (
	ClassArithmeticOverflow         = "ARITHMETIC_OVERFLOW"
	ClassBinaryArithmeticOverflow   = "BINARY_ARITHMETIC_OVERFLOW"
	ClassDivideByZero               = "DIVIDE_BY_ZERO"
	ClassRemainderByZero            = "REMAINDER_BY_ZERO"
	ClassCastInvalidInput           = "CAST_INVALID_INPUT"
	ClassCastOverflow               = "CAST_OVERFLOW"
	ClassNumericValueOutOfRange     = "NUMERIC_VALUE_OUT_OF_RANGE"
	ClassNumericOutOfSupportedRange = "NUMERIC_OUT_OF_SUPPORTED_RANGE"
	ClassInvalidFormat              = "INVALID_FORMAT"
	ClassInvalidParameterValue      = "INVALID_PARAMETER_VALUE"
	ClassUserRaisedException        = "USER_RAISED_EXCEPTION"
	ClassNegativeFrequency          = "NEGATIVE_VALUES_IN_FREQUENCY_EXPRESSION" // percentile's frequency
	ClassInvalidIndexOfZero         = "INVALID_INDEX_OF_ZERO"                   // split_part
	ClassInvalidArrayIndex          = "INVALID_ARRAY_INDEX"                     // elt
	ClassInvalidRegexpReplace       = "INVALID_REGEXP_REPLACE"                  // regexp_replace
	ClassInvalidUTF8String          = "INVALID_UTF8_STRING"                     // validate_utf8
	ClassConversionInvalidInput     = "CONVERSION_INVALID_INPUT"
	ClassCannotDecodeURL            = "CANNOT_DECODE_URL"
	ClassMalformedCharacterCoding   = "MALFORMED_CHARACTER_CODING"
	ClassUnsupportedFeature         = "UNSUPPORTED_FEATURE"
)

// ansiConf is how Spark quotes the ANSI switch in its messages (toSQLConf).
const ansiConf = `"spark.sql.ansi.enabled"`

// SQL type names as Spark's toSQLType prints them (without the quotes): the
// compiler's ir.Type.SQL spelling, which rt cannot import; codegen's
// TestRuntimeSQLTypeSpelling keeps the two equal.
const (
	TypeTinyint   = "TINYINT"
	TypeSmallint  = "SMALLINT"
	TypeInt       = "INT"
	TypeBigint    = "BIGINT"
	TypeFloat     = "FLOAT"
	TypeDouble    = "DOUBLE"
	TypeString    = "STRING"
	TypeBoolean   = "BOOLEAN"
	TypeDate      = "DATE"
	TypeTimestamp = "TIMESTAMP"
)

// DecimalTypeName is Spark's name for decimal(p,s): "DECIMAL(p,s)".
func DecimalTypeName(p, s int32) string {
	return "DECIMAL(" + strconv.Itoa(int(p)) + "," + strconv.Itoa(int(s)) + ")"
}

// ErrArithmeticOverflow builds ARITHMETIC_OVERFLOW the way MathUtils.withOverflow
// does: message is the Java ArithmeticException text ("long overflow"), hint
// the try_ function Spark suggests ("try_add"), or "" for none.
//
//go:noinline
func ErrArithmeticOverflow(message, hint string) *Error {
	alt := ""
	if hint != "" {
		alt = " Use '" + hint + "' to tolerate overflow and return NULL instead."
	}
	return &Error{Class: ClassArithmeticOverflow,
		Msg: message + "." + alt + " If necessary set " + ansiConf + " to \"false\" to bypass this error."}
}

// ErrDecimalSumOverflow is ARITHMETIC_OVERFLOW for a decimal sum (or the
// sum of an avg) that leaves its type: Spark adds without a check, keeps
// NULL on overflow and fails when the aggregate is evaluated
// (CheckOverflowInSum, DecimalDivideWithOverflowCheck); hint is try_sum or
// try_avg.
//
//go:noinline
func ErrDecimalSumOverflow(hint string) *Error {
	return ErrArithmeticOverflow("Overflow in sum of decimals", hint)
}

// ErrDivideByZero builds DIVIDE_BY_ZERO.
//
//go:noinline
func ErrDivideByZero() *Error {
	return &Error{Class: ClassDivideByZero,
		Msg: "Division by zero. Use `try_divide` to tolerate divisor being 0 and return NULL instead. If necessary set " +
			ansiConf + " to \"false\" to bypass this error."}
}

// ErrRemainderByZero builds REMAINDER_BY_ZERO: %, mod and pmod by zero, of
// any numeric type (Spark 4.1.4 and 4.2.1; division keeps DIVIDE_BY_ZERO).
//
//go:noinline
func ErrRemainderByZero() *Error {
	return &Error{Class: ClassRemainderByZero,
		Msg: "Remainder by zero. Use `try_mod` to tolerate divisor being 0 and return NULL instead. If necessary set " +
			ansiConf + " to \"false\" to bypass this error."}
}

// ErrCastInvalidInput builds CAST_INVALID_INPUT for a string that does not
// parse as the target type (a SQL type name such as TypeInt).
//
//go:noinline
func ErrCastInvalidInput(s string, target string) *Error {
	return &Error{Class: ClassCastInvalidInput,
		Msg: "The value " + sqlString(s) + " of the type \"STRING\" cannot be cast to \"" + target +
			"\" because it is malformed. Correct the value as per the syntax, or change its target type. " +
			"Use `try_cast` to tolerate malformed input and return NULL instead."}
}

// ErrCastOverflow builds CAST_OVERFLOW; value is already rendered the way
// Spark's toSQLValue renders it (see the SQLValue* helpers).
//
//go:noinline
func ErrCastOverflow(value, source, target string) *Error {
	return &Error{Class: ClassCastOverflow,
		Msg: "The value " + value + " of the type \"" + source + "\" cannot be cast to \"" + target +
			"\" due to an overflow. Use `try_cast` to tolerate overflow and return NULL instead."}
}

// ErrNumericValueOutOfRange builds NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION
// (Decimal.toPrecision failing under ANSI); value is the plain decimal string.
//
//go:noinline
func ErrNumericValueOutOfRange(value string, p, s int32) *Error {
	return &Error{Class: ClassNumericValueOutOfRange + ".WITH_SUGGESTION",
		Msg: value + " cannot be represented as Decimal(" + strconv.Itoa(int(p)) + ", " + strconv.Itoa(int(s)) +
			"). If necessary set " + ansiConf + " to \"false\" to bypass this error, and return NULL instead."}
}

//go:noinline
func errNumericOutOfSupportedRange(s string) *Error {
	return &Error{Class: ClassNumericOutOfSupportedRange,
		Msg: "The value " + sqlString(s) + " cannot be interpreted as a numeric since it has more than 38 digits."}
}

// binary arithmetic operators for the overflow messages.
const (
	opAdd = iota
	opSub
	opMul
)

var opSymbol = [...]string{"+", "-", "*"}
var opHint = [...]string{"try_add", "try_subtract", "try_multiply"}

// errIntOverflow is Math.addExact & co. failing for INT.
//
//go:noinline
func errIntOverflow(op int) *Error { return ErrArithmeticOverflow("integer overflow", opHint[op]) }

//go:noinline
func errLongOverflow(op int) *Error { return ErrArithmeticOverflow("long overflow", opHint[op]) }

// errSmallOverflow is BINARY_ARITHMETIC_OVERFLOW for TINYINT and SMALLINT.
// Spark's factory takes Short arguments, so even a TINYINT operand is
// rendered with the SMALLINT suffix "S" (ByteExactNumeric widens to Short).
//
//go:noinline
func errSmallOverflow(a int64, op int, b int64) *Error {
	return &Error{Class: ClassBinaryArithmeticOverflow,
		Msg: strconv.FormatInt(a, 10) + "S " + opSymbol[op] + " " + strconv.FormatInt(b, 10) +
			"S caused overflow. Use `" + opHint[op] + "` to ignore overflow problem and return NULL."}
}

//go:noinline
func errIntAdd() *Error { return errIntOverflow(opAdd) }

//go:noinline
func errIntSub() *Error { return errIntOverflow(opSub) }

//go:noinline
func errIntMul() *Error { return errIntOverflow(opMul) }

//go:noinline
func errLongAdd() *Error { return errLongOverflow(opAdd) }

//go:noinline
func errLongSub() *Error { return errLongOverflow(opSub) }

//go:noinline
func errLongMul() *Error { return errLongOverflow(opMul) }

//go:noinline
func errSmallAdd8(a, b int8) *Error { return errSmallOverflow(int64(a), opAdd, int64(b)) }

//go:noinline
func errSmallSub8(a, b int8) *Error { return errSmallOverflow(int64(a), opSub, int64(b)) }

//go:noinline
func errSmallMul8(a, b int8) *Error { return errSmallOverflow(int64(a), opMul, int64(b)) }

//go:noinline
func errSmallAdd16(a, b int16) *Error { return errSmallOverflow(int64(a), opAdd, int64(b)) }

//go:noinline
func errSmallSub16(a, b int16) *Error { return errSmallOverflow(int64(a), opSub, int64(b)) }

//go:noinline
func errSmallMul16(a, b int16) *Error { return errSmallOverflow(int64(a), opMul, int64(b)) }

//go:noinline
func errNegLong() *Error { return errNegOverflow("long") }

//go:noinline
func errNegInteger() *Error { return errNegOverflow("integer") }

//go:noinline
func errNegShort() *Error { return errNegOverflow("short") }

//go:noinline
func errNegByte() *Error { return errNegOverflow("byte") }

//go:noinline
func errNegOverflow(typeWord string) *Error { return ErrArithmeticOverflow(typeWord+" overflow", "") }

//go:noinline
func errUnsignedOverflow(op int) *Error {
	return ErrArithmeticOverflow("unsigned overflow", opHint[op])
}

//go:noinline
func errNegUnsigned() *Error { return ErrArithmeticOverflow("unsigned overflow", "") }

//go:noinline
func errIntegralDivideOverflow() *Error {
	return ErrArithmeticOverflow("Overflow in integral divide", "try_divide")
}

//go:noinline
func errCastIntOverflow(v int64, suffix, source, target string) *Error {
	return ErrCastOverflow(strconv.FormatInt(v, 10)+suffix, source, target)
}

//go:noinline
func errCastFloatOverflow(v float64, isFloat32 bool, target string) *Error {
	if isFloat32 {
		return ErrCastOverflow(SQLValueFloat32(float32(v)), TypeFloat, target)
	}
	return ErrCastOverflow(SQLValueFloat64(v), TypeDouble, target)
}

//go:noinline
func errCastDecimalOverflow(v decimal128.Num, p, s int32, target string) *Error {
	return ErrCastOverflow(string(AppendDecimal(nil, v, s))+"BD", DecimalTypeName(p, s), target)
}

// sqlString renders a string literal as Spark's Literal.sql does: single
// quotes, with backslash and quote escaped.
func sqlString(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' || s[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('\'')
	return b.String()
}

// SQLValueFloat64 renders a DOUBLE as toSQLValue does in error messages:
// NaN, Infinity, -Infinity, or Java's Double.toString followed by "D".
func SQLValueFloat64(v float64) string {
	b := AppendFloat64(nil, v)
	switch string(b) {
	case "NaN", "Infinity", "-Infinity":
		return string(b)
	}
	return string(b) + "D"
}

// SQLValueFloat32 renders a FLOAT as toSQLValue does: Java's Float.toString.
func SQLValueFloat32(v float32) string { return string(AppendFloat32(nil, v)) }
