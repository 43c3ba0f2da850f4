package conformance

// The bitwise operators (& | ^ ~ << >> >>>, ir.OpBitAnd ... ir.OpShrU)
// against DuckDB: testdata/functions/bitwise.thund's bw_ views over the
// bw_ints table, which holds each integer type's bounds, -1, 0, NULLs and
// shift counts below zero and past each width.
//
// DuckDB spells & | ~ as Spark does and XOR as xor(a, b). Its shifts are
// not Java's: << of a negative number or past the width is an error there,
// where Java wraps around, and Java takes the count modulo the width (32
// for INT, 64 for BIGINT; TINYINT and SMALLINT shift as INT). The spark_shl,
// spark_shr and spark_shru macros spell Java's with HUGEINT arithmetic: the
// operand's two's complement bits as an unsigned number, shifted, cut to
// the width and read back as signed; >> is a floor division by 2^n.

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/nordisk/thund/ir"
)

func init() {
	extraTables = append(extraTables, genBitwiseInts)
	sparkMacros = append(sparkMacros,
		// v, a number of w bits read as unsigned, as a signed one
		`CREATE MACRO spark_signed(v, w) AS CASE WHEN v >= (CAST(1 AS HUGEINT) << (w - 1)) THEN v - (CAST(1 AS HUGEINT) << w) ELSE v END`,
		// x's low w bits as an unsigned number
		`CREATE MACRO spark_bits(x, w) AS CAST(x AS HUGEINT) & ((CAST(1 AS HUGEINT) << w) - 1)`,
		// Java's x << n, x >> n, x >>> n in w bits: the count modulo w
		`CREATE MACRO spark_shl(x, n, w) AS spark_signed((spark_bits(x, w) << (CAST(n AS INTEGER) & (w - 1))) & ((CAST(1 AS HUGEINT) << w) - 1), w)`,
		`CREATE MACRO spark_shr(x, n, w) AS CASE WHEN x >= 0 THEN CAST(x AS HUGEINT) // (CAST(1 AS HUGEINT) << (CAST(n AS INTEGER) & (w - 1)))
			ELSE -((-CAST(x AS HUGEINT) - 1) // (CAST(1 AS HUGEINT) << (CAST(n AS INTEGER) & (w - 1)))) - 1 END`,
		`CREATE MACRO spark_shru(x, n, w) AS spark_signed(spark_bits(x, w) >> (CAST(n AS INTEGER) & (w - 1)), w)`,
	)
}

// bitwise prints & | ^ and the shifts, in the result type passes
// resolved (the operands cast to it first, as Spark widens them).
func (p *printer) bitwise(e *ir.Binary, l, r string) string {
	t := p.typeOf(e)
	if !t.IsSigned() {
		p.fail(e.Pos, "%s yielding %s", e.Op, t)
	}
	if e.Op.IsShift() {
		fn := map[ir.BinaryOp]string{ir.OpShl: "spark_shl", ir.OpShr: "spark_shr", ir.OpShrU: "spark_shru"}[e.Op]
		return p.cast(e, fmt.Sprintf("%s(%s, %s, %d)", fn, l, r, map[bool]int{true: 64, false: 32}[t.Kind == ir.TInt64]))
	}
	a, b := castTo(e.L.Position(), l, t), castTo(e.R.Position(), r, t)
	if e.Op == ir.OpBitXor {
		return p.cast(e, "xor("+a+", "+b+")")
	}
	return p.cast(e, "("+a+" "+e.Op.String()+" "+b+")")
}

// bitNot prints ~x in x's resolved type.
func (p *printer) bitNot(e *ir.Unary) string {
	t := p.typeOf(e)
	if !t.IsSigned() {
		p.fail(e.Pos, "~ yielding %s", t)
	}
	return p.cast(e, "(~ "+castTo(e.X.Position(), p.expr(e.X), t)+")")
}

// genBitwiseInts is bw_ints: each integer type's bounds, -1, 0, 1, NULLs,
// and 200 seeded rows, with shift counts c (INT) and cl (BIGINT, within
// INT) from -70 to 70.
func genBitwiseInts() *table {
	t := &table{name: "bw_ints", cols: []string{"id", "t", "s", "i", "l", "c", "cl"},
		quoted: make([]bool, 7)}
	fixed := [][]string{
		{"-128", "-32768", "-2147483648", "-9223372036854775808", "63", "63"},
		{"127", "32767", "2147483647", "9223372036854775807", "64", "64"},
		{"-1", "-1", "-1", "-1", "-1", "-1"},
		{"0", "0", "0", "0", "0", "0"},
		{"1", "1", "1", "1", "31", "32"},
		{null, null, null, null, null, null},
		{"5", null, "9", null, "33", "65"},
		{null, "7", null, "-3", "-33", "-65"},
	}
	g := rand.New(rand.NewPCG(19, 19))
	for range 200 {
		fixed = append(fixed, []string{
			strconv.Itoa(g.IntN(256) - 128), strconv.Itoa(g.IntN(65536) - 32768),
			strconv.FormatInt(int64(int32(g.Uint32())), 10), strconv.FormatInt(int64(g.Uint64()), 10),
			strconv.Itoa(g.IntN(141) - 70), strconv.Itoa(g.IntN(141) - 70),
		})
	}
	for i, r := range fixed {
		t.rows = append(t.rows, append([]string{strconv.Itoa(i + 1)}, r...))
	}
	return t
}
