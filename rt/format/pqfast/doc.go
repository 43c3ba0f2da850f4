// Package pqfast is the runtime's own decoder of flat Parquet column chunks.
// rt/format's Parquet reader (parquetread.go) hands it the columns a flow
// reads, and it decodes, row group by row group, the common flat chunks
// itself and leaves every other column to rt/format/pqread (arrow-go's
// pqarrow reader, without its link to Arrow Flight), in the same row group.
//
// It owns:
//   - which leaves it decodes: neither repeated nor nested (max repetition
//     level 0, max definition level 0 or 1), of physical type INT32, INT64,
//     FLOAT, DOUBLE or BYTE_ARRAY, compressed with nothing, Snappy or Zstd,
//     whose pages are data pages v1 or v2 and at most one dictionary page,
//     and whose values are PLAIN or dictionary-encoded (decoder.go). A leaf
//     it does not cover, or one whose chunk holds something it does not
//     decode (another encoding, a bit-packed level encoding), is read by
//     pqread (Reader.ReadRowGroup);
//   - exactly the arrays pqread (and so pqarrow) makes of those leaves: the
//     Arrow type pqread's manifest gives the field, the same values and validity; for
//     a byte array column read as a dictionary (rt/format's string bounds),
//     pqread's dictionary array when every page is dictionary-encoded. Its
//     tests hold it to pqread over every type, NULL pattern, page version,
//     codec and encoding, and fuzz the page decoder;
//   - how it reads: a chunk is one ReadAt into a reused buffer; a page is
//     decompressed once into a reused buffer (or, for PLAIN values of a v2
//     page without NULLs, straight into the column's output); values land in
//     an output buffer allocated once per row group at its final size, never
//     zeroed when the allocator is a DirtyAllocator; a chunk without NULLs
//     gets no validity bitmap at all;
//   - Parquet page headers (thrift.go): the Thrift compact protocol, just
//     enough of it for PageHeader and its three page kinds, every other field
//     skipped; ReadPageHeader lends it to rt/format, which checks the pages
//     that arrow-go reads;
//   - what the file states, checked before it allocates by it: the chunk lies in
//     the file, its page headers are walked (scan) before its output is
//     allocated, each page lies in the chunk, decompresses to no more than
//     the chunk says, and the data pages hold the row group's values; a
//     dictionary's values fit its page; a Snappy block or zstd frame decodes
//     to its page's size before that size is allocated.
//
// A chunk it cannot parse is an error naming the column, the row group and
// the page, never a panic.
//
// It must not: know about sources, schemas a pipeline declares, casts or
// row filters (rt/format), open files itself (it reads the io.ReaderAt it
// is given), write Parquet, or import anything of the compiler or of the
// rest of rt.
package pqfast
