// Package sqlfn holds Spark 4 scalar SQL semantics, with ANSI mode on, as
// plain typed Go functions that generated per-row code calls directly.
//
// # What it owns
//
//   - Integer arithmetic with ANSI overflow errors (AddInt64, MulInt32, Rem,
//     Pmod, DivInt64 ...), the unsigned Arrow widths (AddUnsigned,
//     NegUnsigned, RemUnsigned ...), Java's FloorDiv and FloorMod, DOUBLE
//     division and remainder (DivideFloat64).
//   - DECIMAL arithmetic on arrow-go decimal128.Num with Spark's result-type
//     rules (DecimalAddType ... DecimalDivType: the compiler's typing pass
//     must use, or copy, exactly these) and Spark's rounding (HALF_UP, with
//     the intermediate roundings Spark's java.math.BigDecimal code performs).
//   - Casts with ANSI rules (CastStringToInt32, CastStringToDecimal,
//     CastFloat64ToInt64, CastInt, BoolTo, CastStringToTimestamp and its
//     variants in any Arrow time unit ...) and value-to-string
//     formatting as Spark prints values (AppendFloat64 is Java's
//     Double.toString; AppendTimestamp, AppendDecimal ...).
//   - String functions with UTF8String's character semantics (Length,
//     Substring, Upper, Trim ...), LIKE (CompileLike, then Like.Match; a
//     generator that knows the pattern can use Like.Shape to emit
//     strings.HasPrefix with a constant instead; LikeMatch for a pattern
//     that is not a constant).
//   - Math (RoundFloat64, Power, Ln ...), date/time fields, truncation and
//     arithmetic on DATE (int32 days) and TIMESTAMP (int64 microseconds, UTC),
//     and on day-time intervals (DateAdd, DurationDiv ...).
//   - avg's result from its sum and count (AvgFloat64, AvgDecimal).
//   - Spark's float ordering (CompareFloat64: NaN greatest, -0.0 == 0.0),
//     boolean ordering (CompareBool) and binary string ordering.
//
// # Conventions
//
//   - Inputs are non-NULL values. NULL propagation is the generated code's
//     job; where Spark's result can be NULL for non-NULL inputs the function
//     returns (value, valid bool) and says so (Ln of x <= 0, TruncDate with a
//     fine unit, DecimalFromFloat64 of NaN). concat with a NULL argument is
//     NULL in Spark; coalesce and friends are generated.
//   - A function that can fail returns (value, *Error). A nil *Error means
//     success; the value is then meaningful. Error.Class is Spark's error
//     condition (ARITHMETIC_OVERFLOW, DIVIDE_BY_ZERO, CAST_INVALID_INPUT,
//     CAST_OVERFLOW, NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION ...) and
//     Error.Msg Spark's message. Errors are built by non-inlined constructors
//     on the failing path only, so the small checked operations (AddInt64,
//     MulInt64, NegInt32 ...) inline into the caller's loop. The price of
//     the pointer result over a (T, ok bool) result is one extra predicted
//     branch per call (BenchmarkAddColumns measures both); it buys errors
//     that carry Spark's exact message without the caller recomputing it.
//   - DECIMAL precision and scale are arguments (they are static in the
//     generated code), scales 0..38, precisions 1..38.
//   - Strings are Go strings (arrow-go's String.Value is a zero-copy view);
//     functions that return part of their input return a substring of it,
//     and functions that build text append to a caller-provided []byte
//     (Upper, Concat, Replace, AppendFloat64 ...). Nothing allocates on the
//     success path except where a comment says so (rare slow paths such as
//     decimal-to-double conversion of values beyond 2^53).
//   - Plain Go conversions already have Spark's semantics where no function
//     is given: integer to float (round to nearest even), float widening,
//     boolean to integer (1/0), integer to boolean (!= 0).
//   - The session time zone is UTC.
//
// # What it must not do
//
// It must import nothing from this module, only the standard library and
// arrow-go, so that rt stays below the compiler. It keeps no per-row state,
// does no I/O (the one exception: CastStringToTimestamp loads a region time
// zone such as Europe/Paris from the system tz database once, and caches
// it), uses no interfaces, reflection or boxing on the success path, and
// never panics on data: bad data is an *Error.
package sqlfn
