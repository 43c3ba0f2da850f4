package nested

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/nordisk/thund/rt/spill"
)

// The tags of PutSpill's layout: one byte per value, then its payload.
const (
	tagNull byte = iota
	tagArray
	tagMap
	tagStruct
	tagBool
	tagInt8
	tagInt16
	tagInt32
	tagInt64
	tagUint8
	tagUint16
	tagUint32
	tagUint64
	tagFloat32
	tagFloat64
	tagDecimal
	tagString
	tagBytes
)

// PutSpill appends nested value v to a spill file (an operator past
// --memory-limit writing its rows out); GetSpill reads it back as it was.
func PutSpill(w *spill.Writer, v any) {
	tag := func(t byte) { w.PutUvarint(uint64(t)) }
	parts := func(t byte, ps []any) {
		tag(t)
		w.PutUvarint(uint64(len(ps)))
		for _, p := range ps {
			PutSpill(w, p)
		}
	}
	switch v := v.(type) {
	case nil:
		tag(tagNull)
	case Array:
		parts(tagArray, v)
	case Struct:
		parts(tagStruct, v)
	case *Map:
		parts(tagMap, v.Keys)
		w.PutUvarint(uint64(len(v.Values)))
		for _, p := range v.Values {
			PutSpill(w, p)
		}
	case bool:
		tag(tagBool)
		w.PutBool(v)
	case int8:
		tag(tagInt8)
		w.PutInt64(int64(v))
	case int16:
		tag(tagInt16)
		w.PutInt64(int64(v))
	case int32:
		tag(tagInt32)
		w.PutInt64(int64(v))
	case int64:
		tag(tagInt64)
		w.PutInt64(v)
	case uint8:
		tag(tagUint8)
		w.PutUvarint(uint64(v))
	case uint16:
		tag(tagUint16)
		w.PutUvarint(uint64(v))
	case uint32:
		tag(tagUint32)
		w.PutUvarint(uint64(v))
	case uint64:
		tag(tagUint64)
		w.PutUvarint(v)
	case float32:
		tag(tagFloat32)
		w.PutFloat64(float64(v))
	case float64:
		tag(tagFloat64)
		w.PutFloat64(v)
	case decimal128.Num:
		tag(tagDecimal)
		w.PutInt64(v.HighBits())
		w.PutUint64(v.LowBits())
	case string:
		tag(tagString)
		w.PutString(v)
	case []byte:
		tag(tagBytes)
		w.PutBytes(v)
	default:
		panic(fmt.Sprintf("nested: cannot spill a %T", v))
	}
}

// GetSpill reads a value PutSpill wrote (nil after a read error: see
// Reader.Err).
func GetSpill(r *spill.Reader) any {
	parts := func() []any {
		n := r.GetUvarint()
		if r.Err() != nil || n > 1<<40 {
			return nil
		}
		ps := make([]any, 0, min(n, 1024))
		for range n {
			if r.Err() != nil {
				return nil
			}
			ps = append(ps, GetSpill(r))
		}
		return ps
	}
	switch t := byte(r.GetUvarint()); t {
	case tagNull:
		return nil
	case tagArray:
		return Array(parts())
	case tagStruct:
		return Struct(parts())
	case tagMap:
		k := parts()
		return &Map{Keys: k, Values: parts()}
	case tagBool:
		return r.GetBool()
	case tagInt8:
		return int8(r.GetInt64())
	case tagInt16:
		return int16(r.GetInt64())
	case tagInt32:
		return int32(r.GetInt64())
	case tagInt64:
		return r.GetInt64()
	case tagUint8:
		return uint8(r.GetUvarint())
	case tagUint16:
		return uint16(r.GetUvarint())
	case tagUint32:
		return uint32(r.GetUvarint())
	case tagUint64:
		return r.GetUvarint()
	case tagFloat32:
		return float32(r.GetFloat64())
	case tagFloat64:
		return r.GetFloat64()
	case tagDecimal:
		hi := r.GetInt64()
		return decimal128.New(hi, r.GetUint64())
	case tagString:
		return r.GetString()
	case tagBytes:
		return r.GetBytes()
	default:
		if r.Err() == nil {
			panic(fmt.Sprintf("nested: spill tag %d", t))
		}
		return nil
	}
}
