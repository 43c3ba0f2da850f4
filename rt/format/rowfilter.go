package format

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A Parquet reader given a Bound on a string column (Text) reads that
// column's dictionary indices rather than its strings (pqarrow's read-dict
// option), and drops the rows of each batch that do not meet every bound
// before any string is made, on the goroutine that decoded the row group: a string bound compares each row's index with
// the index of Text in the batch's dictionary (once per dictionary), an
// integer bound the row's value. The rows kept are copied into new arrays
// (the dictionary column as indices into the same dictionary); the
// conforming step then makes strings of the kept rows only.

// rowBound is a Bound on a column of the decoded batches.
type rowBound struct {
	pos int // the column in the decoded batch
	b   Bound
	// a string bound: the last dictionary seen and Text's index in it (-1
	// absent)
	dict  arrow.ArrayData
	match int
}

// rowFilter drops the rows of decoded batches that miss a bound.
type rowFilter struct {
	bounds []*rowBound
	mem    memory.Allocator
	sel    []int32
}

// clone is a filter of the same bounds for another goroutine.
func (f *rowFilter) clone() *rowFilter {
	c := &rowFilter{mem: f.mem}
	for _, rb := range f.bounds {
		c.bounds = append(c.bounds, &rowBound{pos: rb.pos, b: rb.b})
	}
	return c
}

// table returns the rows of a decoded row group that meet every bound, as
// a table of batches of at most batch rows; it takes tbl over.
func (f *rowFilter) table(tbl arrow.Table, batch int64) arrow.Table {
	defer tbl.Release()
	tr := array.NewTableReader(tbl, batch)
	defer tr.Release()
	var recs []arrow.RecordBatch
	for tr.Next() {
		if r := f.apply(tr.RecordBatch()); r != nil {
			recs = append(recs, r)
		}
	}
	out := array.NewTableFromRecords(tbl.Schema(), recs)
	for _, r := range recs {
		r.Release()
	}
	return out
}

// apply returns the rows of rec that meet every bound, as a new batch the
// caller releases, or rec itself (retained) when every row does or when a
// column cannot be filtered here; nil when no row does.
func (f *rowFilter) apply(rec arrow.RecordBatch) arrow.RecordBatch {
	n := int(rec.NumRows())
	if cap(f.sel) < n {
		f.sel = make([]int32, 0, n) // once per row group: a filter is cloned for each
	}
	f.sel = f.sel[:0]
	for i := range n {
		f.sel = append(f.sel, int32(i))
	}
	for _, rb := range f.bounds {
		col := rec.Column(rb.pos)
		if !rb.keep(col, &f.sel) {
			rec.Retain()
			return rec // a column type this filter does not know: keep all
		}
		if len(f.sel) == 0 {
			return nil
		}
	}
	if len(f.sel) == n {
		rec.Retain()
		return rec
	}
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i := range cols {
		if cols[i] = take(rec.Column(i), f.sel, f.mem); cols[i] == nil {
			rec.Retain()
			return rec
		}
	}
	return array.NewRecordBatch(rec.Schema(), cols, int64(len(f.sel)))
}

// keep narrows sel to the rows whose value in col meets the bound; false
// when col's type is not one it compares.
func (rb *rowBound) keep(col arrow.Array, sel *[]int32) bool {
	out := (*sel)[:0]
	switch c := col.(type) {
	case *array.Dictionary:
		if rb.b.Op != "=" {
			return false
		}
		if rb.dict != c.Dictionary().Data() {
			rb.dict, rb.match = c.Dictionary().Data(), -1
			switch d := c.Dictionary().(type) {
			case *array.String:
				for i := 0; i < d.Len(); i++ {
					if d.IsValid(i) && d.Value(i) == rb.b.Text {
						rb.match = i
						break
					}
				}
			default:
				rb.dict = nil
				return false
			}
		}
		if rb.match < 0 {
			*sel = out
			return true
		}
		m := rb.match
		idx, ok := c.Indices().(*array.Int32)
		if !ok {
			for _, i := range *sel {
				if c.IsValid(int(i)) && c.GetValueIndex(int(i)) == m {
					out = append(out, i)
				}
			}
			break
		}
		vals := idx.Int32Values()
		for _, i := range *sel {
			if vals[i] == int32(m) && (c.NullN() == 0 || c.IsValid(int(i))) {
				out = append(out, i)
			}
		}
	case *array.String:
		if rb.b.Op != "=" {
			return false
		}
		for _, i := range *sel {
			if c.IsValid(int(i)) && c.Value(int(i)) == rb.b.Text {
				out = append(out, i)
			}
		}
	case *array.Int64:
		out = keepInts(rb.b, c.Int64Values(), validity(c), *sel)
	case *array.Int32:
		out = keepInts(rb.b, c.Int32Values(), validity(c), *sel)
	default:
		return false
	}
	*sel = out
	return true
}

// keepInts narrows sel to the rows of vals (valid where valid says) that
// meet the integer bound b.
func keepInts[T int32 | int64](b Bound, vals []T, valid func(int) bool, sel []int32) []int32 {
	out := sel[:0]
	v := b.Value
	const eq, lt, le, gt, ge, none = 0, 1, 2, 3, 4, 5
	op := none // switched on per row as an int, not a string
	switch b.Op {
	case "=":
		op = eq
	case "<":
		op = lt
	case "<=":
		op = le
	case ">":
		op = gt
	case ">=":
		op = ge
	}
	for _, i := range sel {
		x := int64(vals[i])
		var ok bool
		switch op {
		case eq:
			ok = x == v
		case lt:
			ok = x < v
		case le:
			ok = x <= v
		case gt:
			ok = x > v
		case ge:
			ok = x >= v
		default:
			ok = true
		}
		if ok && (valid == nil || valid(int(i))) {
			out = append(out, i)
		}
	}
	return out
}

// takeVar copies the rows sel of a string or binary array a through b.
func takeVar[T string | []byte](b interface {
	array.Builder
	Append(T)
}, a interface {
	IsNull(int) bool
	Value(int) T
}, sel []int32) arrow.Array {
	defer b.Release()
	b.Reserve(len(sel))
	for _, i := range sel {
		if a.IsNull(int(i)) {
			b.AppendNull()
		} else {
			b.Append(a.Value(int(i)))
		}
	}
	return b.NewArray()
}

// validity is a's IsValid, or nil when a has no NULLs.
func validity(a arrow.Array) func(int) bool {
	if a.NullN() == 0 {
		return nil
	}
	return a.IsValid
}

// take copies the rows sel of a, or returns nil for a type it does not
// copy: fixed-width values of whole bytes, strings, binary, and
// dictionaries (their indices; the dictionary is shared).
func take(a arrow.Array, sel []int32, mem memory.Allocator) arrow.Array {
	switch c := a.(type) {
	case *array.Dictionary:
		idx := take(c.Indices(), sel, mem)
		if idx == nil {
			return nil
		}
		defer idx.Release()
		return array.NewDictionaryArray(c.DataType(), idx, c.Dictionary())
	case *array.String:
		return takeVar(array.NewStringBuilder(mem), c, sel)
	case *array.Binary:
		return takeVar(array.NewBinaryBuilder(mem, c.DataType().(arrow.BinaryDataType)), c, sel)
	}
	fw, ok := a.DataType().(arrow.FixedWidthDataType)
	if !ok || fw.BitWidth() < 8 || fw.BitWidth()%8 != 0 || len(a.Data().Buffers()) != 2 || a.Data().Buffers()[1] == nil {
		return nil
	}
	w := fw.BitWidth() / 8
	off := a.Data().Offset()
	src := a.Data().Buffers()[1].Bytes()[off*w:]
	vals := memory.NewResizableBuffer(mem)
	defer vals.Release()
	vals.Resize(len(sel) * w)
	dst := vals.Bytes()
	for j, i := range sel {
		copy(dst[j*w:(j+1)*w], src[int(i)*w:(int(i)+1)*w])
	}
	var valid *memory.Buffer
	nulls := 0
	if a.NullN() > 0 {
		valid = memory.NewResizableBuffer(mem)
		defer valid.Release()
		valid.Resize(int(bitutil.BytesForBits(int64(len(sel)))))
		bits := valid.Bytes()
		clear(bits)
		for j, i := range sel {
			if a.IsValid(int(i)) {
				bitutil.SetBit(bits, j)
			} else {
				nulls++
			}
		}
	}
	data := array.NewData(a.DataType(), len(sel), []*memory.Buffer{valid, vals}, nil, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}
