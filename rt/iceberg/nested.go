package iceberg

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	ice "github.com/apache/iceberg-go"
	"github.com/nordisk/thund/rt/format"
)

// Nested evolution: a struct that gained a field, or one of whose fields
// was renamed, since a file was written. Such a column of the file does
// not conform to the declared type as a whole (rt/format matches nested
// parts by name, all of them), so it is read in the file's own type and
// projected here, part by part: a struct's fields found by their Iceberg
// field ids (the file's Parquet field ids, else by name), a field the file
// lacks NULL, the leaves converted as rt/format converts columns.

// projector turns a column of a file's nested type into the declared one.
type projector func(arrow.Array) (arrow.Array, error)

// fieldID is the Parquet field id pqarrow gives a field (-1: none).
func fieldID(f arrow.Field) int {
	if v, ok := f.Metadata.GetValue("PARQUET:field_id"); ok {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return -1
}

// project plans the projection of a file part f to the declared type decl,
// whose Iceberg type (with the parts' ids) is it; path names the part.
func project(f arrow.Field, decl arrow.DataType, it ice.Type, path string, mem memory.Allocator) (projector, error) {
	if c, ok := format.Conformer(f.Type, decl, mem); ok {
		return c, nil
	}
	refuse := func() error {
		return fmt.Errorf("column %s: file has %s, the table's schema says %s", path, format.TypeString(f.Type), format.TypeString(decl))
	}
	switch d := decl.(type) {
	case *arrow.StructType:
		fs, ok := f.Type.(*arrow.StructType)
		st, ok2 := it.(*ice.StructType)
		if !ok || !ok2 {
			return nil, refuse()
		}
		idx := make([]int, d.NumFields())
		subs := make([]projector, d.NumFields())
		for j, df := range d.Fields() {
			idx[j] = -1
			var nf *ice.NestedField
			for k := range st.FieldList {
				if strings.EqualFold(st.FieldList[k].Name, df.Name) {
					nf = &st.FieldList[k]
					break
				}
			}
			if nf == nil {
				return nil, fmt.Errorf("column %s: field %s is not in the table's schema", path, df.Name)
			}
			for k, ff := range fs.Fields() {
				if id := fieldID(ff); id == nf.ID || id < 0 && strings.EqualFold(ff.Name, df.Name) {
					idx[j] = k
					break
				}
			}
			if idx[j] < 0 {
				continue // not in the file: NULL
			}
			sub, err := project(fs.Field(idx[j]), df.Type, nf.Type, path+"."+df.Name, mem)
			if err != nil {
				return nil, err
			}
			subs[j] = sub
		}
		return func(col arrow.Array) (arrow.Array, error) {
			sa := col.(*array.Struct)
			n := sa.Len()
			children := make([]arrow.ArrayData, len(idx))
			release := func() {
				for _, c := range children {
					if c != nil {
						c.Release()
					}
				}
			}
			for j := range idx {
				var out arrow.Array
				if idx[j] < 0 {
					out = array.MakeArrayOfNull(mem, d.Field(j).Type, n)
				} else {
					var err error
					if out, err = subs[j](sa.Field(idx[j])); err != nil {
						release()
						return nil, err
					}
				}
				children[j] = out.Data()
				children[j].Retain()
				out.Release()
			}
			defer release()
			valid, nulls := validity(col, mem)
			if valid != nil {
				defer valid.Release()
			}
			d := array.NewData(decl, n, []*memory.Buffer{valid}, children, nulls, 0)
			defer d.Release()
			return array.MakeFromData(d), nil
		}, nil
	case *arrow.ListType:
		lt, ok := it.(*ice.ListType)
		var ef arrow.Field
		switch ft := f.Type.(type) {
		case *arrow.ListType:
			ef = ft.ElemField()
		case *arrow.LargeListType:
			ef = ft.ElemField()
		default:
			ok = false
		}
		if !ok {
			return nil, refuse()
		}
		sub, err := project(ef, d.Elem(), lt.Element, path+"[]", mem)
		if err != nil {
			return nil, err
		}
		return func(col arrow.Array) (arrow.Array, error) {
			values := col.(array.ListLike).ListValues()
			child, err := sub(values)
			if err != nil {
				return nil, err
			}
			defer child.Release()
			return rebuildList(col, decl, child, mem)
		}, nil
	case *arrow.MapType:
		mt, ok := it.(*ice.MapType)
		fm, ok2 := f.Type.(*arrow.MapType)
		if !ok || !ok2 {
			return nil, refuse()
		}
		keys, ok := format.Conformer(fm.KeyType(), d.KeyType(), mem)
		if !ok {
			return nil, refuse()
		}
		items, err := project(fm.ItemField(), d.ItemType(), mt.ValueType, path+"{value}", mem)
		if err != nil {
			return nil, err
		}
		return func(col arrow.Array) (arrow.Array, error) {
			m := col.(*array.Map)
			k, err := keys(m.Keys())
			if err != nil {
				return nil, err
			}
			defer k.Release()
			v, err := items(m.Items())
			if err != nil {
				return nil, err
			}
			defer v.Release()
			entries := array.NewData(d.Elem(), k.Len(), []*memory.Buffer{nil}, []arrow.ArrayData{k.Data(), v.Data()}, 0, 0)
			defer entries.Release()
			ea := array.MakeFromData(entries)
			defer ea.Release()
			return rebuildList(col, decl, ea, mem)
		}, nil
	}
	return nil, refuse()
}

// validity is a fresh validity bitmap of col (nil when it has no NULL)
// and its NULL count.
func validity(col arrow.Array, mem memory.Allocator) (*memory.Buffer, int) {
	if col.NullN() == 0 {
		return nil, 0
	}
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(int(bitutil.BytesForBits(int64(col.Len()))))
	bits := buf.Bytes()
	for i := 0; i < col.Len(); i++ {
		bitutil.SetBitTo(bits, i, col.IsValid(i))
	}
	return buf, col.NullN()
}

// rebuildList is the list (or map) col with the values child (the whole
// of col's values, projected) and the declared type decl: its offsets and
// validity copied from col, starting at 0.
func rebuildList(col arrow.Array, decl arrow.DataType, child arrow.Array, mem memory.Allocator) (arrow.Array, error) {
	n := col.Len()
	ll := col.(array.ListLike)
	offs := memory.NewResizableBuffer(mem)
	defer offs.Release()
	offs.Resize(arrow.Int32Traits.BytesRequired(n + 1))
	out := arrow.Int32Traits.CastFromBytes(offs.Bytes())
	for i := 0; i < n; i++ {
		start, end := ll.ValueOffsets(i)
		if end > math.MaxInt32 {
			return nil, fmt.Errorf("a list of more than %d values in all", math.MaxInt32)
		}
		out[i], out[i+1] = int32(start), int32(end)
	}
	if n == 0 {
		out[0] = 0
	}
	valid, nulls := validity(col, mem)
	if valid != nil {
		defer valid.Release()
	}
	d := array.NewData(decl, n, []*memory.Buffer{valid, offs}, []arrow.ArrayData{child.Data()}, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// readable is a file part's type with large and view layouts replaced by
// the model's (rt/format reads the part so: a type of the model, of the
// file's shape and field names, its fields' ids kept), or false when a
// leaf has no type of the model.
func readable(dt arrow.DataType) (arrow.DataType, bool) {
	field := func(f arrow.Field) (arrow.Field, bool) {
		t, ok := readable(f.Type)
		return arrow.Field{Name: f.Name, Type: t, Nullable: f.Nullable, Metadata: f.Metadata}, ok
	}
	switch t := dt.(type) {
	case *arrow.LargeStringType, *arrow.StringViewType:
		return arrow.BinaryTypes.String, true
	case *arrow.LargeBinaryType, *arrow.BinaryViewType:
		return arrow.BinaryTypes.Binary, true
	case *arrow.ListType:
		e, ok := field(t.ElemField())
		return arrow.ListOfField(e), ok
	case *arrow.LargeListType:
		e, ok := field(t.ElemField())
		return arrow.ListOfField(e), ok
	case *arrow.MapType:
		k, ok := readable(t.KeyType())
		v, ok2 := field(t.ItemField())
		m := arrow.MapOfWithMetadata(k, t.KeyField().Metadata, v.Type, v.Metadata)
		m.SetItemNullable(v.Nullable)
		return m, ok && ok2
	case *arrow.StructType:
		fs := make([]arrow.Field, t.NumFields())
		ok := true
		for i, f := range t.Fields() {
			var fok bool
			fs[i], fok = field(f)
			ok = ok && fok
		}
		return arrow.StructOf(fs...), ok
	}
	return dt, format.Supported(dt)
}
