package passes

import (
	"strings"
	"testing"

	"github.com/nordisk/thund/frontend/dsl"
	"github.com/nordisk/thund/ir"
)

// arraysHead declares a source of nested columns for the arrays tests.
const arraysHead = `pipeline p
source s from jsonl "s.jsonl" { id int64, xs array<int32>, ls array<int64>, ss array<string>, m map<string, int64>, t string }
`

// TestArrayNativeRefusals: the Spark targets run every call; the native
// target refuses, where it is written, array_join over non-strings (Spark
// casts them), str_to_map by a delimiter that is not a literal (a regex),
// set functions, lookups and concat that would widen an array, and
// shuffle.
func TestArrayNativeRefusals(t *testing.T) {
	const src = arraysHead + `materialized view m = from s | select array_join(xs, ','), str_to_map(t, t), array_union(xs, ls), array_position(xs, id), shuffle(xs), concat(xs, ls)
`
	for _, tc := range []struct {
		target Target
		want   []string
	}{
		{Native, []string{
			`t.thund:3:50: native backend: array_join of array<int32> is not supported yet: cast the array to array<string>`,
			`t.thund:3:74: native backend: str_to_map with a pattern that is not a string literal (t) is not supported yet`,
			`t.thund:3:94: native backend: array_union over array<int32> and array<int64> is not supported yet`,
			`t.thund:3:99: native backend: array_position(array<int32>, int64) works in int64, which is not supported yet: cast the array to array<int64>`,
			`t.thund:3:123: native backend: SHUFFLE is random`,
			`t.thund:3:147: native backend: concat over array<int32> and array<int64> is not supported yet`,
		}},
		{Spark41, nil},
		{Spark42, nil},
	} {
		t.Run(string(tc.target), func(t *testing.T) {
			checkRefusals(t, src, tc.target, tc.want)
		})
	}
}

// TestArrayTypes: the result types Spark 4.2 gives (its schema's JSON):
// sequence in the bounds' common type, array_position a BIGINT,
// array_compact's elements not NULL, arrays_zip's fields named as the
// columns or by index, map_entries' key and value, concat and reverse of
// arrays (on a Spark target: the native one refuses the widening concat).
func TestArrayTypes(t *testing.T) {
	const src = arraysHead + `materialized view m = from s | select sequence(1, id) as a, array_position(xs, 1) as b, array_compact(xs) as c, arrays_zip(xs, array('x')) as d, map_entries(m) as e, array_union(xs, array(null)) as f, array_repeat(t, 2) as g, concat(xs, ls, null) as h, reverse(ss) as i, concat(t, 'x') as j
`
	_, u := checkRefusals(t, src, Spark42, nil)
	want := map[string]ir.Type{
		"sequence":       ir.ArrayOf(ir.Int64, false),
		"array_position": ir.Int64,
		"array_compact":  ir.ArrayOf(ir.Int32, false),
		"arrays_zip":     ir.ArrayOf(ir.StructOf(ir.StructField{Name: "xs", Type: ir.Int32}, ir.StructField{Name: "1", Type: ir.StringT}), false),
		"map_entries":    ir.ArrayOf(ir.StructOf(ir.StructField{Name: "key", Type: ir.StringT, NotNull: true}, ir.StructField{Name: "value", Type: ir.Int64}), false),
		"array_union":    ir.ArrayOf(ir.Int32, true),
		"array_repeat":   ir.ArrayOf(ir.StringT, true),
		"reverse":        ir.ArrayOf(ir.StringT, true),
	}
	for call, f := range u.Calls {
		if w, ok := want[f.Name]; ok {
			if got := u.Types[call]; got != w {
				t.Errorf("%s: got %v, want %v", f.Name, got, w)
			}
			delete(want, f.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("not typed: %v", want)
	}
	// concat of arrays is an array (of the wider elements), of strings a string
	for call, f := range u.Calls {
		if f.Name == "concat" {
			if got, w := u.Types[call], ir.ArrayOf(ir.Int64, true); len(call.Args) == 3 && got != w || len(call.Args) == 2 && got != ir.StringT {
				t.Errorf("%d-argument concat: got %v", len(call.Args), got)
			}
		}
	}
}

// TestArrayTypeErrors: calls Spark refuses at analysis, refused at resolve
// with the argument's position.
func TestArrayTypeErrors(t *testing.T) {
	for _, tc := range []struct{ expr, want string }{
		{"sort_array(xs, id > 0)", "sort_array's order must be the constant true or false, got id > 0 (Spark: DATATYPE_MISMATCH.NON_FOLDABLE_INPUT)"},
		{"array_sort(xs, xs)", "array_sort with a comparator is not supported yet"},
		{"array_repeat(t, id)", "array_repeat takes an INT as argument 2, got int64 (id): cast it to int"},
		{"array_insert(xs, id, 1)", "array_insert takes an INT as argument 2, got int64 (id)"},
		{"flatten(xs)", "flatten takes an array of arrays, got array<int32> (xs)"},
		{"array_union(xs, ss)", "array_union takes two arrays of one element type, got array<int32> and array<string>"},
		{"array_size(m)", "array_size takes an array as argument 1, got map<string, int64> (m)"},
		{"array_repeat(null, 2)", "array_repeat of an untyped NULL (an array of Spark's VOID) is not supported: cast it"},
		{"array_max(m)", "array_max takes an array as argument 1, got map<string, int64> (m)"},
		{"map_contains_key(m, null)", "map_contains_key cannot look for NULL (Spark: DATATYPE_MISMATCH.NULL_TYPE)"},
		{"array_position(xs, 1.5)", "array_position takes a value of the array's element type int32, got decimal(2,1) (1.5): cast one of them (Spark: DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES)"},
		{"array_append(ss, 1)", "(Spark: DATATYPE_MISMATCH.ARRAY_FUNCTION_DIFF_TYPES)"},
		{"concat(xs, t)", "concat takes an array (Spark: DATATYPE_MISMATCH.DATA_DIFF_TYPES) as argument 2, got string (t)"},
		{"concat(xs, ss)", "concat of arrays takes arrays of one element type, got array<int32> and array<string> (ss)"},
		{"sequence(1.5, 3)", "sequence takes integers, dates or timestamps, got decimal(2,1) (1.5)"},
		{"sequence(date '2024-01-01', id)", "sequence's start and stop must be of one type (DATATYPE_MISMATCH.SEQUENCE_WRONG_INPUT_TYPES), got date32 and int64"},
		{"sequence(date '2024-01-01', date '2024-01-05', 1)", "sequence of date32 steps by an INTERVAL (DATATYPE_MISMATCH.SEQUENCE_WRONG_INPUT_TYPES), got int32 (1)"},
		{"sequence(1, 5, 1d)", "sequence of integers steps by an integer (DATATYPE_MISMATCH.SEQUENCE_WRONG_INPUT_TYPES)"},
		{"sequence(date '2024-01-01', date '2024-01-05', 12h)", "sequence step must be an interval day to second of day granularity if start and end values are dates, got 12h"},
		{"sequence(date '2024-01-01', date '2024-01-05', -23h)", "of day granularity"},
		{"slice(xs, 1)", "slice takes 3 argument(s), got 2 argument(s)"},
	} {
		p, diags := dsl.Parse("t.thund", []byte(arraysHead+"materialized view m = from s | select "+tc.expr+" as x\n"))
		if err := diags.Err(); err != nil {
			t.Fatalf("parse: %v", err)
		}
		u, _ := Run(p, Options{Target: Spark42, StopAfter: "resolve"})
		if len(u.Diags) != 1 || !strings.Contains(u.Diags[0].Msg, tc.want) || !strings.HasPrefix(u.Diags[0].Error(), "t.thund:3:") {
			t.Errorf("%s: got\n%s\nwant one diagnostic at line 3 containing\n\t%s", tc.expr, u.Diags.Error(), tc.want)
		}
	}
}

// TestSequenceNativeRefusals: the native target runs sequence of dates by
// whole days and of microsecond timestamps; it refuses, where they are
// written, a step of dates that is not whole days (Spark steps through
// timestamps and truncates) and timestamps of another unit.
func TestSequenceNativeRefusals(t *testing.T) {
	const src = `pipeline p
source s from jsonl "s.jsonl" { id int64, d date32, ns timestamp(ns, "UTC") }
materialized view m format parquet = from s | select sequence(d, d, 26h), sequence(ns, ns), sequence(d, d, 2d)
`
	for _, tc := range []struct {
		target Target
		want   []string
	}{
		{Native, []string{
			`t.thund:3:69: native backend: sequence of dates by 1d2h, not whole days, is not supported yet`,
			`t.thund:3:75: native backend: sequence of timestamp(ns, "UTC") is not supported yet: cast start and stop to timestamp(us)`,
		}},
		{Spark41, nil},
		{Spark42, nil},
	} {
		t.Run(string(tc.target), func(t *testing.T) {
			checkRefusals(t, src, tc.target, tc.want)
		})
	}
}
