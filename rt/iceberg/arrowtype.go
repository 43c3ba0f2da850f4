package iceberg

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	ice "github.com/apache/iceberg-go"
)

// ArrowType is the model's type (an Arrow type) of a column of Iceberg type
// t, the reverse of TypeOf, as Spark's Iceberg source maps them:
//
//	boolean                               bool
//	int, long                             int32, int64
//	float, double                         float32, float64
//	decimal(p,s)                          decimal(p,s)
//	string, binary                        string, binary
//	date                                  date32
//	timestamp, timestamptz                timestamp(us), timestamp(us, "UTC")
//	list<T>, map<K,V>, struct<...>        array<T>, map<K,V>, struct<...>
//
// A list's element is named "element" (as the DSL's array<T>), nested
// fields keep their names and nullability (an Iceberg required part is
// not null). The error names the type and why it is refused: uuid, fixed,
// time, timestamp_ns, timestamptz_ns, variant, geometry, geography and
// unknown have no type in the model (the compiler refuses such a column
// at check, naming it).
func ArrowType(t ice.Type) (arrow.DataType, error) {
	switch t := t.(type) {
	case ice.BooleanType:
		return arrow.FixedWidthTypes.Boolean, nil
	case ice.Int32Type:
		return arrow.PrimitiveTypes.Int32, nil
	case ice.Int64Type:
		return arrow.PrimitiveTypes.Int64, nil
	case ice.Float32Type:
		return arrow.PrimitiveTypes.Float32, nil
	case ice.Float64Type:
		return arrow.PrimitiveTypes.Float64, nil
	case ice.DecimalType:
		if t.Precision() < 1 || t.Precision() > 38 || t.Scale() < 0 || t.Scale() > t.Precision() {
			return nil, fmt.Errorf("Iceberg type %s: want a precision of 1 to 38 and a scale of 0 to the precision", t)
		}
		return &arrow.Decimal128Type{Precision: int32(t.Precision()), Scale: int32(t.Scale())}, nil
	case ice.StringType:
		return arrow.BinaryTypes.String, nil
	case ice.BinaryType:
		return arrow.BinaryTypes.Binary, nil
	case ice.DateType:
		return arrow.FixedWidthTypes.Date32, nil
	case ice.TimestampType:
		return &arrow.TimestampType{Unit: arrow.Microsecond}, nil
	case ice.TimestampTzType:
		return &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, nil
	case *ice.ListType:
		et, err := ArrowType(t.Element)
		if err != nil {
			return nil, err
		}
		return arrow.ListOfField(arrow.Field{Name: "element", Type: et, Nullable: !t.ElementRequired}), nil
	case *ice.MapType:
		kt, err := ArrowType(t.KeyType)
		if err != nil {
			return nil, err
		}
		vt, err := ArrowType(t.ValueType)
		if err != nil {
			return nil, err
		}
		m := arrow.MapOf(kt, vt)
		m.SetItemNullable(!t.ValueRequired)
		return m, nil
	case *ice.StructType:
		fs := make([]arrow.Field, 0, len(t.FieldList))
		for _, f := range t.FieldList {
			ft, err := ArrowType(f.Type)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", f.Name, err)
			}
			fs = append(fs, arrow.Field{Name: f.Name, Type: ft, Nullable: !f.Required})
		}
		return arrow.StructOf(fs...), nil
	case ice.UUIDType:
		return nil, refused(t, "cast it to string in the writing engine")
	case ice.FixedType:
		return nil, refused(t, "cast it to binary in the writing engine")
	case ice.TimeType:
		return nil, refused(t, "the model has no time of day: cast it to string or to a count of microseconds")
	case ice.TimestampNsType, ice.TimestampTzNsType:
		return nil, refused(t, "nanosecond timestamps are Iceberg format v3, which Thund does not read: cast it to timestamp")
	}
	return nil, refused(t, "the model has no such type")
}

func refused(t ice.Type, why string) error {
	if t == nil {
		return fmt.Errorf("no Iceberg type: %s", why)
	}
	return fmt.Errorf("Iceberg type %s is not read: %s", t, why)
}

// ArrowSchema is the model's schema of an Iceberg schema: each column by
// ArrowType, nullable unless required. The error names the column.
func ArrowSchema(s *ice.Schema) (*arrow.Schema, error) {
	fs := make([]arrow.Field, 0, len(s.Fields()))
	for _, f := range s.Fields() {
		t, err := ArrowType(f.Type)
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", f.Name, err)
		}
		fs = append(fs, arrow.Field{Name: f.Name, Type: t, Nullable: !f.Required})
	}
	return arrow.NewSchema(fs, nil), nil
}
