package format

import (
	"encoding/binary"
	"fmt"
)

// Arrow IPC metadata (a schema, a record batch's layout, an IPC file's
// footer) is a flatbuffer, which arrow-go decodes without checking it: a
// vector's length is trusted (it makes a slice of it), an offset may point
// anywhere, and a field's children may refer back to shared tables. A
// malformed file could thus make the reader allocate gigabytes, or recurse
// until the stack overflows, neither of which a recover catches. So the
// reader verifies each flatbuffer before arrow-go sees it (ipcmessages.go,
// and the Arrow schema a Parquet file's footer holds): every table,
// vector and string lies inside the buffer, every offset points forward
// (so no reference loops back), fields nest at most maxIPCNesting deep, and
// the tables, vectors and strings visited, counted again each time they
// are reached, add up to at most a few times the buffer's size. The layouts
// are those of Arrow's Schema.fbs, Message.fbs and File.fbs.

// maxIPCNesting is how deeply fields may nest (arrow-go's loader allows 64).
const maxIPCNesting = 64

// Message header types (Message.fbs MessageHeader).
const (
	ipcSchema          = 1
	ipcDictionaryBatch = 2
	ipcRecordBatch     = 3
)

// ipcMeta is what the reader needs of a verified message.
type ipcMeta struct {
	typ     byte  // ipcSchema, ipcDictionaryBatch or ipcRecordBatch
	bodyLen int64 // bodyLength
	batch   ipcBatch
}

// ipcBatch is a record batch's layout (of a RecordBatch message, or of a
// DictionaryBatch's data).
type ipcBatch struct {
	length  int64
	nodes   [][2]int64 // length, null_count
	buffers [][2]int64 // offset, length in the body
	codec   int        // the body's compression (CompressionType: 0 LZ4 frame, 1 zstd); -1 none
}

// fbCheck verifies one flatbuffer; the first error sticks.
type fbCheck struct {
	b      []byte
	budget int // bytes of tables, vectors and strings still to visit
	err    error
}

func newFBCheck(b []byte) *fbCheck { return &fbCheck{b: b, budget: 4*len(b) + 1024} }

func (c *fbCheck) failf(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf(format, args...)
	}
}

// spend takes n bytes off the budget.
func (c *fbCheck) spend(n int) bool {
	c.budget -= n
	if c.budget < 0 {
		c.failf("its references revisit the same bytes too often")
		return false
	}
	return c.err == nil
}

// in reports whether [pos, pos+n) lies inside the buffer.
func (c *fbCheck) in(pos, n int64) bool {
	return pos >= 0 && n >= 0 && pos <= int64(len(c.b)) && n <= int64(len(c.b))-pos
}

func (c *fbCheck) u16(pos int) int { return int(binary.LittleEndian.Uint16(c.b[pos:])) }
func (c *fbCheck) u32(pos int) int64 {
	return int64(binary.LittleEndian.Uint32(c.b[pos:]))
}

// fbTable is a verified table: its position, its vtable's and the number
// of slots the vtable has.
type fbTable struct {
	pos, vt, slots, size int
}

// table verifies the table at pos.
func (c *fbCheck) table(pos int64, what string) (fbTable, bool) {
	if c.err != nil {
		return fbTable{}, false
	}
	if !c.in(pos, 4) {
		c.failf("%s is outside the buffer", what)
		return fbTable{}, false
	}
	vt := pos - int64(int32(binary.LittleEndian.Uint32(c.b[pos:])))
	if !c.in(vt, 4) {
		c.failf("the vtable of %s is outside the buffer", what)
		return fbTable{}, false
	}
	vsize, size := c.u16(int(vt)), c.u16(int(vt)+2)
	if vsize < 4 || vsize%2 != 0 || !c.in(vt, int64(vsize)) || size < 4 || !c.in(pos, int64(size)) {
		c.failf("%s has a malformed vtable", what)
		return fbTable{}, false
	}
	if !c.spend(size) {
		return fbTable{}, false
	}
	return fbTable{pos: int(pos), vt: int(vt), slots: (vsize - 4) / 2, size: size}, true
}

// slot is the position of slot i of t, or -1 when the table has no value
// there; the value's n bytes must lie inside the table.
func (c *fbCheck) slot(t fbTable, i, n int, what string) int {
	if c.err != nil || i >= t.slots {
		return -1
	}
	off := c.u16(t.vt + 4 + 2*i)
	if off == 0 {
		return -1
	}
	if off+n > t.size {
		c.failf("%s lies outside its table", what)
		return -1
	}
	return t.pos + off
}

// scalar verifies a scalar of n bytes in slot i and returns its position
// (-1: absent).
func (c *fbCheck) scalar(t fbTable, i, n int, what string) int { return c.slot(t, i, n, what) }

// ref follows the offset in slot i, which must point forward and inside
// the buffer; -1 when the slot is empty.
func (c *fbCheck) ref(t fbTable, i int, what string) int64 {
	p := c.slot(t, i, 4, what)
	if p < 0 {
		return -1
	}
	return c.follow(int64(p), what)
}

// follow is the target of the offset stored at p.
func (c *fbCheck) follow(p int64, what string) int64 {
	off := c.u32(int(p))
	if off == 0 || !c.in(p+off, 4) {
		c.failf("%s points outside the buffer", what)
		return -1
	}
	return p + off
}

// vector verifies the vector of elements of elem bytes in slot i and
// returns the position of its first element and its length (n -1: absent).
func (c *fbCheck) vector(t fbTable, i, elem int, what string) (int64, int) {
	v := c.ref(t, i, what)
	if v < 0 {
		return 0, -1
	}
	n := c.u32(int(v))
	if !c.in(v+4, n*int64(elem)) || !c.spend(4+int(n)*elem) {
		c.failf("%s of %d elements does not fit in the buffer", what, n)
		return 0, -1
	}
	return v + 4, int(n)
}

// str verifies the string in slot i.
func (c *fbCheck) str(t fbTable, i int, what string) {
	c.vector(t, i, 1, what)
}

// tables verifies the vector of tables in slot i, calling each on every
// element.
func (c *fbCheck) tables(t fbTable, i int, what string, each func(fbTable)) {
	start, n := c.vector(t, i, 4, what)
	for k := 0; k < n && c.err == nil; k++ {
		p := c.follow(start+4*int64(k), what)
		if e, ok := c.table(p, what); ok {
			each(e)
		}
	}
}

// subtable verifies the table in slot i; ok is false when absent or bad.
func (c *fbCheck) subtable(t fbTable, i int, what string) (fbTable, bool) {
	p := c.ref(t, i, what)
	if p < 0 {
		return fbTable{}, false
	}
	return c.table(p, what)
}

// keyValues verifies a custom_metadata vector.
func (c *fbCheck) keyValues(t fbTable, i int) {
	c.tables(t, i, "custom metadata", func(kv fbTable) {
		c.str(kv, 0, "a metadata key")
		c.str(kv, 1, "a metadata value")
	})
}

// root is the buffer's root table.
func (c *fbCheck) root(what string) (fbTable, bool) {
	if len(c.b) < 4 {
		c.failf("%s is too short (%d bytes)", what, len(c.b))
		return fbTable{}, false
	}
	return c.table(c.follow(0, what), what)
}

// verifyIPCMessage verifies a Message flatbuffer (the metadata of one IPC
// message) and returns what the reader needs of it.
func verifyIPCMessage(b []byte) (ipcMeta, error) {
	c := newFBCheck(b)
	var m ipcMeta
	msg, ok := c.root("the message")
	if !ok {
		return m, c.err
	}
	c.scalar(msg, 0, 2, "the version")
	if p := c.scalar(msg, 1, 1, "the header type"); p >= 0 {
		m.typ = b[p]
	}
	if p := c.scalar(msg, 3, 8, "the body length"); p >= 0 {
		m.bodyLen = int64(binary.LittleEndian.Uint64(b[p:]))
	}
	c.keyValues(msg, 4)
	hdr, ok := c.subtable(msg, 2, "the message header")
	if c.err != nil {
		return m, c.err
	}
	if !ok {
		return m, fmt.Errorf("the message has no header")
	}
	switch m.typ {
	case ipcSchema:
		c.schema(hdr)
	case ipcRecordBatch:
		m.batch = c.recordBatch(hdr)
	case ipcDictionaryBatch:
		c.scalar(hdr, 0, 8, "the dictionary id")
		c.scalar(hdr, 2, 1, "isDelta")
		if data, ok := c.subtable(hdr, 1, "the dictionary's data"); ok {
			m.batch = c.recordBatch(data)
		} else if c.err == nil {
			c.failf("the dictionary batch has no data")
		}
	default:
		c.failf("a message of type %d (want a schema, a dictionary or a record batch)", m.typ)
	}
	if c.err == nil && m.bodyLen < 0 {
		c.failf("a body of %d bytes", m.bodyLen)
	}
	return m, c.err
}

// verifyIPCFooter verifies the Footer flatbuffer of an IPC file.
func verifyIPCFooter(b []byte) error {
	c := newFBCheck(b)
	f, ok := c.root("the footer")
	if !ok {
		return c.err
	}
	c.scalar(f, 0, 2, "the version")
	if s, ok := c.subtable(f, 1, "the schema"); ok {
		c.schema(s)
	}
	c.vector(f, 2, 24, "the dictionary blocks")
	c.vector(f, 3, 24, "the record batch blocks")
	c.keyValues(f, 4)
	return c.err
}

// schema verifies a Schema table.
func (c *fbCheck) schema(s fbTable) {
	c.scalar(s, 0, 2, "the endianness")
	c.tables(s, 1, "the fields", func(f fbTable) { c.field(f, 1) })
	c.keyValues(s, 2)
	c.vector(s, 3, 8, "the features")
}

// field verifies a Field table at nesting depth.
func (c *fbCheck) field(f fbTable, depth int) {
	if depth > maxIPCNesting {
		c.failf("fields nest more than %d deep", maxIPCNesting)
		return
	}
	c.str(f, 0, "a field's name")
	c.scalar(f, 1, 1, "a field's nullability")
	var typ byte
	if p := c.scalar(f, 2, 1, "a field's type"); p >= 0 {
		typ = c.b[p]
	}
	if t, ok := c.subtable(f, 3, "a field's type"); ok {
		c.fieldType(typ, t)
	}
	if d, ok := c.subtable(f, 4, "a field's dictionary"); ok {
		c.scalar(d, 0, 8, "a dictionary id")
		if it, ok := c.subtable(d, 1, "a dictionary's index type"); ok {
			c.fieldType(2, it) // Int
		}
		c.scalar(d, 2, 1, "a dictionary's ordering")
		c.scalar(d, 3, 2, "a dictionary's kind")
	}
	c.tables(f, 5, "a field's children", func(ch fbTable) { c.field(ch, depth+1) })
	c.keyValues(f, 6)
}

// fieldTypes are the scalar slots (their sizes) of the tables of Schema.fbs's
// Type union, by type; 0 is a string (Timestamp's time zone), -4 a vector
// of int32 (Union's type ids). A type not listed has no slots that arrow-go
// reads.
var fieldTypes = map[byte][]int{
	2:  {4, 1},    // Int: bitWidth, is_signed
	3:  {2},       // FloatingPoint: precision
	7:  {4, 4, 4}, // Decimal: precision, scale, bitWidth
	8:  {2},       // Date: unit
	9:  {2, 4},    // Time: unit, bitWidth
	10: {2, 0},    // Timestamp: unit, timezone
	11: {2},       // Interval: unit
	14: {2, -4},   // Union: mode, typeIds
	15: {4},       // FixedSizeBinary: byteWidth
	16: {4},       // FixedSizeList: listSize
	17: {1},       // Map: keysSorted
	18: {2},       // Duration: unit
}

func (c *fbCheck) fieldType(typ byte, t fbTable) {
	for i, n := range fieldTypes[typ] {
		switch {
		case n == 0:
			c.str(t, i, "a time zone")
		case n < 0:
			c.vector(t, i, -n, "a union's type ids")
		default:
			c.scalar(t, i, n, "a type parameter")
		}
	}
}

// recordBatch verifies a RecordBatch table and returns its layout.
func (c *fbCheck) recordBatch(rb fbTable) ipcBatch {
	bt := ipcBatch{codec: -1}
	if p := c.scalar(rb, 0, 8, "the batch's length"); p >= 0 {
		bt.length = int64(binary.LittleEndian.Uint64(c.b[p:]))
	}
	pair := func(p int64) [2]int64 {
		return [2]int64{int64(binary.LittleEndian.Uint64(c.b[p:])), int64(binary.LittleEndian.Uint64(c.b[p+8:]))}
	}
	start, n := c.vector(rb, 1, 16, "the field nodes")
	for k := range max(n, 0) {
		bt.nodes = append(bt.nodes, pair(start+16*int64(k)))
	}
	start, n = c.vector(rb, 2, 16, "the buffers")
	for k := range max(n, 0) {
		bt.buffers = append(bt.buffers, pair(start+16*int64(k)))
	}
	if bc, ok := c.subtable(rb, 3, "the body's compression"); ok {
		bt.codec = 0
		if p := c.scalar(bc, 0, 1, "the codec"); p >= 0 {
			bt.codec = int(int8(c.b[p]))
		}
		c.scalar(bc, 1, 1, "the compression method")
	}
	c.vector(rb, 4, 8, "the variadic buffer counts")
	return bt
}
