package format

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// take keeps the selected rows of strings, binary, dictionaries and
// fixed-width values, NULLs included.
func TestTake(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	sel := []int32{0, 2, 3}
	sb := array.NewStringBuilder(mem)
	sb.AppendValues([]string{"a", "b", "", "d"}, []bool{true, true, false, true})
	strs := sb.NewArray()
	sb.Release()
	bb := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
	bb.AppendValues([][]byte{[]byte("a"), []byte("b"), nil, []byte("d")}, []bool{true, true, false, true})
	bins := bb.NewArray()
	bb.Release()
	ib := array.NewInt64Builder(mem)
	ib.AppendValues([]int64{1, 2, 0, 4}, []bool{true, true, false, true})
	ints := ib.NewArray()
	ib.Release()
	db := array.NewDictionaryBuilder(mem, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}).(*array.BinaryDictionaryBuilder)
	for _, v := range []string{"x", "y"} {
		db.AppendString(v)
	}
	db.AppendNull()
	db.AppendString("x")
	dict := db.NewArray()
	db.Release()
	for _, a := range []arrow.Array{strs, bins, ints, dict} {
		got := take(a, sel, mem)
		if got == nil {
			t.Fatalf("%s: not taken", a.DataType())
		}
		if got.Len() != 3 || got.NullN() != 1 || !got.IsNull(1) {
			t.Errorf("%s: %v, want rows 0, 2 (NULL), 3", a.DataType(), got)
		}
		for j, i := range sel {
			if got.IsNull(j) != a.IsNull(int(i)) || got.ValueStr(j) != a.ValueStr(int(i)) {
				t.Errorf("%s: row %d is %q, want row %d's %q", a.DataType(), j, got.ValueStr(j), i, a.ValueStr(int(i)))
			}
		}
		got.Release()
		a.Release()
	}
}
