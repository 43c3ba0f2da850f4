package pqfast

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/nordisk/thund/rt/format/pqread"
)

// errUnsupported reports a chunk the fast decoder does not decode; its
// column is then read by pqread.
var errUnsupported = errors.New("not decoded by the fast Parquet decoder")

// fastKind is how a leaf's values become its output.
type fastKind uint8

const (
	kindNone   fastKind = iota // not decoded here: pqread reads the leaf
	kindFixed                  // fixed-width values copied as they are
	kindNarrow                 // INT32 values narrowed to 8 or 16 bits
	kindBytes                  // BYTE_ARRAY values as string or binary
	kindDict                   // BYTE_ARRAY values as indices into the chunk's dictionary (read-dict)
)

// fastColumn is one selected leaf of a file.
type fastColumn struct {
	leaf   int         // the leaf column (kind not kindNone)
	leaves []int       // the field's leaves, for pqread
	field  arrow.Field // as pqread's manifest gives it
	phys   parquet.Type
	width  int // bytes of a physical value (fixed, narrow)
	out    int // bytes of an output value (fixed, narrow)
	maxDef int16
	kind   fastKind
}

// fastColumnOf describes leaf's column for the decoder; kind is kindNone
// when the decoder does not make the array pqarrow makes of it.
func fastColumnOf(leaf int, col *schema.Column, f *pqread.SchemaField) fastColumn {
	fc := fastColumn{leaf: leaf, field: *f.Field, phys: col.PhysicalType(), maxDef: col.MaxDefinitionLevel()}
	if len(f.Children) > 0 || col.MaxRepetitionLevel() != 0 || fc.maxDef > 1 {
		return fc
	}
	dt := f.Field.Type
	switch fc.phys {
	case parquet.Types.Int32:
		fc.width = 4
		switch dt.ID() {
		case arrow.INT32, arrow.UINT32, arrow.DATE32, arrow.TIME32:
			fc.kind, fc.out = kindFixed, 4
		case arrow.INT8, arrow.UINT8:
			fc.kind, fc.out = kindNarrow, 1
		case arrow.INT16, arrow.UINT16:
			fc.kind, fc.out = kindNarrow, 2
		}
	case parquet.Types.Int64:
		fc.width = 8
		switch dt.ID() {
		case arrow.INT64, arrow.UINT64, arrow.TIME64:
			fc.kind, fc.out = kindFixed, 8
		case arrow.TIMESTAMP:
			// pqarrow refuses seconds; other units are the stored numbers
			if dt.(*arrow.TimestampType).Unit != arrow.Second {
				fc.kind, fc.out = kindFixed, 8
			}
		}
	case parquet.Types.Float:
		if dt.ID() == arrow.FLOAT32 {
			fc.kind, fc.width, fc.out = kindFixed, 4, 4
		}
	case parquet.Types.Double:
		if dt.ID() == arrow.FLOAT64 {
			fc.kind, fc.width, fc.out = kindFixed, 8, 8
		}
	case parquet.Types.ByteArray:
		switch dt.ID() {
		case arrow.STRING, arrow.BINARY:
			fc.kind = kindBytes
		case arrow.DICTIONARY:
			// pqarrow's read-dict: int32 indices into a dictionary of the
			// chunk's dictionary page (pages that are not dictionary-
			// encoded are left to pqarrow, dictDecoded)
			d := dt.(*arrow.DictionaryType)
			if d.IndexType.ID() == arrow.INT32 && (d.ValueType.ID() == arrow.STRING || d.ValueType.ID() == arrow.BINARY) {
				fc.kind, fc.width, fc.out = kindDict, 4, 4
			}
		}
	}
	return fc
}

// DirtyAllocator is an allocator that can hand out a buffer without zeroing
// it. When a Reader's allocator is one, the decoder takes its output buffers
// from AllocateDirty (it writes every byte of them before any is read) and
// uses each up to its capacity, so Free must take a buffer back whatever its
// length. rt/format's reuse pool is one; arrow-go's builders, which assume
// zeroed memory, must never get a buffer from AllocateDirty.
type DirtyAllocator interface {
	memory.Allocator
	AllocateDirty(size int) []byte
}

// Reader decodes the selected fields of a Parquet file's row groups.
type Reader struct {
	name   string
	obj    io.ReaderAt
	size   int64
	md     *metadata.FileMetaData
	fr     *pqread.FileReader // reads the leaves the decoder does not
	cols   []fastColumn       // the selected leaves, in the table's order
	schema *arrow.Schema      // the table's, as pqarrow's ReadRowGroups makes it
	mem    memory.Allocator   // of the decoded buffers
	pad    int64              // PARQUET-816: bytes a chunk may run past its stated size
}

// NewReader is the decoder of the fields order (indexes into
// fr.Manifest.Fields, ascending: the columns of the tables it makes) of the
// Parquet file obj of size bytes, whose metadata is md and whose name is
// for messages. fr reads what the decoder does not; decoded buffers come
// from mem. It returns nil when it would decode none of the fields: then
// read them through fr alone.
func NewReader(name string, obj io.ReaderAt, size int64, md *metadata.FileMetaData, fr *pqread.FileReader,
	order []int, mem memory.Allocator) *Reader {
	f := &Reader{name: name, obj: obj, size: size, md: md, fr: fr, mem: mem}
	var fields []arrow.Field
	any := false
	for _, fi := range order {
		sf := &fr.Manifest.Fields[fi]
		fc := fastColumn{leaf: sf.ColIndex, field: *sf.Field}
		if sf.ColIndex >= 0 && sf.ColIndex < md.Schema.NumColumns() {
			fc = fastColumnOf(sf.ColIndex, md.Schema.Column(sf.ColIndex), sf)
		}
		fc.leaves = FieldLeaves(sf, nil)
		any = any || fc.kind != kindNone
		f.cols = append(f.cols, fc)
		fields = append(fields, fc.field)
	}
	if !any {
		return nil
	}
	f.schema = arrow.NewSchema(fields, fr.Manifest.SchemaMeta)
	if md.WriterVersion().LessThan(metadata.Parquet816FixedVersion) {
		f.pad = 100 // as pqarrow: old parquet-mr left dictionary page headers out of the sizes
	}
	return f
}

// ReadRowGroup decodes row group g: the table pqarrow's ReadRowGroups makes
// of the selected fields' leaves. It is safe for concurrent use, one row
// group per goroutine.
func (f *Reader) ReadRowGroup(ctx context.Context, g int) (arrow.Table, error) {
	rg := f.md.RowGroup(g)
	n := rg.NumRows()
	arrs := make([]arrow.Array, len(f.cols))
	defer func() {
		for _, a := range arrs {
			if a != nil {
				a.Release()
			}
		}
	}()
	var slow []int // indexes into cols read by pqread
	s := getScratch()
	defer putScratch(s)
	for i := range f.cols {
		c := &f.cols[i]
		if c.kind == kindNone || n <= 0 || n > math.MaxInt32 {
			slow = append(slow, i)
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cc, err := rg.ColumnChunk(c.leaf)
		if err != nil {
			return nil, fmt.Errorf("column %s, row group %d: %w", c.field.Name, g, err)
		}
		a, err := f.decodeChunk(s, c, cc, int(n))
		if errors.Is(err, errUnsupported) {
			slow = append(slow, i)
			continue
		}
		var pe *pageError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("column %s, row group %d, page %d: %w", c.field.Name, g, pe.page, pe.err)
		}
		if err != nil {
			return nil, fmt.Errorf("column %s, row group %d: %w", c.field.Name, g, err)
		}
		arrs[i] = a
	}
	if len(slow) == len(f.cols) {
		return f.fr.ReadRowGroups(ctx, f.leaves(slow), []int{g})
	}
	cols := make([]arrow.Column, len(f.cols))
	defer func() {
		for i := range cols {
			if cols[i].Data() != nil {
				cols[i].Release()
			}
		}
	}()
	if len(slow) > 0 {
		tbl, err := f.fr.ReadRowGroups(ctx, f.leaves(slow), []int{g})
		if err != nil {
			return nil, err
		}
		defer tbl.Release()
		for k, i := range slow {
			cols[i] = *arrow.NewColumn(f.cols[i].field, tbl.Column(k).Data())
		}
	}
	for i, a := range arrs {
		if a != nil {
			cols[i] = arrow.NewColumnFromArr(f.cols[i].field, a)
		}
	}
	return array.NewTable(f.schema, cols, n), nil
}

// leaves are the leaf columns of cols idx, for pqread.
func (f *Reader) leaves(idx []int) []int {
	var out []int
	for _, i := range idx {
		out = append(out, f.cols[i].leaves...)
	}
	return out
}

// FieldLeaves appends the leaf columns of a field of pqread's manifest to
// out: what pqread's ReadRowGroups takes to read the field.
func FieldLeaves(sf *pqread.SchemaField, out []int) []int {
	if sf.ColIndex >= 0 {
		return append(out, sf.ColIndex)
	}
	for i := range sf.Children {
		out = FieldLeaves(&sf.Children[i], out)
	}
	return out
}

// chunkRange is where a column chunk's pages are in the file.
func (f *Reader) chunkRange(cc *metadata.ColumnChunkMetaData) (start, length int64, err error) {
	start = cc.DataPageOffset()
	if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && cc.DictionaryPageOffset() < start {
		start = cc.DictionaryPageOffset()
	}
	length = cc.TotalCompressedSize()
	if start < 0 || length <= 0 || start > f.size || length > f.size-start {
		return 0, 0, fmt.Errorf("column chunk at offset %d of %d bytes is outside the file (%d bytes)", start, length, f.size)
	}
	length += min(f.pad, f.size-start-length)
	return start, length, nil
}

// scratch is the reused memory of one decoding goroutine.
type scratch struct {
	chunk    []byte              // a column chunk's bytes
	page     []byte              // a decompressed page
	dict     []uint64            // a dictionary of fixed-width values (as words; 4-byte values use half)
	dictData []byte              // a dictionary of byte arrays: the values...
	dictOffs []int32             // ...and their offsets
	idx      []int32             // a page's dictionary indices
	seen     map[string]struct{} // the dictionary's values (kindDict), while checked
	dense    []uint64            // a page's present values, before NULLs are spread among them
}

// scratches keeps a few scratch areas for the next row groups and readers.
var scratches struct {
	sync.Mutex
	free []*scratch
}

func getScratch() *scratch {
	scratches.Lock()
	defer scratches.Unlock()
	if n := len(scratches.free); n > 0 {
		s := scratches.free[n-1]
		scratches.free = scratches.free[:n-1]
		return s
	}
	return &scratch{}
}

// maxScratch is the most memory a kept scratch area may hold (a bigger
// one, of a file of huge pages, is left to the collector).
const maxScratch = 32 << 20

func putScratch(s *scratch) {
	if cap(s.chunk)+cap(s.page)+8*cap(s.dict)+cap(s.dictData)+4*cap(s.dictOffs)+4*cap(s.idx)+8*cap(s.dense) > maxScratch {
		return
	}
	scratches.Lock()
	defer scratches.Unlock()
	if len(scratches.free) < runtime.GOMAXPROCS(0) {
		scratches.free = append(scratches.free, s)
	}
}

// grow returns b with length n, reallocated (not copied) when too small.
func grow[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n, n+n/8)
	}
	return b[:n]
}

var zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	// DecodeAll decodes no more than the page header says (cap of dst)
	return zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecodeAllCapLimit(true))
})

// zstdMaxWindow bounds the window a zstd page's frame may declare when its
// size must be checked by streaming it (zstdSize): the decoder allocates a
// ring of the declared window however few bytes follow, so a page of a
// few bytes could otherwise make it allocate 64 MiB. 8 MiB is zstd's
// window up to level 19 for data of unknown size; a page declaring more
// (levels 20 to 22 without the frame's size) is an error naming it.
const zstdMaxWindow = 8 << 20

// zstdStreams are streaming decoders, which decode a frame in windows.
var zstdStreams = sync.Pool{New: func() any {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxWindow(zstdMaxWindow))
	if err != nil {
		panic(err) // only for invalid options
	}
	return d
}}

// zstdSize checks that the zstd frames src decode to size bytes, without
// holding more than a window of them.
func zstdSize(src []byte, size int) error {
	d := zstdStreams.Get().(*zstd.Decoder)
	defer zstdStreams.Put(d)
	if err := d.Reset(bytes.NewReader(src)); err != nil {
		return fmt.Errorf("zstd: %w", err)
	}
	n, err := io.CopyN(io.Discard, d, int64(size)+1)
	if err != nil && err != io.EOF {
		return fmt.Errorf("zstd: %w", err)
	}
	if n > int64(size) {
		return fmt.Errorf("zstd page decodes to more than the %d bytes its header says", size)
	}
	if n < int64(size) {
		return fmt.Errorf("zstd page decodes to %d bytes, its header says %d", n, size)
	}
	return nil
}

// decompress decodes a page's src of codec into *buf, grown to size once
// the compressed block agrees with it (a corrupt header cannot make it
// allocate), or returns src itself when it is not compressed.
func decompress(codec compress.Compression, src []byte, buf *[]byte, size int) ([]byte, error) {
	switch codec {
	case compress.Codecs.Uncompressed:
		if len(src) != size {
			return nil, fmt.Errorf("uncompressed page of %d bytes says it has %d", len(src), size)
		}
		return src, nil
	case compress.Codecs.Snappy:
		n, err := s2.DecodedLen(src)
		if err != nil {
			return nil, fmt.Errorf("snappy: %w", err)
		}
		if n != size {
			return nil, fmt.Errorf("snappy page decodes to %d bytes, its header says %d", n, size)
		}
		*buf = grow(*buf, size) // only once the size is the block's own
		dst := *buf
		out, err := s2.Decode(dst[:size:size], src)
		if err != nil {
			return nil, fmt.Errorf("snappy: %w", err)
		}
		return out, nil
	case compress.Codecs.Zstd:
		dec, err := zstdDecoder()
		if err != nil {
			return nil, err
		}
		// A frame that states its size (arrow-go's writer's do) must state
		// the header's; one that does not is decoded into nothing first,
		// to learn its size, so that a header's size is allocated only
		// once the page is known to decode to it.
		var h zstd.Header
		if err := h.Decode(src); err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		if h.HasFCS && h.FrameContentSize > uint64(size) {
			return nil, fmt.Errorf("zstd page decodes to %d bytes, its header says %d", h.FrameContentSize, size)
		}
		if !h.HasFCS || h.FrameContentSize < uint64(size) { // or more frames follow
			if err := zstdSize(src, size); err != nil {
				return nil, err
			}
		}
		*buf = grow(*buf, size)
		dst := *buf
		out, err := dec.DecodeAll(src, dst[:0:size])
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		if len(out) != size || (size > 0 && &out[0] != &dst[0]) {
			return nil, fmt.Errorf("zstd page decodes to %d bytes or more, its header says %d", len(out), size)
		}
		return out, nil
	}
	return nil, errUnsupported
}

// chunk is the decoding of one column chunk into its output buffers.
type chunk struct {
	f     *Reader
	c     *fastColumn
	s     *scratch
	n     int // rows
	pos   int // rows decoded so far
	codec compress.Compression
	// the output: validity (nil until the first NULL), values (fixed,
	// narrow) or offsets and data (bytes)
	valid []byte
	nulls int
	vals  []byte
	offs  []byte
	data  []byte
	used  int // bytes of data used
	// the dictionary
	hasDict bool
	dictN   int
}

func (ck *chunk) alloc(size int) []byte {
	size = (size + 63) &^ 63
	if p, ok := ck.f.mem.(DirtyAllocator); ok {
		return p.AllocateDirty(size)
	}
	return ck.f.mem.Allocate(size)
}

// free returns the output buffers after an error.
func (ck *chunk) free() {
	for _, b := range [][]byte{ck.valid, ck.vals, ck.offs, ck.data} {
		if b != nil {
			ck.f.mem.Free(b)
		}
	}
	ck.valid, ck.vals, ck.offs, ck.data = nil, nil, nil, nil
}

// aligned reports whether b starts on an 8-byte boundary.
func aligned(b []byte) bool { return uintptr(unsafe.Pointer(unsafe.SliceData(b)))%8 == 0 }

// asBytes is the memory of w as bytes.
func asBytes(w []uint64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), 8*len(w))
}

// words is b as a slice of T, or nil when b is not aligned for T.
func words[T uint32 | uint64 | int32](b []byte) []T {
	var z T
	w := int(unsafe.Sizeof(z))
	if len(b) < w || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%uintptr(w) != 0 {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/w)
}

// decodeChunk decodes column c's chunk cc of n rows.
func (f *Reader) decodeChunk(s *scratch, c *fastColumn, cc *metadata.ColumnChunkMetaData, n int) (arrow.Array, error) {
	if cc.CryptoMetadata() != nil || cc.FilePath() != "" || cc.NumValues() != int64(n) || cc.Type() != c.phys {
		return nil, errUnsupported
	}
	codec := cc.Compression()
	switch codec {
	case compress.Codecs.Uncompressed, compress.Codecs.Snappy, compress.Codecs.Zstd:
	default:
		return nil, errUnsupported
	}
	for _, e := range cc.Encodings() {
		switch e {
		case parquet.Encodings.Plain, parquet.Encodings.PlainDict, parquet.Encodings.RLEDict, parquet.Encodings.RLE, parquet.Encodings.BitPacked:
		default:
			return nil, errUnsupported
		}
	}
	start, length, err := f.chunkRange(cc)
	if err != nil {
		return nil, err
	}
	s.chunk = grow(s.chunk, int(length))
	if m, err := f.obj.ReadAt(s.chunk, start); m < len(s.chunk) {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("reading the column chunk at offset %d: %w", start, err)
	}
	limit := cc.TotalUncompressedSize()
	if limit <= 0 || limit > math.MaxInt32 {
		limit = math.MaxInt32
	}
	ck := &chunk{f: f, c: c, s: s, n: n, codec: codec}
	arr, err := ck.decode(s.chunk, int(limit))
	if err != nil {
		ck.free()
		return nil, err
	}
	return arr, nil
}

// decode decodes the pages of b; no page decompresses to more than limit
// bytes.
func (ck *chunk) decode(b []byte, limit int) (arrow.Array, error) {
	if err := ck.scan(b, limit); err != nil {
		return nil, err
	}
	n, c := ck.n, ck.c
	// the buffers are kept as allocated (Free wants them so) and sliced
	// where used
	switch c.kind {
	case kindFixed, kindNarrow, kindDict:
		ck.vals = ck.alloc(n * c.out)
		if !aligned(ck.vals) {
			return nil, errUnsupported // an allocator that does not align
		}
	case kindBytes:
		ck.offs = ck.alloc(4 * (n + 1))
		if !aligned(ck.offs) {
			return nil, errUnsupported
		}
		words[int32](ck.offs)[0] = 0
	}
	off := 0
	for page := 1; ck.pos < n; page++ {
		if off >= len(b) {
			return nil, fmt.Errorf("column chunk ends after %d of its %d values", ck.pos, n)
		}
		h, hl, err := readPageHeader(b[off:])
		if err != nil {
			return nil, &pageError{page, err}
		}
		off += hl
		if int(h.compressed) > len(b)-off { // scan checked the pages it reached
			return nil, &pageError{page, fmt.Errorf("compressed size %d exceeds the column chunk (%d bytes left of %d)", h.compressed, len(b)-off, len(b))}
		}
		payload := b[off : off+int(h.compressed)]
		off += int(h.compressed)
		switch {
		case h.typ == pageDictionary && h.kind == 7:
			err = ck.dictionaryPage(&h, payload)
		case h.typ == pageData && h.kind == 5:
			err = ck.dataPageV1(&h, payload)
		case h.typ == pageDataV2 && h.kind == 8:
			err = ck.dataPageV2(&h, payload)
		case h.typ == pageDictionary || h.typ == pageData || h.typ == pageDataV2:
			err = fmt.Errorf("page of type %d without its header", h.typ)
		default:
			continue // index pages and kinds added later hold no values
		}
		if err != nil {
			if err != errUnsupported {
				err = &pageError{page, err}
			}
			return nil, err
		}
	}
	return ck.finish(), nil
}

// pageError is an error of page page (from 1) of a chunk.
type pageError struct {
	page int
	err  error
}

func (e *pageError) Error() string { return fmt.Sprintf("page %d: %v", e.page, e.err) }
func (e *pageError) Unwrap() error { return e.err }

// scan walks the page headers of b, the chunk, before anything is
// allocated for its values: every page must lie in the chunk, none may
// decompress to more than limit bytes (the chunk's stated size), and the
// data pages must hold the row group's values, so that a header or a
// footer that claims more than the chunk holds is an error, not an
// allocation.
func (ck *chunk) scan(b []byte, limit int) error {
	off, values := 0, 0
	for page := 1; values < ck.n; page++ {
		if off >= len(b) {
			return fmt.Errorf("column chunk ends after %d of its %d values (%d pages)", values, ck.n, page-1)
		}
		h, hl, err := readPageHeader(b[off:])
		if err != nil {
			return &pageError{page, err}
		}
		off += hl
		if int(h.compressed) > len(b)-off {
			return &pageError{page, fmt.Errorf("compressed size %d exceeds the column chunk (%d bytes left of %d)", h.compressed, len(b)-off, len(b))}
		}
		if int(h.uncompressed) > limit {
			return errUnsupported // more than the chunk's stated size: left to pqarrow to judge
		}
		if h.kind == 5 && h.typ == pageData || h.kind == 8 && h.typ == pageDataV2 {
			values += int(h.numValues)
		}
		off += int(h.compressed)
	}
	return nil
}

// dictionaryPage reads the chunk's dictionary.
func (ck *chunk) dictionaryPage(h *pageHeader, payload []byte) error {
	if ck.hasDict || ck.pos > 0 {
		return errUnsupported // pqarrow decides what a second or late dictionary means
	}
	if h.encoding != encPlain && h.encoding != encPlainDict {
		return errUnsupported
	}
	p, err := decompress(ck.codec, payload, &ck.s.page, int(h.uncompressed))
	if err != nil {
		return err
	}
	nv := int(h.numValues)
	s := ck.s
	switch ck.c.kind {
	case kindFixed, kindNarrow:
		w := ck.c.width
		if nv > len(p)/w {
			return fmt.Errorf("dictionary of %d values in %d bytes", nv, len(p))
		}
		s.dict = grow(s.dict, (nv*w+7)/8)
		copy(asBytes(s.dict), p[:nv*w])
	case kindBytes, kindDict:
		if nv > len(p)/4 {
			return fmt.Errorf("dictionary of %d values in %d bytes", nv, len(p))
		}
		s.dictOffs = grow(s.dictOffs, nv+1)
		s.dictData = grow(s.dictData, len(p)-4*nv)
		s.dictOffs[0] = 0
		q, used := p, 0
		for i := range nv {
			if len(q) < 4 {
				return fmt.Errorf("dictionary value %d of %d is cut short", i, nv)
			}
			l := binary.LittleEndian.Uint32(q)
			if uint64(l) > uint64(len(q)-4) {
				return fmt.Errorf("dictionary value %d of %d is cut short", i, nv)
			}
			used += copy(s.dictData[used:], q[4:4+l])
			s.dictOffs[i+1] = int32(used)
			q = q[4+l:]
		}
		if ck.c.kind == kindDict && !s.distinct(nv) {
			return errUnsupported // pqarrow's dictionary would drop the repeated value
		}
	}
	ck.hasDict, ck.dictN = true, nv
	return nil
}

// distinct reports whether the n byte arrays of the dictionary differ.
func (s *scratch) distinct(n int) bool {
	if s.seen == nil {
		s.seen = map[string]struct{}{}
	}
	defer clear(s.seen) // its keys are views of dictData
	for i := range n {
		v := s.dictData[s.dictOffs[i]:s.dictOffs[i+1]]
		k := unsafe.String(unsafe.SliceData(v), len(v))
		if _, ok := s.seen[k]; ok {
			return false
		}
		s.seen[k] = struct{}{}
	}
	return true
}

// dataPageV1 decodes a data page whose levels and values are compressed
// together.
func (ck *chunk) dataPageV1(h *pageHeader, payload []byte) error {
	count := int(h.numValues)
	if count > ck.n-ck.pos {
		return fmt.Errorf("page of %d values past the column chunk's %d", count, ck.n)
	}
	if ck.c.maxDef > 0 && h.defEncoding != encRLE {
		return errUnsupported // bit-packed levels (deprecated)
	}
	if err := ck.checkEncoding(h.encoding); err != nil {
		return err
	}
	p, err := decompress(ck.codec, payload, &ck.s.page, int(h.uncompressed))
	if err != nil {
		return err
	}
	present := count
	if ck.c.maxDef > 0 {
		if len(p) < 4 {
			return fmt.Errorf("definition levels cut short")
		}
		l := binary.LittleEndian.Uint32(p)
		if uint64(l) > uint64(len(p)-4) {
			return fmt.Errorf("definition levels of %d bytes in a page of %d", l, len(p))
		}
		if present, err = ck.levels(p[4:4+l], count); err != nil {
			return err
		}
		p = p[4+l:]
	}
	return ck.values(h.encoding, p, count, present)
}

// dataPageV2 decodes a data page whose levels are stored uncompressed
// before its values.
func (ck *chunk) dataPageV2(h *pageHeader, payload []byte) error {
	count := int(h.numValues)
	if count > ck.n-ck.pos {
		return fmt.Errorf("page of %d values past the column chunk's %d", count, ck.n)
	}
	if h.repLen != 0 || (ck.c.maxDef == 0 && h.defLen != 0) {
		return errUnsupported
	}
	if err := ck.checkEncoding(h.encoding); err != nil {
		return err
	}
	levels := int(h.defLen)
	if levels > len(payload) || levels > int(h.uncompressed) {
		return fmt.Errorf("definition levels of %d bytes in a page of %d", levels, len(payload))
	}
	present := count
	if ck.c.maxDef > 0 {
		var err error
		if present, err = ck.levels(payload[:levels], count); err != nil {
			return err
		}
	}
	src, size := payload[levels:], int(h.uncompressed)-levels
	codec := ck.codec
	if !h.compressV2 {
		codec = compress.Codecs.Uncompressed
	}
	if ck.c.kind == kindFixed && h.encoding == encPlain && present == count && size == count*ck.c.width &&
		codec != compress.Codecs.Uncompressed {
		// PLAIN values without NULLs: decompressed where they belong
		w := ck.c.width
		dst := ck.vals[ck.pos*w : (ck.pos+count)*w]
		_, err := decompress(codec, src, &dst, size)
		if err == nil {
			ck.pos += count
		}
		return err
	}
	p, err := decompress(codec, src, &ck.s.page, size)
	if err != nil {
		return err
	}
	return ck.values(h.encoding, p, count, present)
}

func (ck *chunk) checkEncoding(e int32) error {
	switch e {
	case encPlain:
		if ck.c.kind == kindDict {
			return errUnsupported // pqarrow makes a dictionary of the values
		}
		return nil
	case encPlainDict, encRLEDictionary:
		if !ck.hasDict {
			return fmt.Errorf("dictionary-encoded page without a dictionary page")
		}
		return nil
	}
	return errUnsupported
}

// ensureValid makes the validity bitmap, every row before row valid.
func (ck *chunk) ensureValid(row int) {
	if ck.valid != nil {
		return
	}
	ck.valid = ck.alloc(int(bitutil.BytesForBits(int64(ck.n))))
	bitutil.SetBitsTo(ck.valid, 0, int64(row), true)
}

// levels decodes the definition levels (bit width 1) of count rows from
// ck.pos into the validity bitmap and returns how many rows have a value.
func (ck *chunk) levels(b []byte, count int) (int, error) {
	r := hybrid{b: b, width: 1}
	row, end, present := ck.pos, ck.pos+count, 0
	for row < end {
		if !r.next() {
			if r.err != nil {
				return 0, fmt.Errorf("definition levels: %w", r.err)
			}
			return 0, fmt.Errorf("definition levels end after %d of %d values", row-ck.pos, count)
		}
		k := min(r.count, end-row)
		if r.packed == nil {
			switch r.value {
			case 1:
				if ck.valid != nil {
					bitutil.SetBitsTo(ck.valid, int64(row), int64(k), true)
				}
				present += k
			case 0:
				ck.ensureValid(row)
				bitutil.SetBitsTo(ck.valid, int64(row), int64(k), false)
				ck.nulls += k
			default:
				return 0, fmt.Errorf("definition level %d above the column's maximum 1", r.value)
			}
		} else {
			ones := bitutil.CountSetBits(r.packed, 0, k)
			if ones < k || ck.valid != nil {
				ck.ensureValid(row)
				bitutil.CopyBitmap(r.packed, 0, k, ck.valid, row)
			}
			present += ones
			ck.nulls += k - ones
		}
		row += k
	}
	return present, nil
}

// values decodes a page's count rows, present of which have a value, from
// p in encoding e.
func (ck *chunk) values(e int32, p []byte, count, present int) error {
	var err error
	switch ck.c.kind {
	case kindFixed, kindNarrow:
		err = ck.fixedValues(e, p, count, present)
	case kindBytes:
		err = ck.byteValues(e, p, count, present)
	case kindDict:
		err = ck.dictValues(p, count, present)
	}
	if err == nil {
		ck.pos += count
	}
	return err
}

// dictValues decodes the indices of a dictionary-encoded page as the
// output's values.
func (ck *chunk) dictValues(p []byte, count, present int) error {
	out := words[int32](ck.vals)[ck.pos : ck.pos+count]
	if present == count {
		_, err := ck.indices(p, present, out)
		return err
	}
	idx, err := ck.indices(p, present, nil)
	if err != nil {
		return err
	}
	spread(ck.vals, 4, int32Bytes(idx), ck.valid, ck.pos, count)
	return nil
}

// int32Bytes is the memory of w as bytes.
func int32Bytes(w []int32) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), 4*len(w))
}

// indices decodes present dictionary indices from p (a bit width byte and
// the hybrid runs) into dst, or into ck.s.idx when dst is nil, checking each
// against the dictionary.
func (ck *chunk) indices(p []byte, present int, dst []int32) ([]int32, error) {
	idx := dst
	if idx == nil {
		idx = grow(ck.s.idx, present)
		ck.s.idx = idx
	}
	if present == 0 {
		return idx, nil
	}
	if len(p) < 1 {
		return nil, fmt.Errorf("dictionary indices missing")
	}
	w := int(p[0])
	if w > 32 {
		return nil, fmt.Errorf("dictionary indices of %d bits", w)
	}
	r := hybrid{b: p[1:], width: w}
	got := 0
	for got < present {
		if !r.next() {
			if r.err != nil {
				return nil, fmt.Errorf("dictionary indices: %w", r.err)
			}
			return nil, fmt.Errorf("dictionary indices end after %d of %d", got, present)
		}
		k := min(r.count, present-got)
		if r.packed == nil {
			if uint64(r.value) >= uint64(ck.dictN) {
				return nil, fmt.Errorf("dictionary index %d of a dictionary of %d", r.value, ck.dictN)
			}
			v := int32(r.value)
			for i := range idx[got : got+k] {
				idx[got+i] = v
			}
		} else {
			unpack(idx[got:got+k], r.packed, w)
			for _, v := range idx[got : got+k] {
				if uint32(v) >= uint32(ck.dictN) {
					return nil, fmt.Errorf("dictionary index %d of a dictionary of %d", uint32(v), ck.dictN)
				}
			}
		}
		got += k
	}
	return idx, nil
}

// fixedValues decodes the values of a page of a fixed-width column.
func (ck *chunk) fixedValues(e int32, p []byte, count, present int) error {
	c, s := ck.c, ck.s
	w := c.width
	var dense []byte // the present values, w bytes each
	if e == encPlain {
		if len(p) < present*w {
			return fmt.Errorf("%d values in %d bytes", present, len(p))
		}
		dense = p[:present*w]
		if present == count && c.kind == kindFixed {
			copy(ck.vals[ck.pos*w:], dense)
			return nil
		}
	} else {
		idx, err := ck.indices(p, present, nil)
		if err != nil {
			return err
		}
		var out []byte
		if present < count || c.kind == kindNarrow {
			s.dense = grow(s.dense, (present*w+7)/8)
			out = asBytes(s.dense)[:present*w]
		} else {
			out = ck.vals[ck.pos*w : (ck.pos+present)*w]
		}
		dict := asBytes(s.dict)
		if w == 4 {
			gather(words[uint32](out), words[uint32](dict), idx)
		} else {
			gather(words[uint64](out), words[uint64](dict), idx)
		}
		if present == count && c.kind == kindFixed {
			return nil
		}
		dense = out
	}
	if c.kind == kindNarrow {
		narrow(ck.vals, c.out, dense, ck.valid, ck.pos, count, present == count)
		return nil
	}
	spread(ck.vals, w, dense, ck.valid, ck.pos, count)
	return nil
}

// gather sets out[i] to dict[idx[i]] (indices already checked).
func gather[T uint32 | uint64](out, dict []T, idx []int32) {
	out = out[:len(idx)]
	for i, x := range idx {
		out[i] = dict[x]
	}
}

// spread places the present values dense (w bytes each) at the valid rows
// among [pos, pos+count) of vals and zeroes the others.
func spread(vals []byte, w int, dense, valid []byte, pos, count int) {
	j := 0
	for i := pos; i < pos+count; {
		// whole valid or NULL bytes of the bitmap at once
		if i%8 == 0 && i+8 <= pos+count {
			switch valid[i/8] {
			case 0xff:
				copy(vals[i*w:(i+8)*w], dense[j*w:(j+8)*w])
				i, j = i+8, j+8
				continue
			case 0:
				clear(vals[i*w : (i+8)*w])
				i += 8
				continue
			}
		}
		if bitutil.BitIsSet(valid, i) {
			copy(vals[i*w:(i+1)*w], dense[j*w:(j+1)*w])
			j++
		} else {
			clear(vals[i*w : (i+1)*w])
		}
		i++
	}
}

// narrow converts the present INT32 values dense to out bytes each (the
// truncation pqarrow's conversion makes) at the valid rows among [pos,
// pos+count) of vals, zeroing the others.
func narrow(vals []byte, out int, dense, valid []byte, pos, count int, all bool) {
	j := 0
	for i := pos; i < pos+count; i++ {
		var v uint32
		if all || bitutil.BitIsSet(valid, i) {
			v = binary.LittleEndian.Uint32(dense[4*j:])
			j++
		}
		if out == 1 {
			vals[i] = byte(v)
		} else {
			binary.LittleEndian.PutUint16(vals[2*i:], uint16(v))
		}
	}
}

// ensureData makes room for need more bytes of byte-array data, guessing
// the chunk's total from the rows decoded so far.
func (ck *chunk) ensureData(need, rows int) error {
	total := ck.used + need
	if total > math.MaxInt32 {
		return errUnsupported // pqarrow splits such a column into chunks
	}
	if total <= len(ck.data) {
		return nil
	}
	guess := total
	if done := ck.pos + rows; done > 0 && done < ck.n {
		guess = int(min(int64(total)*int64(ck.n)/int64(done)+int64(total)/16, math.MaxInt32))
	}
	nb := ck.alloc(guess)
	copy(nb, ck.data[:ck.used])
	if ck.data != nil {
		ck.f.mem.Free(ck.data)
	}
	ck.data = nb[:cap(nb)]
	if _, ok := ck.f.mem.(DirtyAllocator); !ok {
		ck.data = nb // an allocator frees what it handed out, not more
	}
	return nil
}

// byteValues decodes the values of a page of a BYTE_ARRAY column.
func (ck *chunk) byteValues(e int32, p []byte, count, present int) error {
	offs := words[int32](ck.offs)[ck.pos+1 : ck.pos+1+count]
	if e == encPlain {
		if present > len(p)/4 {
			return fmt.Errorf("%d values in %d bytes", present, len(p))
		}
		if err := ck.ensureData(len(p)-4*present, count); err != nil {
			return err
		}
		data, used := ck.data, ck.used
		for i := range offs {
			if present < count && !bitutil.BitIsSet(ck.valid, ck.pos+i) {
				offs[i] = int32(used)
				continue
			}
			if len(p) < 4 {
				return fmt.Errorf("value %d of the page is cut short", i)
			}
			l := binary.LittleEndian.Uint32(p)
			if uint64(l) > uint64(len(p)-4) {
				return fmt.Errorf("value %d of the page is cut short", i)
			}
			used += copy(data[used:], p[4:4+l])
			offs[i] = int32(used)
			p = p[4+l:]
		}
		ck.used = used
		return nil
	}
	idx, err := ck.indices(p, present, nil)
	if err != nil {
		return err
	}
	doffs, ddata := ck.s.dictOffs, ck.s.dictData
	need := 0
	for _, x := range idx {
		need += int(doffs[x+1] - doffs[x])
	}
	if err := ck.ensureData(need, count); err != nil {
		return err
	}
	data, used, j := ck.data, ck.used, 0
	for i := range offs {
		if present < count && !bitutil.BitIsSet(ck.valid, ck.pos+i) {
			offs[i] = int32(used)
			continue
		}
		x := idx[j]
		j++
		used += copy(data[used:], ddata[doffs[x]:doffs[x+1]])
		offs[i] = int32(used)
	}
	ck.used = used
	return nil
}

// finish wraps the output buffers in the chunk's array.
func (ck *chunk) finish() arrow.Array {
	mem := ck.f.mem
	buf := func(b []byte, n int) *memory.Buffer {
		if b == nil {
			return nil
		}
		mb := memory.NewBufferWithAllocator(b, mem)
		mb.ResizeNoShrink(n)
		return mb
	}
	var valid *memory.Buffer
	if ck.valid != nil { // made at the first NULL
		if r := ck.n % 8; r != 0 {
			ck.valid[ck.n/8] &= byte(1)<<r - 1
		}
		valid = buf(ck.valid, int(bitutil.BytesForBits(int64(ck.n))))
	}
	var bufs []*memory.Buffer
	switch ck.c.kind {
	case kindBytes:
		data := memory.NewBufferBytes([]byte{}) // no value has a byte
		if ck.data != nil {
			data = buf(ck.data, ck.used)
		}
		bufs = []*memory.Buffer{valid, buf(ck.offs, 4*(ck.n+1)), data}
	default:
		bufs = []*memory.Buffer{valid, buf(ck.vals, ck.n*ck.c.out)}
	}
	var dict *array.Data
	if ck.c.kind == kindDict {
		dict = ck.dictionary(buf)
		defer dict.Release()
	}
	ad := array.NewDataWithDictionary(ck.c.field.Type, ck.n, bufs, ck.nulls, 0, dict)
	for _, b := range bufs {
		if b != nil {
			b.Release()
		}
	}
	ck.valid, ck.vals, ck.offs, ck.data = nil, nil, nil, nil
	defer ad.Release()
	return array.MakeFromData(ad)
}

// dictionary is the chunk's dictionary as the values of a read-dict
// column, in new buffers.
func (ck *chunk) dictionary(buf func([]byte, int) *memory.Buffer) *array.Data {
	s, n := ck.s, ck.dictN
	offs := ck.alloc(4 * (n + 1))
	copy(offs, int32Bytes(s.dictOffs[:n+1]))
	size := int(s.dictOffs[n])
	data := memory.NewBufferBytes([]byte{})
	if size > 0 {
		b := ck.alloc(size)
		copy(b, s.dictData[:size])
		data = buf(b, size)
	}
	ob := buf(offs, 4*(n+1))
	defer ob.Release()
	defer data.Release()
	return array.NewData(ck.c.field.Type.(*arrow.DictionaryType).ValueType, n, []*memory.Buffer{nil, ob, data}, nil, 0, 0)
}

// hybrid reads the RLE / bit-packed hybrid encoding of values of width
// bits: each next is one run, either count copies of value (packed nil) or
// count values packed LSB first in packed.
type hybrid struct {
	b      []byte
	width  int
	count  int
	value  uint32
	packed []byte
	err    error
}

var errHybrid = errors.New("malformed run")

func (r *hybrid) next() bool {
	for len(r.b) > 0 && r.err == nil {
		if r.run() {
			return true
		}
	}
	return false
}

// run reads one run; false for an empty one or an error.
func (r *hybrid) run() bool {
	h, n := binary.Uvarint(r.b)
	if n <= 0 || h>>1 > math.MaxInt32 {
		r.err = errHybrid
		return false
	}
	r.b = r.b[n:]
	if h&1 == 0 {
		nb := (r.width + 7) / 8
		if len(r.b) < nb {
			r.err = errHybrid
			return false
		}
		var v uint32
		for i := range nb {
			v |= uint32(r.b[i]) << (8 * i)
		}
		if r.width < 32 && v>>r.width != 0 {
			r.err = errHybrid
			return false
		}
		r.b = r.b[nb:]
		r.count, r.value, r.packed = int(h>>1), v, nil
		return r.count > 0
	}
	groups := int(h >> 1)
	nb := groups * r.width
	if r.width == 0 {
		r.count, r.value, r.packed = groups*8, 0, nil
		return r.count > 0
	}
	if nb/r.width != groups || nb > len(r.b) {
		// a last run may be cut short at the end of the data
		nb = len(r.b)
	}
	r.count = nb * 8 / r.width
	r.packed, r.value = r.b[:nb], 0
	r.b = r.b[nb:]
	return r.count > 0
}

// unpack decodes len(out) values of width bits (1 to 32) packed LSB first.
func unpack(out []int32, packed []byte, width int) {
	if width == 0 {
		clear(out)
		return
	}
	mask := uint64(1)<<width - 1
	var acc uint64
	have, j := 0, 0
	for i := range out {
		for have < width {
			acc |= uint64(packed[j]) << have
			j++
			have += 8
		}
		out[i] = int32(uint32(acc & mask))
		acc >>= width
		have -= width
	}
}
