package pqstate

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/format/pqread"
)

// Magic is how a Parquet file begins (and ends): LoadState tells a Parquet
// snapshot from one an older runtime encoded otherwise.
const Magic = "PAR1"

var timeType = reflect.TypeFor[time.Time]()

// arrowType maps a Go type to the Arrow type its values are stored as.
func arrowType(t reflect.Type, path string) (arrow.DataType, error) {
	if t == timeType {
		return &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}, nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return arrow.FixedWidthTypes.Boolean, nil
	case reflect.Int8, reflect.Int16, reflect.Int32:
		return arrow.PrimitiveTypes.Int32, nil
	case reflect.Int, reflect.Int64:
		return arrow.PrimitiveTypes.Int64, nil
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return arrow.PrimitiveTypes.Int64, nil
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return arrow.PrimitiveTypes.Uint64, nil
	case reflect.Float32:
		return arrow.PrimitiveTypes.Float32, nil
	case reflect.Float64:
		return arrow.PrimitiveTypes.Float64, nil
	case reflect.String:
		return arrow.BinaryTypes.String, nil
	case reflect.Pointer:
		return arrowType(t.Elem(), path)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return arrow.BinaryTypes.Binary, nil
		}
		et, err := arrowType(t.Elem(), path+"[]")
		if err != nil {
			return nil, err
		}
		return arrow.ListOfField(arrow.Field{Name: "element", Type: et, Nullable: true}), nil
	case reflect.Struct:
		fs, err := structFields(t, path)
		if err != nil {
			return nil, err
		}
		if len(fs) == 0 {
			// Parquet has no empty groups: an empty struct is a null bool.
			return arrow.FixedWidthTypes.Boolean, nil
		}
		return arrow.StructOf(fs...), nil
	}
	return nil, fmt.Errorf("state field %s: type %s cannot be stored in a snapshot", path, t)
}

// stored is the indexes of t's fields a snapshot holds: all but those
// tagged `pqstate:"-"` (an index derived from the stored fields, rebuilt
// after Unmarshal by its owner).
func stored(t reflect.Type) []int {
	var idx []int
	for i := range t.NumField() {
		if t.Field(i).Tag.Get("pqstate") != "-" {
			idx = append(idx, i)
		}
	}
	return idx
}

// structFields is t's stored fields as Arrow fields, in declaration order.
func structFields(t reflect.Type, path string) ([]arrow.Field, error) {
	fs := make([]arrow.Field, 0, t.NumField())
	for _, i := range stored(t) {
		sf := t.Field(i)
		p := path + "." + sf.Name
		if !sf.IsExported() {
			return nil, fmt.Errorf("state field %s is not exported: a snapshot holds exported fields only", p)
		}
		at, err := arrowType(sf.Type, p)
		if err != nil {
			return nil, err
		}
		fs = append(fs, arrow.Field{Name: sf.Name, Type: at, Nullable: true})
	}
	return fs, nil
}

// Marshal encodes v, a struct or a pointer to one, as a Parquet file of one
// row, as rt/format writes Parquet (Snappy, the Arrow schema stored).
func Marshal(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return nil, fmt.Errorf("pqstate: Marshal of a nil %s", rv.Type())
		}
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return nil, fmt.Errorf("pqstate: Marshal wants a struct, not %s", rv.Type())
	}
	fs, err := structFields(rv.Type(), rv.Type().Name())
	if err != nil {
		return nil, err
	}
	if len(fs) == 0 {
		return nil, fmt.Errorf("pqstate: %s has no fields to store", rv.Type())
	}
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema(fs, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i, fi := range stored(rv.Type()) {
		appendValue(b.Field(i), rv.Field(fi))
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := format.NewWriter(&buf, format.Parquet, schema, format.WriteOptions{Mem: mem})
	if err != nil {
		return nil, fmt.Errorf("pqstate: %w", err)
	}
	if err := w.Write(rec); err != nil {
		w.Close()
		return nil, fmt.Errorf("pqstate: writing %s: %w", rv.Type(), err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("pqstate: writing %s: %w", rv.Type(), err)
	}
	return buf.Bytes(), nil
}

// appendValue appends v to b, whose type arrowType(v.Type()) gave.
func appendValue(b array.Builder, v reflect.Value) {
	t := v.Type()
	if t == timeType {
		tm := v.Interface().(time.Time)
		if tm.IsZero() {
			b.AppendNull()
			return
		}
		b.(*array.TimestampBuilder).Append(arrow.Timestamp(tm.UnixNano()))
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		b.(*array.BooleanBuilder).Append(v.Bool())
	case reflect.Int8, reflect.Int16, reflect.Int32:
		b.(*array.Int32Builder).Append(int32(v.Int()))
	case reflect.Int, reflect.Int64:
		b.(*array.Int64Builder).Append(v.Int())
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		b.(*array.Int64Builder).Append(int64(v.Uint()))
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		b.(*array.Uint64Builder).Append(v.Uint())
	case reflect.Float32:
		b.(*array.Float32Builder).Append(float32(v.Float()))
	case reflect.Float64:
		b.(*array.Float64Builder).Append(v.Float())
	case reflect.String:
		b.(*array.StringBuilder).Append(v.String())
	case reflect.Pointer:
		if v.IsNil() {
			b.AppendNull()
			return
		}
		appendValue(b, v.Elem())
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			b.(*array.BinaryBuilder).Append(v.Bytes())
			return
		}
		lb := b.(*array.ListBuilder)
		lb.Append(true)
		vb := lb.ValueBuilder()
		for i := range v.Len() {
			appendValue(vb, v.Index(i))
		}
	case reflect.Struct:
		idx := stored(t)
		if len(idx) == 0 {
			b.AppendNull()
			return
		}
		sb := b.(*array.StructBuilder)
		sb.Append(true)
		for i, fi := range idx {
			appendValue(sb.FieldBuilder(i), v.Field(fi))
		}
	default:
		panic("pqstate: appendValue of " + t.String()) // arrowType refused it
	}
}

// Unmarshal decodes a file Marshal wrote into v, a pointer to a struct of
// the same type (same fields, in the same order, of the same types).
func Unmarshal(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("pqstate: Unmarshal wants a pointer to a struct, not %T", v)
	}
	rv = rv.Elem()
	want, err := structFields(rv.Type(), rv.Type().Name())
	if err != nil {
		return err
	}
	mem := memory.NewGoAllocator()
	pf, err := file.NewParquetReader(bytes.NewReader(data), file.WithReadProps(parquet.NewReaderProperties(mem)))
	if err != nil {
		return fmt.Errorf("pqstate: not a Parquet snapshot: %w", err)
	}
	defer pf.Close()
	fr, err := pqread.NewFileReader(pf, pqread.ArrowReadProperties{}, mem)
	if err != nil {
		return fmt.Errorf("pqstate: %w", err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		return fmt.Errorf("pqstate: reading the snapshot: %w", err)
	}
	defer tbl.Release()
	got := tbl.Schema().Fields()
	if len(got) != len(want) {
		return fmt.Errorf("pqstate: the snapshot does not fit %s: it has %d fields, want %d", rv.Type(), len(got), len(want))
	}
	for i, f := range want {
		if got[i].Name != f.Name || !arrow.TypeEqual(got[i].Type, f.Type) {
			return fmt.Errorf("pqstate: the snapshot does not fit %s: its field %d is %s %s, want %s %s",
				rv.Type(), i, got[i].Name, got[i].Type, f.Name, f.Type)
		}
	}
	if tbl.NumRows() != 1 {
		return fmt.Errorf("pqstate: the snapshot has %d rows, want 1", tbl.NumRows())
	}
	idx := stored(rv.Type())
	for i := range want {
		col := tbl.Column(i).Data()
		if len(col.Chunks()) != 1 {
			c, err := array.Concatenate(col.Chunks(), mem)
			if err != nil {
				return fmt.Errorf("pqstate: %w", err)
			}
			defer c.Release()
			err = decode(c, 0, rv.Field(idx[i]), want[i].Name)
			if err != nil {
				return err
			}
			continue
		}
		if err := decode(col.Chunk(0), 0, rv.Field(idx[i]), want[i].Name); err != nil {
			return err
		}
	}
	return nil
}

// decode sets v to the value at row i of a (zero when it is null).
func decode(a arrow.Array, i int, v reflect.Value, path string) error {
	t := v.Type()
	if a.IsNull(i) {
		v.SetZero()
		return nil
	}
	if t == timeType {
		ts := a.(*array.Timestamp).Value(i)
		v.Set(reflect.ValueOf(time.Unix(0, int64(ts)).UTC()))
		return nil
	}
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(a.(*array.Boolean).Value(i))
	case reflect.Int8, reflect.Int16, reflect.Int32:
		v.SetInt(int64(a.(*array.Int32).Value(i)))
	case reflect.Int, reflect.Int64:
		v.SetInt(a.(*array.Int64).Value(i))
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		v.SetUint(uint64(a.(*array.Int64).Value(i)))
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		v.SetUint(a.(*array.Uint64).Value(i))
	case reflect.Float32:
		v.SetFloat(float64(a.(*array.Float32).Value(i)))
	case reflect.Float64:
		v.SetFloat(a.(*array.Float64).Value(i))
	case reflect.String:
		v.SetString(a.(*array.String).Value(i))
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		if err := decode(a, i, p.Elem(), path); err != nil {
			return err
		}
		v.Set(p)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			v.SetBytes(bytes.Clone(a.(*array.Binary).Value(i)))
			return nil
		}
		l := a.(*array.List)
		start, end := l.ValueOffsets(i)
		if start == end {
			v.SetZero()
			return nil
		}
		s := reflect.MakeSlice(t, int(end-start), int(end-start))
		vals := l.ListValues()
		for j := start; j < end; j++ {
			if err := decode(vals, int(j), s.Index(int(j-start)), path+"[]"); err != nil {
				return err
			}
		}
		v.Set(s)
	case reflect.Struct:
		idx := stored(t)
		if len(idx) == 0 {
			return nil
		}
		sa := a.(*array.Struct)
		for k, fk := range idx {
			if err := decode(sa.Field(k), i, v.Field(fk), path+"."+t.Field(fk).Name); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("pqstate: state field %s: type %s cannot be read from a snapshot", path, t)
	}
	return nil
}
