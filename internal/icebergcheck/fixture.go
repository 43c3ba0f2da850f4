package icebergcheck

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// Fixture is a table's changes and the rows it holds after each, for a
// writer (PyIcebergWrite) to apply and a reader to check.
type Fixture struct {
	Columns []Column
	Ops     []Op
	// States are the rows the table holds after each operation: States[i]
	// after Ops[i] (none after the Create).
	States [][][]any
}

// Want is what the table holds after Ops[i], as a Result of the reader
// "written" (its rows from Expect).
func (f Fixture) Want(t testing.TB, i int) *Result {
	t.Helper()
	r := &Result{Reader: "written"}
	for _, c := range f.Columns {
		r.Columns = append(r.Columns, c.Name)
	}
	r.Rows = Expect(t, f.Columns, f.States[i])
	return r
}

// EveryType is a table with every Iceberg type that pyiceberg writes and
// Spark reads (not time, which Spark has no type for; Spark reads a uuid
// as a string), NaN, infinities, -0, dates and instants before 1970, empty
// lists and maps, NULL at every depth and a row of NULLs, partitioned by
// region (one row with a NULL region), changed by two appends, an
// overwrite of region eu and a delete of id 2.
func EveryType() Fixture {
	ops, states := everyTypeOps()
	return Fixture{Columns: everyTypeColumns, Ops: ops, States: states}
}

var everyTypeColumns = []Column{
	{Name: "id", Type: "long", Required: true},
	{Name: "region", Type: "string"},
	{Name: "ok", Type: "boolean"},
	{Name: "n", Type: "int"},
	{Name: "f", Type: "float"},
	{Name: "d", Type: "double"},
	{Name: "price", Type: "decimal(10, 2)"},
	{Name: "raw", Type: "binary"},
	{Name: "code", Type: "fixed[4]"},
	{Name: "day", Type: "date"},
	{Name: "at", Type: "timestamp"},
	{Name: "at_tz", Type: "timestamptz"},
	{Name: "tags", Type: "list<string>"},
	{Name: "attrs", Type: "map<string, int>"},
	{Name: "point", Type: "struct<x: double, label: string>"},
	{Name: "key", Type: "uuid"},
}

// everyTypeRow is a row of EveryType with the given id and region; v
// varies the values.
func everyTypeRow(id int64, region any, v int) []any {
	fs := []float32{1.1, float32(math.NaN()), float32(math.Inf(1)), float32(math.Copysign(0, -1)), -3.4028235e38}
	ds := []float64{0.1, math.Inf(-1), math.Copysign(0, -1), 1e300, math.NaN()}
	return []any{
		id, region, v%2 == 0, int32(v * -7), fs[v%len(fs)], ds[v%len(ds)],
		[]string{"12.30", "-0.05", "99999999.99", "0.00", "-1"}[v%5],
		[]byte{0, byte(v), 0xff}, []byte{'c', 'o', 'd', byte('0' + v%10)},
		[]string{"1969-07-20", "2024-02-29", "1900-01-01", "9999-12-31", "1970-01-01"}[v%5],
		[]string{"2024-01-31T13:04:05.000001", "1969-12-31T23:59:59.999999", "2000-01-01T00:00:00"}[v%3],
		[]string{"2024-01-31T13:04:05.000001Z", "2024-01-31T15:04:05.5+02:00", "1960-06-01T00:00:00-07:00"}[v%3],
		[]any{"a", nil, "c\"q\n"}[:v%4],
		[][2]any{{"k", int32(v)}, {"j", nil}, {"a", int32(-1)}}[:v%4],
		map[string]any{"x": float64(v) / 4, "label": []any{"p", nil}[v%2]},
		fmt.Sprintf("%08x-0000-4000-8000-%012x", v, v*v),
	}
}

// everyTypeNulls is a row whose every optional column is NULL.
func everyTypeNulls(id int64) []any {
	r := make([]any, len(everyTypeColumns))
	r[0] = id
	return r
}

// everyTypeOps are EveryType's changes, and the rows the table holds
// after each (states[i] after ops[i]).
func everyTypeOps() (ops []Op, states [][][]any) {
	first := [][]any{everyTypeRow(1, "eu", 0), everyTypeRow(2, "us", 1), everyTypeRow(3, "eu", 2), everyTypeNulls(4)}
	second := [][]any{everyTypeRow(5, "us", 3), everyTypeRow(6, "apac", 4), everyTypeRow(7, "eu", 5)}
	replacement := [][]any{everyTypeRow(8, "eu", 6), everyTypeRow(9, "eu", 7)}
	ops = []Op{
		{Kind: Create, Columns: everyTypeColumns, PartitionBy: []string{"region"}},
		{Kind: Append, Rows: first},
		{Kind: Append, Rows: second},
		{Kind: Overwrite, Rows: replacement, Filter: "region = 'eu'"},
		{Kind: Delete, Filter: "id = 2"},
	}
	var rows [][]any
	states = append(states, nil)
	rows = slices.Clone(first)
	states = append(states, rows)
	rows = append(slices.Clone(rows), second...)
	states = append(states, rows)
	rows = slices.DeleteFunc(slices.Clone(rows), func(r []any) bool { return r[1] == "eu" })
	rows = append(rows, replacement...)
	states = append(states, rows)
	rows = slices.DeleteFunc(slices.Clone(rows), func(r []any) bool { return r[0] == int64(2) })
	states = append(states, rows)
	return ops, states
}
