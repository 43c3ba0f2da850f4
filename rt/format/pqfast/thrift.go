package pqfast

import (
	"encoding/binary"
	"errors"
)

// Parquet page headers are Thrift structs in the compact protocol. The fast
// column decoder (decoder.go) reads them itself, with just enough of the
// protocol for PageHeader and its three page kinds; every other field
// (statistics, index pages, fields added later) is skipped generically.
// The field ids are those of parquet.thrift.

// Page types (parquet.thrift PageType).
const (
	pageData       = 0
	pageIndex      = 1
	pageDictionary = 2
	pageDataV2     = 3
)

// Encodings (parquet.thrift Encoding).
const (
	encPlain         = 0
	encPlainDict     = 2
	encRLE           = 3
	encBitPacked     = 4
	encRLEDictionary = 8
)

// Thrift compact protocol: the reader's limits, and the type codes of
// fields and list elements.
const (
	maxThriftNesting  = 32
	maxThriftListSize = 1 << 24
	thriftStop        = 0
	thriftTrue        = 1
	thriftFalse       = 2
	thriftByte        = 3
	thriftI16         = 4
	thriftI32         = 5
	thriftI64         = 6
	thriftDouble      = 7
	thriftBinary      = 8
	thriftList        = 9
	thriftSet         = 10
	thriftMap         = 11
	thriftStruct      = 12
	thriftUUID        = 13
)

// pageHeader is the part of a PageHeader the decoder uses.
type pageHeader struct {
	typ          int32
	uncompressed int32 // uncompressed_page_size
	compressed   int32 // compressed_page_size
	has          uint8 // which of the required fields were present (hasX bits)
	// data_page_header, dictionary_page_header or data_page_header_v2
	numValues   int32
	encoding    int32
	defEncoding int32 // v1 only
	numNulls    int32 // v2 only
	defLen      int32 // v2: definition_levels_byte_length
	repLen      int32 // v2: repetition_levels_byte_length
	compressV2  bool  // v2: is_compressed (true when absent)
	kind        int8  // 5, 7 or 8: the field id of the page kind's header seen; 0 none
}

const (
	hasType = 1 << iota
	hasUncompressed
	hasCompressed
	hasNumValues
	hasEncoding
)

var (
	errThrift      = errors.New("malformed page header")
	errThriftShort = errors.New("page header cut short")
)

// thriftReader reads the compact protocol from a byte slice; the first
// error sticks and every later read returns zeroes.
type thriftReader struct {
	b   []byte
	off int
	err error
}

func (r *thriftReader) fail() { r.failWith(errThrift) }

// short fails a read that ran past the end of the bytes: more of them
// might have made a header.
func (r *thriftReader) short() { r.failWith(errThriftShort) }

func (r *thriftReader) failWith(err error) {
	if r.err == nil {
		r.err = err
	}
	r.off = len(r.b)
}

func (r *thriftReader) byte() byte {
	if r.off >= len(r.b) {
		r.short()
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

func (r *thriftReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b[r.off:])
	if n == 0 {
		r.short()
		return 0
	}
	if n < 0 {
		r.fail()
		return 0
	}
	r.off += n
	return v
}

// varint reads a zigzag-encoded integer.
func (r *thriftReader) varint() int64 {
	u := r.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

// i32 reads an i32 (or an enum); a value out of range is an error.
func (r *thriftReader) i32() int32 {
	v := r.varint()
	if v != int64(int32(v)) {
		r.fail()
		return 0
	}
	return int32(v)
}

func (r *thriftReader) skipBytes(n uint64) {
	if n > uint64(len(r.b)-r.off) {
		r.short()
		return
	}
	r.off += int(n)
}

// field reads a field header: the field's type (thriftStop at the end of the
// struct) and id; last is the previous field's id.
func (r *thriftReader) field(last int16) (typ byte, id int16) {
	c := r.byte()
	typ = c & 0x0f
	if typ == thriftStop {
		return thriftStop, 0
	}
	if d := int16(c >> 4); d != 0 {
		return typ, last + d
	}
	v := r.varint()
	if v != int64(int16(v)) {
		r.fail()
		return thriftStop, 0
	}
	return typ, int16(v)
}

// skip skips a value of type typ.
func (r *thriftReader) skip(typ byte, depth int) {
	if depth > maxThriftNesting {
		r.fail()
		return
	}
	switch typ {
	case thriftTrue, thriftFalse:
		// a field's boolean is in its header; a list's takes this byte
		// (skip is only called on fields and on list elements, see below)
	case thriftByte:
		r.byte()
	case thriftI16, thriftI32, thriftI64:
		r.uvarint()
	case thriftDouble:
		r.skipBytes(8)
	case thriftBinary:
		r.skipBytes(r.uvarint())
	case thriftUUID:
		r.skipBytes(16)
	case thriftList, thriftSet:
		c := r.byte()
		n, et := uint64(c>>4), c&0x0f
		if n == 15 {
			n = r.uvarint()
		}
		if n > maxThriftListSize {
			r.fail()
			return
		}
		for range n {
			if r.err != nil {
				return
			}
			if et == thriftTrue || et == thriftFalse {
				r.byte()
				continue
			}
			r.skip(et, depth+1)
		}
	case thriftMap:
		n := r.uvarint()
		if n == 0 {
			return
		}
		if n > maxThriftListSize {
			r.fail()
			return
		}
		c := r.byte()
		kt, vt := c>>4, c&0x0f
		for range n {
			if r.err != nil {
				return
			}
			for _, t := range [2]byte{kt, vt} {
				if t == thriftTrue || t == thriftFalse {
					r.byte()
				} else {
					r.skip(t, depth+1)
				}
			}
		}
	case thriftStruct:
		var last int16
		for r.err == nil {
			t, id := r.field(last)
			if t == thriftStop {
				return
			}
			r.skip(t, depth+1)
			last = id
		}
	default:
		r.fail()
	}
}

// boolField is the value of a boolean field whose header had type typ.
func (r *thriftReader) boolField(typ byte) bool {
	switch typ {
	case thriftTrue:
		return true
	case thriftFalse:
		return false
	}
	r.fail()
	return false
}

// readPageHeader parses the PageHeader at the start of b and returns it
// with its length in bytes.
func readPageHeader(b []byte) (pageHeader, int, error) {
	r := thriftReader{b: b}
	h := pageHeader{compressV2: true}
	var last int16
	for r.err == nil {
		t, id := r.field(last)
		if t == thriftStop {
			break
		}
		switch {
		case id == 1 && t == thriftI32:
			h.typ = r.i32()
			h.has |= hasType
		case id == 2 && t == thriftI32:
			h.uncompressed = r.i32()
			h.has |= hasUncompressed
		case id == 3 && t == thriftI32:
			h.compressed = r.i32()
			h.has |= hasCompressed
		case (id == 5 || id == 7 || id == 8) && t == thriftStruct:
			if h.kind != 0 {
				r.fail() // two page kinds in one header
				break
			}
			h.kind = int8(id)
			r.pageKind(&h, id)
		default:
			r.skip(t, 1)
		}
		last = id
	}
	if r.err != nil {
		return h, 0, r.err
	}
	if h.has&(hasType|hasUncompressed|hasCompressed) != hasType|hasUncompressed|hasCompressed ||
		h.uncompressed < 0 || h.compressed < 0 {
		return h, 0, errThrift
	}
	return h, r.off, nil
}

// pageKind reads a DataPageHeader (id 5), DictionaryPageHeader (7) or
// DataPageHeaderV2 (8) into h.
func (r *thriftReader) pageKind(h *pageHeader, kind int16) {
	var last int16
	for r.err == nil {
		t, id := r.field(last)
		if t == thriftStop {
			break
		}
		switch {
		case id == 1 && t == thriftI32: // num_values, in all three
			h.numValues = r.i32()
			h.has |= hasNumValues
		case kind == 5 && id == 2 && t == thriftI32, kind == 7 && id == 2 && t == thriftI32, kind == 8 && id == 4 && t == thriftI32:
			h.encoding = r.i32()
			h.has |= hasEncoding
		case kind == 5 && id == 3 && t == thriftI32:
			h.defEncoding = r.i32()
		case kind == 8 && id == 2 && t == thriftI32:
			h.numNulls = r.i32()
		case kind == 8 && id == 5 && t == thriftI32:
			h.defLen = r.i32()
		case kind == 8 && id == 6 && t == thriftI32:
			h.repLen = r.i32()
		case kind == 8 && id == 7 && (t == thriftTrue || t == thriftFalse):
			h.compressV2 = r.boolField(t)
		default:
			r.skip(t, 2)
		}
		last = id
	}
	if r.err == nil && (h.has&(hasNumValues|hasEncoding) != hasNumValues|hasEncoding || h.numValues < 0 ||
		h.defLen < 0 || h.repLen < 0 || h.numNulls < 0) {
		r.fail()
	}
}

// PageHeader is what a page header says of its page, for a reader that
// checks pages before another decodes them (rt/format's guard of the
// chunks arrow-go reads).
type PageHeader struct {
	Type         int32 // PageType: 0 data, 1 index, 2 dictionary, 3 data v2
	Compressed   int32 // compressed_page_size: the bytes after the header
	Uncompressed int32 // uncompressed_page_size
	NumValues    int32 // of a data page (v1 or v2); 0 for other pages
	DictValues   int32 // of a dictionary page; 0 for other pages
}

// ErrShortPageHeader is the error of ReadPageHeader when b ends before the
// header does: more bytes might complete it.
var ErrShortPageHeader = errThriftShort

// ReadPageHeader parses the page header at the start of b and returns it
// with its length in bytes.
func ReadPageHeader(b []byte) (PageHeader, int, error) {
	h, n, err := readPageHeader(b)
	if err != nil {
		return PageHeader{}, 0, err
	}
	out := PageHeader{Type: h.typ, Compressed: h.compressed, Uncompressed: h.uncompressed}
	switch {
	case h.kind == 5 && h.typ == pageData, h.kind == 8 && h.typ == pageDataV2:
		out.NumValues = h.numValues
	case h.kind == 7 && h.typ == pageDictionary:
		out.DictValues = h.numValues
	}
	return out, n, nil
}
