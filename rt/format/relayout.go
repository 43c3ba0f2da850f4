package format

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Nested columns in another layout: pyarrow (and so pyiceberg) writes the
// Arrow schema of a Parquet file with large types (large_list,
// large_string, large_binary), which pqarrow then reads back as such. A
// declared array, map or struct reads such a column when only the layouts
// differ (and what conformFor accepts of its leaves' strings and
// binaries): the offsets are narrowed to 32 bits (a column of more than 2
// GiB of offsets is a per-value error) and the parts converted one by one.

// relayoutable reports whether a nested column of type from reads as to by
// relayout.
func relayoutable(from, to arrow.DataType) bool {
	return sameShape(from, to, true, layoutOrEqual)
}

func layoutOrEqual(from, to arrow.DataType) bool {
	if arrow.TypeEqual(from, to) || relayoutable(from, to) {
		return true
	}
	switch to.ID() {
	case arrow.STRING:
		return from.ID() == arrow.LARGE_STRING || from.ID() == arrow.STRING_VIEW
	case arrow.BINARY:
		return from.ID() == arrow.LARGE_BINARY || from.ID() == arrow.BINARY_VIEW
	}
	return false
}

// relayoutConformer reads a relayoutable column as to.
func relayoutConformer(to arrow.DataType, mem memory.Allocator) conformer {
	return func(col arrow.Array) (arrow.Array, int, error) {
		d, err := relayout(col.Data(), to, mem)
		if err != nil {
			return nil, 0, err
		}
		defer d.Release()
		return array.MakeFromData(d), 0, nil
	}
}

// relayout gives data (of a type layoutOrEqual accepts) the type to.
func relayout(data arrow.ArrayData, to arrow.DataType, mem memory.Allocator) (arrow.ArrayData, error) {
	if arrow.TypeEqual(data.DataType(), to) {
		data.Retain()
		return data, nil
	}
	bufs := data.Buffers()
	switch t := to.(type) {
	case *arrow.StringType, *arrow.BinaryType:
		a := array.MakeFromData(data)
		defer a.Release()
		out, _, err := bytesCast(to, mem)(a)
		if err != nil {
			return nil, err
		}
		defer out.Release()
		d := out.Data()
		d.Retain()
		return d, nil
	case *arrow.ListType, *arrow.MapType:
		var elem arrow.DataType
		if l, ok := t.(*arrow.ListType); ok {
			elem = l.Elem()
		} else {
			elem = t.(*arrow.MapType).Elem()
		}
		child, err := relayout(data.Children()[0], elem, mem)
		if err != nil {
			return nil, err
		}
		defer child.Release()
		offsets := bufs[1]
		if data.DataType().ID() == arrow.LARGE_LIST && offsets != nil {
			// 64-bit offsets to 32: every entry up to the slice's end
			n := data.Offset() + data.Len() + 1
			wide := arrow.Int64Traits.CastFromBytes(offsets.Bytes())
			if len(wide) < n {
				return nil, fmt.Errorf("a list column holds %d offsets for %d values", len(wide), data.Offset()+data.Len())
			}
			wide = wide[:n]
			nb := memory.NewResizableBuffer(mem)
			nb.Resize(arrow.Int32Traits.BytesRequired(n))
			narrow := arrow.Int32Traits.CastFromBytes(nb.Bytes())
			for i, o := range wide {
				if o < 0 || o > math.MaxInt32 {
					nb.Release()
					return nil, fmt.Errorf("a list of more than %d values in all cannot be read as %s", math.MaxInt32, TypeString(to))
				}
				narrow[i] = int32(o)
			}
			defer nb.Release()
			offsets = nb
		}
		return array.NewData(to, data.Len(), []*memory.Buffer{bufs[0], offsets}, []arrow.ArrayData{child}, data.NullN(), data.Offset()), nil
	case *arrow.StructType:
		children := make([]arrow.ArrayData, len(data.Children()))
		for i, c := range data.Children() {
			d, err := relayout(c, t.Field(i).Type, mem)
			if err != nil {
				for _, x := range children[:i] {
					x.Release()
				}
				return nil, err
			}
			children[i] = d
		}
		out := array.NewData(to, data.Len(), []*memory.Buffer{bufs[0]}, children, data.NullN(), data.Offset())
		for _, c := range children {
			c.Release()
		}
		return out, nil
	}
	return nil, fmt.Errorf("cannot read %s as %s", data.DataType(), TypeString(to))
}

// Conformer is the lossless conversion of a column of a file's type from
// to the declared type to (what a reader accepts: the same type, the casts
// conformFor lists), or false. A value that does not convert (an overflow)
// is an error naming its row.
func Conformer(from, to arrow.DataType, mem memory.Allocator) (func(arrow.Array) (arrow.Array, error), bool) {
	c, ok := conformFor(from, to, mem)
	if !ok {
		return nil, false
	}
	return func(col arrow.Array) (arrow.Array, error) {
		out, row, err := c(col)
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", row+1, err)
		}
		return out, nil
	}, true
}
