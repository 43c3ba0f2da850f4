package pqgen

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// The corruptions of the reader's regression tests: a file's footer or one
// of its page headers rewritten with other values, the other offsets moved
// so that everything else still holds.

// Thrift is a Thrift struct in the compact protocol, decoded generically:
// enough to rewrite a page header's fields.
type Thrift struct{ Fields []ThriftField }

// ThriftField is one field: Value is a bool, an int64 (i8 to i64), a
// float64, a []byte, a *Thrift or a *ThriftList.
type ThriftField struct {
	ID    int16
	Type  byte
	Value any
}

// ThriftList is a list or set of Elem-typed values.
type ThriftList struct {
	Type  byte // 9 list, 10 set
	Elem  byte
	Items []any
}

// Field is the field id of s; nil when absent.
func (s *Thrift) Field(id int16) *ThriftField {
	for i := range s.Fields {
		if s.Fields[i].ID == id {
			return &s.Fields[i]
		}
	}
	return nil
}

// Struct is the struct in field id.
func (s *Thrift) Struct(id int16) *Thrift { return s.Field(id).Value.(*Thrift) }

// Set sets integer field id (which must exist) to v.
func (s *Thrift) Set(id int16, v int64) { s.Field(id).Value = v }

type thriftDec struct {
	b   []byte
	off int
}

func (d *thriftDec) byte() byte { c := d.b[d.off]; d.off++; return c }

func (d *thriftDec) uvarint() uint64 {
	v, n := binary.Uvarint(d.b[d.off:])
	if n <= 0 {
		panic("bad varint")
	}
	d.off += n
	return v
}

func (d *thriftDec) varint() int64 { u := d.uvarint(); return int64(u>>1) ^ -int64(u&1) }

func (d *thriftDec) value(typ byte) any {
	switch typ {
	case 1, 2:
		return d.byte() == 1 // a list element; a field's is in its header
	case 3:
		return int64(int8(d.byte()))
	case 4, 5, 6:
		return d.varint()
	case 7:
		v := math.Float64frombits(binary.LittleEndian.Uint64(d.b[d.off:]))
		d.off += 8
		return v
	case 8:
		n := int(d.uvarint())
		v := bytes.Clone(d.b[d.off : d.off+n])
		d.off += n
		return v
	case 9, 10:
		c := d.byte()
		l := &ThriftList{Type: typ, Elem: c & 0x0f}
		n := int(c >> 4)
		if n == 15 {
			n = int(d.uvarint())
		}
		for range n {
			l.Items = append(l.Items, d.value(l.Elem))
		}
		return l
	case 12:
		return d.strct()
	}
	panic(fmt.Sprintf("thrift type %d", typ))
}

func (d *thriftDec) strct() *Thrift {
	s := &Thrift{}
	var last int16
	for {
		c := d.byte()
		typ := c & 0x0f
		if typ == 0 {
			return s
		}
		id := last + int16(c>>4)
		if c>>4 == 0 {
			id = int16(d.varint())
		}
		var v any
		if typ == 1 || typ == 2 {
			v = typ == 1
		} else {
			v = d.value(typ)
		}
		s.Fields = append(s.Fields, ThriftField{ID: id, Type: typ, Value: v})
		last = id
	}
}

// ParseThrift decodes the struct at the start of b and returns it with its
// length.
func ParseThrift(b []byte) (*Thrift, int) {
	d := &thriftDec{b: b}
	return d.strct(), d.off
}

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func putValue(out []byte, typ byte, v any) []byte {
	switch typ {
	case 1, 2:
		if v.(bool) {
			return append(out, 1)
		}
		return append(out, 2)
	case 3:
		return append(out, byte(v.(int64)))
	case 4, 5, 6:
		return binary.AppendUvarint(out, zigzag(v.(int64)))
	case 7:
		return binary.LittleEndian.AppendUint64(out, math.Float64bits(v.(float64)))
	case 8:
		b := v.([]byte)
		return append(binary.AppendUvarint(out, uint64(len(b))), b...)
	case 9, 10:
		l := v.(*ThriftList)
		if len(l.Items) < 15 {
			out = append(out, byte(len(l.Items))<<4|l.Elem)
		} else {
			out = binary.AppendUvarint(append(out, 0xf0|l.Elem), uint64(len(l.Items)))
		}
		for _, it := range l.Items {
			out = putValue(out, l.Elem, it)
		}
		return out
	case 12:
		return v.(*Thrift).Append(out)
	}
	panic(fmt.Sprintf("thrift type %d", typ))
}

// Append encodes s after out.
func (s *Thrift) Append(out []byte) []byte {
	for _, f := range s.Fields {
		typ := f.Type
		if typ == 1 || typ == 2 {
			typ = 2
			if f.Value.(bool) {
				typ = 1
			}
			out = binary.AppendUvarint(append(out, typ), zigzag(int64(f.ID)))
			continue
		}
		out = binary.AppendUvarint(append(out, typ), zigzag(int64(f.ID)))
		out = putValue(out, typ, f.Value)
	}
	return append(out, 0)
}

// Footer is the parsed footer of data, a Parquet file.
func Footer(t testing.TB, data []byte) *metadata.FileMetaData {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return pf.MetaData()
}

// WithFooter is data with its footer replaced by md's.
func WithFooter(t testing.TB, data []byte, md *metadata.FileMetaData) []byte {
	t.Helper()
	return appendFooter(t, bytes.Clone(body(data)), md)
}

// body is data, a Parquet file, without its footer.
func body(data []byte) []byte {
	return data[:len(data)-8-int(binary.LittleEndian.Uint32(data[len(data)-8:]))]
}

// appendFooter appends md as the footer of the file body.
func appendFooter(t testing.TB, body []byte, md *metadata.FileMetaData) []byte {
	t.Helper()
	foot, err := md.Serialize(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	body = append(body, foot...)
	body = binary.LittleEndian.AppendUint32(body, uint32(len(foot)))
	return append(body, "PAR1"...)
}

// PageAt is the offset of page page (from 1) of column col's chunk in row
// group group of data, and the page's header.
func PageAt(t testing.TB, data []byte, group, col, page int) (int64, *Thrift, int) {
	t.Helper()
	cc := Footer(t, data).RowGroups[group].Columns[col].MetaData
	off := cc.DataPageOffset
	if cc.DictionaryPageOffset != nil && *cc.DictionaryPageOffset > 0 && *cc.DictionaryPageOffset < off {
		off = *cc.DictionaryPageOffset
	}
	for p := 1; ; p++ {
		h, n := ParseThrift(data[off:])
		if p == page {
			return off, h, n
		}
		off += int64(n) + h.Field(3).Value.(int64)
	}
}

// SetPageHeader is data with the header of page page (from 1) of column
// col's chunk in row group group rewritten by set, and every offset after
// it in the footer moved by the change in its length.
func SetPageHeader(t testing.TB, data []byte, group, col, page int, set func(h *Thrift)) []byte {
	t.Helper()
	off, h, n := PageAt(t, data, group, col, page)
	set(h)
	hdr := h.Append(nil)
	delta := int64(len(hdr) - n)
	md := Footer(t, data)
	out := append(bytes.Clone(data[:off]), hdr...)
	out = append(out, body(data)[off+int64(n):]...)
	move := func(p *int64) {
		if p != nil && *p > off {
			*p += delta
		}
	}
	for g, rg := range md.RowGroups {
		move(rg.FileOffset)
		for c, cc := range rg.Columns {
			m := cc.MetaData
			if g == group && c == col {
				m.TotalCompressedSize += delta
				m.TotalUncompressedSize += delta
			}
			move(&m.DataPageOffset)
			move(m.DictionaryPageOffset)
			move(m.IndexPageOffset)
			move(cc.OffsetIndexOffset)
			move(cc.ColumnIndexOffset)
			move(&cc.FileOffset)
		}
		if g == group {
			rg.TotalCompressedSize = ptrAdd(rg.TotalCompressedSize, delta)
		}
	}
	return appendFooter(t, out, md)
}

func ptrAdd(p *int64, d int64) *int64 {
	if p == nil {
		return nil
	}
	v := *p + d
	return &v
}
