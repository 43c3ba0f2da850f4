package passes

import (
	"testing"

	"github.com/nordisk/thund/ir"
)

// typed is a source with one column of each type the typing table uses.
func typed(b *pb) {
	b.source("t", false, nil,
		"i8 int8", "i16 int16", "i32 int32", "i64 int64 not null",
		"u8 uint8", "u32 uint32", "u64 uint64",
		"f32 float32", "f64 float64",
		"d10_2 decimal(10,2)", "d5_0 decimal(5,0)", "d38_10 decimal(38,10)",
		"s string", "b bool", "dt date32", "ts timestamp(ms)", `tsu timestamp(us, "UTC")`, "tns timestamp(ns)",
		"du duration(s)", "bin binary")
}

// typeOf types one expression as a select item (or, with agg, as an item
// of a global aggregate) over source t and returns its type and nullability.
func typeOf(t *testing.T, e ir.Expr, agg bool) (ir.Type, bool) {
	t.Helper()
	b := newPipeline("types")
	typed(b)
	var q ir.Rel
	if agg {
		q = groupBy(scan("t"), nil, as(e, "x"))
	} else {
		q = sel(scan("t"), as(e, "x"))
	}
	b.mv("out", q)
	u := mustRun(t, b.p, Options{StopAfter: "resolve"})
	typ, ok := u.Types[e]
	if !ok {
		t.Fatalf("%s has no type", exprString(e))
	}
	return typ, u.Nullable[e]
}

func neg(x ir.Expr) ir.Expr { return &ir.Unary{Pos: at(), Op: ir.OpNeg, X: x} }

func TestTypingTable(t *testing.T) {
	when := func(cond, then ir.Expr) *ir.When { return &ir.When{Pos: at(), Cond: cond, Then: then} }
	for _, tc := range []struct {
		e    ir.Expr
		want string
		agg  bool
	}{
		// literals
		{i("1"), "int32", false},
		{i("2147483647"), "int32", false},
		{i("2147483648"), "int64", false},
		{neg(i("2147483648")), "int32", false},
		{i("9223372036854775808"), "decimal(19,0)", false},
		{dec("1.50"), "decimal(3,2)", false},
		{dec("0.05"), "decimal(2,2)", false},
		{dec("100.0"), "decimal(4,1)", false},
		{lit(ir.LitFloat, "1.5e0"), "float64", false},
		{str("x"), "string", false},
		{boolLit(true), "bool", false},
		{dur("10s"), "duration(s)", false},
		{dur("1h30m"), "duration(s)", false},
		{dur("250ms"), "duration(ms)", false},
		{dur("1us"), "duration(us)", false},
		{tsLit("2024-01-01 12:00:00"), "timestamp(s)", false},
		{tsLit("2024-01-01 12:00:00.250"), "timestamp(ms)", false},
		{tsLit("2024-01-01 12:00:00.123456"), "timestamp(us)", false},
		{lit(ir.LitDate, "2024-01-01"), "date32", false},

		// integer and float widening
		{bin(ir.OpAdd, c("i8"), c("i16")), "int16", false},
		{bin(ir.OpAdd, c("i32"), c("i64")), "int64", false},
		{bin(ir.OpAdd, c("i8"), i("1")), "int32", false},
		{bin(ir.OpAdd, c("u8"), c("i8")), "int16", false},
		{bin(ir.OpAdd, c("u32"), c("i32")), "int64", false},
		{bin(ir.OpAdd, c("u64"), c("i64")), "decimal(21,0)", false},
		{bin(ir.OpMul, c("i32"), c("f32")), "float32", false},
		{bin(ir.OpAdd, c("f32"), c("d10_2")), "float64", false},
		{bin(ir.OpAdd, c("i64"), c("f64")), "float64", false},
		{bin(ir.OpMod, c("i32"), c("i64")), "int64", false},
		{neg(c("d10_2")), "decimal(10,2)", false},

		// '/' is fractional
		{bin(ir.OpDiv, c("i32"), c("i32")), "float64", false},
		{bin(ir.OpDiv, c("f32"), c("i32")), "float64", false},
		{bin(ir.OpDiv, c("d10_2"), c("d5_0")), "decimal(16,8)", false},
		{bin(ir.OpDiv, c("d38_10"), c("d10_2")), "decimal(38,8)", false},
		{bin(ir.OpDiv, c("d10_2"), c("f64")), "float64", false},

		// decimal arithmetic (Spark's DecimalPrecision), capped at 38
		{bin(ir.OpAdd, c("d10_2"), c("d5_0")), "decimal(11,2)", false},
		{bin(ir.OpSub, c("d10_2"), c("i32")), "decimal(13,2)", false},
		{bin(ir.OpMul, c("d10_2"), c("d10_2")), "decimal(21,4)", false},
		{bin(ir.OpMul, c("d38_10"), c("d38_10")), "decimal(38,6)", false},
		{bin(ir.OpMod, c("d10_2"), c("d5_0")), "decimal(7,2)", false},
		{bin(ir.OpMul, c("d10_2"), i("2")), "decimal(12,2)", false},
		{bin(ir.OpMul, c("i64"), dec("0.908")), "decimal(24,3)", false},

		// time
		{bin(ir.OpAdd, c("ts"), dur("10s")), "timestamp(ms)", false},
		{bin(ir.OpSub, c("ts"), dur("1us")), "timestamp(us)", false},
		{bin(ir.OpAdd, dur("1m"), c("tsu")), `timestamp(us, "UTC")`, false},
		{bin(ir.OpSub, c("ts"), c("ts")), "duration(ms)", false},
		{bin(ir.OpSub, c("tns"), c("ts")), "duration(ns)", false},
		{bin(ir.OpSub, c("ts"), c("dt")), "duration(ms)", false},
		{bin(ir.OpSub, c("dt"), c("dt")), "duration(s)", false},
		{bin(ir.OpAdd, c("dt"), i("1")), "date32", false},
		{bin(ir.OpAdd, c("dt"), dur("1h")), `timestamp(s, "UTC")`, false},
		{bin(ir.OpAdd, c("du"), c("du")), "duration(s)", false},
		{bin(ir.OpMul, c("du"), i("2")), "duration(s)", false},

		// predicates
		{gt(c("ts"), tsLit("2024-01-01 00:00:00")), "bool", false},
		{eq(c("ts"), c("dt")), "bool", false},
		{gt(c("i32"), c("d10_2")), "bool", false},
		{&ir.Between{Pos: at(), X: c("i32"), Lo: c("i8"), Hi: c("d10_2")}, "bool", false},
		{&ir.In{Pos: at(), X: c("i32"), List: []ir.Expr{i("1"), c("i64")}}, "bool", false},
		{&ir.Like{Pos: at(), X: c("s"), Pattern: str("a%")}, "bool", false},
		{and(c("b"), &ir.IsNull{Pos: at(), X: c("s")}), "bool", false},
		{bin(ir.OpConcat, c("s"), str("!")), "string", false},

		// branches unify
		{&ir.Case{Pos: at(), Whens: []*ir.When{when(c("b"), c("i32"))}, Else: c("i64")}, "int64", false},
		{&ir.Case{Pos: at(), Whens: []*ir.When{when(c("b"), c("i32"))}}, "int32", false},
		{&ir.Case{Pos: at(), Operand: c("s"), Whens: []*ir.When{when(str("a"), c("d5_0")), when(str("b"), c("f32"))}}, "float64", false},
		{call("coalesce", c("i32"), c("d10_2")), "decimal(12,2)", false},
		{call("coalesce", c("ts"), c("dt")), "timestamp(ms)", false},
		{call("coalesce", c("ts"), c("tsu")), `timestamp(us, "UTC")`, false},
		{call("coalesce", null(), c("s")), "string", false},
		{call("greatest", c("i32"), c("i64"), c("d5_0")), "decimal(20,0)", false},
		{call("if", c("b"), c("i32"), c("f64")), "float64", false},
		{call("nullif", c("i32"), i("0")), "int32", false},

		// casts
		{cast(c("s"), "int64"), "int64", false},
		{cast(c("ts"), "date32"), "date32", false},
		{cast(c("tsu"), "int64"), "int64", false},
		{cast(c("i64"), `timestamp(us, "UTC")`), `timestamp(us, "UTC")`, false},
		{cast(c("b"), "int32"), "int32", false},
		{cast(null(), "string"), "string", false},

		// scalar functions
		{call("abs", c("i8")), "int8", false},
		{call("abs", c("du")), "duration(s)", false},
		{call("round", c("d10_2")), "decimal(9,0)", false},
		{call("round", c("d10_2"), i("1")), "decimal(10,1)", false},
		{call("round", c("d10_2"), neg(i("1"))), "decimal(9,0)", false},
		{call("round", c("f64"), i("2")), "float64", false},
		{call("floor", c("d10_2")), "decimal(9,0)", false},
		{call("ceil", c("f64")), "int64", false},
		{call("floor", c("i32")), "int64", false},
		{call("sqrt", c("i32")), "float64", false},
		{call("pow", c("i32"), i("2")), "float64", false},
		{call("mod", c("i32"), c("i64")), "int64", false},
		{call("lower", c("s")), "string", false},
		{call("length", c("bin")), "int32", false},
		{call("substr", c("s"), i("1"), i("2")), "string", false},
		{call("concat", c("s"), str("-"), c("s")), "string", false},
		{call("replace", c("s"), str("a"), str("b")), "string", false},
		{call("startswith", c("s"), str("a")), "bool", false},
		{call("date_trunc", str("hour"), c("ts")), `timestamp(ms, "UTC")`, false},
		{call("date_trunc", str("day"), c("dt")), `timestamp(us, "UTC")`, false},
		{call("to_date", c("s")), "date32", false},
		{call("to_timestamp", c("s"), str("yyyy-MM-dd")), `timestamp(us, "UTC")`, false},
		{call("dayofmonth", c("ts")), "int32", false},
		{call("unix_timestamp", c("ts")), "int64", false},
		{call("timestamp_seconds", c("i64")), `timestamp(us, "UTC")`, false},

		// aggregates
		{countStar(), "int64", true},
		{&ir.Call{Pos: at(), Name: "count", Distinct: true, Args: []ir.Expr{c("s")}}, "int64", true},
		{call("sum", c("i32")), "int64", true},
		{call("sum", c("u64")), "decimal(30,0)", true},
		{call("sum", c("d10_2")), "decimal(20,2)", true},
		{call("sum", c("f32")), "float64", true},
		{call("avg", c("i32")), "float64", true},
		{call("avg", c("d10_2")), "decimal(14,6)", true},
		{call("min", c("s")), "string", true},
		{call("max", c("ts")), "timestamp(ms)", true},
		{call("first", c("d5_0")), "decimal(5,0)", true},
		{call("any_value", c("b")), "bool", true},
		{bin(ir.OpDiv, call("sum", c("d10_2")), countStar()), "decimal(38,20)", true},
	} {
		got, _ := typeOf(t, tc.e, tc.agg)
		if got.String() != tc.want {
			t.Errorf("%s: got %s, want %s", exprString(tc.e), got, tc.want)
		}
	}
}

func TestNullability(t *testing.T) {
	for _, tc := range []struct {
		e    ir.Expr
		want bool
		agg  bool
	}{
		{c("i64"), false, false},
		{c("i32"), true, false},
		{bin(ir.OpAdd, c("i64"), i("1")), false, false},
		{bin(ir.OpAdd, c("i64"), c("i32")), true, false},
		{&ir.IsNull{Pos: at(), X: c("s")}, false, false},
		{bin(ir.OpEqNullSafe, c("s"), null()), false, false},
		{call("coalesce", c("i32"), c("i64")), false, false},
		{call("coalesce", c("i32"), c("i8")), true, false},
		{&ir.Cast{Pos: at(), X: c("i64"), To: ir.Int32, Try: true}, true, false},
		{countStar(), false, true},
		{call("sum", c("i64")), true, true}, // a global aggregate of no rows
		{call("nullif", c("i64"), i("0")), true, false},
	} {
		if _, got := typeOf(t, tc.e, tc.agg); got != tc.want {
			t.Errorf("%s: nullable %v, want %v", exprString(tc.e), got, tc.want)
		}
	}
}

func TestCastRules(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		ok       bool
	}{
		{"bool", "timestamp(us)", false},
		{"bool", "int32", true},
		{"int32", "bool", true},
		{"string", "timestamp(ms)", true},
		{"timestamp(ms)", "string", true},
		{"timestamp(ms)", "date32", true},
		{"date32", "timestamp(us)", true},
		{"date32", "int32", false},
		{"int64", "timestamp(us)", false},
		{`int64`, `timestamp(us, "UTC")`, true},
		{"timestamp(ms)", "int64", false},
		{`timestamp(us, "UTC")`, "int64", true},
		{"duration(s)", "int64", true},
		{"float64", "duration(s)", false},
		{"int32", "binary", true},
		{"binary", "int32", false},
		{"decimal(10,2)", "float32", true},
		{"uint64", "int8", true},
	} {
		from, _ := ir.ParseType(tc.from)
		to, _ := ir.ParseType(tc.to)
		if got := canCast(from, to); got != tc.ok {
			t.Errorf("cast %s to %s: %v, want %v", tc.from, tc.to, got, tc.ok)
		}
	}
}

func TestFunctionCatalogue(t *testing.T) {
	required := []string{
		"count", "sum", "min", "max", "avg", "first", "last", "any_value",
		"abs", "round", "floor", "ceil", "sqrt", "power", "pow", "exp", "ln", "log10", "mod", "greatest", "least",
		"coalesce", "nullif", "if", "lower", "upper", "length", "substring", "substr", "concat", "trim", "ltrim",
		"rtrim", "replace", "starts_with", "startswith", "ends_with", "endswith", "contains", "date_trunc",
		"to_date", "to_timestamp", "year", "month", "day", "dayofmonth", "hour", "minute", "second", "unix_timestamp",
	}
	for _, n := range required {
		if lookupFunc(n) == nil {
			t.Errorf("function %s is not in the catalogue", n)
		}
	}
	seen := map[string]bool{}
	for _, f := range functions {
		for _, n := range append([]string{f.name}, f.aliases...) {
			if seen[n] {
				t.Errorf("function name %s is listed twice", n)
			}
			seen[n] = true
		}
		if len(f.args) == 0 && f.maxArgs != 0 {
			t.Errorf("%s: no argument rules", f.name)
		}
		if f.maxArgs >= 0 && f.maxArgs < f.minArgs {
			t.Errorf("%s: arity %d..%d", f.name, f.minArgs, f.maxArgs)
		}
		if f.result == resFixed && f.ret == (ir.Type{}) {
			t.Errorf("%s: fixed result without a type", f.name)
		}
	}
}
