package passes

import (
	"testing"

	"github.com/nordisk/thund/ir"
)

// TestBitwiseTypes: the bitwise operators' result types are Spark 4.1.4's
// and 4.2.1's (typeof on the lane's servers): & | ^ give the wider
// integer (TINYINT & TINYINT is TINYINT), ~ keeps its operand's type, and
// the shifts are shiftleft's (INT, BIGINT for a BIGINT). An unsigned
// integer is the Spark type it is written to (uint8 a SMALLINT, uint32 a
// BIGINT), so ~ of a uint8 is a SMALLINT's.
func TestBitwiseTypes(t *testing.T) {
	checkSelectTypes(t, hashSource, []selectType{
		{"i8 & i8", ir.Int8}, {"(i8 | i32)", ir.Int32}, {"i16 ^ i64", ir.Int64}, {"i8 & null", ir.Int8},
		{"~i8", ir.Int8}, {"~i16", ir.Int16}, {"~i64", ir.Int64}, {"~u8", ir.Int16}, {"~u32", ir.Int64},
		{"u8 & u8", ir.Int16}, {"u32 ^ i8", ir.Int64}, {"(u8 | i16)", ir.Int16},
		{"i8 << 1", ir.Int32}, {"i16 >> i64", ir.Int32}, {"i64 >>> i8", ir.Int64}, {"u32 << 1", ir.Int64},
		{"u8 >> 1", ir.Int32}, {"null << 1", ir.Int32}, {"~null", ir.Int32}, {"null & null", ir.Int32},
	}) // on Spark 4.1
}

// TestBitwiseErrors: operands Spark refuses (a decimal, a float, a
// boolean: DATATYPE_MISMATCH.BINARY_OP_WRONG_TYPE or BINARY_OP_DIFF_TYPES,
// UNEXPECTED_INPUT_TYPE for ~) are positioned type errors at resolve; so is
// a string, which Spark casts to BIGINT implicitly and Þund asks to be cast.
func TestBitwiseErrors(t *testing.T) {
	checkSelectDiags(t, hashSource, []selectDiag{
		{"d & i32", "p.thund:3:41: & needs integers (tinyint, smallint, int or bigint), got decimal(10,2) and int32: cast(d as bigint) [type-mismatch]"},
		{"i32 ^ f", "p.thund:3:43: ^ needs integers (tinyint, smallint, int or bigint), got int32 and float64: cast(f as bigint) [type-mismatch]"},
		{"(i8 | flag)", "p.thund:3:43: | needs integers (tinyint, smallint, int or bigint), got int8 and bool [type-mismatch]"},
		{"s & 1", "p.thund:3:41: & needs integers (tinyint, smallint, int or bigint), got string and int32: cast(s as bigint) [type-mismatch]"},
		{"u64 & 1", "p.thund:3:43: & needs integers (tinyint, smallint, int or bigint), got uint64 and int32 (Spark's DECIMAL(20,0)): cast(u64 as bigint) [type-mismatch]"},
		{"~d", "p.thund:3:39: ~ needs an integer (tinyint, smallint, int or bigint), got decimal(10,2): cast(d as bigint) [type-mismatch]"},
		{"~flag", "p.thund:3:39: ~ needs an integer (tinyint, smallint, int or bigint), got bool [type-mismatch]"},
		{"d << 1", "p.thund:3:39: << needs an integer of at most 64 signed bits on its left, got decimal(10,2): cast(d as bigint) [type-mismatch]"},
		{"i32 >>> f", "p.thund:3:47: >>> needs an integer shift count on its right, got float64: cast(f as bigint) [type-mismatch]"},
		{"i32 >> s", "p.thund:3:46: >> needs an integer shift count on its right, got string: cast(s as bigint) [type-mismatch]"},
	})
}
