package codegen

import (
	"github.com/dave/jennifer/jen"
)

// genHelpers writes helpers.go: the few generic functions generated code
// calls that are not specific to one pipeline. They belong in rt (rt/etl or
// rt/sqlfn) and are generated here, compactly, until they move there; each
// says where it should go.
func genHelpers(f *jen.File) {
	errT := func() *jen.Statement { return jen.Op("*").Qual(sqlfnPkg, "Error") }
	sqlErr := func(fn string, args ...jen.Code) *jen.Statement { return jen.Qual(sqlfnPkg, fn).Call(args...) }
	unsigned := jen.Uint8().Op("|").Uint16().Op("|").Uint32().Op("|").Uint64()
	integer := jen.Int8().Op("|").Int16().Op("|").Int32().Op("|").Int64().Op("|").Uint8().Op("|").Uint16().Op("|").Uint32().Op("|").Uint64()
	number := jen.Add(integer.Clone()).Op("|").Float32().Op("|").Float64()
	ifErr := func(ret ...jen.Code) *jen.Statement {
		return jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(ret...))
	}

	f.Comment("batchRows is the number of rows per emitted batch (rt/format's DefaultBatchRows).")
	f.Const().Id("batchRows").Op("=").Lit(64).Op("*").Lit(1024)

	f.Comment("growOutput reserves room for more output rows in every builder (doubling from")
	f.Comment("1024 up to batchRows), so that fixed-width columns append without capacity")
	f.Comment("checks; it returns the new capacity. (rt/etl)")
	f.Func().Id("growOutput").Params(jen.Id("ob").Op("*").Qual(arrayPkg, "RecordBuilder"), jen.Id("capacity").Int()).Int().Block(
		jen.Id("n").Op(":=").Min(jen.Max(jen.Id("capacity"), jen.Lit(1024)), jen.Id("batchRows").Op("-").Id("capacity")),
		jen.Id("ob").Dot("Reserve").Call(jen.Id("n")),
		jen.Return(jen.Id("capacity").Op("+").Id("n")))

	f.Comment("sqlError places a Spark runtime error at the expression that raised it:")
	f.Comment("\"FILE:LINE:COL: flow NAME: [CLASS] message\". (rt/etl)")
	f.Func().Id("sqlError").Params(jen.List(jen.Id("pos"), jen.Id("flow")).String(), jen.Err().Error()).Error().Block(
		jen.Return(jen.Qual(fmtPkg, "Errorf").Call(jen.Lit("%s: flow %s: %w"), jen.Id("pos"), jen.Id("flow"), jen.Err())))

	f.Comment("notNullError is a NULL written into a column declared not null. (rt/etl)")
	f.Func().Id("notNullError").Params(jen.List(jen.Id("pos"), jen.Id("flow"), jen.Id("dataset"), jen.Id("column")).String()).Error().Block(
		jen.Return(jen.Qual(fmtPkg, "Errorf").Call(jen.Lit("%s: flow %s: [NOT_NULL_CONSTRAINT_VIOLATION] column %s of %s is declared not null, and the flow writes NULL into it"),
			jen.Id("pos"), jen.Id("flow"), jen.Id("column"), jen.Id("dataset"))))

	f.Comment("tooManyRows is Spark's error for a scalar subquery that returns more than one row. (rt/etl)")
	f.Func().Id("tooManyRows").Params(jen.List(jen.Id("pos"), jen.Id("flow")).String()).Error().Block(
		jen.Return(jen.Qual(fmtPkg, "Errorf").Call(jen.Lit("%s: flow %s: [SCALAR_SUBQUERY_TOO_MANY_ROWS] More than one row returned by a subquery used as an expression."), jen.Id("pos"), jen.Id("flow"))))

	f.Comment("floorDiv is integer division rounding toward negative infinity. (rt/sqlfn)")
	f.Func().Id("floorDiv").Params(jen.List(jen.Id("a"), jen.Id("b")).Int64()).Int64().Block(
		jen.Id("q").Op(":=").Id("a").Op("/").Id("b"),
		jen.If(jen.Id("a").Op("%").Id("b").Op("!=").Lit(0).Op("&&").Parens(jen.Id("a").Op("<").Lit(0)).Op("!=").Parens(jen.Id("b").Op("<").Lit(0))).Block(jen.Id("q").Op("--")),
		jen.Return(jen.Id("q")))

	f.Comment("floorMod is the remainder of floorDiv (the sign of b). (rt/sqlfn)")
	f.Func().Id("floorMod").Params(jen.List(jen.Id("a"), jen.Id("b")).Int64()).Int64().Block(
		jen.Return(jen.Id("a").Op("-").Id("floorDiv").Call(jen.Id("a"), jen.Id("b")).Op("*").Id("b")))

	f.Comment("negUnsigned is -a for an unsigned integer: only 0 has a negation. (rt/sqlfn)")
	f.Func().Id("negUnsigned").Types(jen.Id("T").Add(unsigned.Clone())).Params(jen.Id("a").Id("T")).Params(jen.Id("T"), errT()).Block(
		jen.If(jen.Id("a").Op("!=").Lit(0)).Block(jen.Return(jen.Lit(0), sqlErr("ErrArithmeticOverflow", jen.Lit("unsigned overflow"), jen.Lit("")))),
		jen.Return(jen.Lit(0), jen.Nil()))

	f.Comment("remUnsigned is a % b for unsigned integers; REMAINDER_BY_ZERO when b is 0. (rt/sqlfn)")
	f.Func().Id("remUnsigned").Types(jen.Id("T").Add(unsigned.Clone())).Params(jen.List(jen.Id("a"), jen.Id("b")).Id("T")).Params(jen.Id("T"), errT()).Block(
		jen.If(jen.Id("b").Op("==").Lit(0)).Block(jen.Return(jen.Lit(0), sqlErr("ErrRemainderByZero"))),
		jen.Return(jen.Id("a").Op("%").Id("b"), jen.Nil()))

	f.Comment("boolTo is CAST(boolean AS number): 1 or 0. (rt/sqlfn)")
	f.Func().Id("boolTo").Types(jen.Id("T").Add(number)).Params(jen.Id("b").Bool()).Id("T").Block(
		jen.If(jen.Id("b")).Block(jen.Return(jen.Lit(1))),
		jen.Return(jen.Lit(0)))

	f.Comment("castInt is an integer cast that must keep the value (CAST_OVERFLOW otherwise), for")
	f.Comment("the unsigned kinds sqlfn has no cast for. (rt/sqlfn)")
	f.Func().Id("castInt").Types(jen.List(jen.Id("T"), jen.Id("F")).Add(integer.Clone())).Params(jen.Id("v").Id("F"), jen.List(jen.Id("from"), jen.Id("to")).String()).Params(jen.Id("T"), errT()).Block(
		jen.Id("r").Op(":=").Id("T").Call(jen.Id("v")),
		jen.If(jen.Id("F").Call(jen.Id("r")).Op("!=").Id("v").Op("||").Parens(jen.Id("r").Op("<").Lit(0)).Op("!=").Parens(jen.Id("v").Op("<").Lit(0))).Block(
			jen.Return(jen.Lit(0), sqlErr("ErrCastOverflow", jen.Qual(fmtPkg, "Sprint").Call(jen.Id("v")), jen.Id("from"), jen.Id("to")))),
		jen.Return(jen.Id("r"), jen.Nil()))

	f.Comment("likeMatch is x LIKE pattern for a pattern that is not a constant. (rt/sqlfn)")
	f.Func().Id("likeMatch").Params(jen.List(jen.Id("s"), jen.Id("pattern")).String()).Params(jen.Bool(), errT()).Block(
		jen.List(jen.Id("l"), jen.Err()).Op(":=").Qual(sqlfnPkg, "CompileLike").Call(jen.Id("pattern")),
		jen.If(jen.Err().Op("!=").Nil()).Block(
			jen.Var().Id("e").Op("*").Qual(sqlfnPkg, "Error"),
			jen.If(jen.Qual(errorsPkg, "As").Call(jen.Err(), jen.Op("&").Id("e"))).Block(jen.Return(jen.False(), jen.Id("e"))),
			jen.Return(jen.False(), jen.Op("&").Qual(sqlfnPkg, "Error").Values(jen.Dict{
				jen.Id("Class"): jen.Qual(sqlfnPkg, "ClassInvalidFormat"), jen.Id("Msg"): jen.Err().Dot("Error").Call()}))),
		jen.Return(jen.Id("l").Dot("Match").Call(jen.Id("s")), jen.Nil()))

	f.Comment("dateAdd is date + n days; ARITHMETIC_OVERFLOW out of range. (rt/sqlfn)")
	f.Func().Id("dateAdd").Params(jen.Id("d").Int32(), jen.Id("n").Int64()).Params(jen.Int32(), errT()).Block(
		jen.If(jen.Id("n").Op("<").Qual(mathPkg, "MinInt32").Op("||").Id("n").Op(">").Qual(mathPkg, "MaxInt32")).Block(
			jen.Return(jen.Lit(0), sqlErr("ErrArithmeticOverflow", jen.Lit("integer overflow"), jen.Lit("try_add")))),
		jen.Return(jen.Qual(sqlfnPkg, "DateAddDays").Call(jen.Id("d"), jen.Int32().Call(jen.Id("n")))))

	f.Comment("dateSub is date - n days. (rt/sqlfn)")
	f.Func().Id("dateSub").Params(jen.Id("d").Int32(), jen.Id("n").Int64()).Params(jen.Int32(), errT()).Block(
		jen.If(jen.Id("n").Op("<=").Qual(mathPkg, "MinInt32").Op("||").Id("n").Op(">").Qual(mathPkg, "MaxInt32")).Block(
			jen.Return(jen.Lit(0), sqlErr("ErrArithmeticOverflow", jen.Lit("integer overflow"), jen.Lit("try_subtract")))),
		jen.Return(jen.Qual(sqlfnPkg, "DateAddDays").Call(jen.Id("d"), jen.Op("-").Int32().Call(jen.Id("n")))))

	f.Comment("durationDiv is duration / n, rounded half up as Spark's DivideDTInterval. (rt/sqlfn)")
	f.Func().Id("durationDiv").Params(jen.List(jen.Id("a"), jen.Id("b")).Int64()).Params(jen.Int64(), errT()).Block(
		jen.If(jen.Id("b").Op("==").Lit(0)).Block(jen.Return(jen.Lit(0), sqlErr("ErrDivideByZero"))),
		jen.If(jen.Id("a").Op("==").Qual(mathPkg, "MinInt64").Op("&&").Id("b").Op("==").Lit(-1)).Block(
			jen.Return(jen.Lit(0), sqlErr("ErrArithmeticOverflow", jen.Lit("Overflow in integral divide"), jen.Lit("try_divide")))),
		jen.List(jen.Id("q"), jen.Id("r")).Op(":=").List(jen.Id("a").Op("/").Id("b"), jen.Id("a").Op("%").Id("b")),
		jen.If(jen.Id("r").Op("!=").Lit(0)).Block(
			jen.List(jen.Id("ar"), jen.Id("ab")).Op(":=").List(jen.Id("r"), jen.Id("b")),
			jen.If(jen.Id("ar").Op("<").Lit(0)).Block(jen.Id("ar").Op("=").Op("-").Id("ar")),
			jen.If(jen.Id("ab").Op("<").Lit(0)).Block(jen.Id("ab").Op("=").Op("-").Id("ab")),
			jen.If(jen.Id("ar").Op(">=").Id("ab").Op("-").Id("ar")).Block(
				jen.If(jen.Parens(jen.Id("a").Op("<").Lit(0)).Op("!=").Parens(jen.Id("b").Op("<").Lit(0))).Block(jen.Id("q").Op("--")).Else().Block(jen.Id("q").Op("++")))),
		jen.Return(jen.Id("q"), jen.Nil()))

	f.Comment("dateToTimestamp is CAST(date AS TIMESTAMP) in unit u. (rt/sqlfn)")
	f.Func().Id("dateToTimestamp").Params(jen.Id("d").Int32(), jen.Id("u").Qual(sqlfnPkg, "TimeUnit")).Params(jen.Int64(), errT()).Block(
		jen.Return(jen.Qual(sqlfnPkg, "MicrosToTimestamp").Call(jen.Qual(sqlfnPkg, "DateToMicros").Call(jen.Id("d")), jen.Id("u"))))

	f.Comment("stringToTimestamp is CAST(string AS TIMESTAMP) in unit u. (rt/sqlfn)")
	f.Func().Id("stringToTimestamp").Params(jen.Id("s").String(), jen.Id("u").Qual(sqlfnPkg, "TimeUnit")).Params(jen.Int64(), errT()).Block(
		jen.List(jen.Id("us"), jen.Err()).Op(":=").Qual(sqlfnPkg, "CastStringToTimestamp").Call(jen.Id("s")),
		ifErr(jen.Lit(0), jen.Err()),
		jen.Return(jen.Qual(sqlfnPkg, "MicrosToTimestamp").Call(jen.Id("us"), jen.Id("u"))))

	f.Comment("timestampToString is CAST(timestamp AS STRING) of a timestamp in unit u. (rt/sqlfn)")
	f.Func().Id("timestampToString").Params(jen.Id("v").Int64(), jen.Id("u").Qual(sqlfnPkg, "TimeUnit")).Params(jen.String(), errT()).Block(
		jen.List(jen.Id("us"), jen.Err()).Op(":=").Qual(sqlfnPkg, "TimestampToMicros").Call(jen.Id("v"), jen.Id("u")),
		ifErr(jen.Lit(""), jen.Err()),
		jen.Return(jen.String().Call(jen.Qual(sqlfnPkg, "AppendTimestamp").Call(jen.Nil(), jen.Id("us"))), jen.Nil()))

	f.Comment("truncTimestamp is date_trunc(level, ts) on a timestamp in unit u. (rt/sqlfn)")
	f.Func().Id("truncTimestamp").Params(jen.Id("level").Qual(sqlfnPkg, "TruncUnit"), jen.Id("v").Int64(), jen.Id("u").Qual(sqlfnPkg, "TimeUnit")).Params(jen.Int64(), errT()).Block(
		jen.List(jen.Id("us"), jen.Err()).Op(":=").Qual(sqlfnPkg, "TimestampToMicros").Call(jen.Id("v"), jen.Id("u")),
		ifErr(jen.Lit(0), jen.Err()),
		jen.Return(jen.Qual(sqlfnPkg, "MicrosToTimestamp").Call(jen.Qual(sqlfnPkg, "DateTrunc").Call(jen.Id("level"), jen.Id("us")), jen.Id("u"))))

	f.Comment("avgFloat64 is avg's result from its sum and count: NULL over no rows. (rt/etl)")
	f.Func().Id("avgFloat64").Params(jen.Id("sum").Float64(), jen.Id("n").Int64()).Params(jen.Float64(), jen.Bool()).Block(
		jen.If(jen.Id("n").Op("==").Lit(0)).Block(jen.Return(jen.Lit(0), jen.False())),
		jen.Return(jen.Id("sum").Op("/").Float64().Call(jen.Id("n")), jen.True()))

	f.Comment("avgDecimal is avg's decimal result as Spark computes it: the sum (decimal(sp, ss))")
	f.Comment("divided by the count at the avg type's scale, rounded HALF_UP once")
	f.Comment("(DecimalDivideWithOverflowCheck); NULL over no rows. (rt/sqlfn)")
	f.Func().Id("avgDecimal").Params(jen.Id("sum").Qual(decimalPkg, "Num"), jen.List(jen.Id("sp"), jen.Id("ss")).Int32(), jen.Id("n").Int64(), jen.List(jen.Id("p"), jen.Id("s")).Int32()).Params(jen.Qual(decimalPkg, "Num"), jen.Bool(), errT()).Block(
		jen.If(jen.Id("n").Op("==").Lit(0)).Block(jen.Return(jen.Qual(decimalPkg, "Num").Values(), jen.False(), jen.Nil())),
		jen.List(jen.Id("r"), jen.Err()).Op(":=").Qual(sqlfnPkg, "DecimalDivScale").Call(jen.Id("sum"), jen.Id("ss"), jen.Qual(decimalPkg, "FromI64").Call(jen.Id("n")), jen.Lit(0), jen.Id("p"), jen.Id("s")),
		jen.Return(jen.Id("r"), jen.True(), jen.Err()))

	f.Comment("compareBool orders false before true. (rt/sqlfn)")
	f.Func().Id("compareBool").Params(jen.List(jen.Id("a"), jen.Id("b")).Bool()).Int().Block(
		jen.Switch().Block(
			jen.Case(jen.Id("a").Op("==").Id("b")).Block(jen.Return(jen.Lit(0))),
			jen.Case(jen.Id("b")).Block(jen.Return(jen.Lit(-1)))),
		jen.Return(jen.Lit(1)))

	cmpFn := jen.Func().Params(jen.List(jen.Id("a"), jen.Id("b")).Op("*").Id("T")).Int()
	f.Comment("sortIndex returns the positions of rows in the order of cmp, ties in their")
	f.Comment("original order (a stable sort that moves 4-byte indexes, not rows). (rt/etl)")
	f.Func().Id("sortIndex").Types(jen.Id("T").Any()).Params(jen.Id("rows").Index().Id("T"), jen.Id("cmp").Add(cmpFn.Clone())).Index().Int32().Block(
		jen.Id("idx").Op(":=").Make(jen.Index().Int32(), jen.Len(jen.Id("rows"))),
		jen.For(jen.Id("i").Op(":=").Range().Id("idx")).Block(jen.Id("idx").Index(jen.Id("i")).Op("=").Int32().Call(jen.Id("i"))),
		jen.Qual(slicesPkg, "SortStableFunc").Call(jen.Id("idx"), jen.Func().Params(jen.List(jen.Id("a"), jen.Id("b")).Int32()).Int().Block(
			jen.Return(jen.Id("cmp").Call(jen.Op("&").Id("rows").Index(jen.Id("a")), jen.Op("&").Id("rows").Index(jen.Id("b")))))),
		jen.Return(jen.Id("idx")))

	f.Comment("topK keeps the first k rows in the order of cmp (stable), for an order by with a")
	f.Comment("limit. (rt/etl)")
	f.Func().Id("topK").Types(jen.Id("T").Any()).Params(jen.Id("rows").Index().Id("T"), jen.Id("k").Int(), jen.Id("cmp").Add(cmpFn.Clone())).Index().Id("T").Block(
		jen.Id("idx").Op(":=").Id("sortIndex").Call(jen.Id("rows"), jen.Id("cmp")),
		jen.If(jen.Len(jen.Id("idx")).Op(">").Id("k")).Block(jen.Id("idx").Op("=").Id("idx").Index(jen.Empty(), jen.Id("k"))),
		jen.Id("out").Op(":=").Make(jen.Index().Id("T"), jen.Len(jen.Id("idx"))),
		jen.For(jen.List(jen.Id("i"), jen.Id("j")).Op(":=").Range().Id("idx")).Block(jen.Id("out").Index(jen.Id("i")).Op("=").Id("rows").Index(jen.Id("j"))),
		jen.Return(jen.Id("out")))

	f.Comment("chainMore marks, in a hash join's table, a key with more than one build row:")
	f.Comment("the value is then the head of its chain in next, else the key's only row. (rt/etl)")
	f.Const().Id("chainMore").Op("=").Int32().Call(jen.Lit(1).Op("<<").Lit(30))
	f.Comment("chainNext is the build row after j in the chain of a key whose table value is b")
	f.Comment("(-1 after the last): a key with one row never reads next. (rt/etl)")
	f.Func().Id("chainNext").Params(jen.Id("next").Index().Int32(), jen.List(jen.Id("j"), jen.Id("b")).Int32()).Int32().Block(
		jen.If(jen.Id("b").Op("&").Id("chainMore").Op("==").Lit(0)).Block(jen.Return(jen.Lit(-1))),
		jen.Return(jen.Id("next").Index(jen.Id("j"))))

	f.Comment("appendZero appends a zero element to rows that are never cut (groups, build rows,")
	f.Comment("sort rows), doubling the capacity when full: append grows a large slice by a")
	f.Comment("quarter, copying it (and faulting fresh pages in) again and again. (rt/etl)")
	f.Func().Id("appendZero").Types(jen.Id("T").Any()).Params(jen.Id("rows").Index().Id("T")).Index().Id("T").Block(
		jen.If(jen.Len(jen.Id("rows")).Op("==").Cap(jen.Id("rows"))).Block(
			jen.Id("grown").Op(":=").Make(jen.Index().Id("T"), jen.Len(jen.Id("rows")), jen.Max(jen.Lit(2).Op("*").Cap(jen.Id("rows")), jen.Lit(64))),
			jen.Copy(jen.Id("grown"), jen.Id("rows")),
			jen.Id("rows").Op("=").Id("grown")),
		jen.Return(jen.Id("rows").Index(jen.Empty(), jen.Len(jen.Id("rows")).Op("+").Lit(1))))
}
