package passes

import (
	"testing"

	"github.com/nordisk/thund/ir"
)

// hashSource is the source the hashing family's tests read.
const hashSource = `source u from csv "u.csv" { s string, b binary, i8 int8, i16 int16, i32 int32, i64 int64, u8 uint8, u32 uint32, u64 uint64, f float64, d decimal(10,2), flag bool, day date }
`

// TestHashFamilyTypes: the hashing family's result types, which are Spark
// 4.1.4's and 4.2.1's (typeof on the lane's servers): shifts keep BIGINT
// and widen narrower integers to INT, bit_get is TINYINT, bit_count INT,
// hash INT and xxhash64 BIGINT.
func TestHashFamilyTypes(t *testing.T) {
	checkSelectTypes(t, hashSource, []selectType{
		{"md5(s)", ir.StringT}, {"sha(b)", ir.StringT}, {"sha2(s, 256)", ir.StringT}, {"crc32(b)", ir.Int64},
		{"hash(s, i64, null, d, day)", ir.Int32}, {"xxhash64(flag, f)", ir.Int64}, {"base64(s)", ir.StringT},
		{"unbase64(s)", ir.BinaryT}, {"hex(f)", ir.StringT}, {"hex(b)", ir.StringT}, {"unhex(s)", ir.BinaryT},
		{"bin(d)", ir.StringT}, {"conv(s, 16, 10)", ir.StringT}, {"to_binary(s)", ir.BinaryT},
		{"try_to_binary(s, 'BASE64')", ir.BinaryT}, {"try_to_binary(s, 'utf-16')", ir.BinaryT},
		{"url_encode(s)", ir.StringT}, {"try_url_decode(s)", ir.StringT}, {"encode(s, 'utf-8')", ir.BinaryT},
		{"decode(b, 'utf-8')", ir.StringT}, {"decode(i32, 1, 'one', 2, 'two', 'many')", ir.StringT},
		{"bit_count(flag)", ir.Int32}, {"bit_get(i8, 7)", ir.Int8}, {"getbit(u32, 40)", ir.Int8},
		{"shiftleft(i8, 1)", ir.Int32}, {"shiftleft(u8, 1)", ir.Int32}, {"shiftright(i64, 1)", ir.Int64},
		{"shiftrightunsigned(u32, 1)", ir.Int64}, {"aes_encrypt(s, b, 'ECB')", ir.BinaryT},
		{"try_aes_decrypt(b, s, 'GCM', 'NONE', s)", ir.BinaryT},
	}) // on Spark 4.1 (decode's search form is Spark-only)
}

// TestHashFamilyErrors: arguments Spark refuses (or casts implicitly, where
// the catalogue does not) are positioned type errors at resolve; decode's
// search form is refused by the native plan only.
func TestHashFamilyErrors(t *testing.T) {
	checkSelectDiags(t, hashSource, []selectDiag{
		{"md5(i32)", "p.thund:3:43: md5 needs a string or binary argument, got int32 [type-mismatch]"},
		{"hex(flag)", "p.thund:3:43: hex needs a number, a string or a binary as argument 1, got bool [type-mismatch]"},
		{"bin(day)", "p.thund:3:43: bin needs a number or a string as argument 1, got date32 [type-mismatch]"},
		{"bit_count(f)", "p.thund:3:49: bit_count needs an integer or a bool as argument 1, got float64 [type-mismatch]"},
		{"bit_get(u64, 1)", "p.thund:3:47: bit_get needs an integer of at most 64 signed bits as argument 1, got uint64 [type-mismatch]"},
		{"shiftleft(d, 1)", "p.thund:3:49: shiftleft needs an integer as argument 1, got decimal(10,2) [type-mismatch]"},
		{"to_binary(s, 'utf-16')", "p.thund:3:52: to_binary's format must be 'hex', 'utf-8', 'utf8' or 'base64', got 'utf-16' [type-mismatch]"},
		{"to_binary(s, s)", "p.thund:3:52: to_binary needs a constant format ('hex', 'utf-8', 'utf8' or 'base64') as argument 2, got s [type-mismatch]"},
		{"decode(i32, 'utf-8')", "p.thund:3:46: decode needs a binary or a string as argument 1, got int32 [type-mismatch]"},
		{"decode(i32, 1, 'one', 2, 3)", "p.thund:3:64: decode's results have no common type: string and int32 (3): cast one of them [type-mismatch]"},
		{"hash()", "p.thund:3:39: hash takes at least 1 arguments, got 0 [arity]"},
		{"decode(i32, 1, 'one', 'many')", "p.thund:3:39: native backend: decode(x, search, result, ...) is not supported yet: write CASE WHEN x <=> search THEN result ... END [capability]"},
	})
}

// selectType is an expression of a select over a test source and the type
// it must resolve to.
type selectType struct {
	expr string
	want ir.Type
}

// checkSelectTypes resolves each case's select over source for Spark 4.1
// and checks the column's type.
func checkSelectTypes(t *testing.T, source string, cases []selectType) {
	t.Helper()
	for _, c := range cases {
		u := confUnit(t, Spark41, "pipeline p\n"+source+"materialized view m = from u | select "+c.expr+" as x\n")
		if u.Diags.HasErrors() {
			t.Errorf("%s: %v", c.expr, u.Diags)
			continue
		}
		for ds, sch := range u.Datasets {
			if ds.Name == "m" {
				if got := sch[0].Type; got != c.want {
					t.Errorf("%s is %s, want %s", c.expr, got, c.want)
				}
			}
		}
	}
}
