package format

import (
	"fmt"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// manyGroups is a Parquet file of rows rows (a = i, b = "s<i>", c = 2i)
// in row groups of group rows.
func manyGroups(t *testing.T, rows, group int) ([]byte, *arrow.Schema) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		{Name: "b", Type: arrow.BinaryTypes.String},
		{Name: "c", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range rows {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		b.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("s%d", i))
		b.Field(2).(*array.Int64Builder).Append(int64(2 * i))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	return pqarrowFile(t, rec, []parquet.WriterProperty{parquet.WithMaxRowGroupLength(int64(group))}, pqarrow.DefaultWriterProps()), schema
}

// Row groups decoded in parallel come out in file order, and only the
// columns asked for are decoded: the others are NULL.
func TestParquetParallelOrderAndColumns(t *testing.T) {
	data, schema := manyGroups(t, 1000, 37)
	for _, threads := range []int{1, 3, 8} {
		recs, err := readBytes(data, "x.parquet", Parquet, schema, Options{Threads: threads, BatchRows: 16, Columns: []int{2, 0}})
		if err != nil {
			t.Fatal(err)
		}
		next := int64(0)
		for _, r := range recs {
			if r.NumRows() > 16 {
				t.Errorf("threads %d: a batch of %d rows, want at most 16", threads, r.NumRows())
			}
			a, c := r.Column(0).(*array.Int64), r.Column(2).(*array.Int64)
			if r.Column(1).NullN() != int(r.NumRows()) {
				t.Errorf("threads %d: column b was not asked for, yet has %d non-NULL values", threads, int(r.NumRows())-r.Column(1).NullN())
			}
			for i := 0; i < int(r.NumRows()); i++ {
				if a.Value(i) != next || c.Value(i) != 2*next {
					t.Fatalf("threads %d: row %d is (%d, %d), want (%d, %d)", threads, next, a.Value(i), c.Value(i), next, 2*next)
				}
				next++
			}
		}
		release(recs)
		if next != 1000 {
			t.Errorf("threads %d: %d rows, want 1000", threads, next)
		}
	}
	// no column at all still counts the rows
	recs, err := readBytes(data, "x.parquet", Parquet, schema, Options{Threads: 2, Columns: []int{}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range recs {
		n += int(r.NumRows())
		if r.Column(0).NullN() != int(r.NumRows()) {
			t.Errorf("column a was not asked for, yet has values")
		}
	}
	release(recs)
	if n != 1000 {
		t.Errorf("no columns: %d rows, want 1000", n)
	}
	// a column asked for is still checked against the file
	bad := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int64}, {Name: "zz", Type: arrow.PrimitiveTypes.Int64}}, nil)
	if _, err := readBytes(data, "x.parquet", Parquet, bad, Options{Columns: []int{0}}); err == nil {
		t.Errorf("a declared column missing from the file was not reported")
	}
}

// Closing a reader before its end stops the decoding ahead of it.
func TestParquetCloseEarly(t *testing.T) {
	data, schema := manyGroups(t, 2000, 10)
	r, err := Open(obj(data), "x.parquet", Parquet, schema, Options{Threads: 4, BatchRows: 5})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.Column(0).(*array.Int64).Value(0); got != 0 {
		t.Errorf("first row a = %d, want 0", got)
	}
	rec.Release()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err == nil {
		t.Errorf("Next after Close succeeded")
	}
}

// Row groups whose statistics exclude a bound are skipped; the others are
// read whole (the caller filters).
func TestParquetBoundsSkipRowGroups(t *testing.T) {
	data, schema := manyGroups(t, 1000, 37) // a = 0..999 in order: group g holds 37g..37g+36
	count := func(bounds ...Bound) (rows int, first int64) {
		recs, err := readBytes(data, "x.parquet", Parquet, schema, Options{Threads: 2, Bounds: bounds})
		if err != nil {
			t.Fatal(err)
		}
		defer release(recs)
		first = -1
		for _, r := range recs {
			if first < 0 && r.NumRows() > 0 {
				first = r.Column(0).(*array.Int64).Value(0)
			}
			rows += int(r.NumRows())
		}
		return rows, first
	}
	for _, c := range []struct {
		bounds      []Bound
		rows        int
		first       int64
		description string
	}{
		{[]Bound{{Col: 0, Op: ">=", Value: 900}}, 1000 - 888, 888, "a >= 900 reads the groups from 888"},
		{[]Bound{{Col: 0, Op: ">", Value: 999}}, 0, -1, "a > 999 reads nothing"},
		{[]Bound{{Col: 0, Op: "<", Value: 37}}, 37, 0, "a < 37 reads the first group"},
		{[]Bound{{Col: 0, Op: "=", Value: 40}}, 37, 37, "a = 40 reads the second group"},
		{[]Bound{{Col: 2, Op: "<=", Value: 10}, {Col: 0, Op: ">=", Value: 0}}, 37, 0, "c <= 10 and a >= 0"},
		{[]Bound{{Col: 1, Op: "=", Text: "s40"}}, 1, 40, "b = 's40' keeps its one row (rowfilter.go)"},
		{nil, 1000, 0, "no bounds"},
	} {
		rows, first := count(c.bounds...)
		if rows != c.rows || first != c.first {
			t.Errorf("%s: %d rows from a = %d, want %d rows from %d", c.description, rows, first, c.rows, c.first)
		}
	}
}

// stringsFile is a Parquet file of rows rows: a = i, s = one of four
// strings (NULL every seventh row), c = 10i; dictionary-encoded unless
// plain.
func stringsFile(t *testing.T, rows int, plain bool) ([]byte, *arrow.Schema) {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "c", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for i := range rows {
		b.Field(0).(*array.Int64Builder).Append(int64(i))
		if i%7 == 0 {
			b.Field(1).(*array.StringBuilder).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append([]string{"apple", "google", "facebook", "baidu"}[i%4])
		}
		if i%5 == 0 {
			b.Field(2).(*array.Int32Builder).AppendNull()
		} else {
			b.Field(2).(*array.Int32Builder).Append(int32(10 * i))
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	props := []parquet.WriterProperty{parquet.WithMaxRowGroupLength(300)}
	if plain {
		props = append(props, parquet.WithDictionaryDefault(false))
	}
	return pqarrowFile(t, rec, props, pqarrow.DefaultWriterProps()), schema
}

// A bound on a string column drops the rows that miss any bound, before
// their strings are made; the rows kept are whole and in order, NULLs
// included in the other columns.
func TestParquetStringBoundDropsRows(t *testing.T) {
	const rows = 1000
	for _, plain := range []bool{false, true} {
		data, schema := stringsFile(t, rows, plain)
		for _, c := range []struct {
			bounds []Bound
			cols   []int
			keep   func(i int) bool
			about  string
		}{
			{[]Bound{{Col: 1, Op: "=", Text: "google"}}, nil,
				func(i int) bool { return i%7 != 0 && i%4 == 1 }, "s = 'google'"},
			{[]Bound{{Col: 1, Op: "=", Text: "google"}, {Col: 0, Op: ">=", Value: 500}}, []int{0, 1, 2},
				func(i int) bool { return i%7 != 0 && i%4 == 1 && i >= 500 }, "s = 'google' and a >= 500"},
			{[]Bound{{Col: 2, Op: ">", Value: 5000}, {Col: 1, Op: "=", Text: "apple"}}, []int{0, 1, 2},
				func(i int) bool { return i%7 != 0 && i%4 == 0 && i%5 != 0 && 10*i > 5000 }, "c > 5000 (NULLs fail) and s = 'apple'"},
			{[]Bound{{Col: 1, Op: "=", Text: "pear"}}, nil, func(int) bool { return false }, "s = 'pear' (in no dictionary)"},
			{[]Bound{{Col: 1, Op: "=", Text: "apple"}}, []int{0, 2},
				func(int) bool { return true }, "a bound on a column not read is not applied"},
		} {
			var want []int
			for i := range rows {
				if c.keep(i) {
					want = append(want, i)
				}
			}
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			recs, err := readBytes(data, "x.parquet", Parquet, schema, Options{Mem: mem, Threads: 2, BatchRows: 64, Bounds: c.bounds, Columns: c.cols})
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, r := range recs {
				a := r.Column(0).(*array.Int64)
				s, _ := r.Column(1).(*array.String)
				cc := r.Column(2).(*array.Int32)
				for j := 0; j < int(r.NumRows()); j++ {
					i := int(a.Value(j))
					got = append(got, i)
					if c.cols == nil || slices.Contains(c.cols, 1) {
						wantS := []string{"apple", "google", "facebook", "baidu"}[i%4]
						if s == nil || (i%7 == 0) != s.IsNull(j) || i%7 != 0 && s.Value(j) != wantS {
							t.Fatalf("plain %v, %s: row %d: s is wrong", plain, c.about, i)
						}
					}
					if (i%5 == 0) != cc.IsNull(j) || i%5 != 0 && cc.Value(j) != int32(10*i) {
						t.Fatalf("plain %v, %s: row %d: c is wrong", plain, c.about, i)
					}
				}
			}
			release(recs)
			mem.AssertSize(t, 0) // the filtered batches are released
			if !slices.Equal(got, want) {
				t.Errorf("plain %v, %s: rows %v, want %v", plain, c.about, got, want)
			}
		}
	}
}
