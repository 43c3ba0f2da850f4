package passes

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/nordisk/thund/ir"
)

// This file holds Spark 4's ANSI typing rules over the model's Arrow types:
// literal types, numeric widening, the common type of several operands,
// decimal arithmetic (Spark's DecimalPrecision), comparability, cast
// legality (Cast.canAnsiCast) and store assignment (Cast.canANSIStoreAssign).
//
// Unlike Spark, strings are never implicitly converted to another type: a
// string compared with a timestamp is an error that names the fix, rather
// than a run-time parse.
//
// Literals take the coarsest time unit that holds them exactly (10s is
// duration(s), timestamp '2024-01-01 00:00:00.250' is timestamp(ms)), and
// arithmetic takes the finer unit of its operands, so a literal never makes a
// column's unit finer.

// maxPrecision is Spark's DecimalType.MAX_PRECISION.
const maxPrecision = 38

// minAdjustedScale is Spark's DecimalType.MINIMUM_ADJUSTED_SCALE.
const minAdjustedScale = 6

// integerDecimal is the decimal each integer kind converts to in decimal
// arithmetic (Spark's DecimalType.forType; unsigned kinds by their range).
var integerDecimal = map[ir.TypeKind]int{
	ir.TInt8: 3, ir.TInt16: 5, ir.TInt32: 10, ir.TInt64: 20,
	ir.TUint8: 3, ir.TUint16: 5, ir.TUint32: 10, ir.TUint64: 20,
}

// integerBits gives the width of each integer kind.
var integerBits = map[ir.TypeKind]int{
	ir.TInt8: 8, ir.TInt16: 16, ir.TInt32: 32, ir.TInt64: 64,
	ir.TUint8: 8, ir.TUint16: 16, ir.TUint32: 32, ir.TUint64: 64,
}

var signedOfBits = map[int]ir.Type{8: ir.Int8, 16: ir.Int16, 32: ir.Int32, 64: ir.Int64}
var unsignedOfBits = map[int]ir.Type{8: ir.Uint8, 16: ir.Uint16, 32: ir.Uint32, 64: ir.Uint64}

func isUnknown(t ir.Type) bool { return t.Kind == ir.TUnknown }

// isTime reports date or timestamp.
func isTime(t ir.Type) bool { return t.Kind == ir.TDate32 || t.Kind == ir.TTimestamp }

// adjustPrecisionScale is Spark's DecimalType.adjustPrecisionScale with
// allowPrecisionLoss (the default): a result wider than 38 digits keeps its
// integer digits and gives up scale, down to at least 6.
func adjustPrecisionScale(p, s int) ir.Type {
	if p <= maxPrecision {
		return ir.Decimal(p, s)
	}
	intDigits := p - s
	minScale := min(s, minAdjustedScale)
	return ir.Decimal(maxPrecision, max(maxPrecision-intDigits, minScale))
}

// boundedDecimal is Spark's DecimalType.bounded.
func boundedDecimal(p, s int) ir.Type {
	return ir.Decimal(min(p, maxPrecision), min(s, maxPrecision))
}

// toDecimal converts an integer or decimal type to the decimal it widens to.
func toDecimal(t ir.Type) ir.Type {
	if t.Kind == ir.TDecimal {
		return t
	}
	return ir.Decimal(integerDecimal[t.Kind], 0)
}

// widerDecimal is Spark's DecimalPrecision.widerDecimalType.
func widerDecimal(a, b ir.Type) ir.Type {
	s := max(a.Scale, b.Scale)
	r := max(a.Precision-a.Scale, b.Precision-b.Scale)
	return boundedDecimal(r+s, s)
}

// integerCommon is the narrowest type holding every value of two integer
// types: the wider signed type, or for a signed and an unsigned operand a
// signed type twice the unsigned width (decimal(20,0) past uint32).
func integerCommon(a, b ir.Type) ir.Type {
	ba, bb := integerBits[a.Kind], integerBits[b.Kind]
	switch {
	case a.IsSigned() && b.IsSigned():
		return signedOfBits[max(ba, bb)]
	case a.IsUnsigned() && b.IsUnsigned():
		return unsignedOfBits[max(ba, bb)]
	}
	s, u := a, b
	if a.IsUnsigned() {
		s, u = b, a
	}
	need := integerBits[u.Kind] * 2
	if need > 64 {
		return ir.Decimal(20, 0)
	}
	return signedOfBits[max(need, integerBits[s.Kind])]
}

// numericCommon widens two numeric types: int8 < int16 < int32 < int64 <
// decimal < float32 < float64, except that a decimal and a float32 meet at
// float64 (Spark's findWiderTypeForTwo).
func numericCommon(a, b ir.Type) ir.Type {
	switch {
	case a == b:
		return a
	case a.Kind == ir.TFloat64 || b.Kind == ir.TFloat64:
		return ir.Float64
	case a.Kind == ir.TFloat32 || b.Kind == ir.TFloat32:
		if a.Kind == ir.TDecimal || b.Kind == ir.TDecimal {
			return ir.Float64
		}
		return ir.Float32
	case a.Kind == ir.TDecimal || b.Kind == ir.TDecimal:
		return widerDecimal(toDecimal(a), toDecimal(b))
	}
	return integerCommon(a, b)
}

func finerUnit(a, b ir.TimeUnit) ir.TimeUnit { return max(a, b) }

// mergeZone picks the zone of a common timestamp type: the shared zone, the
// only zone given (TIMESTAMP_NTZ widens to TIMESTAMP), or UTC.
func mergeZone(a, b string) string {
	switch {
	case a == b:
		return a
	case a == "":
		return b
	case b == "":
		return a
	}
	return "UTC"
}

// commonType is the type two operands meet at (CASE branches, COALESCE, IN
// lists, UNION columns, several flows into one table), or false when there
// is none. NULL (TUnknown) meets anything.
func commonType(a, b ir.Type) (ir.Type, bool) {
	switch {
	case isUnknown(a):
		return b, true
	case isUnknown(b):
		return a, true
	case a == b:
		return a, true
	case a.IsNested() || b.IsNested():
		return commonNested(a, b) // nested.go
	case a.IsNumeric() && b.IsNumeric():
		return numericCommon(a, b), true
	case a.Kind == ir.TTimestamp && b.Kind == ir.TTimestamp:
		return ir.Timestamp(finerUnit(a.Unit, b.Unit), mergeZone(a.Zone, b.Zone)), true
	case a.Kind == ir.TTimestamp && b.Kind == ir.TDate32:
		return a, true
	case a.Kind == ir.TDate32 && b.Kind == ir.TTimestamp:
		return b, true
	case a.Kind == ir.TDuration && b.Kind == ir.TDuration:
		return ir.DurationType(finerUnit(a.Unit, b.Unit)), true
	}
	return ir.Type{}, false
}

// comparable reports whether two types may be compared: numeric with
// numeric, string with string, date/timestamp with date/timestamp, and
// otherwise like with like. NULL compares with anything.
func comparable(a, b ir.Type) bool {
	switch {
	case isUnknown(a) || isUnknown(b):
		return true
	case a.IsNested() || b.IsNested():
		return comparableNested(a, b) // nested.go
	case a.IsNumeric() && b.IsNumeric():
		return true
	case isTime(a) && isTime(b):
		return true
	}
	return a.Kind == b.Kind
}

// compareHint names the fix for two operands whose types do not compare.
func compareHint(a, b ir.Type, ea, eb ir.Expr) string {
	var other ir.Type
	var str ir.Expr
	switch {
	case a.Kind == ir.TString:
		other, str = b, ea
	case b.Kind == ir.TString:
		other, str = a, eb
	default:
		return "cast one side to the other's type, e.g. cast(x as " + a.String() + ")"
	}
	lit, _ := str.(*ir.Literal)
	isLit := lit != nil && lit.Kind == ir.LitString
	switch {
	case other.Kind == ir.TTimestamp && isLit:
		return "cast the string with timestamp '" + lit.Text + "'"
	case other.Kind == ir.TTimestamp:
		return "cast the string with cast(" + exprString(str) + " as " + other.String() + ")"
	case other.Kind == ir.TDate32 && isLit:
		return "cast the string with date '" + lit.Text + "'"
	case other.IsNumeric() && isLit:
		return "write the number without quotes, or cast(" + exprString(str) + " as " + other.String() + ")"
	}
	return "cast(" + exprString(str) + " as " + other.String() + ")"
}

// decimalArith is the result type of a decimal +, -, *, /, % (Spark's
// DecimalPrecision), capped at 38 digits by adjustPrecisionScale.
func decimalArith(op ir.BinaryOp, a, b ir.Type) ir.Type {
	p1, s1, p2, s2 := a.Precision, a.Scale, b.Precision, b.Scale
	switch op {
	case ir.OpAdd, ir.OpSub:
		s := max(s1, s2)
		return adjustPrecisionScale(max(p1-s1, p2-s2)+s+1, s)
	case ir.OpMul:
		return adjustPrecisionScale(p1+p2+1, s1+s2)
	case ir.OpDiv:
		s := max(minAdjustedScale, s1+p2+1)
		return adjustPrecisionScale(p1-s1+s2+s, s)
	case ir.OpMod:
		s := max(s1, s2)
		return adjustPrecisionScale(min(p1-s1, p2-s2)+s, s)
	}
	panic("decimalArith: not an arithmetic operator: " + op.String())
}

// numericArith is the result type of an arithmetic operator on two numeric
// operands. la and lb, when not zero, are the minimal decimal types of
// integer literal operands (Spark's literalPickMinimumPrecision): in decimal
// arithmetic the literal 2 is decimal(1,0), not decimal(10,0).
func numericArith(op ir.BinaryOp, a, b, la, lb ir.Type) ir.Type {
	hasFloat := a.IsFloat() || b.IsFloat()
	hasDec := a.Kind == ir.TDecimal || b.Kind == ir.TDecimal
	if op == ir.OpDiv {
		if hasFloat || !hasDec {
			return ir.Float64 // '/' is fractional: double for integer and float operands
		}
	} else if hasFloat {
		return numericCommon(a, b)
	}
	if !hasDec {
		c := integerCommon(a, b)
		if c.Kind != ir.TDecimal {
			return c
		}
	}
	da, db := toDecimal(a), toDecimal(b)
	if la.Kind == ir.TDecimal && b.Kind == ir.TDecimal {
		da = la
	}
	if lb.Kind == ir.TDecimal && a.Kind == ir.TDecimal {
		db = lb
	}
	return decimalArith(op, da, db)
}

// canCast is Spark's Cast.canAnsiCast over the model's types. A timestamp
// without a zone is Spark's TIMESTAMP_NTZ, which does not cast to or from
// numbers; timestamp(unit, "UTC") is TIMESTAMP, which does.
func canCast(from, to ir.Type) bool {
	if isUnknown(from) || from == to || to.Kind == ir.TString {
		return true
	}
	switch {
	case from.IsNested() || to.IsNested():
		return nestedConvertible(from, to, canCast) // nested.go
	case from.Kind == ir.TString:
		return !isUnknown(to)
	case from.Kind == ir.TBool:
		return to.Kind == ir.TBool || to.IsNumeric()
	case from.IsNumeric():
		switch {
		case to.IsNumeric(), to.Kind == ir.TBool:
			return true
		case to.Kind == ir.TTimestamp:
			return to.Zone != ""
		case to.Kind == ir.TDuration:
			return !from.IsFloat()
		case to.Kind == ir.TBinary:
			return from.IsInteger()
		}
	case from.Kind == ir.TDate32:
		return isTime(to)
	case from.Kind == ir.TTimestamp:
		return isTime(to) || (to.IsNumeric() && from.Zone != "")
	case from.Kind == ir.TDuration:
		return to.Kind == ir.TDuration || to.IsInteger() || to.Kind == ir.TDecimal
	case from.Kind == ir.TBinary:
		return to.Kind == ir.TBinary
	}
	return false
}

// castHint explains a refused cast and names a way out when there is one.
func castHint(from, to ir.Type) string {
	switch {
	case from.Kind == ir.TBool && to.Kind == ir.TTimestamp:
		return "a boolean is not a point in time"
	case from.IsNumeric() && to.Kind == ir.TTimestamp:
		return "numbers cast only to timestamp(us, \"UTC\") (Spark's TIMESTAMP); use timestamp_seconds(x), timestamp_millis(x) or timestamp_micros(x)"
	case from.Kind == ir.TTimestamp && to.IsNumeric():
		return "a timestamp without a zone (Spark's TIMESTAMP_NTZ) does not cast to a number; use unix_timestamp(x)"
	case from.IsNumeric() && isTime(to):
		return "numbers do not cast to dates"
	case isTime(from) && to.IsNumeric():
		return "dates do not cast to numbers; use unix_timestamp(x)"
	}
	return "Spark's ANSI cast rules refuse it"
}

// canStore is Spark's Cast.canANSIStoreAssign: whether a flow may write a
// value of type from into a column declared as to (numbers narrow with a
// run-time overflow check).
func canStore(from, to ir.Type) bool {
	switch {
	case isUnknown(from) || from == to:
		return true
	case from.IsNested() || to.IsNested():
		return nestedConvertible(from, to, canStore) // nested.go
	case from.IsNumeric() && to.IsNumeric():
		return true
	case to.Kind == ir.TString:
		return true
	case isTime(from) && isTime(to):
		return true
	}
	return from.Kind == to.Kind
}

// literalType types a literal; neg says it is the operand of a unary minus
// (so -2147483648 is an int32). The string is an error for a literal that
// cannot be represented.
func literalType(l *ir.Literal, neg bool) (ir.Type, string) {
	switch l.Kind {
	case ir.LitNull:
		return ir.Type{}, ""
	case ir.LitBool:
		if !strings.EqualFold(l.Text, "true") && !strings.EqualFold(l.Text, "false") {
			return ir.Bool, "boolean literal " + strconv.Quote(l.Text) + " is neither true nor false"
		}
		return ir.Bool, ""
	case ir.LitInt:
		return intLiteralType(l.Text, neg)
	case ir.LitDecimal:
		t, ok := decimalLiteralType(l.Text)
		if !ok {
			return ir.Float64, "decimal literal " + l.Text + " needs more than 38 digits (write it as a float, " + l.Text + "e0)"
		}
		return t, ""
	case ir.LitFloat:
		f, err := strconv.ParseFloat(l.Text, 64)
		if err != nil || math.IsInf(f, 0) {
			return ir.Float64, "float literal " + l.Text + " is not a finite float64"
		}
		return ir.Float64, ""
	case ir.LitString:
		return ir.StringT, ""
	case ir.LitInterval:
		d, err := ir.ParseDuration(l.Text)
		if err != nil {
			return ir.DurationType(ir.Micro), err.Error()
		}
		return ir.DurationType(durationUnit(d)), ""
	case ir.LitTimestamp:
		u, ok := timestampLiteralUnit(l.Text)
		if !ok {
			return ir.Timestamp(ir.Micro, ""), "timestamp '" + l.Text + "' is not a valid timestamp: want YYYY-MM-DD HH:MM:SS[.ffffff]"
		}
		return ir.Timestamp(u, ""), ""
	case ir.LitDate:
		if _, err := time.Parse("2006-01-02", l.Text); err != nil {
			return ir.Date32, "date '" + l.Text + "' is not a valid date: want YYYY-MM-DD"
		}
		return ir.Date32, ""
	}
	return ir.Type{}, "unknown literal kind"
}

// intLiteralType is int32 when the value fits, else int64, else
// decimal(digits,0) up to 38 digits (Spark's integral literal rules).
func intLiteralType(text string, neg bool) (ir.Type, string) {
	digits := strings.TrimLeft(text, "0")
	if digits == "" {
		digits = "0"
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return ir.Int32, "integer literal " + strconv.Quote(text) + " has a non-digit"
		}
	}
	s := digits
	if neg {
		s = "-" + digits
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		if v >= math.MinInt32 && v <= math.MaxInt32 {
			return ir.Int32, ""
		}
		return ir.Int64, ""
	}
	if len(digits) <= maxPrecision {
		return ir.Decimal(len(digits), 0), ""
	}
	return ir.Decimal(maxPrecision, 0), "integer literal " + text + " does not fit in decimal(38,0)"
}

// intLiteralDecimal is the minimal decimal of an integer literal:
// decimal(number of digits, 0).
func intLiteralDecimal(text string) ir.Type {
	d := strings.TrimLeft(text, "0")
	return ir.Decimal(max(len(d), 1), 0)
}

// decimalLiteralType is decimal(p,s) exactly as written: 1.50 is
// decimal(3,2), 0.05 is decimal(2,2) (Spark's DecimalType.fromLiteral).
func decimalLiteralType(text string) (ir.Type, bool) {
	intPart, frac, _ := strings.Cut(text, ".")
	intPart = strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(intPart, "-"), "+"), "0")
	digits := strings.TrimLeft(intPart+frac, "0")
	p, s := max(len(digits), 1), len(frac)
	p = max(p, s)
	if p > maxPrecision {
		return ir.Type{}, false
	}
	return ir.Decimal(p, s), true
}

// durationUnit is the coarsest unit that holds d exactly.
func durationUnit(d ir.Duration) ir.TimeUnit {
	switch v := int64(d); {
	case v%int64(time.Second) == 0:
		return ir.Second
	case v%int64(time.Millisecond) == 0:
		return ir.Milli
	case v%int64(time.Microsecond) == 0:
		return ir.Micro
	}
	return ir.Nano
}

// timestampLiteralUnit parses YYYY-MM-DD[ HH:MM:SS[.f...]] and returns the
// coarsest unit that holds its fraction.
func timestampLiteralUnit(text string) (ir.TimeUnit, bool) {
	if _, err := time.Parse("2006-01-02", text); err == nil {
		return ir.Second, true
	}
	base, frac, hasFrac := strings.Cut(text, ".")
	if _, err := time.Parse("2006-01-02 15:04:05", base); err != nil {
		if _, err := time.Parse("2006-01-02T15:04:05", base); err != nil {
			return 0, false
		}
	}
	if !hasFrac {
		return ir.Second, true
	}
	if frac == "" || len(frac) > 9 || strings.Trim(frac, "0123456789") != "" {
		return 0, false
	}
	frac = strings.TrimRight(frac, "0")
	switch {
	case frac == "":
		return ir.Second, true
	case len(frac) <= 3:
		return ir.Milli, true
	case len(frac) <= 6:
		return ir.Micro, true
	}
	return ir.Nano, true
}

// CommonType is the type two values meet at (comparison, CASE, COALESCE, IN,
// UNION, join keys), or false when there is none: the rule resolve types
// with, exported so that backends coerce operands exactly as it typed them.
func CommonType(a, b ir.Type) (ir.Type, bool) { return commonType(a, b) }

// IntegerCommon is the narrowest type holding every value of two integer
// types (see integerCommon).
func IntegerCommon(a, b ir.Type) ir.Type { return integerCommon(a, b) }
