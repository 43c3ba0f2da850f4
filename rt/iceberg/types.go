package iceberg

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	ice "github.com/apache/iceberg-go"
	"github.com/nordisk/thund/rt/format"
)

// TypeOf is the Iceberg type that holds a column of Arrow type dt (ids of
// nested parts are zero), or an error that names why Iceberg cannot hold
// it and what to cast it to. The compiler's ir.IcebergType is the same
// table over the compiler's types (a test keeps the two in step):
//
//	bool                                  boolean
//	int8, int16, int32, uint8, uint16     int
//	int64                                 long
//	float32, float64                      float, double
//	decimal(p,s)                          decimal(p,s)
//	string, binary                        string, binary
//	date32                                date
//	timestamp(s|ms|us)                    timestamp
//	timestamp(s|ms|us, zone)              timestamptz
//	array<T>, map<K,V>, struct<...>       list<T>, map<K,V>, struct<...>
//
// Not held: uint32 and uint64 (Iceberg has no unsigned integers, and a Java
// reader sign-extends a Parquet UINT_32 column), timestamp(ns) (format v3,
// which pyiceberg and Spark 4.1's runtime do not fully read), duration
// (Iceberg has no interval type).
func TypeOf(dt arrow.DataType) (ice.Type, error) {
	var a assigner
	return a.typ(dt, "", nil)
}

// Held reports whether every column of s has an Iceberg type; the error
// names the first that has none, by its path (a.b, a[], a{key}, a{value}).
func Held(s *arrow.Schema) error {
	var a assigner
	for _, f := range s.Fields() {
		if _, err := a.typ(f.Type, f.Name, nil); err != nil {
			return err
		}
	}
	return nil
}

// assigner gives field ids: a part keeps the id it had in the previous
// schema (same path, a type that Iceberg lets evolve in place), else it
// takes the next id after last.
type assigner struct {
	prev map[string]ice.NestedField // by path, from the previous schema
	last int
}

// path separators: names may hold any character but NUL.
const (
	sepField = "\x00."
	sepElem  = "\x00[]"
	sepKey   = "\x00{key}"
	sepValue = "\x00{value}"
)

func readablePath(p string) string {
	r := strings.NewReplacer(sepElem, "[]", sepKey, "{key}", sepValue, "{value}", sepField, ".")
	return r.Replace(p)
}

// id returns the id of the part at path with Iceberg type t (nil for a
// nested type whose children are not known yet: kind names it).
func (a *assigner) id(path string, t ice.Type) int {
	if p, ok := a.prev[path]; ok && evolves(p.Type, t) {
		return p.ID
	}
	a.last++
	return a.last
}

// evolves reports whether a part of type from may be read as type to under
// the same field id: the same type, Iceberg's promotions (int to long,
// float to double, a decimal's precision widened), or the same kind of
// nested type (its parts are judged one by one).
func evolves(from, to ice.Type) bool {
	switch f := from.(type) {
	case *ice.StructType:
		_, ok := to.(*ice.StructType)
		return ok
	case *ice.ListType:
		_, ok := to.(*ice.ListType)
		return ok
	case *ice.MapType:
		_, ok := to.(*ice.MapType)
		return ok
	case ice.Int32Type:
		return to.Equals(ice.PrimitiveTypes.Int32) || to.Equals(ice.PrimitiveTypes.Int64)
	case ice.Float32Type:
		return to.Equals(ice.PrimitiveTypes.Float32) || to.Equals(ice.PrimitiveTypes.Float64)
	case ice.DecimalType:
		t, ok := to.(ice.DecimalType)
		return ok && t.Scale() == f.Scale() && t.Precision() >= f.Precision()
	}
	return from.Equals(to)
}

// typ maps dt, the part at path; with ids != nil it assigns ids to nested
// parts (the caller assigns the part's own id).
func (a *assigner) typ(dt arrow.DataType, path string, ids *assigner) (ice.Type, error) {
	switch t := dt.(type) {
	case *arrow.BooleanType:
		return ice.PrimitiveTypes.Bool, nil
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Uint8Type, *arrow.Uint16Type:
		return ice.PrimitiveTypes.Int32, nil
	case *arrow.Int64Type:
		return ice.PrimitiveTypes.Int64, nil
	case *arrow.Uint32Type:
		return nil, notHeld(path, dt, "Iceberg has no unsigned integers: cast it to int64")
	case *arrow.Uint64Type:
		return nil, notHeld(path, dt, "Iceberg has no unsigned integers: cast it to int64, or to decimal(20,0) to keep every value")
	case *arrow.Float32Type:
		return ice.PrimitiveTypes.Float32, nil
	case *arrow.Float64Type:
		return ice.PrimitiveTypes.Float64, nil
	case *arrow.Decimal128Type:
		return ice.DecimalTypeOf(int(t.Precision), int(t.Scale)), nil
	case *arrow.StringType:
		return ice.PrimitiveTypes.String, nil
	case *arrow.BinaryType:
		return ice.PrimitiveTypes.Binary, nil
	case *arrow.Date32Type:
		return ice.PrimitiveTypes.Date, nil
	case *arrow.TimestampType:
		if t.Unit == arrow.Nanosecond {
			return nil, notHeld(path, dt, "nanosecond timestamps need Iceberg format v3, which pyiceberg and Spark's Iceberg runtime do not fully read: cast it to timestamp(us)")
		}
		if t.TimeZone != "" {
			return ice.PrimitiveTypes.TimestampTz, nil
		}
		return ice.PrimitiveTypes.Timestamp, nil
	case *arrow.DurationType:
		return nil, notHeld(path, dt, "Iceberg has no interval type: cast it to int64 (a count of its unit)")
	case *arrow.ListType:
		ef := t.ElemField()
		lt := &ice.ListType{ElementRequired: !ef.Nullable}
		et, err := a.typ(ef.Type, path+sepElem, ids)
		if err != nil {
			return nil, err
		}
		lt.Element = et
		if ids != nil {
			lt.ElementID = ids.id(path+sepElem, et)
		}
		return lt, nil
	case *arrow.MapType:
		mt := &ice.MapType{ValueRequired: !t.ItemField().Nullable}
		kt, err := a.typ(t.KeyType(), path+sepKey, ids)
		if err != nil {
			return nil, err
		}
		vt, err := a.typ(t.ItemType(), path+sepValue, ids)
		if err != nil {
			return nil, err
		}
		mt.KeyType, mt.ValueType = kt, vt
		if ids != nil {
			mt.KeyID = ids.id(path+sepKey, kt)
			mt.ValueID = ids.id(path+sepValue, vt)
		}
		return mt, nil
	case *arrow.StructType:
		st := &ice.StructType{}
		for _, f := range t.Fields() {
			fp := path + sepField + f.Name
			ft, err := a.typ(f.Type, fp, ids)
			if err != nil {
				return nil, err
			}
			nf := ice.NestedField{Name: f.Name, Type: ft, Required: !f.Nullable}
			if ids != nil {
				nf.ID = ids.id(fp, ft)
			}
			st.FieldList = append(st.FieldList, nf)
		}
		return st, nil
	}
	return nil, notHeld(path, dt, "Iceberg has no such type")
}

func notHeld(path string, dt arrow.DataType, why string) error {
	if path == "" {
		return fmt.Errorf("type %s has no Iceberg type: %s", dt, why)
	}
	return fmt.Errorf("column %s (%s) has no Iceberg type: %s", readablePath(path), format.TypeString(dt), why)
}

// Schema is the Iceberg schema (id schemaID) of an Arrow schema. Parts
// keep the ids they had in prev (nil: a new table) where their path and
// type allow (assigner.id); new parts take ids after lastID. It returns
// the new last column id.
func Schema(schemaID int, s *arrow.Schema, prev *ice.Schema, lastID int) (*ice.Schema, int, error) {
	a := &assigner{prev: map[string]ice.NestedField{}, last: lastID}
	if prev != nil {
		for _, f := range prev.Fields() {
			indexFields(a.prev, f.Name, f)
		}
	}
	fields := make([]ice.NestedField, 0, s.NumFields())
	for _, f := range s.Fields() {
		t, err := a.typ(f.Type, f.Name, a)
		if err != nil {
			return nil, 0, err
		}
		fields = append(fields, ice.NestedField{ID: a.id(f.Name, t), Name: f.Name, Type: t, Required: !f.Nullable})
	}
	return ice.NewSchema(schemaID, fields...), a.last, nil
}

// indexFields records f and its nested parts under their paths.
func indexFields(m map[string]ice.NestedField, path string, f ice.NestedField) {
	m[path] = f
	switch t := f.Type.(type) {
	case *ice.StructType:
		for _, c := range t.FieldList {
			indexFields(m, path+sepField+c.Name, c)
		}
	case *ice.ListType:
		indexFields(m, path+sepElem, ice.NestedField{ID: t.ElementID, Type: t.Element, Required: t.ElementRequired})
	case *ice.MapType:
		indexFields(m, path+sepKey, ice.NestedField{ID: t.KeyID, Type: t.KeyType, Required: true})
		indexFields(m, path+sepValue, ice.NestedField{ID: t.ValueID, Type: t.ValueType, Required: t.ValueRequired})
	}
}

// mappedField is one entry of Iceberg's name mapping
// (schema.name-mapping.default): Thund's Parquet files carry no field ids,
// so readers find a column's id by its name in the file.
type mappedField struct {
	FieldID int           `json:"field-id"`
	Names   []string      `json:"names"`
	Fields  []mappedField `json:"fields,omitempty"`
}

// nameMapping maps the names a Parquet writer gives each part of the
// table's schemas to their ids: a list's element is "element" (the Parquet
// spec's name) or "item" (Arrow's), a map's parts "key" and "value". Every
// schema is mapped, so that a reader time-travelling to a snapshot of an
// older schema finds a column dropped since; the current schema comes
// first, then the others newest first, and a name the mapping has at a
// level keeps its id there (a name reused for a new column maps to the
// new one).
func nameMapping(schemas []*ice.Schema, currentID int) []mappedField {
	ordered := slices.Clone(schemas)
	slices.SortStableFunc(ordered, func(a, b *ice.Schema) int {
		switch {
		case a.ID == currentID:
			return -1
		case b.ID == currentID:
			return 1
		}
		return b.ID - a.ID
	})
	var out []mappedField
	for _, s := range ordered {
		st := s.AsStruct()
		out = mergeMapped(out, mappedFields(&st))
	}
	return out
}

// mappedFields maps the parts of one type.
func mappedFields(t ice.Type) []mappedField {
	switch t := t.(type) {
	case *ice.StructType:
		out := make([]mappedField, 0, len(t.FieldList))
		for _, f := range t.FieldList {
			out = append(out, mappedField{FieldID: f.ID, Names: []string{f.Name}, Fields: mappedFields(f.Type)})
		}
		return out
	case *ice.ListType:
		return []mappedField{{FieldID: t.ElementID, Names: []string{"element", "item"}, Fields: mappedFields(t.Element)}}
	case *ice.MapType:
		return []mappedField{
			{FieldID: t.KeyID, Names: []string{"key"}, Fields: mappedFields(t.KeyType)},
			{FieldID: t.ValueID, Names: []string{"value"}, Fields: mappedFields(t.ValueType)},
		}
	}
	return nil
}

// mergeMapped adds to have the fields of more whose names it lacks, and
// merges the parts of a field both have under one id.
func mergeMapped(have, more []mappedField) []mappedField {
	for _, m := range more {
		i := slices.IndexFunc(have, func(h mappedField) bool { return h.Names[0] == m.Names[0] })
		switch {
		case i < 0:
			have = append(have, m)
		case have[i].FieldID == m.FieldID:
			have[i].Fields = mergeMapped(have[i].Fields, m.Fields)
		}
	}
	return have
}
