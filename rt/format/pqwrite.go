package format

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// pqwrite.go is the Parquet writer of every model type, flat and nested: it
// encodes pages itself into buffers that it keeps for the whole file (a
// page's values, its levels, its compressed form, and each column chunk's
// pages until the row group ends), where pqarrow's writer allocates, zeroes
// and regrows them for every page and row group. The footer is arrow-go's
// (parquet/metadata builders), so the schema, logical types, statistics and
// key-value metadata are those pqarrow writes for the same data; what
// differs is only where pages are cut and that data page headers carry no
// page statistics (readers use the column chunk's).

// Parquet encodings and page types, as parquet.thrift numbers them.
const (
	pqEncPlain    = 0
	pqEncRLE      = 3
	pqEncRLEDict  = 8
	pqPageData    = 0
	pqPageDict    = 2
	pqBatchValues = 1024 // rows put between page-size checks (arrow-go's WriteBatchSize)
)

// pqFile writes one Parquet file.
type pqFile struct {
	out    io.Writer
	pos    int64 // bytes written to out
	props  *parquet.WriterProperties
	schema *schema.Schema
	meta   *metadata.FileMetaDataBuilder
	cols   []*pqColumn
	rows   int // rows in the open row group
	groups int16
	codec  compress.Codec
	comp   []byte // a compressed page (reused)
	page   []byte // a page's uncompressed bytes (reused)
	hdr    []byte // a page header (reused)
	err    error
}

// newPQFile starts a file of arrow schema as (already relabelled by
// parquetSchema) with the given properties; dict[i] says whether top-level
// column i is dictionary-encoded (nested columns never are).
func newPQFile(out io.Writer, as *arrow.Schema, props *parquet.WriterProperties, dict []bool) (*pqFile, error) {
	nodes := make(schema.FieldList, len(as.Fields()))
	stored := make([]arrow.Field, len(as.Fields()))
	for i, f := range as.Fields() {
		var err error
		if nodes[i], err = pqNode(f.Name, f); err != nil {
			return nil, fmt.Errorf("column %s: %w", f.Name, err)
		}
		stored[i] = pqStoredField(f)
	}
	root, err := schema.NewGroupNode(props.RootName(), props.RootRepetition(), nodes, -1)
	if err != nil {
		return nil, err
	}
	codec, err := compress.GetCodec(props.Compression())
	if err != nil {
		return nil, err
	}
	p := &pqFile{out: out, props: props, schema: schema.NewSchema(root), codec: codec}
	kv := make(metadata.KeyValueMetadata, 0, 1)
	md := as.Metadata()
	for i, k := range md.Keys() {
		kv.Append(k, md.Values()[i])
	}
	// The Arrow schema as pqarrow stores it (an IPC stream of the schema
	// alone, base64), so that readers restore the types Parquet lacks.
	var ser bytes.Buffer
	md = as.Metadata()
	iw := ipc.NewWriter(&ser, ipc.WithSchema(arrow.NewSchema(stored, &md)), ipc.WithAllocator(props.Allocator()))
	if err := iw.Close(); err != nil {
		return nil, err
	}
	kv.Append("ARROW:schema", base64.StdEncoding.EncodeToString(ser.Bytes()))
	p.meta = metadata.NewFileMetadataBuilder(p.schema, props, kv)
	for i, f := range as.Fields() {
		for _, path := range pqPaths(f, 0) {
			descr := p.schema.Column(len(p.cols))
			c := &pqColumn{
				field:    i,
				descr:    descr,
				optional: f.Nullable && len(path) == 1,
				stats:    metadata.NewStatistics(descr, props.Allocator()),
			}
			if len(path) > 1 {
				c.path = path
			} else if c.dict = dict[i]; c.dict {
				c.dictIdx = make(map[string]int32)
			}
			p.cols = append(p.cols, c)
		}
	}
	return p, p.write([]byte("PAR1"))
}

// pqNode is the Parquet schema node pqarrow gives an Arrow field
// (pqarrow.ToParquet's fieldToNode with the default properties): a list
// is a LIST group of a repeated "list" group of its "element", a map a MAP
// group of repeated "key_value" groups of "key" and "value".
func pqNode(name string, f arrow.Field) (schema.Node, error) {
	rep := parquet.Repetitions.Required
	if f.Nullable {
		rep = parquet.Repetitions.Optional
	}
	switch t := f.Type.(type) {
	case *arrow.StructType:
		children := make(schema.FieldList, t.NumFields())
		for i, cf := range t.Fields() {
			var err error
			if children[i], err = pqNode(cf.Name, cf); err != nil {
				return nil, err
			}
		}
		return schema.NewGroupNode(f.Name, rep, children, -1)
	case *arrow.ListType:
		elem, err := pqNode(name, t.ElemField())
		if err != nil {
			return nil, err
		}
		return schema.ListOfWithName(name, elem, rep, -1)
	case *arrow.MapType:
		key, err := pqNode("key", t.KeyField())
		if err != nil {
			return nil, err
		}
		value, err := pqNode("value", t.ItemField())
		if err != nil {
			return nil, err
		}
		return schema.MapOf(f.Name, key, value, rep, -1)
	}
	phys, logical, length, err := pqLeafType(f.Type)
	if err != nil {
		return nil, err
	}
	return schema.NewPrimitiveNodeLogical(name, rep, logical, phys, length, -1)
}

// pqStoredField is f as pqarrow stores it in the footer's Arrow schema: list
// elements named "element", as the Parquet columns are.
func pqStoredField(f arrow.Field) arrow.Field {
	switch t := f.Type.(type) {
	case *arrow.ListType:
		elem := pqStoredField(t.ElemField())
		elem.Name = "element"
		return arrow.Field{Name: f.Name, Type: arrow.ListOfField(elem), Nullable: f.Nullable, Metadata: f.Metadata}
	case *arrow.StructType:
		fields := make([]arrow.Field, t.NumFields())
		for i, cf := range t.Fields() {
			fields[i] = pqStoredField(cf)
		}
		return arrow.Field{Name: f.Name, Type: arrow.StructOf(fields...), Nullable: f.Nullable, Metadata: f.Metadata}
	case *arrow.MapType:
		return arrow.Field{Name: f.Name, Type: arrow.MapOfFields(pqStoredField(t.KeyField()), pqStoredField(t.ItemField())),
			Nullable: f.Nullable, Metadata: f.Metadata}
	}
	return f
}

// pqStep is one level of a nested column's path from its top-level array
// to a leaf: a struct (its child-th field), a list or map (whose values are
// a struct of key and value), or the leaf.
type pqStep struct {
	kind     byte // 's', 'l' or 0 (the leaf)
	nullable bool
	child    int   // a struct's field
	rep      int16 // a list's repetition level
}

// pqPaths are the paths of f's leaves, in the order of the Parquet columns;
// rep is the repetition level of f's nearest enclosing list.
func pqPaths(f arrow.Field, rep int16) [][]pqStep {
	var out [][]pqStep
	under := func(steps []pqStep, sub [][]pqStep) {
		for _, p := range sub {
			out = append(out, append(slices.Clone(steps), p...))
		}
	}
	switch t := f.Type.(type) {
	case *arrow.StructType:
		for i, cf := range t.Fields() {
			under([]pqStep{{kind: 's', nullable: f.Nullable, child: i}}, pqPaths(cf, rep))
		}
	case *arrow.ListType:
		under([]pqStep{{kind: 'l', nullable: f.Nullable, rep: rep + 1}}, pqPaths(t.ElemField(), rep+1))
	case *arrow.MapType:
		for i, kf := range []arrow.Field{t.KeyField(), t.ItemField()} {
			under([]pqStep{{kind: 'l', nullable: f.Nullable, rep: rep + 1}, {kind: 's', child: i}}, pqPaths(kf, rep+1))
		}
	default:
		out = [][]pqStep{{{nullable: f.Nullable}}}
	}
	return out
}

// pqLeafType is the Parquet type pqarrow gives a flat Arrow type
// (pqarrow.ToParquet with the default properties).
func pqLeafType(t arrow.DataType) (parquet.Type, schema.LogicalType, int, error) {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return parquet.Types.Boolean, schema.NoLogicalType{}, -1, nil
	case *arrow.Int8Type:
		return parquet.Types.Int32, schema.NewIntLogicalType(8, true), -1, nil
	case *arrow.Int16Type:
		return parquet.Types.Int32, schema.NewIntLogicalType(16, true), -1, nil
	case *arrow.Int32Type:
		return parquet.Types.Int32, schema.NewIntLogicalType(32, true), -1, nil
	case *arrow.Int64Type:
		return parquet.Types.Int64, schema.NewIntLogicalType(64, true), -1, nil
	case *arrow.Uint8Type:
		return parquet.Types.Int32, schema.NewIntLogicalType(8, false), -1, nil
	case *arrow.Uint16Type:
		return parquet.Types.Int32, schema.NewIntLogicalType(16, false), -1, nil
	case *arrow.Uint32Type:
		return parquet.Types.Int32, schema.NewIntLogicalType(32, false), -1, nil
	case *arrow.Uint64Type:
		return parquet.Types.Int64, schema.NewIntLogicalType(64, false), -1, nil
	case *arrow.Float32Type:
		return parquet.Types.Float, schema.NoLogicalType{}, -1, nil
	case *arrow.Float64Type:
		return parquet.Types.Double, schema.NoLogicalType{}, -1, nil
	case *arrow.StringType:
		return parquet.Types.ByteArray, schema.StringLogicalType{}, -1, nil
	case *arrow.BinaryType:
		return parquet.Types.ByteArray, schema.NoLogicalType{}, -1, nil
	case *arrow.Date32Type:
		return parquet.Types.Int32, schema.DateLogicalType{}, -1, nil
	case *arrow.Decimal128Type:
		return parquet.Types.FixedLenByteArray, schema.NewDecimalLogicalType(t.Precision, t.Scale), int(decimalBytes(t.Precision)), nil
	case *arrow.TimestampType:
		unit := map[arrow.TimeUnit]schema.TimeUnitType{arrow.Second: schema.TimeUnitMillis, arrow.Millisecond: schema.TimeUnitMillis,
			arrow.Microsecond: schema.TimeUnitMicros, arrow.Nanosecond: schema.TimeUnitNanos}[t.Unit]
		return parquet.Types.Int64, schema.NewTimestampLogicalTypeForce(t.TimeZone != "", unit), -1, nil
	}
	return 0, nil, 0, fmt.Errorf("type %s has no flat Parquet encoding", TypeString(t))
}

// decimalBytes is the fewest bytes that hold every decimal of precision p
// in two's complement (pqarrow.DecimalSize, for the model's precisions).
func decimalBytes(p int32) int32 {
	return int32(math.Ceil((float64(p)*math.Log2(10) + 1) / 8))
}

func (p *pqFile) write(b []byte) error {
	if p.err != nil {
		return p.err
	}
	n, err := p.out.Write(b)
	p.pos += int64(n)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	p.err = err
	return err
}

// Write appends rec's rows, closing a row group each ParquetRowGroupRows
// rows (pqarrow's WriteBuffered cuts them at the same rows).
func (p *pqFile) Write(rec arrow.RecordBatch) error {
	n := int(rec.NumRows())
	max := int(p.props.MaxRowGroupLength())
	for off := 0; off < n; {
		k := min(n-off, max-p.rows)
		for _, c := range p.cols {
			if err := p.putColumn(c, rec.Column(c.field), off, k); err != nil {
				return err
			}
		}
		p.rows += k
		off += k
		if p.rows == max {
			if err := p.flushRowGroup(); err != nil {
				return err
			}
		}
	}
	return p.err
}

// Close writes the last row group and the footer.
func (p *pqFile) Close() error {
	if p.rows > 0 {
		if err := p.flushRowGroup(); err != nil {
			return err
		}
	}
	fmd, err := p.meta.Finish()
	if err != nil {
		return err
	}
	var footer bytes.Buffer
	n, err := fmd.WriteTo(&footer, nil)
	if err != nil {
		return err
	}
	footer.Write(binary.LittleEndian.AppendUint32(nil, uint32(n)))
	footer.WriteString("PAR1")
	return p.write(footer.Bytes())
}

// putColumn puts rows [off, off+n) of a into c's pages, pqBatchValues
// rows at a time, cutting a page when its values reach the data page size.
func (p *pqFile) putColumn(c *pqColumn, a arrow.Array, off, n int) error {
	limit := int(p.props.DataPageSize())
	for n > 0 {
		k := min(n, pqBatchValues)
		if c.path != nil {
			c.putNested(a, off, k)
		} else {
			c.put(a, off, k)
		}
		off += k
		n -= k
		if c.pageBytes() >= limit {
			p.flushPage(c)
		}
		if c.dict && !c.fellBack && len(c.dictVals) >= int(p.props.DictionaryPageSizeLimit()) {
			p.fallBack(c)
		}
	}
	return p.err
}

// flushRowGroup writes every column's chunk and its metadata.
func (p *pqFile) flushRowGroup() error {
	rg := p.meta.AppendRowGroup()
	rg.SetNumRows(p.rows)
	for _, c := range p.cols {
		if c.levels > 0 {
			p.flushPage(c)
		}
		hasDict := c.dict && !c.fellBack
		if hasDict { // the dictionary page, then the pages that use it
			p.writeDictPage(c)
			c.chunk = append(c.chunk, c.dictPages...)
		}
		start := p.pos
		info := metadata.ChunkMetaInfo{NumValues: c.chunkValues, IndexPageOffset: -1, DataPageOffset: start,
			CompressedSize: int64(len(c.chunk)), UncompressedSize: c.uncompressed}
		if hasDict || c.fellBack {
			info.DictPageOffset = start
			info.DataPageOffset = start + int64(c.dictPageLen)
		}
		enc := metadata.EncodingStats{DataEncodingStats: map[parquet.Encoding]int32{}}
		if c.plainPages > 0 {
			enc.DataEncodingStats[parquet.Encodings.Plain] = c.plainPages
		}
		if c.dictPageCount > 0 {
			enc.DataEncodingStats[parquet.Encodings.RLEDict] = c.dictPageCount
			enc.DictEncodingStats = map[parquet.Encoding]int32{parquet.Encodings.Plain: 1}
		}
		cc := rg.NextColumnChunk()
		st, err := c.stats.Encode()
		if err != nil {
			return err
		}
		st.ApplyStatSizeLimits(int(p.props.MaxStatsSizeFor(c.descr.Path())))
		st.Signed = c.descr.SortOrder() == schema.SortSIGNED
		if st.IsSet() {
			cc.SetStats(st)
		}
		if err := cc.Finish(info, hasDict || c.fellBack, c.fellBack, enc); err != nil {
			return err
		}
		if err := p.write(c.chunk); err != nil {
			return err
		}
		c.reset()
	}
	if err := rg.Finish(0, p.groups); err != nil {
		return err
	}
	p.groups++
	p.rows = 0
	return p.err
}

// flushPage ends c's open data page: its levels and values are compressed
// and appended with a page header to c's chunk (or, while c is
// dictionary-encoded, to the pages that wait for the dictionary page).
func (p *pqFile) flushPage(c *pqColumn) {
	page := p.page[:0]
	if c.path != nil {
		page = appendLevels(page, c.repLv, c.descr.MaxRepetitionLevel())
		page = appendLevels(page, c.defLv, c.descr.MaxDefinitionLevel())
	} else if c.optional {
		page = append(page, 0, 0, 0, 0)
		if c.nulls == 0 { // one RLE run of 1s
			page = binary.AppendUvarint(page, uint64(c.levels)<<1)
			page = append(page, 1)
		} else { // one bit-packed run: the validity bits
			nb := (c.levels + 7) / 8
			page = binary.AppendUvarint(page, uint64(nb)<<1|1)
			page = append(page, c.defs[:nb]...)
		}
		binary.LittleEndian.PutUint32(page, uint32(len(page)-4))
	}
	enc := int32(pqEncPlain)
	if c.dict && !c.fellBack {
		enc = pqEncRLEDict
		page = appendDictIndices(page, c.idx, len(c.dictVals))
	} else {
		page = append(page, c.vals...)
	}
	p.page = page
	dst := &c.chunk
	if enc == pqEncRLEDict {
		dst = &c.dictPages
		c.dictPageCount++
	} else {
		c.plainPages++
	}
	p.appendPage(dst, c, pqPageData, enc, int32(c.levels))
	c.chunkValues += int64(c.levels)
	if c.optional {
		clear(c.defs[:(c.levels+7)/8])
	}
	c.defLv, c.repLv = c.defLv[:0], c.repLv[:0]
	c.levels, c.nulls, c.nvals = 0, 0, 0
	c.vals, c.idx, c.raw = c.vals[:0], c.idx[:0], 0
}

// appendPage compresses p.page and appends it with its header to *dst.
func (p *pqFile) appendPage(dst *[]byte, c *pqColumn, typ, enc, values int32) {
	if bound := int(p.codec.CompressBound(int64(len(p.page)))); cap(p.comp) < bound {
		p.comp = make([]byte, bound)
	}
	comp := p.codec.Encode(p.comp[:cap(p.comp)], p.page)
	p.hdr = appendPageHeader(p.hdr[:0], typ, int32(len(p.page)), int32(len(comp)), values, enc)
	*dst = append(append(*dst, p.hdr...), comp...)
	c.uncompressed += int64(len(p.hdr) + len(p.page))
}

// writeDictPage appends c's dictionary page to its chunk (before the data
// pages that refer to it).
func (p *pqFile) writeDictPage(c *pqColumn) {
	p.page = append(p.page[:0], c.dictVals...)
	p.appendPage(&c.chunk, c, pqPageDict, pqEncPlain, int32(len(c.dictIdx)))
	c.dictPageLen = len(c.chunk)
}

// fallBack ends c's dictionary encoding for the rest of the chunk, as
// arrow-go does once a dictionary outgrows its page: the open page is
// flushed with the dictionary, and the rest is PLAIN.
func (p *pqFile) fallBack(c *pqColumn) {
	if c.levels > 0 {
		p.flushPage(c)
	}
	p.writeDictPage(c)
	c.chunk = append(c.chunk, c.dictPages...)
	c.dictPages = c.dictPages[:0]
	c.fellBack = true
}

// appendDictIndices appends a RLE_DICTIONARY page body: the bit width,
// then the indices as one bit-packed run.
func appendDictIndices(dst []byte, idx []int32, dictSize int) []byte {
	w := max(1, bits.Len32(uint32(max(dictSize-1, 0))))
	return appendBitPacked(append(dst, byte(w)), idx, w)
}

// appendLevels appends a data page (v1)'s repetition or definition levels
// of a nested column: their length, then one bit-packed run. A column
// whose maximum level is 0 has none.
func appendLevels(dst []byte, lv []int16, maxLevel int16) []byte {
	if maxLevel == 0 {
		return dst
	}
	at := len(dst)
	dst = appendBitPacked(append(dst, 0, 0, 0, 0), lv, bits.Len16(uint16(maxLevel)))
	binary.LittleEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	return dst
}

// appendBitPacked appends vs as one bit-packed run of the RLE/bit-packing
// hybrid encoding, w bits each, in groups of 8 (the last padded with 0).
func appendBitPacked[T int16 | int32](dst []byte, vs []T, w int) []byte {
	idx := vs
	groups := (len(idx) + 7) / 8
	dst = binary.AppendUvarint(dst, uint64(groups)<<1|1)
	var acc uint64
	nacc := 0
	for g := 0; g < groups*8; g++ {
		var v uint64
		if g < len(idx) {
			v = uint64(idx[g])
		}
		acc |= v << nacc
		nacc += w
		for nacc >= 8 {
			dst = append(dst, byte(acc))
			acc >>= 8
			nacc -= 8
		}
	}
	return dst
}

// appendPageHeader appends a PageHeader in Thrift's compact protocol: a
// data page (v1) header or a dictionary page header.
func appendPageHeader(dst []byte, typ, uncompressed, compressed, values, enc int32) []byte {
	i32 := func(dst []byte, delta byte, v int32) []byte {
		dst = append(dst, delta<<4|5)
		return binary.AppendUvarint(dst, uint64(uint32(v<<1)^uint32(v>>31)))
	}
	dst = i32(dst, 1, typ)
	dst = i32(dst, 1, uncompressed)
	dst = i32(dst, 1, compressed)
	if typ == pqPageDict {
		dst = append(dst, 4<<4|12) // field 7: dictionary_page_header
		dst = i32(dst, 1, values)
		dst = i32(dst, 1, enc)
	} else {
		dst = append(dst, 2<<4|12) // field 5: data_page_header
		dst = i32(dst, 1, values)
		dst = i32(dst, 1, enc)
		dst = i32(dst, 1, pqEncRLE) // definition levels
		dst = i32(dst, 1, pqEncRLE) // repetition levels
	}
	return append(dst, 0, 0) // end of the nested struct, end of the header
}

// pqColumn is one column's open page and, until its row group ends, its
// chunk's finished pages. Every buffer is kept from page to page and row
// group to row group.
type pqColumn struct {
	field    int // the top-level column it is (a leaf of)
	descr    *schema.Column
	optional bool
	path     []pqStep // a nested column's path to its leaf; nil when flat
	stats    metadata.TypedStatistics

	levels int     // levels in the open page (rows, when flat)
	nulls  int     // NULLs among them
	nvals  int     // non-NULL values among them (booleans: bits in vals)
	defs   []byte  // their validity bits (when optional and flat)
	defLv  []int16 // their definition levels (when nested)
	repLv  []int16 // their repetition levels (when nested)
	vals   []byte  // their PLAIN values (not while dictionary-encoded)
	raw    int     // their values' PLAIN size, while dictionary-encoded

	run              arrow.Array // a nested leaf's values not yet put: run[runStart:runEnd]
	runStart, runEnd int

	dict          bool // dictionary-encoded at the chunk's start
	fellBack      bool // the dictionary (and the pages using it) written, the rest of the chunk PLAIN
	dictIdx       map[string]int32
	dictVals      []byte  // the dictionary page's PLAIN values
	dictPageLen   int     // the dictionary page's size in chunk, header included
	idx           []int32 // the open page's indices
	dictPages     []byte  // finished pages waiting for the dictionary page
	dictPageCount int32

	chunk        []byte // finished pages of this row group's chunk
	chunkValues  int64
	uncompressed int64
	plainPages   int32
	i32          []int32 // scratch of converted values
	i64          []int64
	bools        []bool
}

func (c *pqColumn) pageBytes() int {
	if c.dict && !c.fellBack {
		return c.raw
	}
	return len(c.vals)
}

// reset readies c for the next row group.
func (c *pqColumn) reset() {
	c.chunk, c.dictPages = c.chunk[:0], c.dictPages[:0]
	c.chunkValues, c.uncompressed, c.plainPages, c.dictPageCount = 0, 0, 0, 0
	c.fellBack = false
	clear(c.dictIdx)
	c.dictVals, c.dictPageLen = c.dictVals[:0], 0
	c.stats.Reset()
}

// put appends rows [off, off+n) of a to the open page: validity bits,
// values, statistics.
func (c *pqColumn) put(a arrow.Array, off, n int) {
	nulls := 0
	if c.optional {
		need := (c.levels + n + 7) / 8
		if len(c.defs) < need {
			c.defs = append(c.defs, make([]byte, need-len(c.defs)+len(c.defs)/2)...)
		}
		if a.NullN() == 0 {
			bitutil.SetBitsTo(c.defs, int64(c.levels), int64(n), true)
		} else {
			bitutil.CopyBitmap(a.NullBitmapBytes(), a.Data().Offset()+off, n, c.defs, c.levels)
			nulls = n - bitutil.CountSetBits(c.defs, c.levels, n)
		}
	}
	c.levels += n
	c.nulls += nulls
	c.putValues(a, off, n, nulls)
}

// putValues appends the values of rows [off, off+n) of a leaf array, of
// which nulls are NULL, to the open page, and to the statistics.
func (c *pqColumn) putValues(a arrow.Array, off, n, nulls int) {
	valid := func(i int) bool { return nulls == 0 || a.IsValid(i) }
	switch a := a.(type) {
	case *array.Boolean:
		vs := c.bools[:0]
		for i := off; i < off+n; i++ {
			if valid(i) {
				vs = append(vs, a.Value(i))
			}
		}
		c.bools = vs
		need := (c.nvals + len(vs) + 7) / 8
		for len(c.vals) < need {
			c.vals = append(c.vals, 0)
		}
		for j, v := range vs {
			bitutil.SetBitTo(c.vals, c.nvals+j, v)
		}
		c.nvals += len(vs)
		c.stats.(*metadata.BooleanStatistics).Update(vs, int64(nulls))
	case *array.Int8:
		c.putInt32(widen(c, a.Int8Values(), off, n, nulls, valid), nulls)
	case *array.Int16:
		c.putInt32(widen(c, a.Int16Values(), off, n, nulls, valid), nulls)
	case *array.Int32:
		c.putInt32(widen(c, a.Int32Values(), off, n, nulls, valid), nulls)
	case *array.Uint8:
		c.putInt32(widen(c, a.Uint8Values(), off, n, nulls, valid), nulls)
	case *array.Uint16:
		c.putInt32(widen(c, a.Uint16Values(), off, n, nulls, valid), nulls)
	case *array.Uint32:
		c.putInt32(widen(c, a.Uint32Values(), off, n, nulls, valid), nulls)
	case *array.Date32:
		c.putInt32(widen(c, a.Date32Values(), off, n, nulls, valid), nulls)
	case *array.Int64:
		c.putInt64(gather(&c.i64, a.Int64Values(), off, n, nulls, valid, 1), nulls)
	case *array.Uint64:
		c.putInt64(gather(&c.i64, a.Uint64Values(), off, n, nulls, valid, 1), nulls)
	case *array.Timestamp:
		scale := int64(1)
		if a.DataType().(*arrow.TimestampType).Unit == arrow.Second {
			scale = 1000 // stored as milliseconds (parquetSchema)
		}
		c.putInt64(gather(&c.i64, a.TimestampValues(), off, n, nulls, valid, scale), nulls)
	case *array.Float32:
		vs := a.Float32Values()[off : off+n]
		c.vals = appendValid(c.vals, vs, a, off, nulls)
		if nulls == 0 {
			c.stats.(*metadata.Float32Statistics).Update(vs, 0)
		} else {
			c.stats.(*metadata.Float32Statistics).UpdateSpaced(vs, a.NullBitmapBytes(), int64(a.Data().Offset()+off), int64(nulls))
		}
	case *array.Float64:
		vs := a.Float64Values()[off : off+n]
		c.vals = appendValid(c.vals, vs, a, off, nulls)
		if nulls == 0 {
			c.stats.(*metadata.Float64Statistics).Update(vs, 0)
		} else {
			c.stats.(*metadata.Float64Statistics).UpdateSpaced(vs, a.NullBitmapBytes(), int64(a.Data().Offset()+off), int64(nulls))
		}
	case *array.Decimal128:
		w := c.descr.TypeLength()
		start := len(c.vals)
		var be [16]byte
		for i := off; i < off+n; i++ {
			if valid(i) {
				v := a.Value(i)
				binary.BigEndian.PutUint64(be[:8], uint64(v.HighBits()))
				binary.BigEndian.PutUint64(be[8:], v.LowBits())
				c.vals = append(c.vals, be[16-w:]...)
			}
		}
		c.stats.(*metadata.FixedLenByteArrayStatistics).UpdateFromArrowFixedWidth(c.vals[start:], w, int64(nulls))
	case *array.String:
		c.putBytes(a.ValueOffsets(), valueBuffer(a), a, off, n, nulls)
	case *array.Binary:
		c.putBytes(a.ValueOffsets(), valueBuffer(a), a, off, n, nulls)
	}
}

// valueBuffer is the whole value buffer of a string or binary array, which
// its ValueOffsets (those of its slice) index.
func valueBuffer(a arrow.Array) []byte {
	if b := a.Data().Buffers()[2]; b != nil {
		return b.Bytes()
	}
	return nil
}

// putNested puts rows [off, off+n) of the top-level array a: the levels of
// c's leaf in every row, and its values, a run of consecutive values at a
// time.
func (c *pqColumn) putNested(a arrow.Array, off, n int) {
	for i := off; i < off+n; i++ {
		c.walk(0, a, i, 0, 0)
	}
	c.flushRun()
}

// walk appends the levels (and values) of element i of a, at step d of c's
// path, with repetition level rep and definition level def so far.
func (c *pqColumn) walk(d int, a arrow.Array, i int, rep, def int16) {
	step := c.path[d]
	if step.nullable {
		if a.IsNull(i) {
			c.level(def, rep)
			return
		}
		def++
	}
	switch step.kind {
	case 's':
		c.walk(d+1, a.(*array.Struct).Field(step.child), i, rep, def)
	case 'l':
		l := a.(array.ListLike)
		start, end := l.ValueOffsets(i)
		if start == end {
			c.level(def, rep)
			return
		}
		for j := start; j < end; j++ {
			c.walk(d+1, l.ListValues(), int(j), rep, def+1)
			rep = step.rep
		}
	default:
		c.level(def, rep)
		if c.run != a || c.runEnd != i {
			c.flushRun()
			c.run, c.runStart = a, i
		}
		c.runEnd = i + 1
	}
}

// level appends one repetition and definition level; below the maximum
// definition level it is a NULL (or an empty or NULL list) of the leaf.
func (c *pqColumn) level(def, rep int16) {
	c.defLv = append(c.defLv, def)
	c.repLv = append(c.repLv, rep)
	c.levels++
	if def < c.descr.MaxDefinitionLevel() {
		c.nulls++
		c.stats.IncNulls(1)
	}
}

// flushRun puts the pending run of leaf values.
func (c *pqColumn) flushRun() {
	if c.run != nil && c.runEnd > c.runStart {
		c.putValues(c.run, c.runStart, c.runEnd-c.runStart, 0)
	}
	c.run, c.runStart, c.runEnd = nil, 0, 0
}

// putBytes puts string or binary values: PLAIN (a length and the bytes) or,
// while dictionary-encoded, an index into the chunk's dictionary.
func (c *pqColumn) putBytes(offsets []int32, data []byte, a arrow.Array, off, n, nulls int) {
	st := c.stats.(*metadata.ByteArrayStatistics)
	if nulls == 0 {
		st.UpdateFromArrowOffsets(data, offsets[off:off+n+1], 0)
	} else {
		st.UpdateFromArrowOffsetsSpaced(data, offsets[off:off+n+1], a.NullBitmapBytes(), int64(a.Data().Offset()+off), int64(nulls))
	}
	for i := off; i < off+n; i++ {
		if nulls > 0 && a.IsNull(i) {
			continue
		}
		v := data[offsets[i]:offsets[i+1]]
		if c.dict && !c.fellBack {
			k, ok := c.dictIdx[string(v)]
			if !ok {
				k = int32(len(c.dictIdx))
				c.dictIdx[string(v)] = k
				c.dictVals = binary.LittleEndian.AppendUint32(c.dictVals, uint32(len(v)))
				c.dictVals = append(c.dictVals, v...)
			}
			c.idx = append(c.idx, k)
			c.raw += 4 + len(v)
			continue
		}
		c.vals = binary.LittleEndian.AppendUint32(c.vals, uint32(len(v)))
		c.vals = append(c.vals, v...)
	}
}

func (c *pqColumn) putInt32(vs []int32, nulls int) {
	c.vals = appendRaw(c.vals, vs)
	c.stats.(*metadata.Int32Statistics).Update(vs, int64(nulls))
}

func (c *pqColumn) putInt64(vs []int64, nulls int) {
	c.vals = appendRaw(c.vals, vs)
	c.stats.(*metadata.Int64Statistics).Update(vs, int64(nulls))
}

// widen gathers the non-NULL values of rows [off, off+n) into c's int32
// scratch (INT32 holds the narrower and the unsigned widths).
func widen[T int8 | int16 | int32 | uint8 | uint16 | uint32 | arrow.Date32](c *pqColumn, src []T, off, n, nulls int, valid func(int) bool) []int32 {
	out := c.i32[:0]
	for i := off; i < off+n; i++ {
		if nulls == 0 || valid(i) {
			out = append(out, int32(src[i]))
		}
	}
	c.i32 = out
	return out
}

// gather gathers the non-NULL values of rows [off, off+n) into *scratch,
// times scale.
func gather[T int64 | uint64 | arrow.Timestamp](scratch *[]int64, src []T, off, n, nulls int, valid func(int) bool, scale int64) []int64 {
	out := (*scratch)[:0]
	for i := off; i < off+n; i++ {
		if nulls == 0 || valid(i) {
			out = append(out, int64(src[i])*scale)
		}
	}
	*scratch = out
	return out
}

// appendValid appends the PLAIN bytes of the non-NULL values of vs (rows
// off onwards of a).
func appendValid[T float32 | float64](dst []byte, vs []T, a arrow.Array, off, nulls int) []byte {
	if nulls == 0 {
		return appendRaw(dst, vs)
	}
	for i := range vs {
		if a.IsValid(off + i) {
			dst = appendRaw(dst, vs[i:i+1])
		}
	}
	return dst
}

// appendRaw appends vs's little-endian bytes (Parquet's PLAIN encoding of
// fixed-width numbers on the little-endian machines arrow-go supports).
func appendRaw[T int32 | int64 | float32 | float64](dst []byte, vs []T) []byte {
	if len(vs) == 0 {
		return dst
	}
	return append(dst, unsafe.Slice((*byte)(unsafe.Pointer(&vs[0])), len(vs)*int(unsafe.Sizeof(vs[0])))...)
}
