package icebergcheck

import (
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/extensions"
)

// Row is one row in canonical form: each cell's text, in the columns'
// order. Two readers that return the same value give the same text,
// whatever Arrow type each used for it (string or large_string, list or
// large_list, a dictionary or plain values):
//
//	NULL                          NULL, at any depth
//	true, false                   boolean
//	-12, 7                        integers, in decimal
//	1.5, -0, NaN, +Inf, -Inf      floats: the shortest text that round-trips to the same float32 or float64
//	12.30, -0.05                  decimals, exactly at their scale
//	"a\n"                         strings, Go-quoted
//	x'00ff'                       binary and fixed, in lower-case hex
//	"12345678-9abc-..."           UUIDs (Arrow's arrow.uuid), as a string of their text
//	2024-01-31                    dates
//	13:04:05.000001               times of day, in microseconds
//	2024-01-31T13:04:05.000001Z   timestamps with a zone (timestamptz), in UTC, in microseconds
//	2024-01-31T13:04:05.000001    timestamps without one (timestamp): no Z, so the two never compare equal
//	[1, NULL, 3]                  lists, in their order
//	{"a" -> 1, "b" -> NULL}       maps, the entries sorted by the key's text
//	{x: 1, y: "s"}                structs, the fields in their order, by name
//
// A timestamp whose unit is finer than microseconds keeps nine fraction
// digits when it has a nanosecond part.
type Row []string

// String is the row as a line of a diff.
func (r Row) String() string { return strings.Join(r, ", ") }

// key is the row as a sort key (a separator no cell text contains).
func (r Row) key() string { return strings.Join(r, "\x1f") }

// Rows returns the rows of rec in canonical form.
func Rows(rec arrow.RecordBatch) []Row {
	out := make([]Row, rec.NumRows())
	for i := range out {
		out[i] = make(Row, rec.NumCols())
	}
	for c := 0; c < int(rec.NumCols()); c++ {
		col := rec.Column(c)
		for i := range out {
			out[i][c] = Cell(col, i)
		}
	}
	return out
}

// Cell returns the canonical text of value i of col (see Row).
func Cell(col arrow.Array, i int) string {
	if col.IsNull(i) {
		return "NULL"
	}
	switch a := col.(type) {
	case *array.Boolean:
		return strconv.FormatBool(a.Value(i))
	case *array.Int8:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Int16:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Int32:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10)
	case *array.Uint8:
		return strconv.FormatUint(uint64(a.Value(i)), 10)
	case *array.Uint16:
		return strconv.FormatUint(uint64(a.Value(i)), 10)
	case *array.Uint32:
		return strconv.FormatUint(uint64(a.Value(i)), 10)
	case *array.Uint64:
		return strconv.FormatUint(a.Value(i), 10)
	case *array.Float16:
		return Float(float64(a.Value(i).Float32()), 32)
	case *array.Float32:
		return Float(float64(a.Value(i)), 32)
	case *array.Float64:
		return Float(a.Value(i), 64)
	case *array.Decimal32:
		return a.Value(i).ToString(a.DataType().(arrow.DecimalType).GetScale())
	case *array.Decimal64:
		return a.Value(i).ToString(a.DataType().(arrow.DecimalType).GetScale())
	case *array.Decimal128:
		return a.Value(i).ToString(a.DataType().(arrow.DecimalType).GetScale())
	case *array.Decimal256:
		return a.Value(i).ToString(a.DataType().(arrow.DecimalType).GetScale())
	case *array.Date32:
		return a.Value(i).ToTime().Format(time.DateOnly)
	case *array.Date64:
		return a.Value(i).ToTime().Format(time.DateOnly)
	case *array.Time32:
		return clock(a.Value(i).ToTime(a.DataType().(*arrow.Time32Type).Unit))
	case *array.Time64:
		return clock(a.Value(i).ToTime(a.DataType().(*arrow.Time64Type).Unit))
	case *array.Timestamp:
		ts := a.DataType().(*arrow.TimestampType)
		return Timestamp(a.Value(i).ToTime(ts.Unit), ts.TimeZone != "")
	case *array.FixedSizeBinary:
		return Binary(a.Value(i))
	case *extensions.UUIDArray:
		// as the readers that have no UUID type (Spark) give it: a string
		return strconv.Quote(a.Value(i).String())
	case array.ExtensionArray:
		return Cell(a.Storage(), i)
	case *array.Dictionary:
		return Cell(a.Dictionary(), a.GetValueIndex(i))
	case *array.Struct:
		st := a.DataType().(*arrow.StructType)
		parts := make([]string, a.NumField())
		for f := range parts {
			parts[f] = st.Field(f).Name + ": " + Cell(a.Field(f), i)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *array.Map:
		start, end := a.ValueOffsets(i)
		var entries [][2]string
		for j := start; j < end; j++ {
			entries = append(entries, [2]string{Cell(a.Keys(), int(j)), Cell(a.Items(), int(j))})
		}
		return MapText(entries)
	case array.ListLike:
		start, end := a.ValueOffsets(i)
		elems := make([]string, 0, end-start)
		for j := start; j < end; j++ {
			elems = append(elems, Cell(a.ListValues(), int(j)))
		}
		return "[" + strings.Join(elems, ", ") + "]"
	case interface{ Value(int) string }: // string, large_string, string_view
		return strconv.Quote(a.Value(i))
	case interface{ Value(int) []byte }: // binary, large_binary, binary_view
		return Binary(a.Value(i))
	}
	return "?" + col.DataType().String() + ":" + col.ValueStr(i)
}

// Float is the canonical text of a float of bits 32 or 64.
func Float(v float64, bits int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, bits)
}

// Binary is the canonical text of bytes.
func Binary(b []byte) string { return "x'" + hex.EncodeToString(b) + "'" }

// Timestamp is the canonical text of an instant: in UTC, with a Z when
// the column has a zone (Iceberg's timestamptz) and without one when it
// has none (timestamp).
func Timestamp(t time.Time, zoned bool) string {
	t = t.UTC()
	layout := "2006-01-02T15:04:05.000000"
	if t.Nanosecond()%1000 != 0 {
		layout = "2006-01-02T15:04:05.000000000"
	}
	s := t.Format(layout)
	if zoned {
		s += "Z"
	}
	return s
}

// clock is the canonical text of a time of day.
func clock(t time.Time) string {
	if t.Nanosecond()%1000 != 0 {
		return t.Format("15:04:05.000000000")
	}
	return t.Format("15:04:05.000000")
}

// MapText is the canonical text of a map from its entries' canonical
// key and value texts, sorted here by key.
func MapText(entries [][2]string) string {
	slices.SortFunc(entries, func(x, y [2]string) int {
		if c := strings.Compare(x[0], y[0]); c != 0 {
			return c
		}
		return strings.Compare(x[1], y[1])
	})
	parts := make([]string, len(entries))
	for i, e := range entries {
		parts[i] = e[0] + " -> " + e[1]
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// TypeText is an Arrow type as a table records it: a timestamp says only
// whether it has a zone (readers differ in the zone's spelling: UTC,
// +00:00, Etc/UTC), not which.
func TypeText(dt arrow.DataType) string {
	if ts, ok := dt.(*arrow.TimestampType); ok {
		zone := "ntz"
		if ts.TimeZone != "" {
			zone = "utc"
		}
		return "timestamp[" + ts.Unit.String() + "," + zone + "]"
	}
	return dt.String()
}

// Table is a table as one reader returned it: the column names, their
// Arrow types (TypeText) and the rows in canonical form.
type Table struct {
	Columns    []string
	ArrowTypes []string
	Rows       []Row
	// UnorderedLists are columns of lists whose element order the reader
	// does not define (Spark's collect_set): Add sorts their elements, so
	// that two readers' lists of one multiset compare equal. Set it before
	// the first Add. Names match without regard to case.
	UnorderedLists []string
}

// SetSchema sets the columns and their types from s.
func (t *Table) SetSchema(s *arrow.Schema) {
	t.Columns, t.ArrowTypes = []string{}, []string{}
	for _, f := range s.Fields() {
		t.Columns = append(t.Columns, f.Name)
		t.ArrowTypes = append(t.ArrowTypes, TypeText(f.Type))
	}
}

// Add appends the rows of rec (the first call sets the schema when
// SetSchema was not called).
func (t *Table) Add(rec arrow.RecordBatch) {
	if t.Columns == nil {
		t.SetSchema(rec.Schema())
	}
	rows := Rows(rec)
	for _, name := range t.UnorderedLists {
		c := slices.IndexFunc(t.Columns, func(col string) bool { return strings.EqualFold(col, name) })
		if c < 0 {
			continue
		}
		col, ok := rec.Column(c).(array.ListLike)
		if !ok {
			continue
		}
		for i := range rows {
			if col.IsNull(i) {
				continue
			}
			start, end := col.ValueOffsets(i)
			var elems []string
			for j := start; j < end; j++ {
				elems = append(elems, Cell(col.ListValues(), int(j)))
			}
			slices.Sort(elems)
			rows[i][c] = "[" + strings.Join(elems, ", ") + "]"
		}
	}
	t.Rows = append(t.Rows, rows...)
}

// Options are how Diff compares.
type Options struct {
	// FloatTolerance, when not 0, compares the cells of float columns
	// (top-level float32 and float64) within this relative tolerance
	// instead of exactly. NaN equals NaN.
	FloatTolerance float64
	// Types compares the columns' Arrow types too.
	Types bool
	// FoldCase compares column names without regard to case.
	FoldCase bool
	// Want and Got name the two sides in the diff ("want" and "got").
	Want, Got string
	// MaxRows is how many differing rows the diff shows (default 20).
	MaxRows int
}

// isFloatType reports whether TypeText t is a float's.
func isFloatType(t string) bool {
	switch t {
	case "float16", "float32", "float64", "float", "double":
		return true
	}
	return false
}

// Diff compares want and got as multisets of rows over the same columns
// (got's columns may come in another order); "" when they are equal.
// Otherwise it says which columns differ, or shows the first differing
// rows, want's with - and got's with +, and the row counts.
func Diff(want, got *Table, o Options) string {
	if o.Want == "" {
		o.Want = "want"
	}
	if o.Got == "" {
		o.Got = "got"
	}
	if o.MaxRows == 0 {
		o.MaxRows = 20
	}
	norm := func(s string) string {
		if o.FoldCase {
			return strings.ToLower(s)
		}
		return s
	}
	idx := make([]int, len(want.Columns))
	ok := len(want.Columns) == len(got.Columns)
	for i, c := range want.Columns {
		idx[i] = slices.IndexFunc(got.Columns, func(g string) bool { return norm(g) == norm(c) })
		ok = ok && idx[i] >= 0
	}
	if !ok {
		return fmt.Sprintf("columns: %s %v, %s %v\n", o.Want, want.Columns, o.Got, got.Columns)
	}
	var b strings.Builder
	floats := make([]bool, len(want.Columns))
	for i := range want.Columns {
		var wt, gt string
		if i < len(want.ArrowTypes) {
			wt = want.ArrowTypes[i]
		}
		if idx[i] < len(got.ArrowTypes) {
			gt = got.ArrowTypes[idx[i]]
		}
		if o.Types && wt != gt {
			fmt.Fprintf(&b, "column %s: %s type %s, %s type %s\n", want.Columns[i], o.Want, wt, o.Got, gt)
		}
		floats[i] = o.FloatTolerance != 0 && isFloatType(wt) && isFloatType(gt)
	}
	gotRows := make([]Row, len(got.Rows))
	for r, row := range got.Rows {
		gotRows[r] = make(Row, len(idx))
		for i, j := range idx {
			gotRows[r][i] = row[j]
		}
	}
	// sort keys: with a tolerance, floats rounded to 9 digits so that
	// values within it sort together
	key := func(r Row) string {
		if o.FloatTolerance == 0 {
			return r.key()
		}
		k := slices.Clone(r)
		for i := range k {
			if floats[i] {
				if v, err := strconv.ParseFloat(k[i], 64); err == nil {
					k[i] = strconv.FormatFloat(v, 'g', 9, 64)
				}
			}
		}
		return k.key()
	}
	type keyed struct {
		k string
		r Row
	}
	sorted := func(rows []Row) []keyed {
		out := make([]keyed, len(rows))
		for i, r := range rows {
			out[i] = keyed{key(r), r}
		}
		slices.SortFunc(out, func(x, y keyed) int { return strings.Compare(x.k, y.k) })
		return out
	}
	equal := func(x, y Row) bool {
		for i := range x {
			if x[i] == y[i] {
				continue
			}
			if !floats[i] {
				return false
			}
			a, errA := strconv.ParseFloat(x[i], 64)
			c, errC := strconv.ParseFloat(y[i], 64)
			if errA != nil || errC != nil || !(math.IsNaN(a) && math.IsNaN(c)) &&
				math.Abs(a-c) > o.FloatTolerance*math.Max(math.Abs(a), math.Abs(c)) {
				return false
			}
		}
		return true
	}
	a, z := sorted(want.Rows), sorted(gotRows)
	i, j, shown := 0, 0, 0
	show := func(sign string, r Row) {
		if shown < o.MaxRows {
			fmt.Fprintf(&b, "%s %s\n", sign, r)
		}
		shown++
	}
	for i < len(a) || j < len(z) {
		switch {
		case i < len(a) && j < len(z) && equal(a[i].r, z[j].r):
			i++
			j++
		case j == len(z) || (i < len(a) && a[i].k < z[j].k):
			show("-", a[i].r)
			i++
		default:
			show("+", z[j].r)
			j++
		}
	}
	if shown > o.MaxRows {
		fmt.Fprintf(&b, "... and %d more rows differ\n", shown-o.MaxRows)
	}
	if shown > 0 {
		fmt.Fprintf(&b, "(%d rows %s, %d rows %s; - rows only %s has, + rows only %s has)\n",
			len(a), o.Want, len(z), o.Got, o.Want, o.Got)
	}
	return b.String()
}
